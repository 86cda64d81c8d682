//! What the property tests share (`tofu-ide/tests/properties.rs` and, through
//! a `#[path]` module, `tofu-lsp/tests/properties.rs`): a sample of real files
//! from `../shared/corpus`, the mutations an editor's half-typed text goes
//! through, the case counts, and a runner that spreads a long run over every
//! core.
//!
//! Case counts: `PROPTEST_CASES` sets the count of the bounded properties
//! (small inputs, a bounded number of probe positions) and, up to
//! [`LONG_RUN_THRESHOLD`], of the thorough ones (hover at every position);
//! above it, it selects the long run: the bounded properties run that many
//! cases over every core, and the thorough ones keep their CI count. Each
//! property is run by [`run_property`] rather than the `proptest!` macro, so
//! that the variable means that and nothing else.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseResult, TestRunner};
use tofu_syntax::TextRange;

/// `PROPTEST_CASES` above this selects the long run.
pub const LONG_RUN_THRESHOLD: u32 = 10_000;

/// `PROPTEST_CASES`, when set to a number.
pub fn requested_cases() -> Option<u32> {
    std::env::var("PROPTEST_CASES").ok()?.trim().parse().ok()
}

/// True when `PROPTEST_CASES` asks for the long run.
pub fn is_long_run() -> bool {
    requested_cases().is_some_and(|cases| cases > LONG_RUN_THRESHOLD)
}

/// Cases for a thorough property: `PROPTEST_CASES` up to the threshold,
/// `ci_cases` otherwise.
pub fn thorough_cases(ci_cases: u32) -> u32 {
    match requested_cases() {
        Some(cases) if cases <= LONG_RUN_THRESHOLD => cases,
        _ => ci_cases,
    }
}

/// Cases for a bounded property: `PROPTEST_CASES`, `ci_cases` when unset.
pub fn bounded_cases(ci_cases: u32) -> u32 {
    requested_cases().unwrap_or(ci_cases)
}

/// A sample of real files: every syntax, CRLF files, `.tofu`, override
/// files, each cut to its first 6,000 bytes.
pub fn samples() -> &'static Vec<(String, Vec<u8>)> {
    static SAMPLES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        let picks = [
            "terraform-aws-vpc/main.tf",
            "terraform-aws-vpc/variables.tf",
            "terraform-azurerm-app-gateway/versions.tofu",
            "terraform-azurerm-app-gateway/variables-app-gateway.tf",
            "terraform-aws-components/modules/eks/cluster/main.tf",
            "terraform-aws-components/deprecated/aws/accounts/audit.tf",
            "terraform-aws-components/mixins/providers.depth-1.tf",
            "terraform-aws-secrets-manager/main.tf",
            "opentofu-testdata/valid-files/resources.tf.json",
            "opentofu-testdata/valid-files/variables.tf.json",
            "opentofu-testdata/valid-modules/override-module/a_override.tf",
            "opentofu-testdata/tofu-and-tf-files/main.tofu.json",
        ];
        let samples: Vec<(String, Vec<u8>)> = picks
            .iter()
            .filter_map(|pick| {
                let path = corpus.join(pick);
                let bytes = std::fs::read(&path).ok()?;
                // Keep cases small enough to hover at every position.
                let bytes = bytes
                    .get(..bytes.len().min(6_000))
                    .unwrap_or(&bytes)
                    .to_vec();
                Some((path.file_name()?.to_string_lossy().into_owned(), bytes))
            })
            .collect();
        assert!(
            samples.len() >= 8,
            "the corpus must sit beside the repository"
        );
        samples
    })
}

/// What editors insert half-way: brackets, quotes, template openers, heredoc
/// markers, line breaks of every kind, NUL, invalid UTF-8, two-, three- and
/// four-byte characters (U+2028 is a line break to Unicode, not to LSP).
pub const INSERTIONS: [&[u8]; 21] = [
    b"{",
    b"}",
    b"\"",
    b"${",
    b"%{",
    b"<<EOT\n",
    b"\r",
    b"\r\n",
    b"\0",
    b"\xff\xfe",
    b"\xf0\x9f\x98\x80",
    b"\xc3\xa9",
    b"\xe2\x80\xa8",
    b"[",
    b"]",
    b"\n}\n",
    b"resource \"a\" \"b\" {",
    b"=",
    b"\\",
    b"locals {\n  x = 1\n}\n",
    b"\xef\xbb\xbf",
];

#[derive(Clone, Debug)]
pub enum Mutation {
    Truncate(usize),
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize, usize),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 0usize..200).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), 0..INSERTIONS.len()).prop_map(|(at, which)| Mutation::Insert(at, which)),
        (any::<usize>(), 0usize..200, any::<usize>())
            .prop_map(|(at, len, to)| Mutation::Duplicate(at, len, to)),
    ]
}

/// Applies one mutation; every byte offset is taken modulo the length, so any
/// byte (inside a character too) can be cut at.
pub fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let len = bytes.len().max(1);
    match *mutation {
        Mutation::Truncate(at) => bytes.truncate(at % len),
        Mutation::Delete(at, n) => {
            let start = (at % len).min(bytes.len());
            let end = (start + n).min(bytes.len());
            bytes.drain(start..end);
        }
        Mutation::Insert(at, which) => {
            let at = (at % len).min(bytes.len());
            let insertion = INSERTIONS[which];
            bytes.splice(at..at, insertion.iter().copied());
        }
        Mutation::Duplicate(at, n, to) => {
            let start = (at % len).min(bytes.len());
            let end = (start + n).min(bytes.len());
            let span = bytes[start..end].to_vec();
            let to = (to % len).min(bytes.len());
            bytes.splice(to..to, span);
        }
    }
}

/// A small input: `len` bytes of sample `sample` from `start` (both taken
/// modulo what fits), cut at any byte.
pub fn window(sample: usize, start: usize, len: usize) -> (String, Vec<u8>) {
    let samples = samples();
    let (name, bytes) = &samples[sample % samples.len()];
    let start = start % bytes.len().max(1);
    let end = (start + len).min(bytes.len());
    (name.clone(), bytes[start..end].to_vec())
}

/// `name` as an override file of the same syntax (`main.tf` becomes
/// `main_override.tf`), so a sample's blocks also go through the merge.
pub fn as_override(name: &str) -> String {
    for extension in [".tofu.json", ".tf.json", ".tofu", ".tf"] {
        if let Some(stem) = name.strip_suffix(extension) {
            return format!("{stem}_override{extension}");
        }
    }
    name.to_owned()
}

/// The companion file every case is analysed with: blocks for the sample's
/// overrides to merge into, and overrides for its blocks.
pub const COMPANION: &str = "resource \"aws_instance\" \"this\" {\n  ami = \"x\"\n  depends_on = [a.b]\n}\nvariable \"name\" {\n  default = \"n\"\n}\nlocals {\n  x = 1\n}\n";

/// Asserts that `range` lies inside `text`, on character boundaries.
pub fn check_in_text(text: &str, range: TextRange, what: &str) {
    let (start, end) = (range.start as usize, range.end as usize);
    assert!(
        start <= end && end <= text.len(),
        "{what}: {range:?} outside a file of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{what}: {range:?} not on char boundaries"
    );
}

/// Runs `test` on `cases` values of the strategy `make_strategy` builds,
/// spread over `threads` runners (each with its own seed; a fixed
/// `PROPTEST_RNG_SEED` is offset by the runner's index). A failure is shrunk
/// and reported with its minimal input. Returns how many cases ran and how
/// long they took.
pub fn run_property<S, F>(
    name: &str,
    cases: u32,
    threads: usize,
    make_strategy: impl Fn() -> S + Sync,
    test: F,
) -> (u64, Duration)
where
    S: Strategy,
    S::Value: std::fmt::Debug,
    F: Fn(S::Value) -> TestCaseResult + Sync,
{
    let threads = threads.clamp(1, cases.max(1) as usize);
    let started = Instant::now();
    let n_ran = AtomicU64::new(0);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|index| {
                let share =
                    cases / threads as u32 + u32::from((index as u32) < cases % threads as u32);
                let make_strategy = &make_strategy;
                let test = &test;
                let n_ran = &n_ran;
                std::thread::Builder::new()
                    .name(format!("{name}-{index}"))
                    .spawn_scoped(scope, move || {
                        let mut config = ProptestConfig {
                            cases: share,
                            failure_persistence: None,
                            ..ProptestConfig::default()
                        };
                        if let RngSeed::Fixed(seed) = config.rng_seed {
                            config.rng_seed = RngSeed::Fixed(seed.wrapping_add(index as u64));
                        }
                        let mut runner = TestRunner::new(config);
                        runner
                            .run(&make_strategy(), |value| {
                                n_ran.fetch_add(1, Ordering::Relaxed);
                                test(value)
                            })
                            .err()
                            .map(|error| format!("{name}: {error}"))
                    })
                    .expect("start a property runner")
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|handle| match handle.join() {
                Ok(failure) => failure,
                Err(_) => Some(format!("{name}: a runner panicked outside a case")),
            })
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (n_ran.load(Ordering::Relaxed), started.elapsed())
}

/// Threads for a property: every core in the long run, one otherwise (the
/// test harness already runs tests side by side).
pub fn threads_for_run() -> usize {
    if is_long_run() {
        std::thread::available_parallelism().map_or(1, usize::from)
    } else {
        1
    }
}

/// Says how many cases ran in how long (shown with `--nocapture`; the long
/// run's numbers go into the README).
#[allow(clippy::print_stderr)] // A test's report to whoever runs the long run.
pub fn report(name: &str, n_ran: u64, elapsed: Duration) {
    eprintln!("{name}: {n_ran} cases in {:.1} s", elapsed.as_secs_f64());
}

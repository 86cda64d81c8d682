//! Property tests: real files of `../shared/corpus`, mutated the way an editor
//! sends half-typed text (truncated anywhere, spans deleted or duplicated,
//! brackets, quotes, template openers, heredoc markers, CR, NUL, invalid UTF-8
//! and astral characters inserted), go through discovery, merge, every rule,
//! hover at every character boundary, symbols and `show`. Nothing may panic,
//! and every range the engine hands out must lie inside its file, on character
//! boundaries.
//!
//! The case count is CI-affordable by default; `PROPTEST_CASES=1000000` runs
//! the long version (see README).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use tofu_ide::{AnalysisHost, Change};
use tofu_module::show::{render_module, Provenance};
use tofu_module::{Config, FileContent, InputFile, ModuleAnalysis};
use tofu_syntax::{Location, TextRange};

/// A sample of real files: every syntax, CRLF files, `.tofu`, override files.
fn samples() -> &'static Vec<(String, Vec<u8>)> {
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

const INSERTIONS: [&[u8]; 16] = [
    b"{",
    b"}",
    b"\"",
    b"${",
    b"%{",
    b"<<EOT\n",
    b"\r",
    b"\0",
    b"\xff\xfe",
    b"\xf0\x9f\x98\x80",
    b"[",
    b"]",
    b"\n}\n",
    b"resource \"a\" \"b\" {",
    b"=",
    b"\\",
];

#[derive(Clone, Debug)]
enum Mutation {
    Truncate(usize),
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 0usize..200).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), 0..INSERTIONS.len()).prop_map(|(at, which)| Mutation::Insert(at, which)),
        (any::<usize>(), 0usize..200, any::<usize>())
            .prop_map(|(at, len, to)| Mutation::Duplicate(at, len, to)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
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

fn check_range(analysis: &ModuleAnalysis, location: Location, what: &str) {
    let Some(range) = location.range else { return };
    let file = analysis
        .file(location.file)
        .unwrap_or_else(|| panic!("{what}: unknown file"));
    check_in_text(&file.text, range, what);
}

fn check_in_text(text: &str, range: TextRange, what: &str) {
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

const COMPANION: &str = "resource \"aws_instance\" \"this\" {\n  ami = \"x\"\n  depends_on = [a.b]\n}\nvariable \"name\" {\n  default = \"n\"\n}\nlocals {\n  x = 1\n}\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn mutated_real_files_never_panic_and_ranges_stay_in_files(
        sample in 0usize..12,
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let samples = samples();
        let (name, original) = &samples[sample % samples.len()];
        let mut bytes = original.clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let dir = PathBuf::from("/virtual/module");
        let files = vec![
            InputFile { name: name.clone(), content: FileContent::from_bytes(bytes) },
            InputFile::text("z_override.tf", COMPANION),
        ];
        let mut host = AnalysisHost::new(Config::default());
        host.apply_change(Change::DiskDir { dir: dir.clone(), files });
        host.analyze_now(&dir);
        let snapshot = host.snapshot();
        let module = snapshot.module(&dir).expect("the module was analysed");
        let analysis: &Arc<ModuleAnalysis> = &module.analysis;
        for diagnostic in &analysis.diagnostics {
            check_range(analysis, diagnostic.subject, diagnostic.code.as_str());
            for related in &diagnostic.related {
                check_range(analysis, related.location, "related");
            }
            for edit in diagnostic.fix.iter().flat_map(|fix| fix.edits.iter()) {
                check_range(analysis, Location::new(edit.file, edit.range), "fix edit");
            }
        }
        let _ = render_module(analysis, Provenance::Full);
        for file in &analysis.files {
            let path = dir.join(&file.name);
            let text = file.text.clone();
            let _ = snapshot.document_symbols(&path);
            for offset in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let offset = offset as u32;
                let _ = file.line_index.line_col(&text, offset);
                if let Some(hover) = snapshot.hover(&path, offset) {
                    check_in_text(&text, hover.range, "hover range");
                }
            }
        }
    }
}

//! Property tests: real files of `../shared/corpus`, mutated the way an editor
//! sends half-typed text (truncated anywhere, spans deleted or duplicated,
//! brackets, quotes, template openers, heredoc markers, CR, NUL, BOMs, invalid
//! UTF-8, multi-byte and astral characters inserted), go through discovery,
//! merge, every rule, hover, navigation, symbols, `show`, semantic tokens,
//! folding, selection ranges, highlights of a name and links. Nothing may
//! panic, and every range the engine hands out must lie inside its file, on
//! character boundaries. (The same inputs go through the UTF-16 conversion in
//! `tofu-lsp/tests/properties.rs`.)
//!
//! Two properties. The thorough one hovers at every character boundary of
//! files up to 6,000 bytes: 64 cases in the normal run. The bounded one takes
//! a window of at most 3,000 bytes of a file, used as written or as an
//! override file, and probes 48 positions (hover, definition, references):
//! 256 cases in the normal run. The long run is
//! `PROPTEST_CASES=1000000 cargo test --release -p tofu-ide --test properties`:
//! a count above 10,000 goes to the bounded property, spread over every core,
//! while the thorough one keeps its 64 (see `mutations/mod.rs` and README).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod mutations;

use std::path::{Path, PathBuf};

use mutations::{
    apply, as_override, bounded_cases, check_in_text, mutation, report, run_property, samples,
    thorough_cases, threads_for_run, window, Mutation, COMPANION,
};
use proptest::prelude::*;
use tofu_diagnostics::ModuleAnalysis;
use tofu_ide::{AnalysisHost, Change, FileRange, Snapshot};
use tofu_module::show::{render_module, Provenance};
use tofu_module::{Config, FileContent, InputFile};
use tofu_syntax::Location;

fn check_range(analysis: &ModuleAnalysis, location: Location, what: &str) {
    let Some(range) = location.range else { return };
    let file = analysis
        .file(location.file)
        .unwrap_or_else(|| panic!("{what}: unknown file"));
    check_in_text(&file.text, range, what);
}

fn check_file_range(location: &FileRange, what: &str) {
    check_in_text(&location.text, location.range, what);
}

/// Analyses `files` as the module `/virtual/module`, checks every diagnostic
/// range, renders the effective configuration and every file's symbols.
fn analyse(files: Vec<InputFile>) -> (PathBuf, Snapshot) {
    let dir = PathBuf::from("/virtual/module");
    let mut host = AnalysisHost::new(Config::default());
    host.apply_change(Change::DiskDir {
        dir: dir.clone(),
        files,
    });
    host.analyze_now(&dir);
    let snapshot = host.snapshot();
    let module = snapshot.module(&dir).expect("the module was analysed");
    let analysis: &ModuleAnalysis = &module.analysis;
    for diagnostic in &analysis.diagnostics {
        check_range(analysis, diagnostic.subject, diagnostic.code.as_str());
        for related in &diagnostic.related {
            check_range(analysis, related.location, "related");
        }
        for edit in diagnostic.fix.iter().flat_map(|fix| fix.edits.iter()) {
            check_range(analysis, Location::new(edit.file, edit.range), "fix edit");
        }
    }
    for file in snapshot.module_diagnostics(&dir) {
        for diagnostic in &file.diagnostics {
            check_in_text(&file.text, diagnostic.range, "editor diagnostic");
            for related in &diagnostic.related {
                check_file_range(&related.location, "editor related");
            }
        }
    }
    let _ = render_module(analysis, Provenance::Full);
    for file in &analysis.files {
        let path = dir.join(&file.name);
        for symbol in snapshot.document_symbols(&path) {
            check_in_text(&file.text, symbol.range, "symbol");
            check_in_text(&file.text, symbol.selection_range, "symbol selection");
        }
        let mut previous_end = 0;
        for highlight in snapshot.semantic_tokens(&path, None).unwrap_or_default() {
            check_in_text(&file.text, highlight.range, "semantic token");
            assert!(!highlight.range.is_empty(), "an empty semantic token");
            assert!(
                highlight.range.start >= previous_end,
                "semantic tokens overlap or are out of order"
            );
            previous_end = highlight.range.end;
        }
        for fold in snapshot.folding_ranges(&path).unwrap_or_default() {
            check_in_text(&file.text, fold.range, "folding range");
        }
        for link in snapshot.document_links(&path) {
            check_in_text(&file.text, link.range, "document link");
        }
    }
    (dir, snapshot)
}

/// Hover, definition and references at `offset` of `path`.
fn probe(snapshot: &Snapshot, path: &Path, text: &str, offset: u32) {
    if let Some(hover) = snapshot.hover(path, offset) {
        check_in_text(text, hover.range, "hover range");
    }
    for target in snapshot.goto_definition(path, offset) {
        check_file_range(&target.focus, "definition");
        check_in_text(&target.focus.text, target.full_range, "definition block");
    }
    for target in snapshot.references(path, offset, true) {
        check_file_range(&target.focus, "reference");
        check_in_text(&target.focus.text, target.full_range, "reference block");
    }
    for occurrence in snapshot.document_highlights(path, offset) {
        check_in_text(text, occurrence.range, "document highlight");
    }
    let selections = snapshot.selection_ranges(path, offset).unwrap_or_default();
    for pair in selections.windows(2) {
        let (inner, outer) = (pair[0], pair[1]);
        check_in_text(text, inner, "selection range");
        assert!(
            outer.start <= inner.start && inner.end <= outer.end && outer != inner,
            "selection ranges do not nest: {inner:?} in {outer:?}"
        );
    }
}

#[derive(Clone, Debug)]
struct ThoroughCase {
    sample: usize,
    mutations: Vec<Mutation>,
}

fn thorough_case() -> impl Strategy<Value = ThoroughCase> {
    (0usize..12, prop::collection::vec(mutation(), 1..6))
        .prop_map(|(sample, mutations)| ThoroughCase { sample, mutations })
}

/// Whole files (up to 6,000 bytes), hover at every character boundary.
#[test]
fn mutated_real_files_never_panic_and_ranges_stay_in_files() {
    let (n_ran, elapsed) = run_property("thorough", thorough_cases(64), 1, thorough_case, |case| {
        let samples = samples();
        let (name, original) = &samples[case.sample % samples.len()];
        let mut bytes = original.clone();
        for m in &case.mutations {
            apply(&mut bytes, m);
        }
        let files = vec![
            InputFile {
                name: name.clone(),
                content: FileContent::from_bytes(bytes),
            },
            InputFile::text("z_override.tf", COMPANION),
        ];
        let (dir, snapshot) = analyse(files);
        let module = snapshot.module(&dir).unwrap();
        for file in &module.analysis.files {
            let path = dir.join(&file.name);
            let text = file.text.clone();
            for offset in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let offset = offset as u32;
                let _ = file.line_index.line_col(&text, offset);
                if let Some(hover) = snapshot.hover(&path, offset) {
                    check_in_text(&text, hover.range, "hover range");
                }
            }
        }
        Ok(())
    });
    report("thorough", n_ran, elapsed);
}

#[derive(Clone, Debug)]
struct BoundedCase {
    sample: usize,
    start: usize,
    len: usize,
    as_override: bool,
    mutations: Vec<Mutation>,
    probes: Vec<usize>,
}

fn bounded_case() -> impl Strategy<Value = BoundedCase> {
    (
        0usize..12,
        any::<usize>(),
        0usize..3_000,
        any::<bool>(),
        prop::collection::vec(mutation(), 1..6),
        prop::collection::vec(any::<usize>(), 48),
    )
        .prop_map(
            |(sample, start, len, as_override, mutations, probes)| BoundedCase {
                sample,
                start,
                len,
                as_override,
                mutations,
                probes,
            },
        )
}

/// Small windows of files, as written or as override files, probed at 48
/// positions: cheap enough for a million cases.
#[test]
fn small_mutated_windows_never_panic_and_ranges_stay_in_files() {
    let (n_ran, elapsed) = run_property(
        "bounded",
        bounded_cases(256),
        threads_for_run(),
        bounded_case,
        |case| {
            let (name, mut bytes) = window(case.sample, case.start, case.len);
            for m in &case.mutations {
                apply(&mut bytes, m);
            }
            let name = if case.as_override {
                as_override(&name)
            } else {
                name
            };
            let files = vec![
                InputFile {
                    name,
                    content: FileContent::from_bytes(bytes),
                },
                InputFile::text("z_override.tf", COMPANION),
                InputFile::text(
                    "main.tf",
                    "resource \"aws_instance\" \"this\" {\n  ami = \"y\"\n}\n",
                ),
            ];
            let (dir, snapshot) = analyse(files);
            let module = snapshot.module(&dir).unwrap();
            for file in &module.analysis.files {
                let path = dir.join(&file.name);
                let text = &file.text;
                let boundaries: Vec<usize> = (0..=text.len())
                    .filter(|&i| text.is_char_boundary(i))
                    .collect();
                for &probe_at in &case.probes {
                    let offset = boundaries[probe_at % boundaries.len()] as u32;
                    let _ = file.line_index.line_col(text, offset);
                    probe(&snapshot, &path, text, offset);
                }
            }
            Ok(())
        },
    );
    report("bounded", n_ran, elapsed);
}

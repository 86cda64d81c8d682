//! UTF-16 (and UTF-8) conversion of everything the engine reports, on mutated
//! real files: each range of a diagnostic, related place, fix, symbol, hover,
//! definition, reference, code action and semantic token (cut at line
//! breaks as the protocol sends it) goes through `position.rs` in both
//! encodings and must come back to the same byte offset (an offset before a
//! BOM or between the `\r` and `\n` of a CRLF has no position of its own and
//! comes back as the start of line 0 or the end of its line), and a range
//! that covers any text must not become empty. Positions an
//! editor may send (inside a surrogate pair, past the end of a line or of the
//! file, between CR and LF) must land on a character boundary (the open
//! document applies edits through the same line map).
//!
//! The inputs are those of `tofu-ide/tests/properties.rs` (shared module
//! `mutations`): windows of up to 3,000 bytes of corpus files, mutated, as
//! written or as override files. 256 cases in the normal run;
//! `PROPTEST_CASES` above 10,000 runs that many over every core
//! (`PROPTEST_CASES=1000000 cargo test --release -p tofu-lsp --test properties`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

#[path = "../../tofu-ide/tests/mutations/mod.rs"]
mod mutations;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mutations::{
    apply, as_override, bounded_cases, mutation, report, run_property, threads_for_run, window,
    Mutation, COMPANION,
};
use proptest::prelude::*;
use tofu_ide::{AnalysisHost, Change, FileRange};
use tofu_lsp::position::{LineMap, PositionEncoding};
use tofu_module::{Config, FileContent, InputFile};
use tofu_syntax::TextRange;
use tower_lsp_server::ls_types::Position;

const BOM: &str = "\u{feff}";

/// One text, with a line map per encoding.
struct Converted {
    text: Arc<str>,
    maps: [(PositionEncoding, LineMap); 2],
}

impl Converted {
    fn new(text: Arc<str>) -> Converted {
        let maps = [PositionEncoding::Utf8, PositionEncoding::Utf16]
            .map(|encoding| (encoding, LineMap::new(Arc::clone(&text), encoding)));
        Converted { text, maps }
    }

    /// Where a byte offset comes back after a round trip through a position.
    fn expected_back(&self, offset: usize) -> usize {
        let text = &*self.text;
        if offset == 0 && text.starts_with(BOM) {
            return BOM.len();
        }
        let between_cr_lf = text[..offset].ends_with('\r') && text[offset..].starts_with('\n');
        if between_cr_lf {
            offset - 1
        } else {
            offset
        }
    }

    fn check_offset(&self, offset: u32, what: &str) {
        let text = &*self.text;
        assert!(
            (offset as usize) <= text.len() && text.is_char_boundary(offset as usize),
            "{what}: {offset} is not a character boundary of {text:?}"
        );
        let expected = self.expected_back(offset as usize);
        for (encoding, map) in &self.maps {
            let position = map.position(offset);
            let back = map.offset(position);
            assert_eq!(
                back.map(|back| back as usize),
                Some(expected),
                "{what}: {offset} -> {position:?} -> {back:?} ({encoding:?}) in {text:?}"
            );
        }
    }

    fn check_range(&self, range: TextRange, what: &str) {
        self.check_offset(range.start, what);
        self.check_offset(range.end, what);
        // Only a BOM has no room: anything else a range covers stays visible.
        let covers_text = range.end as usize > self.expected_back(range.start as usize);
        for (encoding, map) in &self.maps {
            let converted = map.range(range);
            let (start, end) = (
                (converted.start.line, converted.start.character),
                (converted.end.line, converted.end.character),
            );
            assert!(
                start <= end,
                "{what}: {range:?} became {converted:?} ({encoding:?})"
            );
            assert!(
                !covers_text || start < end,
                "{what}: {range:?} became the empty {converted:?} ({encoding:?}) in {:?}",
                self.text
            );
        }
    }

    /// A semantic token's range cut at line breaks, in both encodings: the
    /// parts cover exactly the range's text without its line breaks, none
    /// of them empty or across a line.
    fn check_token(&self, range: TextRange, what: &str) {
        self.check_range(range, what);
        let text = &*self.text;
        let covered = range.slice(text);
        let expected: String = covered
            .chars()
            .filter(|c| !matches!(c, '\n' | '\r'))
            .collect();
        for (encoding, map) in &self.maps {
            let mut parts = String::new();
            for (start, length) in map.line_parts(range) {
                assert!(
                    length > 0,
                    "{what}: an empty part of {range:?} ({encoding:?})"
                );
                let from = map.offset(start).unwrap() as usize;
                let to = map
                    .offset(Position::new(start.line, start.character + length))
                    .unwrap() as usize;
                let part = &text[from..to];
                assert!(
                    !part.contains(['\n', '\r']),
                    "{what}: a part of {range:?} crosses a line ({encoding:?}) in {text:?}"
                );
                parts.push_str(part);
            }
            // A BOM takes no room in positions.
            assert_eq!(
                parts,
                expected.trim_start_matches('\u{feff}'),
                "{what}: {range:?} ({encoding:?}) in {text:?}"
            );
        }
    }

    /// A position an editor may send: wherever it points, the line map
    /// resolves it to a character boundary (or to no line at all, past the
    /// end of the text).
    fn check_client_position(&self, position: Position) {
        let text = &*self.text;
        for (encoding, map) in &self.maps {
            if let Some(offset) = map.offset(position) {
                assert!(
                    text.is_char_boundary(offset as usize),
                    "{position:?} ({encoding:?}) in {text:?}"
                );
            }
        }
    }
}

#[derive(Default)]
struct Texts(HashMap<PathBuf, Converted>);

impl Texts {
    fn of(&mut self, path: &Path, text: &Arc<str>) -> &Converted {
        self.0
            .entry(path.to_path_buf())
            .or_insert_with(|| Converted::new(Arc::clone(text)))
    }

    fn check(&mut self, location: &FileRange, what: &str) {
        self.of(&location.path, &location.text)
            .check_range(location.range, what);
    }
}

#[derive(Clone, Debug)]
struct Case {
    sample: usize,
    start: usize,
    len: usize,
    as_override: bool,
    mutations: Vec<Mutation>,
    probes: Vec<usize>,
    client_positions: Vec<(u32, u32)>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (0usize..12, any::<usize>(), 0usize..3_000, any::<bool>()),
        prop::collection::vec(mutation(), 1..6),
        prop::collection::vec(any::<usize>(), 16),
        prop::collection::vec((0u32..120, 0u32..90), 16),
    )
        .prop_map(
            |((sample, start, len, as_override), mutations, probes, client_positions)| Case {
                sample,
                start,
                len,
                as_override,
                mutations,
                probes,
                client_positions,
            },
        )
}

#[test]
fn every_reported_range_round_trips_through_utf16_and_utf8() {
    let (n_ran, elapsed) = run_property(
        "utf16",
        bounded_cases(256),
        threads_for_run(),
        case,
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
            let dir = PathBuf::from("/virtual/module");
            let mut host = AnalysisHost::new(Config::default());
            host.apply_change(Change::DiskDir {
                dir: dir.clone(),
                files: vec![
                    InputFile {
                        name,
                        content: FileContent::from_bytes(bytes),
                    },
                    InputFile::text("z_override.tf", COMPANION),
                    InputFile::text(
                        "main.tf",
                        "resource \"aws_instance\" \"this\" {\r\n  ami = \"😀\"\r\n}\r\n",
                    ),
                ],
            });
            host.analyze_now(&dir);
            let snapshot = host.snapshot();
            let mut texts = Texts::default();
            for file in snapshot.module_diagnostics(&dir) {
                for diagnostic in &file.diagnostics {
                    texts
                        .of(&file.path, &file.text)
                        .check_range(diagnostic.range, diagnostic.code.as_str());
                    for related in &diagnostic.related {
                        texts.check(&related.location, "related");
                    }
                    for edit in diagnostic.fix.iter().flat_map(|fix| fix.edits.iter()) {
                        texts.check(&edit.location, "fix edit");
                    }
                }
                let converted = texts.of(&file.path, &file.text);
                for &(line, character) in &case.client_positions {
                    converted.check_client_position(Position::new(line, character));
                }
                for symbol in snapshot.document_symbols(&file.path) {
                    let converted = texts.of(&file.path, &file.text);
                    converted.check_range(symbol.range, "symbol");
                    converted.check_range(symbol.selection_range, "symbol selection");
                }
                for highlight in snapshot
                    .semantic_tokens(&file.path, None)
                    .unwrap_or_default()
                {
                    texts
                        .of(&file.path, &file.text)
                        .check_token(highlight.range, "semantic token");
                }
                let boundaries: Vec<u32> = (0..=file.text.len())
                    .filter(|&i| file.text.is_char_boundary(i))
                    .map(|i| i as u32)
                    .collect();
                for &probe_at in &case.probes {
                    let offset = boundaries[probe_at % boundaries.len()];
                    if let Some(hover) = snapshot.hover(&file.path, offset) {
                        texts
                            .of(&file.path, &file.text)
                            .check_range(hover.range, "hover");
                    }
                    for target in snapshot.goto_definition(&file.path, offset) {
                        texts.check(&target.focus, "definition");
                    }
                    for target in snapshot.references(&file.path, offset, true) {
                        texts.check(&target.focus, "reference");
                    }
                    for action in snapshot.code_actions(&file.path, TextRange::empty(offset)) {
                        for edit in &action.edits {
                            texts.check(&edit.location, "code action edit");
                        }
                    }
                }
            }
            Ok(())
        },
    );
    report("utf16", n_ran, elapsed);
}

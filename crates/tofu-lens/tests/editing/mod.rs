//! What the scripted editing sessions over LSP share (`lsp_random_edits.rs`,
//! `lsp_edit_storm.rs`): a seeded random source, the client's side of
//! positions (UTF-16, lines ending at `\n`, `\r\n` or `\r`, a leading BOM
//! taking no room), and `tofu-lens check` on a directory, in the shape the
//! publications are compared in.
//!
//! [`resolve`] is the reference for where a position an editor sends lands,
//! written from `tofu-lsp/src/position.rs`'s contract independently of its
//! code: past the end of a line is the end of the line, inside a surrogate
//! pair is the start of the character, past the last line is the end of the
//! text.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// splitmix64: small, seeded, good enough to pick edits.
pub struct Random(pub u64);

impl Random {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True `percent` times out of a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const BOM: char = '\u{feff}';

/// Offsets where an editor position can be: character boundaries, but not
/// between the `\r` and `\n` of a CRLF, nor before a leading BOM.
pub fn editor_offsets(text: &str) -> Vec<usize> {
    let first = if text.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    let mut out: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .filter(|&i| i >= first && !(text[..i].ends_with('\r') && text[i..].starts_with('\n')))
        .collect();
    out.push(text.len());
    out
}

/// Byte offset where each line's content starts, and the line count.
fn line_starts(text: &str) -> Vec<usize> {
    let first = if text.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    let mut starts = vec![first];
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            starts.push(i + 1);
        }
    }
    starts
}

/// The content of line `line` (without its line break) and where it starts.
fn line(text: &str, line: usize) -> Option<(usize, &str)> {
    let starts = line_starts(text);
    let start = *starts.get(line)?;
    let end = starts.get(line + 1).copied().unwrap_or(text.len());
    Some((start, text[start..end].trim_end_matches(['\n', '\r'])))
}

/// The number of lines (a text ending in a line break has an empty last line).
pub fn n_lines(text: &str) -> usize {
    line_starts(text).len()
}

/// Line `line`'s length in UTF-16 units.
pub fn line_len_utf16(text: &str, line_number: usize) -> u32 {
    line(text, line_number).map_or(0, |(_, content)| {
        content.chars().map(|c| c.len_utf16() as u32).sum()
    })
}

/// The LSP position (UTF-16) of a byte offset.
pub fn lsp_position(text: &str, offset: usize) -> (u32, u32) {
    let starts = line_starts(text);
    let line_number = starts.partition_point(|&s| s <= offset).saturating_sub(1);
    let start = starts[line_number];
    let character = text[start..offset.max(start)]
        .chars()
        .take_while(|&c| c != '\r' && c != '\n')
        .map(|c| c.len_utf16() as u32)
        .sum();
    (line_number as u32, character)
}

/// Where a position an editor sends lands, as a byte offset.
pub fn resolve(text: &str, line_number: u32, character: u32) -> usize {
    let Some((start, content)) = line(text, line_number as usize) else {
        return text.len();
    };
    let mut units = 0;
    for (i, c) in content.char_indices() {
        let width = c.len_utf16() as u32;
        if units + width > character {
            return start + i;
        }
        units += width;
    }
    start + content.len()
}

/// A diagnostic as compared: byte range, code, severity, message.
pub type Compared = (usize, usize, String, u64, String);

/// A byte range as an editor gets it back: an offset with no position of its
/// own (between the `\r` and `\n` of a CRLF) starts at the end of its line
/// and ends after the `\n` (`LineMap::range`).
pub fn as_editor_sees(text: &str, start: usize, end: usize) -> (usize, usize) {
    let (line, character) = lsp_position(text, start);
    let start = resolve(text, line, character);
    let end_between_cr_lf = text[..end].ends_with('\r') && text[end..].starts_with('\n');
    let end = if end_between_cr_lf {
        end + 1
    } else {
        let (line, character) = lsp_position(text, end);
        resolve(text, line, character)
    };
    (start, end)
}

/// `check_dir`'s answer with every range as an editor gets it back, given
/// the text of each file.
pub fn as_editor_sees_all(
    expected: BTreeMap<PathBuf, Vec<Compared>>,
    texts: &BTreeMap<PathBuf, String>,
) -> BTreeMap<PathBuf, Vec<Compared>> {
    expected
        .into_iter()
        .map(|(path, list)| {
            let text = &texts[&path];
            let mut list: Vec<Compared> = list
                .into_iter()
                .map(|(start, end, code, severity, message)| {
                    let (start, end) = as_editor_sees(text, start, end);
                    (start, end, code, severity, message)
                })
                .collect();
            list.sort();
            (path, list)
        })
        .collect()
}

/// What `tofu-lens check --format json` says about every module directory
/// under `dir`, by path relative to `dir` (files without diagnostics too).
/// Like `check` (and the test servers), without unused-declaration hints.
pub fn check_dir(dir: &Path) -> BTreeMap<PathBuf, Vec<Compared>> {
    let config = tofu_lens::check::check_config(None, false);
    let report = tofu_lens::check::check_paths(&[dir.to_path_buf()], &config, None).unwrap();
    let mut expected: BTreeMap<PathBuf, Vec<Compared>> = BTreeMap::new();
    for module in &report.modules {
        for file in &module.analysis.files {
            let path = module.dir.join(&file.name);
            expected.insert(path.strip_prefix(dir).unwrap().to_path_buf(), Vec::new());
        }
    }
    let rendered: Value = serde_json::from_str(&tofu_lens::render::json(&report)).unwrap();
    for diagnostic in rendered.as_array().unwrap() {
        let path = PathBuf::from(diagnostic["file"].as_str().unwrap());
        let severity = match diagnostic["severity"].as_str().unwrap() {
            "error" => 1,
            "warning" => 2,
            "info" => 3,
            _ => 4,
        };
        let mut message = diagnostic["summary"].as_str().unwrap().to_owned();
        let detail = diagnostic["detail"].as_str().unwrap();
        if !detail.is_empty() {
            message.push('\n');
            message.push_str(detail);
        }
        let range = &diagnostic["range"];
        expected
            .entry(path.strip_prefix(dir).unwrap().to_path_buf())
            .or_default()
            .push((
                range["start"]["byte"].as_u64().unwrap() as usize,
                range["end"]["byte"].as_u64().unwrap() as usize,
                diagnostic["code"].as_str().unwrap().to_owned(),
                severity,
                message,
            ));
    }
    for list in expected.values_mut() {
        list.sort();
    }
    expected
}

/// A publication's diagnostics as byte ranges in `text`, sorted.
pub fn compared(params: &Value, text: &str) -> Vec<Compared> {
    let offset = |position: &Value| {
        resolve(
            text,
            position["line"].as_u64().unwrap() as u32,
            position["character"].as_u64().unwrap() as u32,
        )
    };
    let mut list: Vec<Compared> = params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                offset(&d["range"]["start"]),
                offset(&d["range"]["end"]),
                d["code"].as_str().unwrap().to_owned(),
                d["severity"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    list.sort();
    list
}

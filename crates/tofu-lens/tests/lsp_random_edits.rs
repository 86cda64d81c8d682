//! A scripted editing session: 1,000 small random edits (seeded, so every run
//! is the same) to the files of `examples/overrides`, sent as incremental
//! `didChange` notifications with UTF-16 positions, through CRLF line ends,
//! surrogate pairs and half-typed blocks. When the typing stops, the
//! diagnostics the server published must be exactly what `tofu-lens check`
//! reports for the final texts: same files, byte ranges, codes, severities
//! and messages.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

#[path = "../../tofu-lsp/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::{capabilities, overrides_example, uri, TestClient, TIMEOUT};
use serde_json::{json, Value};
use tofu_module::Config;

/// splitmix64: small, seeded, good enough to pick edits.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SNIPPETS: [&str; 20] = [
    "x",
    " ",
    "\n",
    "\r\n",
    "\"",
    "{",
    "}",
    " = ",
    "é",
    "😀",
    "#",
    "${",
    "[",
    "]",
    "variable \"v\" {}\n",
    "locals {\n  name = 1\n}\n",
    "resource \"aws_instance\" \"web\" {\n  ami = \"b\"\n}\n",
    "output \"web_dns\" {\n  value = 1\n}\n",
    "moved {\n  from = a.b\n  to = a.c\n}\n",
    "\r\nvariable \"region\" {\r\n  default = \"😀\"\r\n}\r\n",
];

/// Offsets where an editor position can be: character boundaries, but not
/// between the `\r` and `\n` of a CRLF.
fn positions(text: &str) -> Vec<usize> {
    let mut out: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .filter(|&i| !(text[..i].ends_with('\r') && text[i..].starts_with('\n')))
        .collect();
    out.push(text.len());
    out
}

/// The LSP position (UTF-16) of a byte offset; lines end at \n, \r\n, \r.
fn lsp_position(text: &str, offset: usize) -> (u32, u32) {
    let (mut line, mut character) = (0u32, 0u32);
    let mut chars = text[..offset].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                line += 1;
                character = 0;
            }
            c => character += c.len_utf16() as u32,
        }
    }
    (line, character)
}

/// The byte offset of an LSP position (UTF-16) in `text`.
fn byte_offset(text: &str, line: u64, character: u64) -> usize {
    let mut offsets = positions(text).into_iter();
    let mut found = text.len();
    for offset in offsets.by_ref() {
        let (l, c) = lsp_position(text, offset);
        if u64::from(l) == line && u64::from(c) >= character || u64::from(l) > line {
            found = offset;
            break;
        }
    }
    found
}

type Expected = BTreeMap<String, Vec<(usize, usize, String, u64, String)>>;

/// What `tofu-lens check --format json` says about the final texts.
fn check_final_texts(texts: &BTreeMap<String, String>) -> Expected {
    let temp = tempfile::tempdir().unwrap();
    for (name, text) in texts {
        fs::write(temp.path().join(name), text).unwrap();
    }
    let report =
        tofu_lens::check::check_paths(&[temp.path().to_path_buf()], &Config::default()).unwrap();
    let rendered: Value = serde_json::from_str(&tofu_lens::render::json(&report)).unwrap();
    let mut expected: Expected = texts
        .keys()
        .map(|name| (name.clone(), Vec::new()))
        .collect();
    for diagnostic in rendered.as_array().unwrap() {
        let name = Path::new(diagnostic["file"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
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
        expected.entry(name).or_default().push((
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

/// The latest publications, as byte ranges in the final texts.
fn published_state(latest: &BTreeMap<String, Value>, texts: &BTreeMap<String, String>) -> Expected {
    let mut state: Expected = BTreeMap::new();
    for (name, text) in texts {
        let mut list = Vec::new();
        if let Some(params) = latest.get(name) {
            for d in params["diagnostics"].as_array().unwrap() {
                let start = &d["range"]["start"];
                let end = &d["range"]["end"];
                list.push((
                    byte_offset(
                        text,
                        start["line"].as_u64().unwrap(),
                        start["character"].as_u64().unwrap(),
                    ),
                    byte_offset(
                        text,
                        end["line"].as_u64().unwrap(),
                        end["character"].as_u64().unwrap(),
                    ),
                    d["code"].as_str().unwrap().to_owned(),
                    d["severity"].as_u64().unwrap(),
                    d["message"].as_str().unwrap().to_owned(),
                ));
            }
        }
        list.sort();
        state.insert(name.clone(), list);
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_random_edits_end_with_what_check_reports() {
    let (_temp, root) = overrides_example();
    let mut client = TestClient::start(&root, capabilities(), json!({}), Value::Null).await;
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut versions: BTreeMap<String, i32> = BTreeMap::new();
    for entry in fs::read_dir(&root).unwrap() {
        let path: PathBuf = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&path).unwrap();
        client.open(&path, 1, &text);
        texts.insert(name.clone(), text);
        versions.insert(name, 1);
    }
    let names: Vec<String> = texts.keys().cloned().collect();
    let mut random = Random(0x7f4a_2024);
    for _ in 0..1000 {
        let name = &names[random.below(names.len())];
        let text = texts.get_mut(name).unwrap();
        let n_changes = if random.below(5) == 0 { 2 } else { 1 };
        let mut changes = Vec::new();
        for _ in 0..n_changes {
            let candidates = positions(text);
            let start_index = random.below(candidates.len());
            let start = candidates[start_index];
            let (end, insert) = match random.below(3) {
                // Insert a snippet.
                0 | 1 => (start, SNIPPETS[random.below(SNIPPETS.len())]),
                // Delete up to 6 characters.
                _ => {
                    let end_index = (start_index + 1 + random.below(6)).min(candidates.len() - 1);
                    (candidates[end_index], "")
                }
            };
            let (l1, c1) = lsp_position(text, start);
            let (l2, c2) = lsp_position(text, end);
            changes.push(json!({"range": {"start": {"line": l1, "character": c1},
                                          "end": {"line": l2, "character": c2}},
                                "text": insert}));
            text.replace_range(start..end, insert);
        }
        let version = versions.get_mut(name).unwrap();
        *version += 1;
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(&root.join(name)), "version": *version},
                   "contentChanges": changes}),
        );
    }
    let expected = check_final_texts(&texts);
    assert!(
        expected.values().any(|list| !list.is_empty()),
        "the edits should leave something to report"
    );
    let uri_to_name: BTreeMap<String, String> = names
        .iter()
        .map(|name| (uri(&root.join(name)), name.clone()))
        .collect();
    let mut latest: BTreeMap<String, Value> = BTreeMap::new();
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        let up_to_date = names.iter().all(|name| {
            latest
                .get(name)
                .is_some_and(|p| p["version"] == versions[name])
        });
        if up_to_date && published_state(&latest, &texts) == expected {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "published diagnostics never matched check:\npublished {:#?}\nexpected {:#?}",
            published_state(&latest, &texts),
            expected
        );
        let params = client
            .wait_for("textDocument/publishDiagnostics", |_| true)
            .await;
        if let Some(name) = uri_to_name.get(params["uri"].as_str().unwrap()) {
            if let Some(previous) = latest.get(name) {
                assert!(
                    previous["version"].as_i64() <= params["version"].as_i64(),
                    "a publication went back in version: {previous} then {params}"
                );
            }
            latest.insert(name.clone(), params);
        }
    }
    client.shutdown().await;
}

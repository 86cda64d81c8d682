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
mod editing;

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use common::{capabilities, overrides_example, uri, TestClient, TIMEOUT};
use editing::{
    as_editor_sees_all, check_dir, compared, editor_offsets, lsp_position, Compared, Random,
};
use serde_json::{json, Value};

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

/// What `tofu-lens check` says about the final texts, by file name.
fn check_final_texts(texts: &BTreeMap<String, String>) -> BTreeMap<PathBuf, Vec<Compared>> {
    let temp = tempfile::tempdir().unwrap();
    for (name, text) in texts {
        fs::write(temp.path().join(name), text).unwrap();
    }
    let by_path = texts
        .iter()
        .map(|(name, text)| (PathBuf::from(name), text.clone()))
        .collect();
    as_editor_sees_all(check_dir(temp.path()), &by_path)
}

/// The latest publications, as byte ranges in the final texts.
fn published_state(
    latest: &BTreeMap<String, Value>,
    texts: &BTreeMap<String, String>,
) -> BTreeMap<PathBuf, Vec<Compared>> {
    texts
        .iter()
        .map(|(name, text)| {
            let list = latest
                .get(name)
                .map_or_else(Vec::new, |params| compared(params, text));
            (PathBuf::from(name), list)
        })
        .collect()
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
            let candidates = editor_offsets(text);
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

//! A `git checkout` that adds 1,000 files while the user hovers: the hover
//! must not wait for the server to look at the new files.
//!
//! The server runs with a simulated slow disk (a pause before each changed
//! path is looked at), so reading the checkout takes seconds. The hover is
//! sent right after the watched-files notification: it must be answered
//! within 50 ms, and before any diagnostics of the new files are
//! published. A server that reads changed files in the notification handler,
//! or with the session locked, answers only after the whole checkout was
//! read and fails both assertions.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::time::{Duration, Instant};

use common::{capabilities, overrides_example, test_options, uri, TestClient};
use serde_json::{json, Value};

const DIRS: usize = 100;
const FILES_PER_DIR: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hover_during_a_large_checkout_answers_at_once() {
    let (_temp, root) = overrides_example();
    let options = tofu_lsp::ServerOptions {
        disk_delay: Duration::from_millis(2),
        ..test_options()
    };
    let mut client =
        TestClient::start_with_options(&root, capabilities(), json!({}), Value::Null, options)
            .await;
    let main = root.join("main.tf");
    client.open(&main, 1, &fs::read_to_string(&main).unwrap());
    client.wait_for_diagnostics(&main, |_| true).await;
    let hover_params = json!({"textDocument": {"uri": uri(&main)},
                              "position": {"line": 1, "character": 4}});
    // A first hover, so the one measured does no first-time work.
    let warm = client
        .request("textDocument/hover", hover_params.clone())
        .await;
    assert!(warm["contents"]["value"].is_string(), "{warm}");

    let mut changes = Vec::new();
    for d in 0..DIRS {
        let dir = root.join(format!("checkout/m{d:03}"));
        fs::create_dir_all(&dir).unwrap();
        for f in 0..FILES_PER_DIR {
            let file = dir.join(format!("f{f}.tf"));
            fs::write(
                &file,
                format!("variable \"v{f}\" {{}}\nvariable \"v{f}\" {{}}\n"),
            )
            .unwrap();
            changes.push(json!({"uri": uri(&file), "type": 1}));
        }
    }
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": changes }),
    );
    let sent = Instant::now();
    let hover = client.request("textDocument/hover", hover_params).await;
    let waited = sent.elapsed();
    assert!(hover["contents"]["value"].is_string(), "{hover}");
    let early: Vec<Value> = client
        .drain("textDocument/publishDiagnostics")
        .into_iter()
        .filter(|params| {
            params["uri"]
                .as_str()
                .is_some_and(|published| published.contains("/checkout/"))
        })
        .collect();
    assert!(
        early.is_empty(),
        "checkout diagnostics were published before the hover was answered"
    );
    assert!(
        waited < Duration::from_millis(50),
        "the hover waited {waited:?} for the checkout"
    );
    // The checkout is still picked up: each new file has its duplicate.
    let last = root.join(format!(
        "checkout/m{:03}/f{}.tf",
        DIRS - 1,
        FILES_PER_DIR - 1
    ));
    client
        .wait_for_diagnostics(&last, |p| !p["diagnostics"].as_array().unwrap().is_empty())
        .await;
    client.shutdown().await;
}

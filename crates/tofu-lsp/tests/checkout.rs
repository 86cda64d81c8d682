//! A `git checkout` that adds 1,000 files while the user hovers: the hover
//! must not wait for the server to look at the new files.
//!
//! The server runs with its disk held back (a closed `DiskGate`: no changed
//! path is looked at until the test opens it). The hover is sent right
//! after the watched-files notification and must be answered while the
//! gate is still closed, with no diagnostics of the new files published.
//! A server that reads changed files in the notification handler, or with
//! the session locked, never answers while the disk is held back: the
//! client's wait for the answer times out and the test fails. Nothing
//! here depends on how fast the machine is.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;

use common::{capabilities, overrides_example, test_options, uri, TestClient};
use serde_json::{json, Value};

const DIRS: usize = 100;
const FILES_PER_DIR: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hover_during_a_large_checkout_answers_at_once() {
    let (_temp, root) = overrides_example();
    let gate = tofu_lsp::DiskGate::default();
    let options = tofu_lsp::ServerOptions {
        disk_gate: Some(gate.clone()),
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
    let hover = client.request("textDocument/hover", hover_params).await;
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
    // The checkout is still picked up once the disk answers: each new file
    // has its duplicate.
    gate.open();
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

//! The debounce adapts: a directory whose last analysis was cheap
//! (`ServerOptions::cheap_analysis`) is analysed and published at once after
//! a keystroke; only expensive ones wait. The server here counts every
//! analysis as cheap and runs with a debounce of an hour, so a publication
//! at all (within the client's usual timeout) shows the wait was skipped,
//! however long a debug-build analysis takes on a busy machine.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::time::Duration;

use common::{capabilities, codes, overrides_example, test_options, TestClient};
use serde_json::{json, Value};

#[tokio::test]
async fn a_cheap_directory_is_published_without_the_debounce() {
    let (_temp, root) = overrides_example();
    let options = tofu_lsp::ServerOptions {
        debounce: Duration::from_secs(3600),
        cheap_analysis: Duration::MAX,
        ..test_options()
    };
    let mut client =
        TestClient::start_with_options(&root, capabilities(), json!({}), Value::Null, options)
            .await;
    let main = root.join("main.tf");
    // The first analysis comes from the workspace scan, which never waits
    // (and publishes network.tf, which has problems; main.tf has none).
    client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;
    client.open(&main, 1, &fs::read_to_string(&main).unwrap());
    client
        .wait_for_diagnostics(&main, |p| p["version"] == 1)
        .await;
    client.change(
        &main,
        2,
        [0, 0, 0, 0],
        "variable \"zz\" {}\nvariable \"zz\" {}\n",
    );
    let published = client
        .wait_for_diagnostics(&main, |p| p["version"] == 2)
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    client.shutdown().await;
}

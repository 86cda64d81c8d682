//! The server on odd trees (issue 10 §4 and §5): a module directory deleted
//! while one of its files is open, files renamed in place, a workspace folder
//! that does not exist, `/` as the workspace folder, and symlinks that lead
//! out of the workspace. Each gives a clear diagnostic, message or log line,
//! and the rest keeps working: every test ends by checking that a plain edit
//! elsewhere is still published.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{capabilities, codes, test_options, uri, TestClient};
use serde_json::{json, Value};

async fn start(root: &Path) -> TestClient {
    TestClient::start(root, capabilities(), json!({}), Value::Null).await
}

fn temp_root() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    (temp, root)
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn watched(client: &TestClient, changes: &[(&Path, u32)]) {
    let changes: Vec<Value> = changes
        .iter()
        .map(|(path, kind)| json!({"uri": uri(path), "type": kind}))
        .collect();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": changes }),
    );
}

/// Opens `path` with `text` and waits for its first publication.
async fn open_and_wait(client: &mut TestClient, path: &Path, text: &str) -> Value {
    client.open(path, 1, text);
    client
        .wait_for_diagnostics(path, |p| p["version"] == 1)
        .await
}

/// The rest keeps working: a duplicate written to `path` on disk is
/// published.
async fn still_publishes(client: &mut TestClient, path: &Path) {
    write(path, "variable \"again\" {}\nvariable \"again\" {}\n");
    watched(client, &[(path, 1)]);
    let published = client
        .wait_for_diagnostics(path, |p| !codes(p).is_empty())
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
}

#[tokio::test]
async fn a_directory_deleted_while_open_keeps_the_buffer_and_clears_the_rest() {
    let (_temp, root) = temp_root();
    let main = root.join("net/main.tf");
    let other = root.join("net/other.tf");
    write(&main, "variable \"x\" {}\n");
    write(&other, "variable \"x\" {}\n");
    write(&root.join("main.tf"), "variable \"top\" {}\n");
    let mut client = start(&root).await;
    let published = client.wait_for_diagnostics(&other, |_| true).await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    open_and_wait(&mut client, &main, "variable \"x\" {}\n").await;

    fs::remove_dir_all(root.join("net")).unwrap();
    watched(&client, &[(&root.join("net"), 3)]);
    client
        .wait_for_diagnostics(&other, |p| codes(p).is_empty())
        .await;
    // The open buffer is still analysed, alone in its directory now.
    client.change(&main, 2, [1, 0, 1, 0], "variable \"x\" {}\n");
    let published = client
        .wait_for_diagnostics(&main, |p| p["version"] == 2)
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(&main)}, "position": {"line": 0, "character": 2}}),
        )
        .await;
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("variable \"x\""));
    // Closed, with nothing on disk: its diagnostics go away.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&main)}}),
    );
    client
        .wait_for_diagnostics(&main, |p| codes(p).is_empty())
        .await;
    still_publishes(&mut client, &root.join("main.tf")).await;
    client.shutdown().await;
}

/// Editors save by writing a temporary file and renaming it over the
/// original; users rename files. Either way the server sees the file as it
/// is now: new content for the old name, or the old name gone and a new one.
#[tokio::test]
async fn files_renamed_in_place_are_read_again() {
    let (_temp, root) = temp_root();
    let main = root.join("main.tf");
    let network = root.join("network.tf");
    write(&main, "variable \"a\" {}\n");
    write(&network, "variable \"a\" {}\n");
    let mut client = start(&root).await;
    let published = client.wait_for_diagnostics(&network, |_| true).await;
    assert_eq!(codes(&published), ["duplicate-block"]);

    // An atomic save: the temporary name is not a configuration file.
    let temporary = root.join(".main.tf.swp");
    write(&temporary, "variable \"b\" {}\n");
    fs::rename(&temporary, &main).unwrap();
    watched(&client, &[(&temporary, 3), (&main, 2)]);
    client
        .wait_for_diagnostics(&network, |p| codes(p).is_empty())
        .await;

    // A rename within the directory: the old name is cleared, the new one
    // published (it now comes before main.tf, so main.tf holds the duplicate).
    write(&main, "variable \"a\" {}\n");
    let renamed = root.join("a_network.tf");
    fs::rename(&network, &renamed).unwrap();
    watched(&client, &[(&network, 3), (&renamed, 1), (&main, 2)]);
    let published = client
        .wait_for_diagnostics(&main, |p| !codes(p).is_empty())
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    // The new name is clean and the client holds nothing for the old one
    // (cleared after the atomic save): neither is published. A directory's
    // publications come in order, so after main.tf is cleared again any
    // publication of them would have arrived.
    write(&main, "variable \"b\" {}\n");
    watched(&client, &[(&main, 2)]);
    client
        .wait_for_diagnostics(&main, |p| codes(p).is_empty())
        .await;
    let published = client.drain("textDocument/publishDiagnostics");
    for path in [&renamed, &network] {
        assert!(
            !published.iter().any(|p| p["uri"] == uri(path).as_str()),
            "{}: {published:?}",
            path.display()
        );
    }
    still_publishes(&mut client, &root.join("sub/main.tf")).await;
    client.shutdown().await;
}

#[tokio::test]
async fn a_workspace_folder_that_does_not_exist_is_reported() {
    let (_temp, root) = temp_root();
    let missing = root.join("does-not-exist");
    let mut client = start(&missing).await;
    let message = client.wait_for("window/showMessage", |_| true).await;
    assert_eq!(message["type"], 2);
    let text = message["message"].as_str().unwrap();
    assert!(
        text.contains("cannot read the workspace folder") && text.contains("does-not-exist"),
        "{text}"
    );
    // A file opened from elsewhere is still analysed.
    let elsewhere = root.join("elsewhere/main.tf");
    write(&elsewhere, "variable \"a\" {}\n");
    let published = open_and_wait(
        &mut client,
        &elsewhere,
        "variable \"a\" {}\nvariable \"a\" {}\n",
    )
    .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    client.shutdown().await;
}

/// `/` as the workspace folder: the walk stops at the cap (lowered here so
/// the test is quick; 20,000 by default) with a message, and, since this
/// client does not watch files, the server does not watch `/` either (a
/// recursive watch would walk the whole disk).
#[tokio::test]
async fn a_root_of_slash_is_capped_and_reported() {
    let mut capabilities = capabilities();
    capabilities["workspace"]["didChangeWatchedFiles"] = json!({"dynamicRegistration": false});
    let options = tofu_lsp::ServerOptions {
        max_walk_dirs: 50,
        ..test_options()
    };
    let mut client = TestClient::start_with_options(
        Path::new("/"),
        capabilities,
        json!({}),
        Value::Null,
        options,
    )
    .await;
    let message = client.wait_for("window/showMessage", |_| true).await;
    let text = message["message"].as_str().unwrap();
    assert!(
        text.contains("stopped looking for OpenTofu modules in / after 50 directories"),
        "{text}"
    );
    client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    let (_temp, root) = temp_root();
    let main = root.join("main.tf");
    write(&main, "variable \"a\" {}\n");
    let published =
        open_and_wait(&mut client, &main, "variable \"a\" {}\nvariable \"a\" {}\n").await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    client.shutdown().await;
}

/// SECURITY.md: a symlink out of the workspace folder is never followed,
/// whether it names a file or a directory, whether the server finds it by
/// scanning or is told about it by the client, and nothing of what lies
/// behind it (content, names, its path) reaches the client.
#[cfg(unix)]
#[tokio::test]
async fn symlinks_out_of_the_workspace_are_never_followed() {
    use std::os::unix::fs::symlink;
    let (_temp, base) = temp_root();
    let outside = base.join("outside");
    let secret =
        "variable \"secret_token\" {\n  default = \"hunter2\"\n}\nvariable \"secret_token\" {}\n";
    write(&outside.join("secret.tf"), secret);
    write(&outside.join("nested/main.tf"), secret);
    let ws = base.join("ws");
    write(&ws.join("main.tf"), "variable \"inner\" {}\n");
    write(&ws.join("sub/inner.tf"), "variable \"inner\" {}\n");
    symlink(outside.join("secret.tf"), ws.join("link.tf")).unwrap();
    symlink("sub/inner.tf", ws.join("inside.tf")).unwrap();
    symlink(&outside, ws.join("linked_dir")).unwrap();
    symlink(outside.join("nested"), ws.join("sub/nested")).unwrap();

    let mut client = start(&ws).await;
    let link = client
        .wait_for_diagnostics(&ws.join("link.tf"), |_| true)
        .await;
    assert_eq!(codes(&link), ["file-unreadable"]);
    let message = link["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("leads outside the workspace folder"),
        "{message}"
    );
    // A link that stays inside is read through: main.tf declares again
    // what inside.tf (read through the link) declares first.
    let main = client
        .wait_for_diagnostics(&ws.join("main.tf"), |_| true)
        .await;
    assert_eq!(codes(&main), ["duplicate-block"]);

    // The client reports changes behind the links, and the outside itself.
    watched(
        &client,
        &[
            (&ws.join("linked_dir"), 1),
            (&ws.join("linked_dir/secret.tf"), 1),
            (&ws.join("sub/nested/main.tf"), 2),
            (&outside.join("secret.tf"), 2),
            (&ws.join("link.tf"), 2),
        ],
    );
    // Every known directory, brought up to date.
    let report = client
        .request("workspace/diagnostic", json!({"previousResultIds": []}))
        .await;
    let symbols = client
        .request("workspace/symbol", json!({"query": "secret"}))
        .await;
    assert_eq!(symbols, json!([]));
    client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    let published = client.drain("textDocument/publishDiagnostics");
    let everything = format!("{report}{}", Value::from(published.clone()));
    for leak in [
        "hunter2",
        "secret_token",
        outside.to_str().unwrap(),
        "linked_dir",
        "nested",
    ] {
        assert!(
            !everything.contains(leak),
            "{leak} reached the client: {everything}"
        );
    }
    let items = report["items"].as_array().unwrap();
    assert!(items
        .iter()
        .all(|item| item["uri"].as_str().unwrap().starts_with(&uri(&ws))));
    still_publishes(&mut client, &ws.join("main.tf")).await;
    client.shutdown().await;
}

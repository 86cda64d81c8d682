//! The server end to end, in process: the real tower-lsp-server stack over an
//! in-memory duplex, driven like an editor on copies of real modules. These
//! test the protocol contract (publications for every file, versions,
//! encodings, disk changes, navigation, fixes, robustness); the rules
//! themselves are tested by fixtures.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::Path;

use common::{capabilities, codes, overrides_example, uri, TestClient};
use serde_json::{json, Value};

/// The files of `examples/overrides` with problems, in publication order.
const FILES_WITH_PROBLEMS: [&str; 4] = [
    "dev_override.tf",
    "network.tf",
    "override.tf",
    "versions.tf",
];

/// Its clean files, which are never published unless they get problems.
const CLEAN_FILES: [&str; 3] = ["main.tf", "variables.tf", "versions.tofu"];

async fn start(root: &Path) -> TestClient {
    TestClient::start(root, capabilities(), json!({}), Value::Null).await
}

#[tokio::test]
async fn scan_open_edit_save_publish_every_file_with_versions() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    // The workspace scan publishes every file with problems, without versions.
    for name in FILES_WITH_PROBLEMS {
        let params = client
            .wait_for_diagnostics(&root.join(name), |_| true)
            .await;
        assert!(
            params.get("version").is_none_or(Value::is_null),
            "{name}: {params}"
        );
    }
    assert!(client
        .server_requests
        .contains(&"client/registerCapability".to_owned()));
    assert!(client
        .server_requests
        .contains(&"workspace/configuration".to_owned()));
    assert!(client
        .server_requests
        .contains(&"window/workDoneProgress/create".to_owned()));
    let progress = client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    assert_eq!(progress["value"]["message"], "1 module directories");

    let network = root.join("network.tf");
    let text = fs::read_to_string(&network).unwrap();
    client.open(&network, 1, &text);
    let published = client
        .wait_for_diagnostics(&network, |p| p["version"] == 1)
        .await;
    assert_eq!(codes(&published), ["duplicate-local", "duplicate-block"]);
    let duplicate = &published["diagnostics"][0];
    assert_eq!(duplicate["source"], "tofu-lens");
    assert_eq!(duplicate["severity"], 1);
    assert_eq!(
        duplicate["range"]["start"],
        json!({"line": 2, "character": 2})
    );
    let message = duplicate["message"].as_str().unwrap();
    assert!(message.starts_with("Duplicate local value definition\nA local value named \"name\""));
    let related = &duplicate["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri(&root.join("main.tf")));
    assert_eq!(related["message"], "first defined here");

    // Delete line 3 (`  name = "network"`): the duplicate local goes away.
    client.change(&network, 2, [2, 0, 3, 0], "");
    let published = client
        .wait_for_diagnostics(&network, |p| p["version"] == 2)
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    // Files whose diagnostics did not change are not sent again; a file whose
    // diagnostics change is, even if it is not open.
    let main = root.join("main.tf");
    let original = fs::read_to_string(&main).unwrap();
    fs::write(&main, original + "variable \"a\" {}\nvariable \"a\" {}\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&main), "type": 2}]}),
    );
    let published = client
        .wait_for_diagnostics(&main, |p| !codes(p).is_empty())
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    assert!(published.get("version").is_none_or(Value::is_null));

    // Saving re-reads the disk, but the open buffer still wins; closing brings
    // back the disk text (with both duplicates), without a version.
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&network)}}),
    );
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&network)}}),
    );
    let published = client
        .wait_for_diagnostics(&network, |p| p["version"].is_null())
        .await;
    assert_eq!(codes(&published), ["duplicate-local", "duplicate-block"]);

    let shadowed = client.drain("textDocument/publishDiagnostics");
    // Clean files were never published: not at start-up (every publication
    // of the scan came before those waited for above), not after the edits
    // elsewhere.
    for name in CLEAN_FILES.iter().filter(|name| **name != "main.tf") {
        let file_uri = uri(&root.join(name));
        assert!(
            !shadowed.iter().any(|p| p["uri"] == file_uri.as_str()),
            "{name} was published: {shadowed:?}"
        );
    }
    let versions = shadowed
        .iter()
        .rev()
        .find(|p| p["uri"] == uri(&root.join("versions.tf")));
    if let Some(versions) = versions {
        assert_eq!(versions["diagnostics"][0]["tags"], json!([1]));
    }
    client.shutdown().await;
}

/// Only files with problems are published: a clean file gets nothing at
/// start-up; a file whose problems go away gets an empty list, once; an open
/// document gets every version, clean or not.
#[tokio::test]
async fn clean_files_are_published_only_to_clear_what_was_sent() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let clean = root.join("a_clean.tf");
    let fixed = root.join("b_fixed.tf");
    let broken = root.join("c_broken.tf");
    fs::write(&clean, "variable \"a\" {}\n").unwrap();
    fs::write(&fixed, "variable \"b\" {}\nvariable \"b\" {}\n").unwrap();
    fs::write(&broken, "variable \"c\" {}\nvariable \"c\" {}\n").unwrap();
    let mut client = start(&root).await;
    // One worker publishes a directory, in file order: a publication of
    // a_clean.tf would have come before these.
    for path in [&fixed, &broken] {
        let published = client.wait_for_diagnostics(path, |_| true).await;
        assert_eq!(codes(&published), ["duplicate-block"]);
    }
    let not_clean = |publications: &[Value], path: &Path| {
        publications
            .iter()
            .filter(|p| p["uri"] == uri(path).as_str())
            .count()
    };
    let early = client.drain("textDocument/publishDiagnostics");
    assert_eq!(not_clean(&early, &clean), 0, "{early:?}");

    // b_fixed.tf is fixed on disk: one empty list clears it.
    fs::write(&fixed, "variable \"b\" {}\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&fixed), "type": 2}]}),
    );
    let cleared = client.wait_for_diagnostics(&fixed, |_| true).await;
    assert!(codes(&cleared).is_empty(), "{cleared}");
    // Then c_broken.tf: cleared too, and nothing for the files already clean.
    fs::write(&broken, "variable \"c\" {}\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&broken), "type": 2}]}),
    );
    let cleared = client.wait_for_diagnostics(&broken, |_| true).await;
    assert!(codes(&cleared).is_empty(), "{cleared}");
    let later = client.drain("textDocument/publishDiagnostics");
    assert_eq!(not_clean(&later, &clean), 0, "{later:?}");
    assert_eq!(not_clean(&later, &fixed), 0, "{later:?}");

    // An open document is answered at every version, even when clean.
    client.open(&clean, 1, "variable \"a\" {}\n");
    let published = client
        .wait_for_diagnostics(&clean, |p| p["version"] == 1)
        .await;
    assert!(codes(&published).is_empty(), "{published}");
    client.shutdown().await;
}

#[tokio::test]
async fn shadowed_files_are_tagged_unnecessary() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let versions = client
        .wait_for_diagnostics(&root.join("versions.tf"), |_| true)
        .await;
    assert_eq!(codes(&versions), ["file-shadowed"]);
    assert_eq!(versions["diagnostics"][0]["tags"], json!([1]));
    assert_eq!(versions["diagnostics"][0]["severity"], 4);
    client.shutdown().await;
}

/// `# 😀😀` then CRLF line ends: positions count UTF-16 units, or bytes when
/// the client picks UTF-8, and edits land where the client meant them.
#[tokio::test]
async fn incremental_edits_with_surrogate_pairs_and_crlf() {
    for (encoding, emoji_width) in [("utf-16", 2u32), ("utf-8", 4u32)] {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().canonicalize().unwrap();
        let mut capabilities = capabilities();
        capabilities["general"]["positionEncodings"] = json!([encoding]);
        let mut client = TestClient::start(&root, capabilities, json!({}), Value::Null).await;
        assert_eq!(
            client.initialize_result["capabilities"]["positionEncoding"],
            encoding
        );
        let path = root.join("main.tf");
        client.open(&path, 1, "# 😀😀\r\nvariable \"a\" {}\r\n");
        let published = client
            .wait_for_diagnostics(&path, |p| p["version"] == 1)
            .await;
        assert!(codes(&published).is_empty(), "{published}");
        // Insert a second declaration after the emoji on line 0, on its own line.
        let after_emoji = 2 + 2 * emoji_width;
        client.change(
            &path,
            2,
            [0, after_emoji, 0, after_emoji],
            "\r\n/* 😀 */ variable \"a\" {}",
        );
        let published = client
            .wait_for_diagnostics(&path, |p| p["version"] == 2)
            .await;
        assert_eq!(codes(&published), ["duplicate-block"]);
        // The later declaration is on line 2 (after the inserted one on line 1).
        let range = &published["diagnostics"][0]["range"];
        assert_eq!(
            range["start"],
            json!({"line": 2, "character": 0}),
            "{encoding}"
        );
        // Delete the later declaration by a range that starts at the end of
        // line 1, spanning its CRLF, and ends at the end of line 2.
        client.change(&path, 3, [1, 7 + emoji_width + 15, 2, 15], "");
        let published = client
            .wait_for_diagnostics(&path, |p| p["version"] == 3)
            .await;
        assert!(codes(&published).is_empty(), "{encoding}: {published}");
        let symbols = client
            .request(
                "textDocument/documentSymbol",
                json!({"textDocument": {"uri": uri(&path)}}),
            )
            .await;
        let names: Vec<&str> = symbols
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["variable \"a\""], "{encoding}");
        // The declaration after `/* 😀 */ ` starts 9 UTF-16 units or 11 bytes in.
        let start = &symbols[0]["range"]["start"];
        assert_eq!(
            start,
            &json!({"line": 1, "character": 7 + emoji_width}),
            "{encoding}"
        );
        client.shutdown().await;
    }
}

/// Versions only grow: a change that is not newer than the document is
/// stale or out of order, and is ignored rather than applied to a text it
/// was not meant for.
#[tokio::test]
async fn stale_and_out_of_order_versions_are_ignored() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let path = root.join("main.tf");
    let mut client = start(&root).await;
    client.open(&path, 1, "variable \"a\" {}\n");
    client
        .wait_for_diagnostics(&path, |p| p["version"] == 1)
        .await;
    // Versions may skip.
    client.change(&path, 3, [1, 0, 1, 0], "variable \"a\" {}\n");
    let published = client
        .wait_for_diagnostics(&path, |p| p["version"] == 3)
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    // Older, then equal: both would delete everything.
    client.change(&path, 2, [0, 0, 2, 0], "");
    client.change(&path, 3, [0, 0, 2, 0], "");
    client.change(&path, 4, [0, 0, 0, 0], "# ok\n");
    let published = client
        .wait_for_diagnostics(&path, |p| p["version"] == 4)
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    assert_eq!(
        published["diagnostics"][0]["range"]["start"],
        json!({"line": 2, "character": 0})
    );
    client.shutdown().await;
}

#[tokio::test]
async fn files_created_and_deleted_on_disk_are_picked_up() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;
    let extra = root.join("zz_extra.tf");
    fs::write(&extra, "variable \"instance_type\" {}\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&extra), "type": 1}]}),
    );
    let published = client.wait_for_diagnostics(&extra, |_| true).await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    fs::remove_file(&extra).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&extra), "type": 3}]}),
    );
    let published = client
        .wait_for_diagnostics(&extra, |p| codes(p).is_empty())
        .await;
    assert!(published.get("version").is_none_or(Value::is_null));
    // A new module directory appears with its first file.
    let sub = root.join("modules/net");
    fs::create_dir_all(&sub).unwrap();
    fs::write(
        sub.join("main.tf"),
        "output \"x\" {\n  value = 1\n}\noutput \"x\" {\n  value = 2\n}\n",
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&sub.join("main.tf")), "type": 1}]}),
    );
    let published = client
        .wait_for_diagnostics(&sub.join("main.tf"), |_| true)
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    client.shutdown().await;
}

/// Neovim registers no file watchers: the server watches the folder itself.
#[tokio::test]
async fn without_client_watchers_the_server_watches_the_disk() {
    let (_temp, root) = overrides_example();
    let mut capabilities = capabilities();
    capabilities["workspace"]["didChangeWatchedFiles"] = json!({"dynamicRegistration": false});
    let mut client = TestClient::start(&root, capabilities, json!({}), Value::Null).await;
    client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;
    assert!(!client
        .server_requests
        .contains(&"client/registerCapability".to_owned()));
    let extra = root.join("zz_extra.tf");
    fs::write(&extra, "variable \"region\" {}\n").unwrap();
    let published = client
        .wait_for_diagnostics(&extra, |p| !codes(p).is_empty())
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    fs::remove_file(&extra).unwrap();
    client
        .wait_for_diagnostics(&extra, |p| codes(p).is_empty())
        .await;
    client.shutdown().await;
}

/// Helix accepts a watcher registration but reports only the files it
/// writes itself: the server watches the disk for it anyway.
#[tokio::test]
async fn helix_registers_watchers_but_the_server_watches_the_disk() {
    let (_temp, root) = overrides_example();
    let mut client = TestClient::start_as(
        &root,
        capabilities(),
        json!({}),
        Value::Null,
        common::test_options(),
        json!({"name": "helix", "version": "25.7.1"}),
    )
    .await;
    client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;
    assert!(!client
        .server_requests
        .contains(&"client/registerCapability".to_owned()));
    let extra = root.join("zz_checked_out.tf");
    fs::write(&extra, "variable \"region\" {}\n").unwrap();
    let published = client
        .wait_for_diagnostics(&extra, |p| !codes(p).is_empty())
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    client.shutdown().await;
}

/// The tests run with no full analysis kept for directories without open
/// documents (`test_options`): a module nobody opened is published from its
/// summary, listed in workspace symbols, and analysed again for a request on
/// one of its files.
#[tokio::test]
async fn a_closed_module_is_published_from_its_summary_and_analysed_again_on_request() {
    let (_temp, root) = overrides_example();
    let other = root.join("other");
    fs::create_dir(&other).unwrap();
    fs::write(
        other.join("main.tf"),
        "variable \"a\" {}\nvariable \"a\" {}\n",
    )
    .unwrap();
    let mut client = start(&root).await;
    let published = client
        .wait_for_diagnostics(&other.join("main.tf"), |_| true)
        .await;
    assert_eq!(codes(&published), ["duplicate-block"]);
    let main = root.join("main.tf");
    client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;

    let symbols = client
        .request("workspace/symbol", json!({"query": "aws_instance.web"}))
        .await;
    assert_eq!(symbols.as_array().map(Vec::len), Some(1), "{symbols}");
    assert_eq!(symbols[0]["location"]["uri"], json!(uri(&main)));

    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(&main)}, "position": {"line": 1, "character": 4}}),
        )
        .await;
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(markdown.contains("# override.tf:3"), "{hover}");
}

#[tokio::test]
async fn hover_definition_references_and_symbols_on_an_overridden_resource() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let main = root.join("main.tf");
    client.open(&main, 1, &fs::read_to_string(&main).unwrap());
    let position = |path: &Path, line: u32, character: u32| json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}});
    let hover = client
        .request("textDocument/hover", position(&main, 1, 4))
        .await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.starts_with("```hcl\nresource \"aws_instance\" \"web\" {\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("instance_type = \"t3.large\""),
        "{markdown}"
    );
    assert!(markdown.contains("# override.tf:3"), "{markdown}");
    assert!(
        !markdown.contains("t3.micro"),
        "superseded values stay out: {markdown}"
    );
    assert!(
        markdown.contains("Changed by:\n- `override.tf:2`"),
        "{markdown}"
    );
    assert_eq!(hover["range"]["start"], json!({"line": 0, "character": 0}));

    // Outside any block: null. An unknown document: null.
    let blank = client
        .request("textDocument/hover", position(&main, 13, 0))
        .await;
    assert!(blank.is_null(), "{blank}");
    let unknown = client
        .request("textDocument/hover", position(&root.join("nope.tf"), 0, 0))
        .await;
    assert!(unknown.is_null());
    let far = client
        .request("textDocument/hover", position(&main, 9999, 0))
        .await;
    assert!(far.is_null());

    let override_tf = root.join("override.tf");
    let definition = client
        .request("textDocument/definition", position(&override_tf, 1, 12))
        .await;
    assert_eq!(
        definition,
        json!([{"uri": uri(&main), "range": {"start": {"line": 0, "character": 0},
                                             "end": {"line": 0, "character": 29}}}])
    );
    let back = client
        .request("textDocument/definition", position(&main, 0, 3))
        .await;
    assert_eq!(back[0]["uri"], uri(&override_tf));
    assert_eq!(
        back[0]["range"]["start"],
        json!({"line": 1, "character": 0})
    );

    let mut references = position(&main, 0, 3);
    references["context"] = json!({"includeDeclaration": true});
    let references = client.request("textDocument/references", references).await;
    let files: Vec<&str> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|location| {
            location["uri"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
        })
        .collect();
    // The blocks of that identity, then its uses (an output in each file).
    assert_eq!(
        files,
        ["main.tf", "override.tf", "dev_override.tf", "main.tf"]
    );

    let symbols = client
        .request("workspace/symbol", json!({"query": "aws_instance"}))
        .await;
    assert_eq!(symbols[0]["name"], "aws_instance.web");
    assert_eq!(symbols[0]["location"]["uri"], uri(&main));
    client.shutdown().await;
}

#[tokio::test]
async fn code_actions_apply_the_engines_fixes() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    fs::write(root.join("main.tf"), "variable \"a\" {}\n").unwrap();
    let text = "moved {\n  from = a.b\n  to   = a.c\n}\n";
    fs::write(root.join("override.tf"), text).unwrap();
    let mut client = start(&root).await;
    let override_tf = root.join("override.tf");
    client.open(&override_tf, 1, text);
    let published = client
        .wait_for_diagnostics(&override_tf, |p| p["version"] == 1)
        .await;
    assert_eq!(codes(&published), ["override-forbidden-block"]);
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri(&override_tf)},
                   "range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}},
                   "context": {"diagnostics": []}}),
        )
        .await;
    let action = &actions[0];
    assert_eq!(
        action["title"],
        "Remove the moved block from the override file"
    );
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(action["diagnostics"][0]["code"], "override-forbidden-block");
    let edits = &action["edit"]["changes"][uri(&override_tf)];
    assert_eq!(edits[0]["newText"], "");
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    client.shutdown().await;
}

/// A failed validation's quick fix "Go to the value" runs
/// `tofuLens.showValue`, which asks the client to show the values file's
/// line (`window/showDocument`).
#[tokio::test]
async fn a_failed_validation_goes_to_its_value() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let text = "variable \"n\" {\n  type = number\n  validation {\n    condition     = var.n < 5\n    error_message = \"Small.\"\n  }\n}\n";
    fs::write(root.join("main.tf"), text).unwrap();
    fs::write(root.join("terraform.tfvars"), "# values\nn = 7\n").unwrap();
    let mut client = start(&root).await;
    let main = root.join("main.tf");
    client.open(&main, 1, text);
    let published = client
        .wait_for_diagnostics(&main, |p| p["version"] == 1)
        .await;
    assert_eq!(codes(&published), ["plan-variable-validation"]);
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri(&main)},
                   "range": {"start": {"line": 0, "character": 2}, "end": {"line": 0, "character": 2}},
                   "context": {"diagnostics": [], "only": ["quickfix"]}}),
        )
        .await;
    let action = &actions[0];
    assert_eq!(
        action["title"], "Go to the value of var.n (terraform.tfvars:2)",
        "{actions}"
    );
    assert_eq!(action["kind"], "quickfix");
    assert!(action.get("edit").is_none());
    let command = &action["command"];
    assert_eq!(command["command"], "tofuLens.showValue");
    let values = root.join("terraform.tfvars");
    assert_eq!(command["arguments"][0], uri(&values));
    assert_eq!(
        command["arguments"][1],
        json!({"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 5}})
    );
    let answer = client
        .request(
            "workspace/executeCommand",
            json!({"command": "tofuLens.showValue", "arguments": command["arguments"]}),
        )
        .await;
    assert!(answer.get("error").is_none(), "{answer}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !client
        .server_requests
        .iter()
        .any(|m| m == "window/showDocument")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "no window/showDocument"
        );
        client
            .request("textDocument/hover", json!({"textDocument": {"uri": uri(&main)}, "position": {"line": 0, "character": 1}}))
            .await;
    }
    let wrong = client
        .request(
            "workspace/executeCommand",
            json!({"command": "tofuLens.showValue", "arguments": ["not a uri"]}),
        )
        .await;
    assert_eq!(wrong["error"]["code"], -32602, "{wrong}");
    client.shutdown().await;
}

#[tokio::test]
async fn refactorings_are_code_actions_of_their_kinds_with_whole_edits() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let text = "resource \"terraform_data\" \"web\" {\n  input = \"x\"\n}\n";
    fs::write(root.join("main.tf"), text).unwrap();
    fs::write(root.join("override.tf"), text).unwrap();
    let mut capabilities = capabilities();
    capabilities["textDocument"]["codeAction"] = json!({"disabledSupport": true});
    let mut client = TestClient::start(&root, capabilities, json!({}), json!({})).await;
    let main = root.join("main.tf");
    client.open(&main, 1, text);
    client
        .wait_for_diagnostics(&main, |p| p["version"] == 1)
        .await;
    let ask = |path: &std::path::Path, only: Value| {
        json!({"textDocument": {"uri": uri(path)},
               "range": {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 3}},
               "context": {"diagnostics": [], "only": only}})
    };
    let actions = client
        .request("textDocument/codeAction", ask(&main, json!(["refactor"])))
        .await;
    let offered: Vec<(&str, &str)> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|action| {
            (
                action["kind"].as_str().unwrap(),
                action["title"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        offered,
        [
            ("refactor.move", "Move to new file `web.tf`"),
            ("refactor.extract", "Extract into a module"),
            (
                "refactor.rewrite",
                "Remove `terraform_data.web` from the configuration, keep its objects"
            ),
            (
                "refactor.rewrite",
                "Generate an `import` block for `terraform_data.web`"
            ),
            (
                "refactor.rewrite",
                "Repeat `terraform_data.web` with `count = 1`"
            ),
            (
                "refactor.rewrite",
                "Repeat `terraform_data.web` with `for_each = toset([\"web\"])`"
            ),
        ]
    );
    // override.tf changes the resource: extracting it is refused.
    assert!(actions[1]["disabled"]["reason"]
        .as_str()
        .unwrap()
        .contains("changed by an override file"));
    // The new file is created and written in the action's own edit.
    let operations = &actions[0]["edit"]["documentChanges"];
    assert_eq!(operations[0]["kind"], "create");
    assert!(operations[0]["uri"].as_str().unwrap().ends_with("/web.tf"));
    assert_eq!(operations[1]["edits"][0]["newText"], text);
    // Only what is asked for comes.
    let moves = client
        .request(
            "textDocument/codeAction",
            ask(&main, json!(["refactor.move"])),
        )
        .await;
    assert_eq!(moves.as_array().unwrap().len(), 1);
    let fixes = client
        .request("textDocument/codeAction", ask(&main, json!(["quickfix"])))
        .await;
    assert_eq!(fixes, json!([]));
    // A refusal is a disabled action with its reason.
    let refused = client
        .request(
            "textDocument/codeAction",
            ask(&root.join("override.tf"), json!(["refactor"])),
        )
        .await;
    assert_eq!(refused[0]["title"], "Move to another file");
    assert!(refused[0]["disabled"]["reason"]
        .as_str()
        .unwrap()
        .contains("override file"));
    assert!(refused[0].get("edit").is_none());
    client.shutdown().await;
}

#[tokio::test]
async fn a_panicking_request_is_an_error_and_the_server_keeps_running() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let main = root.join("main.tf");
    client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;
    let answer = client.request("tofuLens/panic", Value::Null).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("asked to panic"));
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(&main)}, "position": {"line": 0, "character": 1}}),
        )
        .await;
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .starts_with("```hcl"));
    client.shutdown().await;
}

#[tokio::test]
async fn wrong_settings_are_shown_once_and_defaulted() {
    let (_temp, root) = overrides_example();
    let init = json!({"tofuLens": {"tofuVersion": 12, "exclude": "nope"}});
    let mut client =
        TestClient::start(&root, capabilities(), init, json!({"tofuVersion": 12})).await;
    let first = client.wait_for("window/showMessage", |_| true).await;
    assert_eq!(first["type"], 2);
    assert!(
        first["message"]
            .as_str()
            .unwrap()
            .contains("tofuVersion must be a string"),
        "{first}"
    );
    let second = client.wait_for("window/showMessage", |_| true).await;
    assert!(
        second["message"]
            .as_str()
            .unwrap()
            .contains("exclude must be a list"),
        "{second}"
    );
    // The configuration pull repeats the tofuVersion problem: not shown again.
    client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;
    client
        .request("workspace/symbol", json!({"query": ""}))
        .await;
    assert!(client.drain("window/showMessage").is_empty());
    client.shutdown().await;
}

#[tokio::test]
async fn scope_open_publishes_only_directories_with_open_documents() {
    let (_temp, root) = overrides_example();
    let settings = json!({"diagnostics": {"scope": "open"}});
    let mut client = TestClient::start(&root, capabilities(), settings.clone(), settings).await;
    client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    let main = root.join("main.tf");
    client.open(&main, 1, &fs::read_to_string(&main).unwrap());
    client
        .wait_for_diagnostics(&main, |p| p["version"] == 1)
        .await;
    // Every file of the directory, open or not, once one is open.
    let network = client
        .wait_for_diagnostics(&root.join("network.tf"), |_| true)
        .await;
    assert_eq!(codes(&network), ["duplicate-local", "duplicate-block"]);
    // Closing the last open document clears the directory.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&main)}}),
    );
    client
        .wait_for_diagnostics(&root.join("network.tf"), |p| codes(p).is_empty())
        .await;
    client.shutdown().await;
}

#[tokio::test]
async fn pull_diagnostics_when_the_client_asks_for_them() {
    let (_temp, root) = overrides_example();
    let mut capabilities = capabilities();
    capabilities["textDocument"]["diagnostic"] = json!({"dynamicRegistration": false});
    capabilities["workspace"]["diagnostics"] = json!({"refreshSupport": true});
    let mut client = TestClient::start(&root, capabilities, json!({}), Value::Null).await;
    assert_eq!(
        client.initialize_result["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    let network = root.join("network.tf");
    client.open(&network, 1, &fs::read_to_string(&network).unwrap());
    let report = client
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri(&network)}}),
        )
        .await;
    assert_eq!(report["kind"], "full");
    let items: Vec<&str> = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(items, ["duplicate-local", "duplicate-block"]);
    let workspace = client
        .request("workspace/diagnostic", json!({"previousResultIds": []}))
        .await;
    let n_files = workspace["items"].as_array().unwrap().len();
    assert_eq!(n_files, 7, "{workspace}");
    client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    assert!(client.drain("textDocument/publishDiagnostics").is_empty());
    client.shutdown().await;
}

/// Result ids: a report the client already holds comes back `unchanged`
/// (VS Code sends its ids with every pull), a changed one in full, and a
/// file the client had a report of that is gone gets an empty report.
#[tokio::test]
async fn pulls_with_result_ids_answer_unchanged_and_clear_deleted_files() {
    let (_temp, root) = overrides_example();
    let mut capabilities = capabilities();
    capabilities["textDocument"]["diagnostic"] = json!({"dynamicRegistration": false});
    capabilities["workspace"]["diagnostics"] = json!({"refreshSupport": true});
    let mut client = TestClient::start(&root, capabilities, json!({}), Value::Null).await;
    let network = root.join("network.tf");
    client.open(&network, 1, &fs::read_to_string(&network).unwrap());
    let pull = |previous: Option<&str>| json!({"textDocument": {"uri": uri(&network)}, "previousResultId": previous});
    let first = client.request("textDocument/diagnostic", pull(None)).await;
    assert_eq!(first["kind"], "full");
    let id = first["resultId"].as_str().unwrap().to_owned();
    let again = client
        .request("textDocument/diagnostic", pull(Some(&id)))
        .await;
    assert_eq!(again["kind"], "unchanged", "{again}");
    assert_eq!(again["resultId"], id.as_str());
    // An edit that changes the file's diagnostics: a full report, a new id.
    client.change(&network, 2, [0, 0, 0, 0], "locals {\n  name = 1\n}\n");
    let changed = client
        .request("textDocument/diagnostic", pull(Some(&id)))
        .await;
    assert_eq!(changed["kind"], "full", "{changed}");
    assert_ne!(changed["resultId"], id.as_str());

    let workspace = client
        .request("workspace/diagnostic", json!({"previousResultIds": []}))
        .await;
    let ids: Vec<Value> = workspace["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| json!({"uri": item["uri"], "value": item["resultId"]}))
        .collect();
    let extra = root.join("zz_gone.tf");
    let mut previous = ids.clone();
    previous.push(json!({"uri": uri(&extra), "value": "0000"}));
    let workspace = client
        .request(
            "workspace/diagnostic",
            json!({ "previousResultIds": previous }),
        )
        .await;
    let items = workspace["items"].as_array().unwrap();
    let kinds: Vec<(&str, &str)> = items
        .iter()
        .map(|item| {
            (
                item["uri"].as_str().unwrap(),
                item["kind"].as_str().unwrap(),
            )
        })
        .collect();
    for id in &ids {
        let uri = id["uri"].as_str().unwrap();
        assert!(kinds.contains(&(uri, "unchanged")), "{uri}: {kinds:?}");
    }
    let gone = items
        .iter()
        .find(|item| item["uri"] == uri(&extra).as_str())
        .expect("a report for the file that is gone");
    assert_eq!(gone["kind"], "full");
    assert_eq!(gone["items"], json!([]));
    client.shutdown().await;
}

/// A client that can pull but cannot be asked to pull again (Neovim 0.11,
/// Helix) would never see changes made on disk or in other files: it gets
/// pushed diagnostics instead, for every file.
#[tokio::test]
async fn clients_that_pull_without_refresh_get_pushes() {
    let (_temp, root) = overrides_example();
    let mut capabilities = capabilities();
    capabilities["textDocument"]["diagnostic"] = json!({"dynamicRegistration": false});
    let mut client = TestClient::start(&root, capabilities, json!({}), Value::Null).await;
    assert!(client.initialize_result["capabilities"]["diagnosticProvider"].is_null());
    let network = root.join("network.tf");
    let published = client
        .wait_for_diagnostics(&network, |params| {
            params["diagnostics"]
                .as_array()
                .is_some_and(|d| !d.is_empty())
        })
        .await;
    assert_eq!(
        published["diagnostics"].as_array().map(Vec::len),
        Some(2),
        "{published}"
    );
    client.shutdown().await;
}

#[tokio::test]
async fn ignored_names_get_only_the_file_ignored_hint() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let backup = root.join(".main.tf");
    client.open(&backup, 1, "variable \"region\" {}\nnot valid {{{\n");
    let published = client
        .wait_for_diagnostics(&backup, |p| p["version"] == 1)
        .await;
    assert_eq!(codes(&published), ["file-ignored"]);
    assert_eq!(published["diagnostics"][0]["tags"], json!([1]));
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(&backup)}, "position": {"line": 0, "character": 1}}),
        )
        .await;
    assert!(hover.is_null());
    client.shutdown().await;
}

/// Applies LSP text edits (UTF-16 positions, `\n` line breaks) to `text`.
fn apply_lsp_edits(text: &str, edits: &Value) -> String {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().unwrap() as usize;
        let character = position["character"].as_u64().unwrap() as usize;
        let line_start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let mut units = 0;
        let mut bytes = 0;
        for c in text[line_start..].chars() {
            if units >= character || c == '\n' {
                break;
            }
            units += c.len_utf16();
            bytes += c.len_utf8();
        }
        line_start + bytes
    };
    let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
    edits.sort_by_key(|edit| offset(&edit["range"]["start"]));
    let mut out = text.to_owned();
    for edit in edits.iter().rev() {
        let (start, end) = (
            offset(&edit["range"]["start"]),
            offset(&edit["range"]["end"]),
        );
        out.replace_range(start..end, edit["newText"].as_str().unwrap());
    }
    out
}

#[tokio::test]
async fn formatting_gives_minimal_edits_and_none_for_syntax_errors() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let main = root.join("main.tf");
    let text = "resource aws_instance web {\nami=\"x\"\n  instance_type = \"${var.t}\"\n}\n\nlocals {\n     name = \"😀\"   # smile\n     id=1\n}\n";
    fs::write(&main, text).unwrap();
    let mut client = start(&root).await;
    let advertised = &client.initialize_result["capabilities"];
    assert_eq!(advertised["documentFormattingProvider"], true);
    assert_eq!(advertised["documentRangeFormattingProvider"], true);
    client.open(&main, 1, text);
    client
        .wait_for_diagnostics(&main, |p| p["version"] == 1)
        .await;

    let options = json!({"tabSize": 2, "insertSpaces": true});
    let edits = client
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri(&main)}, "options": options}),
        )
        .await;
    let formatted = "resource \"aws_instance\" \"web\" {\n  ami           = \"x\"\n  instance_type = var.t\n}\n\nlocals {\n  name = \"😀\" # smile\n  id   = 1\n}\n";
    assert_eq!(apply_lsp_edits(text, &edits), formatted);
    // Minimal: small edits where the text changes, not one whole-file edit.
    let edits = edits.as_array().unwrap();
    assert!(edits.len() >= 6, "{edits:?}");
    assert!(edits
        .iter()
        .all(|edit| edit["newText"].as_str().unwrap().len() < 40));

    // Range formatting: only the block the range touches (the locals).
    let edits = client
        .request(
            "textDocument/rangeFormatting",
            json!({"textDocument": {"uri": uri(&main)}, "options": options,
                   "range": {"start": {"line": 7, "character": 0}, "end": {"line": 7, "character": 3}}}),
        )
        .await;
    assert_eq!(
        apply_lsp_edits(text, &edits),
        text.replace(
            "     name = \"😀\"   # smile\n     id=1",
            "  name = \"😀\" # smile\n  id   = 1"
        )
    );

    // A syntax error: no edits.
    client.change(&main, 2, [8, 0, 9, 0], "");
    client
        .wait_for_diagnostics(&main, |p| p["version"] == 2)
        .await;
    let edits = client
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri(&main)}, "options": options}),
        )
        .await;
    assert_eq!(edits, json!([]));

    // A document that is not open, or JSON: nothing to say.
    let json_file = root.join("x.tf.json");
    fs::write(&json_file, "{}").unwrap();
    for path in [&json_file, &root.join("other.tf")] {
        let edits = client
            .request(
                "textDocument/formatting",
                json!({"textDocument": {"uri": uri(path)}, "options": options}),
            )
            .await;
        assert_eq!(edits, Value::Null);
    }
    client.shutdown().await;
}

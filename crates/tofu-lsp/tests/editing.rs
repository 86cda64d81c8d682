//! Override-aware editing over the protocol, against `examples/overrides`:
//! inlay hints in a base file (with label parts that jump to the override),
//! code lenses on both sides of an override, and completion (references after
//! a dot, base arguments inside an override block, new top-level blocks as
//! snippets or plain text, `source` strings). What each shows is the
//! engine's (`tofu-ide` tests); this checks the protocol edge: positions,
//! locations and capabilities.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::Path;

use common::{capabilities, overrides_example, uri, TestClient};
use serde_json::{json, Value};

async fn start(root: &Path) -> TestClient {
    TestClient::start(root, capabilities(), json!({}), Value::Null).await
}

fn label(hint: &Value) -> String {
    hint["label"]
        .as_array()
        .unwrap()
        .iter()
        .map(|part| part["value"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn inlay_hints_and_code_lenses_in_a_base_file() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let advertised = &client.initialize_result["capabilities"];
    assert_eq!(advertised["inlayHintProvider"], true);
    assert_eq!(advertised["codeLensProvider"]["resolveProvider"], false);
    assert_eq!(
        advertised["completionProvider"]["triggerCharacters"],
        json!([".", ":"])
    );
    let main = root.join("main.tf");
    client.open(&main, 1, &fs::read_to_string(&main).unwrap());
    let hints = client
        .request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": uri(&main)}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100, "character": 0}}}),
        )
        .await;
    let hints = hints.as_array().unwrap();
    let labels: Vec<String> = hints.iter().map(label).collect();
    assert!(
        labels.contains(&"⟵ \"t3.large\" (override.tf:3)".to_owned()),
        "{labels:?}"
    );
    assert!(
        labels.contains(&"⟵ replaced by override.tf:6".to_owned()),
        "{labels:?}"
    );
    // `  instance_type = var.instance_type` (line 2, 0-based) is 35 characters.
    let instance_type = hints
        .iter()
        .find(|hint| label(hint).contains("t3.large"))
        .unwrap();
    assert_eq!(
        instance_type["position"],
        json!({"line": 2, "character": 35})
    );
    // The place is a part that jumps to the override.
    let target = instance_type["label"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|part| part.get("location").filter(|l| !l.is_null()))
        .unwrap();
    assert_eq!(target["uri"], uri(&root.join("override.tf")));
    assert_eq!(target["range"]["start"]["line"], 2);

    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri(&main)}}),
        )
        .await;
    let titles: Vec<&str> = lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|lens| lens["command"]["title"].as_str().unwrap())
        .collect();
    assert!(titles.contains(&"1 override"), "{titles:?}");
    let override_tf = root.join("override.tf");
    client.open(&override_tf, 1, &fs::read_to_string(&override_tf).unwrap());
    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri(&override_tf)}}),
        )
        .await;
    assert_eq!(lenses[0]["command"]["title"], "overrides main.tf:1");
    assert_eq!(lenses[0]["range"]["start"]["line"], 1);
    client.shutdown().await;
}

#[tokio::test]
async fn completion_after_a_dot_and_inside_an_override_block() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let outputs = root.join("outputs.tf");
    client.open(&outputs, 1, "output \"n\" {\n  value = local.\n}\n");
    let items = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri(&outputs)}, "position": {"line": 1, "character": 16}}),
        )
        .await;
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["name"]);
    assert_eq!(
        items[0]["textEdit"]["range"],
        json!({"start": {"line": 1, "character": 16}, "end": {"line": 1, "character": 16}})
    );

    let override_tf = root.join("override.tf");
    let text = fs::read_to_string(&override_tf).unwrap().replace(
        "  instance_type = \"t3.large\"\n",
        "  instance_type = \"t3.large\"\n  ta\n",
    );
    client.open(&override_tf, 1, &text);
    let items = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri(&override_tf)}, "position": {"line": 3, "character": 4}}),
        )
        .await;
    let tags = items
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["label"] == "tags")
        .unwrap();
    assert_eq!(tags["textEdit"]["newText"], "tags = ");
    assert_eq!(
        tags["textEdit"]["range"],
        json!({"start": {"line": 3, "character": 2}, "end": {"line": 3, "character": 4}})
    );
    assert!(tags["detail"].as_str().unwrap().starts_with("base: {"));
    client.shutdown().await;
}

#[tokio::test]
async fn prepare_rename_and_rename_a_local_with_its_duplicate() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    assert_eq!(
        client.initialize_result["capabilities"]["renameProvider"]["prepareProvider"],
        true
    );
    let main = root.join("main.tf");
    let text = fs::read_to_string(&main).unwrap();
    client.open(&main, 1, &text);
    // `Name = local.name` on line 10 (0-based): the cursor on `name`.
    let line = text.lines().nth(10).unwrap();
    let character = u32::try_from(line.find("local.name").unwrap() + 7).unwrap();
    let at = json!({"textDocument": {"uri": uri(&main)}, "position": {"line": 10, "character": character}});
    let prepared = client
        .request("textDocument/prepareRename", at.clone())
        .await;
    assert_eq!(prepared["placeholder"], "name");
    assert_eq!(prepared["range"]["start"]["line"], 10);
    let mut params = at.clone();
    params["newName"] = json!("label");
    let edit = client.request("textDocument/rename", params).await;
    let changes = edit["changes"].as_object().unwrap();
    let n_edits: usize = changes
        .values()
        .map(|edits| edits.as_array().unwrap().len())
        .sum();
    // main.tf: the declaration and two uses; network.tf: the duplicate entry.
    assert!(
        changes.contains_key(&uri(&root.join("network.tf"))),
        "{edit}"
    );
    assert_eq!(n_edits, 4, "{edit}");
    assert!(changes
        .values()
        .flat_map(|edits| edits.as_array().unwrap())
        .all(|edit| edit["newText"] == "label"));
    // A name that is not an identifier is refused with a message.
    let mut params = at.clone();
    params["newName"] = json!("not a name");
    let refused = client.request("textDocument/rename", params).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}"); // InvalidParams
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("\"not a name\" is not a valid name: a name must start"),
        "{message}"
    );
    // A valid name, but nothing to rename at `ami`: LSP's RequestFailed.
    let on_argument = json!({"textDocument": {"uri": uri(&main)}, "position": {"line": 1, "character": 3},
                             "newName": "image"});
    let refused = client.request("textDocument/rename", on_argument).await;
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
    assert_eq!(refused["error"]["message"], "Nothing to rename here.");
    client.shutdown().await;
}

/// Signature help and function completion at the protocol edge: the
/// capability with its trigger characters, a position in UTF-16 after a
/// character outside the BMP, the active parameter, a snippet with its
/// markdown documentation.
#[tokio::test]
async fn signature_help_and_function_completion() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    assert_eq!(
        client.initialize_result["capabilities"]["signatureHelpProvider"]["triggerCharacters"],
        json!(["(", ","])
    );
    let locals = root.join("functions.tf");
    let line = "  n = format(\"😀,%s\", 1, ";
    client.open(&locals, 1, &format!("locals {{\n{line}\n  u = upp\n}}\n"));
    let utf16_end = line.encode_utf16().count();
    let help = client
        .request(
            "textDocument/signatureHelp",
            json!({"textDocument": {"uri": uri(&locals)}, "position": {"line": 1, "character": utf16_end}}),
        )
        .await;
    assert_eq!(
        help["signatures"][0]["label"],
        "format(format string, args... dynamic) string"
    );
    assert_eq!(help["activeParameter"], 1);
    assert_eq!(
        help["signatures"][0]["parameters"][1]["label"],
        "args... dynamic"
    );
    assert_eq!(help["signatures"][0]["documentation"]["kind"], "markdown");
    // One character earlier, inside the string: no call to help with.
    let inside_string = client
        .request(
            "textDocument/signatureHelp",
            json!({"textDocument": {"uri": uri(&locals)}, "position": {"line": 1, "character": 17}}),
        )
        .await;
    assert!(inside_string.is_null(), "{inside_string}");

    let items = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri(&locals)}, "position": {"line": 2, "character": 9}}),
        )
        .await;
    let upper = items
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["label"] == "upper")
        .unwrap();
    assert_eq!(upper["kind"], 3);
    assert_eq!(upper["insertTextFormat"], 2);
    assert_eq!(upper["textEdit"]["newText"], "upper(${1:str})");
    assert_eq!(
        upper["textEdit"]["range"],
        json!({"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 9}})
    );
    assert_eq!(upper["detail"], "upper(str string) string");
    assert_eq!(upper["documentation"]["kind"], "markdown");
    client.shutdown().await;
}

/// Provider functions at the protocol edge, with OpenTofu's built-in
/// `terraform` provider (its schema needs no plugin): after `provider::`
/// (where the second `:` triggers completion) its namespace, as a module
/// and not a snippet; after `provider::terraform::` its functions as
/// snippets replacing the whole name; signature help inside a call.
#[tokio::test]
async fn provider_function_completion_and_signature_help() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let locals = root.join("provider_functions.tf");
    client.open(
        &locals,
        1,
        "locals {\n  a = provider::\n  b = provider::terraform::enc\n  c = provider::terraform::encode_expr(\n}\n",
    );
    let completion = |line: u32, character: u32| json!({"textDocument": {"uri": uri(&locals)}, "position": {"line": line, "character": character}});
    let namespaces = client
        .request("textDocument/completion", completion(1, 16))
        .await;
    let terraform = namespaces
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["label"] == "provider::terraform::")
        .unwrap_or_else(|| panic!("{namespaces}"));
    assert_eq!(terraform["kind"], 9);
    assert!(terraform["insertTextFormat"].is_null(), "{terraform}");
    assert_eq!(
        terraform["textEdit"]["range"],
        json!({"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 16}})
    );

    let functions = client
        .request("textDocument/completion", completion(2, 30))
        .await;
    let encode_expr = functions
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["label"] == "provider::terraform::encode_expr")
        .unwrap_or_else(|| panic!("{functions}"));
    assert_eq!(encode_expr["kind"], 3);
    assert_eq!(encode_expr["insertTextFormat"], 2);
    assert_eq!(
        encode_expr["textEdit"]["newText"],
        "provider::terraform::encode_expr(${1:expr})"
    );
    assert_eq!(
        encode_expr["textEdit"]["range"],
        json!({"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 30}})
    );
    assert_eq!(encode_expr["documentation"]["kind"], "markdown");

    let help = client
        .request("textDocument/signatureHelp", completion(3, 39))
        .await;
    assert_eq!(
        help["signatures"][0]["label"], "provider::terraform::encode_expr(expr any) string",
        "{help}"
    );
    assert_eq!(help["activeParameter"], 0);
    client.shutdown().await;
}

/// Writing new blocks at the protocol edge: at the top level the keywords
/// as snippets (`insertTextFormat` 2) replacing the word typed; in a module's
/// `source` the local module directories as folders; in a
/// `required_providers` source the providers `tofu init` installed (read
/// from the disk by the server, the default registry's host left out).
#[tokio::test]
async fn new_blocks_and_sources_complete() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("modules/net")).unwrap();
    fs::write(root.join("modules/net/main.tf"), "variable \"cidr\" {}\n").unwrap();
    let package = "registry.opentofu.org/hashicorp/time/0.14.2/linux_amd64";
    fs::create_dir_all(root.join(".terraform/providers").join(package)).unwrap();
    let main = root.join("main.tf");
    let text = "variable \"a\" {}\n\nres\nmodule \"net\" {\n  source = \"./\"\n}\nterraform {\n  required_providers {\n    time = {\n      source = \"ha\"\n    }\n  }\n}\n";
    fs::write(&main, text).unwrap();
    let mut client = start(&root).await;
    client.open(&main, 1, text);
    // Every directory indexed: `modules/net` is known.
    client.settled_publications().await;
    let completion = |line: u32, character: u32| json!({"textDocument": {"uri": uri(&main)}, "position": {"line": line, "character": character}});
    let find = |items: &Value, label: &str| -> Value {
        items
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["label"] == label)
            .cloned()
            .unwrap_or_else(|| panic!("no {label} in {items}"))
    };

    let keywords = client
        .request("textDocument/completion", completion(2, 3))
        .await;
    let resource = find(&keywords, "resource");
    assert_eq!(resource["kind"], 14);
    assert_eq!(resource["insertTextFormat"], 2);
    assert_eq!(resource["detail"], "a managed resource");
    assert_eq!(
        resource["textEdit"],
        json!({"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 3}},
               "newText": "resource \"${1:type}\" \"${2:name}\" {\n  $0\n}"})
    );

    let sources = client
        .request("textDocument/completion", completion(4, 14))
        .await;
    let net = find(&sources, "./modules/net");
    assert_eq!(net["kind"], 19);
    assert!(net["insertTextFormat"].is_null(), "{net}");
    assert_eq!(
        net["textEdit"]["range"],
        json!({"start": {"line": 4, "character": 12}, "end": {"line": 4, "character": 14}})
    );

    let providers = client
        .request("textDocument/completion", completion(9, 18))
        .await;
    let time = find(&providers, "hashicorp/time");
    assert_eq!(time["detail"], "installed: 0.14.2");
    assert_eq!(time["textEdit"]["newText"], "hashicorp/time");
    client.shutdown().await;
}

/// A client without snippet support gets a snippet's text as plain text,
/// its placeholders' default text in place.
#[tokio::test]
async fn a_client_without_snippets_gets_plain_text() {
    let (_temp, root) = overrides_example();
    let mut without = capabilities();
    without["textDocument"]["completion"] = json!({"completionItem": {"snippetSupport": false}});
    let mut client = TestClient::start(&root, without, json!({}), Value::Null).await;
    let blocks = root.join("blocks.tf");
    client.open(&blocks, 1, "locals {\n  u = upp\n}\n\nmod\n");
    let request = |line: u32, character: u32| json!({"textDocument": {"uri": uri(&blocks)}, "position": {"line": line, "character": character}});
    let keywords = client
        .request("textDocument/completion", request(4, 3))
        .await;
    let module = keywords
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["label"] == "module")
        .unwrap();
    assert!(module["insertTextFormat"].is_null(), "{module}");
    assert_eq!(
        module["textEdit"]["newText"],
        "module \"name\" {\n  source = \"\"\n\n}"
    );
    let functions = client
        .request("textDocument/completion", request(1, 9))
        .await;
    let upper = functions
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["label"] == "upper")
        .unwrap();
    assert!(upper["insertTextFormat"].is_null(), "{upper}");
    assert_eq!(upper["textEdit"]["newText"], "upper(str)");
    client.shutdown().await;
}

//! Requests across the module boundary and `.tfvars` files, end to end: a
//! root module calling a local child and (after `tofu init`) a registry
//! module, an example calling the child with `../../`, and a
//! `terraform.tfvars`. The server keeps no full analysis of closed
//! directories (`common::test_options`), so every request here brings in
//! the called and calling modules it reads.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{capabilities, codes, uri, TestClient};
use serde_json::{json, Value};

const MANIFEST: &str = r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"registry.opentofu.org/terraform-aws-modules/vpc/aws","Version":"5.1.0","Dir":".terraform/modules/vpc"}]}"#;

/// The workspace; the manifest is written only when `initialised`.
fn tree(initialised: bool) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let files: [(&str, &str); 7] = [
        (
            "main.tf",
            "module \"net\" {\n  source = \"./modules/net\"\n  cidr   = \"10.0.0.0/16\"\n}\nmodule \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"5.1.0\"\n  name    = \"main\"\n}\noutput \"vpc\" {\n  value = module.net.vpc_id\n}\n",
        ),
        ("variables.tf", "variable \"region\" {\n  type = string\n}\n"),
        ("terraform.tfvars", "region = \"eu-west-1\"\nzone   = \"a\"\n"),
        (
            "modules/net/variables.tf",
            "variable \"cidr\" {\n  type        = string\n  description = \"The VPC's CIDR block.\"\n}\n",
        ),
        (
            "modules/net/outputs.tf",
            "output \"vpc_id\" {\n  value = var.cidr\n}\n",
        ),
        (
            "examples/simple/main.tf",
            "module \"net\" {\n  source = \"../../modules/net\"\n  cidr   = \"10.1.0.0/16\"\n}\n",
        ),
        (
            ".terraform/modules/vpc/variables.tf",
            "variable \"name\" {\n  type = string\n}\n",
        ),
    ];
    for (name, text) in files {
        let path = root.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    if initialised {
        fs::write(root.join(".terraform/modules/modules.json"), MANIFEST).unwrap();
    }
    (temp, root)
}

async fn start(root: &Path) -> TestClient {
    let mut client = TestClient::start(root, capabilities(), json!({}), Value::Null).await;
    // Indexing is over once the last directory is published.
    client
        .wait_for_diagnostics(&root.join("terraform.tfvars"), |_| true)
        .await;
    client
}

fn at(path: &Path, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}})
}

/// `uri-relative-to-root:line` of each location.
fn places(root: &Path, locations: &Value) -> Vec<String> {
    let prefix = format!("{}/", uri(root));
    locations
        .as_array()
        .unwrap()
        .iter()
        .map(|location| {
            format!(
                "{}:{}",
                location["uri"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches(&prefix),
                location["range"]["start"]["line"]
            )
        })
        .collect()
}

#[tokio::test]
async fn definition_hover_references_and_rename_cross_into_the_called_module() {
    let (_temp, root) = tree(true);
    let mut client = start(&root).await;
    let main = root.join("main.tf");

    // The argument `cidr` of module "net".
    let definition = client
        .request("textDocument/definition", at(&main, 2, 3))
        .await;
    assert_eq!(places(&root, &definition), ["modules/net/variables.tf:0"]);
    // `module.net.vpc_id`, on `vpc_id`.
    let hover = client
        .request("textDocument/hover", at(&main, 10, 22))
        .await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.contains(
            "Output of the module `modules/net`, declared in `modules/net/outputs.tf:1`."
        ),
        "{markdown}"
    );
    // The registry call's argument, through the manifest, into `.terraform`
    // (which the server does not index).
    let definition = client
        .request("textDocument/definition", at(&main, 7, 3))
        .await;
    assert_eq!(
        places(&root, &definition),
        [".terraform/modules/vpc/variables.tf:0"]
    );

    // From the child's declaration: every caller's argument.
    let variables = root.join("modules/net/variables.tf");
    let mut params = at(&variables, 0, 11);
    params["context"] = json!({"includeDeclaration": true});
    let references = client.request("textDocument/references", params).await;
    assert_eq!(
        places(&root, &references),
        [
            "modules/net/variables.tf:0",
            "modules/net/outputs.tf:1",
            "main.tf:2",
            "examples/simple/main.tf:2"
        ]
    );
    let mut params = at(&variables, 0, 11);
    params["newName"] = json!("cidr_block");
    let edit = client.request("textDocument/rename", params).await;
    let prefix = format!("{}/", uri(&root));
    let mut renamed: Vec<String> = edit["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("{edit}"))
        .iter()
        .flat_map(|(file, edits)| {
            let file = file.trim_start_matches(&prefix).to_owned();
            edits
                .as_array()
                .unwrap()
                .iter()
                .map(move |edit| format!("{file} {}", edit["newText"]))
                .collect::<Vec<_>>()
        })
        .collect();
    renamed.sort();
    assert_eq!(
        renamed,
        [
            "examples/simple/main.tf \"cidr_block\"",
            "main.tf \"cidr_block\"",
            "modules/net/outputs.tf \"cidr_block\"",
            "modules/net/variables.tf \"\\\"cidr_block\\\"\"",
        ]
    );
    client.shutdown().await;
}

#[tokio::test]
async fn completion_offers_the_called_modules_variables_and_outputs() {
    let (_temp, root) = tree(true);
    let mut client = start(&root).await;
    let calls = root.join("calls.tf");
    let text = "module \"other\" {\n  source = \"./modules/net\"\n  \n}\noutput \"o\" {\n  value = module.net.\n}\n";
    client.open(&calls, 1, text);
    client.wait_for_diagnostics(&calls, |_| true).await;
    let items = client
        .request("textDocument/completion", at(&calls, 2, 2))
        .await;
    let first = &items[0];
    assert_eq!(first["label"], "cidr");
    assert_eq!(
        first["detail"],
        "required; type = string; The VPC's CIDR block."
    );
    assert_eq!(first["textEdit"]["newText"], "cidr = ");
    let items = client
        .request("textDocument/completion", at(&calls, 5, 21))
        .await;
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["vpc_id"]);
    client.shutdown().await;
}

#[tokio::test]
async fn tfvars_files_are_published_opened_and_answered() {
    let (_temp, root) = tree(true);
    let mut client = TestClient::start(&root, capabilities(), json!({}), Value::Null).await;
    let values = root.join("terraform.tfvars");
    // Published at indexing, like any file with problems.
    let published = client.wait_for_diagnostics(&values, |_| true).await;
    assert_eq!(codes(&published), ["undeclared-value"]);
    // The watched files include them, the module manifest, and what
    // `tofu init` installs providers as.
    let globs: Vec<&Value> = client
        .registrations
        .iter()
        .flat_map(|params| params["registrations"].as_array().unwrap())
        .filter(|registration| registration["method"] == "workspace/didChangeWatchedFiles")
        .flat_map(|registration| {
            registration["registerOptions"]["watchers"]
                .as_array()
                .unwrap()
        })
        .map(|watcher| &watcher["globPattern"])
        .collect();
    assert_eq!(
        globs,
        [
            "**/*.{tf,tofu,tf.json,tofu.json,tfvars,tfvars.json,tftest.hcl,tftest.json,tofutest.hcl,tofutest.json}",
            "**/.terraform/modules/modules.json",
            "**/.terraform.lock.hcl",
            "**/.terraform/providers/**"
        ]
    );
    // Opened, every version is answered.
    client.open(&values, 3, "region = \"eu-west-1\"\n\n");
    let published = client
        .wait_for_diagnostics(&values, |p| p["version"] == 3)
        .await;
    assert!(codes(&published).is_empty());
    let hover = client
        .request("textDocument/hover", at(&values, 0, 2))
        .await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.starts_with("```hcl\nvariable \"region\" {"),
        "{markdown}"
    );
    let definition = client
        .request("textDocument/definition", at(&values, 0, 2))
        .await;
    assert_eq!(places(&root, &definition), ["variables.tf:0"]);
    client.shutdown().await;
}

/// `tofu init` writes the manifest while the server runs: the watched-file
/// notification makes the registry call resolvable.
#[tokio::test]
async fn a_manifest_written_by_tofu_init_is_picked_up() {
    let (_temp, root) = tree(false);
    let mut client = start(&root).await;
    let main = root.join("main.tf");
    let definition = client
        .request("textDocument/definition", at(&main, 7, 3))
        .await;
    assert!(definition.is_null(), "{definition}");
    let manifest = root.join(".terraform/modules/modules.json");
    fs::write(&manifest, MANIFEST).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&manifest), "type": 1}]}),
    );
    // The change is applied off the request path: ask again until it is
    // (each request is a round trip to the server; no sleeping).
    let started = std::time::Instant::now();
    loop {
        let definition = client
            .request("textDocument/definition", at(&main, 7, 3))
            .await;
        if !definition.is_null() {
            assert_eq!(
                places(&root, &definition),
                [".terraform/modules/vpc/variables.tf:0"]
            );
            break;
        }
        assert!(
            started.elapsed() < common::TIMEOUT,
            "the manifest was never picked up"
        );
        tokio::task::yield_now().await;
    }
    client.shutdown().await;
}

/// An argument of the wrong type is an error on the argument, and the
/// editor can follow its related information to the called module's
/// variable.
#[tokio::test]
async fn an_invalid_argument_relates_the_called_modules_variable() {
    let (_temp, root) = tree(true);
    let mut client = start(&root).await;
    let example = root.join("examples/simple/main.tf");
    client.open(
        &example,
        2,
        "module \"net\" {\n  source = \"../../modules/net\"\n  cidr   = [\"10.1.0.0/16\"]\n}\n",
    );
    // Until the called module's interface is known (it may be analysed
    // after its caller while indexing), the call is not judged.
    let published = client
        .wait_for_diagnostics(&example, |p| p["version"] == 2 && !codes(p).is_empty())
        .await;
    assert_eq!(codes(&published), ["invalid-variable-value"]);
    let diagnostic = &published["diagnostics"][0];
    assert_eq!(diagnostic["range"]["start"]["line"], 2);
    let related = &diagnostic["relatedInformation"];
    let locations: Vec<Value> = related
        .as_array()
        .unwrap()
        .iter()
        .map(|related| related["location"].clone())
        .collect();
    assert_eq!(
        places(&root, &Value::Array(locations)),
        ["modules/net/variables.tf:0"]
    );
    assert_eq!(
        related[0]["message"],
        "module.net.var.cidr is declared here"
    );
    client.shutdown().await;
}

/// After `tofu init`, a call to an installed module is judged as `check`
/// judges it: the module under `.terraform/modules` is read and analysed
/// (the walk skips it), and its own diagnostics are not published.
#[tokio::test]
async fn calls_into_installed_modules_are_judged_and_installed_modules_are_not_published() {
    let (_temp, root) = tree(true);
    fs::write(
        root.join(".terraform/modules/vpc/versions.tf"),
        "terraform {\n  required_version = \">= 1.0\"\n}\n",
    )
    .unwrap();
    let mut client = start(&root).await;
    let main = root.join("main.tf");
    let text = fs::read_to_string(&main)
        .unwrap()
        .replace("  name    = \"main\"", "  nmae    = \"main\"");
    client.open(&main, 2, &text);
    let published = client
        .wait_for_diagnostics(&main, |p| {
            p["version"] == 2 && codes(p).iter().any(|c| c == "undeclared-module-input")
        })
        .await;
    assert_eq!(
        codes(&published),
        ["missing-module-input", "undeclared-module-input"]
    );
    // Round trips give a stray publication time to arrive.
    for _ in 0..3 {
        client.request("textDocument/hover", at(&main, 7, 3)).await;
    }
    let installed = format!("{}/.terraform/", uri(&root));
    let stray: Vec<Value> = client
        .drain("textDocument/publishDiagnostics")
        .into_iter()
        .filter(|p| p["uri"].as_str().unwrap().starts_with(&installed))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
    client.shutdown().await;
}

/// A workspace opened at an example that calls its module from below
/// (`source = "../../"`): the server reads that module, outside the
/// workspace folder, and publishes its errors in its own files, as `tofu
/// validate` run in the example (and `check`) reports them. Nothing else
/// outside the folder is read: a sibling module with an error is never
/// published, and a link out of the called module is not followed.
#[tokio::test]
async fn a_module_called_from_below_the_workspace_is_read_and_published() {
    let temp = tempfile::tempdir().unwrap();
    let top = temp.path().canonicalize().unwrap();
    let files: [(&str, &str); 4] = [
        (
            "module/main.tf",
            "variable \"name\" {\n  type = string\n}\noutput \"greeting\" {\n  value = \"hello ${var.nmae}\"\n}\n",
        ),
        (
            "module/examples/simple/main.tf",
            "module \"greeter\" {\n  source = \"../../\"\n  name   = \"world\"\n}\nmodule \"linked\" {\n  source = \"../../linked\"\n}\n",
        ),
        ("module/sibling/main.tf", "output \"x\" {\n  value = var.nope\n}\n"),
        ("secret/leak.tf", "output \"leak\" {\n  value = var.secret\n}\n"),
    ];
    for (name, text) in files {
        let path = top.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    #[cfg(unix)]
    {
        fs::create_dir_all(top.join("module/linked")).unwrap();
        std::os::unix::fs::symlink(
            top.join("secret/leak.tf"),
            top.join("module/linked/leak.tf"),
        )
        .unwrap();
    }
    let module = top.join("module");
    let example = module.join("examples/simple");
    let mut client = TestClient::start(&example, capabilities(), json!({}), Value::Null).await;
    client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    let published = client.settled_publications().await;
    let main = published
        .iter()
        .rev()
        .find(|p| p["uri"] == uri(&module.join("main.tf")))
        .unwrap_or_else(|| panic!("the called module's main.tf is published: {published:?}"));
    assert_eq!(codes(main), ["undeclared-reference"]);
    for params in &published {
        let text = params.to_string();
        assert!(
            !text.contains("sibling") && !text.contains("secret"),
            "{text}"
        );
    }
    #[cfg(unix)]
    {
        let link = published
            .iter()
            .rev()
            .find(|p| p["uri"] == uri(&module.join("linked/leak.tf")))
            .expect("the link out of the called module is reported");
        assert_eq!(codes(link), ["file-unreadable"]);
    }
    client.shutdown().await;
}

/// A test file's run of a module outside the workspace (`../setup`): the
/// module is read where it is, as OpenTofu reads it, and the test file's
/// providers take their types from it ("Provider type mismatch", as
/// `check` reports); nothing beside it is read.
#[tokio::test]
async fn a_module_a_test_run_calls_from_outside_the_workspace_gives_its_types() {
    let temp = tempfile::tempdir().unwrap();
    let top = temp.path().canonicalize().unwrap();
    let required = |provider: &str| {
        format!("terraform {{\n  required_providers {{\n    foo = {{\n      source = \"hashicorp/{provider}\"\n    }}\n  }}\n}}\n")
    };
    let files: [(&str, String); 4] = [
        ("root/main.tf", required("foo")),
        (
            "root/main.tftest.hcl",
            "provider \"foo\" {}\n\nrun \"setup\" {\n  module {\n    source = \"../setup\"\n  }\n}\n\nrun \"main\" {}\n".to_owned(),
        ),
        ("setup/main.tf", required("bar")),
        ("sibling/main.tf", "output \"x\" {\n  value = var.nope\n}\n".to_owned()),
    ];
    for (name, text) in files {
        let path = top.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let root = top.join("root");
    let mut client = TestClient::start(&root, capabilities(), json!({}), Value::Null).await;
    client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    let published = client.settled_publications().await;
    let test_file = published
        .iter()
        .rev()
        .find(|p| p["uri"] == uri(&root.join("main.tftest.hcl")))
        .unwrap_or_else(|| panic!("the test file is published: {published:?}"));
    assert_eq!(codes(test_file), ["provider-type-mismatch"]);
    for params in &published {
        let text = params.to_string();
        assert!(!text.contains("sibling"), "{text}");
    }
    client.shutdown().await;
}

/// A called module's directory deleted (the client reports the directory
/// gone): the call is "Unreadable module directory", as `check` and `tofu
/// init` say, not a call of an empty module; created again, it is judged
/// against it.
#[tokio::test]
async fn a_called_directory_deleted_makes_the_call_unreadable() {
    let (_temp, root) = tree(false);
    let mut client = start(&root).await;
    let main = root.join("main.tf");
    let net = root.join("modules/net");
    let saved: Vec<(PathBuf, String)> = fs::read_dir(&net)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let text = fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect();
    fs::remove_dir_all(&net).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&net), "type": 3}]}),
    );
    let published = client
        .wait_for_diagnostics(&main, |p| {
            codes(p).iter().any(|c| c == "module-dir-unreadable")
        })
        .await;
    assert_eq!(codes(&published), ["module-dir-unreadable"]);
    fs::create_dir_all(&net).unwrap();
    let mut changes = Vec::new();
    for (path, text) in saved {
        fs::write(&path, text).unwrap();
        changes.push(json!({"uri": uri(&path), "type": 1}));
    }
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": changes }),
    );
    client
        .wait_for_diagnostics(&main, |p| codes(p).is_empty())
        .await;
    client.shutdown().await;
}

/// A validation rule typed into the called module judges its callers'
/// arguments at once (the interface carries the rules), related to the
/// rule; relaxing the rule clears them.
#[tokio::test]
async fn a_rule_typed_in_the_called_module_judges_its_callers() {
    let (_temp, root) = tree(true);
    let mut client = start(&root).await;
    let child = root.join("modules/net/variables.tf");
    let rule = |prefix: &str| {
        format!(
            "variable \"cidr\" {{\n  type = string\n  validation {{\n    condition     = startswith(var.cidr, \"{prefix}\")\n    error_message = \"Not a private range.\"\n  }}\n}}\n"
        )
    };
    client.open(&child, 2, &rule("192."));
    let main = root.join("main.tf");
    let published = client
        .wait_for_diagnostics(&main, |p| !codes(p).is_empty())
        .await;
    assert_eq!(codes(&published), ["module-argument-validation"]);
    let diagnostic = &published["diagnostics"][0];
    assert_eq!(diagnostic["range"]["start"]["line"], 2);
    assert_eq!(
        diagnostic["message"]
            .as_str()
            .unwrap()
            .lines()
            .next()
            .unwrap(),
        "Invalid value for variable"
    );
    let related = &diagnostic["relatedInformation"][0];
    assert_eq!(
        places(&root, &Value::Array(vec![related["location"].clone()])),
        ["modules/net/variables.tf:2"]
    );
    // `"192."` becomes `"10."`, which the argument passes.
    client.change(&child, 3, [3, 42, 3, 46], "10.");
    client
        .wait_for_diagnostics(&main, |p| codes(p).is_empty())
        .await;
    let own = client
        .wait_for_diagnostics(&child, |p| p["version"] == 3)
        .await;
    assert!(codes(&own).is_empty(), "{own}");
    client.shutdown().await;
}

/// Renaming a module call writes a `moved` block; with `rename.writeMoved`
/// off it is a plain rename.
#[tokio::test]
async fn renaming_a_call_writes_moved_unless_the_setting_says_not() {
    for (settings, moved) in [
        (json!({}), true),
        (json!({"rename": {"writeMoved": false}}), false),
    ] {
        let (_temp, root) = tree(true);
        let mut client =
            TestClient::start(&root, capabilities(), settings.clone(), Value::Null).await;
        client
            .wait_for_diagnostics(&root.join("terraform.tfvars"), |_| true)
            .await;
        let main = root.join("main.tf");
        let mut params = at(&main, 0, 9);
        params["newName"] = json!("network");
        let edit = client.request("textDocument/rename", params).await;
        let texts: Vec<String> = edit["changes"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|edits| edits.as_array().unwrap().clone())
            .map(|edit| edit["newText"].as_str().unwrap().to_owned())
            .collect();
        let writes_moved = texts
            .iter()
            .any(|text| text.contains("moved {\n  from = module.net\n  to   = module.network\n}"));
        assert_eq!(writes_moved, moved, "{settings}: {texts:?}");
        assert!(texts.iter().any(|text| text == "\"network\""), "{texts:?}");
        client.shutdown().await;
    }
}

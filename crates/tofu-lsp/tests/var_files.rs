//! Values files the user names for plan's checks (`server.md`, 2026-12-01):
//! the `varFiles` setting, the code lens on a values file and the
//! `tofuLens.toggleVarFile` command it runs, and hover showing the value
//! they give.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::Path;

use common::{capabilities, codes, uri, TestClient};
use serde_json::{json, Value};

const MAIN: &str = r#"variable "instances" {
  type = number
  validation {
    condition     = var.instances < 5
    error_message = "At most four instances."
  }
}

output "instances" {
  value = var.instances
}
"#;

/// `env/` with its automatic `terraform.tfvars` (a value that passes), a
/// `prod.tfvars` whose value fails, and `../shared/common.tfvars` (outside
/// the module directory) whose value passes.
fn workspace() -> (tempfile::TempDir, std::path::PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("env")).unwrap();
    fs::create_dir_all(root.join("shared")).unwrap();
    fs::write(root.join("env/main.tf"), MAIN).unwrap();
    fs::write(root.join("env/terraform.tfvars"), "instances = 1\n").unwrap();
    fs::write(root.join("env/prod.tfvars"), "instances = 7\n").unwrap();
    fs::write(root.join("shared/common.tfvars"), "instances = 3\n").unwrap();
    (temp, root)
}

async fn hover_value(client: &mut TestClient, main: &Path) -> String {
    // `  value = var.instances`: the cursor on `instances` of line 9.
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(main)},
                   "position": {"line": 9, "character": 16}}),
        )
        .await;
    hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn lens_titles(client: &mut TestClient, file: &Path) -> Vec<(String, Value)> {
    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri(file)}}),
        )
        .await;
    lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|lens| {
            (
                lens["command"]["title"].as_str().unwrap().to_owned(),
                lens["command"].clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_var_files_setting_feeds_plan_checks_and_hover() {
    let (_temp, root) = workspace();
    let settings = json!({"varFiles": {"env": ["prod.tfvars"]}});
    let mut client = TestClient::start(&root, capabilities(), settings, Value::Null).await;
    let advertised = &client.initialize_result["capabilities"];
    assert_eq!(
        advertised["executeCommandProvider"]["commands"],
        json!(["tofuLens.toggleVarFile", "tofuLens.showValue"])
    );
    let main = root.join("env/main.tf");
    client.open(&main, 1, MAIN);
    client
        .wait_for_diagnostics(&main, |params| {
            codes(params).contains(&"plan-variable-validation".to_owned())
        })
        .await;
    let hover = hover_value(&mut client, &main).await;
    assert!(hover.contains("set in `prod.tfvars`"), "{hover}");
    assert!(hover.contains("\n7\n"), "{hover}");

    // The lens on prod.tfvars says it is read, and running its command
    // stops reading it: terraform.tfvars's value passes.
    let prod = root.join("env/prod.tfvars");
    client.open(&prod, 1, "instances = 7\n");
    let lenses = lens_titles(&mut client, &prod).await;
    let (title, command) = lenses.first().unwrap().clone();
    assert!(title.contains("read this file (-var-file)"), "{title}");
    let answer = client
        .request(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        )
        .await;
    assert_eq!(answer, json!({"varFiles": []}));
    client
        .wait_for_diagnostics(&main, |params| {
            !codes(params).contains(&"plan-variable-validation".to_owned())
        })
        .await;
    let hover = hover_value(&mut client, &main).await;
    assert!(hover.contains("set in `terraform.tfvars`"), "{hover}");
    let lenses = lens_titles(&mut client, &prod).await;
    assert!(
        lenses[0].0.contains("read this file as -var-file"),
        "{lenses:?}"
    );
    client.shutdown().await;
}

#[tokio::test]
async fn a_values_file_outside_the_directory_is_read_and_followed() {
    let (_temp, root) = workspace();
    let settings = json!({"varFiles": {"env": ["prod.tfvars", "../shared/common.tfvars"]}});
    let mut client = TestClient::start(&root, capabilities(), settings, Value::Null).await;
    let main = root.join("env/main.tf");
    client.open(&main, 1, MAIN);
    // common.tfvars comes last: its 3 passes.
    client
        .wait_for_diagnostics(&main, |params| {
            !codes(params).contains(&"plan-variable-validation".to_owned())
        })
        .await;
    let hover = hover_value(&mut client, &main).await;
    assert!(
        hover.contains("set in `../shared/common.tfvars`"),
        "{hover}"
    );
    // Typing a failing value into the outside file judges the module
    // again.
    let common = root.join("shared/common.tfvars");
    client.open(&common, 1, "instances = 3\n");
    client.change(&common, 2, [0, 12, 0, 13], "9");
    client
        .wait_for_diagnostics(&main, |params| {
            codes(params).contains(&"plan-variable-validation".to_owned())
        })
        .await;
    // A directory of values files alone is no module: nothing is said of
    // its values (a value for an undeclared variable, say). Its open
    // document's version 2 is answered: waited for, since it may come
    // after the module's.
    let last = client
        .wait_for_diagnostics(&common, |params| params["version"] == 2)
        .await;
    assert_eq!(codes(&last), Vec::<String>::new(), "{last:#}");
    let published = client.drain("textDocument/publishDiagnostics");
    for publication in published
        .iter()
        .filter(|params| params["uri"] == uri(&common).as_str())
    {
        assert_eq!(codes(publication), Vec::<String>::new());
    }
    client.shutdown().await;
}

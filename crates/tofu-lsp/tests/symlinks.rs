//! Files shared by symlink, as public modules share them: a `v4/` directory
//! whose files link to the root's (`v4/main.tf -> ../main.tf`), and a test
//! fixture with its own `main.tf` whose `variables.tf` links to the root's.
//! Requests on a symlinked path answer in the directory the path is in; a
//! rename of a variable declared in a shared file renames its uses in every
//! directory holding the file, each real file edited once (by its path in
//! the requesting directory when it holds one); an edit through one path is
//! seen by every directory holding the file. With `v4/` alone as the
//! workspace folder (every link leads outside it), a document opened
//! through a link answers definition, references, rename, hover, completion
//! and code actions in `v4/`, with the files beside its real file; a link
//! elsewhere stays unread.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use common::{capabilities, codes, uri, TestClient};
use serde_json::{json, Value};

const MAIN: &str = "resource \"terraform_data\" \"x\" {\n  input = var.name\n}\n";
const VARIABLES: &str = "variable \"name\" {\n  type = string\n}\n";
const FIXTURE_MAIN: &str = "output \"n\" {\n  value = var.name\n}\n";

fn tree() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    fs::write(root.join("main.tf"), MAIN).unwrap();
    fs::write(root.join("variables.tf"), VARIABLES).unwrap();
    fs::create_dir(root.join("v4")).unwrap();
    symlink("../main.tf", root.join("v4/main.tf")).unwrap();
    symlink("../variables.tf", root.join("v4/variables.tf")).unwrap();
    fs::create_dir(root.join("unit-test-fixture")).unwrap();
    fs::write(root.join("unit-test-fixture/main.tf"), FIXTURE_MAIN).unwrap();
    symlink(
        "../variables.tf",
        root.join("unit-test-fixture/variables.tf"),
    )
    .unwrap();
    (temp, root)
}

async fn start(root: &Path) -> TestClient {
    let mut client = TestClient::start(root, capabilities(), json!({}), Value::Null).await;
    let progress = client
        .wait_for("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    assert_eq!(progress["value"]["message"], "3 module directories");
    client
}

fn at(path: &Path, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}})
}

fn places(root: &Path, locations: &Value) -> Vec<String> {
    let prefix = format!("{}/", uri(root));
    let mut places: Vec<String> = locations
        .as_array()
        .unwrap_or_else(|| panic!("{locations}"))
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
        .collect();
    places.sort();
    places
}

#[tokio::test]
async fn requests_on_a_symlinked_path_answer_in_its_directory() {
    let (_temp, root) = tree();
    let mut client = start(&root).await;
    for dir in ["", "v4/"] {
        let main = root.join(format!("{dir}main.tf"));
        let definition = client
            .request("textDocument/definition", at(&main, 1, 14))
            .await;
        assert_eq!(
            places(&root, &definition),
            [format!("{dir}variables.tf:0")],
            "from {}",
            main.display()
        );
        let hover = client.request("textDocument/hover", at(&main, 1, 14)).await;
        let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(markdown.contains("variable \"name\""), "{hover}");
    }
    // The fixture's own file reads the variable its linked file declares.
    let fixture_main = root.join("unit-test-fixture/main.tf");
    let definition = client
        .request("textDocument/definition", at(&fixture_main, 1, 14))
        .await;
    assert_eq!(
        places(&root, &definition),
        ["unit-test-fixture/variables.tf:0"]
    );
    // References from the shared declaration, through the v4 path: the uses
    // of every directory holding the file, each real file once, named by
    // the path in v4 where v4 holds it.
    let mut params = at(&root.join("v4/variables.tf"), 0, 11);
    params["context"] = json!({"includeDeclaration": false});
    let references = client.request("textDocument/references", params).await;
    assert_eq!(
        places(&root, &references),
        ["unit-test-fixture/main.tf:1", "v4/main.tf:1"]
    );
    // From the root's own path, the root's paths.
    let mut params = at(&root.join("variables.tf"), 0, 11);
    params["context"] = json!({"includeDeclaration": true});
    let references = client.request("textDocument/references", params).await;
    assert_eq!(
        places(&root, &references),
        ["main.tf:1", "unit-test-fixture/main.tf:1", "variables.tf:0"]
    );
    client.shutdown().await;
}

/// The rename's edits, applied to the files on disk (each URI's edits from
/// the end, so earlier ranges stay valid).
fn apply(edit: &Value) {
    let changes = edit["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("{edit}"));
    for (file, edits) in changes {
        let path = PathBuf::from(file.trim_start_matches("file://"));
        let text = fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_owned).collect();
        let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
        edits.sort_by_key(|edit| {
            let start = &edit["range"]["start"];
            (
                start["line"].as_u64().unwrap(),
                start["character"].as_u64().unwrap(),
            )
        });
        for edit in edits.into_iter().rev() {
            let start = &edit["range"]["start"];
            let end = &edit["range"]["end"];
            assert_eq!(start["line"], end["line"], "{edit}");
            let line = &mut lines[start["line"].as_u64().unwrap() as usize];
            let from = start["character"].as_u64().unwrap() as usize;
            let to = end["character"].as_u64().unwrap() as usize;
            line.replace_range(from..to, edit["newText"].as_str().unwrap());
        }
        // Through the link, as an editor saves: the real file changes.
        fs::write(fs::canonicalize(&path).unwrap(), lines.concat()).unwrap();
    }
}

/// Every real file's text, by path relative to the root.
fn contents(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for relative in [
        "main.tf",
        "variables.tf",
        "v4/main.tf",
        "v4/variables.tf",
        "unit-test-fixture/main.tf",
        "unit-test-fixture/variables.tf",
    ] {
        out.push((
            relative.to_owned(),
            fs::read_to_string(root.join(relative)).unwrap(),
        ));
    }
    out
}

#[tokio::test]
async fn a_rename_in_a_shared_file_renames_every_directory_once_and_round_trips() {
    let (_temp, root) = tree();
    let before = contents(&root);
    let mut client = start(&root).await;
    // From a use in the v4 path: the shared declaration, the shared use and
    // the fixture's own use, each real file edited once, through v4's paths
    // where v4 holds it.
    let mut params = at(&root.join("v4/main.tf"), 1, 14);
    params["newName"] = json!("label");
    let edit = client.request("textDocument/rename", params).await;
    let mut files: Vec<String> = edit["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("{edit}"))
        .iter()
        .map(|(file, edits)| {
            let relative = file
                .trim_start_matches(&format!("{}/", uri(&root)))
                .to_owned();
            format!("{relative} {}", edits.as_array().unwrap().len())
        })
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "unit-test-fixture/main.tf 1",
            "v4/main.tf 1",
            "v4/variables.tf 1"
        ]
    );
    apply(&edit);
    let renamed = contents(&root);
    assert!(renamed[0].1.contains("var.label"), "{renamed:?}");
    assert!(renamed[4].1.contains("var.label"), "{renamed:?}");
    assert!(renamed[1].1.contains("variable \"label\""), "{renamed:?}");
    // The server sees the disk change through the watcher. The shared
    // declaration first: every directory holding it now declares `label`,
    // and the uses it has not seen change yet are undeclared in each.
    let watched = |path: &str| json!({"changes": [{"uri": uri(&root.join(path)), "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", watched("variables.tf"));
    for path in ["main.tf", "v4/main.tf", "unit-test-fixture/main.tf"] {
        client
            .wait_for_diagnostics(&root.join(path), |params| {
                codes(params).contains(&"undeclared-reference".to_owned())
            })
            .await;
    }
    // Then the uses: clean again, v4's through its link.
    client.notify("workspace/didChangeWatchedFiles", watched("main.tf"));
    client.notify(
        "workspace/didChangeWatchedFiles",
        watched("unit-test-fixture/main.tf"),
    );
    for path in ["main.tf", "v4/main.tf", "unit-test-fixture/main.tf"] {
        client
            .wait_for_diagnostics(&root.join(path), |params| codes(params).is_empty())
            .await;
    }
    // And back, from the fixture's own file.
    let mut params = at(&root.join("unit-test-fixture/main.tf"), 1, 14);
    params["newName"] = json!("name");
    let edit = client.request("textDocument/rename", params).await;
    apply(&edit);
    assert_eq!(contents(&root), before);
    client.shutdown().await;
}

#[tokio::test]
async fn an_edit_through_one_path_is_seen_by_every_directory_holding_the_file() {
    let (_temp, root) = tree();
    let mut client = start(&root).await;
    // Open the shared declaration through the fixture's path and rename the
    // variable there (unsaved): the root's and v4's use of `var.name` are
    // now undeclared in every directory holding the file.
    let fixture_variables = root.join("unit-test-fixture/variables.tf");
    client.open(&fixture_variables, 1, VARIABLES);
    client.change(&fixture_variables, 2, [0, 10, 0, 14], "nom");
    for path in ["main.tf", "v4/main.tf", "unit-test-fixture/main.tf"] {
        let published = client
            .wait_for_diagnostics(&root.join(path), |params| {
                codes(params).contains(&"undeclared-reference".to_owned())
            })
            .await;
        assert!(
            codes(&published).contains(&"undeclared-reference".to_owned()),
            "{path}: {published}"
        );
    }
    client.shutdown().await;
}

/// A repository whose `v4/` holds links to the root's files and an
/// override file of its own, with `v4/` alone as the workspace folder:
/// every link leads outside it.
fn v4_as_the_workspace() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let repo = temp.path().canonicalize().unwrap().join("repo");
    let v4 = repo.join("v4");
    fs::create_dir_all(&v4).unwrap();
    fs::write(repo.join("main.tf"), MAIN).unwrap();
    fs::write(repo.join("variables.tf"), VARIABLES).unwrap();
    symlink("../main.tf", v4.join("main.tf")).unwrap();
    symlink("../variables.tf", v4.join("variables.tf")).unwrap();
    fs::write(
        v4.join("override.tf"),
        "variable \"name\" {\n  default = \"v4\"\n}\n",
    )
    .unwrap();
    (temp, v4)
}

/// Issue 43: a document opened through a link whose file lies outside the
/// workspace folder answers in the link's directory, with the directory's
/// other files beside its real file; files nobody opened stay unread.
#[tokio::test]
async fn a_link_opened_from_outside_the_workspace_answers_in_its_directory() {
    let (_temp, v4) = v4_as_the_workspace();
    let mut client = TestClient::start(&v4, capabilities(), json!({}), Value::Null).await;
    let main = v4.join("main.tf");
    // Before anything is open, no link is followed.
    let unread = client
        .wait_for_diagnostics(&v4.join("variables.tf"), |params| {
            codes(params).contains(&"file-unreadable".to_owned())
        })
        .await;
    assert!(!unread.to_string().contains("name"), "{unread}");
    client.open(&main, 1, MAIN);
    // The fixture's links are read now: the variable is declared again, and
    // the secret beside no opened file is still not read.
    client
        .wait_for_diagnostics(&v4.join("variables.tf"), |params| codes(params).is_empty())
        .await;
    let published = client
        .wait_for_diagnostics(&main, |params| params["version"] == 1)
        .await;
    assert_eq!(codes(&published), Vec::<String>::new());
    let definition = client
        .request("textDocument/definition", at(&main, 1, 14))
        .await;
    assert_eq!(
        places(&v4, &definition),
        ["override.tf:0", "variables.tf:0"],
        "{definition}"
    );
    let hover = client.request("textDocument/hover", at(&main, 1, 14)).await;
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        markdown.contains("variable \"name\"") && markdown.contains("override.tf"),
        "{hover}"
    );
    let mut params = at(&main, 1, 14);
    params["context"] = json!({"includeDeclaration": true});
    let references = client.request("textDocument/references", params).await;
    assert_eq!(
        places(&v4, &references),
        ["main.tf:1", "override.tf:0", "variables.tf:0"]
    );
    let mut params = at(&main, 1, 14);
    params["newName"] = json!("label");
    let edit = client.request("textDocument/rename", params).await;
    let mut edited: Vec<String> = edit["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("{edit}"))
        .keys()
        .map(|file| {
            file.trim_start_matches(&format!("{}/", uri(&v4)))
                .to_owned()
        })
        .collect();
    edited.sort();
    assert_eq!(edited, ["main.tf", "override.tf", "variables.tf"]);
    // Completion after `var.` in the opened link lists the variable.
    client.change(&main, 2, [1, 10, 1, 18], "var.");
    let completion = client
        .request("textDocument/completion", at(&main, 1, 14))
        .await;
    let items = completion
        .get("items")
        .unwrap_or(&completion)
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        items.iter().any(|item| item["label"] == "name"),
        "{completion}"
    );
    // A use of an undeclared variable offers to declare it, in v4.
    client.change(&main, 3, [1, 10, 1, 14], "var.missing");
    let published = client
        .wait_for_diagnostics(&main, |params| params["version"] == 3)
        .await;
    assert!(
        codes(&published).contains(&"undeclared-reference".to_owned()),
        "{published}"
    );
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri(&main)},
                   "range": {"start": {"line": 1, "character": 14}, "end": {"line": 1, "character": 14}},
                   "context": {"diagnostics": []}}),
        )
        .await;
    let declare = actions
        .as_array()
        .unwrap_or_else(|| panic!("{actions}"))
        .iter()
        .find(|action| {
            action["title"]
                .as_str()
                .is_some_and(|title| title.contains("missing"))
        })
        .unwrap_or_else(|| panic!("{actions}"));
    assert!(
        declare.to_string().contains(&uri(&v4)),
        "the fix edits v4: {declare}"
    );
    // A link to a file beside no opened document, made now: not read.
    let elsewhere = v4.parent().unwrap().parent().unwrap().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::write(elsewhere.join("secret.tf"), "locals { secret = 1 }\n").unwrap();
    symlink(elsewhere.join("secret.tf"), v4.join("secret.tf")).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&v4.join("secret.tf")), "type": 1}]}),
    );
    let secret = client
        .wait_for_diagnostics(&v4.join("secret.tf"), |params| {
            codes(params).contains(&"file-unreadable".to_owned())
        })
        .await;
    assert!(!secret.to_string().contains("secret = 1"), "{secret}");
    // The files the document vouches for are still read.
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri(&v4.join("variables.tf"))}}),
        )
        .await;
    assert!(symbols.to_string().contains("name"), "{symbols}");
    // Closed, the link vouches for nothing any more.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&main)}}),
    );
    client
        .wait_for_diagnostics(&v4.join("variables.tf"), |params| {
            codes(params).contains(&"file-unreadable".to_owned())
        })
        .await;
    client.shutdown().await;
}

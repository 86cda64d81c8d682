//! The server = `check` (issue 43, part 5): for every module directory of
//! `examples/`, of `tests/fixtures/` (each case directory) and of
//! `../shared/corpus/` (each top-level tree), opened as the workspace root
//! as a user would open it (and each `examples/*` of a case or a tree,
//! which calls the module from below), the diagnostics the server publishes once it
//! has indexed the workspace and has nothing left to do (`tofuLens/settled`)
//! equal what `tofu-lens check --unused --format json ROOT` reports: the
//! same files, and in each the same set of (range, severity, code,
//! summary).
//!
//! Both sides run in this process on the same files: the server over an
//! in-memory duplex (`../tofu-lsp/tests/common`), `check` through
//! `check_paths_with_schemas` with `check_config(None, true)` (that is
//! `--unused`) and a fixture's `schemas.json` given to both. Nothing is
//! copied: neither side writes. `PARITY_FILTER=text` runs only the
//! workspaces whose path contains `text`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stderr
)]

#[path = "../../tofu-lsp/tests/common/mod.rs"]
mod common;
mod editing;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use common::{capabilities, test_options, TestClient};
use editing::{as_editor_sees, resolve};
use serde_json::{json, Value};
use tofu_lens::check;
use tofu_lens::render::flatten_module;
use tofu_module::calls::normalize_path;
use tofu_vfs::schemas::SchemaOptions;

/// One diagnostic as compared: byte range (as an editor gets it back),
/// severity, code, summary.
type Compared = (usize, usize, &'static str, String, String);

/// What one side reports, by file (absolute, normalised).
type Reported = BTreeMap<PathBuf, BTreeSet<Compared>>;

fn repository() -> PathBuf {
    normalize_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

/// Every workspace the invariant holds on, sorted: each directory of
/// `examples/`, each fixture case (a directory with `expected.diagnostics`)
/// and each top-level tree of the corpus (when it is there).
fn workspaces() -> Vec<PathBuf> {
    let repository = repository();
    let mut found = Vec::new();
    for entry in fs::read_dir(repository.join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.push(path);
        }
    }
    let mut pending = vec![repository.join("tests/fixtures")];
    while let Some(dir) = pending.pop() {
        if dir.join("expected.diagnostics").is_file() {
            // A case's examples are roots of their own, calling the case
            // from below (`source = "../../"`).
            if let Ok(examples) = fs::read_dir(dir.join("examples")) {
                found.extend(examples.map(|entry| entry.unwrap().path()));
            }
            found.push(dir);
            continue;
        }
        for entry in fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            }
        }
    }
    let corpus = repository.join("../shared/corpus");
    if let Ok(entries) = fs::read_dir(&corpus) {
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                // A tree's examples too, each a root calling the module
                // from below (`source = "../../"`), as a user opens one.
                if let Ok(examples) = fs::read_dir(path.join("examples")) {
                    found.extend(examples.map(|entry| entry.unwrap().path()));
                }
                found.push(path);
            }
        }
    } else {
        eprintln!(
            "no corpus at {}: its trees are not compared",
            corpus.display()
        );
    }
    let filter = std::env::var("PARITY_FILTER").unwrap_or_default();
    found.retain(|path| path.to_string_lossy().contains(filter.as_str()));
    found = found
        .iter()
        .map(|path| path.canonicalize().unwrap())
        .collect();
    found.sort();
    found
}

/// A fixture's provider schemas (`schemas.json`, or the file `schemas.path`
/// names), as `tests/fixtures.rs` gives them to `check`.
fn schema_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if root.join("schemas.json").is_file() {
        files.push(root.join("schemas.json"));
    }
    if let Ok(shared) = fs::read_to_string(root.join("schemas.path")) {
        files.push(normalize_path(&root.join(shared.trim())));
    }
    files
}

fn text_of(path: &Path, texts: &mut BTreeMap<PathBuf, String>) -> String {
    texts
        .entry(path.to_path_buf())
        .or_insert_with(|| {
            String::from_utf8_lossy(&fs::read(path).unwrap_or_default()).into_owned()
        })
        .clone()
}

/// `tofu-lens check --unused --format json ROOT`.
fn check_side(root: &Path, texts: &mut BTreeMap<PathBuf, String>) -> Reported {
    let report = check::check_paths_with_schemas(
        &[root.to_path_buf()],
        &check::check_config(None, true),
        None,
        &SchemaOptions {
            files: schema_files(root),
            ..SchemaOptions::none()
        },
    )
    .unwrap();
    let mut reported = Reported::new();
    for module in &report.modules {
        for diagnostic in flatten_module(module) {
            let path = normalize_path(Path::new(&diagnostic.file));
            let text = text_of(&path, texts);
            let (start, end) = diagnostic.range.map_or((0, 0), |range| {
                as_editor_sees(&text, range.start.byte as usize, range.end.byte as usize)
            });
            reported.entry(path).or_default().insert((
                start,
                end,
                diagnostic.severity,
                diagnostic.code.to_owned(),
                diagnostic.summary,
            ));
        }
    }
    for unreadable in &report.unreadable_dirs {
        reported.entry(unreadable.dir.clone()).or_default().insert((
            0,
            0,
            "error",
            "file-unreadable".to_owned(),
            unreadable.message.clone(),
        ));
    }
    reported
}

/// What the server publishes on `root` once it has nothing left to do: the
/// latest publication of each file.
async fn server_side(root: &Path, texts: &mut BTreeMap<PathBuf, String>) -> Reported {
    let files: Vec<String> = schema_files(root)
        .iter()
        .map(|file| file.to_string_lossy().into_owned())
        .collect();
    // The unused-declaration hints on, as `--unused` turns them on.
    let init = json!({"diagnostics": {"severity": {}}, "schemas": {"files": files}});
    let mut client =
        TestClient::start_with_options(root, capabilities(), init, Value::Null, test_options())
            .await;
    client
        .wait_for("$/progress", |params| {
            params["value"]["kind"] == "end"
                && params["value"]["message"]
                    .as_str()
                    .is_some_and(|message| message.ends_with("module directories"))
        })
        .await;
    let mut latest: BTreeMap<String, Value> = BTreeMap::new();
    for params in client.settled_publications().await {
        latest.insert(params["uri"].as_str().unwrap().to_owned(), params);
    }
    client.shutdown().await;
    let mut reported = Reported::new();
    for (uri, params) in latest {
        let uri: tower_lsp_server::ls_types::Uri = uri.parse().unwrap();
        let path = normalize_path(&uri.to_file_path().unwrap());
        let text = text_of(&path, texts);
        let offset = |position: &Value| {
            resolve(
                &text,
                position["line"].as_u64().unwrap() as u32,
                position["character"].as_u64().unwrap() as u32,
            )
        };
        let list: BTreeSet<Compared> = params["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let severity = match d["severity"].as_u64() {
                    Some(1) => "error",
                    Some(2) => "warning",
                    Some(3) => "info",
                    _ => "hint",
                };
                let message = d["message"].as_str().unwrap();
                (
                    offset(&d["range"]["start"]),
                    offset(&d["range"]["end"]),
                    severity,
                    d["code"].as_str().unwrap_or_default().to_owned(),
                    message.split('\n').next().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        if !list.is_empty() {
            reported.insert(path, list);
        }
    }
    reported
}

/// Where the two sides differ: (file, diagnostic, which side has it).
fn differences(server: &Reported, check: &Reported) -> Vec<(PathBuf, Compared, &'static str)> {
    let empty = BTreeSet::new();
    let files: BTreeSet<&PathBuf> = server.keys().chain(check.keys()).collect();
    let mut out = Vec::new();
    for file in files {
        let on_server = server.get(file).unwrap_or(&empty);
        let in_check = check.get(file).unwrap_or(&empty);
        for only in on_server.difference(in_check) {
            out.push((file.clone(), only.clone(), "server only"));
        }
        for only in in_check.difference(on_server) {
            out.push((file.clone(), only.clone(), "check only"));
        }
    }
    out
}

fn describe(root: &Path, differences: &[(PathBuf, Compared, &'static str)]) -> String {
    let mut text = String::new();
    for (file, (start, end, severity, code, summary), side) in differences {
        let shown = file.strip_prefix(root).unwrap_or(file);
        text.push_str(&format!(
            "  {side}: {}@{start}..{end} {severity} {code} {summary}\n",
            shown.display()
        ));
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_publishes_what_check_reports_on_every_workspace() {
    let workspaces = workspaces();
    if std::env::var_os("PARITY_FILTER").is_none() {
        assert!(workspaces.len() > 100, "{} workspaces", workspaces.len());
    }
    let repository = repository();
    let mut failures = Vec::new();
    let mut n_diagnostics = 0;
    for root in &workspaces {
        let mut texts = BTreeMap::new();
        let check = check_side(root, &mut texts);
        let server = server_side(root, &mut texts).await;
        n_diagnostics += check.values().map(BTreeSet::len).sum::<usize>();
        let found = differences(&server, &check);
        if !found.is_empty() {
            let server_only = found.iter().filter(|d| d.2 == "server only").count();
            let shown = root.strip_prefix(&repository).unwrap_or(root);
            failures.push(format!(
                "{} ({server_only} server only, {} check only):\n{}",
                shown.display(),
                found.len() - server_only,
                describe(root, &found)
            ));
        }
    }
    eprintln!(
        "{} workspaces, {n_diagnostics} diagnostics from check",
        workspaces.len()
    );
    assert!(
        failures.is_empty(),
        "the server and check disagree on {} of {} workspaces:\n{}",
        failures.len(),
        workspaces.len(),
        failures.join("\n")
    );
}

/// The comparison finds a diagnostic one side lacks, on either side, and a
/// file only one side names.
#[test]
fn the_comparison_fails_when_one_side_is_broken() {
    let root = repository().join("tests/fixtures/module-tree/arguments");
    let mut texts = BTreeMap::new();
    let check = check_side(&root, &mut texts);
    assert!(differences(&check, &check).is_empty());
    let (file, list) = check.iter().next().expect("the fixture reports errors");
    let dropped = list.iter().next().unwrap().clone();
    let mut broken = check.clone();
    broken.get_mut(file).unwrap().remove(&dropped);
    assert_eq!(
        differences(&broken, &check),
        [(file.clone(), dropped.clone(), "check only")]
    );
    assert_eq!(
        differences(&check, &broken),
        [(file.clone(), dropped.clone(), "server only")]
    );
    let mut elsewhere = check.clone();
    elsewhere.insert(root.join("other.tf"), BTreeSet::from([dropped.clone()]));
    assert_eq!(
        differences(&elsewhere, &check),
        [(root.join("other.tf"), dropped, "server only")]
    );
}

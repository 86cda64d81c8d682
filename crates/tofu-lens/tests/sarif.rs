//! `check --format sarif` as code-scanning tools read it: every log validates
//! against the official SARIF 2.1.0 schema (`tests/data/sarif-schema-2.1.0.json`,
//! with `format` keywords checked too), and the parts a code-scanning UI shows
//! (rules, levels, paths, regions, related locations, fixes) carry what the
//! text format says.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `tofu-lens check --format sarif PATHS` in the repository root and
/// returns the log, after checking it against the schema.
fn sarif(paths: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(["check", "--format", "sarif"])
        .args(paths)
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{paths:?}: {output:?}"
    );
    let log: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&log, paths);
    log
}

fn assert_valid(log: &Value, what: &[&str]) {
    let schema_text =
        std::fs::read_to_string(repo().join("crates/tofu-lens/tests/data/sarif-schema-2.1.0.json"))
            .unwrap();
    let schema: Value = serde_json::from_str(&schema_text).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what:?}: {errors:#?}");
}

fn results(log: &Value) -> &Vec<Value> {
    log["runs"][0]["results"].as_array().unwrap()
}

/// The `file:line:col` of each result, the way the text format prints it.
fn positions(log: &Value) -> Vec<String> {
    results(log)
        .iter()
        .map(|result| {
            let location = &result["locations"][0]["physicalLocation"];
            format!(
                "{}:{}:{}",
                location["artifactLocation"]["uri"].as_str().unwrap(),
                location["region"]["startLine"],
                location["region"]["startColumn"]
            )
        })
        .collect()
}

#[test]
fn the_overrides_example_is_a_valid_log_with_its_rules() {
    let log = sarif(&["examples/overrides"]);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "tofu-lens");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rule_ids: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap())
        .collect();
    let mut used: Vec<&str> = results(&log)
        .iter()
        .map(|result| result["ruleId"].as_str().unwrap())
        .collect();
    used.sort_unstable();
    used.dedup();
    assert_eq!(rule_ids, used, "rules are exactly the codes used, sorted");
    for result in results(&log) {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rule_ids[index], result["ruleId"]);
    }

    // Same order and places as the text format.
    let text = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(["check", "examples/overrides"])
        .current_dir(repo())
        .output()
        .unwrap();
    let text_positions: Vec<String> = String::from_utf8(text.stdout)
        .unwrap()
        .lines()
        .filter(|line| line.starts_with("examples/"))
        .map(|line| line.split(": ").next().unwrap().to_owned())
        .collect();
    assert_eq!(positions(&log), text_positions);

    // The duplicate local points back at the first definition.
    let duplicate = results(&log)
        .iter()
        .find(|result| result["ruleId"] == "duplicate-local")
        .unwrap();
    assert_eq!(duplicate["level"], "error");
    assert!(duplicate["message"]["text"]
        .as_str()
        .unwrap()
        .starts_with("Duplicate local value definition\nA local value named"));
    let related = &duplicate["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "examples/overrides/main.tf"
    );
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 20);
    assert!(related["message"]["text"].is_string());

    // Hints are notes.
    let shadowed = results(&log)
        .iter()
        .find(|result| result["ruleId"] == "file-shadowed")
        .unwrap();
    assert_eq!(shadowed["level"], "note");
}

#[test]
fn fixes_become_artifact_changes() {
    let log = sarif(&["examples/overrides"]);
    let fixed = results(&log)
        .iter()
        .find(|result| result["ruleId"] == "override-depends-on")
        .unwrap();
    let fix = &fixed["fixes"][0];
    assert!(fix["description"]["text"].is_string());
    let change = &fix["artifactChanges"][0];
    assert!(change["artifactLocation"]["uri"]
        .as_str()
        .unwrap()
        .starts_with("examples/overrides/"));
    let replacement = &change["replacements"][0];
    assert!(replacement["deletedRegion"]["startLine"].as_u64().unwrap() >= 1);
    assert!(replacement["insertedContent"]["text"].is_string());
}

#[test]
fn every_fixture_gives_a_valid_log() {
    // Each area in one run (odd bytes, BOMs, CRLF, unreadable files, fixes that
    // create files), then a few cases on their own.
    let areas: Vec<String> = std::fs::read_dir(repo().join("tests/fixtures"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .map(|path| {
            path.strip_prefix(repo())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(areas.len() > 5, "{areas:?}");
    let area_refs: Vec<&str> = areas.iter().map(String::as_str).collect();
    let log = sarif(&area_refs);
    assert!(results(&log).len() > 50);
    for case in [
        "tests/fixtures/syntax/not-utf8",
        "tests/fixtures/syntax/bom",
        "tests/fixtures/syntax/crlf-is-fine",
        "tests/fixtures/duplicates",
        "tests/fixtures/types/quoted-type-constraint",
    ] {
        sarif(&[case]);
    }
}

#[test]
fn a_clean_module_is_a_valid_log_without_results() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "variable \"a\" {}\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(["check", "--format", "sarif", "main.tf"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&log, &["main.tf"]);
    assert_eq!(results(&log).len(), 0);
    assert_eq!(
        log["runs"][0]["tool"]["driver"]["rules"],
        Value::Array(vec![])
    );
}

#[test]
fn non_ascii_names_and_absolute_paths_are_uris() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("mód ule");
    std::fs::create_dir(&module).unwrap();
    std::fs::write(
        module.join("main.tf"),
        "variable \"ü\" {}\nvariable \"ü\" {}\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(["check", "--format", "sarif", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let log: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&log, &["."]);
    let uris: Vec<&str> = results(&log)
        .iter()
        .map(|result| {
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(uris.contains(&"m%C3%B3d%20ule/main.tf"), "{uris:?}");

    let absolute = module.to_string_lossy().into_owned();
    let output = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .args(["check", "--format", "sarif", &absolute])
        .output()
        .unwrap();
    let log: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&log, &[&absolute]);
    let uri = results(&log)[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/m%C3%B3d%20ule/main.tf"),
        "{uri}"
    );
}

#[test]
fn the_schema_check_rejects_a_broken_log() {
    // Guards the guard: a validator that accepted anything would pass every test above.
    let mut log = sarif(&["examples/overrides"]);
    log["runs"][0]["results"][0]["level"] = Value::from("fatal");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            repo().join("crates/tofu-lens/tests/data/sarif-schema-2.1.0.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    assert!(!validator.is_valid(&log));
    log["runs"][0]["results"][0]["level"] = Value::from("error");
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    assert!(!validator.is_valid(&log));
}

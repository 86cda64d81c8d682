//! Data-driven tests: every directory under `tests/fixtures/` that holds an
//! `expected.diagnostics` file is checked as `tofu-lens check` would check it,
//! and the short rendering (`file:line:col severity code summary`) must equal
//! that file. `UPDATE_EXPECT=1 cargo test` rewrites the expectations; review the
//! diff before committing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use std::fs;
use std::path::{Path, PathBuf};

use tofu_lens::{check, render};
use tofu_module::Config;
use tofu_vfs::schemas::SchemaOptions;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Every case directory (one holding an expectation file), sorted. With
/// `FIXTURE_FILTER=text`, only cases whose path contains `text`.
fn case_dirs(expectation: &str) -> Vec<PathBuf> {
    let filter = std::env::var("FIXTURE_FILTER").unwrap_or_default();
    let mut cases = Vec::new();
    let mut pending = vec![fixtures_root()];
    while let Some(dir) = pending.pop() {
        if dir.join(expectation).is_file() {
            cases.push(dir.clone());
            continue;
        }
        for entry in fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            }
        }
    }
    cases.retain(|case| case.to_string_lossy().contains(filter.as_str()));
    cases.sort();
    cases
}

/// Compares `actual` with the expectation file, or rewrites it under
/// `UPDATE_EXPECT=1`. Returns a failure message on mismatch.
fn expect_file(path: &Path, actual: &str) -> Option<String> {
    let expected = fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        fs::write(path, actual).unwrap();
        return None;
    }
    Some(format!(
        "{}\n--- expected\n{expected}--- actual\n{actual}",
        path.display()
    ))
}

/// Runs every case that has `expectation` beside its files: `render` gives the
/// actual output for a case directory, which must equal the expectation file.
fn run_fixtures(expectation: &str, min_cases: usize, render: impl Fn(&Path) -> String) {
    let cases = case_dirs(expectation);
    if std::env::var_os("FIXTURE_FILTER").is_none() {
        assert!(
            cases.len() >= min_cases,
            "{expectation} fixtures not found under {}",
            fixtures_root().display()
        );
    }
    let mut failures = Vec::new();
    for case in &cases {
        failures.extend(expect_file(&case.join(expectation), &render(case)));
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures differ (UPDATE_EXPECT=1 rewrites them):\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Fixture directories with an `expected.show.hcl` beside their files: the
/// effective configuration as `tofu-lens show DIR` prints it.
#[test]
fn effective_configuration_fixtures() {
    run_fixtures("expected.show.hcl", 10, |case| {
        let analysis = tofu_lens::show::load(case, &Config::default()).unwrap();
        let Ok(text) = tofu_lens::show::text(&analysis, None) else {
            panic!("show failed on {}", case.display())
        };
        text
    });
}

/// Fixture directories with an `expected.diagnostics` beside their files:
/// `tofu-lens check DIR` in the one-line form.
#[test]
fn diagnostics_fixtures() {
    run_fixtures("expected.diagnostics", 20, |case| {
        let mut config = check::check_config(None, false);
        config.values = given_values(case);
        let report = check::check_paths_with_schemas(
            &[case.to_path_buf()],
            &config,
            None,
            &fixture_schemas(case),
        )
        .unwrap();
        render::short(&report, case)
    });
}

/// The values a case's `plan.args` names, one a line, as `check` takes
/// them: `--var-file FILE` (relative to the case), `--var NAME=VALUE`, and
/// `TF_VAR_NAME=VALUE` for the environment (never the test's own).
fn given_values(case: &Path) -> tofu_module::GivenValues {
    let mut values = tofu_module::GivenValues::default();
    let Ok(text) = fs::read_to_string(case.join("plan.args")) else {
        return values;
    };
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        if let Some(file) = line.strip_prefix("--var-file ") {
            let path = case.join(file.trim());
            values.given.push(tofu_module::GivenValue::File(
                path.to_string_lossy().into_owned(),
            ));
        } else if let Some(var) = line.strip_prefix("--var ") {
            let (name, value) = var.split_once('=').unwrap();
            values.given.push(tofu_module::GivenValue::Var {
                name: name.to_owned(),
                value: value.to_owned(),
            });
        } else if let Some(var) = line.strip_prefix("TF_VAR_") {
            let (name, value) = var.split_once('=').unwrap();
            values.environment.push((name.to_owned(), value.to_owned()));
        } else {
            panic!("{}: cannot read {line:?}", case.display());
        }
    }
    values
}

/// A case's provider schemas: the `tofu providers schema -json` output in
/// its `schemas.json`, or in the file its `schemas.path` names (relative to
/// the case, for a schema many cases share); none without either. With a
/// `schemas.installed` file, the packages its `.terraform` holds are read
/// too, for `linux_amd64` whatever the host (their hashes against the lock
/// file), with no cache, mirror or plugin cache. No provider is ever run.
fn fixture_schemas(case: &Path) -> SchemaOptions {
    let environment = case.join("schemas.installed").is_file().then(|| {
        tofu_schema::ProviderEnvironment::bare(tofu_schema::install::Platform {
            os: "linux".to_owned(),
            arch: "amd64".to_owned(),
        })
    });
    let mut files = Vec::new();
    if case.join("schemas.json").is_file() {
        files.push(case.join("schemas.json"));
    }
    if let Ok(shared) = fs::read_to_string(case.join("schemas.path")) {
        files.push(case.join(shared.trim()));
    }
    SchemaOptions {
        files,
        environment,
        ..SchemaOptions::none()
    }
}

/// The modules in `examples/` (what the README runs) have their expected
/// diagnostics in `tests/examples/<name>.diagnostics`.
#[test]
fn examples_match_their_expectations() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let expectations = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/examples");
    let mut failures = Vec::new();
    let mut n_examples = 0;
    for entry in fs::read_dir(&examples).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        n_examples += 1;
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let report = check::check_paths(
            std::slice::from_ref(&dir),
            &check::check_config(None, false),
            None,
        )
        .unwrap();
        let actual = render::short(&report, &dir);
        failures.extend(expect_file(
            &expectations.join(format!("{name}.diagnostics")),
            &actual,
        ));
    }
    assert!(n_examples > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `check examples/simple`, whose `main.tf` calls `source = "../../"`,
/// reports the errors of the module it calls, in that module's files, as
/// `tofu validate` run in `examples/simple` does; `check` of the whole
/// tree, which walks both, reports them once.
#[test]
fn a_module_called_from_outside_the_checked_directory_is_reported_once() {
    let case =
        tofu_module::calls::normalize_path(&fixtures_root().join("module-tree/called-from-below"));
    let config = check::check_config(None, false);
    let lines = |path: &Path| -> Vec<String> {
        let report = check::check_paths(&[path.to_path_buf()], &config, None).unwrap();
        render::short(&report, &case)
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let from_example = lines(&case.join("examples/simple"));
    let whole = lines(&case);
    assert_eq!(
        whole,
        [
            "main.tf:6:20 error undeclared-reference Reference to undeclared input variable",
            "  fix: Replace with var.name",
        ],
    );
    assert_eq!(from_example, whole);
    let from_both = {
        let report =
            check::check_paths(&[case.join("examples/simple"), case.clone()], &config, None)
                .unwrap();
        render::short(&report, &case)
    };
    assert_eq!(from_both.lines().collect::<Vec<_>>(), whole);
    // As typed on the command line: a relative path whose call climbs
    // above it (`../../` from `…/examples/simple`).
    let relative = Path::new("../../tests/fixtures/module-tree/called-from-below");
    let report = check::check_paths(&[relative.join("examples/simple")], &config, None).unwrap();
    assert_eq!(
        render::short(&report, relative).lines().collect::<Vec<_>>(),
        whole
    );
}

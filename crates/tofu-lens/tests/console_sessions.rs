//! Data-driven console sessions: each directory of
//! `tests/fixtures/console-sessions/` holds `input` (what is piped into the
//! console), perhaps a module's files, and what `tofu console -no-color`
//! (OpenTofu 1.12.6) printed for it in a copy of the directory:
//! `expected.stdout`, `expected.stderr` and `expected.code` (its exit
//! code). `tofu-lens console` must print the same. With `UPDATE_EXPECT=1`
//! and `TOFU_LENS_ORACLE_DIR` holding `bin/tofu`, the expectations are
//! rewritten from the real console; without the oracle the test compares
//! with what is recorded.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tofu_lens::console::{run, Mode};

fn sessions_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/console-sessions")
}

fn case_dirs() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(sessions_root())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("input").is_file())
        .collect();
    cases.sort();
    cases
}

/// Whether a file of the case is one the console reads as configuration
/// (rather than the case's input and expectations).
fn is_module_file(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    !(name == "input" || name.starts_with("expected."))
}

/// What the real console prints in a copy of the case's module.
fn oracle_session(tofu: &Path, case: &Path) -> (String, String, i32) {
    use std::io::Write as _;
    let copy = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(case).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() && is_module_file(&path) {
            fs::copy(&path, copy.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    let mut child = Command::new(tofu)
        .args(["console", "-no-color"])
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .current_dir(copy.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&fs::read(case.join("input")).unwrap())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

fn ours(case: &Path) -> (String, String, i32) {
    let input = fs::read(case.join("input")).unwrap();
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    let ok = run(
        Mode::Piped,
        Some(case),
        None,
        &mut input.as_slice(),
        &mut out,
        &mut errors,
    )
    .unwrap();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(errors).unwrap(),
        if ok { 0 } else { 1 },
    )
}

#[test]
fn console_sessions_print_what_tofu_console_prints() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let oracle =
        std::env::var_os("TOFU_LENS_ORACLE_DIR").map(|dir| PathBuf::from(dir).join("bin/tofu"));
    let cases = case_dirs();
    assert!(cases.len() >= 10, "only {} sessions", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        if let (true, Some(tofu)) = (update, &oracle) {
            let (stdout, stderr, code) = oracle_session(tofu, case);
            fs::write(case.join("expected.stdout"), stdout).unwrap();
            fs::write(case.join("expected.stderr"), stderr).unwrap();
            fs::write(case.join("expected.code"), format!("{code}\n")).unwrap();
        }
        let expected = (
            fs::read_to_string(case.join("expected.stdout")).unwrap(),
            fs::read_to_string(case.join("expected.stderr")).unwrap(),
            fs::read_to_string(case.join("expected.code"))
                .unwrap()
                .trim()
                .parse::<i32>()
                .unwrap(),
        );
        let actual = ours(case);
        if actual != expected {
            failures.push(format!(
                "{}\n--- expected (stdout, stderr, code)\n{}{}{}\n--- actual\n{}{}{}",
                case.file_name().unwrap().to_string_lossy(),
                expected.0,
                expected.1,
                expected.2,
                actual.0,
                actual.1,
                actual.2
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

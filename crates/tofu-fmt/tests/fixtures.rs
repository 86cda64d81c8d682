//! The formatter on the fixture cases of `tests/fmt/<case>/`: `input.tf`
//! formats to `expected.tf` (written by OpenTofu's `tofu fmt`), or, where
//! `tofu fmt` refuses the input, a `refused` file says so and the formatter
//! must refuse it too. For each case the minimal edits must give the same
//! text, and formatting the expected text must change nothing (unless a
//! `not-idempotent` file says why `tofu fmt` itself changes it again).
//!
//! `UPDATE_EXPECT=1` rewrites the expectations: from `tofu fmt` when
//! `TOFU_LENS_ORACLE_DIR` names a directory holding it, else from tofu-fmt
//! (read the diff before committing it). With the oracle present, the test
//! also checks that every expectation is still what `tofu fmt` writes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fmt");
    let mut cases: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("input.tf").is_file())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 15,
        "expected the fmt fixture cases in {root:?}"
    );
    cases
}

/// `tofu fmt -` on `input`: `Some(Ok(text))`, `Some(Err(()))` when it
/// refuses the input, `None` without the oracle.
fn oracle(input: &str) -> Option<Result<String, ()>> {
    let dir = std::env::var_os("TOFU_LENS_ORACLE_DIR")?;
    let binary = Path::new(&dir).join("tofu");
    if !binary.is_file() {
        return None;
    }
    let mut child = Command::new(binary)
        .args(["fmt", "-no-color", "-"])
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().ok()?;
    Some(if output.status.success() {
        Ok(String::from_utf8(output.stdout).unwrap())
    } else {
        Err(())
    })
}

fn apply(text: &str, edits: &[tofu_fmt::Edit]) -> String {
    let mut out = text.to_owned();
    for edit in edits.iter().rev() {
        out.replace_range(
            edit.range.start as usize..edit.range.end as usize,
            &edit.new_text,
        );
    }
    out
}

#[test]
fn fixtures_format_as_tofu_fmt_does() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut problems = Vec::new();
    for case in cases() {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let input = fs::read_to_string(case.join("input.tf")).unwrap();
        let ours = tofu_fmt::format(&input).map_err(|_| ());
        let expected_path = case.join("expected.tf");
        let refused_path = case.join("refused");
        if update {
            let expected = oracle(&input).unwrap_or_else(|| ours.clone());
            match expected {
                Ok(text) => {
                    fs::write(&expected_path, text).unwrap();
                    let _ = fs::remove_file(&refused_path);
                }
                Err(()) => {
                    fs::write(
                        &refused_path,
                        "tofu fmt refuses this input: it has syntax errors\n",
                    )
                    .unwrap();
                    let _ = fs::remove_file(&expected_path);
                }
            }
        }
        let expected = if refused_path.is_file() {
            Err(())
        } else {
            Ok(fs::read_to_string(&expected_path)
                .unwrap_or_else(|_| panic!("{name}: no expected.tf and no refused file")))
        };
        if let Some(oracle_says) = oracle(&input) {
            if oracle_says != expected {
                problems.push(format!(
                    "{name}: the expectation is not what tofu fmt writes"
                ));
            }
        }
        if ours != expected {
            problems.push(format!(
                "{name}: formatted differently\n--- expected\n{expected:?}\n--- tofu-fmt\n{ours:?}"
            ));
            continue;
        }
        let Ok(expected) = expected else {
            assert!(tofu_fmt::format_edits(&input).is_err(), "{name}");
            continue;
        };
        let edits = tofu_fmt::format_edits(&input).unwrap();
        if apply(&input, &edits) != expected {
            problems.push(format!("{name}: the edits give another text"));
        }
        if case.join("not-idempotent").is_file() {
            continue;
        }
        if tofu_fmt::format(&expected).as_deref() != Ok(expected.as_str()) {
            problems.push(format!("{name}: formatting the expected text changes it"));
        }
        if !tofu_fmt::format_edits(&expected).unwrap().is_empty() {
            problems.push(format!("{name}: a formatted text still gets edits"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

//! `.tofu-lens.toml` as `tofu-lens check` reads it: the nearest file above a
//! module directory applies, `--tofu-version` wins over its `tofuVersion`, and
//! what is wrong in the file is said on stderr without stopping the check.
//! (What the file changes in the diagnostics is a fixture:
//! `tests/fixtures/config/project-file`.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn check(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
        .arg("check")
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn module(root: &Path) -> std::path::PathBuf {
    let dir = root.join("stacks/net");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("versions.tf"),
        "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n",
    )
    .unwrap();
    dir
}

#[test]
fn the_file_above_applies_and_the_flag_wins() {
    let root = tempfile::tempdir().unwrap();
    let dir = module(root.path());
    fs::write(
        root.path().join(".tofu-lens.toml"),
        "tofuVersion = \"1.11.0\"\n",
    )
    .unwrap();

    let from_file = check(&["stacks/net"], root.path());
    let text = String::from_utf8_lossy(&from_file.stdout);
    assert_eq!(from_file.status.code(), Some(1), "{text}");
    assert!(text.contains("incompatible-tofu-version"), "{text}");

    let flag = check(&["--tofu-version", "1.12.6", "stacks/net"], root.path());
    assert_eq!(
        flag.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&flag.stdout)
    );

    // A nearer file wins over the one at the root.
    fs::write(dir.join(".tofu-lens.toml"), "tofuVersion = \"1.12.0\"\n").unwrap();
    assert_eq!(check(&["stacks/net"], root.path()).status.code(), Some(0));
}

#[test]
fn problems_in_the_file_are_reported_and_the_rest_applies() {
    let root = tempfile::tempdir().unwrap();
    module(root.path());
    fs::write(
        root.path().join(".tofu-lens.toml"),
        "tofuVersion = \"1.11.0\"\ncolour = true\n[diagnostics.severity]\nincompatible-tofu-version = \"warning\"\nnot-a-code = \"off\"\n",
    )
    .unwrap();
    let output = check(&["."], root.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown key \"colour\""), "{stderr}");
    assert!(
        stderr.contains("\"not-a-code\" is not a tofu-lens diagnostic code"),
        "{stderr}"
    );
    // The severity override still applies: the incompatibility is a warning now.
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("warning[incompatible-tofu-version]"));

    fs::write(root.path().join(".tofu-lens.toml"), "tofuVersion = [").unwrap();
    let broken = check(&["."], root.path());
    let stderr = String::from_utf8_lossy(&broken.stderr);
    assert!(stderr.contains("not valid TOML"), "{stderr}");
    assert_eq!(broken.status.code(), Some(0), "{stderr}");
}

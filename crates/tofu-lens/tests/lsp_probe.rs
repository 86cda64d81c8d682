//! The server as users' editors see it: `../shared/tools/lsp_probe.py` starts
//! the built `tofu-lens serve`, opens every file of `examples/overrides`,
//! and prints the diagnostics it was sent. They must be the ones
//! `tofu-lens check` reports: same files, lines and codes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::Path;
use std::process::Command;

#[test]
fn lsp_probe_sees_what_check_reports() {
    let binary = env!("CARGO_BIN_EXE_tofu-lens");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let probe = repo.join("../shared/tools/lsp_probe.py");
    let example = repo.join("examples/overrides");
    let output = Command::new("python3")
        .arg(&probe)
        .arg("diagnose")
        .arg(&example)
        .arg("--server")
        .arg(format!("{binary} serve"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // `file:line:col: severity[code] summary`
    let mut seen: Vec<(String, u64, String)> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let mut parts = line.splitn(4, ':');
            let file = parts.next().unwrap().to_owned();
            let line_number = parts.next().unwrap().parse().unwrap();
            let rest = parts.nth(1).unwrap();
            let code = rest
                .split('[')
                .nth(1)
                .unwrap()
                .split(']')
                .next()
                .unwrap()
                .to_owned();
            (file, line_number, code)
        })
        .collect();
    seen.sort();

    let check = Command::new(binary)
        .args(["check", "--unused", "--format", "json", "."])
        .current_dir(&example)
        .output()
        .unwrap();
    let reported: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let mut expected: Vec<(String, u64, String)> = reported
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("./")
                    .to_owned(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    expected.sort();
    assert!(!expected.is_empty());
    assert_eq!(seen, expected);
}

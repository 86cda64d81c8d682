//! The real modules of `../shared/corpus` (written by others): no syntax error,
//! no panic, and errors exactly where OpenTofu reports them. The expected errors
//! are listed in `tests/corpus/expected-errors.txt`, each one a genuine mistake
//! in that code (see the closing notes for the rule behind each); `UPDATE_EXPECT=1`
//! rewrites the list, and every change to it must be justified.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use tofu_lens::{check, render};
use tofu_module::Config;

const REAL_MODULES: [&str; 4] = [
    "terraform-aws-components",
    "terraform-aws-vpc",
    "terraform-azurerm-app-gateway",
    "terraform-aws-secrets-manager",
];

fn corpus() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    assert!(
        path.is_dir(),
        "the shared corpus must sit beside the repository: {} not found",
        path.display()
    );
    path
}

#[test]
fn real_modules_have_errors_only_where_opentofu_reports_them() {
    let corpus = corpus();
    let paths: Vec<PathBuf> = REAL_MODULES.iter().map(|name| corpus.join(name)).collect();
    let report = check::check_paths(&paths, &Config::default(), None).unwrap();
    assert!(
        report.modules.len() > 250,
        "only {} module dirs found",
        report.modules.len()
    );
    let short = render::short(&report, &corpus);
    assert!(
        !short.contains(" syntax-error "),
        "real modules must parse:\n{short}"
    );
    let errors: String = short
        .lines()
        .filter(|line| line.contains(" error "))
        .map(|line| format!("{line}\n"))
        .collect();
    let expected_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/expected-errors.txt");
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected != errors && std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &errors).unwrap();
        return;
    }
    assert_eq!(
        expected, errors,
        "errors on real modules changed (UPDATE_EXPECT=1 rewrites)"
    );
}

#[test]
fn every_corpus_directory_loads_without_panicking() {
    // OpenTofu's own fixtures too: deliberately broken input must not crash us.
    let report = check::check_paths(&[corpus()], &Config::default(), None).unwrap();
    let n_files: usize = report.modules.iter().map(|m| m.analysis.files.len()).sum();
    assert!(n_files > 2000, "only {n_files} files loaded");
    let text = render::text(&report);
    // 21 test files, of which `tofu validate` reads 13: the others sit in
    // `test/` or `very/nested/`, read only with `-test-directory`.
    assert!(
        text.contains("module directories and 13 test files."),
        "{}",
        text.lines().last().unwrap_or_default()
    );
}

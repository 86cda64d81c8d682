//! Test files through whole analyses, where the short rendering of the
//! fixtures leaves the detail out: HCL's "Did you mean" in a run, in both
//! syntaxes, and a top-level `variables` block taking any name. Each
//! expectation is what OpenTofu 1.12.6's `tofu validate -json` printed for
//! the same files.

#![allow(clippy::unwrap_used)]

use crate::{analyze, AnalysisCache};
use tofu_module::{Config, InputFile};

/// `(file:line, summary | detail)` of every error, in order.
fn errors(files: &[(&str, &str)]) -> Vec<(String, String)> {
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    let module = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
    module
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let file = module.file(d.subject.file).unwrap();
            let start = d.subject.range.unwrap().start;
            let line = file.line_index.line_col(&file.text, start).line;
            (
                format!("{}:{line}", file.name),
                format!("{} | {}", d.summary, d.detail),
            )
        })
        .collect()
}

#[test]
fn did_you_mean_names_only_arguments_not_set_yet() {
    let native = "variables {\n  name = \"v\"\n}\n\nrun \"a\" {\n  comand = plan\n}\n\nrun \"b\" {\n  command = plan\n  comand  = plan\n}\n";
    let json = "{\"run\": {\"c\": {\"comand\": \"plan\"}, \"d\": {\"command\": \"plan\", \"comand\": \"plan\"}}}\n";
    let found = errors(&[
        ("main.tf", "variable \"name\" {}\n"),
        ("main.tftest.hcl", native),
        ("j.tftest.json", json),
    ]);
    let hint = |detail: &str| detail.to_owned();
    assert_eq!(
        found,
        [
            ("j.tftest.json:1".to_owned(), hint("Extraneous JSON object property | No argument or block type is named \"comand\". Did you mean \"command\"?")),
            ("j.tftest.json:1".to_owned(), hint("Extraneous JSON object property | No argument or block type is named \"comand\".")),
            ("main.tftest.hcl:6".to_owned(), hint("Unsupported argument | An argument named \"comand\" is not expected here. Did you mean \"command\"?")),
            ("main.tftest.hcl:11".to_owned(), hint("Unsupported argument | An argument named \"comand\" is not expected here.")),
        ]
    );
}

//! Test files through whole analyses, where the short rendering of the
//! fixtures leaves the detail out: HCL's "Did you mean" in a run, in both
//! syntaxes, and a top-level `variables` block taking any name. Each
//! expectation is what OpenTofu 1.12.6's `tofu validate -json` printed for
//! the same files. Also the provider types of a run's `module` as the
//! module tree gives them, after edits and with another tree.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::sync::Arc;

use crate::{analyze, analyze_in_tree, AnalysisCache, ModuleAnalysis};
use tofu_module::calls::{called_modules, resolve_test_runs, CalledDir, CalledModules};
use tofu_module::{Config, InputFile, ProviderSchemas};

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

const ROOT_TF: &str = "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n    }\n  }\n}\n";

/// A test file whose providers take their types from `./setup` first.
const SETUP_TEST: &str = "provider \"foo\" {}\n\nrun \"setup\" {\n  module {\n    source = \"./setup\"\n  }\n}\n\nrun \"main\" {}\n";

/// `./setup` with `foo` standing for `hashicorp/FOO_IS`.
fn setup(foo_is: &str) -> String {
    format!("terraform {{\n  required_providers {{\n    foo = {{\n      source = \"hashicorp/{foo_is}\"\n    }}\n  }}\n}}\n")
}

/// The tree `/w/root`'s test runs give it, with `./setup` analysed from
/// `setup_tf` (`None`: a directory that cannot be read), as `check` builds
/// it.
fn tree(root: &ModuleAnalysis, setup_tf: Option<&str>) -> CalledModules {
    let runs = resolve_test_runs(Path::new("/w/root"), &root.test_run_modules());
    let lookup = |dir: &Path| -> Option<CalledDir> {
        if dir != Path::new("/w/root/setup") {
            return None;
        }
        let Some(text) = setup_tf else {
            return Some(CalledDir::unreadable());
        };
        let inputs = [InputFile::text("main.tf", text)];
        let analysis = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
        Some(CalledDir {
            interface: Some(Arc::new(analysis.interface())),
            ..CalledDir::default()
        })
    };
    called_modules(Path::new("/w/root"), &runs, &lookup)
}

/// `(file:line, summary | detail)` of the errors of `files` in `tree`,
/// through `cache`.
fn errors_in(
    files: &[(&str, &str)],
    tree: &CalledModules,
    cache: &mut AnalysisCache,
) -> Vec<(String, String)> {
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    let analysis = analyze_in_tree(
        &inputs,
        &Config::default(),
        tree,
        &ProviderSchemas::default(),
        cache,
    );
    analysis
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let file = analysis.file(d.subject.file).unwrap();
            let start = d.subject.range.unwrap().start;
            let line = file.line_index.line_col(&file.text, start).line;
            (format!("{}:{line}", file.name), d.summary.clone())
        })
        .collect()
}

#[test]
fn a_runs_module_gives_the_types_only_when_the_tree_has_it() {
    let files = [("main.tf", ROOT_TF), ("main.tftest.hcl", SETUP_TEST)];
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    let root = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
    assert_eq!(
        root.test_run_modules(),
        [("setup".to_owned(), "./setup".to_owned())]
    );
    let mismatch = vec![(
        "main.tftest.hcl:1".to_owned(),
        "Provider type mismatch".to_owned(),
    )];
    let bar = tree(&root, Some(&setup("bar")));
    assert_eq!(errors_in(&files, &bar, &mut AnalysisCache::new()), mismatch);
    let foo = tree(&root, Some(&setup("foo")));
    assert!(errors_in(&files, &foo, &mut AnalysisCache::new()).is_empty());
    // Without the module (not analysed, or a directory that cannot be
    // read), the file is not judged.
    for no_module in [CalledModules::default(), tree(&root, None)] {
        assert!(errors_in(&files, &no_module, &mut AnalysisCache::new()).is_empty());
    }
    // A module that does not load gives no types either (OpenTofu stops
    // before it resolves any).
    let broken = format!("{}resource \"x\" {{}}\n", setup("bar"));
    let broken = tree(&root, Some(&broken));
    assert!(!broken.test_modules.is_empty());
    assert!(broken.test_modules.values().all(|module| module.incomplete));
    assert!(errors_in(&files, &broken, &mut AnalysisCache::new()).is_empty());
}

#[test]
fn the_rule_runs_again_when_the_runs_module_or_its_source_changes() {
    let files = [("main.tf", ROOT_TF), ("main.tftest.hcl", SETUP_TEST)];
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    let root = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
    let bar = tree(&root, Some(&setup("bar")));
    let foo = tree(&root, Some(&setup("foo")));
    let mut cache = AnalysisCache::new();
    let mismatch = errors_in(&files, &bar, &mut cache);
    assert_eq!(mismatch.len(), 1);
    // The called module's files changed: a new tree, the same files.
    assert!(errors_in(&files, &foo, &mut cache).is_empty());
    assert_eq!(errors_in(&files, &bar, &mut cache), mismatch);
    // An edit of the test file that keeps every shape: another source,
    // which the tree does not give (not judged), then back.
    let other = SETUP_TEST.replace("./setup", "./other");
    let edited = [("main.tf", ROOT_TF), ("main.tftest.hcl", other.as_str())];
    let keeping_shapes = cache.counters().n_edits_keeping_shapes;
    assert!(errors_in(&edited, &bar, &mut cache).is_empty());
    assert_eq!(errors_in(&files, &bar, &mut cache), mismatch);
    assert_eq!(cache.counters().n_edits_keeping_shapes, keeping_shapes + 2);
}

//! `evaluation` through the whole analysis: values flow from local values
//! in other files, and an edit at the head of a chain judges again the
//! nodes that read it, and only those.

use crate::{analyze, AnalysisCache, ModuleAnalysis};
use tofu_module::{Config, InputFile};

/// `(file, line, summary)` of each evaluation finding.
fn evaluation_errors(analysis: &ModuleAnalysis) -> Vec<(String, usize, String)> {
    analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| {
            diagnostic.code == crate::codes::INVALID_EXPRESSION_VALUE
                || diagnostic.code == crate::codes::INVALID_FUNCTION_CALL
        })
        .filter_map(|diagnostic| {
            let file = analysis.file(diagnostic.subject.file)?;
            let range = diagnostic.subject.range?;
            let line = file.text.get(..range.start as usize)?.matches('\n').count() + 1;
            Some((file.name.clone(), line, diagnostic.summary.clone()))
        })
        .collect()
}

/// A chain of ten local values over two files, read by an output in a
/// third: the head's value decides whether the index at the end is valid,
/// whichever road the analysis takes.
#[test]
fn a_value_flows_down_a_chain_of_local_values_across_files() {
    let head = |value: &str| InputFile::text("head.tf", format!("locals {{\n  l0 = {value}\n}}\n"));
    let chain: String = (1..10)
        .map(|i| format!("  l{i} = local.l{}\n", i - 1))
        .collect();
    let mut files = vec![
        head("[1, 2, 3]"),
        InputFile::text("chain.tf", format!("locals {{\n{chain}}}\n")),
        InputFile::text(
            "outputs.tf",
            "output \"third\" {\n  value = local.l9[2]\n}\noutput \"other\" {\n  value = 1\n}\n",
        ),
    ];
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    assert_eq!(evaluation_errors(&analyze(&files, &config, &mut cache)), []);

    files[0] = head("[1, 2]");
    let before = cache.counters().n_node_rules_run;
    let again = analyze(&files, &config, &mut cache);
    assert_eq!(
        evaluation_errors(&again),
        [("outputs.tf".to_owned(), 2, "Invalid index".to_owned())]
    );
    // `evaluation` on the ten local values and `third`, `sensitive-outputs`
    // on `third`: not `other`, which reads nothing of the chain.
    assert_eq!(cache.counters().n_node_rules_run - before, 12);
    let whole = analyze(&files, &config, &mut AnalysisCache::new());
    assert_eq!(again.diagnostics, whole.diagnostics);

    files[0] = head("{ a = 1 }");
    let again = analyze(&files, &config, &mut cache);
    assert_eq!(
        evaluation_errors(&again),
        [("outputs.tf".to_owned(), 2, "Invalid index".to_owned())],
        "an object has no key 2 either"
    );
    files[0] = head("null");
    let again = analyze(&files, &config, &mut cache);
    assert_eq!(
        evaluation_errors(&again),
        [(
            "outputs.tf".to_owned(),
            2,
            "Attempt to index null value".to_owned()
        )]
    );
    let whole = analyze(&files, &config, &mut AnalysisCache::new());
    assert_eq!(again.diagnostics, whole.diagnostics);
}

/// A local value that fails is reported where it fails; what reads it is
/// silenced (OpenTofu never evaluates it), and it is unknown to its readers.
#[test]
fn a_failing_local_value_is_reported_once() {
    let main = "locals {\n  bad  = [1][3]\n  uses = local.bad[0]\n}\noutput \"o\" {\n  value = local.bad.x\n}\n";
    let analysis = analyze(
        &[InputFile::text("main.tf", main)],
        &Config::default(),
        &mut AnalysisCache::new(),
    );
    assert_eq!(
        evaluation_errors(&analysis),
        [("main.tf".to_owned(), 2, "Invalid index".to_owned())]
    );
}

//! `sensitive-output` through the whole analysis: where the marks come
//! from, the fix, and that an edit of what an output reads in another file
//! judges that output again (and only it).

use crate::{analyze, AnalysisCache, ModuleAnalysis};
use tofu_module::{Config, InputFile};

/// `main.tf` alone, analysed whole.
fn analyze_main(main: &str) -> ModuleAnalysis {
    analyze(
        &[InputFile::text("main.tf", main)],
        &Config::default(),
        &mut AnalysisCache::new(),
    )
}

fn sensitive_outputs(analysis: &ModuleAnalysis) -> Vec<String> {
    analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.code == crate::codes::SENSITIVE_OUTPUT)
        .filter_map(|diagnostic| {
            let range = diagnostic.subject.range?;
            let file = analysis.file(diagnostic.subject.file)?;
            Some(range.slice(&file.text).to_owned())
        })
        .collect()
}

/// As OpenTofu 1.12.6 reports them: a conditional carries the marks of
/// both its results even when its condition is known; `keys` drops the
/// marks of values, `try` of an unknown value gives an unmarked one.
#[test]
fn marks_come_from_variables_and_sensitive_calls_through_locals() {
    let main = "variable \"p\" {\n  type      = string\n  sensitive = true\n}\nlocals {\n  l = \"${var.p}-x\"\n  s = sensitive(\"a\")\n  n = nonsensitive(var.p)\n  k = false\n}\noutput \"through_local\" {\n  value = local.l\n}\noutput \"fn\" {\n  value = local.s\n}\noutput \"ok_nonsensitive\" {\n  value = local.n\n}\noutput \"ok_marked\" {\n  value     = var.p\n  sensitive = true\n}\noutput \"branch_not_taken\" {\n  value = local.k ? var.p : \"x\"\n}\noutput \"ok_keys\" {\n  value = keys({ a = var.p })\n}\noutput \"ok_try\" {\n  value = try(var.p, \"\")\n}\n";
    let analysis = analyze_main(main);
    assert_eq!(
        sensitive_outputs(&analysis),
        [
            "output \"through_local\"",
            "output \"fn\"",
            "output \"branch_not_taken\""
        ]
    );
}

/// The fix adds `sensitive = true` under `value`, indented as it is.
#[test]
fn the_fix_adds_sensitive_under_value() {
    let main = "variable \"p\" {\n  sensitive = true\n}\noutput \"o\" {\n  value = var.p # the secret\n}\noutput \"f\" {\n  value     = var.p\n  sensitive = false\n}\noutput \"one_line\" { value = var.p }\n";
    let analysis = analyze_main(main);
    let fixed: Vec<Option<String>> = analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.code == crate::codes::SENSITIVE_OUTPUT)
        .map(|diagnostic| {
            let fix = diagnostic.fix.as_ref()?;
            let mut text = main.to_owned();
            for edit in fix.edits.iter().rev() {
                text.replace_range(
                    edit.range.start as usize..edit.range.end as usize,
                    &edit.new_text,
                );
            }
            Some(format!("{}\n{text}", fix.title))
        })
        .collect();
    assert_eq!(fixed.len(), 3);
    assert_eq!(
        fixed[0].as_deref(),
        Some("Mark output \"o\" as sensitive\nvariable \"p\" {\n  sensitive = true\n}\noutput \"o\" {\n  value = var.p # the secret\n  sensitive = true\n}\noutput \"f\" {\n  value     = var.p\n  sensitive = false\n}\noutput \"one_line\" { value = var.p }\n")
    );
    assert_eq!(
        fixed[1].as_deref(),
        Some("Mark output \"f\" as sensitive\nvariable \"p\" {\n  sensitive = true\n}\noutput \"o\" {\n  value = var.p # the secret\n}\noutput \"f\" {\n  value     = var.p\n  sensitive = true\n}\noutput \"one_line\" { value = var.p }\n")
    );
    assert_eq!(fixed[2], None, "a one-line block gets no fix");
}

/// An edit of a variable's `sensitive` or of a local value in another file
/// judges again the outputs that read it, and only those: the rule's reads
/// are recorded per output.
#[test]
fn an_edit_in_another_file_judges_again_the_outputs_that_read_it() {
    let variables = |sensitive: &str| {
        format!("variable \"p\" {{\n  sensitive = {sensitive}\n}}\nvariable \"q\" {{\n  default = 1\n}}\n")
    };
    let locals = |value: &str| format!("locals {{\n  l = {value}\n}}\n");
    let outputs = "output \"direct\" {\n  value = var.p\n}\noutput \"through_local\" {\n  value = local.l\n}\noutput \"other\" {\n  value = var.q\n}\n";
    let mut files = vec![
        InputFile::text("variables.tf", variables("false")),
        InputFile::text("locals.tf", locals("\"x\"")),
        InputFile::text("outputs.tf", outputs),
    ];
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let first = analyze(&files, &config, &mut cache);
    assert!(sensitive_outputs(&first).is_empty());
    let judged_again = |files: &[InputFile], cache: &mut AnalysisCache| {
        let before = cache.counters().n_node_rules_run;
        let again = analyze(files, &config, cache);
        let whole = analyze(files, &config, &mut AnalysisCache::new());
        assert_eq!(again.diagnostics, whole.diagnostics);
        (
            sensitive_outputs(&again),
            cache.counters().n_node_rules_run - before,
        )
    };

    files[0] = InputFile::text("variables.tf", variables("true"));
    assert_eq!(
        judged_again(&files, &mut cache),
        (vec!["output \"direct\"".to_owned()], 6),
        "the variables' file touches `direct` and `other`, which read them \
         (this rule and `evaluation` on each), and the variables themselves \
         (`evaluation`)"
    );
    files[1] = InputFile::text("locals.tf", locals("\"${var.p}\""));
    assert_eq!(
        judged_again(&files, &mut cache),
        (
            vec![
                "output \"direct\"".to_owned(),
                "output \"through_local\"".to_owned()
            ],
            3
        ),
        "the local value touches `through_local` only (this rule and \
         `evaluation` on it, and `evaluation` on the local value)"
    );
    files[1] = InputFile::text("locals.tf", locals("nonsensitive(var.p)"));
    assert_eq!(
        judged_again(&files, &mut cache),
        (vec!["output \"direct\"".to_owned()], 3)
    );
    assert_eq!(cache.counters().n_edits_keeping_shapes, 3);
}

/// The keystroke path of a large module: 200 files, each with a variable,
/// a local value reading it and an output reading that. Changing one
/// local value judges one output again, not 200.
#[test]
fn a_keystroke_in_a_local_value_judges_one_output_of_many() {
    let file = |i: usize, value: &str| {
        InputFile::text(
            format!("f{i:03}.tf"),
            format!("variable \"v{i}\" {{\n  sensitive = {}\n}}\n\nlocals {{\n  l{i} = {value}\n}}\n\noutput \"o{i}\" {{\n  value = local.l{i}\n}}\n", i.is_multiple_of(2)),
        )
    };
    let mut files: Vec<InputFile> = (0..200).map(|i| file(i, &format!("var.v{i}"))).collect();
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let first = analyze(&files, &config, &mut cache);
    assert_eq!(sensitive_outputs(&first).len(), 100);
    // This rule on each output, `evaluation` on each output, local value
    // and variable.
    assert_eq!(cache.counters().n_node_rules_run, 800);
    files[4] = file(4, "\"plain\"");
    let before = cache.counters().n_node_rules_run;
    let again = analyze(&files, &config, &mut cache);
    // `evaluation` on the file's local value and output, this rule on the
    // output (the variable, before the edit, is the same text in the same
    // place).
    assert_eq!(cache.counters().n_node_rules_run - before, 3);
    assert_eq!(sensitive_outputs(&again).len(), 99);
    let whole = analyze(&files, &config, &mut AnalysisCache::new());
    assert_eq!(again.diagnostics, whole.diagnostics);
}

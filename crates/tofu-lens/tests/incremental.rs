//! The analysis after an edit, redone from the analysis before it
//! (`tofu_module`'s incremental road, through the `AnalysisCache` the caller
//! keeps), must equal the analysis of the same files done whole, with a
//! fresh cache: the same diagnostics, declarations, fates and effective
//! configuration. Every fixture module, every conformance module, the
//! examples and a sample of the cloudposse corpus (when `../shared` is
//! there) are edited at random, seeded: characters typed and deleted, lines
//! duplicated and deleted, comments added. Most edits keep every block's
//! shape and take the incremental road, which the test checks it did. A
//! directory whose test files run other modules by a local path is
//! analysed in the tree of those modules, as `check` analyses it; a
//! scripted test changes that tree under a kept cache.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stderr,
    clippy::indexing_slicing
)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_diagnostics::{analyze, analyze_in_tree, AnalysisCache, ModuleAnalysis};
use tofu_module::calls::{
    called_modules, normalize_path, resolve_calls, resolve_test_runs, CalledDir, CalledModules,
};
use tofu_module::{Config, FileContent, InputFile, ProviderSchemas};

mod editing;
use editing::Random;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every directory under `root` holding a configuration file, sorted.
fn module_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        let mut has_config = false;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
                has_config |= [".tf", ".tofu", ".tf.json", ".tofu.json"]
                    .iter()
                    .any(|ext| name.ends_with(ext));
            }
        }
        if has_config {
            dirs.push(dir);
        }
    }
    dirs.sort();
    dirs
}

fn text(file: &InputFile) -> Option<&str> {
    match &file.content {
        FileContent::Text(text) => Some(text),
        _ => None,
    }
}

/// The byte offsets of `text` that are character boundaries.
fn boundary(text: &str, rng: &mut Random) -> usize {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One random edit of one text file; false when there is none to edit.
fn edit(files: &mut [InputFile], rng: &mut Random) -> bool {
    let editable: Vec<usize> = (0..files.len())
        .filter(|&i| text(&files[i]).is_some())
        .collect();
    if editable.is_empty() {
        return false;
    }
    let index = editable[rng.below(editable.len())];
    let old = text(&files[index]).unwrap_or_default().to_owned();
    let new = match rng.below(8) {
        // Typing: mostly inside bodies, sometimes structure.
        0..=2 => {
            let typed = [" ", "#", "x", "\n", "\"", "1", "=", "{", "}", "é"];
            let at = boundary(&old, rng);
            format!("{}{}{}", &old[..at], rng.pick(&typed), &old[at..])
        }
        // Deleting a few bytes.
        3 => {
            let start = boundary(&old, rng);
            let mut end = (start + 1 + rng.below(8)).min(old.len());
            while !old.is_char_boundary(end) {
                end += 1;
            }
            format!("{}{}", &old[..start], &old[end..])
        }
        // Duplicating or deleting a line.
        4 | 5 => {
            let lines: Vec<&str> = old.split_inclusive('\n').collect();
            if lines.is_empty() {
                String::from("#\n")
            } else {
                let line = rng.below(lines.len());
                let mut out = String::new();
                for (i, l) in lines.iter().enumerate() {
                    if i != line || rng.below(2) == 0 {
                        out.push_str(l);
                    }
                    if i == line {
                        out.push_str(l);
                    }
                }
                out
            }
        }
        // A comment at the end: nothing but text changes.
        _ => format!("{old}\n# edited\n"),
    };
    files[index].content = FileContent::Text(new.into());
    true
}

/// Everything an analysis says, in a form two analyses compare by.
fn snapshot(analysis: &ModuleAnalysis) -> String {
    let mut primary: Vec<_> = analysis.primary_fates.iter().collect();
    primary.sort_by_key(|(block, _)| **block);
    let mut overrides: Vec<_> = analysis.override_fates.iter().collect();
    overrides.sort_by_key(|(block, _)| **block);
    format!(
        "diagnostics {:#?}\ndeclarations {:#?}\nlocals {:#?}\nincomplete {}\nterraform {:?} language {:?} other {:?}\nprimary fates {:#?}\noverride fates {:#?}\neffective {:#?}\nlocals {:#?}\nterraform {:#?}",
        analysis.diagnostics,
        analysis.declarations.blocks,
        analysis.declarations.locals,
        analysis.declarations.incomplete,
        analysis.declarations.terraform,
        analysis.declarations.language,
        analysis.declarations.other,
        primary,
        overrides,
        analysis.effective.blocks,
        analysis.effective.locals,
        analysis.effective.terraform,
    )
}

struct Outcome {
    edits: u64,
    incremental: u64,
    reshaped: u64,
}

/// What the test runs of the module in `dir` (made of `files`) call by a
/// local path, each module read from the disk and analysed on its own: the
/// tree `check` gives the directory of them.
fn test_run_tree(dir: &Path, files: &[InputFile]) -> CalledModules {
    let dir = normalize_path(dir);
    let alone = analyze(files, &Config::default(), &mut AnalysisCache::new());
    let runs = resolve_test_runs(&dir, &alone.test_run_modules());
    let lookup = |called: &Path| -> Option<CalledDir> {
        let Ok(inputs) = tofu_vfs::read_module_dir(called) else {
            return Some(CalledDir::unreadable());
        };
        let analysis = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
        let calls = resolve_calls(called, &analysis.module_calls(), None);
        Some(CalledDir {
            interface: Some(Arc::new(analysis.interface())),
            calls: calls.into_iter().filter_map(|call| call.dir).collect(),
            unreadable: false,
        })
    };
    called_modules(&dir, &runs, &lookup)
}

/// `files` analysed in `tree` through `cache`.
fn analyze_with(
    files: &[InputFile],
    tree: &CalledModules,
    cache: &mut AnalysisCache,
) -> ModuleAnalysis {
    let schemas = ProviderSchemas::default();
    analyze_in_tree(files, &Config::default(), tree, &schemas, cache)
}

/// `edits` random edits of the module in `dir`, each analysed both ways.
fn check_dir(dir: &Path, seed: u64, edits: usize) -> Result<Outcome, String> {
    let mut files = tofu_vfs::read_module_dir(dir).map_err(|e| e.to_string())?;
    let tree = test_run_tree(dir, &files);
    let mut cache = AnalysisCache::new();
    let mut rng = Random(seed);
    let _ = analyze_with(&files, &tree, &mut cache);
    let mut done = 0;
    for step in 0..edits {
        if !edit(&mut files, &mut rng) {
            break;
        }
        done += 1;
        let again = snapshot(&analyze_with(&files, &tree, &mut cache));
        let whole = snapshot(&analyze_with(&files, &tree, &mut AnalysisCache::new()));
        if again != whole {
            let at = again
                .lines()
                .zip(whole.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            let context = |text: &str| {
                text.lines()
                    .skip(at.saturating_sub(5))
                    .take(12)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let texts: String = files
                .iter()
                .filter_map(|file| Some(format!("--- {}\n{}\n", file.name, text(file)?)))
                .collect();
            return Err(format!(
                "{} (seed {seed}, edit {step}): the incremental analysis differs from the whole one at line {at}\n--- incremental\n{}\n--- whole\n{}\n--- the files after the edit\n{texts}",
                dir.display(),
                context(&again),
                context(&whole)
            ));
        }
    }
    Ok(Outcome {
        edits: done,
        incremental: cache.counters().n_edits_keeping_shapes,
        reshaped: cache.counters().n_edits_changing_shapes,
    })
}

/// `TOFU_LENS_INCREMENTAL_SEED=N` draws other edits than CI's (a sweep of
/// seeds, run by hand after a change to the incremental road).
fn check_dirs(dirs: &[PathBuf], edits: usize) -> (u64, u64, u64) {
    let mut failures = Vec::new();
    let (mut n_edits, mut n_incremental, mut n_reshaped) = (0, 0, 0);
    let seed: u64 = std::env::var("TOFU_LENS_INCREMENTAL_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .map_or(0x5eed, |seed: u64| seed.wrapping_mul(1_000_003));
    for (i, dir) in dirs.iter().enumerate() {
        match check_dir(dir, seed.wrapping_add(i as u64), edits) {
            Ok(outcome) => {
                n_edits += outcome.edits;
                n_incremental += outcome.incremental;
                n_reshaped += outcome.reshaped;
            }
            Err(failure) => failures.push(failure),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} modules differ:\n\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
    (n_edits, n_incremental, n_reshaped)
}

/// Both roads are taken: most edits keep every shape, and some change one.
fn assert_mostly_incremental(what: &str, (edits, incremental, reshaped): (u64, u64, u64)) {
    eprintln!(
        "{what}: of {edits} edits, {incremental} kept every shape and {reshaped} changed one"
    );
    assert!(edits > 0, "{what}: no edits");
    assert!(
        incremental * 3 >= edits,
        "{what}: only {incremental} of {edits} edits took the incremental road"
    );
    assert!(
        reshaped * 50 >= edits,
        "{what}: only {reshaped} of {edits} edits changed a shape"
    );
}

#[test]
fn incremental_equals_whole_on_fixtures_conformance_and_examples() {
    let mut dirs = module_dirs(&repo().join("tests/fixtures"));
    dirs.extend(module_dirs(&repo().join("tests/conformance")));
    dirs.extend(module_dirs(&repo().join("examples")));
    assert!(
        dirs.len() > 200,
        "only {} module directories found",
        dirs.len()
    );
    assert_mostly_incremental("fixtures", check_dirs(&dirs, 25));
}

#[test]
fn incremental_equals_whole_on_a_corpus_sample() {
    let corpus = repo().join("../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is absent", corpus.display());
        return;
    }
    // Every third module directory of the corpus: a sample of real code
    // that stays quick (a few seconds).
    let dirs: Vec<PathBuf> = module_dirs(&corpus).into_iter().step_by(3).collect();
    assert_mostly_incremental("corpus", check_dirs(&dirs, 12));
}

/// Scripted edits of files that hold no `module` block but define what a
/// module call's `source` reads: the result of the module-call rules from
/// before the edit must not be reused.
#[test]
fn incremental_redoes_module_calls_when_what_they_read_changes() {
    let module = |locals: &str, variables: &str| {
        vec![
            InputFile::text("main.tf", "module \"net\" {\n  source = local.src\n}\n"),
            InputFile::text("locals.tf", locals.to_owned()),
            InputFile::text("variables.tf", variables.to_owned()),
        ]
    };
    let steps = [
        (
            "locals {\n  src = \"./net\"\n}\n",
            "variable \"region\" {}\n",
        ),
        (
            "locals {\n  src = var.region\n}\n",
            "variable \"region\" {}\n",
        ),
        (
            "locals {\n  src = \"./net\"\n}\n",
            "variable \"region\" {}\n",
        ),
        (
            "locals {\n  src = \"./${var.region}\"\n}\n",
            "variable \"region\" {\n  const = true\n}\n",
        ),
        (
            "locals {\n  src = \"./${var.region}\"\n}\n",
            "variable \"region\" {\n  const = false\n}\n",
        ),
    ];
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let mut seen = std::collections::BTreeSet::new();
    for (step, (locals, variables)) in steps.iter().enumerate() {
        let files = module(locals, variables);
        let again = analyze(&files, &config, &mut cache);
        let whole = analyze(&files, &config, &mut AnalysisCache::new());
        assert_eq!(snapshot(&again), snapshot(&whole), "step {step}");
        seen.insert(whole.diagnostics.len());
    }
    assert_eq!(
        cache.counters().n_edits_keeping_shapes,
        steps.len() as u64 - 1
    );
    assert!(
        seen.len() > 1,
        "the edits should change what the module-call rules report"
    );
}

/// The module a test run calls changes (another tree, the same files), and
/// the test file is edited under the same tree: the test provider types
/// are judged again each time, as a whole analysis judges them (the
/// `provider-types-run-module` fixture, against its near miss's `setup`).
#[test]
fn incremental_redoes_test_provider_types_when_a_runs_module_changes() {
    let fixtures = repo().join("tests/fixtures/test-files");
    let dir = fixtures.join("provider-types-run-module");
    let files = tofu_vfs::read_module_dir(&dir).unwrap();
    let mismatched = test_run_tree(&dir, &files);
    assert_eq!(mismatched.test_modules.len(), 1);
    let agreeing = CalledModules {
        test_modules: test_run_tree(
            &fixtures.join("provider-types-run-module-near-miss"),
            &files,
        )
        .test_modules,
        ..CalledModules::default()
    };
    let elsewhere = |files: &[InputFile]| -> Vec<InputFile> {
        files
            .iter()
            .map(
                |file| match (&file.content, file.name.ends_with(".tftest.hcl")) {
                    (FileContent::Text(text), true) => {
                        InputFile::text(file.name.clone(), text.replace("./setup", "./other"))
                    }
                    _ => file.clone(),
                },
            )
            .collect()
    };
    let steps = [
        (files.clone(), &mismatched, 6),
        // Only tests/passed.tftest.hcl's `baz = foo` is still wrong.
        (files.clone(), &agreeing, 1),
        (files.clone(), &mismatched, 6),
        // The JSON file alone still runs ./setup.
        (elsewhere(&files), &mismatched, 1),
        (files.clone(), &mismatched, 6),
    ];
    let mut cache = AnalysisCache::new();
    for (step, (files, tree, n_errors)) in steps.iter().enumerate() {
        let again = analyze_with(files, tree, &mut cache);
        let whole = analyze_with(files, tree, &mut AnalysisCache::new());
        assert_eq!(snapshot(&again), snapshot(&whole), "step {step}");
        let errors = whole.diagnostics.iter().filter(|d| d.is_error()).count();
        assert_eq!(errors, *n_errors, "step {step}");
    }
    assert_eq!(cache.counters().n_edits_keeping_shapes, 2);
}

/// Work counted, not timed: after an edit inside one file's blocks, only
/// that file's identities from the first changed byte on are merged again
/// (an override file's: the ones it changes); an edit that renames one merges the file's identities again,
/// and a new file the whole module.
#[test]
fn an_edit_merges_only_the_identities_of_the_edited_file() {
    let primary = |i: usize, count: usize| {
        format!(
            "variable \"v{i}\" {{\n  default = \"x\"\n}}\n\nresource \"aws_instance\" \"a{i}\" {{\n  count = {count}\n}}\n\nresource \"aws_instance\" \"b{i}\" {{\n  ami = \"ami-{i}\"\n}}\n\nlocals {{\n  l{i} = {i}\n}}\n"
        )
    };
    let mut files: Vec<InputFile> = (0..40)
        .map(|i| InputFile::text(format!("f{i:02}.tf"), primary(i, 1)))
        .collect();
    files.push(InputFile::text(
        "x_override.tf",
        "resource \"aws_instance\" \"a3\" {\n  count = 2\n}\n",
    ));
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let _ = analyze(&files, &config, &mut cache);
    assert_eq!(
        cache.counters().n_merged,
        120,
        "the first analysis merges every identity"
    );

    let merged_by = |files: &[InputFile], cache: &mut AnalysisCache| {
        let before = cache.counters().n_merged;
        let again = analyze(files, &config, cache);
        let whole = analyze(files, &config, &mut AnalysisCache::new());
        assert_eq!(snapshot(&again), snapshot(&whole));
        cache.counters().n_merged - before
    };
    files[7] = InputFile::text("f07.tf", primary(7, 3));
    assert_eq!(
        merged_by(&files, &mut cache),
        2,
        "f07.tf's identities from the changed byte on: a7 and b7, not v7 before it"
    );
    files[40] = InputFile::text(
        "x_override.tf",
        "resource \"aws_instance\" \"a3\" {\n  count = 5\n}\n",
    );
    assert_eq!(
        merged_by(&files, &mut cache),
        1,
        "the override changes one identity"
    );
    assert_eq!(cache.counters().n_edits_keeping_shapes, 2);
    files[9] = InputFile::text("f09.tf", primary(9, 1).replace("\"b9\"", "\"c9\""));
    assert_eq!(
        merged_by(&files, &mut cache),
        3,
        "a renamed identity: the file's identities, old and new, that exist"
    );
    assert_eq!(
        (
            cache.counters().n_edits_keeping_shapes,
            cache.counters().n_edits_changing_shapes
        ),
        (2, 1)
    );
    files.push(InputFile::text("new.tf", primary(99, 1)));
    assert_eq!(merged_by(&files, &mut cache), 123, "a new file: whole");
    assert_eq!(
        (
            cache.counters().n_edits_keeping_shapes,
            cache.counters().n_edits_changing_shapes
        ),
        (2, 1)
    );
}

/// Scripted edits that add, rename and remove a local value a primary file
/// defines: what merging reports on an unchanged override file (the local
/// it overrides is missing, and "Did you mean") must follow.
#[test]
fn incremental_redoes_override_files_when_local_values_come_and_go() {
    let overrides = InputFile::text("x_override.tf", "locals {\n  colour = \"blue\"\n}\n");
    let steps = [
        "locals {\n  color = \"red\"\n}\n",
        "locals {\n  colour = \"red\"\n}\n",
        "locals {\n  color = \"red\"\n  size  = 1\n}\n",
        "locals {\n  colr = \"red\"\n}\n",
    ];
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let mut seen = std::collections::BTreeSet::new();
    for (step, locals) in steps.iter().enumerate() {
        let files = vec![
            InputFile::text("main.tf", locals.to_owned()),
            overrides.clone(),
        ];
        let again = analyze(&files, &config, &mut cache);
        let whole = analyze(&files, &config, &mut AnalysisCache::new());
        assert_eq!(snapshot(&again), snapshot(&whole), "step {step}");
        seen.insert(format!("{:?}", whole.diagnostics));
    }
    assert_eq!(
        cache.counters().n_edits_changing_shapes,
        steps.len() as u64 - 1
    );
    assert!(
        seen.len() > 2,
        "the edits should change what merging reports"
    );
}

/// Work counted, not timed: a keystroke inside a resource that names no
/// provider, in a module with provider configurations, runs no rule on the
/// whole module again — the provider-configurations rule reads only the
/// resources it can say something of (those setting `provider`, and those
/// whose implied provider `required_providers` lists under another name).
/// A keystroke in one of those runs it again, and the result is the whole
/// analysis's.
#[test]
fn a_keystroke_in_a_resource_runs_the_module_rules_that_read_it_only() {
    let resource = |i: usize, value: &str| {
        format!("resource \"aws_instance\" \"r{i}\" {{\n  ami = \"{value}\"\n}}\n\n")
    };
    let header = "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n    web = {\n      source = \"hashicorp/http\"\n    }\n  }\n}\n\nprovider \"aws\" {\n  alias = \"west\"\n}\n\n";
    let plain = |value: &str| {
        let mut text = String::new();
        for i in 0..20 {
            text.push_str(&resource(i, value));
        }
        text
    };
    // `aws_instance.named` sets `provider`; `http_request.implied` implies
    // hashicorp/http, which `required_providers` lists as `web`.
    let special = |value: &str| {
        format!("resource \"aws_instance\" \"named\" {{\n  provider = aws.west\n  ami      = \"{value}\"\n}}\n\nresource \"http_request\" \"implied\" {{\n  url = \"{value}\"\n}}\n")
    };
    let mut files = vec![
        InputFile::text("main.tf", plain("a")),
        InputFile::text("special.tf", special("a")),
        InputFile::text("versions.tf", header),
    ];
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let first = analyze(&files, &config, &mut cache);
    assert!(
        first
            .diagnostics
            .iter()
            .any(|d| d.summary == "Duplicate required provider"),
        "the implied resource is reported: {:?}",
        first.diagnostics
    );
    let rules_run_by = |files: &[InputFile], cache: &mut AnalysisCache| {
        let before = cache.counters().n_module_rules_run;
        let again = analyze(files, &config, cache);
        let whole = analyze(files, &config, &mut AnalysisCache::new());
        assert_eq!(snapshot(&again), snapshot(&whole));
        cache.counters().n_module_rules_run - before
    };
    files[0] = InputFile::text("main.tf", plain("b"));
    assert_eq!(rules_run_by(&files, &mut cache), 0, "a plain resource");
    files[1] = InputFile::text("special.tf", special("b"));
    assert!(
        rules_run_by(&files, &mut cache) > 0,
        "resources the provider rule reads"
    );
    assert_eq!(cache.counters().n_edits_keeping_shapes, 2);
}

/// Edits after which only what follows the first changed byte is judged
/// again must still change what comes before it when the two share a body:
/// a JSON key written twice (found by the seeded edits, seed 2), a value
/// shortened at its end, a comment typed after the last block.
#[test]
fn an_edit_after_a_definition_can_change_it() {
    let json = "{\n  \"locals\": {\n    \"crew\": \"a\",\n    \"cafe\": \"x\"\n  }\n}\n";
    let native = "locals {\n  crew = \"b\"\n  long = upper(\"abc\")\n}\n\nresource \"terraform_data\" \"r\" {\n  input = local.long\n}\n";
    let mut files = vec![
        InputFile::text("locals.tf", native),
        InputFile::text("locals.tf.json", json),
    ];
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let _ = analyze(&files, &config, &mut cache);
    let edits: [(usize, String); 3] = [
        (
            1,
            json.replace(
                "\"crew\": \"a\",\n",
                "\"crew\": \"a\",\n    \"crew\": \"a\",\n",
            ),
        ),
        (0, native.replace("upper(\"abc\")", "upper")),
        (0, format!("{native}\n# edited\n")),
    ];
    for (index, text) in edits {
        files[index] = InputFile::text(files[index].name.clone(), text);
        let again = analyze(&files, &config, &mut cache);
        let whole = analyze(&files, &config, &mut AnalysisCache::new());
        assert_eq!(
            snapshot(&again),
            snapshot(&whole),
            "after editing {}",
            files[index].name
        );
    }
    assert_eq!(cache.counters().n_edits_keeping_shapes, 3);
}

/// One random keystroke in one of the module's values files (`.tfvars`,
/// `.tfvars.json`), mostly inside a value; false when it has none.
fn edit_values(files: &mut [InputFile], rng: &mut Random) -> bool {
    let values: Vec<usize> = (0..files.len())
        .filter(|&i| {
            let name = &files[i].name;
            (name.ends_with(".tfvars") || name.ends_with(".tfvars.json"))
                && text(&files[i]).is_some()
        })
        .collect();
    if values.is_empty() {
        return false;
    }
    let index = values[rng.below(values.len())];
    let old = text(&files[index]).unwrap_or_default().to_owned();
    // Inside a value where there is one: after a quote or a digit.
    let places: Vec<usize> = old
        .char_indices()
        .filter(|(_, c)| *c == '"' || c.is_ascii_digit())
        .map(|(at, c)| at + c.len_utf8())
        .collect();
    let at = if places.is_empty() || rng.below(5) == 0 {
        boundary(&old, rng)
    } else {
        places[rng.below(places.len())]
    };
    let new = if rng.below(4) == 0 && at > 0 && old.is_char_boundary(at - 1) {
        // Backspace.
        format!("{}{}", &old[..at - 1], &old[at..])
    } else {
        let typed = ["1", "0", "9", "a", "Z", "-", ".", " ", "\""];
        format!("{}{}{}", &old[..at], rng.pick(&typed), &old[at..])
    };
    files[index].content = FileContent::Text(new.into());
    true
}

/// Plan's walk keeps each node's findings with the values it read
/// (issue 45): after keystrokes in the values files of every fixture that
/// has them (and now and then an edit elsewhere), the analysis equals the
/// whole one.
#[test]
fn incremental_equals_whole_when_values_files_change() {
    let dirs: Vec<PathBuf> = module_dirs(&repo().join("tests/fixtures"))
        .into_iter()
        .filter(|dir| {
            fs::read_dir(dir)
                .into_iter()
                .flatten()
                .flatten()
                .any(|entry| {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
                })
        })
        .collect();
    assert!(
        dirs.len() >= 10,
        "only {} fixtures with values files",
        dirs.len()
    );
    let mut failures = Vec::new();
    let mut n_edits = 0;
    for (i, dir) in dirs.iter().enumerate() {
        let mut files = tofu_vfs::read_module_dir(dir).unwrap();
        let tree = test_run_tree(dir, &files);
        let mut cache = AnalysisCache::new();
        let mut rng = Random(0x7a1u64.wrapping_add(i as u64));
        let _ = analyze_with(&files, &tree, &mut cache);
        for step in 0..30 {
            let edited = if rng.below(6) == 0 {
                edit(&mut files, &mut rng)
            } else {
                edit_values(&mut files, &mut rng)
            };
            if !edited {
                break;
            }
            n_edits += 1;
            let again = snapshot(&analyze_with(&files, &tree, &mut cache));
            let whole = snapshot(&analyze_with(&files, &tree, &mut AnalysisCache::new()));
            if again != whole {
                let texts: String = files
                    .iter()
                    .filter_map(|file| Some(format!("--- {}\n{}\n", file.name, text(file)?)))
                    .collect();
                failures.push(format!(
                    "{} (edit {step}):\n--- incremental\n{again}\n--- whole\n{whole}\n{texts}",
                    dir.display()
                ));
                break;
            }
        }
    }
    assert!(n_edits > 200, "only {n_edits} edits");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A keystroke in a values file walks again only the nodes of plan's walk
/// that read the variable whose value changed (directly or through a
/// local value), and what they report is the whole analysis's.
#[test]
fn a_keystroke_in_a_values_file_walks_only_the_nodes_that_read_its_variable() {
    let mut main = String::from(
        "variable \"a\" {\n  type = string\n}\n\nvariable \"b\" {\n  type = number\n  validation {\n    condition     = var.b < 10\n    error_message = \"At most nine.\"\n  }\n}\n\nlocals {\n  lb = var.b * 2\n}\n\noutput \"ob\" {\n  value = cidrsubnet(\"10.0.0.0/16\", 3, local.lb)\n}\n",
    );
    for i in 0..20 {
        main.push_str(&format!(
            "\nlocals {{\n  la{i} = upper(var.a)\n}}\n\noutput \"oa{i}\" {{\n  value = local.la{i}\n}}\n"
        ));
    }
    let values = |b: &str| InputFile::text("terraform.tfvars", format!("a = \"x\"\nb = {b}\n"));
    let mut files = vec![InputFile::text("main.tf", main), values("1")];
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let _ = analyze(&files, &config, &mut cache);
    let mut walked_after = |b: &str, files: &mut Vec<InputFile>| {
        files[1] = values(b);
        let before = cache.counters().n_node_rules_run;
        let again = analyze(files, &config, &mut cache);
        let whole = analyze(files, &config, &mut AnalysisCache::new());
        assert_eq!(snapshot(&again), snapshot(&whole), "b = {b}");
        (cache.counters().n_node_rules_run - before, again)
    };
    // `local.lb` and `output.ob` read var.b; the 40 nodes reading var.a
    // keep their memos.
    let (walked, _) = walked_after("2", &mut files);
    assert_eq!(walked, 2, "b = 2");
    // 200 fails the validation: nothing reads var.b then.
    let (walked, analysis) = walked_after("200", &mut files);
    assert_eq!(walked, 2, "b = 200");
    assert!(
        analysis
            .diagnostics
            .iter()
            .any(|d| d.summary == "Invalid value for variable"),
        "{:?}",
        analysis.diagnostics
    );
    // 14 is out of cidrsubnet's range (3 new bits) only with the value:
    // plan's error.
    let (walked, analysis) = walked_after("7", &mut files);
    assert_eq!(walked, 2, "b = 7");
    assert!(
        analysis
            .diagnostics
            .iter()
            .any(|d| d.summary == "Error in function call"),
        "{:?}",
        analysis.diagnostics
    );
}

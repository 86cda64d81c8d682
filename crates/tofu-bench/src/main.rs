//! `cargo run --release -p tofu-bench [-- CORPUS_DIR] [--only CASE]
//! [--server BIN]`: the benchmark suite of issue 9, printed as Markdown
//! tables with ratios computed in the same run; `--server` runs the server
//! cases on another build of `tofu-lens` (the one before a change, say).
//! `--only scale --plot PATH` also draws the scale table as an SVG (and its
//! numbers as `PATH` in CSV); `--copies 10` (or `1,50`) runs the scale case
//! at those sizes only; `--plot-from CSV [--plot PATH]` draws such numbers
//! again without running anything (`plot.rs`). `--runs N` runs every case
//! N times (to count a case's instructions under callgrind: wall-clock
//! time on a shared machine is too noisy to compare two builds by).
//!
//! In process: `parse` (the syntax layer alone over the cloudposse corpus:
//! the floor), `check-cold` (discovery, merge and every rule over the same
//! files, no cache), `edit-one` (one character changed in one file of a
//! synthetic 1,000-file module, re-analysed through the analysis cache: the
//! keystroke path) against `check-full-module` (the same module from a cold
//! cache), `edit-one-host` (the same keystrokes through tofu-ide's analysis
//! host, with the summary every analysis builds) and `parse-edited-file`
//! (parsing the files `edit-one` edits); `edit-label` (keystrokes that
//! rename a block, which change the set of identities) as information.
//! On the reference variant of the module (`synthetic::with_references`):
//! `edit-flip` (a keystroke that adds or removes an error), `edit-rename-local`
//! (one that renames a local value 500 expressions read) and
//! `hover-reference` (hover on a `var.` reference). `edit-chain-host`:
//! letters typed at the head of a chain of ten local values, through the
//! host (the in-process half of `lsp-keystroke-chain`).
//! Through the real server over stdio (`serve.rs`): `lsp-keystroke`
//! (didChange → publishDiagnostics on the synthetic module, with the server's
//! own analysis time from its log), `lsp-keystroke-local` (the same, typed
//! into a local's value), `lsp-keystroke-chain` and `lsp-hover-chain`
//! (typing at the head of a chain of ten local values over ten files, and
//! hover on its tail: `chain_cases`), `lsp-flip`, `lsp-rename-local` and
//! `lsp-hover` (the same three on the variant), `lsp-module-size` (hover and
//! definition on a reference in modules of 50, 200 and 1,000 files:
//! `module_size.rs`), and `memory` (peak RSS after indexing the corpus, with
//! `lsp-index`, the time indexing took). The peer (`peer.rs`):
//! `hcl2json-parse`, HashiCorp's parser compiled to WASM on the same files.
//! Formatting (`fmt.rs`): `fmt-tree` against OpenTofu's `tofu fmt` on the
//! corpus, `fmt-1000-lines` against parsing the same file. Provider schemas
//! (`schemas.rs`): reading openstack's cold against `tofu providers schema
//! -json`, from the cache, the heap a loaded schema keeps (`schema-memory`,
//! counted by this binary's allocator), `completion-schema` and
//! `lsp-keystroke-schemas` against `lsp-keystroke-no-schemas`. Editing
//! (`editing.rs`), in process: `hover`, `inlay-hints`, `completion`,
//! `completion-top-level` (where a new block starts in a primary file) and
//! `completion-top-level-override` (in an override file), `code-actions`
//! (the quick fixes and refactorings at a resource header of the big file).
//! Absolute times on a shared machine are noisy; the ratios are what we track.

// A command-line tool: its report goes to stdout.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod editing;
mod fetch;
mod fmt;
mod lsp;
mod machine;
mod module_size;
mod peer;
mod peers;
mod plot;
mod sample;
mod scale;
mod schemas;
mod serve;
mod synthetic;
mod tree;

use std::path::{Path, PathBuf};
use std::time::Duration;

use tofu_diagnostics::{analyze, AnalysisCache};
use tofu_module::{Config, FileContent, InputFile};

use sample::{measure, Sample};

/// The tofu-lens binary's allocator, so that the in-process cases time what
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use synthetic::text_of;

/// `runs` keystrokes, each made by `edit` on a copy of `module` and analysed
/// through one analysis cache (warmed by a first analysis), as a server would.
fn keystrokes(
    name: &'static str,
    input: String,
    runs: usize,
    module: &[InputFile],
    config: &Config,
    edit: fn(&mut [InputFile], usize),
) -> Sample {
    let mut cache = AnalysisCache::new();
    let _ = analyze(module, config, &mut cache);
    let mut edited = module.to_vec();
    let mut keystroke = 0usize;
    measure(name, input, runs, || {
        keystroke += 1;
        edit(&mut edited, keystroke);
        std::hint::black_box(analyze(&edited, config, &mut cache));
    })
}

/// Every module directory under `root`, read into memory once.
fn load_tree(root: &Path) -> Vec<(PathBuf, Vec<InputFile>)> {
    let walk = tofu_vfs::find_module_dirs(root, &tofu_vfs::WalkLimits::default());
    walk.module_dirs
        .into_iter()
        .filter_map(|dir| {
            tofu_vfs::read_module_dir(&dir)
                .ok()
                .map(|files| (dir, files))
        })
        .collect()
}

fn millis(duration: Duration) -> String {
    format!("{:.3}", duration.as_secs_f64() * 1000.0)
}

/// How many files `edit-one` takes turns editing.
const EDITED_FILES: usize = 97;

/// The edit `edit-one` makes at its `keystroke`-th run: one character
/// appended to one of the first [`EDITED_FILES`] files, alternately `#` and a
/// newline.
fn edit(module: &mut [InputFile], keystroke: usize) {
    if let Some(file) = module.get_mut(keystroke % EDITED_FILES) {
        let mut text = text_of(file).to_owned();
        text.push_str(if keystroke.is_multiple_of(2) {
            "#"
        } else {
            "\n"
        });
        file.content = FileContent::Text(text.into());
    }
}

/// The edit `edit-label` makes at its `keystroke`-th run: the label of the
/// first resource of one of the first [`EDITED_FILES`] files gains or loses
/// a character (`"r_` and `"rx_`), so that file declares another identity.
fn edit_label(module: &mut [InputFile], keystroke: usize) {
    if let Some(file) = module.get_mut(keystroke % EDITED_FILES) {
        let text = text_of(file);
        let changed = if text.contains("\"rx_") {
            text.replacen("\"rx_", "\"r_", 1)
        } else {
            text.replacen("\"r_", "\"rx_", 1)
        };
        file.content = FileContent::Text(changed.into());
    }
}

/// Replaces the first `from` in file `name` of `module` by `to`, or the
/// first `to` by `from` when `from` is not there: a keystroke that toggles.
fn toggle(module: &mut [InputFile], name: &str, from: &str, to: &str) {
    if let Some(file) = module.iter_mut().find(|file| file.name == name) {
        let text = text_of(file);
        let changed = if text.contains(from) {
            text.replacen(from, to, 1)
        } else {
            text.replacen(to, from, 1)
        };
        file.content = FileContent::Text(changed.into());
    }
}

/// The edit `edit-flip` makes: the default of `variable "flip"` (`type =
/// number`) goes from `"1"` to `"x"` (`invalid-variable-default`) and back.
fn edit_flip(module: &mut [InputFile], _keystroke: usize) {
    toggle(
        module,
        synthetic::FLIP_FILE,
        synthetic::FLIP_VALID,
        synthetic::FLIP_INVALID,
    );
}

/// The edit `edit-rename-local` makes: `local.shared` is renamed
/// `local.shares` and back, so its 500 uses become undeclared and declared.
fn edit_rename_local(module: &mut [InputFile], _keystroke: usize) {
    toggle(
        module,
        synthetic::SHARED_FILE,
        &format!("  {} =", synthetic::SHARED_NAME),
        &format!("  {} =", synthetic::SHARED_RENAMED),
    );
}

/// `lsp-keystroke-tfvars` on the synthetic module made a directory plan is
/// run in (`synthetic::with_values_file`): keystrokes in `terraform.tfvars`.
fn tfvars_case(
    binary: &Path,
    module: &[InputFile],
    module_input: &str,
    runs: usize,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) {
    let planned = synthetic::with_values_file(module.to_vec());
    match serve::lsp_keystroke_tfvars(binary, &planned, runs) {
        Ok(keystrokes) => {
            samples.push(Sample {
                name: "lsp-keystroke-tfvars",
                input: format!(
                    "{module_input}, with terraform.tfvars and plan.tf: typing into a value, didChange → publishDiagnostics"
                ),
                times: keystrokes.latencies,
            });
            if !keystrokes.server_times.is_empty() {
                samples.push(Sample {
                    name: "lsp-keystroke-tfvars-server",
                    input: "the same keystrokes, analysis time from the server's debug log"
                        .to_owned(),
                    times: keystrokes.server_times,
                });
            }
        }
        Err(error) => skipped.push(format!("lsp-keystroke-tfvars: {error}")),
    }
}

/// `lsp-keystroke-chain` and `lsp-hover-chain` on the synthetic module with
/// a chain of ten local values over ten files (`synthetic::with_chain`):
/// keystrokes at the chain's head, and hovers on the tail's reference,
/// whose answer shows the value that flowed through the chain.
fn chain_cases(
    binary: &Path,
    module: &[InputFile],
    module_input: &str,
    runs: usize,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) {
    let (chained, head_file, tail_file) = synthetic::with_chain(module.to_vec());
    let input = format!(
        "{module_input}, with a chain of {} local values",
        synthetic::CHAIN_LENGTH
    );
    match serve::lsp_keystroke_chain(binary, &chained, &head_file, runs) {
        Ok(keystrokes) => {
            samples.push(Sample {
                name: "lsp-keystroke-chain",
                input: format!(
                    "{input}: typing into the head's value, didChange → publishDiagnostics"
                ),
                times: keystrokes.latencies,
            });
            if !keystrokes.server_times.is_empty() {
                samples.push(Sample {
                    name: "lsp-keystroke-chain-server",
                    input: "the same keystrokes, analysis time from the server's debug log"
                        .to_owned(),
                    times: keystrokes.server_times,
                });
            }
        }
        Err(error) => skipped.push(format!("lsp-keystroke-chain: {error}")),
    }
    let offset = chained
        .iter()
        .find(|file| file.name == tail_file)
        .and_then(|file| synthetic::text_of(file).find(synthetic::CHAIN_TAIL_REFERENCE))
        .map(|at| at + "local.".len());
    let Some(offset) = offset else {
        skipped.push("lsp-hover-chain: the chain has no tail reference".into());
        return;
    };
    match serve::lsp_hover(binary, &chained, &tail_file, offset, runs) {
        Ok(times) => samples.push(Sample {
            name: "lsp-hover-chain",
            input: format!("{input}: hover on the tail's reference (its value), request → answer"),
            times,
        }),
        Err(error) => skipped.push(format!("lsp-hover-chain: {error}")),
    }
}

/// `edit-chain-host`: letters typed into the head of the chain of ten local
/// values (`synthetic::with_chain`), each analysed through tofu-ide's host
/// as the server runs it.
fn edit_chain_host(
    module: &[InputFile],
    config: &Config,
    module_input: &str,
    runs: usize,
) -> Sample {
    let (chained, head_file, _) = synthetic::with_chain(module.to_vec());
    let dir = PathBuf::from("/bench/module");
    let mut host = tofu_ide::AnalysisHost::new(config.clone());
    host.apply_change(tofu_ide::Change::DiskDir {
        dir: dir.clone(),
        files: chained.clone(),
    });
    host.analyze_now(&dir);
    let mut text = chained
        .iter()
        .find(|file| file.name == head_file)
        .map(text_of)
        .unwrap_or_default()
        .to_owned();
    let mut at = text
        .find(synthetic::CHAIN_HEAD)
        .map_or(0, |at| at + synthetic::CHAIN_HEAD.len());
    let mut keystroke = 0usize;
    measure(
        "edit-chain-host",
        format!(
            "{module_input}, with a chain of {} local values: a letter typed into the head's value, through the host",
            synthetic::CHAIN_LENGTH
        ),
        runs,
        || {
            keystroke += 1;
            let letter = char::from(b'a' + u8::try_from(keystroke % 26).unwrap_or(0));
            text.insert(at, letter);
            at += 1;
            host.apply_change(tofu_ide::Change::BufferChanged {
                path: dir.join(&head_file),
                text: text.clone().into(),
                version: i32::try_from(keystroke).unwrap_or(i32::MAX),
            });
            if let Some(job) = host.start_analysis(&dir) {
                let finished = job.run();
                std::hint::black_box(host.finish_analysis_returning_old(finished));
            }
        },
    )
}

/// Where `hover-reference` and `lsp-hover` hover: on the `var.var_1` that the
/// first resource of `f0001.tf` reads (its variable's block is rendered).
const HOVERED_FILE: &str = "f0001.tf";
const HOVERED_REFERENCE: &str = "var.var_1\n";

fn main() {
    // Arguments: [CORPUS_DIR] [--only CASE]. --only runs one case (a name of the
    // table, or `peer`, or `fmt` for the formatting cases) 20 times as often,
    // for profiling; `memory`, the peer and the fmt trees keep their usual
    // number of runs.
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // --peers DIR: tofu-ls and terraform-ls from DIR, side by side (peers.rs).
    let peers_dir = args.iter().position(|a| a == "--peers").map(|i| {
        let dir = args.get(i + 1).cloned().unwrap_or_default();
        args.drain(i..(i + 2).min(args.len()));
        PathBuf::from(dir)
    });
    let mut take = |flag: &str| {
        let i = args.iter().position(|a| a == flag)?;
        let value = args.get(i + 1).cloned().unwrap_or_default();
        args.drain(i..(i + 2).min(args.len()));
        Some(PathBuf::from(value))
    };
    let plot_path = take("--plot");
    // --server BIN: the server cases run BIN instead of the tofu-lens beside
    // the bench (an older build, for before/after in one session).
    let server_override = take("--server");
    // --copies 10 or --copies 1,50: the scale case at these sizes only.
    let scale_copies = take("--copies").map(|list| {
        list.to_string_lossy()
            .split(',')
            .filter_map(|n| n.trim().parse::<usize>().ok())
            .collect::<Vec<_>>()
    });
    if let Some(csv) = take("--plot-from") {
        let svg = plot_path.unwrap_or_else(|| csv.with_extension("svg"));
        let drawn = std::fs::read_to_string(&csv)
            .map_err(|error| format!("cannot read {}: {error}", csv.display()))
            .and_then(|text| plot::from_csv(&text))
            .and_then(|(caption, rows)| {
                std::fs::write(&svg, plot::render(&caption, &rows))
                    .map_err(|error| format!("cannot write {}: {error}", svg.display()))
            });
        if let Err(error) = drawn {
            eprintln!("tofu-bench: --plot-from: {error}");
            std::process::exit(2);
        }
        return;
    }
    // --runs N: every case N times (a handful, to count instructions under
    // callgrind, where wall-clock time on a shared machine is too noisy).
    let fixed_runs = take("--runs").and_then(|n| n.to_string_lossy().parse::<usize>().ok());
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let corpus = args
        .iter()
        .take_while(|a| *a != "--only")
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/corpus/terraform-aws-components"));
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let runs = |n: usize| match fixed_runs {
        Some(fixed) => fixed.max(1),
        None if only.is_some() => n * 20,
        None => n,
    };

    if !corpus.is_dir() {
        eprintln!(
            "tofu-bench: {} is not a directory (pass the cloudposse corpus folder)",
            corpus.display()
        );
        std::process::exit(2);
    }
    println!(
        "tofu-bench at {}, {}: {}",
        machine::commit(),
        machine::date(),
        machine::description()
    );
    println!();
    let tree = load_tree(&corpus);
    let n_files: usize = tree.iter().map(|(_, files)| files.len()).sum();
    let n_bytes: usize = tree
        .iter()
        .flat_map(|(_, files)| files.iter().map(|f| text_of(f).len()))
        .sum();
    let corpus_input = format!(
        "{} ({n_files} files, {:.1} MB)",
        corpus.display(),
        n_bytes as f64 / 1e6
    );
    let config = Config::default();
    let mut samples = Vec::new();
    let mut skipped: Vec<String> = Vec::new();

    if wanted("parse") {
        samples.push(measure("parse", corpus_input.clone(), runs(9), || {
            for (_, files) in &tree {
                for file in files {
                    std::hint::black_box(tofu_syntax::parse(&file.name, text_of(file)));
                }
            }
        }));
    }
    if wanted("check-cold") {
        samples.push(measure("check-cold", corpus_input.clone(), runs(9), || {
            for (_, files) in &tree {
                std::hint::black_box(analyze(files, &config, &mut AnalysisCache::new()));
            }
        }));
    }

    let module = synthetic::module(1_000, 42);
    let module_bytes: usize = module.iter().map(|f| text_of(f).len()).sum();
    let module_input = format!(
        "synthetic module, seed 42 ({} files, {:.1} MB)",
        module.len(),
        module_bytes as f64 / 1e6
    );
    if wanted("check-full-module") {
        samples.push(measure(
            "check-full-module",
            module_input.clone(),
            runs(9),
            || {
                std::hint::black_box(analyze(&module, &config, &mut AnalysisCache::new()));
            },
        ));
    }
    // Keystrokes that change a block's label: the set of identities
    // changes, so declarations are built whole (the reshaping road).
    if wanted("edit-label") {
        let input = module_input.clone();
        samples.push(keystrokes(
            "edit-label",
            input,
            runs(51),
            &module,
            &config,
            edit_label,
        ));
    }
    // The reference variant: a keystroke that adds or removes an error, one
    // that renames a local value 500 expressions read, a hover on a reference.
    let reference_cases = [
        "edit-flip",
        "edit-rename-local",
        "hover-reference",
        "lsp-flip",
        "lsp-rename-local",
        "lsp-hover",
    ];
    let (reference_module, readers) = if reference_cases.iter().any(|case| wanted(case)) {
        synthetic::with_references(module.clone(), 500)
    } else {
        (Vec::new(), Vec::new())
    };
    let reference_input = format!(
        "synthetic module, seed 42, with variable \"flip\" and local.shared read by {} resources ({} files)",
        readers.len(),
        reference_module.len()
    );
    let hovered = reference_module
        .iter()
        .find(|file| file.name == HOVERED_FILE)
        .and_then(|file| text_of(file).find(HOVERED_REFERENCE))
        .map_or(0, |at| at + 4);
    if wanted("edit-flip") {
        samples.push(keystrokes(
            "edit-flip",
            format!("{reference_input}: the flip default \"1\" ↔ \"x\""),
            runs(51),
            &reference_module,
            &config,
            edit_flip,
        ));
    }
    if wanted("edit-rename-local") {
        samples.push(keystrokes(
            "edit-rename-local",
            format!("{reference_input}: local.shared ↔ local.shares"),
            runs(51),
            &reference_module,
            &config,
            edit_rename_local,
        ));
    }
    if wanted("hover-reference") {
        let (dir, analysis) = editing::analysis(reference_module.clone());
        let path = dir.join(HOVERED_FILE);
        let offset = u32::try_from(hovered).unwrap_or(0);
        if analysis.hover(&path, offset).is_none() {
            skipped.push(format!(
                "hover-reference: no hover at {HOVERED_FILE}:{hovered}"
            ));
        }
        samples.push(measure(
            "hover-reference",
            format!("`var.var_1` in {HOVERED_FILE} of the {reference_input}"),
            runs(101),
            || {
                std::hint::black_box(analysis.hover(&path, offset));
            },
        ));
    }

    // Keystrokes at the head of a chain of ten local values, through the
    // host: what lsp-keystroke-chain-server measures, without the server.
    if wanted("edit-chain-host") {
        samples.push(edit_chain_host(&module, &config, &module_input, runs(51)));
    }
    if wanted("edit-one") || wanted("edit-one-host") || wanted("parse-edited-file") {
        if wanted("edit-one") {
            let input = module_input.clone();
            samples.push(keystrokes(
                "edit-one",
                input,
                runs(51),
                &module,
                &config,
                edit,
            ));
        }
        // The same keystrokes through the analysis host, as the server runs
        // them: the buffer change, a copy of the inputs, the analysis, its
        // summary (diagnostics, symbols, module calls) and storing the result.
        if wanted("edit-one-host") {
            let dir = PathBuf::from("/bench/module");
            let mut host = tofu_ide::AnalysisHost::new(config.clone());
            host.apply_change(tofu_ide::Change::DiskDir {
                dir: dir.clone(),
                files: module.clone(),
            });
            host.analyze_now(&dir);
            let mut edited = module.clone();
            let mut keystroke = 0usize;
            samples.push(measure(
                "edit-one-host",
                module_input.clone(),
                runs(51),
                || {
                    keystroke += 1;
                    edit(&mut edited, keystroke);
                    let Some(file) = edited.get(keystroke % EDITED_FILES) else {
                        return;
                    };
                    host.apply_change(tofu_ide::Change::BufferChanged {
                        path: dir.join(&file.name),
                        text: text_of(file).into(),
                        version: i32::try_from(keystroke).unwrap_or(i32::MAX),
                    });
                    if let Some(job) = host.start_analysis(&dir) {
                        let finished = job.run();
                        std::hint::black_box(host.finish_analysis_returning_old(finished));
                    }
                },
            ));
        }
        // The same edits, parsing only the edited file: what edit-one cannot avoid.
        let mut edited = module.clone();
        let mut keystroke = 0usize;
        samples.push(measure(
            "parse-edited-file",
            format!(
                "the file edit-one edits (one of {EDITED_FILES}, {:.1} kB on average)",
                module
                    .iter()
                    .take(EDITED_FILES)
                    .map(|file| text_of(file).len())
                    .sum::<usize>() as f64
                    / EDITED_FILES as f64
                    / 1e3
            ),
            runs(51),
            || {
                keystroke += 1;
                edit(&mut edited, keystroke);
                if let Some(file) = edited.get(keystroke % EDITED_FILES) {
                    std::hint::black_box(tofu_syntax::parse(&file.name, text_of(file)));
                }
            },
        ));
    }

    if wanted("editing")
        || wanted("hover")
        || wanted("inlay-hints")
        || wanted("completion")
        || wanted("completion-top-level")
        || wanted("code-actions")
        || wanted("semantic-tokens")
        || wanted("folding-ranges")
    {
        let (dir, analysis) = editing::analysis(editing::module_with_big_file(module.clone()));
        let big = dir.join("big.tf");
        let big_text = editing::file_text(&analysis, &big);
        let hover_at = editing::hover_offset(&big_text);
        let small = dir.join("f0001.tf");
        let complete_at = editing::completion_offset(&editing::file_text(&analysis, &small));
        let lines = big_text.lines().count();
        let n_hints = analysis.inlay_hints(&big, None).len();
        let n_items = analysis.completions(&small, complete_at).len();
        let hovered = analysis.hover(&big, hover_at).is_some();
        if n_hints == 0 || n_items == 0 || !hovered {
            skipped.push(format!(
                "editing: nothing to measure ({n_hints} hints, {n_items} completions, hover {hovered})"
            ));
        }
        samples.push(measure(
            "hover",
            format!("a resource header of big.tf ({lines} lines) in {module_input}"),
            runs(101),
            || {
                std::hint::black_box(analysis.hover(&big, hover_at));
            },
        ));
        samples.push(measure(
            "inlay-hints",
            format!("all of big.tf ({lines} lines, 27 resources overridden: {n_hints} hints)"),
            runs(101),
            || {
                std::hint::black_box(analysis.inlay_hints(&big, None));
            },
        ));
        samples.push(measure(
            "semantic-tokens",
            format!("all of big.tf ({lines} lines)"),
            runs(101),
            || {
                std::hint::black_box(analysis.semantic_tokens(&big, None));
            },
        ));
        samples.push(measure(
            "folding-ranges",
            format!("all of big.tf ({lines} lines)"),
            runs(101),
            || {
                std::hint::black_box(analysis.folding_ranges(&big));
            },
        ));
        // The code actions an editor asks for at a resource header: its
        // quick fixes and refactorings (each a whole edit, found through
        // every reference of the module).
        let cursor = tofu_syntax::TextRange::new(hover_at, hover_at);
        let n_actions =
            analysis.code_actions(&big, cursor).len() + analysis.refactorings(&big, cursor).len();
        if n_actions == 0 {
            skipped.push("code-actions: nothing offered at the resource header".to_owned());
        }
        samples.push(measure(
            "code-actions",
            format!("a resource header of big.tf in {module_input}: {n_actions} actions"),
            runs(101),
            || {
                std::hint::black_box(analysis.code_actions(&big, cursor));
                std::hint::black_box(analysis.refactorings(&big, cursor));
            },
        ));
        samples.push(measure(
            "completion",
            format!("after `var.` in f0001.tf of {module_input}: {n_items} items"),
            runs(101),
            || {
                std::hint::black_box(analysis.completions(&small, complete_at));
            },
        ));
        // Where a new block starts: the keywords of a primary file, and in
        // an override file also the header of every base block it does not
        // override yet.
        for (case, name) in [
            ("completion-top-level", "f0001.tf"),
            ("completion-top-level-override", "o000_override.tf"),
        ] {
            let file = dir.join(name);
            let at = editing::top_level_offset(&editing::file_text(&analysis, &file));
            let n_top = analysis.completions(&file, at).len();
            if n_top == 0 {
                skipped.push(format!("{case}: nothing to measure at the end of {name}"));
            }
            samples.push(measure(
                case,
                format!("the end of {name} in {module_input}: {n_top} items"),
                runs(101),
                || {
                    std::hint::black_box(analysis.completions(&file, at));
                },
            ));
        }
    }

    if wanted("completion-schema") || wanted("schemas") {
        match editing::fixture_schemas() {
            Some(schemas) => {
                let (dir, analysis) = editing::analysis_with_schemas(
                    editing::module_with_resource(module.clone()),
                    schemas,
                );
                let compute = dir.join("compute.tf");
                let at = editing::body_completion_offset(&editing::file_text(&analysis, &compute));
                let n_items = analysis.completions(&compute, at).len();
                samples.push(measure(
                    "completion-schema",
                    format!(
                        "in an openstack_compute_instance_v2 body of {module_input}, with the \
                         time and openstack schemas: {n_items} items"
                    ),
                    runs(101),
                    || {
                        std::hint::black_box(analysis.completions(&compute, at));
                    },
                ));
            }
            None => skipped
                .push("completion-schema: the fixtures' schemas.json is not there".to_owned()),
        }
    }

    // Before any server case: nothing else allocates while it counts.
    let mut schema_memory = None;
    if wanted("schema-memory") || wanted("schemas") {
        let path = editing::fixture_schemas_path();
        if path.is_file() {
            match schemas::memory(&path) {
                Ok(memory) => schema_memory = Some(memory),
                Err(error) => skipped.push(format!("schema-memory: {error}")),
            }
        } else {
            skipped.push("schema-memory: the fixtures' schemas.json is not there".into());
        }
    }
    if schemas::READ_CASES.iter().any(|case| wanted(case)) || wanted("schemas") {
        // Seven runs even under --only: the provider and tofu take seconds.
        let tofu = fmt::oracle();
        schemas::read_cases(7, tofu.as_deref(), &mut samples, &mut skipped);
    }

    if wanted("fmt-1000-lines") || wanted("fmt") {
        let text = fmt::unformatted_big_file(&editing::module_with_big_file(module.clone()));
        fmt::file_cases(&text, runs(101), &mut samples);
    }

    let server_cases = [
        module_size::CASE,
        "lsp-keystroke",
        "lsp-keystroke-local",
        "lsp-keystroke-chain",
        "lsp-keystroke-tfvars",
        "lsp-hover-chain",
        "lsp-keystroke-schemas",
        "fetch-first-completion",
        "schemas",
        "lsp-flip",
        "lsp-rename-local",
        "lsp-hover",
        "memory",
        "fmt-tree",
        "fmt",
        "tree",
    ];
    let binary = if let Some(binary) = server_override.clone() {
        Some(binary)
    } else if server_cases.iter().any(|case| wanted(case)) {
        match serve::server_binary() {
            Ok(binary) => Some(binary),
            Err(error) => {
                skipped.push(format!("lsp-keystroke and memory: {error}"));
                None
            }
        }
    } else {
        None
    };
    if let (Some(binary), true) = (&binary, wanted("lsp-keystroke")) {
        let n_keystrokes = runs(101);
        match serve::lsp_keystroke(binary, &module, n_keystrokes) {
            Ok(keystrokes) => {
                samples.push(Sample {
                    name: "lsp-keystroke",
                    input: format!("{module_input}, didChange → publishDiagnostics over stdio"),
                    times: keystrokes.latencies,
                });
                if keystrokes.server_times.is_empty() {
                    skipped
                        .push("lsp-keystroke-server: the server logged no analysis times".into());
                } else {
                    samples.push(Sample {
                        name: "lsp-keystroke-server",
                        input: "the same keystrokes, analysis time from the server's debug log"
                            .to_owned(),
                        times: keystrokes.server_times,
                    });
                }
            }
            Err(error) => skipped.push(format!("lsp-keystroke: {error}")),
        }
    }
    if let (Some(binary), true) = (&binary, wanted("lsp-keystroke-local")) {
        match serve::lsp_keystroke_local(binary, &module, runs(101)) {
            Ok(keystrokes) => samples.push(Sample {
                name: "lsp-keystroke-local",
                input: format!(
                    "{module_input}, typing into local.local_1's value, didChange → publishDiagnostics over stdio"
                ),
                times: keystrokes.latencies,
            }),
            Err(error) => skipped.push(format!("lsp-keystroke-local: {error}")),
        }
    }
    if let (Some(binary), true) = (
        &binary,
        wanted("lsp-keystroke-chain") || wanted("lsp-hover-chain"),
    ) {
        chain_cases(
            binary,
            &module,
            &module_input,
            runs(101),
            &mut samples,
            &mut skipped,
        );
    }
    if let (Some(binary), true) = (&binary, wanted("lsp-keystroke-tfvars")) {
        tfvars_case(
            binary,
            &module,
            &module_input,
            runs(101),
            &mut samples,
            &mut skipped,
        );
    }
    if let (Some(binary), true) = (
        &binary,
        wanted("lsp-keystroke-schemas") || wanted("schemas"),
    ) {
        keystroke_schema_cases(
            binary,
            &module,
            &module_input,
            runs(101),
            &mut samples,
            &mut skipped,
        );
    }
    if let (Some(binary), true) = (&binary, wanted("fetch-first-completion")) {
        fetch::first_completion_cases(binary, runs(5), &mut samples, &mut skipped);
    }
    if let (Some(binary), true) = (&binary, wanted("tree")) {
        match tree::tree_edits(binary, runs(51)) {
            Ok(edits) => {
                let input = format!(
                    "a root calling 20 local children of 50 files ({} files)",
                    edits.n_files
                );
                match edits.interface {
                    Ok(times) => samples.push(Sample {
                        name: "tree-interface-edit",
                        input: format!(
                            "{input}: a child's variable renamed and back, didChange → the root's publication"
                        ),
                        times,
                    }),
                    Err(error) => skipped.push(format!("tree-interface-edit: {error}")),
                }
                samples.push(Sample {
                    name: "tree-child-keystroke",
                    input: format!(
                        "{input}: a keystroke in a string of a child, didChange → its publication"
                    ),
                    times: edits.keystroke,
                });
            }
            Err(error) => skipped.push(format!("tree: {error}")),
        }
    }
    if let (Some(binary), true) = (&binary, wanted("lsp-flip")) {
        match serve::lsp_flip(binary, &reference_module, runs(101)) {
            Ok(keystrokes) => {
                samples.push(Sample {
                    name: "lsp-flip",
                    input: format!(
                        "{reference_input}: the flip default \"1\" ↔ \"x\", didChange → publishDiagnostics with or without the error"
                    ),
                    times: keystrokes.latencies,
                });
                if !keystrokes.server_times.is_empty() {
                    samples.push(Sample {
                        name: "lsp-flip-server",
                        input: "the same keystrokes, analysis time from the server's debug log"
                            .to_owned(),
                        times: keystrokes.server_times,
                    });
                }
            }
            Err(error) => skipped.push(format!("lsp-flip: {error}")),
        }
    }
    if let (Some(binary), true) = (&binary, wanted("lsp-rename-local")) {
        // Each keystroke publishes 501 files: fewer of them.
        match serve::lsp_rename_local(binary, &reference_module, &readers, runs(21)) {
            Ok(renames) => {
                samples.push(Sample {
                    name: "lsp-rename-local",
                    input: format!(
                        "{reference_input}: local.shared ↔ local.shares, didChange → the edited document's publishDiagnostics"
                    ),
                    times: renames.to_document,
                });
                samples.push(Sample {
                    name: "lsp-rename-local-all",
                    input: format!(
                        "the same keystrokes, didChange → the last of the {} files whose references changed",
                        readers.len()
                    ),
                    times: renames.to_all,
                });
                if !renames.server_times.is_empty() {
                    samples.push(Sample {
                        name: "lsp-rename-local-server",
                        input: "the same keystrokes, analysis time from the server's debug log"
                            .to_owned(),
                        times: renames.server_times,
                    });
                }
            }
            Err(error) => skipped.push(format!("lsp-rename-local: {error}")),
        }
    }
    if let (Some(binary), true) = (&binary, wanted("lsp-hover")) {
        match serve::lsp_hover(binary, &reference_module, HOVERED_FILE, hovered, runs(101)) {
            Ok(times) => samples.push(Sample {
                name: "lsp-hover",
                input: format!(
                    "`var.var_1` in {HOVERED_FILE} of the {reference_input}, request → response over stdio"
                ),
                times,
            }),
            Err(error) => skipped.push(format!("lsp-hover: {error}")),
        }
    }
    if let (Some(binary), true) = (&binary, wanted(module_size::CASE)) {
        module_size::cases(binary, runs(101), &mut samples, &mut skipped);
    }
    if let (Some(binary), true) = (&binary, wanted("fmt-tree") || wanted("fmt")) {
        // Five runs even under --only: tofu fmt takes seconds on the tree.
        fmt::tree_cases(
            binary,
            &corpus,
            &corpus_input,
            5,
            &mut samples,
            &mut skipped,
        );
    }
    let mut peak_rss: Vec<u64> = Vec::new();
    if let (Some(binary), true) = (&binary, wanted("memory")) {
        let mut index_times = Vec::new();
        for _ in 0..3 {
            match serve::memory(binary, &corpus) {
                Ok(indexed) => {
                    eprintln!(
                        "tofu-bench: memory: {} of {n_files} files published (those with problems)",
                        indexed.n_published
                    );
                    peak_rss.push(indexed.peak_rss);
                    index_times.push(indexed.index_time);
                }
                Err(error) => {
                    skipped.push(format!("memory: {error}"));
                    break;
                }
            }
        }
        if !index_times.is_empty() {
            samples.push(Sample {
                name: "lsp-index",
                input: format!("{corpus_input}, spawn → the last publishDiagnostics of indexing"),
                times: index_times,
            });
        }
    }
    let mut peer_first_pass = None;
    if wanted("hcl2json-parse") || wanted("peer") {
        let files: Vec<PathBuf> = tree
            .iter()
            .flat_map(|(dir, files)| files.iter().map(|file| dir.join(&file.name)))
            .collect();
        match peer::hcl2json(&files, 5) {
            Ok(run) => {
                if run.n_errors > 0 {
                    eprintln!("tofu-bench: hcl2json rejected {} files", run.n_errors);
                }
                peer_first_pass = Some(run.first_pass);
                samples.push(Sample {
                    name: "hcl2json-parse",
                    input: format!("{corpus_input}, {} in one process", run.label),
                    times: run.times,
                });
            }
            Err(error) => skipped.push(format!(
                "peer: cannot run @cdktf/hcl2json ({error}); skipping its ratio"
            )),
        }
    }

    // The scale case only when asked for (`--only scale`): it builds up to
    // 50 copies of the corpus and runs the server on each.
    if only.as_deref() == Some("scale") {
        let copies = scale_copies.clone().unwrap_or_else(|| vec![1, 10, 50]);
        scale_table(
            &corpus,
            &copies,
            server_override.as_deref(),
            plot_path.as_deref(),
            &mut skipped,
        );
    }
    if let Some(dir) = peers_dir.filter(|_| wanted("peers")) {
        peer_table(&corpus, &dir, &mut skipped);
    }

    println!("| case | input | median ms | p10 ms | p90 ms | p95 ms | runs |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for sample in &samples {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            sample.name,
            sample.input,
            millis(sample.median()),
            millis(sample.percentile(0.1)),
            millis(sample.percentile(0.9)),
            millis(sample.percentile(0.95)),
            sample.times.len()
        );
    }
    let median = |name: &str| {
        samples
            .iter()
            .find(|s| s.name == name)
            .map_or(f64::NAN, |s| s.median().as_secs_f64())
    };
    println!();
    println!("| target | value | goal | holds |");
    println!("| --- | ---: | --- | --- |");
    let row = |target: &str, value: f64, shown: String, goal: &str, ok: bool| {
        let (shown, holds) = if value.is_nan() {
            ("–".to_owned(), "not measured")
        } else if ok {
            (shown, "yes")
        } else {
            (shown, "**no**")
        };
        println!("| {target} | {shown} | {goal} | {holds} |");
    };
    for (case, against) in [("inlay-hints", "hover"), ("completion", "hover")] {
        let ratio = median(case) / median(against);
        row(
            &format!("{case} / {against}"),
            ratio,
            format!("{ratio:.2}"),
            "≤ 2",
            ratio <= 2.0,
        );
    }
    let top_level = median("completion-top-level") * 1000.0;
    row(
        "completion-top-level, p50",
        top_level,
        format!("{top_level:.3} ms"),
        "≤ 2 ms",
        top_level <= 2.0,
    );
    let schema_completion = median("completion-schema") * 1000.0;
    row(
        "completion-schema, p50",
        schema_completion,
        format!("{schema_completion:.3} ms"),
        "≤ 5 ms",
        schema_completion <= 5.0,
    );
    let cold_over_tofu =
        median("schema-cold-openstack") / median("tofu-providers-schema-openstack");
    row(
        "schema-cold-openstack / tofu-providers-schema-openstack",
        cold_over_tofu,
        format!("{cold_over_tofu:.2}"),
        "≤ 0.5",
        cold_over_tofu <= 0.5,
    );
    let fetch_cold = (median("fetch-first-completion-cold") - median("fetch-download")) * 1000.0;
    row(
        "fetch-first-completion-cold − fetch-download, p50",
        fetch_cold,
        format!("{fetch_cold:.0} ms"),
        "≤ 2000 ms",
        fetch_cold <= 2000.0,
    );
    let fetch_cached = median("fetch-first-completion-cached") * 1000.0;
    row(
        "fetch-first-completion-cached, p50",
        fetch_cached,
        format!("{fetch_cached:.0} ms"),
        "≤ 50 ms",
        fetch_cached <= 50.0,
    );
    let from_cache = median("schema-cache") * 1000.0;
    row(
        "schema-cache p50 (openstack from the on-disk cache)",
        from_cache,
        format!("{from_cache:.1} ms"),
        "≤ 50 ms",
        from_cache <= 50.0,
    );
    let memory_ratio = schema_memory
        .as_ref()
        .map_or(f64::NAN, schemas::SchemaMemory::ratio);
    row(
        "schema-memory: heap held by the loaded time and openstack schemas / their JSON",
        memory_ratio,
        schema_memory.as_ref().map_or_else(String::new, |memory| {
            format!(
                "{memory_ratio:.2} ({:.0} kB in {} allocations, + {} B each for malloc; JSON {:.0} kB)",
                memory.heap_bytes as f64 / 1e3,
                memory.n_allocations,
                schemas::MALLOC_OVERHEAD_PER_ALLOCATION,
                memory.json_bytes as f64 / 1e3
            )
        }),
        "≤ 2",
        memory_ratio <= 2.0,
    );
    // "Keystroke → publish unchanged with schemas loaded": the same
    // keystrokes on the same module, with and without openstack's schema.
    let with_schemas = median("lsp-keystroke-schemas") / median("lsp-keystroke-no-schemas");
    row(
        "lsp-keystroke-schemas / lsp-keystroke-no-schemas, p50 (openstack's schema loaded or not)",
        with_schemas,
        format!("{with_schemas:.2}"),
        "≤ 1.1",
        with_schemas <= 1.1,
    );
    let cold_over_parse = median("check-cold") / median("parse");
    row(
        "check-cold / parse",
        cold_over_parse,
        format!("{cold_over_parse:.2}"),
        "≤ 1.5",
        cold_over_parse <= 1.5,
    );
    let full_over_edit = median("check-full-module") / median("edit-one");
    row(
        "check-full-module / edit-one",
        full_over_edit,
        format!("{full_over_edit:.1}"),
        "≥ 100",
        full_over_edit >= 100.0,
    );
    let beyond_parse = (median("edit-one") - median("parse-edited-file")) * 1000.0;
    row(
        "edit-one − parse-edited-file, p50",
        beyond_parse,
        format!("{beyond_parse:.3} ms"),
        "< 5 ms",
        beyond_parse < 5.0,
    );
    for (case, what, goal_ms) in [
        (
            "lsp-keystroke-server",
            "server analysis after a keystroke",
            1.0,
        ),
        ("lsp-keystroke", "keystroke → publishDiagnostics", 10.0),
        (
            "lsp-keystroke-local",
            "a keystroke in a local's value → publishDiagnostics",
            3.0,
        ),
        (
            "lsp-flip",
            "a keystroke that adds or removes an error → publishDiagnostics",
            3.0,
        ),
        ("hover-reference", "hover on a reference, in process", 1.0),
        ("lsp-hover", "hover on a reference, over stdio", 1.0),
    ] {
        let ms = median(case) * 1000.0;
        row(
            &format!("{case} p50 ({what}, 1,000-file module)"),
            ms,
            format!("{ms:.2} ms"),
            &format!("≤ {goal_ms} ms"),
            ms <= goal_ms,
        );
    }
    for (_, hover, definition) in module_size::SIZES {
        for case in [hover, definition] {
            let ms = median(case) * 1000.0;
            row(
                &format!("{case} p50 (over stdio)"),
                ms,
                format!("{ms:.3} ms"),
                "≤ 0.5 ms",
                ms <= 0.5,
            );
        }
    }
    let value_ms = median(module_size::VALUE_CASE) * 1000.0;
    row(
        &format!(
            "{} p50 (hover showing a value, over stdio)",
            module_size::VALUE_CASE
        ),
        value_ms,
        format!("{value_ms:.3} ms"),
        "≤ 1 ms",
        value_ms <= 1.0,
    );
    if let (Some((_, small_hover, small_definition)), Some((_, large_hover, large_definition))) =
        (module_size::SIZES.first(), module_size::SIZES.last())
    {
        for (large, small) in [
            (large_hover, small_hover),
            (large_definition, small_definition),
        ] {
            let ratio = median(large) / median(small);
            row(
                &format!("{large} / {small} (flat in the module's size)"),
                ratio,
                format!("{ratio:.2}"),
                "≤ 1.5",
                ratio <= 1.5,
            );
        }
    }
    let cold_over_peer = median("check-cold") / median("hcl2json-parse");
    row(
        "check-cold / hcl2json-parse",
        cold_over_peer,
        format!("{cold_over_peer:.3}"),
        "< 0.2",
        cold_over_peer < 0.2,
    );
    let fmt_over_tofu = median("fmt-tree") / median("tofu-fmt-tree");
    row(
        "fmt-tree / tofu-fmt-tree",
        fmt_over_tofu,
        format!("{fmt_over_tofu:.3}"),
        "≤ 0.2",
        fmt_over_tofu <= 0.2,
    );
    peak_rss.sort_unstable();
    let megabytes = |bytes: u64| bytes as f64 / 1e6;
    let peak_mb = peak_rss
        .get(peak_rss.len() / 2)
        .map_or(f64::NAN, |&bytes| megabytes(bytes));
    let spread = match (peak_rss.first(), peak_rss.last()) {
        (Some(&low), Some(&high)) => format!(
            " (min {:.1}, max {:.1}, {} runs)",
            megabytes(low),
            megabytes(high),
            peak_rss.len()
        ),
        _ => String::new(),
    };
    row(
        &format!(
            "memory: peak RSS (VmHWM) of `tofu-lens serve` after indexing {}",
            corpus.display()
        ),
        peak_mb,
        format!("{peak_mb:.1} MB{spread}"),
        "< 100 MB",
        peak_mb < 100.0,
    );

    let keystroke_overhead = (median("lsp-keystroke") - median("lsp-keystroke-server")) * 1000.0;
    if !keystroke_overhead.is_nan() {
        println!();
        println!(
            "lsp-keystroke includes the server's debounce, which is skipped while a directory's \
             last analysis took under 5 ms (30 ms otherwise): keystroke p50 − server analysis \
             p50 = {keystroke_overhead:.1} ms of debounce, scheduling, conversion and transport."
        );
    }
    let hover_ms = median("hover") * 1000.0;
    if !hover_ms.is_nan() {
        println!(
            "inlay-hints / hover and completion / hover (issue 17) are measured against the \
             in-process hover of a resource header, {hover_ms:.3} ms since hover reads only the \
             file under the cursor (it read the whole module before, 1.8 ms and more): inlay hints \
             {:.3} ms, completion {:.3} ms.",
            median("inlay-hints") * 1000.0,
            median("completion") * 1000.0
        );
    }
    let with_over_without = median("lsp-keystroke-schemas") / median("lsp-keystroke-no-schemas");
    if !with_over_without.is_nan() {
        println!(
            "lsp-keystroke-schemas / lsp-keystroke-no-schemas = {with_over_without:.2}: a \
             keystroke with openstack's schema loaded against the same module without it, \
             {:.2} ms against {:.2} ms (server analysis {:.2} ms against {:.2} ms).",
            median("lsp-keystroke-schemas") * 1000.0,
            median("lsp-keystroke-no-schemas") * 1000.0,
            median("lsp-keystroke-schemas-server") * 1000.0,
            median("lsp-keystroke-no-schemas-server") * 1000.0
        );
    }
    let label_over_edit = median("edit-label") / median("edit-one");
    if !label_over_edit.is_nan() {
        println!(
            "edit-label / edit-one = {label_over_edit:.1}: a keystroke that renames a block \
             builds the declarations whole and merges that file's identities again \
             (edit-label / check-full-module = {:.2}).",
            median("edit-label") / median("check-full-module")
        );
    }
    let rename = median("edit-rename-local") * 1000.0;
    let rename_lsp = median("lsp-rename-local") * 1000.0;
    if !rename.is_nan() || !rename_lsp.is_nan() {
        println!(
            "A keystroke that renames a local value 500 expressions read (information): \
             {rename:.2} ms in process (edit-rename-local p50), {rename_lsp:.2} ms to the edited \
             document's publication and {:.2} ms to the last of the 500 files' over stdio.",
            median("lsp-rename-local-all") * 1000.0
        );
    }
    let fmt_over_parse = median("fmt-1000-lines") / median("parse-1000-lines");
    if !fmt_over_parse.is_nan() {
        println!(
            "fmt-1000-lines / parse-1000-lines = {fmt_over_parse:.2}: formatting a file (the \
             syntax check included) against parsing it."
        );
    }
    let host_over_edit = median("edit-one-host") / median("edit-one");
    if !host_over_edit.is_nan() {
        println!(
            "edit-one-host / edit-one = {host_over_edit:.2}: what the analysis host adds to a \
             keystroke (the inputs copied, the summary built, the previous analysis alive until \
             the new one is stored and dropped)."
        );
    }
    if let Some(first) = peer_first_pass {
        println!(
            "hcl2json-parse is timed on warm passes; its first pass (WASM start, JIT) took {} ms.",
            millis(first)
        );
    }
    println!("Load average after the run: {}.", machine::load());
    for reason in &skipped {
        println!();
        println!("skipped: {reason}");
    }
}

/// `lsp-keystroke-schemas` and `lsp-keystroke-no-schemas`: the
/// `lsp-keystroke` keystrokes on the synthetic module plus an openstack
/// instance, with openstack installed (its schema read before the first
/// keystroke) and without; each with the server's own analysis times.
fn keystroke_schema_cases(
    binary: &Path,
    module: &[InputFile],
    module_input: &str,
    n_keystrokes: usize,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) {
    let Some(plugins) = schemas::plugins_dir() else {
        skipped.push(
            "lsp-keystroke-schemas: neither TOFU_LENS_PROVIDER_PLUGINS nor \
             TOFU_LENS_PROVIDER_ORACLE names the providers"
                .to_owned(),
        );
        return;
    };
    let module = schemas::module_with_compute(module.to_vec());
    let install_openstack =
        |dir: &Path| schemas::install_openstack(dir, &plugins).map(|_locked| ());
    let runs: [(&'static str, &'static str, Option<&serve::Install<'_>>); 2] = [
        (
            "lsp-keystroke-no-schemas",
            "lsp-keystroke-no-schemas-server",
            None,
        ),
        (
            "lsp-keystroke-schemas",
            "lsp-keystroke-schemas-server",
            Some(&install_openstack),
        ),
    ];
    for (name, server_name, install) in runs {
        let with = if install.is_some() {
            "openstack 3.4.0 installed, its schema loaded"
        } else {
            "no provider installed"
        };
        match serve::lsp_keystroke_schemas(
            binary,
            &module,
            n_keystrokes,
            schemas::COMPUTE_FILE,
            install,
        ) {
            Ok(keystrokes) => {
                samples.push(Sample {
                    name,
                    input: format!(
                        "{module_input} + {} (an openstack instance), {with}, didChange → \
                         publishDiagnostics over stdio",
                        schemas::COMPUTE_FILE
                    ),
                    times: keystrokes.latencies,
                });
                samples.push(Sample {
                    name: server_name,
                    input: "the same keystrokes, analysis time from the server's debug log"
                        .to_owned(),
                    times: keystrokes.server_times,
                });
            }
            Err(error) => skipped.push(format!("{name}: {error}")),
        }
    }
}

/// The language servers side by side (`--peers DIR`), as a Markdown table.
fn peer_table(corpus: &Path, dir: &Path, skipped: &mut Vec<String>) {
    let binary = match serve::server_binary() {
        Ok(binary) => binary,
        Err(error) => {
            skipped.push(format!("peers: {error}"));
            return;
        }
    };
    let workspace = match peers::workspace(corpus, Path::new("examples/overrides")) {
        Ok(workspace) => workspace,
        Err(error) => {
            skipped.push(format!("peers: {error}"));
            return;
        }
    };
    let (servers, missing) = peers::servers(&binary, dir);
    skipped.extend(missing);
    println!("Language servers on one workspace (the cloudposse tree and examples/overrides), opening overrides/main.tf, override.tf and network.tf:");
    println!();
    println!("| server | first diagnostics of main.tf | peak RSS | hover p50 | hover shows override.tf's `instance_type` | diagnostics published for the example |");
    println!("| --- | ---: | ---: | ---: | --- | --- |");
    for (name, binary) in servers {
        match peers::run(&name, &binary, workspace.path()) {
            Ok(run) => {
                let shown = |d: Option<Duration>| {
                    d.map_or("none".to_owned(), |d| format!("{} ms", millis(d)))
                };
                let published: Vec<String> = run
                    .diagnostics
                    .iter()
                    .map(|(file, n)| format!("{file}: {n}"))
                    .collect();
                println!(
                    "| {} | {} | {} | {} | {} | {} |",
                    run.name,
                    shown(run.first_diagnostics),
                    run.peak_rss.map_or("–".to_owned(), |bytes| format!(
                        "{:.0} MB",
                        bytes as f64 / 1e6
                    )),
                    shown(run.hover_median),
                    if run.hover_shows_override {
                        "yes"
                    } else {
                        "no"
                    },
                    if published.is_empty() {
                        "none".to_owned()
                    } else {
                        published.join(", ")
                    }
                );
            }
            Err(error) => skipped.push(format!("peer {name}: {error}")),
        }
    }
    println!();
}

/// The scale case (`--only scale`): check and the server over 1, 10 and 50
/// copies of the corpus (`--copies`), per file, both with `server` when
/// given (`--server`); drawn to `plot` when given (`plot.rs`).
fn scale_table(
    corpus: &Path,
    copies: &[usize],
    server: Option<&Path>,
    plot: Option<&Path>,
    skipped: &mut Vec<String>,
) {
    let binary = match server.map_or_else(serve::server_binary, |server| Ok(server.to_path_buf())) {
        Ok(binary) => binary,
        Err(error) => {
            skipped.push(format!("scale: {error}"));
            return;
        }
    };
    println!(
        "Scale: N hard-linked copies of {} (check with every core; the server indexing them):",
        corpus.display()
    );
    println!();
    println!("| copies | files | check wall s | check CPU s | wall / CPU | check peak RSS MB | check wall µs / file | server indexing s | server VmHWM MB | server KB / file | indexing / check wall |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut rows = Vec::new();
    for &copies in copies {
        match scale::run(&binary, corpus, copies, true) {
            Ok(run) => {
                rows.push(plot::Row::from(&run));
                let files = run.files.max(1) as f64;
                let wall = run.check_wall.as_secs_f64();
                let cpu = run.check_cpu.as_secs_f64();
                println!(
                    "| {} | {} | {:.2} | {:.2} | {:.2} | {:.1} | {:.0} | {} | {} | {} | {} |",
                    run.copies,
                    run.files,
                    wall,
                    cpu,
                    wall / cpu.max(f64::MIN_POSITIVE),
                    run.check_peak_rss as f64 / 1e6,
                    wall * 1e6 / files,
                    run.index_time
                        .map_or("–".to_owned(), |t| format!("{:.2}", t.as_secs_f64())),
                    run.server_peak_rss
                        .map_or("–".to_owned(), |b| format!("{:.0}", b as f64 / 1e6)),
                    run.server_peak_rss.map_or("–".to_owned(), |b| format!(
                        "{:.1}",
                        b as f64 / 1e3 / files
                    )),
                    // Issue 43's acceptance: the server publishes the
                    // workspace within check's own wall time (≤ 1.0).
                    run.index_time.map_or("–".to_owned(), |t| format!(
                        "{:.2}",
                        t.as_secs_f64() / wall.max(f64::MIN_POSITIVE)
                    )),
                );
            }
            Err(error) => skipped.push(format!("scale, {copies} copies: {error}")),
        }
    }
    println!();
    let machine = machine::description();
    let caption = format!(
        "tofu-bench --only scale at {}, {}: {}",
        machine::commit(),
        machine::date(),
        machine.split(';').next().unwrap_or_default()
    );
    if let Some(Err(error)) = plot.map(|svg| plot::save(svg, &caption, &rows)) {
        skipped.push(format!("scale plot: {error}"));
    }
}

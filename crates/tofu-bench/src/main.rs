//! `cargo run --release -p tofu-bench [-- CORPUS_DIR]`: the benchmark suite of
//! issue 9, printed as a Markdown table with ratios computed in the same run.
//!
//! Cases: `parse` (the syntax layer alone over the cloudposse corpus: the
//! floor), `check-cold` (discovery, merge and every rule over the same files,
//! no cache), `edit-one` (one character changed in one file of a synthetic
//! 1,000-file module, re-analysed through the parse cache: the keystroke path)
//! against `check-full-module` (the same module from a cold cache). Absolute
//! times on a shared machine are noisy; the ratios are what we track.

// A command-line tool: its report goes to stdout.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod synthetic;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tofu_module::{analyze, Config, FileContent, InputFile, ParseCache};

/// Timings of one case: median and spread over the runs.
struct Sample {
    name: &'static str,
    input: String,
    times: Vec<Duration>,
}

impl Sample {
    fn median(&self) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort();
        sorted.get(sorted.len() / 2).copied().unwrap_or_default()
    }

    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort();
        let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted.get(index).copied().unwrap_or_default()
    }
}

fn measure(name: &'static str, input: String, runs: usize, mut work: impl FnMut()) -> Sample {
    work(); // warm-up: page cache, allocator
    let times = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    Sample { name, input, times }
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

fn text_of(file: &InputFile) -> &str {
    match &file.content {
        FileContent::Text(text) => text,
        FileContent::InvalidUtf8 { text, .. } => text,
        FileContent::Unreadable { .. } => "",
    }
}

fn millis(duration: Duration) -> String {
    format!("{:.3}", duration.as_secs_f64() * 1000.0)
}

fn main() {
    // Arguments: [CORPUS_DIR] [--only CASE] (--only runs one case, many times, for profiling).
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    let runs = |n: usize| if only.is_some() { n * 20 } else { n };
    if !corpus.is_dir() {
        eprintln!(
            "tofu-bench: {} is not a directory (pass the cloudposse corpus folder)",
            corpus.display()
        );
        std::process::exit(2);
    }
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
                std::hint::black_box(analyze(files, &config, &mut ParseCache::new()));
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
                std::hint::black_box(analyze(&module, &config, &mut ParseCache::new()));
            },
        ));
    }
    let mut cache = ParseCache::new();
    let _ = analyze(&module, &config, &mut cache);
    let mut edited = module.clone();
    let mut keystroke = 0usize;
    if wanted("edit-one") {
        samples.push(measure("edit-one", module_input.clone(), runs(51), || {
            keystroke += 1;
            if let Some(file) = edited.get_mut(keystroke % 97) {
                let mut text = text_of(file).to_owned();
                text.push_str(if keystroke % 2 == 0 { "#" } else { "\n" });
                file.content = FileContent::Text(text.into());
            }
            std::hint::black_box(analyze(&edited, &config, &mut cache));
        }));
    }

    println!("| case | input | median ms | p10 ms | p90 ms | runs |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for sample in &samples {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            sample.name,
            sample.input,
            millis(sample.median()),
            millis(sample.percentile(0.1)),
            millis(sample.percentile(0.9)),
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
    println!("| ratio | value | target |");
    println!("| --- | ---: | --- |");
    println!(
        "| check-cold / parse | {:.2} | ≤ 1.5 |",
        median("check-cold") / median("parse")
    );
    println!(
        "| check-full-module / edit-one | {:.1} | ≥ 100 |",
        median("check-full-module") / median("edit-one")
    );
}

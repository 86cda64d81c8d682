//! The formatting cases: `fmt-tree` (`tofu-lens fmt --check --recursive`
//! over the cloudposse tree, a process per run, as a user runs it) against
//! `tofu-fmt-tree` (OpenTofu's `tofu fmt -check -recursive` on the same tree,
//! when `TOFU_LENS_ORACLE_DIR` holds it), and `fmt-1000-lines` (the engine in
//! process on a 1,007-line file with its indentation and alignment removed)
//! against `parse-1000-lines` (the parser alone on the same text). Check mode
//! writes nothing, so the corpus stays as it is.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tofu_module::InputFile;

use crate::sample::{measure, Sample};
use crate::synthetic::text_of;

/// OpenTofu's binary, from `TOFU_LENS_ORACLE_DIR`.
pub fn oracle() -> Option<PathBuf> {
    let dir = std::env::var_os("TOFU_LENS_ORACLE_DIR")?;
    let binary = Path::new(&dir).join("tofu");
    binary.is_file().then_some(binary)
}

/// Runs `command` `runs` times (after a warm-up run), timing each.
pub fn time_process(
    name: &'static str,
    input: String,
    runs: usize,
    mut command: impl FnMut() -> Command,
) -> Result<Sample, String> {
    let mut run = || -> Result<Duration, String> {
        let start = Instant::now();
        let status = command()
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|error| format!("cannot run {name}: {error}"))?;
        // 0: nothing to change; 3: --check found files to change.
        if !matches!(status.code(), Some(0 | 3)) {
            return Err(format!("{name} exited with {status}"));
        }
        Ok(start.elapsed())
    };
    run()?;
    let times = (0..runs).map(|_| run()).collect::<Result<Vec<_>, _>>()?;
    Ok(Sample { name, input, times })
}

pub fn tree_cases(
    binary: &Path,
    corpus: &Path,
    corpus_input: &str,
    runs: usize,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) {
    let ours = time_process(
        "fmt-tree",
        format!("{corpus_input}, tofu-lens fmt --check --recursive"),
        runs,
        || {
            let mut command = Command::new(binary);
            command
                .args(["fmt", "--check", "--recursive", "--list=false"])
                .arg(corpus);
            command
        },
    );
    match ours {
        Ok(sample) => samples.push(sample),
        Err(error) => skipped.push(format!("fmt-tree: {error}")),
    }
    let Some(tofu) = oracle() else {
        skipped.push("tofu-fmt-tree: TOFU_LENS_ORACLE_DIR holds no tofu binary".to_owned());
        return;
    };
    let theirs = time_process(
        "tofu-fmt-tree",
        format!("{corpus_input}, tofu fmt -check -recursive (OpenTofu 1.12.6)"),
        runs,
        || {
            let mut command = Command::new(&tofu);
            command
                .args(["fmt", "-check", "-recursive", "-list=false"])
                .arg(corpus)
                .env("TF_CLI_CONFIG_FILE", "/dev/null");
            command
        },
    );
    match theirs {
        Ok(sample) => samples.push(sample),
        Err(error) => skipped.push(format!("tofu-fmt-tree: {error}")),
    }
}

/// `big.tf` of the editing module with its indentation and alignment gone.
pub fn unformatted_big_file(module: &[InputFile]) -> String {
    let Some(big) = module.iter().find(|file| file.name == "big.tf") else {
        return String::new();
    };
    text_of(big)
        .lines()
        .map(|line| {
            let line = line.trim_start();
            match line.split_once('=') {
                Some((name, value)) if !name.contains('"') => {
                    format!("{}={}\n", name.trim_end(), value)
                }
                _ => format!("{line}\n"),
            }
        })
        .collect()
}

pub fn file_cases(text: &str, runs: usize, samples: &mut Vec<Sample>) {
    let input = format!(
        "big.tf unindented and unaligned ({} lines, {:.1} kB)",
        text.lines().count(),
        text.len() as f64 / 1e3
    );
    samples.push(measure("fmt-1000-lines", input.clone(), runs, || {
        std::hint::black_box(tofu_fmt::format(text)).ok();
    }));
    samples.push(measure("parse-1000-lines", input, runs, || {
        std::hint::black_box(tofu_syntax::parse("big.tf", text));
    }));
}

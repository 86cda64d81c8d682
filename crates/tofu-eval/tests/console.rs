//! Data-driven console tests: each file of `tests/console/` holds cases
//! `> EXPRESSION` followed by the lines `tofu console` (OpenTofu 1.12.6)
//! printed for it, values or errors (errors as `Error: SUMMARY`, a blank
//! line and the detail on one line, a Go stack trace as `<stack trace>`).
//! The test needs no oracle; with
//! `UPDATE_EXPECT=1` and `TOFU_LENS_ORACLE_DIR` holding `bin/tofu`, the
//! expectations are rewritten from the real console.
//!
//! Both consoles run in `tests/console/files/`, whose files the file
//! functions (`file`, `templatefile`, …) read.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use tofu_eval::console::console_line;
use tofu_eval::{DirEntry, EntryKind, Environment, FileError};

/// The directory both consoles run in.
fn files_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/console/files")
}

/// A copy of [`files_dir`] for the real console, which writes a state
/// file where it runs.
fn oracle_dir() -> PathBuf {
    let copy = std::env::temp_dir().join(format!("tofu-lens-console-{}", std::process::id()));
    if !copy.exists() {
        copy_dir(&files_dir(), &copy);
    }
    copy
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), target).unwrap();
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Files read from [`files_dir`], as the tofu-lens console reads a module
/// directory.
struct FilesDir;

impl Environment for FilesDir {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        let path = files_dir().join(path);
        if path.is_dir() {
            return Err(FileError::IsDirectory);
        }
        std::fs::read(path).map_err(|_| FileError::NotFound)
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        let path = files_dir().join(path);
        if path.is_dir() {
            return Err(FileError::IsDirectory);
        }
        Ok(path.is_file())
    }

    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        let entries = std::fs::read_dir(files_dir().join(path)).map_err(|_| FileError::NotFound)?;
        Ok(entries
            .map(|entry| {
                let entry = entry.unwrap();
                let kind = entry.file_type().unwrap();
                DirEntry {
                    name: entry.file_name().to_string_lossy().into_owned(),
                    kind: if kind.is_dir() {
                        EntryKind::Directory
                    } else if kind.is_file() {
                        EntryKind::File
                    } else {
                        EntryKind::Other
                    },
                }
            })
            .collect())
    }
}

fn case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/console");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    files
}

fn parse_cases(text: &str) -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = Vec::new();
    for line in text.split('\n') {
        if let Some(expression) = line.strip_prefix("> ") {
            cases.push((expression.to_owned(), String::new()));
        } else if let Some((_, expected)) = cases.last_mut() {
            if !expected.is_empty() {
                expected.push('\n');
            }
            expected.push_str(line);
        }
    }
    for (_, expected) in &mut cases {
        *expected = expected.trim_end().to_owned();
    }
    cases
}

/// The real console's output for one expression, errors normalised to
/// the form above.
fn oracle_output(tofu: &Path, expression: &str) -> String {
    let output = Command::new(tofu)
        .args(["console", "-no-color"])
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .current_dir(oracle_dir())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("{expression}\n").as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout)
        .trim_end()
        .to_owned();
    if output.status.success() {
        return stdout;
    }
    normalise_errors(&String::from_utf8_lossy(&output.stderr))
}

/// `Error: SUMMARY` blocks of the console's stderr, each with its detail
/// joined into one line, a Go stack trace cut out.
pub fn normalise_errors(stderr: &str) -> String {
    let mut blocks = Vec::new();
    for block in stderr.split("Error: ").skip(1) {
        let mut lines = block.lines();
        let summary = lines.next().unwrap_or_default().trim().to_owned();
        let detail: Vec<&str> = lines
            .filter(|line| {
                let line = line.trim();
                !line.starts_with("on <console-input>") && line != "(source code not available)"
            })
            .flat_map(str::split_whitespace)
            .collect();
        blocks.push(format!(
            "Error: {summary}\n\n{}",
            without_stack_trace(&detail.join(" "))
        ));
    }
    blocks.join("\n\n")
}

/// A Go panic's detail (cty's `PanicError`) up to `goroutine N
/// [running]:`: the frames after it carry heap addresses, different on
/// every run; the ` .` that closes the detail is kept.
fn without_stack_trace(detail: &str) -> String {
    const STACK_START: &str = " [running]:";
    let Some(at) = detail.find(STACK_START) else {
        return detail.to_owned();
    };
    let (head, tail) = detail.split_at(at + STACK_START.len());
    let closing = if tail.ends_with(" .") { " ." } else { "" };
    format!("{head} <stack trace>{closing}")
}

fn ours(expression: &str) -> String {
    let printed = console_line(expression, &FilesDir);
    if !printed.starts_with("Error: ") {
        return printed;
    }
    normalise_errors(&printed)
}

#[test]
fn console_prints_what_tofu_console_prints() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let oracle =
        std::env::var_os("TOFU_LENS_ORACLE_DIR").map(|dir| PathBuf::from(dir).join("bin/tofu"));
    let mut failures = Vec::new();
    let mut n_cases = 0;
    for file in case_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut cases = parse_cases(&text);
        if let (true, Some(tofu)) = (update, &oracle) {
            for (expression, expected) in &mut cases {
                *expected = oracle_output(tofu, expression);
            }
            let mut rewritten = String::new();
            for (expression, expected) in &cases {
                rewritten.push_str(&format!("> {expression}\n{expected}\n"));
            }
            std::fs::write(&file, rewritten).unwrap();
        }
        for (expression, expected) in &cases {
            n_cases += 1;
            let actual = ours(expression);
            if actual != *expected {
                failures.push(format!(
                    "{}: > {expression}\n--- expected\n{expected}\n--- actual\n{actual}",
                    file.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(n_cases > 50, "only {n_cases} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A template that renders itself stops after a few levels
/// with an unknown value (OpenTofu reports "maximum recursion depth 1024
/// reached" after 1,024 levels): no stack overflow.
#[test]
fn a_template_that_includes_itself_ends() {
    assert_eq!(
        console_line("templatefile(\"self.tftpl\", {})", &FilesDir),
        "(known after apply)"
    );
}

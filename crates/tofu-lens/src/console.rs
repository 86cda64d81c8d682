//! `tofu-lens console [DIR]`: reads one expression a line and prints its
//! value as `tofu console -no-color` does when its input is not a terminal,
//! without `init` and without providers. Values go to stdout; the first line
//! with errors prints them to stderr (OpenTofu's plain diagnostic form, the
//! detail wrapped at 77 columns) and ends the session with exit code 1, as
//! the console does when it reads a pipe.
//!
//! In a module directory the module's input variables and local values are
//! known as tofu-module's `ModuleValues` knows them (a `.tfvars` file
//! OpenTofu loads by itself, else the default, converted to the variable's
//! type); a variable or local value whose evaluation fails is unknown.
//! Files (`file`, `fileexists`, `fileset`, `templatefile`, …) are read
//! relative to DIR, and
//! `path.cwd` is the directory the console runs in. Only here do `timestamp`,
//! `uuid` and `bcrypt` get the clock and the operating system's random
//! bytes ([`ConsoleDirectory`]), as in `tofu console`; `check`, hover and
//! the server keep them unknown, as `tofu validate` does.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use tofu_diagnostics::{analyze, AnalysisCache};
use tofu_eval::console::{console_value, ConsoleModule, NoModule};
use tofu_eval::{DirEntry, Environment, EvalDiagnostic, FileError, PerRun};
use tofu_module::{Config, ModuleValues};

/// Runs the console over `input` in `dir` (or a directory without
/// configuration); `false` when a line had errors.
pub fn run(
    dir: Option<&Path>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> std::io::Result<bool> {
    let base = dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let environment = ConsoleDirectory::new(base);
    let analysis = match dir {
        Some(dir) => Some(analyze(
            &tofu_vfs::read_module_dir(dir)?,
            &Config::default(),
            &mut AnalysisCache::new(),
        )),
        None => None,
    };
    let module_values = analysis
        .as_ref()
        .map(|analysis| ModuleValues::new(analysis, &environment));
    let module: &dyn ConsoleModule = match &module_values {
        Some(values) => values,
        None => &NoModule,
    };
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(true);
        }
        let expression = line.trim_end_matches(['\n', '\r']);
        if expression.trim().is_empty() {
            continue;
        }
        match console_value(expression, &environment, module) {
            Ok(printed) => writeln!(out, "{printed}")?,
            Err(found) => {
                for error in &found {
                    write!(errors, "{}", plain_diagnostic(error))?;
                    writeln!(errors)?;
                }
                return Ok(false);
            }
        }
    }
}

/// OpenTofu's `DiagnosticPlain` for an error of the console's input, whose
/// source it does not show.
fn plain_diagnostic(error: &EvalDiagnostic) -> String {
    let mut text = format!(
        "\nError: {}\n\n  on <console-input> line 1:\n  (source code not available)\n\n",
        error.summary
    );
    if !error.detail.is_empty() {
        for line in error.detail.split('\n') {
            if line.starts_with(' ') {
                text.push_str(line);
            } else {
                text.push_str(&word_wrap(line, DETAIL_WIDTH));
            }
            text.push('\n');
        }
    }
    text
}

/// The console's width when it does not write to a terminal, less one.
const DETAIL_WIDTH: usize = 77;

/// `github.com/mitchellh/go-wordwrap`'s `WrapString`: breaks at spaces so
/// no line is longer than `limit` characters unless one word is.
fn word_wrap(text: &str, limit: usize) -> String {
    let mut wrapped = String::with_capacity(text.len());
    let mut current = 0;
    let mut word = String::new();
    let mut spaces = String::new();
    let (mut n_word, mut n_spaces) = (0, 0);
    for character in text.chars() {
        if character.is_whitespace() && character != '\u{a0}' {
            if spaces.is_empty() || !word.is_empty() {
                current += n_spaces + n_word;
                wrapped.push_str(&spaces);
                wrapped.push_str(&word);
                spaces.clear();
                word.clear();
                (n_spaces, n_word) = (0, 0);
            }
            spaces.push(character);
            n_spaces += 1;
        } else {
            word.push(character);
            n_word += 1;
            if current + n_word + n_spaces > limit && n_word < limit {
                wrapped.push('\n');
                current = 0;
                spaces.clear();
                n_spaces = 0;
            }
        }
    }
    if word.is_empty() {
        if current + n_spaces <= limit {
            wrapped.push_str(&spaces);
        }
    } else {
        wrapped.push_str(&spaces);
        wrapped.push_str(&word);
    }
    wrapped
}

/// What the console's functions read: files relative to the console's
/// directory (tofu-vfs reads them), the working and home directories, the
/// clock and random bytes.
pub struct ConsoleDirectory(tofu_vfs::DirectoryFiles);

impl ConsoleDirectory {
    pub fn new(base: PathBuf) -> ConsoleDirectory {
        ConsoleDirectory(tofu_vfs::DirectoryFiles::new(base))
    }
}

impl Environment for ConsoleDirectory {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        self.0.read_file(path)
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        self.0.file_exists(path)
    }

    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        self.0.read_dir(path)
    }

    fn console_mode(&self) -> bool {
        true
    }

    fn working_directory(&self) -> Option<String> {
        std::env::current_dir()
            .ok()
            .map(|directory| directory.to_string_lossy().into_owned())
    }

    fn home_directory(&self) -> Option<String> {
        std::env::var("HOME").ok()
    }

    fn per_run(&self) -> Option<&dyn PerRun> {
        Some(&ClockAndRandomness)
    }
}

/// The system clock and the operating system's random source (getrandom,
/// what Go's `crypto/rand` reads too).
struct ClockAndRandomness;

impl PerRun for ClockAndRandomness {
    fn now_unix_nanos(&self) -> i128 {
        let now = std::time::SystemTime::now();
        match now.duration_since(std::time::UNIX_EPOCH) {
            Ok(since) => i128::try_from(since.as_nanos()).unwrap_or(i128::MAX),
            Err(before) => -i128::try_from(before.duration().as_nanos()).unwrap_or(i128::MAX),
        }
    }

    fn fill_random(&self, bytes: &mut [u8]) -> bool {
        getrandom::fill(bytes).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::word_wrap;

    #[test]
    fn wraps_details_as_opentofu_does() {
        let detail = "Invalid value for \"v\" parameter: cannot convert \"abc\" to number; given string must be a decimal representation of a number.";
        assert_eq!(
            word_wrap(detail, 77),
            "Invalid value for \"v\" parameter: cannot convert \"abc\" to number; given string\nmust be a decimal representation of a number."
        );
    }
}

//! `tofu-lens console [DIR]`: reads one expression a line and prints its
//! value as `tofu console -no-color` does when its input is not a terminal,
//! without `init` and without providers. Values go to stdout; the first line
//! with errors prints them to stderr (OpenTofu's plain diagnostic form, the
//! detail wrapped at 77 columns) and ends the session with exit code 1, as
//! the console does when it reads a pipe.
//!
//! In a module directory the module's input variables and local values are
//! known as the console knows them: a variable takes the value the last
//! `.tfvars` file OpenTofu loads gives it (`terraform.tfvars`, then the
//! `*.auto.tfvars` files by name), else its default, else it is unknown;
//! a local value is its expression evaluated in the same way. Everything
//! else a module declares (resources, module calls, data sources) is unknown.
//! Files (`file`, `fileexists`, `fileset`, `templatefile`, …) are read
//! relative to DIR.
//!
//! Left out: a variable's type constraint is not applied to its value
//! (`default = 1` under `type = string` prints `1`, OpenTofu `"1"`).

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use tofu_eval::console::{console_value, ConsoleModule, NoModule};
use tofu_eval::functions::suggest::nearest_name;
use tofu_eval::{
    evaluate, DirEntry, EntryKind, Environment, EvalDiagnostic, FileError, Reference, Referenced,
    Scope,
};
use tofu_module::{
    analyze, AnalysisCache, BlockAddress, Config, FileRole, ModuleAnalysis, ModuleFile,
};
use tofu_syntax::{Expr, TextRange, TraversalStep};

/// Runs the console over `input` in `dir` (or a directory without
/// configuration); `false` when a line had errors.
pub fn run(
    dir: Option<&Path>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> std::io::Result<bool> {
    let base = dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let environment = Directory(base);
    let analysis = match dir {
        Some(dir) => Some(analyze(
            &tofu_vfs::read_module_dir(dir)?,
            &Config::default(),
            &mut AnalysisCache::new(),
        )),
        None => None,
    };
    let module_values = analysis.as_ref().map(|analysis| ModuleValues {
        analysis,
        environment: &environment,
        evaluating: RefCell::new(Vec::new()),
    });
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

/// Files relative to the console's directory.
struct Directory(PathBuf);

impl Environment for Directory {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        let target = self.0.join(path);
        match std::fs::read(&target) {
            Ok(bytes) => Ok(bytes),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(FileError::NotFound),
            Err(_) if target.is_dir() => Err(FileError::IsDirectory),
            Err(error) => Err(FileError::Other(error.to_string())),
        }
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        let target = self.0.join(path);
        if target.is_dir() {
            return Err(FileError::IsDirectory);
        }
        Ok(target.is_file())
    }

    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        let entries = match std::fs::read_dir(self.0.join(path)) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(FileError::NotFound)
            }
            Err(error) => return Err(FileError::Other(error.to_string())),
        };
        Ok(entries
            .filter_map(Result::ok)
            .map(|entry| {
                let kind = entry.file_type().ok();
                DirEntry {
                    name: entry.file_name().to_string_lossy().into_owned(),
                    kind: match kind {
                        Some(kind) if kind.is_dir() => EntryKind::Directory,
                        Some(kind) if kind.is_file() => EntryKind::File,
                        _ => EntryKind::Other,
                    },
                }
            })
            .collect())
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
}

/// The variables and local values of the console's module.
struct ModuleValues<'a> {
    analysis: &'a ModuleAnalysis,
    environment: &'a Directory,
    /// The local values being evaluated, innermost last (a cycle gives an
    /// unknown value).
    evaluating: RefCell<Vec<String>>,
}

impl ModuleValues<'_> {
    fn variable(&self, name: &str) -> Option<tofu_eval::Value> {
        let declared = self
            .analysis
            .effective
            .get(&BlockAddress::Variable(name.to_owned()))?;
        let from_values_file = self.values_files().into_iter().rev().find_map(|file| {
            let source = file.source.as_ref()?;
            let attribute = source.body.attribute(name)?;
            Some(self.evaluate(&attribute.expr))
        });
        if let Some(value) = from_values_file {
            return Some(value);
        }
        let default = declared.body.attribute("default").and_then(|attribute| {
            let file = self.analysis.file(attribute.origin.file)?;
            Some(self.evaluate(&file.attribute_at(attribute.origin.range)?.expr))
        });
        Some(default.unwrap_or_else(tofu_eval::Value::dynamic_unknown))
    }

    /// `terraform.tfvars` (and its JSON form), then the `*.auto.tfvars`
    /// files by name: later ones win.
    fn values_files(&self) -> Vec<&ModuleFile> {
        let mut files: Vec<&ModuleFile> = self
            .analysis
            .loaded
            .files
            .iter()
            .filter(|file| file.role == FileRole::Values)
            .collect();
        files.sort_by_key(|file| {
            (
                !file.name.starts_with("terraform.tfvars"),
                file.name.clone(),
            )
        });
        files
    }

    fn local(&self, name: &str) -> Option<tofu_eval::Value> {
        let local = self.analysis.effective.local(name)?;
        if self.evaluating.borrow().iter().any(|open| open == name) {
            return Some(tofu_eval::Value::dynamic_unknown());
        }
        let expr = self
            .analysis
            .file(local.attribute.origin.file)
            .and_then(|file| file.attribute_at(local.attribute.origin.range))
            .map(|attribute| &attribute.expr)?;
        self.evaluating.borrow_mut().push(name.to_owned());
        let value = self.evaluate(expr);
        self.evaluating.borrow_mut().pop();
        Some(value)
    }

    /// A module expression's value; unknown when evaluating it fails.
    fn evaluate(&self, expr: &Expr) -> tofu_eval::Value {
        let evaluation = evaluate(expr, &ModuleScope(self));
        if evaluation.diagnostics.is_empty() {
            evaluation.value
        } else {
            tofu_eval::Value::dynamic_unknown()
        }
    }
}

impl ConsoleModule for ModuleValues<'_> {
    fn value(&self, root: &str, name: &str) -> Option<tofu_eval::Value> {
        match root {
            "var" => self.variable(name),
            "local" => self.local(name),
            _ => None,
        }
    }

    fn suggest(&self, root: &str, name: &str) -> Option<String> {
        let effective = &self.analysis.effective;
        let found = match root {
            "var" => nearest_name(
                name,
                effective
                    .blocks
                    .iter()
                    .filter_map(|block| match &block.address {
                        BlockAddress::Variable(declared) => Some(declared.as_str()),
                        _ => None,
                    }),
            ),
            _ => nearest_name(
                name,
                effective.locals.iter().map(|local| local.name.as_str()),
            ),
        };
        found.map(str::to_owned)
    }
}

/// How a variable's or local value's expression sees the module: its
/// variables and locals, `path.*` as `.`, anything else unknown.
struct ModuleScope<'m, 'a>(&'m ModuleValues<'a>);

impl Scope for ModuleScope<'_, '_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let name = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let value = match (reference.root, name) {
            ("path", Some(_)) => Some(tofu_eval::Value::string(".")),
            ("terraform", Some("workspace")) => Some(tofu_eval::Value::string("default")),
            (root @ ("var" | "local"), Some(name)) => self.0.value(root, name),
            _ => None,
        };
        Ok(match value {
            Some(value) => Referenced { value, n_steps: 1 },
            None => Referenced {
                value: tofu_eval::Value::dynamic_unknown(),
                n_steps: reference.steps.len(),
            },
        })
    }

    fn environment(&self) -> &dyn Environment {
        self.0.environment
    }

    fn describe_range(&self, _range: TextRange) -> String {
        String::new()
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

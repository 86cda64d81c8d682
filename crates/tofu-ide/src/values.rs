//! Values where people read: the value of a local value, an input variable
//! or an output, as `tofu console` prints it in the module directory
//! (`tofu_eval::format_value`), for hover, evaluated in tofu-module's
//! [`ModuleValues`] (which says what is known and what is left out).
//! `path.cwd` is the module directory; functions that read files read
//! them through the [`ModuleFiles`] the caller gave the snapshot
//! (`Snapshot::with_module_files`; none: their results are unknown): the
//! engine does no IO. Only what the
//! hovered name needs is evaluated, so a hover costs what its expression
//! reaches, not the module's size.

use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_eval::{format_value, DirEntry, Environment, FileError, Value};
use tofu_module::reference_sites::RefTarget;
use tofu_module::{ModuleFiles, ModuleValues, VariableSource};

/// `markdown` with the value paragraph for `target` below a rule, if any:
/// its value as `tofu console` prints it, and where a variable's value
/// comes from. None for other targets, and when evaluating gives errors
/// (validation reports them).
pub(crate) fn with_value_note(
    mut markdown: String,
    analysis: &ModuleAnalysis,
    dir: &Path,
    files: &ModuleFiles,
    target: &RefTarget,
) -> String {
    if let Some(note) = value_note(analysis, dir, files, target) {
        markdown.push_str("\n---\n\n");
        markdown.push_str(&note);
    }
    markdown
}

fn value_note(
    analysis: &ModuleAnalysis,
    dir: &Path,
    files: &ModuleFiles,
    target: &RefTarget,
) -> Option<String> {
    let unknown = || Ok(Value::dynamic_unknown());
    let (value, source) = with_values(analysis, dir, files, |values| {
        Some(match target {
            RefTarget::Local(name) => (values.local(name).unwrap_or_else(unknown).ok()?, None),
            RefTarget::Variable(name) => {
                let (value, source) = values
                    .variable(name)
                    .unwrap_or_else(|| (unknown(), VariableSource::Unset));
                (value.ok()?, Some(source))
            }
            RefTarget::Output(name) => (values.output(name)?.ok()?, None),
            _ => return None,
        })
    })?;
    let heading = match source {
        Some(VariableSource::Values(file)) => format!("Value (set in `{file}`)"),
        Some(VariableSource::CommandLine) => "Value (set with `-var`)".to_owned(),
        Some(VariableSource::Environment) => match target {
            RefTarget::Variable(name) => format!("Value (set by `TF_VAR_{name}`)"),
            _ => "Value".to_owned(),
        },
        Some(VariableSource::Default) => "Value (its default)".to_owned(),
        Some(VariableSource::Unset) => "Value (no default, no `.tfvars` file sets it)".to_owned(),
        None => "Value".to_owned(),
    };
    Some(format!(
        "{heading}, as `tofu console` prints it:\n\n```hcl\n{}\n```\n",
        format_value(&value)
    ))
}

/// The known value of `attribute` (an effective attribute of any block,
/// a resource's `for_each` say) with the module's values; `None` when it
/// gives errors.
pub(crate) fn attribute_value(
    analysis: &ModuleAnalysis,
    dir: &Path,
    files: &ModuleFiles,
    attribute: &tofu_module::EffectiveAttribute,
) -> Option<Value> {
    with_values(analysis, dir, files, |values| {
        values.attribute(attribute)?.ok()
    })
}

/// The known value of `expr`, written in the native file `file` of the
/// module; `None` when it gives errors.
pub(crate) fn expression_value(
    analysis: &ModuleAnalysis,
    dir: &Path,
    files: &ModuleFiles,
    file: tofu_syntax::FileId,
    expr: &tofu_syntax::Expr,
) -> Option<Value> {
    with_values(analysis, dir, files, |values| {
        values.expression(file, expr).ok()
    })
}

/// `read` of the module's values as plan reads them (the values files and
/// the values the user names), functions reading `files` in `dir`.
fn with_values<T>(
    analysis: &ModuleAnalysis,
    dir: &Path,
    files: &ModuleFiles,
    read: impl FnOnce(&ModuleValues<'_>) -> T,
) -> T {
    let environment = ModuleDirectory {
        dir,
        files: files.environment(),
    };
    read(&ModuleValues::new(analysis, &environment).with_given_values(&analysis.given_values))
}

/// The module directory as hover's functions see it: the working
/// directory (`path.cwd`), its files as the caller reads them.
struct ModuleDirectory<'d> {
    dir: &'d Path,
    files: &'d dyn Environment,
}

impl Environment for ModuleDirectory<'_> {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        self.files.read_file(path)
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        self.files.file_exists(path)
    }

    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        self.files.read_dir(path)
    }

    fn working_directory(&self) -> Option<String> {
        Some(self.dir.to_string_lossy().into_owned())
    }
}

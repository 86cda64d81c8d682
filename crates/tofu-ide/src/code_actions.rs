//! Code actions: the engine's suggested fixes (`Diagnostic::fix`) offered as
//! quick fixes for the diagnostics that touch the requested range.
//!
//! Nothing is invented here: a diagnostic without a fix gives no action. The
//! edits may reach into other files of the module; they are byte ranges in the
//! texts the analysis saw.

use std::path::Path;

use tofu_syntax::TextRange;

use crate::diagnostics::{EditorDiagnostic, FileEdit, FileRange};
use crate::snapshot::Snapshot;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    /// The diagnostic the action fixes.
    pub diagnostic: EditorDiagnostic,
    pub edits: Vec<FileEdit>,
    /// Files to create, with their text.
    pub new_files: Vec<(std::path::PathBuf, String)>,
    /// A safe fix (one `check --fix` would apply) is the preferred action.
    pub is_preferred: bool,
}

impl Snapshot {
    /// Quick fixes for the diagnostics of the file at `path` whose range
    /// overlaps `range` (touching counts, so a cursor at either end qualifies).
    pub fn code_actions(&self, path: &Path, range: TextRange) -> Vec<CodeAction> {
        let Some(file) = self.file_diagnostics(path) else {
            return Vec::new();
        };
        file.diagnostics
            .into_iter()
            .filter(|diagnostic| {
                diagnostic.range.start <= range.end && range.start <= diagnostic.range.end
            })
            .filter_map(|diagnostic| {
                let fix = diagnostic.fix.clone()?;
                Some(CodeAction {
                    title: fix.title,
                    edits: fix.edits,
                    new_files: fix.new_files,
                    is_preferred: fix.safe,
                    diagnostic,
                })
            })
            .collect()
    }
}

/// A quick fix that edits nothing: it shows where a failed validation's
/// value is given (the values file line, or the default), the related
/// place plan's diagnostic names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoToValue {
    pub title: String,
    pub diagnostic: EditorDiagnostic,
    pub target: FileRange,
}

/// The codes whose related place says where the failing value is given.
const VALUE_CODES: [&str; 1] = ["plan-variable-validation"];

impl Snapshot {
    /// "Go to the value" actions for the diagnostics of the file at `path`
    /// that overlap `range` and relate the value that failed.
    pub fn value_sources(&self, path: &Path, range: TextRange) -> Vec<GoToValue> {
        let Some(file) = self.file_diagnostics(path) else {
            return Vec::new();
        };
        file.diagnostics
            .into_iter()
            .filter(|diagnostic| {
                diagnostic.range.start <= range.end
                    && range.start <= diagnostic.range.end
                    && VALUE_CODES.contains(&diagnostic.code.as_str())
            })
            .filter_map(|diagnostic| {
                let related = diagnostic.related.iter().find(|related| {
                    related.message.ends_with("is given its value here")
                        || related.message.ends_with("has its default value here")
                })?;
                let target = related.location.clone();
                let name = target.path.file_name()?.to_str()?.to_owned();
                let start = usize::try_from(target.range.start).ok()?;
                let line = target.text.get(..start)?.matches('\n').count() + 1;
                let subject = related
                    .message
                    .split(' ')
                    .next()
                    .unwrap_or("the variable")
                    .to_owned();
                Some(GoToValue {
                    title: format!("Go to the value of {subject} ({name}:{line})"),
                    diagnostic,
                    target,
                })
            })
            .collect()
    }
}

//! Code actions: the engine's suggested fixes (`Diagnostic::fix`) offered as
//! quick fixes for the diagnostics that touch the requested range.
//!
//! Nothing is invented here: a diagnostic without a fix gives no action. The
//! edits may reach into other files of the module; they are byte ranges in the
//! texts the analysis saw.

use std::path::Path;

use tofu_syntax::TextRange;

use crate::diagnostics::{EditorDiagnostic, FileEdit};
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

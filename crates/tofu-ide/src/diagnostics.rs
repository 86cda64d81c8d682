//! The editor-facing data every feature shares: file ranges that carry the
//! text they refer to, and diagnostics ready to publish, converted from the
//! engine's diagnostics of one module.
//!
//! A [`FileRange`] holds the text its byte range was computed on, so that the
//! protocol layer converts it to lines and columns against exactly that text,
//! even when the editor buffer has moved on since.

use std::path::PathBuf;
use std::sync::Arc;

use tofu_syntax::{Code, Diagnostic, FileId, Location, Severity, TextRange};

use crate::analysed_module::AnalysedModule;

/// A byte range in one file, with the text it refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRange {
    pub path: PathBuf,
    pub text: Arc<str>,
    pub range: TextRange,
}

/// An entry of a diagnostic's related information.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelatedLocation {
    pub location: FileRange,
    pub message: String,
}

/// One text replacement of a fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEdit {
    pub location: FileRange,
    pub new_text: String,
}

/// A diagnostic as an editor shows it. The range is never empty when the file
/// is not (zero-width ranges are widened to one character).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorDiagnostic {
    pub code: Code,
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    pub range: TextRange,
    pub related: Vec<RelatedLocation>,
    /// The whole file is dead weight for OpenTofu (`file-shadowed`, `file-ignored`).
    pub unnecessary: bool,
    pub fix: Option<EditorFix>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorFix {
    pub title: String,
    pub edits: Vec<FileEdit>,
    /// Files the fix creates (paths that do not exist yet), with their text.
    pub new_files: Vec<(PathBuf, String)>,
    pub safe: bool,
}

/// Everything to publish for one file of a module.
#[derive(Clone, Debug)]
pub struct FileDiagnostics {
    pub path: PathBuf,
    /// The editor buffer's version when the analysis used a buffer for this file.
    pub version: Option<i32>,
    pub text: Arc<str>,
    pub diagnostics: Vec<EditorDiagnostic>,
}

pub(crate) fn file_range(
    module: &AnalysedModule,
    file: FileId,
    range: TextRange,
) -> Option<FileRange> {
    let file = module.analysis.file(file)?;
    Some(FileRange {
        path: module.path_of(&file.name),
        text: Arc::clone(&file.text),
        range,
    })
}

fn location_range(module: &AnalysedModule, location: Location) -> Option<FileRange> {
    let text = &module.analysis.file(location.file)?.text;
    let range = location.range.unwrap_or_default().widened(text);
    file_range(module, location.file, range)
}

pub(crate) fn editor_diagnostic(
    module: &AnalysedModule,
    diagnostic: &Diagnostic,
) -> Option<EditorDiagnostic> {
    // A diagnostic about the directory itself has no place in a file.
    diagnostic.subject.range?;
    let subject = location_range(module, diagnostic.subject)?;
    let related = diagnostic
        .related
        .iter()
        .filter_map(|related| {
            Some(RelatedLocation {
                location: location_range(module, related.location)?,
                message: related.message.clone(),
            })
        })
        .chain(
            diagnostic
                .related_outside
                .iter()
                .map(|related| RelatedLocation {
                    location: FileRange {
                        path: tofu_module::calls::normalize_path(&module.path_of(&related.path)),
                        text: Arc::clone(&related.text),
                        range: related.range.widened(&related.text),
                    },
                    message: related.message.clone(),
                }),
        )
        .collect();
    let fix = diagnostic.fix.as_ref().map(|fix| EditorFix {
        title: fix.title.clone(),
        edits: fix
            .edits
            .iter()
            .filter_map(|edit| {
                Some(FileEdit {
                    location: file_range(module, edit.file, edit.range)?,
                    new_text: edit.new_text.clone(),
                })
            })
            .collect(),
        new_files: fix
            .new_files
            .iter()
            .map(|new_file| (module.path_of(&new_file.name), new_file.text.clone()))
            .collect(),
        safe: fix.safe,
    });
    Some(EditorDiagnostic {
        code: diagnostic.code,
        severity: diagnostic.severity,
        summary: diagnostic.summary.clone(),
        detail: diagnostic.detail.clone(),
        range: subject.range,
        related,
        unnecessary: matches!(
            diagnostic.code,
            tofu_diagnostics::codes::FILE_SHADOWED | tofu_diagnostics::codes::FILE_IGNORED
        ),
        fix,
    })
}

/// The `file-ignored` hint for an open document whose name OpenTofu skips.
pub(crate) fn file_ignored(text: &str) -> EditorDiagnostic {
    let whole = TextRange::from_usize(0, text.len()).widened(text);
    EditorDiagnostic {
        code: tofu_diagnostics::codes::FILE_IGNORED,
        severity: tofu_diagnostics::codes::FILE_IGNORED.default_severity(),
        summary: "File ignored: OpenTofu skips this name".to_owned(),
        detail: "OpenTofu does not read files whose names start with \".\", end with \"~\", or start and end with \"#\": nothing declared here exists for OpenTofu.".to_owned(),
        range: whole,
        related: Vec::new(),
        unnecessary: true,
        fix: None,
    }
}

/// `text` on one line (white space runs folded to one space), cut at
/// `max_chars` characters with `…`: how hints and completion details show a
/// value.
pub(crate) fn one_line(text: &str, max_chars: usize) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= max_chars {
        return joined;
    }
    let mut cut: String = joined.chars().take(max_chars.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

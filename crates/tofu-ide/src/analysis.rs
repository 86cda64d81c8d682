//! An immutable snapshot of every module analysis, and the editor-facing data
//! shared by all features: file ranges that carry the text they refer to, and
//! diagnostics ready to publish.
//!
//! A [`FileRange`] holds the text its byte range was computed on, so that the
//! protocol layer converts it to lines and columns against exactly that text,
//! even when the editor buffer has moved on since.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_module::ModuleAnalysis;
use tofu_syntax::{Code, Diagnostic, FileId, Location, Severity, SourceFile, TextRange};

use crate::host::{split_path, ModuleSnapshot};
use crate::summary::ModuleSummary;

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

/// An immutable view of every stored module analysis. Cheap to clone.
///
/// Every analysed directory has a summary (diagnostics, symbols, calls);
/// the full analysis, which hover, navigation, completion and rename read, is
/// there for the directories the host keeps it for
/// ([`crate::AnalysisHost::keep_full_analyses`]).
#[derive(Clone, Debug)]
pub struct Analysis {
    modules: Arc<BTreeMap<PathBuf, ModuleSnapshot>>,
    summaries: Arc<BTreeMap<PathBuf, Arc<ModuleSummary>>>,
}

/// A file's text and syntax model ([`Analysis::parsed_file`]).
pub(crate) struct ParsedFile<'a> {
    pub found: FileInModule<'a>,
    pub text: &'a str,
    pub source: Cow<'a, SourceFile>,
}

impl ParsedFile<'_> {
    /// The module's analysis, for a file OpenTofu loads.
    pub fn loaded_module(&self) -> Option<&ModuleAnalysis> {
        self.found
            .file()
            .is_some_and(|file| file.role.is_loaded())
            .then(|| self.found.analysis())
    }
}

/// A file of an analysed module, found by path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FileInModule<'a> {
    pub module: &'a ModuleSnapshot,
    pub id: FileId,
}

impl<'a> FileInModule<'a> {
    pub fn analysis(&self) -> &'a ModuleAnalysis {
        &self.module.analysis
    }

    pub fn file(&self) -> Option<&'a tofu_module::ModuleFile> {
        self.module.analysis.file(self.id)
    }
}

impl Analysis {
    pub(crate) fn new(
        modules: Arc<BTreeMap<PathBuf, ModuleSnapshot>>,
        summaries: Arc<BTreeMap<PathBuf, Arc<ModuleSummary>>>,
    ) -> Analysis {
        Analysis { modules, summaries }
    }

    /// The full analysis of module directory `dir`, where the host keeps it.
    pub fn module(&self, dir: &Path) -> Option<&ModuleSnapshot> {
        self.modules.get(dir)
    }

    pub fn modules(&self) -> impl Iterator<Item = &ModuleSnapshot> {
        self.modules.values()
    }

    pub(crate) fn find_file(&self, path: &Path) -> Option<FileInModule<'_>> {
        let (dir, name) = split_path(path)?;
        let module = self.modules.get(&dir)?;
        let id = module.analysis.file_id(&name)?;
        Some(FileInModule { module, id })
    }

    /// The text and syntax model of a file of an analysed module: the
    /// analysis's parse, or for a file OpenTofu does not load (hidden by its
    /// `.tofu` twin, skipped by name) a parse made now, so editor features
    /// that read syntax only work there too.
    pub(crate) fn parsed_file(&self, path: &Path) -> Option<ParsedFile<'_>> {
        let found = self.find_file(path)?;
        let file = found.file()?;
        let source = match &file.source {
            Some(source) => Cow::Borrowed(source.as_ref()),
            None => Cow::Owned(tofu_syntax::parse(&file.name, &file.text)),
        };
        Some(ParsedFile {
            found,
            text: &file.text,
            source,
        })
    }

    /// The text the analysis used for `path`.
    pub fn file_text(&self, path: &Path) -> Option<Arc<str>> {
        let found = self.find_file(path)?;
        found.file().map(|file| Arc::clone(&file.text))
    }

    /// Diagnostics for every file of module directory `dir` (every file the
    /// analysis saw, including files without diagnostics), sorted by path.
    /// Kept for every analysed directory, also where the full analysis is not.
    pub fn module_diagnostics(&self, dir: &Path) -> Vec<FileDiagnostics> {
        self.summaries
            .get(dir)
            .map(|summary| summary.files.clone())
            .unwrap_or_default()
    }

    /// The names of the files the latest analysis of `dir` saw, or `None`
    /// when `dir` has not been analysed.
    pub(crate) fn file_names(&self, dir: &Path) -> Option<Vec<String>> {
        let summary = self.summaries.get(dir)?;
        Some(
            summary
                .files
                .iter()
                .filter_map(|file| file.path.file_name()?.to_str().map(str::to_owned))
                .collect(),
        )
    }

    /// The input generation of the latest analysis of `dir` (0: none yet).
    pub fn generation(&self, dir: &Path) -> u64 {
        self.summaries
            .get(dir)
            .map_or(0, |summary| summary.generation)
    }

    /// The summary of every analysed module directory.
    pub(crate) fn summaries(&self) -> impl Iterator<Item = &ModuleSummary> {
        self.summaries.values().map(Arc::as_ref)
    }

    /// The summary of `dir`, when it was analysed.
    pub(crate) fn summary(&self, dir: &Path) -> Option<&ModuleSummary> {
        self.summaries.get(dir).map(Arc::as_ref)
    }

    /// This analysis with the full analyses of `modules` in place of what
    /// it holds for their directories: a request across the module boundary
    /// gathers those of the called and calling modules, brought up to date
    /// ([`Analysis::related_dirs`]), which the host may not keep all at once,
    /// and those of modules it does not hold ([`crate::analyze_detached`]).
    pub fn with_modules(&self, modules: impl IntoIterator<Item = ModuleSnapshot>) -> Analysis {
        let mut all = Arc::clone(&self.modules);
        for module in modules {
            Arc::make_mut(&mut all).insert(module.dir.clone(), module);
        }
        Analysis {
            modules: all,
            summaries: Arc::clone(&self.summaries),
        }
    }

    /// True when `dir` is a module directory of the host (it has a summary),
    /// not one analysed for a single request.
    pub fn holds_dir(&self, dir: &Path) -> bool {
        self.summaries.contains_key(dir)
    }

    /// The diagnostics of one file, as [`Analysis::module_diagnostics`] gives them.
    pub fn file_diagnostics(&self, path: &Path) -> Option<FileDiagnostics> {
        let (dir, _) = split_path(path)?;
        self.module_diagnostics(&dir)
            .into_iter()
            .find(|file| file.path == path)
    }
}

pub(crate) fn file_range(
    module: &ModuleSnapshot,
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

fn location_range(module: &ModuleSnapshot, location: Location) -> Option<FileRange> {
    let text = &module.analysis.file(location.file)?.text;
    let range = location.range.unwrap_or_default().widened(text);
    file_range(module, location.file, range)
}

pub(crate) fn editor_diagnostic(
    module: &ModuleSnapshot,
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
        unnecessary: matches!(diagnostic.code, Code::FileShadowed | Code::FileIgnored),
        fix,
    })
}

/// The `file-ignored` hint for an open document whose name OpenTofu skips.
pub(crate) fn file_ignored(text: &str) -> EditorDiagnostic {
    let whole = TextRange::from_usize(0, text.len()).widened(text);
    EditorDiagnostic {
        code: Code::FileIgnored,
        severity: Code::FileIgnored.default_severity(),
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

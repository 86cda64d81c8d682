//! An immutable snapshot of every module analysis the host keeps, which
//! every feature reads: full analyses by directory, and the summary of
//! every analysed directory.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::ModuleFiles;
use tofu_syntax::SourceFile;

use crate::analysed_module::{dir_and_file_name, AnalysedModule, FileInModule};
use crate::diagnostics::FileDiagnostics;
use crate::shared_files::SharedFiles;
use crate::summary::ModuleSummary;

/// An immutable view of every stored module analysis. Cheap to clone.
///
/// Every analysed directory has a summary (diagnostics, symbols, calls);
/// the full analysis, which hover, navigation, completion and rename read, is
/// there for the directories the host keeps it for
/// ([`crate::AnalysisHost::keep_full_analyses`]).
#[derive(Clone, Debug)]
pub struct Snapshot {
    modules: Arc<HashMap<PathBuf, AnalysedModule>>,
    summaries: Arc<crate::module_tree::Summaries>,
    /// Which paths are one real file (symlinks).
    pub(crate) shared: Arc<SharedFiles>,
    /// The files functions read in a module directory, for values on hover
    /// ([`Snapshot::with_module_files`]); none elsewhere.
    module_files: BTreeMap<PathBuf, ModuleFiles>,
}

/// A file's text and syntax model ([`Snapshot::parsed_file`]).
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

impl Snapshot {
    pub(crate) fn new(
        modules: Arc<HashMap<PathBuf, AnalysedModule>>,
        summaries: Arc<crate::module_tree::Summaries>,
        shared: Arc<SharedFiles>,
    ) -> Snapshot {
        Snapshot {
            modules,
            summaries,
            shared,
            module_files: BTreeMap::new(),
        }
    }

    /// This snapshot, with `files` as what functions (`file`,
    /// `templatefile`, `fileset`, …) read in `dir` when hover shows a value.
    /// The host does no IO: the caller reads the disk, as OpenTofu does
    /// (never an editor's unsaved buffers).
    pub fn with_module_files(mut self, dir: &Path, files: ModuleFiles) -> Snapshot {
        self.module_files.insert(dir.to_path_buf(), files);
        self
    }

    /// What functions read in `dir`: what [`Snapshot::with_module_files`]
    /// gave, else nothing (their results are unknown).
    pub(crate) fn module_files(&self, dir: &Path) -> ModuleFiles {
        self.module_files.get(dir).cloned().unwrap_or_default()
    }

    /// The full analysis of module directory `dir`, where the host keeps it.
    pub fn module(&self, dir: &Path) -> Option<&AnalysedModule> {
        self.modules.get(dir)
    }

    /// Every kept full analysis, in no particular order.
    pub fn modules(&self) -> impl Iterator<Item = &AnalysedModule> {
        self.modules.values()
    }

    pub(crate) fn find_file(&self, path: &Path) -> Option<FileInModule<'_>> {
        let (dir, name) = dir_and_file_name(path)?;
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

    /// The summary of every analysed module directory, in no particular
    /// order.
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
    /// ([`Snapshot::related_dirs`]), which the host may not keep all at once,
    /// and those of modules it does not hold ([`crate::analyze_detached`]).
    pub fn with_modules(&self, modules: impl IntoIterator<Item = AnalysedModule>) -> Snapshot {
        let mut all = Arc::clone(&self.modules);
        for module in modules {
            Arc::make_mut(&mut all).insert(module.dir.clone(), module);
        }
        Snapshot {
            modules: all,
            summaries: Arc::clone(&self.summaries),
            shared: Arc::clone(&self.shared),
            module_files: self.module_files.clone(),
        }
    }

    /// True when `dir` is a module directory of the host (it has a summary),
    /// not one analysed for a single request.
    pub fn holds_dir(&self, dir: &Path) -> bool {
        self.summaries.contains_key(dir)
    }

    /// The diagnostics of one file, as [`Snapshot::module_diagnostics`] gives them.
    pub fn file_diagnostics(&self, path: &Path) -> Option<FileDiagnostics> {
        let (dir, _) = dir_and_file_name(path)?;
        self.module_diagnostics(&dir)
            .into_iter()
            .find(|file| file.path == path)
    }
}

//! One module directory's finished analysis ([`AnalysedModule`]) and a file
//! found in it ([`FileInModule`]): what the host stores per directory and
//! every feature reads. A directory the host does not hold is analysed on
//! its own for one request ([`analyze_detached`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_diagnostics::{analyze, AnalysisCache, ModuleAnalysis};
use tofu_module::discovery::{is_module_file, is_test_file, TEST_DIRECTORY};
use tofu_module::{Config, InputFile};
use tofu_syntax::FileId;

/// The finished analysis of one module directory, with what it was computed from.
#[derive(Clone, Debug)]
pub struct AnalysedModule {
    pub dir: PathBuf,
    /// The input generation this analysis reflects.
    pub generation: u64,
    pub analysis: Arc<ModuleAnalysis>,
    /// Editor buffers used instead of disk content, by file name, with the
    /// document version each one had.
    pub buffer_versions: BTreeMap<String, i32>,
}

impl AnalysedModule {
    /// The path of a file of this module.
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

/// A file of an analysed module, found by path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FileInModule<'a> {
    pub module: &'a AnalysedModule,
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

/// Splits a file path into its module directory and its name there: the
/// file's directory and file name, except for a test file in a `tests/`
/// directory, which belongs to the directory above as `tests/NAME` (as
/// `tofu validate` reads it).
pub fn dir_and_file_name(path: &Path) -> Option<(PathBuf, String)> {
    let name = path.file_name()?.to_str()?.to_owned();
    let dir = path.parent()?;
    if is_test_file(&name) && dir.file_name().is_some_and(|dir| dir == TEST_DIRECTORY) {
        let module_dir = dir.parent()?.to_path_buf();
        return Some((module_dir, format!("{TEST_DIRECTORY}/{name}")));
    }
    Some((dir.to_path_buf(), name))
}

/// Analyses a module directory the host does not hold (outside the
/// workspace, or installed by `tofu init` under `.terraform`), for one
/// request: the result is not stored, and has no summary.
pub fn analyze_detached(dir: PathBuf, files: &[InputFile], config: &Config) -> AnalysedModule {
    let files: Vec<InputFile> = files
        .iter()
        .filter(|file| is_module_file(&file.name))
        .cloned()
        .collect();
    let analysis = analyze(&files, config, &mut AnalysisCache::new());
    AnalysedModule {
        dir,
        generation: 0,
        analysis: Arc::new(analysis),
        buffer_versions: BTreeMap::new(),
    }
}

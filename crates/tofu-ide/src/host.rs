//! The analysis host: the inputs of every module directory (files on disk with
//! open editor buffers laid over them), an analysis cache per directory, and the
//! latest finished analysis of each.
//!
//! A change names one file or directory; only the module directory it belongs
//! to becomes stale. Analysis runs in three steps so that a server can do the
//! expensive middle one without holding its lock: [`AnalysisHost::start_analysis`]
//! takes a copy of the inputs (cheap: texts are shared) and moves the
//! directory's analysis cache out (a second job started meanwhile begins
//! with an empty one), [`AnalysisJob::run`] analyses,
//! [`AnalysisHost::finish_analysis`] puts the cache back unless one is there
//! and stores the result unless a newer one is already stored. Generations come from one
//! counter for the whole host, so "newer" is always well defined, also for a
//! directory that was removed and came back.
//!
//! The host does no IO: callers read the disk (through `tofu-vfs`) and hand the
//! contents in. Files without a configuration extension are never inputs,
//! except the directory's module manifest (`.terraform/modules/modules.json`,
//! [`MODULE_MANIFEST`]), which `tofu init` writes: it is kept beside the
//! files, is not analysed, and only says which directories the directory's
//! registry and remote module calls read (the summary's calls).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_diagnostics::{analyze_with_files, AnalysisCache};
use tofu_module::discovery::is_module_file;
use tofu_module::{Config, FileContent, GivenValues, InputFile, ModuleFiles, ProviderSchemas};

use crate::analysed_module::{dir_and_file_name, AnalysedModule};
use crate::snapshot::Snapshot;
use tofu_module::calls::{
    resolve_calls, resolve_test_runs, ModuleCall, ModuleManifest, ModuleTree,
};
use tofu_schema::ProviderAddress;

use crate::disk_texts::DiskTexts;
use crate::module_calls::MODULE_MANIFEST;
pub use crate::module_tree::ReachedDirs;
use crate::module_tree::{reached_dirs, Summaries};
use crate::shared_files::SharedFiles;
use crate::summary::ModuleSummary;

/// The directory and name of the values file `name` (a path relative to
/// `dir`, `../common.tfvars`) names.
fn outside_file(dir: &Path, name: &str) -> Option<(PathBuf, String)> {
    let path = tofu_module::calls::normalize_path(&dir.join(name));
    let file_name = path.file_name()?.to_str()?.to_owned();
    Some((path.parent()?.to_path_buf(), file_name))
}

/// One change to the inputs.
#[derive(Clone, Debug)]
pub enum Change {
    /// A file was created or changed on disk.
    DiskFile { path: PathBuf, content: FileContent },
    /// A file was deleted from disk.
    DiskFileRemoved { path: PathBuf },
    /// Every configuration file of `dir` as just read from disk (replaces what
    /// was known of that directory on disk).
    DiskDir { dir: PathBuf, files: Vec<InputFile> },
    /// A directory was deleted: every module directory at or below it loses
    /// its disk files.
    DiskDirRemoved { dir: PathBuf },
    /// `dir` cannot be read as a directory: it does not exist, or is no
    /// directory. It loses its disk files, and a call of it is OpenTofu's
    /// "Unreadable module directory" (`tofu_module::calls::CalledDir`),
    /// until a file or a reading of it says otherwise.
    DiskDirUnreadable { dir: PathBuf },
    /// An editor buffer was opened or changed; it hides the disk content.
    BufferChanged {
        path: PathBuf,
        text: Arc<str>,
        version: i32,
    },
    /// An editor buffer was closed; the disk content counts again.
    BufferClosed { path: PathBuf },
}

/// What one module directory is made of right now.
#[derive(Debug, Default)]
struct ModuleInputs {
    disk: BTreeMap<String, FileContent>,
    buffers: BTreeMap<String, Buffer>,
    /// The text of files open in the editor through another path of the
    /// same real file (a symlink): over the disk content, under buffers.
    mirrors: BTreeMap<String, Arc<str>>,
    /// The directory's `.terraform/modules/modules.json`, as read from disk.
    manifest: Option<FileContent>,
    /// The schemas of the providers the directory uses, as far as they
    /// were read ([`AnalysisHost::set_schemas`]).
    schemas: ProviderSchemas,
    /// The files functions read (`file("x")`), as the caller gave them
    /// ([`AnalysisHost::set_module_files`]); none until then.
    module_files: ModuleFiles,
    /// The directory could not be read as one ([`Change::DiskDirUnreadable`]).
    unreadable: bool,
    /// Bumped (from the host's counter) on every change to this directory.
    generation: u64,
    /// `None` while a job holds it.
    cache: Option<AnalysisCache>,
}

#[derive(Clone, Debug)]
struct Buffer {
    text: Arc<str>,
    version: i32,
}

impl ModuleInputs {
    fn is_empty(&self) -> bool {
        self.disk.is_empty() && self.buffers.is_empty()
    }
}

/// A copy of one directory's inputs, ready to be analysed off the host.
#[derive(Debug)]
pub struct AnalysisJob {
    dir: PathBuf,
    generation: u64,
    inputs: Vec<InputFile>,
    buffer_versions: BTreeMap<String, i32>,
    manifest: Option<Arc<str>>,
    config: Config,
    schemas: ProviderSchemas,
    module_files: ModuleFiles,
    unreadable: bool,
    cache: AnalysisCache,
    /// The calls the directory had at its last analysis.
    calls_before: Vec<ModuleCall>,
    /// What the host knew of the directories those calls reach.
    reached: ReachedDirs,
    /// Another directory calls this one (its interface is computed).
    is_called: bool,
}

/// What [`AnalysisHost::finish_analysis_returning_old`] no longer keeps, for
/// the caller to drop off its hot path.
#[derive(Debug, Default)]
pub struct Released {
    pub analyses: Vec<AnalysedModule>,
    pub summaries: Vec<Arc<ModuleSummary>>,
    /// The analysis caches (parses) of the directories whose full analysis
    /// was dropped, and one a job brought back too late.
    pub caches: Vec<AnalysisCache>,
}

impl Released {
    pub fn is_empty(&self) -> bool {
        self.analyses.is_empty() && self.summaries.is_empty() && self.caches.is_empty()
    }
}

/// The result of [`AnalysisJob::run`], to hand back to the host.
#[derive(Debug)]
pub struct AnalysisResult {
    pub snapshot: AnalysedModule,
    summary: Arc<ModuleSummary>,
    cache: AnalysisCache,
    reached: ReachedDirs,
}

impl AnalysisResult {
    /// Computes the interface of the directory when `called` (another
    /// directory calls it now) and the job did not (nobody called it when
    /// it started): from the analysis at hand, rather than by analysing the
    /// directory again once the host sees it lacks one. Slow for a large
    /// module: not with the host locked.
    pub fn compute_interface(&mut self, called: bool) {
        if called && self.summary.interface.is_none() {
            let interface = Arc::new(self.snapshot.analysis.interface());
            Arc::make_mut(&mut self.summary).interface = Some(interface);
        }
    }
}

/// A directory analysed before anyone called it, whose full analysis is
/// still kept: its interface can be computed from that analysis
/// ([`MissingInterface::compute`]), off the host, instead of analysing the
/// directory again.
#[derive(Debug)]
pub struct MissingInterface {
    dir: PathBuf,
    generation: u64,
    analysis: Arc<tofu_diagnostics::ModuleAnalysis>,
}

/// An interface [`MissingInterface::compute`] computed, for
/// [`AnalysisHost::set_interfaces`].
#[derive(Debug)]
pub struct ComputedInterface {
    dir: PathBuf,
    generation: u64,
    interface: Arc<tofu_module::interface::ModuleInterface>,
}

impl MissingInterface {
    pub fn compute(self) -> ComputedInterface {
        ComputedInterface {
            interface: Arc::new(self.analysis.interface()),
            dir: self.dir,
            generation: self.generation,
        }
    }
}

impl AnalysisJob {
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Analyses the directory. Pure and synchronous; may take a while for a
    /// large directory.
    pub fn run(self) -> AnalysisResult {
        self.run_with(&|_, _| None)
    }

    /// [`AnalysisJob::run`], asking `reach` what the host knows now of the
    /// directories the calls the directory has now reach
    /// ([`AnalysisHost::reached_by`]), when they differ from the calls it
    /// had (at its first analysis, always): the directory is then judged in
    /// its module tree at once, with the parses of its first pass, rather
    /// than analysed again once the host learns its calls.
    pub fn run_with(
        mut self,
        reach: &dyn Fn(&Path, &[ModuleCall]) -> Option<ReachedDirs>,
    ) -> AnalysisResult {
        // The tree of the calls the directory had; judged again in the tree
        // of the calls it has now when they differ (a call was added).
        let tree = self.reached.called_modules(&self.dir, &self.calls_before);
        let mut analysis = analyze_with_files(
            &self.inputs,
            &self.config,
            &tree,
            &self.schemas,
            &self.module_files,
            &mut self.cache,
        );
        let manifest = self
            .manifest
            .as_deref()
            .map(|text| Arc::new(ModuleManifest::parse(text)));
        let mut calls_now = resolve_calls(&self.dir, &analysis.module_calls(), manifest.as_deref());
        calls_now.extend(resolve_test_runs(&self.dir, &analysis.test_run_modules()));
        calls_now.sort();
        calls_now.dedup();
        if calls_now != self.calls_before {
            if let Some(reached) = reach(&self.dir, &calls_now) {
                self.reached.extend(reached);
            }
            let tree_now = self.reached.called_modules(&self.dir, &calls_now);
            if tree_now != tree {
                analysis = analyze_with_files(
                    &self.inputs,
                    &self.config,
                    &tree_now,
                    &self.schemas,
                    &self.module_files,
                    &mut self.cache,
                );
            }
        }
        let snapshot = AnalysedModule {
            dir: self.dir,
            generation: self.generation,
            analysis: Arc::new(analysis),
            buffer_versions: self.buffer_versions,
        };
        let mut summary = ModuleSummary::new(&snapshot, calls_now, manifest, self.is_called);
        summary.unreadable = self.unreadable;
        AnalysisResult {
            summary: Arc::new(summary),
            snapshot,
            cache: self.cache,
            reached: self.reached,
        }
    }
}

#[derive(Debug, Default)]
pub struct AnalysisHost {
    config: Config,
    /// Hashed: looked up many times per analysis, and a tree of 13,500
    /// directories cost path comparisons worth 3% of indexing it.
    modules: HashMap<PathBuf, ModuleInputs>,
    /// Full analyses: every directory with an open buffer, and at most
    /// `keep_full` others, the most recently used.
    analyses: Arc<HashMap<PathBuf, AnalysedModule>>,
    /// The summary of the latest analysis of every directory.
    summaries: Arc<Summaries>,
    /// The calls between directories, as their summaries say, indexed both
    /// ways.
    tree: ModuleTree,
    /// Which directories the modules of each directory's test runs are
    /// (`run { module { source } }`), indexed both ways: read, and judged
    /// against, as called modules are, but no calls (no loop runs through
    /// them, and no provider is installed through them).
    test_runs: ModuleTree,
    /// How many full analyses of directories without open buffers are kept
    /// (`None`: all of them).
    keep_full: Option<usize>,
    /// When each directory with a full analysis was last used.
    last_used: HashMap<PathBuf, u64>,
    use_clock: u64,
    last_generation: u64,
    /// Which paths are one real file (symlinks), as the caller said.
    shared: Arc<SharedFiles>,
    /// Directories made stale by another's new summary (callers of a module
    /// whose interface changed, modules newly called that have no interface
    /// yet), not yet handed out ([`AnalysisHost::take_stale_callers`]).
    stale_callers: Vec<PathBuf>,
    /// One copy of each distinct text read from disk.
    disk_texts: DiskTexts,
    /// The values the user named per module directory (a server setting),
    /// as [`AnalysisHost::set_given_values`] gave them.
    given_values: BTreeMap<PathBuf, GivenValues>,
}

impl AnalysisHost {
    pub fn new(config: Config) -> AnalysisHost {
        AnalysisHost {
            config,
            ..AnalysisHost::default()
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Keeps the full analysis (syntax trees, merged configuration, parse
    /// cache) of at most `count` directories without open buffers, the most
    /// recently used ones; the others keep their summary only and are
    /// analysed again when [`AnalysisHost::has_full_analysis`] says they
    /// must be. By default every full analysis is kept.
    pub fn keep_full_analyses(&mut self, count: usize) {
        self.keep_full = Some(count);
    }

    /// Replaces the configuration; every directory becomes stale.
    pub fn set_config(&mut self, config: Config) -> Vec<PathBuf> {
        self.config = config;
        let mut dirs: Vec<PathBuf> = self.modules.keys().cloned().collect();
        dirs.sort();
        for dir in &dirs {
            self.touch(dir);
        }
        dirs
    }

    fn next_generation(&mut self) -> u64 {
        self.last_generation += 1;
        self.last_generation
    }

    fn touch(&mut self, dir: &Path) -> &mut ModuleInputs {
        let generation = self.next_generation();
        let inputs = self.modules.entry(dir.to_path_buf()).or_default();
        inputs.generation = generation;
        inputs
    }

    /// The values the user names for each module directory run as the
    /// root module (`-var-file`s by their path relative to the directory,
    /// `../common.tfvars` reading the file another directory's inputs
    /// hold). Returns the directories this changes, now stale.
    pub fn set_given_values(&mut self, values: BTreeMap<PathBuf, GivenValues>) -> Vec<PathBuf> {
        let mut changed: Vec<PathBuf> = self
            .given_values
            .iter()
            .filter(|(dir, old)| values.get(*dir) != Some(*old))
            .map(|(dir, _)| dir.clone())
            .collect();
        changed.extend(
            values
                .iter()
                .filter(|(dir, new)| self.given_values.get(*dir) != Some(*new))
                .map(|(dir, _)| dir.clone()),
        );
        changed.sort();
        changed.dedup();
        self.given_values = values;
        changed.retain(|dir| self.modules.contains_key(dir));
        for dir in &changed {
            self.touch(dir);
        }
        changed
    }

    /// The values the user names for `dir`.
    pub fn given_values(&self, dir: &Path) -> Option<&GivenValues> {
        self.given_values.get(dir)
    }

    /// The directories whose named values files lie in one of `dirs` (and
    /// not in the directory itself): a change there changes their values.
    fn reading_values_in(&self, dirs: &[PathBuf]) -> Vec<PathBuf> {
        self.given_values
            .iter()
            .filter(|(dir, values)| {
                values.files().any(|name| {
                    name.contains('/')
                        && outside_file(dir, name)
                            .is_some_and(|(file_dir, _)| dirs.contains(&file_dir))
                })
            })
            .map(|(dir, _)| dir.clone())
            .collect()
    }

    /// The named values files of `dir` that lie elsewhere, as inputs under
    /// the name the values use, from what the host holds of their
    /// directory (an editor buffer over the disk).
    fn outside_values_files(&self, dir: &Path, values: &GivenValues) -> Vec<InputFile> {
        let mut found = Vec::new();
        for name in values.files().filter(|name| name.contains('/')) {
            let Some((file_dir, file_name)) = outside_file(dir, name) else {
                continue;
            };
            let Some(inputs) = self.modules.get(&file_dir) else {
                continue;
            };
            let content = if let Some(buffer) = inputs.buffers.get(&file_name) {
                Some(FileContent::Text(Arc::clone(&buffer.text)))
            } else if let Some(text) = inputs.mirrors.get(&file_name) {
                Some(FileContent::Text(Arc::clone(text)))
            } else {
                inputs.disk.get(&file_name).cloned()
            };
            if let Some(content) = content {
                found.push(InputFile {
                    name: name.to_owned(),
                    content,
                });
            }
        }
        found
    }

    /// Gives `dir` the schemas of its providers (read off the request
    /// threads, by whoever can start providers). The directory becomes
    /// stale when they differ from what it had; returns whether they did.
    /// The schemas are shared (`Arc`), so directories using one provider
    /// hold one copy.
    pub fn set_schemas(&mut self, dir: &Path, schemas: ProviderSchemas) -> bool {
        let same = self
            .modules
            .get(dir)
            .is_some_and(|inputs| inputs.schemas == schemas);
        if same {
            return false;
        }
        self.touch(dir).schemas = schemas;
        true
    }

    /// Gives `dir` the files its functions read (`file("x")`,
    /// `templatefile`, …): the caller reads them (the host does no IO).
    /// Nothing records what a function read, so an analysis given other
    /// files is done whole: give each directory its files once, not anew
    /// with every reading of the directory. Returns whether they changed
    /// (the directory is then stale).
    pub fn set_module_files(&mut self, dir: &Path, files: ModuleFiles) -> bool {
        if self
            .modules
            .get(dir)
            .is_some_and(|inputs| inputs.module_files == files)
        {
            return false;
        }
        self.touch(dir).module_files = files;
        true
    }

    /// True when `dir` was given the files its functions read.
    pub fn has_module_files(&self, dir: &Path) -> bool {
        self.modules
            .get(dir)
            .is_some_and(|inputs| inputs.module_files != ModuleFiles::none())
    }

    /// Records which configuration files of `dir` are links to another
    /// file (`(file name, the real file's path)`, in the paths the host
    /// uses), replacing what was recorded for `dir`. A file several
    /// directories hold is then changed in all of them at once, and rename
    /// and references reach every directory holding it.
    pub fn set_links(&mut self, dir: &Path, links: Vec<(String, PathBuf)>) {
        if !self.shared.is_empty() || !links.is_empty() {
            Arc::make_mut(&mut self.shared).set_dir_links(dir, links);
        }
    }

    /// Applies one change and returns the module directories it made stale.
    /// A change to a file that other paths link to (or that links to
    /// another) is applied through every path of that file.
    pub fn apply_change(&mut self, change: Change) -> Vec<PathBuf> {
        let change = match change {
            Change::DiskFile { path, content } => Change::DiskFile {
                path,
                content: self.disk_texts.share(content),
            },
            other => other,
        };
        let others = match &change {
            Change::DiskFile { path, .. }
            | Change::BufferChanged { path, .. }
            | Change::BufferClosed { path } => self.shared.other_paths(path),
            _ => Vec::new(),
        };
        let mut stale = Vec::new();
        for other in others {
            let Some((dir, name)) = config_file(&other) else {
                continue;
            };
            if !self.modules.contains_key(&dir) {
                continue;
            }
            let inputs = self.touch(&dir);
            match &change {
                Change::DiskFile { content, .. } => {
                    inputs.disk.insert(name, content.clone());
                }
                Change::BufferChanged { text, .. } => {
                    inputs.mirrors.insert(name, Arc::clone(text));
                }
                _ => {
                    inputs.mirrors.remove(&name);
                }
            }
            stale.push(dir);
        }
        stale.extend(self.apply_own_change(change));
        stale.sort();
        stale.dedup();
        // A values file another directory names from here.
        let readers = self.reading_values_in(&stale);
        for dir in &readers {
            if self.modules.contains_key(dir) {
                self.touch(dir);
                stale.push(dir.clone());
            }
        }
        stale.sort();
        stale.dedup();
        stale
    }

    fn apply_own_change(&mut self, change: Change) -> Vec<PathBuf> {
        match change {
            Change::DiskFile { path, content } => {
                let Some((dir, name)) = module_input_of(&path) else {
                    return Vec::new();
                };
                let inputs = self.touch(&dir);
                inputs.unreadable = false;
                if name == MODULE_MANIFEST {
                    inputs.manifest = Some(content);
                } else {
                    inputs.disk.insert(name, content);
                }
                vec![dir]
            }
            Change::DiskFileRemoved { path } => {
                let Some((dir, name)) = module_input_of(&path) else {
                    return Vec::new();
                };
                if !self.modules.contains_key(&dir) {
                    return Vec::new();
                }
                let inputs = self.touch(&dir);
                if name == MODULE_MANIFEST {
                    inputs.manifest = None;
                } else {
                    inputs.disk.remove(&name);
                }
                vec![dir]
            }
            Change::DiskDir { dir, files } => {
                let files: Vec<InputFile> = files
                    .into_iter()
                    .map(|file| InputFile {
                        content: self.disk_texts.share(file.content),
                        name: file.name,
                    })
                    .collect();
                let inputs = self.touch(&dir);
                inputs.manifest = None;
                inputs.disk.clear();
                inputs.unreadable = false;
                for file in files {
                    if file.name == MODULE_MANIFEST {
                        inputs.manifest = Some(file.content);
                    } else if is_module_file(&file.name) {
                        inputs.disk.insert(file.name, file.content);
                    }
                }
                vec![dir]
            }
            Change::DiskDirRemoved { dir } => {
                let affected: Vec<PathBuf> = self
                    .modules
                    .keys()
                    .filter(|known| known.starts_with(&dir))
                    .cloned()
                    .collect();
                for known in &affected {
                    let inputs = self.touch(known);
                    inputs.disk.clear();
                    inputs.manifest = None;
                }
                affected
            }
            Change::DiskDirUnreadable { dir } => {
                let inputs = self.touch(&dir);
                inputs.disk.clear();
                inputs.manifest = None;
                inputs.unreadable = true;
                vec![dir]
            }
            Change::BufferChanged {
                path,
                text,
                version,
            } => {
                let Some((dir, name)) = config_file(&path) else {
                    return Vec::new();
                };
                self.touch(&dir)
                    .buffers
                    .insert(name, Buffer { text, version });
                vec![dir]
            }
            Change::BufferClosed { path } => {
                let Some((dir, name)) = config_file(&path) else {
                    return Vec::new();
                };
                if !self.modules.contains_key(&dir) {
                    return Vec::new();
                }
                self.touch(&dir).buffers.remove(&name);
                vec![dir]
            }
        }
    }

    /// Directories that currently have at least one input file, in path
    /// order.
    pub fn module_dirs(&self) -> impl Iterator<Item = &Path> {
        let mut dirs: Vec<&Path> = self
            .modules
            .iter()
            .filter(|(_, inputs)| !inputs.is_empty())
            .map(|(dir, _)| dir.as_path())
            .collect();
        dirs.sort();
        dirs.into_iter()
    }

    /// True when `dir` is known (it has or had inputs).
    pub fn knows_dir(&self, dir: &Path) -> bool {
        self.modules.contains_key(dir)
    }

    /// The directories the module calls and test runs of `dir` name (local
    /// sources, and those its manifest records) that the host holds
    /// nothing for: modules `tofu init` installed under `.terraform`, which
    /// the workspace walk skips, or directories that do not exist.
    pub fn unknown_called_dirs(&self, dir: &Path) -> Vec<PathBuf> {
        let Some(summary) = self.summaries.get(dir) else {
            return Vec::new();
        };
        let mut unknown: Vec<PathBuf> = summary
            .called_dirs()
            .filter(|called| !self.knows_dir(called))
            .map(Path::to_path_buf)
            .collect();
        unknown.sort();
        unknown.dedup();
        unknown
    }

    /// The directories the calls and test runs of `dir` with a local source
    /// (`./x`, `../x`) read, as its last analysis said, sorted.
    pub fn local_called_dirs(&self, dir: &Path) -> Vec<PathBuf> {
        let Some(summary) = self.summaries.get(dir) else {
            return Vec::new();
        };
        let mut local: Vec<PathBuf> = summary
            .module_calls
            .iter()
            .filter(|call| call.installed.is_none())
            .filter_map(|call| call.dir.clone())
            .collect();
        local.sort();
        local.dedup();
        local
    }

    /// The providers whose schemas `dir` needs, as its last analysis said.
    pub fn needed_providers(&self, dir: &Path) -> &[ProviderAddress] {
        self.summaries
            .get(dir)
            .map_or(&[], |summary| summary.needed_providers.as_slice())
    }

    /// The schemas `dir` was given ([`AnalysisHost::set_schemas`]).
    pub fn schemas(&self, dir: &Path) -> Option<&ProviderSchemas> {
        self.modules.get(dir).map(|inputs| &inputs.schemas)
    }

    /// The directories whose module calls reach `dir` directly, as their
    /// analyses said.
    pub fn callers(&self, dir: &Path) -> &[PathBuf] {
        self.tree.callers(dir)
    }

    /// The directories the module calls of `dir` reach directly.
    pub fn called_dirs(&self, dir: &Path) -> &[PathBuf] {
        self.tree.children(dir)
    }

    /// True when a file of `dir` was read from disk as unreadable with
    /// `message` (a link the server did not follow, say).
    pub fn has_unreadable(&self, dir: &Path, message: &str) -> bool {
        self.modules.get(dir).is_some_and(|inputs| {
            inputs.disk.values().any(
                |content| matches!(content, FileContent::Unreadable { message: m } if m == message),
            )
        })
    }

    /// True when `dir` has an open buffer.
    pub fn has_buffers(&self, dir: &Path) -> bool {
        self.modules
            .get(dir)
            .is_some_and(|inputs| !inputs.buffers.is_empty())
    }

    /// True when the stored analysis of `dir` does not reflect its current inputs.
    pub fn is_stale(&self, dir: &Path) -> bool {
        let Some(inputs) = self.modules.get(dir) else {
            return false;
        };
        match self.summaries.get(dir) {
            Some(summary) => summary.generation < inputs.generation,
            None => true,
        }
    }

    /// True when the full analysis of `dir` is stored (it may be stale), not
    /// only its summary.
    pub fn has_full_analysis(&self, dir: &Path) -> bool {
        self.analyses.contains_key(dir)
    }

    /// Records that `dir`'s full analysis was just used, so that it is among
    /// the last to be dropped.
    pub fn mark_used(&mut self, dir: &Path) {
        if self.analyses.contains_key(dir) {
            self.use_clock += 1;
            self.last_used.insert(dir.to_path_buf(), self.use_clock);
        }
    }

    /// Takes a copy of `dir`'s inputs and moves its analysis cache out, for
    /// analysis; `None` when the directory is unknown.
    pub fn start_analysis(&mut self, dir: &Path) -> Option<AnalysisJob> {
        let mut config = self.config.clone();
        let mut outside = Vec::new();
        if let Some(values) = self.given_values.get(dir) {
            config.values = values.clone();
            outside = self.outside_values_files(dir, values);
        }
        let inputs = self.modules.get_mut(dir)?;
        let mut files: BTreeMap<&str, InputFile> = inputs
            .disk
            .iter()
            .map(|(name, content)| {
                (
                    name.as_str(),
                    InputFile {
                        name: name.clone(),
                        content: content.clone(),
                    },
                )
            })
            .collect();
        for (name, text) in &inputs.mirrors {
            files.insert(name, InputFile::text(name.clone(), Arc::clone(text)));
        }
        for (name, buffer) in &inputs.buffers {
            files.insert(
                name,
                InputFile::text(name.clone(), Arc::clone(&buffer.text)),
            );
        }
        let buffer_versions = inputs
            .buffers
            .iter()
            .map(|(name, buffer)| (name.clone(), buffer.version))
            .collect();
        let mut job_inputs: Vec<InputFile> = files.into_values().collect();
        job_inputs.extend(outside);
        let manifest = match &inputs.manifest {
            Some(FileContent::Text(text)) => Some(Arc::clone(text)),
            _ => None,
        };
        Some(AnalysisJob {
            dir: dir.to_path_buf(),
            generation: inputs.generation,
            inputs: job_inputs,
            buffer_versions,
            manifest,
            config,
            schemas: inputs.schemas.clone(),
            module_files: inputs.module_files.clone(),
            unreadable: inputs.unreadable,
            cache: inputs.cache.take().unwrap_or_default(),
            calls_before: self
                .summaries
                .get(dir)
                .map(|summary| summary.module_calls.clone())
                .unwrap_or_default(),
            reached: ReachedDirs::gather(dir, &self.tree, &self.test_runs, &self.summaries),
            is_called: self.is_called(dir),
        })
    }

    /// Stores a finished analysis unless a newer one is stored already.
    /// Returns whether it was stored.
    pub fn finish_analysis(&mut self, finished: AnalysisResult) -> bool {
        self.finish_analysis_returning_old(finished).0
    }

    /// [`AnalysisHost::finish_analysis`], handing back the full analyses no
    /// longer kept (the one replaced, the result if it came too late or is
    /// not kept, those dropped to stay within
    /// [`AnalysisHost::keep_full_analyses`]) and the summary replaced,
    /// instead of dropping them here:
    /// freeing a large module's analysis takes a while, and the caller may do
    /// it off its hot path.
    pub fn finish_analysis_returning_old(&mut self, finished: AnalysisResult) -> (bool, Released) {
        let AnalysisResult {
            snapshot,
            summary,
            cache,
            reached,
        } = finished;
        let dir = snapshot.dir.clone();
        let mut unused = Released::default();
        match self.modules.get_mut(&dir) {
            Some(inputs) if inputs.cache.is_none() => inputs.cache = Some(cache),
            _ => unused.caches.push(cache),
        }
        let stored = self.summaries.get(&dir).map(|stored| stored.generation);
        let newer = stored.is_none_or(|stored| stored < snapshot.generation);
        // The same generation again: the full analysis of a directory that
        // had only its summary left.
        let fills_in = stored == Some(snapshot.generation) && !self.analyses.contains_key(&dir);
        if newer {
            self.store_summary(&dir, summary, &reached, &mut unused);
        }
        if newer || fills_in {
            unused
                .analyses
                .extend(Arc::make_mut(&mut self.analyses).insert(dir.clone(), snapshot));
            self.mark_used(&dir);
            self.drop_unused_analyses(&dir, &mut unused);
        } else {
            unused.analyses.push(snapshot);
        }
        (newer || fills_in, unused)
    }

    /// [`AnalysisHost::finish_analysis_returning_old`] for a directory
    /// whose full analysis nobody is about to ask for (a workspace being
    /// indexed): unless it has open buffers, only its summary is stored,
    /// and the full analysis and its cache are handed back with the rest,
    /// for the thread that built them to free (memory freed by another
    /// thread costs the allocator more). The next analysis of the
    /// directory parses its files again.
    pub fn finish_analysis_summary_only(&mut self, finished: AnalysisResult) -> (bool, Released) {
        let dir = finished.snapshot.dir.clone();
        if self.has_buffers(&dir) {
            return self.finish_analysis_returning_old(finished);
        }
        let AnalysisResult {
            snapshot,
            summary,
            cache,
            reached,
        } = finished;
        let mut unused = Released::default();
        unused.caches.push(cache);
        if let Some(inputs) = self.modules.get_mut(&dir) {
            if inputs.cache.is_none() {
                inputs.cache = Some(AnalysisCache::default());
            }
        }
        let stored = self.summaries.get(&dir).map(|stored| stored.generation);
        let newer = stored.is_none_or(|stored| stored < snapshot.generation);
        if newer {
            self.store_summary(&dir, summary, &reached, &mut unused);
            // An older full analysis no longer says what the summary says.
            if self.analyses.contains_key(&dir) {
                unused
                    .analyses
                    .extend(Arc::make_mut(&mut self.analyses).remove(&dir));
                self.last_used.remove(&dir);
            }
        }
        unused.analyses.push(snapshot);
        (newer, unused)
    }

    /// Stores `dir`'s newer summary: its calls and test runs in the module
    /// trees, the callers it concerns marked stale; the summary replaced
    /// goes to `unused`.
    fn store_summary(
        &mut self,
        dir: &Path,
        summary: Arc<ModuleSummary>,
        reached: &ReachedDirs,
        unused: &mut Released,
    ) {
        self.tree
            .set_children(dir, summary.child_dirs().map(Path::to_path_buf));
        self.test_runs
            .set_children(dir, summary.test_run_dirs().map(Path::to_path_buf));
        let old = Arc::make_mut(&mut self.summaries).insert(dir.to_path_buf(), summary);
        self.mark_callers(dir, old.as_deref(), reached);
        unused.summaries.extend(old);
    }

    /// Marks stale the callers of `dir` that its new summary concerns: those
    /// that call it when its interface changed, and those that reach it when
    /// its own calls changed (a loop may have opened or closed). When its
    /// calls changed to reach a directory the job did not know (`reached`),
    /// `dir` itself is judged again in the tree it has now.
    fn mark_callers(&mut self, dir: &Path, old: Option<&ModuleSummary>, reached: &ReachedDirs) {
        let Some(new) = self.summaries.get(dir) else {
            return;
        };
        let interface_changed = old.is_none_or(|old| match (&old.interface, &new.interface) {
            (Some(old), Some(new)) => !Arc::ptr_eq(old, new) && old != new,
            (None, None) => false,
            _ => true,
        });
        let interface_changed =
            interface_changed || old.is_some_and(|old| old.unreadable != new.unreadable);
        let calls_changed = old.is_none_or(|old| old.module_calls != new.module_calls);
        // Analysed while nobody called it, and called by the time it
        // finished (its caller's analysis finished first): analysed again,
        // it computes the interface its callers are judged against. A
        // directory analysed as called always has one, so this ends.
        let own_interface_missing = new.interface.is_none() && self.is_called(dir);
        if !interface_changed && !calls_changed {
            if own_interface_missing {
                self.mark_stale(dir.to_path_buf());
            }
            return;
        }
        // A module this one now calls, analysed while nobody called it, has
        // no interface yet: analysed again, it computes one.
        let uncomputed: Vec<PathBuf> = if calls_changed {
            new.called_dirs()
                .filter(|called| {
                    self.summaries
                        .get(*called)
                        .is_some_and(|summary| summary.interface.is_none())
                })
                .map(Path::to_path_buf)
                .collect()
        } else {
            Vec::new()
        };
        let unknown_to_the_job = calls_changed
            && reached_dirs(dir, &self.tree, &self.test_runs)
                .iter()
                .any(|reached_dir| {
                    !reached.knows(reached_dir)
                        && self
                            .summaries
                            .get(reached_dir)
                            .is_some_and(|summary| summary.interface.is_some())
                });
        let mut callers = if calls_changed {
            self.tree.ancestors(dir)
        } else {
            self.tree.callers(dir).to_vec()
        };
        // The directories whose test runs call it, or (its calls changed:
        // a loop back to one may have opened or closed) call a directory
        // that reaches it.
        let mut run_by: Vec<PathBuf> = self.test_runs.callers(dir).to_vec();
        if calls_changed {
            for above in &callers {
                run_by.extend(self.test_runs.callers(above).iter().cloned());
            }
        }
        callers.extend(run_by);
        callers.sort();
        callers.dedup();
        let own = (unknown_to_the_job || own_interface_missing).then(|| dir.to_path_buf());
        for stale in uncomputed.into_iter().chain(own).chain(callers) {
            self.mark_stale(stale);
        }
    }

    /// Makes a known directory stale and hands it out with the next
    /// [`AnalysisHost::take_stale_callers`].
    fn mark_stale(&mut self, dir: PathBuf) {
        if self.modules.contains_key(&dir) {
            self.touch(&dir);
            if !self.stale_callers.contains(&dir) {
                self.stale_callers.push(dir);
            }
        }
    }

    /// The directories made stale by other directories' analyses since the
    /// last call (callers, and modules newly called), for the caller to
    /// analyse (each is stale: [`AnalysisHost::is_stale`]).
    pub fn take_stale_callers(&mut self) -> Vec<PathBuf> {
        std::mem::take(&mut self.stale_callers)
    }

    /// Drops the least recently used full analyses of directories without
    /// open buffers beyond [`AnalysisHost::keep_full_analyses`], with their
    /// analysis caches; never that of `just_stored`, which someone wants now,
    /// nor one whose summary was made with open buffers (it has no symbol
    /// index; the directory is stale since they closed, and its next
    /// analysis makes a summary that stands alone).
    fn drop_unused_analyses(&mut self, just_stored: &Path, unused: &mut Released) {
        let Some(keep) = self.keep_full else {
            return;
        };
        // Most analyses find nothing to drop: counted before any is sorted.
        if self.analyses.len() <= keep {
            return;
        }
        let mut closed: Vec<(u64, PathBuf)> = self
            .analyses
            .keys()
            .filter(|dir| {
                !self.has_buffers(dir)
                    && self
                        .summaries
                        .get(*dir)
                        .is_some_and(|summary| summary.has_symbol_index())
            })
            .map(|dir| (self.last_used.get(dir).copied().unwrap_or(0), dir.clone()))
            .collect();
        let excess = closed.len().saturating_sub(keep);
        if excess == 0 {
            return;
        }
        closed.sort();
        for (_, dir) in closed
            .into_iter()
            .filter(|(_, dir)| dir != just_stored)
            .take(excess)
        {
            unused
                .analyses
                .extend(Arc::make_mut(&mut self.analyses).remove(&dir));
            self.last_used.remove(&dir);
            if let Some(inputs) = self.modules.get_mut(&dir) {
                if let Some(cache) = inputs.cache.as_mut() {
                    unused.caches.push(std::mem::take(cache));
                }
            }
        }
    }

    /// Analyses `dir` now, on this thread, if it is stale or only its
    /// summary is kept.
    pub fn analyze_now(&mut self, dir: &Path) {
        if !self.is_stale(dir) && self.has_full_analysis(dir) {
            self.mark_used(dir);
            return;
        }
        if let Some(job) = self.start_analysis(dir) {
            let finished = job.run();
            self.finish_analysis(finished);
        }
    }

    /// [`AnalysisHost::analyze_now`], then the callers that made stale, until
    /// none is left (bounded: a caller is analysed again only when a module
    /// it calls changed its interface or calls).
    pub fn analyze_now_with_callers(&mut self, dir: &Path) {
        self.analyze_now(dir);
        let mut budget = self.modules.len().saturating_mul(2);
        while let Some(caller) = self.stale_callers.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            self.analyze_now(&caller);
        }
    }

    /// The number of files parsed so far in `dir` (not found in its cache);
    /// `None` while a job holds the cache.
    pub fn n_parsed(&self, dir: &Path) -> Option<u64> {
        self.modules
            .get(dir)?
            .cache
            .as_ref()
            .map(|cache| cache.counters().n_parsed)
    }

    /// What the host knows now of the directories `calls` (the calls `dir`
    /// has, which its summary may not have yet) reach, for a running job
    /// ([`AnalysisJob::run_with`]).
    pub fn reached_by(&self, dir: &Path, calls: &[ModuleCall]) -> ReachedDirs {
        ReachedDirs::gather_for_calls(dir, calls, &self.tree, &self.summaries)
    }

    /// True when another directory's calls, or its test runs, read `dir`,
    /// as the summaries stored say (its interface is then computed).
    pub fn is_called(&self, dir: &Path) -> bool {
        self.tree.is_called(dir) || self.test_runs.is_called(dir)
    }

    /// The directories `calls` (the calls `dir` has now) reach whose
    /// summary has no interface (nobody called them when they were
    /// analysed) while their full analysis of that summary's generation is
    /// still kept: a module analysed just before its caller, say. Their
    /// interfaces can be computed from those analyses and given back
    /// ([`AnalysisHost::set_interfaces`]) before `dir` is judged against
    /// them.
    pub fn missing_interfaces(&self, dir: &Path, calls: &[ModuleCall]) -> Vec<MissingInterface> {
        let mut reached: Vec<PathBuf> = Vec::new();
        for called in calls.iter().filter_map(|call| call.dir.as_deref()) {
            reached.push(called.to_path_buf());
            reached.extend(self.tree.descendants(called));
        }
        reached.retain(|reached| reached != dir);
        reached.sort();
        reached.dedup();
        reached
            .into_iter()
            .filter_map(|reached| {
                let summary = self.summaries.get(&reached)?;
                if summary.interface.is_some() || summary.unreadable {
                    return None;
                }
                let full = self.analyses.get(&reached)?;
                (full.generation == summary.generation).then(|| MissingInterface {
                    generation: summary.generation,
                    analysis: Arc::clone(&full.analysis),
                    dir: reached,
                })
            })
            .collect()
    }

    /// Jobs for the modules `dir`'s `calls` reach that were analysed before
    /// anyone called them and whose full analysis is not kept (an indexing
    /// pass keeps summaries only, and others are dropped beyond
    /// [`AnalysisHost::keep_full_analyses`]): run, each gives its module's
    /// interface ([`AnalysisHost::set_interface_from`]) before `dir` is
    /// judged, rather than the module being analysed again once `dir` calls
    /// it and `dir` again after it.
    pub fn interface_jobs(&mut self, dir: &Path, calls: &[ModuleCall]) -> Vec<AnalysisJob> {
        let mut reached: Vec<PathBuf> = calls
            .iter()
            .filter_map(|call| call.dir.clone())
            .filter(|called| called != dir)
            .collect();
        reached.sort();
        reached.dedup();
        reached.retain(|reached| {
            self.summaries.get(reached).is_some_and(|summary| {
                summary.interface.is_none()
                    && !summary.unreadable
                    && self
                        .analyses
                        .get(reached)
                        .is_none_or(|full| full.generation != summary.generation)
                    && self
                        .modules
                        .get(reached)
                        .is_some_and(|inputs| inputs.generation == summary.generation)
            })
        });
        reached
            .iter()
            .filter_map(|reached| {
                let mut job = self.start_analysis(reached)?;
                job.is_called = true;
                Some(job)
            })
            .collect()
    }

    /// Gives a directory the interface an [`AnalysisHost::interface_jobs`]
    /// job computed, unless it was analysed again since; hands back the
    /// analysis and its cache for the caller to drop.
    pub fn set_interface_from(&mut self, finished: AnalysisResult) -> Released {
        let AnalysisResult {
            snapshot,
            summary,
            cache,
            ..
        } = finished;
        // The directory keeps no full analysis, so no parses either (as
        // when its analysis was dropped): the cache goes with the analysis.
        let mut unused = Released::default();
        unused.caches.push(cache);
        if let Some(inputs) = self.modules.get_mut(&snapshot.dir) {
            if inputs.cache.is_none() {
                inputs.cache = Some(AnalysisCache::default());
            }
        }
        if let Some(interface) = summary.interface.clone() {
            self.set_interfaces(vec![ComputedInterface {
                dir: snapshot.dir.clone(),
                generation: snapshot.generation,
                interface,
            }]);
        }
        unused.summaries.push(summary);
        unused.analyses.push(snapshot);
        unused
    }

    /// Gives directories the interfaces computed for them
    /// ([`AnalysisHost::missing_interfaces`]), unless they were analysed
    /// again since.
    pub fn set_interfaces(&mut self, computed: Vec<ComputedInterface>) {
        for computed in computed {
            let current = self.summaries.get(&computed.dir).is_some_and(|summary| {
                summary.generation == computed.generation && summary.interface.is_none()
            });
            if !current {
                continue;
            }
            if let Some(summary) = Arc::make_mut(&mut self.summaries).get_mut(&computed.dir) {
                Arc::make_mut(summary).interface = Some(computed.interface);
            }
        }
    }

    /// True when another directory calls `dir` and its summary has no
    /// interface: it was analysed before anyone called it, and must be
    /// analysed again before its callers can be judged against it.
    pub fn lacks_interface(&self, dir: &Path) -> bool {
        self.is_called(dir)
            && self
                .summaries
                .get(dir)
                .is_some_and(|summary| summary.interface.is_none())
    }

    /// The summary of the latest analysis of `dir`: what publishing reads.
    /// A server holds it while it converts the diagnostics, rather than a
    /// [`Snapshot`]: the map of every directory's summary is copied by the
    /// next analysis to finish while a snapshot shares it, which on a
    /// workspace of 13,500 directories cost a copy of the map per analysis.
    pub fn summary(&self, dir: &Path) -> Option<Arc<ModuleSummary>> {
        self.summaries.get(dir).map(Arc::clone)
    }

    /// An immutable view of every stored analysis.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::new(
            Arc::clone(&self.analyses),
            Arc::clone(&self.summaries),
            Arc::clone(&self.shared),
        )
    }
}

/// The module directory and the input name of a path: a configuration or
/// variable definitions file's directory and name, or for a module manifest
/// (`DIR/.terraform/modules/modules.json`) `DIR` and [`MODULE_MANIFEST`];
/// `None` for any other path.
pub fn module_input_of(path: &Path) -> Option<(PathBuf, String)> {
    let manifest = Path::new(MODULE_MANIFEST);
    if path.ends_with(manifest) {
        let mut dir = path.to_path_buf();
        for _ in manifest.components() {
            dir.pop();
        }
        return Some((dir, MODULE_MANIFEST.to_owned()));
    }
    let (dir, name) = dir_and_file_name(path)?;
    is_module_file(&name).then_some((dir, name))
}

/// The directory and name of a configuration or variable definitions file
/// path (what an editor buffer may stand for); `None` for any other path.
fn config_file(path: &Path) -> Option<(PathBuf, String)> {
    let (dir, name) = dir_and_file_name(path)?;
    is_module_file(&name).then_some((dir, name))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn text(content: &str) -> FileContent {
        FileContent::Text(Arc::from(content))
    }

    /// Files parsed and modules analysed across the whole host while `change`
    /// is applied and every stale directory is brought up to date, the way
    /// the server does after a keystroke.
    fn work_for(host: &mut AnalysisHost, change: Change) -> (u64, usize) {
        let dirs: Vec<PathBuf> = host.module_dirs().map(Path::to_path_buf).collect();
        // Count from zero, so that a cache replaced by a new one counts too.
        for inputs in host.modules.values_mut() {
            inputs.cache.as_mut().unwrap().reset_counters();
        }
        let before = host.snapshot();
        let stale = host.apply_change(change);
        for dir in &stale {
            host.analyze_now_with_callers(dir);
        }
        for dir in &dirs {
            assert!(!host.is_stale(dir), "{} left stale", dir.display());
        }
        let reparsed = dirs.iter().map(|dir| host.n_parsed(dir).unwrap()).sum();
        let after = host.snapshot();
        let reanalysed = dirs
            .iter()
            .filter(|dir| {
                !Arc::ptr_eq(
                    &before.module(dir).unwrap().analysis,
                    &after.module(dir).unwrap().analysis,
                )
            })
            .count();
        (reparsed, reanalysed)
    }

    /// A values file named from another directory (`../shared/x.tfvars`)
    /// is read from what the host holds there, and a change to it makes
    /// the directory that names it stale, as does naming other files.
    #[test]
    fn a_values_file_named_from_elsewhere_is_followed() {
        let mut host = AnalysisHost::new(Config::default());
        let env = Path::new("/w/env");
        let shared = Path::new("/w/shared");
        host.apply_change(Change::DiskDir {
            dir: env.to_path_buf(),
            files: vec![InputFile::text(
                "main.tf",
                "variable \"n\" {\n  type = number\n  validation {\n    condition     = var.n < 5\n    error_message = \"Small.\"\n  }\n}\n",
            )],
        });
        host.apply_change(Change::DiskDir {
            dir: shared.to_path_buf(),
            files: vec![InputFile::text("x.tfvars", "n = 3\n")],
        });
        let codes = |host: &mut AnalysisHost| -> Vec<&'static str> {
            host.analyze_now(env);
            let snapshot = host.snapshot();
            snapshot
                .module(env)
                .unwrap()
                .analysis
                .diagnostics
                .iter()
                .map(|d| d.code.as_str())
                .filter(|code| code.starts_with("plan-"))
                .collect()
        };
        assert!(codes(&mut host).is_empty());
        let values = GivenValues {
            environment: Vec::new(),
            given: vec![tofu_module::GivenValue::File("../shared/x.tfvars".into())],
        };
        let stale = host.set_given_values(BTreeMap::from([(env.to_path_buf(), values.clone())]));
        assert_eq!(stale, [env.to_path_buf()]);
        assert!(codes(&mut host).is_empty());
        // The same values again change nothing.
        assert!(host
            .set_given_values(BTreeMap::from([(env.to_path_buf(), values)]))
            .is_empty());
        let stale = host.apply_change(Change::BufferChanged {
            path: shared.join("x.tfvars"),
            text: Arc::from("n = 9\n"),
            version: 1,
        });
        assert_eq!(stale, [env.to_path_buf(), shared.to_path_buf()]);
        assert_eq!(codes(&mut host), ["plan-variable-validation"]);
        let stale = host.set_given_values(BTreeMap::new());
        assert_eq!(stale, [env.to_path_buf()]);
        assert!(codes(&mut host).is_empty());
    }

    /// A failed validation offers "Go to the value": the values file's
    /// line that gives it, or the default when nothing else does.
    #[test]
    fn a_failed_validation_offers_to_go_to_its_value() {
        let mut host = AnalysisHost::new(Config::default());
        let dir = Path::new("/w/env");
        host.apply_change(Change::DiskDir {
            dir: dir.to_path_buf(),
            files: vec![
                InputFile::text(
                    "main.tf",
                    "variable \"n\" {\n  type = number\n  validation {\n    condition     = var.n < 5\n    error_message = \"Small.\"\n  }\n}\n\nvariable \"m\" {\n  type    = number\n  default = 9\n  validation {\n    condition     = var.m < 5\n    error_message = \"Small.\"\n  }\n}\n",
                ),
                InputFile::text("terraform.tfvars", "# values\nn = 7\n"),
            ],
        });
        host.analyze_now(dir);
        let snapshot = host.snapshot();
        let main = dir.join("main.tf");
        let everywhere = tofu_syntax::TextRange::new(0, 400);
        let titles: Vec<(String, String, u32)> = snapshot
            .value_sources(&main, everywhere)
            .into_iter()
            .map(|source| {
                let file = source
                    .target
                    .path
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (source.title, file, source.target.range.start)
            })
            .collect();
        assert_eq!(
            titles,
            [
                (
                    "Go to the value of var.n (terraform.tfvars:2)".to_owned(),
                    "terraform.tfvars".to_owned(),
                    13
                ),
                (
                    "Go to the value of var.m (main.tf:11)".to_owned(),
                    "main.tf".to_owned(),
                    158
                ),
            ]
        );
        // Nothing outside the diagnostics.
        assert!(snapshot
            .value_sources(&main, tofu_syntax::TextRange::new(399, 400))
            .is_empty());
    }

    /// `dir` on disk as a child module declaring one required variable `a`.
    fn put_child(host: &mut AnalysisHost, dir: &Path) {
        host.apply_change(Change::DiskDir {
            dir: dir.to_path_buf(),
            files: vec![InputFile::text("variables.tf", "variable \"a\" {}\n")],
        });
    }

    /// `dir` on disk as a module calling `./child` without arguments.
    fn put_caller(host: &mut AnalysisHost, dir: &Path) {
        host.apply_change(Change::DiskDir {
            dir: dir.to_path_buf(),
            files: vec![InputFile::text(
                "main.tf",
                "module \"c\" {\n  source = \"./child\"\n}\n",
            )],
        });
    }

    fn disk_text(host: &AnalysisHost, dir: &str, name: &str) -> Arc<str> {
        match &host.modules[Path::new(dir)].disk[name] {
            FileContent::Text(text) => Arc::clone(text),
            other => panic!("not a text: {other:?}"),
        }
    }

    /// Workspaces repeat files word for word (every cloudposse component
    /// has the same `context.tf`): the host holds one copy of such a text,
    /// however it was read.
    #[test]
    fn a_text_read_in_several_directories_is_held_once() {
        let mut host = AnalysisHost::new(Config::default());
        let context = "variable \"context\" {}\n";
        for dir in ["/w/a", "/w/b"] {
            host.apply_change(Change::DiskDir {
                dir: PathBuf::from(dir),
                files: vec![
                    InputFile::text("context.tf", context),
                    InputFile::text("main.tf", format!("locals {{ dir = \"{dir}\" }}\n")),
                ],
            });
        }
        host.apply_change(Change::DiskFile {
            path: PathBuf::from("/w/c/context.tf"),
            content: text(context),
        });
        let held = disk_text(&host, "/w/a", "context.tf");
        assert!(Arc::ptr_eq(&held, &disk_text(&host, "/w/b", "context.tf")));
        assert!(Arc::ptr_eq(&held, &disk_text(&host, "/w/c", "context.tf")));
        assert!(!Arc::ptr_eq(
            &disk_text(&host, "/w/a", "main.tf"),
            &disk_text(&host, "/w/b", "main.tf")
        ));
    }

    /// The regression guard of the incremental design (issue 9): it counts
    /// work instead of timing it, so CI can afford it and no machine makes it
    /// flaky. One keystroke reparses one file and re-analyses one module,
    /// however many files and modules the workspace holds.
    #[test]
    fn an_edit_reparses_only_the_edited_file_of_its_directory() {
        let mut host = AnalysisHost::new(Config::default());
        let dir = PathBuf::from("/w/a");
        let nested = PathBuf::from("/w/a/nested");
        let other = PathBuf::from("/w/b");
        host.apply_change(Change::DiskDir {
            dir: dir.clone(),
            files: vec![
                InputFile::text("main.tf", "variable \"a\" {}\n"),
                InputFile::text("other.tf", "variable \"b\" {}\n"),
                InputFile::text("extra_override.tf", "variable \"b\" { default = 1 }\n"),
                InputFile::text("notes.txt", "ignored"),
            ],
        });
        host.apply_change(Change::DiskFile {
            path: nested.join("main.tf"),
            content: text("output \"x\" { value = 1 }\n"),
        });
        host.apply_change(Change::DiskFile {
            path: other.join("main.tf"),
            content: text("locals {}\n"),
        });
        for module in [&dir, &nested, &other] {
            host.analyze_now(module);
        }
        assert_eq!(host.n_parsed(&dir), Some(3));

        let keystroke = |text: &str, version| Change::BufferChanged {
            path: PathBuf::from("/w/a/main.tf"),
            text: Arc::from(text),
            version,
        };
        let (files_reparsed, modules_reanalysed) = work_for(
            &mut host,
            keystroke("variable \"a\" {}\nvariable \"a\" {}\n", 7),
        );
        assert_eq!((files_reparsed, modules_reanalysed), (1, 1));
        let analysis = host.snapshot();
        let module = analysis.module(&dir).unwrap();
        assert_eq!(module.buffer_versions.get("main.tf"), Some(&7));
        assert_eq!(module.analysis.files.len(), 3);
        let errors = |diagnostics: &[tofu_syntax::Diagnostic]| {
            diagnostics.iter().filter(|d| d.is_error()).count()
        };
        assert_eq!(errors(&module.analysis.diagnostics), 1);

        // The next keystroke costs the same: the cache holds the other files.
        let (files_reparsed, modules_reanalysed) = work_for(
            &mut host,
            keystroke("variable \"a\" {}\nvariable \"c\" {}\n", 8),
        );
        assert_eq!((files_reparsed, modules_reanalysed), (1, 1));
        let snapshot = host.snapshot();
        assert_eq!(
            errors(&snapshot.module(&dir).unwrap().analysis.diagnostics),
            0
        );
    }

    #[test]
    fn closing_a_buffer_brings_back_the_disk_content() {
        let mut host = AnalysisHost::new(Config::default());
        let path = PathBuf::from("/w/main.tf");
        host.apply_change(Change::DiskFile {
            path: path.clone(),
            content: text("variable \"a\" {}\n"),
        });
        host.apply_change(Change::BufferChanged {
            path: path.clone(),
            text: Arc::from("oops {\n"),
            version: 2,
        });
        host.analyze_now(Path::new("/w"));
        assert!(!host
            .snapshot()
            .module(Path::new("/w"))
            .unwrap()
            .analysis
            .diagnostics
            .is_empty());
        host.apply_change(Change::BufferClosed { path });
        host.analyze_now(Path::new("/w"));
        let snapshot = host.snapshot();
        let module = snapshot.module(Path::new("/w")).unwrap();
        assert!(!module.analysis.has_errors());
        assert!(module.buffer_versions.is_empty());
    }

    /// Three directories with errors, symbols and a local module call, on a
    /// host that keeps every full analysis and on one that keeps one.
    fn three_modules(keep: Option<usize>) -> AnalysisHost {
        let mut host = AnalysisHost::new(Config::default());
        if let Some(keep) = keep {
            host.keep_full_analyses(keep);
        }
        for (dir, main) in [
            ("/w/root", "module \"net\" {\n  source = \"../net\"\n  cidr   = \"10.0.0.0/16\"\n}\nvariable \"a\" {}\nvariable \"a\" {}\n"),
            ("/w/net", "variable \"cidr\" {}\noutput \"id\" { value = var.cidr }\nlocals { n = 1 }\n"),
            ("/w/app", "resource \"aws_instance\" \"web\" {\n  depends_on = oops\n}\n"),
        ] {
            host.apply_change(Change::DiskDir {
                dir: PathBuf::from(dir),
                files: vec![InputFile::text("main.tf", main)],
            });
            host.analyze_now_with_callers(Path::new(dir));
        }
        host
    }

    #[test]
    fn directories_beyond_the_kept_ones_keep_their_summary_only() {
        let all = three_modules(None).snapshot();
        let mut host = three_modules(Some(1));
        let dirs = ["/w/root", "/w/net", "/w/app"].map(PathBuf::from);
        // Only the last one analysed keeps its full analysis.
        let full: Vec<bool> = dirs.iter().map(|dir| host.has_full_analysis(dir)).collect();
        assert_eq!(full, [false, false, true]);
        let kept = host.snapshot();
        assert!(kept.module(&dirs[0]).is_none());
        for dir in &dirs {
            assert!(!host.is_stale(dir));
            assert_eq!(kept.generation(dir), all.generation(dir));
            let diagnostics = |analysis: &Snapshot| {
                analysis
                    .module_diagnostics(dir)
                    .into_iter()
                    .map(|file| (file.path, file.diagnostics))
                    .collect::<Vec<_>>()
            };
            assert_eq!(diagnostics(&kept), diagnostics(&all));
        }
        assert!(kept
            .module_diagnostics(&dirs[0])
            .iter()
            .any(|file| !file.diagnostics.is_empty()));
        assert_eq!(kept.workspace_symbols(""), all.workspace_symbols(""));
        assert_eq!(all.workspace_symbols("").len(), 6);
        // The caller is found through its summary: renaming the called
        // module's variable renames the caller's argument too, once the
        // caller's full analysis is at hand; without it, nothing is renamed.
        host.analyze_now(&dirs[1]);
        let net = host.snapshot();
        assert!(net.module(&dirs[1]).is_some());
        assert!(net.module(&dirs[0]).is_none());
        let offset = "variable \"".len() as u32;
        let main = Path::new("/w/net/main.tf");
        assert_eq!(net.related_dirs(main, offset, true), [dirs[0].clone()]);
        let refused = net.rename(main, offset, "block").unwrap_err();
        assert!(
            refused
                .message()
                .contains("module \"net\" in /w/root/main.tf calls this module, and its analysis is not available"),
            "{refused}"
        );
        let everywhere = all.rename(main, offset, "block").unwrap();
        let touched: Vec<String> = everywhere
            .iter()
            .map(|edit| format!("{} {}", edit.location.path.display(), edit.new_text))
            .collect();
        assert_eq!(
            touched,
            [
                "/w/net/main.tf \"block\"",
                "/w/net/main.tf block",
                "/w/root/main.tf block"
            ]
        );
        let root_module = all.module(&dirs[0]).cloned().unwrap();
        assert_eq!(
            net.with_modules([root_module])
                .rename(main, offset, "block"),
            Ok(everywhere)
        );
        // Analysing `net` again brought back its full analysis; `app`, the
        // least recently used, lost its own and its analysis cache.
        assert!(!host.has_full_analysis(&dirs[2]));
        assert_eq!(host.n_parsed(&dirs[2]), Some(0));
    }

    #[test]
    fn a_directory_with_an_open_buffer_keeps_its_full_analysis() {
        let mut host = three_modules(Some(0));
        let path = PathBuf::from("/w/net/main.tf");
        host.apply_change(Change::BufferChanged {
            path,
            text: Arc::from("variable \"cidr\" {}\n"),
            version: 1,
        });
        host.analyze_now(Path::new("/w/net"));
        host.analyze_now(Path::new("/w/app"));
        // Kept: the open one, and the one just analysed (until the next).
        assert!(host.has_full_analysis(Path::new("/w/net")));
        assert!(host.has_full_analysis(Path::new("/w/app")));
        assert!(!host.has_full_analysis(Path::new("/w/root")));
        host.analyze_now(Path::new("/w/root"));
        assert!(host.has_full_analysis(Path::new("/w/net")));
        assert!(!host.has_full_analysis(Path::new("/w/app")));
        let cidr = |host: &AnalysisHost| {
            host.snapshot()
                .workspace_symbols("variable.cidr")
                .iter()
                .map(|symbol| symbol.location.path.clone())
                .collect::<Vec<_>>()
        };
        // Open, its symbols come from the full analysis.
        assert_eq!(cidr(&host), [PathBuf::from("/w/net/main.tf")]);
        // Closed, it goes once analysed again, with the next analysis of
        // another directory.
        host.apply_change(Change::BufferClosed {
            path: PathBuf::from("/w/net/main.tf"),
        });
        // Closed but not analysed again, it stays: its summary has no
        // symbols to stand in for it.
        host.analyze_now(Path::new("/w/app"));
        assert!(host.has_full_analysis(Path::new("/w/net")));
        assert_eq!(cidr(&host), [PathBuf::from("/w/net/main.tf")]);
        host.analyze_now(Path::new("/w/net"));
        host.analyze_now(Path::new("/w/app"));
        assert!(!host.has_full_analysis(Path::new("/w/net")));
        assert!(!host.is_stale(Path::new("/w/net")));
        assert_eq!(cidr(&host), [PathBuf::from("/w/net/main.tf")]);
    }

    #[test]
    fn an_older_analysis_never_replaces_a_newer_one() {
        let mut host = AnalysisHost::new(Config::default());
        let path = PathBuf::from("/w/main.tf");
        host.apply_change(Change::DiskFile {
            path: path.clone(),
            content: text("variable \"a\" {}\n"),
        });
        let old_job = host.start_analysis(Path::new("/w")).unwrap();
        host.apply_change(Change::DiskFile {
            path,
            content: text("variable \"b\" {}\n"),
        });
        let new_job = host.start_analysis(Path::new("/w")).unwrap();
        assert!(host.finish_analysis(new_job.run()));
        assert!(!host.finish_analysis(old_job.run()));
        assert!(!host.is_stale(Path::new("/w")));
    }

    /// `tofu init`'s module manifest is an input of the directory above
    /// `.terraform`: from a single file change or with the directory's
    /// files, never analysed, gone when the file or the directory goes.
    #[test]
    fn the_module_manifest_is_an_input_of_its_directory() {
        let manifest =
            r#"{"Modules":[{"Key":"vpc","Source":"x/vpc/aws","Dir":".terraform/modules/vpc"}]}"#;
        let root = PathBuf::from("/w/root");
        let installed = |host: &AnalysisHost| {
            host.snapshot()
                .summary(&root)
                .and_then(|summary| {
                    let manifest = summary.manifest()?;
                    Some(
                        manifest
                            .direct_calls()
                            .map(|(key, dir)| (key.to_owned(), dir.to_owned()))
                            .collect::<Vec<_>>(),
                    )
                })
                .unwrap_or_default()
        };
        let vpc = || vec![("vpc".to_owned(), ".terraform/modules/vpc".to_owned())];
        let main = InputFile::text("main.tf", "module \"vpc\" {\n  source = \"x/vpc/aws\"\n}\n");
        let mut host = AnalysisHost::new(Config::default());
        host.apply_change(Change::DiskDir {
            dir: root.clone(),
            files: vec![main.clone(), InputFile::text(MODULE_MANIFEST, manifest)],
        });
        host.analyze_now(&root);
        assert_eq!(installed(&host), vpc());
        let analysis = host.snapshot();
        assert_eq!(analysis.module(&root).unwrap().analysis.files.len(), 1);
        assert_eq!(
            analysis.called_dir(&root, "vpc"),
            Some(Path::new("/w/root/.terraform/modules/vpc"))
        );
        let path = root.join(MODULE_MANIFEST);
        assert_eq!(
            module_input_of(&path),
            Some((root.clone(), MODULE_MANIFEST.to_owned()))
        );
        let stale = host.apply_change(Change::DiskFileRemoved { path: path.clone() });
        assert_eq!(stale, std::slice::from_ref(&root));
        host.analyze_now(&root);
        assert!(installed(&host).is_empty());
        host.apply_change(Change::DiskFile {
            path,
            content: text(manifest),
        });
        host.analyze_now(&root);
        assert_eq!(installed(&host), vpc());
        // Read again without it: gone.
        host.apply_change(Change::DiskDir {
            dir: root.clone(),
            files: vec![main],
        });
        host.analyze_now(&root);
        assert!(installed(&host).is_empty());
        // An editor buffer never stands for it.
        let buffer = Change::BufferChanged {
            path: root.join(MODULE_MANIFEST),
            text: Arc::from(manifest),
            version: 1,
        };
        assert!(host.apply_change(buffer).is_empty());
    }

    #[test]
    fn removing_a_directory_empties_every_module_below_it() {
        let mut host = AnalysisHost::new(Config::default());
        for dir in ["/w/a", "/w/a/b", "/w/c"] {
            host.apply_change(Change::DiskFile {
                path: Path::new(dir).join("main.tf"),
                content: text(""),
            });
        }
        let mut affected = host.apply_change(Change::DiskDirRemoved {
            dir: PathBuf::from("/w/a"),
        });
        affected.sort();
        assert_eq!(affected, [PathBuf::from("/w/a"), PathBuf::from("/w/a/b")]);
        let dirs: Vec<&Path> = host.module_dirs().collect();
        assert_eq!(dirs, [Path::new("/w/c")]);
    }

    fn codes(host: &AnalysisHost, dir: &Path) -> Vec<&'static str> {
        let snapshot = host.snapshot();
        let module = snapshot.module(dir).unwrap();
        module
            .analysis
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.is_error())
            .map(|diagnostic| diagnostic.code.as_str())
            .collect()
    }

    /// Issue 27: a caller is judged against the summary of the module it
    /// calls; a keystroke in the child that keeps its interface re-analyses
    /// the child alone, a new variable re-analyses its caller too.
    #[test]
    fn a_child_interface_change_re_checks_its_callers_only() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let child = PathBuf::from("/w/root/modules/child");
        let other = PathBuf::from("/w/other");
        host.apply_change(Change::DiskDir {
            dir: root.clone(),
            files: vec![InputFile::text(
                "main.tf",
                "module \"c\" {\n  source = \"./modules/child\"\n  a = 1\n  b = 2\n}\n",
            )],
        });
        put_child(&mut host, &child);
        host.apply_change(Change::DiskDir {
            dir: other.clone(),
            files: vec![InputFile::text("main.tf", "locals {}\n")],
        });
        // The caller first, before the child is known: its call is not judged.
        for dir in [&root, &child, &other] {
            host.analyze_now_with_callers(dir);
        }
        assert_eq!(codes(&host, &root), ["undeclared-module-input"]);

        let (_, reanalysed) = work_for(
            &mut host,
            Change::BufferChanged {
                path: child.join("variables.tf"),
                text: Arc::from("variable \"a\" {} # a comment\n"),
                version: 1,
            },
        );
        assert_eq!(reanalysed, 1, "a keystroke that keeps the interface");

        let (_, reanalysed) = work_for(
            &mut host,
            Change::BufferChanged {
                path: child.join("variables.tf"),
                text: Arc::from("variable \"a\" {} # a comment\nvariable \"b\" {}\n"),
                version: 2,
            },
        );
        assert_eq!(reanalysed, 2, "the child and its caller");
        assert!(codes(&host, &root).is_empty());
    }

    /// A module analysed before anyone called it has no interface; the
    /// caller analysed later has it computed, and is judged against it.
    #[test]
    fn a_module_analysed_before_its_caller_is_judged_once_called() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let child = PathBuf::from("/w/root/child");
        put_child(&mut host, &child);
        host.analyze_now_with_callers(&child);
        assert!(host
            .snapshot()
            .summaries()
            .all(|summary| summary.interface.is_none()));
        put_caller(&mut host, &root);
        host.analyze_now_with_callers(&root);
        assert!(!host.is_stale(&root) && !host.is_stale(&child));
        assert_eq!(codes(&host, &root), ["missing-module-input"]);
    }

    /// What an indexing pass stores: the summary only (the analysis and
    /// its cache handed back, for the thread that built them to free),
    /// unless the directory has open buffers; a caller found later is still
    /// judged against the module (analysed again for its interface).
    #[test]
    fn a_summary_only_analysis_hands_back_the_analysis_and_still_serves_callers() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let child = PathBuf::from("/w/root/child");
        put_child(&mut host, &child);
        let finished = host.start_analysis(&child).unwrap().run();
        let (stored, released) = host.finish_analysis_summary_only(finished);
        assert!(stored);
        assert_eq!((released.analyses.len(), released.caches.len()), (1, 1));
        assert!(!host.has_full_analysis(&child));
        assert!(!host.is_stale(&child));
        assert!(host
            .snapshot()
            .summaries()
            .any(|summary| summary.dir == child));
        put_caller(&mut host, &root);
        host.analyze_now_with_callers(&root);
        assert!(!host.is_stale(&root) && !host.is_stale(&child));
        assert_eq!(codes(&host, &root), ["missing-module-input"]);

        // With an open buffer, the full analysis stays.
        host.apply_change(Change::BufferChanged {
            path: child.join("variables.tf"),
            text: Arc::from("variable \"b\" {}\n"),
            version: 1,
        });
        let finished = host.start_analysis(&child).unwrap().run();
        let (stored, _) = host.finish_analysis_summary_only(finished);
        assert!(stored);
        assert!(host.has_full_analysis(&child));
        assert!(host.snapshot().module(&child).is_some());
    }

    /// A module whose analysis is not kept is analysed for its interface
    /// inside its caller's job ([`AnalysisHost::interface_jobs`]): the
    /// caller is judged against it at once, and nothing is left stale (no
    /// second analysis of the module nor of the caller).
    #[test]
    fn a_caller_has_the_interface_of_a_module_whose_analysis_is_gone_computed_at_once() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let child = PathBuf::from("/w/root/child");
        put_child(&mut host, &child);
        let finished = host.start_analysis(&child).unwrap().run();
        host.finish_analysis_summary_only(finished);
        put_caller(&mut host, &root);
        let job = host.start_analysis(&root).unwrap();
        let host = std::cell::RefCell::new(host);
        let reach = |dir: &Path, calls: &[ModuleCall]| {
            let jobs = host.borrow_mut().interface_jobs(dir, calls);
            assert_eq!(jobs.len(), 1);
            for job in jobs {
                let finished = job.run();
                host.borrow_mut().set_interface_from(finished);
            }
            Some(host.borrow().reached_by(dir, calls))
        };
        let finished = job.run_with(&reach);
        let mut host = host.into_inner();
        host.finish_analysis(finished);
        assert!(host.take_stale_callers().is_empty());
        assert!(!host.is_stale(&root) && !host.is_stale(&child));
        assert_eq!(codes(&host, &root), ["missing-module-input"]);
        assert!(host.interface_jobs(&root, &[]).is_empty());
    }

    /// A module whose analysis started before anyone called it, and
    /// finished after its caller's: it has no interface, so it is analysed
    /// again once called, and its caller is judged against it (a race of
    /// the server's indexing lanes, which the server = check test found).
    #[test]
    fn a_module_called_while_it_was_analysed_is_analysed_again_for_its_caller() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let child = PathBuf::from("/w/root/child");
        put_child(&mut host, &child);
        put_caller(&mut host, &root);
        let child_job = host.start_analysis(&child).unwrap();
        let root_job = host.start_analysis(&root).unwrap();
        host.finish_analysis(root_job.run());
        host.finish_analysis(child_job.run());
        for _ in 0..10 {
            let stale = host.take_stale_callers();
            if stale.is_empty() {
                break;
            }
            for dir in stale {
                host.analyze_now_with_callers(&dir);
            }
        }
        assert!(!host.is_stale(&root) && !host.is_stale(&child));
        assert_eq!(codes(&host, &root), ["missing-module-input"]);
    }

    /// Calls that lead back to their own directory are reported, and
    /// analysing them terminates.
    #[test]
    fn module_call_loops_terminate_and_are_reported() {
        let mut host = AnalysisHost::new(Config::default());
        let a = PathBuf::from("/w/a");
        let b = PathBuf::from("/w/b");
        host.apply_change(Change::DiskDir {
            dir: a.clone(),
            files: vec![InputFile::text(
                "main.tf",
                "module \"b\" {\n  source = \"../b\"\n}\n",
            )],
        });
        host.apply_change(Change::DiskDir {
            dir: b.clone(),
            files: vec![InputFile::text(
                "main.tf",
                "module \"a\" {\n  source = \"../a\"\n}\n",
            )],
        });
        host.analyze_now_with_callers(&a);
        host.analyze_now_with_callers(&b);
        assert!(!host.is_stale(&a) && !host.is_stale(&b));
        assert_eq!(codes(&host, &a), ["module-call-loop"]);
        assert_eq!(codes(&host, &b), ["module-call-loop"]);
    }

    /// A call of a directory that does not exist is "Unreadable module
    /// directory", and nothing else about the call; once the directory is
    /// read (it was created), the call is judged against it.
    #[test]
    fn a_call_of_an_unreadable_directory_is_reported_until_it_is_read() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let child = PathBuf::from("/w/root/modules/net");
        host.apply_change(Change::DiskDir {
            dir: root.clone(),
            files: vec![InputFile::text(
                "main.tf",
                "module \"net\" {\n  source = \"./modules/net\"\n  cidr   = \"10.0.0.0/16\"\n}\n",
            )],
        });
        host.apply_change(Change::DiskDirUnreadable { dir: child.clone() });
        host.analyze_now_with_callers(&root);
        host.analyze_now_with_callers(&child);
        assert_eq!(codes(&host, &root), ["module-dir-unreadable"]);
        // An existing directory without configuration files is an empty
        // module: the argument is no variable of it.
        host.apply_change(Change::DiskDir {
            dir: child.clone(),
            files: Vec::new(),
        });
        host.analyze_now_with_callers(&child);
        assert_eq!(codes(&host, &root), ["undeclared-module-input"]);
        host.apply_change(Change::DiskDir {
            dir: child.clone(),
            files: vec![InputFile::text("main.tf", "variable \"cidr\" {}\n")],
        });
        host.analyze_now_with_callers(&child);
        assert!(codes(&host, &root).is_empty());
    }

    /// `./setup` of a test run, requiring `foo` from `hashicorp/FOO_IS`.
    fn put_setup(host: &mut AnalysisHost, dir: &Path, foo_is: &str) {
        host.apply_change(Change::DiskDir {
            dir: dir.to_path_buf(),
            files: vec![InputFile::text(
                "main.tf",
                format!("terraform {{\n  required_providers {{\n    foo = {{\n      source = \"hashicorp/{foo_is}\"\n    }}\n  }}\n}}\n"),
            )],
        });
    }

    /// A test file's providers take their types from the module a run
    /// calls, as the host knows it: analysed after the test file's
    /// directory, and changed, it re-checks that directory.
    #[test]
    fn a_test_runs_module_gives_its_types_and_re_checks_the_test_file() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let setup = PathBuf::from("/w/root/setup");
        host.apply_change(Change::DiskDir {
            dir: root.clone(),
            files: vec![
                InputFile::text(
                    "main.tf",
                    "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n    }\n  }\n}\n",
                ),
                InputFile::text(
                    "main.tftest.hcl",
                    "provider \"foo\" {}\n\nrun \"setup\" {\n  module {\n    source = \"./setup\"\n  }\n}\n\nrun \"main\" {}\n",
                ),
            ],
        });
        put_setup(&mut host, &setup, "bar");
        // The test file's directory first: not judged until ./setup is known.
        host.analyze_now_with_callers(&root);
        assert!(codes(&host, &root).is_empty());
        assert!(host.is_called(&setup));
        assert!(host.callers(&setup).is_empty(), "a run is no module call");
        host.analyze_now_with_callers(&setup);
        assert!(!host.is_stale(&root));
        assert_eq!(codes(&host, &root), ["provider-type-mismatch"]);
        let (_, reanalysed) = work_for(
            &mut host,
            Change::BufferChanged {
                path: setup.join("main.tf"),
                text: Arc::from(
                    "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n    }\n  }\n}\n",
                ),
                version: 1,
            },
        );
        assert_eq!(reanalysed, 2, "./setup and the test file's directory");
        assert!(codes(&host, &root).is_empty());
    }

    /// A test run of the module that calls it is no loop of calls.
    #[test]
    fn a_test_run_back_to_the_caller_is_no_loop() {
        let mut host = AnalysisHost::new(Config::default());
        let root = PathBuf::from("/w/root");
        let child = PathBuf::from("/w/root/child");
        put_caller(&mut host, &root);
        host.apply_change(Change::DiskDir {
            dir: child.clone(),
            files: vec![
                InputFile::text("variables.tf", "variable \"a\" {}\n"),
                InputFile::text(
                    "main.tftest.hcl",
                    "run \"up\" {\n  module {\n    source = \"../\"\n  }\n}\n",
                ),
            ],
        });
        host.analyze_now_with_callers(&root);
        host.analyze_now_with_callers(&child);
        assert!(!host.is_stale(&root) && !host.is_stale(&child));
        assert_eq!(codes(&host, &root), ["missing-module-input"]);
        assert!(codes(&host, &child).is_empty());
    }
}

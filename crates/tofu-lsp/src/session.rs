//! The server's mutable state, behind one short-held lock: open documents,
//! the analysis host, settings, what the client supports, and per module
//! directory what was published and whether a worker is on it.
//!
//! Handlers change the session synchronously, before their first `.await`
//! (ARCHITECTURE.md, `tofu-lsp`), and never hold the lock across an `.await`. Analysis runs
//! outside the lock on jobs taken from the host; publishing works from
//! snapshots. The lock is a `std::sync::Mutex`: a panic while it is held
//! poisons it, and [`crate::shared::Shared::session`] recovers the state,
//! which every method leaves consistent between statements.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use tofu_ide::{dir_and_file_name, AnalysisHost};
use tofu_module::calls::normalize_path;
use tofu_module::discovery::is_module_file;
use tofu_module::given_values::relative_name;
use tofu_module::{GivenValue, GivenValues};
use tofu_vfs::schemas::DirSchemas;
use tower_lsp_server::ls_types::Uri;

use crate::document::Document;
use crate::position::PositionEncoding;
use crate::scheduling::Scheduling;
use crate::settings::{DiagnosticsScope, Settings};
use crate::uri;

/// What the client said it can do (from `initialize`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientSupport {
    /// `textDocument/diagnostic`: the client pulls, the server does not push.
    pub pull_diagnostics: bool,
    /// `workspace/diagnostic/refresh`.
    pub diagnostic_refresh: bool,
    /// Dynamic registration of `workspace/didChangeWatchedFiles`.
    pub watched_files_registration: bool,
    /// `workspace/configuration`.
    pub configuration: bool,
    /// `window/workDoneProgress`.
    pub work_done_progress: bool,
    /// Workspace edits that create files.
    pub create_files: bool,
    /// Code actions offered with `disabled` and the reason.
    pub disabled_code_actions: bool,
    /// Completion items whose text is a snippet (`$1`, `${1:name}`);
    /// without it they are sent as plain text.
    pub snippets: bool,
}

/// The fields are private: handlers go through the methods below, so what
/// may change together changes together (settings and the engine's config,
/// the client's encoding and support at `initialize`).
#[derive(Debug)]
pub struct Session {
    host: AnalysisHost,
    documents: HashMap<PathBuf, Document>,
    settings: Settings,
    /// What the workspace's `.tofu-lens.toml` sets: the base the editor's
    /// settings are read over.
    settings_defaults: Settings,
    encoding: PositionEncoding,
    support: ClientSupport,
    folders: Vec<PathBuf>,
    /// Per module directory: what must be done and what was published.
    scheduling: Scheduling,
    /// Settings problems already shown, so each is shown once.
    reported_problems: HashSet<String>,
    /// Bumped whenever `schemas.runProviders` or `schemas.files` change:
    /// every directory's schemas are then read again.
    schema_settings_generation: u64,
    /// The values files chosen per module directory with the
    /// `tofuLens.toggleVarFile` command: over the `varFiles` setting for
    /// that directory.
    chosen_var_files: BTreeMap<PathBuf, Vec<String>>,
}

impl Session {
    /// A session whose host keeps the full analysis of at most
    /// `full_analyses_kept` directories without open documents.
    pub fn new(settings: Settings, full_analyses_kept: usize) -> Session {
        let mut host = AnalysisHost::new(settings.engine_config());
        host.keep_full_analyses(full_analyses_kept);
        Session {
            host,
            documents: HashMap::new(),
            settings_defaults: settings.clone(),
            settings,
            encoding: PositionEncoding::Utf16,
            support: ClientSupport::default(),
            folders: Vec::new(),
            scheduling: Scheduling::default(),
            reported_problems: HashSet::new(),
            schema_settings_generation: 0,
            chosen_var_files: BTreeMap::new(),
        }
    }

    /// What `initialize` settles: the client's encoding and abilities, the
    /// workspace folders, the settings and the project file's defaults.
    pub fn initialize(
        &mut self,
        encoding: PositionEncoding,
        support: ClientSupport,
        folders: Vec<PathBuf>,
        settings: Settings,
        defaults: Settings,
    ) {
        self.encoding = encoding;
        self.support = support;
        self.folders = folders;
        self.host.set_config(settings.engine_config());
        self.replace_settings(settings);
        self.settings_defaults = defaults;
        self.update_given_values();
    }

    pub fn host(&self) -> &AnalysisHost {
        &self.host
    }

    pub fn host_mut(&mut self) -> &mut AnalysisHost {
        &mut self.host
    }

    pub fn encoding(&self) -> PositionEncoding {
        self.encoding
    }

    pub fn support(&self) -> ClientSupport {
        self.support
    }

    pub fn settings_defaults(&self) -> &Settings {
        &self.settings_defaults
    }

    /// Puts `settings` in place and returns the previous ones (the caller
    /// decides what the difference changes).
    pub fn replace_settings(&mut self, settings: Settings) -> Settings {
        if settings.run_providers != self.settings.run_providers
            || settings.fetch_providers != self.settings.fetch_providers
            || settings.schema_files != self.settings.schema_files
        {
            self.schema_settings_generation += 1;
        }
        std::mem::replace(&mut self.settings, settings)
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes whenever the schema settings change.
    pub fn schema_settings_generation(&self) -> u64 {
        self.schema_settings_generation
    }

    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    pub fn remove_folder(&mut self, folder: &Path) {
        self.folders.retain(|known| known != folder);
    }

    pub fn add_folders(&mut self, folders: impl IntoIterator<Item = PathBuf>) {
        self.folders.extend(folders);
    }

    pub fn scheduling(&self) -> &Scheduling {
        &self.scheduling
    }

    pub fn scheduling_mut(&mut self) -> &mut Scheduling {
        &mut self.scheduling
    }

    /// True the first time `problem` is reported.
    pub fn first_report(&mut self, problem: &str) -> bool {
        self.reported_problems.insert(problem.to_owned())
    }

    pub fn documents(&self) -> impl Iterator<Item = (&PathBuf, &Document)> {
        self.documents.iter()
    }

    /// The paths of the open documents in `dir` (its files, not those of
    /// its subdirectories).
    pub fn documents_in(&self, dir: &Path) -> Vec<PathBuf> {
        self.documents
            .keys()
            .filter(|path| path.parent() == Some(dir))
            .cloned()
            .collect()
    }

    pub fn open_document(&mut self, path: PathBuf, document: Document) {
        self.documents.insert(path, document);
    }

    pub fn document_mut(&mut self, path: &Path) -> Option<&mut Document> {
        self.documents.get_mut(path)
    }

    pub fn close_document(&mut self, path: &Path) -> Option<Document> {
        self.documents.remove(path)
    }

    /// The path of a document the server tracks, if it should track it: a
    /// `file:` URI of a configuration or variable definitions file that no
    /// `exclude` glob matches.
    pub fn tracked_path(&self, document: &Uri) -> Option<PathBuf> {
        let path = uri::to_path(document)?;
        let (_, name) = dir_and_file_name(&path)?;
        (is_module_file(&name) && !self.is_excluded(&path)).then_some(path)
    }

    /// True when `path` matches an `exclude` glob, relative to the workspace
    /// folder holding it. Paths outside every folder are never excluded.
    pub fn is_excluded(&self, path: &Path) -> bool {
        self.folders.iter().any(|folder| {
            path.strip_prefix(folder).is_ok_and(|relative| {
                let relative: Vec<String> = relative
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                self.settings.exclude.is_excluded(&relative.join("/"))
            })
        })
    }

    /// The directory nothing may be read from outside of, for files of `dir`:
    /// the innermost workspace folder holding it, or `dir` itself for a
    /// document opened from outside every folder. Disk reads resolve links
    /// and refuse what leads outside it (SECURITY.md).
    pub fn confinement_root(&self, dir: &Path) -> PathBuf {
        self.folders
            .iter()
            .filter(|folder| dir.starts_with(folder))
            .max_by_key(|folder| folder.components().count())
            .map_or_else(|| dir.to_path_buf(), PathBuf::clone)
    }

    /// The schema settings for `dir`: whether providers may run, and the
    /// `schemas.files` resolved against its workspace folder.
    pub fn dir_schemas(&self, dir: &Path) -> DirSchemas {
        let folder = self.confinement_root(dir);
        DirSchemas {
            run_providers: Some(self.settings.run_providers),
            files: self
                .settings
                .schema_files
                .iter()
                .map(|file| folder.join(file))
                .collect(),
        }
    }

    /// True when `path` is inside one of the workspace folders.
    pub fn in_folders(&self, path: &Path) -> bool {
        self.folders.iter().any(|folder| path.starts_with(folder))
    }

    /// True when the diagnostics of `dir` are published (`diagnostics.scope`).
    pub fn in_scope(&self, dir: &Path) -> bool {
        match self.settings.scope {
            DiagnosticsScope::Workspace => true,
            DiagnosticsScope::Open => self.host.has_buffers(dir),
        }
    }
    /// The values files plan's checks read for `dir`, by their path
    /// relative to it: those chosen with the command, else the
    /// `varFiles` setting's.
    pub fn var_files_of(&self, dir: &Path) -> Vec<String> {
        self.given_values_by_dir()
            .remove(dir)
            .map(|values| values.files().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// The values the user names per module directory: the `varFiles`
    /// setting resolved against each workspace folder, then what the
    /// command chose.
    pub fn given_values_by_dir(&self) -> BTreeMap<PathBuf, GivenValues> {
        let mut by_dir: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
        for (key, files) in &self.settings.var_files {
            for folder in &self.folders {
                let dir = normalize_path(&folder.join(key));
                let names = files
                    .iter()
                    .map(|file| relative_name(&dir, &normalize_path(&dir.join(file))))
                    .collect();
                by_dir.insert(dir, names);
            }
        }
        for (dir, files) in &self.chosen_var_files {
            by_dir.insert(dir.clone(), files.clone());
        }
        by_dir
            .into_iter()
            .filter(|(_, files)| !files.is_empty())
            .map(|(dir, files)| {
                let values = GivenValues {
                    environment: Vec::new(),
                    given: files.into_iter().map(GivenValue::File).collect(),
                };
                (dir, values)
            })
            .collect()
    }

    /// Adds the values file `name` of `dir` to the files plan's checks
    /// read there, or takes it out when it is in (the caller then hands
    /// the host the values: `configuration::refresh_given_values`).
    pub fn toggle_var_file(&mut self, dir: &Path, name: &str) {
        let mut files = self.var_files_of(dir);
        if files.iter().any(|file| file == name) {
            files.retain(|file| file != name);
        } else {
            files.push(name.to_owned());
        }
        self.chosen_var_files.insert(dir.to_path_buf(), files);
    }

    /// The values files named from another directory that the host holds
    /// nothing of (a directory of values files alone is no module
    /// directory, so no walk reads it): the caller reads them from disk,
    /// off the session, and hands them in as disk changes.
    pub fn values_files_to_read(&self) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = self
            .given_values_by_dir()
            .iter()
            .flat_map(|(dir, values)| {
                values
                    .files()
                    .filter(|name| name.contains('/'))
                    .map(|name| normalize_path(&dir.join(name)))
                    .collect::<Vec<_>>()
            })
            .filter(|path| path.parent().is_some_and(|dir| !self.host.knows_dir(dir)))
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }

    /// Hands the host the values named now; returns the directories whose
    /// values changed.
    pub fn update_given_values(&mut self) -> Vec<PathBuf> {
        let values = self.given_values_by_dir();
        self.host.set_given_values(values)
    }

    /// Every module directory the server knows.
    pub fn known_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: BTreeSet<PathBuf> = self.scheduling.dirs().map(Path::to_path_buf).collect();
        dirs.extend(self.host.module_dirs().map(Path::to_path_buf));
        dirs.into_iter().collect()
    }
}

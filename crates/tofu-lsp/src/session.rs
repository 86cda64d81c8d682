//! The server's mutable state, behind one short-held lock: open documents,
//! the analysis host, settings, what the client supports, and per module
//! directory what was published and whether a worker is on it.
//!
//! Handlers change the session synchronously, before their first `.await`
//! (STYLE.md rule 9), and never hold the lock across an `.await`. Analysis runs
//! outside the lock on jobs taken from the host; publishing works from
//! snapshots. The lock is a `std::sync::Mutex`: a panic while it is held
//! poisons it, and [`crate::server::Shared::session`] recovers the state,
//! which every method leaves consistent between statements.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use tofu_ide::AnalysisHost;

use crate::document::Document;
use crate::position::PositionEncoding;
use crate::scheduler::Scheduling;
use crate::settings::{DiagnosticsScope, Settings};

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
}

#[derive(Debug)]
pub struct Session {
    pub host: AnalysisHost,
    pub documents: HashMap<PathBuf, Document>,
    pub settings: Settings,
    /// What the workspace's `.tofu-lens.toml` sets: the base the editor's
    /// settings are read over.
    pub settings_defaults: Settings,
    pub encoding: PositionEncoding,
    pub support: ClientSupport,
    pub folders: Vec<PathBuf>,
    /// Per module directory: what must be done and what was published.
    pub scheduling: Scheduling,
    /// Settings problems already shown, so each is shown once.
    pub reported_problems: HashSet<String>,
}

impl Session {
    pub fn new(settings: Settings) -> Session {
        Session {
            host: AnalysisHost::new(settings.engine_config()),
            documents: HashMap::new(),
            settings_defaults: settings.clone(),
            settings,
            encoding: PositionEncoding::Utf16,
            support: ClientSupport::default(),
            folders: Vec::new(),
            scheduling: Scheduling::default(),
            reported_problems: HashSet::new(),
        }
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
    /// Every module directory the server knows.
    pub fn known_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: BTreeSet<PathBuf> = self.scheduling.dirs().map(Path::to_path_buf).collect();
        dirs.extend(self.host.module_dirs().map(Path::to_path_buf));
        dirs.into_iter().collect()
    }
}

//! The scheduler's bookkeeping per module directory, kept in the session so
//! that it changes under the same lock as the documents and the analysis
//! host: whether a worker is on the directory, whether it must be read from
//! disk or published again, what was last published, how long its last
//! analysis took, what its provider schemas were last read for.
//!
//! Handlers only mark a directory ([`Scheduling::mark`]) and ask about it;
//! the rest of [`DirState`] is read and written by `scheduler.rs` alone.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tofu_ide::EditorDiagnostic;
use tofu_schema::ProviderAddress;
use tower_lsp_server::ls_types::Diagnostic;

/// Why a module directory must be looked at again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Its files must be (re)read from disk before it is analysed.
    DiskRead,
    /// Its diagnostics must be published again even if the analysis did not
    /// change (the scope changed, say).
    Republish,
}

/// The scheduler's state per module directory, behind [`Scheduling::mark`]:
/// everything else of it is the scheduler's own.
#[derive(Debug, Default)]
pub struct Scheduling {
    dirs: HashMap<PathBuf, DirState>,
    /// How many indexing passes are under way (`scheduler::index`).
    indexing: usize,
    /// Callers made stale by the analysis of a module they call while
    /// indexing: analysed once each when the pass is over, rather than
    /// once per module of theirs that indexing reaches.
    deferred: BTreeSet<PathBuf>,
    /// Directories whose provider schemas are looked at once indexing is
    /// over, with the callers the whole pass found.
    schemas_deferred: BTreeSet<PathBuf>,
}

impl Scheduling {
    /// Records that `dir` must be read again or republished;
    /// `scheduler::schedule` then starts (or keeps) its worker.
    pub fn mark(&mut self, dir: &Path, mark: Mark) {
        let state = self.state(dir);
        match mark {
            Mark::DiskRead => state.needs_disk_read = true,
            Mark::Republish => state.force_publish = true,
        }
    }

    /// True when the scheduler has seen `dir`.
    pub fn knows(&self, dir: &Path) -> bool {
        self.dirs.contains_key(dir)
    }

    /// Every directory the scheduler has seen.
    pub fn dirs(&self) -> impl Iterator<Item = &Path> {
        self.dirs.keys().map(PathBuf::as_path)
    }

    /// What the providers' validators last answered for the files of
    /// `dir` (empty when they have not answered).
    pub fn provider_diagnostics(&self, dir: &Path) -> ProviderDiagnostics {
        self.dirs
            .get(dir)
            .map(|state| state.provider_diagnostics.clone())
            .unwrap_or_default()
    }

    /// How long the last analysis of `dir` took.
    pub fn last_analysis(&self, dir: &Path) -> Option<Duration> {
        self.dirs.get(dir).and_then(|state| state.last_analysis)
    }

    /// Records that `dir` is known only as a called module
    /// ([`DirState::called_only`]) and must be read from disk.
    pub fn mark_called_only(&mut self, dir: &Path) {
        let state = self.state(dir);
        state.called_only = true;
        state.needs_disk_read = true;
    }

    /// True when `dir` was last read with files a document open through a
    /// link vouched for.
    pub fn read_vouched(&self, dir: &Path) -> bool {
        self.dirs.get(dir).is_some_and(|state| state.read_vouched)
    }

    /// True when `dir` is known only as a called module.
    pub fn is_called_only(&self, dir: &Path) -> bool {
        self.dirs.get(dir).is_some_and(|state| state.called_only)
    }

    /// Records that the called-only `dir` is published
    /// ([`DirState::reported`]); returns whether it was not before.
    pub fn mark_reported(&mut self, dir: &Path) -> bool {
        let state = self.state(dir);
        let newly = !state.reported;
        state.reported = true;
        state.force_publish |= newly;
        newly
    }

    /// True when `dir` is published: found by the workspace walk, or
    /// reached through local calls from a directory that is.
    pub fn is_published(&self, dir: &Path) -> bool {
        self.dirs
            .get(dir)
            .is_none_or(|state| !state.called_only || state.reported)
    }

    /// The called-only directories below `prefix`.
    pub fn called_only_below(&self, prefix: &Path) -> Vec<PathBuf> {
        self.dirs
            .iter()
            .filter(|(dir, state)| state.called_only && dir.starts_with(prefix))
            .map(|(dir, _)| dir.clone())
            .collect()
    }

    /// True when `dir` is waiting to be read from disk.
    pub fn needs_disk_read(&self, dir: &Path) -> bool {
        self.dirs
            .get(dir)
            .is_some_and(|state| state.needs_disk_read)
    }

    /// True when `dir`'s provider schemas must be read again
    /// ([`DirState::schemas_outdated`]).
    pub fn schemas_outdated(&self, dir: &Path) -> bool {
        self.dirs
            .get(dir)
            .is_some_and(|state| state.schemas_outdated)
    }

    /// True while an indexing pass is under way.
    pub fn is_indexing(&self) -> bool {
        self.indexing > 0
    }

    /// An indexing pass begins: callers made stale wait for its end.
    pub fn begin_indexing(&mut self) {
        self.indexing += 1;
    }

    /// An indexing pass ended; when it was the last one, the callers still
    /// waiting, for the caller to schedule, and the directories whose
    /// provider schemas are to be looked at.
    pub fn end_indexing(&mut self) -> (Vec<PathBuf>, Vec<PathBuf>) {
        self.indexing = self.indexing.saturating_sub(1);
        if self.indexing == 0 {
            let schemas = std::mem::take(&mut self.schemas_deferred);
            (self.take_deferred(), schemas.into_iter().collect())
        } else {
            (Vec::new(), Vec::new())
        }
    }

    /// The directories in `dirs` whose provider schemas are to be looked
    /// at now: none while indexing, which keeps them for its end.
    pub fn schemas_after_indexing(&mut self, dirs: Vec<PathBuf>) -> Vec<PathBuf> {
        if self.indexing == 0 {
            return dirs;
        }
        self.schemas_deferred.extend(dirs);
        Vec::new()
    }

    /// The callers in `stale` to schedule now: none while indexing, which
    /// keeps them for the end of its pass.
    pub fn defer_while_indexing(&mut self, stale: Vec<PathBuf>) -> Vec<PathBuf> {
        if self.indexing == 0 {
            return stale;
        }
        self.deferred.extend(stale);
        Vec::new()
    }

    /// The callers kept while indexing, handed out once.
    pub fn take_deferred(&mut self) -> Vec<PathBuf> {
        std::mem::take(&mut self.deferred).into_iter().collect()
    }

    /// True when `dir` waits for the end of an indexing pass.
    pub fn is_deferred(&self, dir: &Path) -> bool {
        self.deferred.contains(dir)
    }

    /// The state of `dir`, created empty the first time: for the scheduler.
    pub fn state(&mut self, dir: &Path) -> &mut DirState {
        self.dirs.entry(dir.to_path_buf()).or_default()
    }
}

/// Publishing state of one module directory. The scheduler's own: handlers
/// go through [`Scheduling`]'s methods.
#[derive(Debug, Default)]
pub struct DirState {
    /// A worker task is debouncing, analysing or publishing this directory.
    pub worker_running: bool,
    /// The directory's files must be (re)read from disk before analysing.
    pub needs_disk_read: bool,
    /// Publish even if the analysis did not change (scope changed, say).
    pub force_publish: bool,
    /// The generation of the analysis last published (0: none yet).
    pub published_generation: u64,
    /// What was last published (version and diagnostics) for each file with
    /// diagnostics or open when published, so that an unchanged file is not
    /// sent again and one whose diagnostics go away, disappears or leaves
    /// the scope gets an empty list. A clean file never published is absent.
    /// Hashed: every publication looks up and stores every such file, under
    /// the session lock, and a `BTreeMap` compares paths component by
    /// component (in a 1,000-file directory that was half of keystroke →
    /// publication).
    pub published: HashMap<PathBuf, (Option<i32>, Vec<Diagnostic>)>,
    /// How long the last analysis took (unknown before the first).
    pub last_analysis: Option<Duration>,
    /// Read because a module call names it, not found by the workspace
    /// walk (a module `tofu init` installed under `.terraform`): analysed so
    /// that its callers are judged against it, read whatever `exclude`
    /// says, and published only while one of its files is open, or when
    /// it is [`DirState::reported`].
    pub called_only: bool,
    /// A called-only directory that a published directory calls by a local
    /// path (`source = "../../"`, from an example inside the module it
    /// calls): `tofu validate` run in the caller reports its errors, and
    /// `check` does, so it is published, wherever it is (outside the
    /// workspace folder too: OpenTofu reads it for the module tree).
    pub reported: bool,
    /// Held while the directory is read or analysed, so that a request that
    /// needs a fresh analysis waits for the worker instead of redoing its work.
    pub analysis_lock: Arc<tokio::sync::Mutex<()>>,
    /// What the directory's provider schemas were last read for
    /// (`provider_schemas.rs`): they are read again only when that changes.
    pub schemas_asked: Option<SchemaAsk>,
    /// A task is reading the directory's provider schemas.
    pub schemas_reading: bool,
    /// The providers' validators' diagnostics (`provider_validators.rs`),
    /// and the analysis generation of the latest round asked for.
    pub provider_diagnostics: ProviderDiagnostics,
    pub validation_generation: u64,
    /// What a root it reads its schemas from has installed changed since
    /// they were read: read them again, even if none is missing.
    pub schemas_outdated: bool,
    /// It was last read with files that a document open through a link
    /// vouched for (`tofu_vfs::read_module_dir_vouched`): read again when
    /// one of its documents closes.
    pub read_vouched: bool,
}

/// The providers' validators' diagnostics of one directory, by file: the
/// text they were placed in, and the diagnostics.
pub type ProviderDiagnostics = HashMap<PathBuf, (Arc<str>, Vec<EditorDiagnostic>)>;

/// What a directory's provider schemas are read for: the providers it
/// needs, its direct callers (where they may be installed) and the
/// session's schema settings, by their generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaAsk {
    pub needed: Vec<ProviderAddress>,
    pub callers: Vec<PathBuf>,
    pub settings_generation: u64,
}

//! What every handler and background task shares: the client, the options,
//! the [`Session`] behind its lock, and beside it what must not wait for that
//! lock (the server's own file watcher, the disk-change queue, the permits
//! for running analyses, the provider schemas read this session).
//!
//! Every lock here is a `std::sync::Mutex` held for a few statements, never
//! across an `.await` (ARCHITECTURE.md, `tofu-lsp`). A panic while one is held
//! poisons it; the guards recover the state, which every method of the
//! session leaves consistent between statements.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tofu_schema::PoolSettings;
use tofu_vfs::schemas::validators::ProviderValidators;
use tofu_vfs::schemas::{SchemaOptions, SchemaSource};
use tower_lsp_server::Client;

use crate::options::ServerOptions;
use crate::session::Session;
use crate::settings::Settings;

/// What every handler and background task shares.
#[derive(Debug)]
pub struct Shared {
    pub client: Client,
    pub options: ServerOptions,
    session: Mutex<Session>,
    /// Our own file watcher, apart from the session: adding a large folder to
    /// it takes a while, and handlers must not wait for that.
    disk_watcher: Mutex<DiskWatcher>,
    /// The disk-change queue (`workspace::queue_disk_changes`), started with
    /// the first change.
    pub disk_changes: OnceLock<tokio::sync::mpsc::UnboundedSender<Vec<PathBuf>>>,
    /// One permit per core for running analyses: indexing a large workspace
    /// analyses as many directories at once as there are cores, not one per
    /// blocking thread, so the memory in flight is that of a few directories.
    pub analyses_in_flight: tokio::sync::Semaphore,
    /// The cores this process may use (the permits above).
    pub cores: usize,
    /// The provider schemas read this session, each (root, provider) once
    /// (`provider_schemas.rs`); it locks inside, briefly, and is read from
    /// blocking tasks only.
    pub schema_source: SchemaSource,
    /// The providers' validators (`provider_validators.rs`): one process
    /// per provider and workspace folder, called from blocking tasks only.
    pub validators: ProviderValidators,
    /// The background work under way (the scan, directory workers, schema
    /// reads, validator rounds), for `tofuLens/settled`.
    pub activity: Arc<Activity>,
    /// Whether a `workspace/diagnostic/refresh` is waiting for the client's
    /// answer, and whether another is wanted after it
    /// (`scheduler::request_diagnostic_refresh`).
    pub diagnostic_refresh: Mutex<RefreshState>,
    /// Fetches the providers nothing installed, when the binary gave a
    /// fetch configuration and a package cache (`provider_fetch.rs`).
    pub fetcher: Option<Arc<tofu_fetch::Fetcher>>,
    /// The cancel flags of the fetches under way, by progress token.
    pub fetch_cancels: Mutex<std::collections::HashMap<String, Arc<std::sync::atomic::AtomicBool>>>,
    tokens: AtomicU64,
}

/// See [`Shared::diagnostic_refresh`].
#[derive(Debug, Default)]
pub struct RefreshState {
    pub in_flight: bool,
    pub again: bool,
}

/// How many background tasks are under way, and a way to wait until none
/// is. A task counts from before it is spawned (its [`Busy`] is taken by
/// whoever spawns it) until it ends, and a task that starts another hands
/// it a `Busy` before dropping its own, so the count reaches zero only when
/// nothing is left to do.
#[derive(Debug, Default)]
pub struct Activity {
    under_way: AtomicUsize,
    idle: tokio::sync::Notify,
    /// How many `textDocument/publishDiagnostics` were sent: a client
    /// reads that many before it looks (a response may overtake the
    /// notifications sent before it).
    pub publications: AtomicU64,
}

/// One task under way; dropping it ends it.
#[derive(Debug)]
pub struct Busy(Arc<Activity>);

impl Activity {
    pub fn begin(self: &Arc<Activity>) -> Busy {
        self.under_way.fetch_add(1, Ordering::SeqCst);
        Busy(Arc::clone(self))
    }

    /// Returns once no task is under way.
    pub async fn settled(&self) {
        loop {
            let idle = self.idle.notified();
            tokio::pin!(idle);
            idle.as_mut().enable();
            if self.under_way.load(Ordering::SeqCst) == 0 {
                return;
            }
            idle.await;
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        if self.0.under_way.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// The server's own file watching, for clients that do not watch files.
#[derive(Debug, Default)]
pub struct DiskWatcher {
    /// True when the client does not watch files for us.
    pub enabled: bool,
    /// Started with the first folder it watches.
    pub watcher: Option<crate::folder_watcher::FolderWatcher>,
    /// The folders it watches, recursively.
    pub folders: BTreeSet<PathBuf>,
}

impl Shared {
    pub fn new(client: Client, options: ServerOptions) -> Shared {
        let full_analyses_kept = options.full_analyses_kept;
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        // Whether providers may run is each directory's setting
        // (`schemas.runProviders`); the callers come from the module tree.
        let schema_options = SchemaOptions {
            environment: options.provider_environment.clone(),
            run_providers: true,
            files: Vec::new(),
            timeouts: options.provider_timeouts,
            fetch: None,
        };
        let fetcher = options
            .fetch_config
            .clone()
            .zip(
                options
                    .provider_environment
                    .as_ref()
                    .and_then(|environment| environment.fetched_dir.clone()),
            )
            .map(|(config, dir)| {
                Arc::new(tofu_fetch::Fetcher::new(
                    config,
                    tofu_fetch::PackageStore::new(dir, tofu_fetch::DEFAULT_MAX_BYTES),
                ))
            });
        Shared {
            fetcher,
            fetch_cancels: Mutex::new(std::collections::HashMap::new()),
            schema_source: SchemaSource::new(schema_options, &[]),
            validators: ProviderValidators::new(PoolSettings {
                timeouts: options.provider_timeouts,
                ..PoolSettings::default()
            }),
            client,
            options,
            analyses_in_flight: tokio::sync::Semaphore::new(cores),
            cores,
            session: Mutex::new(Session::new(Settings::default(), full_analyses_kept)),
            disk_watcher: Mutex::new(DiskWatcher::default()),
            disk_changes: OnceLock::new(),
            activity: Arc::new(Activity::default()),
            diagnostic_refresh: Mutex::new(RefreshState::default()),
            tokens: AtomicU64::new(0),
        }
    }

    /// The session, locked. Never hold the guard across an `.await`.
    pub fn session(&self) -> MutexGuard<'_, Session> {
        self.session
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Our own file watcher, locked. Never hold the guard across an `.await`.
    pub fn disk_watcher(&self) -> MutexGuard<'_, DiskWatcher> {
        self.disk_watcher
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A number no other progress token of this server has.
    pub fn next_token(&self) -> u64 {
        self.tokens.fetch_add(1, Ordering::Relaxed)
    }
}

//! When module directories are (re)analysed and their diagnostics published.
//!
//! One worker task per directory at most: a change marks the directory stale
//! and starts a worker if none is running. The worker waits the debounce
//! window (so a burst of keystrokes costs one analysis), reads the directory
//! from disk if asked to, analyses the latest inputs off the async threads,
//! publishes, and goes round again while more changes arrived meanwhile.
//! Because only that worker publishes for its directory and generations only
//! grow, a publication is never older than the one before it.
//!
//! Publishing covers every file the analysis saw that has diagnostics, when
//! they or the file's version changed (a file whose publication would repeat
//! the last one exactly is not sent again, which keeps a keystroke in a
//! 1,000-file module from costing 1,000 messages). A clean file is published
//! only to clear what the client was sent before (an empty list when its
//! problems went away, it is gone or it left the `diagnostics.scope`), so
//! indexing a workspace sends one message per file with problems, not one
//! per file; open documents are the exception, every version of one is
//! answered, empty or not, with the version the analysis used. With pull
//! diagnostics nothing is pushed; the client is asked to refresh instead.
//!
//! A directory a call names that the workspace walk did not find is read
//! as *called-only* (under `.terraform`, hidden, excluded, or outside the
//! folder when the source is a local path): analysed for its callers, and
//! published only when a published directory calls it by a local path
//! (then `tofu validate` in the caller, and `check`, report its errors).
//! One that does not exist is "Unreadable module directory" for its
//! callers (`Change::DiskDirUnreadable`).
//!
//! After an analysis, the directory and the modules it calls may want
//! provider schemas the host lacks: a task of their own reads them
//! (`provider_schemas.rs`) and schedules the directory again when they
//! change; the worker never waits for it. When nothing is left to read
//! (nothing installed, the common case) they are given at once.
//!
//! Indexing analyses each directory after those below it (a module's own
//! modules usually lie there), so that a caller is judged in its module
//! tree at once; a module analysed before anyone called it gets its
//! interface from its kept analysis when a caller finds it, rather than
//! by being analysed again.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tofu_ide::{Change, MissingInterface, ModuleSummary, Snapshot};
use tofu_module::calls::ModuleCall;
use tower_lsp_server::ls_types::Diagnostic;

use crate::provider_schemas;
use crate::provider_validators;
use crate::scheduling::{ProviderDiagnostics, SchemaAsk};
use crate::session::Session;
use crate::shared::Shared;
use crate::to_proto::Converter;

/// Marks `dirs` for analysis and publication, starting workers as needed.
pub fn schedule(shared: &Arc<Shared>, dirs: impl IntoIterator<Item = PathBuf>, debounce: bool) {
    for dir in dirs {
        let start = {
            let mut session = shared.session();
            let state = session.scheduling_mut().state(&dir);
            !std::mem::replace(&mut state.worker_running, true)
        };
        if start {
            let busy = shared.activity.begin();
            let shared = Arc::clone(shared);
            tokio::spawn(async move {
                worker(shared, dir, debounce).await;
                drop(busy);
            });
        }
    }
}

/// How long `dir` waits before its next analysis: nothing when its last
/// analysis was cheap ([`crate::options::ServerOptions::cheap_analysis`]),
/// the configured debounce otherwise (and before the first one, whose cost
/// is unknown).
fn pause_before_analysis(shared: &Shared, dir: &Path) -> Duration {
    let last = shared.session().scheduling().last_analysis(dir);
    match last {
        Some(took) if took < shared.options.cheap_analysis => Duration::ZERO,
        _ => shared.options.debounce,
    }
}

async fn worker(shared: Arc<Shared>, dir: PathBuf, debounce: bool) {
    if debounce {
        let pause = pause_before_analysis(&shared, &dir);
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
    loop {
        let analysed = refresh_dir(&shared, &dir, Need::Summary).await;
        if analysed {
            publish_dir(&shared, &dir).await;
        }
        let again = {
            let mut session = shared.session();
            let stale = session.host().is_stale(&dir);
            let state = session.scheduling_mut().state(&dir);
            let again = analysed && (stale || state.needs_disk_read || state.force_publish);
            if !again {
                state.worker_running = false;
            }
            again
        };
        if !again {
            break;
        }
        let pause = pause_before_analysis(&shared, &dir);
        if pause.is_zero() {
            tokio::task::yield_now().await;
        } else {
            tokio::time::sleep(pause).await;
        }
    }
}

/// The most rounds of callers an indexing pass analyses after its
/// directories (a round's analyses may make their own callers stale): deeper
/// module trees than this are rare, and what is left then is scheduled as
/// any change is.
const MAX_INDEXING_ROUNDS: usize = 16;

/// Reads, analyses and publishes `dirs` (each marked for a disk read), as
/// many at once as there are cores and one more (so that reading one
/// directory and publishing another overlap the analyses), sending one
/// each to `progress`. Callers that the analyses make stale wait until
/// every directory is done, then are analysed and published in rounds,
/// each once per round: while a workspace is indexed a caller is reached by
/// each module it calls, and would otherwise be analysed again for each.
pub async fn index(shared: &Arc<Shared>, dirs: Vec<PathBuf>, progress: Arc<IndexProgress>) {
    shared.session().scheduling_mut().begin_indexing();
    let started = std::time::Instant::now();
    let n_dirs = dirs.len();
    index_in_lanes(shared, dirs, Some(progress)).await;
    tracing::debug!("indexed {n_dirs} directories in {:?}", started.elapsed());
    for round in 1..=MAX_INDEXING_ROUNDS {
        let stale = shared.session().scheduling_mut().take_deferred();
        if stale.is_empty() {
            break;
        }
        let n_stale = stale.len();
        let started = std::time::Instant::now();
        index_in_lanes(shared, stale, None).await;
        tracing::debug!(
            "indexing round {round}: {n_stale} callers in {:?}",
            started.elapsed()
        );
    }
    let (left, schema_dirs) = shared.session().scheduling_mut().end_indexing();
    schedule(shared, left, true);
    let worker = Arc::clone(shared);
    let started = std::time::Instant::now();
    if let Err(error) =
        tokio::task::spawn_blocking(move || read_schemas_here(&worker, &schema_dirs)).await
    {
        tracing::error!("looking at provider schemas failed: {error}");
    }
    tracing::debug!("looked at provider schemas in {:?}", started.elapsed());
}

/// [`index_dir`] on each of `dirs`, `cores` at a time, each directory
/// before those below it ([`shallowest_first`]). Each lane is one blocking
/// thread that takes directory after directory from the queue and reads,
/// analyses and publishes each itself, as `check`'s threads do: a task and
/// a hand-off to the blocking pool per directory cost the server a third
/// more CPU than `check` and left a core idle a quarter of the time
/// (context switches, and memory freed by threads other than the one that
/// allocated it).
async fn index_in_lanes(
    shared: &Arc<Shared>,
    mut dirs: Vec<PathBuf>,
    progress: Option<Arc<IndexProgress>>,
) {
    shallowest_first(&mut dirs);
    let queue = Arc::new(std::sync::Mutex::new(dirs.into_iter()));
    let runtime = tokio::runtime::Handle::current();
    let mut lanes = tokio::task::JoinSet::new();
    for _ in 0..shared.cores.max(1) {
        let shared = Arc::clone(shared);
        let queue = Arc::clone(&queue);
        let progress = progress.clone();
        let runtime = runtime.clone();
        lanes.spawn_blocking(move || loop {
            let next = queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .next();
            let Some(dir) = next else {
                break;
            };
            index_dir(&shared, &runtime, dir);
            if let Some(progress) = &progress {
                progress.one_done();
            }
        });
    }
    while let Some(joined) = lanes.join_next().await {
        if let Err(error) = joined {
            tracing::error!("indexing failed: {error}");
        }
    }
}

/// How many directories of an indexing pass are done, told to whoever
/// reports the pass's progress only when the percentage moves: a message
/// per directory woke that task 2,700 times on a 2,700-directory tree for
/// a hundred reports.
pub struct IndexProgress {
    done: std::sync::atomic::AtomicUsize,
    total: usize,
    moved: tokio::sync::mpsc::UnboundedSender<(usize, u32)>,
}

impl IndexProgress {
    /// A count of `total` directories, and the receiver of `(done,
    /// percentage)` each time the percentage moves (and once all are done).
    /// Two lanes may send theirs out of order: the larger count is the news.
    pub fn new(
        total: usize,
    ) -> (
        Arc<Self>,
        tokio::sync::mpsc::UnboundedReceiver<(usize, u32)>,
    ) {
        let (moved, receiver) = tokio::sync::mpsc::unbounded_channel();
        let progress = Self {
            done: std::sync::atomic::AtomicUsize::new(0),
            total,
            moved,
        };
        (Arc::new(progress), receiver)
    }

    fn percentage(&self, done: usize) -> u32 {
        u32::try_from(done.saturating_mul(100) / self.total.max(1)).unwrap_or(100)
    }

    fn one_done(&self) {
        let done = self
            .done
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .saturating_add(1);
        let percentage = self.percentage(done);
        if percentage != self.percentage(done - 1) || done == self.total {
            let _ = self.moved.send((done, percentage));
        }
    }
}

/// Sorts `dirs` shallowest first, then by name: each directory comes
/// before the directories below it, and before every deeper one. A
/// module's own modules usually lie below it (`modules/NAME`), and the
/// modules components share lie deeper than the components that call them
/// (`../account-map/modules/iam-roles` from `modules/access-analyzer`):
/// the caller's analysis reads and analyses them as called
/// ([`settle_unanalysed_modules`]), with their interface, once.
fn shallowest_first(dirs: &mut [PathBuf]) {
    dirs.sort_by_cached_key(|dir| (dir.components().count(), dir.clone()));
}

/// One directory of an indexing pass, on a lane's blocking thread, as
/// its worker would do it (and standing in for one, so that its
/// publications stay in order): read, analyse, publish. A directory whose
/// worker is running is left to it; one that changed meanwhile is handed
/// to a worker, unless it waits for the pass's next round.
fn index_dir(shared: &Arc<Shared>, runtime: &tokio::runtime::Handle, dir: PathBuf) {
    let Some(lock) = claim(shared, &dir) else {
        return;
    };
    let analysed = {
        let _guard = lock.blocking_lock();
        analyse_claimed(shared, &dir, false)
    };
    if analysed {
        runtime.block_on(publish_dir(shared, &dir));
    }
    release(shared, dir, analysed);
}

/// Claims `dir` for this thread, as its worker would: `None` when a worker
/// or another lane has it. Returns its analysis lock, for the claimant to
/// take.
fn claim(shared: &Shared, dir: &Path) -> Option<Arc<tokio::sync::Mutex<()>>> {
    let mut session = shared.session();
    let state = session.scheduling_mut().state(dir);
    let claimed = !std::mem::replace(&mut state.worker_running, true);
    claimed.then(|| Arc::clone(&state.analysis_lock))
}

/// Reads `dir` if it is marked for that and analyses it, claimed
/// ([`claim`]) and with its analysis lock held; `called` when a caller's
/// analysis asked for it. Returns false when the analysis panicked.
fn analyse_claimed(shared: &Arc<Shared>, dir: &Path, called: bool) -> bool {
    let needs_disk_read =
        std::mem::take(&mut shared.session().scheduling_mut().state(dir).needs_disk_read);
    let refresh = std::panic::AssertUnwindSafe(|| {
        refresh_here(shared, dir, needs_disk_read, Need::Summary, called)
    });
    match std::panic::catch_unwind(refresh) {
        Ok(analysed) => analysed,
        Err(_) => {
            tracing::error!("analysis of {} failed: it panicked", dir.display());
            false
        }
    }
}

/// Gives up the claim on `dir`; one that changed meanwhile is handed to a
/// worker, unless it waits for the pass's next round.
fn release(shared: &Arc<Shared>, dir: PathBuf, analysed: bool) {
    let again = {
        let mut session = shared.session();
        let stale = session.host().is_stale(&dir) && !session.scheduling().is_deferred(&dir);
        let state = session.scheduling_mut().state(&dir);
        state.worker_running = false;
        analysed && (stale || state.needs_disk_read || state.force_publish)
    };
    if again {
        schedule(shared, [dir], true);
    }
}

/// What a caller of [`refresh_dir`] needs of a directory's analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Its summary: diagnostics, symbols, module calls.
    Summary,
    /// The full analysis (a request on one of its files): a directory that
    /// has only its summary left is analysed again.
    Full,
}

/// Brings the analysis of `dir` up to date: reads the directory from disk if
/// it is marked for that (nothing whose real location is outside its
/// confinement root: its workspace folder, or for a module called by a
/// local path from outside every folder, its own directory), then analyses if the inputs changed, or if `need` is
/// [`Need::Full`] and only the summary is kept. Returns false when the
/// analysis panicked (an engine bug; logged, and the directory keeps its
/// previous analysis until the next change).
pub async fn refresh_dir(shared: &Arc<Shared>, dir: &Path, need: Need) -> bool {
    let lock = Arc::clone(&shared.session().scheduling_mut().state(dir).analysis_lock);
    let _guard = lock.lock().await;
    let needs_disk_read =
        std::mem::take(&mut shared.session().scheduling_mut().state(dir).needs_disk_read);
    if !needs_disk_read && !needs_analysis(&mut shared.session(), dir, need) {
        return true;
    }
    // The semaphore is never closed, so waiting for a permit cannot fail.
    let Ok(_permit) = shared.analyses_in_flight.acquire().await else {
        return false;
    };
    // Reading, the analysis, storing its result and what follows from it
    // run on one blocking thread: a hand-off between threads for each step
    // cost a tenth of the server's CPU while indexing (futex wake-ups).
    let worker = Arc::clone(shared);
    let refreshed_dir = dir.to_path_buf();
    let refreshed = tokio::task::spawn_blocking(move || {
        refresh_here(&worker, &refreshed_dir, needs_disk_read, need, false)
    })
    .await;
    match refreshed {
        Ok(refreshed) => refreshed,
        Err(error) => {
            tracing::error!("analysis of {} failed: {error}", dir.display());
            false
        }
    }
}

/// The part of [`refresh_dir`] that runs on a blocking thread, with the
/// directory's analysis lock held: reads the directory from disk when
/// `needs_disk_read`, analyses it if it still needs it and stores the
/// result ([`after_analysis`]).
fn refresh_here(
    shared: &Arc<Shared>,
    dir: &Path,
    needs_disk_read: bool,
    need: Need,
    called: bool,
) -> bool {
    if needs_disk_read {
        read_from_disk(shared, dir);
    }
    let job = {
        let mut session = shared.session();
        if needs_analysis(&mut session, dir, need) {
            session.host_mut().start_analysis(dir)
        } else {
            None
        }
    };
    let Some(job) = job else {
        return true;
    };
    let started = std::time::Instant::now();
    // The job asks what the host knows of the modules its calls reach
    // as it finds them (the session locked for that look-up only), so
    // that a directory analysed for the first time is judged in its
    // module tree at once.
    // Modules it calls that were analysed before anyone called them get
    // their interface from their kept analysis, rather than by being
    // analysed again (computed with the session unlocked).
    let reach = |dir: &Path, calls: &[ModuleCall]| {
        settle_missing_modules(shared, dir, calls);
        settle_unanalysed_modules(shared, dir, calls);
        let missing = shared.session().host().missing_interfaces(dir, calls);
        if !missing.is_empty() {
            let computed = missing.into_iter().map(MissingInterface::compute).collect();
            shared.session().host_mut().set_interfaces(computed);
        }
        // Those whose analysis is not kept (indexing keeps summaries
        // only): analysed here, on this thread, for their interface.
        let jobs = shared.session().host_mut().interface_jobs(dir, calls);
        for job in jobs {
            tracing::trace!("analysing {} for its interface", job.dir().display());
            let finished = job.run();
            let released = shared.session().host_mut().set_interface_from(finished);
            drop(released);
        }
        Some(shared.session().host().reached_by(dir, calls))
    };
    let mut finished = job.run_with(&reach);
    // Called by a directory whose analysis finished meanwhile: its
    // interface from this analysis, rather than from another one. A
    // directory known only as called, or settled from a caller's job, is
    // called (by the caller being judged).
    let called = called || {
        let session = shared.session();
        session.host().is_called(dir) || session.scheduling().is_called_only(dir)
    };
    finished.compute_interface(called);
    after_analysis(shared, dir, finished, started.elapsed(), need);
    true
}

/// The directories `calls` read that do not exist (a typo in `source`, a
/// module missing from this checkout) and that neither the host nor the
/// scheduler has met: each is marked as a called-only directory and read
/// (it cannot be) and analysed here, before `dir` is judged, as
/// [`called_only_dirs`] would have it done after; so `dir` is judged
/// knowing it ("Unreadable module directory") rather than judged, made
/// stale by that reading, and judged again (the most common second analysis
/// while indexing cloudposse: 300 such directories at 50 copies).
fn settle_missing_modules(shared: &Arc<Shared>, dir: &Path, calls: &[ModuleCall]) {
    let candidates: Vec<PathBuf> = {
        let session = shared.session();
        let root = session.confinement_root(dir);
        called_dirs(dir, calls, |call, called| {
            let readable_here = call.installed.is_none() || called.starts_with(&root);
            readable_here
                && !session.host().knows_dir(called)
                && !session.scheduling().knows(called)
        })
    };
    for called in candidates {
        let missing = std::fs::metadata(&called).is_err_and(|error| {
            matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            )
        });
        if !missing {
            continue;
        }
        {
            let mut session = shared.session();
            // Another lane's caller may have met it meanwhile.
            if session.host().knows_dir(&called) || session.scheduling().knows(&called) {
                continue;
            }
            session.scheduling_mut().mark_called_only(&called);
            session.scheduling_mut().state(&called).needs_disk_read = false;
        }
        refresh_here(shared, &called, true, Need::Summary, true);
    }
}

/// The directories other than `dir` that `calls` read and `wanted` accepts,
/// sorted, each once.
fn called_dirs(
    dir: &Path,
    calls: &[ModuleCall],
    wanted: impl Fn(&ModuleCall, &Path) -> bool,
) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = calls
        .iter()
        .filter_map(|call| {
            let called = call.dir.as_deref()?;
            (called != dir && wanted(call, called)).then(|| called.to_path_buf())
        })
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The directories of the pass that `calls` read and that no analysis has
/// reached yet, while indexing (the pass takes callers before the modules
/// below them, [`shallowest_first`]): each is read and analysed here, as
/// called, before `dir` is judged, so that it is analysed once, with its
/// interface, rather than once before anyone called it and again for its
/// interface when someone did (248 of 3,036 analyses indexing 10 copies of
/// cloudposse). One a worker or another lane holds, or whose analysis is
/// under way higher up this thread (a loop of calls), is left to them.
fn settle_unanalysed_modules(shared: &Arc<Shared>, dir: &Path, calls: &[ModuleCall]) {
    for called in called_dirs(dir, calls, |_, _| true) {
        let unanalysed = {
            let session = shared.session();
            session.scheduling().is_indexing()
                && session.scheduling().knows(&called)
                && session.host().summary(&called).is_none()
        };
        if !unanalysed {
            continue;
        }
        let Some(lock) = claim(shared, &called) else {
            continue;
        };
        let analysed = match lock.try_lock() {
            Ok(_guard) => analyse_claimed(shared, &called, true),
            Err(_) => false,
        };
        // Published here, as its lane would: the pass may have come to it
        // meanwhile and left it to this claim.
        if analysed {
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.block_on(publish_dir(shared, &called));
            }
        }
        release(shared, called, analysed);
    }
}

/// Whether `dir` must be analysed for `need`: its inputs changed, or the
/// full analysis is wanted and only the summary is kept. When not, a
/// wanted full analysis is marked as just used.
fn needs_analysis(session: &mut Session, dir: &Path, need: Need) -> bool {
    let host = session.host_mut();
    let full_missing = need == Need::Full && !host.has_full_analysis(dir);
    if host.is_stale(dir) || full_missing {
        return true;
    }
    if need == Need::Full {
        host.mark_used(dir);
    }
    false
}

/// Reads `dir` from disk, on this (blocking) thread, and gives what it
/// holds to the host.
fn read_from_disk(shared: &Arc<Shared>, dir: &Path) {
    let read_dir = dir.to_path_buf();
    let (root, opened) = {
        let session = shared.session();
        (session.confinement_root(dir), session.documents_in(dir))
    };
    // Documents open through a link vouch for the files beside their
    // real file (`tofu_vfs::read_module_dir_vouched`).
    let read = (|| {
        let vouched = tofu_vfs::link_target_dirs(&opened);
        let (files, links) = tofu_vfs::read_module_dir_and_links(&read_dir, &root, &vouched)?;
        let manifest = read_manifest(&read_dir, &root);
        Ok::<_, std::io::Error>((files, manifest, links, !vouched.is_empty()))
    })();
    let mut session = shared.session();
    // Functions read files as `tofu validate` run in the directory
    // reads them, inside the directory's confinement root; given once,
    // so that an analysis after an edit stays incremental.
    if !session.host().has_module_files(dir) {
        let root = session.confinement_root(dir);
        let files = tofu_vfs::DirectoryFiles::within(dir, &root);
        session
            .host_mut()
            .set_module_files(dir, tofu_module::ModuleFiles::new(Arc::new(files)));
    }
    let change = match read {
        Ok((files, manifest, links, vouched)) => {
            session.scheduling_mut().state(dir).read_vouched = vouched;
            session.host_mut().set_links(dir, links);
            // The manifest is read even where `.terraform/**` is
            // excluded (the default): it is not analysed, it only says
            // where the directory's installed modules are.
            // A called-only directory is read whole: `exclude` keeps
            // `.terraform` out of the workspace, not out of the modules
            // the workspace calls.
            let called_only = session.scheduling().is_called_only(dir);
            let files = files
                .into_iter()
                .filter(|file| called_only || !session.is_excluded(&dir.join(&file.name)))
                .chain(manifest)
                .collect();
            Change::DiskDir {
                dir: dir.to_path_buf(),
                files,
            }
        }
        Err(error) => {
            // A directory deleted since is routine (and a call of it is
            // an "Unreadable module directory"); anything else, such as
            // a directory leading outside the workspace folder, is worth
            // a line, and says nothing of the directory.
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) {
                tracing::debug!("cannot read {}: {error}", dir.display());
                Change::DiskDirUnreadable {
                    dir: dir.to_path_buf(),
                }
            } else {
                tracing::info!("not reading {}: {error}", dir.display());
                Change::DiskDirRemoved {
                    dir: dir.to_path_buf(),
                }
            }
        }
    };
    if matches!(change, Change::DiskDirRemoved { .. }) {
        // Only this directory: its subdirectories are modules of their own.
        session.host_mut().apply_change(Change::DiskDir {
            dir: dir.to_path_buf(),
            files: Vec::new(),
        });
    } else {
        session.host_mut().apply_change(change);
    }
}

/// Stores the analysis of `dir` that took `took`, then starts what follows
/// from it: reading provider schemas, calling providers' validators,
/// analysing the directories it made stale and the modules it calls that
/// nothing brought in. Runs on a blocking thread (inside the runtime, so
/// that it may spawn tasks).
fn after_analysis(
    shared: &Arc<Shared>,
    dir: &Path,
    finished: tofu_ide::AnalysisResult,
    took: Duration,
    need: Need,
) {
    tracing::debug!("analysed {} in {:?}", dir.display(), took);
    let (old, callers, called, schema_dirs, indexing) = {
        let mut session = shared.session();
        // While indexing, full analyses are not kept, so that the thread
        // that built one frees it (below): a module analysed before its
        // callers is analysed again for its interface when one calls it
        // (computing every directory's interface instead cost more memory,
        // 526 against 304 MB at 50 copies of cloudposse, than the analyses
        // it saved).
        // An analysis a request asked for (`Need::Full`) is kept: dropped,
        // the request found no full analysis and answered nothing (a
        // definition into a called module asked while indexing still ran).
        let (_, old) = if session.scheduling().is_indexing() && need == Need::Summary {
            session.host_mut().finish_analysis_summary_only(finished)
        } else {
            session.host_mut().finish_analysis_returning_old(finished)
        };
        session.scheduling_mut().state(dir).last_analysis = Some(took);
        let called = called_only_dirs(&mut session, dir);
        // The modules it calls may have their providers installed only
        // here: their schemas are looked at again too; while indexing, once
        // each at the end of the pass (a module called from many
        // directories would otherwise be asked again with each new caller:
        // cloudposse's iam-roles 896 times in the 10x tree).
        let modules_called = session.host().called_dirs(dir).to_vec();
        let mut schema_dirs = vec![dir.to_path_buf()];
        schema_dirs.extend(
            session
                .scheduling_mut()
                .schemas_after_indexing(modules_called),
        );
        (
            old,
            session.host_mut().take_stale_callers(),
            called,
            schema_dirs,
            session.scheduling().is_indexing(),
        )
    };
    read_schemas_here(shared, &schema_dirs);
    validate_providers(shared, dir);
    // A module analysed before anyone called it is analysed again at once,
    // for its interface. A module whose interface changed: its callers
    // judge their calls again (once indexing is over, while it runs).
    let (uncomputed, callers) = {
        let mut session = shared.session();
        let (uncomputed, callers): (Vec<PathBuf>, Vec<PathBuf>) = callers
            .into_iter()
            .partition(|stale| session.host().lacks_interface(stale));
        (
            uncomputed,
            session.scheduling_mut().defer_while_indexing(callers),
        )
    };
    if !uncomputed.is_empty() {
        schedule(shared, uncomputed, false);
    }
    if !callers.is_empty() {
        schedule(shared, callers, true);
    }
    // Modules it calls that nothing else brought in: read and analysed,
    // then this directory is judged against them.
    if !called.is_empty() {
        schedule(shared, called, false);
    }
    // Freeing the previous analysis of a large module (and those no longer
    // kept) takes milliseconds: never under the lock, and after an edit
    // not before publishing; while indexing, here (a hand-off to another
    // thread for each directory costs more than it saves).
    if indexing {
        drop(old);
    } else if !old.is_empty() {
        tokio::task::spawn_blocking(move || drop(old));
    }
}

/// Starts reading the provider schemas of each of `dirs` that wants some
/// ([`provider_schemas::wanted`]), each in a task of its own, which
/// schedules the directory again when its schemas changed.
pub fn read_schemas(shared: &Arc<Shared>, dirs: Vec<PathBuf>) {
    for (dir, ask) in schema_asks(shared, dirs) {
        spawn_schema_reader(shared, dir, ask);
    }
}

/// [`read_schemas`] on a blocking thread: schemas with nothing left to
/// read (nothing installed, the common case) are given to the host here
/// and now ([`provider_schemas::at_hand`]), without a task, a thread
/// hand-off and a `$/progress` round trip each.
fn read_schemas_here(shared: &Arc<Shared>, dirs: &[PathBuf]) {
    for (dir, ask) in schema_asks(shared, dirs.to_vec()) {
        match provider_schemas::at_hand(shared, &dir, &ask) {
            Some(changed) => {
                if changed {
                    schedule(shared, [dir.clone()], false);
                }
                // What it wants may have changed while it was looked at.
                let next = provider_schemas::wanted(&mut shared.session(), &dir);
                if let Some(next) = next {
                    spawn_schema_reader(shared, dir, next);
                }
            }
            None => spawn_schema_reader(shared, dir, ask),
        }
    }
}

/// Each of `dirs` that wants provider schemas, with what it wants them
/// for (marked as being read).
fn schema_asks(shared: &Shared, dirs: Vec<PathBuf>) -> Vec<(PathBuf, SchemaAsk)> {
    let mut session = shared.session();
    dirs.into_iter()
        .filter_map(|dir| provider_schemas::wanted(&mut session, &dir).map(|ask| (dir, ask)))
        .collect()
}

/// Reads `ask` for `dir` in a task of its own, then whatever the directory
/// wants by then, scheduling it again whenever its schemas changed.
fn spawn_schema_reader(shared: &Arc<Shared>, dir: PathBuf, ask: SchemaAsk) {
    let shared = Arc::clone(shared);
    let busy = shared.activity.begin();
    tokio::spawn(async move {
        let _busy = busy;
        let mut next = Some(ask);
        while let Some(ask) = next {
            if provider_schemas::read(&shared, &dir, ask).await {
                schedule(&shared, [dir.clone()], false);
            }
            // What it wants may have changed while it was read.
            next = provider_schemas::wanted(&mut shared.session(), &dir);
        }
    });
}

/// Calls the providers' validators on `dir`'s analysis after
/// [`provider_validators::DEBOUNCE`], in a task of its own, which publishes
/// the directory again when their diagnostics changed.
fn validate_providers(shared: &Arc<Shared>, dir: &Path) {
    let Some(ask) = provider_validators::wanted(&mut shared.session(), dir) else {
        return;
    };
    let shared = Arc::clone(shared);
    let dir = dir.to_path_buf();
    let busy = shared.activity.begin();
    tokio::spawn(async move {
        let _busy = busy;
        tokio::time::sleep(provider_validators::DEBOUNCE).await;
        if provider_validators::validate(&shared, &dir, ask).await {
            shared.session().scheduling_mut().state(&dir).force_publish = true;
            schedule(&shared, [dir], false);
        }
    });
}

/// The directories the calls of `dir` name that the host holds nothing for,
/// marked to be read as called-only: those inside the workspace folder of
/// `dir`, and those a local source names wherever they are (OpenTofu reads
/// them for the module tree: `source = "../../"` from an example). The
/// called-only directories a published `dir` calls by a local path are
/// published too ([`crate::scheduling::DirState::reported`]), unless
/// `exclude` leaves them out; those it had analysed already are handed
/// back to be published.
fn called_only_dirs(session: &mut Session, dir: &Path) -> Vec<PathBuf> {
    let root = session.confinement_root(dir);
    let local = session.host().local_called_dirs(dir);
    let unknown: Vec<PathBuf> = session
        .host()
        .unknown_called_dirs(dir)
        .into_iter()
        .filter(|called| called.starts_with(&root) || local.contains(called))
        .filter(|called| !session.scheduling().knows(called))
        .collect();
    for called in &unknown {
        session.scheduling_mut().mark_called_only(called);
    }
    let mut to_read = unknown;
    if session.scheduling().is_published(dir) {
        for called in local {
            if session.scheduling().is_called_only(&called)
                && !session.is_excluded(&called)
                && session.scheduling_mut().mark_reported(&called)
                && !to_read.contains(&called)
            {
                to_read.push(called);
            }
        }
    }
    to_read
}

/// The module manifest `tofu init` wrote in `dir`
/// (`.terraform/modules/modules.json`), as an input of the directory, when
/// there is one that can be read inside `root`.
fn read_manifest(dir: &Path, root: &Path) -> Option<tofu_module::InputFile> {
    let path = dir.join(tofu_ide::MODULE_MANIFEST);
    if !path.is_file() {
        return None;
    }
    match tofu_vfs::read_file_within(&path, root) {
        content @ tofu_module::FileContent::Text(_) => Some(tofu_module::InputFile {
            name: tofu_ide::MODULE_MANIFEST.to_owned(),
            content,
        }),
        _ => None,
    }
}

/// The latest analysis, after bringing `dir` up to date (with its full
/// analysis when `need` says so).
pub async fn fresh_snapshot(shared: &Arc<Shared>, dir: &Path, need: Need) -> Snapshot {
    let known = {
        let session = shared.session();
        session.host().knows_dir(dir) || session.scheduling().needs_disk_read(dir)
    };
    if !known {
        return shared.session().host().snapshot();
    }
    // Another directory's analysis may drop this one's full analysis between
    // the refresh and the snapshot (only where very few are kept); the
    // snapshot, once taken, holds it.
    for _ in 0..3 {
        refresh_dir(shared, dir, need).await;
        let session = shared.session();
        let host = session.host();
        if need == Need::Summary || host.has_full_analysis(dir) || !host.knows_dir(dir) {
            return host.snapshot();
        }
    }
    shared.session().host().snapshot()
}

/// Publishes what changed for `dir` since the last publication: every file
/// with diagnostics, or open, whose diagnostics or version differ from what
/// the client was last sent (all of them when forced), open documents first,
/// and an empty list for every file whose published diagnostics went away,
/// or that disappeared or left the scope with some. The
/// diagnostics are converted with the session unlocked; only this
/// directory's worker publishes it, so the state read before converting is
/// still this directory's when the result is stored.
async fn publish_dir(shared: &Arc<Shared>, dir: &Path) {
    let plan = {
        let mut session = shared.session();
        let summary = session.host().summary(dir);
        let generation = summary.as_ref().map_or(0, |summary| summary.generation);
        let in_scope = session.in_scope(dir)
            && (session.scheduling().is_published(dir) || session.host().has_buffers(dir));
        let pull = session.support().pull_diagnostics;
        let refresh_supported = session.support().diagnostic_refresh;
        let state = session.scheduling_mut().state(dir);
        let nothing_new = generation <= state.published_generation && !state.force_publish;
        let nothing_to_clear = !in_scope && state.published.is_empty();
        if pull {
            state.published_generation = generation;
            state.force_publish = false;
            Publish::Refresh(!nothing_new && refresh_supported)
        } else if nothing_new && (in_scope || nothing_to_clear) {
            Publish::Refresh(false)
        } else {
            let force = std::mem::take(&mut state.force_publish);
            let from_providers = state.provider_diagnostics.clone();
            let held = state
                .published
                .iter()
                .filter(|(_, (_, old))| !old.is_empty())
                .filter_map(|(path, _)| path.file_name().map(ToOwned::to_owned))
                .collect();
            Publish::Push {
                summary,
                generation,
                in_scope,
                force,
                from_providers,
                held,
                converter: Box::new(Converter::new(&session)),
            }
        }
    };
    let (summary, generation, in_scope, force, from_providers, held, mut converter) = match plan {
        Publish::Refresh(false) => return,
        Publish::Refresh(true) => {
            request_diagnostic_refresh(shared);
            return;
        }
        Publish::Push {
            summary,
            generation,
            in_scope,
            force,
            from_providers,
            held,
            converter,
        } => (
            summary,
            generation,
            in_scope,
            force,
            from_providers,
            held,
            *converter,
        ),
    };
    let current = match summary.filter(|_| in_scope) {
        Some(summary) => current_diagnostics(&mut converter, &summary, &from_providers, &held),
        None => Vec::new(),
    };
    let publications = {
        let mut session = shared.session();
        let state = session.scheduling_mut().state(dir);
        let mut publications: Vec<Publication> = Vec::new();
        let mut published = HashMap::with_capacity(current.len());
        for (path, diagnostics, version) in current {
            let previous = state.published.get(&path);
            // The client shows diagnostics for this file that may have to go.
            let held = previous.is_some_and(|(_, old)| !old.is_empty());
            // A clean file the client holds nothing for is not published
            // (at start-up, most files of a workspace), except an open
            // document, whose every version is answered.
            let wanted = !diagnostics.is_empty() || held || version.is_some();
            if !wanted {
                continue;
            }
            let unchanged = previous
                .is_some_and(|(old_version, old)| *old_version == version && *old == diagnostics);
            if force || !unchanged {
                publications.push((path.clone(), diagnostics.clone(), version));
            }
            published.insert(path, (version, diagnostics));
        }
        let mut gone: Vec<Publication> = state
            .published
            .iter()
            .filter(|(path, (_, old))| !published.contains_key(*path) && !old.is_empty())
            .map(|(path, (version, _))| (path.clone(), Vec::new(), *version))
            .collect();
        gone.sort_by(|a, b| a.0.cmp(&b.0));
        publications.extend(gone);
        state.published = published;
        state.published_generation = generation;
        publications
    };
    // Open documents first: they are what the user is looking at.
    let mut publications = publications;
    publications.sort_by_key(|(_, _, version)| version.is_none());
    for (path, diagnostics, version) in publications {
        let Some(uri) = converter.uri_for(&path) else {
            continue;
        };
        shared
            .activity
            .publications
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        shared
            .client
            .publish_diagnostics(uri, diagnostics, version)
            .await;
    }
}

/// Asks the client to pull diagnostics again, in a task of its own: a lane
/// publishing a directory must not wait for the client's answer (a client
/// that never answers, or one that has gone, kept an indexing lane, and the
/// runtime's shutdown behind it, waiting for ever). One request at a time:
/// those wanted while one waits become one more after it (the client may
/// have pulled before what they announce).
fn request_diagnostic_refresh(shared: &Arc<Shared>) {
    {
        let mut state = shared
            .diagnostic_refresh
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if state.in_flight {
            state.again = true;
            return;
        }
        state.in_flight = true;
    }
    // Not counted as activity: waiting for a client's answer is no work
    // of ours (`tofuLens/settled` would otherwise wait for the client).
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        loop {
            if let Err(error) = shared.client.workspace_diagnostic_refresh().await {
                tracing::debug!("workspace/diagnostic/refresh failed: {error}");
            }
            let mut state = shared
                .diagnostic_refresh
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if !std::mem::take(&mut state.again) {
                state.in_flight = false;
                break;
            }
        }
    });
}

type Publication = (PathBuf, Vec<Diagnostic>, Option<i32>);

/// What [`publish_dir`] does, decided with the session locked.
enum Publish {
    /// Pull mode: ask the client to pull again (or not).
    Refresh(bool),
    /// Push mode: convert this summary's diagnostics and send what changed.
    Push {
        /// `None` before the directory's first analysis.
        summary: Option<Arc<ModuleSummary>>,
        generation: u64,
        in_scope: bool,
        force: bool,
        /// The providers' validators' diagnostics kept for the directory.
        from_providers: ProviderDiagnostics,
        /// The names of the files whose diagnostics the client shows now
        /// (names, not paths: hashing a whole path for each of a thousand
        /// files cost more than converting; a name shared by a file in a
        /// subdirectory only converts one file more).
        held: HashSet<OsString>,
        /// Boxed: the variant would otherwise be 200 bytes beside one.
        converter: Box<Converter>,
    },
}

/// Every file the analysis of a directory saw (its summary), with its
/// converted diagnostics (the providers' validators' among them, when
/// placed in the same text) and the version of the buffer the analysis used.
/// A file with nothing to say, not open, whose diagnostics the client does
/// not show (`held`), is left out: it would not be published, and on a
/// keystroke in a module of a thousand files, converting each cost more
/// than the rest of publishing.
fn current_diagnostics(
    converter: &mut Converter,
    summary: &ModuleSummary,
    from_providers: &ProviderDiagnostics,
    held: &HashSet<OsString>,
) -> Vec<Publication> {
    summary
        .file_diagnostics()
        .iter()
        .filter(|file| {
            !file.diagnostics.is_empty()
                || file.version.is_some()
                || !provider_validators::for_file(from_providers, &file.path, &file.text).is_empty()
                || file.path.file_name().is_none_or(|name| held.contains(name))
        })
        .map(|file| {
            let diagnostics = provider_validators::converted(converter, file, from_providers);
            (file.path.clone(), diagnostics, file.version)
        })
        .collect()
}

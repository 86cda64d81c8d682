//! The workspace on disk: scanning workspace folders for module directories
//! (with progress), and picking up files created, changed or deleted on disk,
//! from watched-file notifications or, for clients that do not watch files
//! for servers (Neovim), from a watcher of our own (inotify on Linux,
//! `notify` elsewhere).
//!
//! Everything here only reads, and only inside the workspace folders: reads
//! go through `tofu_vfs::read_*_within`, which refuse files and directories
//! whose real location is outside the folder, and a path outside every folder
//! is looked at only when its directory is already known (a document opened
//! from elsewhere). Walks stop after [`ServerOptions::max_walk_dirs`]
//! directories; a folder that cannot be read or is too large to walk is
//! reported with `window/showMessage` and a log line, and is not watched.
//! Disk contents go into the analysis host; open documents keep hiding them.
//! A directory's module manifest (`.terraform/modules/modules.json`, which
//! `tofu init` writes) counts as an input of that directory, although
//! `.terraform` is skipped and excluded by default. So do a root's
//! installed providers (its `.terraform.lock.hcl` and
//! `.terraform/providers/**`): when they change, the provider schemas that
//! come from them are read again (`provider_schemas::installations_changed`).
//!
//! [`ServerOptions::max_walk_dirs`]: crate::options::ServerOptions::max_walk_dirs

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_ide::{module_input_of, Change, MODULE_MANIFEST};
use tofu_vfs::{Walk, WalkLimits};
use tower_lsp_server::ls_types::MessageType;

use crate::client_requests::begin_progress;
use crate::folder_watcher::FolderWatcher;
use crate::options::DiskGate;
use crate::provider_schemas;
use crate::scheduler::{index, read_schemas, schedule, IndexProgress};
use crate::scheduling::Mark;
use crate::shared::Shared;

/// Walks one workspace folder and says what went wrong, if anything: the
/// folder cannot be read, or the walk stopped at the cap.
fn walk_folder(folder: &Path, limits: &WalkLimits) -> (Walk, Option<String>) {
    let walk = tofu_vfs::find_module_dirs(folder, limits);
    for (dir, message) in &walk.unreadable {
        tracing::debug!("cannot list {}: {message}", dir.display());
    }
    if let Some((_, message)) = walk.unreadable.iter().find(|(dir, _)| dir == folder) {
        let problem = format!(
            "tofu-lens: cannot read the workspace folder {}: {message}. Nothing in it is analysed.",
            folder.display()
        );
        return (walk, Some(problem));
    }
    if !walk.unreadable.is_empty() {
        tracing::warn!(
            "{}: {} directories could not be listed",
            folder.display(),
            walk.unreadable.len()
        );
    }
    let problem = walk.truncated.then(|| {
        format!(
            "tofu-lens: stopped looking for OpenTofu modules in {} after {} directories; \
             only the {} module directories found so far are analysed. Open a module's \
             own folder instead.",
            folder.display(),
            limits.max_dirs,
            walk.module_dirs.len()
        )
    });
    (walk, problem)
}

/// Finds every module directory of `folders`, reads and analyses each one,
/// reporting progress with counts, then publishes.
pub async fn scan_folders(shared: Arc<Shared>, folders: Vec<PathBuf>) {
    let limits = WalkLimits {
        max_dirs: shared.options.max_walk_dirs,
    };
    let started = std::time::Instant::now();
    let walked = tokio::task::spawn_blocking(move || {
        folders
            .into_iter()
            .map(|folder| {
                let (walk, problem) = walk_folder(&folder, &limits);
                (folder, walk, problem)
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let mut watchable = Vec::new();
    for (folder, walk, problem) in walked {
        match problem {
            Some(problem) => problems.push(problem),
            None => watchable.push(folder),
        }
        found.extend(walk.module_dirs);
    }
    found.sort();
    found.dedup();
    tracing::debug!("walked the workspace in {:?}", started.elapsed());
    let started = std::time::Instant::now();
    let watching = Arc::clone(&shared);
    let _ = tokio::task::spawn_blocking(move || watch_folders(&watching, &watchable)).await;
    tracing::debug!("watched the workspace in {:?}", started.elapsed());
    for problem in problems {
        tracing::warn!("{problem}");
        shared
            .client
            .show_message(MessageType::WARNING, problem)
            .await;
    }
    let dirs: Vec<PathBuf> = {
        let mut session = shared.session();
        let dirs: Vec<PathBuf> = found
            .into_iter()
            .filter(|dir| !session.is_excluded(dir))
            .collect();
        for dir in &dirs {
            session.scheduling_mut().mark(dir, Mark::DiskRead);
        }
        dirs
    };
    let n_dirs = dirs.len();
    tracing::info!("indexing {n_dirs} module directories");
    let progress = begin_progress(
        &shared,
        "indexing",
        "Indexing OpenTofu modules",
        format!("0/{n_dirs} module directories"),
    )
    .await;
    // Each directory is published as soon as it is analysed; the progress
    // ends once every one is, and the callers they made stale are too.
    let (counter, mut moved) = IndexProgress::new(n_dirs);
    let reporting = async {
        let mut reported = 0;
        while let Some((done, percentage)) = moved.recv().await {
            if done <= reported {
                continue;
            }
            reported = done;
            if let Some(progress) = &progress {
                progress
                    .report_with_message(format!("{done}/{n_dirs} module directories"), percentage)
                    .await;
            }
        }
    };
    tokio::join!(index(&shared, dirs, counter), reporting);
    if let Some(progress) = progress {
        progress
            .finish_with_message(format!("{n_dirs} module directories"))
            .await;
    }
}

/// Files or directories changed on disk: each path is looked at as it is now
/// (it may have been created, changed or deleted since the event). Links to
/// directories are not followed, and a path outside every workspace folder
/// counts only when its directory is already known.
///
/// Runs on the disk-change queue ([`queue_disk_changes`]), never in a
/// handler: the session is locked only to look paths up and to apply what
/// was found, never while the disk is read or walked.
fn disk_changed(shared: &Arc<Shared>, paths: Vec<PathBuf>) {
    let limits = WalkLimits {
        max_dirs: shared.options.max_walk_dirs,
    };
    // 0. `tofu init` changed what a root has installed: its providers'
    // schemas are read again, for it and whatever reads them from it.
    let mut installation_roots: Vec<PathBuf> = paths
        .iter()
        .filter_map(|path| provider_schemas::installation_root(path))
        .collect();
    if !installation_roots.is_empty() {
        installation_roots.sort();
        installation_roots.dedup();
        let dirs = provider_schemas::installations_changed(shared, &installation_roots);
        read_schemas(shared, dirs);
    }
    // 1. What the session knows of each path.
    let seen: Vec<Seen> = {
        let session = shared.session();
        paths
            .into_iter()
            .filter(|path| {
                // A module manifest is below `.terraform`, which is skipped
                // and excluded by default: it counts for its directory.
                let counted = match module_input_of(path) {
                    Some((dir, name)) if name == MODULE_MANIFEST => dir,
                    _ => path.clone(),
                };
                !session.is_excluded(&counted) && !is_in_skipped_dir(session.folders(), &counted)
            })
            .map(|path| {
                let in_folders = session.in_folders(&path);
                let known_root = module_input_of(&path)
                    .filter(|(dir, _)| session.host().knows_dir(dir))
                    .map(|(dir, _)| session.confinement_root(&dir));
                Seen {
                    path,
                    in_folders,
                    known_root,
                }
            })
            .collect()
    };
    // 2. The disk, with the session unlocked.
    let found: Vec<Found> = seen
        .into_iter()
        .filter_map(|seen| look_at_disk(seen, &limits, shared.options.disk_gate.as_ref()))
        .collect();
    // 3. Apply what was found.
    let mut stale = Vec::new();
    {
        let mut session = shared.session();
        for found in found {
            match found {
                Found::Gone(path) => {
                    let gone_dirs: Vec<PathBuf> = session
                        .host()
                        .module_dirs()
                        .filter(|dir| dir.starts_with(&path))
                        .map(Path::to_path_buf)
                        .collect();
                    if gone_dirs.is_empty() {
                        let change = Change::DiskFileRemoved { path };
                        stale.extend(session.host_mut().apply_change(change));
                    } else {
                        // Gone from the disk: a call of one of them is now
                        // "Unreadable module directory", as for `check`.
                        let change = Change::DiskDirRemoved { dir: path };
                        stale.extend(session.host_mut().apply_change(change));
                        for dir in gone_dirs {
                            let change = Change::DiskDirUnreadable { dir };
                            stale.extend(session.host_mut().apply_change(change));
                        }
                    }
                }
                Found::ModuleDirs(dirs) => {
                    for dir in dirs {
                        session.scheduling_mut().mark(&dir, Mark::DiskRead);
                        stale.push(dir);
                    }
                }
                Found::File { path, dir, content } => match content {
                    // Read beside a document open through a link: the
                    // whole directory again, with what the document
                    // vouches for (`tofu_vfs::read_module_dir_vouched`).
                    Some(_) if session.scheduling().read_vouched(&dir) => {
                        session.scheduling_mut().mark(&dir, Mark::DiskRead);
                        stale.push(dir);
                    }
                    Some(content) if session.host().knows_dir(&dir) => {
                        // A new manifest: `tofu init` ran, and may have
                        // replaced the modules it installed.
                        if path.ends_with(MODULE_MANIFEST) {
                            // The manifest's directory holds what it installed.
                            let manifest = dir.join(MODULE_MANIFEST);
                            let installed = manifest.parent().unwrap_or(&dir);
                            for called in session.scheduling().called_only_below(installed) {
                                session.scheduling_mut().mark(&called, Mark::DiskRead);
                                stale.push(called);
                            }
                        }
                        stale.extend(
                            session
                                .host_mut()
                                .apply_change(Change::DiskFile { path, content }),
                        );
                    }
                    // Not read, or its directory was forgotten since: read
                    // the directory whole.
                    _ => {
                        if session.host().knows_dir(&dir) || session.in_folders(&path) {
                            session.scheduling_mut().mark(&dir, Mark::DiskRead);
                            stale.push(dir);
                        }
                    }
                },
            }
        }
    }
    stale.sort();
    stale.dedup();
    schedule(shared, stale, true);
}

/// A changed path, with what the session knew of it before the disk was read.
struct Seen {
    path: PathBuf,
    in_folders: bool,
    /// The confinement root of its directory, when that directory is known.
    known_root: Option<PathBuf>,
}

/// What a changed path turned out to be on disk.
enum Found {
    Gone(PathBuf),
    /// A directory: the module directories below it.
    ModuleDirs(Vec<PathBuf>),
    /// A configuration file, read when its directory is known.
    File {
        path: PathBuf,
        dir: PathBuf,
        content: Option<tofu_module::FileContent>,
    },
}

fn look_at_disk(seen: Seen, limits: &WalkLimits, gate: Option<&DiskGate>) -> Option<Found> {
    let Seen {
        path,
        in_folders,
        known_root,
    } = seen;
    if let Some(gate) = gate {
        gate.pass();
    }
    match std::fs::symlink_metadata(&path) {
        Err(_) => Some(Found::Gone(path)),
        Ok(metadata) if metadata.is_dir() => {
            if !in_folders {
                return None;
            }
            let walk = tofu_vfs::find_module_dirs(&path, limits);
            if walk.truncated {
                tracing::warn!(
                    "{}: stopped walking after {} directories",
                    path.display(),
                    limits.max_dirs
                );
            }
            Some(Found::ModuleDirs(walk.module_dirs))
        }
        Ok(metadata) if metadata.is_symlink() && path.is_dir() => {
            tracing::debug!("not following the directory link {}", path.display());
            None
        }
        Ok(_) => {
            let (dir, _) = module_input_of(&path)?;
            if known_root.is_none() && !in_folders {
                return None;
            }
            let content = known_root.map(|root| tofu_vfs::read_file_within(&path, &root));
            Some(Found::File { path, dir, content })
        }
    }
}

/// Hands changed paths to the disk-change queue: one task applies them in
/// the order they came, each burst in one pass, off the async threads, so a
/// handler returns at once and a checkout of thousands of files never
/// delays a request.
pub fn queue_disk_changes(shared: &Arc<Shared>, paths: Vec<PathBuf>) {
    let sender = shared.disk_changes.get_or_init(|| {
        let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Vec<PathBuf>>();
        let shared = Arc::clone(shared);
        tokio::spawn(async move {
            while let Some(mut paths) = receiver.recv().await {
                // Take whatever else is queued: one burst, one pass.
                while let Ok(more) = receiver.try_recv() {
                    paths.extend(more);
                }
                paths.sort();
                paths.dedup();
                let worker = Arc::clone(&shared);
                if let Err(error) =
                    tokio::task::spawn_blocking(move || disk_changed(&worker, paths)).await
                {
                    tracing::error!("applying disk changes failed: {error}");
                }
            }
        });
        sender
    });
    if sender.send(paths).is_err() {
        tracing::error!("the disk-change queue has stopped");
    }
}

/// True for paths below a directory the walk skips (`.git`, `.terraform`,
/// `node_modules`, hidden ones), relative to the workspace folder.
fn is_in_skipped_dir(folders: &[PathBuf], path: &Path) -> bool {
    let Some(relative) = folders
        .iter()
        .find_map(|folder| path.strip_prefix(folder).ok())
    else {
        return false;
    };
    let Some(parent) = relative.parent() else {
        return false;
    };
    parent
        .components()
        .any(|part| tofu_vfs::is_skipped_dir(&part.as_os_str().to_string_lossy()))
}

/// Watches `folders` recursively with our own watcher, when the client
/// does not watch files for us (the watcher starts with the first folder);
/// feeds the disk-change queue. Folders already watched are left alone.
/// Blocks while the watcher walks the folders: call it off the async threads.
pub fn watch_folders(shared: &Arc<Shared>, folders: &[PathBuf]) {
    let mut guard = shared.disk_watcher();
    if !guard.enabled {
        return;
    }
    if guard.watcher.is_none() {
        guard.watcher = start_watcher(shared);
    }
    let state = &mut *guard;
    let Some(watcher) = state.watcher.as_mut() else {
        return;
    };
    for folder in folders {
        if state.folders.contains(folder) {
            continue;
        }
        match watcher.watch(folder) {
            Ok(()) => {
                state.folders.insert(folder.clone());
            }
            Err(error) => tracing::warn!("cannot watch {}: {error}", folder.display()),
        }
    }
}

/// Stops watching a folder that left the workspace.
pub fn unwatch_folder(shared: &Arc<Shared>, folder: &Path) {
    let mut guard = shared.disk_watcher();
    if !guard.folders.remove(folder) {
        return;
    }
    if let Some(watcher) = guard.watcher.as_mut() {
        watcher.unwatch(folder);
    }
}

/// A watcher whose events go to the disk-change queue.
fn start_watcher(shared: &Arc<Shared>) -> Option<FolderWatcher> {
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Vec<PathBuf>>();
    let watcher = FolderWatcher::with_sink(sender);
    let watcher = match watcher {
        Ok(watcher) => watcher,
        Err(error) => {
            tracing::warn!("cannot watch files: {error}");
            return None;
        }
    };
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        while let Some(paths) = receiver.recv().await {
            queue_disk_changes(&shared, paths);
        }
    });
    Some(watcher)
}

//! The workspace on disk: scanning workspace folders for module directories
//! (with progress), and picking up files created, changed or deleted on disk,
//! from watched-file notifications or, for clients that do not watch files
//! for servers (Neovim), from a `notify` watcher of our own.
//!
//! Everything here only reads. Disk contents go into the analysis host; open
//! documents keep hiding them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_ide::{split_path, Change};
use tofu_module::discovery::has_config_extension;
use tofu_vfs::WalkLimits;
use tower_lsp_server::ls_types::ProgressToken;

use crate::scheduler::{refresh_dir, schedule};
use crate::server::Shared;

/// Finds every module directory of `folders`, reads and analyses each one,
/// reporting progress with counts, then publishes.
pub async fn scan_folders(shared: Arc<Shared>, folders: Vec<PathBuf>) {
    let walk_folders = folders.clone();
    let found = tokio::task::spawn_blocking(move || {
        let mut dirs = Vec::new();
        for folder in &walk_folders {
            let walk = tofu_vfs::find_module_dirs(folder, &WalkLimits::default());
            if walk.truncated {
                tracing::warn!(
                    "{}: stopped walking after {} directories",
                    folder.display(),
                    WalkLimits::default().max_dirs
                );
            }
            dirs.extend(walk.module_dirs);
        }
        dirs.sort();
        dirs.dedup();
        dirs
    })
    .await
    .unwrap_or_default();
    let dirs: Vec<PathBuf> = {
        let mut session = shared.session();
        let dirs: Vec<PathBuf> = found
            .into_iter()
            .filter(|dir| !session.is_excluded(dir))
            .collect();
        for dir in &dirs {
            session.dir_state(dir).needs_disk_read = true;
        }
        dirs
    };
    let n_dirs = dirs.len();
    tracing::info!("indexing {n_dirs} module directories");
    let progress = if shared.session().support.work_done_progress {
        let token = ProgressToken::String(format!("tofu-lens/indexing/{}", shared.next_token()));
        match shared.client.create_work_done_progress(token.clone()).await {
            Ok(()) => Some(
                shared
                    .client
                    .progress(token, "Indexing OpenTofu modules")
                    .with_message(format!("0/{n_dirs} module directories"))
                    .with_percentage(0)
                    .begin()
                    .await,
            ),
            Err(error) => {
                tracing::debug!("no progress: {error}");
                None
            }
        }
    } else {
        None
    };
    let mut last_percentage = 0;
    for (index, dir) in dirs.iter().enumerate() {
        refresh_dir(&shared, dir).await;
        let done = index + 1;
        let percentage = u32::try_from(done * 100 / n_dirs.max(1)).unwrap_or(100);
        if let Some(progress) = &progress {
            if percentage != last_percentage || done == n_dirs {
                progress
                    .report_with_message(format!("{done}/{n_dirs} module directories"), percentage)
                    .await;
                last_percentage = percentage;
            }
        }
    }
    if let Some(progress) = progress {
        progress
            .finish_with_message(format!("{n_dirs} module directories"))
            .await;
    }
    schedule(&shared, dirs, false);
}

/// Files or directories changed on disk: each path is looked at as it is now
/// (it may have been created, changed or deleted since the event).
pub fn disk_changed(shared: &Arc<Shared>, paths: Vec<PathBuf>) {
    let mut stale = Vec::new();
    {
        let mut session = shared.session();
        for path in paths {
            if session.is_excluded(&path) || is_in_skipped_dir(&session.folders, &path) {
                continue;
            }
            let metadata = std::fs::metadata(&path);
            match metadata {
                Err(_) => {
                    let is_known_dir = session.host.module_dirs().any(|dir| dir.starts_with(&path));
                    let change = if is_known_dir {
                        Change::DiskDirRemoved { dir: path }
                    } else {
                        Change::DiskFileRemoved { path }
                    };
                    stale.extend(session.host.apply_change(change));
                }
                Ok(metadata) if metadata.is_dir() => {
                    let walk = tofu_vfs::find_module_dirs(&path, &WalkLimits::default());
                    for dir in walk.module_dirs {
                        session.dir_state(&dir).needs_disk_read = true;
                        stale.push(dir);
                    }
                }
                Ok(_) => {
                    let Some((dir, name)) = split_path(&path) else {
                        continue;
                    };
                    if !has_config_extension(&name) {
                        continue;
                    }
                    if session.host.knows_dir(&dir) {
                        let content = tofu_vfs::read_file(&path);
                        stale.extend(
                            session
                                .host
                                .apply_change(Change::DiskFile { path, content }),
                        );
                    } else {
                        session.dir_state(&dir).needs_disk_read = true;
                        stale.push(dir);
                    }
                }
            }
        }
    }
    stale.sort();
    stale.dedup();
    schedule(shared, stale, true);
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

/// Starts a recursive `notify` watcher on every workspace folder, feeding
/// [`disk_changed`]. Kept in the session so it lives as long as the server.
pub fn start_watcher(shared: &Arc<Shared>, folders: &[PathBuf]) {
    use notify::Watcher as _;
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Vec<PathBuf>>();
    let watcher =
        notify::recommended_watcher(move |event: notify::Result<notify::Event>| match event {
            Ok(event) if !matches!(event.kind, notify::EventKind::Access(_)) => {
                let _ = sender.send(event.paths);
            }
            Ok(_) => {}
            Err(error) => tracing::debug!("file watcher: {error}"),
        });
    let mut watcher = match watcher {
        Ok(watcher) => watcher,
        Err(error) => {
            tracing::warn!("cannot watch files: {error}");
            return;
        }
    };
    for folder in folders {
        if let Err(error) = watcher.watch(folder, notify::RecursiveMode::Recursive) {
            tracing::warn!("cannot watch {}: {error}", folder.display());
        }
    }
    shared.session().watcher = Some(watcher);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        while let Some(mut paths) = receiver.recv().await {
            // Take whatever else is queued: one burst, one pass.
            while let Ok(more) = receiver.try_recv() {
                paths.extend(more);
            }
            paths.sort();
            paths.dedup();
            disk_changed(&shared, paths);
        }
    });
}

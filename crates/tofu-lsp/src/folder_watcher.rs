//! The server's own recursive file watcher, for clients that do not watch
//! files for servers: on Linux straight on inotify
//! ([`crate::inotify_watcher`]: `notify` would wake for every file the
//! server reads), elsewhere `notify`'s recommended watcher. Each batch of
//! changed paths goes to the sender it was made with.

use std::path::{Path, PathBuf};

/// A recursive watcher over the workspace folders.
#[derive(Debug)]
pub enum FolderWatcher {
    #[cfg(target_os = "linux")]
    Inotify(crate::inotify_watcher::InotifyWatcher),
    #[cfg(not(target_os = "linux"))]
    Notify(notify::RecommendedWatcher),
}

impl FolderWatcher {
    #[cfg(target_os = "linux")]
    pub fn with_sink(
        sender: tokio::sync::mpsc::UnboundedSender<Vec<PathBuf>>,
    ) -> Result<FolderWatcher, String> {
        crate::inotify_watcher::InotifyWatcher::new(move |paths| {
            let _ = sender.send(paths);
        })
        .map(FolderWatcher::Inotify)
        .map_err(|error| error.to_string())
    }

    #[cfg(not(target_os = "linux"))]
    pub fn with_sink(
        sender: tokio::sync::mpsc::UnboundedSender<Vec<PathBuf>>,
    ) -> Result<FolderWatcher, String> {
        notify::recommended_watcher(move |event: notify::Result<notify::Event>| match event {
            Ok(event) if !matches!(event.kind, notify::EventKind::Access(_)) => {
                let _ = sender.send(event.paths);
            }
            Ok(_) => {}
            Err(error) => tracing::debug!("file watcher: {error}"),
        })
        .map(FolderWatcher::Notify)
        .map_err(|error| error.to_string())
    }

    pub fn watch(&mut self, folder: &Path) -> Result<(), String> {
        match self {
            #[cfg(target_os = "linux")]
            FolderWatcher::Inotify(watcher) => {
                watcher.watch(folder).map_err(|error| error.to_string())
            }
            #[cfg(not(target_os = "linux"))]
            FolderWatcher::Notify(watcher) => {
                use notify::Watcher as _;
                watcher
                    .watch(folder, notify::RecursiveMode::Recursive)
                    .map_err(|error| error.to_string())
            }
        }
    }

    pub fn unwatch(&mut self, folder: &Path) {
        match self {
            #[cfg(target_os = "linux")]
            FolderWatcher::Inotify(watcher) => watcher.unwatch(folder),
            #[cfg(not(target_os = "linux"))]
            FolderWatcher::Notify(watcher) => {
                use notify::Watcher as _;
                if let Err(error) = watcher.unwatch(folder) {
                    tracing::debug!("cannot stop watching {}: {error}", folder.display());
                }
            }
        }
    }
}

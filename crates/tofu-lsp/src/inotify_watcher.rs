//! The server's own file watcher on Linux, straight on inotify.
//!
//! `notify` 8 asks inotify for `IN_OPEN` too, so every file the server
//! reads in a watched folder wakes its watcher thread: indexing a large
//! workspace then costs tens of thousands of context switches and a tenth
//! of the server's CPU for events that are thrown away (`Access`). This
//! watcher asks only for what changes a file or a directory, and otherwise
//! does what `notify`'s recursive inotify watch does: a watch on every
//! directory below each folder (symbolic links to directories followed,
//! each real directory once), new directories watched as they appear, and
//! the whole folder reported again when the kernel's queue overflowed.
//! `.git` is not watched: nothing in it is read.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask, Watches};

/// What a change to a file or directory shows as; not `OPEN`, `ACCESS` or
/// `CLOSE_NOWRITE`, which reading does.
fn change_mask() -> WatchMask {
    WatchMask::ATTRIB
        | WatchMask::CREATE
        | WatchMask::DELETE
        | WatchMask::CLOSE_WRITE
        | WatchMask::MODIFY
        | WatchMask::MOVED_FROM
        | WatchMask::MOVED_TO
        | WatchMask::DELETE_SELF
        | WatchMask::MOVE_SELF
        | WatchMask::ONLYDIR
}

/// The directories watched, both ways, and the folders they are below.
#[derive(Debug, Default)]
struct Watched {
    dirs: HashMap<WatchDescriptor, PathBuf>,
    by_dir: HashMap<PathBuf, WatchDescriptor>,
    /// Real locations watched (a directory reached through two paths is
    /// watched once).
    real: HashSet<PathBuf>,
    folders: Vec<PathBuf>,
    /// The watcher was dropped: the reading thread stops.
    closed: bool,
}

/// A recursive watcher over folders, sending batches of changed paths
/// (files, or directories that appeared or went) to `sink`.
#[derive(Debug)]
pub struct InotifyWatcher {
    watches: Watches,
    watched: Arc<Mutex<Watched>>,
}

impl InotifyWatcher {
    /// Starts the watcher and its reading thread.
    pub fn new(sink: impl Fn(Vec<PathBuf>) + Send + 'static) -> std::io::Result<InotifyWatcher> {
        let inotify = Inotify::init()?;
        let watches = inotify.watches();
        let watched = Arc::new(Mutex::new(Watched::default()));
        let reader = Reader {
            inotify,
            watches: watches.clone(),
            watched: Arc::clone(&watched),
        };
        std::thread::Builder::new()
            .name("tofu-lens-watch".to_owned())
            .spawn(move || reader.run(&sink))?;
        Ok(InotifyWatcher { watches, watched })
    }

    /// Watches `folder` and every directory below it.
    pub fn watch(&mut self, folder: &Path) -> std::io::Result<()> {
        std::fs::metadata(folder)?;
        let mut watched = lock(&self.watched);
        watched.folders.push(folder.to_path_buf());
        add_below(&mut self.watches, &mut watched, folder);
        if watched.by_dir.contains_key(folder) {
            Ok(())
        } else {
            Err(std::io::Error::other("no directory could be watched"))
        }
    }

    /// Stops watching `folder` and the directories below it (those also
    /// below another folder watched stay watched).
    pub fn unwatch(&mut self, folder: &Path) {
        let mut watched = lock(&self.watched);
        watched.folders.retain(|watched| watched != folder);
        let others = watched.folders.clone();
        let gone: Vec<PathBuf> = watched
            .by_dir
            .keys()
            .filter(|dir| dir.starts_with(folder) && !others.iter().any(|o| dir.starts_with(o)))
            .cloned()
            .collect();
        for dir in gone {
            forget(&mut self.watches, &mut watched, &dir, true);
        }
    }
}

impl Drop for InotifyWatcher {
    fn drop(&mut self) {
        let mut watched = lock(&self.watched);
        watched.closed = true;
        let dirs: Vec<PathBuf> = watched.by_dir.keys().cloned().collect();
        for dir in dirs {
            // Each removal queues an `IN_IGNORED`, which wakes the
            // reading thread to see that it is closed.
            forget(&mut self.watches, &mut watched, &dir, true);
        }
    }
}

fn lock(watched: &Mutex<Watched>) -> std::sync::MutexGuard<'_, Watched> {
    watched.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Watches `dir` and the directories below it that are not watched yet;
/// returns the directories it began to watch.
fn add_below(watches: &mut Watches, watched: &mut Watched, dir: &Path) -> Vec<PathBuf> {
    let mut added = Vec::new();
    // Each with its real location when known without asking the disk: a
    // directory reached through a plain entry of a directory whose real
    // location is known lies beside it. Only the top and links are
    // canonicalized, and only links are looked at beyond their entry's
    // type (a `stat` per file, and a `realpath` per directory, were most of
    // the time the server took to watch a large tree before indexing it).
    let mut pending: Vec<(PathBuf, Option<PathBuf>)> = vec![(dir.to_path_buf(), None)];
    while let Some((dir, real)) = pending.pop() {
        if watched.by_dir.contains_key(&dir) {
            continue;
        }
        let Some(real) = real.or_else(|| std::fs::canonicalize(&dir).ok()) else {
            continue;
        };
        if !watched.real.insert(real.clone()) {
            continue;
        }
        match watches.add(&dir, change_mask()) {
            Ok(wd) => {
                watched.dirs.insert(wd.clone(), dir.clone());
                watched.by_dir.insert(dir.clone(), wd);
                added.push(dir.clone());
            }
            Err(error) => {
                tracing::debug!("cannot watch {}: {error}", dir.display());
                continue;
            }
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name == OsStr::new(".git") {
                continue;
            }
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                let real = real.join(&name);
                pending.push((entry.path(), Some(real)));
            } else if file_type.is_symlink() {
                // Symbolic links to directories are followed, as `notify` does.
                let path = entry.path();
                if std::fs::metadata(&path).is_ok_and(|metadata| metadata.is_dir()) {
                    pending.push((path, None));
                }
            }
        }
    }
    added
}

/// Forgets the watch of `dir`; `remove` also asks the kernel to drop it
/// (not when the kernel dropped it already: `IN_IGNORED`).
fn forget(watches: &mut Watches, watched: &mut Watched, dir: &Path, remove: bool) {
    let Some(wd) = watched.by_dir.remove(dir) else {
        return;
    };
    watched.dirs.remove(&wd);
    if let Ok(real) = std::fs::canonicalize(dir) {
        watched.real.remove(&real);
    } else {
        // Gone from the disk: its real location is not known any more.
        watched.real.retain(|real| real.exists());
    }
    if remove {
        let _ = watches.remove(wd);
    }
}

/// The reading thread's side.
struct Reader {
    inotify: Inotify,
    watches: Watches,
    watched: Arc<Mutex<Watched>>,
}

impl Reader {
    fn run(mut self, sink: &dyn Fn(Vec<PathBuf>)) {
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let events = match self.inotify.read_events_blocking(&mut buffer) {
                Ok(events) => events,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => {
                    tracing::warn!("file watcher stopped: {error}");
                    return;
                }
            };
            let mut paths = Vec::new();
            let mut watched = lock(&self.watched);
            if watched.closed {
                return;
            }
            for event in events {
                if event.mask.contains(EventMask::Q_OVERFLOW) {
                    // Events were lost: every folder is looked at again.
                    paths.extend(watched.folders.iter().cloned());
                    continue;
                }
                let Some(dir) = watched.dirs.get(&event.wd).cloned() else {
                    continue;
                };
                if event.mask.contains(EventMask::IGNORED) {
                    forget(&mut self.watches, &mut watched, &dir, false);
                    continue;
                }
                let path = match event.name {
                    Some(name) => dir.join(name),
                    None => dir,
                };
                let appeared = event
                    .mask
                    .intersects(EventMask::CREATE | EventMask::MOVED_TO);
                if appeared && event.mask.contains(EventMask::ISDIR) {
                    add_below(&mut self.watches, &mut watched, &path);
                }
                let went = event
                    .mask
                    .intersects(EventMask::DELETE | EventMask::MOVED_FROM);
                if went && event.mask.contains(EventMask::ISDIR) {
                    let below: Vec<PathBuf> = watched
                        .by_dir
                        .keys()
                        .filter(|watched| watched.starts_with(&path))
                        .cloned()
                        .collect();
                    for dir in below {
                        forget(&mut self.watches, &mut watched, &dir, true);
                    }
                }
                paths.push(path);
            }
            drop(watched);
            if !paths.is_empty() {
                sink(paths);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn watcher() -> (InotifyWatcher, mpsc::Receiver<Vec<PathBuf>>) {
        let (sender, receiver) = mpsc::channel();
        let watcher = InotifyWatcher::new(move |paths| {
            let _ = sender.send(paths);
        })
        .unwrap();
        (watcher, receiver)
    }

    /// Collects what arrives until `wanted` was seen (or a while passed).
    fn seen_until(receiver: &mpsc::Receiver<Vec<PathBuf>>, wanted: &Path) -> Vec<PathBuf> {
        let mut seen = Vec::new();
        while !seen.iter().any(|path| path == wanted) {
            match receiver.recv_timeout(Duration::from_secs(10)) {
                Ok(paths) => seen.extend(paths),
                Err(_) => break,
            }
        }
        seen
    }

    #[test]
    fn reports_changes_below_the_folder_and_in_new_directories_but_not_reads() {
        let folder = tempfile::tempdir().unwrap();
        let root = folder.path().to_path_buf();
        std::fs::create_dir(root.join("modules")).unwrap();
        std::fs::write(root.join("modules/main.tf"), "x").unwrap();
        let (mut watcher, receiver) = watcher();
        watcher.watch(&root).unwrap();

        // Reading a file is no change.
        let _ = std::fs::read(root.join("modules/main.tf")).unwrap();
        std::fs::write(root.join("modules/main.tf"), "y").unwrap();
        let seen = seen_until(&receiver, &root.join("modules/main.tf"));
        assert!(seen.contains(&root.join("modules/main.tf")), "{seen:?}");

        // A new directory is reported, and watched from then on.
        std::fs::create_dir(root.join("new")).unwrap();
        let seen = seen_until(&receiver, &root.join("new"));
        assert!(seen.contains(&root.join("new")), "{seen:?}");
        std::fs::write(root.join("new/a.tf"), "z").unwrap();
        let seen = seen_until(&receiver, &root.join("new/a.tf"));
        assert!(seen.contains(&root.join("new/a.tf")), "{seen:?}");

        // Deleting a file is reported; after unwatching, nothing is.
        std::fs::remove_file(root.join("modules/main.tf")).unwrap();
        let seen = seen_until(&receiver, &root.join("modules/main.tf"));
        assert!(seen.contains(&root.join("modules/main.tf")), "{seen:?}");
        watcher.unwatch(&root);
        while receiver.recv_timeout(Duration::from_millis(200)).is_ok() {}
        std::fs::write(root.join("new/b.tf"), "z").unwrap();
        assert!(receiver.recv_timeout(Duration::from_millis(500)).is_err());
    }

    #[test]
    fn reading_files_sends_nothing() {
        let folder = tempfile::tempdir().unwrap();
        let root = folder.path().to_path_buf();
        std::fs::write(root.join("main.tf"), "x").unwrap();
        let (mut watcher, receiver) = watcher();
        watcher.watch(&root).unwrap();
        for _ in 0..10 {
            let _ = std::fs::read(root.join("main.tf")).unwrap();
            let _ = std::fs::read_dir(&root).unwrap().count();
        }
        assert!(receiver.recv_timeout(Duration::from_millis(500)).is_err());
    }

    /// A link to a directory is followed (a change through it reported at
    /// the path under the folder); a link back up makes no loop, and a
    /// directory reached twice is watched once.
    #[test]
    fn links_to_directories_are_followed_once_and_loops_end() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(outside.path().join("shared")).unwrap();
        let folder = tempfile::tempdir().unwrap();
        let root = folder.path().to_path_buf();
        std::fs::create_dir(root.join("a")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("shared"), root.join("a/linked")).unwrap();
        std::os::unix::fs::symlink(&root, root.join("a/up")).unwrap();
        std::os::unix::fs::symlink(root.join("a"), root.join("again")).unwrap();
        let (mut watcher, receiver) = watcher();
        watcher.watch(&root).unwrap();
        let watched: Vec<PathBuf> = watcher
            .watched
            .lock()
            .unwrap()
            .by_dir
            .keys()
            .cloned()
            .collect();
        // The folder, `a` (or its link `again`), and `shared` through `a/linked`.
        assert_eq!(watched.len(), 3, "{watched:?}");

        std::fs::write(outside.path().join("shared/main.tf"), "x").unwrap();
        let wanted = watched
            .iter()
            .find(|dir| dir.ends_with("linked"))
            .map(|dir| dir.join("main.tf"))
            .unwrap();
        let seen = seen_until(&receiver, &wanted);
        assert!(seen.contains(&wanted), "{seen:?}");
    }
}

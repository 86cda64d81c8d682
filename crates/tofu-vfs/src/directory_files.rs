//! The files OpenTofu's functions read (`file`, `fileexists`,
//! `templatefile`, …) and the directories `fileset` walks, relative to the
//! directory OpenTofu runs in, which `tofu validate` and `tofu console` run
//! in the module directory. A path
//! that is absolute stays as given. Only reads: nothing is written, and
//! no environment variable or working directory is consulted here.
//!
//! The language server reads only inside the workspace folder
//! ([`DirectoryFiles::within`]): a path whose real location (links
//! resolved) is outside it is not read, and the function's result is
//! unknown, so a hover never shows a file from outside the folder.

use std::path::{Path, PathBuf};

use tofu_eval::{DirEntry, EntryKind, Environment, FileError};
use tofu_module::calls::normalize_path;

/// A module directory's files, read on demand from the disk.
#[derive(Clone, Debug)]
pub struct DirectoryFiles {
    dir: PathBuf,
    /// Where reads may go (as given and by its real location); `None`:
    /// anywhere (`check` and the console run on paths the user chose).
    confined_to: Option<(PathBuf, PathBuf)>,
}

impl DirectoryFiles {
    pub fn new(dir: impl Into<PathBuf>) -> DirectoryFiles {
        DirectoryFiles {
            dir: dir.into(),
            confined_to: None,
        }
    }

    /// The files of `dir` whose real location is inside `root`; reads of
    /// anything else are [`FileError::Unavailable`] (an unknown result).
    pub fn within(dir: impl Into<PathBuf>, root: &Path) -> DirectoryFiles {
        let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| normalize_path(root));
        DirectoryFiles {
            dir: dir.into(),
            confined_to: Some((normalize_path(root), real_root)),
        }
    }

    /// `path` joined to the directory, or `Unavailable` when it leads
    /// outside the confinement root.
    fn target(&self, path: &str) -> Result<PathBuf, FileError> {
        let target = self.dir.join(path);
        let Some((root, real_root)) = &self.confined_to else {
            return Ok(target);
        };
        let inside = match std::fs::canonicalize(&target) {
            Ok(real) => real.starts_with(real_root),
            // Nothing there: judged by the path as written.
            Err(_) => {
                let written = normalize_path(&target);
                written.starts_with(root) || written.starts_with(real_root)
            }
        };
        if inside {
            Ok(target)
        } else {
            Err(FileError::Unavailable)
        }
    }
}

impl Environment for DirectoryFiles {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        let target = self.target(path)?;
        match std::fs::read(&target) {
            Ok(bytes) => Ok(bytes),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(FileError::NotFound),
            Err(_) if target.is_dir() => Err(FileError::IsDirectory),
            Err(error) => Err(FileError::Other(error.to_string())),
        }
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        let target = self.target(path)?;
        if target.is_dir() {
            return Err(FileError::IsDirectory);
        }
        Ok(target.is_file())
    }

    /// The directory's entries for `fileset`, links neither followed nor
    /// walked into (OpenTofu's glob does not descend through them).
    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        let entries = match std::fs::read_dir(self.target(path)?) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(FileError::NotFound)
            }
            Err(error) => return Err(FileError::Other(error.to_string())),
        };
        Ok(entries
            .filter_map(Result::ok)
            .map(|entry| {
                let kind = entry.file_type().ok();
                DirEntry {
                    name: entry.file_name().to_string_lossy().into_owned(),
                    kind: match kind {
                        Some(kind) if kind.is_dir() => EntryKind::Directory,
                        Some(kind) if kind.is_file() => EntryKind::File,
                        _ => EntryKind::Other,
                    },
                }
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::fs;

    use super::*;

    /// `root/ws/mod` with a file, a template directory and a link out of
    /// `root/ws`; `root/secret.txt` outside it.
    #[cfg(unix)]
    fn workspace() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().canonicalize().unwrap();
        fs::write(root.join("secret.txt"), "secret").unwrap();
        let ws = root.join("ws");
        let module_dir = ws.join("mod");
        fs::create_dir_all(module_dir.join("templates")).unwrap();
        fs::write(module_dir.join("a.txt"), "a").unwrap();
        fs::write(ws.join("shared.txt"), "shared").unwrap();
        fs::write(module_dir.join("templates/t.tpl"), "t").unwrap();
        std::os::unix::fs::symlink(root.join("secret.txt"), module_dir.join("link.txt")).unwrap();
        (temp, ws, module_dir)
    }

    #[cfg(unix)]
    #[test]
    fn within_a_root_nothing_outside_it_is_read() {
        let (_temp, ws, module_dir) = workspace();
        let secret = ws.parent().unwrap().join("secret.txt");
        let confined = DirectoryFiles::within(&module_dir, &ws);
        assert_eq!(confined.read_file("a.txt"), Ok(b"a".to_vec()));
        assert_eq!(confined.read_file("../shared.txt"), Ok(b"shared".to_vec()));
        assert_eq!(confined.read_file("nope.txt"), Err(FileError::NotFound));
        assert_eq!(confined.file_exists("templates/t.tpl"), Ok(true));
        assert_eq!(
            confined.read_dir("templates").map(|entries| entries.len()),
            Ok(1)
        );
        for outside in [
            "../../secret.txt",
            "link.txt",
            secret.to_str().unwrap(),
            "../../nope",
        ] {
            assert_eq!(
                confined.read_file(outside),
                Err(FileError::Unavailable),
                "{outside}"
            );
            assert_eq!(
                confined.file_exists(outside),
                Err(FileError::Unavailable),
                "{outside}"
            );
        }
        assert!(confined.read_dir("../..").is_err());
        // Unconfined (`check`), the same paths are read.
        let anywhere = DirectoryFiles::new(&module_dir);
        assert_eq!(anywhere.read_file("link.txt"), Ok(b"secret".to_vec()));
        assert_eq!(
            anywhere.read_file("../../secret.txt"),
            Ok(b"secret".to_vec())
        );
    }
}

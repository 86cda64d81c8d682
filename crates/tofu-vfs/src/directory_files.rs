//! The files OpenTofu's functions read (`file`, `fileexists`,
//! `templatefile`, …) and the directories `fileset` walks, relative to the
//! directory OpenTofu runs in, which `tofu validate` and `tofu console` run
//! in the module directory. A path
//! that is absolute stays as given. Only reads: nothing is written, and
//! no environment variable or working directory is consulted here.

use std::path::PathBuf;

use tofu_eval::{DirEntry, EntryKind, Environment, FileError};

/// A module directory's files, read on demand from the disk.
#[derive(Clone, Debug)]
pub struct DirectoryFiles {
    dir: PathBuf,
}

impl DirectoryFiles {
    pub fn new(dir: impl Into<PathBuf>) -> DirectoryFiles {
        DirectoryFiles { dir: dir.into() }
    }
}

impl Environment for DirectoryFiles {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        let target = self.dir.join(path);
        match std::fs::read(&target) {
            Ok(bytes) => Ok(bytes),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(FileError::NotFound),
            Err(_) if target.is_dir() => Err(FileError::IsDirectory),
            Err(error) => Err(FileError::Other(error.to_string())),
        }
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        let target = self.dir.join(path);
        if target.is_dir() {
            return Err(FileError::IsDirectory);
        }
        Ok(target.is_file())
    }

    /// The directory's entries for `fileset`, links neither followed nor
    /// walked into (OpenTofu's glob does not descend through them).
    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        let entries = match std::fs::read_dir(self.dir.join(path)) {
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

//! The files OpenTofu's functions read (`file`, `fileexists`,
//! `templatefile`, …), relative to the directory OpenTofu runs in, which
//! `tofu validate` and `tofu console` run in the module directory. A path
//! that is absolute stays as given. Only reads: nothing is written, and
//! no environment variable or working directory is consulted here.

use std::path::PathBuf;

use tofu_eval::{Environment, FileError};

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
}

//! A stand-in for `tofu console` until `tofu-lens console` exists: reads
//! one expression per line from stdin and prints its value as `tofu
//! console` does, or its errors as `Error: SUMMARY`, a blank line and the
//! detail. Files are read relative to the working directory. Used by
//! `scripts/generate_console.py` and the data-driven tests.

#![allow(clippy::print_stdout)]

use std::io::{BufRead, Write};

use tofu_eval::console::console_line;
use tofu_eval::{DirEntry, EntryKind, Environment, FileError};

struct WorkingDirectory;

impl Environment for WorkingDirectory {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        match std::fs::read(path) {
            Ok(bytes) => Ok(bytes),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(FileError::NotFound),
            Err(_) if std::path::Path::new(path).is_dir() => Err(FileError::IsDirectory),
            Err(error) => Err(FileError::Other(error.to_string())),
        }
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        let target = std::path::Path::new(path);
        if target.is_dir() {
            return Err(FileError::IsDirectory);
        }
        Ok(target.is_file())
    }

    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        let entries = match std::fs::read_dir(path) {
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

    fn console_mode(&self) -> bool {
        true
    }

    fn working_directory(&self) -> Option<String> {
        std::env::current_dir()
            .ok()
            .map(|directory| directory.to_string_lossy().into_owned())
    }

    fn home_directory(&self) -> Option<String> {
        std::env::var("HOME").ok()
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let _ = writeln!(out, "{}", console_line(&line, &WorkingDirectory));
    }
}

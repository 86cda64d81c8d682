//! `tofu console` for the differential (`scripts/generate_console.py`):
//! reads one expression per line from stdin and prints its value as `tofu
//! console` does, or its errors as `Error: SUMMARY`, a blank line and the
//! detail, going on after an error (the real `tofu-lens console` stops at
//! the first, as OpenTofu's does, which a batch of thousands cannot use).
//! Files are read relative to the working directory through
//! [`DirectoryFiles`], as `tofu-lens console` reads them.

#![allow(clippy::print_stdout)]

use std::io::{BufRead, Write};

use tofu_eval::console::console_line;
use tofu_eval::{DirEntry, Environment, FileError};
use tofu_vfs::DirectoryFiles;

/// The working directory's files, with the console's own functions.
struct WorkingDirectory(DirectoryFiles);

impl Environment for WorkingDirectory {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        self.0.read_file(path)
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        self.0.file_exists(path)
    }

    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        self.0.read_dir(path)
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
    let environment = WorkingDirectory(DirectoryFiles::new("."));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let _ = writeln!(out, "{}", console_line(&line, &environment));
    }
}

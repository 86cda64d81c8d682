//! The disk side of tofu-lens: finding module directories under a path and
//! reading one directory's configuration files into [`InputFile`]s.
//!
//! This is the only engine code that touches the file system. It never writes.
//! Directory symlinks are not followed while walking (no loops, no escaping the
//! tree); a symlink *named* like a configuration file is read through, as
//! OpenTofu does, and reported unreadable when it leads nowhere readable.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use tofu_module::discovery::{self, has_config_extension};
use tofu_module::{FileContent, InputFile};

/// Directory names never walked into (besides hidden ones).
pub const SKIPPED_DIRS: [&str; 3] = [".terraform", ".git", "node_modules"];

/// Limits for walking a tree, so that a root such as `/` cannot make the walk
/// run away.
#[derive(Clone, Debug)]
pub struct WalkLimits {
    pub max_dirs: usize,
}

impl Default for WalkLimits {
    fn default() -> WalkLimits {
        WalkLimits { max_dirs: 100_000 }
    }
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Module directories (holding at least one primary or override file), sorted.
    pub module_dirs: Vec<PathBuf>,
    /// Directories that could not be listed, with the reason.
    pub unreadable: Vec<(PathBuf, String)>,
    /// True when the walk stopped at `WalkLimits::max_dirs`.
    pub truncated: bool,
}

/// True for directory names the walk skips.
pub fn is_skipped_dir(name: &str) -> bool {
    name.starts_with('.') || SKIPPED_DIRS.contains(&name)
}

/// Finds every module directory at or below `root` (a directory).
pub fn find_module_dirs(root: &Path, limits: &WalkLimits) -> Walk {
    let mut walk = Walk::default();
    let mut pending = vec![root.to_path_buf()];
    let mut n_visited = 0usize;
    while let Some(dir) = pending.pop() {
        if n_visited >= limits.max_dirs {
            walk.truncated = true;
            break;
        }
        n_visited += 1;
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) => {
                walk.unreadable.push((dir, error.to_string()));
                continue;
            }
        };
        let mut names = Vec::new();
        for entry in entries.flatten() {
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            if file_type.is_dir() {
                if !is_skipped_dir(&name) {
                    pending.push(entry.path());
                }
            } else {
                names.push(name);
            }
        }
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        if discovery::discover(&names).is_module() {
            walk.module_dirs.push(dir);
        }
    }
    walk.module_dirs.sort();
    walk.unreadable.sort();
    walk
}

/// Reads every file of `dir` whose name ends in a configuration extension
/// (including names OpenTofu skips, so callers can tell the user about them).
/// Subdirectories are not read. Fails only when the directory cannot be listed.
pub fn read_module_dir(dir: &Path) -> io::Result<Vec<InputFile>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        if file_type.is_dir() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        if !has_config_extension(&name) {
            continue;
        }
        let content = read_file(&entry.path());
        files.push(InputFile { name, content });
    }
    files.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    Ok(files)
}

/// Reads one file; never fails (an unreadable file becomes
/// [`FileContent::Unreadable`]).
pub fn read_file(path: &Path) -> FileContent {
    match fs::read(path) {
        Ok(bytes) => FileContent::from_bytes(bytes),
        Err(error) => FileContent::Unreadable {
            message: error.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn walks_modules_and_skips_hidden_and_tool_dirs() {
        let root = tempfile::tempdir().unwrap();
        let make = |path: &str| {
            let full = root.path().join(path);
            fs::create_dir_all(full.parent().unwrap()).unwrap();
            fs::write(full, "").unwrap();
        };
        make("a/main.tf");
        make("a/b/override.tf");
        make("c/.hidden.tf");
        make("c/notes.txt");
        make(".terraform/modules/x/main.tf");
        make("node_modules/y/main.tf");
        make("d/.git/z.tf");
        let walk = find_module_dirs(root.path(), &WalkLimits::default());
        let found: Vec<_> = walk
            .module_dirs
            .iter()
            .map(|dir| {
                dir.strip_prefix(root.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(found, ["a", "a/b"]);
    }

    #[test]
    fn reads_config_files_only_and_reports_bad_ones() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("main.tf"), "a = 1").unwrap();
        fs::write(dir.path().join("bad.tf"), [0xff, 0xfe, b'a']).unwrap();
        fs::write(dir.path().join("x.txt"), "").unwrap();
        fs::create_dir(dir.path().join("sub.tf")).unwrap();
        let files = read_module_dir(dir.path()).unwrap();
        let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["bad.tf", "main.tf"]);
        assert!(matches!(
            files[0].content,
            FileContent::InvalidUtf8 {
                first_bad_byte: 0,
                ..
            }
        ));
    }
}

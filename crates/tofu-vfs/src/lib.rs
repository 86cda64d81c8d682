//! The disk side of tofu-lens: finding module directories under a path and
//! reading one directory's configuration files into [`InputFile`]s.
//!
//! A directory's files include its test files and those of its `tests/`
//! subdirectory, named `tests/NAME`, as `tofu validate` reads them; a
//! directory named `tests` keeps its other files (it is a module directory
//! of its own when it holds configuration files) but not its test files,
//! which belong to the directory above.
//!
//! This is the only engine code that touches the file system. It never writes.
//! Directory symlinks are not followed while walking (no loops, no escaping the
//! tree); a symlink *named* like a configuration file is read through, as
//! OpenTofu does, and reported unreadable when it leads nowhere readable.
//!
//! The language server reads with [`read_module_dir_within`] and
//! [`read_file_within`] instead: a file whose real location (links resolved)
//! is outside the workspace folder is reported unreadable without being read,
//! and a directory whose real location is outside is not read at all, so a
//! cloned repository cannot make the editor show files from elsewhere on the
//! disk. The messages never name the link's target.
//!
//! One exception, for files the user chose to look at: a document the
//! editor has open through a link vouches for the directory its real file
//! is in ([`link_target_dirs`]). The link's own directory is then read with
//! [`read_module_dir_vouched`]: its other links are read too when they lead
//! to a configuration file in that directory, wherever it is (a `v4/` folder
//! opened as the workspace, whose `main.tf` and `variables.tf` link to the
//! repository's root). Nothing else is: a link to any other place, or to a
//! file there without a configuration file's name, stays unread, and once
//! the document is closed the directory is read as before. Opening a
//! document reads nothing the editor did not already show: the file itself
//! is the editor's, and what is vouched for lies beside it.
//!
//! [`DirectoryFiles`] reads the files functions ask for (`file("x")`,
//! `fileexists`, …) relative to a module directory, for `check` and the
//! console.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use tofu_module::discovery::{self, is_module_file};
use tofu_module::{FileContent, InputFile};

mod directory_files;
mod glob;
mod project_config;
pub mod schemas;

pub use directory_files::DirectoryFiles;
pub use glob::ExcludeGlobs;
pub use project_config::{find_project_config, ProjectConfig, PROJECT_CONFIG_FILE};

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

/// A directory entry that is not a directory and whose name ends in a
/// configuration extension.
struct ConfigEntry {
    name: String,
    path: PathBuf,
    is_symlink: bool,
}

/// The configuration-file entries of `dir` (names OpenTofu skips included;
/// subdirectories left out), and the test files of `dir/tests` named
/// `tests/NAME`, as both readers below list them. A directory named `tests`
/// lists no test files of its own: they are its parent's.
fn config_entries(dir: &Path) -> io::Result<Vec<ConfigEntry>> {
    let is_tests_dir = dir
        .file_name()
        .is_some_and(|name| name == discovery::TEST_DIRECTORY);
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if file_type.is_dir() {
            if name == discovery::TEST_DIRECTORY {
                entries.extend(test_entries(&entry.path()));
            }
            continue;
        }
        if is_module_file(&name) && !(is_tests_dir && discovery::is_test_file(&name)) {
            entries.push(ConfigEntry {
                path: entry.path(),
                is_symlink: file_type.is_symlink(),
                name,
            });
        }
    }
    Ok(entries)
}

/// The test files of a module directory's `tests/` directory, named
/// `tests/NAME` (nothing when it cannot be listed: OpenTofu then reads
/// none either).
fn test_entries(tests_dir: &Path) -> Vec<ConfigEntry> {
    let Ok(listing) = fs::read_dir(tests_dir) else {
        return Vec::new();
    };
    listing
        .flatten()
        .filter_map(|entry| {
            let file_type = entry.file_type().ok()?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if file_type.is_dir() || !discovery::is_test_file(&name) {
                return None;
            }
            Some(ConfigEntry {
                path: entry.path(),
                is_symlink: file_type.is_symlink(),
                name: format!("{}/{name}", discovery::TEST_DIRECTORY),
            })
        })
        .collect()
}

/// Reads every file of `dir` whose name ends in a configuration extension
/// (including names OpenTofu skips, so callers can tell the user about them).
/// Subdirectories are not read. Fails only when the directory cannot be listed.
pub fn read_module_dir(dir: &Path) -> io::Result<Vec<InputFile>> {
    let mut files: Vec<InputFile> = config_entries(dir)?
        .into_iter()
        .map(|entry| InputFile {
            content: read_file(&entry.path),
            name: entry.name,
        })
        .collect();
    files.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    Ok(files)
}

/// The message of a file whose real location is outside the workspace folder
/// (it ends a sentence that names the file).
pub const OUTSIDE_WORKSPACE: &str =
    "it is a symlink that leads outside the workspace folder, so tofu-lens does not read it";

/// Like [`read_module_dir`], for the language server: nothing whose real
/// location is outside `root` is read. A file that is a symlink to a place
/// outside `root` becomes [`FileContent::Unreadable`] with
/// [`OUTSIDE_WORKSPACE`]; a symlink inside `root` is read through. Fails when
/// the directory cannot be listed, or when its own real location is outside
/// `root` (it was reached through a directory symlink).
pub fn read_module_dir_within(dir: &Path, root: &Path) -> io::Result<Vec<InputFile>> {
    read_module_dir_vouched(dir, root, &[])
}

/// Like [`read_module_dir_within`], and a symlink whose real file is a
/// configuration file directly in one of `vouched` (real directories, as
/// [`link_target_dirs`] gives them) is read through too, wherever it is.
pub fn read_module_dir_vouched(
    dir: &Path,
    root: &Path,
    vouched: &[PathBuf],
) -> io::Result<Vec<InputFile>> {
    read_module_dir_and_links(dir, root, vouched).map(|(files, _)| files)
}

/// A configuration file that is a link, by name, with the path of the file
/// it leads to ([`linked_files_vouched`]).
pub type LinkedFile = (String, PathBuf);

/// [`read_module_dir_vouched`] and [`linked_files_vouched`] of `dir` from
/// one listing of it (the language server wants both of every directory it
/// reads: two listings and three `realpath`s per directory were a tenth of
/// what indexing a large tree spent beside the analyses).
pub fn read_module_dir_and_links(
    dir: &Path,
    root: &Path,
    vouched: &[PathBuf],
) -> io::Result<(Vec<InputFile>, Vec<LinkedFile>)> {
    let real_root = fs::canonicalize(root)?;
    let real_dir = fs::canonicalize(dir)?;
    if !real_dir.starts_with(&real_root) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the directory leads outside the workspace folder, so tofu-lens does not read it",
        ));
    }
    let mut links = Vec::new();
    let mut files: Vec<InputFile> = config_entries(&real_dir)?
        .into_iter()
        .map(|entry| {
            let content = if entry.is_symlink {
                // One `realpath` per link serves both.
                let real = fs::canonicalize(&entry.path);
                if let Ok(real) = &real {
                    if let Some(link) = link_from_real(real, &real_root, root, vouched) {
                        links.push((entry.name.clone(), link));
                    }
                }
                read_real(real, &real_root, vouched)
            } else {
                read_file(&entry.path)
            };
            InputFile {
                content,
                name: entry.name,
            }
        })
        .collect();
    files.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    links.sort();
    Ok((files, links))
}

/// Where the link `path` leads, for [`linked_files_vouched`]: under `root`
/// as given (`real_root` is its real location), or the real path of a file
/// `vouched` vouches for; `None` for anything else.
fn link_within(path: &Path, real_root: &Path, root: &Path, vouched: &[PathBuf]) -> Option<PathBuf> {
    let real = fs::canonicalize(path).ok()?;
    link_from_real(&real, real_root, root, vouched)
}

/// [`link_within`] of a link whose real path is known already.
fn link_from_real(
    real: &Path,
    real_root: &Path,
    root: &Path,
    vouched: &[PathBuf],
) -> Option<PathBuf> {
    match real.strip_prefix(real_root) {
        Ok(inside) => Some(root.join(inside)),
        Err(_) if is_vouched(real, vouched) => Some(real.to_path_buf()),
        Err(_) => None,
    }
}

/// The configuration files of `dir` that are symlinks to a file inside
/// `root`, by name, each with the path of the file it leads to, written
/// under `root` as given (not resolved): the language server's index of
/// files several directories hold. Nothing when the directory cannot be
/// listed.
pub fn linked_files(dir: &Path, root: &Path) -> Vec<(String, PathBuf)> {
    linked_files_vouched(dir, root, &[])
}

/// Like [`linked_files`], with the links [`read_module_dir_vouched`] reads
/// through because of `vouched`, each with its real path.
pub fn linked_files_vouched(
    dir: &Path,
    root: &Path,
    vouched: &[PathBuf],
) -> Vec<(String, PathBuf)> {
    let (Ok(real_root), Ok(entries)) = (fs::canonicalize(root), config_entries(dir)) else {
        return Vec::new();
    };
    let mut links: Vec<(String, PathBuf)> = entries
        .into_iter()
        .filter(|entry| entry.is_symlink)
        .filter_map(|entry| {
            let link = link_within(&entry.path, &real_root, root, vouched)?;
            Some((entry.name, link))
        })
        .collect();
    links.sort();
    links
}

/// The real directories of the files among `opened` (documents open in
/// the editor) that are symlinks: each vouches for the configuration files
/// beside its real file ([`read_module_dir_vouched`]). Sorted, without
/// repeats.
pub fn link_target_dirs(opened: &[PathBuf]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = opened
        .iter()
        .filter(|path| fs::symlink_metadata(path).is_ok_and(|meta| meta.is_symlink()))
        .filter_map(|path| fs::canonicalize(path).ok())
        .filter_map(|real| real.parent().map(Path::to_path_buf))
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// True when the real file `real` is a configuration file directly in one
/// of the `vouched` directories.
fn is_vouched(real: &Path, vouched: &[PathBuf]) -> bool {
    let named_as_configuration = real
        .file_name()
        .is_some_and(|name| discovery::has_config_extension(&name.to_string_lossy()));
    named_as_configuration
        && real
            .parent()
            .is_some_and(|parent| vouched.iter().any(|dir| dir == parent))
}

/// Like [`read_file`], for the language server: a file whose real location
/// is outside `root` is not read ([`OUTSIDE_WORKSPACE`]).
pub fn read_file_within(path: &Path, root: &Path) -> FileContent {
    read_file_vouched(path, root, &[])
}

/// Like [`read_file_within`], with the links `vouched` lets
/// [`read_module_dir_vouched`] read.
pub fn read_file_vouched(path: &Path, root: &Path, vouched: &[PathBuf]) -> FileContent {
    match fs::canonicalize(root) {
        Ok(root) => read_confined(path, &root, vouched),
        Err(error) => FileContent::Unreadable {
            message: error.to_string(),
        },
    }
}

/// Reads `path` by its real location, if that is inside `root` (canonical)
/// or a configuration file in one of `vouched`.
fn read_confined(path: &Path, root: &Path, vouched: &[PathBuf]) -> FileContent {
    read_real(fs::canonicalize(path), root, vouched)
}

/// [`read_confined`] of a link whose `realpath` was taken already.
fn read_real(real: io::Result<PathBuf>, root: &Path, vouched: &[PathBuf]) -> FileContent {
    match real {
        Ok(real) if real.starts_with(root) || is_vouched(&real, vouched) => read_file(&real),
        Ok(_) => FileContent::Unreadable {
            message: OUTSIDE_WORKSPACE.to_owned(),
        },
        Err(error) => FileContent::Unreadable {
            message: error.to_string(),
        },
    }
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
    fn test_files_of_tests_belong_to_the_directory_above() {
        let root = tempfile::tempdir().unwrap();
        let make = |path: &str| {
            let full = root.path().join(path);
            fs::create_dir_all(full.parent().unwrap()).unwrap();
            fs::write(full, "").unwrap();
        };
        make("main.tf");
        make("main.tftest.hcl");
        make("tests/a.tftest.hcl");
        make("tests/b.tofutest.json");
        make("tests/helper.tf");
        make("tests/notes.txt");
        make("tests/deeper/c.tftest.hcl");
        make("other/d.tftest.hcl");
        let names = |dir: &Path| -> Vec<String> {
            read_module_dir(dir)
                .unwrap()
                .into_iter()
                .map(|file| file.name)
                .collect()
        };
        assert_eq!(
            names(root.path()),
            [
                "main.tf",
                "main.tftest.hcl",
                "tests/a.tftest.hcl",
                "tests/b.tofutest.json"
            ]
        );
        // `tests/` is a module directory of its own, for its .tf files only.
        assert_eq!(names(&root.path().join("tests")), ["helper.tf"]);
        let walk = find_module_dirs(root.path(), &WalkLimits::default());
        assert_eq!(
            walk.module_dirs,
            [root.path().to_path_buf(), root.path().join("tests")]
        );
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

    /// A workspace `root/ws` with a link to a file outside it, a link to a
    /// file inside it, a dangling link, a link loop and a directory link to
    /// the outside.
    #[cfg(unix)]
    fn workspace_with_links() -> (tempfile::TempDir, PathBuf) {
        use std::os::unix::fs::symlink;
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().canonicalize().unwrap();
        let outside = root.join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("secret.tf"), "variable \"secret\" {}\n").unwrap();
        let ws = root.join("ws");
        fs::create_dir_all(ws.join("shared")).unwrap();
        fs::write(ws.join("main.tf"), "variable \"a\" {}\n").unwrap();
        fs::write(ws.join("shared/common.tf"), "variable \"c\" {}\n").unwrap();
        symlink(outside.join("secret.tf"), ws.join("secret.tf")).unwrap();
        symlink("../outside/secret.tf", ws.join("relative.tf")).unwrap();
        symlink("shared/common.tf", ws.join("common.tf")).unwrap();
        symlink("nowhere.tf", ws.join("dangling.tf")).unwrap();
        symlink("loop.tf", ws.join("loop.tf")).unwrap();
        symlink(&outside, ws.join("linked")).unwrap();
        (temp, ws)
    }

    #[cfg(unix)]
    #[test]
    fn within_a_root_links_out_of_it_are_not_read() {
        let (_temp, ws) = workspace_with_links();
        let files = read_module_dir_within(&ws, &ws).unwrap();
        let described: Vec<(&str, String)> = files
            .iter()
            .map(|file| {
                let what = match &file.content {
                    FileContent::Text(text) => format!("text {text:?}"),
                    FileContent::InvalidUtf8 { .. } => "invalid".to_owned(),
                    FileContent::Unreadable { message } => format!("unreadable: {message}"),
                };
                (file.name.as_str(), what)
            })
            .collect();
        let outside = format!("unreadable: {OUTSIDE_WORKSPACE}");
        assert_eq!(
            described[0],
            ("common.tf", "text \"variable \\\"c\\\" {}\\n\"".to_owned())
        );
        assert_eq!(described[1].0, "dangling.tf");
        assert!(
            described[1].1.starts_with("unreadable: No such file"),
            "{described:?}"
        );
        assert_eq!(described[2].0, "loop.tf");
        assert!(described[2].1.contains("symbolic links"), "{described:?}");
        assert_eq!(
            described[3],
            ("main.tf", "text \"variable \\\"a\\\" {}\\n\"".to_owned())
        );
        assert_eq!(described[4], ("relative.tf", outside.clone()));
        assert_eq!(described[5], ("secret.tf", outside.clone()));
        assert_eq!(described.len(), 6);
        // No message names where a link leads.
        assert!(described.iter().all(|(_, what)| !what.contains("outside/")));

        // A directory reached through a link to the outside is not read.
        let error = read_module_dir_within(&ws.join("linked"), &ws).unwrap_err();
        assert!(
            error.to_string().contains("outside the workspace folder"),
            "{error}"
        );
        assert!(!error.to_string().contains("secret"));

        // One file at a time, the same rules.
        assert!(matches!(
            read_file_within(&ws.join("secret.tf"), &ws),
            FileContent::Unreadable { message } if message == OUTSIDE_WORKSPACE
        ));
        assert!(matches!(
            read_file_within(&ws.join("linked/secret.tf"), &ws),
            FileContent::Unreadable { message } if message == OUTSIDE_WORKSPACE
        ));
        assert!(matches!(
            read_file_within(&ws.join("common.tf"), &ws),
            FileContent::Text(_)
        ));

        // `check` (OpenTofu's behaviour) still reads through every link.
        let files = read_module_dir(&ws).unwrap();
        let secret = files.iter().find(|file| file.name == "secret.tf").unwrap();
        assert!(matches!(&secret.content, FileContent::Text(text) if text.contains("secret")));
    }

    /// One listing gives what the two separate reads give: the files, and
    /// the links inside the root (or vouched for) with where they lead.
    #[cfg(unix)]
    #[test]
    fn files_and_links_from_one_listing_are_what_two_reads_give() {
        use std::os::unix::fs::symlink;
        let (temp, ws) = workspace_with_links();
        let outside = temp.path().canonicalize().unwrap().join("outside");
        fs::write(outside.join("variables.tf"), "variable \"v\" {}\n").unwrap();
        symlink(outside.join("variables.tf"), ws.join("variables.tf")).unwrap();
        for vouched in [Vec::new(), vec![outside.clone()]] {
            let (files, links) = read_module_dir_and_links(&ws, &ws, &vouched).unwrap();
            let described = |files: &[InputFile]| -> Vec<String> {
                files
                    .iter()
                    .map(|file| format!("{} {:?}", file.name, file.content))
                    .collect()
            };
            assert_eq!(
                described(&files),
                described(&read_module_dir_vouched(&ws, &ws, &vouched).unwrap())
            );
            assert_eq!(links, linked_files_vouched(&ws, &ws, &vouched));
            let names: Vec<&str> = links.iter().map(|(name, _)| name.as_str()).collect();
            if vouched.is_empty() {
                assert_eq!(names, ["common.tf"]);
            } else {
                assert_eq!(
                    names,
                    ["common.tf", "relative.tf", "secret.tf", "variables.tf"]
                );
            }
        }
        assert_eq!(
            read_module_dir_and_links(&ws.join("linked"), &ws, &[])
                .unwrap_err()
                .kind(),
            std::io::ErrorKind::PermissionDenied
        );
    }

    /// A document opened through a link vouches for the configuration
    /// files beside its real file, and for nothing else.
    #[cfg(unix)]
    #[test]
    fn a_link_opened_in_the_editor_vouches_for_the_files_beside_its_target() {
        use std::os::unix::fs::symlink;
        let (temp, ws) = workspace_with_links();
        let outside = temp.path().canonicalize().unwrap().join("outside");
        fs::write(outside.join("variables.tf"), "variable \"v\" {}\n").unwrap();
        fs::write(outside.join("credentials"), "secret = 1\n").unwrap();
        fs::create_dir(outside.join("deeper")).unwrap();
        fs::write(outside.join("deeper/deep.tf"), "variable \"d\" {}\n").unwrap();
        symlink(outside.join("variables.tf"), ws.join("variables.tf")).unwrap();
        symlink(outside.join("credentials"), ws.join("credentials.tf")).unwrap();
        symlink(outside.join("deeper/deep.tf"), ws.join("deep.tf")).unwrap();
        // Nobody opened anything: none of them is read.
        assert_eq!(
            link_target_dirs(&[ws.join("main.tf")]),
            Vec::<PathBuf>::new()
        );
        let content = |files: &[InputFile], name: &str| -> String {
            match &files.iter().find(|file| file.name == name).unwrap().content {
                FileContent::Text(text) => text.to_string(),
                FileContent::Unreadable { message } => format!("unreadable: {message}"),
                FileContent::InvalidUtf8 { .. } => "invalid".to_owned(),
            }
        };
        let before = read_module_dir_within(&ws, &ws).unwrap();
        for name in ["secret.tf", "variables.tf", "credentials.tf", "deep.tf"] {
            assert_eq!(
                content(&before, name),
                format!("unreadable: {OUTSIDE_WORKSPACE}")
            );
        }
        // `secret.tf` is open in the editor: what lies beside its real file
        // with a configuration file's name is read, nothing else.
        let vouched = link_target_dirs(&[ws.join("secret.tf")]);
        assert_eq!(vouched, std::slice::from_ref(&outside));
        let after = read_module_dir_vouched(&ws, &ws, &vouched).unwrap();
        assert_eq!(content(&after, "secret.tf"), "variable \"secret\" {}\n");
        assert_eq!(content(&after, "variables.tf"), "variable \"v\" {}\n");
        for name in ["credentials.tf", "deep.tf"] {
            assert_eq!(
                content(&after, name),
                format!("unreadable: {OUTSIDE_WORKSPACE}"),
                "{name}"
            );
        }
        assert!(matches!(
            read_file_vouched(&ws.join("variables.tf"), &ws, &vouched),
            FileContent::Text(_)
        ));
        assert!(matches!(
            read_file_vouched(&ws.join("credentials.tf"), &ws, &vouched),
            FileContent::Unreadable { .. }
        ));
        // The links read through it are indexed by their real paths.
        let links = linked_files_vouched(&ws, &ws, &vouched);
        assert!(links.contains(&("variables.tf".to_owned(), outside.join("variables.tf"))));
        assert!(links.contains(&("common.tf".to_owned(), ws.join("shared/common.tf"))));
        assert!(!links.iter().any(|(name, _)| name == "credentials.tf"));
        assert!(!linked_files(&ws, &ws)
            .iter()
            .any(|(name, _)| name == "variables.tf"));
    }

    /// The workspace folder may itself be reached through a link: what
    /// counts is where things really are.
    #[cfg(unix)]
    #[test]
    fn a_workspace_folder_behind_a_link_is_its_real_location() {
        let (temp, ws) = workspace_with_links();
        let alias = temp.path().join("alias");
        std::os::unix::fs::symlink(&ws, &alias).unwrap();
        let files = read_module_dir_within(&alias, &alias).unwrap();
        assert_eq!(files.len(), 6);
        assert!(matches!(
            read_file_within(&alias.join("common.tf"), &alias),
            FileContent::Text(_)
        ));
        assert!(matches!(
            read_file_within(&alias.join("secret.tf"), &alias),
            FileContent::Unreadable { .. }
        ));
    }
}

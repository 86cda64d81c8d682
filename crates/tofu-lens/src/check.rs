//! Loading every module directory under the paths a user gave, as `check` does.

use std::path::{Path, PathBuf};

use tofu_module::{analyze, Config, ModuleAnalysis, ParseCache};
use tofu_vfs::WalkLimits;

/// One analysed module directory, with the path to show for it (the user's
/// PATH joined with the directory below it).
#[derive(Debug)]
pub struct CheckedModule {
    pub dir: PathBuf,
    pub analysis: ModuleAnalysis,
}

/// A directory that could not be listed.
#[derive(Debug)]
pub struct UnreadableDir {
    pub dir: PathBuf,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct CheckReport {
    pub modules: Vec<CheckedModule>,
    pub unreadable_dirs: Vec<UnreadableDir>,
    /// Set when a walk stopped at its limit; the message says where.
    pub truncated: Vec<PathBuf>,
}

impl CheckReport {
    pub fn has_errors(&self) -> bool {
        !self.unreadable_dirs.is_empty()
            || self
                .modules
                .iter()
                .any(|module| module.analysis.has_errors())
    }
}

/// A PATH argument that does not exist.
#[derive(Debug)]
pub struct MissingPath(pub PathBuf);

/// Finds the module directories of `paths` (a directory is walked; a file stands
/// for the directory holding it; each directory is checked once) and analyses
/// each one.
pub fn check_paths(paths: &[PathBuf], config: &Config) -> Result<CheckReport, MissingPath> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut report = CheckReport::default();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|_| MissingPath(path.clone()))?;
        if metadata.is_dir() {
            let walk = tofu_vfs::find_module_dirs(path, &WalkLimits::default());
            dirs.extend(walk.module_dirs);
            report.unreadable_dirs.extend(
                walk.unreadable
                    .into_iter()
                    .map(|(dir, message)| UnreadableDir { dir, message }),
            );
            if walk.truncated {
                report.truncated.push(path.clone());
            }
        } else {
            // Shown as typed: `check main.tf` reports `main.tf`, not `./main.tf`.
            dirs.push(path.parent().map_or_else(PathBuf::new, Path::to_path_buf));
        }
    }
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        let readable_dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir.as_path()
        };
        match tofu_vfs::read_module_dir(readable_dir) {
            Ok(files) => {
                let analysis = analyze(&files, config, &mut ParseCache::new());
                if analysis.primary.is_empty() && analysis.overrides.is_empty() {
                    continue;
                }
                report.modules.push(CheckedModule { dir, analysis });
            }
            Err(error) => report.unreadable_dirs.push(UnreadableDir {
                dir,
                message: error.to_string(),
            }),
        }
    }
    Ok(report)
}

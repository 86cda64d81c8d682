//! The module tree as the host sees it: which directories a directory's
//! calls reach, gathered from the summaries of the host's other
//! directories for one analysis job, and handed to
//! [`tofu_module::calls::called_modules`], which decides what the
//! directory is given of each module it calls and which calls loop.
//!
//! A child the host has not analysed yet is absent (its calls are not
//! judged); once it is, its interface is new, and the host marks its
//! callers stale through its [`tofu_module::calls::ModuleTree`]s: one of
//! the `module` blocks, one of the modules test files' runs call (which
//! are reached, but are no children: no loop runs through them).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_module::calls::{called_modules, CalledDir, CalledModules, ModuleCall, ModuleTree};

use crate::summary::ModuleSummary;

/// Every directory's summary, hashed: looked up several times per analysis
/// (a sorted map cost path comparisons on a workspace of thousands of
/// directories); whoever lists them sorts what they list.
pub(crate) type Summaries = HashMap<PathBuf, Arc<ModuleSummary>>;

/// The directories `dir` reaches through its `module` blocks (`tree`),
/// and the modules its test runs call (`test_runs`) with theirs, `dir`
/// itself left out, sorted.
pub(crate) fn reached_dirs(dir: &Path, tree: &ModuleTree, test_runs: &ModuleTree) -> Vec<PathBuf> {
    let mut reached = tree.descendants(dir);
    for run_dir in test_runs.children(dir) {
        reached.push(run_dir.clone());
        reached.extend(tree.descendants(run_dir));
    }
    reached.retain(|reached| reached != dir);
    reached.sort();
    reached.dedup();
    reached
}

/// What one analysis job knows of the directories its directory's calls
/// reach: their interfaces and their own calls, copied from the host when
/// the job starts (a few directories, not the workspace).
#[derive(Debug, Default)]
pub struct ReachedDirs {
    known: HashMap<PathBuf, CalledDir>,
}

impl ReachedDirs {
    /// The directories `dir` reaches through its calls and its test runs,
    /// as the host's trees record them, with what their summaries say.
    pub(crate) fn gather(
        dir: &Path,
        tree: &ModuleTree,
        test_runs: &ModuleTree,
        summaries: &Summaries,
    ) -> ReachedDirs {
        ReachedDirs::of(reached_dirs(dir, tree, test_runs), summaries)
    }

    /// The directories `dir` reaches through `calls` (calls it has now,
    /// which the host's tree may not record yet), and through theirs as
    /// the tree records them, with what their summaries say.
    pub(crate) fn gather_for_calls(
        dir: &Path,
        calls: &[ModuleCall],
        tree: &ModuleTree,
        summaries: &Summaries,
    ) -> ReachedDirs {
        let mut reached: Vec<PathBuf> = Vec::new();
        for called in calls.iter().filter_map(|call| call.dir.as_deref()) {
            reached.push(called.to_path_buf());
            reached.extend(tree.descendants(called));
        }
        reached.retain(|reached| reached != dir);
        reached.sort();
        reached.dedup();
        ReachedDirs::of(reached, summaries)
    }

    fn of(reached: Vec<PathBuf>, summaries: &Summaries) -> ReachedDirs {
        let known = reached
            .into_iter()
            .filter_map(|reached| {
                let summary = summaries.get(&reached)?;
                let called = if summary.unreadable {
                    CalledDir::unreadable()
                } else {
                    CalledDir {
                        interface: summary.interface.clone(),
                        calls: summary.child_dirs().map(Path::to_path_buf).collect(),
                        unreadable: false,
                    }
                };
                Some((reached, called))
            })
            .collect();
        ReachedDirs { known }
    }

    /// What `dir`, with these calls, is given of the modules it calls.
    pub(crate) fn called_modules(&self, dir: &Path, calls: &[ModuleCall]) -> CalledModules {
        called_modules(dir, calls, &|called| self.known.get(called).cloned())
    }

    /// True when the job knew what the summary of `dir` said.
    pub(crate) fn knows(&self, dir: &Path) -> bool {
        self.known.contains_key(dir)
    }

    /// Adds what `other` knows.
    pub(crate) fn extend(&mut self, other: ReachedDirs) {
        self.known.extend(other.known);
    }
}

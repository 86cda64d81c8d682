//! The module tree of a directory, from the summaries of the directories its
//! local module calls name: each child's interface, and the sources that lead
//! back to the directory (a loop OpenTofu would follow without end).
//!
//! A child the host has not analysed yet is absent (its calls are not
//! judged); once it is, its interface is new, and the host marks its callers
//! stale ([`callers_of`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_module::tree::{local_source_path, ModuleTree};

use crate::summary::ModuleSummary;

pub(crate) type Summaries = BTreeMap<PathBuf, Arc<ModuleSummary>>;

/// How deep a chain of local calls is followed looking for a loop.
const MAX_CALL_DEPTH: usize = 64;

/// The tree of `dir`, whose module calls have these sources (with the
/// directory each local one names).
pub(crate) fn tree_of(
    dir: &Path,
    sources: &[(String, Option<PathBuf>)],
    summaries: &Summaries,
) -> ModuleTree {
    let mut tree = ModuleTree::default();
    for (source, called) in sources {
        let Some(called) = called else {
            continue;
        };
        if leads_to(called, dir, summaries, 0, &mut Vec::new()) {
            tree.loops.insert(source.clone());
            continue;
        }
        if let Some(interface) = summaries
            .get(called)
            .and_then(|child| child.interface.as_ref())
        {
            tree.children.insert(source.clone(), Arc::clone(interface));
            if local_source_path(source).is_none() {
                tree.installed.insert(
                    source.clone(),
                    crate::module_calls::relative_path(dir, called),
                );
            }
        }
    }
    tree
}

/// True when `from`, or a directory its local calls reach, is `target`.
fn leads_to(
    from: &Path,
    target: &Path,
    summaries: &Summaries,
    depth: usize,
    seen: &mut Vec<PathBuf>,
) -> bool {
    if from == target {
        return true;
    }
    if depth > MAX_CALL_DEPTH || seen.iter().any(|dir| dir == from) {
        return false;
    }
    seen.push(from.to_path_buf());
    let Some(summary) = summaries.get(from) else {
        return false;
    };
    summary
        .called_dirs()
        .any(|next| leads_to(next, target, summaries, depth + 1, seen))
}

/// The directories whose module calls name `dir`; with `transitive`, also
/// those that reach it through other calls (whether a call loops changes
/// when any directory on the loop changes its calls).
pub(crate) fn callers_of(dir: &Path, summaries: &Summaries, transitive: bool) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(called) = pending.pop() {
        for (caller, summary) in summaries {
            if caller.as_path() != dir
                && !found.contains(caller)
                && summary.called_dirs().any(|next| next == called)
            {
                found.push(caller.clone());
                if transitive {
                    pending.push(caller.clone());
                }
            }
        }
    }
    found
}

/// True when a directory of `summaries` calls `dir`.
pub(crate) fn is_called(dir: &Path, summaries: &Summaries) -> bool {
    summaries
        .values()
        .any(|summary| summary.called_dirs().any(|called| called == dir))
}

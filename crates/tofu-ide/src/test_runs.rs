//! The `run` blocks of a test file, as completion reads them: which runs
//! `run.` may name at a position (those of the same file that end before
//! it: a run reads the outputs of the runs before it), and the module
//! directory a run applies (its `module { source }` when that is a local
//! path, read from the module directory as OpenTofu reads it, else the
//! module under test).
//!
//! Read from the file as written, so that it works while the file is being
//! typed; a registry or remote `source` gives no directory (`tofu test`
//! installs it; tofu-lens does not read `.terraform` for test runs).

use std::path::{Path, PathBuf};

use tofu_module::calls::{local_source, normalize_path};
use tofu_syntax::{Block, ExprKind, SourceFile};

/// The runs of `source` that end before `offset`, in file order.
pub(crate) fn runs_before(source: &SourceFile, offset: u32) -> Vec<&Block> {
    source
        .body
        .blocks_of_kind("run")
        .filter(|run| run.range.end <= offset)
        .collect()
}

/// The directory the run `name` of `source` applies, in `module_dir`: its
/// module's local source, else `module_dir` itself; `None` when the run
/// is not there or its module comes from elsewhere.
pub(crate) fn run_module_dir(
    source: &SourceFile,
    name: &str,
    module_dir: &Path,
) -> Option<PathBuf> {
    let run = source
        .body
        .blocks_of_kind("run")
        .find(|run| run.labels.first().is_some_and(|label| label.value == name))?;
    let Some(module) = run.body.blocks_of_kind("module").next() else {
        return Some(module_dir.to_path_buf());
    };
    let ExprKind::String(value) = &module.body.attribute("source")?.expr.kind else {
        return None;
    };
    let relative = local_source(value)?;
    Some(normalize_path(&module_dir.join(relative)))
}

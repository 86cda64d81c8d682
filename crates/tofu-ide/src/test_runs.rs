//! The `run` blocks of a test file, as completion, definition and hover
//! read them: which runs `run.` may name at a position (those of the same file
//! that end before it: a run reads the outputs of the runs before it), the
//! `run.NAME.OUTPUT` reference under the cursor, and the module directory a
//! run applies (its `module { source }` when that is a local path, read
//! from the module directory as OpenTofu reads it, else the module under
//! test).
//!
//! Read from the file as written, so that it works while the file is being
//! typed; a registry or remote `source` gives no directory (`tofu test`
//! installs it; tofu-lens does not read `.terraform` for test runs).

use std::path::{Path, PathBuf};

use tofu_module::calls::normalize_path;
use tofu_module::module_source::local_source;
use tofu_syntax::{Attribute, Block, Body, ExprKind, SourceFile, TextRange, TraversalStep};

/// A `run.NAME` or `run.NAME.OUTPUT` reference under the cursor.
pub(crate) struct RunReference {
    pub run: String,
    /// The output, when the cursor is on it.
    pub output: Option<String>,
    /// What the cursor is on: `run.NAME`, or the output's name.
    pub range: TextRange,
}

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
    let run = run_block(source, name)?;
    let Some(module) = run.body.blocks_of_kind("module").next() else {
        return Some(module_dir.to_path_buf());
    };
    let ExprKind::String(value) = &module.body.attribute("source")?.expr.kind else {
        return None;
    };
    let relative = local_source(value)?;
    Some(normalize_path(&module_dir.join(relative)))
}

/// The run `name` of `source`.
pub(crate) fn run_block<'s>(source: &'s SourceFile, name: &str) -> Option<&'s Block> {
    source
        .body
        .blocks_of_kind("run")
        .find(|run| run.labels.first().is_some_and(|label| label.value == name))
}

/// The `run.NAME[.OUTPUT]` reference of `source` whose name or output step
/// holds `offset`.
pub(crate) fn run_reference_at(source: &SourceFile, offset: u32) -> Option<RunReference> {
    let mut found = None;
    visit_attributes(&source.body, &mut |attribute| {
        attribute.expr.walk(&mut |expr| {
            let ExprKind::Traversal(traversal) = &expr.kind else {
                return;
            };
            if traversal.root != "run" || found.is_some() {
                return;
            }
            let mut steps = traversal.steps.iter().filter_map(|step| match step {
                TraversalStep::Attr { name, range } => Some((name, *range)),
                _ => None,
            });
            let Some((run, run_range)) = steps.next() else {
                return;
            };
            let on = |range: TextRange| range.start <= offset && offset <= range.end;
            let output = steps.next();
            let run_name = TextRange::new(traversal.root_range.start, run_range.end);
            if on(run_name) {
                found = Some(RunReference {
                    run: run.clone(),
                    output: None,
                    range: run_name,
                });
            } else if let Some((output, range)) = output.filter(|(_, range)| on(*range)) {
                found = Some(RunReference {
                    run: run.clone(),
                    output: Some(output.clone()),
                    range,
                });
            }
        });
    });
    found
}

fn visit_attributes<'s>(body: &'s Body, visit: &mut dyn FnMut(&'s Attribute)) {
    for attribute in &body.attributes {
        visit(attribute);
    }
    for block in &body.blocks {
        visit_attributes(&block.body, visit);
    }
}

//! Renaming what the state holds keeps the state (issue 46, part 1): a
//! managed resource or a module call renamed also gets a `moved` block from
//! its old address to the new one, so `tofu plan` moves the objects instead
//! of destroying and creating them. Data sources, variables, outputs and
//! local values hold nothing in the state and get none.
//!
//! The block goes into the module's `moved.tf` when it has one (at its
//! end), else right after the renamed block when that is written in native
//! syntax, else at the end of the module's first native file; a module
//! written only in JSON gets none. The `moved` blocks already there are
//! history and keep their addresses (a rename of `b` to `c` after `a` to
//! `b` chains `a` → `b` → `c`, which OpenTofu follows), except that renaming
//! back undoes the last step: the block from the new name to the old one is
//! removed rather than closed into a cycle.

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::reference_sites::RefTarget;
use tofu_module::{BlockAddress, ResourceMode};
use tofu_syntax::{Block, FileId, TextRange};

use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileEdit};

/// The address `target` has in the state with name `name`, for what the
/// state holds (a managed resource, a module call).
fn state_address(target: &RefTarget, name: &str) -> Option<String> {
    match target {
        RefTarget::Resource(BlockAddress::Resource {
            mode: ResourceMode::Managed,
            type_name,
            ..
        }) => Some(format!("{type_name}.{name}")),
        RefTarget::ModuleCall(_) => Some(format!("module.{name}")),
        _ => None,
    }
}

/// The name `target` has now.
fn current_name(target: &RefTarget) -> Option<&str> {
    match target {
        RefTarget::Resource(BlockAddress::Resource { name, .. }) | RefTarget::ModuleCall(name) => {
            Some(name)
        }
        _ => None,
    }
}

/// Whether a rename of `target` keeps `moved` blocks' endpoints as they are:
/// it is what the state holds, so they are its history.
pub(crate) fn keeps_history(target: &RefTarget) -> bool {
    state_address(target, "").is_some()
}

/// Whether `range` of `file` lies inside a top-level `moved` block.
pub(crate) fn in_moved_block(analysis: &ModuleAnalysis, file: FileId, range: TextRange) -> bool {
    moved_blocks(analysis, file)
        .any(|block| block.range.start <= range.start && range.end <= block.range.end)
}

fn moved_blocks(analysis: &ModuleAnalysis, file: FileId) -> impl Iterator<Item = &Block> {
    analysis
        .file(file)
        .and_then(|file| file.source.as_ref())
        .into_iter()
        .flat_map(|source| source.body.blocks.iter())
        .filter(|block| block.kind == "moved")
}

/// The edit that records the rename of `target` to `new_name` in a `moved`
/// block (see the module doc); `None` when it holds nothing in the state or
/// the module has no native file to write one in.
pub(crate) fn moved_edit(
    module: &AnalysedModule,
    target: &RefTarget,
    new_name: &str,
) -> Option<FileEdit> {
    let old = state_address(target, current_name(target)?)?;
    let new = state_address(target, new_name)?;
    if old == new {
        return None;
    }
    if let Some(undo) = undo_edit(module, &new, &old) {
        return Some(undo);
    }
    let statement = format!("moved {{\n  from = {old}\n  to   = {new}\n}}\n");
    let address = match target {
        RefTarget::Resource(address) => address.clone(),
        RefTarget::ModuleCall(name) => BlockAddress::Module(name.clone()),
        _ => return None,
    };
    place_statement(module, &["moved.tf", "moved.tofu"], &address, &statement)
}

/// The edit that writes `statement` (a top-level block, whole lines) into
/// the module: at the end of the first native primary file named in
/// `preferred` the module has, else right after the block of `address` when
/// that is written in native syntax, else at the end of the module's first
/// native primary file; `None` for a module written only in JSON.
pub(crate) fn place_statement(
    module: &AnalysedModule,
    preferred: &[&str],
    address: &BlockAddress,
    statement: &str,
) -> Option<FileEdit> {
    let analysis = &module.analysis;
    let native = |file: &FileId| analysis.file(*file).is_some_and(|file| !file.is_json());
    let primary: Vec<FileId> = analysis.primary.clone();
    let preferred_file = primary.iter().copied().filter(native).find(|&file| {
        analysis
            .file(file)
            .is_some_and(|file| preferred.contains(&file.name.as_str()))
    });
    if let Some(file) = preferred_file {
        return append(module, file, statement);
    }
    let base = analysis.effective.get(address).and_then(|block| block.base);
    if let Some(base) = base.filter(|base| native(&base.file)) {
        let block = analysis.block(base)?;
        let mut location = file_range(
            module,
            base.file,
            TextRange::new(block.range.end, block.range.end),
        )?;
        // After the block's closing brace, on lines of its own.
        location.range = TextRange::new(block.range.end, block.range.end);
        let trimmed = statement.trim_end_matches('\n');
        return Some(FileEdit {
            location,
            new_text: format!("\n\n{trimmed}"),
        });
    }
    let file = primary.iter().copied().find(native)?;
    append(module, file, statement)
}

/// Appends `statement` at the end of `file`, a blank line before it.
fn append(module: &AnalysedModule, file: FileId, statement: &str) -> Option<FileEdit> {
    let text = &module.analysis.file(file)?.text;
    let end = u32::try_from(text.len()).ok()?;
    let location = file_range(module, file, TextRange::new(end, end))?;
    let new_text = if text.trim().is_empty() || text.ends_with("\n\n") {
        statement.to_owned()
    } else if text.ends_with('\n') {
        format!("\n{statement}")
    } else {
        format!("\n\n{statement}")
    };
    Some(FileEdit { location, new_text })
}

/// The removal of a native `moved` block from `from` to `to`, when there is
/// one: renaming back undoes it.
fn undo_edit(module: &AnalysedModule, from: &str, to: &str) -> Option<FileEdit> {
    let analysis = &module.analysis;
    for &file in &analysis.primary {
        let Some(module_file) = analysis.file(file).filter(|file| !file.is_json()) else {
            continue;
        };
        for block in moved_blocks(analysis, file) {
            let endpoint = |name: &str| {
                let attribute = block.body.attribute(name)?;
                let written = attribute.expr.range.slice(&module_file.text);
                Some(written.split_whitespace().collect::<String>())
            };
            if endpoint("from").as_deref() == Some(from) && endpoint("to").as_deref() == Some(to) {
                let range = module_file.removal_range(block.range);
                return Some(FileEdit {
                    location: file_range(module, file, range)?,
                    new_text: String::new(),
                });
            }
        }
    }
    None
}

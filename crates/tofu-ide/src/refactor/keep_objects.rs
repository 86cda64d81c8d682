//! Keep the objects (issue 46, part 5).
//!
//! - "Remove from the configuration, keep its objects": a managed resource
//!   or a module call is replaced by `removed { from = ADDRESS  lifecycle {
//!   destroy = false } }`, so `tofu plan` forgets its objects instead of
//!   destroying them. The blocks of override files that merge into it go
//!   too. Refused while something still refers to it (OpenTofu would
//!   reject the reference) or a `moved` block ends at it.
//! - "Generate an `import` block": `import { to = ADDRESS  id = "" }` for a
//!   managed resource with no import block yet, in the module's
//!   `imports.tf` when it has one, else after the resource. A resource with
//!   `count` is imported at `[0]`, one with a known `for_each` at its first
//!   key; the id is left for the user to fill. OpenTofu reads import blocks
//!   in the root module only: for a resource of a module called from one
//!   root module, the block goes in that caller, after the call, to
//!   `module.CALL[KEY].TYPE.NAME`.

use tofu_module::reference_sites::RefTarget;
use tofu_module::{address_of, BlockAddress, FileRole, ResourceMode};
use tofu_syntax::{Block, FileId};

use super::kinds::{ImportAt, ModuleSites, RefactorKind, Refactoring};
use super::text::place;
use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileEdit};
use crate::rename_moves::in_moved_block;

pub(super) fn refactorings(
    module: &AnalysedModule,
    sites: &ModuleSites<'_>,
    file: FileId,
    block: &Block,
    import_at: ImportAt<'_>,
) -> Vec<Refactoring> {
    let Some(address) = address_of(block) else {
        return Vec::new();
    };
    let (target, state_address) = match &address {
        BlockAddress::Resource {
            mode: ResourceMode::Managed,
            type_name,
            name,
        } => (
            RefTarget::Resource(address.clone()),
            format!("{type_name}.{name}"),
        ),
        BlockAddress::Module(name) => (
            RefTarget::ModuleCall(name.clone()),
            format!("module.{name}"),
        ),
        _ => return Vec::new(),
    };
    let analysis = &module.analysis;
    let Some(source) = analysis.file(file) else {
        return Vec::new();
    };
    if source.role != FileRole::Primary {
        return Vec::new();
    }
    let remove_title = format!("Remove `{state_address}` from the configuration, keep its objects");
    let mut refactorings = vec![remove(
        module,
        sites,
        file,
        block,
        &address,
        &target,
        &state_address,
    )
    .unwrap_or_else(|reason| Refactoring::refused(&remove_title, RefactorKind::Rewrite, reason))
    .titled(&remove_title)];
    if matches!(target, RefTarget::Resource(_)) {
        refactorings.extend(import(module, &address, &state_address, import_at));
    }
    refactorings
}

/// The `import` block for the resource at `address` (see the module doc),
/// where `import_at` says; none when one already imports it.
fn import(
    module: &AnalysedModule,
    address: &BlockAddress,
    state_address: &str,
    import_at: ImportAt<'_>,
) -> Option<Refactoring> {
    let (root, after, to) = match import_at {
        ImportAt::Here { to } => (module, address.clone(), to),
        ImportAt::Caller { module, call, to } => (module, call, to),
        ImportAt::Refused(reason) if reason.is_empty() => return None,
        ImportAt::Refused(reason) => {
            return Some(Refactoring::refused(
                format!("Generate an `import` block for `{state_address}`"),
                RefactorKind::Rewrite,
                reason,
            ))
        }
    };
    let whole = to.split('[').next().unwrap_or_default();
    if imported(root, whole) {
        return None;
    }
    let statement = format!("import {{\n  to = {to}\n  id = \"\"\n}}\n");
    let title = format!("Generate an `import` block for `{to}`");
    let placed = crate::rename_moves::place_statement(
        root,
        &["imports.tf", "imports.tofu", "import.tf", "import.tofu"],
        &after,
        &statement,
    );
    Some(match placed {
        Some(edit) => Refactoring::edits(title, RefactorKind::Rewrite, vec![edit]),
        None => Refactoring::refused(
            title,
            RefactorKind::Rewrite,
            "The module has no native file to write the `import` block in.",
        ),
    })
}

impl Refactoring {
    fn titled(mut self, title: &str) -> Self {
        title.clone_into(&mut self.title);
        self
    }
}

/// The `removed` block in place of `block` (see the module doc), or why not.
fn remove(
    module: &AnalysedModule,
    sites: &ModuleSites<'_>,
    file: FileId,
    block: &Block,
    address: &BlockAddress,
    target: &RefTarget,
    state_address: &str,
) -> Result<Refactoring, String> {
    let analysis = &module.analysis;
    let source = analysis.file(file).ok_or_else(String::new)?;
    if source.is_json() {
        return Err(
            "The block is written in JSON: tofu-lens writes `removed` blocks in native files only."
                .to_owned(),
        );
    }
    let sites = sites.all();
    let mut moved_to = None;
    for site in sites.iter().filter(|site| &site.target == target) {
        if block.range.contains(site.range.start) && site.file == file {
            continue;
        }
        if in_moved_block(analysis, site.file, site.range) {
            moved_to.get_or_insert((site.file, site.range.start));
            continue;
        }
        return Err(format!(
            "`{state_address}` is still referred to at {}: remove the references first.",
            place(analysis, site.file, site.range.start)
        ));
    }
    if let Some((file, offset)) = moved_to {
        return Err(format!(
            "The `moved` block at {} names `{state_address}`: a removed object cannot also be moved.",
            place(analysis, file, offset)
        ));
    }
    let effective = analysis.effective.get(address).ok_or_else(String::new)?;
    let mut edits = Vec::new();
    for overriding in &effective.overrides {
        let Some(override_file) = analysis.file(overriding.file) else {
            continue;
        };
        if override_file.is_json() {
            return Err(format!(
                "`{}` overrides it in JSON: tofu-lens edits native files only.",
                override_file.name
            ));
        }
        let Some(override_block) = analysis.block(*overriding) else {
            continue;
        };
        let range = override_file.removal_range(override_block.range);
        edits.extend(
            file_range(module, overriding.file, range).map(|location| FileEdit {
                location,
                new_text: String::new(),
            }),
        );
    }
    let statement = format!(
        "removed {{\n  from = {state_address}\n\n  lifecycle {{\n    destroy = false\n  }}\n}}"
    );
    let location = file_range(module, file, block.range).ok_or_else(String::new)?;
    edits.push(FileEdit {
        location,
        new_text: statement,
    });
    Ok(Refactoring::edits("", RefactorKind::Rewrite, edits))
}

/// Whether an `import` block of the module already imports into
/// `state_address` or one of its instances.
fn imported(module: &AnalysedModule, state_address: &str) -> bool {
    let analysis = &module.analysis;
    analysis.primary.iter().any(|&file| {
        let Some(module_file) = analysis.file(file) else {
            return false;
        };
        let Some(source) = module_file.source.as_deref() else {
            return false;
        };
        source
            .body
            .blocks
            .iter()
            .filter(|block| block.kind == "import")
            .filter_map(|block| block.body.attribute("to"))
            .any(|to| {
                let written: String = to
                    .expr
                    .range
                    .slice(&module_file.text)
                    .split_whitespace()
                    .collect();
                written == state_address
                    || written
                        .strip_prefix(state_address)
                        .is_some_and(|rest| rest.starts_with('['))
            })
    })
}

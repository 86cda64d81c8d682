//! References and rename of a module's interface (its variables and
//! outputs) across the module boundary: wherever the name is written, in the
//! module (declarations, uses, `.tfvars` names) and in every module of the
//! workspace that calls it (the arguments of its `module` blocks, and
//! `module.NAME.OUTPUT`).
//!
//! The callers are found through the summaries (every analysed directory's
//! calls with a known directory, `module_calls`); their names are read from
//! their full analyses, which the request must have brought in
//! ([`crate::Snapshot::related_dirs`], [`crate::Snapshot::with_modules`]).
//! A rename never edits part of the workspace: it is refused when a caller's
//! analysis is missing, when the module is not one of the workspace's (a
//! module `tofu init` installed), when the new name is taken in the module or
//! in a caller's `module` block, and for a variable when OpenTofu reserves
//! the name.

use tofu_module::reference_sites::{reference_sites, RefTarget};
use tofu_module::BlockAddress;

use crate::diagnostics::file_range;
use crate::module_calls::{caller_names, is_reserved_variable_name, values_names, Interface};
use crate::navigation::{block_target, blocks_of_identity, NavigationTarget};
use crate::references::{collision, declaration_names, name_edit, RenameRefused, RenameResult};
use crate::snapshot::Snapshot;

impl Snapshot {
    /// Every place that names `interface`: the blocks that declare it (the
    /// one OpenTofu keeps left out without `include_declaration`), its uses
    /// in the module, the `.tfvars` names of a variable, then each caller's
    /// arguments or `module.NAME.OUTPUT` uses, by caller directory.
    pub(crate) fn interface_references(
        &self,
        interface: &Interface,
        include_declaration: bool,
    ) -> Vec<NavigationTarget> {
        let mut targets = Vec::new();
        if let Some(module) = self.module(&interface.dir) {
            let analysis = &module.analysis;
            if let Some(address) = address_of_interface(interface) {
                let kept = analysis.declarations.get(&address).map(|d| d.kept);
                targets.extend(
                    blocks_of_identity(analysis, &address)
                        .into_iter()
                        .filter(|block| include_declaration || Some(*block) != kept)
                        .filter_map(|block| block_target(module, block)),
                );
            }
            let uses = reference_sites(analysis)
                .into_iter()
                .filter(|site| site.target == interface.target)
                .map(|site| (site.file, site.range));
            let values = match &interface.target {
                RefTarget::Variable(name) => values_names(analysis, name),
                _ => Vec::new(),
            };
            for (file, range) in uses.chain(values) {
                targets.extend(
                    file_range(module, file, range).map(|focus| NavigationTarget {
                        focus,
                        full_range: range,
                    }),
                );
            }
        }
        for (caller_dir, call) in self.callers_of(&interface.dir) {
            let Some(caller) = self.module(caller_dir) else {
                continue;
            };
            for (file, range) in caller_names(&caller.analysis, &call.name, &interface.target) {
                targets.extend(
                    file_range(caller, file, range).map(|focus| NavigationTarget {
                        focus,
                        full_range: range,
                    }),
                );
            }
        }
        targets
    }

    /// The edits that rename `interface` to `new_name` everywhere it is
    /// named, in the module and in every caller.
    pub(crate) fn interface_rename(&self, interface: &Interface, new_name: &str) -> RenameResult {
        let not_possible = |message: String| Err(RenameRefused::NotPossible(message));
        let Some(module) = self.module(&interface.dir) else {
            return not_possible(format!(
                "Cannot rename: the module at {} is not analysed.",
                interface.dir.display()
            ));
        };
        if !self.holds_dir(&interface.dir) {
            return not_possible(format!(
                "Cannot rename: the module at {} is not part of the workspace (it was installed by tofu init, or is excluded); rename it where it is maintained.",
                interface.dir.display()
            ));
        }
        let analysis = &module.analysis;
        let target = &interface.target;
        if let Some(existing) = collision(analysis, target, new_name) {
            return not_possible(format!(
                "Cannot rename to \"{new_name}\": the module already declares {existing}, so the rename would create a duplicate."
            ));
        }
        let is_variable = matches!(target, RefTarget::Variable(_));
        if is_variable && is_reserved_variable_name(new_name) {
            return not_possible(format!(
                "Cannot rename to \"{new_name}\": OpenTofu reserves this variable name for its special meaning inside module blocks."
            ));
        }
        let declared = declaration_names(analysis, target);
        if declared.is_empty() {
            let what = match target {
                RefTarget::Output(_) => "output",
                _ => "variable",
            };
            return not_possible(format!(
                "Cannot rename: the module at {} declares no {what} \"{}\".",
                interface.dir.display(),
                interface.name()
            ));
        }
        let mut edits = Vec::new();
        for (file, range) in declared {
            edits.extend(name_edit(module, file, range, new_name));
        }
        for site in reference_sites(analysis)
            .iter()
            .filter(|site| &site.target == target)
        {
            edits.extend(name_edit(module, site.file, site.name_range, new_name));
        }
        if let RefTarget::Variable(name) = target {
            for (file, range) in values_names(analysis, name) {
                edits.extend(name_edit(module, file, range, new_name));
            }
        }
        for (caller_dir, call) in self.callers_of(&interface.dir) {
            let Some(caller) = self.module(caller_dir) else {
                return not_possible(format!(
                    "Cannot rename: {} calls this module, and its analysis is not available; try again once it is analysed.",
                    call.description
                ));
            };
            if is_variable {
                let taken = RefTarget::Variable(new_name.to_owned());
                if !caller_names(&caller.analysis, &call.name, &taken).is_empty() {
                    return not_possible(format!(
                        "Cannot rename to \"{new_name}\": {} already sets an argument of that name.",
                        call.description
                    ));
                }
            }
            for (file, range) in caller_names(&caller.analysis, &call.name, target) {
                edits.extend(name_edit(caller, file, range, new_name));
            }
        }
        edits.sort_by(|a, b| {
            (&a.location.path, a.location.range.start)
                .cmp(&(&b.location.path, b.location.range.start))
        });
        edits.dedup_by(|a, b| a.location == b.location);
        Ok(edits)
    }
}

/// The block address of a variable or output.
fn address_of_interface(interface: &Interface) -> Option<BlockAddress> {
    match &interface.target {
        RefTarget::Variable(name) => Some(BlockAddress::Variable(name.clone())),
        RefTarget::Output(name) => Some(BlockAddress::Output(name.clone())),
        _ => None,
    }
}

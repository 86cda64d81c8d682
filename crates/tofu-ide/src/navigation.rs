//! Navigation between a base block and the override blocks that change it
//! (`server.md` §Navigation): go to definition and references.
//!
//! Identity is OpenTofu's (`merging.md` §2): a provider's includes its `alias`
//! value, and local values match per name, entry by entry. Definition works on
//! a block header (or a local's name) and on a reference; across the module
//! boundary, on an argument of a `module` block (the called module's
//! variable), on `module.NAME.OUTPUT` (its output) and on a `.tfvars` name
//! (the variable); in a test file, on `run.NAME` (the run block) and
//! `run.NAME.OUTPUT` (the output of the module the run applies); anywhere
//! else it finds nothing. References of a variable
//! or output include every caller's (`boundary`).

use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::reference_sites::{reference_sites, RefTarget};
use tofu_module::{address_of, BlockAddress, BlockRef, FileRole, LocalRef};
use tofu_syntax::TextRange;

use crate::analysed_module::{AnalysedModule, FileInModule};
use crate::diagnostics::{file_range, FileRange};
use crate::locate::{block_at, focus_range, local_entry_at, on_header};
use crate::locate::{named_at, site_at};
use crate::module_calls::Side;
use crate::references::{declaration_targets, Declarations};
use crate::snapshot::Snapshot;
use crate::test_runs::{run_block, run_module_dir, run_reference_at};

/// A place to jump to: the range to select and the whole construct around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NavigationTarget {
    pub focus: FileRange,
    pub full_range: TextRange,
}

/// What the cursor names: a top-level block or one local value entry.
enum Subject {
    Block(BlockRef),
    Local(LocalRef),
}

impl Snapshot {
    /// On a reference (`var.region`, `local.name`, `aws_instance.web`, …):
    /// the declaration OpenTofu keeps, then the override blocks that change
    /// it. On an override block header: the base block it merges into. On a
    /// base block header: the override blocks that change it. The same per
    /// entry on a local value's name.
    pub fn goto_definition(&self, path: &Path, offset: u32) -> Vec<NavigationTarget> {
        if let Some(at) = self.interface_at(path, offset) {
            if at.side != Side::Module {
                let Some(module) = self.module(&at.interface.dir) else {
                    return Vec::new();
                };
                return declaration_nav_targets(module, &at.interface.target, false);
            }
        }
        if let Some(found) = self.find_file(path) {
            if let Some(site) = site_at(&found.module.analysis, found.id, offset) {
                return declaration_nav_targets(found.module, &site.target, false);
            }
            if let Some(targets) = self.run_definition(&found, offset) {
                return targets;
            }
        }
        let Some((module, subject)) = self.subject_at(path, offset) else {
            return Vec::new();
        };
        let analysis = &module.analysis;
        match subject {
            Subject::Block(block_ref) => {
                let targets = block_definition(analysis, block_ref);
                targets
                    .into_iter()
                    .filter_map(|target| block_target(module, target))
                    .collect()
            }
            Subject::Local(local_ref) => {
                let Some(name) = local_name(analysis, local_ref) else {
                    return Vec::new();
                };
                let Some(local) = analysis.effective.local(name) else {
                    return Vec::new();
                };
                let targets = if local.base == local_ref {
                    local.overrides.clone()
                } else {
                    vec![local.base]
                };
                targets
                    .into_iter()
                    .filter_map(|target| local_target(module, target))
                    .collect()
            }
        }
    }

    /// In a test file, on `run.NAME`: that run block; on `run.NAME.OUTPUT`:
    /// the output in the module the run applies. `None` elsewhere.
    fn run_definition(
        &self,
        found: &FileInModule<'_>,
        offset: u32,
    ) -> Option<Vec<NavigationTarget>> {
        let file = found.file().filter(|file| file.role == FileRole::Test)?;
        let source = file.source.as_deref()?;
        let reference = run_reference_at(source, offset)?;
        let Some(output) = reference.output else {
            let run = run_block(source, &reference.run)?;
            let target = NavigationTarget {
                focus: file_range(found.module, found.id, run.header)?,
                full_range: run.range,
            };
            return Some(vec![target]);
        };
        let dir = run_module_dir(source, &reference.run, &found.module.dir)?;
        let applied = if dir == found.module.dir {
            found.module
        } else {
            self.module(&dir)?
        };
        Some(declaration_nav_targets(
            applied,
            &RefTarget::Output(output),
            false,
        ))
    }

    /// Every block (or local value entry) with the same identity as the one
    /// under the cursor, in loading order: primary declarations, then override
    /// blocks. Without `include_declaration`, the declaration OpenTofu keeps is
    /// left out.
    pub fn references(
        &self,
        path: &Path,
        offset: u32,
        include_declaration: bool,
    ) -> Vec<NavigationTarget> {
        if self.shared.is_empty() {
            return self.references_in_dir(path, offset, include_declaration);
        }
        self.references_through_links(path, offset, include_declaration)
    }

    /// [`Snapshot::references`] in the directory of `path` alone.
    pub(crate) fn references_in_dir(
        &self,
        path: &Path,
        offset: u32,
        include_declaration: bool,
    ) -> Vec<NavigationTarget> {
        if let Some(at) = self.interface_at(path, offset) {
            return self.interface_references(&at.interface, include_declaration);
        }
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let named = named_at(found.module, found.id, offset);
        let mut targets = match self.subject_at(path, offset) {
            Some((module, subject)) => identity_targets(module, subject, include_declaration),
            None => match &named {
                Some(named) => {
                    declaration_nav_targets(found.module, &named.target, !include_declaration)
                }
                None => Vec::new(),
            },
        };
        // Every use of it in the module, JSON templates included.
        if let Some(named) = named {
            let analysis = &found.module.analysis;
            targets.extend(
                reference_sites(analysis)
                    .iter()
                    .filter(|site| site.target == named.target)
                    .filter_map(|site| {
                        Some(NavigationTarget {
                            focus: file_range(found.module, site.file, site.range)?,
                            full_range: site.range,
                        })
                    }),
            );
        }
        targets
    }

    fn subject_at(&self, path: &Path, offset: u32) -> Option<(&AnalysedModule, Subject)> {
        let found = self.find_file(path)?;
        let at = block_at(&found, offset)?;
        if let Some((local_ref, _)) = local_entry_at(&at, offset) {
            return Some((found.module, Subject::Local(local_ref)));
        }
        let is_json = found.file()?.is_json();
        on_header(at.block, is_json, offset).then_some((found.module, Subject::Block(at.block_ref)))
    }
}

/// The declarations of `target` as navigation targets: the one OpenTofu
/// keeps first, then the override blocks or entries that change it.
/// `skip_kept` leaves the kept one out.
pub(crate) fn declaration_nav_targets(
    module: &AnalysedModule,
    target: &RefTarget,
    skip_kept: bool,
) -> Vec<NavigationTarget> {
    let skip = usize::from(skip_kept);
    match declaration_targets(&module.analysis, target) {
        Declarations::Blocks(blocks) => blocks
            .into_iter()
            .skip(skip)
            .filter_map(|block| block_target(module, block))
            .collect(),
        Declarations::Locals(locals) => locals
            .into_iter()
            .skip(skip)
            .filter_map(|local| local_target(module, local))
            .collect(),
    }
}

/// Every block (or local entry) with the identity of `subject`.
fn identity_targets(
    module: &AnalysedModule,
    subject: Subject,
    include_declaration: bool,
) -> Vec<NavigationTarget> {
    let analysis = &module.analysis;
    let loaded = analysis.primary.iter().chain(analysis.overrides.iter());
    match subject {
        Subject::Block(block_ref) => {
            let Some(address) = analysis.block(block_ref).and_then(address_of) else {
                return Vec::new();
            };
            let kept = analysis.declarations.get(&address).map(|d| d.kept);
            blocks_of_identity(analysis, &address)
                .into_iter()
                .filter(|block| include_declaration || Some(*block) != kept)
                .filter_map(|block| block_target(module, block))
                .collect()
        }
        Subject::Local(local_ref) => {
            let Some(name) = local_name(analysis, local_ref) else {
                return Vec::new();
            };
            let kept = analysis.declarations.local(name).map(|d| d.kept);
            let mut targets = Vec::new();
            for &file in loaded {
                let Some(source) = analysis.file(file).and_then(|f| f.source.as_ref()) else {
                    continue;
                };
                for (index, block) in source.body.blocks.iter().enumerate() {
                    if block.kind != "locals" {
                        continue;
                    }
                    for (attr, entry) in block.body.attributes.iter().enumerate() {
                        let candidate = LocalRef {
                            block: BlockRef {
                                file,
                                index,
                                nested: None,
                            },
                            attr,
                        };
                        if entry.name != name || (!include_declaration && Some(candidate) == kept) {
                            continue;
                        }
                        targets.extend(local_target(module, candidate));
                    }
                }
            }
            targets
        }
    }
}

/// Every top-level block of the loaded files with identity `address`, in
/// loading order (primary files, then override files).
pub(crate) fn blocks_of_identity(
    analysis: &ModuleAnalysis,
    address: &BlockAddress,
) -> Vec<BlockRef> {
    let mut blocks = Vec::new();
    for &file in analysis.primary.iter().chain(analysis.overrides.iter()) {
        let Some(source) = analysis.file(file).and_then(|f| f.source.as_ref()) else {
            continue;
        };
        for (index, block) in source.body.blocks.iter().enumerate() {
            if address_of(block).as_ref() == Some(address) {
                blocks.push(BlockRef {
                    file,
                    index,
                    nested: None,
                });
            }
        }
    }
    blocks
}

/// The blocks a definition request on `block_ref`'s header leads to.
fn block_definition(analysis: &ModuleAnalysis, block_ref: BlockRef) -> Vec<BlockRef> {
    if let Some(effective) = analysis.effective.block_containing(block_ref) {
        if effective.base == Some(block_ref) {
            return effective.overrides.clone();
        }
        return effective.base.into_iter().collect();
    }
    // A duplicate declaration leads to the one OpenTofu keeps.
    let Some(address) = analysis.block(block_ref).and_then(address_of) else {
        return Vec::new();
    };
    analysis
        .declarations
        .get(&address)
        .filter(|declared| declared.all.contains(&block_ref))
        .map(|declared| vec![declared.kept])
        .unwrap_or_default()
}

fn local_name(analysis: &ModuleAnalysis, local: LocalRef) -> Option<&str> {
    analysis
        .block(local.block)?
        .body
        .attributes
        .get(local.attr)
        .map(|attr| attr.name.as_str())
}

pub(crate) fn block_target(module: &AnalysedModule, target: BlockRef) -> Option<NavigationTarget> {
    let analysis = &module.analysis;
    let block = analysis.block(target)?;
    let is_json = analysis.file(target.file)?.is_json();
    Some(NavigationTarget {
        focus: file_range(module, target.file, focus_range(block, is_json))?,
        full_range: block.range,
    })
}

fn local_target(module: &AnalysedModule, target: LocalRef) -> Option<NavigationTarget> {
    let attr = module
        .analysis
        .block(target.block)?
        .body
        .attributes
        .get(target.attr)?;
    Some(NavigationTarget {
        focus: file_range(module, target.block.file, attr.name_range)?,
        full_range: attr.range,
    })
}

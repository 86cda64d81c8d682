//! What is under the cursor: the top-level block holding an offset, whether the
//! offset is on that block's header, which local value entry it names, and
//! the reference or declaration name there ([`named_at`]).
//!
//! Only files OpenTofu loads (primary and override files) have blocks here: a
//! file hidden by its `.tofu` twin or skipped by name has none, so every
//! feature built on this answers nothing there.

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::reference_sites::{file_reference_sites, RefTarget, ReferenceSite};
use tofu_module::{address_of, BlockAddress, BlockRef, FileRole, LocalRef};
use tofu_syntax::{Attribute, Block, FileId, TextRange};

use crate::analysed_module::{AnalysedModule, FileInModule};

/// A top-level block under the cursor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockAt<'a> {
    pub block_ref: BlockRef,
    pub block: &'a Block,
    pub role: FileRole,
}

/// The top-level block of a loaded file that holds `offset` (the end of the
/// block counts, for a cursor right after its closing brace).
pub(crate) fn block_at<'a>(found: &FileInModule<'a>, offset: u32) -> Option<BlockAt<'a>> {
    let file = found.file()?;
    if !file.role.is_loaded() {
        return None;
    }
    let source = file.source.as_ref()?;
    let blocks = &source.body.blocks;
    let index = blocks
        .iter()
        .position(|block| block.range.contains(offset))
        .or_else(|| blocks.iter().position(|block| block.range.end == offset))?;
    Some(BlockAt {
        block_ref: BlockRef {
            file: found.id,
            index,
            nested: None,
        },
        block: blocks.get(index)?,
        role: file.role,
    })
}

/// True when `offset` is on the block's header: its keyword, a label, or
/// (native syntax) anything between the keyword and the end of the last label.
pub(crate) fn on_header(block: &Block, is_json: bool, offset: u32) -> bool {
    let on = |range: TextRange| range.contains_inclusive(offset);
    if on(block.header) || on(block.kind_range) || block.labels.iter().any(|l| on(l.range)) {
        return true;
    }
    !is_json && on(block.kind_range.cover(block.header))
}

/// The range to select when jumping to a block: the header in native syntax;
/// in JSON (where the header is the body's `{`), the last label or the type name.
pub(crate) fn focus_range(block: &Block, is_json: bool) -> TextRange {
    if !is_json {
        return block.header;
    }
    block
        .labels
        .last()
        .map_or(block.kind_range, |label| label.range)
}

/// The entry of a `locals` block whose name is under the cursor.
pub(crate) fn local_entry_at<'a>(
    at: &BlockAt<'a>,
    offset: u32,
) -> Option<(LocalRef, &'a Attribute)> {
    if at.block.kind != "locals" {
        return None;
    }
    at.block
        .body
        .attributes
        .iter()
        .enumerate()
        .find(|(_, attr)| attr.name_range.contains_inclusive(offset))
        .map(|(index, attr)| {
            (
                LocalRef {
                    block: at.block_ref,
                    attr: index,
                },
                attr,
            )
        })
}

/// What the cursor names, for the reference features.
#[derive(Clone, Debug)]
pub(crate) struct Named {
    pub target: RefTarget,
    /// The range of the name under the cursor (a use's name, or the
    /// declaration's label or local name).
    pub name_range: TextRange,
}

/// The reference or declaration name at `offset` of `file`.
pub(crate) fn named_at(module: &AnalysedModule, file: FileId, offset: u32) -> Option<Named> {
    named_among(
        module,
        file,
        offset,
        &file_reference_sites(&module.analysis, file),
    )
}

/// [`named_at`], with the module's reference sites already at hand.
pub(crate) fn named_among(
    module: &AnalysedModule,
    file: FileId,
    offset: u32,
    sites: &[ReferenceSite],
) -> Option<Named> {
    let site = sites
        .iter()
        .find(|site| site.file == file && site.range.contains_inclusive(offset));
    if let Some(site) = site {
        return Some(Named {
            target: site.target.clone(),
            name_range: site.name_range,
        });
    }
    let found = FileInModule { module, id: file };
    let at = block_at(&found, offset)?;
    if let Some((_, attr)) = local_entry_at(&at, offset) {
        return Some(Named {
            target: RefTarget::Local(attr.name.clone()),
            name_range: attr.name_range,
        });
    }
    let is_json = found.file()?.is_json();
    if !on_header(at.block, is_json, offset) {
        return None;
    }
    let target = block_target(at.block)?;
    Some(Named {
        target,
        name_range: name_label(at.block)?,
    })
}

/// The use whose range holds `offset`. Only `file` is read: hover and
/// definition ask this on every request, and reading the whole module made
/// them cost as much as its size (3 ms and more in a 1,000-file module).
pub(crate) fn site_at(
    analysis: &ModuleAnalysis,
    file: FileId,
    offset: u32,
) -> Option<ReferenceSite> {
    file_reference_sites(analysis, file)
        .into_iter()
        .find(|site| site.range.contains_inclusive(offset))
}

/// What a declaration block is, as a reference target.
pub(crate) fn block_target(block: &Block) -> Option<RefTarget> {
    match address_of(block)? {
        BlockAddress::Variable(name) => Some(RefTarget::Variable(name)),
        BlockAddress::Output(name) => Some(RefTarget::Output(name)),
        BlockAddress::Module(name) => Some(RefTarget::ModuleCall(name)),
        address @ BlockAddress::Resource { .. } => Some(RefTarget::Resource(address)),
        BlockAddress::Provider { .. } | BlockAddress::Check(_) => None,
    }
}

/// The label a rename changes: the last one (the name).
pub(crate) fn name_label(block: &Block) -> Option<TextRange> {
    block.labels.last().map(|label| label.range)
}

//! What is under the cursor: the top-level block holding an offset, whether the
//! offset is on that block's header, and which local value entry it names.
//!
//! Only files OpenTofu loads (primary and override files) have blocks here: a
//! file hidden by its `.tofu` twin or skipped by name has none, so every
//! feature built on this answers nothing there.

use tofu_module::{BlockRef, FileRole, LocalRef};
use tofu_syntax::{Attribute, Block, TextRange};

use crate::analysis::FileInModule;

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

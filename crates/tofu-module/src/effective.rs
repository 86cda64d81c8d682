//! The effective configuration of a module: every block after all override files
//! were applied, with provenance for each part (`merging.md`).
//!
//! Values are not copied: each attribute records the file and ranges of its
//! winning definition, so renderers show the user's own text, and the list of
//! definitions it superseded. Nested blocks record where they came from and the
//! base blocks they replaced; their bodies are as written, except a `resource`
//! `lifecycle`, which is merged argument by argument.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use tofu_syntax::{Attribute, Block, Body, FileId, Location, TextRange};

use crate::address::BlockAddress;
use crate::declarations::LocalRef;
use crate::loaded::BlockRef;
use crate::refs::NodeReferences;

/// Where a part of the effective configuration was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    pub file: FileId,
    /// The attribute (`name = value`), or the nested block's header.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EffectiveAttribute {
    pub name: String,
    pub origin: Origin,
    /// The value expression of the winning definition.
    pub value: TextRange,
    /// Earlier definitions this one replaced, oldest first.
    pub superseded: Vec<Origin>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EffectiveNestedBlock {
    /// The block type as written (`dynamic` for a dynamic block).
    pub kind: String,
    pub labels: Vec<String>,
    pub origin: Origin,
    /// The whole block as written, for hover ranges.
    pub range: TextRange,
    pub body: EffectiveBody,
    /// Base blocks this one replaced (merging.md §3 rule 2), oldest first.
    pub superseded: Vec<Origin>,
}

impl EffectiveNestedBlock {
    /// A nested block exactly as written in `file`.
    pub fn as_written(file: FileId, block: &Block) -> EffectiveNestedBlock {
        EffectiveNestedBlock {
            kind: block.kind.clone(),
            labels: block.labels.iter().map(|l| l.value.clone()).collect(),
            origin: Origin {
                file,
                range: block.header,
            },
            range: block.range,
            body: EffectiveBody::as_written(file, &block.body),
            superseded: Vec::new(),
        }
    }

    /// The type this block counts as when merging: `dynamic "x"` counts as `x`.
    pub fn merge_kind(&self) -> &str {
        match (self.kind.as_str(), self.labels.first()) {
            ("dynamic", Some(label)) => label,
            (kind, _) => kind,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct EffectiveBody {
    pub attributes: Vec<EffectiveAttribute>,
    pub blocks: Vec<EffectiveNestedBlock>,
}

impl EffectiveAttribute {
    /// An attribute exactly as written in `file`.
    pub fn as_written(file: FileId, attr: &Attribute) -> EffectiveAttribute {
        EffectiveAttribute {
            name: attr.name.clone(),
            origin: Origin {
                file,
                range: attr.range,
            },
            value: attr.expr.range,
            superseded: Vec::new(),
        }
    }
}

impl EffectiveBody {
    /// A body exactly as written in `file`.
    pub fn as_written(file: FileId, body: &Body) -> EffectiveBody {
        EffectiveBody {
            attributes: body
                .attributes
                .iter()
                .map(|attr| EffectiveAttribute::as_written(file, attr))
                .collect(),
            blocks: body
                .blocks
                .iter()
                .map(|block| EffectiveNestedBlock::as_written(file, block))
                .collect(),
        }
    }

    pub fn attribute(&self, name: &str) -> Option<&EffectiveAttribute> {
        self.attributes.iter().find(|attr| attr.name == name)
    }

    /// Sets `new` in place of the attribute of the same name, which it
    /// supersedes, or adds it.
    pub fn replace_attribute(&mut self, new: EffectiveAttribute) {
        match self
            .attributes
            .iter_mut()
            .find(|attr| attr.name == new.name)
        {
            Some(existing) => {
                let mut superseded = std::mem::take(&mut existing.superseded);
                superseded.push(existing.origin);
                *existing = EffectiveAttribute { superseded, ..new };
            }
            None => self.attributes.push(new),
        }
    }
}

/// One addressable top-level block after merging.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectiveBlock {
    pub address: BlockAddress,
    pub kind: String,
    pub labels: Vec<String>,
    /// The primary declaration, or `None` for a default provider configuration
    /// that an override file introduced.
    pub base: Option<BlockRef>,
    /// Override blocks merged into it, in the order they were applied.
    pub overrides: Vec<BlockRef>,
    /// Shared with the file store while no override changed it (copied on
    /// write), so re-analysing after a keystroke does not rebuild the bodies
    /// of thousands of untouched blocks.
    pub body: Arc<EffectiveBody>,
    /// Its references, by evaluation unit (filled after merging).
    pub references: Arc<NodeReferences>,
}

/// One local value after merging.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectiveLocal {
    pub name: String,
    pub base: LocalRef,
    /// Override entries applied to it, in order.
    pub overrides: Vec<LocalRef>,
    pub attribute: EffectiveAttribute,
    /// Its references (filled after merging).
    pub references: Arc<NodeReferences>,
}

impl EffectiveLocal {
    /// A local value as one definition writes it, with no overrides.
    pub fn as_written(
        name: String,
        base: LocalRef,
        attribute: EffectiveAttribute,
    ) -> EffectiveLocal {
        EffectiveLocal {
            name,
            base,
            overrides: Vec::new(),
            attribute,
            references: Arc::default(),
        }
    }
}

/// A `required_version` of the module and whether OpenTofu 1.12 reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct RequiredVersion {
    pub attribute: EffectiveAttribute,
    /// True in `.tofu`/`.tofu.json` files; `.tf` ones are ignored.
    pub checked: bool,
}

/// The synthesized `terraform` view of `merging.md` §6.9.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EffectiveTerraform {
    /// Every `terraform` block that contributed, primary then override.
    pub blocks: Vec<BlockRef>,
    /// The effective `required_providers` entries.
    pub required_providers: Vec<EffectiveAttribute>,
    /// The winning `backend "T"` or `cloud` block.
    pub backend: Option<EffectiveNestedBlock>,
    pub encryption: Option<EffectiveNestedBlock>,
    pub provider_meta: Vec<EffectiveNestedBlock>,
    pub required_versions: Vec<RequiredVersion>,
}

/// The merged configuration of a module. Its blocks and local values are
/// shared (`Arc`) and its indexes are shared whole, so the analysis after a
/// keystroke rebuilds only the blocks the edit touched and shares the rest
/// with the analysis before it (`crate::incremental`).
#[derive(Clone, Debug, Default)]
pub struct EffectiveModule {
    /// Addressable blocks in order of first declaration (override-introduced
    /// provider configurations last).
    pub blocks: Vec<Arc<EffectiveBlock>>,
    index: Arc<HashMap<BlockAddress, usize>>,
    pub locals: Vec<Arc<EffectiveLocal>>,
    local_index: Arc<HashMap<String, usize>>,
    pub terraform: EffectiveTerraform,
}

impl EffectiveModule {
    /// A module of `blocks` and `locals`, in that order.
    pub fn new(
        blocks: Vec<Arc<EffectiveBlock>>,
        locals: Vec<Arc<EffectiveLocal>>,
        terraform: EffectiveTerraform,
    ) -> EffectiveModule {
        let index = blocks
            .iter()
            .enumerate()
            .map(|(i, block)| (block.address.clone(), i))
            .collect();
        let local_index = locals
            .iter()
            .enumerate()
            .map(|(i, local)| (local.name.clone(), i))
            .collect();
        EffectiveModule {
            blocks,
            index: Arc::new(index),
            locals,
            local_index: Arc::new(local_index),
            terraform,
        }
    }

    pub fn get(&self, address: &BlockAddress) -> Option<&EffectiveBlock> {
        self.shared(address).map(|block| &**block)
    }

    /// The name of the module call `call`'s argument whose definition holds
    /// `place`.
    pub fn module_argument_at(&self, call: &str, place: &Location) -> Option<String> {
        let range = place.range?;
        let block = self.get(&BlockAddress::Module(call.to_owned()))?;
        block
            .body
            .attributes
            .iter()
            .find(|attribute| {
                attribute.origin.file == place.file
                    && attribute.origin.range.start <= range.start
                    && range.end <= attribute.origin.range.end
            })
            .map(|attribute| attribute.name.clone())
    }

    /// The block of `address`, shared.
    pub fn shared(&self, address: &BlockAddress) -> Option<&Arc<EffectiveBlock>> {
        self.index.get(address).and_then(|&i| self.blocks.get(i))
    }

    /// The local value `name`, shared.
    pub fn shared_local(&self, name: &str) -> Option<&Arc<EffectiveLocal>> {
        self.local_index.get(name).and_then(|&i| self.locals.get(i))
    }

    /// Replaces the block of the same address, which must be there; the
    /// indexes stay valid because nothing moves.
    pub fn replace(&mut self, block: EffectiveBlock) {
        if let Some(slot) = self
            .index
            .get(&block.address)
            .and_then(|&i| self.blocks.get_mut(i))
        {
            *slot = Arc::new(block);
        }
    }

    pub fn local(&self, name: &str) -> Option<&EffectiveLocal> {
        self.shared_local(name).map(|local| &**local)
    }

    /// Replaces the local value of the same name, which must be there.
    pub fn replace_local(&mut self, local: EffectiveLocal) {
        if let Some(slot) = self
            .local_index
            .get(&local.name)
            .and_then(|&i| self.locals.get_mut(i))
        {
            *slot = Arc::new(local);
        }
    }

    /// The effective block a top-level block of a file belongs to: its own
    /// address for a primary declaration, or the block it overrides.
    pub fn block_containing(&self, block: BlockRef) -> Option<&EffectiveBlock> {
        self.blocks
            .iter()
            .find(|effective| effective.base == Some(block) || effective.overrides.contains(&block))
            .map(|block| &**block)
    }
}

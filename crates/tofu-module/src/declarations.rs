//! What the primary files declare, and the duplicates among them
//! (`diagnostics.md` §2.3 and §4.2).
//!
//! For each identity the declaration OpenTofu keeps is recorded: the last one for
//! variables, outputs and module calls and local values, the first one for
//! everything else. Overrides merge into the kept declaration. Blocks with wrong
//! labels are not declarations (OpenTofu drops them).

use rustc_hash::FxHashMap as HashMap;
use std::ops::Deref;
use std::sync::Arc;

use tofu_syntax::{Block, Diagnostic, FileId, Location};

use crate::address::{BlockAddress, ResourceMode};
use crate::loaded::{BlockRef, LoadedModule};
use crate::schema::{has_valid_labels, top_level_labels};

#[derive(Debug, Default)]
pub struct Declarations {
    /// Identities in order of first declaration.
    pub blocks: Vec<DeclaredIdentity>,
    index: HashMap<BlockAddress, usize>,
    /// Local values in order of first definition.
    pub locals: Vec<DeclaredLocal>,
    local_index: HashMap<String, usize>,
    /// Every `terraform` block of the primary files, in loading order.
    pub terraform: Vec<BlockRef>,
    /// Every `language` block of the primary files, in loading order.
    pub language: Vec<BlockRef>,
    /// `moved`, `import` and `removed` blocks, which simply accumulate.
    pub other: Vec<BlockRef>,
    /// Some primary file could not be parsed completely, so a missing declaration
    /// proves nothing.
    pub incomplete: bool,
}

/// One identity the primary files declare, with every block declaring it.
#[derive(Debug)]
pub struct DeclaredIdentity {
    pub address: BlockAddress,
    /// Every declaration with this identity, in loading order.
    pub all: Vec<BlockRef>,
    /// The one OpenTofu keeps.
    pub kept: BlockRef,
}

/// One entry `name = value` of a `locals` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocalRef {
    pub block: BlockRef,
    /// Index in the block body's attributes.
    pub attr: usize,
}

#[derive(Debug)]
pub struct DeclaredLocal {
    pub name: String,
    pub all: Vec<LocalRef>,
    pub kept: LocalRef,
}

impl Declarations {
    pub fn get(&self, address: &BlockAddress) -> Option<&DeclaredIdentity> {
        self.index.get(address).and_then(|&i| self.blocks.get(i))
    }

    pub fn local(&self, name: &str) -> Option<&DeclaredLocal> {
        self.local_index.get(name).and_then(|&i| self.locals.get(i))
    }

    fn collect(module: &LoadedModule, fates: &mut HashMap<BlockRef, BlockFate>) -> Declarations {
        // Sized once: growing these maps and lists was a tenth of the work.
        let n_blocks = count_blocks(module, &module.primary);
        fates.reserve(n_blocks);
        let mut declarations = Declarations {
            blocks: Vec::with_capacity(n_blocks),
            index: HashMap::with_capacity_and_hasher(n_blocks, Default::default()),
            ..Declarations::default()
        };
        declarations.incomplete = module
            .primary
            .iter()
            .any(|&id| module.file(id).is_some_and(|file| file.is_incomplete()));
        for (block_ref, block) in module.top_level_blocks(&module.primary) {
            if let Some(reason) = drop_reason(block) {
                fates.insert(block_ref, BlockFate::Dropped(reason));
                continue;
            }
            match block.kind.as_str() {
                "locals" => declarations.add_locals(block_ref, block),
                "terraform" => declarations.terraform.push(block_ref),
                "language" => declarations.language.push(block_ref),
                "moved" | "import" | "removed" => declarations.other.push(block_ref),
                _ => {
                    if let Some(address) = address_of(block) {
                        declarations.add(address, block_ref);
                    }
                    if let Some((nested, address)) = checked_data(block) {
                        let nested_ref = BlockRef {
                            nested: Some(nested),
                            ..block_ref
                        };
                        declarations.add(address, nested_ref);
                    }
                }
            }
        }
        for declared in &declarations.blocks {
            for &block_ref in &declared.all {
                let fate = if block_ref == declared.kept {
                    BlockFate::Declared
                } else {
                    BlockFate::Duplicate {
                        kept: declared.kept,
                    }
                };
                fates.insert(block_ref, fate);
            }
        }
        let accumulated = declarations.terraform.iter().chain(&declarations.language);
        for &block_ref in accumulated.chain(&declarations.other) {
            fates.insert(block_ref, BlockFate::Accumulated);
        }
        for declared in &declarations.locals {
            for local in &declared.all {
                fates.insert(local.block, BlockFate::Accumulated);
            }
        }
        declarations
    }

    fn add(&mut self, address: BlockAddress, block_ref: BlockRef) {
        let Some(&slot) = self.index.get(&address) else {
            self.index.insert(address.clone(), self.blocks.len());
            self.blocks.push(DeclaredIdentity {
                address,
                all: vec![block_ref],
                kept: block_ref,
            });
            return;
        };
        let Some(declared) = self.blocks.get_mut(slot) else {
            return;
        };
        declared.all.push(block_ref);
        if keeps_last(&address) {
            declared.kept = block_ref;
        }
    }

    fn add_locals(&mut self, block_ref: BlockRef, block: &Block) {
        for (attr_index, attr) in block.body.attributes.iter().enumerate() {
            let local_ref = LocalRef {
                block: block_ref,
                attr: attr_index,
            };
            let Some(&slot) = self.local_index.get(&attr.name) else {
                self.local_index
                    .insert(attr.name.clone(), self.locals.len());
                self.locals.push(DeclaredLocal {
                    name: attr.name.clone(),
                    all: vec![local_ref],
                    kept: local_ref,
                });
                continue;
            };
            if let Some(declared) = self.locals.get_mut(slot) {
                declared.all.push(local_ref);
                declared.kept = local_ref;
            }
        }
    }
}

/// `duplicate-block` for every declaration of `declared` after the first,
/// each against the declaration OpenTofu kept up to it (the first one, or
/// the previous one for the kinds where the last one wins). What each
/// reports depends on the two blocks it names alone.
pub fn duplicates_of(
    module: &LoadedModule,
    declared: &DeclaredIdentity,
    out: &mut Vec<Diagnostic>,
) {
    let Some((&first, rest)) = declared.all.split_first() else {
        return;
    };
    let mut earlier = first;
    for &block_ref in rest {
        if !involves_unreliable_block(module, &[earlier, block_ref]) {
            if let (Some(block), Some(earlier_block)) =
                (module.block(block_ref), module.block(earlier))
            {
                let earlier_location = Location::new(earlier.file, earlier_block.header);
                let (summary, detail) =
                    duplicate_wording(&declared.address, &module.describe(earlier_location));
                out.push(
                    Diagnostic::new(
                        crate::codes::DUPLICATE_BLOCK,
                        summary,
                        Location::new(block_ref.file, block.header),
                    )
                    .with_detail(detail)
                    .with_related(earlier_location, "first declared here"),
                );
            }
        }
        if keeps_last(&declared.address) {
            earlier = block_ref;
        }
    }
}

/// `duplicate-local` for every definition of a local value after the first,
/// each against the one before it (the last definition wins).
pub fn duplicate_locals_of(
    module: &LoadedModule,
    declared: &DeclaredLocal,
    out: &mut Vec<Diagnostic>,
) {
    for pair in declared.all.windows(2) {
        let [earlier, local_ref] = pair else { continue };
        if involves_unreliable_block(module, &[earlier.block, local_ref.block]) {
            continue;
        }
        let (Some(earlier_attr), Some(attr)) = (
            module
                .block(earlier.block)
                .and_then(|b| b.body.attributes.get(earlier.attr)),
            module
                .block(local_ref.block)
                .and_then(|b| b.body.attributes.get(local_ref.attr)),
        ) else {
            continue;
        };
        let earlier_location = Location::new(earlier.block.file, earlier_attr.range);
        out.push(
            Diagnostic::new(
                crate::codes::DUPLICATE_LOCAL,
                "Duplicate local value definition",
                Location::new(local_ref.block.file, attr.range),
            )
            .with_detail(format!(
                "A local value named \"{}\" was already defined at {}. Local value names must be unique within a module.",
                attr.name,
                module.describe(earlier_location)
            ))
            .with_related(earlier_location, "first defined here"),
        );
    }
}

/// How many top-level blocks `files` hold.
pub fn count_blocks(module: &LoadedModule, files: &[FileId]) -> usize {
    files
        .iter()
        .filter_map(|&id| module.file(id)?.source.as_ref())
        .map(|source| source.body.blocks.len())
        .sum()
}

/// True when one of the blocks may not be what OpenTofu reads: it lies in a
/// file with syntax errors, at or after the first of them (HCL's recovery
/// and ours may differ there). Blocks that end before the first error were
/// parsed whole, by OpenTofu too, so their duplicates are reported.
fn involves_unreliable_block(module: &LoadedModule, blocks: &[BlockRef]) -> bool {
    blocks.iter().any(|block_ref| {
        let Some(file) = module.file(block_ref.file) else {
            return true;
        };
        if file.read_error.is_some() {
            return true;
        }
        let Some(source) = &file.source else {
            return true;
        };
        let first_problem = source
            .errors
            .iter()
            .map(|error| error.range.start)
            .chain(source.unrecovered.iter().map(|range| range.start))
            .min();
        match (first_problem, module.block(*block_ref)) {
            (None, _) => false,
            (Some(first), Some(block)) => block.range.end > first,
            (Some(_), None) => true,
        }
    })
}

/// Phase 2: what the primary files of `loaded` declare, with the fate of
/// each primary block. Duplicates are reported per identity by
/// [`duplicates_of`] and [`duplicate_locals_of`].
pub fn declare(loaded: LoadedModule) -> DeclaredModule {
    let mut primary_fates = HashMap::default();
    let declarations = Declarations::collect(&loaded, &mut primary_fates);
    DeclaredModule {
        loaded,
        declarations: Arc::new(declarations),
        primary_fates: Arc::new(primary_fates),
    }
}

/// Why OpenTofu drops a top-level block while decoding it, if it does: an
/// unknown block type, the wrong number of labels, or a `provider` block
/// with an invalid local name.
pub fn drop_reason(block: &Block) -> Option<DropReason> {
    if top_level_labels(&block.kind).is_none() {
        Some(DropReason::UnknownBlockType)
    } else if !has_valid_labels(block) {
        Some(DropReason::WrongLabels)
    } else if is_dropped_provider(block) {
        Some(DropReason::InvalidProviderName)
    } else {
        None
    }
}

/// A `provider` block OpenTofu drops because of its local name
/// (`invalid-provider-local-name`).
pub fn is_dropped_provider(block: &Block) -> bool {
    block.kind == "provider"
        && block
            .label(0)
            .is_some_and(|name| !crate::names::is_kept_provider_name(name))
}

/// OpenTofu keeps the last of duplicate variables, outputs and module calls.
fn keeps_last(address: &BlockAddress) -> bool {
    matches!(
        address,
        BlockAddress::Variable(_) | BlockAddress::Output(_) | BlockAddress::Module(_)
    )
}

/// The identity of a top-level block with valid labels, if it has one.
pub fn address_of(block: &Block) -> Option<BlockAddress> {
    let first = || block.label(0).map(str::to_owned);
    Some(match block.kind.as_str() {
        "variable" => BlockAddress::Variable(first()?),
        "output" => BlockAddress::Output(first()?),
        "module" => BlockAddress::Module(first()?),
        "check" => BlockAddress::Check(first()?),
        "resource" => return resource_address(ResourceMode::Managed, block),
        "data" => return resource_address(ResourceMode::Data, block),
        "ephemeral" => return resource_address(ResourceMode::Ephemeral, block),
        "provider" => {
            let alias = match block.body.attribute("alias") {
                None => None,
                // An alias that is not a literal string has no identity we can judge.
                Some(attr) => Some(attr.expr.as_str()?.to_owned()),
            };
            BlockAddress::Provider {
                name: first()?,
                alias,
            }
        }
        _ => return None,
    })
}

/// The `data` block a `check` declares, by its index in the check's body:
/// the first one, when its labels are right (a second one is
/// invalid-check-block and never decoded).
pub fn checked_data(block: &Block) -> Option<(usize, BlockAddress)> {
    if block.kind != "check" {
        return None;
    }
    let (nested, data) = block
        .body
        .blocks
        .iter()
        .enumerate()
        .find(|(_, inner)| inner.kind == "data")?;
    if data.labels.len() != 2 {
        return None;
    }
    Some((nested, resource_address(ResourceMode::Data, data)?))
}

fn resource_address(mode: ResourceMode, block: &Block) -> Option<BlockAddress> {
    Some(BlockAddress::Resource {
        mode,
        type_name: block.label(0)?.to_owned(),
        name: block.label(1)?.to_owned(),
    })
}

fn duplicate_wording(address: &BlockAddress, at: &str) -> (String, String) {
    match address {
        BlockAddress::Variable(name) => (
            "Duplicate variable declaration".to_owned(),
            format!("A variable named \"{name}\" was already declared at {at}. Variable names must be unique within a module."),
        ),
        BlockAddress::Output(name) => (
            "Duplicate output definition".to_owned(),
            format!("An output named \"{name}\" was already defined at {at}. Output names must be unique within a module."),
        ),
        BlockAddress::Module(name) => (
            "Duplicate module call".to_owned(),
            format!("A module call named \"{name}\" was already defined at {at}. Module calls must have unique names within a module."),
        ),
        BlockAddress::Check(name) => (
            format!("Duplicate check \"{name}\" configuration"),
            format!("A check block named \"{name}\" was already defined at {at}. Check blocks must have unique names within a module."),
        ),
        BlockAddress::Resource { mode, type_name, name } => {
            let (kind, noun) = match mode {
                ResourceMode::Managed => ("resource", "resource"),
                ResourceMode::Data => ("data", "data resource"),
                ResourceMode::Ephemeral => ("ephemeral resource", "ephemeral resource"),
            };
            (
                format!("Duplicate {kind} \"{type_name}\" configuration"),
                format!("A {type_name} {noun} named \"{name}\" was already declared at {at}. Resource names must be unique per type in each module."),
            )
        }
        BlockAddress::Provider { name, alias: None } => (
            "Duplicate provider configuration".to_owned(),
            format!("A default (non-aliased) provider configuration for \"{name}\" was already given at {at}. If multiple configurations are required, set the \"alias\" argument for alternative configurations."),
        ),
        BlockAddress::Provider { name, alias: Some(alias) } => (
            "Duplicate provider configuration".to_owned(),
            format!("A provider configuration for \"{name}\" with alias \"{alias}\" was already given at {at}. Each configuration for the same provider must have a distinct alias."),
        ),
    }
}

/// What OpenTofu makes of one top-level block of a loaded file (or of a
/// `data` block nested in a `check`). Hover and the rules read this instead of
/// deciding it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockFate {
    /// A primary block OpenTofu keeps as the declaration of its identity.
    Declared,
    /// A primary block declaring an identity again: OpenTofu reports it and
    /// keeps `kept` (the first one, or the last for variables, outputs and
    /// module calls).
    Duplicate { kept: BlockRef },
    /// A primary block without an identity that OpenTofu accumulates
    /// (`terraform`, `language`, `locals`, `moved`, `import`, `removed`).
    Accumulated,
    /// An override block merged into the effective block of `target`.
    Overrides { target: BlockAddress },
    /// An override block merged into the module's settings or locals
    /// (`terraform`, `locals`).
    MergedInto,
    /// An override block with nothing to override.
    NoBase,
    /// A block type OpenTofu refuses in override files (`language`, `check`,
    /// `moved`, `import`, `removed`).
    ForbiddenInOverride,
    /// Dropped while decoding: nothing of it is declared or merged.
    Dropped(DropReason),
}

/// Why OpenTofu dropped a block while decoding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// Not a top-level block type.
    UnknownBlockType,
    /// The wrong number of labels for its type.
    WrongLabels,
    /// A `provider` block whose local name is invalid or not normalised.
    InvalidProviderName,
}

/// Phase 2: the loaded module and what its primary files declare.
#[derive(Debug)]
pub struct DeclaredModule {
    pub loaded: LoadedModule,
    /// Shared with the analysis before an edit that kept every file's shape.
    pub declarations: Arc<Declarations>,
    /// The fate of every top-level block of the primary files (and of the
    /// `data` block a `check` declares).
    pub primary_fates: Arc<HashMap<BlockRef, BlockFate>>,
}

impl Deref for DeclaredModule {
    type Target = LoadedModule;

    fn deref(&self) -> &LoadedModule {
        &self.loaded
    }
}

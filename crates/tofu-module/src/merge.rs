//! Override merging (`merging.md`): primary declarations become effective
//! blocks, then each override file is applied in loading order, block by block.
//!
//! The general rule (§3) replaces attributes by name and nested blocks by type
//! (`dynamic "x"` counts as `x`), one level deep; the per-type rules of §6 decide
//! which arguments are copied, ignored (`override-ineffective`) or refused
//! (`override-depends-on`, `override-forbidden-block`). Terraform settings have
//! their own module, [`crate::terraform`]. Nothing here evaluates expressions.

use std::ops::Deref;
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;
use tofu_syntax::{Attribute, Block, Diagnostic, Expr, ExprKind, FileId, Fix, Location, TextRange};

use crate::address::BlockAddress;
use crate::declarations::{address_of, LocalRef};
use crate::declarations::{count_blocks, drop_reason};
use crate::declarations::{BlockFate, DeclaredModule};
use crate::effective::*;
use crate::expr::content::StringContent;
use crate::expr::suggest::{did_you_mean, did_you_mean_by};
use crate::expr::traversal::parse_traversal;
use crate::loaded::BlockRef;
use crate::store::FileStore;
use crate::terraform;

/// Phase 3: the declared module and its effective configuration.
#[derive(Debug)]
pub struct MergedModule {
    pub declared: DeclaredModule,
    pub effective: EffectiveModule,
    /// The fate of every top-level block of the override files.
    pub override_fates: Arc<HashMap<BlockRef, BlockFate>>,
}

impl MergedModule {
    /// What OpenTofu makes of a block; `None` for a block of a file it does
    /// not load, or one it never reads (a `check`'s second `data` block).
    pub fn fate(&self, block: BlockRef) -> Option<&BlockFate> {
        self.declared
            .primary_fates
            .get(&block)
            .or_else(|| self.override_fates.get(&block))
    }
}

impl Deref for MergedModule {
    type Target = DeclaredModule;

    fn deref(&self) -> &DeclaredModule {
        &self.declared
    }
}

/// What each override block is to the merge. It is decided by the kinds,
/// labels and local names of the module's blocks alone (what
/// `incremental` calls a file's shape), so an edit that keeps every file's
/// shape keeps the plan, and merging can be redone for one identity.
#[derive(Debug, Default)]
pub struct OverridePlan {
    /// The fate of every top-level block of the override files.
    pub fates: Arc<HashMap<BlockRef, BlockFate>>,
    /// The override blocks merged into each identity, in loading order.
    targets: HashMap<BlockAddress, Vec<BlockRef>>,
    /// Default provider configurations that only override files write, in
    /// the order they are first written.
    introduced: Vec<BlockAddress>,
    /// The override entries of each local value, in loading order.
    local_overrides: HashMap<String, Vec<LocalRef>>,
    /// Override blocks with nothing to override.
    no_base: Vec<(BlockRef, BlockAddress)>,
}

impl OverridePlan {
    /// Classifies every override block of `module`.
    pub fn new(module: &DeclaredModule) -> OverridePlan {
        let mut plan = OverridePlan::default();
        let n_blocks = count_blocks(module, &module.overrides);
        let mut fates = HashMap::with_capacity_and_hasher(n_blocks, Default::default());
        for (block_ref, block) in module.top_level_blocks(&module.overrides) {
            if let Some(reason) = drop_reason(block) {
                fates.insert(block_ref, BlockFate::Dropped(reason));
                continue;
            }
            let fate = match block.kind.as_str() {
                "language" | "check" | "moved" | "import" | "removed" => {
                    BlockFate::ForbiddenInOverride
                }
                "locals" => {
                    for (attr, written) in block.body.attributes.iter().enumerate() {
                        if module.declarations.local(&written.name).is_some() {
                            plan.local_overrides
                                .entry(written.name.clone())
                                .or_default()
                                .push(LocalRef {
                                    block: block_ref,
                                    attr,
                                });
                        }
                    }
                    BlockFate::MergedInto
                }
                "terraform" => BlockFate::MergedInto,
                _ => {
                    let Some(address) = address_of(block) else {
                        continue;
                    };
                    plan.classify(module, block_ref, address)
                }
            };
            fates.insert(block_ref, fate);
        }
        plan.fates = Arc::new(fates);
        plan
    }

    fn classify(
        &mut self,
        module: &DeclaredModule,
        block_ref: BlockRef,
        address: BlockAddress,
    ) -> BlockFate {
        let exists =
            module.declarations.get(&address).is_some() || self.introduced.contains(&address);
        if !exists {
            if !matches!(address, BlockAddress::Provider { alias: None, .. }) {
                self.no_base.push((block_ref, address));
                return BlockFate::NoBase;
            }
            // An override may introduce a default provider configuration:
            // an absent one counts as empty.
            self.introduced.push(address.clone());
        }
        self.targets
            .entry(address.clone())
            .or_default()
            .push(block_ref);
        BlockFate::Overrides { target: address }
    }

    /// Every identity of the effective configuration: the declarations in
    /// order, then the provider configurations only overrides introduce.
    pub fn identities<'m>(
        &'m self,
        module: &'m DeclaredModule,
    ) -> impl Iterator<Item = (&'m BlockAddress, Option<BlockRef>)> + 'm {
        let declared = module
            .declarations
            .blocks
            .iter()
            .map(|declared| (&declared.address, Some(declared.kept)));
        declared.chain(self.introduced.iter().map(|address| (address, None)))
    }

    /// The override blocks merged into an identity, in loading order.
    /// The override definitions of local value `name`, in loading order
    /// (the last one is the effective definition).
    pub fn local_overrides_of(&self, name: &str) -> &[LocalRef] {
        self.local_overrides.get(name).map_or(&[], Vec::as_slice)
    }

    pub fn overrides_of(&self, address: &BlockAddress) -> &[BlockRef] {
        self.targets.get(address).map_or(&[][..], Vec::as_slice)
    }

    /// The base of an identity (`None` for one only overrides introduce),
    /// or nothing when the merged configuration has no such identity.
    pub fn base_of(
        &self,
        module: &DeclaredModule,
        address: &BlockAddress,
    ) -> Option<Option<BlockRef>> {
        match module.declarations.get(address) {
            Some(declared) => Some(Some(declared.kept)),
            None => self.introduced.contains(address).then_some(None),
        }
    }
}

/// The effective block of one identity: its base (`None` for a default
/// provider configuration only overrides introduce) with every override
/// block of the plan applied in loading order. What merging reports goes
/// into `out`; it depends on the base and these override blocks alone.
pub fn merge_identity(
    module: &DeclaredModule,
    plan: &OverridePlan,
    store: &mut FileStore,
    address: &BlockAddress,
    base: Option<BlockRef>,
    out: &mut Vec<Diagnostic>,
) -> Option<EffectiveBlock> {
    let overrides = plan.targets.get(address).map_or(&[][..], Vec::as_slice);
    let (shape_ref, body) = match base {
        Some(kept) => {
            let block = module.block(kept)?;
            (kept, as_written_body(module, store, kept, block))
        }
        None => (*overrides.first()?, Arc::new(EffectiveBody::default())),
    };
    let shape = module.block(shape_ref)?;
    let mut effective = EffectiveBlock {
        address: address.clone(),
        kind: shape.kind.clone(),
        labels: shape.labels.iter().map(|l| l.value.clone()).collect(),
        base,
        overrides: Vec::with_capacity(overrides.len()),
        body,
        references: Arc::default(),
    };
    let base_header = base.and_then(|kept| {
        module
            .block(kept)
            .map(|block| Location::new(kept.file, block.header))
    });
    for &override_ref in overrides {
        let Some(block) = module.block(override_ref) else {
            continue;
        };
        let mut merger = Merger {
            module,
            file: override_ref.file,
            out: &mut *out,
        };
        merger.apply(Arc::make_mut(&mut effective.body), block, base_header);
        effective.overrides.push(override_ref);
    }
    Some(effective)
}

/// The effective value of one local value: its kept definition with the
/// plan's override entries applied in loading order.
pub fn merge_local(
    module: &DeclaredModule,
    plan: &OverridePlan,
    name: &str,
) -> Option<EffectiveLocal> {
    let declared = module.declarations.local(name)?;
    let attr = local_attribute(module, declared.kept)?;
    let mut local = EffectiveLocal {
        name: declared.name.clone(),
        base: declared.kept,
        overrides: Vec::new(),
        attribute: EffectiveAttribute::as_written(declared.kept.block.file, attr),
        references: Arc::default(),
    };
    for &local_ref in plan.local_overrides.get(name).into_iter().flatten() {
        let Some(attr) = local_attribute(module, local_ref) else {
            continue;
        };
        let mut new = EffectiveAttribute::as_written(local_ref.block.file, attr);
        let mut superseded = std::mem::take(&mut local.attribute.superseded);
        superseded.push(local.attribute.origin);
        new.superseded = superseded;
        local.attribute = new;
        local.overrides.push(local_ref);
    }
    Some(local)
}

/// What merging reports on one override file that depends on that file
/// alone (and on which identities and local values exist): block types
/// refused in overrides, `validation`/`precondition`/`postcondition` inside
/// override blocks, local values with nothing to override.
pub fn override_file_diagnostics(
    module: &DeclaredModule,
    file_id: FileId,
    out: &mut Vec<Diagnostic>,
) {
    let Some(source) = module.file(file_id).and_then(|file| file.source.as_ref()) else {
        return;
    };
    let mut merger = Merger {
        module,
        file: file_id,
        out,
    };
    for block in &source.body.blocks {
        if drop_reason(block).is_some() {
            continue;
        }
        match block.kind.as_str() {
            "language" | "check" | "moved" | "import" | "removed" => merger.forbidden(block),
            "locals" => merger.missing_locals(block),
            "terraform" => {}
            _ => merger.forbidden_nested_blocks(block),
        }
    }
}

/// What merging reports that depends on the whole module: override blocks
/// with nothing to override (their "Did you mean" reads every declaration).
pub fn no_base_diagnostics(
    module: &DeclaredModule,
    plan: &OverridePlan,
    out: &mut Vec<Diagnostic>,
) {
    if module.declarations.incomplete {
        return;
    }
    for (block_ref, address) in &plan.no_base {
        let Some(block) = module.block(*block_ref) else {
            continue;
        };
        Merger {
            module,
            file: block_ref.file,
            out: &mut *out,
        }
        .missing_base(address, block);
    }
}

/// The synthesized `terraform` view: the primary files' blocks, then each
/// override file's, in loading order.
pub fn merge_terraform(module: &DeclaredModule, out: &mut Vec<Diagnostic>) -> EffectiveTerraform {
    let mut view = terraform::collect_primary(module, out);
    for &file_id in &module.overrides {
        if module
            .file(file_id)
            .and_then(|file| file.source.as_ref())
            .is_none()
        {
            continue;
        }
        let blocks: Vec<(BlockRef, &Block)> = module
            .top_level_blocks(std::slice::from_ref(&file_id))
            .filter(|(_, block)| block.kind == "terraform" && drop_reason(block).is_none())
            .collect();
        terraform::apply_override_file(module, file_id, &blocks, &mut view, out);
    }
    view
}

/// The as-written body of a declared block, shared from the file store for
/// top-level blocks (a `data` block nested in a `check` is built on the spot).
fn as_written_body(
    module: &DeclaredModule,
    store: &mut FileStore,
    block_ref: BlockRef,
    block: &Block,
) -> Arc<EffectiveBody> {
    let file = module.file(block_ref.file);
    let cached = match (block_ref.nested, file, file.and_then(|f| f.source.as_ref())) {
        (None, Some(file), Some(source)) => store
            .block_bodies(&file.name, &file.text, block_ref.file, source)
            .get(block_ref.index)
            .cloned(),
        _ => None,
    };
    cached.unwrap_or_else(|| Arc::new(EffectiveBody::as_written(block_ref.file, &block.body)))
}

fn local_attribute(module: &DeclaredModule, local: LocalRef) -> Option<&Attribute> {
    module.block(local.block)?.body.attributes.get(local.attr)
}

/// General rule 2: the override's blocks of one type replace every base block
/// of that type, `dynamic` ones included. `removed` are the origins of base
/// items of that name already taken out (a JSON property written for them).
fn replace_nested_blocks(
    body: &mut EffectiveBody,
    merge_kind: &str,
    mut removed: Vec<Origin>,
    replacements: Vec<EffectiveNestedBlock>,
) {
    removed.extend(remove_nested_blocks(body, merge_kind));
    for (i, mut block) in replacements.into_iter().enumerate() {
        if i == 0 {
            block.superseded = std::mem::take(&mut removed);
        }
        body.blocks.push(block);
    }
}

/// Takes every nested block of `merge_kind` (`dynamic` ones included) out of
/// `body`, returning where they and what they had replaced came from.
fn remove_nested_blocks(body: &mut EffectiveBody, merge_kind: &str) -> Vec<Origin> {
    let mut removed = Vec::new();
    body.blocks.retain(|block| {
        if block.merge_kind() == merge_kind {
            removed.extend(block.superseded.iter().copied());
            removed.push(block.origin);
            false
        } else {
            true
        }
    });
    removed
}

/// True when a JSON value can stand for nested blocks: an object (one block)
/// or a non-empty array of objects (one block each). JSON has no block syntax,
/// so without a provider schema such a property is read as an attribute; an
/// empty array stands for no blocks at all and so replaces nothing.
fn json_value_is_blocks(value: &Expr) -> bool {
    match &value.kind {
        ExprKind::Object(_) => true,
        ExprKind::Array(items) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|item| matches!(item.kind, ExprKind::Object(_)))
        }
        _ => false,
    }
}

/// The nested-block types OpenTofu refuses in an override block, and its wording.
fn forbidden_nested(kind: &str) -> Option<(&'static str, &'static str)> {
    match kind {
        "validation" => Some((
            "Can't override validation blocks",
            "Override blocks cannot specify additional validation criteria.",
        )),
        "precondition" => Some((
            "Can't override precondition blocks",
            "Override blocks cannot specify additional preconditions.",
        )),
        "postcondition" => Some((
            "Can't override postcondition blocks",
            "Override blocks cannot specify additional postconditions.",
        )),
        _ => None,
    }
}

struct Merger<'a, 'o> {
    module: &'a DeclaredModule,
    file: FileId,
    out: &'o mut Vec<Diagnostic>,
}

impl Merger<'_, '_> {
    fn location(&self, range: TextRange) -> Location {
        Location::new(self.file, range)
    }

    /// A fix that deletes `range` (widened to whole lines where possible).
    fn removal(&self, title: String, range: TextRange) -> Fix {
        let range = self
            .module
            .file(self.file)
            .map_or(range, |file| file.removal_range(range));
        Fix::new(title).with_edit(self.file, range, "")
    }

    /// `language`, `check`, `moved`, `import`, `removed` in an override file.
    fn forbidden(&mut self, block: &Block) {
        let (summary, detail) = match block.kind.as_str() {
            "language" => (
                "Language selections in override file",
                "Language-related settings in \"language\" blocks are not allowed in override files. Place these settings in a normal configuration file.",
            ),
            "check" => ("Can't override check blocks", "Override files cannot override check blocks."),
            "moved" => (
                "Cannot override 'moved' blocks",
                "Records of moved objects can appear only in normal files, not in override files.",
            ),
            "import" => (
                "Cannot override 'import' blocks",
                "Import blocks can appear only in normal files, not in override files.",
            ),
            _ => (
                "Cannot override 'Removed' blocks",
                "Removed blocks can appear only in normal files, not in override files.",
            ),
        };
        self.out.push(
            Diagnostic::new(
                crate::codes::OVERRIDE_FORBIDDEN_BLOCK,
                summary,
                self.location(block.header),
            )
            .with_detail(detail)
            .with_fix(self.removal(
                format!("Remove the {} block from the override file", block.kind),
                block.range,
            )),
        );
    }

    /// `validation`/`precondition`/`postcondition` inside an override block,
    /// reported whether or not the block has a base (OpenTofu refuses them while
    /// decoding the override).
    fn forbidden_nested_blocks(&mut self, block: &Block) {
        let lifecycle_kinds = ["resource", "data", "ephemeral"];
        let mut candidates: Vec<&Block> = block.body.blocks.iter().collect();
        if lifecycle_kinds.contains(&block.kind.as_str()) {
            for lifecycle in block.body.blocks_of_kind("lifecycle") {
                candidates.extend(lifecycle.body.blocks.iter());
            }
        }
        for nested in candidates {
            let applies = match (block.kind.as_str(), nested.kind.as_str()) {
                ("variable", "validation") => true,
                ("output", "precondition") => true,
                (_, "precondition" | "postcondition") => {
                    lifecycle_kinds.contains(&block.kind.as_str())
                }
                _ => false,
            };
            if let (true, Some((summary, detail))) = (applies, forbidden_nested(&nested.kind)) {
                self.out.push(
                    Diagnostic::new(
                        crate::codes::OVERRIDE_FORBIDDEN_BLOCK,
                        summary,
                        self.location(nested.header),
                    )
                    .with_detail(detail)
                    .with_fix(self.removal(
                        format!("Remove the {} block from the override", nested.kind),
                        nested.range,
                    )),
                );
            }
        }
    }

    fn ineffective(
        &mut self,
        range: tofu_syntax::TextRange,
        summary: &str,
        detail: &str,
        stays: Option<Origin>,
    ) {
        let mut diagnostic = Diagnostic::new(
            crate::codes::OVERRIDE_INEFFECTIVE,
            summary,
            self.location(range),
        )
        .with_detail(detail);
        if let Some(origin) = stays {
            diagnostic = diagnostic.with_related(
                Location::new(origin.file, origin.range),
                "the value that stays in effect",
            );
        }
        self.out.push(diagnostic);
    }

    /// `override-missing-base` for the entries of an override `locals`
    /// block that no primary file defines.
    fn missing_locals(&mut self, block: &Block) {
        if self.module.declarations.incomplete {
            return;
        }
        for attr in &block.body.attributes {
            if self.module.declarations.local(&attr.name).is_some() {
                continue;
            }
            let names = self
                .module
                .declarations
                .locals
                .iter()
                .map(|l| l.name.as_str());
            let mut detail = format!(
                "There is no local value named \"{}\". An override file can only override a local value that was already defined in a primary configuration file.",
                attr.name
            );
            if let Some(near) = did_you_mean(&attr.name, names) {
                detail.push_str(&format!(" Did you mean \"{near}\"?"));
            }
            self.out.push(
                Diagnostic::new(
                    crate::codes::OVERRIDE_MISSING_BASE,
                    "Missing base local value definition to override",
                    self.location(attr.range),
                )
                .with_detail(detail),
            );
        }
    }

    fn missing_base(&mut self, address: &BlockAddress, block: &Block) {
        let (summary, detail) = match address {
            BlockAddress::Variable(name) => (
                "Missing base variable declaration to override",
                format!("There is no variable named \"{name}\". An override file can only override a variable that was already declared in a primary configuration file."),
            ),
            BlockAddress::Output(name) => (
                "Missing base output definition to override",
                format!("There is no output named \"{name}\". An override file can only override an output that was already defined in a primary configuration file."),
            ),
            BlockAddress::Module(name) => (
                "Missing module call to override",
                format!("There is no module call named \"{name}\". An override file can only override a module call that was defined in a primary configuration file."),
            ),
            BlockAddress::Resource { mode, type_name, name } => match mode {
                crate::ResourceMode::Managed => (
                    "Missing resource to override",
                    format!("There is no {type_name} resource named \"{name}\". An override file can only override a resource block defined in a primary configuration file."),
                ),
                crate::ResourceMode::Data => (
                    "Missing data resource to override",
                    format!("There is no {type_name} data resource named \"{name}\". An override file can only override a data block defined in a primary configuration file."),
                ),
                crate::ResourceMode::Ephemeral => (
                    "Missing ephemeral resource to override",
                    format!("There is no {type_name} ephemeral resource named \"{name}\". An override file can only override an ephemeral block defined in a primary configuration file."),
                ),
            },
            BlockAddress::Provider { name, alias } => (
                "Missing base provider configuration for override",
                format!(
                    "There is no {name} provider configuration with the alias \"{}\". An override file can only override an aliased provider configuration that was already defined in a primary configuration file.",
                    alias.as_deref().unwrap_or_default()
                ),
            ),
            BlockAddress::Check(_) => return,
        };
        let mut diagnostic = Diagnostic::new(
            crate::codes::OVERRIDE_MISSING_BASE,
            summary,
            self.location(block.header),
        );
        let mut detail = detail;
        let same_kind = self
            .module
            .declarations
            .blocks
            .iter()
            .filter(|declared| same_kind(&declared.address, address));
        if let Some(near) = did_you_mean_by(&address.to_string(), same_kind, |declared| {
            declared.address.to_string()
        }) {
            detail.push_str(&format!(" Did you mean {}?", near.address));
            if let Some(near_block) = self.module.block(near.kept) {
                diagnostic = diagnostic.with_related(
                    Location::new(near.kept.file, near_block.header),
                    "a similar declaration",
                );
            }
        }
        self.out.push(diagnostic.with_detail(detail));
    }

    /// Applies one override block to its target (merging.md §3 and §6).
    fn apply(&mut self, body: &mut EffectiveBody, block: &Block, base_header: Option<Location>) {
        let kind = block.kind.as_str();
        let aliased = block.body.attribute("alias").is_some();
        for attr in &block.body.attributes {
            let stays = body.attribute(&attr.name).map(|a| a.origin);
            match (kind, attr.name.as_str()) {
                ("output" | "module" | "resource" | "data" | "ephemeral", "depends_on") => {
                    self.depends_on(attr, base_header);
                }
                ("output", "description") if attr.expr.as_str() == Some("") => self.ineffective(
                    attr.range,
                    "Empty description in an override has no effect",
                    "OpenTofu treats an empty output description in an override as not set: the base description stays.",
                    stays,
                ),
                ("output" | "variable", "deprecated") if attr.expr.as_str().is_some_and(|s| s.trim().is_empty()) => {}
                ("module", "providers") if attr.expr.as_object().is_some_and(<[_]>::is_empty) => self.ineffective(
                    attr.range,
                    "Empty providers map in an override has no effect",
                    "OpenTofu treats an empty providers map in an override as not set: the base block's providers stay.",
                    stays,
                ),
                ("provider", "for_each") if aliased => self.ineffective(
                    attr.range,
                    "for_each in a provider override has no effect",
                    "OpenTofu does not copy for_each from an override of an aliased provider configuration.",
                    stays,
                ),
                ("provider", "for_each") => {}
                // The alias is the override's identity (equal to the base's), not a change.
                ("provider", "alias") => {}
                _ => {
                    let mut new = EffectiveAttribute::as_written(self.file, attr);
                    // merging.md §3 rule 2 across syntaxes: a JSON property
                    // holding bodies replaces the base's native blocks of that
                    // type, as the blocks it stands for would.
                    if self.is_json() && json_value_is_blocks(&attr.expr) {
                        new.superseded = remove_nested_blocks(body, &attr.name);
                    }
                    body.replace_attribute(new);
                }
            }
        }
        let mut seen_kinds: Vec<String> = Vec::new();
        for nested in &block.body.blocks {
            let merge_kind = match (nested.kind.as_str(), nested.labels.first()) {
                ("dynamic", Some(label)) => label.value.clone(),
                (nested_kind, _) => nested_kind.to_owned(),
            };
            match (kind, merge_kind.as_str()) {
                (_, "validation" | "precondition" | "postcondition") => continue,
                ("resource" | "data" | "ephemeral" | "module", "lifecycle")
                    if nested.kind == "lifecycle" =>
                {
                    self.lifecycle(body, kind, nested);
                    continue;
                }
                (_, "_") => {
                    self.escape_block(body, nested);
                    continue;
                }
                _ => {}
            }
            if seen_kinds.contains(&merge_kind) {
                continue;
            }
            let replacements: Vec<EffectiveNestedBlock> = block
                .body
                .blocks
                .iter()
                .filter(|b| match (b.kind.as_str(), b.labels.first()) {
                    ("dynamic", Some(label)) => label.value == merge_kind,
                    (other, _) => other == merge_kind,
                })
                .map(|b| EffectiveNestedBlock::as_written(self.file, b))
                .collect();
            let json_properties = self.remove_json_block_properties(body, &merge_kind);
            replace_nested_blocks(body, &merge_kind, json_properties, replacements);
            seen_kinds.push(merge_kind);
        }
    }

    /// A `depends_on` element's range as OpenTofu gives it: a quoted
    /// reference's traversal inside the quotes (in JSON, one byte to the left,
    /// as HCL maps it), anything else whole.
    fn quoted_reference_range(&self, item: &Expr) -> TextRange {
        let Some(file) = self.module.file(self.file) else {
            return item.range;
        };
        let Some(content) = StringContent::of(&file.text, item) else {
            return item.range;
        };
        let Some(range) = parse_traversal(&content.value).range() else {
            return item.range;
        };
        if file.is_json() {
            // HCL's JSON parser counts content offsets from the opening quote.
            let shifted = range.shifted(item.range.start);
            TextRange::new(shifted.start, shifted.end.min(item.range.end))
        } else {
            content.map(range)
        }
    }

    fn is_json(&self) -> bool {
        self.module
            .file(self.file)
            .is_some_and(|file| file.is_json())
    }

    /// merging.md §3 rule 2 across syntaxes: override blocks of type X replace
    /// a base JSON property X that holds bodies (JSON has no block syntax, so
    /// the property stands for the base's X blocks). Returns what was removed.
    fn remove_json_block_properties(
        &self,
        body: &mut EffectiveBody,
        merge_kind: &str,
    ) -> Vec<Origin> {
        let mut removed = Vec::new();
        body.attributes.retain(|attr| {
            let stands_for_blocks = attr.name == merge_kind
                && self.module.file(attr.origin.file).is_some_and(|file| {
                    file.is_json()
                        && file
                            .attribute_at(attr.origin.range)
                            .is_some_and(|written| json_value_is_blocks(&written.expr))
                });
            if stands_for_blocks {
                removed.extend(attr.superseded.iter().copied());
                removed.push(attr.origin);
            }
            !stands_for_blocks
        });
        removed
    }

    fn depends_on(&mut self, attr: &Attribute, base_header: Option<Location>) {
        let subject = match &attr.expr.kind {
            ExprKind::Array(items) if items.is_empty() => {
                self.ineffective(
                    attr.range,
                    "Empty depends_on in an override has no effect",
                    "OpenTofu treats an empty depends_on list in an override as not set: the base block's dependencies stay.",
                    None,
                );
                return;
            }
            ExprKind::Array(items) => items
                .iter()
                .find(|item| matches!(item.kind, ExprKind::Traversal(_) | ExprKind::String(_)))
                .or(items.first())
                .map_or(attr.expr.range, |item| self.quoted_reference_range(item)),
            _ => attr.expr.range,
        };
        let mut diagnostic = Diagnostic::new(
            crate::codes::OVERRIDE_DEPENDS_ON,
            "Unsupported override",
            self.location(subject),
        )
        .with_detail("The depends_on argument may not be overridden.")
        .with_fix(
            self.removal("Remove depends_on from the override".to_owned(), attr.range)
                .safe(),
        );
        if let Some(base) = base_header {
            diagnostic = diagnostic.with_related(base, "the block this override changes");
        }
        self.out.push(diagnostic);
    }

    /// `_ { … }` holds ordinary body arguments whose names collide with
    /// meta-arguments: they merge into the base's escape block by name.
    fn escape_block(&mut self, body: &mut EffectiveBody, nested: &Block) {
        let position = body.blocks.iter().position(|b| b.kind == "_");
        let escape = match position.and_then(|i| body.blocks.get_mut(i)) {
            Some(escape) => escape,
            None => {
                let mut fresh = EffectiveNestedBlock::as_written(self.file, nested);
                fresh.body.attributes.clear();
                body.blocks.push(fresh);
                let Some(last) = body.blocks.last_mut() else {
                    return;
                };
                last
            }
        };
        for attr in &nested.body.attributes {
            escape
                .body
                .replace_attribute(EffectiveAttribute::as_written(self.file, attr));
        }
    }

    /// A `lifecycle` block is merged argument by argument (merging.md §6.4–6.7).
    fn lifecycle(&mut self, body: &mut EffectiveBody, kind: &str, nested: &Block) {
        let existing = body.blocks.iter().position(|b| b.kind == "lifecycle");
        for attr in &nested.body.attributes {
            let base_lifecycle = existing.and_then(|i| body.blocks.get(i));
            let stays = base_lifecycle
                .and_then(|l| l.body.attribute(&attr.name))
                .map(|a| a.origin);
            let copied = match (kind, attr.name.as_str()) {
                ("resource", "create_before_destroy" | "prevent_destroy" | "destroy") => true,
                ("resource", "ignore_changes") => match &attr.expr.kind {
                    ExprKind::Array(items) if items.is_empty() => {
                        self.ineffective(
                            attr.range,
                            "Empty ignore_changes in an override has no effect",
                            "OpenTofu treats an empty ignore_changes list in an override as not set: the base block's setting stays.",
                            stays,
                        );
                        false
                    }
                    ExprKind::Array(_) => {
                        let base_is_all = base_lifecycle
                            .and_then(|l| l.body.attribute("ignore_changes"))
                            .is_some_and(|a| self.is_keyword_all(a));
                        if base_is_all {
                            self.ineffective(
                                attr.range,
                                "ignore_changes = all cannot be undone by an override",
                                "The base block ignores changes to all attributes; OpenTofu keeps that whatever list an override gives.",
                                stays,
                            );
                        }
                        !base_is_all
                    }
                    _ => true,
                },
                (_, "enabled") => {
                    self.ineffective(
                        attr.range,
                        "lifecycle \"enabled\" in an override has no effect",
                        "OpenTofu does not copy \"enabled\" from an override's lifecycle block: the base block's setting stays.",
                        stays,
                    );
                    false
                }
                ("resource", "replace_triggered_by") => {
                    self.ineffective(
                        attr.range,
                        "replace_triggered_by in an override has no effect",
                        "OpenTofu does not copy replace_triggered_by from an override's lifecycle block: the base block's setting stays.",
                        stays,
                    );
                    false
                }
                // Anything else is refused in every file (diagnostics.md §4.1).
                _ => false,
            };
            if !copied {
                continue;
            }
            let index =
                match existing.or_else(|| body.blocks.iter().position(|b| b.kind == "lifecycle")) {
                    Some(index) => index,
                    None => {
                        let mut fresh = EffectiveNestedBlock::as_written(self.file, nested);
                        fresh.body = EffectiveBody::default();
                        body.blocks.push(fresh);
                        body.blocks.len() - 1
                    }
                };
            if let Some(lifecycle) = body.blocks.get_mut(index) {
                lifecycle
                    .body
                    .replace_attribute(EffectiveAttribute::as_written(self.file, attr));
            }
        }
    }

    fn is_keyword_all(&self, attr: &EffectiveAttribute) -> bool {
        let Some(file) = self.module.file(attr.origin.file) else {
            return false;
        };
        let text = attr.value.slice(&file.text).trim();
        text == "all" || (file.is_json() && text == "\"all\"")
    }
}

fn same_kind(a: &BlockAddress, b: &BlockAddress) -> bool {
    match (a, b) {
        (BlockAddress::Resource { mode: m1, .. }, BlockAddress::Resource { mode: m2, .. }) => {
            m1 == m2
        }
        (BlockAddress::Provider { .. }, BlockAddress::Provider { .. }) => true,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

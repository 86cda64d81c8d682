//! The calls `tofu validate` makes to a provider's own validators
//! (`ValidateResourceConfig`, `ValidateDataResourceConfig`,
//! `ValidateEphemeralResourceConfig`, `ValidateProviderConfig`), worked out
//! from an analysis: for each resource, data source, ephemeral resource
//! and provider configuration whose provider's schema the analysis was
//! given, the configuration value as OpenTofu's `EvaluateBlock` builds it
//! at validate time, written as the plugin protocol's msgpack, with what it
//! takes to place the provider's answers ([`BodyPlaces`]). The engine makes
//! no call: the caller sends them (through `tofu-schema`'s pool) and turns
//! the answers into diagnostics with [`ValidatorCall::diagnostic`].
//!
//! The value (OpenTofu 1.12.6's `node_resource_validate.go`,
//! `node_provider.go`): each argument the schema has, evaluated with every
//! reference unknown (input variables, resources, `count.index` and
//! `each.key` as validate stubs them, ...) but `path.module`,
//! `path.root` and local values (their values in validate's walk,
//! [`ModuleAnalysis::walk_locals`]), converted to the argument's type; an argument not set is
//! null; nested blocks as the nesting says (an absent single block null, a
//! group block's attributes null, empty collections); a block type made by
//! a `dynamic` block is unknown. An attribute of a list or set of objects
//! written as blocks (`blocktoattr`) is the list of their objects; a
//! block where a `dynamic` block writes one is not sent. Meta-arguments and meta-blocks are left
//! out.
//!
//! Which blocks are sent, as validate reaches them: none when a phase
//! before the walk reported an error (OpenTofu builds no graph); a block is
//! not sent when an error lies in it (its static checks failed:
//! `EvaluateBlock` or an earlier check stopped it), when it refers to a
//! resource that is not sent for that reason, when the provider
//! configuration it uses has an error, or when it refers to an input
//! variable or local value with an error in its declaration. A provider configuration
//! of meta-arguments alone is not validated. A block written in a JSON
//! file is sent with its values read as HCL's JSON syntax evaluates them
//! (strings are templates), its diagnostics placed on the JSON values and
//! its missing items on the body's closing `}`; not one with a nested
//! block of the schema (a JSON property the rules decode), nor one whose
//! value does not evaluate or convert.

mod places;

use std::collections::{BTreeMap, BTreeSet};

use tofu_eval::{evaluate, Environment, EvalDiagnostic, Reference, Referenced, Scope, Type, Value};
use tofu_schema::plugin::messages::{DiagnosticSeverity, ProviderDiagnostic};
use tofu_schema::plugin::DynamicValue;
use tofu_schema::requirements::{implied_local_name, is_built_in};
use tofu_schema::{Block as SchemaBlock, Nesting, ProviderAddress};
use tofu_syntax::{
    Attribute, Block, Diagnostic, ExprKind, FileId, Location, Severity, TextRange, TraversalStep,
};

use crate::analysis::ModuleAnalysis;
use crate::rules::provider_schema::{
    element_schema, for_display, schema_mode, PROVIDER_META_ARGUMENTS, PROVIDER_META_BLOCKS,
    RESOURCE_META_ARGUMENTS, RESOURCE_META_BLOCKS,
};
pub use places::BodyPlaces;
use places::{AttributePlaces, BlockPlaces};
use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::effective::{EffectiveBlock, EffectiveBody};
use tofu_module::expr::json::json_expression;
use tofu_module::expr::start::expr_start;
use tofu_module::input::Config;
use tofu_module::loaded::FileRole;
use tofu_module::provider_uses::{provider_reference, PassedProviders, ProviderUses};
use tofu_module::refs::Node;

/// Nested blocks deeper than this make a body not sent.
const MAX_DEPTH: usize = 32;

/// Which validator a call goes to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValidatorKind {
    Provider,
    Resource(String),
    DataResource(String),
    EphemeralResource(String),
}

/// One call to a provider's validator (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValidatorCall {
    pub provider: ProviderAddress,
    pub kind: ValidatorKind,
    /// The block it validates.
    pub block: BlockAddress,
    /// The provider configuration a resource uses (for a provider
    /// configuration, itself): when its own validator reports an error,
    /// OpenTofu's walk does not validate the resources using it.
    pub provider_config: BlockAddress,
    /// The configuration value, as msgpack for the block's implied type.
    pub config: DynamicValue,
    pub places: BodyPlaces,
}

impl ValidatorCall {
    /// A diagnostic the provider returned, as OpenTofu shows it: its
    /// summary and detail, its severity, placed by its attribute path.
    pub fn diagnostic(&self, found: &ProviderDiagnostic) -> Diagnostic {
        let severity = match found.severity {
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Error | DiagnosticSeverity::Invalid => Severity::Error,
        };
        Diagnostic::new(
            crate::codes::PROVIDER_VALIDATION,
            found.summary.clone(),
            self.places.locate(&found.attribute),
        )
        .with_detail(found.detail.clone())
        .with_severity(severity)
    }

    /// How the block is named in messages (`time_sleep.wait`,
    /// `provider.time`), for logs.
    pub fn block_name(&self) -> String {
        Node::Block(self.block.clone()).address_text()
    }

    /// The provider as OpenTofu shows it (`hashicorp/time`).
    pub fn provider_name(&self) -> String {
        for_display(&self.provider)
    }
}

/// The validator calls for `analysis` (see the module doc), provider
/// configurations first, then in the order of the effective blocks.
pub fn validator_calls(analysis: &ModuleAnalysis) -> Vec<ValidatorCall> {
    if !analysis.walked {
        return Vec::new();
    }
    let uses = provider_uses(analysis);
    let candidates: Vec<Candidate<'_>> = analysis
        .effective
        .blocks
        .iter()
        .filter_map(|effective| candidate(analysis, effective, &uses))
        .collect();
    let errors: Vec<&Diagnostic> = analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .filter(|diagnostic| {
            analysis
                .file(diagnostic.subject.file)
                .is_none_or(|file| file.role != FileRole::Values)
        })
        .collect();
    let mut failed: BTreeSet<&BlockAddress> = BTreeSet::new();
    let mut failed_values: BTreeSet<Node> = BTreeSet::new();
    for error in &errors {
        match candidates.iter().find(|found| found.holds(error.subject)) {
            Some(found) => {
                failed.insert(&found.effective.address);
            }
            None => failed_values.extend(value_holding(analysis, error.subject)),
        }
    }
    for found in &candidates {
        let reads_failed_value = found.effective.references.all().any(|reference| {
            reference
                .node()
                .is_some_and(|node| failed_values.contains(&node))
        });
        if reads_failed_value {
            failed.insert(&found.effective.address);
        }
    }
    // A block using a failed provider configuration, or referring to a
    // failed resource, is not validated either.
    loop {
        let n_failed = failed.len();
        for found in &candidates {
            let address = &found.effective.address;
            if failed.contains(address) {
                continue;
            }
            let upstream_failed = failed.contains(&found.provider_config)
                || found.effective.references.all().any(|reference| {
                    matches!(reference.node(), Some(Node::Block(used)) if failed.contains(&used))
                });
            if upstream_failed {
                failed.insert(address);
            }
        }
        if failed.len() == n_failed {
            break;
        }
    }
    let mut calls: Vec<ValidatorCall> = candidates
        .iter()
        .filter(|found| !failed.contains(&found.effective.address))
        .filter_map(|found| found.call(analysis))
        .collect();
    calls.sort_by_key(|call| call.kind != ValidatorKind::Provider);
    calls
}

/// Adds what the providers' validators reported to `analysis`'s
/// diagnostics, after the comments suppressing them and `config`'s
/// severity overrides (`off` drops them), in the analysis's order.
pub fn add_provider_diagnostics(
    analysis: &mut ModuleAnalysis,
    config: &Config,
    mut diagnostics: Vec<Diagnostic>,
) {
    apply_config(analysis, config, &mut diagnostics);
    if diagnostics.is_empty() {
        return;
    }
    analysis.diagnostics.extend(diagnostics);
    crate::analysis::sort_diagnostics(&mut analysis.diagnostics);
}

/// What the user asked to see of the providers' diagnostics on
/// `analysis`'s files: the `# tofu-lens-ignore: provider-validation`
/// comments, then `config`'s severity overrides (`off` drops them).
pub fn apply_config(analysis: &ModuleAnalysis, config: &Config, diagnostics: &mut Vec<Diagnostic>) {
    crate::reporting::apply_late_suppressions(analysis, diagnostics);
    crate::reporting::apply_severity_overrides(config, diagnostics);
}

/// The input variable or local value whose declaration holds `subject`.
fn value_holding(analysis: &ModuleAnalysis, subject: Location) -> Option<Node> {
    let range = subject.range?;
    let holds = |file: FileId, own: TextRange| {
        file == subject.file && own.start <= range.start && range.end <= own.end
    };
    let variable = analysis.effective.blocks.iter().find(|effective| {
        matches!(effective.address, BlockAddress::Variable(_))
            && effective
                .base
                .iter()
                .chain(&effective.overrides)
                .any(|block_ref| {
                    analysis
                        .block(*block_ref)
                        .is_some_and(|block| holds(block_ref.file, block.range))
                })
    });
    if let Some(variable) = variable {
        return Some(Node::Block(variable.address.clone()));
    }
    analysis
        .effective
        .locals
        .iter()
        .find(|local| holds(local.attribute.origin.file, local.attribute.origin.range))
        .map(|local| Node::Local(local.name.clone()))
}

/// A block that may be validated: its schema is known.
struct Candidate<'a> {
    effective: &'a EffectiveBlock,
    provider: ProviderAddress,
    kind: ValidatorKind,
    schema: &'a SchemaBlock,
    provider_config: BlockAddress,
    /// The ranges of its base block and its overrides.
    ranges: Vec<Location>,
}

fn candidate<'a>(
    analysis: &'a ModuleAnalysis,
    effective: &'a EffectiveBlock,
    uses: &ProviderUses,
) -> Option<Candidate<'a>> {
    let (local_name, alias, kind) = match &effective.address {
        BlockAddress::Resource {
            mode, type_name, ..
        } => {
            let (local_name, alias) = resource_provider(analysis, effective, type_name);
            let kind = match mode {
                ResourceMode::Managed => ValidatorKind::Resource(type_name.clone()),
                ResourceMode::Data => ValidatorKind::DataResource(type_name.clone()),
                ResourceMode::Ephemeral => ValidatorKind::EphemeralResource(type_name.clone()),
            };
            (local_name, alias, kind)
        }
        BlockAddress::Provider { name, alias } => {
            (name.clone(), alias.clone(), ValidatorKind::Provider)
        }
        _ => return None,
    };
    let (provider, Some(provider_schema)) = analysis.provider_schema(&local_name) else {
        return None;
    };
    // The built-in provider has no process to ask.
    if is_built_in(&provider) {
        return None;
    }
    // OpenTofu prunes a configuration nothing uses before validating.
    if kind == ValidatorKind::Provider && !uses.keeps(&local_name, alias.as_deref()) {
        return None;
    }
    let schema = match (&effective.address, &kind) {
        (
            BlockAddress::Resource {
                mode, type_name, ..
            },
            _,
        ) => {
            &provider_schema
                .schema_for(schema_mode(*mode), type_name)?
                .block
        }
        _ => &provider_schema.provider.block,
    };
    let ranges = effective
        .base
        .iter()
        .chain(&effective.overrides)
        .filter_map(|block_ref| {
            let block = analysis.block(*block_ref)?;
            Some(Location::new(block_ref.file, block.range))
        })
        .collect();
    Some(Candidate {
        effective,
        provider,
        kind,
        schema,
        provider_config: BlockAddress::Provider {
            name: local_name,
            alias,
        },
        ranges,
    })
}

impl Candidate<'_> {
    fn holds(&self, subject: Location) -> bool {
        let Some(range) = subject.range else {
            return false;
        };
        self.ranges.iter().any(|own| {
            own.file == subject.file
                && own
                    .range
                    .is_some_and(|own| own.start <= range.start && range.end <= own.end)
        })
    }

    fn call(&self, analysis: &ModuleAnalysis) -> Option<ValidatorCall> {
        let (meta_arguments, meta_blocks) = match self.kind {
            ValidatorKind::Provider => (PROVIDER_META_ARGUMENTS, PROVIDER_META_BLOCKS),
            _ => (RESOURCE_META_ARGUMENTS, RESOURCE_META_BLOCKS),
        };
        let base = self.effective.base?;
        let base_block = analysis.block(base)?;
        let mut parts = Parts::default();
        add_parts(
            analysis,
            &self.effective.body,
            meta_arguments,
            meta_blocks,
            &mut parts,
        )?;
        if self.kind == ValidatorKind::Provider
            && parts.attributes.is_empty()
            && parts.blocks.is_empty()
        {
            return None;
        }
        let repetition = Repetition {
            count: self.effective.body.attribute("count").is_some(),
            for_each: self.effective.body.attribute("for_each").is_some(),
        };
        if json_nested_blocks(analysis, &parts, self.schema) {
            return None;
        }
        let base_json = analysis.file(base.file)?.is_json();
        let missing = Location::new(base.file, missing_range(base_block, base_json));
        let builder = Builder {
            analysis,
            repetition,
        };
        let (value, mut places) = builder.body(&parts, missing, self.schema, 0)?;
        if !self.effective.overrides.is_empty() {
            // `ElaborateFromConfigBody` looks an argument of a merged body up
            // with the base's part requiring it: one the base block does not
            // set itself is not found, and the diagnostic goes to the base's
            // `{` (an override's own argument included).
            places
                .attributes
                .retain(|attribute| base_sets(base_block, &attribute.name));
        }
        let config = DynamicValue::from_config(&value, self.schema).ok()?;
        Some(ValidatorCall {
            provider: self.provider.clone(),
            kind: self.kind.clone(),
            block: self.effective.address.clone(),
            provider_config: self.provider_config.clone(),
            config,
            places,
        })
    }
}

/// A resource's provider configuration: its `provider` argument (local
/// name, alias), else its type's implied local name.
fn resource_provider(
    analysis: &ModuleAnalysis,
    effective: &EffectiveBlock,
    type_name: &str,
) -> (String, Option<String>) {
    let written = written_attribute(analysis, effective, "provider").and_then(|attribute| {
        let (name, alias) = provider_reference(&attribute.expr)?;
        Some((name.to_owned(), alias.map(str::to_owned)))
    });
    written.unwrap_or_else(|| (implied_local_name(type_name).to_owned(), None))
}

/// The attribute `name` of an effective body as written.
fn written_attribute<'a>(
    analysis: &'a ModuleAnalysis,
    effective: &EffectiveBlock,
    name: &str,
) -> Option<&'a Attribute> {
    let attribute = effective.body.attribute(name)?;
    analysis
        .file(attribute.origin.file)?
        .attribute_at(attribute.origin.range)
}

/// The provider configurations the module's effective blocks use.
fn provider_uses(analysis: &ModuleAnalysis) -> ProviderUses {
    let mut uses = ProviderUses::default();
    for effective in &analysis.effective.blocks {
        match &effective.address {
            BlockAddress::Resource { type_name, .. } => {
                let (name, alias) = resource_provider(analysis, effective, type_name);
                uses.add_resource(&name, alias.as_deref());
            }
            BlockAddress::Module(_) => {
                let passed = effective.body.attribute("providers").map(|_| {
                    written_attribute(analysis, effective, "providers")
                        .map(|attribute| PassedProviders::of(&attribute.expr))
                        .unwrap_or_else(PassedProviders::unreadable)
                });
                uses.add_call(passed.as_ref());
            }
            _ => {}
        }
    }
    uses
}

/// The parts of one body, each with the file it was written in.
#[derive(Default)]
struct Parts<'a> {
    attributes: Vec<(FileId, &'a Attribute)>,
    blocks: Vec<(FileId, &'a Block)>,
}

impl<'a> Parts<'a> {
    /// A nested block's own parts, all in its file.
    fn of_block(file: FileId, block: &'a Block) -> Parts<'a> {
        Parts {
            attributes: block
                .body
                .attributes
                .iter()
                .map(|attr| (file, attr))
                .collect(),
            blocks: block
                .body
                .blocks
                .iter()
                .map(|inner| (file, inner))
                .collect(),
        }
    }
}

/// The non-meta parts of an effective body (an escaping `_` block's
/// contents among them); `None` when a part cannot be read or is a JSON
/// nested block (only OpenTofu's own block types are blocks in JSON).
fn add_parts<'a>(
    analysis: &'a ModuleAnalysis,
    body: &'a EffectiveBody,
    meta_arguments: &[&str],
    meta_blocks: &[&str],
    parts: &mut Parts<'a>,
) -> Option<()> {
    for attribute in &body.attributes {
        if meta_arguments.contains(&attribute.name.as_str()) {
            continue;
        }
        let file = analysis.file(attribute.origin.file)?;
        parts.attributes.push((
            attribute.origin.file,
            file.attribute_at(attribute.origin.range)?,
        ));
    }
    for nested in &body.blocks {
        if nested.kind == "_" {
            add_parts(analysis, &nested.body, &[], &[], parts)?;
            continue;
        }
        if meta_blocks.contains(&nested.kind.as_str()) {
            continue;
        }
        let file = analysis.file(nested.origin.file)?;
        if file.is_json() {
            return None;
        }
        parts
            .blocks
            .push((nested.origin.file, file.block_at(nested.range)?));
    }
    Some(())
}

/// Whether a base block sets the argument `name` itself, in its body or an
/// escaping block.
fn base_sets(block: &Block, name: &str) -> bool {
    block.body.attribute(name).is_some()
        || block
            .body
            .blocks
            .iter()
            .filter(|nested| nested.kind == "_")
            .any(|nested| nested.body.attribute(name).is_some())
}

/// Where HCL says a body lacks something: a native body's `{`,
/// zero-width; a JSON body's closing `}` (`CloseRange`).
fn missing_range(block: &Block, json: bool) -> TextRange {
    match block.body.close {
        Some(close) if json => close,
        _ => TextRange::empty(block.body.open.unwrap_or(block.header).start),
    }
}

/// Whether a property of a JSON body names one of the schema's block
/// types: JSON has no blocks but OpenTofu's own, so its nested blocks are
/// properties, decoded by the schema; their values are not worked out
/// here, and the body is not sent.
fn json_nested_blocks(analysis: &ModuleAnalysis, parts: &Parts<'_>, schema: &SchemaBlock) -> bool {
    parts.attributes.iter().any(|(file, attribute)| {
        analysis.file(*file).is_some_and(|file| file.is_json())
            && schema.attributes.get(&attribute.name).is_none()
            && schema.block_types.get(&attribute.name).is_some()
    })
}

/// Whether the resource repeats, for `count.index` and `each`.
#[derive(Clone, Copy)]
struct Repetition {
    count: bool,
    for_each: bool,
}

/// Builds a body's value and places.
struct Builder<'a> {
    analysis: &'a ModuleAnalysis,
    repetition: Repetition,
}

impl Builder<'_> {
    fn body(
        &self,
        parts: &Parts<'_>,
        missing: Location,
        schema: &SchemaBlock,
        depth: usize,
    ) -> Option<(Value, BodyPlaces)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut object: BTreeMap<String, Value> = BTreeMap::new();
        let mut places = BodyPlaces {
            missing,
            attributes: Vec::new(),
            blocks: Vec::new(),
        };
        for (name, attribute_schema) in schema.attributes.iter() {
            let written = parts
                .attributes
                .iter()
                .find(|(_, attribute)| attribute.name == name);
            let value = match written {
                Some((file, attribute)) => {
                    places
                        .attributes
                        .push(self.attribute_places(*file, attribute)?);
                    self.attribute_value(*file, attribute, &attribute_schema.decoder_type())?
                }
                None => match self.attribute_blocks(parts, schema, name, &mut places, depth)? {
                    Some(written_as_blocks) => tofu_eval::convert::convert(
                        &written_as_blocks,
                        &attribute_schema.decoder_type(),
                    )
                    .ok()?,
                    None => Value::null(attribute_schema.implied_type()),
                },
            };
            object.insert(name.to_owned(), value);
        }
        for (name, nested) in schema.block_types.iter() {
            if schema.attributes.get(name).is_some() {
                continue;
            }
            let implied = nested.block.implied_type();
            let dynamic = parts
                .blocks
                .iter()
                .any(|(_, block)| block.kind == "dynamic" && block.label(0) == Some(name));
            let written: Vec<(FileId, &Block)> = parts
                .blocks
                .iter()
                .filter(|(_, block)| block.kind == name)
                .copied()
                .collect();
            let mut values = Vec::with_capacity(written.len());
            for (file, block) in &written {
                let inner = Parts::of_block(*file, block);
                let json = self.analysis.file(*file)?.is_json();
                let missing = Location::new(*file, missing_range(block, json));
                let (value, inner_places) = self.body(&inner, missing, &nested.block, depth + 1)?;
                places.blocks.push(BlockPlaces {
                    kind: name.to_owned(),
                    first_label: block.label(0).map(str::to_owned),
                    body: inner_places,
                });
                values.push((block.label(0).map(str::to_owned), value));
            }
            let value = match nested.nesting {
                _ if dynamic => Value::unknown(collection_type(nested.nesting, implied)?),
                Nesting::Single => match values.pop() {
                    Some((_, value)) if values.is_empty() => value,
                    Some(_) => return None,
                    None => Value::null(implied),
                },
                Nesting::Group => match values.pop() {
                    Some((_, value)) if values.is_empty() => value,
                    Some(_) => return None,
                    None => empty_value(&nested.block),
                },
                Nesting::List if implied.has_dynamic() => return None,
                Nesting::List => Value::list(
                    implied,
                    values.into_iter().map(|(_, value)| value).collect(),
                ),
                Nesting::Set => Value::set(
                    implied,
                    values.into_iter().map(|(_, value)| value).collect(),
                ),
                Nesting::Map if implied.has_dynamic() => return None,
                Nesting::Map => {
                    let mut entries = BTreeMap::new();
                    for (key, value) in values {
                        if entries.insert(key?, value).is_some() {
                            return None;
                        }
                    }
                    Value::map(implied, entries)
                }
                Nesting::Invalid => continue,
            };
            object.insert(name.to_owned(), value);
        }
        Some((Value::object(object), places))
    }

    /// The value of the attribute `name` of `schema` written as blocks
    /// (`blocktoattr`): a list of their objects, `Some(None)` when it is
    /// not written so, `None` when a `dynamic` block writes it (its
    /// elements are not worked out here) or a block's value cannot be.
    fn attribute_blocks(
        &self,
        parts: &Parts<'_>,
        schema: &SchemaBlock,
        name: &str,
        places: &mut BodyPlaces,
        depth: usize,
    ) -> Option<Option<Value>> {
        let Some(element_schema) = element_schema(schema, name) else {
            return Some(None);
        };
        if parts
            .blocks
            .iter()
            .any(|(_, block)| block.kind == "dynamic" && block.label(0) == Some(name))
        {
            return None;
        }
        let mut values = Vec::new();
        for (file, block) in parts.blocks.iter().filter(|(_, block)| block.kind == name) {
            let json = self.analysis.file(*file)?.is_json();
            let missing = Location::new(*file, missing_range(block, json));
            let (value, inner_places) = self.body(
                &Parts::of_block(*file, block),
                missing,
                &element_schema,
                depth + 1,
            )?;
            places.blocks.push(BlockPlaces {
                kind: name.to_owned(),
                first_label: None,
                body: inner_places,
            });
            values.push(value);
        }
        if values.is_empty() {
            return Some(None);
        }
        let element_type = element_schema.implied_type();
        Some(Some(Value::list(element_type, values)))
    }

    /// An argument's value, converted to `ty`; `None` when it does not
    /// evaluate or convert (an error OpenTofu reports before any call).
    fn attribute_value(&self, file: FileId, attribute: &Attribute, ty: &Type) -> Option<Value> {
        let module_file = self.analysis.file(file)?;
        let scope = ValidateScope {
            repetition: self.repetition,
            locals: &self.analysis.walk_locals,
            describe: &|range| module_file.describe(range),
        };
        let evaluation = if module_file.is_json() {
            evaluate(
                &json_expression(module_file.text.as_ref(), &attribute.expr),
                &scope,
            )
        } else {
            evaluate(&attribute.expr, &scope)
        };
        if !evaluation.diagnostics.is_empty() {
            return None;
        }
        tofu_eval::convert::convert(&evaluation.value, ty).ok()
    }

    fn attribute_places(&self, file: FileId, attribute: &Attribute) -> Option<AttributePlaces> {
        let module_file = self.analysis.file(file)?;
        let text = &module_file.text;
        let items = match &attribute.expr.kind {
            ExprKind::Array(items) => Some(items.iter().map(|item| item.range).collect()),
            _ => None,
        };
        let entries = match &attribute.expr.kind {
            ExprKind::Object(items) => Some(
                items
                    .iter()
                    .map(|item| {
                        let key = match &item.key.kind {
                            ExprKind::String(key) => Some(key.clone()),
                            ExprKind::Traversal(traversal) if traversal.steps.is_empty() => {
                                Some(traversal.root.clone())
                            }
                            _ => None,
                        };
                        (key, expr_start(text, &item.value, module_file.is_json()))
                    })
                    .collect(),
            ),
            _ => None,
        };
        Some(AttributePlaces {
            name: attribute.name.clone(),
            file,
            name_range: attribute.name_range,
            expr: attribute.expr.range,
            items,
            entries,
        })
    }
}

/// The type of a nested block type's whole value, made by a `dynamic`
/// block (unknown); `None` where OpenTofu would decode a tuple or object.
fn collection_type(nesting: Nesting, object: Type) -> Option<Type> {
    match nesting {
        Nesting::Single | Nesting::Group => Some(object),
        Nesting::List | Nesting::Map if object.has_dynamic() => None,
        Nesting::List => Some(Type::list(object)),
        Nesting::Set => Some(Type::set(object)),
        Nesting::Map => Some(Type::map(object)),
        Nesting::Invalid => None,
    }
}

/// An absent group block's value (`configschema.Block.EmptyValue`): its
/// attributes null, its nested block types empty.
fn empty_value(block: &SchemaBlock) -> Value {
    let mut object: BTreeMap<String, Value> = BTreeMap::new();
    for (name, attribute) in block.attributes.iter() {
        object.insert(name.to_owned(), Value::null(attribute.implied_type()));
    }
    for (name, nested) in block.block_types.iter() {
        if block.attributes.get(name).is_some() {
            continue;
        }
        let implied = nested.block.implied_type();
        let value = match nested.nesting {
            Nesting::Single => Value::null(implied),
            Nesting::Group => empty_value(&nested.block),
            Nesting::List if implied.has_dynamic() => Value::tuple(Vec::new()),
            Nesting::List => Value::list(implied, Vec::new()),
            Nesting::Set => Value::set(implied, Vec::new()),
            Nesting::Map if implied.has_dynamic() => Value::empty_object(),
            Nesting::Map => Value::map(implied, BTreeMap::new()),
            Nesting::Invalid => continue,
        };
        object.insert(name.to_owned(), value);
    }
    Value::object(object)
}

/// What validate's scope gives a resource body: every reference unknown,
/// but `path.module` and `path.root` (`.`) and the local values the walk
/// knows; `count.index` a number and `each.key` a string when the resource
/// repeats. No files are read.
struct ValidateScope<'d> {
    repetition: Repetition,
    locals: &'d BTreeMap<String, Value>,
    describe: &'d dyn Fn(TextRange) -> String,
}

impl Scope for ValidateScope<'_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let first = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let value = match (reference.root, first) {
            ("path", Some("module" | "root")) => Value::string("."),
            ("local", Some(name)) if self.locals.contains_key(name) => self
                .locals
                .get(name)
                .cloned()
                .unwrap_or_else(Value::dynamic_unknown),
            ("count", Some("index")) if self.repetition.count => Value::unknown(Type::Number),
            ("each", Some("key")) if self.repetition.for_each => Value::unknown(Type::String),
            _ => {
                return Ok(Referenced {
                    value: Value::dynamic_unknown(),
                    n_steps: reference.steps.len(),
                })
            }
        };
        Ok(Referenced { value, n_steps: 1 })
    }

    fn environment(&self) -> &dyn Environment {
        &tofu_eval::NoFiles
    }

    fn describe_range(&self, range: TextRange) -> String {
        (self.describe)(range)
    }
}

#[cfg(test)]
mod tests;

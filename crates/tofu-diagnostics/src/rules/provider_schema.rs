//! What `tofu validate` reports with the providers installed, against
//! their schemas (`diagnostics.md` §7; OpenTofu 1.12.6's
//! `tofu/node_resource_validate.go`, `node_provider.go` and
//! `evaluate_valid.go`): `invalid-resource-type`, `unsupported-argument`,
//! `unsupported-block`, `missing-required-argument`, `invalid-block-count`,
//! `duplicate-nested-block`, `invalid-block-labels` and
//! `invalid-argument-value` in the bodies of resources, data sources,
//! ephemeral resources and provider configurations (`decode`), and
//! `invalid-reference` / `invalid-resource-type` for what a reference reads
//! from a resource (`traversal`, asked by `rules::validate`).
//!
//! A body is judged only when the analysis was given the schema of its
//! provider (`provider_schemas`): the provider its `provider` argument or
//! its type's prefix names as a local name, through `required_providers`.
//! Without one, it is judged as before (meta-arguments only).
//!
//! A resource body is judged where OpenTofu's walk judges it, as the
//! `references` rule's unit of the resource's own arguments
//! ([`resource_body`]): a type the provider does not support is reported
//! and nothing else of the body is; else the references of the arguments
//! and blocks the schema knows are judged (those of unsupported ones are
//! never evaluated), and only when none failed is the body decoded, as
//! `EvaluateBlock` stops after reference errors; the arguments the schema
//! declares, in the body and its nested blocks, and the `dynamic` blocks
//! as `dynblock` expands them, are then evaluated (`evaluate`, through
//! `expression_evaluation`: unknown functions, failing calls, invalid
//! operands, a `for_each` a `dynamic` block cannot iterate), with what
//! decoding found. A provider configuration is judged the same way, as
//! the `references` rule's unit of its own arguments ([`provider_body`]),
//! when something uses it (OpenTofu prunes the others) and unless it sets
//! nothing but meta-arguments, as `ValidateProvider` skips such a body: the
//! references of the arguments its schema declares (`count`, `each` and
//! `self` as in a resource body without `self`, `each` with the
//! configuration's own `for_each`), then, when none failed, decoding and
//! evaluation.
//!
//! Left out here: the provider's own validators (`ValidateResourceConfig`
//! and its siblings), whose calls `crate::validator_calls` works out for
//! the caller to send; the `provider_meta` schema. A provider configuration
//! with `for_each` is judged once, where OpenTofu validates (and reports)
//! it once per instance.

mod blocktoattr;
mod decode;
mod evaluate;
mod traversal;

use tofu_schema::{ProviderAddress, ProviderSchema};
use tofu_syntax::{Diagnostic, ExprKind, FileId, Fix, Location, Syntax, TextRange};

use crate::rules::views::IdentityView;
pub(crate) use blocktoattr::element_schema;
pub(crate) use decode::Dropped;
use decode::{AttributeInput, BlockInput, BodyInput};
use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::effective::{EffectiveBlock, EffectiveBody};
use tofu_module::expr::traversal::{parse_traversal, ParsedStep, Part};
use tofu_module::provider_uses::provider_reference;
use tofu_module::refs::Unit;
use tofu_schema::requirements::implied_local_name;
use tofu_syntax::go_text::go_quote;
pub(crate) use traversal::validate_steps;

/// Meta-arguments of `resource`, `data` and `ephemeral` bodies: never the
/// provider's (`configs.commonResourceAttributes`).
pub(crate) const RESOURCE_META_ARGUMENTS: &[&str] =
    &["count", "for_each", "provider", "depends_on"];
/// Meta-blocks of those bodies (`_` is the escaping block, whose contents
/// are the provider's and are decoded with the body).
pub(crate) const RESOURCE_META_BLOCKS: &[&str] =
    &["lifecycle", "connection", "provisioner", "locals"];
pub(crate) use tofu_module::schema::{PROVIDER_META_ARGUMENTS, PROVIDER_META_BLOCKS};

/// The schema's mode for a resource mode.
pub(crate) fn schema_mode(mode: ResourceMode) -> tofu_schema::ResourceMode {
    match mode {
        ResourceMode::Managed => tofu_schema::ResourceMode::Managed,
        ResourceMode::Data => tofu_schema::ResourceMode::Data,
        ResourceMode::Ephemeral => tofu_schema::ResourceMode::Ephemeral,
    }
}

/// How OpenTofu shows a provider in messages (`Provider.ForDisplay`):
/// without the default registry's host.
pub(crate) fn for_display(address: &ProviderAddress) -> String {
    if address.hostname == tofu_schema::address::DEFAULT_REGISTRY_HOST {
        format!("{}/{}", address.namespace, address.type_name)
    } else {
        address.to_string()
    }
}

/// The unit of a resource's own arguments (`UnitKind::ResourceBody`),
/// judged with its provider's schema when the analysis has it; `judge`
/// judges references as the `references` rule does.
pub(crate) fn resource_body(
    view: &IdentityView<'_>,
    unit: &Unit,
    judge: &dyn Fn(&Unit, &mut Vec<Diagnostic>),
    out: &mut Vec<Diagnostic>,
) {
    let Some((effective, mode, type_name)) =
        view.effective()
            .and_then(|effective| match &effective.address {
                BlockAddress::Resource {
                    mode, type_name, ..
                } => Some((effective, *mode, type_name.as_str())),
                _ => None,
            })
    else {
        judge(unit, out);
        return;
    };
    let local_name = resource_local_name(view, effective, type_name);
    let (address, Some(provider)) = view.provider_schema(&local_name) else {
        judge(unit, out);
        return;
    };
    let Some(schema) = provider.schema_for(schema_mode(mode), type_name) else {
        if let Some(diagnostic) = invalid_type(view, effective, mode, type_name, &address, provider)
        {
            out.push(diagnostic);
        }
        return;
    };
    let Some(body) = effective_body(
        view,
        effective,
        RESOURCE_META_ARGUMENTS,
        RESOURCE_META_BLOCKS,
    ) else {
        judge(unit, out);
        return;
    };
    let meta = (RESOURCE_META_ARGUMENTS, RESOURCE_META_BLOCKS);
    let before = out.len();
    evaluate_block(view, unit, judge, &body, &schema.block, meta, out);
    let body_failed = out
        .get(before..)
        .is_some_and(|found| found.iter().any(Diagnostic::is_error));
    if mode == ResourceMode::Managed && !body_failed {
        ignore_changes(view, effective, &schema.block, out);
        replace_triggered_by(view, effective, out);
    }
}

/// A managed resource's `replace_triggered_by` against the schemas of the
/// resources it names, once its body evaluated without error
/// (`validateResource`): what each element reads past the resource (and
/// its instance key) as `StaticValidateTraversal` reads it, when the named
/// resource is declared and its provider's schema is at hand. Native
/// syntax only; elements that are no plain traversal are left alone.
fn replace_triggered_by(
    view: &IdentityView<'_>,
    effective: &EffectiveBlock,
    out: &mut Vec<Diagnostic>,
) {
    let Some((file, traversals)) = lifecycle_traversals(view, effective, "replace_triggered_by")
    else {
        return;
    };
    for steps in traversals {
        let steps = with_dots(steps);
        let [ParsedStep {
            part: Part::Name(type_name),
            ..
        }, ParsedStep {
            part: Part::Name(name),
            ..
        }, rest @ ..] = steps.as_slice()
        else {
            continue;
        };
        if matches!(
            type_name.as_str(),
            "data" | "ephemeral" | "resource" | "var" | "local" | "module" | "self"
        ) {
            continue;
        }
        let rest = match rest.first() {
            Some(ParsedStep {
                part: Part::Index(_),
                ..
            }) => rest.get(1..).unwrap_or_default(),
            _ => rest,
        };
        let address = BlockAddress::Resource {
            mode: ResourceMode::Managed,
            type_name: type_name.clone(),
            name: name.clone(),
        };
        let Some(declared) = view.declared(&address) else {
            continue;
        };
        let type_schema = view
            .provider_schema(&declared.provider)
            .1
            .and_then(|schema| schema.schema_for(schema_mode(ResourceMode::Managed), type_name));
        let Some(type_schema) = type_schema else {
            continue;
        };
        out.extend(validate_steps(&type_schema.block, rest, file));
    }
}

/// Steps with each attribute step from the end of the step before it, so
/// that it holds its dot, as HCL's `TraverseAttr` ranges do.
fn with_dots(steps: Vec<ParsedStep>) -> Vec<ParsedStep> {
    let mut previous_end: Option<u32> = None;
    steps
        .into_iter()
        .map(|mut step| {
            if let (Part::Name(_), Some(end)) = (&step.part, previous_end) {
                if end < step.range.start {
                    step.range = TextRange::new(end, step.range.end);
                }
            }
            previous_end = Some(step.range.end);
            step
        })
        .collect()
}

/// The elements of a resource's `lifecycle` list `name` (`ignore_changes`,
/// `replace_triggered_by`) written as plain traversals that parse, each as
/// its steps at their place in the file, and the file the list is written
/// in. `None` without the list, in JSON, or when it is no list.
fn lifecycle_traversals(
    view: &IdentityView<'_>,
    effective: &EffectiveBlock,
    name: &str,
) -> Option<(FileId, Vec<Vec<ParsedStep>>)> {
    let attribute = effective
        .body
        .blocks
        .iter()
        .filter(|block| block.kind == "lifecycle")
        .find_map(|lifecycle| lifecycle.body.attribute(name))?;
    let (file, expr) = view.native_expr(attribute)?;
    let ExprKind::Array(elements) = &expr.kind else {
        return None;
    };
    let traversals = elements
        .iter()
        .filter(|element| matches!(element.kind, ExprKind::Traversal(_)))
        .filter_map(|element| {
            let text = file.text(element.range)?;
            let parsed = parse_traversal(text.slice(element.range));
            if parsed.error.is_some() {
                return None;
            }
            let offset = element.range.start;
            Some(
                parsed
                    .steps
                    .into_iter()
                    .map(|step| ParsedStep {
                        range: TextRange::new(step.range.start + offset, step.range.end + offset),
                        part: step.part,
                    })
                    .collect(),
            )
        })
        .collect();
    Some((attribute.origin.file, traversals))
}

/// A managed resource's `ignore_changes` against its schema, once its body
/// evaluated without error (`validateResource`): each element's steps as
/// `StaticValidateTraversal` reads them, and, while nothing failed, a
/// warning for an attribute the provider alone decides (computed, not
/// optional), on the resource type. Native syntax only; the elements that
/// are no plain traversal are the `references` rule's.
fn ignore_changes(
    view: &IdentityView<'_>,
    effective: &EffectiveBlock,
    schema: &tofu_schema::Block,
    out: &mut Vec<Diagnostic>,
) {
    let Some((file, traversals)) = lifecycle_traversals(view, effective, "ignore_changes") else {
        return;
    };
    let type_range = effective
        .base
        .and_then(|base| Some((base.file, view.block(base)?.labels.first()?.range)));
    let mut failed = false;
    for steps in traversals {
        if let Some(error) = validate_steps(schema, &steps, file) {
            out.push(error);
            failed = true;
            continue;
        }
        if failed {
            continue;
        }
        let [ParsedStep {
            part: Part::Name(name),
            ..
        }] = steps.as_slice()
        else {
            continue;
        };
        let computed_only = schema
            .attributes
            .get(name.as_str())
            .is_some_and(|attribute| attribute.computed && !attribute.optional);
        if let (true, Some((type_file, range))) = (computed_only, type_range) {
            out.push(
                Diagnostic::new(
                    crate::codes::REDUNDANT_IGNORE_CHANGES,
                    "Redundant ignore_changes element",
                    Location::new(type_file, range),
                )
                .with_detail(format!("Adding an attribute name to ignore_changes tells OpenTofu to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute {name} is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.")),
            );
        }
    }
}

/// The unit of a provider configuration's own arguments
/// (`UnitKind::ProviderBody`), judged only when the analysis has its
/// provider's schema and something uses the configuration, as
/// `ValidateProvider` judges it: nothing when the body sets nothing but
/// meta-arguments; else the references of the arguments the schema
/// declares (`judge`, as the `references` rule does), and only when none
/// failed what decoding and evaluating the body find (`EvaluateBlock`
/// stops after reference errors).
pub(crate) fn provider_body(
    view: &IdentityView<'_>,
    unit: &Unit,
    judge: &dyn Fn(&Unit, &mut Vec<Diagnostic>),
    out: &mut Vec<Diagnostic>,
) {
    let Some((effective, provider)) = validated_configuration(view) else {
        return;
    };
    let Some(body) = effective_body(
        view,
        effective,
        PROVIDER_META_ARGUMENTS,
        PROVIDER_META_BLOCKS,
    ) else {
        return;
    };
    // A configuration of meta-arguments alone is not validated.
    if body.attributes.is_empty() && body.blocks.is_empty() {
        return;
    }
    let meta = (PROVIDER_META_ARGUMENTS, PROVIDER_META_BLOCKS);
    let schema = &provider.provider.block;
    evaluate_block(view, unit, judge, &body, schema, meta, out);
}

/// `EvaluateBlock` on a body its schema decodes: the references of the
/// arguments the schema declares, and only when none failed, what decoding
/// finds and the evaluation of those arguments (with whatever else
/// decoding found). `meta` are the body's meta-arguments and meta-blocks.
fn evaluate_block(
    view: &IdentityView<'_>,
    unit: &Unit,
    judge: &dyn Fn(&Unit, &mut Vec<Diagnostic>),
    body: &BodyInput<'_>,
    schema: &tofu_schema::Block,
    (meta_arguments, meta_blocks): (&[&str], &[&str]),
    out: &mut Vec<Diagnostic>,
) {
    let describe = |location: Location| describe(view, location);
    let decoded = decode::decode(body, schema, &describe);
    if let Some(effective) = view.effective() {
        out.extend(
            decoded
                .dropped
                .iter()
                .map(|dropped| dropped_warning(view, effective, dropped, SCHEMA_DEFINES)),
        );
    }
    let before = out.len();
    judge(&evaluated_references(unit, &decoded.evaluated), out);
    if out.len() != before {
        return;
    }
    out.extend(decoded.diagnostics);
    if let Some(effective) = view.effective() {
        evaluate::evaluate_body(
            view,
            &effective.body,
            schema,
            meta_arguments,
            meta_blocks,
            out,
        );
    }
}

/// The references of `unit` inside the expressions decoding evaluates
/// (`lang.ReferencesInBlock` reads only what the schema declares).
fn evaluated_references(unit: &Unit, evaluated: &[Location]) -> Unit {
    Unit {
        kind: unit.kind,
        refs: unit
            .refs
            .iter()
            .filter(|reference| {
                evaluated.iter().any(|at| {
                    at.file == reference.file
                        && at
                            .range
                            .is_some_and(|range| contains(range, reference.root_range))
                })
            })
            .cloned()
            .collect(),
        unknown_after_static: None,
    }
}

/// A provider configuration OpenTofu validates, with its provider's
/// schema: one the analysis has a schema for and that something uses.
fn validated_configuration<'a>(
    view: &IdentityView<'a>,
) -> Option<(&'a EffectiveBlock, &'a ProviderSchema)> {
    let effective = view.effective()?;
    let BlockAddress::Provider { name, alias } = &effective.address else {
        return None;
    };
    let (_, Some(provider)) = view.provider_schema(name) else {
        return None;
    };
    // OpenTofu prunes a configuration nothing uses before validating.
    if !view.keeps_provider_configuration(name, alias.as_deref()) {
        return None;
    }
    Some((effective, provider))
}

/// `main.tf:3,3-8`, for a place inside the identity's own blocks.
fn describe(view: &IdentityView<'_>, location: Location) -> String {
    location
        .range
        .and_then(|range| view.file(location.file)?.describe(range))
        .unwrap_or_default()
}

fn contains(outer: TextRange, inner: TextRange) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// A resource's provider local name: its `provider` argument's first part,
/// else its type's prefix.
fn resource_local_name(
    view: &IdentityView<'_>,
    effective: &EffectiveBlock,
    type_name: &str,
) -> String {
    let written = effective.body.attribute("provider").and_then(|attribute| {
        let file = view.file(attribute.origin.file)?;
        let written = file.attribute_at(attribute.origin.range)?;
        provider_reference(&written.expr).map(|(name, _)| name.to_owned())
    });
    written.unwrap_or_else(|| implied_local_name(type_name).to_owned())
}

/// "Invalid resource type" (and its data and ephemeral kin) on the base
/// block's type label.
fn invalid_type(
    view: &IdentityView<'_>,
    effective: &EffectiveBlock,
    mode: ResourceMode,
    type_name: &str,
    address: &ProviderAddress,
    provider: &ProviderSchema,
) -> Option<Diagnostic> {
    let base = effective.base?;
    let label = view.block(base)?.labels.first()?.range;
    let (summary, what) = match mode {
        ResourceMode::Managed => ("Invalid resource type", "resource type"),
        ResourceMode::Data => ("Invalid data source", "data source"),
        ResourceMode::Ephemeral => ("Invalid ephemeral resource", "ephemeral resource"),
    };
    let others: &[ResourceMode] = match mode {
        ResourceMode::Managed => &[ResourceMode::Data, ResourceMode::Ephemeral],
        ResourceMode::Data => &[ResourceMode::Managed, ResourceMode::Ephemeral],
        ResourceMode::Ephemeral => &[ResourceMode::Managed, ResourceMode::Data],
    };
    let other_mode = others.iter().find(|other| {
        provider
            .schema_for(schema_mode(**other), type_name)
            .is_some()
    });
    let suggestion = match other_mode {
        Some(other) => format!(
            "\n\nDid you intend to use a block of type {} {}? If so, declare this using a block of type {} instead of one of type {}.",
            go_quote(other.keyword()),
            go_quote(type_name),
            go_quote(other.keyword()),
            go_quote(mode.keyword())
        ),
        // OpenTofu suggests among the managed resource types, whatever the mode.
        None => tofu_module::expr::suggest::did_you_mean(type_name, provider.resource_types.names())
            .map(|name| format!(" Did you mean {}?", go_quote(name)))
            .unwrap_or_default(),
    };
    Some(
        Diagnostic::new(
            crate::codes::INVALID_RESOURCE_TYPE,
            summary,
            Location::new(base.file, label),
        )
        .with_detail(format!(
            "The provider {} does not support {what} {}.{suggestion}",
            for_display(address),
            go_quote(type_name)
        )),
    )
}

/// The effective body of an identity without its meta-arguments, each part
/// read where it was written; `None` when a part cannot be read.
fn effective_body<'a>(
    view: &IdentityView<'a>,
    effective: &'a EffectiveBlock,
    meta_arguments: &[&str],
    meta_blocks: &[&str],
) -> Option<BodyInput<'a>> {
    let base = effective.base?;
    let base_block = view.block(base)?;
    let base_file = view.file(base.file)?;
    let json = base_file.is_json();
    let merged = (!effective.overrides.is_empty()).then(|| base_names(&base_block.body));
    let mut body = BodyInput {
        attributes: Vec::new(),
        blocks: Vec::new(),
        missing: Location::new(base.file, decode::missing_range(base_block, json)),
        merged,
    };
    add_parts(
        view,
        &effective.body,
        meta_arguments,
        meta_blocks,
        &mut body,
    )?;
    Some(body)
}

/// The attributes and blocks of `effective` (an escaping block's contents
/// among them) that are not meta-arguments.
fn add_parts<'a>(
    view: &IdentityView<'a>,
    effective: &'a EffectiveBody,
    meta_arguments: &[&str],
    meta_blocks: &[&str],
    body: &mut BodyInput<'a>,
) -> Option<()> {
    for attribute in &effective.attributes {
        if meta_arguments.contains(&attribute.name.as_str()) {
            continue;
        }
        let file = view.file(attribute.origin.file)?;
        let written = file.attribute_at(attribute.origin.range)?;
        body.attributes.push(AttributeInput {
            name: &written.name,
            name_range: written.name_range,
            expr: &written.expr,
            file: attribute.origin.file,
            syntax: file.syntax().unwrap_or(Syntax::Native),
            text: file.text(attribute.origin.range)?,
        });
    }
    for nested in &effective.blocks {
        if nested.kind == "_" {
            add_parts(view, &nested.body, &[], &[], body)?;
            continue;
        }
        if meta_blocks.contains(&nested.kind.as_str()) {
            continue;
        }
        let file = view.file(nested.origin.file)?;
        body.blocks.push(BlockInput {
            block: file.block_at(nested.range)?,
            file: nested.origin.file,
            syntax: file.syntax().unwrap_or(Syntax::Native),
            text: file.text(nested.range)?,
        });
    }
    Some(())
}

/// The names a base block writes itself: its arguments and those of its
/// escaping blocks, and its nested block types.
fn base_names(body: &tofu_syntax::Body) -> Vec<&str> {
    let mut names: Vec<&str> = body
        .attributes
        .iter()
        .map(|attr| attr.name.as_str())
        .collect();
    for nested in &body.blocks {
        if nested.kind == "_" {
            names.extend(nested.body.attributes.iter().map(|attr| attr.name.as_str()));
        } else {
            names.push(nested.kind.as_str());
        }
    }
    names
}

/// What decides, in a provider's body, what lenient decoding drops.
const SCHEMA_DEFINES: &str = "the provider's schema does not define";

/// `override-argument-ignored`: an argument or block that is not defined
/// (`defines` says by what) in a block an override file changes, which
/// OpenTofu drops silently where it would otherwise report it; with a fix
/// that renames it to the nearest defined name, or else removes it.
pub(crate) fn dropped_warning(
    view: &IdentityView<'_>,
    effective: &EffectiveBlock,
    dropped: &Dropped,
    defines: &str,
) -> Diagnostic {
    let what = if dropped.block { "block" } else { "argument" };
    let declaration = declaration_words(effective);
    let suggestion = dropped
        .suggestion
        .as_deref()
        .map(|name| format!(" Did you mean {}?", go_quote(name)))
        .unwrap_or_default();
    let mut diagnostic = Diagnostic::new(
        crate::codes::OVERRIDE_ARGUMENT_IGNORED,
        format!("Ignored {what} {}", go_quote(&dropped.name)),
        Location::new(dropped.file, dropped.name_range),
    )
    .with_detail(format!(
        "OpenTofu silently ignores this {what}: an override file changes {declaration}, so OpenTofu reads the merged block leniently and drops every argument and block {defines}. Without the override this would be an error.{suggestion}"
    ));
    let other = effective
        .overrides
        .iter()
        .find(|part| part.file != dropped.file)
        .map(|part| (*part, "the override that changes this block"))
        .or_else(|| {
            effective
                .base
                .filter(|base| base.file != dropped.file)
                .map(|base| (base, "the block this override changes"))
        });
    if let Some((part, message)) = other {
        if let Some(block) = view.block(part) {
            diagnostic = diagnostic.with_related(Location::new(part.file, block.header), message);
        }
    }
    if let Some(fix) = dropped_fix(view, dropped) {
        diagnostic = diagnostic.with_fix(fix);
    }
    diagnostic
}

/// `resource "time_rotating" "r"`: a block as its header reads.
fn declaration_words(effective: &EffectiveBlock) -> String {
    let mut words = effective.kind.clone();
    for label in &effective.labels {
        words.push(' ');
        words.push_str(&go_quote(label));
    }
    words
}

/// Renames a dropped argument or block to the schema's nearest name, or
/// removes it (native syntax only: a JSON property's commas are left to
/// the author).
fn dropped_fix(view: &IdentityView<'_>, dropped: &Dropped) -> Option<Fix> {
    let file = view.file(dropped.file)?;
    if let Some(name) = &dropped.suggestion {
        let new_text = if dropped.syntax == Syntax::Json {
            go_quote(name)
        } else {
            name.clone()
        };
        return Some(Fix::new(format!("Rename to {}", go_quote(name))).with_edit(
            dropped.file,
            dropped.name_range,
            new_text,
        ));
    }
    if dropped.syntax == Syntax::Json {
        return None;
    }
    let what = if dropped.block { "block" } else { "argument" };
    Some(
        Fix::new(format!(
            "Remove the ignored {what} {}",
            go_quote(&dropped.name)
        ))
        .with_edit(dropped.file, file.removal_range(dropped.range)?, ""),
    )
}

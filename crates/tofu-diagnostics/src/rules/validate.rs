//! What `tofu validate` reports about one node's references, without
//! provider schemas (`diagnostics.md` §7, OpenTofu 1.12.6's
//! `tofu/evaluate_valid.go` and `tofu/evaluate.go`): `undeclared-reference`,
//! `resource-instance-key`, `unavailable-reference`, `invalid-reference`,
//! `self-referencing-local`.
//!
//! The node's references come by evaluation unit (`node_refs`). In each
//! unit the static checks run first (references that do not parse,
//! resources and module calls that are not declared or not reachable, wrong
//! instance keys, `self` out of place); when one fails, the unit's other
//! references are not judged, as OpenTofu does not evaluate it further.
//! Otherwise input variables, local values, `count`, `each`, `path`,
//! `terraform` and `tofu` are judged. `depends_on` items are judged in order
//! and none after the first error; a provisioner after the first is judged
//! only while the resource has no error; an output's value only when its
//! preconditions hold. Whether a node is reported at all (a node it depends
//! on may have failed, the graph may have a cycle) is `graph`'s decision.
//! The units a provider's schema decodes (a resource's own arguments, a
//! provider configuration's) go through `provider_schema`, which judges
//! their references only where the schema declares an argument, and a
//! provider configuration's only when the analysis has its provider's
//! schema and something uses it, as `tofu validate` judges nothing of one
//! without its provider installed and prunes the unused ones.
//!
//! In conditions OpenTofu evaluates the expression even after a static error,
//! with nothing defined, and adds `Unknown variable` on the root of each
//! reference it evaluates (`node_refs::Unit::unknown_after_static`).
//!
//! Not done: the zero-range
//! diagnostics OpenTofu adds for a bare `var` or `each` (with an empty file
//! name), and `replace_triggered_by` (a tofu-lens load-time rule checks its
//! form).

use tofu_syntax::{Block, Diagnostic, Fix, Location, TextRange};

use crate::declared_names::NameList;
use crate::rules::provider_schema;
use crate::rules::views::{IdentityView, ModuleView};
use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::expr::parse_ref::{Reference, Referenceable};
use tofu_module::expr::suggest::did_you_mean;
use tofu_module::loaded::BlockRef;
use tofu_module::node_refs::expression_refs;
use tofu_module::refs::{Ref, Unit, UnitKind};
use tofu_module::shape::Repetition;
use tofu_syntax::go_text::go_quote;

/// The `references` identity rule.
pub(crate) fn check(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    if let Some(local) = view.local() {
        let own = format!("local.{}", local.name);
        let mut self_references = Vec::new();
        for reference in view.references().all() {
            if let Ok(Reference {
                subject: Referenceable::Local(name),
                range,
            }) = &reference.parsed
            {
                if *name == local.name {
                    self_references.push(
                        Diagnostic::new(
                            crate::codes::SELF_REFERENCING_LOCAL,
                            "Self-referencing local value",
                            Location::new(reference.file, *range),
                        )
                        .with_detail(format!(
                            "Local value {own} cannot use its own result as part of its expression."
                        )),
                    );
                }
            }
        }
        if !self_references.is_empty() {
            out.extend(self_references);
            return;
        }
    }
    let checker = ReferenceCheck::of(view);
    let mut n_errors = 0;
    let mut preconditions_failed = false;
    // A module call's arguments are evaluated once the call expanded: its
    // `count`, `for_each` and `depends_on` first, and nothing more when one
    // of them failed.
    let units = &view.references().units;
    let is_call = is_module_call(view);
    let ordered: Vec<&Unit> = if is_call {
        units
            .iter()
            .filter(|unit| is_expansion(unit))
            .chain(units.iter().filter(|unit| !is_expansion(unit)))
            .collect()
    } else {
        units.iter().collect()
    };
    let mut expansion_failed = false;
    for unit in ordered {
        match unit.kind {
            UnitKind::LaterProvisioner if n_errors > 0 => continue,
            UnitKind::OutputValue if preconditions_failed => continue,
            UnitKind::ModuleArgument if expansion_failed => continue,
            _ => {}
        }
        let before = out.len();
        let judge = |unit: &Unit, out: &mut Vec<Diagnostic>| checker.unit(unit, out);
        match unit.kind {
            UnitKind::ResourceBody => provider_schema::resource_body(view, unit, &judge, out),
            UnitKind::ProviderBody => provider_schema::provider_body(view, unit, &judge, out),
            _ => checker.unit(unit, out),
        }
        let failed = out.len() > before;
        if failed {
            n_errors += 1;
            if unit.kind == UnitKind::Plain {
                preconditions_failed = true;
            }
            if is_call && is_expansion(unit) {
                expansion_failed = true;
            }
        }
    }
}

/// Whether the identity is a module call.
fn is_module_call(view: &IdentityView<'_>) -> bool {
    matches!(
        view.effective().map(|effective| &effective.address),
        Some(BlockAddress::Module(_))
    )
}

/// A module call's `count`, `for_each` and `depends_on`: what OpenTofu
/// evaluates to expand it, before its arguments.
fn is_expansion(unit: &Unit) -> bool {
    matches!(unit.kind, UnitKind::Repetition | UnitKind::DependsOn)
}

/// Whether a module call fails to expand: the `references` rule reports a
/// reference in its `count`, `for_each` or `depends_on`, and OpenTofu then
/// evaluates none of its arguments (`module_tree::argument_values` asks).
pub(crate) fn call_expansion_fails(view: &IdentityView<'_>) -> bool {
    if !is_module_call(view) {
        return false;
    }
    let checker = ReferenceCheck {
        records: false,
        ..ReferenceCheck::of(view)
    };
    view.references()
        .units
        .iter()
        .filter(|unit| is_expansion(unit))
        .any(|unit| {
            let mut found = Vec::new();
            checker.unit(unit, &mut found);
            !found.is_empty()
        })
}

/// The names of a module call's arguments in which the `references` rule
/// reports a reference: OpenTofu evaluates each argument on its own
/// (`nodeModuleVariable`), so it skips these and evaluates the others
/// (`rules::evaluation` asks).
pub(crate) fn failing_arguments(view: &IdentityView<'_>) -> Vec<String> {
    let checker = ReferenceCheck {
        records: false,
        ..ReferenceCheck::of(view)
    };
    let references = view.references();
    references
        .arguments
        .iter()
        .filter(|(_, index)| {
            references.units.get(*index).is_some_and(|unit| {
                let mut found = Vec::new();
                checker.unit(unit, &mut found);
                !found.is_empty()
            })
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// Whether the `references` rule reports any reference of the identity:
/// OpenTofu then evaluates none of its expressions (`rules::evaluation`
/// asks).
pub(crate) fn references_fail(view: &IdentityView<'_>) -> bool {
    let checker = ReferenceCheck {
        records: false,
        ..ReferenceCheck::of(view)
    };
    view.references().units.iter().any(|unit| {
        let mut found = Vec::new();
        checker.unit(unit, &mut found);
        !found.is_empty()
    })
}

/// Checks one node's references, unit by unit, as `validate`'s walk
/// evaluates them.
struct ReferenceCheck<'v, 'a> {
    view: &'v IdentityView<'a>,
    repetition: Repetition,
    /// The check block this node is, for its scoped data source.
    check: Option<String>,
    /// Whether it records the undeclared variables it reports (not when
    /// it only asks whether a call expands).
    records: bool,
}

/// What checking one reference found: nothing, a static error (which stops
/// the unit), a dynamic error, or an error of evaluating the unit (which
/// OpenTofu reaches only when no reference failed).
enum ReferenceOutcome {
    Fine,
    Static(Vec<Diagnostic>),
    Dynamic(Diagnostic),
    Evaluation(Diagnostic),
}

impl<'v, 'a> ReferenceCheck<'v, 'a> {
    /// The check of the identity `view` holds: its repetition, and the
    /// check block it is.
    fn of(view: &'v IdentityView<'a>) -> ReferenceCheck<'v, 'a> {
        let repetition = view.effective().map_or(Repetition::Single, |effective| {
            Repetition::of_arguments(
                effective.body.attribute("count").is_some(),
                effective.body.attribute("for_each").is_some(),
            )
        });
        let check = view
            .effective()
            .and_then(|effective| match &effective.address {
                BlockAddress::Check(name) => Some(name.clone()),
                _ => None,
            });
        ReferenceCheck {
            view,
            repetition,
            check,
            records: true,
        }
    }

    fn unit(&self, unit: &Unit, out: &mut Vec<Diagnostic>) {
        if unit.kind == UnitKind::DependsOn {
            self.depends_on(unit, out);
            return;
        }
        let mut statics = Vec::new();
        let mut dynamics = Vec::new();
        let mut evaluations = Vec::new();
        for reference in &unit.refs {
            match self.reference(unit.kind, reference) {
                ReferenceOutcome::Fine => {}
                ReferenceOutcome::Static(found) => statics.extend(found),
                ReferenceOutcome::Dynamic(found) => dynamics.push(found),
                ReferenceOutcome::Evaluation(found) => evaluations.push(found),
            }
        }
        if statics.is_empty() {
            if dynamics.is_empty() {
                out.extend(evaluations);
            } else {
                out.extend(dynamics);
            }
            return;
        }
        out.extend(statics);
        let cascade = unit
            .unknown_after_static
            .and_then(|from| unit.refs.get(from..))
            .unwrap_or_default();
        for reference in cascade
            .iter()
            .filter(|reference| !reference.root.is_empty())
        {
            out.push(
                Diagnostic::new(
                    crate::codes::UNDECLARED_REFERENCE,
                    "Unknown variable",
                    Location::new(reference.file, reference.root_range),
                )
                .with_detail(format!(
                    "There is no variable named {}.",
                    go_quote(&reference.root)
                )),
            );
        }
    }

    /// `depends_on`: each item's extra steps are an error; items are
    /// evaluated in order until the first error.
    fn depends_on(&self, unit: &Unit, out: &mut Vec<Diagnostic>) {
        let mut failed = false;
        for reference in &unit.refs {
            if let (Ok(_), Some(remaining)) = (&reference.parsed, reference.remaining) {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_REFERENCE,
                        "Invalid depends_on reference",
                        Location::new(reference.file, remaining),
                    )
                    .with_detail("References in depends_on must be to a whole object (resource, etc), not to an attribute of an object."),
                );
                failed = true;
            }
            if failed {
                continue;
            }
            match self.reference(unit.kind, reference) {
                ReferenceOutcome::Fine => {}
                ReferenceOutcome::Static(found) => {
                    out.extend(found);
                    failed = true;
                }
                ReferenceOutcome::Dynamic(found) => {
                    out.push(found);
                    failed = true;
                }
                // `depends_on` names objects; it reads none of their outputs.
                ReferenceOutcome::Evaluation(_) => {}
            }
        }
    }

    fn reference(&self, kind: UnitKind, reference: &Ref) -> ReferenceOutcome {
        let parsed = match &reference.parsed {
            Ok(parsed) => parsed,
            Err(error) => {
                return ReferenceOutcome::Static(vec![Diagnostic::new(
                    crate::codes::INVALID_REFERENCE,
                    error.summary,
                    Location::new(reference.file, error.range),
                )
                .with_detail(error.detail.clone())])
            }
        };
        let at = Location::new(reference.file, parsed.range);
        match &parsed.subject {
            Referenceable::Resource {
                mode,
                type_name,
                name,
                key,
            } => self.resource(reference, at, *mode, type_name, name, key.is_some()),
            Referenceable::ModuleCall {
                name, key, output, ..
            } => self.module_call(reference, at, name, key.is_some(), output.as_deref()),
            Referenceable::SelfObject => {
                let allowed = matches!(kind, UnitKind::Instance { self_allowed: true })
                    || kind == UnitKind::LaterProvisioner;
                if allowed {
                    return self.self_steps(reference);
                }
                ReferenceOutcome::Static(vec![Diagnostic::new(
                    crate::codes::UNAVAILABLE_REFERENCE,
                    "Invalid \"self\" reference",
                    at,
                )
                .with_detail("The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.")])
            }
            Referenceable::Variable(name) => self.variable(reference, at, name),
            Referenceable::Local(name) => self.local(reference, at, name),
            Referenceable::Count(name) => self.count(kind, at, name),
            Referenceable::Each(name) => self.each(kind, at, name),
            Referenceable::Path(name) => path(at, name),
            Referenceable::Terraform { root, name } => terraform(at, root, name),
        }
    }

    /// `self.…` where it is allowed: with the provider's schema, what it
    /// reads must be in the resource type's schema (as OpenTofu's
    /// `StaticValidateTraversal` judges `self` in provisioners, connections
    /// and postconditions).
    fn self_steps(&self, reference: &Ref) -> ReferenceOutcome {
        let Some(effective) = self.view.effective() else {
            return ReferenceOutcome::Fine;
        };
        let BlockAddress::Resource {
            mode, type_name, ..
        } = &effective.address
        else {
            return ReferenceOutcome::Fine;
        };
        let Some(declared) = self.view.declared(&effective.address) else {
            return ReferenceOutcome::Fine;
        };
        let type_schema = self
            .view
            .provider_schema(&declared.provider)
            .1
            .and_then(|schema| schema.schema_for(provider_schema::schema_mode(*mode), type_name));
        let Some(type_schema) = type_schema else {
            return ReferenceOutcome::Fine;
        };
        match provider_schema::validate_steps(&type_schema.block, &reference.after, reference.file)
        {
            Some(found) => ReferenceOutcome::Static(vec![found]),
            None => ReferenceOutcome::Fine,
        }
    }

    fn resource(
        &self,
        reference: &Ref,
        at: Location,
        mode: ResourceMode,
        type_name: &str,
        name: &str,
        has_key: bool,
    ) -> ReferenceOutcome {
        let address = |mode: ResourceMode| BlockAddress::Resource {
            mode,
            type_name: type_name.to_owned(),
            name: name.to_owned(),
        };
        let shown = |mode: ResourceMode| match mode {
            ResourceMode::Managed => format!("{type_name}.{name}"),
            ResourceMode::Data => format!("data.{type_name}.{name}"),
            ResourceMode::Ephemeral => format!("ephemeral.{type_name}.{name}"),
        };
        let adjective = |mode: ResourceMode| match mode {
            ResourceMode::Managed => "managed",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        };
        let Some(declared) = self.view.declared(&address(mode)) else {
            let others: &[ResourceMode] = match mode {
                ResourceMode::Managed => &[ResourceMode::Data, ResourceMode::Ephemeral],
                ResourceMode::Data => &[ResourceMode::Managed, ResourceMode::Ephemeral],
                ResourceMode::Ephemeral => &[ResourceMode::Managed, ResourceMode::Data],
            };
            let suggestion = others
                .iter()
                .copied()
                .find(|other| self.view.declared(&address(*other)).is_some());
            let mut detail = format!(
                "There is no {} resource {} {} definition in the root module.",
                adjective(mode),
                go_quote(type_name),
                go_quote(name)
            );
            if let Some(other) = suggestion {
                detail.push_str(&format!(
                    "\n\nDid you mean the {} resource {}?",
                    other.keyword(),
                    shown(other)
                ));
            }
            return ReferenceOutcome::Static(vec![Diagnostic::new(
                crate::codes::UNDECLARED_REFERENCE,
                "Reference to undeclared resource",
                at,
            )
            .with_detail(detail)]);
        };
        if let Some(check) = &declared.check {
            if self.check.as_ref() != Some(check) {
                return ReferenceOutcome::Static(vec![Diagnostic::new(
                    crate::codes::UNDECLARED_REFERENCE,
                    "Reference to scoped resource",
                    at,
                )
                .with_detail(format!(
                    "The referenced {} resource {} {} is not available from this context.",
                    adjective(mode),
                    go_quote(type_name),
                    go_quote(name)
                ))]);
            }
        }
        let mut found = Vec::new();
        let repeated = match declared.repetition {
            Repetition::Count => Some(("count", "count.index")),
            Repetition::ForEach => Some(("for_each", "each.key")),
            Repetition::Single => None,
        };
        match (repeated, has_key) {
            (Some((argument, index)), false) if reference.remaining.is_some() => {
                found.push(
                    Diagnostic::new(crate::codes::RESOURCE_INSTANCE_KEY, "Missing resource instance key", at)
                        .with_detail(format!(
                            "Because {} has \"{argument}\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    {}[{index}]",
                            shown(mode),
                            shown(mode)
                        )),
                );
            }
            (None, true) => found.push(
                Diagnostic::new(crate::codes::RESOURCE_INSTANCE_KEY, "Unexpected resource instance key", at)
                    .with_detail(format!(
                        "Because {} does not have \"count\" or \"for_each\" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.",
                        shown(mode)
                    )),
            ),
            _ => {}
        }
        // With its provider's schema: the type must be the provider's, and
        // what the reference reads must be in the type's schema.
        let (provider, provider_schema) = self.view.provider_schema(&declared.provider);
        let type_schema = match provider_schema {
            Some(schema) => {
                match schema.schema_for(provider_schema::schema_mode(mode), type_name) {
                    Some(type_schema) => Some(type_schema),
                    None => {
                        found.push(
                            Diagnostic::new(
                                crate::codes::INVALID_RESOURCE_TYPE,
                                "Invalid resource type",
                                at,
                            )
                            .with_detail(format!(
                                "The {} resource type {} is not supported by provider {}.",
                                adjective(mode),
                                go_quote(type_name),
                                go_quote(&provider.to_string())
                            )),
                        );
                        return ReferenceOutcome::Static(found);
                    }
                }
            }
            None => None,
        };
        if reference.first_attribute.as_deref() == Some("count") {
            found.push(
                Diagnostic::new(crate::codes::RESOURCE_INSTANCE_KEY, "Invalid resource count attribute", at)
                    .with_detail(format!(
                        "The special \"count\" attribute is no longer supported after OpenTofu v0.12. Instead, use length({}) to count resource instances.",
                        shown(mode)
                    )),
            );
        } else if let Some(type_schema) = type_schema {
            found.extend(provider_schema::validate_steps(
                &type_schema.block,
                &reference.after,
                reference.file,
            ));
        }
        if found.is_empty() {
            ReferenceOutcome::Fine
        } else {
            ReferenceOutcome::Static(found)
        }
    }

    fn module_call(
        &self,
        reference: &Ref,
        at: Location,
        name: &str,
        has_key: bool,
        output: Option<&str>,
    ) -> ReferenceOutcome {
        if self.view.declares_module(name) {
            return self.module_output(reference, at, name, has_key, output);
        }
        let mut detail = format!(
            "No module call named {} is declared in the root module.",
            go_quote(name)
        );
        let suggestion = self.view.suggest(NameList::Modules, name);
        let suggestion = suggestion.as_deref();
        let mut diagnostic = Diagnostic::new(
            crate::codes::UNDECLARED_REFERENCE,
            "Reference to undeclared module",
            at,
        );
        if let Some(suggestion) = suggestion {
            detail.push_str(&format!(" Did you mean {}?", go_quote(suggestion)));
            if let Some(fix) = rename_fix(self.view, reference, at, "module", name, suggestion) {
                diagnostic = diagnostic.with_fix(fix);
            }
        }
        ReferenceOutcome::Static(vec![diagnostic.with_detail(detail)])
    }

    /// `module.NAME.OUTPUT` of a single call whose child the tree knows:
    /// the output must exist (an error of evaluating the unit, on the
    /// `.OUTPUT` step, as HCL reports it).
    fn module_output(
        &self,
        reference: &Ref,
        at: Location,
        name: &str,
        has_key: bool,
        output: Option<&str>,
    ) -> ReferenceOutcome {
        let Some(output) = output else {
            return ReferenceOutcome::Fine;
        };
        // One instance: a single call unkeyed, a repeated one keyed.
        let single = self
            .view
            .declared(&BlockAddress::Module(name.to_owned()))
            .is_some_and(|declared| declared.repetition == Repetition::Single);
        if has_key == single || !reference.exact {
            return ReferenceOutcome::Fine;
        }
        let Some(child) = self.view.child(name) else {
            return ReferenceOutcome::Fine;
        };
        if child.incomplete || child.output(output).is_some() {
            return ReferenceOutcome::Fine;
        }
        let Some(range) = at.range else {
            return ReferenceOutcome::Fine;
        };
        let length = tofu_syntax::text::to_u32(output.len()) + 1;
        let step = TextRange::new(range.end.saturating_sub(length), range.end);
        // HCL reads the call's outputs as an object: no suggestion.
        let detail = format!(
            "This object does not have an attribute named {}.",
            go_quote(output)
        );
        ReferenceOutcome::Evaluation(
            Diagnostic::new(
                crate::codes::UNDECLARED_MODULE_OUTPUT,
                "Unsupported attribute",
                Location::new(reference.file, step),
            )
            .with_detail(detail),
        )
    }

    fn variable(&self, reference: &Ref, at: Location, name: &str) -> ReferenceOutcome {
        if self.view.declares_variable(name) {
            return ReferenceOutcome::Fine;
        }
        let suggestion = self.view.suggest(NameList::Variables, name);
        let suggestion = suggestion.as_deref();
        let mut diagnostic = undeclared_variable(at, name, suggestion);
        if self.records {
            self.view.record_undeclared_variable(at, name);
        }
        if let Some(fix) = suggestion
            .and_then(|suggestion| rename_fix(self.view, reference, at, "var", name, suggestion))
        {
            diagnostic = diagnostic.with_fix(fix);
        }
        ReferenceOutcome::Dynamic(diagnostic)
    }

    fn local(&self, reference: &Ref, at: Location, name: &str) -> ReferenceOutcome {
        if self.view.declares_local(name) {
            return ReferenceOutcome::Fine;
        }
        let suggestion = self.view.suggest(NameList::Locals, name);
        let suggestion = suggestion.as_deref();
        let mut diagnostic = undeclared_local(at, name, suggestion);
        if let Some(fix) = suggestion
            .and_then(|suggestion| rename_fix(self.view, reference, at, "local", name, suggestion))
        {
            diagnostic = diagnostic.with_fix(fix);
        }
        ReferenceOutcome::Dynamic(diagnostic)
    }

    fn count(&self, kind: UnitKind, at: Location, name: &str) -> ReferenceOutcome {
        if name != "index" {
            return ReferenceOutcome::Dynamic(
                Diagnostic::new(crate::codes::INVALID_REFERENCE, "Invalid \"count\" attribute", at)
                    .with_detail(format!(
                        "The \"count\" object does not have an attribute named {}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set.",
                        go_quote(name)
                    )),
            );
        }
        if self.instance(kind) == Some(Repetition::Count) || kind == UnitKind::ModuleArgument {
            return ReferenceOutcome::Fine;
        }
        ReferenceOutcome::Dynamic(
            Diagnostic::new(
                crate::codes::UNAVAILABLE_REFERENCE,
                "Reference to \"count\" in non-counted context",
                at,
            )
            .with_detail("The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set."),
        )
    }

    fn each(&self, kind: UnitKind, at: Location, name: &str) -> ReferenceOutcome {
        let diagnostic = match name {
            "key" | "value" => {
                if self.instance(kind) == Some(Repetition::ForEach)
                    || kind == UnitKind::ModuleArgument
                {
                    return ReferenceOutcome::Fine;
                }
                if name == "key" {
                    Diagnostic::new(
                        crate::codes::UNAVAILABLE_REFERENCE,
                        "Reference to \"each\" in context without for_each",
                        at,
                    )
                    .with_detail("The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.")
                } else {
                    Diagnostic::new(
                        crate::codes::UNAVAILABLE_REFERENCE,
                        "each.value cannot be used in this context",
                        at,
                    )
                    .with_detail("A reference to \"each.value\" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its \"for_each\" expression. Remove this reference to each.value in your configuration to work around this error.")
                }
            }
            _ => Diagnostic::new(crate::codes::INVALID_REFERENCE, "Invalid \"each\" attribute", at)
                .with_detail(format!(
                    "The \"each\" object does not have an attribute named {}. The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set.",
                    go_quote(name)
                )),
        };
        ReferenceOutcome::Dynamic(diagnostic)
    }

    /// The repetition `count` and `each` see in a unit of this kind.
    fn instance(&self, kind: UnitKind) -> Option<Repetition> {
        match kind {
            UnitKind::Instance { .. }
            | UnitKind::ResourceBody
            | UnitKind::ProviderBody
            | UnitKind::LaterProvisioner => Some(self.repetition),
            _ => None,
        }
    }
}

/// `import` blocks: OpenTofu's walk evaluates `id` and `for_each`, where an
/// input variable or local value must be declared (their `to` is an
/// address, and what it names is not checked).
pub(crate) fn imports(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let declarations = view.declarations();
    for &block_ref in &declarations.other {
        let Some(block) = view.block(block_ref) else {
            continue;
        };
        if block.kind == "import" {
            import_references(view, block_ref, block, true, out);
        }
    }
}

/// Whether a reference in an `import` block's `id` or `for_each` names an
/// input variable or local value the module does not declare (what
/// [`imports`] reports; OpenTofu evaluates nothing of the block then).
pub(crate) fn import_references_fail(
    view: &ModuleView<'_>,
    block_ref: BlockRef,
    block: &Block,
) -> bool {
    let mut found = Vec::new();
    import_references(view, block_ref, block, false, &mut found);
    !found.is_empty()
}

/// The undeclared input variables and local values an `import` block's
/// `id` and `for_each` read, into `out`; with `record`, each undeclared
/// variable is recorded for the "declare it" fix.
fn import_references(
    view: &ModuleView<'_>,
    block_ref: BlockRef,
    block: &Block,
    record: bool,
    out: &mut Vec<Diagnostic>,
) {
    let declarations = view.declarations();
    let Some(file) = view.file_to(block_ref.file, block.range.end) else {
        return;
    };
    for attribute in block
        .body
        .attributes
        .iter()
        .filter(|attribute| matches!(attribute.name.as_str(), "id" | "for_each"))
    {
        for reference in expression_refs(block_ref.file, file, &attribute.expr, &[]) {
            let Ok(parsed) = &reference.parsed else {
                continue;
            };
            let at = Location::new(reference.file, parsed.range);
            match &parsed.subject {
                Referenceable::Variable(name)
                    if declarations
                        .get(&BlockAddress::Variable(name.clone()))
                        .is_none() =>
                {
                    let names =
                        declarations
                            .blocks
                            .iter()
                            .filter_map(|declared| match &declared.address {
                                BlockAddress::Variable(name) => Some(name.as_str()),
                                _ => None,
                            });
                    out.push(undeclared_variable(at, name, did_you_mean(name, names)));
                    if record {
                        view.record_undeclared_variable(at, name);
                    }
                }
                Referenceable::Local(name) if declarations.local(name).is_none() => {
                    let names = declarations.locals.iter().map(|local| local.name.as_str());
                    out.push(undeclared_local(at, name, did_you_mean(name, names)));
                }
                _ => {}
            }
        }
    }
}

/// "Reference to undeclared input variable", in OpenTofu's words.
pub(crate) fn undeclared_variable(
    at: Location,
    name: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let mut detail = format!(
        "An input variable with the name {} has not been declared.",
        go_quote(name)
    );
    match suggestion {
        Some(suggestion) => detail.push_str(&format!(" Did you mean {}?", go_quote(suggestion))),
        None => detail.push_str(&format!(
            " This variable can be declared with a variable {} {{}} block.",
            go_quote(name)
        )),
    }
    Diagnostic::new(
        crate::codes::UNDECLARED_REFERENCE,
        "Reference to undeclared input variable",
        at,
    )
    .with_detail(detail)
}

/// "Reference to undeclared local value", in OpenTofu's words.
pub(crate) fn undeclared_local(at: Location, name: &str, suggestion: Option<&str>) -> Diagnostic {
    let mut detail = format!(
        "A local value with the name {} has not been declared.",
        go_quote(name)
    );
    if let Some(suggestion) = suggestion {
        detail.push_str(&format!(" Did you mean {}?", go_quote(suggestion)));
    }
    Diagnostic::new(
        crate::codes::UNDECLARED_REFERENCE,
        "Reference to undeclared local value",
        at,
    )
    .with_detail(detail)
}

/// `path.NAME`: `cwd`, `module` and `root` exist.
fn path(at: Location, name: &str) -> ReferenceOutcome {
    const NAMES: [&str; 3] = ["cwd", "module", "root"];
    if NAMES.contains(&name) {
        return ReferenceOutcome::Fine;
    }
    let mut detail = format!(
        "The \"path\" object does not have an attribute named {}.",
        go_quote(name)
    );
    if let Some(suggestion) = did_you_mean(name, NAMES) {
        detail.push_str(&format!(" Did you mean {}?", go_quote(suggestion)));
    }
    ReferenceOutcome::Dynamic(
        Diagnostic::new(
            crate::codes::INVALID_REFERENCE,
            "Invalid \"path\" attribute",
            at,
        )
        .with_detail(detail),
    )
}

/// `terraform.NAME` and `tofu.NAME`: `workspace` and `applying` exist.
fn terraform(at: Location, root: &str, name: &str) -> ReferenceOutcome {
    let detail = match name {
        "workspace" | "applying" => return ReferenceOutcome::Fine,
        "env" => format!(
            "The {root}.env attribute was deprecated in v0.10 and removed in v0.12. The \"state environment\" concept was renamed to \"workspace\" in v0.12, and so the workspace name can now be accessed using the {root}.workspace attribute."
        ),
        _ => format!(
            "The {} object does not have an attribute named {}. The only supported attribute is {root}.workspace, the name of the currently-selected workspace.",
            go_quote(root),
            go_quote(name)
        ),
    };
    ReferenceOutcome::Dynamic(
        Diagnostic::new(
            crate::codes::INVALID_REFERENCE,
            format!("Invalid \"{root}\" attribute"),
            at,
        )
        .with_detail(detail),
    )
}

/// "Did you mean" as a quick fix: the name after `ROOT.` replaced, when
/// it is written where the reference says (not in a JSON string with
/// escapes). Not safe: the suggestion is a guess.
fn rename_fix(
    view: &IdentityView<'_>,
    reference: &Ref,
    at: Location,
    root: &str,
    name: &str,
    suggestion: &str,
) -> Option<Fix> {
    let range = at.range?;
    let written = view.file(reference.file)?.text(range)?.slice(range);
    let after_root = written.strip_prefix(root)?.strip_prefix('.')?;
    if !reference.exact || !after_root.starts_with(name) {
        return None;
    }
    let name_start = range.start as usize + root.len() + 1;
    let name_range = TextRange::from_usize(name_start, name_start + name.len());
    Some(
        Fix::new(format!("Replace with {root}.{suggestion}")).with_edit(
            reference.file,
            name_range,
            suggestion,
        ),
    )
}

//! The reference index of the merged module: for each node of OpenTofu's
//! dependency graph (a merged identity, or a local value), the references of
//! its effective configuration, grouped into the evaluation units OpenTofu's
//! `validate` walk judges them in.
//!
//! Only what is in effect after override merging is read: a definition an
//! override replaced contributes nothing, one it added is read in the
//! override file. Each reference keeps what `addrs.ParseRef` makes of it
//! (`expr::parse_ref`, the same reading `reference_sites` gives editors) and
//! the range of the steps read from its subject.
//!
//! What forms a unit follows OpenTofu 1.12.6 (`/work/notes`-style evidence in
//! `docs/oracle.md`): a resource's body is one unit (with its `dynamic`
//! contents, whose iterator names are bound there), `count` and `for_each`
//! are units of their own (evaluated with no instance), `depends_on` items are
//! judged in order, each condition block is a unit (a resource's `condition`
//! and `error_message` apart), each provisioner and connection is a unit, each
//! module argument is a unit (where `count` and `each` are never judged), an
//! output's preconditions come before its value, a provider configuration's
//! own arguments and nested blocks are one unit (judged only with its
//! provider's schema). Arguments OpenTofu reads but `validate` does not
//! evaluate (`lifecycle` `enabled`, `prevent_destroy`,
//! `replace_triggered_by`, a provider configuration's meta-arguments, module
//! `source` and `version`) are kept apart as `unevaluated`: they still count
//! as uses and as dependency edges where OpenTofu adds one.

use std::sync::Arc;

use tofu_syntax::{Block, Body, Expr, FileId, TextRange};

use crate::address::BlockAddress;
use crate::effective::{EffectiveAttribute, EffectiveBlock, EffectiveBody, EffectiveLocal};
use crate::expr::parse_ref::{parse_ref, Referenceable, StepRef};
use crate::expr::walk;
use crate::loaded::{LoadedModule, ModuleFile};
use crate::refs::{NodeReferences, Ref, Unit, UnitKind};
use crate::schema::{PROVIDER_META_ARGUMENTS, PROVIDER_META_BLOCKS};

/// The references of an expression written in `file`, with names bound by
/// enclosing `dynamic` blocks skipped.
pub fn expression_refs(
    file_id: FileId,
    file: &ModuleFile,
    expr: &Expr,
    bound: &[String],
) -> Vec<Ref> {
    let found = walk::references_bound(&file.text, expr, file.is_json(), bound);
    found
        .references
        .iter()
        .map(|found| reference_of(file_id, &found.steps, found.exact))
        .collect()
}

/// One reference from its static steps.
fn reference_of(
    file_id: FileId,
    found_steps: &[crate::expr::traversal::ParsedStep],
    exact: bool,
) -> Ref {
    let steps: Vec<StepRef<'_>> = found_steps.iter().map(StepRef::from).collect();
    let parsed = parse_ref(&steps);
    let subject_end = match &parsed {
        Ok(reference) => reference.range.end,
        Err(error) => error.range.end,
    };
    // The steps read from the subject: those after the ones it consists of
    // (counted, since in a JSON string with escapes every range is the
    // string's).
    let consumed = match &parsed {
        Ok(reference) => match &reference.subject {
            Referenceable::Resource { key, .. } => {
                let prefixed = matches!(
                    found_steps.first().map(|step| &step.part),
                    Some(crate::expr::traversal::Part::Name(root)) if matches!(root.as_str(), "data" | "ephemeral" | "resource")
                );
                usize::from(prefixed) + 2 + usize::from(key.is_some())
            }
            Referenceable::ModuleCall { key, output, .. } => {
                2 + usize::from(key.is_some()) + usize::from(output.is_some())
            }
            Referenceable::SelfObject => 1,
            _ => 2,
        },
        Err(_) => found_steps.len(),
    };
    let after: Vec<_> = found_steps
        .get(consumed..)
        .unwrap_or_default()
        .iter()
        .collect();
    // From the end of the subject: HCL's attribute steps include their dot.
    let remaining = after
        .last()
        .map(|last| TextRange::new(subject_end, last.range.end.max(subject_end)));
    let is_resource = matches!(
        &parsed,
        Ok(reference) if matches!(reference.subject, Referenceable::Resource { .. } | Referenceable::SelfObject)
    );
    // Each attribute step from the end of the step before it, so that it
    // holds its dot, as HCL's `TraverseAttr` ranges do.
    let after_steps: Box<[crate::expr::traversal::ParsedStep]> = if is_resource {
        let mut previous_end = subject_end;
        after
            .iter()
            .map(|step| {
                let mut step = (*step).clone();
                if matches!(step.part, crate::expr::traversal::Part::Name(_))
                    && previous_end < step.range.start
                {
                    step.range = TextRange::new(previous_end, step.range.end);
                }
                previous_end = step.range.end;
                step
            })
            .collect()
    } else {
        Box::default()
    };
    let first_attribute = after.first().and_then(|step| match &step.part {
        crate::expr::traversal::Part::Name(name) => Some(name.clone()),
        crate::expr::traversal::Part::Index(_) => None,
    });
    let (root, root_range) = match found_steps.first() {
        Some(step) => match &step.part {
            crate::expr::traversal::Part::Name(name) => (name.clone(), step.range),
            crate::expr::traversal::Part::Index(_) => (String::new(), step.range),
        },
        None => (String::new(), TextRange::default()),
    };
    Ref {
        file: file_id,
        parsed,
        remaining,
        first_attribute,
        after: after_steps,
        exact,
        root,
        root_range,
    }
}

/// The references of a `depends_on` list. In JSON its strings are
/// traversals, not templates; OpenTofu's range for one starts at the opening
/// quote (and spans the traversal's length).
fn depends_on_refs(file_id: FileId, file: &ModuleFile, expr: &Expr) -> Vec<Ref> {
    if !file.is_json() {
        return expression_refs(file_id, file, expr, &[]);
    }
    let tofu_syntax::ExprKind::Array(items) = &expr.kind else {
        return Vec::new();
    };
    let mut refs = Vec::new();
    for item in items {
        let tofu_syntax::ExprKind::String(content) = &item.kind else {
            continue;
        };
        let parsed = crate::expr::traversal::parse_traversal(content);
        if parsed.error.is_some() || parsed.steps.is_empty() {
            continue;
        }
        let steps: Vec<crate::expr::traversal::ParsedStep> = parsed
            .steps
            .into_iter()
            .map(|step| crate::expr::traversal::ParsedStep {
                part: step.part,
                range: step.range.shifted(item.range.start),
            })
            .collect();
        refs.push(reference_of(file_id, &steps, true));
    }
    refs
}

/// The references of a merged identity.
pub fn of_block(module: &LoadedModule, effective: &EffectiveBlock) -> Arc<NodeReferences> {
    let mut reader = Reader {
        module,
        refs: NodeReferences::default(),
    };
    let body = &effective.body;
    match &effective.address {
        BlockAddress::Resource { .. } => reader.resource(body),
        BlockAddress::Module(_) => reader.module_call(body),
        BlockAddress::Output(_) => reader.output(body),
        BlockAddress::Variable(_) => {
            for validation in body.blocks.iter().filter(|b| b.kind == "validation") {
                reader.condition_unit(validation, Unknown::Nothing);
            }
        }
        BlockAddress::Check(_) => {
            for assert in body.blocks.iter().filter(|b| b.kind == "assert") {
                reader.condition_unit(assert, Unknown::ErrorMessage);
            }
        }
        BlockAddress::Provider { .. } => reader.provider(body),
    }
    Arc::new(reader.refs)
}

/// The references of a merged local value.
pub fn of_local(module: &LoadedModule, local: &EffectiveLocal) -> Arc<NodeReferences> {
    let mut reader = Reader {
        module,
        refs: NodeReferences::default(),
    };
    let refs = reader.attribute(&local.attribute, &[]);
    reader.unit(UnitKind::Plain, refs);
    Arc::new(reader.refs)
}

/// What OpenTofu evaluates in a condition block after a static error.
#[derive(Clone, Copy)]
enum Unknown {
    Nothing,
    All,
    ErrorMessage,
}

struct Reader<'m> {
    module: &'m LoadedModule,
    refs: NodeReferences,
}

impl Reader<'_> {
    /// A module argument's unit, recorded under its name.
    fn argument(&mut self, name: &str, refs: Vec<Ref>) {
        self.refs
            .arguments
            .push((name.to_owned(), self.refs.units.len()));
        self.unit(UnitKind::ModuleArgument, refs);
    }

    fn unit(&mut self, kind: UnitKind, refs: Vec<Ref>) {
        self.refs.units.push(Unit {
            kind,
            refs,
            unknown_after_static: None,
        });
    }

    /// The references of an effective attribute, read where it was written.
    fn attribute(&self, attribute: &EffectiveAttribute, bound: &[String]) -> Vec<Ref> {
        let file_id = attribute.origin.file;
        let Some(file) = self.module.file(file_id) else {
            return Vec::new();
        };
        let Some(written) = file.attribute_at(attribute.origin.range) else {
            return Vec::new();
        };
        expression_refs(file_id, file, &written.expr, bound)
    }

    /// The references of an effective `depends_on`.
    fn depends_on(&self, attribute: &EffectiveAttribute) -> Vec<Ref> {
        let file_id = attribute.origin.file;
        let Some(file) = self.module.file(file_id) else {
            return Vec::new();
        };
        let Some(written) = file.attribute_at(attribute.origin.range) else {
            return Vec::new();
        };
        depends_on_refs(file_id, file, &written.expr)
    }

    /// Every reference of an effective body, nested blocks included.
    fn body_refs(&self, body: &EffectiveBody, bound: &[String], out: &mut Vec<Ref>) {
        for attribute in &body.attributes {
            out.extend(self.attribute(attribute, bound));
        }
        for nested in &body.blocks {
            self.nested_refs(nested.origin.file, nested.range, &nested.body, bound, out);
        }
    }

    /// A nested block's references; a `dynamic` block's `for_each` is read
    /// outside its iterator's scope, its `content` inside.
    fn nested_refs(
        &self,
        file_id: FileId,
        range: TextRange,
        body: &EffectiveBody,
        bound: &[String],
        out: &mut Vec<Ref>,
    ) {
        let written = self
            .module
            .file(file_id)
            .and_then(|file| Some((file, find_block(&file.source.as_ref()?.body, range)?)));
        match written {
            Some((file, block)) if block.kind == "dynamic" => {
                self.dynamic_refs(file_id, file, block, bound, out)
            }
            _ => self.body_refs(body, bound, out),
        }
    }

    fn dynamic_refs(
        &self,
        file_id: FileId,
        file: &ModuleFile,
        block: &Block,
        bound: &[String],
        out: &mut Vec<Ref>,
    ) {
        let iterator = block
            .body
            .attribute("iterator")
            .and_then(|attr| match &attr.expr.kind {
                tofu_syntax::ExprKind::Traversal(t) if t.steps.is_empty() => Some(t.root.clone()),
                _ => None,
            })
            .or_else(|| block.labels.first().map(|label| label.value.clone()));
        for attr in &block.body.attributes {
            if attr.name != "iterator" {
                out.extend(expression_refs(file_id, file, &attr.expr, bound));
            }
        }
        let mut inner: Vec<String> = bound.to_vec();
        inner.extend(iterator);
        for nested in &block.body.blocks {
            if nested.kind == "content" {
                self.written_body_refs(file_id, file, &nested.body, &inner, out);
            }
        }
    }

    /// Every reference of a body as written in one file.
    fn written_body_refs(
        &self,
        file_id: FileId,
        file: &ModuleFile,
        body: &Body,
        bound: &[String],
        out: &mut Vec<Ref>,
    ) {
        for attr in &body.attributes {
            out.extend(expression_refs(file_id, file, &attr.expr, bound));
        }
        for nested in &body.blocks {
            if nested.kind == "dynamic" {
                self.dynamic_refs(file_id, file, nested, bound, out);
            } else {
                self.written_body_refs(file_id, file, &nested.body, bound, out);
            }
        }
    }

    /// A condition block as one unit: `condition`, then `error_message`.
    /// `unknown` says what OpenTofu evaluates after a static error: nothing
    /// (a variable's validation), all of it (an output's precondition), or
    /// `error_message` alone (a check's assertion).
    fn condition_unit(&mut self, block: &crate::effective::EffectiveNestedBlock, unknown: Unknown) {
        let mut refs = Vec::new();
        let condition = block.body.attribute("condition");
        if let Some(condition) = condition {
            refs.extend(self.attribute(condition, &[]));
        }
        let n_condition = refs.len();
        for attribute in &block.body.attributes {
            if attribute.name != "condition" {
                refs.extend(self.attribute(attribute, &[]));
            }
        }
        let unknown_after_static = match unknown {
            Unknown::Nothing => None,
            Unknown::All => Some(0),
            Unknown::ErrorMessage => Some(n_condition),
        };
        self.refs.units.push(Unit {
            kind: UnitKind::Plain,
            refs,
            unknown_after_static,
        });
    }

    fn resource(&mut self, body: &EffectiveBody) {
        let mut body_refs = Vec::new();
        for attribute in &body.attributes {
            let refs = self.attribute(attribute, &[]);
            match attribute.name.as_str() {
                "count" | "for_each" => self.unit(UnitKind::Repetition, refs),
                "depends_on" => {
                    let refs = self.depends_on(attribute);
                    self.unit(UnitKind::DependsOn, refs);
                }
                "provider" => {}
                _ => body_refs.extend(refs),
            }
        }
        let mut later = Vec::new();
        let mut n_provisioners = 0;
        for nested in &body.blocks {
            match nested.kind.as_str() {
                "lifecycle" => {
                    for attribute in &nested.body.attributes {
                        if attribute.name != "ignore_changes" {
                            let refs = self.attribute(attribute, &[]);
                            self.refs.unevaluated.extend(refs);
                        }
                    }
                    for condition in &nested.body.blocks {
                        let self_allowed = condition.kind == "postcondition";
                        for attribute in &condition.body.attributes {
                            let refs = self.attribute(attribute, &[]);
                            later.push(Unit {
                                kind: UnitKind::Instance { self_allowed },
                                refs,
                                unknown_after_static: Some(0),
                            });
                        }
                    }
                }
                "provisioner" => {
                    let destroy = nested.body.attribute("when").is_some_and(|when| {
                        self.module
                            .file(when.origin.file)
                            .is_some_and(|file| when.value.slice(&file.text).trim() == "destroy")
                    });
                    let mut refs = Vec::new();
                    let mut connection = Vec::new();
                    // `when` and `on_failure` are keywords, not references.
                    for attribute in &nested.body.attributes {
                        if !matches!(attribute.name.as_str(), "when" | "on_failure") {
                            refs.extend(self.attribute(attribute, &[]));
                        }
                    }
                    for inner in &nested.body.blocks {
                        let target = if inner.kind == "connection" {
                            &mut connection
                        } else {
                            &mut refs
                        };
                        self.nested_refs(inner.origin.file, inner.range, &inner.body, &[], target);
                    }
                    if destroy {
                        self.refs.uses_only.extend(refs);
                        self.refs.uses_only.extend(connection);
                        continue;
                    }
                    let kind = if n_provisioners == 0 {
                        UnitKind::Instance { self_allowed: true }
                    } else {
                        UnitKind::LaterProvisioner
                    };
                    n_provisioners += 1;
                    later.push(Unit {
                        kind,
                        refs,
                        unknown_after_static: None,
                    });
                    if !connection.is_empty() {
                        later.push(Unit {
                            kind,
                            refs: connection,
                            unknown_after_static: None,
                        });
                    }
                }
                "connection" => {
                    let mut refs = Vec::new();
                    self.body_refs(&nested.body, &[], &mut refs);
                    later.push(Unit {
                        kind: UnitKind::Instance { self_allowed: true },
                        refs,
                        unknown_after_static: None,
                    });
                }
                _ => {
                    self.nested_refs(
                        nested.origin.file,
                        nested.range,
                        &nested.body,
                        &[],
                        &mut body_refs,
                    );
                }
            }
        }
        self.unit(UnitKind::ResourceBody, body_refs);
        self.refs.units.extend(later);
    }

    /// A provider configuration: its own arguments and nested blocks are
    /// one unit; its meta-arguments are read while loading (`for_each`) or
    /// not evaluated at all.
    fn provider(&mut self, body: &EffectiveBody) {
        let mut body_refs = Vec::new();
        for attribute in &body.attributes {
            let refs = self.attribute(attribute, &[]);
            if PROVIDER_META_ARGUMENTS.contains(&attribute.name.as_str()) {
                self.refs.unevaluated.extend(refs);
            } else {
                body_refs.extend(refs);
            }
        }
        let mut meta_refs = Vec::new();
        for nested in &body.blocks {
            let target = if PROVIDER_META_BLOCKS.contains(&nested.kind.as_str()) {
                &mut meta_refs
            } else {
                &mut body_refs
            };
            self.nested_refs(nested.origin.file, nested.range, &nested.body, &[], target);
        }
        self.refs.unevaluated.extend(meta_refs);
        self.unit(UnitKind::ProviderBody, body_refs);
    }

    fn module_call(&mut self, body: &EffectiveBody) {
        for attribute in &body.attributes {
            let refs = self.attribute(attribute, &[]);
            match attribute.name.as_str() {
                "count" | "for_each" => self.unit(UnitKind::Repetition, refs),
                "depends_on" => {
                    let refs = self.depends_on(attribute);
                    self.unit(UnitKind::DependsOn, refs);
                }
                "source" | "version" => self.refs.uses_only.extend(refs),
                "providers" => {}
                name => self.argument(name, refs),
            }
        }
        for nested in &body.blocks {
            // The escaping block's arguments are arguments like the others.
            if nested.kind == "_" {
                for attribute in &nested.body.attributes {
                    let refs = self.attribute(attribute, &[]);
                    self.argument(&attribute.name, refs);
                }
                continue;
            }
            let mut refs = Vec::new();
            self.body_refs(&nested.body, &[], &mut refs);
            self.refs.unevaluated.extend(refs);
        }
    }

    fn output(&mut self, body: &EffectiveBody) {
        for precondition in body.blocks.iter().filter(|b| b.kind == "precondition") {
            self.condition_unit(precondition, Unknown::All);
        }
        for attribute in &body.attributes {
            let refs = self.attribute(attribute, &[]);
            match attribute.name.as_str() {
                "value" => self.unit(UnitKind::OutputValue, refs),
                "depends_on" => {
                    let refs = self.depends_on(attribute);
                    self.unit(UnitKind::DependsOn, refs);
                }
                _ => self.refs.uses_only.extend(refs),
            }
        }
    }
}

/// The block written exactly at `range`, at any depth of `body`.
fn find_block(body: &Body, range: TextRange) -> Option<&Block> {
    for block in &body.blocks {
        if block.range == range {
            return Some(block);
        }
        if block.range.start <= range.start && range.end <= block.range.end {
            return find_block(&block.body, range);
        }
    }
    None
}

//! What OpenTofu's static evaluation of a module call's `source` and `version`
//! would say, judged from the kinds of references alone (`diagnostics.md` §4.7).
//!
//! [`StaticScope::problems`] mirrors OpenTofu's two passes over an expression:
//! first every reference is validated by kind (`module.X.Y`, provider
//! functions, resources, `count`, `each`, `self`, …); only if all pass are
//! they evaluated, which checks `var.X` against an explicit `const = false`,
//! `terraform.applying`, and the expression of every `local.X`, transitively
//! (with a guard against cycles and deep chains); a local whose evaluation
//! failed also fails whatever needs it ("Unable to compute static value",
//! at the declaration of that subject). [`StaticScope::value`]
//! gives the value where it is a constant (a literal, or a local holding one)
//! and [`StaticScope::is_sensitive`] says when the value is certainly marked
//! sensitive.
//!
//! Deliberately left out (`diagnostics.md` §7): undefined variables and locals,
//! cycles, invalid `path`/`terraform` attributes and malformed references are
//! not reported, and nothing depends on a variable's value. JSON strings
//! holding `${…}` are not parsed: their references and values count as
//! unknown, so nothing is reported about them. Everything here is a pure
//! function of the analysis.

use std::collections::HashSet;

use tofu_syntax::{
    Attribute, Body, Call, Code, Diagnostic, Expr, ExprKind, FileId, Location, Template, TextRange,
    Traversal, TraversalStep,
};

use crate::rules::views::ModuleView;
use tofu_module::address::BlockAddress;
use tofu_module::effective::Origin;

use tofu_module::expr::parse_ref::{parse_provider_function, parse_ref, Referenceable, StepRef};
use tofu_module::expr::traversal::ParsedStep;
use tofu_module::expr::walk;
use tofu_syntax::go_text::go_quote;

/// How many locals deep a chain is followed before giving up silently.
const MAX_LOCAL_DEPTH: usize = 64;

/// The winning definition of an attribute, found in its file's syntax tree.
#[derive(Clone, Copy)]
pub(crate) struct WrittenExpr<'m> {
    pub file: FileId,
    pub expr: &'m Expr,
    pub json: bool,
}

/// The value of an expression, where tofu-lens knows it without evaluating.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum StaticValue {
    Null,
    String(String),
    /// A number as written.
    Number(String),
    Bool(bool),
    /// A tuple or object constructor, with cty's name for its type.
    Collection(&'static str),
    Unknown,
}

/// Static evaluation over one module's effective configuration.
pub(crate) struct StaticScope<'m> {
    view: &'m ModuleView<'m>,
    /// Locals whose expressions were already checked: their problems do not
    /// depend on who refers to them, so each is checked once. This also
    /// breaks cycles and keeps `a = "${b}${b}"` chains linear.
    checked_locals: HashSet<String>,
    /// Of those, the ones whose evaluation reported an error.
    failed_locals: HashSet<String>,
}

impl<'m> StaticScope<'m> {
    pub fn new(view: &'m ModuleView<'m>) -> StaticScope<'m> {
        StaticScope {
            view,
            checked_locals: HashSet::new(),
            failed_locals: HashSet::new(),
        }
    }

    /// The syntax tree of the definition recorded at `origin`.
    pub fn written(&self, origin: Origin) -> Option<WrittenExpr<'m>> {
        let file = self.view.file_to(origin.file, origin.range.end)?;
        let source = file.source.as_ref()?;
        let attribute = find_attribute(&source.body, origin.range)?;
        Some(WrittenExpr {
            file: origin.file,
            expr: &attribute.expr,
            json: file.is_json(),
        })
    }

    /// The text of a file of the module.
    pub fn file_text(&self, file: FileId) -> Option<&'m str> {
        self.view.file(file).map(|file| &*file.text)
    }

    /// What evaluating `written` as `subject` (`module.NAME.source`,
    /// `provider.NAME.ALIAS.for_each`) reports, in OpenTofu's order, with
    /// `code` (`module-source-not-static`, `invalid-provider-for-each`).
    pub fn problems(
        &mut self,
        written: WrittenExpr<'m>,
        subject: &str,
        code: Code,
    ) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let declared = Location::new(written.file, written.expr.range);
        self.evaluate(written, (subject, declared), code, 0, &mut out);
        out
    }

    /// The constant value of `written`, following locals.
    pub fn value(&self, written: WrittenExpr<'m>) -> StaticValue {
        self.value_at(written, 0)
    }

    /// True when the value is certainly marked sensitive: a `sensitive(…)`
    /// call or a `sensitive = true` variable, directly, through locals or in a
    /// template's interpolations.
    pub fn is_sensitive(&self, written: WrittenExpr<'m>) -> bool {
        self.sensitive_at(written, &mut HashSet::new())
    }

    /// Reports what evaluating `written` as `subject` (its name and where
    /// OpenTofu declares it) reports; `true` when that is an error.
    fn evaluate(
        &mut self,
        written: WrittenExpr<'m>,
        (subject, declared): (&str, Location),
        code: Code,
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) -> bool {
        let n_before = out.len();
        let Some(file) = self.view.file_to(written.file, written.expr.range.end) else {
            return false;
        };
        let references = references_in(&file.text, written.expr, written.json);
        let at = |range| Location::new(written.file, range);
        let mut invalid = false;
        for reference in &references {
            let (summary, name) = match &reference.kind {
                ReferenceKind::ModuleOutput(name) => {
                    ("Module output not supported in static context", name)
                }
                ReferenceKind::ProviderFunction(name) => {
                    ("Provider function in static context", name)
                }
                ReferenceKind::Dynamic(name) => ("Dynamic value in static context", name),
                _ => continue,
            };
            invalid = true;
            out.push(
                Diagnostic::new(code, summary, at(reference.range)).with_detail(format!(
                    "Unable to use {name} in static context, which is required by {subject}"
                )),
            );
        }
        if invalid {
            // OpenTofu stops before evaluating anything when a reference is
            // of the wrong kind.
            return true;
        }
        for reference in &references {
            match &reference.kind {
                ReferenceKind::Variable(name)
                    if self.variable_flag(name, "const") == Some(false) =>
                {
                    out.push(
                        Diagnostic::new(
                            code,
                            "Unable to use variable in static context",
                            at(reference.range),
                        )
                        .with_detail(format!(
                            "The variable {} cannot be used in a static context, because it is declared as \"const = false\".",
                            go_quote(name)
                        )),
                    );
                }
                ReferenceKind::TerraformAttribute(name) if name == "applying" => {
                    out.push(
                        Diagnostic::new(
                            code,
                            "Invalid attribute in static context",
                            at(reference.range),
                        )
                        .with_detail("The applying attribute can not be used during static evaluation and is only valid in the plan and apply phases of execution"),
                    );
                }
                ReferenceKind::Local(name) => {
                    if depth >= MAX_LOCAL_DEPTH {
                        continue;
                    }
                    let failed = if self.checked_locals.insert(name.clone()) {
                        let failed = self.local_with_declaration(name).is_some_and(
                            |(local, local_declared)| {
                                let local_subject = format!("local.{name}");
                                self.evaluate(
                                    local,
                                    (&local_subject, local_declared),
                                    code,
                                    depth + 1,
                                    out,
                                )
                            },
                        );
                        if failed {
                            self.failed_locals.insert(name.clone());
                        }
                        failed
                    } else {
                        self.failed_locals.contains(name)
                    };
                    // `staticScopeData.enhanceDiagnostics`: the subject that
                    // needed the local, at its declaration.
                    if failed {
                        out.push(
                            Diagnostic::new(code, "Unable to compute static value", declared)
                                .with_detail(format!(
                                    "{subject} depends on local.{name} which is not available"
                                )),
                        );
                    }
                }
                _ => {}
            }
        }
        out.len() > n_before
    }

    fn value_at(&self, written: WrittenExpr<'m>, depth: usize) -> StaticValue {
        match &written.expr.kind {
            ExprKind::Null => StaticValue::Null,
            ExprKind::String(text) => StaticValue::String(text.clone()),
            ExprKind::Number(text) => StaticValue::Number(text.clone()),
            ExprKind::Bool(value) => StaticValue::Bool(*value),
            ExprKind::Array(_) => StaticValue::Collection("tuple"),
            ExprKind::Object(_) => StaticValue::Collection("object"),
            // `sensitive(x)` is `x` with a mark; `is_sensitive` reports the mark.
            ExprKind::Call(Call { name, args, .. }) if name == "sensitive" => match args.as_slice()
            {
                [arg] => self.value_at(
                    WrittenExpr {
                        expr: arg,
                        ..written
                    },
                    depth,
                ),
                _ => StaticValue::Unknown,
            },
            ExprKind::Traversal(traversal) if depth < MAX_LOCAL_DEPTH => {
                // `const` variables are not evaluated (spec §7: their value
                // may come from the caller), though `tofu validate` uses
                // their default.
                let named = local_name(traversal).and_then(|name| self.local(name));
                match named {
                    Some(written) => self.value_at(written, depth + 1),
                    None => StaticValue::Unknown,
                }
            }
            _ => StaticValue::Unknown,
        }
    }

    /// `visited` holds the locals already looked at in this query: a second
    /// look cannot change the answer.
    fn sensitive_at(&self, written: WrittenExpr<'m>, visited: &mut HashSet<String>) -> bool {
        match &written.expr.kind {
            ExprKind::Call(Call { name, args, .. }) => name == "sensitive" && args.len() == 1,
            ExprKind::Traversal(traversal) => {
                let Some(TraversalStep::Attr { name, .. }) = traversal.steps.first() else {
                    return false;
                };
                match traversal.root.as_str() {
                    "var" => self.variable_flag(name, "sensitive") == Some(true),
                    "local" => {
                        visited.insert(name.clone())
                            && self
                                .local(name)
                                .is_some_and(|local| self.sensitive_at(local, visited))
                    }
                    _ => false,
                }
            }
            // Interpolations carry their marks into the result; directives
            // (`%{if}`) may not use every part, so they are left alone.
            ExprKind::Template(Template {
                expressions: parts, ..
            }) if !written.json && !self.has_directive(written) => parts.iter().any(|part| {
                self.sensitive_at(
                    WrittenExpr {
                        expr: part,
                        ..written
                    },
                    visited,
                )
            }),
            _ => false,
        }
    }

    fn has_directive(&self, written: WrittenExpr<'m>) -> bool {
        self.view
            .file_to(written.file, written.expr.range.end)
            .is_none_or(|file| written.expr.range.slice(&file.text).contains("%{"))
    }

    /// The winning expression of `local.NAME`.
    fn local(&self, name: &str) -> Option<WrittenExpr<'m>> {
        self.local_with_declaration(name)
            .map(|(written, _)| written)
    }

    /// The winning expression of `local.NAME`, and its whole definition
    /// (`NAME = …`, a local value's declaration range to OpenTofu).
    fn local_with_declaration(&self, name: &str) -> Option<(WrittenExpr<'m>, Location)> {
        let origin = self.view.local(name)?.attribute.origin;
        Some((
            self.written(origin)?,
            Location::new(origin.file, origin.range),
        ))
    }

    /// A variable's `const` or `sensitive` argument when it is a literal bool.
    fn variable_flag(&self, variable: &str, argument: &str) -> Option<bool> {
        let block = self
            .view
            .effective(&BlockAddress::Variable(variable.to_owned()))?;
        let attribute = block.body.attribute(argument)?;
        self.written(attribute.origin)?.expr.as_bool()
    }
}

/// `NAME` of a plain `local.NAME` reference.
fn local_name(traversal: &Traversal) -> Option<&str> {
    match (traversal.root.as_str(), traversal.steps.as_slice()) {
        ("local", [TraversalStep::Attr { name, .. }]) => Some(name),
        _ => None,
    }
}

/// The attribute written at `range`, anywhere in `body`.
fn find_attribute(body: &Body, range: TextRange) -> Option<&Attribute> {
    if let Some(attribute) = body.attributes.iter().find(|attr| attr.range == range) {
        return Some(attribute);
    }
    body.blocks
        .iter()
        .filter(|block| block.range.start <= range.start && range.end <= block.range.end)
        .find_map(|block| find_attribute(&block.body, range))
}

/// What a reference names, as OpenTofu's `addrs.ParseRef` reads it.
#[derive(Debug, PartialEq)]
enum ReferenceKind {
    Local(String),
    Variable(String),
    /// `path.X`: allowed.
    Path,
    /// `terraform.X` or `tofu.X`.
    TerraformAttribute(String),
    /// `module.NAME.OUTPUT`, as OpenTofu prints it.
    ModuleOutput(String),
    ProviderFunction(String),
    /// Anything else that parses, as OpenTofu prints it.
    Dynamic(String),
    /// A reference OpenTofu refuses to parse (reported elsewhere or not at all).
    Invalid,
}

#[derive(Debug)]
struct Reference {
    kind: ReferenceKind,
    range: TextRange,
}

/// The references of an expression ([`tofu_module::expr::walk`]), each read by
/// `addrs.ParseRef`, and its provider function calls.
fn references_in(text: &str, expr: &Expr, json: bool) -> Vec<Reference> {
    let found = walk::references(text, expr, json);
    let calls = found.provider_functions.into_iter().map(|call| {
        let kind = match parse_provider_function(&call.name, call.range) {
            Ok(()) => ReferenceKind::ProviderFunction(call.name),
            Err(_) => ReferenceKind::Invalid,
        };
        (
            call.range.start,
            Reference {
                kind,
                range: call.range,
            },
        )
    });
    let mut references: Vec<(u32, Reference)> = found
        .references
        .iter()
        .map(|reference| {
            let root_range = reference
                .steps
                .first()
                .map(|step| step.range)
                .unwrap_or_default();
            (root_range.start, classify(root_range, &reference.steps))
        })
        .chain(calls)
        .collect();
    references.sort_by_key(|(start, _)| *start);
    references
        .into_iter()
        .map(|(_, reference)| reference)
        .collect()
}

/// What one reference names, through `addrs.ParseRef`, and the range
/// OpenTofu reports (the subject, without the attributes read from it).
fn classify(root_range: TextRange, kept: &[ParsedStep]) -> Reference {
    let steps: Vec<StepRef<'_>> = kept.iter().map(StepRef::from).collect();
    let Ok(parsed) = parse_ref(&steps) else {
        return Reference {
            kind: ReferenceKind::Invalid,
            range: root_range,
        };
    };
    let kind = match parsed.subject {
        Referenceable::Local(name) => ReferenceKind::Local(name),
        Referenceable::Variable(name) => ReferenceKind::Variable(name),
        Referenceable::Path(_) => ReferenceKind::Path,
        Referenceable::Terraform { name, .. } => ReferenceKind::TerraformAttribute(name),
        Referenceable::ModuleCall {
            output: Some(_), ..
        } => ReferenceKind::ModuleOutput(parsed.subject.to_string()),
        subject => ReferenceKind::Dynamic(subject.to_string()),
    };
    Reference {
        kind,
        range: parsed.range,
    }
}

#[cfg(test)]
mod tests;

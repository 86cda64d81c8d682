//! Provider references (`diagnostics.md` §4.12): `provider` of `resource`,
//! `data`, `ephemeral` and `import` blocks and both sides of a module's
//! `providers` map, read the way OpenTofu's `decodeProviderConfigRef` reads
//! them, with `invalid-provider-reference`, `invalid-provider-local-name` and
//! the provider part of `quoted-reference-deprecated`.
//!
//! A reference is decoded in OpenTofu's order: a JSON string's content is
//! parsed as native syntax first; a non-constant index `X[KEY]` is set aside;
//! a native quoted string is read as the traversal it quotes (with a
//! warning); what remains must be `NAME`, `NAME.ALIAS` or `NAME.ALIAS[KEY]`.
//! Whether NAME and ALIAS are configured is left to the module tree build.
//!
//! The decoding lives here, with loading, because the provider tree reads
//! decoded references too ([`decoded_reference`], [`configuration_alias`]);
//! the rules of `tofu-diagnostics` report what decoding finds.

pub mod expr_view;
pub mod file_scope;

use std::fmt;

use tofu_syntax::TraversalStep;
use tofu_syntax::{
    Attribute, Diagnostic, Expr, ExprKind, Fix, Location, Operation, Template, TextRange,
};

use self::expr_view::{
    has_references, keyword_literal, starts_with_keyword_literal, ExprView, Position, RefStep,
};
pub use self::file_scope::FileScope;
use crate::expr::content::{parse_expression, StringContent};
use crate::expr::traversal::{parse_traversal, Part};

/// A provider configuration address as a reference names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderAddress {
    pub name: String,
    pub alias: Option<String>,
}

/// A provider reference OpenTofu decoded (its `ProviderConfigRef`), with
/// its places in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedReference {
    pub address: ProviderAddress,
    /// The local name (`NameRange`).
    pub name_range: TextRange,
    /// The instance key, where one is given (`KeyExpression`): a dynamic
    /// index's key, or the whole reference for a constant one (OpenTofu
    /// ranges a constant key over the traversal).
    pub key_range: Option<TextRange>,
}

impl fmt::Display for ProviderAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.alias {
            Some(alias) => write!(f, "{}.{alias}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// Decodes one provider reference; `argument` names the argument in details
/// (`provider` or `providers`). Returns the reference when OpenTofu reads it
/// without error (warnings aside).
pub fn decode_reference(
    scope: &FileScope<'_>,
    expr: &Expr,
    argument: &str,
    position: Position,
    out: &mut Vec<Diagnostic>,
) -> Option<DecodedReference> {
    if !scope.json() {
        let view = ExprView::file(scope.text());
        return decode_native(scope, &view, expr, argument, position, out);
    }
    let Some(content) = StringContent::of(scope.text(), expr) else {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_PROVIDER_REFERENCE,
                "Expected string expression",
                scope.at(expr.range),
            )
            .with_detail(format!(
                "This value must be a string, but got {}.",
                json_type_name(expr)
            )),
        );
        return None;
    };
    let parsed = match parse_expression(&content.value) {
        Ok(parsed) => parsed,
        Err(error) => {
            // The native parser's words are about bodies; where the content
            // is meant as a traversal, HCL's traversal errors say it better.
            let diagnostic = match parse_traversal(&content.value).error {
                Some(traversal_error) => Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_REFERENCE,
                    traversal_error.summary,
                    scope.at(content.map(traversal_error.range)),
                )
                .with_detail(traversal_error.detail),
                None => Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_REFERENCE,
                    "Invalid expression",
                    scope.at(content.map(error.range)),
                )
                .with_detail(error.detail),
            };
            out.push(diagnostic);
            return None;
        }
    };
    let view = ExprView {
        text: &parsed.text,
        offset: parsed.offset,
        content: Some(&content),
    };
    decode_native(scope, &view, &parsed.expr, argument, Position::Value, out)
}

/// A module's `providers` argument: a map of references, each key given once.
pub fn module_providers(scope: &FileScope<'_>, attr: &Attribute, out: &mut Vec<Diagnostic>) {
    let Some(items) = attr.expr.as_object() else {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_PROVIDER_REFERENCE,
                "Invalid expression",
                scope.at(scope.expr_start(&attr.expr)),
            )
            .with_detail("A static map expression is required."),
        );
        return;
    };
    let mut passed: Vec<(String, TextRange)> = Vec::new();
    for item in items {
        let key = decode_reference(scope, &item.key, "providers", Position::ObjectKey, out);
        let value = decode_reference(scope, &item.value, "providers", Position::Value, out);
        let (Some(key), Some(_)) = (key, value) else {
            continue;
        };
        let child_address = key.address.to_string();
        if let Some((_, earlier)) = passed.iter().find(|(seen, _)| *seen == child_address) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_REFERENCE,
                    "Duplicate provider address",
                    scope.at(item.value.range),
                )
                .with_detail(format!(
                    "A provider configuration was already passed to {child_address} at {}. Each child provider configuration can be assigned only once.",
                    scope.describe(*earlier)
                )),
            );
            continue;
        }
        passed.push((child_address, item.key.range.cover(item.value.range)));
    }
}

/// The parts of a `configuration_aliases` element when it is a static
/// reference (`hcl.AbsTraversalForExpr`), `None` otherwise.
pub fn static_reference_parts(scope: &FileScope<'_>, element: &Expr) -> Option<Vec<Part>> {
    if scope.json() {
        let content = StringContent::of(scope.text(), element)?;
        let parsed = parse_traversal(&content.value);
        if parsed.error.is_some() {
            return None;
        }
        return Some(parsed.steps.into_iter().map(|step| step.part).collect());
    }
    let view = ExprView::file(scope.text());
    if let Some(name) = keyword_literal(element) {
        return Some(vec![Part::Name(name.to_owned())]);
    }
    let traversal = match &element.kind {
        ExprKind::Traversal(traversal) => traversal,
        ExprKind::Operation(Operation {
            operands: children, ..
        }) if starts_with_keyword_literal(element, children) => {
            let keyword_root =
                view.keyword_root_traversal(element, children, Position::ObjectKey)?;
            return Some(
                keyword_root
                    .steps
                    .into_iter()
                    .map(|step| step.part)
                    .collect(),
            );
        }
        _ => return None,
    };
    if view.is_parenthesized(element, traversal) {
        return None;
    }
    let steps = view.static_steps(traversal, &traversal.steps)?;
    Some(steps.into_iter().map(|step| step.part).collect())
}

/// The type name HCL gives a JSON value that is not a string.
fn json_type_name(expr: &Expr) -> &'static str {
    match expr.kind {
        ExprKind::Number(_) => "number",
        ExprKind::Bool(_) => "bool",
        ExprKind::Array(_) => "tuple",
        ExprKind::Object(_) => "object",
        ExprKind::Null => "dynamic",
        _ => "string",
    }
}

/// What the expression offers as a reference, before its shape is checked.
struct Candidate {
    /// The steps, or `None` when the expression is no static reference.
    steps: Option<Vec<RefStep>>,
    /// The expression read as the reference (the collection when a key was
    /// set aside), in the file.
    range: TextRange,
    /// A non-constant index was set aside (`aws.west[each.key]`).
    key_set_aside: bool,
    /// The key set aside, in the file.
    key_range: Option<TextRange>,
    /// A quoted template OpenTofu could not read as a reference.
    quoted_template: bool,
    /// An error was already reported (HCL's parse errors of quoted content).
    failed: bool,
    /// Whether step ranges map exactly onto the file (fixes need that).
    exact: bool,
}

fn decode_native(
    scope: &FileScope<'_>,
    view: &ExprView<'_>,
    expr: &Expr,
    argument: &str,
    position: Position,
    out: &mut Vec<Diagnostic>,
) -> Option<DecodedReference> {
    let candidate = candidate(scope, view, expr, position, out)?;
    let max_steps = if candidate.key_set_aside { 2 } else { 3 };
    let steps = match candidate.steps {
        Some(steps) if !steps.is_empty() && steps.len() <= max_steps => steps,
        _ => {
            let detail = if candidate.quoted_template {
                "A provider configuration reference must not be given in quotes.".to_owned()
            } else {
                format!("The {argument} argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key.")
            };
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_REFERENCE,
                    "Invalid provider configuration reference",
                    scope.at(candidate.range),
                )
                .with_detail(detail),
            );
            return None;
        }
    };
    let mut steps = steps.into_iter();
    let root = steps.next()?;
    let Part::Name(name) = &root.part else {
        return None;
    };
    let name_range = root.range;
    let mut key_range = candidate.key_range;
    let fix_range = candidate.exact.then_some(root.range);
    if let Some(diagnostic) =
        scope.local_name_diagnostic(name, "Invalid provider local name", root.range, fix_range)
    {
        out.push(diagnostic);
        return None;
    }
    if candidate.failed {
        return None;
    }
    let stand_alone = "Provider name must either stand alone or be followed by a period and then a configuration alias.";
    let mut alias = None;
    if let Some(second) = steps.next() {
        let Part::Name(alias_name) = second.part else {
            out.push(invalid_reference(scope.at(second.range), stand_alone));
            return None;
        };
        alias = Some(alias_name);
    }
    if let Some(third) = steps.next() {
        if !matches!(third.part, Part::Index(_)) {
            out.push(invalid_reference(scope.at(third.range), stand_alone));
            return None;
        }
        key_range = Some(name_range.cover(third.range));
    }
    if alias.is_none() && candidate.key_set_aside {
        out.push(invalid_reference(
            scope.at(candidate.range),
            "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
        ));
        return None;
    }
    Some(DecodedReference {
        address: ProviderAddress {
            name: name.clone(),
            alias,
        },
        name_range,
        key_range,
    })
}

fn invalid_reference(at: Location, detail: &str) -> Diagnostic {
    Diagnostic::new(
        crate::codes::INVALID_PROVIDER_REFERENCE,
        "Invalid provider configuration reference",
        at,
    )
    .with_detail(detail)
}

/// Steps 2 and 3 of §4.12: sets a dynamic index aside and reads a quoted
/// string as the reference it quotes. `None` when OpenTofu's reading cannot be
/// known here (a quoted template without references).
fn candidate(
    scope: &FileScope<'_>,
    view: &ExprView<'_>,
    expr: &Expr,
    position: Position,
    out: &mut Vec<Diagnostic>,
) -> Option<Candidate> {
    let mut candidate = Candidate {
        steps: None,
        range: view.to_file(expr.range),
        key_set_aside: false,
        key_range: None,
        quoted_template: false,
        failed: false,
        exact: view.is_exact(),
    };
    if let Some(name) = keyword_literal(expr) {
        candidate.steps = Some(vec![RefStep {
            part: Part::Name(name.to_owned()),
            range: candidate.range,
        }]);
        return Some(candidate);
    }
    match &expr.kind {
        ExprKind::Traversal(traversal) if !view.is_parenthesized(expr, traversal) => {
            let mut kept: &[TraversalStep] = &traversal.steps;
            if let (Some((TraversalStep::Index { key, .. }, before)), Position::Value) =
                (traversal.steps.split_last(), position)
            {
                if !view.is_constant_key(key) {
                    kept = before;
                    candidate.key_set_aside = true;
                    candidate.key_range = Some(view.to_file(key.range));
                    let end = before
                        .last()
                        .map_or(traversal.root_range.end, |step| step_range(step).end);
                    candidate.range = view.to_file(TextRange::new(traversal.root_range.start, end));
                }
            }
            candidate.steps = view.static_steps(traversal, kept);
        }
        ExprKind::Operation(Operation {
            operands: children, ..
        }) if starts_with_keyword_literal(expr, children) => {
            if let Some(keyword_root) = view.keyword_root_traversal(expr, children, position) {
                candidate.key_set_aside = keyword_root.key_set_aside;
                candidate.key_range = keyword_root.key_set_aside.then_some(candidate.range);
                candidate.range = keyword_root.range;
                candidate.steps = Some(keyword_root.steps);
            }
        }
        ExprKind::String(_)
            if view.starts_with(expr.range, "\"") || view.starts_with(expr.range, "<<") =>
        {
            read_quoted_reference(scope, view, expr, &mut candidate, out);
        }
        ExprKind::Template(Template {
            expressions: parts, ..
        }) if view.starts_with(expr.range, "\"") || view.starts_with(expr.range, "<<") => {
            if is_template_wrap(view, expr, parts) {
                // `"${aws.west}"` is an interpolation, not a quoted string.
            } else if has_references(expr) {
                candidate.quoted_template = true;
            } else {
                return None;
            }
        }
        _ => {}
    }
    Some(candidate)
}

fn step_range(step: &TraversalStep) -> TextRange {
    match step {
        TraversalStep::Attr { range, .. }
        | TraversalStep::Index { range, .. }
        | TraversalStep::Splat { range, .. } => *range,
    }
}

/// `"${X}"` alone: HCL's template wrap, which is the expression X.
fn is_template_wrap(view: &ExprView<'_>, expr: &Expr, parts: &[Expr]) -> bool {
    let [only] = parts else { return false };
    let before = TextRange::new(expr.range.start, only.range.start).slice(view.text);
    let after = TextRange::new(only.range.end, expr.range.end).slice(view.text);
    let opens = before
        .strip_prefix("\"${")
        .is_some_and(|rest| rest.trim_start_matches('~').trim().is_empty());
    let closes = after
        .strip_suffix("}\"")
        .is_some_and(|rest| rest.trim().trim_end_matches('~').trim().is_empty());
    opens && closes
}

/// The compatibility shim: a quoted reference is deprecated but read as the
/// traversal it quotes; HCL's parse errors are reported too.
fn read_quoted_reference(
    scope: &FileScope<'_>,
    view: &ExprView<'_>,
    expr: &Expr,
    candidate: &mut Candidate,
    out: &mut Vec<Diagnostic>,
) {
    let Some(content) = StringContent::of(view.text, expr) else {
        return;
    };
    let parsed = parse_traversal(&content.value);
    let heredoc = view.starts_with(expr.range, "<<");
    let exact = view.is_exact() && content.is_exact() && !heredoc;
    let to_file = |range: TextRange| {
        if exact {
            view.to_file(content.map(range))
        } else {
            candidate.range
        }
    };
    let mut warning = Diagnostic::new(
        crate::codes::QUOTED_REFERENCE_DEPRECATED,
        "Quoted references are deprecated",
        scope.at(candidate.range),
    )
    .with_detail("In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.");
    let bare = !content
        .value
        .chars()
        .any(|c| c.is_whitespace() || c == '#' || c == '/');
    if exact && bare && parsed.error.is_none() {
        warning = warning.with_fix(
            Fix::new("Remove the quotes")
                .with_edit(scope.id, candidate.range, content.value.as_str())
                .safe(),
        );
    }
    if let Some(error) = &parsed.error {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_PROVIDER_REFERENCE,
                error.summary,
                scope.at(to_file(error.range)),
            )
            .with_detail(error.detail),
        );
        candidate.failed = true;
    }
    out.push(warning);
    candidate.exact = exact;
    candidate.steps = Some(
        parsed
            .steps
            .into_iter()
            .map(|step| RefStep {
                part: step.part,
                range: to_file(step.range),
            })
            .collect(),
    );
}

/// A provider reference of `file` as OpenTofu decodes it once loading
/// succeeded (a `provider` argument, or either side of a `providers` map
/// entry: `key`), for the checks across the module tree; `None` where
/// decoding fails, which the file rules report.
pub fn decoded_reference(
    id: tofu_syntax::FileId,
    file: &crate::loaded::ModuleFile,
    expr: &Expr,
    key: bool,
) -> Option<DecodedReference> {
    let scope = FileScope { id, file };
    let (argument, position) = if key {
        ("providers", Position::ObjectKey)
    } else {
        ("provider", Position::Value)
    };
    decode_reference(&scope, expr, argument, position, &mut Vec::new())
}

/// A `configuration_aliases` element as OpenTofu reads it once loading
/// succeeded: `NAME` or `NAME.ALIAS`.
pub fn configuration_alias(
    id: tofu_syntax::FileId,
    file: &crate::loaded::ModuleFile,
    element: &Expr,
) -> Option<ProviderAddress> {
    let scope = FileScope { id, file };
    match static_reference_parts(&scope, element)?.as_slice() {
        [Part::Name(name)] => Some(ProviderAddress {
            name: name.clone(),
            alias: None,
        }),
        [Part::Name(name), Part::Name(alias)] => Some(ProviderAddress {
            name: name.clone(),
            alias: Some(alias.clone()),
        }),
        _ => None,
    }
}

//! Reference lists (`diagnostics.md` §4.18): `invalid-depends-on`,
//! `invalid-ignore-changes`, `invalid-replace-triggered-by`, and the quoted
//! elements of `depends_on` and `ignore_changes`
//! (`quoted-reference-deprecated`).
//!
//! All three arguments must be a static list (`[…]`, a JSON array). Elements of
//! `depends_on` and `ignore_changes` must be static references; what they
//! name is not checked while loading. Elements of `replace_triggered_by` are
//! expressions whose references must be resources (exactly one),
//! `count.index` or `each.key`.

use tofu_syntax::{Attribute, Code, Diagnostic, Expr, ExprKind, Fix};

use super::in_file::InFile;
use super::quoted::{self, Expected};
use super::referenceable::{parse_provider_function, parse_reference, RefError, Referenceable};
use super::scan::{self, Found};
use super::traversal::{parse_traversal, static_reference};
use tofu_module::expr::start::expr_start;

const STATIC_LIST_DETAIL: &str = "A static list expression is required.";
const STATIC_REFERENCE_DETAIL: &str = "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

/// `depends_on` of a `resource`, `data`, `ephemeral`, `module` or `output`.
pub(super) fn depends_on(in_file: &InFile<'_>, attr: &Attribute, out: &mut Vec<Diagnostic>) {
    let Some(elements) = static_list(in_file, attr, crate::codes::INVALID_DEPENDS_ON, out) else {
        return;
    };
    for element in elements {
        reference_element(in_file, element, crate::codes::INVALID_DEPENDS_ON, out);
    }
}

/// `ignore_changes` of a resource's `lifecycle`: the keyword `all`, or a list
/// of references relative to the resource.
pub(super) fn ignore_changes(in_file: &InFile<'_>, attr: &Attribute, out: &mut Vec<Diagnostic>) {
    if is_keyword_all(in_file, &attr.expr) {
        return;
    }
    let Some(elements) = static_list(in_file, attr, crate::codes::INVALID_IGNORE_CHANGES, out)
    else {
        return;
    };
    let mut last_wildcard = None;
    let mut n_references = 0;
    for element in elements {
        if element.as_str() == Some("*") {
            let mut wildcard = Diagnostic::new(
                crate::codes::INVALID_IGNORE_CHANGES,
                "Invalid ignore_changes wildcard",
                in_file.at(attr.expr.range),
            )
            .with_detail("The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.");
            if elements.len() == 1 {
                let all = if in_file.json { "\"all\"" } else { "all" };
                wildcard = wildcard.with_fix(
                    Fix::new("Use ignore_changes = all")
                        .with_edit(in_file.id, attr.expr.range, all)
                        .safe(),
                );
            }
            out.push(wildcard);
            last_wildcard = Some(element.range);
            continue;
        }
        if reference_element(in_file, element, crate::codes::INVALID_IGNORE_CHANGES, out) {
            n_references += 1;
        }
    }
    if let (Some(wildcard), true) = (last_wildcard, n_references > 0) {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_IGNORE_CHANGES,
                "Invalid ignore_changes ruleset",
                in_file.at(wildcard),
            )
            .with_detail("Cannot mix wildcard string \"*\" with non-wildcard references."),
        );
    }
}

/// `replace_triggered_by` of a resource's `lifecycle`.
pub(super) fn replace_triggered_by(
    in_file: &InFile<'_>,
    attr: &Attribute,
    out: &mut Vec<Diagnostic>,
) {
    let code = crate::codes::INVALID_REPLACE_TRIGGERED_BY;
    let Some(elements) = static_list(in_file, attr, code, out) else {
        return;
    };
    // In JSON, OpenTofu converts no further element once one has an error.
    let mut had_error = false;
    for element in elements {
        if in_file.json && had_error {
            break;
        }
        let n_before = out.len();
        let found = if in_file.json {
            match json_element(in_file, element, out) {
                Some(found) => found,
                None => {
                    had_error = true;
                    continue;
                }
            }
        } else {
            scan::in_expr(in_file.text, element, false)
        };
        trigger_references(in_file, element, &found, out);
        had_error |= out
            .get(n_before..)
            .unwrap_or_default()
            .iter()
            .any(Diagnostic::is_error);
    }
}

/// `hcl.ExprList`: the elements of a `[…]` (not in parentheses) or a JSON
/// array; anything else is HCL's "Invalid expression" on expr-start.
fn static_list<'e>(
    in_file: &InFile<'_>,
    attr: &'e Attribute,
    code: Code,
    out: &mut Vec<Diagnostic>,
) -> Option<&'e [Expr]> {
    let parenthesized = !in_file.json && attr.expr.range.slice(in_file.text).starts_with('(');
    match attr.expr.as_array() {
        Some(elements) if !parenthesized => Some(elements),
        _ => {
            let start = expr_start(in_file.text, &attr.expr, in_file.json);
            out.push(
                Diagnostic::new(code, "Invalid expression", in_file.at(start))
                    .with_detail(STATIC_LIST_DETAIL),
            );
            None
        }
    }
}

/// One element where a static reference is expected (`depends_on`,
/// `ignore_changes`); true when a traversal could be read from it.
fn reference_element(
    in_file: &InFile<'_>,
    element: &Expr,
    code: Code,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let is_reference = if let Some(unquoted) =
        quoted::unquote(in_file, element, Expected::Reference, out)
    {
        if let Some(error) = &unquoted.error {
            out.push(quoted::parse_error_diagnostic(in_file, error, code));
        }
        unquoted.reference.is_some()
    } else if in_file.json {
        // A JSON string holding a traversal; its parse errors are not reported.
        matches!(&element.kind, ExprKind::String(content) if matches!(parse_traversal(content), (Some(_), None)))
    } else {
        static_reference(in_file.text, element).is_some()
    };
    if !is_reference {
        out.push(
            Diagnostic::new(code, "Invalid expression", in_file.at(element.range))
                .with_detail(STATIC_REFERENCE_DETAIL),
        );
    }
    is_reference
}

/// `ignore_changes = all` (JSON: `"all"`).
fn is_keyword_all(in_file: &InFile<'_>, expr: &Expr) -> bool {
    let reference = if in_file.json {
        match &expr.kind {
            ExprKind::String(content) => match parse_traversal(content) {
                (Some(reference), None) => Some(reference),
                _ => None,
            },
            _ => None,
        }
    } else {
        static_reference(in_file.text, expr)
    };
    reference.is_some_and(|reference| reference.root == "all" && reference.steps.is_empty())
}

/// A JSON element of `replace_triggered_by`: a string whose content is a
/// native expression. `None` (after reporting why) when it is not one.
fn json_element(in_file: &InFile<'_>, element: &Expr, out: &mut Vec<Diagnostic>) -> Option<Found> {
    let code = crate::codes::INVALID_REPLACE_TRIGGERED_BY;
    let content = match &element.kind {
        ExprKind::String(content) => Some(content.clone()),
        ExprKind::Template(_) => scan::json_string_content(element.range.slice(in_file.text)),
        _ => None,
    };
    let Some(content) = content else {
        let type_name = match &element.kind {
            ExprKind::Number(_) => "number",
            ExprKind::Bool(_) => "bool",
            ExprKind::Array(_) => "tuple",
            ExprKind::Object(_) => "object",
            _ => "dynamic",
        };
        out.push(
            Diagnostic::new(
                code,
                "Expected string expression",
                in_file.at(element.range),
            )
            .with_detail(format!("This value must be a string, but got {type_name}.")),
        );
        return None;
    };
    match scan::in_native_source(&content) {
        Ok(found) => Some(found),
        Err(message) => {
            out.push(
                Diagnostic::new(code, "Invalid expression", in_file.at(element.range))
                    .with_detail(sentence(&message)),
            );
            None
        }
    }
}

/// The references of one `replace_triggered_by` element, judged as
/// OpenTofu's `decodeReplaceTriggeredBy` does; every diagnostic is on the
/// element.
fn trigger_references(
    in_file: &InFile<'_>,
    element: &Expr,
    found: &Found,
    out: &mut Vec<Diagnostic>,
) {
    let code = crate::codes::INVALID_REPLACE_TRIGGERED_BY;
    let at = in_file.at(element.range);
    // `None`: a provider function.
    let subjects: Vec<Result<Option<Referenceable>, RefError>> = found
        .references
        .iter()
        .map(|reference| parse_reference(reference).map(Some))
        .chain(
            found
                .provider_functions
                .iter()
                .map(|name| parse_provider_function(name, element.range).map(|()| None)),
        )
        .collect();
    let mut unparsed = false;
    for error in subjects.iter().filter_map(|subject| subject.as_ref().err()) {
        out.push(Diagnostic::new(code, error.summary, at).with_detail(error.detail.clone()));
        unparsed = true;
    }
    if unparsed {
        return;
    }
    let mut n_resources = 0;
    for subject in subjects.iter().filter_map(|subject| subject.as_ref().ok()) {
        let problem = match subject {
            Some(Referenceable::Resource { .. }) => {
                n_resources += 1;
                None
            }
            Some(Referenceable::Each(name)) if name != "key" => Some((
                "Invalid each reference in replace_triggered_by expression",
                "Only each.key may be used in replace_triggered_by.",
            )),
            Some(Referenceable::Count(name)) if name != "index" => Some((
                "Invalid count reference in replace_triggered_by expression",
                "Only count.index may be used in replace_triggered_by.",
            )),
            Some(Referenceable::Each(_) | Referenceable::Count(_)) => None,
            Some(_) | None => Some((
                "Invalid reference in replace_triggered_by expression",
                "Only resources, count.index, and each.key may be used in replace_triggered_by.",
            )),
        };
        if let Some((summary, detail)) = problem {
            out.push(Diagnostic::new(code, summary, at).with_detail(detail));
        }
    }
    let missing_or_multiple = match n_resources {
        0 => Some("Missing resource reference in replace_triggered_by expression."),
        1 => None,
        _ => Some("Multiple resource references in replace_triggered_by expression."),
    };
    if let Some(detail) = missing_or_multiple {
        out.push(
            Diagnostic::new(code, "Invalid replace_triggered_by expression", at)
                .with_detail(detail),
        );
    }
}

/// A parser message as a sentence: capitalised, ending with a period.
fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    let mut sentence: String = chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if !sentence.ends_with('.') {
        sentence.push('.');
    }
    sentence
}

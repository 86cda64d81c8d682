//! `required_providers` entries as OpenTofu's `decodeRequiredProvidersBlock`
//! reads them (`diagnostics.md` §2.7, §4.11–§4.13): `invalid-provider-local-name`
//! for entry names, `invalid-required-providers` for the entry's shape and its
//! `configuration_aliases`, `invalid-provider-source` for `source`.
//!
//! `version` belongs to the version rules (`invalid-version-constraint`) and is
//! not read here. A value OpenTofu would evaluate but tofu-lens cannot (a
//! template or an operator without references) is left alone rather than
//! guessed.

use tofu_syntax::go_text::go_quote;
use tofu_syntax::{Attribute, Block, Diagnostic, Expr, ExprKind, ObjectItem};

use tofu_module::expr::content::StringContent;
use tofu_module::expr::traversal::Part;
use tofu_module::names::{provider_part_problem, source_address_error};
use tofu_module::provider_references::expr_view::has_references;
use tofu_module::provider_references::static_reference_parts;
use tofu_module::provider_references::FileScope;

/// Checks the entries of one `required_providers` block.
pub(super) fn check(scope: &FileScope<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    // A nested block makes HCL's attribute reading fail: no entry is read.
    if !block.body.blocks.is_empty() {
        return;
    }
    for entry in &block.body.attributes {
        check_entry(scope, entry, out);
    }
}

/// How OpenTofu reads an entry's value.
enum EntryShape<'a> {
    /// A constant string, number or bool: the version-only shorthand.
    Shorthand,
    /// An object constructor (or JSON object).
    Object(&'a [ObjectItem]),
    /// Anything else OpenTofu rejects as an entry.
    Invalid,
    /// A value tofu-lens cannot evaluate.
    Unknown,
}

fn entry_shape<'a>(scope: &FileScope<'_>, expr: &'a Expr) -> EntryShape<'a> {
    match &expr.kind {
        ExprKind::String(_) | ExprKind::Number(_) | ExprKind::Bool(_) => EntryShape::Shorthand,
        ExprKind::Object(items) => EntryShape::Object(items),
        // A JSON string holding `${` is still a constant string without a context.
        ExprKind::Template(_) if scope.json() => EntryShape::Shorthand,
        ExprKind::Template(_) | ExprKind::Operation(_) | ExprKind::For(_)
            if !has_references(expr) =>
        {
            EntryShape::Unknown
        }
        _ => EntryShape::Invalid,
    }
}

fn check_entry(scope: &FileScope<'_>, entry: &Attribute, out: &mut Vec<Diagnostic>) {
    let name = entry.name.as_str();
    let items = match entry_shape(scope, &entry.expr) {
        EntryShape::Shorthand => {
            if let Some(reason) = provider_part_problem(name) {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_PROVIDER_LOCAL_NAME,
                        "Invalid provider name",
                        scope.at(entry.expr.range),
                    )
                    .with_detail(reason),
                );
            }
            return;
        }
        EntryShape::Unknown => return,
        EntryShape::Object(items) => Some(items),
        EntryShape::Invalid => None,
    };
    if let Some(diagnostic) = scope.local_name_diagnostic(
        name,
        "Invalid provider local name",
        entry.expr.range,
        Some(entry.name_range),
    ) {
        out.push(diagnostic);
        return;
    }
    let Some(items) = items else {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_REQUIRED_PROVIDERS,
                "Invalid required_providers object",
                scope.at(entry.expr.range),
            )
            .with_detail("required_providers entries must be strings or objects."),
        );
        return;
    };
    for item in items {
        let Some(key) = object_key(scope, &item.key, out) else {
            continue;
        };
        match key.as_str() {
            "version" => {}
            "source" => check_source(scope, &item.value, out),
            "configuration_aliases" => check_configuration_aliases(scope, name, &item.value, out),
            _ => {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_REQUIRED_PROVIDERS,
                        "Invalid required_providers object",
                        scope.at(item.key.range),
                    )
                    .with_detail(r#"required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block."#),
                );
                // OpenTofu stops reading the entry here.
                return;
            }
        }
    }
}

/// The string an object key evaluates to; reports keys that are no string.
fn object_key(scope: &FileScope<'_>, key: &Expr, out: &mut Vec<Diagnostic>) -> Option<String> {
    match &key.kind {
        ExprKind::String(name) => Some(name.clone()),
        ExprKind::Bool(value) => Some(value.to_string()),
        ExprKind::Null => Some("null".to_owned()),
        ExprKind::Traversal(traversal) if traversal.root_range.start == key.range.start => {
            if traversal.steps.is_empty() {
                return Some(traversal.root.clone());
            }
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_REQUIRED_PROVIDERS,
                    "Ambiguous attribute key",
                    scope.at(key.range),
                )
                .with_detail("If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal."),
            );
            None
        }
        ExprKind::Number(number) => {
            let value = if number.chars().all(|c| c.is_ascii_digit()) {
                format!("cty.NumberIntVal({number})")
            } else {
                format!("cty.NumberFloatVal({number})")
            };
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_REQUIRED_PROVIDERS,
                    "Invalid Attribute",
                    scope.at(key.range),
                )
                .with_detail(format!(
                    "Invalid attribute value for provider requirement: {value}"
                )),
            );
            None
        }
        // Keys that need evaluation: HCL reports its own errors; not judged here.
        _ => None,
    }
}

fn check_source(scope: &FileScope<'_>, value: &Expr, out: &mut Vec<Diagnostic>) {
    let source = match &value.kind {
        ExprKind::String(source) => source.clone(),
        ExprKind::Template(_) if scope.json() => match StringContent::of(scope.text(), value) {
            Some(content) => content.value,
            None => return,
        },
        ExprKind::Template(_) | ExprKind::Operation(_) | ExprKind::For(_)
            if !has_references(value) =>
        {
            return
        }
        _ => {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_SOURCE,
                    "Invalid source",
                    scope.at(value.range),
                )
                .with_detail("Source must be specified as a string."),
            );
            return;
        }
    };
    if let Some(error) = source_address_error(&source) {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_PROVIDER_SOURCE,
                error.summary,
                scope.at(value.range),
            )
            .with_detail(error.detail),
        );
    }
}

fn check_configuration_aliases(
    scope: &FileScope<'_>,
    entry_name: &str,
    value: &Expr,
    out: &mut Vec<Diagnostic>,
) {
    let Some(elements) = value.as_array() else {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_REQUIRED_PROVIDERS,
                "Invalid expression",
                scope.at(scope.expr_start(value)),
            )
            .with_detail("A static list expression is required."),
        );
        return;
    };
    let invalid_value = |detail: String| {
        Diagnostic::new(
            crate::codes::INVALID_REQUIRED_PROVIDERS,
            "Invalid configuration_aliases value",
            scope.at(value.range),
        )
        .with_detail(detail)
    };
    for element in elements {
        let Some(parts) = static_reference_parts(scope, element) else {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_REQUIRED_PROVIDERS,
                    "Invalid expression",
                    scope.at(element.range),
                )
                .with_detail("A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here."),
            );
            continue;
        };
        // diagnostics.md §4.12: each element is NAME or NAME.ALIAS. (OpenTofu's
        // ParseProviderConfigCompact stops reading after the alias and accepts
        // `aws.a.b` as `aws.a`; the spec rejects it, and we follow the spec.)
        let compact = match parts.as_slice() {
            [Part::Name(name)] | [Part::Name(name), Part::Name(_)] => Some(name),
            _ => None,
        };
        match compact {
            None => out.push(invalid_value("Configuration aliases can only contain references to local provider configuration names in the format of provider.alias".to_owned())),
            Some(name) if name != entry_name => out.push(invalid_value(format!(
                "Configuration aliases must be prefixed with the provider name. Expected {}, but found {}.",
                go_quote(entry_name),
                go_quote(name)
            ))),
            Some(_) => {}
        }
    }
}

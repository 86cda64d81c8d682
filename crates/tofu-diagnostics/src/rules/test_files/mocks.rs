//! Overrides and mocks in test files, decoded as OpenTofu's `test_file.go`
//! decodes them: `override_resource`, `override_data` and `override_module`
//! (a target address and constant values), `mock_provider` (its name,
//! `alias`, `for_each`, and the `mock_resource`, `mock_data` and override
//! blocks inside it, each type or target once).
//!
//! Each decoder says whether it reported an error: OpenTofu keeps only
//! the blocks that decoded cleanly, and only those take part in its
//! duplicate checks.

use tofu_syntax::{Attribute, Block, Diagnostic, ExprKind};

use super::addresses::{config_resource, module, static_traversal, AddressError};
use super::in_test_file::{Decoded, TestFileScope};
use tofu_eval::ValueKind;
use tofu_module::names::{is_identifier, local_name_detail, local_name_problem};
use tofu_module::test_schema::{
    MOCK_DATA, MOCK_PROVIDER, MOCK_RESOURCE, OVERRIDE_DATA, OVERRIDE_MODULE, OVERRIDE_RESOURCE,
};
use tofu_module::types::{constant_value, static_value};

/// What an override block decoded to: its target as OpenTofu prints it
/// (`None` when it failed to decode).
pub(super) struct DecodedOverride {
    pub target: Option<String>,
    pub has_errors: bool,
}

/// `override_resource` or `override_data`.
pub(super) fn override_resource(
    scope: &TestFileScope<'_>,
    block: &Block,
    out: &mut Vec<Diagnostic>,
) -> DecodedOverride {
    let schema = if block.kind == "override_data" {
        &OVERRIDE_DATA
    } else {
        &OVERRIDE_RESOURCE
    };
    decode_override(scope, block, schema, "values", config_resource, out)
}

/// `override_module`.
pub(super) fn override_module(
    scope: &TestFileScope<'_>,
    block: &Block,
    out: &mut Vec<Diagnostic>,
) -> DecodedOverride {
    decode_override(scope, block, &OVERRIDE_MODULE, "outputs", module, out)
}

fn decode_override(
    scope: &TestFileScope<'_>,
    block: &Block,
    schema: &tofu_module::schema::BlockSchema,
    values_argument: &str,
    parse_target: fn(&[tofu_module::expr::traversal::ParsedStep]) -> Result<String, AddressError>,
    out: &mut Vec<Diagnostic>,
) -> DecodedOverride {
    let n_before = out.len();
    scope.content(block, schema, out);
    let mut target = None;
    if let Some(attr) = block.body.attribute("target") {
        match static_traversal(scope, &attr.expr).and_then(|steps| parse_target(&steps)) {
            Ok(address) => target = Some(address),
            Err(error) => out.push(address_error(scope, error)),
        }
    }
    if let Some(attr) = block.body.attribute(values_argument) {
        object_without_variables(scope, attr, out);
    }
    DecodedOverride {
        target,
        has_errors: has_errors(out, n_before),
    }
}

pub(super) fn address_error(scope: &TestFileScope<'_>, error: AddressError) -> Diagnostic {
    Diagnostic::new(
        crate::codes::INVALID_TEST_ADDRESS,
        error.summary,
        scope.at(error.range),
    )
    .with_detail(error.detail)
}

/// True when `out` gained an error past `n_before`.
pub(super) fn has_errors(out: &[Diagnostic], n_before: usize) -> bool {
    out.get(n_before..)
        .is_some_and(|added| added.iter().any(Diagnostic::is_error))
}

/// `parseObjectAttrWithNoVariables`: a constant object.
fn object_without_variables(
    scope: &TestFileScope<'_>,
    attr: &Attribute,
    out: &mut Vec<Diagnostic>,
) {
    let value = if scope.json() {
        static_value(&attr.expr, tofu_syntax::Syntax::Json, scope.text())
    } else {
        match constant_value(&attr.expr, scope.text()) {
            Ok(value) => value,
            Err(errors) => {
                out.extend(errors.into_iter().map(|error| {
                    Diagnostic::new(
                        crate::codes::INVALID_CONSTANT_ARGUMENT,
                        error.summary,
                        scope.at(error.range),
                    )
                    .with_detail(error.detail)
                }));
                return;
            }
        }
    };
    // A value tofu-lens does not compute may well be an object.
    let is_object = match value.kind {
        ValueKind::Object(_) | ValueKind::Unknown(_) => true,
        _ => matches!(attr.expr.kind, ExprKind::Object(_)),
    };
    if !is_object {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_CONSTANT_ARGUMENT,
                "Object expected",
                scope.at(attr.range),
            )
            .with_detail(format!("The attribute `{}` must be an object.", attr.name)),
        );
    }
}

/// A `mock_provider` block: its address (`NAME` or `NAME.ALIAS`) when it
/// decoded without an error.
pub(super) fn mock_provider(
    scope: &TestFileScope<'_>,
    block: &Block,
    out: &mut Vec<Diagnostic>,
) -> Option<String> {
    let n_before = out.len();
    let nested = scope.content(block, &MOCK_PROVIDER, out);
    let name = block.label(0).unwrap_or_default();
    if let Some(problem) = local_name_problem(name) {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_PROVIDER_LOCAL_NAME,
                "Invalid provider local name",
                scope.at(block.header),
            )
            .with_detail(local_name_detail(name, &problem)),
        );
        return None;
    }
    let mut alias = None;
    let mut alias_unknown = false;
    if let Some(attr) = block.body.attribute("alias") {
        let decoded = match scope.decode_string(&attr.expr, out) {
            Decoded::Value(text) => Some(text),
            Decoded::Failed => Some(String::new()),
            Decoded::Unchecked => None,
        };
        if decoded.as_deref().is_some_and(|text| !is_identifier(text)) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_ALIAS,
                    "Invalid mock provider configuration alias",
                    scope.at(attr.expr.range),
                )
                .with_detail("An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."),
            );
        }
        alias_unknown = decoded.is_none();
        alias = decoded;
    }
    if let Some(for_each) = block.body.attribute("for_each") {
        if !alias_unknown && alias.as_deref().is_none_or(str::is_empty) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVIDER_ALIAS,
                    "Alias required when using \"for_each\"",
                    scope.at(for_each.expr.range),
                )
                .with_detail("The for_each argument is allowed only for provider configurations with an alias."),
            );
        }
    }
    let mut mocked: Vec<(&str, &str)> = Vec::new();
    let mut overridden: Vec<String> = Vec::new();
    for nested in nested {
        match nested.kind.as_str() {
            "mock_resource" | "mock_data" => {
                let n_nested = out.len();
                let schema = if nested.kind == "mock_data" {
                    &MOCK_DATA
                } else {
                    &MOCK_RESOURCE
                };
                scope.content(nested, schema, out);
                if let Some(defaults) = nested.body.attribute("defaults") {
                    object_without_variables(scope, defaults, out);
                }
                if has_errors(out, n_nested) {
                    continue;
                }
                let resource_type = nested.label(0).unwrap_or_default();
                let key = (nested.kind.as_str(), resource_type);
                if mocked.contains(&key) {
                    out.push(duplicated_in_mock_provider(
                        scope,
                        block,
                        &nested.kind,
                        format!(
                            "`{}.{resource_type}` is already defined in `mock_provider` block.",
                            nested.kind
                        ),
                    ));
                } else {
                    mocked.push(key);
                }
            }
            "override_resource" | "override_data" => {
                let decoded = override_resource(scope, nested, out);
                let Some(target) = decoded.target.filter(|_| !decoded.has_errors) else {
                    continue;
                };
                if overridden.contains(&target) {
                    out.push(duplicated_in_mock_provider(
                        scope,
                        block,
                        &nested.kind,
                        format!(
                            "`{}` with target `{target}` is already defined in `mock_provider` block.",
                            nested.kind
                        ),
                    ));
                } else {
                    overridden.push(target);
                }
            }
            _ => {}
        }
    }
    // A mock provider whose alias tofu-lens does not compute takes part
    // in no duplicate check.
    if has_errors(out, n_before) || alias_unknown {
        return None;
    }
    Some(match alias {
        Some(alias) => format!("{name}.{alias}"),
        None => name.to_owned(),
    })
}

/// "Duplicated `mock_resource` block" and its siblings: on the
/// `mock_provider` block's header, as OpenTofu places them.
fn duplicated_in_mock_provider(
    scope: &TestFileScope<'_>,
    mock_provider: &Block,
    kind: &str,
    detail: String,
) -> Diagnostic {
    Diagnostic::new(
        crate::codes::DUPLICATE_TEST_BLOCK,
        format!("Duplicated `{kind}` block"),
        scope.at(mock_provider.header),
    )
    .with_detail(detail)
}

//! Module calls after merging (`diagnostics.md` §2.6, §4.7, §4.8, §4.10,
//! `merging.md` §6.7): `module-source-missing`, `module-source-not-static`,
//! `module-version-local-source`, `module-invalid-registry-source`,
//! `module-invalid-source`, and `invalid-version-constraint` for a module's
//! `version`.
//!
//! `source` is required in every `module` block of a primary file, whatever
//! the override files add. Everything else is checked on the merged call, as
//! OpenTofu's static evaluation does it: `version` first (a `null` value means
//! no version), then `source`; diagnostics sit on the winning expression,
//! which may be in an override file. A `version` that is set, even one that
//! failed to evaluate, makes OpenTofu read `source` as a registry address.
//!
//! Only what does not depend on values tofu-lens lacks is reported: the kinds
//! of references ([`static_eval`]) always, the address rules
//! ([`source_address`]) only when both the `source` string and whether a
//! `version` is set are known from constants.

pub(crate) mod source_address;
pub(crate) mod static_eval;

use tofu_syntax::{Diagnostic, ExprKind, Fix, Location, TextRange};

use crate::rules::views::ModuleView;
use tofu_module::address::BlockAddress;
use tofu_module::effective::{EffectiveBody, Origin};
use tofu_module::expr::start::expr_start;
use tofu_module::version::{Constraints, MALFORMED_DETAIL};

use source_address::{parse_registry, RegistryVerdict, SourceVerdict};
use static_eval::{StaticScope, StaticValue, WrittenExpr};
use tofu_module::module_source::is_local_source as is_local;
use tofu_syntax::go_text::go_quote;

/// The second paragraph of OpenTofu's registry-address errors.
const REGISTRY_ASSUMED: &str = "OpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.";

/// Checks every module call.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    source_missing(view, out);
    let mut scope = StaticScope::new(view);
    let mut found = Vec::new();
    let calls = view.effective_blocks(|address| matches!(address, BlockAddress::Module(_)));
    for block in calls {
        if let BlockAddress::Module(name) = &block.address {
            check_call(&mut scope, name, &block.body, &mut found);
        }
    }
    // A call may name the same reference twice; one report is enough.
    let mut unique: Vec<Diagnostic> = Vec::with_capacity(found.len());
    for diagnostic in found {
        if !unique.contains(&diagnostic) {
            unique.push(diagnostic);
        }
    }
    out.extend(unique);
}

/// Whether the merged call sets a `version`, as static evaluation decides it.
enum VersionState {
    /// No `version`, or one that is `null`.
    Absent,
    /// Set (possibly to something invalid): `source` must be a registry address.
    Present(Origin),
    /// Depends on values tofu-lens does not have.
    Unknown,
}

/// `module-source-missing`: a primary-file `module` block without `source`.
fn source_missing(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    for &file_id in view.primary_files() {
        let blocks = view.blocks_of_kinds(file_id, &["module"]);
        if blocks.is_empty() {
            continue;
        }
        let json = view.is_json(file_id);
        for (_, block) in blocks {
            let [label] = block.labels.as_slice() else {
                continue;
            };
            if block.body.attribute("source").is_some() {
                continue;
            }
            let at = if json {
                block.body.close
            } else {
                block.body.open.map(|open| TextRange::empty(open.start))
            }
            .unwrap_or(block.header);
            let mut diagnostic = Diagnostic::new(
                crate::codes::MODULE_SOURCE_MISSING,
                "Missing required argument",
                Location::new(file_id, at),
            )
            .with_detail("The argument \"source\" is required, but no definition was found.");
            let from_override = view
                .effective(&BlockAddress::Module(label.value.clone()))
                .and_then(|effective| effective.body.attribute("source"))
                .filter(|source| source.origin.file != file_id);
            if let Some(source) = from_override {
                diagnostic.detail.push_str(" An override file sets it, but OpenTofu requires it in the primary module block as well.");
                diagnostic = diagnostic.with_related(
                    Location::new(source.origin.file, source.origin.range),
                    "source set in an override file",
                );
            }
            out.push(diagnostic);
        }
    }
}

/// `version`, then `source`, of one merged call.
fn check_call<'m>(
    scope: &mut StaticScope<'m>,
    name: &str,
    body: &EffectiveBody,
    out: &mut Vec<Diagnostic>,
) {
    let version = match body.attribute("version") {
        None => VersionState::Absent,
        Some(attribute) => match scope.written(attribute.origin) {
            Some(written) => check_version(scope, name, attribute.origin, written, out),
            None => VersionState::Unknown,
        },
    };
    let Some(source) = body
        .attribute("source")
        .and_then(|attribute| scope.written(attribute.origin))
    else {
        return;
    };
    let problems = scope.problems(
        source,
        &format!("module.{name}.source"),
        crate::codes::MODULE_SOURCE_NOT_STATIC,
    );
    if !problems.is_empty() {
        out.extend(problems);
        return;
    }
    if scope.is_sensitive(source) {
        out.push(
            Diagnostic::new(
                crate::codes::MODULE_SOURCE_NOT_STATIC,
                "Sensitive value not allowed",
                Location::new(source.file, source.expr.range),
            )
            .with_detail(format!(
                "Sensitive values, or values derived from sensitive values, cannot be used as module.{name}.source."
            )),
        );
        return;
    }
    // The string OpenTofu decodes `source` into (numbers and bools convert).
    let address = match scope.value(source) {
        StaticValue::String(text) => text,
        StaticValue::Number(text) if is_plain_integer(&text) => text,
        StaticValue::Bool(value) => value.to_string(),
        StaticValue::Collection(kind) => {
            let text = scope.file_text(source.file).unwrap_or_default();
            let start = expr_start(text, source.expr, source.json);
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_CONSTANT_ARGUMENT,
                    "Unsuitable value type",
                    Location::new(source.file, start),
                )
                .with_detail(format!(
                    "Unsuitable value: string required, but have {kind}"
                )),
            );
            return;
        }
        _ => return,
    };
    match version {
        VersionState::Unknown => {}
        VersionState::Present(version) => check_registry_source(source, &address, version, out),
        VersionState::Absent => check_source(scope, source, &address, out),
    }
}

/// The module's `version`: static references, then the constraint syntax.
fn check_version<'m>(
    scope: &mut StaticScope<'m>,
    name: &str,
    origin: Origin,
    written: WrittenExpr<'m>,
    out: &mut Vec<Diagnostic>,
) -> VersionState {
    let problems = scope.problems(
        written,
        &format!("module.{name}.version"),
        crate::codes::MODULE_SOURCE_NOT_STATIC,
    );
    if !problems.is_empty() {
        out.extend(problems);
        return VersionState::Present(origin);
    }
    let value = scope.value(written);
    let invalid = |detail: &str| {
        Diagnostic::new(
            crate::codes::INVALID_VERSION_CONSTRAINT,
            "Invalid version constraint",
            Location::new(written.file, written.expr.range),
        )
        .with_detail(detail)
    };
    if scope.is_sensitive(written) {
        if matches!(value, StaticValue::Null | StaticValue::Unknown) {
            return VersionState::Unknown;
        }
        out.push(invalid(
            "Sensitive values, or values derived from sensitive values, cannot be used as version arguments.",
        ));
        return VersionState::Present(origin);
    }
    let constraint = match value {
        StaticValue::Null => return VersionState::Absent,
        StaticValue::Unknown => return VersionState::Unknown,
        StaticValue::Collection(_) => {
            out.push(invalid("A string value is required for version."));
            return VersionState::Present(origin);
        }
        // A number converts to a string of digits, always a valid constraint.
        StaticValue::Number(_) => return VersionState::Present(origin),
        StaticValue::Bool(value) => value.to_string(),
        StaticValue::String(text) => text,
    };
    // OpenTofu's detail, which names no reason (go-version's errors are
    // not shown).
    if Constraints::parse(&constraint).is_err() {
        out.push(invalid(MALFORMED_DETAIL));
    }
    VersionState::Present(origin)
}

/// With a `version`, `source` must be a registry address.
fn check_registry_source(
    source: WrittenExpr<'_>,
    address: &str,
    version: Origin,
    out: &mut Vec<Diagnostic>,
) {
    let RegistryVerdict::Invalid(reason) = parse_registry(address) else {
        return;
    };
    let code = if is_local(address) {
        crate::codes::MODULE_VERSION_LOCAL_SOURCE
    } else {
        crate::codes::MODULE_INVALID_REGISTRY_SOURCE
    };
    out.push(
        Diagnostic::new(
            code,
            "Invalid registry module source address",
            Location::new(source.file, source.expr.range),
        )
        .with_detail(format!(
            "Failed to parse module registry address: {reason}.\n\n{REGISTRY_ASSUMED}"
        ))
        .with_related(
            Location::new(version.file, version.range),
            "\"version\" is set here, so the source must be a registry address",
        ),
    );
}

/// Without a `version`, `source` is local, a registry address, or remote.
fn check_source(
    scope: &StaticScope<'_>,
    source: WrittenExpr<'_>,
    address: &str,
    out: &mut Vec<Diagnostic>,
) {
    let at = Location::new(source.file, source.expr.range);
    match source_address::classify_source(address) {
        SourceVerdict::Accepted | SourceVerdict::Unknown => {}
        SourceVerdict::Invalid { reason } => out.push(
            Diagnostic::new(
                crate::codes::MODULE_INVALID_SOURCE,
                "Invalid module source address",
                at,
            )
            .with_detail(format!("Failed to parse module source address: {reason}.")),
        ),
        SourceVerdict::RelativePath { package } => {
            let mut diagnostic = Diagnostic::new(
                crate::codes::MODULE_INVALID_SOURCE,
                "Invalid module source address",
                at,
            )
            .with_detail(format!(
                "OpenTofu failed to determine your intended installation method for remote module package {}.\n\nIf you intended this as a path relative to the current module, use \"./{package}\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.",
                go_quote(&package)
            ));
            if let Some(insert_at) = string_content_start(scope, source) {
                diagnostic = diagnostic.with_fix(
                    Fix::new("Prefix with ./")
                        .with_edit(source.file, TextRange::empty(insert_at), "./")
                        .safe(),
                );
            }
            out.push(diagnostic);
        }
    }
}

/// Where the content of a quoted string literal starts (after the opening
/// quote), when `source` is one: the place to insert `./`.
fn string_content_start(scope: &StaticScope<'_>, source: WrittenExpr<'_>) -> Option<u32> {
    if !matches!(source.expr.kind, ExprKind::String(_)) {
        return None;
    }
    let start = source.expr.range.start;
    let text = scope.file_text(source.file)?;
    (text.as_bytes().get(start as usize) == Some(&b'"')).then_some(start + 1)
}

/// Digits as cty prints a whole number (no sign, no leading zero).
fn is_plain_integer(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
}

//! A `run` block, decoded as OpenTofu's `decodeTestRunBlock` decodes it:
//! its name, its schema, `command`, `expect_failures` (a static list of
//! references), one `plan_options` block (`mode`, `refresh`, `replace`,
//! `target`, and the one combination OpenTofu refuses), one `variables`
//! block, one `module` block (`source` and `version`, as OpenTofu parses a
//! module source), `assert` blocks and overrides. A second `plan_options`
//! or `module` block is an error only after one that decoded cleanly, as
//! OpenTofu remembers only those. `providers` is decoded by the caller, as
//! a module call's `providers` argument.

use tofu_syntax::{Block, Diagnostic, TextRange};

use super::in_test_file::{Decoded, TestFileScope};
use super::mocks::{has_errors, override_module, override_resource};
use crate::rules::module_calls::source_address::{classify_source, parse_registry};
use crate::rules::module_calls::source_address::{RegistryVerdict, SourceVerdict};
use crate::rules::references::{test_assert, test_reference_list};
use tofu_module::loaded::FileView;
use tofu_module::names::is_identifier;
use tofu_module::schema::ASSERT;
use tofu_module::test_schema::{PLAN_OPTIONS, RUN, RUN_MODULE};
use tofu_syntax::go_text::go_quote;

/// HCL's detail for a name that is not an identifier.
pub(super) const BAD_IDENTIFIER_DETAIL: &str = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

/// Decodes one `run` block (its labels already checked).
pub(super) fn decode(scope: &TestFileScope<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let nested = scope.content(block, &RUN, out);
    if let Some(label) = block.labels.first() {
        if !is_identifier(&label.value) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_NAME,
                    "Invalid run block name",
                    scope.at(label.range),
                )
                .with_detail(BAD_IDENTIFIER_DETAIL),
            );
        }
    }
    let view = FileView {
        id: scope.id,
        file: scope.file,
    };
    let mut plan_options: Option<TextRange> = None;
    let mut variables: Option<TextRange> = None;
    let mut module: Option<TextRange> = None;
    for nested in nested {
        match nested.kind.as_str() {
            "assert" => {
                scope.content(nested, &ASSERT, out);
                test_assert(view, nested, out);
            }
            "plan_options" => {
                if let Some(first) = plan_options {
                    out.push(multiple(scope, nested, "plan_options", first));
                    continue;
                }
                let n_before = out.len();
                decode_plan_options(scope, nested, out);
                if !has_errors(out, n_before) {
                    plan_options = Some(nested.header);
                }
            }
            "variables" => {
                if let Some(first) = variables {
                    out.push(multiple(scope, nested, "variables", first));
                    continue;
                }
                variables = Some(nested.header);
                scope.just_attributes(nested, out);
            }
            "module" => {
                if let Some(first) = module {
                    out.push(multiple(scope, nested, "module", first));
                }
                let n_before = out.len();
                decode_module(scope, nested, out);
                if !has_errors(out, n_before) {
                    module = Some(nested.header);
                }
            }
            "override_resource" | "override_data" => {
                override_resource(scope, nested, out);
            }
            "override_module" => {
                override_module(scope, nested, out);
            }
            _ => {}
        }
    }
    if let Some(command) = block.body.attribute("command") {
        let keyword = scope.keyword(&command.expr);
        if !keyword.is_some_and(|keyword| keyword == "apply" || keyword == "plan") {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_TEST_KEYWORD,
                    "Invalid \"command\" keyword",
                    scope.at(command.expr.range),
                )
                .with_detail("The \"command\" argument requires one of the following keywords without quotes: apply or plan."),
            );
        }
    }
    if let Some(expect_failures) = block.body.attribute("expect_failures") {
        test_reference_list(
            view,
            expect_failures,
            crate::codes::INVALID_TEST_ADDRESS,
            out,
        );
    }
}

/// "Multiple "KIND" blocks" on a second block of a kind a run holds once.
fn multiple(scope: &TestFileScope<'_>, block: &Block, kind: &str, first: TextRange) -> Diagnostic {
    Diagnostic::new(
        crate::codes::DUPLICATE_TEST_BLOCK,
        format!("Multiple \"{kind}\" blocks"),
        scope.at(block.header),
    )
    .with_detail(format!(
        "This run block already has a {kind} block defined at {}.",
        scope.describe(first)
    ))
    .with_related(scope.at(first), format!("the first {kind} block"))
}

/// `decodeTestRunOptionsBlock`.
fn decode_plan_options(scope: &TestFileScope<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    scope.content(block, &PLAN_OPTIONS, out);
    let view = FileView {
        id: scope.id,
        file: scope.file,
    };
    let mut refresh_only = false;
    if let Some(mode) = block.body.attribute("mode") {
        match scope.keyword(&mode.expr).as_deref() {
            Some("refresh-only") => refresh_only = true,
            Some("normal") => {}
            _ => out.push(
                Diagnostic::new(
                    crate::codes::INVALID_TEST_KEYWORD,
                    "Invalid \"mode\" keyword",
                    scope.at(mode.expr.range),
                )
                .with_detail("The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only"),
            ),
        }
    }
    // A refresh that fails to decode counts as false, as in OpenTofu.
    let refresh = block
        .body
        .attribute("refresh")
        .map(|refresh| (refresh, scope.decode_bool(&refresh.expr, out)));
    for name in ["replace", "target"] {
        if let Some(list) = block.body.attribute(name) {
            test_reference_list(view, list, crate::codes::INVALID_TEST_ADDRESS, out);
        }
    }
    let Some((refresh, decoded)) = refresh else {
        return;
    };
    if refresh_only && matches!(decoded, Decoded::Value(false) | Decoded::Failed) {
        out.push(
            Diagnostic::new(
                crate::codes::INCOMPATIBLE_PLAN_OPTIONS,
                "Incompatible plan options",
                scope.at(refresh.range),
            )
            .with_detail("The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" mode."),
        );
    }
}

/// The second paragraph of OpenTofu's registry-address errors.
const REGISTRY_ASSUMED: &str = "OpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.";

/// `decodeTestRunModuleBlock`: `version` first, then `source` (a
/// registry address when `version` is set).
fn decode_module(scope: &TestFileScope<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    scope.content(block, &RUN_MODULE, out);
    let version = block.body.attribute("version");
    if let Some(version) = version {
        scope.version_constraint(version, out);
    }
    let Some(source) = block.body.attribute("source") else {
        out.push(
            Diagnostic::new(
                crate::codes::MODULE_SOURCE_MISSING,
                "Missing \"source\" attribute for module block",
                scope.at(block.header),
            )
            .with_detail("You must specify a source attribute when executing alternate modules during test executions."),
        );
        return;
    };
    let Decoded::Value(address) = scope.decode_string(&source.expr, out) else {
        return;
    };
    let at = scope.at(source.range);
    if version.is_some() {
        if let RegistryVerdict::Invalid(reason) = parse_registry(&address) {
            out.push(
                Diagnostic::new(
                    crate::codes::MODULE_INVALID_REGISTRY_SOURCE,
                    "Invalid registry module source address",
                    at,
                )
                .with_detail(format!(
                    "Failed to parse module registry address: {reason}.\n\n{REGISTRY_ASSUMED}"
                )),
            );
        }
        return;
    }
    match classify_source(&address) {
        SourceVerdict::Accepted | SourceVerdict::Unknown => {}
        SourceVerdict::Invalid { reason } => out.push(
            Diagnostic::new(crate::codes::MODULE_INVALID_SOURCE, "Invalid module source address", at)
                .with_detail(format!("Failed to parse module source address: {reason}.")),
        ),
        SourceVerdict::RelativePath { package } => out.push(
            Diagnostic::new(crate::codes::MODULE_INVALID_SOURCE, "Invalid module source address", at)
                .with_detail(format!(
                    "OpenTofu failed to determine your intended installation method for remote module package {}.\n\nIf you intended this as a path relative to the current module, use \"./{package}\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.",
                    go_quote(&package)
                )),
        ),
    }
}

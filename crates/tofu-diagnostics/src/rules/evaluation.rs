//! What `tofu validate` reports when it evaluates a local value, an
//! output's value or a module call's input values (`diagnostics.md` §7):
//! calls to unknown functions (`unknown-function`), calls that fail (`invalid-function-call`: arity,
//! argument types and values, the function's own error) and other
//! evaluation errors (`invalid-expression-value`: operands, indexes and
//! attributes of known values, conditional result types, `for`
//! expressions), with OpenTofu's summary, detail and subject, as
//! `tofu-eval` computes them.
//!
//! Validate evaluates with input variables unknown; this rule goes further
//! and takes every reference but `path.module` and `path.root` (`.`) as an
//! unknown value of any type (a local value's own value is not carried into
//! the expressions that read it), so what it reports comes from constants,
//! functions and operators alone and is what OpenTofu reports too; what
//! needs another node's known value is left out. Files are read through the
//! `ModuleFiles` the caller gave the analysis, relative to the module
//! directory (`file("x")` is unknown without them), and `provider::`
//! functions give unknown values. An identity whose references the
//! `references` rule reports is not evaluated, as OpenTofu stops at the
//! reference; one whose dependency failed is silenced by the walk (`graph`).
//! A module call's arguments are evaluated each on its own, as OpenTofu's
//! `nodeModuleVariable` does: an argument with a failing reference is
//! skipped, the others are evaluated, and none is when the call's `count`,
//! `for_each` or `depends_on` fails. A provider configuration's arguments
//! are evaluated with its references, decoded against its provider's
//! schema, by the `references` rule (`provider_schema::provider_body`).
//! Expressions written in JSON files are not evaluated (their ranges are
//! the string's).

use tofu_syntax::Diagnostic;

use crate::rules::expression_evaluation::evaluate_attribute;
use crate::rules::validate::{call_expansion_fails, failing_arguments, references_fail};
use crate::rules::views::IdentityView;
use tofu_module::address::BlockAddress;
use tofu_module::effective::EffectiveAttribute;

/// A module call's meta-arguments, which are not the child's inputs.
const MODULE_CALL_META_ARGUMENTS: [&str; 6] = [
    "source",
    "version",
    "count",
    "for_each",
    "providers",
    "depends_on",
];

/// The `evaluation` identity rule.
pub(crate) fn check(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    if let Some(local) = view.local() {
        if !references_fail(view) {
            evaluate_attribute(view, &local.attribute, out);
        }
        return;
    }
    let Some(effective) = view.effective() else {
        return;
    };
    match &effective.address {
        BlockAddress::Output(_) => {
            if let Some(value) = effective.body.attribute("value") {
                if !references_fail(view) {
                    evaluate_attribute(view, value, out);
                }
            }
        }
        BlockAddress::Module(_) => module_arguments(view, &effective.body.attributes, out),
        _ => {}
    }
}

/// A module call's input values, which validate evaluates in this module,
/// each on its own (`nodeModuleVariable`): none when the call does not
/// expand, and not one in which a reference fails.
fn module_arguments(
    view: &IdentityView<'_>,
    attributes: &[EffectiveAttribute],
    out: &mut Vec<Diagnostic>,
) {
    let inputs: Vec<&EffectiveAttribute> = attributes
        .iter()
        .filter(|attribute| !MODULE_CALL_META_ARGUMENTS.contains(&attribute.name.as_str()))
        .collect();
    if inputs.is_empty() || call_expansion_fails(view) {
        return;
    }
    let failing = failing_arguments(view);
    for attribute in inputs {
        if !failing.contains(&attribute.name) {
            evaluate_attribute(view, attribute, out);
        }
    }
}

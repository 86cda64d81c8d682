//! What `tofu validate` reports when it evaluates a local value, an
//! output's value or a module call's input values (`diagnostics.md` §7):
//! calls to unknown functions (`unknown-function`), calls that fail (`invalid-function-call`: arity,
//! argument types and values, the function's own error) and other
//! evaluation errors (`invalid-expression-value`: operands, indexes and
//! attributes of known values, conditional result types, `for`
//! expressions), with OpenTofu's summary, detail and subject, as
//! `tofu-eval` computes them.
//!
//! Values flow as in validate's walk (`walk_values`): a local value's
//! known value reaches the expressions that read it, an input variable is
//! an unknown value of its declared type, marked as declared, and what the
//! walk does not know (resources, module outputs, `count`, `each`) is
//! unknown. A local value whose own evaluation fails is reported there and
//! is unknown to its readers, whose findings the graph silences (OpenTofu
//! never evaluates them). Files are read through the `ModuleFiles` the
//! caller gave the analysis, relative to the module directory (`file("x")`
//! is unknown without them), and `provider::` functions give unknown
//! values. A node whose references the `references` rule reports is not
//! evaluated, as OpenTofu stops at the reference.
//! A module call's arguments are evaluated each on its own, as OpenTofu's
//! `nodeModuleVariable` does: an argument with a failing reference is
//! skipped, the others are evaluated, and none is when the call's `count`,
//! `for_each` or `depends_on` fails. A provider configuration's arguments
//! are evaluated with its references, decoded against its provider's
//! schema, by the `references` rule (`provider_schema::provider_body`).
//! Expressions written in JSON files are not evaluated (their ranges are
//! the string's).
//!
//! A node rule: run per local value, output and module call through a
//! recording view, so an edit judges again only the nodes that read what
//! it touched (the node itself, a local value or variable it follows).

use tofu_syntax::Diagnostic;

use crate::rules::expression_evaluation::evaluation_diagnostic;
use crate::rules::validate::{call_expansion_fails, failing_arguments, references_fail};
use crate::rules::views::{IdentityView, MergedNode, ModuleView};
use crate::rules::walk_values::WalkValues;
use tofu_module::address::BlockAddress;
use tofu_module::effective::EffectiveAttribute;
use tofu_module::refs::NodeRef;

/// A module call's meta-arguments, which are not the child's inputs.
const MODULE_CALL_META_ARGUMENTS: [&str; 6] = [
    "source",
    "version",
    "count",
    "for_each",
    "providers",
    "depends_on",
];

/// Which nodes the rule judges: local values, outputs and module calls.
pub(crate) fn judges(node: NodeRef<'_>) -> bool {
    matches!(
        node,
        NodeRef::Local(_) | NodeRef::Block(BlockAddress::Output(_) | BlockAddress::Module(_))
    )
}

/// The `evaluation` node rule, on one node.
pub(crate) fn check(view: &ModuleView<'_>, node: MergedNode<'_>, out: &mut Vec<Diagnostic>) {
    let identity = view.identity_view(node);
    let values = WalkValues::new(view);
    match node {
        MergedNode::Local(local) => {
            if !references_fail(&identity) {
                evaluate_attribute(&values, &local.attribute, out);
            }
        }
        MergedNode::Block(effective) => match &effective.address {
            BlockAddress::Output(_) => {
                if let Some(value) = effective.body.attribute("value") {
                    if !references_fail(&identity) {
                        evaluate_attribute(&values, value, out);
                    }
                }
            }
            BlockAddress::Module(_) => {
                module_arguments(&identity, &values, &effective.body.attributes, out);
            }
            _ => {}
        },
    }
}

/// Reports what evaluating one attribute's value in the walk finds.
fn evaluate_attribute(
    values: &WalkValues<'_, '_>,
    attribute: &EffectiveAttribute,
    out: &mut Vec<Diagnostic>,
) {
    let Some(expr) = values.native_expr(attribute) else {
        return;
    };
    let file = attribute.origin.file;
    let evaluation = values.evaluate_in(file, expr);
    out.extend(
        evaluation
            .diagnostics
            .into_iter()
            .map(|found| evaluation_diagnostic(file, found)),
    );
}

/// A module call's input values, which validate evaluates in this module,
/// each on its own (`nodeModuleVariable`): none when the call does not
/// expand, and not one in which a reference fails.
fn module_arguments(
    identity: &IdentityView<'_>,
    values: &WalkValues<'_, '_>,
    attributes: &[EffectiveAttribute],
    out: &mut Vec<Diagnostic>,
) {
    let inputs: Vec<&EffectiveAttribute> = attributes
        .iter()
        .filter(|attribute| !MODULE_CALL_META_ARGUMENTS.contains(&attribute.name.as_str()))
        .collect();
    if inputs.is_empty() || call_expansion_fails(identity) {
        return;
    }
    let failing = failing_arguments(identity);
    for attribute in inputs {
        if !failing.contains(&attribute.name) {
            evaluate_attribute(values, attribute, out);
        }
    }
}

#[cfg(test)]
mod tests;

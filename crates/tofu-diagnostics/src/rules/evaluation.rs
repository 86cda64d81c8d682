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
//! Expressions written in JSON files are evaluated as HCL's JSON syntax
//! evaluates them (`tofu_module::expr::json`): strings are templates, an
//! error inside one is placed at its offset into the string, and a string
//! that is no valid template gives HCL's syntax errors (`syntax-error`),
//! once where it is evaluated.
//!
//! A node rule: run per local value, output and module call through a
//! recording view, so an edit judges again only the nodes that read what
//! it touched (the node itself, a local value or variable it follows).

use tofu_eval::convert::convert;
use tofu_eval::{EvalDiagnostic, Type, Value};
use tofu_syntax::{Diagnostic, Expr, ExprKind, FileId, Location, TraversalStep};

use crate::rules::argument_validations;
use crate::rules::expression_evaluation::evaluation_diagnostic;
use crate::rules::messages::{self, ConditionMessage};
use crate::rules::validate::{call_expansion_fails, failing_arguments, references_fail};
use crate::rules::views::{IdentityView, MergedNode, ModuleView};
use crate::rules::walk_values::WalkValues;
use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::effective::{EffectiveAttribute, EffectiveBlock, EffectiveBody};
use tofu_module::expr::json::json_expression;
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

/// Which nodes the rule judges: local values, outputs, module calls,
/// resources and input variables.
pub(crate) fn judges(node: NodeRef<'_>) -> bool {
    matches!(
        node,
        NodeRef::Local(_)
            | NodeRef::Block(
                BlockAddress::Output(_)
                    | BlockAddress::Module(_)
                    | BlockAddress::Resource { .. }
                    | BlockAddress::Variable(_)
            )
    )
}

/// The `evaluation` node rule, on one node.
pub(crate) fn check(view: &ModuleView<'_>, node: MergedNode<'_>, out: &mut Vec<Diagnostic>) {
    check_with(view, node, &WalkValues::new(view), out);
}

/// The rule on one node with the walk's values `values`: validate's, or
/// plan's with known input variables (`plan_values`).
pub(crate) fn check_with(
    view: &ModuleView<'_>,
    node: MergedNode<'_>,
    values: &WalkValues<'_, '_>,
    out: &mut Vec<Diagnostic>,
) {
    let identity = view.identity_view(node);
    let effective = match node {
        MergedNode::Local(local) => {
            if !references_fail(&identity) {
                evaluate_attribute(values, &local.attribute, out);
            }
            return;
        }
        MergedNode::Block(effective) => effective,
    };
    if let BlockAddress::Module(_) = &effective.address {
        if !call_expansion_fails(&identity) {
            if let Some(count) = effective.body.attribute("count") {
                evaluate_count(values, count, out);
            } else if let Some(for_each) = effective.body.attribute("for_each") {
                evaluate_for_each(values, for_each, Expansion::Module, out);
            }
        }
        module_arguments(&identity, values, effective, out);
        return;
    }
    if references_fail(&identity) {
        return;
    }
    match &effective.address {
        BlockAddress::Output(_) => {
            // An output's preconditions are checked before its value, which
            // is not evaluated when one of them fails (`node_output.go`).
            let before = out.len();
            output_preconditions(values, &effective.body, out);
            if out.len() == before {
                if let Some(value) = effective.body.attribute("value") {
                    evaluate_attribute(values, value, out);
                }
            }
        }
        BlockAddress::Resource { .. } => {
            if let Some(count) = effective.body.attribute("count") {
                evaluate_count(values, count, out);
            } else if let Some(for_each) = effective.body.attribute("for_each") {
                evaluate_for_each(values, for_each, Expansion::Resource, out);
            }
            for lifecycle in effective
                .body
                .blocks
                .iter()
                .filter(|b| b.kind == "lifecycle")
            {
                conditions(
                    values,
                    &lifecycle.body,
                    &["precondition", "postcondition"],
                    out,
                );
            }
            provisioners(values, &effective.body, out);
        }
        BlockAddress::Variable(_) => conditions(values, &effective.body, &["validation"], out),
        _ => {}
    }
}

/// A resource's provisioners, as `validateResource` evaluates them: each
/// provisioner's arguments (not `when` and `on_failure`, which are
/// keywords), then its connection, the resource's own `connection` with
/// the provisioner's arguments over it (`MergeBodies`); none after the
/// first provisioner that failed. A resource's `connection` is evaluated
/// only through its provisioners.
fn provisioners(values: &WalkValues<'_, '_>, body: &EffectiveBody, out: &mut Vec<Diagnostic>) {
    let shared_connection = body.blocks.iter().find(|block| block.kind == "connection");
    for provisioner in body
        .blocks
        .iter()
        .filter(|block| block.kind == "provisioner")
    {
        let before = out.len();
        for attribute in &provisioner.body.attributes {
            if !matches!(attribute.name.as_str(), "when" | "on_failure") {
                evaluate_attribute(values, attribute, out);
            }
        }
        let own_connection = provisioner
            .body
            .blocks
            .iter()
            .find(|block| block.kind == "connection");
        if let Some(shared) = shared_connection {
            for attribute in &shared.body.attributes {
                let overridden =
                    own_connection.is_some_and(|own| own.body.attribute(&attribute.name).is_some());
                if !overridden {
                    evaluate_attribute(values, attribute, out);
                }
            }
        }
        if let Some(own) = own_connection {
            for attribute in &own.body.attributes {
                evaluate_attribute(values, attribute, out);
            }
        }
        if out.len() > before {
            return;
        }
    }
}

/// The `condition` and `error_message` of each block of `kinds` in `body`,
/// evaluated as validate evaluates them (`validateCheckRules`: each for
/// its errors alone, whatever its value).
fn conditions(
    values: &WalkValues<'_, '_>,
    body: &EffectiveBody,
    kinds: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    for rule in body
        .blocks
        .iter()
        .filter(|block| kinds.contains(&block.kind.as_str()))
    {
        for name in ["condition", "error_message"] {
            if let Some(attribute) = rule.body.attribute(name) {
                evaluate_attribute(values, attribute, out);
            }
        }
    }
}

/// An output's preconditions, as validate checks them (`evalCheckRule`):
/// the errors of the error message and the condition; then a known
/// condition that is null, no bool or false.
fn output_preconditions(
    values: &WalkValues<'_, '_>,
    body: &EffectiveBody,
    out: &mut Vec<Diagnostic>,
) {
    for rule in body
        .blocks
        .iter()
        .filter(|block| block.kind == "precondition")
    {
        let before = out.len();
        let message = match messages::condition_message(values, rule) {
            ConditionMessage::Failed(file, found) => {
                report(file, found, out);
                None
            }
            ConditionMessage::Sensitive(at) => {
                out.push(messages::sensitive_condition_message(
                    crate::codes::SENSITIVE_CONDITION_MESSAGE,
                    at,
                ));
                None
            }
            ConditionMessage::Shown(message) => Some(message),
            ConditionMessage::Unknown => None,
        };
        let Some(condition) = rule.body.attribute("condition") else {
            continue;
        };
        let Some(expr) = values.expression(condition) else {
            continue;
        };
        let file = condition.origin.file;
        let evaluation = values.evaluate_in(file, &expr);
        if !evaluation.diagnostics.is_empty() {
            report(file, evaluation.diagnostics, out);
            continue;
        }
        // Errors stop the rule; a warning on its message does not.
        if failed_since(out, before) || values.followed_a_failure() {
            continue;
        }
        let at = Location::new(file, expr.range);
        let value = evaluation.value;
        if !value.is_known() {
            continue;
        }
        let (summary, detail) = if value.is_null() {
            (
                "Invalid condition result",
                "Condition expression must return either true or false, not null.".to_owned(),
            )
        } else {
            match convert(&value, &Type::Bool) {
                Err(error) => (
                    "Invalid condition result",
                    format!("Invalid condition result value: {error}."),
                ),
                Ok(result) => {
                    let (result, _) = result.unmark();
                    if result.as_bool() != Some(false) {
                        continue;
                    }
                    (
                        "Module output value precondition failed",
                        message
                            .filter(|message| !message.is_empty())
                            .unwrap_or_else(|| messages::INVALID_MESSAGE_FAILURE.to_owned()),
                    )
                }
            }
        };
        let code = if summary == "Invalid condition result" {
            crate::codes::INVALID_EXPRESSION_VALUE
        } else {
            crate::codes::CONDITION_FAILED
        };
        out.push(Diagnostic::new(code, summary, at).with_detail(detail));
    }
}

/// Whether `out` holds an error after its first `before` entries.
fn failed_since(out: &[Diagnostic], before: usize) -> bool {
    out.iter()
        .skip(before)
        .any(|diagnostic| diagnostic.severity == tofu_syntax::Severity::Error)
}

/// Whose `for_each` validate checks: a resource's findings are reported
/// only when the checked value is known (`validateForEach`), a module
/// call's always (`nodeValidateModule`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expansion {
    Resource,
    Module,
    /// An `import` block's `for_each`: tuples are allowed too.
    Import,
}

/// `for_each`, as validate checks it (`EvaluateForEachExpressionValue`
/// with unknown values allowed and tuples not): evaluation errors, a type
/// that is no map, object or set of strings, a set holding null, a null,
/// sensitive or ephemeral value.
fn evaluate_for_each(
    values: &WalkValues<'_, '_>,
    attribute: &EffectiveAttribute,
    expansion: Expansion,
    out: &mut Vec<Diagnostic>,
) {
    let Some(expr) = values.expression(attribute) else {
        return;
    };
    for_each_in(values, attribute.origin.file, &expr, expansion, out);
}

/// [`evaluate_for_each`] of `expr`, written in `file`; true when it
/// reported nothing.
fn for_each_in(
    values: &WalkValues<'_, '_>,
    file: FileId,
    expr: &Expr,
    expansion: Expansion,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let before = out.len();
    let evaluation = values.evaluate_in(file, expr);
    let value = evaluation.value;
    let mut details: Vec<String> = Vec::new();
    // Whether the value the checks return is known: what a resource's
    // check asks before it reports anything.
    let known = if evaluation.diagnostics.is_empty() {
        let unsuitable = "The given \"for_each\" argument value is unsuitable:";
        let ty = value.ty();
        let marks = value.marks;
        // performValueChecks: null, sensitive and ephemeral values, each
        // making the result a (known) null.
        let mut value_details = Vec::new();
        if value.is_null() {
            value_details.push(format!(
                "{unsuitable} the given \"for_each\" argument value is null."
            ));
        }
        if marks.sensitive {
            value_details.push("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.".to_owned());
        }
        if marks.ephemeral {
            value_details.push("Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key.".to_owned());
        }
        let nulled = marks.sensitive || marks.ephemeral;
        details.extend(value_details);
        match &ty {
            Type::Dynamic | Type::Map(_) | Type::Object(_) => value.is_known() || nulled,
            Type::Tuple(_) if expansion == Expansion::Import => value.is_known() || nulled,
            Type::Set(element) if **element != Type::String && **element != Type::Dynamic => {
                details.push(format!(
                    "{unsuitable} \"for_each\" supports sets of strings, but you have provided a set containing type {}.",
                    element.friendly_name()
                ));
                value.is_known() || nulled
            }
            Type::Set(_) => {
                if value.is_wholly_known() && !value.is_null() {
                    let (plain, _) = value.clone().unmark_deep();
                    if plain
                        .items()
                        .is_some_and(|items| items.iter().any(Value::is_null))
                    {
                        details.push(format!(
                            "{unsuitable} \"for_each\" sets must not contain null values."
                        ));
                    }
                }
                value.is_wholly_known() || nulled
            }
            _ => {
                details.push(format!(
                    "{unsuitable} the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.",
                    ty.friendly_name()
                ));
                true
            }
        }
    } else {
        value.is_known()
    };
    if expansion == Expansion::Resource && !known {
        return true;
    }
    report(file, evaluation.diagnostics, out);
    let at = Location::new(file, expr.range);
    out.extend(details.into_iter().map(|detail| {
        Diagnostic::new(
            crate::codes::INVALID_EXPRESSION_VALUE,
            "Invalid for_each argument",
            at,
        )
        .with_detail(detail)
    }));
    out.len() == before
}

/// `value` converted to `ty` as HCL converts an expression to the type it
/// wants (`EvalExpr` with a type): `None` after "Incorrect value type" at
/// `at` when it does not convert.
fn converted(value: &Value, ty: &Type, at: Location, out: &mut Vec<Diagnostic>) -> Option<Value> {
    match convert(value, ty) {
        Ok(value) => Some(value),
        Err(error) => {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_EXPRESSION_VALUE,
                    "Incorrect value type",
                    at,
                )
                .with_detail(format!("Invalid expression value: {error}.")),
            );
            None
        }
    }
}

/// `count`, as validate checks it (`validateCount`, `EvaluateCountExpressionValue`):
/// its evaluation errors, then a known value that is no whole number
/// from 0 up, null, or ephemeral.
fn evaluate_count(
    values: &WalkValues<'_, '_>,
    attribute: &EffectiveAttribute,
    out: &mut Vec<Diagnostic>,
) {
    let Some(expr) = values.expression(attribute) else {
        return;
    };
    let file = attribute.origin.file;
    let evaluation = values.evaluate_in(file, &expr);
    if !evaluation.diagnostics.is_empty() {
        report(file, evaluation.diagnostics, out);
        return;
    }
    let at = Location::new(file, expr.range);
    let Some(value) = converted(&evaluation.value, &Type::Number, at, out) else {
        return;
    };
    let (value, marks) = value.unmark();
    let unsuitable = if marks.ephemeral {
        Some("Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments. If used, the ephemeral value could be exposed as a resource instance key.")
    } else if value.is_null() {
        Some("The given \"count\" argument value is null. An integer is required.")
    } else if !value.is_known() {
        None
    } else {
        match value.as_number().map(|number| number.to_i64_exact()) {
            Some(None) => Some("The given \"count\" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807."),
            Some(Some(count)) if count < 0 => Some("The given \"count\" argument value is unsuitable: must be greater than or equal to zero."),
            _ => None,
        }
    };
    if let Some(detail) = unsuitable {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_EXPRESSION_VALUE,
                "Invalid count argument",
                at,
            )
            .with_detail(detail),
        );
    }
}

/// Reports what evaluating one attribute's value in the walk finds.
fn evaluate_attribute(
    values: &WalkValues<'_, '_>,
    attribute: &EffectiveAttribute,
    out: &mut Vec<Diagnostic>,
) {
    let Some(expr) = values.expression(attribute) else {
        return;
    };
    let file = attribute.origin.file;
    let evaluation = values.evaluate_in(file, &expr);
    report(file, evaluation.diagnostics, out);
}

/// Each of an evaluation's errors as a diagnostic of its family, in `file`.
fn report(file: FileId, found: Vec<EvalDiagnostic>, out: &mut Vec<Diagnostic>) {
    out.extend(
        found
            .into_iter()
            .map(|found| evaluation_diagnostic(file, found)),
    );
}

/// A module call's input values, which validate evaluates in this module,
/// each on its own (`nodeModuleVariable`): none when the call does not
/// expand, and not one in which a reference fails.
///
/// Then the child's validation rules against the arguments that evaluated
/// (`argument_validations`), when nothing above failed.
fn module_arguments(
    identity: &IdentityView<'_>,
    values: &WalkValues<'_, '_>,
    call: &EffectiveBlock,
    out: &mut Vec<Diagnostic>,
) {
    let inputs: Vec<&EffectiveAttribute> = call
        .body
        .attributes
        .iter()
        .filter(|attribute| !MODULE_CALL_META_ARGUMENTS.contains(&attribute.name.as_str()))
        .collect();
    if inputs.is_empty() || call_expansion_fails(identity) {
        return;
    }
    let failing = failing_arguments(identity);
    let inputs: Vec<&EffectiveAttribute> = inputs
        .into_iter()
        .filter(|attribute| !failing.contains(&attribute.name))
        .collect();
    // Each argument is a node of its own: one that reads what failed is
    // not evaluated, and does not stop the others. The values of those
    // evaluated are what the child's rules judge.
    let mut evaluated: Vec<(&EffectiveAttribute, Value)> = Vec::new();
    let mut any_not_evaluated = false;
    let before = out.len();
    for attribute in inputs {
        let Some(expr) = values.expression(attribute) else {
            continue;
        };
        let file = attribute.origin.file;
        let (evaluation, failed) = values.separately(|| values.evaluate_in(file, &expr));
        if failed {
            any_not_evaluated = true;
        } else {
            report(file, evaluation.diagnostics, out);
            evaluated.push((attribute, evaluation.value));
        }
    }
    let BlockAddress::Module(name) = &call.address else {
        return;
    };
    if out.len() > before {
        return;
    }
    let Some(child) = identity.child(name) else {
        return;
    };
    let call = argument_validations::Call {
        name,
        child,
        dir: crate::rules::module_tree::child_dir_of(identity, call, name),
    };
    argument_validations::judge(identity, values, &call, &evaluated, any_not_evaluated, out);
}

#[cfg(test)]
mod tests;

/// The `import-values` module rule: what validate reports when it
/// evaluates an `import` block (`ValidateImportIDs`, run for the resource
/// the block's `to` names): its `for_each` (tuples allowed), then its `id`
/// as a string that is not null, sensitive or ephemeral (unknown is fine).
/// Blocks whose `to` names no resource of this module, or one inside a
/// module call, are not judged; nor are blocks with a reference the
/// `import-references` rule reports. `each` is unknown: an error that
/// OpenTofu reports once per element of a known `for_each` is reported
/// once. Import identities (`identity`) need the provider's identity
/// schema and are not judged.
pub(crate) fn imports(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let values = WalkValues::new(view);
    for &block_ref in &view.declarations().other {
        let Some(block) = view.block(block_ref).filter(|block| block.kind == "import") else {
            continue;
        };
        let file = block_ref.file;
        let Some(module_file) = view.file_to(file, block.range.end) else {
            continue;
        };
        let expression = |name: &str| {
            let written = &block.body.attribute(name)?.expr;
            Some(if module_file.is_json() {
                json_expression(module_file.text.as_ref(), written)
            } else {
                written.clone()
            })
        };
        let names_a_resource = expression("to")
            .as_ref()
            .and_then(import_target)
            .is_some_and(|address| view.effective(&address).is_some());
        if !names_a_resource
            || crate::rules::validate::import_references_fail(view, block_ref, block)
        {
            continue;
        }
        if let Some(for_each) = expression("for_each") {
            if !for_each_in(&values, file, &for_each, Expansion::Import, out) {
                continue;
            }
        }
        if let Some(id) = expression("id") {
            import_id(&values, file, &id, out);
        }
    }
}

/// The managed resource an import block's `to` names in this module
/// (`TYPE.NAME`, with or without an instance key; in JSON, the string
/// holding it).
fn import_target(to: &Expr) -> Option<BlockAddress> {
    let (type_name, name) = match &to.kind {
        ExprKind::Traversal(traversal) => {
            let Some(TraversalStep::Attr { name, .. }) = traversal.steps.first() else {
                return None;
            };
            (traversal.root.as_str(), name.as_str())
        }
        ExprKind::String(text) => {
            let address = text.split('[').next().unwrap_or_default();
            address.split_once('.')?
        }
        _ => return None,
    };
    if matches!(type_name, "module" | "data" | "ephemeral") || name.contains('.') {
        return None;
    }
    Some(BlockAddress::Resource {
        mode: ResourceMode::Managed,
        type_name: type_name.to_owned(),
        name: name.to_owned(),
    })
}

/// An import block's `id`, as `validateImportIdExpression` judges it.
fn import_id(values: &WalkValues<'_, '_>, file: FileId, id: &Expr, out: &mut Vec<Diagnostic>) {
    let evaluation = values.evaluate_in(file, id);
    if !evaluation.diagnostics.is_empty() {
        report(file, evaluation.diagnostics, out);
        return;
    }
    let at = Location::new(file, id.range);
    let Some(value) = converted(&evaluation.value, &Type::String, at, out) else {
        return;
    };
    let marks = value.marks;
    let detail = if value.is_null() {
        "The import id cannot be null."
    } else if !value.is_wholly_known() {
        return;
    } else if marks.sensitive {
        "The import id cannot be sensitive."
    } else if marks.ephemeral {
        "The import id cannot be ephemeral."
    } else {
        return;
    };
    out.push(
        Diagnostic::new(
            crate::codes::INVALID_EXPRESSION_VALUE,
            "Invalid import id argument",
            at,
        )
        .with_detail(detail),
    );
}

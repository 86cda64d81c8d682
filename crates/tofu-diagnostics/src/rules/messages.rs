//! Condition blocks' error messages as OpenTofu makes them
//! (`evalCheckErrorMessage`, `evalVariableValidation`): the string shown,
//! or why none is; and what OpenTofu says when a message would show a
//! sensitive value. Shared by validate's walk (`evaluation`), plan's
//! (`plan_values`) and the rules of a called module's variables
//! (`argument_validations`).

use tofu_eval::convert::convert;
use tofu_eval::{EvalDiagnostic, Type};
use tofu_syntax::{Diagnostic, FileId, Location};

use crate::rules::walk_values::WalkValues;

/// A failed condition's detail when its message could not be shown.
pub(crate) const INVALID_MESSAGE_FAILURE: &str = "This check failed, but has an invalid error message as described in the other accompanying messages.";

/// A condition block's error message as OpenTofu makes it
/// (`evalCheckErrorMessage`, which runs whether the condition holds or
/// not).
pub(crate) enum ConditionMessage {
    /// The string to show, trimmed.
    Shown(String),
    /// It does not evaluate: the errors, in their file.
    Failed(FileId, Vec<EvalDiagnostic>),
    /// Known, but it shows a sensitive value (where its expression is):
    /// OpenTofu does not display it.
    Sensitive(Location),
    /// Unknown, null or no string (or not written): nothing to show.
    Unknown,
}

/// The error message of the condition block `rule` with `values`.
pub(crate) fn condition_message(
    values: &WalkValues<'_, '_>,
    rule: &tofu_module::effective::EffectiveNestedBlock,
) -> ConditionMessage {
    let Some(attribute) = rule.body.attribute("error_message") else {
        return ConditionMessage::Unknown;
    };
    let Some(expr) = values.expression(attribute) else {
        return ConditionMessage::Unknown;
    };
    let file = attribute.origin.file;
    let evaluation = values.evaluate_in(file, &expr);
    if !evaluation.diagnostics.is_empty() {
        return ConditionMessage::Failed(file, evaluation.diagnostics);
    }
    let Ok(message) = convert(&evaluation.value, &Type::String) else {
        return ConditionMessage::Unknown;
    };
    if !message.is_known() || message.is_null() {
        return ConditionMessage::Unknown;
    }
    let (message, marks) = message.unmark();
    if marks.sensitive {
        return ConditionMessage::Sensitive(Location::new(file, expr.range));
    }
    match message.as_str() {
        Some(text) => ConditionMessage::Shown(text.trim().to_owned()),
        None => ConditionMessage::Unknown,
    }
}

/// "Error message refers to sensitive values", the warning OpenTofu gives
/// on a condition's message `at` that shows a sensitive value.
pub(crate) fn sensitive_condition_message(code: tofu_syntax::Code, at: Location) -> Diagnostic {
    Diagnostic::new(code, "Error message refers to sensitive values", at).with_detail(
        "The error expression used to explain this condition refers to sensitive values, so OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
    )
}

/// "Error message refers to sensitive values", the error OpenTofu gives on
/// a failed validation rule's message `at` that shows a sensitive value.
pub(crate) fn sensitive_validation_message(code: tofu_syntax::Code, at: Location) -> Diagnostic {
    Diagnostic::new(code, "Error message refers to sensitive values", at).with_detail(
        "The error expression used to explain this condition refers to sensitive values. OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
    )
}

/// A failed validation rule's message when it shows a sensitive value.
pub(crate) const SENSITIVE_VALIDATION_FAILURE: &str =
    "The error message included a sensitive value, so it will not be displayed.";

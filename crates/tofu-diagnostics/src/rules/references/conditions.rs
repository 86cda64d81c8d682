//! Conditions (`diagnostics.md` §4.17): `constant-condition` on the
//! `condition` of `validation`, `precondition`, `postcondition` and `assert`
//! blocks; `condition-self-reference` on the conditions and error messages of
//! a resource's own preconditions and postconditions;
//! `validation-condition-reference` on a variable's validations.
//!
//! All of them read primary files only: in an override file these blocks are
//! `override-forbidden-block` and OpenTofu reads nothing inside them.

use tofu_syntax::{Block, Diagnostic};

use tofu_module::address::ResourceMode;

use super::in_file::InFile;
use super::referenceable::{parse_reference, Referenceable};
use super::scan::{self, Found};

/// The resource whose lifecycle holds a condition.
pub(super) struct Resource<'a> {
    pub mode: ResourceMode,
    pub type_name: &'a str,
    pub name: &'a str,
}

impl Resource<'_> {
    /// The address as OpenTofu prints it: `TYPE.NAME`, `data.TYPE.NAME`,
    /// `ephemeral.TYPE.NAME`.
    fn address(&self) -> String {
        match self.mode {
            ResourceMode::Managed => format!("{}.{}", self.type_name, self.name),
            mode => format!("{}.{}.{}", mode.keyword(), self.type_name, self.name),
        }
    }
}

/// `constant-condition` for one `validation`, `precondition`,
/// `postcondition` or `assert` block; returns the references of its
/// condition (`None` when it is not read or has none).
pub(super) fn rule(in_file: &InFile<'_>, rule: &Block, out: &mut Vec<Diagnostic>) -> Option<Found> {
    if !in_file.primary {
        return None;
    }
    let condition = rule.body.attribute("condition")?;
    let found = scan::in_expr(in_file.text, &condition.expr, in_file.json);
    if found.references.is_empty() {
        out.push(
            Diagnostic::new(
                crate::codes::CONSTANT_CONDITION,
                format!("Invalid {} expression", rule.kind),
                in_file.at(condition.expr.range),
            )
            .with_detail("The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything."),
        );
    }
    Some(found)
}

/// A variable's `validation` block: `constant-condition`, then
/// `validation-condition-reference` unless the condition refers to
/// `var.NAME`.
pub(super) fn validation(
    in_file: &InFile<'_>,
    validation: &Block,
    variable_name: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some(found) = rule(in_file, validation, out) else {
        return;
    };
    let refers_to_variable = found.references.iter().any(|reference| {
        matches!(parse_reference(reference), Ok(Referenceable::Variable(name)) if name == variable_name)
    });
    if refers_to_variable {
        return;
    }
    let Some(condition) = validation.body.attribute("condition") else {
        return;
    };
    out.push(
        Diagnostic::new(
            crate::codes::VALIDATION_CONDITION_REFERENCE,
            "Invalid variable validation condition",
            in_file.at(condition.expr.range),
        )
        .with_detail(format!(
            "The condition for variable \"{variable_name}\" must refer to var.{variable_name} in order to test incoming values."
        )),
    );
}

/// `condition-self-reference`: at most one diagnostic each for the
/// `condition` and the `error_message` of a resource's own precondition or
/// postcondition that refer to that resource.
pub(super) fn self_reference(
    in_file: &InFile<'_>,
    rule: &Block,
    resource: &Resource<'_>,
    out: &mut Vec<Diagnostic>,
) {
    if !in_file.primary {
        return;
    }
    for argument in ["condition", "error_message"] {
        let Some(attr) = rule.body.attribute(argument) else {
            continue;
        };
        let found = scan::in_expr(in_file.text, &attr.expr, in_file.json);
        let refers_to_itself = found.references.iter().any(|reference| {
            matches!(
                parse_reference(reference),
                Ok(Referenceable::Resource { mode, type_name, name, .. })
                    if mode == resource.mode && type_name == resource.type_name && name == resource.name
            )
        });
        if refers_to_itself {
            out.push(
                Diagnostic::new(
                    crate::codes::CONDITION_SELF_REFERENCE,
                    format!("Invalid reference in {}", rule.kind),
                    in_file.at(attr.expr.range),
                )
                .with_detail(format!(
                    "Configuration for {} may not refer to itself.",
                    resource.address()
                )),
            );
        }
    }
}

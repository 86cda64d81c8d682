//! Variable definitions files (`*.tfvars`, `*.tfvars.json`) against the
//! module's variables, as `tofu plan` judges them (`spec/diagnostics.md` §7):
//! a value for a variable the module does not declare is a warning (OpenTofu
//! reports it without a place; here it is on the value), and a constant value
//! that does not convert to the variable's type is an error (OpenTofu puts it
//! on the variable's declaration; here it is on the value, the variable
//! related).
//!
//! OpenTofu reads `terraform.tfvars` and `*.auto.tfvars` by itself, a later
//! file's value replacing an earlier one (which is then not judged), and
//! other files when told (`-var-file`): each of those is judged on its own,
//! as a file in the module's directory is meant for it. OpenTofu shows two
//! undeclared values and counts the rest; each is reported here. Values
//! that are not constants, and the values a caller passes, are not judged.

use tofu_syntax::{Diagnostic, FileId, Location};

use crate::rules::views::ModuleView;
use tofu_eval::TypeConstraint;
use tofu_module::address::BlockAddress;
use tofu_module::discovery::{auto_values_order, is_auto_values_file};
use tofu_module::loaded::FileRole;
use tofu_module::types::{constant_value, convert_variable_value, parse_variable_type};

/// The `values` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let (auto, named) = values_files(view);
    let mut winners = automatic_values(view, &auto);
    for &file_id in &named {
        let Some(source) = view.file(file_id).and_then(|file| file.source.as_ref()) else {
            continue;
        };
        winners.extend((0..source.body.attributes.len()).map(|index| (file_id, index)));
    }
    for (file_id, index) in winners {
        let Some(file) = view.file(file_id) else {
            continue;
        };
        let Some(attribute) = file
            .source
            .as_ref()
            .and_then(|source| source.body.attributes.get(index))
        else {
            continue;
        };
        {
            let name = &attribute.name;
            let Some(variable) = view.effective(&BlockAddress::Variable(name.clone())) else {
                out.push(
                    Diagnostic::new(
                        crate::codes::UNDECLARED_VALUE,
                        "Value for undeclared variable",
                        Location::new(file_id, attribute.range),
                    )
                    .with_detail(format!(
                        "The root module does not declare a variable named {} but a value was found in file {}. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.",
                        tofu_syntax::go_text::go_quote(name),
                        tofu_syntax::go_text::go_quote(&file.name)
                    )),
                );
                continue;
            };
            let Ok(value) = constant_value(&attribute.expr, &file.text) else {
                continue;
            };
            let Some(constraint) = variable_type(view, variable) else {
                continue;
            };
            let Err(error) = convert_variable_value(&value, &constraint) else {
                continue;
            };
            let Some(base) = variable.base else {
                continue;
            };
            let Some(declaration) = view
                .block(base)
                .map(|block| Location::new(base.file, block.header))
            else {
                continue;
            };
            let flag = |argument: &str| {
                variable
                    .body
                    .attribute(argument)
                    .and_then(|attribute| {
                        let file = view.file(attribute.origin.file)?;
                        Some(attribute.value.slice(&file.text).trim() == "true")
                    })
                    .unwrap_or(false)
            };
            let at = Location::new(file_id, attribute.expr.range);
            let detail = if flag("ephemeral") {
                format!(
                    "The given value is not suitable for var.{name}, which is ephemeral: {}. Invalid value defined at {}.",
                    error.message,
                    view.describe(at)
                )
            } else if flag("sensitive") {
                format!(
                    "The given value is not suitable for var.{name}, which is sensitive: {}. Invalid value defined at {}.",
                    error.message,
                    view.describe(at)
                )
            } else {
                format!(
                    "The given value is not suitable for var.{name} declared at {}: {}.",
                    view.describe(declaration),
                    error.message
                )
            };
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_VARIABLE_VALUE,
                    "Invalid value for input variable",
                    at,
                )
                .with_detail(detail)
                .with_related(declaration, format!("var.{name} is declared here")),
            );
        }
    }
}

/// The values files of the module: those `tofu plan` reads by itself, in
/// its order ([`auto_values_order`]), and the others, which it reads when
/// told (`-var-file`).
pub(crate) fn values_files(view: &ModuleView<'_>) -> (Vec<FileId>, Vec<FileId>) {
    let mut auto: Vec<FileId> = Vec::new();
    let mut named: Vec<FileId> = Vec::new();
    for file_id in view.file_ids() {
        if view.role(file_id) != Some(FileRole::Values) {
            continue;
        }
        match view.name(file_id) {
            Some(name) if is_auto_values_file(name) => auto.push(file_id),
            Some(_) => named.push(file_id),
            None => {}
        }
    }
    auto.sort_by(|&a, &b| {
        let name = |id| view.name(id).unwrap_or_default();
        auto_values_order(name(a)).cmp(&auto_values_order(name(b)))
    });
    (auto, named)
}

/// The value assignments of the automatic files `auto` (in `tofu plan`'s
/// order) that plan uses, as (file, index of the attribute): a later
/// file's value replaces an earlier one.
pub(crate) fn automatic_values(view: &ModuleView<'_>, auto: &[FileId]) -> Vec<(FileId, usize)> {
    let mut winners: Vec<(FileId, usize)> = Vec::new();
    for &file_id in auto {
        let Some(source) = view.file(file_id).and_then(|file| file.source.as_ref()) else {
            continue;
        };
        for (index, attribute) in source.body.attributes.iter().enumerate() {
            winners.retain(|&(other_file, other_index)| {
                view.file(other_file)
                    .and_then(|file| file.source.as_ref())
                    .and_then(|source| source.body.attributes.get(other_index))
                    .is_none_or(|other| other.name != attribute.name)
            });
            winners.push((file_id, index));
        }
    }
    winners
}

/// The merged type constraint of a variable (`any` without one).
pub(crate) fn variable_type(
    view: &ModuleView<'_>,
    variable: &tofu_module::effective::EffectiveBlock,
) -> Option<TypeConstraint> {
    let Some(attribute) = variable.body.attribute("type") else {
        return Some(TypeConstraint::any());
    };
    let file = view.file(attribute.origin.file)?;
    let source = file.source.as_ref()?;
    let written = file.attribute_at(attribute.origin.range)?;
    Some(parse_variable_type(&written.expr, source.syntax, &file.text).constraint)
}

//! What `tofu plan` reports from known values before it contacts a
//! provider (`spec/diagnostics.md` §7, issue 45): first, input variables'
//! `validation` rules.
//!
//! A directory is judged as plan would judge it as the root module when it
//! holds a values file plan reads by itself (`terraform.tfvars`,
//! `terraform.tfvars.json`, `*.auto.tfvars(.json)`): that is where users
//! run `tofu plan`. A module directory without one is judged as validate
//! judges it (every input variable unknown), since its values come from
//! its callers or from the command line.
//!
//! Each variable's value is the constant the automatic files give it (the
//! last file's wins), else its constant default, converted to its type
//! (optional attributes' defaults applied); a value that does not convert
//! is `variable-values`'s error and is not validated. Every such value is
//! known to the conditions at once, as in plan (a condition may read
//! other variables); resources, data sources and module outputs stay
//! unknown, so a condition that reads them is unknown and judged by
//! nobody: nothing rests on a guess.
//!
//! As OpenTofu (`evalVariableValidations`), the rules of one variable are
//! checked in order and the first that fails is reported: "Invalid value
//! for variable" on the `variable` block's header, its error message
//! followed by where the rule is. A condition whose evaluation fails, or
//! that is unknown, null or no bool, says nothing here: validate's rules
//! judge what fails whatever the value.

use std::collections::BTreeMap;

use tofu_eval::convert::convert;
use tofu_eval::{Type, Value};
use tofu_syntax::{Diagnostic, FileId, Location};

use crate::rules::values::{automatic_values, values_files, variable_type};
use crate::rules::views::ModuleView;
use crate::rules::walk_values::WalkValues;
use tofu_module::address::BlockAddress;
use tofu_module::effective::EffectiveBlock;
use tofu_module::types::{constant_value, convert_variable_value, declared_true};

/// A variable's value as plan knows it, and where it was written.
struct Known {
    value: Value,
    from: Location,
    from_default: bool,
}

/// The `plan-variable-validations` module rule.
pub(crate) fn variable_validations(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let (auto, _) = values_files(view);
    if auto.is_empty() {
        return;
    }
    let given = given_values(view, &auto);
    let variables = view.effective_blocks(|address| matches!(address, BlockAddress::Variable(_)));
    let mut known: BTreeMap<String, Known> = BTreeMap::new();
    for variable in &variables {
        let BlockAddress::Variable(name) = &variable.address else {
            continue;
        };
        if let Some(value) = known_value(view, variable, given.get(name.as_str()).copied()) {
            known.insert(name.clone(), value);
        }
    }
    if known.is_empty() {
        return;
    }
    let values = WalkValues::with_known_variables(
        view,
        known
            .iter()
            .map(|(name, known)| (name.clone(), known.value.clone()))
            .collect(),
    );
    for variable in &variables {
        let BlockAddress::Variable(name) = &variable.address else {
            continue;
        };
        let Some(value) = known.get(name) else {
            continue;
        };
        if let Some(diagnostic) = first_failed_rule(view, &values, name, variable, value) {
            out.push(diagnostic);
        }
    }
}

/// The attribute of the automatic values files that gives each variable
/// its value, by name.
fn given_values<'a>(view: &ModuleView<'a>, auto: &[FileId]) -> BTreeMap<&'a str, (FileId, usize)> {
    let mut given = BTreeMap::new();
    for (file_id, index) in automatic_values(view, auto) {
        let Some(attribute) = view
            .file(file_id)
            .and_then(|file| file.source.as_ref())
            .and_then(|source| source.body.attributes.get(index))
        else {
            continue;
        };
        given.insert(attribute.name.as_str(), (file_id, index));
    }
    given
}

/// The value plan gives `variable`: the constant `given` (an attribute of
/// a values file), else its constant default, converted to its type and
/// marked as declared. `None` when it has neither, or the value is no
/// constant or does not convert.
fn known_value(
    view: &ModuleView<'_>,
    variable: &EffectiveBlock,
    given: Option<(FileId, usize)>,
) -> Option<Known> {
    let (value, from, from_default) = match given {
        Some((file_id, index)) => {
            let file = view.file(file_id)?;
            let attribute = file.source.as_ref()?.body.attributes.get(index)?;
            let value = constant_value(&attribute.expr, &file.text).ok()?;
            (value, Location::new(file_id, attribute.expr.range), false)
        }
        None => {
            let default = variable.body.attribute("default")?;
            let file = view.file(default.origin.file)?;
            let written = file.attribute_at(default.origin.range)?;
            let value = constant_value(&written.expr, &file.text).ok()?;
            (
                value,
                Location::new(default.origin.file, written.expr.range),
                true,
            )
        }
    };
    let constraint = variable_type(view, variable)?;
    let value = convert_variable_value(&value, &constraint).ok()?;
    let declared = |argument: &str| {
        variable.body.attribute(argument).is_some_and(|attribute| {
            view.file(attribute.origin.file)
                .and_then(|file| {
                    let written = file.attribute_at(attribute.origin.range)?;
                    let syntax = file.source.as_ref()?.syntax;
                    Some(declared_true(&written.expr, syntax))
                })
                .unwrap_or(false)
        })
    };
    let value = if declared("sensitive") {
        value.mark_sensitive()
    } else {
        value
    };
    // An ephemeral variable's value is not kept past validation, and its
    // messages may not show it: left to a later step.
    if declared("ephemeral") {
        return None;
    }
    Some(Known {
        value,
        from,
        from_default,
    })
}

/// The diagnostic of the first of `variable`'s `validation` rules that
/// its known value fails, if one does.
fn first_failed_rule(
    view: &ModuleView<'_>,
    values: &WalkValues<'_, '_>,
    name: &str,
    variable: &EffectiveBlock,
    known: &Known,
) -> Option<Diagnostic> {
    for rule in variable
        .body
        .blocks
        .iter()
        .filter(|block| block.kind == "validation")
    {
        let Some(condition) = rule.body.attribute("condition") else {
            continue;
        };
        let Some(expr) = values.expression(condition) else {
            continue;
        };
        let evaluation = values.evaluate_in(condition.origin.file, &expr);
        if !evaluation.diagnostics.is_empty() || values.followed_a_failure() {
            return None;
        }
        let (result, _) = evaluation.value.unmark();
        if !result.is_known() || result.is_null() {
            continue;
        }
        let Ok(result) = convert(&result, &Type::Bool) else {
            continue;
        };
        if result.as_bool() != Some(false) {
            continue;
        }
        let message = rule.body.attribute("error_message").and_then(|attribute| {
            let expr = values.expression(attribute)?;
            let evaluation = values.evaluate_in(attribute.origin.file, &expr);
            if !evaluation.diagnostics.is_empty() {
                return None;
            }
            let message = convert(&evaluation.value, &Type::String).ok()?;
            // A message that shows a sensitive value is an error of its own
            // in OpenTofu: not reported here.
            if message.is_marked() || !message.is_known() {
                return None;
            }
            message.as_str().map(str::to_owned)
        })?;
        let base = variable.base?;
        let header = Location::new(base.file, view.block(base)?.header);
        let rule_at = Location::new(rule.origin.file, rule.origin.range);
        let detail = format!(
            "{message}\n\nThis was checked by the validation rule at {}.",
            view.describe(rule_at)
        );
        let source = if known.from_default {
            format!("var.{name} has its default value here")
        } else {
            format!("var.{name} is given its value here")
        };
        return Some(
            Diagnostic::new(
                crate::codes::PLAN_VARIABLE_VALIDATION,
                "Invalid value for variable",
                header,
            )
            .with_detail(detail)
            .with_related(known.from, source),
        );
    }
    None
}

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
use tofu_module::discovery::is_auto_values_file;
use tofu_module::effective::EffectiveBlock;
use tofu_module::given_values::{
    assignments, parse_raw_value, reads_literally, Assignment, GivenValue, RawSource, RawValueError,
};
use tofu_module::loaded::FileRole;
use tofu_module::types::{constant_value, convert_variable_value, parse_variable_type};

/// The `values` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    // A directory of values files alone is no module (a values file open
    // in the editor beside no configuration): nothing is said of its
    // values, since no plan reads them there.
    if !view
        .file_ids()
        .any(|id| matches!(view.role(id), Some(FileRole::Primary | FileRole::Override)))
    {
        return;
    }
    let files = module_files(view);
    let chosen = &view.config().values;
    let last = assignments(&files, chosen);
    // Plan stops after collecting the values when one it needs is
    // missing: it converts none of them.
    let unset = if planned(view, &files) {
        unset_required(view, &last)
    } else {
        Vec::new()
    };
    for variable in &unset {
        out.extend(no_value(view, variable));
    }
    let stopped = command_line_fails(view, &last) || !unset.is_empty();
    // A file plan reads (by itself, or named) counts where nothing later
    // replaces its value; one it is not told to read is judged on its own.
    let read = |name: &str| is_automatic_name(name) || chosen.files().any(|file| file == name);
    let mut judged: Vec<(FileId, usize)> = last
        .values()
        .filter_map(|assignment| match *assignment {
            Assignment::File { file, index, .. } if view.name(file).is_some_and(read) => {
                Some((file, index))
            }
            _ => None,
        })
        .collect();
    judged.sort_unstable();
    for (file_id, file) in &files {
        if file.role != FileRole::Values || read(&file.name) {
            continue;
        }
        if let Some(source) = &file.source {
            judged.extend((0..source.body.attributes.len()).map(|index| (*file_id, index)));
        }
    }
    for (file_id, index) in judged {
        let read_by_plan = view.name(file_id).is_some_and(read);
        judge_file_value(view, file_id, index, stopped && read_by_plan, out);
    }
    for (name, assignment) in &last {
        if let Assignment::Raw { text, source } = *assignment {
            judge_raw_value(view, name, text, source, stopped, out);
        }
    }
    for given in &chosen.given {
        if let GivenValue::Var { name, .. } = given {
            if view
                .effective(&BlockAddress::Variable(name.clone()))
                .is_none()
            {
                out.extend(undeclared_command_line_value(view, name));
            }
        }
    }
}

/// Whether `tofu plan` is run in this directory as the root module: it
/// holds a values file plan reads by itself, or the user names values for
/// it (`--var-file`, `--var`, a `TF_VAR_` of a variable it declares, the
/// server's `varFiles`). Elsewhere the values come from callers.
pub(crate) fn planned(
    view: &ModuleView<'_>,
    files: &[(FileId, &tofu_module::loaded::ModuleFile)],
) -> bool {
    let chosen = &view.config().values;
    !tofu_module::given_values::automatic_files(files).is_empty()
        || !chosen.given.is_empty()
        || chosen.environment.iter().any(|(name, _)| {
            view.effective(&BlockAddress::Variable(name.clone()))
                .is_some()
        })
}

/// The variables plan needs a value for and gets none: no `default`
/// argument (`default = null` is one) and nothing in `last`, in the
/// order of their declarations.
pub(crate) fn unset_required<'a>(
    view: &ModuleView<'a>,
    last: &std::collections::BTreeMap<&str, Assignment<'_>>,
) -> Vec<&'a EffectiveBlock> {
    view.effective_blocks(|address| matches!(address, BlockAddress::Variable(_)))
        .into_iter()
        .filter(|variable| {
            let BlockAddress::Variable(name) = &variable.address else {
                return false;
            };
            variable.body.attribute("default").is_none() && !last.contains_key(name.as_str())
        })
        .collect()
}

/// "No value for required variable", as `tofu plan -input=false` gives
/// it, on the variable's declaration.
fn no_value(view: &ModuleView<'_>, variable: &EffectiveBlock) -> Option<Diagnostic> {
    let BlockAddress::Variable(name) = &variable.address else {
        return None;
    };
    Some(
        Diagnostic::new(
            crate::codes::PLAN_REQUIRED_VARIABLE,
            "No value for required variable",
            declaration(view, variable)?,
        )
        .with_detail(format!(
            "The root module input variable \"{name}\" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable."
        )),
    )
}

/// The module's values files by id, as assignments are looked up in
/// them (only those: a rule that reads them is not run again for a
/// change elsewhere).
pub(crate) fn module_files<'a>(
    view: &ModuleView<'a>,
) -> Vec<(FileId, &'a tofu_module::loaded::ModuleFile)> {
    view.file_ids()
        .filter(|&id| view.role(id) == Some(FileRole::Values))
        .filter_map(|id| Some((id, view.file(id)?)))
        .collect()
}

/// Whether plan stops before it converts any value: a `-var` for an
/// undeclared variable, or a `-var`/`TF_VAR_` value (of a declared
/// variable, the one plan uses) that does not parse. OpenTofu reports
/// those, and the undeclared values of files, while it collects the
/// values, and goes no further.
pub(crate) fn command_line_fails(
    view: &ModuleView<'_>,
    last: &std::collections::BTreeMap<&str, Assignment<'_>>,
) -> bool {
    let declared = |name: &str| view.effective(&BlockAddress::Variable(name.to_owned()));
    let undeclared_var = view
        .config()
        .values
        .given
        .iter()
        .any(|given| matches!(given, GivenValue::Var { name, .. } if declared(name).is_none()));
    undeclared_var
        || last.iter().any(|(name, assignment)| {
            let Assignment::Raw { text, .. } = *assignment else {
                return false;
            };
            declared(name).is_some_and(|variable| {
                raw_value(view, variable, text).is_some_and(|parsed| parsed.is_err())
            })
        })
}

/// A `-var` or `TF_VAR_` value of `variable`, read as OpenTofu reads it
/// for the variable's type (`given_values::reads_literally`).
fn raw_value(
    view: &ModuleView<'_>,
    variable: &EffectiveBlock,
    text: &str,
) -> Option<Result<tofu_eval::Value, RawValueError>> {
    let constraint = variable_type(view, variable)?;
    let literal = reads_literally(variable.body.attribute("type").is_some(), &constraint);
    Some(parse_raw_value(text, literal))
}

/// The value `given` assigns `variable`, before conversion: `None` when it
/// is not a constant; `Some(Err(_))` when a raw value does not parse.
pub(crate) fn assigned_value(
    view: &ModuleView<'_>,
    variable: &EffectiveBlock,
    given: Assignment<'_>,
) -> Option<Result<tofu_eval::Value, RawValueError>> {
    match given {
        Assignment::File {
            file, attribute, ..
        } => {
            let file = view.file(file)?;
            constant_value(&attribute.expr, &file.text).ok().map(Ok)
        }
        Assignment::Raw { text, .. } => raw_value(view, variable, text),
    }
}

/// A values file OpenTofu reads by itself: of the directory, so named.
fn is_automatic_name(name: &str) -> bool {
    !name.contains('/') && is_auto_values_file(name)
}

/// One `NAME = VALUE` of a values file: a value for an undeclared
/// variable, or (unless `undeclared_only`: plan stopped before it
/// converts values) a constant that does not convert to the variable's
/// type.
fn judge_file_value(
    view: &ModuleView<'_>,
    file_id: FileId,
    index: usize,
    undeclared_only: bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(file) = view.file(file_id) else {
        return;
    };
    let Some(attribute) = file
        .source
        .as_ref()
        .and_then(|source| source.body.attributes.get(index))
    else {
        return;
    };
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
        return;
    };
    if undeclared_only {
        return;
    }
    let Ok(value) = constant_value(&attribute.expr, &file.text) else {
        return;
    };
    let Some(constraint) = variable_type(view, variable) else {
        return;
    };
    let Some(declaration) = declaration(view, variable) else {
        return;
    };
    let at = Location::new(file_id, attribute.expr.range);
    let error = match convert_variable_value(&value, &constraint) {
        Err(error) => error,
        Ok(converted) => {
            if converted.is_null() && null_not_allowed(view, variable) {
                out.push(
                    Diagnostic::new(crate::codes::INVALID_VARIABLE_VALUE, "Required variable not set", at)
                        .with_detail(format!(
                            "The given value is not suitable for var.{name} defined at {}: required variable may not be set to null.",
                            view.describe(declaration)
                        ))
                        .with_related(declaration, format!("var.{name} is declared here")),
                );
            }
            return;
        }
    };
    let detail = if flag(view, variable, "ephemeral") {
        format!(
            "The given value is not suitable for var.{name}, which is ephemeral: {}. Invalid value defined at {}.",
            error.message,
            view.describe(at)
        )
    } else if flag(view, variable, "sensitive") {
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

/// The value a `-var` or `TF_VAR_` gives `name`, which plan uses: one that
/// does not parse, or does not convert to the variable's type, is an error
/// on the variable's declaration, where OpenTofu puts it (a parse error
/// with HCL's words; OpenTofu places it in `<value for var.NAME>`). An
/// undeclared name's environment variable is ignored, as OpenTofu ignores
/// it. When plan `stopped` before converting values, only parse errors.
fn judge_raw_value(
    view: &ModuleView<'_>,
    name: &str,
    text: &str,
    source: RawSource,
    stopped: bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(variable) = view.effective(&BlockAddress::Variable(name.to_owned())) else {
        return;
    };
    let Some(declaration) = declaration(view, variable) else {
        return;
    };
    let Some(constraint) = variable_type(view, variable) else {
        return;
    };
    let Some(parsed) = raw_value(view, variable, text) else {
        return;
    };
    let diagnostic = match parsed {
        Err(error) => Diagnostic::new(
            crate::codes::INVALID_VARIABLE_VALUE,
            error.summary,
            declaration,
        )
        .with_detail(error.detail),
        Ok(_) if stopped => return,
        Ok(value) => {
            let error = match convert_variable_value(&value, &constraint) {
                Err(error) => error,
                Ok(converted) => {
                    if converted.is_null() && null_not_allowed(view, variable) {
                        out.push(
                            Diagnostic::new(
                                crate::codes::INVALID_VARIABLE_VALUE,
                                "Required variable not set",
                                declaration,
                            )
                            .with_detail(format!(
                                "Unsuitable value for var.{name} {}: required variable may not be set to null.",
                                source.described(name)
                            )),
                        );
                    }
                    return;
                }
            };
            Diagnostic::new(
                crate::codes::INVALID_VARIABLE_VALUE,
                "Invalid value for input variable",
                declaration,
            )
            .with_detail(format!(
                "Unsuitable value for var.{name} {}: {}.",
                source.described(name),
                error.message
            ))
        }
    };
    out.push(diagnostic);
}

/// `-var NAME=VALUE` for a variable the module does not declare: an error
/// OpenTofu gives without a place, here at the start of the module's first
/// configuration file.
fn undeclared_command_line_value(view: &ModuleView<'_>, name: &str) -> Option<Diagnostic> {
    let first = view
        .file_ids()
        .find(|&id| matches!(view.role(id), Some(FileRole::Primary)))?;
    Some(
        Diagnostic::new(
            crate::codes::UNDECLARED_VALUE,
            "Value for undeclared variable",
            Location::new(first, tofu_syntax::TextRange::empty(0)),
        )
        .with_severity(tofu_syntax::Severity::Error)
        .with_detail(format!(
            "A variable named {} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.",
            tofu_syntax::go_text::go_quote(name)
        )),
    )
}

/// Whether the variable may be null (`nullable = false` says it may not).
pub(crate) fn is_nullable(
    view: &ModuleView<'_>,
    variable: &tofu_module::effective::EffectiveBlock,
) -> bool {
    let Some(attribute) = variable.body.attribute("nullable") else {
        return true;
    };
    view.file(attribute.origin.file)
        .map(|file| attribute.value.slice(&file.text).trim() != "false")
        .unwrap_or(true)
}

/// `nullable = false` without a default: plan rejects a null value (with
/// a default, it takes the default instead).
pub(crate) fn null_not_allowed(
    view: &ModuleView<'_>,
    variable: &tofu_module::effective::EffectiveBlock,
) -> bool {
    !is_nullable(view, variable) && variable.body.attribute("default").is_none()
}

/// The header of the `variable` block that declares `variable`.
fn declaration(
    view: &ModuleView<'_>,
    variable: &tofu_module::effective::EffectiveBlock,
) -> Option<Location> {
    let base = variable.base?;
    view.block(base)
        .map(|block| Location::new(base.file, block.header))
}

/// `NAME = true` in the variable's merged body, as written.
fn flag(
    view: &ModuleView<'_>,
    variable: &tofu_module::effective::EffectiveBlock,
    argument: &str,
) -> bool {
    variable
        .body
        .attribute(argument)
        .and_then(|attribute| {
            let file = view.file(attribute.origin.file)?;
            Some(attribute.value.slice(&file.text).trim() == "true")
        })
        .unwrap_or(false)
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

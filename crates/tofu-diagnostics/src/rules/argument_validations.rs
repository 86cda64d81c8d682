//! A called module's `validation` rules against the values its caller
//! gives (`spec/diagnostics.md` §7, issue 45): OpenTofu evaluates a child
//! variable's rules in the child with the value of the caller's argument
//! (`evalVariableValidations`), in `tofu validate` as soon as that value is
//! known (a constant, a known local value) and in `tofu plan` with the
//! input variables' values too. A rule that fails is "Invalid value for
//! variable" on the caller's argument, its error message followed by
//! where the rule is in the child (`child/main.tf:4,3-13`).
//!
//! The rules come from the child's interface
//! (`tofu_module::interface::InterfaceRule`), so the caller never holds the
//! child's syntax. They are judged in order, and the first that fails is
//! the one reported: OpenTofu stops at the first error. A rule whose
//! condition is unknown is passed, as OpenTofu passes it. What the caller
//! cannot know stops the judging of that variable (nothing rests on a
//! guess): a rule that reads anything of the child but its variables and
//! local values defined by constants (another local value, a resource,
//! `path`, `terraform`), calls a provider's function or reads a file; a
//! condition or message that fails to evaluate, is null or no bool; a
//! message that is unknown. A message that shows a sensitive value is not
//! shown: "Error message refers to sensitive values" comes first, on the
//! argument (OpenTofu's is on the child's message). Another variable
//! of the child is unknown of its type in validate, as OpenTofu has it;
//! in plan it has the value the call gives (one the call leaves to its
//! default cannot be judged). A variable whose rules read another is
//! reported only when no other variable of the call fails: OpenTofu
//! 1.12.6 then does not evaluate it; nor is it judged when an argument of
//! the call was not evaluated (it read what failed), since its rules may
//! read that variable. An argument that is null for a
//! variable declared `nullable = false` (its default applies), fails to
//! evaluate, does not convert
//! to the variable's type (`module-argument-values` reports it) or reads
//! a local value that fails is not judged; nor are rules under a call
//! whose expansion fails.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::Arc;

use tofu_eval::convert::convert;
use tofu_eval::{evaluate, Environment, EvalDiagnostic, FileError, Marks, Reference, Referenced};
use tofu_eval::{Scope, Type, Value};
use tofu_syntax::{Diagnostic, Location, RelatedOutside, TextRange, TraversalStep};

use crate::rules::views::IdentityView;
use crate::rules::walk_values::WalkValues;
use tofu_module::effective::EffectiveAttribute;
use tofu_module::interface::{InterfaceRule, InterfaceVariable, ModuleInterface};
use tofu_module::types::convert_variable_value;

/// The caller's call `name` and the child it reads, for the rules of the
/// child's variables its `inputs` set.
pub(crate) struct Call<'c> {
    pub(crate) name: &'c str,
    pub(crate) child: &'c ModuleInterface,
    /// The child's directory relative to the caller's, when known
    /// (`modules/net`): where OpenTofu names the rule's file from.
    pub(crate) dir: Option<String>,
}

/// Judges each of `inputs` (the call's arguments that evaluated without
/// error and without following a failure, with their values) against the
/// rules of the child's variable it sets; `values` is the walk they were
/// evaluated in.
pub(crate) fn judge(
    identity: &IdentityView<'_>,
    values: &WalkValues<'_, '_>,
    call: &Call<'_>,
    inputs: &[(&EffectiveAttribute, Value)],
    any_not_evaluated: bool,
    out: &mut Vec<Diagnostic>,
) {
    if call.child.incomplete {
        return;
    }
    // Each argument's value, converted to its variable's type.
    let mut given: Vec<Given<'_>> = Vec::new();
    for (attribute, value) in inputs {
        let Some(variable) = call.child.variable(&attribute.name) else {
            continue;
        };
        let Some(file) = identity.file(attribute.origin.file) else {
            continue;
        };
        let Some(written) = file.attribute_at(attribute.origin.range) else {
            continue;
        };
        // Null is the variable's value when it is nullable (its default
        // otherwise, which the caller does not know).
        if value.is_null() && !variable.nullable {
            continue;
        }
        let Ok(value) = convert_variable_value(value, &variable.constraint) else {
            continue;
        };
        given.push(Given {
            variable,
            at: Location::new(attribute.origin.file, written.expr.range),
            value: value.with_marks(Marks {
                sensitive: variable.sensitive,
                ephemeral: variable.ephemeral,
            }),
        });
    }
    // In plan the child's variables the call sets are known to each
    // other's rules; in validate every other variable is unknown.
    let plan = values.knows_variables();
    let known: BTreeMap<&str, &Value> = if plan {
        given
            .iter()
            .map(|given| (given.variable.name.as_str(), &given.value))
            .collect()
    } else {
        BTreeMap::new()
    };
    let others = Others {
        child: call.child,
        known: &known,
        plan,
    };
    let mut failures: Vec<(bool, Vec<Diagnostic>)> = Vec::new();
    for given in &given {
        let reads_others = given
            .variable
            .validations
            .iter()
            .any(|rule| rule.reads_others);
        // A variable's rules are one node: when one of them reads another
        // variable of the call, and an argument was not evaluated (it read
        // what failed), OpenTofu may not evaluate them at all (it does not
        // when the rule reads that variable; which one it reads is not
        // known here): nothing is said rather than a guess.
        if reads_others && any_not_evaluated {
            continue;
        }
        if let Some(rule) = first_failed_rule(&others, given.variable, &given.value) {
            failures.push((reads_others, failure(call, given.variable, rule, given.at)));
        }
    }
    // A variable whose rules read others is judged by OpenTofu after
    // them, and (as OpenTofu 1.12.6 shows) not at all when another
    // variable of the call fails: its failure is reported only alone.
    if failures.len() > 1 {
        failures.retain(|(reads_others, _)| !reads_others);
    }
    out.extend(
        failures
            .into_iter()
            .flat_map(|(_, diagnostics)| diagnostics),
    );
}

/// An argument of the call, its variable and its value.
struct Given<'c> {
    variable: &'c InterfaceVariable,
    at: Location,
    value: Value,
}

/// What a rule sees of the child's variables other than its own.
struct Others<'o> {
    child: &'o ModuleInterface,
    /// In plan, the values the call gives.
    known: &'o BTreeMap<&'o str, &'o Value>,
    plan: bool,
}

/// A failed rule's error message: the string, or `None` when it shows a
/// sensitive value (OpenTofu does not display it).
type RuleMessage = Option<String>;

/// A rule of `variable` that fails with `value`, with its error message;
/// `None` when every rule holds, is unknown, or one cannot be judged.
fn first_failed_rule<'i>(
    others: &Others<'_>,
    variable: &'i InterfaceVariable,
    value: &Value,
) -> Option<(&'i InterfaceRule, RuleMessage)> {
    for rule in &variable.validations {
        let scope = RuleScope {
            others,
            rule,
            own: &variable.name,
            value,
            beyond: Cell::new(false),
        };
        let condition = evaluate(&rule.condition, &scope);
        if scope.beyond.get() || !condition.diagnostics.is_empty() {
            return None;
        }
        let (result, _) = condition.value.unmark();
        if !result.is_known() {
            continue;
        }
        let holds = convert(&result, &Type::Bool).ok()?.as_bool()?;
        if holds {
            continue;
        }
        let message = evaluate(&rule.error_message, &scope);
        if scope.beyond.get() || !message.diagnostics.is_empty() {
            return None;
        }
        let message = convert(&message.value, &Type::String).ok()?;
        if !message.is_known() || message.is_null() {
            return None;
        }
        let (message, marks) = message.unmark();
        if marks.ephemeral {
            return None;
        }
        if marks.sensitive {
            return Some((rule, None));
        }
        return Some((rule, Some(message.as_str()?.trim().to_owned())));
    }
    None
}

/// "Invalid value for variable" on the caller's argument `at`, after
/// "Error message refers to sensitive values" when the message shows a
/// sensitive value (OpenTofu puts that on the child's message: here on the
/// argument too, the message a related place, as the caller's analysis
/// holds no file of the child).
fn failure(
    call: &Call<'_>,
    variable: &InterfaceVariable,
    (rule, message): (&InterfaceRule, RuleMessage),
    at: Location,
) -> Vec<Diagnostic> {
    let in_child = |name: &str| match call.dir.as_deref() {
        Some(dir) if dir != "." => format!("{dir}/{name}"),
        _ => name.to_owned(),
    };
    let mut found = Vec::new();
    let message = match message {
        Some(message) => message,
        None => {
            let mut sensitive = crate::rules::messages::sensitive_validation_message(
                crate::codes::SENSITIVE_VALIDATION_MESSAGE,
                at,
            );
            if let (Some(_), Some(place)) = (&call.dir, &rule.place) {
                sensitive = sensitive.with_related_outside(RelatedOutside {
                    path: in_child(&place.file),
                    text: Arc::clone(&place.text),
                    range: rule.error_message.range,
                    message: format!(
                        "the error message of module.{}.var.{}'s validation rule",
                        call.name, variable.name
                    ),
                });
            }
            found.push(sensitive);
            crate::rules::messages::SENSITIVE_VALIDATION_FAILURE.to_owned()
        }
    };
    let detail = format!(
        "{message}\n\nThis was checked by the validation rule at {}.",
        in_child(&rule.declared_at)
    );
    let mut diagnostic = Diagnostic::new(
        crate::codes::MODULE_ARGUMENT_VALIDATION,
        "Invalid value for variable",
        at,
    )
    .with_detail(detail);
    if let (Some(_), Some(place)) = (&call.dir, &rule.place) {
        diagnostic = diagnostic.with_related_outside(RelatedOutside {
            path: in_child(&place.file),
            text: Arc::clone(&place.text),
            range: place.header,
            message: format!(
                "the validation rule of module.{}.var.{}",
                call.name, variable.name
            ),
        });
    }
    found.push(diagnostic);
    found
}

/// What a child's validation rule sees from its caller: its own variable's
/// value, the child's other variables (unknown of their types in
/// validate, as OpenTofu has them; in plan the values the call gives, and
/// one it does not give cannot be judged), the child's local values
/// defined by constants, and nothing else.
struct RuleScope<'s> {
    others: &'s Others<'s>,
    rule: &'s InterfaceRule,
    own: &'s str,
    value: &'s Value,
    /// It read what the caller does not know (a local value, a resource,
    /// a provider's function, …).
    beyond: Cell<bool>,
}

/// The child's files are the child's: a function that reads one makes the
/// rule one the caller cannot judge.
impl Environment for RuleScope<'_> {
    fn read_file(&self, _path: &str) -> Result<Vec<u8>, FileError> {
        self.beyond.set(true);
        Err(FileError::Unavailable)
    }

    fn file_exists(&self, _path: &str) -> Result<bool, FileError> {
        self.beyond.set(true);
        Err(FileError::Unavailable)
    }

    fn read_dir(&self, _path: &str) -> Result<Vec<tofu_eval::DirEntry>, FileError> {
        self.beyond.set(true);
        Err(FileError::Unavailable)
    }
}

impl Scope for RuleScope<'_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let first = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let value = match (reference.root, first) {
            ("var", Some(name)) if name == self.own => self.value.clone(),
            ("var", Some(name)) => match self.others.known.get(name) {
                Some(value) => (*value).clone(),
                None => match self.others.child.variable(name) {
                    Some(other) if !self.others.plan => Value::unknown(other.constraint.ty.clone())
                        .with_marks(Marks {
                            sensitive: other.sensitive,
                            ephemeral: other.ephemeral,
                        }),
                    _ => {
                        self.beyond.set(true);
                        Value::dynamic_unknown()
                    }
                },
            },
            ("local", Some(name)) => {
                match self.rule.locals.iter().find(|local| local.name == name) {
                    Some(local) => local.value.clone(),
                    None => {
                        self.beyond.set(true);
                        Value::dynamic_unknown()
                    }
                }
            }
            _ => {
                self.beyond.set(true);
                return Ok(Referenced {
                    value: Value::dynamic_unknown(),
                    n_steps: reference.steps.len(),
                });
            }
        };
        Ok(Referenced { value, n_steps: 1 })
    }

    fn environment(&self) -> &dyn Environment {
        self
    }

    fn describe_range(&self, _range: TextRange) -> String {
        // A range of the child's file: a message that names one (`try`'s)
        // is not the caller's to give.
        self.beyond.set(true);
        String::new()
    }

    fn provider_function(&self, _name: &str) -> Option<tofu_eval::ProviderFunction> {
        self.beyond.set(true);
        None
    }
}

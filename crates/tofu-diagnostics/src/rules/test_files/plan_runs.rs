//! What `tofu test` would report of a `run` block with `command = plan`
//! whose assertions its values decide (issue 45, part 4): a condition
//! known and false is "Test assertion failed", the assertion's message as
//! detail, on the condition (`tofu test -json` 1.12.6) — here a warning
//! of `test-would-fail`, never a validate error.
//!
//! A run starts from the values `tofu test` gives the module: the
//! directory's automatic values files, else each variable's default; the
//! test file's `variables` block, then the run's, replace them (constants
//! only: a run whose values are expressions, such as `run.NAME.OUTPUT`, is
//! not judged). Nothing is said of a run plan would stop before its
//! assertions on what tofu-lens can see: a variable without a value, a
//! value that does not convert to its type, or a variable's validation
//! rule that fails or does not evaluate with these values. An assertion
//! reads variables, local values and output values (`output.NAME`); what
//! is unknown before apply (resources, `run.*`) leaves it undecided. Runs
//! that test another module (`module`), expect failures, or set plan
//! options are not judged, nor JSON test files; and since a run that
//! fails with an error makes `tofu test` skip the file's later runs, the
//! runs are judged in order up to the first that is not. Not modelled: values
//! files in the test directory, and a plan that fails for another reason
//! (a precondition) before the assertions are evaluated.

use std::collections::BTreeMap;
use std::rc::Rc;

use tofu_eval::convert::convert;
use tofu_eval::{Type, Value};
use tofu_syntax::{Block, Diagnostic};

use super::in_test_file::TestFileScope;
use crate::rules::plan_values::{as_declared, automatic_values};
use crate::rules::views::ModuleView;
use crate::rules::walk_values::WalkValues;
use tofu_module::address::BlockAddress;
use tofu_module::types::constant_value;

/// The warnings of one test file's plan runs.
pub(super) fn file(view: &ModuleView<'_>, scope: &TestFileScope<'_>, out: &mut Vec<Diagnostic>) {
    if scope.json() {
        return;
    }
    let Some(source) = &scope.file.source else {
        return;
    };
    let runs: Vec<&Block> = source.body.blocks_of_kind("run").collect();
    if !runs.first().is_some_and(|run| judged(scope, run)) || view.declarations().incomplete {
        return;
    }
    let Some(file_level) = constants(scope, source.body.blocks_of_kind("variables")) else {
        return;
    };
    let automatic = automatic_values(view);
    // A run that fails with an error skips every later run of the file
    // (a failed assertion does not): the runs are judged up to the first
    // one that may fail otherwise, or that is not judged.
    for run in runs {
        if !judged(scope, run) {
            break;
        }
        let Some(run_level) = constants(scope, run.body.blocks_of_kind("variables")) else {
            break;
        };
        let Some(known) = run_values(view, &automatic, &file_level, &run_level) else {
            break;
        };
        let known = Rc::new(known);
        if !validations_hold(view, &known) {
            break;
        }
        let walk = WalkValues::with_known_variables(view, Rc::clone(&known)).reading_outputs();
        for assert in run.body.blocks_of_kind("assert") {
            if let Some(diagnostic) = failed_assertion(scope, &walk, assert) {
                out.push(diagnostic);
            }
        }
    }
}

/// A run of the module under test with `command = plan`, without
/// expected failures or plan options.
fn judged(scope: &TestFileScope<'_>, run: &Block) -> bool {
    let plan = run
        .body
        .attribute("command")
        .and_then(|command| scope.keyword(&command.expr))
        .is_some_and(|keyword| keyword == "plan");
    plan && run.labels.len() == 1
        && run.body.attribute("expect_failures").is_none()
        && ["module", "plan_options"]
            .iter()
            .all(|kind| run.body.blocks_of_kind(kind).next().is_none())
}

/// The constants `blocks` (`variables` blocks) give, by name; `None` when
/// one is not a constant.
fn constants<'b>(
    scope: &TestFileScope<'_>,
    blocks: impl Iterator<Item = &'b Block>,
) -> Option<BTreeMap<String, Value>> {
    let mut found = BTreeMap::new();
    for block in blocks {
        for attribute in &block.body.attributes {
            let value = constant_value(&attribute.expr, scope.text()).ok()?;
            found.insert(attribute.name.clone(), value);
        }
    }
    Some(found)
}

/// Every declared variable's value for the run, as its variable holds it;
/// `None` when one has none or does not convert.
fn run_values(
    view: &ModuleView<'_>,
    automatic: &BTreeMap<String, Option<Value>>,
    file_level: &BTreeMap<String, Value>,
    run_level: &BTreeMap<String, Value>,
) -> Option<BTreeMap<String, Value>> {
    let mut known = BTreeMap::new();
    for (name, value) in automatic {
        let given = run_level.get(name).or_else(|| file_level.get(name));
        let value = match given {
            Some(given) => {
                let variable = view.effective(&BlockAddress::Variable(name.clone()))?;
                as_declared(view, variable, given)?
            }
            None => value.clone()?,
        };
        known.insert(name.clone(), value);
    }
    Some(known)
}

/// Whether every validation rule of every variable holds (or is unknown)
/// with `known`: plan stops at one that fails or does not evaluate.
fn validations_hold(view: &ModuleView<'_>, known: &Rc<BTreeMap<String, Value>>) -> bool {
    let walk = WalkValues::with_known_variables(view, Rc::clone(known));
    view.effective_blocks(|address| matches!(address, BlockAddress::Variable(_)))
        .into_iter()
        .flat_map(|variable| variable.body.blocks.iter())
        .filter(|block| block.kind == "validation")
        .filter_map(|rule| rule.body.attribute("condition"))
        .all(|condition| {
            let Some(expr) = walk.expression(condition) else {
                return false;
            };
            let evaluation = walk.evaluate_in(condition.origin.file, &expr);
            evaluation.diagnostics.is_empty()
                && !walk.followed_a_failure()
                && known_bool(&evaluation.value) != Some(false)
        })
}

/// A condition's result when it is a known bool.
fn known_bool(value: &Value) -> Option<bool> {
    let (value, _) = value.clone().unmark();
    if !value.is_known() || value.is_null() {
        return None;
    }
    convert(&value, &Type::Bool).ok()?.as_bool()
}

/// "Test assertion failed" for `assert` when its condition is known and
/// false and its message shows (a message that fails, is unknown or shows
/// a sensitive value is `tofu test`'s other error: not judged).
fn failed_assertion(
    scope: &TestFileScope<'_>,
    walk: &WalkValues<'_, '_>,
    assert: &Block,
) -> Option<Diagnostic> {
    let condition = assert.body.attribute("condition")?;
    let result = walk.evaluate_in(scope.id, &condition.expr);
    if !result.diagnostics.is_empty() || walk.followed_a_failure() {
        return None;
    }
    if known_bool(&result.value)? {
        return None;
    }
    let message = assert.body.attribute("error_message")?;
    let message = walk.evaluate_in(scope.id, &message.expr);
    if !message.diagnostics.is_empty() || walk.followed_a_failure() {
        return None;
    }
    let message = convert(&message.value, &Type::String).ok()?;
    if !message.is_known() || message.is_null() || message.is_marked() {
        return None;
    }
    let detail = message.as_str()?.trim().to_owned();
    Some(
        Diagnostic::new(
            crate::codes::TEST_WOULD_FAIL,
            "Test assertion failed",
            scope.at(condition.expr.range),
        )
        .with_detail(detail),
    )
}

//! What `tofu validate` never reads in a test file but `tofu test` fails
//! on, as warnings with `tofu test`'s wording (OpenTofu 1.12.6): the
//! condition of a run's `assert` referring to an input variable, local
//! value, output value or resource the module does not declare, or to
//! `run` (not available to assertions in 1.12; a run's `variables` may read
//! `run.NAME.OUTPUT`).
//!
//! An input variable the test file sets (in its `variables` block or the
//! run's) is available to the assertions although the module does not
//! declare it, and setting one the module does not declare is no failure
//! (`tofu test` passes). Runs with a `module` block test another module,
//! whose declarations are not read here; nothing is said about them. When
//! a primary file could not be parsed whole, nothing is said at all.

use tofu_syntax::{Block, Diagnostic, Location, Severity};

use super::in_test_file::TestFileScope;
use crate::rules::validate::{undeclared_local, undeclared_variable};
use crate::rules::views::ModuleView;
use tofu_module::address::BlockAddress;
use tofu_module::expr::parse_ref::{parse_ref, Referenceable, StepRef};
use tofu_module::expr::suggest::did_you_mean;
use tofu_module::expr::traversal::Part;
use tofu_module::expr::walk::references;
use tofu_syntax::go_text::go_quote;

/// The warnings of one test file.
pub(super) fn file(view: &ModuleView<'_>, scope: &TestFileScope<'_>, out: &mut Vec<Diagnostic>) {
    let Some(source) = &scope.file.source else {
        return;
    };
    if view.declarations().incomplete {
        return;
    }
    let file_variables: Vec<&str> = source
        .body
        .blocks_of_kind("variables")
        .flat_map(|block| block.body.attributes.iter().map(|attr| attr.name.as_str()))
        .collect();
    for run in source.body.blocks_of_kind("run") {
        if run.labels.len() != 1 || run.body.blocks_of_kind("module").next().is_some() {
            continue;
        }
        let mut set_by_test: Vec<&str> = file_variables.clone();
        set_by_test.extend(
            run.body
                .blocks_of_kind("variables")
                .flat_map(|block| block.body.attributes.iter().map(|attr| attr.name.as_str())),
        );
        for assert in run.body.blocks_of_kind("assert") {
            assertion(view, scope, assert, &set_by_test, out);
        }
    }
}

fn assertion(
    view: &ModuleView<'_>,
    scope: &TestFileScope<'_>,
    assert: &Block,
    set_by_test: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    let Some(condition) = assert.body.attribute("condition") else {
        return;
    };
    let declarations = view.declarations();
    for found in references(scope.text(), &condition.expr, scope.json()).references {
        if !found.exact {
            continue;
        }
        let Some(root) = found.steps.first() else {
            continue;
        };
        let warning = match &root.part {
            Part::Name(name) if name == "run" => Some(
                Diagnostic::new(
                    crate::codes::TEST_WOULD_FAIL,
                    "Unknown variable",
                    scope.at(root.range),
                )
                .with_detail("There is no variable named \"run\"."),
            ),
            Part::Name(name) if name == "output" => {
                let Some(step) = found.steps.get(1) else {
                    continue;
                };
                let Part::Name(output) = &step.part else {
                    continue;
                };
                if declarations
                    .get(&BlockAddress::Output(output.clone()))
                    .is_some()
                {
                    continue;
                }
                let outputs =
                    declarations
                        .blocks
                        .iter()
                        .filter_map(|identity| match &identity.address {
                            BlockAddress::Output(name) => Some(name.as_str()),
                            _ => None,
                        });
                let mut detail = format!(
                    "An output value with the name {} has not been declared.",
                    go_quote(output)
                );
                if let Some(suggestion) = did_you_mean(output, outputs) {
                    detail.push_str(&format!(" Did you mean {}?", go_quote(suggestion)));
                }
                Some(
                    Diagnostic::new(
                        crate::codes::TEST_WOULD_FAIL,
                        "Reference to undeclared output value",
                        scope.at(root.range.cover(step.range)),
                    )
                    .with_detail(detail),
                )
            }
            _ => {
                let steps: Vec<StepRef<'_>> = found.steps.iter().map(StepRef::from).collect();
                let Ok(reference) = parse_ref(&steps) else {
                    continue;
                };
                undeclared(
                    view,
                    scope.at(reference.range),
                    &reference.subject,
                    set_by_test,
                )
            }
        };
        if let Some(mut warning) = warning {
            warning.severity = Severity::Warning;
            warning.code = crate::codes::TEST_WOULD_FAIL;
            out.push(warning);
        }
    }
}

/// The error `tofu test` reports for a reference to something the module
/// does not declare, if it is one.
fn undeclared(
    view: &ModuleView<'_>,
    at: Location,
    subject: &Referenceable,
    set_by_test: &[&str],
) -> Option<Diagnostic> {
    let declarations = view.declarations();
    match subject {
        Referenceable::Variable(name) => {
            if set_by_test.contains(&name.as_str())
                || declarations
                    .get(&BlockAddress::Variable(name.clone()))
                    .is_some()
            {
                return None;
            }
            let variables =
                declarations
                    .blocks
                    .iter()
                    .filter_map(|identity| match &identity.address {
                        BlockAddress::Variable(name) => Some(name.as_str()),
                        _ => None,
                    });
            Some(undeclared_variable(at, name, did_you_mean(name, variables)))
        }
        Referenceable::Local(name) => {
            if declarations.local(name).is_some() {
                return None;
            }
            let locals = declarations.locals.iter().map(|local| local.name.as_str());
            Some(undeclared_local(at, name, did_you_mean(name, locals)))
        }
        Referenceable::Resource {
            mode,
            type_name,
            name,
            ..
        } => {
            let address = BlockAddress::Resource {
                mode: *mode,
                type_name: type_name.clone(),
                name: name.clone(),
            };
            if declarations.get(&address).is_some() {
                return None;
            }
            let adjective = match mode {
                tofu_module::ResourceMode::Managed => "managed",
                tofu_module::ResourceMode::Data => "data",
                tofu_module::ResourceMode::Ephemeral => "ephemeral",
            };
            Some(
                Diagnostic::new(
                    crate::codes::TEST_WOULD_FAIL,
                    "Reference to undeclared resource",
                    at,
                )
                .with_detail(format!(
                    "There is no {adjective} resource {} {} definition in the root module.",
                    go_quote(type_name),
                    go_quote(name)
                )),
            )
        }
        _ => None,
    }
}

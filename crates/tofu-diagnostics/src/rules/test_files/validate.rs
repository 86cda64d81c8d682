//! What `tofu validate` checks in test files after its walk of the module
//! (OpenTofu's `TestFile.Validate` and `TestRun.Validate`): each
//! `expect_failures` element must name a checkable object, and no two
//! `override_resource`/`override_data` blocks, nor two `override_module`
//! blocks, of a file or of a run may have the same target.
//!
//! OpenTofu runs these only when loading the module and its tests reported
//! no error, so every block here decoded; what did not decode is skipped.

use tofu_syntax::{Block, Body, Diagnostic, TextRange};

use super::addresses::{
    config_resource, list_element_traversal, module, static_traversal, testing_reference,
    TestingReference,
};
use super::in_test_file::TestFileScope;

/// The checks of one test file.
pub(super) fn file(scope: &TestFileScope<'_>, out: &mut Vec<Diagnostic>) {
    let Some(source) = &scope.file.source else {
        return;
    };
    duplicated_overrides(scope, &source.body, out);
    for run in source.body.blocks_of_kind("run") {
        if run.labels.len() != 1 {
            continue;
        }
        expect_failures(scope, run, out);
        duplicated_overrides(scope, &run.body, out);
    }
}

/// `TestRun.Validate`: the kind of each reference of `expect_failures`.
fn expect_failures(scope: &TestFileScope<'_>, run: &Block, out: &mut Vec<Diagnostic>) {
    let Some(attr) = run.body.attribute("expect_failures") else {
        return;
    };
    let Some(elements) = attr.expr.as_array() else {
        return;
    };
    for element in elements {
        let Some(steps) = list_element_traversal(scope, element) else {
            continue;
        };
        match testing_reference(&steps) {
            Ok(TestingReference::Checkable) => {}
            Ok(TestingReference::Other { subject, range }) => out.push(
                Diagnostic::new(
                    crate::codes::INVALID_TEST_ADDRESS,
                    "Invalid `expect_failures` reference",
                    scope.at(range),
                )
                .with_detail(format!(
                    "You cannot expect failures from {subject}. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources."
                )),
            ),
            Err(error) => out.push(
                Diagnostic::new(crate::codes::INVALID_TEST_ADDRESS, error.summary, scope.at(error.range))
                    .with_detail(error.detail),
            ),
        }
    }
}

/// `checkForDuplicatedOverrideResources` and `…Modules` over the override
/// blocks directly in `body` (a file's or a run's).
fn duplicated_overrides(scope: &TestFileScope<'_>, body: &Body, out: &mut Vec<Diagnostic>) {
    let mut resources: Vec<String> = Vec::new();
    let mut modules: Vec<String> = Vec::new();
    for block in &body.blocks {
        let (seen, parse): (&mut Vec<String>, fn(&[_]) -> _) = match block.kind.as_str() {
            "override_resource" | "override_data" => (&mut resources, config_resource),
            "override_module" => (&mut modules, module),
            _ => continue,
        };
        if !block.labels.is_empty() {
            continue;
        }
        let Some(target) = block.body.attribute("target") else {
            continue;
        };
        let Ok(steps) = static_traversal(scope, &target.expr) else {
            continue;
        };
        let Ok(address) = parse(&steps) else {
            continue;
        };
        if !seen.contains(&address) {
            seen.push(address);
            continue;
        }
        let range = match (steps.first(), steps.last()) {
            (Some(first), Some(last)) => first.range.cover(last.range),
            _ => TextRange::default(),
        };
        out.push(
            Diagnostic::new(
                crate::codes::DUPLICATE_TEST_BLOCK,
                format!("Duplicated `{}` block", block.kind),
                scope.at(range),
            )
            .with_detail(format!(
                "It is not allowed to have multiple `{}` blocks with the same target: `{address}`.",
                block.kind
            )),
        );
    }
}

//! One test file, decoded as OpenTofu's `loadTestFile` decodes it while
//! `tofu validate` loads the module: the file's schema, then each block
//! (`run`, `variables`, `provider`, the overrides, `mock_provider`), one
//! `variables` block per file, and each mock provider address once.
//!
//! A `provider` block is decoded as in a configuration file (OpenTofu's
//! `decodeProviderBlock`), and so is a run's `providers` argument (as a
//! module call's): both are handed to the configuration rules on a file of
//! their own that holds only them.

use std::sync::Arc;

use tofu_syntax::{Block, Body, Diagnostic, Label, SourceFile, TextRange};

use super::in_test_file::TestFileScope;
use super::mocks::{mock_provider, override_module, override_resource};
use super::run;
use crate::rules::bodies::check_labels;
use tofu_module::loaded::{FileRole, FileView, ModuleFile};
use tofu_module::test_schema::{test_file_block, TEST_FILE};

/// The schema of the file's top level, for the checks of its body.
const TOP_LEVEL: tofu_module::schema::BlockSchema = tofu_module::schema::BlockSchema {
    kind: "",
    labels: &[],
    arguments: &[],
    required: &[],
    blocks: TEST_FILE,
    rest: tofu_module::schema::Rest::Nothing,
};

/// Every diagnostic of decoding one test file.
pub(super) fn file(scope: &TestFileScope<'_>, out: &mut Vec<Diagnostic>) {
    let Some(source) = &scope.file.source else {
        return;
    };
    scope.unsupported(&source.body, &TOP_LEVEL, out);
    let mut variables: Option<TextRange> = None;
    let mut mock_providers: Vec<String> = Vec::new();
    let mut providers: Vec<&Block> = Vec::new();
    let mut run_providers: Vec<&Block> = Vec::new();
    for block in &source.body.blocks {
        let Some(schema) = test_file_block(&block.kind) else {
            continue;
        };
        if block.kind == "provider" {
            // Labels and all: a configuration file's provider block.
            providers.push(block);
            continue;
        }
        if let Some(diagnostic) = check_labels(scope.id, scope.json(), block, schema.labels) {
            out.push(diagnostic);
            continue;
        }
        match block.kind.as_str() {
            "run" => {
                run::decode(scope, block, out);
                if block.body.attribute("providers").is_some() {
                    run_providers.push(block);
                }
            }
            "variables" => {
                if let Some(first) = variables {
                    out.push(
                        Diagnostic::new(
                            crate::codes::DUPLICATE_TEST_BLOCK,
                            "Multiple \"variables\" blocks",
                            scope.at(block.header),
                        )
                        .with_detail(format!(
                            "This test file already has a variables block defined at {}.",
                            scope.describe(first)
                        ))
                        .with_related(scope.at(first), "the first variables block"),
                    );
                    continue;
                }
                variables = Some(block.header);
                scope.just_attributes(block, out);
            }
            "override_resource" | "override_data" => {
                override_resource(scope, block, out);
            }
            "override_module" => {
                override_module(scope, block, out);
            }
            "mock_provider" => {
                let Some(address) = mock_provider(scope, block, out) else {
                    continue;
                };
                if mock_providers.contains(&address) {
                    out.push(
                        Diagnostic::new(
                            crate::codes::DUPLICATE_TEST_BLOCK,
                            "Duplicated `mock_provider` block",
                            scope.at(block.header),
                        )
                        .with_detail(format!(
                            "It is not allowed to have multiple `mock_provider` blocks with the same address: `{address}`."
                        )),
                    );
                } else {
                    mock_providers.push(address);
                }
            }
            _ => {}
        }
    }
    as_in_configuration(scope, source, &providers, &run_providers, out);
    for provider in providers {
        if let Some(version) = provider.body.attribute("version") {
            provider_version(scope, version, out);
        }
    }
}

/// The provider blocks and the runs' `providers` arguments, judged by the
/// configuration rules (`bodies`, `providers`) on a file holding only them:
/// each provider block as written, each `providers` argument in a module
/// call of its own.
fn as_in_configuration(
    scope: &TestFileScope<'_>,
    source: &SourceFile,
    providers: &[&Block],
    runs: &[&Block],
    out: &mut Vec<Diagnostic>,
) {
    if providers.is_empty() && runs.is_empty() {
        return;
    }
    let calls = runs.iter().filter_map(|run| {
        let attr = run.body.attribute("providers")?;
        let name = Label {
            value: "run".to_owned(),
            range: attr.name_range,
        };
        Some(Block {
            kind: "module".to_owned(),
            kind_range: attr.name_range,
            labels: vec![name],
            header: attr.name_range,
            range: attr.range,
            body: Body {
                attributes: vec![attr.clone()],
                blocks: Vec::new(),
                open: None,
                close: None,
            },
        })
    });
    let provider_blocks = providers.iter().map(|&block| block.clone());
    let only_these = SourceFile {
        syntax: source.syntax,
        body: Body {
            attributes: Vec::new(),
            blocks: provider_blocks.chain(calls).collect(),
            open: None,
            close: None,
        },
        errors: Vec::new(),
        unrecovered: Vec::new(),
    };
    let file = ModuleFile {
        role: FileRole::Primary,
        source: Some(Arc::new(only_these)),
        ..scope.file.clone()
    };
    let view = FileView {
        id: scope.id,
        file: &file,
    };
    crate::rules::bodies::check(view, out);
    crate::rules::providers::check(view, out);
}

/// `version` in a test file's `provider` block: deprecated, and decoded
/// as a version constraint (in configuration files the `versions` rule
/// reports both).
fn provider_version(
    scope: &TestFileScope<'_>,
    version: &tofu_syntax::Attribute,
    out: &mut Vec<Diagnostic>,
) {
    out.push(
        Diagnostic::new(
            crate::codes::PROVIDER_VERSION_DEPRECATED,
            "Version constraints inside provider configuration blocks are deprecated",
            scope.at(version.expr.range),
        )
        .with_detail("OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block."),
    );
    scope.version_constraint(version, out);
}

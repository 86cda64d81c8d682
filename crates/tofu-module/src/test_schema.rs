//! OpenTofu's schemas of test files (`*.tftest.hcl`, `*.tofutest.hcl`,
//! OpenTofu's `test_file.go`), as one table in the shape of
//! [`crate::schema`]'s: the top-level block types of a test file, and for
//! each block the arguments and nested blocks OpenTofu defines there. The
//! checker (`rules::test_files`), completion and hover read it.
//!
//! Deliberately absent: what providers define. A `provider` block's body is
//! the provider's ([`Rest::DefinedBy`]), as in configuration files; the
//! values of `variables` blocks are entries, one per input variable
//! ([`Rest::Entries`]). The order of [`TEST_FILE`] is OpenTofu's
//! (`testFileSchema`), which "Did you mean" suggestions follow.

use crate::schema::{closed, BlockSchema, Rest, ASSERT, PROVIDER};

const NO_LABELS: &[&str] = &[];
const NAME: &[&str] = &["name"];
const TYPE: &[&str] = &["type"];

/// `variables`: one entry per input variable, at the top level of a file or
/// in a `run` block.
pub const VARIABLES: BlockSchema = BlockSchema {
    kind: "variables",
    labels: NO_LABELS,
    arguments: &[],
    required: &[],
    blocks: &[],
    rest: Rest::Entries,
};
pub const OVERRIDE_RESOURCE: BlockSchema =
    closed("override_resource", &["target", "values"], &["target"], &[]);
pub const OVERRIDE_DATA: BlockSchema =
    closed("override_data", &["target", "values"], &["target"], &[]);
pub const OVERRIDE_MODULE: BlockSchema =
    closed("override_module", &["target", "outputs"], &["target"], &[]);
pub const PLAN_OPTIONS: BlockSchema = closed(
    "plan_options",
    &["mode", "refresh", "replace", "target"],
    &[],
    &[],
);
/// The `module` block of a `run`: the module to run instead of the one
/// under test.
pub const RUN_MODULE: BlockSchema = closed("module", &["source", "version"], &[], &[]);
pub const MOCK_RESOURCE: BlockSchema = BlockSchema {
    kind: "mock_resource",
    labels: TYPE,
    arguments: &["defaults"],
    required: &[],
    blocks: &[],
    rest: Rest::Nothing,
};
pub const MOCK_DATA: BlockSchema = BlockSchema {
    kind: "mock_data",
    ..MOCK_RESOURCE
};
pub const MOCK_PROVIDER: BlockSchema = BlockSchema {
    kind: "mock_provider",
    labels: NAME,
    arguments: &["alias", "for_each"],
    required: &[],
    blocks: &[
        &MOCK_RESOURCE,
        &MOCK_DATA,
        &OVERRIDE_RESOURCE,
        &OVERRIDE_DATA,
    ],
    rest: Rest::Nothing,
};
pub const RUN: BlockSchema = BlockSchema {
    kind: "run",
    labels: NAME,
    arguments: &["command", "providers", "expect_failures"],
    required: &[],
    blocks: &[
        &PLAN_OPTIONS,
        &ASSERT,
        &VARIABLES,
        &RUN_MODULE,
        &OVERRIDE_RESOURCE,
        &OVERRIDE_DATA,
        &OVERRIDE_MODULE,
    ],
    rest: Rest::Nothing,
};

/// Every top-level block type of a test file, in OpenTofu's order.
pub const TEST_FILE: &[&BlockSchema] = &[
    &RUN,
    &PROVIDER,
    &VARIABLES,
    &OVERRIDE_RESOURCE,
    &OVERRIDE_DATA,
    &OVERRIDE_MODULE,
    &MOCK_PROVIDER,
];

/// The schema of a top-level block type of a test file.
pub fn test_file_block(kind: &str) -> Option<&'static BlockSchema> {
    TEST_FILE.iter().copied().find(|schema| schema.kind == kind)
}

/// The keywords of `run`'s `command` argument.
pub const COMMAND_KEYWORDS: &[&str] = &["apply", "plan"];
/// The keywords of `plan_options`' `mode` argument.
pub const MODE_KEYWORDS: &[&str] = &["normal", "refresh-only"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_block_type_is_found_by_its_name() {
        for schema in TEST_FILE {
            assert_eq!(
                test_file_block(schema.kind).map(|found| found.kind),
                Some(schema.kind)
            );
        }
        assert!(test_file_block("resource").is_none());
        assert_eq!(
            RUN.nested("module").map(|m| m.arguments),
            Some(&["source", "version"][..])
        );
        assert_eq!(PROVIDER.rest, Rest::DefinedBy("the provider"));
    }
}

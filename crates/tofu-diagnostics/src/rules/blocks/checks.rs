//! `check` blocks in primary files (`invalid-check-block`): at least one valid
//! `assert`, at most one `data` block, and no `count`, `for_each` or
//! `lifecycle` in that `data` block.
//!
//! An `assert` or `data` block counts as valid when decoding it reported no
//! error (schema, `constant-condition`, provider references, the checks here).
//! A `data` block after the first valid one is not decoded at all, so nothing
//! else is checked in it. OpenTofu drops a `data` block with an error (not done
//! here: declarations are collected elsewhere).

use tofu_syntax::{Block, Diagnostic};

use super::file_checker::{nested_blocks, FileChecker};
use super::nested::{self, Container};

pub(super) fn check(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let mut kept_data: Option<&Block> = None;
    for data in nested_blocks(block, "data", 2) {
        if let Some(first) = kept_data {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_CHECK_BLOCK,
                    "Multiple data resource blocks",
                    checker.at(data.header),
                )
                .with_detail(format!(
                    "This check block already has a data resource defined at {}.",
                    checker.describe(first.header)
                ))
                .with_related(checker.at(first.header), "the data resource of this check"),
            );
            continue;
        }
        let n_before = out.len();
        nested_data(checker, data, out);
        if !checker.failed_since(out, n_before, data) {
            kept_data = Some(data);
        }
    }
    let has_valid_assert = nested_blocks(block, "assert", 0)
        .any(|assert| !checker.decode_failed(out, checker.decode_span(assert)));
    if !has_valid_assert {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_CHECK_BLOCK,
                "Zero assert blocks",
                checker.at(block.header),
            )
            .with_detail("Check blocks must have at least one assert block."),
        );
    }
}

/// The meta-arguments a `data` block nested in a `check` may not have.
fn nested_data(checker: &FileChecker<'_>, data: &Block, out: &mut Vec<Diagnostic>) {
    for name in ["count", "for_each"] {
        if let Some(attr) = data.body.attribute(name) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_CHECK_BLOCK,
                    format!("Invalid \"{name}\" attribute"),
                    checker.at(attr.name_range),
                )
                .with_detail(format!(
                    "The \"{name}\" meta-argument is not supported within nested data blocks."
                )),
            );
        }
    }
    for lifecycle in nested_blocks(data, "lifecycle", 0) {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_CHECK_BLOCK,
                "Invalid lifecycle block",
                checker.at(lifecycle.header),
            )
            .with_detail("Nested data blocks do not support \"lifecycle\" blocks as the lifecycle is managed by the containing block."),
        );
    }
    nested::meta_blocks(checker, data, Container::Data, out);
}

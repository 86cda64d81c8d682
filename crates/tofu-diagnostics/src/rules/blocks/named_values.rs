//! The arguments of `variable`, `output`, `provider` and `provider_meta`
//! blocks that OpenTofu evaluates while loading (`invalid-constant-argument`,
//! §4.15), and empty `deprecated` messages (`invalid-deprecated`).
//!
//! A variable's `default` is only evaluated here; whether it converts to the
//! variable's `type` is `invalid-variable-default`, checked elsewhere.

use tofu_syntax::{Block, Diagnostic, TextRange};

use super::constants::Decoded;
use super::file_checker::{within, FileChecker};

pub(super) fn variable(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let body = &block.body;
    if let Some(attr) = body.attribute("description") {
        checker.decode_string(&attr.expr, out);
    }
    if let Some(attr) = body.attribute("deprecated") {
        let decoded = checker.decode_string(&attr.expr, out);
        if let (Decoded::Value(message), Some(label)) = (decoded, block.labels.first()) {
            if message.trim().is_empty() {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_DEPRECATED,
                        "Invalid `deprecated` value",
                        checker.at(label.range),
                    )
                    .with_detail("The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable."),
                );
            }
        }
    }
    for name in ["sensitive", "ephemeral", "nullable", "const"] {
        if let Some(attr) = body.attribute(name) {
            checker.decode_bool(&attr.expr, out);
        }
    }
    if let Some(attr) = body.attribute("default") {
        let mut errors = Vec::new();
        checker.evaluate(&attr.expr, &mut errors);
        out.extend(errors);
    }
}

pub(super) fn output(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let body = &block.body;
    if let Some(attr) = body.attribute("description") {
        checker.decode_string(&attr.expr, out);
    }
    if let Some(attr) = body.attribute("sensitive") {
        checker.decode_bool(&attr.expr, out);
    }
    if let Some(attr) = body.attribute("deprecated") {
        let decoded = checker.decode_string(&attr.expr, out);
        if let Decoded::Value(message) = decoded {
            if message.trim().is_empty() && !output_decoding_failed(checker, block, out) {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_DEPRECATED,
                        "Invalid `deprecated` attribute",
                        checker.at(attr.expr.range),
                    )
                    .with_detail("The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value."),
                );
            }
        }
    }
    if let Some(attr) = body.attribute("ephemeral") {
        checker.decode_bool(&attr.expr, out);
    }
}

/// OpenTofu checks an output's `deprecated` only when decoding the block
/// reported no error before it: the schema of the body (not of its nested
/// blocks, which are decoded later), the name, `description`, `sensitive` and
/// `deprecated` itself. `depends_on`, preconditions and a `postcondition` come
/// after it.
fn output_decoding_failed(checker: &FileChecker<'_>, block: &Block, out: &[Diagnostic]) -> bool {
    let postcondition_keywords: Vec<TextRange> = block
        .body
        .blocks
        .iter()
        .filter(|nested| nested.kind == "postcondition")
        .map(|nested| nested.kind_range)
        .collect();
    let nested_bodies: Vec<TextRange> = block
        .body
        .blocks
        .iter()
        .filter_map(|nested| Some(nested.body.open?.cover(nested.body.close?)))
        .collect();
    checker
        .errors_within(out, checker.decode_span(block))
        .any(|(code, range)| {
            let inside_nested_body = nested_bodies.iter().any(|body| within(range, *body));
            match code {
                crate::codes::INVALID_BLOCK_LABELS => true,
                // A postcondition is refused after the checks that matter here.
                crate::codes::UNSUPPORTED_BLOCK => !postcondition_keywords.contains(&range),
                crate::codes::UNSUPPORTED_ARGUMENT
                | crate::codes::MISSING_REQUIRED_ARGUMENT
                | crate::codes::DUPLICATE_ARGUMENT
                | crate::codes::INVALID_NAME
                | crate::codes::INVALID_CONSTANT_ARGUMENT => !inside_nested_body,
                _ => false,
            }
        })
}

pub(super) fn provider(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    if let Some(attr) = block.body.attribute("alias") {
        checker.decode_string(&attr.expr, out);
    }
}

/// Every argument of a `provider_meta` block is evaluated as a constant,
/// unless the body holds a block (then OpenTofu drops it before evaluating).
pub(super) fn provider_meta(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    if !block.body.blocks.is_empty() {
        return;
    }
    for attr in &block.body.attributes {
        let mut errors = Vec::new();
        checker.evaluate(&attr.expr, &mut errors);
        out.extend(errors);
    }
}

//! `import` blocks: the `to` address (`invalid-address`, §4.20) and the
//! arguments that identify what to import (`invalid-import`).
//!
//! When `to` has an error, OpenTofu stops decoding the block, and so do these
//! checks; in JSON it stops at any earlier error of the block too. Checked in
//! every loaded file, as OpenTofu decodes `import` blocks of override files
//! before it rejects them.

use tofu_syntax::{Block, Diagnostic};

use super::file_checker::FileChecker;

pub(super) fn check(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let body = &block.body;
    let mut in_module = false;
    if let Some(to) = body.attribute("to") {
        if checker.is_json() && checker.decode_failed(out, checker.decode_span(block)) {
            return;
        }
        let Some(target) = checker.import_target(to, out) else {
            return;
        };
        in_module = target.in_module;
    }
    if let Some(provider) = body.attribute("provider") {
        if in_module {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_IMPORT,
                    "Invalid import provider argument",
                    checker.at(provider.range),
                )
                .with_detail("The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources."),
            );
        }
    }
    match (body.attribute("id"), body.attribute("identity")) {
        (None, None) => out.push(
            Diagnostic::new(
                crate::codes::INVALID_IMPORT,
                "Missing required import argument",
                checker.at(block.header),
            )
            .with_detail("One of 'id' or 'identity' must be specified in an import block to identify the resource instance to import."),
        ),
        (Some(id), Some(identity)) => out.push(
            Diagnostic::new(
                crate::codes::INVALID_IMPORT,
                "Conflicting import arguments",
                checker.at(id.range.cover(identity.range)),
            )
            .with_detail("Only one of 'id' or 'identity' can be specified in an import block. 'id' identifies the resource instance by its ID, while 'identity' identifies the resource instance by its Resource Identity. Choose one method to identify the resource instance to import."),
        ),
        _ => {}
    }
}

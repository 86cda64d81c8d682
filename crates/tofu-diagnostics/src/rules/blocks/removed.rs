//! `removed` blocks: the `from` address (`invalid-address`, §4.20), its
//! `lifecycle` and provisioners (`duplicate-nested-block`,
//! `invalid-constant-argument`, `invalid-provisioner`), and the warnings of a
//! block without errors (`removed-block-lifecycle`).
//!
//! Checked in every loaded file, as OpenTofu decodes `removed` blocks of
//! override files before it rejects them; the lifecycle warnings, which are
//! for blocks without errors, only in primary files.

use tofu_syntax::{Block, Diagnostic};

use super::constants::Decoded;
use super::endpoints::Endpoint;
use super::file_checker::{nested_blocks, FileChecker};
use super::{nested, provisioners};

pub(super) fn check(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let n_before = out.len();
    let from = block
        .body
        .attribute("from")
        .and_then(|attr| checker.remove_endpoint(attr, out));
    let destroy = nested::removed_lifecycle(checker, block, out)
        .and_then(|lifecycle| lifecycle.body.attribute("destroy"))
        .map(|attr| checker.decode_bool(&attr.expr, out));
    let mut n_destroy_provisioners = 0;
    for provisioner in nested_blocks(block, "provisioner", 1) {
        let Some(provisioner) = provisioners::decode(checker, provisioner, out) else {
            continue;
        };
        if !provisioner.runs_at_destroy {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVISIONER,
                    "Invalid \"removed.provisioner\" block",
                    checker.at(provisioner.block.header),
                )
                .with_detail("\"removed\" blocks can only contain destroy provisioners. \"removed.provisioner.when = destroy\" expected"),
            );
            continue;
        }
        match from {
            None => {}
            Some(Endpoint::Module) => out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVISIONER,
                    "Invalid \"removed\" block",
                    checker.at(block.header),
                )
                .with_detail("\"removed\" blocks containing \"provisioner\"s can only target resources. Found one block that is targeting a module")
                .with_related(checker.at(provisioner.block.header), "the provisioner"),
            ),
            Some(Endpoint::Resource(_)) => n_destroy_provisioners += 1,
        }
    }
    // A `removed` block of an override file always has an error,
    // `override-forbidden-block` (reported when merging): no warning.
    if checker.failed_since(out, n_before, block) || !checker.is_primary() {
        return;
    }
    match destroy {
        None => out.push(
            Diagnostic::new(
                crate::codes::REMOVED_BLOCK_LIFECYCLE,
                "Missing lifecycle from the removed block",
                checker.at(block.header),
            )
            .with_detail("It is recommended for each 'removed' block configured to have also the 'lifecycle' block defined. By not specifying if the resource should be destroyed or not, could lead to unwanted behavior."),
        ),
        Some(Decoded::Value(false)) if n_destroy_provisioners > 0 => out.push(
            Diagnostic::new(
                crate::codes::REMOVED_BLOCK_LIFECYCLE,
                "Removed block provisioners will not be executed",
                checker.at(block.header),
            )
            .with_detail("The 'removed' block has marked the resource to be forgotten and not destroyed. Therefore, the provisioners configured for it will not be executed."),
        ),
        Some(_) => {}
    }
}

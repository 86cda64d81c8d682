//! `moved` blocks: their addresses (`invalid-address`, §4.20), then whether
//! the block may move what it names.
//!
//! Checked in every loaded file, as OpenTofu decodes `moved` blocks of
//! override files before it rejects them.

use tofu_syntax::{Block, Diagnostic};

use super::endpoints::Endpoint;
use super::file_checker::FileChecker;
use tofu_module::address::ResourceMode;

pub(super) fn check(checker: &FileChecker<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let n_before = out.len();
    let mut endpoints = Vec::new();
    for name in ["from", "to"] {
        let endpoint = block
            .body
            .attribute(name)
            .and_then(|attr| checker.move_endpoint(attr, out));
        endpoints.push(endpoint);
    }
    for (name, endpoint) in ["from", "to"].into_iter().zip(&endpoints) {
        // A missing or broken address is not allowed either.
        if matches!(
            endpoint,
            None | Some(Endpoint::Resource(ResourceMode::Ephemeral))
        ) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_ADDRESS,
                    "Invalid \"moved\" address",
                    checker.at(block.header),
                )
                .with_detail(format!(
                    "The resource referenced by the \"{name}\" attribute is not allowed to be moved."
                )),
            );
        }
    }
    if let [Some(from), Some(to)] = endpoints.as_slice() {
        let both_modules = *from == Endpoint::Module && *to == Endpoint::Module;
        let both_resources = *from != Endpoint::Module && *to != Endpoint::Module;
        if !both_modules && !both_resources && !checker.failed_since(out, n_before, block) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_ADDRESS,
                    "Invalid \"moved\" addresses",
                    checker.at(block.header),
                )
                .with_detail("The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules."),
            );
        }
    }
}

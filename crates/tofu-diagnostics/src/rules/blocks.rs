//! Per-block load-time checks (`diagnostics.md` §2.7, §4.15, §4.20):
//! `invalid-constant-argument`, `invalid-deprecated`, `duplicate-nested-block`,
//! `invalid-provisioner`, `invalid-check-block`, `invalid-address`,
//! `invalid-import`, `removed-block-lifecycle`, `invalid-encryption`.
//!
//! OpenTofu makes these checks while it decodes each block of each file, so
//! they run on every block as written, in primary and override files alike,
//! never on the merged result. `check` blocks are read in primary files only
//! (in override files they get `override-forbidden-block` and nothing inside is
//! read); `moved`, `removed` and `import` blocks are decoded in override files
//! too, as OpenTofu does before it rejects them.
//!
//! Several rules depend on whether OpenTofu's decoding of a block failed (an
//! `assert` with an error does not count, a `removed` block with an error gets
//! no lifecycle warning, an `encryption` block with a decoding error is not
//! checked further). They learn it from [`DecodeFailures`], the errors of the
//! decoding rules (schema, providers, references) handed in as data, plus
//! their own. What OpenTofu then drops (removed vendor provisioners, an invalid
//! `encryption` block, a `check`'s broken `data` block) is not dropped here:
//! declarations are collected elsewhere.

mod addresses;
mod checks;
mod constants;
mod encryption;
mod endpoints;
mod file_checker;
mod import;
mod moved;
mod named_values;
mod nested;
mod provisioners;
mod removed;

use tofu_syntax::{Block, Diagnostic};

use crate::rules::decode_failures::DecodeFailures;
use file_checker::{nested_blocks, FileChecker};
use tofu_module::loaded::FileView;
use tofu_module::schema::has_valid_labels;

pub(crate) fn check(view: FileView<'_>, failures: &DecodeFailures, out: &mut Vec<Diagnostic>) {
    let file = view.file;
    if !file.role.is_loaded() {
        return;
    }
    let Some(source) = &file.source else { return };
    let checker = FileChecker {
        file,
        file_id: view.id,
        failures,
    };
    for block in source.body.blocks.iter().filter(|b| has_valid_labels(b)) {
        top_level_block(&checker, block, out);
    }
}

fn top_level_block<'a>(checker: &FileChecker<'a>, block: &'a Block, out: &mut Vec<Diagnostic>) {
    match block.kind.as_str() {
        "variable" => named_values::variable(checker, block, out),
        "output" => named_values::output(checker, block, out),
        "provider" => {
            named_values::provider(checker, block, out);
            nested::escaping_block(checker, block, nested::Container::Provider, out);
        }
        "terraform" => {
            for provider_meta in nested_blocks(block, "provider_meta", 1) {
                named_values::provider_meta(checker, provider_meta, out);
            }
            for encryption in nested_blocks(block, "encryption", 0) {
                encryption::check(checker, encryption, out);
            }
        }
        "resource" => resource(checker, block, out),
        "data" => {
            nested::meta_blocks(checker, block, nested::Container::Data, out);
        }
        "ephemeral" => {
            nested::meta_blocks(checker, block, nested::Container::Ephemeral, out);
        }
        "module" => {
            nested::meta_blocks(checker, block, nested::Container::Module, out);
        }
        "check" if checker.is_primary() => checks::check(checker, block, out),
        "moved" => moved::check(checker, block, out),
        "removed" => removed::check(checker, block, out),
        "import" => import::check(checker, block, out),
        _ => {}
    }
}

/// A `resource` block: its meta-blocks, `create_before_destroy`, and its
/// provisioners.
fn resource<'a>(checker: &FileChecker<'a>, block: &'a Block, out: &mut Vec<Diagnostic>) {
    let lifecycle = nested::meta_blocks(checker, block, nested::Container::Resource, out);
    if let Some(attr) = lifecycle.and_then(|l| l.body.attribute("create_before_destroy")) {
        checker.decode_bool(&attr.expr, out);
    }
    for provisioner in nested_blocks(block, "provisioner", 1) {
        provisioners::decode(checker, provisioner, out);
    }
}

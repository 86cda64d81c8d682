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
mod import;
mod moved;
mod named_values;
mod nested;
mod provisioners;
mod removed;

use tofu_syntax::{Block, Code, Diagnostic, FileId, Location, TextRange};

use crate::loaded::{FileRole, FileView, ModuleFile};
use crate::rules::DecodeFailures;
use crate::schema::has_valid_labels;

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
        checker.top_level_block(block, out);
    }
}

/// One loaded file of the module, with what every rule needs to report on it.
pub(super) struct FileChecker<'a> {
    file: &'a ModuleFile,
    file_id: FileId,
    /// Where the decoding rules (and the parser) found errors.
    failures: &'a DecodeFailures,
}

impl<'a> FileChecker<'a> {
    fn top_level_block(&self, block: &'a Block, out: &mut Vec<Diagnostic>) {
        match block.kind.as_str() {
            "variable" => named_values::variable(self, block, out),
            "output" => named_values::output(self, block, out),
            "provider" => {
                named_values::provider(self, block, out);
                nested::escaping_block(self, block, nested::Container::Provider, out);
            }
            "terraform" => {
                for provider_meta in nested_blocks(block, "provider_meta", 1) {
                    named_values::provider_meta(self, provider_meta, out);
                }
                for encryption in nested_blocks(block, "encryption", 0) {
                    encryption::check(self, encryption, out);
                }
            }
            "resource" => self.resource(block, out),
            "data" => {
                nested::meta_blocks(self, block, nested::Container::Data, out);
            }
            "ephemeral" => {
                nested::meta_blocks(self, block, nested::Container::Ephemeral, out);
            }
            "module" => {
                nested::meta_blocks(self, block, nested::Container::Module, out);
            }
            "check" if self.is_primary() => checks::check(self, block, out),
            "moved" => moved::check(self, block, out),
            "removed" => removed::check(self, block, out),
            "import" => import::check(self, block, out),
            _ => {}
        }
    }

    /// A `resource` block: its meta-blocks, `create_before_destroy`, and its
    /// provisioners.
    fn resource(&self, block: &'a Block, out: &mut Vec<Diagnostic>) {
        let lifecycle = nested::meta_blocks(self, block, nested::Container::Resource, out);
        if let Some(attr) = lifecycle.and_then(|l| l.body.attribute("create_before_destroy")) {
            self.decode_bool(&attr.expr, out);
        }
        for provisioner in nested_blocks(block, "provisioner", 1) {
            provisioners::decode(self, provisioner, out);
        }
    }

    pub(super) fn at(&self, range: TextRange) -> Location {
        Location::new(self.file_id, range)
    }

    pub(super) fn text(&self) -> &'a str {
        &self.file.text
    }

    pub(super) fn is_primary(&self) -> bool {
        self.file.role == FileRole::Primary
    }

    pub(super) fn is_json(&self) -> bool {
        self.file.is_json()
    }

    /// `main.tf:3,1-29`, as OpenTofu writes ranges in details.
    pub(super) fn describe(&self, range: TextRange) -> String {
        self.file.describe(range)
    }

    /// The part of a block whose errors belong to OpenTofu's decoding of it.
    /// Native: the whole block. JSON: its body object and last label (a JSON
    /// block's property name, and the `[` of an array of bodies that serves as
    /// its header, are shared with its siblings).
    pub(super) fn decode_span(&self, block: &Block) -> TextRange {
        if !self.is_json() {
            return block.range;
        }
        let body = match (block.body.open, block.body.close) {
            (Some(open), Some(close)) => open.cover(close),
            _ => block.header,
        };
        match block.labels.last() {
            Some(label) => label.range.cover(body),
            None => body,
        }
    }

    /// True when decoding a block failed: an error inside its decode span, or
    /// one of the errors this module added to `out` since `n_before` (those
    /// may sit on a JSON header outside the span).
    pub(super) fn failed_since(&self, out: &[Diagnostic], n_before: usize, block: &Block) -> bool {
        out.get(n_before..)
            .is_some_and(|added| added.iter().any(Diagnostic::is_error))
            || self.decode_failed(out, self.decode_span(block))
    }

    /// True when an error was already reported inside `span` of this file by
    /// decoding (the schema rules, the reference and provider rules, or this
    /// module's own checks): OpenTofu's decoding of the block failed.
    pub(super) fn decode_failed(&self, out: &[Diagnostic], span: TextRange) -> bool {
        self.errors_within(out, span).next().is_some()
    }

    /// The code and range of each error reported inside `span` of this file:
    /// by the decoding rules, by the parser (duplicate JSON arguments, which
    /// OpenTofu reports while decoding the body), and by this module so far.
    pub(super) fn errors_within<'d>(
        &'d self,
        out: &'d [Diagnostic],
        span: TextRange,
    ) -> impl Iterator<Item = (Code, TextRange)> + 'd
    where
        'a: 'd,
    {
        let file_id = self.file_id;
        let own = out
            .iter()
            .filter(move |d| d.is_error() && d.subject.file == file_id)
            .filter_map(|d| Some((d.code, d.subject.range?)))
            .filter(move |(_, range)| within(*range, span));
        self.failures.within(span).chain(own)
    }
}

/// Nested blocks of one type with the number of labels their schema wants;
/// blocks with another number of labels are `invalid-block-labels` and are not
/// decoded.
pub(super) fn nested_blocks<'b>(
    block: &'b Block,
    kind: &'b str,
    n_labels: usize,
) -> impl Iterator<Item = &'b Block> + 'b {
    block
        .body
        .blocks_of_kind(kind)
        .filter(move |nested| nested.labels.len() == n_labels)
}

/// True when `inner` lies inside `outer` (a zero-width range at its end included).
pub(super) fn within(inner: TextRange, outer: TextRange) -> bool {
    inner.start >= outer.start && inner.end <= outer.end
}

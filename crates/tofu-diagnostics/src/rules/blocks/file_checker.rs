//! The file a block check reads, and what every check of the family
//! shares: where a block's decoding failed (the decoding rules' errors
//! handed in as data, plus the family's own), places and descriptions in the
//! file, and the nested blocks of a kind. The dispatch over block types is
//! the parent module's; nothing here knows a block type.

use tofu_syntax::{Block, Code, Diagnostic, FileId, Location, TextRange};

use crate::rules::decode_failures::DecodeFailures;
use tofu_module::loaded::{FileRole, ModuleFile};

/// One loaded file of the module, with what every rule needs to report on it.
pub(super) struct FileChecker<'a> {
    pub(super) file: &'a ModuleFile,
    pub(super) file_id: FileId,
    /// Where the decoding rules (and the parser) found errors.
    pub(super) failures: &'a DecodeFailures,
}

impl<'a> FileChecker<'a> {
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

//! Minimal edits from the source to its formatted text.
//!
//! The formatter knows which output tokens repeat a source token unchanged
//! (their *origin*); those are anchors. Between two consecutive anchors, the
//! source text and the formatted text are compared, and where they differ
//! one edit replaces what lies between their common prefix and suffix. So an
//! edit is at most the blanks between two tokens, or the span of a rewrite
//! (a label requoted, an interpolation unwrapped), never the whole file.

use tofu_syntax::TextRange;

use crate::layout::Laid;
use crate::rewrite::Piece;

/// One replacement: the source bytes in `range` become `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub range: TextRange,
    pub new_text: String,
}

/// The edits that turn `source` into `laid.text`. Origins are offsets into
/// `source` after its first `base` bytes (a BOM).
pub(crate) fn diff(source: &str, base: usize, pieces: &[Piece<'_>], laid: &Laid) -> Vec<Edit> {
    let mut edits = Vec::new();
    // (end of the anchor in the source, end in the formatted text)
    let mut previous = (0usize, 0usize);
    let anchors = pieces
        .iter()
        .zip(&laid.starts)
        .filter_map(|(piece, new_start)| {
            let origin = piece.origin.as_ref()?;
            Some((
                base + origin.start,
                base + origin.end,
                *new_start,
                *new_start + piece.text.len(),
            ))
        });
    for (old_start, old_end, new_start, new_end) in anchors {
        if old_start < previous.0 || new_start < previous.1 {
            continue;
        }
        push_edit(
            source,
            &laid.text,
            previous,
            (old_start, new_start),
            &mut edits,
        );
        previous = (old_end, new_end);
    }
    push_edit(
        source,
        &laid.text,
        previous,
        (source.len(), laid.text.len()),
        &mut edits,
    );
    edits
}

fn push_edit(
    source: &str,
    formatted: &str,
    (old_from, new_from): (usize, usize),
    (old_to, new_to): (usize, usize),
    edits: &mut Vec<Edit>,
) {
    let (Some(old), Some(new)) = (
        source.get(old_from..old_to),
        formatted.get(new_from..new_to),
    ) else {
        return;
    };
    if old == new {
        return;
    }
    let prefix = common_prefix(old, new);
    let suffix = common_suffix(
        old.get(prefix..).unwrap_or_default(),
        new.get(prefix..).unwrap_or_default(),
    );
    let replaced = old_from + prefix..old_to - suffix;
    let inserted = new.get(prefix..new.len() - suffix).unwrap_or_default();
    edits.push(Edit {
        range: TextRange::from_usize(replaced.start, replaced.end),
        new_text: inserted.to_owned(),
    });
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((index, _), _)| index)
        .min(b.len())
}

fn common_suffix(a: &str, b: &str) -> usize {
    let mut len = 0;
    for (x, y) in a.chars().rev().zip(b.chars().rev()) {
        if x != y {
            break;
        }
        len += x.len_utf8();
    }
    len
}

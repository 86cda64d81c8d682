//! Spans of native text that a refactoring moves or removes: a block with
//! the comment lines written right above it, whole lines, and the blank
//! line that separated it from its neighbours.

use tofu_diagnostics::ModuleAnalysis;
use tofu_syntax::{Block, FileId, TextRange};

/// The start of the line holding `offset`.
pub(super) fn line_start(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |newline| newline + 1)
}

/// Just after the end of the line holding `offset` (its `\n`), or the end of
/// the text.
pub(super) fn line_end(text: &str, offset: usize) -> usize {
    text.get(offset..)
        .and_then(|after| after.find('\n'))
        .map_or(text.len(), |newline| offset + newline + 1)
}

/// The text of a block as a reader sees it: from the comment lines right
/// above it (no blank line between) to the end of its last line. A block
/// that shares a line with something else is just its own range.
pub(super) fn block_span(text: &str, block: TextRange) -> TextRange {
    let (start, end) = (block.start as usize, block.end as usize);
    let first_line = line_start(text, start);
    let alone_before = text
        .get(first_line..start)
        .is_some_and(|before| before.trim().is_empty());
    let alone_after = text
        .get(end..line_end(text, end))
        .is_some_and(|after| after.trim().is_empty());
    if !alone_before || !alone_after {
        return block;
    }
    let mut span_start = first_line;
    let mut in_block_comment = false;
    while span_start > 0 {
        let previous = line_start(text, span_start - 1);
        let line = text.get(previous..span_start).unwrap_or_default().trim();
        let comment = if in_block_comment {
            if line.starts_with("/*") {
                in_block_comment = false;
            }
            true
        } else if line.starts_with('#') || line.starts_with("//") {
            true
        } else if line.ends_with("*/") {
            in_block_comment = !line.starts_with("/*");
            true
        } else {
            false
        };
        if !comment {
            break;
        }
        span_start = previous;
    }
    if in_block_comment {
        // The comment's start was not found above: keep the block alone.
        return TextRange::from_usize(first_line, line_end(text, end));
    }
    TextRange::from_usize(span_start, line_end(text, end))
}

/// What to delete to take `span` (whole lines) out of `text`: the span and
/// one of the blank lines around it, so its neighbours keep one blank line
/// between them.
pub(super) fn removal(text: &str, span: TextRange) -> TextRange {
    let (start, end) = (span.start as usize, span.end as usize);
    let blank = |from: usize, to: usize| {
        text.get(from..to)
            .is_some_and(|line| line.trim().is_empty())
    };
    let next_end = line_end(text, end);
    if end < text.len() && blank(end, next_end) {
        return TextRange::from_usize(start, next_end);
    }
    if start > 0 {
        let previous = line_start(text, start - 1);
        if blank(previous, start) {
            return TextRange::from_usize(previous, end);
        }
    }
    span
}

/// The text to insert at the end of `existing` so that `addition` (whole
/// lines) follows it after one blank line.
pub(super) fn appended(existing: &str, addition: &str) -> String {
    let mut addition = addition.to_owned();
    if !addition.ends_with('\n') {
        addition.push('\n');
    }
    if existing.trim().is_empty() || existing.ends_with("\n\n") {
        addition
    } else if existing.ends_with('\n') {
        format!("\n{addition}")
    } else {
        format!("\n\n{addition}")
    }
}

/// The text of the block at `block` of `text` after `edits` (ranges of
/// `text` inside the block, not overlapping), laid out as `tofu fmt` lays
/// it out (argument alignment changes with a renamed argument); as edited
/// when it does not parse.
pub(super) fn rewritten_block(
    text: &str,
    block: TextRange,
    edits: &[(TextRange, String)],
) -> String {
    let mut rewritten = block.slice(text).to_owned();
    let mut edits: Vec<&(TextRange, String)> = edits.iter().collect();
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    for (range, new_text) in edits {
        let start = range.start.saturating_sub(block.start) as usize;
        let end = range.end.saturating_sub(block.start) as usize;
        if start <= end && rewritten.get(start..end).is_some() {
            rewritten.replace_range(start..end, new_text);
        }
    }
    let at_line_start = line_start(text, block.start as usize) == block.start as usize;
    match tofu_fmt::format(&rewritten) {
        Ok(formatted) if at_line_start => formatted.trim_end_matches('\n').to_owned(),
        _ => rewritten,
    }
}

/// Whether `offset` lies in an argument of `block` that names whole
/// objects: `depends_on`, or `lifecycle`'s `replace_triggered_by`.
pub(super) fn in_whole_object_argument(block: &Block, offset: u32) -> bool {
    let inside = |attribute: &tofu_syntax::Attribute| attribute.range.contains(offset);
    block.body.attribute("depends_on").is_some_and(inside)
        || block
            .body
            .blocks
            .iter()
            .filter(|nested| nested.kind == "lifecycle")
            .any(|lifecycle| {
                lifecycle
                    .body
                    .attribute("replace_triggered_by")
                    .is_some_and(inside)
            })
}

/// `FILE:LINE` of `offset` in `file`, as a refusal names a place.
pub(super) fn place(analysis: &ModuleAnalysis, file: FileId, offset: u32) -> String {
    analysis.file(file).map_or_else(String::new, |module_file| {
        format!(
            "{}:{}",
            module_file.name,
            module_file.line_index.line_of(offset) + 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span_text(text: &str, needle: &str) -> String {
        let start = text.find(needle).unwrap_or_default();
        let end = text[start..]
            .find("}\n")
            .map_or(text.len(), |at| start + at + 1);
        let span = block_span(text, TextRange::from_usize(start, end));
        text[span.start as usize..span.end as usize].to_owned()
    }

    #[test]
    fn a_block_takes_the_comments_right_above_it() {
        let text = "a {}\n\n# about b\n// more\nb {\n}\n\n/* c\n   c */\nc {\n}\n";
        assert_eq!(span_text(text, "b {"), "# about b\n// more\nb {\n}\n");
        assert_eq!(span_text(text, "c {"), "/* c\n   c */\nc {\n}\n");
        // A blank line separates a comment from the block: it stays.
        let apart = "# file header\n\nb {\n}\n";
        assert_eq!(span_text(apart, "b {"), "b {\n}\n");
    }

    #[test]
    fn removing_a_span_takes_one_blank_line_with_it() {
        let text = "a {}\n\nb {}\n\nc {}\n";
        let span = TextRange::from_usize(6, 11);
        let removed = removal(text, span);
        let mut left = text.to_owned();
        left.replace_range(removed.start as usize..removed.end as usize, "");
        assert_eq!(left, "a {}\n\nc {}\n");
        // The last block: the blank line before it goes.
        let last = TextRange::from_usize(12, 17);
        let removed = removal(text, last);
        let mut left = text.to_owned();
        left.replace_range(removed.start as usize..removed.end as usize, "");
        assert_eq!(left, "a {}\n\nb {}\n");
    }

    #[test]
    fn appending_leaves_one_blank_line() {
        assert_eq!(appended("", "x {}\n"), "x {}\n");
        assert_eq!(appended("a {}\n", "x {}"), "\nx {}\n");
        assert_eq!(appended("a {}", "x {}\n"), "\n\nx {}\n");
        assert_eq!(appended("a {}\n\n", "x {}\n"), "x {}\n");
    }
}

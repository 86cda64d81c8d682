//! Byte ranges and the line index used to render them.
//!
//! Inside the engine every position is a UTF-8 byte offset into the file as stored
//! (a leading BOM included). Lines and columns exist only for rendering: the
//! [`LineIndex`] derives them, counting columns in Unicode scalar values and
//! treating a leading BOM as absent (line 1, column 1 is the first character after
//! it), as `loading.md` §5 asks. Editor encodings (UTF-16) are not this module's
//! business: the LSP crate converts at its edge.

use std::fmt;
use unicode_segmentation::UnicodeSegmentation;

/// A half-open range `[start, end)` of byte offsets into one file.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    pub fn new(start: u32, end: u32) -> TextRange {
        TextRange {
            start,
            end: end.max(start),
        }
    }

    /// Builds a range from `usize` offsets, saturating at `u32::MAX` (files are far
    /// smaller than 4 GiB; saturation keeps absurd input from wrapping around).
    pub fn from_usize(start: usize, end: usize) -> TextRange {
        TextRange::new(to_u32(start), to_u32(end))
    }

    pub fn empty(at: u32) -> TextRange {
        TextRange { start: at, end: at }
    }

    pub fn len(self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset < self.end
    }

    /// `contains`, but also true at the end offset (a cursor right after a token).
    pub fn contains_inclusive(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }

    pub fn cover(self, other: TextRange) -> TextRange {
        TextRange::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Shifts the range right by `delta` bytes (used when a part of a file was
    /// parsed on its own).
    pub fn shifted(self, delta: u32) -> TextRange {
        TextRange::new(
            self.start.saturating_add(delta),
            self.end.saturating_add(delta),
        )
    }

    /// The slice of `text` this range covers, or `""` when it is out of bounds or
    /// not on character boundaries.
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }

    /// Widens an empty range to cover one character (or stays empty at the end of
    /// the text), so that editors can show it.
    pub fn widened(self, text: &str) -> TextRange {
        if !self.is_empty() {
            return self;
        }
        let start = self.start as usize;
        match text.get(start..).and_then(|rest| rest.chars().next()) {
            Some(c) => TextRange::from_usize(start, start + c.len_utf8()),
            None => self,
        }
    }
}

impl fmt::Debug for TextRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

pub fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// A 1-based line and a 1-based column counted in Unicode scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

pub const BOM: &str = "\u{feff}";

/// Maps byte offsets of one text to lines and columns. Line breaks are `\n`
/// (a `\r\n` pair ends its line at the `\n`).
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    bom_len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| to_u32(i + 1)),
        );
        let bom_len = if text.starts_with(BOM) {
            to_u32(BOM.len())
        } else {
            0
        };
        LineIndex {
            line_starts,
            bom_len,
        }
    }

    /// The 0-based line holding `offset`.
    pub fn line_of(&self, offset: u32) -> usize {
        self.line_starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }

    /// The byte offset where 0-based `line` starts (after the BOM on line 0).
    pub fn line_start(&self, line: usize) -> u32 {
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        if line == 0 {
            start.max(self.bom_len)
        } else {
            start
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Line and column of `offset` in `text` (the text this index was built from).
    /// Offsets past the end or inside a character are clamped to the previous
    /// character boundary.
    pub fn line_col(&self, text: &str, offset: u32) -> LineCol {
        self.position(text, offset, |rest, len| {
            rest.char_indices().take_while(|(i, _)| *i < len).count()
        })
    }

    /// Line and column of `offset` as HCL counts them in the ranges its
    /// messages print (`main.tf:3,1-29`): columns in extended grapheme
    /// clusters (UAX #29), so `🚣‍♀️`, four scalar values, is one column.
    /// [`LineIndex::line_col`] counts scalar values, as tofu-lens's own
    /// positions do.
    pub fn hcl_line_col(&self, text: &str, offset: u32) -> LineCol {
        self.position(text, offset, |rest, len| {
            rest.grapheme_indices(true)
                .take_while(|(i, _)| *i < len)
                .count()
        })
    }

    /// The line of `offset`, and its column as `columns` counts the units
    /// that start in the first `len` bytes of the rest of the line.
    fn position(&self, text: &str, offset: u32, columns: impl Fn(&str, usize) -> usize) -> LineCol {
        let line = self.line_of(offset);
        let start = self.line_start(line) as usize;
        let len = (offset as usize).saturating_sub(start);
        let column = text.get(start..).map_or(0, |rest| columns(rest, len));
        LineCol {
            line: to_u32(line + 1),
            column: to_u32(column + 1),
        }
    }

    /// The text of 0-based `line` without its line break.
    pub fn line_text<'a>(&self, text: &'a str, line: usize) -> &'a str {
        let start = self.line_start(line) as usize;
        let end = self
            .line_starts
            .get(line + 1)
            .map(|&s| s as usize)
            .unwrap_or(text.len());
        text.get(start..end)
            .unwrap_or_default()
            .trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hcl_columns_count_grapheme_clusters() {
        // `🚣‍♀️` is four scalar values (rower, ZWJ, female sign, VS16) and one
        // grapheme cluster; `é` written as e + combining acute is two and one.
        let text = "\u{feff}  rowing = \"\u{1f6a3}\u{200d}\u{2640}\u{fe0f}\"\ne\u{301}x\n";
        let index = LineIndex::new(text);
        let end = text.find("\n").unwrap() as u32;
        assert_eq!(
            index.line_col(text, end),
            LineCol {
                line: 1,
                column: 18
            }
        );
        assert_eq!(
            index.hcl_line_col(text, end),
            LineCol {
                line: 1,
                column: 15
            }
        );
        let x = text.find('x').unwrap() as u32;
        assert_eq!(index.line_col(text, x), LineCol { line: 2, column: 3 });
        assert_eq!(index.hcl_line_col(text, x), LineCol { line: 2, column: 2 });
    }

    #[test]
    fn columns_count_scalar_values_and_skip_the_bom() {
        let text = "\u{feff}a = \"é\"\nb = 1\r\nc";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 3), LineCol { line: 1, column: 1 });
        let after_e = text.find("\"\n").unwrap() as u32;
        assert_eq!(
            index.line_col(text, after_e),
            LineCol { line: 1, column: 7 }
        );
        let c = text.rfind('c').unwrap() as u32;
        assert_eq!(index.line_col(text, c), LineCol { line: 3, column: 1 });
        assert_eq!(index.line_text(text, 1), "b = 1");
        assert_eq!(index.line_col(text, 10_000).line, 3);
    }

    #[test]
    fn widening_respects_character_boundaries() {
        let text = "é";
        assert_eq!(TextRange::empty(0).widened(text), TextRange::new(0, 2));
        assert_eq!(TextRange::empty(2).widened(text), TextRange::empty(2));
        assert_eq!(TextRange::new(1, 2).slice(text), "");
    }
}

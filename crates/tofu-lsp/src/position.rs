//! The one place where LSP positions meet byte offsets.
//!
//! The engine speaks UTF-8 byte offsets; LSP speaks `(line, character)` with
//! characters counted in the negotiated encoding (UTF-16 unless the client
//! offers UTF-8). Lines end at `\n`, `\r\n` or a lone `\r`, as the protocol
//! says. A leading byte order mark is invisible to editors, so it takes no
//! room on line 0. A position inside a character (between the halves of a
//! surrogate pair, say) falls back to the start of that character; a character
//! past the end of its line means the end of the line.
//!
//! [`LineMap`] converts for a text: the analysis's, and an open document's
//! while its edits are applied.

use std::sync::Arc;

use tower_lsp_server::ls_types::{Position, PositionEncodingKind, Range};

use tofu_syntax::TextRange;

const BOM: char = '\u{feff}';

/// How `Position::character` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionEncoding {
    Utf8,
    Utf16,
}

impl PositionEncoding {
    /// UTF-8 when the client offers it, UTF-16 (the protocol's default) otherwise.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> PositionEncoding {
        let offers_utf8 = offered.is_some_and(|kinds| kinds.contains(&PositionEncodingKind::UTF8));
        if offers_utf8 {
            PositionEncoding::Utf8
        } else {
            PositionEncoding::Utf16
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    fn width(self, c: char) -> u32 {
        let width = match self {
            PositionEncoding::Utf8 => c.len_utf8(),
            PositionEncoding::Utf16 => c.len_utf16(),
        };
        tofu_syntax::text::to_u32(width)
    }
}

/// Line starts of one text, for converting in both directions.
#[derive(Clone, Debug)]
pub struct LineMap {
    text: Arc<str>,
    /// Byte offset where each line starts (line 0 after a BOM).
    line_starts: Vec<usize>,
    encoding: PositionEncoding,
}

impl LineMap {
    pub fn new(text: impl Into<Arc<str>>, encoding: PositionEncoding) -> LineMap {
        let text: Arc<str> = text.into();
        let first = if text.starts_with(BOM) {
            BOM.len_utf8()
        } else {
            0
        };
        let mut line_starts = vec![first];
        let bytes = text.as_bytes();
        for (index, byte) in bytes.iter().enumerate() {
            match byte {
                b'\n' => line_starts.push(index + 1),
                b'\r' if bytes.get(index + 1) != Some(&b'\n') => line_starts.push(index + 1),
                _ => {}
            }
        }
        LineMap {
            text,
            line_starts,
            encoding,
        }
    }

    /// The content of line `line` without its line break, and where it starts.
    fn line(&self, line: usize) -> Option<(usize, &str)> {
        let start = *self.line_starts.get(line)?;
        let end = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        let content = self.text.get(start..end)?.trim_end_matches(['\n', '\r']);
        Some((start, content))
    }

    /// The position of byte `offset` (clamped to the text and to a character start).
    pub fn position(&self, offset: u32) -> Position {
        let offset = (offset as usize).min(self.text.len());
        let line = self
            .line_starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1);
        let Some((start, content)) = self.line(line) else {
            return Position::new(0, 0);
        };
        let mut character = 0u32;
        for (index, c) in content.char_indices() {
            if start + index + c.len_utf8() > offset {
                break;
            }
            character += self.encoding.width(c);
        }
        Position::new(tofu_syntax::text::to_u32(line), character)
    }

    /// The positions of `range`. An end between the `\r` and `\n` of a CRLF,
    /// which has no position of its own, moves past the `\n` (to the start
    /// of the next line) rather than back before the `\r`, so that a range
    /// keeps what it covers: a diagnostic on a lone `\r` of a CRLF would
    /// otherwise be empty, and invisible.
    pub fn range(&self, range: TextRange) -> Range {
        let end = range.end as usize;
        let bytes = self.text.as_bytes();
        let end_between_cr_lf =
            end > 0 && bytes.get(end - 1) == Some(&b'\r') && bytes.get(end) == Some(&b'\n');
        let end = if end_between_cr_lf {
            self.position(range.end + 1)
        } else {
            self.position(range.end)
        };
        Range::new(self.position(range.start), end)
    }

    /// The byte offset of `position`, or `None` when its line does not exist.
    /// A character past the end of the line means the end of the line.
    pub fn offset(&self, position: Position) -> Option<u32> {
        let (start, content) = self.line(position.line as usize)?;
        let mut units = 0u32;
        for (index, c) in content.char_indices() {
            let width = self.encoding.width(c);
            if units + width > position.character {
                return Some(tofu_syntax::text::to_u32(start + index));
            }
            units += width;
        }
        Some(tofu_syntax::text::to_u32(start + content.len()))
    }

    /// The part of `range` on each line it touches, line breaks left out:
    /// where each part starts and its length in the encoding's units, in
    /// order. Empty parts are left out. For clients that cannot take a
    /// semantic token spanning lines.
    pub fn line_parts(&self, range: TextRange) -> Vec<(Position, u32)> {
        let start = self.position(range.start);
        let end = self.position(range.end);
        if start.line == end.line {
            let length = end.character.saturating_sub(start.character);
            return if length > 0 {
                vec![(start, length)]
            } else {
                Vec::new()
            };
        }
        let mut parts = Vec::new();
        for line in start.line..=end.line {
            let from = if line == start.line {
                start.character
            } else {
                0
            };
            let to = if line == end.line {
                end.character
            } else {
                self.line_units(line as usize)
            };
            if to > from {
                parts.push((Position::new(line, from), to - from));
            }
        }
        parts
    }

    /// True when nothing but blanks follows `offset` on its line.
    pub fn rest_of_line_is_blank(&self, offset: u32) -> bool {
        self.text
            .get(offset as usize..)
            .unwrap_or_default()
            .split(['\n', '\r'])
            .next()
            .unwrap_or_default()
            .trim_matches([' ', '\t'])
            .is_empty()
    }

    /// The length of line `line` without its line break, in the encoding's units.
    fn line_units(&self, line: usize) -> u32 {
        self.line(line).map_or(0, |(_, content)| {
            content.chars().map(|c| self.encoding.width(c)).sum()
        })
    }

    /// Both ends of `range` as byte offsets, or `None` when a line does not exist.
    pub fn text_range(&self, range: Range) -> Option<TextRange> {
        Some(TextRange::new(
            self.offset(range.start)?,
            self.offset(range.end)?,
        ))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn utf16_counts_surrogate_pairs_as_two_units() {
        let text = "a😀b\nc";
        let map = LineMap::new(text, PositionEncoding::Utf16);
        assert_eq!(map.position(5), Position::new(0, 3));
        assert_eq!(map.offset(Position::new(0, 3)), Some(5));
        // Inside the pair: the start of the emoji.
        assert_eq!(map.offset(Position::new(0, 2)), Some(1));
        let utf8 = LineMap::new(text, PositionEncoding::Utf8);
        assert_eq!(utf8.position(5), Position::new(0, 5));
    }

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let text = "a\r\nb\rc\nd";
        let map = LineMap::new(text, PositionEncoding::Utf16);
        assert_eq!(map.position(3), Position::new(1, 0));
        assert_eq!(map.position(5), Position::new(2, 0));
        assert_eq!(map.position(7), Position::new(3, 0));
        // Past the end of a line: its end, before the line break.
        assert_eq!(map.offset(Position::new(0, 9)), Some(1));
        assert_eq!(map.offset(Position::new(4, 0)), None);
        // An offset between \r and \n belongs to line 0's end.
        assert_eq!(map.position(2), Position::new(0, 1));
    }

    #[test]
    fn a_range_ending_inside_a_crlf_keeps_its_line_break() {
        let text = "ab\r\ncd";
        let map = LineMap::new(text, PositionEncoding::Utf16);
        // Just the `\r`: up to the start of the next line, not empty.
        assert_eq!(
            map.range(TextRange::new(2, 3)),
            Range::new(Position::new(0, 2), Position::new(1, 0))
        );
        // Starting between the two: from the end of line 0.
        assert_eq!(
            map.range(TextRange::new(3, 5)),
            Range::new(Position::new(0, 2), Position::new(1, 1))
        );
        assert_eq!(
            map.range(TextRange::new(1, 2)),
            Range::new(Position::new(0, 1), Position::new(0, 2))
        );
    }

    #[test]
    fn line_parts_cut_a_range_at_line_breaks() {
        let text = "/* 😀\r\n\r\nab */ x";
        let map = LineMap::new(text, PositionEncoding::Utf16);
        let comment = TextRange::new(0, 16);
        assert_eq!(
            map.line_parts(comment),
            [(Position::new(0, 0), 5), (Position::new(2, 0), 5)]
        );
        let utf8 = LineMap::new(text, PositionEncoding::Utf8);
        assert_eq!(utf8.line_parts(comment)[0], (Position::new(0, 0), 7));
        assert_eq!(
            map.line_parts(TextRange::new(17, 18)),
            [(Position::new(2, 6), 1)]
        );
        assert!(map.line_parts(TextRange::new(3, 3)).is_empty());
    }

    #[test]
    fn a_bom_takes_no_room() {
        let text = "\u{feff}ab";
        let map = LineMap::new(text, PositionEncoding::Utf16);
        assert_eq!(map.position(3), Position::new(0, 0));
        assert_eq!(map.offset(Position::new(0, 1)), Some(4));
    }

    /// Every position of awkward texts maps to a character start, and back.
    #[test]
    fn positions_and_offsets_round_trip() {
        let texts = [
            "",
            "a",
            "x😀y\r\n\r\n é\rz\n",
            "\r\r\n\n😀😀\n",
            "resource \"a\" \"b\" {\r\n  x = \"é😀\"\r\n}\r\n",
        ];
        for text in texts {
            for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
                let map = LineMap::new(text, encoding);
                for line in 0..6 {
                    for character in 0..12 {
                        let position = Position::new(line, character);
                        if let Some(offset) = map.offset(position) {
                            assert!(
                                text.is_char_boundary(offset as usize),
                                "{text:?} {position:?} {encoding:?}"
                            );
                        }
                    }
                }
                for (offset, _) in text.char_indices() {
                    let position = map.position(tofu_syntax::text::to_u32(offset));
                    let back = map.offset(position).unwrap() as usize;
                    let between_cr_lf =
                        text[..offset].ends_with('\r') && text[offset..].starts_with('\n');
                    if !between_cr_lf {
                        assert_eq!(back, offset, "{text:?} {offset}");
                    }
                }
            }
        }
    }
}

//! An open document: the client's URI, its version and its text as a rope, so
//! that incremental changes cost the size of the edit, not of the file.
//!
//! Changes are applied in the order the client sent them; a range is
//! converted with the negotiated encoding against the text as it is at that
//! point of the batch (what the protocol asks). Out-of-range positions are
//! clamped, never a panic.

use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use crate::position::{rope_char_index, PositionEncoding};

#[derive(Clone, Debug)]
pub struct Document {
    pub uri: Uri,
    pub version: i32,
    rope: Rope,
}

impl Document {
    pub fn new(uri: Uri, version: i32, text: &str) -> Document {
        Document {
            uri,
            version,
            rope: Rope::from_str(text),
        }
    }

    pub fn apply_changes(
        &mut self,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
    ) {
        for change in changes {
            match change.range {
                None => self.rope = Rope::from_str(&change.text),
                Some(range) => {
                    let start = rope_char_index(&self.rope, range.start, encoding);
                    let end = rope_char_index(&self.rope, range.end, encoding).max(start);
                    self.rope.remove(start..end);
                    self.rope.insert(start, &change.text);
                }
            }
        }
        self.version = version;
    }

    pub fn text(&self) -> Arc<str> {
        Arc::from(String::from(&self.rope))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::str::FromStr;
    use tower_lsp_server::ls_types::{Position, Range};

    fn change(range: (u32, u32, u32, u32), text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(range.0, range.1),
                Position::new(range.2, range.3),
            )),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_changes_respect_encodings_and_line_ends() {
        let uri = Uri::from_str("file:///m/main.tf").unwrap();
        let mut document = Document::new(uri, 1, "a = \"😀\"\r\nb = 1\rc = 2\n");
        document.apply_changes(
            2,
            &[
                // After the emoji (two UTF-16 units) on line 0.
                change((0, 7, 0, 7), "!"),
                // Line 1 ends at the lone CR.
                change((1, 4, 1, 5), "22"),
                // Line 2 starts after it; a column past the end clamps.
                change((2, 0, 2, 99), "c = 3"),
            ],
            PositionEncoding::Utf16,
        );
        assert_eq!(&*document.text(), "a = \"😀!\"\r\nb = 22\rc = 3\n");
        assert_eq!(document.version, 2);
        document.apply_changes(3, &[change((0, 9, 0, 10), "")], PositionEncoding::Utf8);
        assert_eq!(&*document.text(), "a = \"😀\"\r\nb = 22\rc = 3\n");
        // Joining lines across a CRLF.
        document.apply_changes(4, &[change((0, 10, 1, 0), "")], PositionEncoding::Utf8);
        assert_eq!(&*document.text(), "a = \"😀\"b = 22\rc = 3\n");
    }
}

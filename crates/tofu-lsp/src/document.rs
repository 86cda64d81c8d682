//! An open document: the client's URI, its version and its text.
//!
//! The text is stored once: the `Arc<str>` here is the one the analysis host
//! holds for the buffer, so the server keeps one copy of each open file.
//! The analysis reads the whole text after every change anyway, so a change
//! is applied by building the new text once (the size of the file), which
//! the host then shares; a rope beside it would only double the memory.
//!
//! Changes are applied in the order the client sent them; a range is
//! converted with the negotiated encoding against the text as it is at that
//! point of the batch (what the protocol asks). Out-of-range positions are
//! clamped, never a panic.

use std::sync::Arc;

use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use crate::position::{LineMap, PositionEncoding};

#[derive(Clone, Debug)]
pub struct Document {
    pub uri: Uri,
    pub version: i32,
    text: Arc<str>,
}

impl Document {
    pub fn new(uri: Uri, version: i32, text: &str) -> Document {
        Document {
            uri,
            version,
            text: Arc::from(text),
        }
    }

    pub fn apply_changes(
        &mut self,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
    ) {
        for change in changes {
            self.text = match change.range {
                None => Arc::from(change.text.as_str()),
                Some(range) => {
                    let map = LineMap::new(Arc::clone(&self.text), encoding);
                    let end_of_text = self.text.len();
                    let offset = |position| {
                        map.offset(position)
                            .map_or(end_of_text, |offset| offset as usize)
                    };
                    let start = offset(range.start);
                    let end = offset(range.end).max(start);
                    let mut text =
                        String::with_capacity(self.text.len() - (end - start) + change.text.len());
                    text.push_str(self.text.get(..start).unwrap_or_default());
                    text.push_str(&change.text);
                    text.push_str(self.text.get(end..).unwrap_or_default());
                    Arc::from(text)
                }
            };
        }
        self.version = version;
    }

    /// The text, shared (not copied) with whoever holds it.
    pub fn text(&self) -> Arc<str> {
        Arc::clone(&self.text)
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

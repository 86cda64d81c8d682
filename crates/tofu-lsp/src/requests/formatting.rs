//! `textDocument/formatting`: the `tofu-fmt` engine's minimal edits on an
//! open document, converted to protocol ranges by `position.rs`
//! (`rangeFormatting` goes through [`format_document`] too).
//!
//! Only open documents are formatted, from the text the client sent last
//! (the disk plays no part); a document that `tofu fmt` would not format
//! (JSON, a name it does not take) answers `null`, and one with syntax
//! errors answers no edits, as `tofu fmt` leaves such a file alone. Range
//! formatting formats the whole top-level blocks and attributes the range
//! touches. Nothing here reads HCL: the engine decides every byte.

use std::path::Path;
use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentFormattingParams, Range, TextEdit, Uri};

use crate::panic_guard::guarded;
use crate::position::LineMap;
use crate::shared::Shared;
use crate::uri;

pub async fn handle(
    shared: &Arc<Shared>,
    params: DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    format_document(shared, &params.text_document.uri, None)
}

/// The edits that format `document`, or only the top-level blocks and
/// attributes `range` touches.
pub fn format_document(
    shared: &Arc<Shared>,
    document: &Uri,
    range: Option<Range>,
) -> Result<Option<Vec<TextEdit>>> {
    let Some(path) = uri::to_path(document) else {
        return Ok(None);
    };
    let formatted_name = path
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(tofu_fmt::is_formatted_file_name);
    if !formatted_name {
        return Ok(None);
    }
    let (text, encoding) = {
        let mut session = shared.session();
        let encoding = session.encoding();
        let Some(text) = session.document_mut(Path::new(&path)).map(|doc| doc.text()) else {
            return Ok(None);
        };
        (text, encoding)
    };
    guarded("formatting", || {
        let map = LineMap::new(Arc::clone(&text), encoding);
        let edits = match range {
            None => tofu_fmt::format_edits(&text),
            Some(range) => {
                let Some(range) = map.text_range(range) else {
                    return Some(Vec::new());
                };
                tofu_fmt::format_range_edits(&text, range)
            }
        };
        // Syntax errors: no edits, the file stays as it is.
        let edits = edits.unwrap_or_default();
        Some(
            edits
                .into_iter()
                .map(|edit| TextEdit {
                    range: map.range(edit.range),
                    new_text: edit.new_text,
                })
                // A BOM takes no room in positions: dropping it is no edit.
                .filter(|edit| !(edit.range.start == edit.range.end && edit.new_text.is_empty()))
                .collect(),
        )
    })
}

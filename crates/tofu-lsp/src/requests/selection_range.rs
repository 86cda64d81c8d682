//! `textDocument/selectionRange`: for each position, the engine's nested
//! ranges around it (outermost first), or the position itself.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Range, SelectionRange, SelectionRangeParams};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: SelectionRangeParams,
) -> Result<Option<Vec<SelectionRange>>> {
    let name = "selectionRange";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let map = &document.line_map;
        let ranges = params
            .positions
            .iter()
            .map(|position| {
                let nested = map
                    .offset(*position)
                    .and_then(|offset| document.analysis.selection_ranges(&document.path, offset))
                    .unwrap_or_default();
                // Outermost first, each the parent of the next.
                let mut selection: Option<SelectionRange> = None;
                for range in nested.iter().rev() {
                    selection = Some(SelectionRange {
                        range: map.range(*range),
                        parent: selection.map(Box::new),
                    });
                }
                selection.unwrap_or(SelectionRange {
                    range: Range::new(*position, *position),
                    parent: None,
                })
            })
            .collect();
        Some(ranges)
    })
}

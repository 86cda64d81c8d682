//! `textDocument/foldingRange`: the engine's folds (blocks, multi-line
//! values, comment runs) as whole lines.

use std::sync::Arc;

use tofu_ide::FoldKind;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind, FoldingRangeParams};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    let name = "foldingRange";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let map = &document.line_map;
        let folds = document.analysis.folding_ranges(&document.path)?;
        Some(
            folds
                .iter()
                .filter_map(|fold| {
                    let start_line = map.position(fold.range.start).line;
                    let mut end_line = map.position(fold.range.end).line;
                    // A client folds whole lines: text after the range on its
                    // last line (`} # note`, `]), x]`) stays visible.
                    if !map.rest_of_line_is_blank(fold.range.end) {
                        end_line = end_line.saturating_sub(1);
                    }
                    (end_line > start_line).then_some(FoldingRange {
                        start_line,
                        start_character: None,
                        end_line,
                        end_character: None,
                        kind: Some(match fold.kind {
                            FoldKind::Region => FoldingRangeKind::Region,
                            FoldKind::Comment => FoldingRangeKind::Comment,
                        }),
                        collapsed_text: None,
                    })
                })
                .collect(),
        )
    })
}

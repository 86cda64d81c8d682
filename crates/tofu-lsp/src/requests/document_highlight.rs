//! `textDocument/documentHighlight`: the name under the cursor in the
//! document, its declaration written, its uses read.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentHighlight, DocumentHighlightKind, DocumentHighlightParams,
};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    let position = params.text_document_position_params;
    let name = "documentHighlight";
    let Some(at) = prepare_position(shared, name, &position, RelatedModules::None).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let occurrences = at.analysis.document_highlights(&at.path, at.offset);
        if occurrences.is_empty() {
            return None;
        }
        Some(
            occurrences
                .iter()
                .map(|occurrence| DocumentHighlight {
                    range: at.line_map.range(occurrence.range),
                    kind: Some(if occurrence.declaration {
                        DocumentHighlightKind::WRITE
                    } else {
                        DocumentHighlightKind::READ
                    }),
                })
                .collect(),
        )
    })
}

//! `textDocument/documentSymbol`: the document's blocks as nested symbols.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentSymbolParams, DocumentSymbolResponse};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::shared::Shared;
use crate::to_proto;

pub async fn handle(
    shared: &Arc<Shared>,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let name = "documentSymbol";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let symbols = document.analysis.document_symbols(&document.path);
        Some(DocumentSymbolResponse::Nested(to_proto::document_symbols(
            &symbols,
            &document.line_map,
        )))
    })
}

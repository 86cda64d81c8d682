//! `textDocument/semanticTokens/full`: every highlight of the document as
//! semantic tokens (legend and encoding in `semantic_tokens.rs`).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{SemanticTokens, SemanticTokensParams, SemanticTokensResult};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::semantic_tokens::encode;
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let name = "semanticTokens/full";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let highlights = document.analysis.semantic_tokens(&document.path, None)?;
        Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data: encode(&highlights, &document.line_map),
        }))
    })
}

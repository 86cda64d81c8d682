//! `textDocument/semanticTokens/range`: the highlights inside a range as
//! semantic tokens (legend and encoding in `semantic_tokens.rs`).

use std::sync::Arc;

use tofu_syntax::TextRange;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    SemanticTokens, SemanticTokensRangeParams, SemanticTokensRangeResult,
};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::semantic_tokens::encode;
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let name = "semanticTokens/range";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let map = &document.line_map;
        // A range may end past the last line (clients send the line count):
        // up to the end, then.
        let start = map.offset(params.range.start).unwrap_or(u32::MAX);
        let end = map.offset(params.range.end).unwrap_or(u32::MAX);
        let within = TextRange::new(start, end.max(start));
        let highlights = document
            .analysis
            .semantic_tokens(&document.path, Some(within))?;
        Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
            result_id: None,
            data: encode(&highlights, map),
        }))
    })
}

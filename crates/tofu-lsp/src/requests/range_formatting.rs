//! `textDocument/rangeFormatting`: the `tofu-fmt` edits inside the whole
//! top-level blocks and attributes a range touches, on an open document.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentRangeFormattingParams, TextEdit};

use super::formatting::format_document;
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: DocumentRangeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    format_document(shared, &params.text_document.uri, Some(params.range))
}

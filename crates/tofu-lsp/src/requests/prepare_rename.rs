//! `textDocument/prepareRename`: the name under the cursor and its range,
//! or the engine's reason why it cannot be renamed.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{PrepareRenameResponse, TextDocumentPositionParams};

use super::rename::refused;
use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let Some(at) = prepare_position(shared, "prepareRename", &params, RelatedModules::None).await?
    else {
        return Ok(None);
    };
    let prepared = guarded("prepareRename", || {
        at.analysis
            .prepare_rename(&at.path, at.offset)
            .map(
                |(range, placeholder)| PrepareRenameResponse::RangeWithPlaceholder {
                    range: at.line_map.range(range),
                    placeholder,
                },
            )
    })?;
    match prepared {
        Ok(response) => Ok(Some(response)),
        Err(message) => Err(refused(message)),
    }
}

//! `textDocument/definition`: where what is under the cursor is declared,
//! in this module or in the called one.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{GotoDefinitionParams, GotoDefinitionResponse};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;
use crate::to_proto::Converter;

pub async fn handle(
    shared: &Arc<Shared>,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let position = params.text_document_position_params;
    let Some(at) =
        prepare_position(shared, "definition", &position, RelatedModules::Called).await?
    else {
        return Ok(None);
    };
    guarded("definition", || {
        let targets = at.analysis.goto_definition(&at.path, at.offset);
        if targets.is_empty() {
            return None;
        }
        // The session is locked only to build the converter.
        let mut converter = Converter::new(&shared.session());
        Some(GotoDefinitionResponse::Array(converter.locations(&targets)))
    })
}

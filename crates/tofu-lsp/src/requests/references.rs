//! `textDocument/references`: every use of what is under the cursor, in its
//! module and in the modules that call it.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Location, ReferenceParams};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;
use crate::to_proto::Converter;

pub async fn handle(
    shared: &Arc<Shared>,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let position = params.text_document_position;
    let Some(at) = prepare_position(
        shared,
        "references",
        &position,
        RelatedModules::InterfaceAndCallers,
    )
    .await?
    else {
        return Ok(None);
    };
    guarded("references", || {
        let targets =
            at.analysis
                .references(&at.path, at.offset, params.context.include_declaration);
        if targets.is_empty() {
            return None;
        }
        // The session is locked only to build the converter.
        let mut converter = Converter::new(&shared.session());
        Some(converter.locations(&targets))
    })
}

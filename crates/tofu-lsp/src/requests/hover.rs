//! `textDocument/hover`: the engine's markdown for what is under the cursor
//! (an effective block, a reference's declaration, a called module's
//! variable or output), with the range it is about.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;

pub async fn handle(shared: &Arc<Shared>, params: HoverParams) -> Result<Option<Hover>> {
    let position = params.text_document_position_params;
    let Some(at) = prepare_position(shared, "hover", &position, RelatedModules::Called).await?
    else {
        return Ok(None);
    };
    guarded("hover", || {
        let hover = at.analysis.hover(&at.path, at.offset)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: hover.markdown,
            }),
            range: Some(at.line_map.range(hover.range)),
        })
    })
}

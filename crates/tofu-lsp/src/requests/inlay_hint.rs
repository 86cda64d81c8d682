//! `textDocument/inlayHint`: where an override file changes a block, the
//! engine's hints (each part linking to the override) at the end of the
//! lines it changes.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{InlayHint, InlayHintLabel, InlayHintLabelPart, InlayHintParams};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::shared::Shared;
use crate::to_proto::Converter;

pub async fn handle(
    shared: &Arc<Shared>,
    params: InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    let name = "inlayHint";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let map = &document.line_map;
        let range = map.text_range(params.range);
        let hints = document.analysis.inlay_hints(&document.path, range);
        let mut converter = Converter::new(&shared.session());
        Some(
            hints
                .iter()
                .map(|hint| InlayHint {
                    position: map.position(hint.offset),
                    label: InlayHintLabel::LabelParts(
                        hint.label
                            .iter()
                            .map(|part| InlayHintLabelPart {
                                value: part.text.clone(),
                                tooltip: None,
                                location: part
                                    .target
                                    .as_ref()
                                    .and_then(|target| converter.location(target)),
                                command: None,
                            })
                            .collect(),
                    ),
                    kind: None,
                    text_edits: None,
                    tooltip: None,
                    padding_left: Some(true),
                    padding_right: None,
                    data: None,
                })
                .collect(),
        )
    })
}

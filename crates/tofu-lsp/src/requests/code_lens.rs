//! `textDocument/codeLens`: the engine's lenses (a block's overrides, a
//! variable's callers), each showing its places with VS Code's built-in
//! references command.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{CodeLens, CodeLensParams, Command, Location};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::shared::Shared;
use crate::to_proto::Converter;

pub async fn handle(shared: &Arc<Shared>, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    let name = "codeLens";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let lenses = document.analysis.code_lenses(&document.path);
        let mut converter = Converter::new(&shared.session());
        let uri = converter.uri_for(&document.path)?;
        Some(
            lenses
                .iter()
                .map(|lens| {
                    let range = document.line_map.range(lens.range);
                    let locations: Vec<Location> = lens
                        .targets
                        .iter()
                        .filter_map(|target| converter.location(target))
                        .collect();
                    // VS Code's built-in command shows the places in a
                    // peek view; other clients show the title.
                    CodeLens {
                        range,
                        command: Some(Command {
                            title: lens.title.clone(),
                            command: "editor.action.showReferences".to_owned(),
                            arguments: Some(vec![
                                serde_json::json!(uri),
                                serde_json::json!(range.start),
                                serde_json::json!(locations),
                            ]),
                        }),
                        data: None,
                    }
                })
                .collect(),
        )
    })
}

//! `textDocument/codeAction`: the engine's quick fixes for the diagnostics
//! in a range.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{CodeActionOrCommand, CodeActionParams, CodeActionResponse};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::shared::Shared;
use crate::to_proto::Converter;

pub async fn handle(
    shared: &Arc<Shared>,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let name = "codeAction";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    guarded(name, || {
        let path = &document.path;
        let range = document.line_map.text_range(params.range)?;
        let text = document.analysis.file_text(path)?;
        let actions = document.analysis.code_actions(path, range);
        let mut converter = Converter::new(&shared.session());
        let actions: Vec<CodeActionOrCommand> = actions
            .iter()
            .filter_map(|action| converter.code_action(action, path, &text))
            .map(CodeActionOrCommand::CodeAction)
            .collect();
        Some(actions)
    })
}

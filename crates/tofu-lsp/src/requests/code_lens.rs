//! `textDocument/codeLens`: the engine's lenses (a block's overrides, a
//! variable's callers), each showing its places with VS Code's built-in
//! references command.

use std::sync::Arc;

use std::path::Path;
use tower_lsp_server::jsonrpc::Result;

use tofu_module::discovery::{is_auto_values_file, is_values_file};
use tower_lsp_server::ls_types::{CodeLens, CodeLensParams, Command, Location, Range, Uri};

use crate::commands::TOGGLE_VAR_FILE;
use crate::session::Session;

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
        let session = shared.session();
        let mut converter = Converter::new(&session);
        let uri = converter.uri_for(&document.path)?;
        let values_lens = values_file_lens(&session, &document.path, &uri);
        Some(
            values_lens
                .into_iter()
                .chain(lenses.iter().map(|lens| {
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
                }))
                .collect(),
        )
    })
}

/// On a values file `tofu plan` reads only when told (`prod.tfvars`): a
/// lens that adds it to, or takes it out of, the files plan's checks read
/// in its directory ([`TOGGLE_VAR_FILE`]).
fn values_file_lens(session: &Session, path: &Path, uri: &Uri) -> Option<CodeLens> {
    let dir = path.parent()?;
    let name = path.file_name()?.to_str()?;
    if !is_values_file(name) || is_auto_values_file(name) {
        return None;
    }
    let read = session.var_files_of(dir).iter().any(|file| file == name);
    let title = if read {
        "Plan checks read this file (-var-file) · stop"
    } else {
        "Plan checks: read this file as -var-file"
    };
    Some(CodeLens {
        range: Range::default(),
        command: Some(Command {
            title: title.to_owned(),
            command: TOGGLE_VAR_FILE.to_owned(),
            arguments: Some(vec![serde_json::json!(uri)]),
        }),
        data: None,
    })
}

//! Requests for override-aware editing: inlay hints, code lenses,
//! completion and rename (the last two across the module boundary too:
//! they bring in the called or calling modules first). The engine (`tofu_ide`) decides what to show; this module only
//! converts byte offsets to positions and engine items to protocol items.

use std::sync::Arc;

use tofu_ide::RenameRefused;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;

use crate::requests::{guarded, line_map, prepare, prepare_across, Reach};
use crate::server::Shared;
use crate::to_proto::Converter;

pub async fn inlay_hint(
    shared: &Arc<Shared>,
    params: InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    guarded("inlayHint", || {
        let map = line_map(&analysis, &path, encoding)?;
        let range = map.text_range(params.range);
        let hints = analysis.inlay_hints(&path, range);
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

pub async fn code_lens(
    shared: &Arc<Shared>,
    params: CodeLensParams,
) -> Result<Option<Vec<CodeLens>>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    guarded("codeLens", || {
        let map = line_map(&analysis, &path, encoding)?;
        let lenses = analysis.code_lenses(&path);
        let mut converter = Converter::new(&shared.session());
        let uri = converter.uri_for(&path)?;
        Some(
            lenses
                .iter()
                .map(|lens| {
                    let range = map.range(lens.range);
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

pub async fn completion(
    shared: &Arc<Shared>,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>> {
    let position = params.text_document_position;
    let Some((path, analysis, encoding)) = prepare_across(
        shared,
        &position.text_document.uri,
        position.position,
        Reach::Typing,
    )
    .await
    else {
        return Ok(None);
    };
    guarded("completion", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(position.position)?;
        let items = analysis.completions(&path, offset);
        Some(CompletionResponse::Array(
            items
                .iter()
                .map(|item| CompletionItem {
                    label: item.label.clone(),
                    kind: Some(completion_kind(item.kind)),
                    detail: item.detail.clone(),
                    text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                        range: map.range(item.replace),
                        new_text: item.insert_text.clone(),
                    })),
                    ..CompletionItem::default()
                })
                .collect(),
        ))
    })
}

fn completion_kind(kind: tofu_ide::CompletionKind) -> CompletionItemKind {
    match kind {
        tofu_ide::CompletionKind::Block => CompletionItemKind::CLASS,
        tofu_ide::CompletionKind::Argument => CompletionItemKind::PROPERTY,
        tofu_ide::CompletionKind::NestedBlock => CompletionItemKind::STRUCT,
        tofu_ide::CompletionKind::Variable => CompletionItemKind::VARIABLE,
        tofu_ide::CompletionKind::Local => CompletionItemKind::CONSTANT,
        tofu_ide::CompletionKind::Module => CompletionItemKind::MODULE,
        tofu_ide::CompletionKind::Output => CompletionItemKind::FIELD,
    }
}

pub async fn prepare_rename(
    shared: &Arc<Shared>,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    let prepared = guarded("prepareRename", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(params.position)?;
        Some(
            analysis
                .prepare_rename(&path, offset)
                .map(
                    |(range, placeholder)| PrepareRenameResponse::RangeWithPlaceholder {
                        range: map.range(range),
                        placeholder,
                    },
                ),
        )
    })?;
    match prepared {
        None => Ok(None),
        Some(Ok(response)) => Ok(Some(response)),
        Some(Err(message)) => Err(refused(message)),
    }
}

pub async fn rename(shared: &Arc<Shared>, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let position = params.text_document_position;
    let Some((path, analysis, encoding)) = prepare_across(
        shared,
        &position.text_document.uri,
        position.position,
        Reach::Callers,
    )
    .await
    else {
        return Ok(None);
    };
    let renamed = guarded("rename", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(position.position)?;
        Some(analysis.rename(&path, offset, &params.new_name))
    })?;
    match renamed {
        None => Ok(None),
        Some(Err(message)) => Err(refused(message)),
        Some(Ok(edits)) => Ok(Converter::new(&shared.session()).workspace_edit(&edits)),
    }
}

/// LSP's `RequestFailed`: the request was valid, but the server cannot do it.
const REQUEST_FAILED: i64 = -32803;

/// A rename the engine refuses, as an error the client shows: a new name
/// that is not an identifier is an invalid parameter; anything else (nothing
/// to rename there, a duplicate, a caller's name) a request that failed.
fn refused(refusal: RenameRefused) -> Error {
    let code = match refusal {
        RenameRefused::InvalidName(_) => ErrorCode::InvalidParams,
        RenameRefused::NotPossible(_) => ErrorCode::ServerError(REQUEST_FAILED),
    };
    Error {
        code,
        message: refusal.to_string().into(),
        data: None,
    }
}

//! `textDocument/completion`: the engine's items at the cursor (block
//! types, arguments, names after `var.`, `local.`, `module.`, built-in
//! and provider functions as snippets with their description, and
//! `provider::NAME::` namespaces as modules), also from the called module
//! of a block being typed, each replacing the word it completes. `.` and
//! `:` trigger it (`initialize.rs`).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, CompletionTextEdit,
    Documentation, InsertTextFormat, MarkupContent, MarkupKind, TextEdit,
};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>> {
    let position = params.text_document_position;
    let Some(at) = prepare_position(
        shared,
        "completion",
        &position,
        RelatedModules::CalledAsTyped,
    )
    .await?
    else {
        return Ok(None);
    };
    guarded("completion", || {
        let items = at.analysis.completions(&at.path, at.offset);
        Some(CompletionResponse::Array(
            items
                .iter()
                .map(|item| CompletionItem {
                    label: item.label.clone(),
                    kind: Some(completion_kind(item.kind)),
                    detail: item.detail.clone(),
                    documentation: item.documentation().map(|value| {
                        Documentation::MarkupContent(MarkupContent {
                            kind: MarkupKind::Markdown,
                            value,
                        })
                    }),
                    insert_text_format: item.is_snippet().then_some(InsertTextFormat::SNIPPET),
                    text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                        range: at.line_map.range(item.replace),
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
        tofu_ide::CompletionKind::Function => CompletionItemKind::FUNCTION,
        tofu_ide::CompletionKind::FunctionNamespace => CompletionItemKind::MODULE,
        tofu_ide::CompletionKind::Keyword => CompletionItemKind::KEYWORD,
        tofu_ide::CompletionKind::Directory => CompletionItemKind::FOLDER,
        tofu_ide::CompletionKind::Source => CompletionItemKind::MODULE,
    }
}

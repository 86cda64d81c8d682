//! `textDocument/codeAction`: the engine's quick fixes for the diagnostics
//! in a range (and, for a failed validation, "Go to the value", which runs
//! `tofuLens.showValue`), then the refactorings of the blocks it touches (a refused
//! one as a disabled action with its reason, for clients that show them).
//! A client's `only` filter is honoured: a kind is sent when it falls under
//! one of the kinds asked for (`refactor` covers `refactor.move`).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_document, related_modules, PreparedDocument};
use crate::shared::Shared;
use crate::to_proto::Converter;
use tofu_ide::dir_and_file_name;

pub async fn handle(
    shared: &Arc<Shared>,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let name = "codeAction";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    // The modules calling this one: a refactoring may write there.
    let related = guarded("related modules", || {
        document.analysis.refactoring_dirs(&document.path)
    })
    .unwrap_or_default();
    let document = match dir_and_file_name(&document.path) {
        Some((own_dir, _)) if !related.is_empty() => {
            let modules = related_modules(shared, &own_dir, related).await;
            PreparedDocument {
                analysis: document.analysis.with_modules(modules),
                ..document
            }
        }
        _ => document,
    };
    guarded(name, || {
        let path = &document.path;
        let range = document.line_map.text_range(params.range)?;
        let text = document.analysis.file_text(path)?;
        let wanted = |kind: &CodeActionKind| {
            params.context.only.as_ref().is_none_or(|only| {
                only.iter().any(|asked| {
                    let asked = asked.as_str();
                    kind.as_str() == asked
                        || kind
                            .as_str()
                            .strip_prefix(asked)
                            .is_some_and(|rest| rest.starts_with('.'))
                })
            })
        };
        let mut converter = Converter::new(&shared.session());
        let mut actions: Vec<CodeActionOrCommand> = Vec::new();
        if wanted(&CodeActionKind::QUICKFIX) {
            actions.extend(
                document
                    .analysis
                    .code_actions(path, range)
                    .iter()
                    .filter_map(|action| converter.code_action(action, path, &text))
                    .map(CodeActionOrCommand::CodeAction),
            );
            actions.extend(
                document
                    .analysis
                    .value_sources(path, range)
                    .iter()
                    .filter_map(|source| converter.go_to_value(source, path, &text))
                    .map(CodeActionOrCommand::CodeAction),
            );
        }
        if wanted(&crate::to_proto::REFACTOR_MOVE)
            || wanted(&CodeActionKind::REFACTOR_REWRITE)
            || wanted(&CodeActionKind::REFACTOR_EXTRACT)
        {
            actions.extend(
                document
                    .analysis
                    .refactorings(path, range)
                    .iter()
                    .filter_map(|refactoring| converter.refactoring(refactoring))
                    .filter(|action| action.kind.as_ref().is_some_and(wanted))
                    .map(CodeActionOrCommand::CodeAction),
            );
        }
        Some(actions)
    })
}

//! `textDocument/completion`: the engine's items at the cursor (block
//! types, arguments, names after `var.`, `local.`, `module.`, built-in
//! and provider functions as snippets with their description, and
//! `provider::NAME::` namespaces as modules; at the top level, the
//! keywords that start a block, as snippets of the whole block; in a
//! `source` string, local module directories and installed sources), also
//! from the called module of a block being typed, each replacing the word
//! it completes. `.` and `:` trigger it (`initialize.rs`).
//!
//! In the `source` of a `required_providers` entry the engine offers the
//! providers installed or cached for the module, which it cannot read
//! itself: they are listed here, off the async threads, through the
//! session's `tofu_vfs::schemas::SchemaSource` (the roots' `.terraform/
//! providers`, the plugin cache, mirrors, the schema cache), only when the
//! engine asks ([`tofu_ide::Snapshot::completion_provider_dir`]).
//!
//! A client that does not announce snippet support
//! (`completionItem.snippetSupport`) gets every snippet as plain text: the
//! placeholders' default text, without tab stops ([`plain_text`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_ide::InstalledProvider;
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
    let provider_dir = guarded("completion", || {
        at.analysis.completion_provider_dir(&at.path, at.offset)
    })?;
    let installed = match provider_dir {
        Some(dir) => installed_providers(shared, dir).await,
        None => Vec::new(),
    };
    let snippets = shared.session().support().snippets;
    guarded("completion", || {
        let items = at
            .analysis
            .completions_with_providers(&at.path, at.offset, &installed);
        Some(CompletionResponse::Array(
            items
                .iter()
                .map(|item| {
                    let snippet = item.is_snippet() && snippets;
                    let new_text = if item.is_snippet() && !snippets {
                        plain_text(&item.insert_text)
                    } else {
                        item.insert_text.clone()
                    };
                    CompletionItem {
                        label: item.label.clone(),
                        kind: Some(completion_kind(item.kind)),
                        detail: item.detail.clone(),
                        documentation: item.documentation().map(|value| {
                            Documentation::MarkupContent(MarkupContent {
                                kind: MarkupKind::Markdown,
                                value,
                            })
                        }),
                        insert_text_format: snippet.then_some(InsertTextFormat::SNIPPET),
                        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                            range: at.line_map.range(item.replace),
                            new_text,
                        })),
                        ..CompletionItem::default()
                    }
                })
                .collect(),
        ))
    })
}

/// The provider packages installed or cached for `dir`, read from the disk
/// on a blocking thread; none when that fails.
async fn installed_providers(shared: &Arc<Shared>, dir: PathBuf) -> Vec<InstalledProvider> {
    let worker = Arc::clone(shared);
    let listed = tokio::task::spawn_blocking(move || {
        let callers =
            |called: &Path| -> Vec<PathBuf> { worker.session().host().callers(called).to_vec() };
        worker.schema_source.installed_providers(&dir, &callers)
    })
    .await;
    match listed {
        Ok(listed) => listed
            .into_iter()
            .map(|(address, version)| InstalledProvider { address, version })
            .collect(),
        Err(error) => {
            tracing::error!("listing the installed providers failed: {error}");
            Vec::new()
        }
    }
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

/// A snippet as plain text, for a client without snippets: each
/// placeholder's default text (`${1:name}` is `name`), tab stops (`$1`,
/// `${2}`, `$0`) left out, escapes (`\$`, `\}`, `\\`) undone, and the
/// blanks a left-out tab stop leaves at the end of a line removed.
fn plain_text(snippet: &str) -> String {
    let mut out = String::with_capacity(snippet.len());
    let mut chars = snippet.chars().peekable();
    // Placeholders open at this point, whose `}` ends their default text.
    let mut open = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.peek() {
                Some(&escaped @ ('$' | '}' | '\\')) => {
                    out.push(escaped);
                    chars.next();
                }
                _ => out.push(c),
            },
            '$' if chars.peek().is_some_and(char::is_ascii_digit) => {
                while chars.next_if(char::is_ascii_digit).is_some() {}
            }
            '$' if chars.peek() == Some(&'{') => {
                chars.next();
                while chars.next_if(char::is_ascii_digit).is_some() {}
                match chars.next() {
                    Some(':') => open += 1,
                    Some('}') | None => {}
                    Some(other) => out.push(other),
                }
            }
            '}' if open > 0 => open -= 1,
            _ => out.push(c),
        }
    }
    out.split('\n')
        .map(|line| if line.trim().is_empty() { "" } else { line })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn a_snippet_as_plain_text_keeps_the_default_texts() {
        assert_eq!(
            plain_text("resource \"${1:type}\" \"${2:name}\" {\n  $0\n}"),
            "resource \"type\" \"name\" {\n\n}"
        );
        assert_eq!(
            plain_text("module \"${1:name}\" {\n  source = \"$2\"\n  $0\n}"),
            "module \"name\" {\n  source = \"\"\n\n}"
        );
        assert_eq!(plain_text("upper(${1:str})"), "upper(str)");
        assert_eq!(
            plain_text("a ${1} \\$x \\} \\\\ ${2:b ${3:c}}"),
            "a  $x } \\ b c"
        );
        assert_eq!(plain_text("x = {\n  y = 1\n}"), "x = {\n  y = 1\n}");
    }
}

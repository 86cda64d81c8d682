//! `initialize`: what the client can do, the position encoding, the
//! workspace folders, the settings the client passed and the project's
//! `.tofu-lens.toml`, and the capabilities the server offers (the settings
//! pull, file watching and the first scan follow in `initialized`).

use std::path::PathBuf;
use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use crate::client_requests::show_problems;
use crate::position::PositionEncoding;
use crate::semantic_tokens;
use crate::session::ClientSupport;
use crate::settings::Settings;
use crate::shared::Shared;
use crate::uri;

pub fn handle(shared: &Arc<Shared>, params: InitializeParams) -> InitializeResult {
    let capabilities = &params.capabilities;
    let encoding = PositionEncoding::negotiate(
        capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_deref()),
    );
    let workspace = capabilities.workspace.as_ref();
    let diagnostic_refresh = workspace
        .and_then(|w| w.diagnostics.as_ref())
        .and_then(|d| d.refresh_support)
        .unwrap_or(false);
    let support = ClientSupport {
        // Pull only from clients the server can ask to pull again: without
        // `workspace/diagnostic/refresh` (Neovim 0.11, Helix) a change on disk
        // or in another file would never reach the editor, so they get pushes.
        pull_diagnostics: diagnostic_refresh
            && capabilities
                .text_document
                .as_ref()
                .is_some_and(|text| text.diagnostic.is_some()),
        diagnostic_refresh,
        // A registration is only worth trusting from a client that watches
        // the disk for it: Helix (25.07) accepts one but reports only the
        // files it writes itself, so a `git checkout` would go unseen; the
        // server watches the disk itself for it.
        watched_files_registration: workspace
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false)
            && !client_reports_only_its_own_writes(params.client_info.as_ref()),
        configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
        work_done_progress: capabilities
            .window
            .as_ref()
            .and_then(|window| window.work_done_progress)
            .unwrap_or(false),
        // Resource operations travel only in `documentChanges`, so a client
        // listing `create` takes them there even when it does not say
        // `documentChanges: true` (Neovim 0.11 applies them and says
        // only the former).
        create_files: workspace
            .and_then(|w| w.workspace_edit.as_ref())
            .is_some_and(|edit| {
                edit.resource_operations
                    .as_ref()
                    .is_some_and(|ops| ops.contains(&ResourceOperationKind::Create))
            }),
        disabled_code_actions: capabilities
            .text_document
            .as_ref()
            .and_then(|text| text.code_action.as_ref())
            .and_then(|action| action.disabled_support)
            .unwrap_or(false),
        snippets: capabilities
            .text_document
            .as_ref()
            .and_then(|text| text.completion.as_ref())
            .and_then(|completion| completion.completion_item.as_ref())
            .and_then(|item| item.snippet_support)
            .unwrap_or(false),
    };
    let mut folders: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|folder| uri::to_path(&folder.uri))
        .collect();
    #[allow(deprecated)] // `root_uri` is the fallback for clients without workspace folders.
    if folders.is_empty() {
        folders.extend(params.root_uri.as_ref().and_then(uri::to_path));
    }
    // The workspace's .tofu-lens.toml, read before the session is locked.
    let project = folders
        .first()
        .and_then(|folder| tofu_vfs::find_project_config(folder));
    let defaults = project
        .as_ref()
        .map_or_else(Settings::default, Settings::from_project);
    let mut problems = project.map(|project| project.problems).unwrap_or_default();
    let parsed = params
        .initialization_options
        .as_ref()
        .and_then(|options| Settings::from_json(options, &defaults));
    let (settings, settings_problems) = parsed.unwrap_or_else(|| (defaults.clone(), Vec::new()));
    problems.extend(settings_problems);
    shared
        .session()
        .initialize(encoding, support, folders, settings, defaults);
    if !problems.is_empty() {
        let shared = Arc::clone(shared);
        tokio::spawn(async move { show_problems(&shared, problems).await });
    }
    tracing::info!("initialize: {encoding:?} positions, {support:?}");
    InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            workspace_symbol_provider: Some(OneOf::Left(true)),
            inlay_hint_provider: Some(OneOf::Left(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            document_range_formatting_provider: Some(OneOf::Left(true)),
            semantic_tokens_provider: Some(semantic_tokens::capability()),
            document_highlight_provider: Some(OneOf::Left(true)),
            document_link_provider: Some(DocumentLinkOptions {
                resolve_provider: Some(false),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            }),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            })),
            code_lens_provider: Some(CodeLensOptions {
                resolve_provider: Some(false),
            }),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: crate::commands::COMMANDS
                    .iter()
                    .map(|command| (*command).to_owned())
                    .collect(),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            }),
            completion_provider: Some(CompletionOptions {
                // `:` completes `provider::` and `provider::NAME::` as
                // typed; the engine answers nothing after a `:` that ends
                // no such name and stands for no expression.
                trigger_characters: Some(vec![".".to_owned(), ":".to_owned()]),
                ..CompletionOptions::default()
            }),
            signature_help_provider: Some(SignatureHelpOptions {
                trigger_characters: Some(vec!["(".to_owned(), ",".to_owned()]),
                ..SignatureHelpOptions::default()
            }),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    crate::to_proto::REFACTOR_MOVE,
                    CodeActionKind::REFACTOR_REWRITE,
                    CodeActionKind::REFACTOR_EXTRACT,
                ]),
                ..CodeActionOptions::default()
            })),
            diagnostic_provider: support.pull_diagnostics.then(|| {
                DiagnosticServerCapabilities::Options(DiagnosticOptions {
                    identifier: Some("tofu-lens".to_owned()),
                    inter_file_dependencies: true,
                    workspace_diagnostics: true,
                    ..DiagnosticOptions::default()
                })
            }),
            workspace: Some(WorkspaceServerCapabilities {
                workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "tofu-lens".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
        offset_encoding: None,
    }
}

/// Clients whose file watching covers only the files they write themselves.
fn client_reports_only_its_own_writes(client: Option<&ClientInfo>) -> bool {
    client.is_some_and(|client| client.name.eq_ignore_ascii_case("helix"))
}

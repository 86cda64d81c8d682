//! The dispatch table: one `LanguageServer` implementation whose methods
//! each hand their parameters to one handler module of `requests` or
//! `notifications`, with the state they share ([`Shared`]).
//!
//! Capabilities (in `requests/initialize.rs`) follow `server.md` §Protocol:
//! incremental sync with open, close and save; UTF-8 positions when the
//! client offers them, UTF-16 otherwise; pull diagnostics when the client
//! supports them, push otherwise.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::notifications::{
    did_change, did_change_configuration, did_change_watched_files, did_change_workspace_folders,
    did_close, did_open, did_save, initialized,
};
use crate::options::ServerOptions;
use crate::panic_guard::guarded;
use crate::requests::{
    code_action, code_lens, completion, definition, document_diagnostic, document_highlight,
    document_link, document_symbol, execute_command, folding_range, formatting, hover, initialize,
    inlay_hint, prepare_rename, range_formatting, references, rename, selection_range,
    semantic_tokens_full, semantic_tokens_range, signature_help, workspace_diagnostic,
    workspace_symbol,
};
use crate::shared::Shared;

#[derive(Debug)]
pub struct Server {
    shared: Arc<Shared>,
}

impl Server {
    pub fn new(client: Client, options: ServerOptions) -> Server {
        Server {
            shared: Arc::new(Shared::new(client, options)),
        }
    }

    /// `tofuLens/panic`: a request that panics, to show the guard at work.
    pub async fn test_panic(&self) -> Result<Option<()>> {
        if !self.shared.options.test_hooks {
            return Err(tower_lsp_server::jsonrpc::Error::method_not_found());
        }
        guarded("tofuLens/panic", || -> Option<()> {
            panic!("tofuLens/panic was asked to panic")
        })
    }
}

impl Server {
    /// `tofuLens/settled`: answers once no background work is under way
    /// (the workspace scan, analyses and publications, schema reads,
    /// validator rounds), with the number of `publishDiagnostics` sent so
    /// far (`{"publications": N}`), so a test compares what was published
    /// when the server had nothing left to do, without waiting a fixed
    /// time: the answer may overtake the last notifications, the count
    /// tells the client how many to read.
    /// `window/workDoneProgress/cancel` (tower-lsp-server does not route
    /// it): stops the fetch whose progress the user cancelled.
    pub async fn work_done_progress_cancel(
        &self,
        params: tower_lsp_server::ls_types::WorkDoneProgressCancelParams,
    ) {
        crate::provider_fetch::cancel(&self.shared, &params.token);
    }

    pub async fn test_settled(&self) -> Result<serde_json::Value> {
        if !self.shared.options.test_hooks {
            return Err(tower_lsp_server::jsonrpc::Error::method_not_found());
        }
        self.shared.activity.settled().await;
        let publications = self
            .shared
            .activity
            .publications
            .load(std::sync::atomic::Ordering::SeqCst);
        Ok(serde_json::json!({ "publications": publications }))
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(initialize::handle(&self.shared, params))
    }

    async fn initialized(&self, _: InitializedParams) {
        initialized::handle(&self.shared).await;
    }

    async fn shutdown(&self) -> Result<()> {
        tracing::info!("shutting down");
        crate::provider_validators::shut_down(&self.shared).await;
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        did_open::handle(&self.shared, params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        did_change::handle(&self.shared, params);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        did_save::handle(&self.shared, params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        did_close::handle(&self.shared, params);
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        did_change_watched_files::handle(&self.shared, params);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        did_change_configuration::handle(&self.shared, params).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        did_change_workspace_folders::handle(&self.shared, params);
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        hover::handle(&self.shared, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        definition::handle(&self.shared, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        references::handle(&self.shared, params).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        document_symbol::handle(&self.shared, params).await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        workspace_symbol::handle(&self.shared, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        code_action::handle(&self.shared, params).await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        document_diagnostic::handle(&self.shared, params).await
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        workspace_diagnostic::handle(&self.shared, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        inlay_hint::handle(&self.shared, params).await
    }

    async fn execute_command(
        &self,
        params: ExecuteCommandParams,
    ) -> Result<Option<serde_json::Value>> {
        execute_command::handle(&self.shared, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        code_lens::handle(&self.shared, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        completion::handle(&self.shared, params).await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        signature_help::handle(&self.shared, params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        prepare_rename::handle(&self.shared, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        rename::handle(&self.shared, params).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        formatting::handle(&self.shared, params).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        range_formatting::handle(&self.shared, params).await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        semantic_tokens_full::handle(&self.shared, params).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        semantic_tokens_range::handle(&self.shared, params).await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        document_highlight::handle(&self.shared, params).await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        document_link::handle(&self.shared, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        folding_range::handle(&self.shared, params).await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        selection_range::handle(&self.shared, params).await
    }
}

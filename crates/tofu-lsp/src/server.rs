//! The protocol surface: one `LanguageServer` implementation whose methods
//! read as a table, each delegating to [`crate::notifications`] or
//! [`crate::requests`], plus the state they share.
//!
//! Capabilities follow `server.md` §Protocol: incremental sync with open,
//! close and save; UTF-8 positions when the client offers them, UTF-16
//! otherwise; pull diagnostics when the client supports them, push otherwise.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::session::Session;
use crate::settings::Settings;
use crate::{
    document_requests, editing, formatting, initialize, notifications, requests, semantic_tokens,
};

/// How the server behaves beyond what the client configures.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// How long a directory waits after a change before it is analysed, so a
    /// burst of keystrokes costs one analysis.
    pub debounce: Duration,
    /// Enables the `tofuLens/panic` request, which panics inside a request
    /// handler (for tests of the panic guard).
    pub test_hooks: bool,
    /// A pause before each changed path is looked at on disk: simulates a
    /// slow disk in tests (zero otherwise).
    pub disk_delay: Duration,
    /// How many directories a walk of one workspace folder (or of a directory
    /// created in it) may visit. A folder such as `/` or a home directory
    /// stops there, with a message; what was found is still analysed.
    pub max_walk_dirs: usize,
    /// How many module directories without open documents keep their full
    /// analysis (syntax trees, merged configuration, analysis cache), the most
    /// recently used; every other directory keeps its diagnostics, symbols
    /// and module calls only, and is analysed again when a request needs
    /// more. Bounds the server's memory on a large workspace.
    pub full_analyses_kept: usize,
}

/// The default of [`ServerOptions::max_walk_dirs`]: more directories than a
/// large monorepo has once `.git`, `.terraform`, `node_modules` and hidden
/// directories are skipped, and a walk that takes about a second.
pub const MAX_WALK_DIRS: usize = 20_000;

/// The default of [`ServerOptions::full_analyses_kept`]: enough for the
/// modules a person moves between (a root module and the modules it calls),
/// few enough that a monorepo costs its summaries, not its syntax trees.
pub const FULL_ANALYSES_KEPT: usize = 16;

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            debounce: Duration::from_millis(30),
            test_hooks: false,
            disk_delay: Duration::ZERO,
            max_walk_dirs: MAX_WALK_DIRS,
            full_analyses_kept: FULL_ANALYSES_KEPT,
        }
    }
}

/// What every handler and background task shares.
#[derive(Debug)]
pub struct Shared {
    pub client: Client,
    pub options: ServerOptions,
    session: Mutex<Session>,
    /// Our own file watcher, apart from the session: adding a large folder to
    /// it takes a while, and handlers must not wait for that.
    pub disk_watcher: Mutex<DiskWatcher>,
    /// The disk-change queue ([`crate::workspace::queue_disk_changes`]),
    /// started with the first change.
    pub disk_changes: OnceLock<tokio::sync::mpsc::UnboundedSender<Vec<PathBuf>>>,
    /// One permit per core for running analyses: indexing a large workspace
    /// analyses as many directories at once as there are cores, not one per
    /// blocking thread, so the memory in flight is that of a few directories.
    pub analyses_in_flight: tokio::sync::Semaphore,
    tokens: AtomicU64,
}

/// The server's own file watching, for clients that do not watch files.
#[derive(Debug, Default)]
pub struct DiskWatcher {
    /// True when the client does not watch files for us.
    pub enabled: bool,
    /// Started with the first folder it watches.
    pub watcher: Option<notify::RecommendedWatcher>,
    /// The folders it watches, recursively.
    pub folders: BTreeSet<PathBuf>,
}

impl Shared {
    /// The session, locked. Never hold the guard across an `.await`.
    pub fn session(&self) -> MutexGuard<'_, Session> {
        self.session
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Our own file watcher, locked. Never hold the guard across an `.await`.
    pub fn disk_watcher(&self) -> MutexGuard<'_, DiskWatcher> {
        self.disk_watcher
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn next_token(&self) -> u64 {
        self.tokens.fetch_add(1, Ordering::Relaxed)
    }
}

#[derive(Debug)]
pub struct Server {
    pub(crate) shared: Arc<Shared>,
}

impl Server {
    pub fn new(client: Client, options: ServerOptions) -> Server {
        let full_analyses_kept = options.full_analyses_kept;
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        Server {
            shared: Arc::new(Shared {
                client,
                options,
                analyses_in_flight: tokio::sync::Semaphore::new(cores),
                session: Mutex::new(Session::new(Settings::default(), full_analyses_kept)),
                disk_watcher: Mutex::new(DiskWatcher::default()),
                disk_changes: OnceLock::new(),
                tokens: AtomicU64::new(0),
            }),
        }
    }

    /// `tofuLens/panic`: a request that panics, to show the guard at work.
    pub async fn test_panic(&self) -> Result<Option<()>> {
        if !self.shared.options.test_hooks {
            return Err(tower_lsp_server::jsonrpc::Error::method_not_found());
        }
        requests::guarded("tofuLens/panic", || -> Option<()> {
            panic!("tofuLens/panic was asked to panic")
        })
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(initialize::initialize(&self.shared, params))
    }

    async fn initialized(&self, _: InitializedParams) {
        initialize::initialized(&self.shared).await;
    }

    async fn shutdown(&self) -> Result<()> {
        tracing::info!("shutting down");
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        notifications::did_open(&self.shared, params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        notifications::did_change(&self.shared, params);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        notifications::did_save(&self.shared, params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        notifications::did_close(&self.shared, params);
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        notifications::did_change_watched_files(&self.shared, params);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        notifications::did_change_configuration(&self.shared, params).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        notifications::did_change_workspace_folders(&self.shared, params);
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        requests::hover(&self.shared, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        requests::goto_definition(&self.shared, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        requests::references(&self.shared, params).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        requests::document_symbol(&self.shared, params).await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        requests::workspace_symbol(&self.shared, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        requests::code_action(&self.shared, params).await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        requests::document_diagnostic(&self.shared, params).await
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        requests::workspace_diagnostic(&self.shared, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        editing::inlay_hint(&self.shared, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        editing::code_lens(&self.shared, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        editing::completion(&self.shared, params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        editing::prepare_rename(&self.shared, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        editing::rename(&self.shared, params).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        formatting::formatting(&self.shared, params).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        formatting::range_formatting(&self.shared, params).await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        semantic_tokens::full(&self.shared, params).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        semantic_tokens::range(&self.shared, params).await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        document_requests::document_highlight(&self.shared, params).await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        document_requests::document_link(&self.shared, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        document_requests::folding_range(&self.shared, params).await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        document_requests::selection_range(&self.shared, params).await
    }
}

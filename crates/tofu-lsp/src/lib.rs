//! The Language Server Protocol side of tofu-lens, and only that: open
//! documents, position-encoding negotiation and conversion (one
//! module), settings, workspace scanning and file watching, and when to
//! analyse and publish per module directory.
//!
//! Analysis lives in `tofu-ide` and below, formatting in `tofu-fmt`; this
//! crate knows nothing of HCL.
//! State is a [`session::Session`] behind one short-held lock; handlers change
//! it before their first `.await`, and analysis runs outside the lock. Logs go
//! through `tracing` (the binary sends them to stderr); nothing here prints,
//! and nothing here writes files.

mod document;
mod document_requests;
mod editing;
mod formatting;
mod initialize;
mod notifications;
pub mod position;
mod requests;
mod scheduler;
mod semantic_tokens;
mod server;
mod session;
mod settings;
mod to_proto;
mod uri;
mod workspace;

pub use server::{Server, ServerOptions, MAX_WALK_DIRS};
pub use settings::{DiagnosticsScope, Settings};

use tower_lsp_server::{ClientSocket, LspService};

/// The service, ready to be served over any transport.
pub fn service(options: ServerOptions) -> (LspService<Server>, ClientSocket) {
    LspService::build(move |client| Server::new(client, options))
        .custom_method("tofuLens/panic", Server::test_panic)
        .finish()
}

/// Serves LSP over stdin and stdout until `exit`.
pub async fn serve_stdio(options: ServerOptions) {
    let (service, socket) = service(options);
    tower_lsp_server::Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
        .serve(service)
        .await;
}

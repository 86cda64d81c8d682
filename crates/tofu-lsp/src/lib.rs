//! The Language Server Protocol side of tofu-lens, and only that: open
//! documents, position-encoding negotiation and conversion (one
//! module), settings, workspace scanning and file watching, and when to
//! analyse and publish per module directory.
//!
//! Analysis lives in `tofu-ide` and below, formatting in `tofu-fmt`; this
//! crate knows nothing of HCL.
//!
//! `server.rs` is the dispatch table; each LSP method has its handler module
//! in `requests/` or `notifications/`, which import only what lies below
//! them: the shared state (`shared::Shared`, with the `session::Session`
//! behind one short-held lock), request preparation (`prepare.rs`), the
//! scheduler and the conversions. Handlers change the session before their
//! first `.await`, and analysis runs outside the lock. Logs go through
//! `tracing` (the binary sends them to stderr); nothing here prints, and
//! nothing here writes files.
//!
//! What the server reads from the disk: the workspace folders, each read
//! confined to its folder (links out of it refused, `SECURITY.md`); and
//! one thing OpenTofu itself reads beyond them, a module directory that a
//! published directory calls by a local path (`source = "../../"` from an
//! example opened as the workspace), confined to that directory, analysed
//! and published as `check` reports it (`scheduler::called_only_dirs`);
//! it is not watched, so a change there is seen when a caller reads it
//! again (its manifest changes, or the workspace is scanned again).
//! The files functions read (`file("x")`) are read inside the directory's
//! confinement root as well; a path leading out of it is unknown, as on
//! hover.

mod client_requests;
mod commands;
mod configuration;
mod document;
mod folder_watcher;
#[cfg(target_os = "linux")]
mod inotify_watcher;
mod notifications;
mod options;
mod panic_guard;
pub mod position;
mod prepare;
mod provider_fetch;
mod provider_schemas;
mod provider_validators;
mod requests;
mod scheduler;
mod scheduling;
mod semantic_tokens;
mod server;
mod session;
mod settings;
mod shared;
mod stdout_writer;
mod to_proto;
mod uri;
mod workspace;

pub use options::{DiskGate, ServerOptions, MAX_WALK_DIRS};
pub use server::Server;
pub use settings::{DiagnosticsScope, Settings};

use tower_lsp_server::{ClientSocket, LspService};

/// The service, ready to be served over any transport.
pub fn service(options: ServerOptions) -> (LspService<Server>, ClientSocket) {
    LspService::build(move |client| Server::new(client, options))
        .custom_method("tofuLens/panic", Server::test_panic)
        .custom_method("tofuLens/settled", Server::test_settled)
        .custom_method(
            "window/workDoneProgress/cancel",
            Server::work_done_progress_cancel,
        )
        .finish()
}

/// Serves LSP over stdin and stdout until `exit`.
pub async fn serve_stdio(options: ServerOptions) {
    let (service, socket) = service(options);
    match stdout_writer::spawn(std::io::stdout()) {
        Ok((stdout, writer)) => {
            tower_lsp_server::Server::new(tokio::io::stdin(), stdout, socket)
                .serve(service)
                .await;
            // The transport is gone: what it flushed is written before
            // the process exits.
            if tokio::task::spawn_blocking(move || writer.join())
                .await
                .is_err()
            {
                tracing::error!("waiting for the stdout writer failed");
            }
        }
        Err(error) => {
            tracing::warn!("no stdout writer thread ({error}); writing through tokio");
            tower_lsp_server::Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
                .serve(service)
                .await;
        }
    }
}

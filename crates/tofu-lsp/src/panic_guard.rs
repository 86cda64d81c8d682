//! The panic guard of request handlers: a query that panics (an engine bug)
//! becomes an error answer and a log line, and the server keeps running.
//!
//! Only the synchronous part of a handler runs under the guard, on the
//! values it was given; the session lock is never held inside it.

use std::panic::AssertUnwindSafe;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

/// Runs `query`, turning a panic into an internal-error answer that names
/// the request.
pub fn guarded<T>(name: &str, query: impl FnOnce() -> T) -> Result<T> {
    std::panic::catch_unwind(AssertUnwindSafe(query)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        tracing::error!("{name} panicked: {message}");
        Error {
            code: ErrorCode::InternalError,
            message: format!("tofu-lens: {name} failed: {message}").into(),
            data: None,
        }
    })
}

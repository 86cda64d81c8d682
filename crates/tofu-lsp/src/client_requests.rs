//! What the server asks or tells the client outside an answer: requests
//! whose answer it waits for only so long ([`answered`]), settings
//! problems shown once each ([`show_problems`]), and `$/progress`
//! ([`begin_progress`]).

use std::sync::Arc;
use std::time::Duration;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{MessageType, ProgressToken};
use tower_lsp_server::{Bounded, Cancellable, NotCancellable, OngoingProgress};

use crate::shared::Shared;

/// How long the server waits for the client to answer one of its requests.
/// A client that never answers must not keep a handler (and so `exit`)
/// waiting forever: tower-lsp-server lets pending handlers finish first.
pub const CLIENT_ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// Awaits the client's answer to a request of the server's, or gives up after
/// [`CLIENT_ANSWER_TIMEOUT`] with an error.
pub async fn answered<T>(request: impl std::future::Future<Output = Result<T>>) -> Result<T> {
    match tokio::time::timeout(CLIENT_ANSWER_TIMEOUT, request).await {
        Ok(result) => result,
        Err(_) => Err(Error {
            code: ErrorCode::RequestCancelled,
            message: "the client did not answer in time".into(),
            data: None,
        }),
    }
}

/// Shows each settings problem once per session.
pub async fn show_problems(shared: &Arc<Shared>, problems: Vec<String>) {
    let fresh: Vec<String> = {
        let mut session = shared.session();
        problems
            .into_iter()
            .filter(|problem| session.first_report(problem))
            .collect()
    };
    for problem in fresh {
        tracing::warn!("{problem}");
        shared
            .client
            .show_message(MessageType::WARNING, problem)
            .await;
    }
}

/// A progress token (`tofu-lens/KIND/N`) the client accepted, when it
/// supports `$/progress`; `None` otherwise.
async fn accepted_token(shared: &Arc<Shared>, kind: &str) -> Option<ProgressToken> {
    if !shared.session().support().work_done_progress {
        return None;
    }
    let token = ProgressToken::String(format!("tofu-lens/{kind}/{}", shared.next_token()));
    match answered(shared.client.create_work_done_progress(token.clone())).await {
        Ok(()) => Some(token),
        Err(error) => {
            tracing::debug!("no progress: {error}");
            None
        }
    }
}

/// Begins a `$/progress` with a percentage when the client supports it and
/// accepts the token (`tofu-lens/KIND/N`); `None` otherwise.
pub async fn begin_progress(
    shared: &Arc<Shared>,
    kind: &str,
    title: &str,
    message: String,
) -> Option<OngoingProgress<Bounded, NotCancellable>> {
    let token = accepted_token(shared, kind).await?;
    Some(
        shared
            .client
            .progress(token, title)
            .with_message(message)
            .with_percentage(0)
            .begin()
            .await,
    )
}

/// [`begin_progress`] with a cancel button (`window/workDoneProgress/cancel`
/// comes back with its token).
pub async fn begin_cancellable_progress(
    shared: &Arc<Shared>,
    kind: &str,
    title: &str,
    message: String,
) -> Option<OngoingProgress<Bounded, Cancellable>> {
    let token = accepted_token(shared, kind).await?;
    Some(
        shared
            .client
            .progress(token, title)
            .with_message(message)
            .with_percentage(0)
            .with_cancel_button()
            .begin()
            .await,
    )
}

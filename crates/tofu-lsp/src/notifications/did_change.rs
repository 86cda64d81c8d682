//! `textDocument/didChange`: incremental changes applied to the open
//! document, whose new text goes to the analysis host; the directories it
//! made stale are scheduled.

use std::sync::Arc;

use tofu_ide::Change;
use tower_lsp_server::ls_types::DidChangeTextDocumentParams;

use crate::scheduler::schedule;
use crate::shared::Shared;
use crate::uri;

/// Applies incremental changes. A change whose version is not above the
/// document's is ignored with a warning: versions only grow (LSP
/// `VersionedTextDocumentIdentifier`), so it is stale or out of order, and
/// applying its ranges to a newer text would garble it.
pub fn handle(shared: &Arc<Shared>, params: DidChangeTextDocumentParams) {
    let Some(path) = uri::to_path(&params.text_document.uri) else {
        return;
    };
    let stale = {
        let mut session = shared.session();
        let encoding = session.encoding();
        let Some(document) = session.document_mut(&path) else {
            return;
        };
        if params.text_document.version <= document.version {
            tracing::warn!(
                "{}: ignored a change to version {}, the document is at version {}",
                path.display(),
                params.text_document.version,
                document.version
            );
            return;
        }
        document.apply_changes(
            params.text_document.version,
            &params.content_changes,
            encoding,
        );
        let text = document.text();
        let version = document.version;
        session.host_mut().apply_change(Change::BufferChanged {
            path,
            text,
            version,
        })
    };
    schedule(shared, stale, true);
}

//! `textDocument/didSave`: the saved file is looked at on disk again (its
//! open buffer keeps hiding the disk's content), through the disk-change
//! queue.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidSaveTextDocumentParams;

use crate::shared::Shared;
use crate::workspace::queue_disk_changes;

pub fn handle(shared: &Arc<Shared>, params: DidSaveTextDocumentParams) {
    let tracked = shared.session().tracked_path(&params.text_document.uri);
    if let Some(path) = tracked {
        queue_disk_changes(shared, vec![path]);
    }
}

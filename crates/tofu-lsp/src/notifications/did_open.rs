//! `textDocument/didOpen`: the document's text takes the disk's place in
//! the analysis host (one copy, shared by the document and the host), and
//! its directory is scheduled, read from disk first when the host does not
//! know it yet, or when it holds links the server did not follow (the
//! document may vouch for them: `tofu_vfs::read_module_dir_vouched`).

use std::sync::Arc;

use tofu_ide::{dir_and_file_name, Change};
use tower_lsp_server::ls_types::DidOpenTextDocumentParams;

use crate::document::Document;
use crate::scheduler::schedule;
use crate::scheduling::Mark;
use crate::shared::Shared;

pub fn handle(shared: &Arc<Shared>, params: DidOpenTextDocumentParams) {
    let document = params.text_document;
    let Some(path) = shared.session().tracked_path(&document.uri) else {
        return;
    };
    let Some((dir, _)) = dir_and_file_name(&path) else {
        return;
    };
    {
        let mut session = shared.session();
        let opened = Document::new(document.uri, document.version, &document.text);
        // The one copy of the text, shared by the document and the host.
        let text = opened.text();
        session.open_document(path.clone(), opened);
        let known = session.host().knows_dir(&dir);
        session.host_mut().apply_change(Change::BufferChanged {
            path,
            text,
            version: document.version,
        });
        // A directory with links the server did not follow is read again:
        // the document may be one of them, opened through its link, which
        // vouches for the files beside its real file (`tofu_vfs`).
        let outside = session
            .host()
            .has_unreadable(&dir, tofu_vfs::OUTSIDE_WORKSPACE);
        if !known || outside {
            session.scheduling_mut().mark(&dir, Mark::DiskRead);
        }
    }
    schedule(shared, [dir], true);
}

//! `textDocument/didClose`: the document is dropped, and what is on disk
//! takes its buffer's place (read with the session unlocked); a directory
//! read with files the document vouched for (it was open through a link,
//! `tofu_vfs::read_module_dir_vouched`) is read again without them.

use std::sync::Arc;

use tofu_ide::{dir_and_file_name, Change};
use tower_lsp_server::ls_types::DidCloseTextDocumentParams;

use crate::scheduler::schedule;
use crate::scheduling::Mark;
use crate::shared::Shared;
use crate::uri;

pub fn handle(shared: &Arc<Shared>, params: DidCloseTextDocumentParams) {
    let Some(path) = uri::to_path(&params.text_document.uri) else {
        return;
    };
    let (mut stale, root) = {
        let mut session = shared.session();
        if session.close_document(&path).is_none() {
            return;
        }
        let mut stale = session
            .host_mut()
            .apply_change(Change::BufferClosed { path: path.clone() });
        let dir = dir_and_file_name(&path).map(|(dir, _)| dir);
        // The files the document vouched for are not read any more.
        if let Some(dir) = dir
            .as_ref()
            .filter(|dir| session.scheduling().read_vouched(dir))
        {
            session.scheduling_mut().mark(dir, Mark::DiskRead);
            stale.push(dir.clone());
        }
        let root = dir.map(|dir| session.confinement_root(&dir));
        (stale, root)
    };
    // What is on disk now takes the buffer's place: read with the session
    // unlocked.
    let change = match root.filter(|_| path.is_file() || path.is_symlink()) {
        Some(root) => Change::DiskFile {
            content: tofu_vfs::read_file_within(&path, &root),
            path,
        },
        None => Change::DiskFileRemoved { path },
    };
    stale.extend(shared.session().host_mut().apply_change(change));
    stale.sort();
    stale.dedup();
    schedule(shared, stale, true);
}

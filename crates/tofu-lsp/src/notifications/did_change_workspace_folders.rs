//! `workspace/didChangeWorkspaceFolders`: a removed folder's directories
//! lose their disk files and its watcher; an added folder is scanned.

use std::path::PathBuf;
use std::sync::Arc;

use tofu_ide::Change;
use tower_lsp_server::ls_types::DidChangeWorkspaceFoldersParams;

use crate::scheduler::schedule;
use crate::shared::Shared;
use crate::uri;
use crate::workspace::{scan_folders, unwatch_folder};

pub fn handle(shared: &Arc<Shared>, params: DidChangeWorkspaceFoldersParams) {
    let added: Vec<PathBuf> = params
        .event
        .added
        .iter()
        .filter_map(|folder| uri::to_path(&folder.uri))
        .collect();
    let removed: Vec<PathBuf> = params
        .event
        .removed
        .iter()
        .filter_map(|folder| uri::to_path(&folder.uri))
        .collect();
    let mut stale = Vec::new();
    {
        let mut session = shared.session();
        for removed in &removed {
            session.remove_folder(removed);
            stale.extend(session.host_mut().apply_change(Change::DiskDirRemoved {
                dir: removed.clone(),
            }));
        }
        session.add_folders(added.iter().cloned());
        stale.extend(session.update_given_values());
    }
    for folder in &removed {
        unwatch_folder(shared, folder);
    }
    schedule(shared, stale, false);
    if !added.is_empty() {
        let busy = shared.activity.begin();
        let shared = Arc::clone(shared);
        tokio::spawn(async move {
            scan_folders(shared, added).await;
            drop(busy);
        });
    }
}

//! `workspace/didChangeWatchedFiles`: the paths go to the disk-change
//! queue, which looks at each as it is now.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeWatchedFilesParams;

use crate::shared::Shared;
use crate::uri;
use crate::workspace::queue_disk_changes;

pub fn handle(shared: &Arc<Shared>, params: DidChangeWatchedFilesParams) {
    let paths = params
        .changes
        .iter()
        .filter_map(|event| uri::to_path(&event.uri))
        .collect();
    queue_disk_changes(shared, paths);
}

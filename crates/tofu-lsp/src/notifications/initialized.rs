//! `initialized`: the settings pull, file watching (registered with the
//! client, or the server's own watcher for clients that do not watch files
//! for servers) and the first scan of the workspace folders.

use std::sync::Arc;

use tower_lsp_server::ls_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, Registration,
};

use crate::client_requests::answered;
use crate::configuration::pull_configuration;
use crate::shared::Shared;
use crate::workspace::scan_folders;

/// The glob `server.md` asks the client to watch.
pub const WATCHED_GLOB: &str = "**/*.{tf,tofu,tf.json,tofu.json,tfvars,tfvars.json,tftest.hcl,tftest.json,tofutest.hcl,tofutest.json}";

/// The module manifest `tofu init` writes (which directory each installed
/// module call reads), watched beside the configuration files.
pub const MANIFEST_GLOB: &str = "**/.terraform/modules/modules.json";

/// What `tofu init` installs providers as: the lock file and the packages
/// under `.terraform/providers` (their schemas are read again when these
/// change).
pub const PROVIDER_INSTALL_GLOBS: [&str; 2] =
    ["**/.terraform.lock.hcl", "**/.terraform/providers/**"];

/// Pulls settings, registers file watching (or decides to watch the disk
/// ourselves: the scan then watches every folder it could walk), then scans
/// the workspace folders in the background.
pub async fn handle(shared: &Arc<Shared>) {
    let (support, folders) = {
        let session = shared.session();
        (session.support(), session.folders().to_vec())
    };
    if support.configuration {
        pull_configuration(shared).await;
    }
    // The values files the initial settings name from elsewhere.
    crate::configuration::refresh_given_values(shared).await;
    if support.watched_files_registration {
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: [WATCHED_GLOB, MANIFEST_GLOB]
                .into_iter()
                .chain(PROVIDER_INSTALL_GLOBS)
                .map(|glob| FileSystemWatcher {
                    glob_pattern: GlobPattern::String(glob.to_owned()),
                    kind: None,
                })
                .collect(),
        };
        let registration = Registration {
            id: "tofu-lens/watched-files".to_owned(),
            method: "workspace/didChangeWatchedFiles".to_owned(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(error) = answered(shared.client.register_capability(vec![registration])).await {
            tracing::warn!("cannot register file watching: {error}; watching files myself");
            shared.disk_watcher().enabled = true;
        }
    } else {
        shared.disk_watcher().enabled = true;
    }
    let busy = shared.activity.begin();
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        scan_folders(shared, folders).await;
        drop(busy);
    });
}

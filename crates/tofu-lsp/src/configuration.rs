//! Settings from the client, applied live: pulled with
//! `workspace/configuration` when the client supports it, and what a new
//! value changes (a new `tofuVersion` re-analyses everything, a new scope
//! republishes everything, a new `exclude` rescans the folders).

use std::sync::Arc;

use tower_lsp_server::ls_types::ConfigurationItem;

use crate::client_requests::{answered, show_problems};
use crate::scheduler::{read_schemas, schedule};
use crate::scheduling::Mark;
use crate::settings::Settings;
use crate::shared::Shared;
use crate::workspace::scan_folders;

/// Asks the client for section `tofuLens`; a missing or `null` answer keeps
/// the current settings.
pub async fn pull_configuration(shared: &Arc<Shared>) {
    let item = ConfigurationItem {
        scope_uri: None,
        section: Some("tofuLens".to_owned()),
    };
    match answered(shared.client.configuration(vec![item])).await {
        Ok(values) => {
            let defaults = shared.session().settings_defaults().clone();
            let parsed = values
                .first()
                .and_then(|value| Settings::from_json(value, &defaults));
            if let Some((settings, problems)) = parsed {
                apply_settings(shared, settings, problems).await;
            }
        }
        Err(error) => tracing::debug!("workspace/configuration failed: {error}"),
    }
}

/// Applies new settings live: a new `tofuVersion` re-analyses everything, a
/// new scope republishes everything, a new `exclude` rescans the folders,
/// new `schemas` settings read every directory's provider schemas again.
pub async fn apply_settings(shared: &Arc<Shared>, settings: Settings, problems: Vec<String>) {
    let (dirs, rescan, schema_dirs) = {
        let mut session = shared.session();
        let old = session.replace_settings(settings.clone());
        let schemas_changed = old.run_providers != settings.run_providers
            || old.schema_files != settings.schema_files;
        let schema_dirs = if schemas_changed {
            shared.schema_source.forget_files();
            session.known_dirs()
        } else {
            Vec::new()
        };
        let mut dirs = Vec::new();
        if old.engine_config() != settings.engine_config() {
            dirs.extend(session.host_mut().set_config(settings.engine_config()));
        }
        if old.scope != settings.scope {
            for dir in session.known_dirs() {
                session.scheduling_mut().mark(&dir, Mark::Republish);
                dirs.push(dir);
            }
        }
        let rescan = (old.exclude != settings.exclude).then(|| {
            for dir in session.known_dirs() {
                session.scheduling_mut().mark(&dir, Mark::DiskRead);
                dirs.push(dir);
            }
            session.folders().to_vec()
        });
        dirs.sort();
        dirs.dedup();
        (dirs, rescan, schema_dirs)
    };
    schedule(shared, dirs, false);
    read_schemas(shared, schema_dirs);
    if let Some(folders) = rescan {
        let busy = shared.activity.begin();
        let shared = Arc::clone(shared);
        tokio::spawn(async move {
            scan_folders(shared, folders).await;
            drop(busy);
        });
    }
    show_problems(shared, problems).await;
}

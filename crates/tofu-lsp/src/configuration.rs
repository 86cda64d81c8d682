//! Settings from the client, applied live: pulled with
//! `workspace/configuration` when the client supports it, and what a new
//! value changes (a new `tofuVersion` re-analyses everything, a new scope
//! republishes everything, a new `exclude` rescans the folders).

use std::sync::Arc;

use tofu_ide::Change;
use tofu_module::FileContent;
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
            || old.fetch_providers != settings.fetch_providers
            || old.schema_files != settings.schema_files;
        let schema_dirs = if schemas_changed {
            shared.schema_source.forget_files();
            shared.schema_source.forget_fetch_failures();
            if let Some(fetcher) = &shared.fetcher {
                fetcher.forget_failures();
            }
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
    refresh_given_values(shared).await;
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

/// Hands the host the values files named now (the `varFiles` setting and
/// the command's choices) and schedules the directories this changes.
/// A file named from a directory the host holds nothing of (values files
/// alone make no module directory, so no walk reads one) is read from
/// disk first, off the session; a later change to it comes as any file's.
pub async fn refresh_given_values(shared: &Arc<Shared>) {
    let to_read = shared.session().values_files_to_read();
    let read = tokio::task::spawn_blocking(move || {
        let mut read = Vec::new();
        for path in to_read {
            match std::fs::read(&path) {
                Ok(bytes) => read.push((path, FileContent::from_bytes(bytes))),
                Err(error) => tracing::warn!("values file {}: {error}", path.display()),
            }
        }
        read
    })
    .await
    .unwrap_or_default();
    let stale = {
        let mut session = shared.session();
        let mut stale = Vec::new();
        let mut values_dirs = Vec::new();
        for (path, content) in read {
            values_dirs.extend(path.parent().map(std::path::Path::to_path_buf));
            stale.extend(
                session
                    .host_mut()
                    .apply_change(Change::DiskFile { path, content }),
            );
        }
        stale.extend(session.update_given_values());
        stale.retain(|dir| !values_dirs.contains(dir));
        stale.sort();
        stale.dedup();
        stale
    };
    schedule(shared, stale, false);
}

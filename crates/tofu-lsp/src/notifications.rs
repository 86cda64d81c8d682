//! Handlers that change the session: document synchronisation, watched
//! files, configuration and workspace folders (`initialize` and
//! `initialized` are in [`crate::initialize`]).
//!
//! Each one updates the session synchronously, before any `.await`
//! (ARCHITECTURE.md, `tofu-lsp`: notifications can interleave at await
//! points), then schedules the
//! affected module directories. Documents whose name lacks a configuration
//! extension, or that are not `file:` URIs, or that match `exclude`, are not
//! tracked.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tofu_ide::{split_path, Change};
use tofu_module::discovery::is_module_file;
use tower_lsp_server::ls_types::*;

use crate::document::Document;
use crate::scheduler::{schedule, Mark};
use crate::server::Shared;
use crate::settings::Settings;
use crate::uri;
use crate::workspace::{queue_disk_changes, scan_folders, unwatch_folder};

/// How long the server waits for the client to answer one of its requests.
/// A client that never answers must not keep a handler (and so `exit`)
/// waiting forever: tower-lsp-server lets pending handlers finish first.
pub const CLIENT_ANSWER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Awaits the client's answer to a request of the server's, or gives up after
/// [`CLIENT_ANSWER_TIMEOUT`] with an error.
pub async fn answered<T>(
    request: impl std::future::Future<Output = tower_lsp_server::jsonrpc::Result<T>>,
) -> tower_lsp_server::jsonrpc::Result<T> {
    match tokio::time::timeout(CLIENT_ANSWER_TIMEOUT, request).await {
        Ok(result) => result,
        Err(_) => Err(tower_lsp_server::jsonrpc::Error {
            code: tower_lsp_server::jsonrpc::ErrorCode::RequestCancelled,
            message: "the client did not answer in time".into(),
            data: None,
        }),
    }
}

/// Asks the client for section `tofuLens`; a missing or `null` answer keeps
/// the current settings.
pub(crate) async fn pull_configuration(shared: &Arc<Shared>) {
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

pub async fn did_change_configuration(shared: &Arc<Shared>, params: DidChangeConfigurationParams) {
    let pulls = shared.session().support().configuration;
    if pulls {
        pull_configuration(shared).await;
        return;
    }
    let settings = match &params.settings {
        Value::Object(object) => object.get("tofuLens").unwrap_or(&params.settings),
        other => other,
    };
    let defaults = shared.session().settings_defaults().clone();
    if let Some((settings, problems)) = Settings::from_json(settings, &defaults) {
        apply_settings(shared, settings, problems).await;
    }
}

/// Applies new settings live: a new `tofuVersion` re-analyses everything, a
/// new scope republishes everything, a new `exclude` rescans the folders.
async fn apply_settings(shared: &Arc<Shared>, settings: Settings, problems: Vec<String>) {
    let (dirs, rescan) = {
        let mut session = shared.session();
        let old = session.replace_settings(settings.clone());
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
        (dirs, rescan)
    };
    schedule(shared, dirs, false);
    if let Some(folders) = rescan {
        tokio::spawn(scan_folders(Arc::clone(shared), folders));
    }
    show_problems(shared, problems).await;
}

/// Shows each settings problem once per session.
pub(crate) async fn show_problems(shared: &Arc<Shared>, problems: Vec<String>) {
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

/// The path of a document the server tracks, if it should track it.
fn tracked_path(shared: &Shared, uri: &Uri) -> Option<PathBuf> {
    let path = uri::to_path(uri)?;
    let (_, name) = split_path(&path)?;
    if !is_module_file(&name) || shared.session().is_excluded(&path) {
        return None;
    }
    Some(path)
}

pub fn did_open(shared: &Arc<Shared>, params: DidOpenTextDocumentParams) {
    let document = params.text_document;
    let Some(path) = tracked_path(shared, &document.uri) else {
        return;
    };
    let Some((dir, _)) = split_path(&path) else {
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
        if !known {
            session.scheduling_mut().mark(&dir, Mark::DiskRead);
        }
    }
    schedule(shared, [dir], true);
}

/// Applies incremental changes. A change whose version is not above the
/// document's is ignored with a warning: versions only grow (LSP
/// `VersionedTextDocumentIdentifier`), so it is stale or out of order, and
/// applying its ranges to a newer text would garble it.
pub fn did_change(shared: &Arc<Shared>, params: DidChangeTextDocumentParams) {
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

pub fn did_save(shared: &Arc<Shared>, params: DidSaveTextDocumentParams) {
    if let Some(path) = tracked_path(shared, &params.text_document.uri) {
        queue_disk_changes(shared, vec![path]);
    }
}

pub fn did_close(shared: &Arc<Shared>, params: DidCloseTextDocumentParams) {
    let Some(path) = uri::to_path(&params.text_document.uri) else {
        return;
    };
    let (mut stale, root) = {
        let mut session = shared.session();
        if session.close_document(&path).is_none() {
            return;
        }
        let stale = session
            .host_mut()
            .apply_change(Change::BufferClosed { path: path.clone() });
        let root = split_path(&path).map(|(dir, _)| session.confinement_root(&dir));
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
    stale.dedup();
    schedule(shared, stale, true);
}

pub fn did_change_watched_files(shared: &Arc<Shared>, params: DidChangeWatchedFilesParams) {
    let paths = params
        .changes
        .iter()
        .filter_map(|event| uri::to_path(&event.uri))
        .collect();
    queue_disk_changes(shared, paths);
}

pub fn did_change_workspace_folders(shared: &Arc<Shared>, params: DidChangeWorkspaceFoldersParams) {
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
    }
    for folder in &removed {
        unwatch_folder(shared, folder);
    }
    schedule(shared, stale, false);
    if !added.is_empty() {
        tokio::spawn(scan_folders(Arc::clone(shared), added));
    }
}

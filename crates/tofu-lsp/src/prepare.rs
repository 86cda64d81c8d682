//! What every request on a document does first, written once: the
//! document's path, its module directory's analysis brought up to date
//! (waiting for a running worker rather than racing it, so the request
//! answers about the text the client has now, with the full analysis), the
//! line map of the text that analysis used, and for a request at a position
//! that position as a byte offset ([`prepare_position`]).
//!
//! Requests that read across the module boundary (hover, definition,
//! completion, references, rename) also bring in the called or calling
//! modules the engine names ([`RelatedModules`]): their full analyses, or for a
//! called module the host does not hold (one `tofu init` installed under
//! `.terraform`) an analysis made for the request from the disk, inside the
//! caller's workspace folder only.
//!
//! The conversions run under the panic guard with the request's name, and
//! nothing here holds the session lock across an `.await`. Unknown
//! documents, files the analysis did not see and positions outside the text
//! prepare nothing (`Ok(None)`): the request answers `null`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_ide::{analyze_detached, dir_and_file_name, AnalysedModule, Snapshot};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{TextDocumentPositionParams, Uri};

use crate::panic_guard::guarded;
use crate::position::LineMap;
use crate::scheduler::{fresh_snapshot, Need};
use crate::shared::Shared;
use crate::uri;

/// A request's document with its module's up-to-date analysis.
pub struct PreparedDocument {
    pub path: PathBuf,
    pub analysis: Snapshot,
    /// The line map of the text the analysis used for the document.
    pub line_map: LineMap,
}

/// [`PreparedDocument`] and the request's position in it.
pub struct PreparedPosition {
    pub path: PathBuf,
    /// With the related modules' full analyses when the request reaches
    /// across the module boundary.
    pub analysis: Snapshot,
    pub line_map: LineMap,
    /// The request's position, as a byte offset into the document's text.
    pub offset: u32,
}

/// What a request at a position reads besides the document's own module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelatedModules {
    /// None besides the document's own (highlights, prepare rename).
    None,
    /// The called module (hover, definition).
    Called,
    /// The called module, also of a block still being typed, which the
    /// analysis may have lost (completion).
    CalledAsTyped,
    /// The module the named variable or output belongs to, and every module
    /// that calls it (references, rename).
    InterfaceAndCallers,
}

/// The path of `document` and its module directory's analysis, brought up
/// to date (the full analysis).
pub async fn prepare_analysis(shared: &Arc<Shared>, document: &Uri) -> Option<(PathBuf, Snapshot)> {
    let path = uri::to_path(document)?;
    let (dir, _) = dir_and_file_name(&path)?;
    let analysis = fresh_snapshot(shared, &dir, Need::Full).await;
    Some((path, analysis))
}

/// The document of request `name`, its module directory's analysis brought
/// up to date (the full analysis), and its line map.
pub async fn prepare_document(
    shared: &Arc<Shared>,
    name: &str,
    document: &Uri,
) -> Result<Option<PreparedDocument>> {
    let Some((path, analysis)) = prepare_analysis(shared, document).await else {
        return Ok(None);
    };
    let encoding = shared.session().encoding();
    let line_map = guarded(name, || {
        Some(LineMap::new(analysis.file_text(&path)?, encoding))
    })?;
    Ok(line_map.map(|line_map| PreparedDocument {
        path,
        analysis,
        line_map,
    }))
}

/// [`prepare_document`] for request `name` at `position`, with the position
/// as a byte offset, and the full analyses of the module directories the
/// request reads across the module boundary ([`Snapshot::related_dirs`],
/// [`Snapshot::completion_dirs`]), each brought up to date first.
pub async fn prepare_position(
    shared: &Arc<Shared>,
    name: &str,
    position: &TextDocumentPositionParams,
    reach: RelatedModules,
) -> Result<Option<PreparedPosition>> {
    let Some(document) = prepare_document(shared, name, &position.text_document.uri).await? else {
        return Ok(None);
    };
    let PreparedDocument {
        path,
        analysis,
        line_map,
    } = document;
    let Some(offset) = guarded(name, || line_map.offset(position.position))? else {
        return Ok(None);
    };
    // A panic here is the engine's: the request goes on without the other
    // modules.
    let related_dirs = guarded("related modules", || match reach {
        RelatedModules::None => Vec::new(),
        RelatedModules::Called => analysis.related_dirs(&path, offset, false),
        RelatedModules::CalledAsTyped => analysis.completion_dirs(&path, offset),
        RelatedModules::InterfaceAndCallers => analysis.related_dirs(&path, offset, true),
    })
    .unwrap_or_default();
    let analysis = match dir_and_file_name(&path) {
        Some((own_dir, _)) if !related_dirs.is_empty() => {
            let modules = related_modules(shared, &own_dir, related_dirs).await;
            analysis.with_modules(modules)
        }
        _ => analysis,
    };
    Ok(Some(PreparedPosition {
        path,
        analysis,
        line_map,
        offset,
    }))
}

/// The full analyses of `dirs`: up to date for directories the host holds;
/// for the others (under `.terraform`, excluded), read from the disk and
/// analysed for this request only, when they are inside the confinement
/// root of `own_dir` (the workspace folder holding it).
pub async fn related_modules(
    shared: &Arc<Shared>,
    own_dir: &Path,
    dirs: Vec<PathBuf>,
) -> Vec<AnalysedModule> {
    let mut modules = Vec::new();
    let mut outside = Vec::new();
    for dir in dirs {
        let held = {
            let session = shared.session();
            session.host().knows_dir(&dir) || session.scheduling().needs_disk_read(&dir)
        };
        if held {
            let snapshot = fresh_snapshot(shared, &dir, Need::Full).await;
            modules.extend(snapshot.module(&dir).cloned());
        } else {
            outside.push(dir);
        }
    }
    if outside.is_empty() {
        return modules;
    }
    let (root, config) = {
        let session = shared.session();
        (
            session.confinement_root(own_dir),
            session.host().config().clone(),
        )
    };
    let detached = tokio::task::spawn_blocking(move || {
        outside
            .into_iter()
            .filter(|dir| dir.starts_with(&root))
            .filter_map(|dir| {
                let files = tofu_vfs::read_module_dir_within(&dir, &root).ok()?;
                (!files.is_empty()).then(|| analyze_detached(dir, &files, &config))
            })
            .collect::<Vec<_>>()
    })
    .await;
    match detached {
        Ok(detached) => modules.extend(detached),
        Err(error) => tracing::error!("analysing called modules failed: {error}"),
    }
    modules
}

//! Request handlers: hover, definition, references, symbols, code actions and
//! pull diagnostics.
//!
//! Each one brings the analysis of the document's module directory up to
//! date first (waiting for a running worker rather than racing it), so it
//! answers about the text the client has now. Requests that read across the
//! module boundary (hover, definition, completion, references, rename) also
//! bring in the called or calling modules the engine names
//! ([`prepare_across`]): their full analyses, or for a called module the
//! host does not hold (one `tofu init` installed under `.terraform`) an
//! analysis made for the request from the disk. The query itself runs under
//! [`guarded`]: a panic becomes an error answer and a log line, and the server
//! keeps running. Unknown documents and positions outside the text answer
//! `null` (or an empty list).

use std::collections::{HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_ide::{analyze_detached, split_path, Analysis, ModuleSnapshot};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;

use crate::position::{LineMap, PositionEncoding};
use crate::scheduler::{fresh_snapshot, Need};
use crate::server::Shared;
use crate::to_proto::{self, Converter};
use crate::uri;

/// Runs `query`, turning a panic into an internal-error answer.
pub fn guarded<T>(name: &str, query: impl FnOnce() -> T) -> Result<T> {
    std::panic::catch_unwind(AssertUnwindSafe(query)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        tracing::error!("{name} panicked: {message}");
        Error {
            code: ErrorCode::InternalError,
            message: format!("tofu-lens: {name} failed: {message}").into(),
            data: None,
        }
    })
}

/// A document's path and an up-to-date analysis of its directory.
pub(crate) async fn prepare(
    shared: &Arc<Shared>,
    document: &Uri,
) -> Option<(PathBuf, Analysis, PositionEncoding)> {
    let path = uri::to_path(document)?;
    let (dir, _) = split_path(&path)?;
    let analysis = fresh_snapshot(shared, &dir, Need::Full).await;
    let encoding = shared.session().encoding();
    Some((path, analysis, encoding))
}

/// What a request reads across the module boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// The called module (hover, definition).
    Called,
    /// The called module, also of a block being typed (completion).
    Typing,
    /// The module the named variable or output belongs to, and every module
    /// that calls it (references, rename).
    Callers,
}

/// [`prepare`], with the full analyses of the module directories a request
/// at `position` reads across the module boundary
/// ([`Analysis::related_dirs`], [`Analysis::completion_dirs`]), each brought
/// up to date first.
pub(crate) async fn prepare_across(
    shared: &Arc<Shared>,
    document: &Uri,
    position: Position,
    reach: Reach,
) -> Option<(PathBuf, Analysis, PositionEncoding)> {
    let (path, analysis, encoding) = prepare(shared, document).await?;
    let dirs = guarded("related modules", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(position)?;
        Some(match reach {
            Reach::Called => analysis.related_dirs(&path, offset, false),
            Reach::Typing => analysis.completion_dirs(&path, offset),
            Reach::Callers => analysis.related_dirs(&path, offset, true),
        })
    })
    .ok()
    .flatten()
    .unwrap_or_default();
    if dirs.is_empty() {
        return Some((path, analysis, encoding));
    }
    let (own_dir, _) = split_path(&path)?;
    let modules = related_modules(shared, &own_dir, dirs).await;
    Some((path, analysis.with_modules(modules), encoding))
}

/// The full analyses of `dirs`: up to date for directories the host holds;
/// for the others (under `.terraform`, excluded), read from the disk and
/// analysed for this request only, when they are inside the confinement
/// root of `own_dir` (the workspace folder holding it).
async fn related_modules(
    shared: &Arc<Shared>,
    own_dir: &Path,
    dirs: Vec<PathBuf>,
) -> Vec<ModuleSnapshot> {
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

/// The line map of the text the analysis used for `path`.
pub(crate) fn line_map(
    analysis: &Analysis,
    path: &Path,
    encoding: PositionEncoding,
) -> Option<LineMap> {
    Some(LineMap::new(analysis.file_text(path)?, encoding))
}

pub async fn hover(shared: &Arc<Shared>, params: HoverParams) -> Result<Option<Hover>> {
    let position = params.text_document_position_params;
    let Some((path, analysis, encoding)) = prepare_across(
        shared,
        &position.text_document.uri,
        position.position,
        Reach::Called,
    )
    .await
    else {
        return Ok(None);
    };
    guarded("hover", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(position.position)?;
        let hover = analysis.hover(&path, offset)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: hover.markdown,
            }),
            range: Some(map.range(hover.range)),
        })
    })
}

pub async fn goto_definition(
    shared: &Arc<Shared>,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let position = params.text_document_position_params;
    let Some((path, analysis, encoding)) = prepare_across(
        shared,
        &position.text_document.uri,
        position.position,
        Reach::Called,
    )
    .await
    else {
        return Ok(None);
    };
    guarded("definition", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(position.position)?;
        let targets = analysis.goto_definition(&path, offset);
        if targets.is_empty() {
            return None;
        }
        let locations = Converter::new(&shared.session()).locations(&targets);
        Some(GotoDefinitionResponse::Array(locations))
    })
}

pub async fn references(
    shared: &Arc<Shared>,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let position = params.text_document_position;
    let Some((path, analysis, encoding)) = prepare_across(
        shared,
        &position.text_document.uri,
        position.position,
        Reach::Callers,
    )
    .await
    else {
        return Ok(None);
    };
    guarded("references", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(position.position)?;
        let targets = analysis.references(&path, offset, params.context.include_declaration);
        if targets.is_empty() {
            return None;
        }
        Some(Converter::new(&shared.session()).locations(&targets))
    })
}

pub async fn document_symbol(
    shared: &Arc<Shared>,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    guarded("documentSymbol", || {
        let map = line_map(&analysis, &path, encoding)?;
        let symbols = analysis.document_symbols(&path);
        Some(DocumentSymbolResponse::Nested(to_proto::document_symbols(
            &symbols, &map,
        )))
    })
}

pub async fn workspace_symbol(
    shared: &Arc<Shared>,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    let analysis = shared.session().host().snapshot();
    guarded("workspace/symbol", || {
        let symbols = analysis.workspace_symbols(&params.query);
        let mut converter = Converter::new(&shared.session());
        let symbols = symbols
            .iter()
            .filter_map(|symbol| to_proto::workspace_symbol(&mut converter, symbol))
            .collect();
        Some(WorkspaceSymbolResponse::Flat(symbols))
    })
}

pub async fn code_action(
    shared: &Arc<Shared>,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    guarded("codeAction", || {
        let map = line_map(&analysis, &path, encoding)?;
        let range = map.text_range(params.range)?;
        let text = analysis.file_text(&path)?;
        let actions = analysis.code_actions(&path, range);
        let mut converter = Converter::new(&shared.session());
        let actions: Vec<CodeActionOrCommand> = actions
            .iter()
            .filter_map(|action| converter.code_action(action, &path, &text))
            .map(CodeActionOrCommand::CodeAction)
            .collect();
        Some(actions)
    })
}

/// The result id of a report: a digest of what it holds, so a client that
/// sends it back as `previousResultId` gets `unchanged` until the file's
/// diagnostics change (the same diagnostics after an edit elsewhere are
/// still unchanged). Digests are compared only within one server run.
fn result_id(items: &[Diagnostic]) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(items)
        .unwrap_or_default()
        .hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

fn full_report(items: Vec<Diagnostic>) -> FullDocumentDiagnosticReport {
    FullDocumentDiagnosticReport {
        result_id: Some(result_id(&items)),
        items,
    }
}

pub async fn document_diagnostic(
    shared: &Arc<Shared>,
    params: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult> {
    let items = match prepare(shared, &params.text_document.uri).await {
        None => Vec::new(),
        Some((path, analysis, _)) => guarded("textDocument/diagnostic", || {
            let Some((dir, _)) = split_path(&path) else {
                return Vec::new();
            };
            let mut converter = {
                let session = shared.session();
                if !session.in_scope(&dir) {
                    return Vec::new();
                }
                Converter::new(&session)
            };
            let Some(file) = analysis.file_diagnostics(&path) else {
                return Vec::new();
            };
            file.diagnostics
                .iter()
                .map(|diagnostic| converter.diagnostic(&file.path, &file.text, diagnostic))
                .collect()
        })?,
    };
    let report = full_report(items);
    if report.result_id.is_some() && report.result_id == params.previous_result_id {
        return Ok(DocumentDiagnosticReportResult::Report(
            DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                related_documents: None,
                unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                    result_id: report.result_id.unwrap_or_default(),
                },
            }),
        ));
    }
    Ok(DocumentDiagnosticReportResult::Report(
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: report,
        }),
    ))
}

/// Every file of every directory in scope, each `unchanged` when the client
/// sent the result id of what it holds; and an empty report for every file
/// the client had a report of that is no longer analysed (deleted, or left
/// the scope), so its diagnostics go away.
pub async fn workspace_diagnostic(
    shared: &Arc<Shared>,
    params: WorkspaceDiagnosticParams,
) -> Result<WorkspaceDiagnosticReportResult> {
    let dirs = shared.session().known_dirs();
    let mut analysis = shared.session().host().snapshot();
    for dir in &dirs {
        analysis = fresh_snapshot(shared, dir, Need::Summary).await;
    }
    let previous: HashMap<String, String> = params
        .previous_result_ids
        .into_iter()
        .map(|previous| (previous.uri.as_str().to_owned(), previous.value))
        .collect();
    let items = guarded("workspace/diagnostic", || {
        let (mut converter, in_scope) = {
            let session = shared.session();
            let in_scope: Vec<&PathBuf> = dirs.iter().filter(|dir| session.in_scope(dir)).collect();
            (Converter::new(&session), in_scope)
        };
        let mut items = Vec::new();
        let mut reported: HashSet<String> = HashSet::new();
        for dir in in_scope {
            for file in analysis.module_diagnostics(dir) {
                let Some(uri) = converter.uri_for(&file.path) else {
                    continue;
                };
                let diagnostics: Vec<Diagnostic> = file
                    .diagnostics
                    .iter()
                    .map(|diagnostic| converter.diagnostic(&file.path, &file.text, diagnostic))
                    .collect();
                let report = full_report(diagnostics);
                let version = file.version.map(i64::from);
                reported.insert(uri.as_str().to_owned());
                let unchanged = report
                    .result_id
                    .as_ref()
                    .is_some_and(|id| previous.get(uri.as_str()) == Some(id));
                items.push(if unchanged {
                    WorkspaceDocumentDiagnosticReport::Unchanged(
                        WorkspaceUnchangedDocumentDiagnosticReport {
                            uri,
                            version,
                            unchanged_document_diagnostic_report:
                                UnchangedDocumentDiagnosticReport {
                                    result_id: report.result_id.unwrap_or_default(),
                                },
                        },
                    )
                } else {
                    WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                        uri,
                        version,
                        full_document_diagnostic_report: report,
                    })
                });
            }
        }
        let mut gone: Vec<&String> = previous
            .keys()
            .filter(|uri| !reported.contains(*uri))
            .collect();
        gone.sort();
        for uri in gone {
            let Ok(uri) = uri.parse::<Uri>() else {
                continue;
            };
            items.push(WorkspaceDocumentDiagnosticReport::Full(
                WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version: None,
                    full_document_diagnostic_report: full_report(Vec::new()),
                },
            ));
        }
        items
    })?;
    Ok(WorkspaceDiagnosticReportResult::Report(
        WorkspaceDiagnosticReport { items },
    ))
}

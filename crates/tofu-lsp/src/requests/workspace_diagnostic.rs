//! `workspace/diagnostic` (pull diagnostics): every file of every module
//! directory in scope, from the directories' summaries brought up to date,
//! each `unchanged` when the client holds it already.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    UnchangedDocumentDiagnosticReport, Uri, WorkspaceDiagnosticParams, WorkspaceDiagnosticReport,
    WorkspaceDiagnosticReportResult, WorkspaceDocumentDiagnosticReport,
    WorkspaceFullDocumentDiagnosticReport, WorkspaceUnchangedDocumentDiagnosticReport,
};

use super::document_diagnostic::full_report;
use crate::panic_guard::guarded;
use crate::provider_validators;
use crate::scheduler::{fresh_snapshot, Need};
use crate::shared::Shared;
use crate::to_proto::Converter;

/// Every file of every directory in scope, each `unchanged` when the client
/// sent the result id of what it holds; and an empty report for every file
/// the client had a report of that is no longer analysed (deleted, or left
/// the scope), so its diagnostics go away.
pub async fn handle(
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
            let from_providers = shared.session().scheduling().provider_diagnostics(dir);
            for file in analysis.module_diagnostics(dir) {
                let Some(uri) = converter.uri_for(&file.path) else {
                    continue;
                };
                let diagnostics =
                    provider_validators::converted(&mut converter, &file, &from_providers);
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

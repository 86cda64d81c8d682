//! `textDocument/diagnostic` (pull diagnostics): one document's
//! diagnostics (the providers' validators' among them, when placed in the
//! same text), or `unchanged` when the client holds them already
//! (`previousResultId`), after bringing its directory up to date.

use std::sync::Arc;

use tofu_ide::dir_and_file_name;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Diagnostic, DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport,
    RelatedUnchangedDocumentDiagnosticReport, UnchangedDocumentDiagnosticReport,
};

use crate::panic_guard::guarded;
use crate::prepare::prepare_analysis;
use crate::provider_validators;
use crate::shared::Shared;
use crate::to_proto::Converter;

pub async fn handle(
    shared: &Arc<Shared>,
    params: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult> {
    let items = match prepare_analysis(shared, &params.text_document.uri).await {
        None => Vec::new(),
        Some((path, analysis)) => guarded("textDocument/diagnostic", || {
            let Some((dir, _)) = dir_and_file_name(&path) else {
                return Vec::new();
            };
            let (mut converter, from_providers) = {
                let session = shared.session();
                if !session.in_scope(&dir) {
                    return Vec::new();
                }
                (
                    Converter::new(&session),
                    session.scheduling().provider_diagnostics(&dir),
                )
            };
            let Some(file) = analysis.file_diagnostics(&path) else {
                return Vec::new();
            };
            provider_validators::converted(&mut converter, &file, &from_providers)
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

/// A full report of `items`, with its [`result_id`].
pub fn full_report(items: Vec<Diagnostic>) -> FullDocumentDiagnosticReport {
    FullDocumentDiagnosticReport {
        result_id: Some(result_id(&items)),
        items,
    }
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

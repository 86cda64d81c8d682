//! The providers' own validators in the server (`ValidateResourceConfig`
//! and its kin, as `tofu validate` calls them): after a directory's
//! analysis, when it was given provider schemas and `schemas.runProviders`
//! allows it, the scheduler waits [`DEBOUNCE`] and then, unless a newer
//! analysis came meanwhile, [`validate`] works out the calls
//! (`tofu_diagnostics::validator_calls`) and sends them on a blocking thread
//! through the session's `tofu_vfs::schemas::validators::ProviderValidators`:
//! one process per provider and workspace folder, kept between keystrokes,
//! stopped when idle, killed and reaped on `shutdown`; a block whose value
//! did not change is answered from its cache, not sent again.
//!
//! The answers are kept per file with the text they were placed in
//! ([`ProviderDiagnostics`], in the directory's scheduling state) and
//! published with the file's other diagnostics for as long as the file's
//! text is the same: an edit elsewhere keeps them, an edit of the file
//! drops them until its own validation is done. A provider that cannot
//! be called (crashed twice, hangs, does not start) is one
//! `window/logMessage`; everything else keeps working. Never in a request,
//! an analysis or on an async thread. Pull diagnostics answer with the same
//! kept answers ([`converted`]), and a change of them asks the client to
//! pull again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tofu_diagnostics::validator_calls::{apply_config, validator_calls};
use tofu_diagnostics::ModuleAnalysis;
use tofu_ide::{EditorDiagnostic, FileDiagnostics};
use tofu_schema::requirements::is_built_in;
use tofu_syntax::TextRange;
use tower_lsp_server::ls_types::{Diagnostic, MessageType};

use crate::scheduling::ProviderDiagnostics;
use crate::session::Session;
use crate::shared::Shared;
use crate::to_proto::Converter;

/// How long after an analysis the validators are called: keystrokes in a
/// row make one round of calls.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// What one round validates: an analysis of a directory.
pub struct ValidationAsk {
    generation: u64,
    analysis: Arc<ModuleAnalysis>,
}

/// The round to run after `dir`'s analysis, when its providers' schemas
/// are known and providers may run; the directory's latest round is then
/// this one. When they may not run, the kept answers are dropped.
pub fn wanted(session: &mut Session, dir: &Path) -> Option<ValidationAsk> {
    let snapshot = session.host().snapshot();
    let module = snapshot.module(dir);
    let runs = session.settings().run_providers;
    let state = session.scheduling_mut().state(dir);
    // The built-in provider's schema is always there, and has no process.
    let has_plugins = |module: &tofu_ide::AnalysedModule| {
        module
            .analysis
            .schemas
            .iter()
            .any(|(address, _)| !is_built_in(address))
    };
    let Some(module) = module.filter(|module| runs && has_plugins(module)) else {
        state.provider_diagnostics.clear();
        return None;
    };
    state.validation_generation = module.generation;
    Some(ValidationAsk {
        generation: module.generation,
        analysis: Arc::clone(&module.analysis),
    })
}

/// Runs `ask` for `dir` unless a newer analysis asked since; returns
/// whether the directory's provider diagnostics changed (for the caller
/// to publish it again).
pub async fn validate(shared: &Arc<Shared>, dir: &Path, ask: ValidationAsk) -> bool {
    let (dir_schemas, workspace, config) = {
        let mut session = shared.session();
        if session.scheduling_mut().state(dir).validation_generation != ask.generation {
            return false;
        }
        (
            session.dir_schemas(dir),
            session.confinement_root(dir),
            session.settings().engine_config(),
        )
    };
    let worker = Arc::clone(shared);
    let read_dir = dir.to_path_buf();
    let found = tokio::task::spawn_blocking(move || {
        let calls = validator_calls(&ask.analysis);
        let callers =
            |called: &Path| -> Vec<PathBuf> { worker.session().host().callers(called).to_vec() };
        let runnable = |address: &tofu_schema::ProviderAddress| {
            worker
                .schema_source
                .runnable_with_callers(&read_dir, &dir_schemas, address, &callers)
        };
        let mut outcome = worker
            .validators
            .validate(&runnable, Some(&workspace), &calls);
        apply_config(&ask.analysis, &config, &mut outcome.diagnostics);
        tracing::debug!(
            "validators of {}: {} sent, {} answered from the cache",
            read_dir.display(),
            outcome.n_sent,
            outcome.n_cached
        );
        let by_file = by_file(&ask.analysis, &read_dir, &outcome.diagnostics);
        (by_file, outcome.problems, ask.generation)
    })
    .await;
    let (by_file, problems, generation) = match found {
        Ok(found) => found,
        Err(error) => {
            tracing::error!("the validators of {} failed: {error}", dir.display());
            return false;
        }
    };
    let (changed, problems) = {
        let mut session = shared.session();
        let problems: Vec<String> = problems
            .into_iter()
            .filter(|problem| session.first_report(problem))
            .collect();
        let state = session.scheduling_mut().state(dir);
        let changed = state.validation_generation == generation
            && !same(&state.provider_diagnostics, &by_file);
        if changed {
            state.provider_diagnostics = by_file;
        }
        (changed, problems)
    };
    for problem in problems {
        tracing::warn!("provider validators: {problem}");
        shared
            .client
            .log_message(MessageType::WARNING, format!("tofu-lens: {problem}"))
            .await;
    }
    changed
}

/// Stops and reaps every provider the validators started.
pub async fn shut_down(shared: &Arc<Shared>) {
    let worker = Arc::clone(shared);
    if let Err(error) = tokio::task::spawn_blocking(move || worker.validators.shut_down()).await {
        tracing::error!("stopping the providers failed: {error}");
    }
}

/// A file's diagnostics in the protocol's form, the providers' validators'
/// among them when they were placed in the same text: what push and pull
/// both send.
pub fn converted(
    converter: &mut Converter,
    file: &FileDiagnostics,
    from_providers: &ProviderDiagnostics,
) -> Vec<Diagnostic> {
    let kept = for_file(from_providers, &file.path, &file.text);
    file.diagnostics
        .iter()
        .chain(kept)
        .map(|diagnostic| converter.diagnostic(&file.path, &file.text, diagnostic))
        .collect()
}

/// The diagnostics kept for the file `path` of text `text`: those placed
/// in that very text.
pub fn for_file<'a>(
    kept: &'a ProviderDiagnostics,
    path: &Path,
    text: &Arc<str>,
) -> &'a [EditorDiagnostic] {
    match kept.get(path) {
        Some((placed_in, diagnostics)) if Arc::ptr_eq(placed_in, text) || placed_in == text => {
            diagnostics
        }
        _ => &[],
    }
}

fn same(old: &ProviderDiagnostics, new: &ProviderDiagnostics) -> bool {
    old.len() == new.len()
        && new.iter().all(|(path, (text, diagnostics))| {
            old.get(path).is_some_and(|(old_text, old_diagnostics)| {
                Arc::ptr_eq(old_text, text) && old_diagnostics == diagnostics
            })
        })
}

/// The diagnostics as the editor shows them, by file (a zero-width range
/// widened to the character after it, as the engine's are).
fn by_file(
    analysis: &ModuleAnalysis,
    dir: &Path,
    diagnostics: &[tofu_syntax::Diagnostic],
) -> ProviderDiagnostics {
    let mut by_file = ProviderDiagnostics::new();
    for diagnostic in diagnostics {
        let Some(file) = analysis.file(diagnostic.subject.file) else {
            continue;
        };
        let range = diagnostic
            .subject
            .range
            .map_or(TextRange::empty(0), |range| widened(&file.text, range));
        let entry = by_file
            .entry(dir.join(&file.name))
            .or_insert_with(|| (Arc::clone(&file.text), Vec::new()));
        entry.1.push(EditorDiagnostic {
            code: diagnostic.code,
            severity: diagnostic.severity,
            summary: diagnostic.summary.clone(),
            detail: diagnostic.detail.clone(),
            range,
            related: Vec::new(),
            unnecessary: false,
            fix: None,
        });
    }
    by_file
}

fn widened(text: &str, range: TextRange) -> TextRange {
    if !range.is_empty() {
        return range;
    }
    let start = range.start as usize;
    match text.get(start..).and_then(|rest| rest.chars().next()) {
        Some(next) => TextRange::from_usize(start, start + next.len_utf8()),
        None => range,
    }
}

//! Fetching the providers nothing installed (issue 47), in the server:
//! where `schemas.fetchProviders` is on (off, only packages fetched
//! before, from the cache) and the binary gave a fetch configuration,
//! before a directory's schemas are read
//! (`provider_schemas::read`), each provider it needs whose schema no
//! root installs and the schema cache lacks is found as `tofu init` would
//! install it (`tofu_fetch::jobs_for`): from tofu-lens's package cache
//! when it has an acceptable version, else fetched and verified, on a
//! blocking thread, with a cancellable `$/progress` that shows the
//! version and the bytes. The schema source is then given the package
//! (or why there is none, which the analysis reports once per provider
//! as `provider-schema-unavailable`, and the user sees once as a
//! warning). Concurrent asks for one package share its download.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tofu_fetch::{FetchError, FetchJob, Progress};
use tower_lsp_server::ls_types::{MessageType, ProgressToken};

use crate::shared::Shared;

/// Finds the packages `dir` needs that nothing installed, as the module
/// doc says. Returns at once when fetching is off.
pub async fn fetch_missing(shared: &Arc<Shared>, dir: &Path) {
    let worker = Arc::clone(shared);
    let read_dir = dir.to_path_buf();
    let jobs = tokio::task::spawn_blocking(move || pending_jobs(&worker, &read_dir)).await;
    for job in jobs.unwrap_or_default() {
        fetch_one(shared, dir, job).await;
    }
}

/// What is left to find for `dir`: nothing when fetching is off, or when
/// the directory was given each package (or why there is none) already.
/// Reads directories: call it on a blocking thread.
pub fn pending_jobs(shared: &Shared, dir: &Path) -> Vec<FetchJob> {
    let Some(fetcher) = &shared.fetcher else {
        return Vec::new();
    };
    // Off, packages fetched before are still used: those the cache has.
    let online = shared.session().settings().fetch_providers;
    let platform = fetcher.config().platform.dir_name();
    let callers =
        |called: &Path| -> Vec<PathBuf> { shared.session().host().callers(called).to_vec() };
    // Cheaply first: which providers the last analysis named lack both
    // an installation and a package given already (offline: and have one
    // in the cache).
    let needed = shared.session().host().needed_providers(dir).to_vec();
    let lacking = needed.iter().any(|address| {
        !shared.schema_source.has_fetched(dir, address)
            && (online || !fetcher.store().versions(address, &platform).is_empty())
            && !shared.schema_source.needs_no_fetch(dir, address, &callers)
    });
    if !lacking {
        return Vec::new();
    }
    // Their constraints: from the kept analysis, else from the disk.
    let snapshot = shared.session().host().snapshot();
    let jobs = match snapshot.module(dir) {
        Some(module) => {
            tofu_fetch::jobs_for(dir, &module.analysis, &shared.schema_source, &callers)
        }
        None => {
            let (root, config) = {
                let session = shared.session();
                (
                    session.confinement_root(dir),
                    session.host().config().clone(),
                )
            };
            let Ok(files) = tofu_vfs::read_module_dir_within(dir, &root) else {
                return Vec::new();
            };
            let analysis = tofu_diagnostics::analyze(
                &files,
                &config,
                &mut tofu_diagnostics::AnalysisCache::new(),
            );
            tofu_fetch::jobs_for(dir, &analysis, &shared.schema_source, &callers)
        }
    };
    jobs.into_iter()
        .filter(|job| !shared.schema_source.has_fetched(dir, &job.address))
        .filter(|job| {
            online
                || fetcher
                    .cached(&job.address, &job.choice, job.locked.as_ref())
                    .is_some()
        })
        .collect()
}

/// One job: from the cache, else fetched with progress.
async fn fetch_one(shared: &Arc<Shared>, dir: &Path, job: FetchJob) {
    let Some(fetcher) = shared.fetcher.clone() else {
        return;
    };
    if let Some(found) = fetcher.cached(&job.address, &job.choice, job.locked.as_ref()) {
        shared
            .schema_source
            .use_fetched(dir, &job.address, job.outcome(Ok(found)));
        return;
    }
    let progress = crate::client_requests::begin_cancellable_progress(
        shared,
        "fetch",
        "Fetching provider",
        job.describe(),
    )
    .await;
    let cancel = Arc::new(AtomicBool::new(false));
    let token = progress
        .as_ref()
        .map(|progress| token_key(progress.token()));
    if let (Some(token), Ok(mut cancels)) = (&token, shared.fetch_cancels.lock()) {
        cancels.insert(token.clone(), Arc::clone(&cancel));
    }
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Progress>();
    let fetching = {
        let job = job.clone();
        let cancel = Arc::clone(&cancel);
        tokio::task::spawn_blocking(move || {
            fetcher.fetch(&job.address, &job.choice, job.locked.as_ref(), &|step| {
                let _ = sender.send(step);
                !cancel.load(Ordering::Relaxed)
            })
        })
    };
    let mut last_percentage = None;
    while let Some(step) = receiver.recv().await {
        let Some(progress) = &progress else { continue };
        let (message, percentage) = describe(&job, &step);
        // A report per percent, not per chunk.
        if last_percentage == Some(percentage) && matches!(step, Progress::Downloading { .. }) {
            continue;
        }
        last_percentage = Some(percentage);
        progress
            .report_with_message(message, percentage, Some(true))
            .await;
    }
    let found = match fetching.await {
        Ok(found) => found,
        Err(error) => Err(FetchError::Store(format!("the fetch stopped: {error}"))),
    };
    if let (Some(token), Ok(mut cancels)) = (&token, shared.fetch_cancels.lock()) {
        cancels.remove(token);
    }
    let finished = match &found {
        Ok(package) => format!(
            "{} {}: fetched and verified",
            job.address,
            package.version()
        ),
        Err(FetchError::Cancelled) => format!("{}: cancelled", job.describe()),
        Err(error) => format!("{}: {error}", job.describe()),
    };
    if let Some(progress) = progress {
        progress.finish_with_message(finished).await;
    }
    if let Err(error) = &found {
        if *error != FetchError::Cancelled {
            let problem = format!("tofu-lens could not fetch {}: {error}", job.describe());
            tracing::warn!("{problem}");
            if shared.session().first_report(&problem) {
                shared
                    .client
                    .show_message(MessageType::WARNING, problem)
                    .await;
            }
        }
    }
    if matches!(found, Err(FetchError::Cancelled)) {
        return;
    }
    shared
        .schema_source
        .use_fetched(dir, &job.address, job.outcome(found));
}

/// A step in words, and how far along it is.
fn describe(job: &FetchJob, step: &Progress) -> (String, u32) {
    let megabytes = |bytes: u64| format!("{:.1} MB", bytes as f64 / 1_000_000.0);
    match step {
        Progress::Resolving => (format!("{}: choosing the version", job.describe()), 0),
        Progress::Downloading {
            version,
            received,
            total,
        } => {
            let percentage = total
                .filter(|total| *total > 0)
                .map_or(0, |total| {
                    u32::try_from(received.saturating_mul(90) / total).unwrap_or(90)
                })
                .min(90);
            let size = match total {
                Some(total) => format!("{} of {}", megabytes(*received), megabytes(*total)),
                None => megabytes(*received),
            };
            (format!("{} {version}: {size}", job.address), percentage)
        }
        Progress::Verifying { version, size } => (
            format!("{} {version}: verifying {}", job.address, megabytes(*size)),
            95,
        ),
    }
}

fn token_key(token: &ProgressToken) -> String {
    match token {
        ProgressToken::String(text) => text.clone(),
        ProgressToken::Number(number) => number.to_string(),
    }
}

/// `window/workDoneProgress/cancel`: stops the fetch behind `token`.
pub fn cancel(shared: &Shared, token: &ProgressToken) {
    if let Ok(cancels) = shared.fetch_cancels.lock() {
        if let Some(flag) = cancels.get(&token_key(token)) {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

//! Provider schemas in the server. After a directory is analysed, the
//! schemas of the providers it needs that the host lacks are read in the
//! background ([`wanted`], then [`read`] from a task of the scheduler's),
//! through the session's `tofu_vfs::schemas::SchemaSource`, the same code
//! `check` reads them with: the packages `tofu init` installed for the
//! directory's roots (itself, its callers in the module tree, or the
//! nearest initialized directory above), the schema cache, the
//! `schemas.files` setting; a provider is started only when
//! `schemas.runProviders` allows it. The read runs on a blocking thread,
//! never in a request or an analysis, with `$/progress` when the client
//! supports it (skipped, with the thread hand-off, when nothing is left to
//! read: [`at_hand`]); the schemas then go to the host (`set_schemas`), which
//! makes the directory stale, and the scheduler analyses and publishes it
//! again.
//!
//! A directory's schemas are read again only when what they were read for
//! changes ([`SchemaAsk`]: the providers it needs, its direct callers, the
//! schema settings), or when what a root has installed changes: `tofu init`
//! in a terminal writes the root's `.terraform.lock.hcl` and
//! `.terraform/providers/**` ([`installation_root`]), and
//! [`installations_changed`] forgets what was read for that root and marks
//! the directories that read from it (the root, the directories below it,
//! the modules it calls) to be read again; each (root, provider) is
//! otherwise read once per session. What cannot be read is logged and sent
//! as one `window/logMessage`, once per problem; everything else keeps
//! working without that schema.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_module::ProviderSchemas;
use tower_lsp_server::ls_types::MessageType;

use crate::client_requests::begin_progress;
use crate::scheduling::SchemaAsk;
use crate::session::Session;
use crate::shared::Shared;

/// What `dir`'s provider schemas should be read for now, when it needs
/// some the host lacks, no task reads them yet, and they were not read
/// for the same already; the directory is then marked as being read.
pub fn wanted(session: &mut Session, dir: &Path) -> Option<SchemaAsk> {
    let host = session.host();
    let needed = host.needed_providers(dir).to_vec();
    let lacks = needed.iter().any(|address| {
        host.schemas(dir)
            .is_none_or(|schemas| schemas.get(address).is_none())
    });
    let outdated = session.scheduling().schemas_outdated(dir);
    if needed.is_empty() || !(lacks || outdated) {
        return None;
    }
    let ask = SchemaAsk {
        needed,
        callers: session.host().callers(dir).to_vec(),
        settings_generation: session.schema_settings_generation(),
    };
    let state = session.scheduling_mut().state(dir);
    if state.schemas_reading || (state.schemas_asked.as_ref() == Some(&ask) && !outdated) {
        return None;
    }
    state.schemas_reading = true;
    state.schemas_outdated = false;
    state.schemas_asked = Some(ask.clone());
    Some(ask)
}

/// The lock file `tofu init` writes in a root module directory.
const LOCK_FILE: &str = ".terraform.lock.hcl";

/// The root module directory whose installed providers `path` is part of:
/// the directory of a `.terraform.lock.hcl`, or the one holding the
/// `.terraform` that `path` is, or that holds the `providers` directory
/// `path` is or lies under. `None` for any other path.
pub fn installation_root(path: &Path) -> Option<PathBuf> {
    let named = |path: &Path, name: &str| path.file_name().is_some_and(|file| file == name);
    if named(path, LOCK_FILE) || named(path, ".terraform") {
        return path.parent().map(Path::to_path_buf);
    }
    path.ancestors()
        .find(|ancestor| {
            named(ancestor, "providers")
                && ancestor
                    .parent()
                    .is_some_and(|dot| named(dot, ".terraform"))
        })
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

/// What `roots` have installed changed (`tofu init` ran): forgets what
/// was read for them, and marks every known directory whose schemas may
/// come from one of them (the root, the directories below it, the modules
/// it calls, transitively) to be read again, even when it lacks none.
/// Returns those directories, for `scheduler::read_schemas`.
pub fn installations_changed(shared: &Shared, roots: &[PathBuf]) -> Vec<PathBuf> {
    for root in roots {
        tracing::info!("the providers installed for {} changed", root.display());
        shared.schema_source.forget_root(root);
    }
    let mut session = shared.session();
    let mut affected: BTreeSet<PathBuf> = session
        .known_dirs()
        .into_iter()
        .filter(|dir| roots.iter().any(|root| dir.starts_with(root)))
        .collect();
    let mut pending: Vec<PathBuf> = roots.to_vec();
    while let Some(dir) = pending.pop() {
        for called in session.host().called_dirs(&dir) {
            if affected.insert(called.clone()) {
                pending.push(called.clone());
            }
        }
    }
    let affected: Vec<PathBuf> = affected
        .into_iter()
        .filter(|dir| session.scheduling().knows(dir))
        .collect();
    for dir in &affected {
        session.scheduling_mut().state(dir).schemas_outdated = true;
    }
    affected
}

/// Gives the host the schemas `ask` names for `dir` when nothing is left
/// to read for them (`SchemaSource::schemas_already_read`): nothing is
/// installed for the directory (the common case), or what is was read
/// for another directory already. Returns whether they changed; `None`
/// when something must still be read ([`read`]). Blocks (it looks for
/// `.terraform` directories): call it on a blocking thread.
pub fn at_hand(shared: &Shared, dir: &Path, ask: &SchemaAsk) -> Option<bool> {
    // A package to fetch first: that is for [`read`], with progress.
    if !crate::provider_fetch::pending_jobs(shared, dir).is_empty() {
        return None;
    }
    let dir_schemas = shared.session().dir_schemas(dir);
    let callers =
        |called: &Path| -> Vec<PathBuf> { shared.session().host().callers(called).to_vec() };
    let schemas =
        shared
            .schema_source
            .schemas_already_read(dir, &dir_schemas, &ask.needed, &callers)?;
    let mut session = shared.session();
    let changed = session.host_mut().set_schemas(dir, schemas);
    session.scheduling_mut().state(dir).schemas_reading = false;
    Some(changed)
}

/// Reads the schemas `ask` names for `dir` off the async threads, with
/// progress, and gives them to the host. Returns whether they changed
/// (the directory is then stale, for the caller to schedule).
pub async fn read(shared: &Arc<Shared>, dir: &Path, ask: SchemaAsk) -> bool {
    // What nothing installed, fetched first where that is on.
    crate::provider_fetch::fetch_missing(shared, dir).await;
    let dir_schemas = shared.session().dir_schemas(dir);
    // Nothing left to read (the common case: nothing installed for the
    // directory, or what is was read for another directory already): the
    // schemas go to the host at once, without a progress round trip.
    let worker = Arc::clone(shared);
    let read_dir = dir.to_path_buf();
    let asked = ask.clone();
    let at_hand = tokio::task::spawn_blocking(move || at_hand(&worker, &read_dir, &asked)).await;
    if let Ok(Some(changed)) = at_hand {
        return changed;
    }
    let progress = begin_progress(
        shared,
        "schemas",
        "Reading provider schemas",
        format!("{} providers", ask.needed.len()),
    )
    .await;
    let mut schemas = ProviderSchemas::new();
    let n_needed = ask.needed.len();
    for (index, address) in ask.needed.iter().enumerate() {
        if let Some(progress) = &progress {
            let percentage = u32::try_from(index * 100 / n_needed.max(1)).unwrap_or(100);
            progress
                .report_with_message(address.to_string(), percentage)
                .await;
        }
        let worker = Arc::clone(shared);
        let read_dir = dir.to_path_buf();
        let read_schemas = dir_schemas.clone();
        let needed = [address.clone()];
        let found = tokio::task::spawn_blocking(move || {
            let callers = |called: &Path| -> Vec<PathBuf> {
                worker.session().host().callers(called).to_vec()
            };
            worker
                .schema_source
                .schemas_with_callers(&read_dir, &read_schemas, &needed, &callers)
        })
        .await;
        match found {
            Ok(found) => {
                for (address, schema) in found.iter() {
                    schemas.insert(address.clone(), Arc::clone(schema));
                }
                // And why one could not be read, for the analysis to say.
                for (address, why) in found.unavailable() {
                    schemas.set_unavailable(address.clone(), why.clone());
                }
                for (address, version) in found.all_from_cache() {
                    schemas.set_from_cache(address.clone(), version.clone());
                }
                for (address, version) in found.all_fetched() {
                    schemas.set_fetched(address.clone(), version.clone());
                }
            }
            Err(error) => tracing::error!("reading the schema of {address} failed: {error}"),
        }
    }
    let n_found = schemas.len();
    // The host has the schemas before the progress ends: a request sent
    // when a client sees it end is answered with them.
    let (changed, problems) = {
        let mut session = shared.session();
        let changed = session.host_mut().set_schemas(dir, schemas);
        session.scheduling_mut().state(dir).schemas_reading = false;
        let problems: Vec<String> = shared
            .schema_source
            .problems()
            .into_iter()
            .filter(|problem| session.first_report(problem))
            .collect();
        (changed, problems)
    };
    if let Some(progress) = progress {
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        progress
            .finish_with_message(format!("{name}: {n_found} of {n_needed} provider schemas"))
            .await;
    }
    for problem in problems {
        tracing::warn!("provider schema: {problem}");
        shared
            .client
            .log_message(
                MessageType::WARNING,
                format!("tofu-lens: no provider schema: {problem}"),
            )
            .await;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::installation_root;
    use std::path::{Path, PathBuf};

    fn root_of(path: &str) -> Option<PathBuf> {
        installation_root(Path::new(path))
    }

    #[test]
    fn what_tofu_init_writes_belongs_to_the_root_it_ran_in() {
        let root = Some(PathBuf::from("/w/stacks/prod"));
        assert_eq!(root_of("/w/stacks/prod/.terraform.lock.hcl"), root);
        assert_eq!(root_of("/w/stacks/prod/.terraform"), root);
        assert_eq!(root_of("/w/stacks/prod/.terraform/providers"), root);
        assert_eq!(
            root_of("/w/stacks/prod/.terraform/providers/registry.opentofu.org/hashicorp/time/0.14.2/linux_amd64/terraform-provider-time_v0.14.2"),
            root
        );
    }

    #[test]
    fn other_paths_belong_to_no_installation() {
        assert_eq!(root_of("/w/stacks/prod/main.tf"), None);
        assert_eq!(
            root_of("/w/stacks/prod/.terraform/modules/modules.json"),
            None
        );
        assert_eq!(root_of("/w/providers/main.tf"), None);
        assert_eq!(root_of("/w/stacks/prod/terraform.lock.hcl"), None);
    }
}

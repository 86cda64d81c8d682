//! Sending a directory's validator calls (`tofu_diagnostics::validator_calls`)
//! to its providers, for `check` and the language server alike: each call
//! goes to the package installed for the directory's root, only when that
//! package may run (providers may run here, and its hash is in the root's
//! lock file: [`SchemaSource::runnable_with_callers`]), through one
//! [`ProviderPool`] (one process per provider and workspace, kept between
//! calls, stopped when idle, reaped when the pool is dropped).
//!
//! As `tofu validate` walks: provider configurations first; a provider
//! configuration whose validator reports an error silences the resources
//! that use it. Answers are kept by (package, validator, value), so a
//! block whose value did not change is not sent again; they are placed
//! anew with each call's places. A provider that cannot be called (it
//! does not start, crashes again after a restart, hangs) gives one
//! problem and no diagnostics; its other calls are not tried in that
//! round.
//!
//! Left out: `# tofu-lens-ignore:` comments (the analysis applied them
//! before these diagnostics existed); the severity overrides of the
//! directory's configuration are the caller's to apply.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tofu_diagnostics::validator_calls::{ValidatorCall, ValidatorKind};
use tofu_module::BlockAddress;
use tofu_schema::plugin::messages::{DiagnosticSeverity, ProviderDiagnostic};
use tofu_schema::plugin::DynamicValue;
use tofu_schema::{PoolSettings, ProviderAddress, ProviderPool, RunnableProvider};
use tofu_syntax::Diagnostic;

#[cfg(doc)]
use super::SchemaSource;

/// Answers kept before the cache is emptied.
const MOST_ANSWERS_KEPT: usize = 10_000;

/// How long a call may wait for another call to the same provider.
const WAIT_FOR_PROVIDER: Duration = Duration::from_secs(60);

/// What one round of calls gave.
#[derive(Debug, Default)]
pub struct ValidatorOutcome {
    /// The providers' diagnostics, placed in the directory's files.
    pub diagnostics: Vec<Diagnostic>,
    /// The calls answered from the cache, and those sent.
    pub n_cached: usize,
    pub n_sent: usize,
    /// What went wrong, one line per provider.
    pub problems: Vec<String>,
}

/// The providers' validators, one process per provider and workspace.
pub struct ProviderValidators {
    pool: ProviderPool,
    answers: Mutex<HashMap<AnswerKey, Vec<ProviderDiagnostic>>>,
}

/// What an answer depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct AnswerKey {
    provider: ProviderAddress,
    package_hash: String,
    kind: ValidatorKind,
    config: DynamicValue,
}

impl std::fmt::Debug for ProviderValidators {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ProviderValidators")
            .field("running", &self.pool.running().len())
            .finish_non_exhaustive()
    }
}

impl ProviderValidators {
    pub fn new(settings: PoolSettings) -> ProviderValidators {
        ProviderValidators {
            pool: ProviderPool::new(settings),
            answers: Mutex::new(HashMap::new()),
        }
    }

    /// Sends `calls` to the packages `runnable` gives for their providers
    /// (with the root that installed each: [`SchemaSource::runnable_for`]
    /// or [`SchemaSource::runnable_with_callers`] for the directory the
    /// calls were made for); `workspace` keys the processes (`None`: each
    /// provider's root).
    pub fn validate(
        &self,
        runnable: &dyn Fn(&ProviderAddress) -> Option<(PathBuf, RunnableProvider)>,
        workspace: Option<&Path>,
        calls: &[ValidatorCall],
    ) -> ValidatorOutcome {
        let mut outcome = ValidatorOutcome::default();
        let mut packages: HashMap<&ProviderAddress, Option<(PathBuf, RunnableProvider)>> =
            HashMap::new();
        let mut failed_configs: HashSet<&BlockAddress> = HashSet::new();
        let mut given_up: BTreeSet<&ProviderAddress> = BTreeSet::new();
        for call in calls {
            if call.kind != ValidatorKind::Provider
                && failed_configs.contains(&call.provider_config)
            {
                continue;
            }
            if given_up.contains(&call.provider) {
                continue;
            }
            let found = packages
                .entry(&call.provider)
                .or_insert_with(|| runnable(&call.provider));
            let Some((root, provider)) = found else {
                continue;
            };
            let key = AnswerKey {
                provider: call.provider.clone(),
                package_hash: provider.package_hash().to_owned(),
                kind: call.kind.clone(),
                config: call.config.clone(),
            };
            let known = self
                .answers
                .lock()
                .ok()
                .and_then(|answers| answers.get(&key).cloned());
            let answers = match known {
                Some(answers) => {
                    outcome.n_cached += 1;
                    answers
                }
                None => match self.send(workspace.unwrap_or(root), provider, call) {
                    Ok(answers) => {
                        outcome.n_sent += 1;
                        self.remember(key, answers.clone());
                        answers
                    }
                    Err(problem) => {
                        outcome.problems.push(format!(
                            "{}: the validators of {} were not run: {problem}",
                            call.provider,
                            call.block_name()
                        ));
                        given_up.insert(&call.provider);
                        continue;
                    }
                },
            };
            let any_error = answers
                .iter()
                .any(|answer| answer.severity != DiagnosticSeverity::Warning);
            if call.kind == ValidatorKind::Provider && any_error {
                failed_configs.insert(&call.block);
            }
            outcome
                .diagnostics
                .extend(answers.iter().map(|answer| call.diagnostic(answer)));
        }
        outcome
    }

    /// The processes running now, for tests and status.
    pub fn running(&self) -> Vec<tofu_schema::pool::RunningProvider> {
        self.pool.running()
    }

    /// Stops and reaps every provider.
    pub fn shut_down(&self) {
        self.pool.shut_down();
    }

    fn send(
        &self,
        workspace: &Path,
        provider: &RunnableProvider,
        call: &ValidatorCall,
    ) -> Result<Vec<ProviderDiagnostic>, String> {
        let deadline = Instant::now() + WAIT_FOR_PROVIDER;
        self.pool
            .call_provider(workspace, provider, deadline, |client| match &call.kind {
                ValidatorKind::Provider => client.validate_provider_config(&call.config),
                ValidatorKind::Resource(type_name) => {
                    client.validate_resource_config(type_name, &call.config)
                }
                ValidatorKind::DataResource(type_name) => {
                    client.validate_data_resource_config(type_name, &call.config)
                }
                ValidatorKind::EphemeralResource(type_name) => {
                    client.validate_ephemeral_resource_config(type_name, &call.config)
                }
            })
            .map_err(|error| error.to_string())
    }

    fn remember(&self, key: AnswerKey, answers: Vec<ProviderDiagnostic>) {
        if let Ok(mut kept) = self.answers.lock() {
            if kept.len() >= MOST_ANSWERS_KEPT {
                kept.clear();
            }
            kept.insert(key, answers);
        }
    }
}

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
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tofu_diagnostics::validator_calls::{ValidatorCall, ValidatorKind};
use tofu_eval::{FunctionError, ProviderFunction, Value};
use tofu_module::BlockAddress;
use tofu_schema::plugin::messages::{DiagnosticSeverity, ProviderDiagnostic};
use tofu_schema::plugin::{DynamicValue, FunctionAnswer};
use tofu_schema::{
    decode_msgpack, encode_msgpack, PoolSettings, ProviderAddress, ProviderPool, RunnableProvider,
};
use tofu_syntax::Diagnostic;

use super::SchemaOptions;
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
    /// `CallFunction` answers, by what they depend on.
    functions: Mutex<HashMap<FunctionKey, Result<Value, FunctionError>>>,
}

/// What a `CallFunction` answer depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct FunctionKey {
    provider: ProviderAddress,
    package_hash: String,
    function: String,
    arguments: Vec<Vec<u8>>,
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
    /// The pool of provider processes that answer validators and
    /// functions for a run (one process per provider and root, reaped when
    /// it ends), when `options` let providers run: `None` otherwise.
    pub fn for_options(options: &SchemaOptions) -> Option<Arc<ProviderValidators>> {
        (options.run_providers && options.environment.is_some()).then(|| {
            Arc::new(ProviderValidators::new(PoolSettings {
                timeouts: options.timeouts,
                ..PoolSettings::default()
            }))
        })
    }

    pub fn new(settings: PoolSettings) -> ProviderValidators {
        ProviderValidators {
            pool: ProviderPool::new(settings),
            answers: Mutex::new(HashMap::new()),
            functions: Mutex::new(HashMap::new()),
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

    /// Calls provider function `function` of the package `provider` (the
    /// plugin protocol's `CallFunction`) with wholly known arguments of its
    /// parameters' types, through the same pool as the validators (one
    /// process per provider and `workspace`); an answer is kept by
    /// (package, function, arguments), so a call made again (another
    /// rule, another analysis) starts nothing. The provider's
    /// `FunctionError` blames argument 0 when it names none, as OpenTofu's
    /// gRPC client reads it. `Err` says why the provider could not answer.
    pub fn call_function(
        &self,
        workspace: &Path,
        provider: &RunnableProvider,
        function: &ProviderFunction,
        arguments: &[Value],
    ) -> Result<Result<Value, FunctionError>, String> {
        let mut encoded = Vec::with_capacity(arguments.len());
        for (index, argument) in arguments.iter().enumerate() {
            let ty = function
                .parameter_at(index)
                .map_or_else(|| argument.ty(), |parameter| parameter.ty.clone());
            encoded.push(encode_msgpack(argument, &ty).map_err(|error| error.to_string())?);
        }
        let key = FunctionKey {
            provider: provider.address().clone(),
            package_hash: provider.package_hash().to_owned(),
            function: function.function.clone(),
            arguments: encoded,
        };
        if let Some(known) = self
            .functions
            .lock()
            .ok()
            .and_then(|answers| answers.get(&key).cloned())
        {
            return Ok(known);
        }
        let values: Vec<DynamicValue> = key
            .arguments
            .iter()
            .map(|bytes| DynamicValue::Msgpack(bytes.clone()))
            .collect();
        let deadline = Instant::now() + WAIT_FOR_PROVIDER;
        let answer = self
            .pool
            .call_provider(workspace, provider, deadline, |client| {
                client.call_function(&function.function, &values)
            })
            .map_err(|error| error.to_string())?;
        let answer = match answer {
            FunctionAnswer::Error { text, argument } => Err(FunctionError::argument(
                usize::try_from(argument.unwrap_or(0)).unwrap_or(usize::MAX),
                text,
            )),
            FunctionAnswer::Result(DynamicValue::Msgpack(bytes)) => {
                Ok(
                    decode_msgpack(&bytes, &function.return_type).map_err(|error| {
                        format!(
                            "its result for {} does not decode: {error}",
                            function.function
                        )
                    })?,
                )
            }
            FunctionAnswer::Result(DynamicValue::Json(_)) => {
                return Err(format!(
                    "its result for {} is JSON, which OpenTofu does not read",
                    function.function
                ))
            }
        };
        if let Ok(mut kept) = self.functions.lock() {
            if kept.len() >= MOST_ANSWERS_KEPT {
                kept.clear();
            }
            kept.insert(key, answer.clone());
        }
        Ok(answer)
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

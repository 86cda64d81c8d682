//! Providers fetched for the modules nothing was installed for (issue
//! 47), for `check` and the server alike: for each provider a directory needs
//! whose schema no root installs and the schema cache does not hold for
//! its locked version, the package `tofu init` would install — the lock
//! file's version (and hashes), else the newest its constraints accept —
//! from tofu-lens's package cache, or with `--fetch-providers` from the
//! registry or mirror the CLI configuration names, verified
//! ([`crate::Fetcher`]). The schema source then reads the package's
//! schema as it reads an installed one. Offline ([`ProviderFetch`]
//! without `online`, `check` without `--fetch-providers`) nothing goes
//! over the network: CI stays offline by default.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::{FetchConfig, FetchError, FetchedPackage, Fetcher, PackageStore, VersionChoice};
use tofu_module::merge::MergedModule;
use tofu_schema::install::LockedProvider;
use tofu_schema::{ProviderAddress, ProviderEnvironment};
use tofu_vfs::schemas::{nearest_lock_file, FetchPackages, SchemaSource};

/// Fetching for one run.
pub struct ProviderFetch {
    fetcher: Fetcher,
    /// Whether to go over the network (`--fetch-providers`); else the
    /// package cache only.
    online: bool,
    /// Each failure's message, once (for stderr).
    failures: Mutex<BTreeSet<String>>,
    /// Offline, whether the cache holds any package: without one there is
    /// nothing to look for (read once a run).
    cache_has_packages: std::sync::OnceLock<bool>,
}

impl std::fmt::Debug for ProviderFetch {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ProviderFetch")
            .field("online", &self.online)
            .finish_non_exhaustive()
    }
}

impl ProviderFetch {
    /// `None` when the environment has no package cache.
    pub fn new(
        environment: &ProviderEnvironment,
        config: FetchConfig,
        online: bool,
    ) -> Option<ProviderFetch> {
        let dir = environment.fetched_dir.clone()?;
        Some(ProviderFetch {
            fetcher: Fetcher::new(config, PackageStore::new(dir, crate::DEFAULT_MAX_BYTES)),
            online,
            failures: Mutex::new(BTreeSet::new()),
            cache_has_packages: std::sync::OnceLock::new(),
        })
    }

    /// Gives `source` the packages of the providers `module` (the
    /// analysis of `dir`) needs that nothing installed gives.
    fn prepare_now(
        &self,
        dir: &Path,
        module: &MergedModule,
        source: &SchemaSource,
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    ) {
        let offline_and_empty = !self.online
            && !*self.cache_has_packages.get_or_init(|| {
                std::fs::read_dir(self.fetcher.store().dir())
                    .is_ok_and(|mut entries| entries.next().is_some())
            });
        if offline_and_empty {
            return;
        }
        for job in jobs_for(dir, module, source, callers) {
            let found = if self.online {
                self.fetcher.fetch(
                    &job.address,
                    &job.choice,
                    job.locked.as_ref(),
                    &|progress| {
                        tracing::debug!(address = %job.address, ?progress, "fetching");
                        true
                    },
                )
            } else {
                match self
                    .fetcher
                    .cached(&job.address, &job.choice, job.locked.as_ref())
                {
                    Some(found) => Ok(found),
                    None => continue,
                }
            };
            if let Err(error) = &found {
                self.failed(&job, &error.to_string());
            }
            source.use_fetched(dir, &job.address, job.outcome(found));
        }
    }

    fn failed(&self, job: &FetchJob, why: &str) {
        if let Ok(mut failures) = self.failures.lock() {
            failures.insert(format!("could not fetch {}: {why}", job.describe()));
        }
    }

    /// Each failure, once, sorted.
    pub fn failures(&self) -> Vec<String> {
        self.failures
            .lock()
            .map(|failures| failures.iter().cloned().collect())
            .unwrap_or_default()
    }
}

impl FetchPackages for ProviderFetch {
    fn prepare(
        &self,
        dir: &Path,
        module: &MergedModule,
        source: &SchemaSource,
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    ) {
        self.prepare_now(dir, module, source, callers);
    }
}

/// One package to find for a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchJob {
    pub address: ProviderAddress,
    pub choice: VersionChoice,
    /// The nearest lock file's entry, if it has one.
    pub locked: Option<LockedProvider>,
}

impl FetchJob {
    /// The package `tofu init` would install for `address`: the lock
    /// file's version when `locked` has an entry, else the newest the
    /// constraints accept.
    pub fn new(
        address: ProviderAddress,
        constraints: &[String],
        locked: Option<LockedProvider>,
    ) -> FetchJob {
        let choice = match &locked {
            Some(locked) => VersionChoice::Exact(locked.version.clone()),
            None => VersionChoice::Constraints(constraints.to_vec()),
        };
        FetchJob {
            address,
            choice,
            locked,
        }
    }

    /// `registry.opentofu.org/hashicorp/time 0.14.2` (the version when
    /// the lock file gives it).
    pub fn describe(&self) -> String {
        match &self.choice {
            VersionChoice::Exact(version) => format!("{} {version}", self.address),
            VersionChoice::Constraints(_) => self.address.to_string(),
        }
    }

    /// What the schema source is given for a fetch's result: the lock
    /// entry the package answers to (the lock file's, else what
    /// verification established), or why there is none.
    pub fn outcome(
        &self,
        found: Result<FetchedPackage, FetchError>,
    ) -> Result<LockedProvider, String> {
        match found {
            Ok(package) => Ok(self
                .locked
                .clone()
                .unwrap_or_else(|| package.locked_entry())),
            Err(error) => Err(error.to_string()),
        }
    }
}

/// The packages to find for the providers `module` (the merged
/// configuration of `dir`) needs that nothing installed gives: the lock
/// file's version, else the newest the module's constraints accept.
pub fn jobs_for(
    dir: &Path,
    module: &MergedModule,
    source: &SchemaSource,
    callers: &dyn Fn(&Path) -> Vec<PathBuf>,
) -> Vec<FetchJob> {
    let needs = tofu_module::provider_needs::module_needs(module);
    let mut lock: Option<Vec<LockedProvider>> = None;
    let mut jobs = Vec::new();
    for need in needs.iter().filter(|need| !need.is_built_in()) {
        if source.needs_no_fetch(dir, &need.address, callers) {
            continue;
        }
        let locked = lock
            .get_or_insert_with(|| nearest_lock_file(dir))
            .iter()
            .find(|entry| entry.address == need.address)
            .cloned();
        jobs.push(FetchJob::new(
            need.address.clone(),
            &need.version_constraints,
            locked,
        ));
    }
    jobs
}

//! Providers fetched for the modules nothing was installed for (issue
//! 47), for `check` and `schemas`: for each provider a directory needs
//! whose schema no root installs and the schema cache does not hold for
//! its locked version, the package `tofu init` would install — the lock
//! file's version (and hashes), else the newest its constraints accept —
//! from tofu-lens's package cache, or with `--fetch-providers` from the
//! registry or mirror the CLI configuration names, verified
//! (`tofu_fetch`). The schema source then reads the package's schema as
//! it reads an installed one. Without `--fetch-providers` nothing goes
//! over the network: CI stays offline by default.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tofu_fetch::{FetchConfig, Fetcher, PackageStore, VersionChoice, DEFAULT_MAX_BYTES};
use tofu_module::merge::MergedModule;
use tofu_schema::install::{parse_lock_file, LockedProvider};
use tofu_schema::{ProviderAddress, ProviderEnvironment};
use tofu_vfs::schemas::{FetchPackages, SchemaSource};

/// Fetching for one run.
pub struct ProviderFetch {
    fetcher: Fetcher,
    /// Whether to go over the network (`--fetch-providers`); else the
    /// package cache only.
    online: bool,
    /// Each failure's message, once (for stderr).
    failures: Mutex<BTreeSet<String>>,
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
            fetcher: Fetcher::new(config, PackageStore::new(dir, DEFAULT_MAX_BYTES)),
            online,
            failures: Mutex::new(BTreeSet::new()),
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
        let needs = tofu_module::provider_needs::module_needs(module);
        let mut lock: Option<Vec<LockedProvider>> = None;
        for need in needs.iter().filter(|need| !need.is_built_in()) {
            let address = &need.address;
            if source.needs_no_fetch(dir, address, callers) {
                continue;
            }
            let locked = lock
                .get_or_insert_with(|| nearest_lock_file(dir))
                .iter()
                .find(|entry| entry.address == *address)
                .cloned();
            let choice = match &locked {
                Some(locked) => VersionChoice::Exact(locked.version.clone()),
                None => VersionChoice::Constraints(need.version_constraints.clone()),
            };
            let found = if self.online {
                self.fetcher
                    .fetch(address, &choice, locked.as_ref(), &|progress| {
                        tracing::info!(%address, ?progress, "fetching");
                    })
                    .map_err(|error| error.to_string())
            } else {
                match self.fetcher.cached(address, &choice, locked.as_ref()) {
                    Some(found) => Ok(found),
                    None => continue,
                }
            };
            let outcome = match found {
                Ok(package) => Ok(locked.unwrap_or_else(|| package.locked_entry())),
                Err(why) => {
                    self.failed(address, &choice, &why);
                    Err(why)
                }
            };
            source.use_fetched(dir, address, outcome);
        }
    }

    fn failed(&self, address: &ProviderAddress, choice: &VersionChoice, why: &str) {
        let version = match choice {
            VersionChoice::Exact(version) => format!(" {version}"),
            VersionChoice::Constraints(_) => String::new(),
        };
        if let Ok(mut failures) = self.failures.lock() {
            failures.insert(format!("could not fetch {address}{version}: {why}"));
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

/// The entries of the nearest `.terraform.lock.hcl` at or above `dir`.
fn nearest_lock_file(dir: &Path) -> Vec<LockedProvider> {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    dir.ancestors()
        .map(|above| above.join(".terraform.lock.hcl"))
        .find(|file| file.is_file())
        .and_then(|file| std::fs::read_to_string(file).ok())
        .map(|text| parse_lock_file(&text))
        .unwrap_or_default()
}

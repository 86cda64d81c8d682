//! Choosing a version and fetching its package for this platform, as
//! `tofu init` would install it, into the [`PackageStore`].

use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tofu_module::version::{Constraints, Version};
use tofu_schema::install::{package_hash_v1_zip, InstallationMethod, LockedProvider, MethodKind};
use tofu_schema::ProviderAddress;

use crate::http::Http;
use crate::network::{FetchConfig, FetchError, Network, VersionChoice};
use crate::store::{FetchedPackage, PackageStore, Record};
use crate::verify::{
    matches_lock, sha256_hex, verify_mirror_package, verify_registry_package, RegistryClaims,
    VerifyError,
};
use crate::{mirror, registry};

type Once = Arc<OnceLock<Result<FetchedPackage, FetchError>>>;
/// A fetch: the provider, the version choice and the lock file's hashes.
type FetchKey = (ProviderAddress, VersionChoice, Vec<String>);

/// Fetches packages into a store; one download per package however many
/// modules (or threads) ask.
pub struct Fetcher {
    config: FetchConfig,
    store: PackageStore,
    http: OnceLock<Result<Http, String>>,
    pending: Mutex<HashMap<FetchKey, Once>>,
    /// Each download under way, by provider and version: two choices that
    /// pick the same version (a module's constraint and its child's) share
    /// one download.
    downloads: Mutex<HashMap<FetchKey, Once>>,
    /// Each failure, when it happened: the same fetch asked again within
    /// [`FAILURE_KEPT`] gets it at once (hundreds of modules needing one
    /// provider the registry cannot give ask once, not once each).
    failures: Mutex<HashMap<FetchKey, (Instant, FetchError)>>,
}

/// How long a failed fetch is answered from memory before it is tried
/// again.
pub const FAILURE_KEPT: Duration = Duration::from_secs(300);

impl fmt::Debug for Fetcher {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Fetcher")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

/// Where a fetch is, for progress reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Asking which versions there are.
    Resolving,
    /// Downloading `version`: `received` bytes so far of `total` (when
    /// the server said).
    Downloading {
        version: String,
        received: u64,
        total: Option<u64>,
    },
    Verifying {
        version: String,
        size: u64,
    },
}

impl Fetcher {
    pub fn new(config: FetchConfig, store: PackageStore) -> Fetcher {
        Fetcher {
            config,
            store,
            http: OnceLock::new(),
            pending: Mutex::new(HashMap::new()),
            downloads: Mutex::new(HashMap::new()),
            failures: Mutex::new(HashMap::new()),
        }
    }

    pub fn store(&self) -> &PackageStore {
        &self.store
    }

    pub fn config(&self) -> &FetchConfig {
        &self.config
    }

    /// The cached package `choice` picks, without the network: the exact
    /// version, or the newest cached one the constraints accept; it must
    /// match `locked`'s hashes when there are any.
    pub fn cached(
        &self,
        address: &ProviderAddress,
        choice: &VersionChoice,
        locked: Option<&LockedProvider>,
    ) -> Option<FetchedPackage> {
        let platform = self.config.platform.dir_name();
        let version = choose_version(address, choice, || {
            Ok(self.store.versions(address, &platform))
        })
        .ok()?;
        let found = self.store.get(address, &version, &platform)?;
        let acceptable = locked.is_none_or(|locked| {
            locked.hashes.is_empty()
                || found
                    .record
                    .hashes
                    .iter()
                    .any(|hash| locked.hashes.contains(hash))
        });
        acceptable.then_some(found)
    }

    /// The package `choice` picks for `address`, fetched and verified
    /// unless the cache has it. `progress` hears where the fetch is, and
    /// stops it by answering false ([`FetchError::Cancelled`]). One fetch
    /// runs at a time per package; those asking meanwhile wait for it. A
    /// failure is not remembered: the next ask tries again.
    pub fn fetch(
        &self,
        address: &ProviderAddress,
        choice: &VersionChoice,
        locked: Option<&LockedProvider>,
        progress: &dyn Fn(Progress) -> bool,
    ) -> Result<FetchedPackage, FetchError> {
        if let VersionChoice::Exact(_) = choice {
            if let Some(found) = self.cached(address, choice, locked) {
                return Ok(found);
            }
        }
        let key = (
            address.clone(),
            choice.clone(),
            locked
                .map(|locked| locked.hashes.clone())
                .unwrap_or_default(),
        );
        if let Some(error) = self.recent_failure(&key) {
            return Err(error);
        }
        let outcome = shared_once(&self.pending, key.clone(), || {
            self.fetch_now(address, choice, locked, progress)
        });
        match &outcome {
            Err(FetchError::Cancelled) | Ok(_) => {}
            Err(error) => {
                if let Ok(mut failures) = self.failures.lock() {
                    failures.insert(key, (Instant::now(), error.clone()));
                }
            }
        }
        outcome
    }

    /// The failure of the same fetch within [`FAILURE_KEPT`], if any.
    fn recent_failure(&self, key: &FetchKey) -> Option<FetchError> {
        let failures = self.failures.lock().ok()?;
        let (when, error) = failures.get(key)?;
        (when.elapsed() < FAILURE_KEPT).then(|| error.clone())
    }

    /// Forgets the failures, so that every fetch is tried again (the
    /// settings changed, the user asked).
    pub fn forget_failures(&self) {
        if let Ok(mut failures) = self.failures.lock() {
            failures.clear();
        }
    }

    fn fetch_now(
        &self,
        address: &ProviderAddress,
        choice: &VersionChoice,
        locked: Option<&LockedProvider>,
        progress: &dyn Fn(Progress) -> bool,
    ) -> Result<FetchedPackage, FetchError> {
        let http = match self
            .http
            .get_or_init(|| Http::new(self.config.http.clone()))
        {
            Ok(http) => http,
            Err(why) => return Err(FetchError::Unreachable(why.clone())),
        };
        let network = Network {
            config: &self.config,
            http,
        };
        let implied = [InstallationMethod {
            kind: MethodKind::Direct,
            include: Vec::new(),
            exclude: Vec::new(),
        }];
        let methods: &[InstallationMethod] = if self.config.methods.is_empty() {
            &implied
        } else {
            &self.config.methods
        };
        let mut first_error = None;
        for method in methods.iter().filter(|method| method.applies_to(address)) {
            let outcome = match &method.kind {
                MethodKind::FilesystemMirror { .. } => continue,
                MethodKind::Direct => {
                    self.fetch_from_registry(&network, address, choice, locked, progress)
                }
                MethodKind::NetworkMirror { url } => {
                    self.fetch_from_mirror(&network, url, address, choice, locked, progress)
                }
            };
            match outcome {
                Ok(found) => return Ok(found),
                // Another method may have it.
                Err(error @ (FetchError::NotFound(_) | FetchError::NoVersion(_))) => {
                    first_error.get_or_insert(error);
                }
                Err(error) => return Err(error),
            }
        }
        Err(first_error.unwrap_or_else(|| {
            FetchError::NoMethod(format!(
                "the CLI configuration's provider_installation has no network_mirror or direct method for {address}"
            ))
        }))
    }

    fn fetch_from_registry(
        &self,
        network: &Network<'_>,
        address: &ProviderAddress,
        choice: &VersionChoice,
        locked: Option<&LockedProvider>,
        progress: &dyn Fn(Progress) -> bool,
    ) -> Result<FetchedPackage, FetchError> {
        if !progress(Progress::Resolving) {
            return Err(FetchError::Cancelled);
        }
        let base = registry::providers_base(network, &address.hostname)?;
        let version = choose_version(address, choice, || {
            let listed = registry::versions(network, &base, address)?;
            Ok(listed
                .into_iter()
                .filter(|(_, protocols)| registry::protocols_supported(protocols))
                .map(|(version, _)| version)
                .collect())
        })?;
        self.download_once(address, &version, locked, || {
            self.download_from_registry(network, &base, address, &version, locked, progress)
        })
    }

    /// `fetch`, once per package however many choices pick it; what the
    /// store has already is not fetched again.
    fn download_once(
        &self,
        address: &ProviderAddress,
        version: &str,
        locked: Option<&LockedProvider>,
        fetch: impl FnOnce() -> Result<FetchedPackage, FetchError>,
    ) -> Result<FetchedPackage, FetchError> {
        let exact = VersionChoice::Exact(version.to_owned());
        if let Some(found) = self.cached(address, &exact, locked) {
            return Ok(found);
        }
        let key = (
            address.clone(),
            exact,
            locked
                .map(|locked| locked.hashes.clone())
                .unwrap_or_default(),
        );
        shared_once(&self.downloads, key, fetch)
    }

    fn download_from_registry(
        &self,
        network: &Network<'_>,
        base: &str,
        address: &ProviderAddress,
        version: &str,
        locked: Option<&LockedProvider>,
        progress: &dyn Fn(Progress) -> bool,
    ) -> Result<FetchedPackage, FetchError> {
        let version = version.to_owned();
        let meta = registry::package_meta(network, base, address, &version)?;
        let checksums = registry::file(
            network,
            &meta.shasums_url,
            &address.hostname,
            "authentication checksums for provider",
        )?;
        let signature = registry::file(
            network,
            &meta.shasums_signature_url,
            &address.hostname,
            "cryptographic signature for provider",
        )?;
        let archive = self.download(network, &meta.download_url, &version, progress)?;
        let _ = progress(Progress::Verifying {
            version: version.clone(),
            size: u64::try_from(archive.len()).unwrap_or(u64::MAX),
        });
        let claims = RegistryClaims {
            filename: &meta.filename,
            shasum: &meta.shasum,
            checksums: &checksums,
            signature: &signature,
            keys: &meta.keys,
            enforce_signature: address.hostname != tofu_schema::address::DEFAULT_REGISTRY_HOST
                || self.config.enforce_gpg_validation,
            package: meta
                .package
                .as_ref()
                .map(|(hashes, size)| (hashes.as_slice(), *size)),
            has_packages: meta.has_packages,
        };
        let verified = verify_registry_package(&archive, &claims).map_err(FetchError::Verify)?;
        self.keep(
            address,
            &version,
            &archive,
            verified.hashes,
            verified.signed_by,
            &meta.download_url,
            locked,
        )
    }

    fn fetch_from_mirror(
        &self,
        network: &Network<'_>,
        base: &str,
        address: &ProviderAddress,
        choice: &VersionChoice,
        locked: Option<&LockedProvider>,
        progress: &dyn Fn(Progress) -> bool,
    ) -> Result<FetchedPackage, FetchError> {
        if crate::url::scheme(base).as_deref() != Some("https") {
            return Err(FetchError::Query(format!(
                "the network mirror URL {base} must use https"
            )));
        }
        if !progress(Progress::Resolving) {
            return Err(FetchError::Cancelled);
        }
        let version = choose_version(address, choice, || mirror::versions(network, base, address))?;
        self.download_once(address, &version, locked, || {
            self.download_from_mirror(network, base, address, &version, locked, progress)
        })
    }

    fn download_from_mirror(
        &self,
        network: &Network<'_>,
        base: &str,
        address: &ProviderAddress,
        version: &str,
        locked: Option<&LockedProvider>,
        progress: &dyn Fn(Progress) -> bool,
    ) -> Result<FetchedPackage, FetchError> {
        let version = version.to_owned();
        let (url, hashes) = mirror::archive(network, base, address, &version)?;
        let archive = self.download(network, &url, &version, progress)?;
        let _ = progress(Progress::Verifying {
            version: version.clone(),
            size: u64::try_from(archive.len()).unwrap_or(u64::MAX),
        });
        let h1 = || package_hash_v1_zip(&archive).ok();
        let verified = verify_mirror_package(&archive, &hashes, &h1).map_err(FetchError::Verify)?;
        self.keep(
            address,
            &version,
            &archive,
            verified.hashes,
            None,
            &url,
            locked,
        )
    }

    fn download(
        &self,
        network: &Network<'_>,
        url: &str,
        version: &str,
        progress: &dyn Fn(Progress) -> bool,
    ) -> Result<Vec<u8>, FetchError> {
        let received = |received: u64, total: Option<u64>| {
            progress(Progress::Downloading {
                version: version.to_owned(),
                received,
                total,
            })
        };
        let fetched = network
            .http
            .download(url, None, self.config.max_package_bytes, &received)
            .map_err(|why| {
                if why == crate::http::CANCELLED {
                    FetchError::Cancelled
                } else {
                    FetchError::Download(format!("failed to download the package: {why}"))
                }
            })?;
        if fetched.status != 200 {
            return Err(FetchError::Download(format!(
                "failed to download the package: {} returned from {url}",
                fetched.status
            )));
        }
        Ok(fetched.body)
    }

    fn stage(&self, archive: &[u8]) -> Result<crate::store::Staging, FetchError> {
        let store_error = |error: std::io::Error| {
            FetchError::Store(format!(
                "the package cache {} cannot be written: {error}",
                self.store.dir().display()
            ))
        };
        let staged = self.store.staging_file().map_err(store_error)?;
        std::fs::File::create(staged.path())
            .and_then(|mut file| file.write_all(archive))
            .map_err(store_error)?;
        Ok(staged)
    }

    /// Checks the verified `archive` unpacks safely and matches the lock
    /// file, then puts it in the store.
    #[allow(clippy::too_many_arguments)]
    fn keep(
        &self,
        address: &ProviderAddress,
        version: &str,
        archive: &[u8],
        mut hashes: Vec<String>,
        signed_by: Option<String>,
        origin: &str,
        locked: Option<&LockedProvider>,
    ) -> Result<FetchedPackage, FetchError> {
        // The archive's files as they unpack: checked, and hashed as
        // `tofu init` hashes what it installed.
        let h1 = package_hash_v1_zip(archive)
            .map_err(|error| FetchError::Verify(VerifyError::Archive(error.to_string())))?;
        let zh = format!("zh:{}", sha256_hex(archive));
        if let Some(locked) = locked {
            if !matches_lock(&locked.hashes, &zh, Some(&h1)) {
                return Err(FetchError::Verify(VerifyError::LockMismatch {
                    version: version.to_owned(),
                }));
            }
        }
        hashes.retain(|hash| *hash != h1);
        hashes.insert(0, h1);
        let staged = self.stage(archive)?;
        let record = Record {
            address: address.to_string(),
            version: version.to_owned(),
            platform: self.config.platform.dir_name(),
            hashes,
            signed_by,
            origin: origin.to_owned(),
        };
        self.store.put(address, staged, record).map_err(|error| {
            FetchError::Store(format!(
                "the package cache {} cannot be written: {error}",
                self.store.dir().display()
            ))
        })
    }
}

/// `fetch()` run once for `key` while others asking for it wait; a
/// failure is forgotten once returned, so the next ask tries again.
fn shared_once(
    map: &Mutex<HashMap<FetchKey, Once>>,
    key: FetchKey,
    fetch: impl FnOnce() -> Result<FetchedPackage, FetchError>,
) -> Result<FetchedPackage, FetchError> {
    let once: Once = match map.lock() {
        Ok(mut pending) => Arc::clone(pending.entry(key.clone()).or_default()),
        Err(_) => Arc::default(),
    };
    let outcome = once.get_or_init(fetch).clone();
    if outcome.is_err() {
        if let Ok(mut pending) = map.lock() {
            if pending
                .get(&key)
                .is_some_and(|cell| Arc::ptr_eq(cell, &once))
            {
                pending.remove(&key);
            }
        }
    }
    outcome
}

/// The version `choice` picks: the exact one, or the newest of those
/// `listed` gives (asked only then) that the constraints accept.
fn choose_version(
    address: &ProviderAddress,
    choice: &VersionChoice,
    listed: impl FnOnce() -> Result<Vec<String>, FetchError>,
) -> Result<String, FetchError> {
    match choice {
        VersionChoice::Exact(version) => Ok(version.clone()),
        VersionChoice::Constraints(constraints) => {
            newest_accepted(listed()?, constraints).ok_or_else(|| no_version(address, constraints))
        }
    }
}

fn no_version(address: &ProviderAddress, constraints: &[String]) -> FetchError {
    FetchError::NoVersion(if constraints.is_empty() {
        format!("no available releases match the given constraints for {address}")
    } else {
        format!(
            "no available releases match the given constraints {} for {address}",
            constraints.join(", ")
        )
    })
}

/// The newest of `versions` that every constraint accepts; prereleases
/// only where a constraint names that very version.
pub fn newest_accepted(versions: Vec<String>, constraints: &[String]) -> Option<String> {
    let parsed: Vec<Constraints> = constraints
        .iter()
        .filter_map(|text| Constraints::parse(text).ok())
        .collect();
    versions
        .into_iter()
        .filter_map(|text| Some((Version::parse(&text).ok()?, text)))
        .filter(|(version, text)| {
            let named = constraints
                .iter()
                .any(|constraint| constraint.contains(text.as_str()));
            (version.core() == *version || named)
                && parsed
                    .iter()
                    .all(|constraints| constraints.accepts(version))
        })
        .max_by(|(left, _), (right, _)| left.compare(right))
        .map(|(_, text)| text)
}

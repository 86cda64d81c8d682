//! Getting one provider's schema from what is installed: choose the
//! package, hash it (or take the hash the cache remembers for its
//! unchanged files), take the schema from the cache when an entry has that
//! hash, else check the package against the lock file, unpack it if it is
//! a mirror's archive (into the cache directory), run it, read the
//! schema, shut it down and store the schema in the cache.
//!
//! Trust: a provider is run only when running is allowed, the lock file
//! has an entry for it, and the package's hash is among the entry's
//! hashes (as `tofu init` checks). A cache hit runs nothing, so it needs
//! no lock entry: the entry was read from a package with the very same
//! hash. Every way this fails is one [`SchemaReadError`] whose message
//! says why, for `tofu-lens schemas` to print. No environment is read
//! here: the directories, platform and limits come in [`SchemaRequest`].

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::address::ProviderAddress;
use crate::cache::{CacheKey, SchemaCache};
use crate::install::discovery::{
    find_executable, find_installed, select_package, InstalledPackage, PackageLocation, Platform,
    SearchDirs, SelectionError,
};
use crate::install::lock_file::LockedProvider;
use crate::install::package_hash::{hash_scheme_applies, package_hash_v1, package_hash_zip};
use crate::install::unpack::unpack_zip;
use crate::model::ProviderSchema;
use crate::plugin::{ClientError, PluginError, ProviderClient, Timeouts};

/// What to read and where from.
pub struct SchemaRequest<'a> {
    pub address: &'a ProviderAddress,
    pub search: &'a SearchDirs,
    pub platform: &'a Platform,
    /// The root module's lock file entry for this provider, if any.
    pub locked: Option<&'a LockedProvider>,
    /// Whether a version is accepted by `required_providers` (used only
    /// without a lock entry).
    pub accepts: &'a dyn Fn(&str) -> bool,
    pub cache: Option<&'a SchemaCache>,
    /// Whether providers may be run at all (off in an untrusted workspace).
    pub run_providers: bool,
    /// Where providers put their sockets; `None` leaves it to them.
    pub socket_dir: Option<&'a Path>,
    pub timeouts: Timeouts,
}

/// Where a schema came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaOrigin {
    Cache,
    /// Read by running the provider (and stored in the cache, if given).
    Provider,
}

/// A schema and what it was read from.
#[derive(Debug)]
pub struct LoadedSchema {
    pub schema: ProviderSchema,
    pub package: InstalledPackage,
    pub package_hash: String,
    pub origin: SchemaOrigin,
    /// Why the schema could not be stored in the cache, when it could not.
    pub cache_store_error: Option<io::Error>,
}

/// Why there is no schema.
#[derive(Debug)]
pub enum SchemaReadError {
    /// No package, or none that fits (see [`SelectionError`]).
    Selection(SelectionError),
    /// The package could not be hashed.
    Hashing { package: PathBuf, error: io::Error },
    /// Running providers is turned off, and the cache has no entry.
    RunningDisabled,
    /// The lock file has no entry for the provider: nothing vouches for it.
    NotLocked,
    /// The package's hash is not among the lock file's.
    HashMismatch {
        package: PathBuf,
        computed: String,
        locked: Vec<String>,
    },
    /// A packed archive, and no cache directory to unpack it into.
    PackedPackage { archive: PathBuf },
    /// A packed archive that could not be unpacked.
    Unpacking { archive: PathBuf, error: io::Error },
    /// The package holds no `terraform-provider-TYPE` executable.
    NoExecutable { package: PathBuf },
    /// Starting or talking to the provider failed.
    Provider(ClientError),
}

impl fmt::Display for SchemaReadError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaReadError::Selection(SelectionError::NotInstalled) => {
                formatter.write_str("not installed: run tofu init")
            }
            SchemaReadError::Selection(SelectionError::OtherPlatformsOnly { platforms }) => write!(
                formatter,
                "installed only for another platform ({})",
                platforms.join(", ")
            ),
            SchemaReadError::Selection(SelectionError::LockedVersionNotInstalled { locked, installed }) => write!(
                formatter,
                "the lock file selects version {locked}, which is not installed (installed: {})",
                installed.join(", ")
            ),
            SchemaReadError::Selection(SelectionError::NoVersionAccepted { installed }) => write!(
                formatter,
                "no installed version matches the version constraints (installed: {})",
                installed.join(", ")
            ),
            SchemaReadError::Hashing { package, error } => {
                write!(formatter, "could not hash {}: {error}", package.display())
            }
            SchemaReadError::RunningDisabled => {
                formatter.write_str("running providers is turned off, and no schema is cached")
            }
            SchemaReadError::NotLocked => formatter.write_str(
                "not in the lock file (.terraform.lock.hcl), so not run: run tofu init",
            ),
            SchemaReadError::HashMismatch { package, computed, locked } => write!(
                formatter,
                "{} does not match the lock file (its hash is {computed}; the lock file has {}), so it was not run",
                package.display(),
                if locked.is_empty() { "none".to_owned() } else { locked.join(", ") }
            ),
            SchemaReadError::PackedPackage { archive } => write!(
                formatter,
                "{} is a packed archive, and there is no cache directory to unpack it into",
                archive.display()
            ),
            SchemaReadError::Unpacking { archive, error } => {
                write!(formatter, "could not unpack {}: {error}", archive.display())
            }
            SchemaReadError::NoExecutable { package } => {
                write!(formatter, "{} holds no provider executable", package.display())
            }
            SchemaReadError::Provider(error) => write!(formatter, "{error}"),
        }
    }
}

impl std::error::Error for SchemaReadError {}

/// Why a schema is missing, in a word for output formats and status
/// messages (the error's message gives the details).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissingReason {
    NotInstalled,
    OtherPlatform,
    LockedVersionNotInstalled,
    NoVersionAccepted,
    HashingFailed,
    RunningOff,
    NotLocked,
    HashMismatch,
    PackedWithoutCache,
    UnpackingFailed,
    NoExecutable,
    /// The executable could not be run at all (another architecture, not
    /// executable).
    CouldNotRun,
    /// It exited before its handshake, or its connection broke.
    Crashed,
    TimedOut,
    /// Its first line was not a plugin handshake.
    BadHandshake,
    /// It answered with errors, or with something that does not decode.
    ProviderError,
    /// Nothing installed it, and tofu-lens could not fetch it (`tofu-fetch`).
    FetchFailed,
}

impl MissingReason {
    /// The reason's name in `tofu-lens schemas --format json`.
    pub fn as_str(self) -> &'static str {
        match self {
            MissingReason::NotInstalled => "not-installed",
            MissingReason::OtherPlatform => "other-platform",
            MissingReason::LockedVersionNotInstalled => "locked-version-not-installed",
            MissingReason::NoVersionAccepted => "no-version-accepted",
            MissingReason::HashingFailed => "hashing-failed",
            MissingReason::RunningOff => "running-off",
            MissingReason::NotLocked => "not-locked",
            MissingReason::HashMismatch => "hash-mismatch",
            MissingReason::PackedWithoutCache => "packed-without-cache",
            MissingReason::UnpackingFailed => "unpacking-failed",
            MissingReason::NoExecutable => "no-executable",
            MissingReason::CouldNotRun => "could-not-run",
            MissingReason::Crashed => "crashed",
            MissingReason::TimedOut => "timed-out",
            MissingReason::BadHandshake => "bad-handshake",
            MissingReason::ProviderError => "provider-error",
            MissingReason::FetchFailed => "fetch-failed",
        }
    }
}

impl SchemaReadError {
    pub fn reason(&self) -> MissingReason {
        match self {
            SchemaReadError::Selection(SelectionError::NotInstalled) => MissingReason::NotInstalled,
            SchemaReadError::Selection(SelectionError::OtherPlatformsOnly { .. }) => {
                MissingReason::OtherPlatform
            }
            SchemaReadError::Selection(SelectionError::LockedVersionNotInstalled { .. }) => {
                MissingReason::LockedVersionNotInstalled
            }
            SchemaReadError::Selection(SelectionError::NoVersionAccepted { .. }) => {
                MissingReason::NoVersionAccepted
            }
            SchemaReadError::Hashing { .. } => MissingReason::HashingFailed,
            SchemaReadError::RunningDisabled => MissingReason::RunningOff,
            SchemaReadError::NotLocked => MissingReason::NotLocked,
            SchemaReadError::HashMismatch { .. } => MissingReason::HashMismatch,
            SchemaReadError::PackedPackage { .. } => MissingReason::PackedWithoutCache,
            SchemaReadError::Unpacking { .. } => MissingReason::UnpackingFailed,
            SchemaReadError::NoExecutable { .. } => MissingReason::NoExecutable,
            SchemaReadError::Provider(error) if error.is_timeout() => MissingReason::TimedOut,
            SchemaReadError::Provider(ClientError::Plugin(PluginError::Spawn { .. })) => {
                MissingReason::CouldNotRun
            }
            SchemaReadError::Provider(ClientError::Plugin(PluginError::BadHandshake {
                ..
            })) => MissingReason::BadHandshake,
            SchemaReadError::Provider(error) if error.ends_process() => MissingReason::Crashed,
            SchemaReadError::Provider(_) => MissingReason::ProviderError,
        }
    }
}

fn cache_key(
    request: &SchemaRequest<'_>,
    package: &InstalledPackage,
    package_hash: &str,
) -> CacheKey {
    CacheKey {
        address: request.address.clone(),
        version: package.version.clone(),
        package_hash: package_hash.to_owned(),
    }
}

/// A provider package that may be run: chosen as for reading its
/// schema, hashed in full, and matched against the lock file. Only
/// [`runnable_provider`] makes one, so whatever runs a provider (the
/// schema read, [`crate::pool::ProviderPool`]) runs a checked package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunnableProvider {
    address: ProviderAddress,
    version: String,
    package_hash: String,
    executable: PathBuf,
}

impl RunnableProvider {
    pub fn address(&self) -> &ProviderAddress {
        &self.address
    }

    pub fn version(&self) -> &str {
        &self.version
    }

    /// The `h1:` (unpacked) or `zh:` (archive) hash the lock file vouches for.
    pub fn package_hash(&self) -> &str {
        &self.package_hash
    }

    pub fn executable(&self) -> &Path {
        &self.executable
    }
}

/// The package `request` selects, checked so that it may be run (see
/// [`RunnableProvider`]): running must be allowed, the lock file must have
/// an entry whose hashes include the package's; a mirror's archive is
/// unpacked into the cache directory.
pub fn runnable_provider(request: &SchemaRequest<'_>) -> Result<RunnableProvider, SchemaReadError> {
    let package = choose_package(request)?;
    let package_hash = hash_package(&package)?;
    let key = cache_key(request, &package, &package_hash);
    check_and_unpack(request, &package, key)
}

/// Reads the schema of `request.address` (see the module doc for the steps).
pub fn read_provider_schema(request: &SchemaRequest<'_>) -> Result<LoadedSchema, SchemaReadError> {
    let package = choose_package(request)?;
    let package_path = package_path(&package);
    let remembered = request
        .cache
        .and_then(|cache| Some((cache, cache.remembered_package_hash(package_path)?)));
    if let Some((cache, remembered_hash)) = remembered {
        let key = cache_key(request, &package, &remembered_hash);
        if let Some(schema) = cache.load(&key) {
            lock_mismatch(request, &package, &remembered_hash)?;
            return Ok(LoadedSchema {
                schema,
                package,
                package_hash: remembered_hash,
                origin: SchemaOrigin::Cache,
                cache_store_error: None,
            });
        }
    }
    let package_hash = hash_package(&package)?;
    let key = cache_key(request, &package, &package_hash);
    if let Some(cache) = request.cache {
        // Only a speed-up for the next lookup: failing to remember is harmless.
        let _ = cache.remember_package_hash(package_path, &package_hash);
        if let Some(schema) = cache.load(&key) {
            lock_mismatch(request, &package, &package_hash)?;
            return Ok(LoadedSchema {
                schema,
                package,
                package_hash,
                origin: SchemaOrigin::Cache,
                cache_store_error: None,
            });
        }
    }
    let runnable = check_and_unpack(request, &package, key.clone())?;
    let mut client =
        ProviderClient::start(&runnable.executable, request.socket_dir, request.timeouts)
            .map_err(SchemaReadError::Provider)?;
    let schema = client.read_schema();
    client.shutdown();
    let schema = schema.map_err(SchemaReadError::Provider)?;
    let cache_store_error = request
        .cache
        .and_then(|cache| cache.store(&key, &schema).err());
    Ok(LoadedSchema {
        schema,
        package,
        package_hash,
        origin: SchemaOrigin::Provider,
        cache_store_error,
    })
}

/// The installed package `request` selects.
fn choose_package(request: &SchemaRequest<'_>) -> Result<InstalledPackage, SchemaReadError> {
    let installed = find_installed(request.search, request.address);
    select_package(
        &installed,
        request.platform,
        request.locked,
        request.accepts,
    )
    .cloned()
    .map_err(SchemaReadError::Selection)
}

/// The package's directory, or its archive.
fn package_path(package: &InstalledPackage) -> &Path {
    match &package.location {
        PackageLocation::Directory(dir) => dir,
        PackageLocation::Archive(archive) => archive,
    }
}

fn is_packed(package: &InstalledPackage) -> bool {
    matches!(package.location, PackageLocation::Archive(_))
}

/// The package's `h1:` hash (a directory) or `zh:` hash (an archive),
/// read in full.
fn hash_package(package: &InstalledPackage) -> Result<String, SchemaReadError> {
    let path = package_path(package);
    let hashed = if is_packed(package) {
        package_hash_zip(path)
    } else {
        package_hash_v1(path)
    };
    hashed.map_err(|error| SchemaReadError::Hashing {
        package: path.to_path_buf(),
        error,
    })
}

/// `HashMismatch` when the lock file has an entry for the provider and
/// `hash` (the package's) is not among its hashes: `tofu init` would not
/// have installed it, and `tofu validate` fails on it, even where the
/// schema cache has this package's schema. Without an entry, nothing to
/// compare (a cache hit needs none: see the module doc).
fn lock_mismatch(
    request: &SchemaRequest<'_>,
    package: &InstalledPackage,
    hash: &str,
) -> Result<(), SchemaReadError> {
    let Some(locked) = request.locked else {
        return Ok(());
    };
    if locked.hashes.iter().any(|locked| locked == hash) {
        return Ok(());
    }
    let packed = is_packed(package);
    Err(SchemaReadError::HashMismatch {
        package: package_path(package).to_path_buf(),
        computed: hash.to_owned(),
        locked: locked
            .hashes
            .iter()
            .filter(|hash| hash_scheme_applies(hash, packed))
            .cloned()
            .collect(),
    })
}

/// The trust check before anything runs, then the executable to run.
fn check_and_unpack(
    request: &SchemaRequest<'_>,
    package: &InstalledPackage,
    key: CacheKey,
) -> Result<RunnableProvider, SchemaReadError> {
    // Before anything else: a package the lock file does not vouch for is
    // an error whether or not providers may run (tofu validate fails on it).
    lock_mismatch(request, package, &key.package_hash)?;
    if !request.run_providers {
        return Err(SchemaReadError::RunningDisabled);
    }
    let package_path = package_path(package).to_path_buf();
    let packed = is_packed(package);
    request.locked.ok_or(SchemaReadError::NotLocked)?;
    let package_dir = if packed {
        let cache = request
            .cache
            .ok_or_else(|| SchemaReadError::PackedPackage {
                archive: package_path.clone(),
            })?;
        let unpacked = cache.unpacked_package_dir(&key, &package.platform);
        if !unpacked.is_dir() {
            unpack_zip(&package_path, &unpacked).map_err(|error| SchemaReadError::Unpacking {
                archive: package_path.clone(),
                error,
            })?;
        }
        unpacked
    } else {
        package_path
    };
    let executable =
        find_executable(&package_dir, &request.address.type_name).ok_or_else(|| {
            SchemaReadError::NoExecutable {
                package: package_dir.clone(),
            }
        })?;
    Ok(RunnableProvider {
        address: key.address,
        version: key.version,
        package_hash: key.package_hash,
        executable,
    })
}

#[cfg(test)]
mod tests;

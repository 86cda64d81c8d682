//! tofu-lens's package cache: fetched packages kept as a packed
//! filesystem mirror (`HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`,
//! the layout `tofu_schema`'s discovery reads), each beside a record of
//! what verified it (`….json`: the hashes `tofu init` would lock, the key
//! that signed, where it came from). A package enters only verified, under
//! a temporary name renamed into place, so no reader (another workspace,
//! another process) ever sees half of one; a record without its archive,
//! or an archive without its record, is not a package. Old packages are
//! evicted, least recently used first, when the cache grows past its size.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use tofu_schema::install::LockedProvider;
use tofu_schema::ProviderAddress;

/// The cache's size by default: 4 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 4 * 1024 * 1024 * 1024;

/// What verified a fetched package.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub address: String,
    pub version: String,
    pub platform: String,
    /// The package's `h1:` hash, then the `zh:` hashes verification
    /// established (what `tofu init` writes into a lock file).
    pub hashes: Vec<String>,
    /// The OpenPGP key id that signed the checksums, if one did.
    pub signed_by: Option<String>,
    /// The URL the archive came from.
    pub origin: String,
}

/// A verified package in the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchedPackage {
    pub address: ProviderAddress,
    pub archive: PathBuf,
    pub record: Record,
}

impl FetchedPackage {
    pub fn version(&self) -> &str {
        &self.record.version
    }

    /// A lock file entry for this package: what verification
    /// established, which is what lets tofu-lens run it when the module
    /// has no lock file entry of its own.
    pub fn locked_entry(&self) -> LockedProvider {
        LockedProvider {
            address: self.address.clone(),
            version: self.record.version.clone(),
            constraints: None,
            hashes: self.record.hashes.clone(),
        }
    }
}

/// The cache directory.
#[derive(Clone, Debug)]
pub struct PackageStore {
    dir: PathBuf,
    max_bytes: u64,
}

static STAGING: AtomicU64 = AtomicU64::new(0);

impl PackageStore {
    pub fn new(dir: impl Into<PathBuf>, max_bytes: u64) -> PackageStore {
        PackageStore {
            dir: dir.into(),
            max_bytes,
        }
    }

    /// The mirror directory (for `tofu_schema`'s discovery).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn provider_dir(&self, address: &ProviderAddress) -> Option<PathBuf> {
        [&address.hostname, &address.namespace, &address.type_name]
            .iter()
            .all(|part| safe_part(part))
            .then(|| {
                self.dir
                    .join(&address.hostname)
                    .join(&address.namespace)
                    .join(&address.type_name)
            })
    }

    fn paths(
        &self,
        address: &ProviderAddress,
        version: &str,
        platform: &str,
    ) -> Option<(PathBuf, PathBuf)> {
        if !safe_part(version) || !safe_part(platform) || version.contains('_') {
            return None;
        }
        let dir = self.provider_dir(address)?;
        let stem = format!(
            "terraform-provider-{}_{version}_{platform}",
            address.type_name
        );
        Some((
            dir.join(format!("{stem}.zip")),
            dir.join(format!("{stem}.json")),
        ))
    }

    /// The package of `address` at `version` for `platform`, if the cache
    /// has it (its archive and its record).
    pub fn get(
        &self,
        address: &ProviderAddress,
        version: &str,
        platform: &str,
    ) -> Option<FetchedPackage> {
        let (archive, record_path) = self.paths(address, version, platform)?;
        let record: Record = serde_json::from_slice(&fs::read(&record_path).ok()?).ok()?;
        if !archive.is_file() || record.version != version || record.platform != platform {
            return None;
        }
        // Used now: the last to be evicted.
        let _ = fs::File::options()
            .append(true)
            .open(&record_path)
            .and_then(|file| file.set_modified(SystemTime::now()));
        Some(FetchedPackage {
            address: address.clone(),
            archive,
            record,
        })
    }

    /// The versions of `address` the cache has for `platform`.
    pub fn versions(&self, address: &ProviderAddress, platform: &str) -> Vec<String> {
        let Some(dir) = self.provider_dir(address) else {
            return Vec::new();
        };
        let prefix = format!("terraform-provider-{}_", address.type_name);
        let suffix = format!("_{platform}.json");
        let Ok(entries) = fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut versions: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter_map(|name| {
                let version = name.strip_prefix(&prefix)?.strip_suffix(&suffix)?;
                (!version.contains('_')).then(|| version.to_owned())
            })
            .filter(|version| self.get(address, version, platform).is_some())
            .collect();
        versions.sort();
        versions
    }

    /// A file in the cache's root to write a package to before it is
    /// verified and put in place (removed when dropped).
    pub fn staging_file(&self) -> io::Result<Staging> {
        fs::create_dir_all(&self.dir)?;
        let n = STAGING.fetch_add(1, Ordering::Relaxed);
        Ok(Staging {
            path: self
                .dir
                .join(format!(".staging-{}-{n}.zip", std::process::id())),
        })
    }

    /// Puts the verified archive `staged` in place, with `record`.
    pub fn put(
        &self,
        address: &ProviderAddress,
        staged: Staging,
        record: Record,
    ) -> io::Result<FetchedPackage> {
        let (archive, record_path) = self
            .paths(address, &record.version, &record.platform)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a provider address or version that cannot be a file name",
                )
            })?;
        if let Some(dir) = archive.parent() {
            fs::create_dir_all(dir)?;
        }
        fs::rename(&staged.path, &archive)?;
        let text = serde_json::to_vec_pretty(&record)
            .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
        let record_staging = staged.path.with_extension("json");
        fs::write(&record_staging, text)?;
        fs::rename(&record_staging, &record_path)?;
        self.evict(&archive);
        Ok(FetchedPackage {
            address: address.clone(),
            archive,
            record,
        })
    }

    /// Removes the least recently used packages until the cache is within
    /// its size, never `keep`.
    fn evict(&self, keep: &Path) {
        let mut packages = Vec::new();
        collect_archives(&self.dir, 0, &mut packages);
        let mut total: u64 = packages.iter().map(|(_, size, _)| size).sum();
        if total <= self.max_bytes {
            return;
        }
        packages.sort_by_key(|(_, _, used)| *used);
        for (archive, size, _) in packages {
            if total <= self.max_bytes {
                break;
            }
            if archive == keep {
                continue;
            }
            let _ = fs::remove_file(archive.with_extension("json"));
            if fs::remove_file(&archive).is_ok() {
                tracing::info!(archive = %archive.display(), "evicted from the package cache");
                total = total.saturating_sub(size);
            }
        }
    }
}

/// Every archive under `dir` (three levels: host, namespace, type), with
/// its size and when its record was last used.
fn collect_archives(dir: &Path, depth: usize, out: &mut Vec<(PathBuf, u64, SystemTime)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if depth < 3 {
            if path.is_dir() {
                collect_archives(&path, depth + 1, out);
            }
            continue;
        }
        if path.extension().is_some_and(|extension| extension == "zip") {
            let size = entry.metadata().map(|meta| meta.len()).unwrap_or(0);
            let used = fs::metadata(path.with_extension("json"))
                .and_then(|meta| meta.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            out.push((path, size, used));
        }
    }
}

/// A name that is one path component and no more.
fn safe_part(part: &str) -> bool {
    !part.is_empty()
        && part != "."
        && part != ".."
        && !part.contains(['/', '\\', '\0'])
        && !part.starts_with('.')
}

/// A staged archive, removed unless it was put in place.
#[derive(Debug)]
pub struct Staging {
    path: PathBuf,
}

impl Staging {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

//! Schemas kept on disk, so a restart, and every other workspace using the
//! same package, gets a provider's schema without running it.
//!
//! An entry is keyed by the provider's address, version and package hash
//! (the `h1:`/`zh:` of the package it was read from): a package that
//! changes gets a new entry. It lives at `DIR/HOST/NAMESPACE/TYPE/VERSION/
//! HASH.json` (the hash made file-name safe): one header line naming the
//! format and the key, then the schema in the shape of `tofu providers
//! schema -json`. An entry whose header does not match (another format
//! version, a renamed file) or whose body does not decode is ignored, and
//! the next store replaces it. Stores write a temporary file and rename it
//! over the entry, so a reader never sees half an entry. The directory is
//! the caller's; nothing is ever deleted.
//!
//! Finding an entry needs the package's hash, and hashing a provider
//! (tens of megabytes) costs more than the rest of a cache hit, so the
//! cache also remembers each package's hash with its fingerprint (sizes,
//! modification times and inodes of its files) under
//! `DIR/package-hashes/`; a matching fingerprint gives the hash without
//! reading the package. That only ever selects a cached schema: a package
//! is always hashed in full before it is run.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::address::ProviderAddress;
use crate::install::package_hash::package_fingerprint;
use crate::json_decode::decode_providers_schema_json;
use crate::json_encode::encode_providers_schema_json;
use crate::model::ProviderSchema;
use crate::types::write_json_string;

/// The entry format; a change makes older entries ignored.
const CACHE_FORMAT: u32 = 1;

/// What an entry is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheKey {
    pub address: ProviderAddress,
    pub version: String,
    /// The package's `h1:` (unpacked) or `zh:` (archive) hash.
    pub package_hash: String,
}

/// A cache directory.
#[derive(Clone, Debug)]
pub struct SchemaCache {
    dir: PathBuf,
}

impl SchemaCache {
    pub fn new(dir: impl Into<PathBuf>) -> SchemaCache {
        SchemaCache { dir: dir.into() }
    }

    /// The entry's file.
    pub fn entry_path(&self, key: &CacheKey) -> PathBuf {
        let file_name: String = key
            .package_hash
            .chars()
            .map(|character| match character {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '.' => character,
                _ => '_',
            })
            .collect();
        self.dir
            .join(&key.address.hostname)
            .join(&key.address.namespace)
            .join(&key.address.type_name)
            .join(sanitize_version(&key.version))
            .join(format!("{file_name}.json"))
    }

    /// The cached schema for `key`, if there is a readable entry.
    pub fn load(&self, key: &CacheKey) -> Option<ProviderSchema> {
        let text = fs::read_to_string(self.entry_path(key)).ok()?;
        let (header, body) = text.split_once('\n')?;
        if header != entry_header(key) {
            return None;
        }
        decode_providers_schema_json(body)
            .ok()?
            .into_iter()
            .find(|(address, _)| *address == key.address)
            .map(|(_, schema)| schema)
    }

    /// The hash remembered for the package at `package` (a directory or
    /// an archive), if its files still have the fingerprint they had when
    /// it was hashed. Only for finding cache entries: a package is hashed
    /// anew before it is run.
    pub fn remembered_package_hash(&self, package: &Path) -> Option<String> {
        let fingerprint = package_fingerprint(package).ok()?;
        let text = fs::read_to_string(self.package_hash_path(&fingerprint)).ok()?;
        let (hash, remembered) = text.split_once('\n')?;
        (remembered == fingerprint).then(|| hash.to_owned())
    }

    /// Remembers `hash` for the package at `package` (see
    /// [`SchemaCache::remembered_package_hash`]).
    pub fn remember_package_hash(&self, package: &Path, hash: &str) -> io::Result<()> {
        let fingerprint = package_fingerprint(package)?;
        let path = self.package_hash_path(&fingerprint);
        write_replacing(&path, &format!("{hash}\n{fingerprint}"))
    }

    /// `DIR/package-hashes/NAME`, NAME from the package's path (the first
    /// line of its fingerprint).
    fn package_hash_path(&self, fingerprint: &str) -> PathBuf {
        let package_path = fingerprint.lines().next().unwrap_or_default();
        let digest = Sha256::digest(package_path.as_bytes());
        let name: String = digest
            .iter()
            .take(16)
            .map(|byte| format!("{byte:02x}"))
            .collect();
        self.dir.join("package-hashes").join(name)
    }

    /// Where the packed package `key` names is unpacked to run it:
    /// `DIR/unpacked/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH-HASH/`.
    pub fn unpacked_package_dir(&self, key: &CacheKey, platform: &str) -> PathBuf {
        let entry = self.entry_path(key);
        let hash_name = entry.file_stem().unwrap_or_default().to_string_lossy();
        self.dir
            .join("unpacked")
            .join(&key.address.hostname)
            .join(&key.address.namespace)
            .join(&key.address.type_name)
            .join(sanitize_version(&key.version))
            .join(format!("{}-{hash_name}", sanitize_version(platform)))
    }

    /// The providers and versions it holds entries for, `(address,
    /// version)` in path order (the version as its directory names it):
    /// providers this machine has had, whether or not still installed.
    /// Reads directories only.
    pub fn cached_versions(&self) -> Vec<(ProviderAddress, String)> {
        let mut found = Vec::new();
        for address in crate::install::discovery::provider_dirs(&self.dir) {
            if matches!(address.hostname.as_str(), "package-hashes" | "unpacked") {
                continue;
            }
            let type_dir = self
                .dir
                .join(&address.hostname)
                .join(&address.namespace)
                .join(&address.type_name);
            let Ok(entries) = fs::read_dir(&type_dir) else {
                continue;
            };
            let mut versions: Vec<String> = entries
                .filter_map(Result::ok)
                .filter(|entry| entry.path().is_dir())
                .filter_map(|entry| entry.file_name().into_string().ok())
                .collect();
            versions.sort();
            found.extend(
                versions
                    .into_iter()
                    .map(|version| (address.clone(), version)),
            );
        }
        found
    }

    /// Stores `schema` under `key`, replacing any entry.
    pub fn store(&self, key: &CacheKey, schema: &ProviderSchema) -> io::Result<()> {
        let mut text = entry_header(key);
        text.push('\n');
        text.push_str(&encode_providers_schema_json(&[(&key.address, schema)]));
        write_replacing(&self.entry_path(key), &text)
    }
}

/// Writes `text` to a temporary file beside `path` and renames it over
/// `path`, creating the directory if needed.
fn write_replacing(path: &Path, text: &str) -> io::Result<()> {
    let parent = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no cache directory"))?;
    fs::create_dir_all(parent)?;
    let temporary = temporary_path(path);
    fs::write(&temporary, text)?;
    fs::rename(&temporary, path).inspect_err(|_| {
        let _ = fs::remove_file(&temporary);
    })
}

fn entry_header(key: &CacheKey) -> String {
    let mut header = format!("{{\"tofu_lens_schema_cache\":{CACHE_FORMAT},\"address\":");
    write_json_string(&mut header, &key.address.to_string());
    header.push_str(",\"version\":");
    write_json_string(&mut header, &key.version);
    header.push_str(",\"package_hash\":");
    write_json_string(&mut header, &key.package_hash);
    header.push('}');
    header
}

/// A version as a directory name: it comes from a directory name or a
/// lock file, so only separators are replaced.
fn sanitize_version(version: &str) -> String {
    version
        .chars()
        .map(|character| {
            if matches!(character, '/' | '\\') || character.is_control() {
                '_'
            } else {
                character
            }
        })
        .collect()
}

/// A name beside `path` unique to this process.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIME_SCHEMA_JSON: &str = include_str!("../test_data/schema-time.json");

    fn time_schema() -> (ProviderAddress, ProviderSchema) {
        decode_providers_schema_json(TIME_SCHEMA_JSON)
            .unwrap()
            .remove(0)
    }

    fn key(address: &ProviderAddress, hash: &str) -> CacheKey {
        CacheKey {
            address: address.clone(),
            version: "0.14.2".to_owned(),
            package_hash: hash.to_owned(),
        }
    }

    #[test]
    fn a_stored_schema_loads_back_under_its_key_only() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SchemaCache::new(dir.path());
        let (address, schema) = time_schema();
        let stored = key(&address, "h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=");
        assert_eq!(cache.load(&stored), None);
        cache.store(&stored, &schema).unwrap();
        assert_eq!(cache.load(&stored), Some(schema));
        assert_eq!(cache.load(&key(&address, "h1:another")), None);
        // Listed by address and version; what else the cache keeps is not
        // a provider.
        let unpacked = cache.unpacked_package_dir(&stored, "linux_amd64");
        fs::create_dir_all(unpacked).unwrap();
        assert_eq!(
            cache.cached_versions(),
            [(address.clone(), "0.14.2".to_owned())]
        );
        let path = cache.entry_path(&stored);
        assert!(path.starts_with(
            dir.path()
                .join("registry.opentofu.org/hashicorp/time/0.14.2")
        ));
        assert_eq!(
            path.file_name().unwrap(),
            "h1_08eov2Ls9iQ_g6nDlwjVk_fGB6Wo7X4CvmgitYg3LP4_.json"
        );
    }

    #[test]
    fn a_package_hash_is_remembered_until_a_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SchemaCache::new(dir.path().join("cache"));
        let package = dir.path().join("package");
        fs::create_dir(&package).unwrap();
        fs::write(package.join("terraform-provider-x"), "one").unwrap();
        assert_eq!(cache.remembered_package_hash(&package), None);
        cache.remember_package_hash(&package, "h1:one").unwrap();
        assert_eq!(
            cache.remembered_package_hash(&package).as_deref(),
            Some("h1:one")
        );
        fs::write(package.join("terraform-provider-x"), "two!").unwrap();
        assert_eq!(cache.remembered_package_hash(&package), None);
    }

    #[test]
    fn corrupt_and_old_entries_are_ignored_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SchemaCache::new(dir.path());
        let (address, schema) = time_schema();
        let stored = key(&address, "h1:x");
        cache.store(&stored, &schema).unwrap();
        let path = cache.entry_path(&stored);
        let text = fs::read_to_string(&path).unwrap();
        for broken in [
            text.replace(
                "\"tofu_lens_schema_cache\":1",
                "\"tofu_lens_schema_cache\":0",
            ),
            text.get(..text.len() / 2).unwrap().to_owned(),
            text.replace("h1:x", "h1:y"),
            String::new(),
        ] {
            fs::write(&path, broken).unwrap();
            assert_eq!(cache.load(&stored), None);
        }
        cache.store(&stored, &schema).unwrap();
        assert_eq!(cache.load(&stored), Some(schema));
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
    }
}

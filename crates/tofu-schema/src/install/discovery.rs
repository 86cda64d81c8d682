//! Finding installed provider packages and choosing the one to read, as
//! OpenTofu lays them out and selects them: `.terraform/providers/` of a
//! root module, the plugin cache and filesystem mirrors all use
//! `HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/` (unpacked); a mirror may also
//! hold `HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`
//! (packed).
//!
//! Packages for every platform are listed, so a caller can say a provider
//! is installed only for another one. Selection: the version the lock file
//! selects, else the highest installed one the caller's constraint accepts
//! (the constraint is a closure, since the version grammar belongs to
//! whoever parsed `required_providers`); among equal versions the root's
//! own install wins over the cache, the cache over mirrors. The directories
//! are given by the caller (no environment here); only reading the disk.

use std::cmp::Ordering;
use std::fs;
use std::path::{Path, PathBuf};

use crate::address::ProviderAddress;
use crate::install::lock_file::LockedProvider;

/// An operating system and architecture as OpenTofu names them
/// (`linux_amd64`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Platform {
    pub os: String,
    pub arch: String,
}

impl Platform {
    /// The platform this program was built for, in Go's names.
    pub fn current() -> Platform {
        let os = match std::env::consts::OS {
            "macos" => "darwin",
            other => other,
        };
        let arch = match std::env::consts::ARCH {
            "x86_64" => "amd64",
            "aarch64" => "arm64",
            "x86" => "386",
            other => other,
        };
        Platform {
            os: os.to_owned(),
            arch: arch.to_owned(),
        }
    }

    /// Reads `OS_ARCH`.
    pub fn parse(text: &str) -> Option<Platform> {
        let (os, arch) = text.split_once('_')?;
        (!os.is_empty() && !arch.is_empty() && !arch.contains('_')).then(|| Platform {
            os: os.to_owned(),
            arch: arch.to_owned(),
        })
    }

    /// `OS_ARCH`.
    pub fn dir_name(&self) -> String {
        format!("{}_{}", self.os, self.arch)
    }
}

/// Where to look, in order of preference.
#[derive(Clone, Debug, Default)]
pub struct SearchDirs {
    /// `.terraform/providers` directories of the roots that apply.
    pub init_dirs: Vec<PathBuf>,
    /// The plugin cache (`TF_PLUGIN_CACHE_DIR` or `plugin_cache_dir`).
    pub plugin_cache_dir: Option<PathBuf>,
    /// Filesystem mirror directories.
    pub mirror_dirs: Vec<PathBuf>,
}

/// Which kind of directory a package was found in (also the order of
/// preference among packages of one version).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PackageSource {
    InitDirectory,
    PluginCache,
    Mirror,
}

/// An unpacked directory or a packed archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackageLocation {
    Directory(PathBuf),
    Archive(PathBuf),
}

/// One installed package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstalledPackage {
    pub address: ProviderAddress,
    pub version: String,
    /// `OS_ARCH` as its directory or file name says.
    pub platform: String,
    pub location: PackageLocation,
    pub source: PackageSource,
}

/// Why no package was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectionError {
    /// Nothing installed for this provider.
    NotInstalled,
    /// Installed, but only for other platforms (listed).
    OtherPlatformsOnly { platforms: Vec<String> },
    /// The lock file selects a version that is not installed here
    /// (versions that are, listed).
    LockedVersionNotInstalled {
        locked: String,
        installed: Vec<String>,
    },
    /// No installed version is accepted by the constraints.
    NoVersionAccepted { installed: Vec<String> },
}

/// Every package of `address` in `dirs`, in order of preference (source,
/// then directory order), for every platform.
pub fn find_installed(dirs: &SearchDirs, address: &ProviderAddress) -> Vec<InstalledPackage> {
    let mut packages = Vec::new();
    for init_dir in &dirs.init_dirs {
        find_unpacked(
            init_dir,
            address,
            PackageSource::InitDirectory,
            &mut packages,
        );
    }
    if let Some(cache) = &dirs.plugin_cache_dir {
        find_unpacked(cache, address, PackageSource::PluginCache, &mut packages);
    }
    for mirror in &dirs.mirror_dirs {
        find_unpacked(mirror, address, PackageSource::Mirror, &mut packages);
        find_packed(mirror, address, &mut packages);
    }
    packages
}

/// Every package of every provider in `dirs` (`HOST/NAMESPACE/TYPE/…`
/// under each), in order of preference (source, then directory order,
/// then address), for every platform: what is at hand without
/// downloading anything. Reads directories only.
pub fn list_installed(dirs: &SearchDirs) -> Vec<InstalledPackage> {
    let mut packages = Vec::new();
    let bases = dirs
        .init_dirs
        .iter()
        .map(|dir| (dir, PackageSource::InitDirectory))
        .chain(
            dirs.plugin_cache_dir
                .iter()
                .map(|dir| (dir, PackageSource::PluginCache)),
        )
        .chain(
            dirs.mirror_dirs
                .iter()
                .map(|dir| (dir, PackageSource::Mirror)),
        );
    for (base, source) in bases {
        for address in provider_dirs(base) {
            find_unpacked(base, &address, source, &mut packages);
            if source == PackageSource::Mirror {
                find_packed(base, &address, &mut packages);
            }
        }
    }
    packages
}

/// The providers laid out under `base` as `HOST/NAMESPACE/TYPE/`
/// directories, sorted (names as found, not folded).
pub fn provider_dirs(base: &Path) -> Vec<ProviderAddress> {
    let mut addresses = Vec::new();
    for (hostname, host_dir) in sorted_entries(base) {
        if !host_dir.is_dir() {
            continue;
        }
        for (namespace, namespace_dir) in sorted_entries(&host_dir) {
            if !namespace_dir.is_dir() {
                continue;
            }
            for (type_name, type_dir) in sorted_entries(&namespace_dir) {
                if type_dir.is_dir() {
                    addresses.push(ProviderAddress {
                        hostname: hostname.clone(),
                        namespace: namespace.clone(),
                        type_name,
                    });
                }
            }
        }
    }
    addresses
}

/// Chooses the package to read for `platform`.
pub fn select_package<'a>(
    installed: &'a [InstalledPackage],
    platform: &Platform,
    locked: Option<&LockedProvider>,
    accepts: &dyn Fn(&str) -> bool,
) -> Result<&'a InstalledPackage, SelectionError> {
    if installed.is_empty() {
        return Err(SelectionError::NotInstalled);
    }
    let platform_name = platform.dir_name();
    let ours: Vec<&InstalledPackage> = installed
        .iter()
        .filter(|package| package.platform == platform_name)
        .collect();
    if ours.is_empty() {
        let mut platforms: Vec<String> = installed
            .iter()
            .map(|package| package.platform.clone())
            .collect();
        platforms.sort();
        platforms.dedup();
        return Err(SelectionError::OtherPlatformsOnly { platforms });
    }
    let mut versions: Vec<String> = ours.iter().map(|package| package.version.clone()).collect();
    versions.sort_by(|left, right| compare_versions(left, right));
    versions.dedup();
    let chosen_version = match locked {
        Some(locked) => {
            if !versions
                .iter()
                .any(|version| same_version(version, &locked.version))
            {
                return Err(SelectionError::LockedVersionNotInstalled {
                    locked: locked.version.clone(),
                    installed: versions,
                });
            }
            locked.version.clone()
        }
        None => match versions.iter().rev().find(|version| accepts(version)) {
            Some(version) => version.clone(),
            None => {
                return Err(SelectionError::NoVersionAccepted {
                    installed: versions,
                })
            }
        },
    };
    ours.into_iter()
        .filter(|package| same_version(&package.version, &chosen_version))
        .min_by_key(|package| package.source)
        .ok_or(SelectionError::NotInstalled)
}

/// The provider executable in an unpacked package, as OpenTofu finds it:
/// the first file (by name) called `terraform-provider-TYPE`, optionally
/// followed by `_…` or `.…`.
pub fn find_executable(package_dir: &Path, type_name: &str) -> Option<PathBuf> {
    let prefix = format!("terraform-provider-{type_name}");
    let mut names: Vec<(String, PathBuf)> = fs::read_dir(package_dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| !entry.path().is_dir())
        .filter_map(|entry| Some((entry.file_name().into_string().ok()?, entry.path())))
        .collect();
    names.sort();
    names.into_iter().find_map(|(name, path)| {
        let rest = name.strip_prefix(&prefix)?;
        (rest.is_empty() || rest.starts_with('_') || rest.starts_with('.')).then_some(path)
    })
}

/// Orders versions as OpenTofu's version library does for the forms
/// providers use: numeric parts, then a release above its prereleases,
/// prereleases compared part by part (numbers numerically).
pub fn compare_versions(left: &str, right: &str) -> Ordering {
    let split = |version: &str| {
        let version = version.split('+').next().unwrap_or_default();
        match version.split_once('-') {
            Some((core, prerelease)) => (core.to_owned(), Some(prerelease.to_owned())),
            None => (version.to_owned(), None),
        }
    };
    let (left_core, left_pre) = split(left);
    let (right_core, right_pre) = split(right);
    let numbers = |core: &str| -> Vec<u64> {
        core.split('.')
            .map(|part| part.parse().unwrap_or(0))
            .collect()
    };
    let (mut left_numbers, mut right_numbers) = (numbers(&left_core), numbers(&right_core));
    let length = left_numbers.len().max(right_numbers.len());
    left_numbers.resize(length, 0);
    right_numbers.resize(length, 0);
    left_numbers
        .cmp(&right_numbers)
        .then_with(|| match (left_pre, right_pre) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(left), Some(right)) => {
                let mut left_parts = left.split('.');
                let mut right_parts = right.split('.');
                loop {
                    match (left_parts.next(), right_parts.next()) {
                        (None, None) => return Ordering::Equal,
                        (None, Some(_)) => return Ordering::Less,
                        (Some(_), None) => return Ordering::Greater,
                        (Some(left), Some(right)) => {
                            let order = match (left.parse::<u64>(), right.parse::<u64>()) {
                                (Ok(left), Ok(right)) => left.cmp(&right),
                                (Ok(_), Err(_)) => Ordering::Less,
                                (Err(_), Ok(_)) => Ordering::Greater,
                                (Err(_), Err(_)) => left.cmp(right),
                            };
                            if order != Ordering::Equal {
                                return order;
                            }
                        }
                    }
                }
            }
        })
}

fn same_version(left: &str, right: &str) -> bool {
    compare_versions(left, right) == Ordering::Equal
}

fn provider_dir(base: &Path, address: &ProviderAddress) -> PathBuf {
    base.join(&address.hostname)
        .join(&address.namespace)
        .join(&address.type_name)
}

/// `BASE/HOST/NS/TYPE/VERSION/OS_ARCH/` directories (links followed).
fn find_unpacked(
    base: &Path,
    address: &ProviderAddress,
    source: PackageSource,
    packages: &mut Vec<InstalledPackage>,
) {
    for (version, version_dir) in sorted_entries(&provider_dir(base, address)) {
        if !version_dir.is_dir() {
            continue;
        }
        for (platform, package_dir) in sorted_entries(&version_dir) {
            if package_dir.is_dir() && Platform::parse(&platform).is_some() {
                packages.push(InstalledPackage {
                    address: address.clone(),
                    version: version.clone(),
                    platform,
                    location: PackageLocation::Directory(package_dir),
                    source,
                });
            }
        }
    }
}

/// `BASE/HOST/NS/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip` files.
fn find_packed(base: &Path, address: &ProviderAddress, packages: &mut Vec<InstalledPackage>) {
    let prefix = format!("terraform-provider-{}_", address.type_name);
    for (name, path) in sorted_entries(&provider_dir(base, address)) {
        let Some(rest) = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".zip"))
        else {
            continue;
        };
        // VERSION_OS_ARCH: the version holds no underscore.
        let Some((version, platform)) = rest.split_once('_') else {
            continue;
        };
        if path.is_file() && Platform::parse(platform).is_some() {
            packages.push(InstalledPackage {
                address: address.clone(),
                version: version.to_owned(),
                platform: platform.to_owned(),
                location: PackageLocation::Archive(path),
                source: PackageSource::Mirror,
            });
        }
    }
}

fn sorted_entries(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut entries: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| Some((entry.file_name().into_string().ok()?, entry.path())))
        .collect();
    entries.sort();
    entries
}

#[cfg(test)]
mod tests;

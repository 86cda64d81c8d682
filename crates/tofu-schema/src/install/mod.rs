//! Installed provider packages: where `tofu init`, the plugin cache and
//! mirrors put them ([`discovery`]), the lock file that selects one
//! ([`lock_file`]), the hashes that vouch for it ([`package_hash`]) and
//! the CLI configuration that names the cache and mirrors
//! ([`cli_config`]), and unpacking a mirror's packed package so it can run
//! ([`unpack`], into a directory the caller gives). Never downloads.

pub mod cli_config;
pub mod discovery;
pub mod environment;
pub mod lock_file;
pub mod package_hash;
pub mod unpack;

pub use cli_config::{parse_cli_config, CliConfigDirs, InstallationMethod, MethodKind};
pub use discovery::{
    find_executable, find_installed, list_installed, select_package, InstalledPackage,
    PackageLocation, PackageSource, Platform, SearchDirs, SelectionError,
};
pub use environment::ProviderEnvironment;
pub use lock_file::{parse_lock_file, LockedProvider};
pub use package_hash::{package_hash_v1, package_hash_v1_zip, package_hash_zip};
pub use unpack::{check_zip, unpack_zip};

//! Fetching provider packages the way `tofu init` installs them, into
//! tofu-lens's own cache, so that a module with nothing installed still
//! gets its providers' schemas (issue 47): the version (the lock file's,
//! else the newest its constraints accept), the CLI configuration's
//! `provider_installation` methods, `host` and `credentials` blocks, the
//! registry and network mirror protocols ([`registry`], [`mirror`]),
//! verification as strict as `tofu init`'s ([`verify`]: checksums, the
//! OpenPGP signature, the lock file's hashes, a safe archive) and the
//! cache itself ([`store`]). Nothing is run here, and nothing is kept
//! unverified; the module's own `.terraform` and lock file are never
//! touched.
//!
//! No environment is read here: the binary builds the [`FetchConfig`].

mod fetch;
mod for_modules;
pub mod http;
pub mod mirror;
mod network;
pub mod registry;
pub mod store;
mod url;
pub mod verify;

pub use fetch::{newest_accepted, Fetcher, Progress, FAILURE_KEPT};
pub use for_modules::{jobs_for, FetchJob, ProviderFetch};
pub use http::{HttpSettings, TrustedRoots};
pub use network::{FetchConfig, FetchError, Network, VersionChoice, DEFAULT_MAX_PACKAGE_BYTES};
pub use store::{FetchedPackage, PackageStore, Record, DEFAULT_MAX_BYTES};

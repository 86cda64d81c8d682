//! What fetching is configured with and how it fails, and the client
//! the protocol modules ([`crate::registry`], [`crate::mirror`]) share.

use std::collections::BTreeMap;
use std::fmt;

use tofu_schema::install::{InstallationMethod, Platform};

use crate::http::{Fetched, Http, HttpSettings};
use crate::verify::VerifyError;

/// The largest package accepted: 1 GiB (no provider release comes near).
pub const DEFAULT_MAX_PACKAGE_BYTES: u64 = 1024 * 1024 * 1024;

/// How to fetch: what the CLI configuration and the environment say.
#[derive(Clone, Debug)]
pub struct FetchConfig {
    pub platform: Platform,
    /// The `provider_installation` methods; none: `direct` for every
    /// provider (OpenTofu's default).
    pub methods: Vec<InstallationMethod>,
    /// `host` blocks: each host's services.
    pub hosts: BTreeMap<String, BTreeMap<String, String>>,
    /// Tokens by host: `credentials` blocks and `TF_TOKEN_*` variables.
    pub credentials: BTreeMap<String, String>,
    pub http: HttpSettings,
    pub max_package_bytes: u64,
    /// `OPENTOFU_ENFORCE_GPG_VALIDATION=true`: OpenTofu's own registry
    /// must give signing keys too.
    pub enforce_gpg_validation: bool,
}

impl FetchConfig {
    pub fn new(platform: Platform) -> FetchConfig {
        FetchConfig {
            platform,
            methods: Vec::new(),
            hosts: BTreeMap::new(),
            credentials: BTreeMap::new(),
            http: HttpSettings::default(),
            max_package_bytes: DEFAULT_MAX_PACKAGE_BYTES,
            enforce_gpg_validation: false,
        }
    }
}

/// Which version to fetch.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VersionChoice {
    /// The lock file's.
    Exact(String),
    /// The newest every constraint accepts (none: the newest).
    Constraints(Vec<String>),
}

/// Why nothing was fetched: one clear message each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchError {
    /// No `network_mirror` or `direct` method applies to the provider.
    NoMethod(String),
    /// The server could not be reached (down, refused, timed out, TLS).
    Unreachable(String),
    Discovery(String),
    NotFound(String),
    Unauthorized(String),
    Query(String),
    /// No version the constraints accept.
    NoVersion(String),
    /// The download failed or was too large.
    Download(String),
    /// The package failed verification: nothing was kept or run.
    Verify(VerifyError),
    /// The cache could not be written.
    Store(String),
    /// Its caller stopped it.
    Cancelled,
}

impl fmt::Display for FetchError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::NoMethod(message)
            | FetchError::Unreachable(message)
            | FetchError::Discovery(message)
            | FetchError::NotFound(message)
            | FetchError::Unauthorized(message)
            | FetchError::Query(message)
            | FetchError::NoVersion(message)
            | FetchError::Download(message)
            | FetchError::Store(message) => formatter.write_str(message),
            FetchError::Verify(error) => write!(formatter, "{error}"),
            FetchError::Cancelled => formatter.write_str("the fetch was cancelled"),
        }
    }
}

/// The client and the configuration, for the protocol modules.
pub struct Network<'a> {
    pub config: &'a FetchConfig,
    pub http: &'a Http,
}

impl Network<'_> {
    /// The token for `host`, if any.
    pub fn token(&self, host: &str) -> Option<&str> {
        self.config
            .credentials
            .get(&host.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// GETs `url` with `host`'s token.
    pub fn get(&self, url: &str, host: &str, limit: u64) -> Result<Fetched, FetchError> {
        self.http
            .get(url, self.token(host), limit)
            .map_err(FetchError::Unreachable)
    }
}

//! Where providers are on this machine and where their schemas are
//! cached: what the binary reads from the environment (`TF_PLUGIN_CACHE_DIR`,
//! `TF_CLI_CONFIG_FILE` and the CLI configuration's default locations, the
//! XDG directories) and passes down, since this crate reads no
//! environment variables. With a root module's directory it gives the
//! [`SearchDirs`] for that root.

use std::path::{Path, PathBuf};

use crate::install::discovery::{Platform, SearchDirs};

/// The machine's provider directories, platform and schema cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderEnvironment {
    /// The platform packages must be built for (`linux_amd64`).
    pub platform: Platform,
    /// The plugin cache (`TF_PLUGIN_CACHE_DIR`, else the CLI
    /// configuration's `plugin_cache_dir`).
    pub plugin_cache_dir: Option<PathBuf>,
    /// Filesystem mirrors: the CLI configuration's `filesystem_mirror`
    /// directories, else OpenTofu's implied ones.
    pub mirror_dirs: Vec<PathBuf>,
    /// Where schemas read from providers are kept; `None` keeps none.
    pub schema_cache_dir: Option<PathBuf>,
    /// Where tofu-lens keeps the packages it fetched itself (`tofu-fetch`),
    /// laid out as a packed filesystem mirror; `None` keeps none.
    pub fetched_dir: Option<PathBuf>,
}

impl ProviderEnvironment {
    /// Nothing but the platform: no cache, no mirrors.
    pub fn bare(platform: Platform) -> ProviderEnvironment {
        ProviderEnvironment {
            platform,
            plugin_cache_dir: None,
            mirror_dirs: Vec::new(),
            schema_cache_dir: None,
            fetched_dir: None,
        }
    }

    /// Where to look for the packages of the root module in `root`
    /// (`ROOT/.terraform/providers` first), or, with no root, the
    /// machine's directories only.
    pub fn search_dirs(&self, root: Option<&Path>) -> SearchDirs {
        SearchDirs {
            init_dirs: root
                .map(|root| root.join(".terraform").join("providers"))
                .into_iter()
                .collect(),
            plugin_cache_dir: self.plugin_cache_dir.clone(),
            mirror_dirs: self.mirror_dirs.clone(),
        }
    }
}

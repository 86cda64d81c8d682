//! Where the tests that start the real hashicorp/time provider find it: a
//! directory laid out as `tofu init -plugin-dir` expects, named by
//! `TOFU_LENS_PROVIDER_PLUGINS` (CI builds it, `.ci/run`), else the
//! oracle's `plugins/` (`TOFU_LENS_PROVIDER_ORACLE`).

use std::path::PathBuf;

/// The plugin directory, if one is named.
pub fn plugins_dir() -> Option<PathBuf> {
    match std::env::var_os("TOFU_LENS_PROVIDER_PLUGINS") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => Some(PathBuf::from(std::env::var_os("TOFU_LENS_PROVIDER_ORACLE")?).join("plugins")),
    }
}

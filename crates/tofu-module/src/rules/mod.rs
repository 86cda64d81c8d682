//! The diagnostic rules that are not part of loading or merging proper, one
//! module per family of codes. Each module exposes `check(module, …, out)` and
//! reads the analysis without changing it.
//!
//! Order matters only for the version rule: `incompatible-tofu-version`
//! withholds every other diagnostic of the directory (`diagnostics.md` §6),
//! which `analysis` applies after all rules ran.

pub(crate) mod blocks;
pub(crate) mod module_calls;
pub(crate) mod providers;
pub(crate) mod references;
pub(crate) mod schema;
pub(crate) mod types;
pub(crate) mod variables;
pub(crate) mod versions;

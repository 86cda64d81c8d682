//! The diagnostics of one OpenTofu module directory: the rules that judge
//! what `tofu-module` loaded and merged, the views through which they read
//! it, the registry that runs them incrementally, and the catalogue of
//! codes.
//!
//! [`analyze`] (and its variants) takes a directory's files as `(name,
//! content)` pairs, loads and merges them with `tofu-module`, runs every
//! rule, and returns a [`ModuleAnalysis`]: the merged module and every
//! diagnostic, sorted. An [`AnalysisCache`] carried from one call to the next
//! keeps parsed files, merges, rule results and memos, so an edit re-runs
//! only what it touched. This crate is synchronous, does no IO, holds no state
//! that spans directories, and knows nothing of editors.
//!
//! A rule receives only a view (`rules::views`): the views' fields are
//! private to their module and only the registry makes one, so what a rule
//! reads is what its view handed out, and the registry knows when to run it
//! again.

mod analysis;
mod cache;
pub mod catalogue;
pub mod codes;
mod declare_fix;
mod declared_names;
mod incremental;
mod reporting;
mod rules;
pub mod validator_calls;

pub use analysis::{analyze, analyze_in_tree, analyze_with_files, ModuleAnalysis};
pub use cache::{AnalysisCache, Counters};
pub use reporting::parse_severity_override;

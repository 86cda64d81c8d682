//! One OpenTofu module directory in: discovery, override merging, diagnostics.
//!
//! The input is the directory's files as `(name, content)` pairs
//! ([`InputFile`]); this crate never touches the disk and holds no state that
//! spans directories. [`analyze`] returns the files with their roles, what the
//! primary files declare, the effective (merged) configuration with provenance,
//! and every diagnostic, sorted. It is synchronous and knows nothing of editors.

pub mod address;
mod analysis;
mod cache;
pub mod calls;
mod declaration_place;
mod declarations;
mod declare_fix;
mod declared_names;
pub mod discovery;
pub mod effective;
mod expr;
mod file_text;
mod go_text;
mod graph;
mod incremental;
mod input;
pub mod interface;
mod loaded;
mod local_memo;
mod merge;
pub mod module_files;
pub mod module_values;
mod names;
mod node_refs;
pub mod provider_needs;
pub mod provider_schemas;
pub mod provider_tree;
mod provider_uses;
pub mod reference_sites;
mod refs;
mod reporting;
mod rules;
pub mod schema;
mod shape;
pub mod show;
mod store;
mod terraform;
pub mod test_schema;
pub mod types;
pub mod validator_calls;
pub mod version;

pub use address::{BlockAddress, ResourceMode};
pub use analysis::{analyze, analyze_in_tree, analyze_with_files, ModuleAnalysis};
pub use cache::{AnalysisCache, Counters};
pub use declarations::{
    address_of, BlockFate, Declarations, DeclaredIdentity, DeclaredLocal, DeclaredModule,
    DropReason, LocalRef,
};
pub use effective::{
    EffectiveAttribute, EffectiveBlock, EffectiveBody, EffectiveLocal, EffectiveModule,
    EffectiveNestedBlock, EffectiveTerraform, Origin, RequiredVersion,
};
pub use file_text::FileText;
pub use input::{Config, FileContent, InputFile, DEFAULT_TOFU_VERSION};
pub use loaded::{BlockRef, FileRole, LoadedModule, ModuleFile};
pub use merge::MergedModule;
pub use module_files::ModuleFiles;
pub use module_values::{ModuleValues, VariableSource};
pub use provider_schemas::ProviderSchemas;

//! One OpenTofu module directory in: discovery, override merging, the
//! expression and reference layer, types, module calls, the dependency graph
//! and the provider tree.
//!
//! The input is the directory's files as `(name, content)` pairs
//! ([`InputFile`]); this crate never touches the disk and holds no state that
//! spans directories. It loads and merges a directory into a
//! [`MergedModule`] (the files with their roles, what the primary files
//! declare, the effective configuration with provenance, and the diagnostics
//! of loading and merging); the rules that judge it, and the incremental
//! analysis that runs them, are `tofu-diagnostics`. Everything is public to
//! that crate; editor features read the merged module through it.

pub mod address;
pub mod calls;
pub mod codes;
pub mod declaration_place;
pub mod declarations;
pub mod discovery;
pub mod effective;
pub mod expr;
pub mod file_text;
pub mod given_values;
pub mod graph;
pub mod input;
pub mod interface;
pub mod loaded;
pub mod local_memo;
pub mod merge;
pub mod module_files;
pub mod module_source;
pub mod module_values;
pub mod names;
pub mod node_refs;
pub mod provider_needs;
pub mod provider_references;
pub mod provider_schemas;
pub mod provider_tree;
pub mod provider_uses;
pub mod reference_sites;
pub mod refs;
pub mod schema;
pub mod shape;
pub mod show;
pub mod store;
pub mod terraform;
pub mod test_schema;
pub mod types;
pub mod version;

pub use address::{BlockAddress, ResourceMode};
pub use declarations::{
    address_of, BlockFate, Declarations, DeclaredIdentity, DeclaredLocal, DeclaredModule,
    DropReason, LocalRef,
};
pub use effective::{
    EffectiveAttribute, EffectiveBlock, EffectiveBody, EffectiveLocal, EffectiveModule,
    EffectiveNestedBlock, EffectiveTerraform, Origin, RequiredVersion,
};
pub use file_text::FileText;
pub use given_values::{GivenValue, GivenValues};
pub use input::{Config, FileContent, InputFile, DEFAULT_TOFU_VERSION};
pub use loaded::{BlockRef, FileRole, LoadedModule, ModuleFile};
pub use merge::MergedModule;
pub use module_files::ModuleFiles;
pub use module_values::{ModuleValues, VariableSource};
pub use provider_schemas::{ProviderSchemas, UnavailableSchema};

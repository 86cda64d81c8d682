//! Editor features for OpenTofu modules, as plain data.
//!
//! [`AnalysisHost`] owns the inputs of every module directory (disk files with
//! open buffers laid over them), an analysis cache per directory and the latest
//! analysis of each; [`Snapshot`] is an immutable snapshot that answers hover,
//! go to definition, references, document and workspace symbols, code actions
//! and the diagnostics to publish per file.
//!
//! Inputs and outputs are file paths, byte offsets and strings. This crate knows
//! nothing of the Language Server Protocol (no positions in UTF-16, no URIs, no
//! JSON), does no IO and runs no async code: the protocol layer reads the disk,
//! converts positions and decides when to analyse.

mod analysed_module;
mod boundary;
mod code_actions;
mod completion;
mod completion_blocks;
mod completion_sources;
mod diagnostics;
mod disk_texts;
mod function_doc;
mod functions;
mod highlight;
mod host;
mod hover;
mod lexer;
mod linked;
mod links;
mod locate;
mod module_calls;
mod module_tree;
mod navigation;
mod overrides_inline;
mod provider_schema;
mod refactor;
mod references;
mod rename_moves;
mod shared_files;
mod snapshot;
mod structure;
mod summary;
mod symbols;
mod test_runs;
mod values;

pub use analysed_module::{analyze_detached, dir_and_file_name, AnalysedModule};
pub use code_actions::{CodeAction, GoToValue};
pub use completion::{CompletionItem, CompletionKind};
pub use completion_sources::InstalledProvider;
pub use diagnostics::{
    EditorDiagnostic, EditorFix, FileDiagnostics, FileEdit, FileRange, RelatedLocation,
};
pub use function_doc::{ParameterHelp, SignatureHelp};
pub use highlight::{Highlight, HighlightKind, NameKind};
pub use host::{
    module_input_of, AnalysisHost, AnalysisJob, AnalysisResult, Change, ComputedInterface,
    MissingInterface, ReachedDirs, Released,
};
pub use hover::HoverResult;
pub use links::{first_configuration_file, registry_page, DocumentLink, LinkTarget};
pub use module_calls::MODULE_MANIFEST;
pub use navigation::NavigationTarget;
pub use overrides_inline::{CodeLens, InlayHint, InlayLabelPart};
pub use refactor::{RefactorKind, Refactoring};
pub use references::{NameOccurrence, RenameOptions, RenameRefused, RenameResult};
pub use snapshot::Snapshot;
pub use structure::{FoldKind, FoldingRange};
pub use summary::{ModuleSummary, SymbolKind, WorkspaceSymbol};
pub use symbols::DocumentSymbol;

#[cfg(test)]
mod tests;

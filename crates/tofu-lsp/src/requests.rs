//! Request handlers, one module per LSP method, each a `handle` function the
//! dispatch table (`server.rs`) calls.
//!
//! A request on a document starts with `prepare.rs` (its directory's
//! analysis brought up to date, the line map, the position as a byte
//! offset, the modules across the boundary it reads), runs its query under
//! the panic guard (`panic_guard.rs`) and converts the engine's plain data
//! with the line map or `to_proto.rs`. Handlers import only what lies below
//! them (state, preparation, conversion), never the table or each other,
//! except a pair that shares one method's work (`rangeFormatting` and
//! `formatting`, `prepareRename` and `rename`, the two pull-diagnostics
//! requests).

pub mod code_action;
pub mod code_lens;
pub mod completion;
pub mod definition;
pub mod document_diagnostic;
pub mod document_highlight;
pub mod document_link;
pub mod document_symbol;
pub mod execute_command;
pub mod folding_range;
pub mod formatting;
pub mod hover;
pub mod initialize;
pub mod inlay_hint;
pub mod prepare_rename;
pub mod range_formatting;
pub mod references;
pub mod rename;
pub mod selection_range;
pub mod semantic_tokens_full;
pub mod semantic_tokens_range;
pub mod signature_help;
pub mod workspace_diagnostic;
pub mod workspace_symbol;

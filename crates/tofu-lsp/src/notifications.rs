//! Notification handlers, one module per LSP method, each a `handle`
//! function the dispatch table (`server.rs`) calls.
//!
//! Each one changes the session synchronously, before any `.await`
//! (ARCHITECTURE.md, `tofu-lsp`: notifications can interleave at await
//! points), then schedules the affected module directories. Documents whose
//! name lacks a configuration extension, that are not `file:` URIs, or that
//! match `exclude` are not tracked (`Session::tracked_path`).

pub mod did_change;
pub mod did_change_configuration;
pub mod did_change_watched_files;
pub mod did_change_workspace_folders;
pub mod did_close;
pub mod did_open;
pub mod did_save;
pub mod initialized;

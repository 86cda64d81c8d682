//! The `tofu-lens` command line: `check` and `show` run the engine over module
//! directories on disk and render its results; `fmt` formats files as
//! `tofu fmt` does; `schemas` says where each module's provider schemas come
//! from; `console` evaluates expressions as `tofu console`
//! does; `serve` runs the language server.
//!
//! Rendering lives here, at the edge: the engine hands out plain diagnostics with
//! byte ranges, and this crate turns them into compiler-style text, JSON or SARIF.

pub mod check;
pub mod console;
pub mod fix;
pub mod fmt;
pub mod parallel;
pub mod render;
pub mod sarif;
pub mod schemas;
pub mod show;
pub mod stream;

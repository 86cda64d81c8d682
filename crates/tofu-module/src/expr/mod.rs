//! The expression layer: how OpenTofu reads HCL expressions where it wants
//! references or names, written once for every rule and for `tofu-ide`.
//!
//! - [`content`]: the content of a quoted string, read as native syntax.
//! - [`json`]: a value written in JSON as the expression HCL evaluates.
//! - [`parse_ref`]: OpenTofu's `addrs.ParseRef`, what a reference refers to.
//! - [`start`]: where HCL says an expression starts.
//! - [`suggest`]: "Did you mean …?" (HCL's `didyoumean`).
//! - [`traversal`]: HCL's traversal parser, for strings read as references.
//! - [`walk`]: the one reference walker (`for` scopes, JSON templates).
pub mod content;
pub mod json;
pub mod parse_ref;
pub mod start;
pub mod suggest;
pub mod traversal;
pub mod walk;

//! The expression layer: how OpenTofu reads HCL expressions where it wants
//! references or names, written once for every rule and for `tofu-ide`.
//!
//! - [`suggest`]: "Did you mean …?" (HCL's `didyoumean`).
pub(crate) mod suggest;

//! [`DeclarationPlace`]: where a block of a module a caller calls is
//! written, for the caller's related locations (`crate::interface`,
//! `crate::provider_tree`).

use std::sync::Arc;

use tofu_syntax::TextRange;

/// A block's header in a file of a module directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationPlace {
    /// The file's name in the module's directory.
    pub file: String,
    /// The file's text, which `header` indexes into.
    pub text: Arc<str>,
    pub header: TextRange,
}

//! The file a reference rule reads, and how it is read (native or JSON,
//! primary or override); the dispatch over block types is the parent
//! module's.

use tofu_syntax::{FileId, Location, TextRange};

/// The file being read and what decides how it is read.
pub(super) struct InFile<'a> {
    pub id: FileId,
    pub text: &'a str,
    pub json: bool,
    /// Condition-like blocks are read in primary files only.
    pub primary: bool,
}

impl InFile<'_> {
    pub fn at(&self, range: TextRange) -> Location {
        Location::new(self.id, range)
    }
}

//! The refactorings' plain data: what one is ([`Refactoring`], its
//! [`RefactorKind`]), where an `import` block goes ([`ImportAt`]), and the
//! module's references, found once ([`ModuleSites`]).

use std::cell::OnceCell;
use std::path::PathBuf;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::reference_sites::{reference_sites, ReferenceSite};
use tofu_module::BlockAddress;

use crate::analysed_module::AnalysedModule;
use crate::diagnostics::FileEdit;

/// Where an `import` block for a resource goes (`Snapshot::import_at`).
pub(super) enum ImportAt<'s> {
    /// In the resource's own module, a root module.
    Here { to: String },
    /// In the one root module calling the resource's module, after the call.
    Caller {
        module: &'s AnalysedModule,
        call: BlockAddress,
        to: String,
    },
    /// Nowhere OpenTofu would read it, for this reason (empty: not a
    /// resource).
    Refused(String),
}

/// Every reference of the module, found once per request when a
/// refactoring first needs them (removing, repeating and extracting each
/// edit or judge the references).
pub(super) struct ModuleSites<'a> {
    analysis: &'a ModuleAnalysis,
    sites: OnceCell<Vec<ReferenceSite>>,
}

impl<'a> ModuleSites<'a> {
    pub(super) fn new(analysis: &'a ModuleAnalysis) -> Self {
        ModuleSites {
            analysis,
            sites: OnceCell::new(),
        }
    }

    pub(super) fn all(&self) -> &[ReferenceSite] {
        self.sites.get_or_init(|| reference_sites(self.analysis))
    }
}

/// What a refactoring does, as an editor groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefactorKind {
    /// Moves text without changing what it means (`refactor.move`).
    Move,
    /// Rewrites a block in place (`refactor.rewrite`).
    Rewrite,
    /// Makes a new module of blocks (`refactor.extract`).
    Extract,
}

/// One refactoring offered at a range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refactoring {
    pub title: String,
    pub kind: RefactorKind,
    pub edits: Vec<FileEdit>,
    /// Files to create, with their text.
    pub new_files: Vec<(PathBuf, String)>,
    /// Why it cannot be done here; then there are no edits.
    pub refused: Option<String>,
}

impl Refactoring {
    pub(super) fn refused(
        title: impl Into<String>,
        kind: RefactorKind,
        reason: impl Into<String>,
    ) -> Self {
        Refactoring {
            title: title.into(),
            kind,
            edits: Vec::new(),
            new_files: Vec::new(),
            refused: Some(reason.into()),
        }
    }

    pub(super) fn edits(
        title: impl Into<String>,
        kind: RefactorKind,
        edits: Vec<FileEdit>,
    ) -> Self {
        Refactoring {
            title: title.into(),
            kind,
            edits,
            new_files: Vec::new(),
            refused: None,
        }
    }
}

//! What a rule may read, by entry point: [`IdentityView`] for a rule on one
//! merged identity, [`ModuleView`] for a rule on the whole merged module
//! (the one-file view of the as-written rules is
//! [`crate::loaded::FileView`]).
//!
//! The views are the only way a rule reaches the module, so what a rule
//! reads is known without trusting the rule:
//!
//! - An identity view hands out that identity's effective block, its own
//!   blocks (its kept declaration, its duplicates, its overrides) and the
//!   files that hold them. A request for any other block or file is refused
//!   and recorded as a [`Violation`] naming the rule; the registry reports
//!   those (a debug assertion, and the test
//!   `a_rule_reading_another_identity_is_caught`), so a rule that reads too
//!   much fails deterministically instead of being served stale results.
//! - A module view hands out anything, and records every file, identity and
//!   local value it handed out ([`Reads`]). A rule's last result is reused
//!   while an edit keeps every file's shape and touches none of what it
//!   read; nothing is listed by hand.
//!
//! Names, roles and the declarations index depend only on the shapes of the
//! files, which every reuse requires to be unchanged, so reading them is not
//! recorded by the module view.

use std::cell::RefCell;

use rustc_hash::FxHashSet as HashSet;
use tofu_syntax::{Block, FileId};

use crate::address::BlockAddress;
use crate::declarations::{Declarations, DeclaredModule};
use crate::effective::{EffectiveBlock, EffectiveLocal};
use crate::input::Config;
use crate::loaded::{BlockRef, FileRole, ModuleFile};
use crate::merge::MergedModule;

/// A read a rule on one identity made outside its view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    /// The rule's name in the registry.
    pub(crate) rule: &'static str,
    /// What it asked for.
    pub(crate) read: String,
}

/// One merged identity, as a rule on it may read it.
pub(crate) struct IdentityView<'a> {
    module: &'a DeclaredModule,
    effective: &'a EffectiveBlock,
    /// Its blocks: the kept declaration, duplicates and overrides.
    own_blocks: Vec<BlockRef>,
    rule: &'static str,
    violations: RefCell<Vec<Violation>>,
}

impl<'a> IdentityView<'a> {
    pub(crate) fn new(module: &'a DeclaredModule, effective: &'a EffectiveBlock) -> Self {
        let mut own_blocks: Vec<BlockRef> = effective
            .base
            .iter()
            .chain(&effective.overrides)
            .copied()
            .collect();
        if let Some(declared) = module.declarations.get(&effective.address) {
            own_blocks.extend(declared.all.iter().copied());
        }
        own_blocks.sort_unstable();
        own_blocks.dedup();
        IdentityView {
            module,
            effective,
            own_blocks,
            rule: "",
            violations: RefCell::new(Vec::new()),
        }
    }

    /// The view as `rule` reads it (violations are recorded under its name).
    pub(crate) fn for_rule(&mut self, rule: &'static str) {
        self.rule = rule;
    }

    /// Every read refused so far.
    pub(crate) fn take_violations(&self) -> Vec<Violation> {
        std::mem::take(&mut *self.violations.borrow_mut())
    }

    fn refuse(&self, read: String) {
        self.violations.borrow_mut().push(Violation {
            rule: self.rule,
            read,
        });
    }

    /// The effective block of the identity.
    pub(crate) fn effective(&self) -> &'a EffectiveBlock {
        self.effective
    }

    /// One of the identity's own blocks; any other is refused.
    pub(crate) fn block(&self, block: BlockRef) -> Option<&'a Block> {
        if self.own_blocks.binary_search(&block).is_err() {
            self.refuse(format!("block {block:?}"));
            return None;
        }
        self.module.block(block)
    }

    /// A file holding one of the identity's own blocks; any other is refused.
    pub(crate) fn file(&self, file: FileId) -> Option<&'a ModuleFile> {
        if !self.own_blocks.iter().any(|block| block.file == file) {
            self.refuse(format!("file {file:?}"));
            return None;
        }
        self.module.file(file)
    }
}

/// What a rule on the whole module read through its view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reads {
    pub(crate) files: HashSet<FileId>,
    pub(crate) identities: HashSet<BlockAddress>,
    pub(crate) locals: HashSet<String>,
}

/// The merged module, as a rule on all of it reads it: every read is
/// recorded.
pub(crate) struct ModuleView<'a> {
    module: &'a MergedModule,
    config: &'a Config,
    reads: RefCell<Reads>,
}

impl<'a> ModuleView<'a> {
    pub(crate) fn new(module: &'a MergedModule, config: &'a Config) -> Self {
        ModuleView {
            module,
            config,
            reads: RefCell::new(Reads::default()),
        }
    }

    pub(crate) fn into_reads(self) -> Reads {
        self.reads.into_inner()
    }

    /// The configuration (a change of it invalidates every result).
    pub(crate) fn config(&self) -> &'a Config {
        self.config
    }

    /// The declarations index (shapes only).
    pub(crate) fn declarations(&self) -> &'a Declarations {
        &self.module.declarations
    }

    /// Primary files in loading order (names only).
    pub(crate) fn primary_files(&self) -> &'a [FileId] {
        &self.module.primary
    }

    /// Every file id, loaded or not (names only).
    pub(crate) fn file_ids(&self) -> impl Iterator<Item = FileId> + 'a {
        (0..self.module.files.len()).map(|index| FileId(tofu_syntax::text::to_u32(index)))
    }

    /// A file's name (not recorded: names are fixed while results are reused).
    pub(crate) fn name(&self, file: FileId) -> Option<&'a str> {
        self.module.file(file).map(|file| file.name.as_str())
    }

    /// A file's role (likewise).
    pub(crate) fn role(&self, file: FileId) -> Option<FileRole> {
        self.module.file(file).map(|file| file.role)
    }

    /// A file, whole (recorded).
    pub(crate) fn file(&self, file: FileId) -> Option<&'a ModuleFile> {
        self.reads.borrow_mut().files.insert(file);
        self.module.file(file)
    }

    /// The top-level blocks of one kind in `file`; the file is recorded when
    /// it has any (which kinds a file holds is part of its shape).
    pub(crate) fn blocks_of_kinds(
        &self,
        file: FileId,
        kinds: &[&str],
    ) -> Vec<(BlockRef, &'a Block)> {
        let Some(source) = self
            .module
            .file(file)
            .and_then(|module_file| module_file.source.as_deref())
        else {
            return Vec::new();
        };
        let found: Vec<(BlockRef, &'a Block)> = source
            .body
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, block)| kinds.contains(&block.kind.as_str()))
            .map(|(index, block)| {
                let block_ref = BlockRef {
                    file,
                    index,
                    nested: None,
                };
                (block_ref, block)
            })
            .collect();
        if !found.is_empty() {
            self.reads.borrow_mut().files.insert(file);
        }
        found
    }

    /// A block of the module (its file is recorded).
    pub(crate) fn block(&self, block: BlockRef) -> Option<&'a Block> {
        self.reads.borrow_mut().files.insert(block.file);
        self.module.block(block)
    }

    /// The effective block of an identity (recorded).
    pub(crate) fn effective(&self, address: &BlockAddress) -> Option<&'a EffectiveBlock> {
        self.reads.borrow_mut().identities.insert(address.clone());
        self.module.effective.get(address)
    }

    /// The effective blocks whose address satisfies `wanted`, each recorded
    /// (which identities exist is part of the shapes).
    pub(crate) fn effective_blocks(
        &self,
        wanted: impl Fn(&BlockAddress) -> bool,
    ) -> Vec<&'a EffectiveBlock> {
        let found: Vec<&'a EffectiveBlock> = self
            .module
            .effective
            .blocks
            .iter()
            .map(|block| &**block)
            .filter(|block| wanted(&block.address))
            .collect();
        let mut reads = self.reads.borrow_mut();
        reads
            .identities
            .extend(found.iter().map(|block| block.address.clone()));
        found
    }

    /// The effective local value `name` (recorded).
    pub(crate) fn local(&self, name: &str) -> Option<&'a EffectiveLocal> {
        self.reads.borrow_mut().locals.insert(name.to_owned());
        self.module.effective.local(name)
    }

    /// `main.tf:3,1-29` for a location (its file recorded).
    pub(crate) fn describe(&self, location: tofu_syntax::Location) -> String {
        self.reads.borrow_mut().files.insert(location.file);
        self.module.describe(location)
    }
}

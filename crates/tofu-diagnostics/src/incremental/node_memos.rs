//! What a rule found with what it read through its view ([`RuleMemo`]),
//! and the node rules' memos by block ([`NodeMemos`], `rules::NODE_RULES`),
//! indexed by what each read, so that finding the memos an edit touched
//! costs the edit, not the number of blocks judged (a module of 1,000
//! outputs keeps 1,000 memos; a keystroke touches a handful).
//!
//! The index may name a block whose memo no longer reads that thing (the
//! memo was made again and read less): such an entry only judges the block
//! again after an edit of it. It never misses one: every memo adds what it
//! read when it is stored.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tofu_syntax::{Diagnostic, FileId};

use crate::declare_fix::UndeclaredVariableUse;
use crate::declared_names::DeclaredNames;
use crate::rules::views::{ModuleView, Reads};
use crate::rules::NodeRule;
use tofu_module::address::BlockAddress;
use tofu_module::graph::Uses;
use tofu_module::input::Config;
use tofu_module::merge::MergedModule;

/// What a rule found through its view, with what it read.
#[derive(Debug)]
pub(crate) struct RuleMemo {
    pub(crate) reads: Reads,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) undeclared_variables: Vec<UndeclaredVariableUse>,
}

/// One node rule's memos, by the block each judged.
#[derive(Debug, Default)]
pub(crate) struct NodeMemos {
    by_block: HashMap<BlockAddress, RuleMemo>,
    readers_of_identity: HashMap<BlockAddress, HashSet<BlockAddress>>,
    readers_of_local: HashMap<String, HashSet<BlockAddress>>,
    readers_of_file: HashMap<FileId, HashSet<BlockAddress>>,
    /// The blocks whose memos read the graph's uses.
    readers_of_uses: HashSet<BlockAddress>,
    /// The blocks whose memos an edit dropped while every block judged
    /// before still is (every shape kept); `None` until a run gave every
    /// judged block a memo, and then every block is looked at.
    dropped: Option<Vec<BlockAddress>>,
}

/// What a run of a node rule reads besides its memos.
pub(crate) struct RunOn<'a, 'u> {
    pub(crate) module: &'a MergedModule,
    pub(crate) names: &'a DeclaredNames,
    pub(crate) config: &'a Config,
    pub(crate) uses: &'a Uses<'u>,
}

impl NodeMemos {
    /// Drops the memos that read one of the `changed` files, touched
    /// `identities` or touched `locals` (every shape kept).
    pub(crate) fn drop_touched(
        &mut self,
        changed: &[FileId],
        identities: &HashSet<BlockAddress>,
        locals: &HashSet<String>,
    ) {
        let mut readers: HashSet<BlockAddress> = HashSet::default();
        for file in changed {
            readers.extend(
                self.readers_of_file
                    .get(file)
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        for identity in identities {
            readers.extend(
                self.readers_of_identity
                    .get(identity)
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        for local in locals {
            readers.extend(
                self.readers_of_local
                    .get(local)
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        for block in readers {
            self.drop_memo(block);
        }
    }

    fn drop_memo(&mut self, block: BlockAddress) {
        if self.by_block.remove(&block).is_some() {
            if let Some(dropped) = &mut self.dropped {
                dropped.push(block);
            }
        }
    }

    /// Runs `rule` on every block it judges that has no memo (all of them
    /// after a new start, the dropped ones otherwise), and drops first the
    /// memos that read other uses than `on.uses`. Returns how many it ran.
    pub(crate) fn run(&mut self, rule: &NodeRule, on: &RunOn<'_, '_>) -> u64 {
        let stale_uses: Vec<BlockAddress> = self
            .readers_of_uses
            .iter()
            .filter(|block| {
                self.by_block.get(*block).is_none_or(|memo| {
                    memo.reads
                        .uses
                        .is_some_and(|seen| seen != on.uses.version())
                })
            })
            .cloned()
            .collect();
        for block in stale_uses {
            self.readers_of_uses.remove(&block);
            self.drop_memo(block);
        }
        let to_judge: Vec<BlockAddress> = match self.dropped.take() {
            Some(dropped) => dropped,
            None => {
                *self = NodeMemos::default();
                // Which blocks exist is part of the shapes: not a read.
                on.module
                    .effective
                    .blocks
                    .iter()
                    .filter(|block| (rule.judges)(&block.address))
                    .map(|block| block.address.clone())
                    .collect()
            }
        };
        let n_run = to_judge.len() as u64;
        for block in to_judge {
            let view = ModuleView::new(on.module, on.names, on.config, on.uses);
            let mut diagnostics = Vec::new();
            // Through the view, so that an edit of the block itself judges
            // it again.
            if let Some(judged) = view.effective(&block) {
                (rule.check)(&view, judged, &mut diagnostics);
            }
            let (reads, undeclared_variables) = view.into_records();
            self.index(&block, &reads);
            self.by_block.insert(
                block,
                RuleMemo {
                    reads,
                    diagnostics,
                    undeclared_variables,
                },
            );
        }
        self.dropped = Some(Vec::new());
        n_run
    }

    fn index(&mut self, block: &BlockAddress, reads: &Reads) {
        for identity in &reads.identities {
            self.readers_of_identity
                .entry(identity.clone())
                .or_default()
                .insert(block.clone());
        }
        for local in &reads.locals {
            self.readers_of_local
                .entry(local.clone())
                .or_default()
                .insert(block.clone());
        }
        for &file in &reads.files {
            self.readers_of_file
                .entry(file)
                .or_default()
                .insert(block.clone());
        }
        if reads.uses.is_some() {
            self.readers_of_uses.insert(block.clone());
        }
    }

    /// The memos, by block.
    pub(crate) fn memos(&self) -> impl Iterator<Item = (&BlockAddress, &RuleMemo)> {
        self.by_block.iter()
    }
}

//! What a rule found with what it read through its view ([`RuleMemo`]),
//! and the node rules' memos by node, a block or a local value
//! ([`NodeMemos`], `rules::NODE_RULES`),
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
use crate::rules::views::{MergedNode, ModuleView, Reads, SharedLocals};
use crate::rules::NodeRule;
use tofu_module::address::BlockAddress;
use tofu_module::graph::Uses;
use tofu_module::input::Config;
use tofu_module::merge::MergedModule;
use tofu_module::refs::{Node, NodeRef};

/// What a rule found through its view, with what it read.
#[derive(Debug)]
pub(crate) struct RuleMemo {
    pub(crate) reads: Reads,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) undeclared_variables: Vec<UndeclaredVariableUse>,
}

/// One node rule's memos, by the node each judged.
#[derive(Debug, Default)]
pub(crate) struct NodeMemos {
    by_node: HashMap<Node, RuleMemo>,
    readers_of_identity: HashMap<BlockAddress, HashSet<Node>>,
    readers_of_local: HashMap<String, HashSet<Node>>,
    readers_of_file: HashMap<FileId, HashSet<Node>>,
    readers_of_variable: HashMap<String, HashSet<Node>>,
    /// The nodes whose memos read the graph's uses.
    readers_of_uses: HashSet<Node>,
    /// The nodes whose memos an edit dropped while every node judged
    /// before still is (every shape kept); `None` until a run gave every
    /// judged node a memo, and then every node is looked at.
    dropped: Option<Vec<Node>>,
}

/// What a run of a node rule reads besides its memos.
pub(crate) struct RunOn<'a, 'u> {
    pub(crate) module: &'a MergedModule,
    pub(crate) names: &'a DeclaredNames,
    pub(crate) config: &'a Config,
    pub(crate) uses: &'a Uses<'u>,
    /// The local values this run evaluated, for every node it judges.
    pub(crate) shared_locals: &'a SharedLocals,
}

impl NodeMemos {
    /// Drops the memos that read one of the `changed` files, touched
    /// `identities` or touched `locals` (every shape kept).
    /// `from` holds, for each changed file, the first byte the edit
    /// changed: a memo that read less of the file holds.
    pub(crate) fn drop_touched(
        &mut self,
        changed: &[FileId],
        identities: &HashSet<BlockAddress>,
        locals: &HashSet<String>,
        from: &HashMap<FileId, u32>,
    ) {
        let mut readers: HashSet<Node> = HashSet::default();
        for file in changed {
            // Only those that read the file where the edit changed it.
            readers.extend(
                self.readers_of_file
                    .get(file)
                    .into_iter()
                    .flatten()
                    .filter(|node| {
                        self.by_node
                            .get(*node)
                            .is_none_or(|memo| memo.reads.read_after(*file, from))
                    })
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
        for node in readers {
            self.drop_memo(node);
        }
    }

    /// Drops the memos that read the value in plan's walk of one of the
    /// input variables of `changed`.
    pub(crate) fn drop_variables(&mut self, changed: &HashSet<String>) {
        let readers: HashSet<Node> = changed
            .iter()
            .flat_map(|name| self.readers_of_variable.get(name).into_iter().flatten())
            .cloned()
            .collect();
        for node in readers {
            self.drop_memo(node);
        }
    }

    fn drop_memo(&mut self, node: Node) {
        if self.by_node.remove(&node).is_some() {
            if let Some(dropped) = &mut self.dropped {
                dropped.push(node);
            }
        }
    }

    /// Runs `rule` on every node it judges that has no memo (all of them
    /// after a new start, the dropped ones otherwise), and drops first the
    /// memos that read other uses than `on.uses`. Returns how many it ran.
    pub(crate) fn run(&mut self, rule: &NodeRule, on: &RunOn<'_, '_>) -> u64 {
        self.run_check(rule.judges, rule.check, on)
    }

    /// [`NodeMemos::run`] for a check that is no registered node rule
    /// (plan's walk, which also reads the run's plan inputs).
    pub(crate) fn run_check(
        &mut self,
        judges: fn(NodeRef<'_>) -> bool,
        check: impl Fn(&ModuleView<'_>, MergedNode<'_>, &mut Vec<Diagnostic>),
        on: &RunOn<'_, '_>,
    ) -> u64 {
        let stale_uses: Vec<Node> = self
            .readers_of_uses
            .iter()
            .filter(|node| {
                self.by_node.get(*node).is_none_or(|memo| {
                    memo.reads
                        .uses
                        .is_some_and(|seen| seen != on.uses.version())
                })
            })
            .cloned()
            .collect();
        for node in stale_uses {
            self.readers_of_uses.remove(&node);
            self.drop_memo(node);
        }
        let to_judge: Vec<Node> = match self.dropped.take() {
            Some(dropped) => dropped,
            None => {
                *self = NodeMemos::default();
                // Which nodes exist is part of the shapes: not a read.
                let effective = &on.module.effective;
                let blocks = effective
                    .blocks
                    .iter()
                    .filter(|block| judges(NodeRef::Block(&block.address)))
                    .map(|block| Node::Block(block.address.clone()));
                let locals = effective
                    .locals
                    .iter()
                    .filter(|local| judges(NodeRef::Local(&local.name)))
                    .map(|local| Node::Local(local.name.clone()));
                blocks.chain(locals).collect()
            }
        };
        let n_run = to_judge.len() as u64;
        for node in to_judge {
            let view = ModuleView::new(on.module, on.names, on.config, on.uses)
                .with_shared_locals(on.shared_locals);
            let mut diagnostics = Vec::new();
            // Through the view, so that an edit of the node itself judges
            // it again.
            let judged = match &node {
                Node::Block(address) => view.effective(address).map(MergedNode::Block),
                Node::Local(name) => view.local(name).map(MergedNode::Local),
            };
            if let Some(judged) = judged {
                check(&view, judged, &mut diagnostics);
            }
            let (reads, undeclared_variables) = view.into_records();
            self.index(&node, &reads);
            self.by_node.insert(
                node,
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

    fn index(&mut self, node: &Node, reads: &Reads) {
        for identity in &reads.identities {
            self.readers_of_identity
                .entry(identity.clone())
                .or_default()
                .insert(node.clone());
        }
        for local in &reads.locals {
            self.readers_of_local
                .entry(local.clone())
                .or_default()
                .insert(node.clone());
        }
        for &file in reads.files.keys() {
            self.readers_of_file
                .entry(file)
                .or_default()
                .insert(node.clone());
        }
        for variable in &reads.variables {
            self.readers_of_variable
                .entry(variable.clone())
                .or_default()
                .insert(node.clone());
        }
        if reads.uses.is_some() {
            self.readers_of_uses.insert(node.clone());
        }
    }

    /// The memos, by node.
    pub(crate) fn memos(&self) -> impl Iterator<Item = (&Node, &RuleMemo)> {
        self.by_node.iter()
    }
}

//! What the caller keeps for one module directory between its analyses: the
//! per-file store (parses and what was computed from each file alone) and
//! what incremental analysis retains (the last analysis's declarations,
//! merge, rule results and memos). It only saves work: [`crate::analyze`]
//! gives the same result with a new cache.

use crate::incremental::Retained;
use tofu_module::store::FileStore;

/// Keep one per module directory, and hand it to every analysis of that
/// directory.
#[derive(Debug, Default)]
pub struct AnalysisCache {
    pub(crate) store: FileStore,
    pub(crate) retained: Retained,
}

/// How much work the analyses through one cache did, for tests and
/// benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Files parsed (not found in the store).
    pub n_parsed: u64,
    /// Analyses after an edit that kept every file's shape.
    pub n_edits_keeping_shapes: u64,
    /// Analyses after an edit that changed a file's shape, reusing what it
    /// did not touch.
    pub n_edits_changing_shapes: u64,
    /// Identities merged (all of them in a whole analysis, those an edit
    /// touched otherwise).
    pub n_merged: u64,
    /// Reads a rule on one identity made outside its view, which it was
    /// refused: each is a bug of the rule (logged with its name), whose
    /// findings may be reused after an edit that should have redone them.
    pub n_rule_violations: u64,
    /// Rules on the whole module run (their results from before did not
    /// hold).
    pub n_module_rules_run: u64,
    /// Node rules run on one block (their results from before did not
    /// hold).
    pub n_node_rules_run: u64,
}

impl AnalysisCache {
    pub fn new() -> AnalysisCache {
        AnalysisCache::default()
    }

    pub fn counters(&self) -> Counters {
        Counters {
            n_parsed: self.store.n_parsed,
            n_edits_keeping_shapes: self.retained.n_edits_keeping_shapes,
            n_edits_changing_shapes: self.retained.n_edits_changing_shapes,
            n_merged: self.retained.n_merged,
            n_rule_violations: self.retained.n_rule_violations,
            n_module_rules_run: self.retained.n_module_rules_run,
            n_node_rules_run: self.retained.n_node_rules_run,
        }
    }

    /// Counts from zero again.
    pub fn reset_counters(&mut self) {
        self.store.n_parsed = 0;
        self.retained.n_edits_keeping_shapes = 0;
        self.retained.n_edits_changing_shapes = 0;
        self.retained.n_merged = 0;
        self.retained.n_rule_violations = 0;
        self.retained.n_module_rules_run = 0;
        self.retained.n_node_rules_run = 0;
    }

    /// How many files the store holds (those of the latest analysis).
    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.len() == 0
    }
}

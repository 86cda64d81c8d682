//! Phases 2 and 3 and the rules on the merged module, after an edit: reuse
//! what the analysis before built, redo what the edit touched (a keystroke
//! costs the edit, not the module).
//!
//! What the primary files declare ([`Declarations`], the fate of each primary
//! block) and what each override block is to the merge ([`OverridePlan`])
//! depend only on the *shape* of the files: each top-level block's type,
//! labels and identity, the local names of `locals` blocks, the first `data`
//! block of a `check`, and whether the file parsed whole. When every changed
//! file keeps its shape (an edit inside a block body, a comment, a value),
//! both are shared with the analysis before ([`shapes_kept`]), and only these
//! are done again:
//!
//! - the identities and local values with a block in a changed file:
//!   their duplicates (each names two blocks of the identity), their merge
//!   (base and override blocks of that identity alone), and the rules on one
//!   identity (`rules::IDENTITY_RULES`, whose view hands out nothing else);
//! - what merging reports on a changed override file alone;
//! - the rules on the whole module whose recorded reads an edit touched
//!   (`rules::MODULE_RULES`; [`Memos`]), and the node rules on each block
//!   whose recorded reads for it an edit touched (`rules::NODE_RULES`);
//! - the `terraform` view and the overrides with nothing to override, which
//!   read the whole module but only a handful of blocks (done every time).
//!
//! Everything else is shared: the effective blocks of other identities
//! (`Arc`s), and what they reported. An edit that changes a shape (a block
//! added, removed or relabelled) builds declarations and the plan whole but
//! still takes the merge of every identity it did not touch from the
//! analysis before ([`reshaped`]); a file added, removed or renamed is
//! analysed whole ([`whole`]). The tests `incremental_equals_whole_*` check
//! after random edits that every road gives the whole analysis.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tofu_schema::builtin_schema;
use tofu_schema::requirements::implied_provider;
use tofu_syntax::{Diagnostic, FileId, Location, SourceFile};

use crate::declare_fix::UndeclaredVariableUse;
use crate::declared_names::DeclaredNames;
use crate::rules::plan_values::{self, KnownValues, PlanDigest, PlanInputs};
use crate::rules::views::{IdentityView, MergedNode, ModuleView, NameReads, SharedLocals};
use crate::rules::walk_values::WalkValues;
use crate::rules::{self, IdentityFindings, Phase};
use node_memos::{NodeMemos, RuleMemo, RunOn};
use tofu_module::address::BlockAddress;
use tofu_module::calls::CalledModules;
use tofu_module::declarations::{
    address_of, checked_data, declare, drop_reason, duplicate_locals_of, duplicates_of, BlockFate,
    Declarations, DeclaredModule,
};
use tofu_module::discovery::Discovery;
use tofu_module::effective::{EffectiveBlock, EffectiveLocal, EffectiveModule, EffectiveTerraform};
use tofu_module::graph::{self, Graph, Uses};
use tofu_module::input::Config;
use tofu_module::loaded::{BlockRef, FileRole, LoadedModule};
use tofu_module::merge::{
    merge_identity, merge_local, merge_terraform, no_base_diagnostics, override_file_diagnostics,
    MergedModule, OverridePlan,
};
use tofu_module::module_files::ModuleFiles;
use tofu_module::node_refs;
use tofu_module::provider_schemas::ProviderSchemas;
use tofu_module::refs::{Node, NodeRef};
use tofu_module::shape::same_shapes;
use tofu_module::store::FileStore;

mod node_memos;

/// What incremental analysis keeps between the analyses of one directory,
/// and how often each road was taken.
#[derive(Debug)]
pub(crate) struct Retained {
    /// Boxed: a workspace keeps an empty one for each of thousands of
    /// directories.
    previous: Option<Box<Previous>>,
    /// How many analyses reused the one before them with every shape kept.
    pub(crate) n_edits_keeping_shapes: u64,
    /// How many analyses after an edit that changed a file's shape reused
    /// what the edit did not touch.
    pub(crate) n_edits_changing_shapes: u64,
    /// How many identities were merged (all of them in a whole analysis,
    /// those an edit touched otherwise).
    pub(crate) n_merged: u64,
    /// How many reads rules on one identity made outside their view.
    pub(crate) n_rule_violations: u64,
    /// How many times a rule on the whole module ran (its memo did not
    /// hold).
    pub(crate) n_module_rules_run: u64,
    /// How many times a node rule ran on one block (its memo did not hold).
    pub(crate) n_node_rules_run: u64,
    /// The rules on one identity: the registry's, except in the tests of
    /// the registry itself, which add deliberately wrong ones.
    pub(crate) identity_rules: &'static [rules::IdentityRule],
}

impl Default for Retained {
    fn default() -> Retained {
        Retained {
            previous: None,
            n_edits_keeping_shapes: 0,
            n_edits_changing_shapes: 0,
            n_merged: 0,
            n_rule_violations: 0,
            n_module_rules_run: 0,
            n_node_rules_run: 0,
            identity_rules: rules::IDENTITY_RULES,
        }
    }
}

/// `given` with the schema of OpenTofu's built-in provider
/// (`terraform.io/builtin/terraform`), which `tofu validate` knows
/// without a plugin, unless `given` has it.
pub(crate) fn with_built_in_schema(given: &ProviderSchemas) -> ProviderSchemas {
    let address = implied_provider("terraform");
    let mut schemas = given.clone();
    if given.get(&address).is_none() {
        if let Some(schema) = builtin_schema(&address) {
            schemas.insert(address, schema);
        }
    }
    schemas
}

impl Retained {
    /// The analysis before, if it was of these file names (sorted): then
    /// discovery (names alone) is the same, and phases 2 and 3 may be redone
    /// in part.
    pub(crate) fn discovery_for<'a>(
        &mut self,
        names: impl ExactSizeIterator<Item = &'a str>,
    ) -> Option<Discovery> {
        let previous = self.previous.as_deref()?;
        let known = &previous.files.names;
        let same = names.len() == known.len() && names.zip(known).all(|(a, b)| a == b);
        if same {
            Some(previous.discovery.clone())
        } else {
            self.previous = None;
            None
        }
    }
}

/// What the last analysis of a directory leaves for the next one. Everything
/// in it is shared with that analysis.
#[derive(Debug)]
struct Previous {
    discovery: Discovery,
    files: Files,
    declarations: Arc<Declarations>,
    primary_fates: Arc<HashMap<BlockRef, BlockFate>>,
    plan: Arc<OverridePlan>,
    names: Arc<DeclaredNames>,
    effective: EffectiveModule,
    by_owner: Arc<FindingsByOwner>,
    memos: Memos,
    graph: Graph,
    /// The module tree the analysis was made in.
    tree: CalledModules,
    /// The provider schemas it was given.
    schemas: ProviderSchemas,
}

/// What each file was in the analysis before, by `FileId`.
#[derive(Debug)]
struct Files {
    names: Vec<String>,
    texts: Vec<Arc<str>>,
    sources: Vec<Option<Arc<SourceFile>>>,
    incomplete: Vec<bool>,
}

impl Files {
    fn of(module: &LoadedModule) -> Files {
        Files {
            names: module.files.iter().map(|f| f.name.clone()).collect(),
            texts: module.files.iter().map(|f| Arc::clone(&f.text)).collect(),
            sources: module.files.iter().map(|f| f.source.clone()).collect(),
            incomplete: module.files.iter().map(|f| f.is_incomplete()).collect(),
        }
    }

    /// The same files, `changed` ones as they are in `module` now.
    fn update(mut self, module: &LoadedModule, changed: &[FileId]) -> Files {
        for &id in changed {
            let index = id.0 as usize;
            let (Some(file), Some(text), Some(source), Some(incomplete)) = (
                module.file(id),
                self.texts.get_mut(index),
                self.sources.get_mut(index),
                self.incomplete.get_mut(index),
            ) else {
                continue;
            };
            *text = Arc::clone(&file.text);
            source.clone_from(&file.source);
            *incomplete = file.is_incomplete();
        }
        self
    }
}

/// What phases 2 and 3 and the rules on one identity reported, by what it
/// depends on.
#[derive(Clone, Debug, Default)]
struct FindingsByOwner {
    /// Duplicates of an identity and what merging into it reported.
    merged: HashMap<BlockAddress, Vec<Diagnostic>>,
    /// Duplicates of a local value.
    locals: HashMap<String, Vec<Diagnostic>>,
    /// What merging reported on one override file alone.
    override_files: HashMap<FileId, Vec<Diagnostic>>,
    /// What the rules on each identity and local value found, with the
    /// names they asked about.
    /// (Shared: an edit keeps most of them as they are.)
    block_rules: HashMap<BlockAddress, Arc<IdentityRuleResults>>,
    local_rules: HashMap<String, Arc<IdentityRuleResults>>,
}

/// What the rules on one identity or local value found.
#[derive(Clone, Debug, Default)]
struct IdentityRuleResults {
    findings: IdentityFindings,
    names: NameReads,
}

impl FindingsByOwner {
    fn all_load(&self) -> impl Iterator<Item = &Diagnostic> {
        let merged = self.merged.values().flatten();
        let locals = self.locals.values().flatten();
        let rules = self
            .block_rules
            .values()
            .chain(self.local_rules.values())
            .flat_map(|results| &results.findings.load);
        merged
            .chain(locals)
            .chain(self.override_files.values().flatten())
            .chain(rules)
    }

    fn all_undeclared_variables(&self) -> impl Iterator<Item = &UndeclaredVariableUse> {
        self.block_rules
            .values()
            .chain(self.local_rules.values())
            .flat_map(|results| &results.findings.undeclared_variables)
    }

    fn all_build(&self) -> impl Iterator<Item = &Diagnostic> {
        self.block_rules
            .values()
            .chain(self.local_rules.values())
            .flat_map(|results| &results.findings.build)
    }

    fn all_tree(&self) -> impl Iterator<Item = &Diagnostic> {
        self.block_rules
            .values()
            .chain(self.local_rules.values())
            .flat_map(|results| &results.findings.tree)
    }

    fn all_graph(&self) -> impl Iterator<Item = &Diagnostic> {
        self.block_rules
            .values()
            .chain(self.local_rules.values())
            .flat_map(|results| &results.findings.graph)
    }

    fn walk(&self) -> impl Iterator<Item = (NodeRef<'_>, &[Diagnostic])> {
        let blocks = self
            .block_rules
            .iter()
            .map(|(address, results)| (NodeRef::Block(address), results));
        let locals = self
            .local_rules
            .iter()
            .map(|(name, results)| (NodeRef::Local(name), results));
        blocks
            .chain(locals)
            .filter(|(_, results)| !results.findings.walk.is_empty())
            .map(|(node, results)| (node, results.findings.walk.as_slice()))
    }
}

/// The merged module and what everything after loading reported, by phase.
pub(crate) struct CheckedModule {
    pub(crate) merged: MergedModule,
    /// What OpenTofu reports while loading, unsorted.
    pub(crate) load: Vec<Diagnostic>,
    /// What OpenTofu reports while building the configuration (provider
    /// configurations across the module tree), once loading succeeded.
    pub(crate) build: Vec<Diagnostic>,
    /// What OpenTofu reports while building the module tree, once loading
    /// succeeded.
    pub(crate) tree: Vec<Diagnostic>,
    /// What OpenTofu reports while building `validate`'s graph after the
    /// module tree's inputs, once the tree reported no error.
    pub(crate) graph: Vec<Diagnostic>,
    /// Dependency cycles, reported once the tree was built.
    pub(crate) cycles: Vec<Diagnostic>,
    /// What `validate`'s walk reports when there is no cycle: each node's
    /// findings unless a node it depends on failed.
    pub(crate) walk: Vec<Diagnostic>,
    /// tofu-lens's own findings (declarations nothing refers to), never
    /// held back.
    pub(crate) lint: Vec<Diagnostic>,
    /// What `tofu plan` reports about variable values, never held back.
    pub(crate) plan: Vec<Diagnostic>,
    /// The uses of undeclared input variables the rules recorded, for the
    /// "Declare variable" fix (`declare_fix`).
    pub(crate) undeclared_variables: RecordedUndeclaredVariables,
    /// The values validate's walk gives the local values that resources,
    /// data sources and provider configurations read directly (those that
    /// failed left out), when the module was given provider schemas: what
    /// the providers' validators see (`validator_calls`).
    pub(crate) walk_locals: BTreeMap<String, tofu_eval::Value>,
}

/// The uses of undeclared input variables the rules recorded, gathered
/// only when asked: most analyses report none, and gathering them visits
/// the results of every identity.
pub(crate) struct RecordedUndeclaredVariables {
    by_owner: Arc<FindingsByOwner>,
    by_module_rules: Vec<UndeclaredVariableUse>,
}

impl RecordedUndeclaredVariables {
    pub(crate) fn gather(&self) -> Vec<UndeclaredVariableUse> {
        let by_identity_rules = self.by_owner.all_undeclared_variables();
        by_identity_rules
            .chain(&self.by_module_rules)
            .cloned()
            .collect()
    }
}

/// What the caller gives an analysis besides the directory's files: the
/// module tree, the provider schemas and the files functions read.
#[derive(Clone, Copy)]
pub(crate) struct Given<'g> {
    pub(crate) tree: &'g CalledModules,
    pub(crate) schemas: &'g ProviderSchemas,
    pub(crate) module_files: &'g ModuleFiles,
}

/// Phases 2 and 3 of `loaded` and the rules on the merged module: in part
/// where the analysis before allows, whole otherwise.
pub(crate) fn declare_merge_and_check(
    loaded: LoadedModule,
    discovery: Discovery,
    config: &Config,
    given: Given<'_>,
    store: &mut FileStore,
    retained: &mut Retained,
) -> CheckedModule {
    let Given {
        tree,
        schemas,
        module_files,
    } = given;
    let previous = retained.previous.take().map(|previous| *previous);
    let changes = previous
        .as_ref()
        .and_then(|previous| changes(previous, &loaded));
    // The module rules' results hold only across edits that kept every
    // shape (which identities exist is then known).
    let mut memos = Memos::new(config);
    // The dependency graph, and the nodes whose references to resolve again
    // (`None`: build it whole).
    let mut kept_graph = None;
    // Other files for functions to read are done whole: what a function
    // read is not recorded.
    let previous = previous.filter(|previous| previous.names.module_files == *module_files);
    let built = match (previous, changes) {
        // A new module tree changes what the names say of module calls, new
        // schemas what they say of providers.
        (Some(mut previous), Some(changes))
            if changes.keep_shapes && previous.tree == *tree && previous.schemas == *schemas =>
        {
            retained.n_edits_keeping_shapes += 1;
            let old = std::mem::replace(&mut previous.memos, Memos::new(config));
            let graph = std::mem::take(&mut previous.graph);
            let (built, touched) = shapes_kept(previous, &changes, loaded, store, retained);
            memos = old.still_holding(&changes, &touched, config);
            kept_graph = Some((graph, false));
            built
        }
        (Some(mut previous), Some(changes)) => {
            retained.n_edits_changing_shapes += 1;
            kept_graph = Some((std::mem::take(&mut previous.graph), true));
            reshaped(previous, &changes.files, loaded, given, store, retained)
        }
        _ => whole(loaded, tree, schemas, module_files, store, retained),
    };
    let Built {
        declared,
        plan,
        names,
        mut effective,
        by_owner,
        files,
        rechecked,
    } = built;
    let mut load: Vec<Diagnostic> = by_owner.all_load().cloned().collect();
    let mut build_phase: Vec<Diagnostic> = by_owner.all_build().cloned().collect();
    let mut tree_phase: Vec<Diagnostic> = by_owner.all_tree().cloned().collect();
    let mut graph_phase: Vec<Diagnostic> = by_owner.all_graph().cloned().collect();
    no_base_diagnostics(&declared, &plan, &mut load);
    effective.terraform = merge_terraform(&declared, &mut load);
    let merged = MergedModule {
        declared,
        effective,
        override_fates: Arc::clone(&plan.fates),
    };
    let mut dependencies = match kept_graph {
        Some((mut graph, reshaped)) => {
            graph.update(&merged, reshaped, rechecked.into_iter());
            graph
        }
        None => Graph::build(&merged),
    };
    let mut module_walk = Vec::new();
    let mut values = Vec::new();
    let mut lint = Vec::new();
    let mut undeclared_variables = Vec::new();
    let mut node_walk = Vec::new();
    let rules_run = memos.run(
        &merged,
        &names,
        &dependencies.uses(),
        [
            &mut load,
            &mut build_phase,
            &mut tree_phase,
            &mut graph_phase,
            &mut module_walk,
            &mut values,
            &mut lint,
        ],
        &mut node_walk,
        &mut undeclared_variables,
    );
    retained.n_module_rules_run += rules_run.n_module_rules;
    retained.n_node_rules_run += rules_run.n_node_rules;
    let provider_users =
        |provider: &BlockAddress| tofu_module::provider_schemas::users_of(&merged, provider);
    let argument_at =
        |call: &str, subject: &Location| merged.effective.module_argument_at(call, subject);
    let node_findings = node_walk
        .iter()
        .map(|(node, found): &(Node, Vec<Diagnostic>)| (node.as_ref(), found.as_slice()));
    let mut graph = graph::outcome(
        &mut dependencies,
        by_owner.walk().chain(node_findings),
        &names.children,
        &provider_users,
        &argument_at,
    );
    // What module rules find in the walk belongs to no node; a cycle stops
    // the walk before it, as it stops the nodes'.
    if graph.cycles.is_empty() {
        graph.walk.extend(module_walk);
    }
    let recorded = RecordedUndeclaredVariables {
        by_owner: Arc::clone(&by_owner),
        by_module_rules: undeclared_variables,
    };
    retained.previous = Some(Box::new(Previous {
        discovery,
        files,
        declarations: Arc::clone(&merged.declarations),
        primary_fates: Arc::clone(&merged.primary_fates),
        plan,
        names,
        effective: merged.effective.clone(),
        by_owner,
        memos,
        graph: dependencies,
        tree: tree.clone(),
        schemas: schemas.clone(),
    }));
    CheckedModule {
        merged,
        load,
        build: build_phase,
        tree: tree_phase,
        graph: graph_phase,
        cycles: graph.cycles,
        walk: graph.walk,
        lint,
        plan: values,
        undeclared_variables: recorded,
        walk_locals: rules_run.walk_locals,
    }
}

/// The last result of each rule on the whole module (`rules::MODULE_RULES`),
/// by rule, and of each node rule (`rules::NODE_RULES`), by rule and block,
/// with what it read through its view: after an edit that kept every shape
/// and touched none of it, under the same configuration, the result still
/// holds.
#[derive(Debug)]
struct Memos {
    config: Config,
    by_rule: HashMap<&'static str, RuleMemo>,
    by_node: HashMap<&'static str, NodeMemos>,
    /// Plan's walk (`plan_values`) by node, each memo holding also while
    /// the values of the variables it read hold: those the walk knew when
    /// the memos were made.
    plan_nodes: NodeMemos,
    plan_values: Option<PlanDigest>,
    known_values: KnownValues,
}

/// How many rules [`Memos::run`] ran.
struct RulesRun {
    n_module_rules: u64,
    n_node_rules: u64,
    /// See [`CheckedModule::walk_locals`].
    walk_locals: BTreeMap<String, tofu_eval::Value>,
}

impl Memos {
    fn new(config: &Config) -> Memos {
        Memos {
            config: config.clone(),
            by_rule: HashMap::default(),
            by_node: HashMap::default(),
            plan_nodes: NodeMemos::default(),
            plan_values: None,
            known_values: KnownValues::default(),
        }
    }

    /// What still holds after `changes` (every shape kept), touching the
    /// identities and local values of `touched`, under `config`: a memo
    /// that read a changed file only before its first changed byte holds.
    fn still_holding(self, changes: &Changes, touched: &Touched, config: &Config) -> Memos {
        if self.config != *config {
            return Memos::new(config);
        }
        let changed = changes.files.as_slice();
        let holds = |memo: &RuleMemo| {
            !changed
                .iter()
                .any(|file| memo.reads.read_after(*file, &changes.from))
                && memo.reads.identities.is_disjoint(&touched.identities)
                && memo.reads.locals.is_disjoint(&touched.locals)
        };
        let mut by_rule = self.by_rule;
        by_rule.retain(|_, memo| holds(memo));
        let mut by_node = self.by_node;
        for memos in by_node.values_mut() {
            memos.drop_touched(changed, &touched.identities, &touched.locals, &changes.from);
        }
        let mut plan_nodes = self.plan_nodes;
        plan_nodes.drop_touched(changed, &touched.identities, &touched.locals, &changes.from);
        Memos {
            by_rule,
            by_node,
            config: self.config,
            plan_nodes,
            plan_values: self.plan_values,
            known_values: self.known_values,
        }
    }

    /// Every module rule on `module`: its memo, or a run through a recording
    /// view; into `out`, by phase (load, build, tree, graph, walk, plan, lint).
    /// Then every node rule on each block it judges, likewise, into
    /// `node_walk` by block (only blocks with findings). A memo that read
    /// the graph's uses holds only while they are the same.
    #[allow(clippy::too_many_arguments)] // What the rules read, and where each kind of finding goes.
    fn run(
        &mut self,
        module: &MergedModule,
        names: &DeclaredNames,
        uses: &Uses<'_>,
        out: [&mut Vec<Diagnostic>; 7],
        node_walk: &mut Vec<(Node, Vec<Diagnostic>)>,
        undeclared_variables: &mut Vec<UndeclaredVariableUse>,
    ) -> RulesRun {
        let [load, build, tree, graph, walk, plan, lint] = out;
        let mut n_run = 0;
        let uses_hold = |memo: &RuleMemo| memo.reads.uses.is_none_or(|seen| seen == uses.version());
        self.by_rule.retain(|_, memo| uses_hold(memo));
        for rule in rules::MODULE_RULES {
            let memo = self.by_rule.entry(rule.name).or_insert_with(|| {
                n_run += 1;
                let view = ModuleView::new(module, names, &self.config, uses);
                let mut diagnostics = Vec::new();
                (rule.check)(&view, &mut diagnostics);
                let (reads, undeclared_variables) = view.into_records();
                RuleMemo {
                    reads,
                    diagnostics,
                    undeclared_variables,
                }
            });
            let out = match rule.phase {
                Phase::Load => &mut *load,
                Phase::Build => &mut *build,
                Phase::Tree => &mut *tree,
                Phase::Graph => &mut *graph,
                Phase::Walk => &mut *walk,
                Phase::Plan => &mut *plan,
                Phase::Lint => &mut *lint,
            };
            out.extend(memo.diagnostics.iter().cloned());
            undeclared_variables.extend(memo.undeclared_variables.iter().cloned());
        }
        let mut n_node_rules = 0;
        let shared_locals = SharedLocals::default();
        let on = RunOn {
            module,
            names,
            config: &self.config,
            uses,
            shared_locals: &shared_locals,
        };
        for rule in rules::NODE_RULES {
            let memos = self.by_node.entry(rule.name).or_default();
            n_node_rules += memos.run(rule, &on);
            for (node, memo) in memos.memos() {
                if !memo.diagnostics.is_empty() {
                    node_walk.push((node.clone(), memo.diagnostics.clone()));
                }
                undeclared_variables.extend(memo.undeclared_variables.iter().cloned());
            }
        }
        n_node_rules += run_plan(
            &mut self.plan_nodes,
            &mut self.plan_values,
            &mut self.known_values,
            &on,
            plan,
        );
        let walk_locals = walk_locals(&on);
        RulesRun {
            n_module_rules: n_run,
            n_node_rules,
            walk_locals,
        }
    }
}

/// What `tofu plan` reports from known values (`plan_values`), into
/// `out`: the variables' validations found again, and each node of
/// plan's walk from its memo unless an edit touched what it read or
/// the value of a variable it read changed. Returns how many nodes
/// were walked.
fn run_plan(
    memos: &mut NodeMemos,
    digest: &mut Option<PlanDigest>,
    known_values: &mut KnownValues,
    on: &RunOn<'_, '_>,
    out: &mut Vec<Diagnostic>,
) -> u64 {
    // The inputs are found every run; what finding them read is not
    // kept.
    let view = ModuleView::new(on.module, on.names, on.config, on.uses);
    let inputs = PlanInputs::of(&view, known_values);
    if let Some(inputs) = &inputs {
        out.extend(inputs.validations.iter().cloned());
    }
    // Plan's walk runs wherever plan is run: instances' keys, constant
    // arguments and `enabled` bring findings even with no variable known.
    let Some(inputs) = inputs else {
        *memos = NodeMemos::default();
        *digest = None;
        return 0;
    };
    let values = inputs.values_read();
    match &*digest {
        Some(before) => memos.drop_variables(&values.changed_from(before)),
        None => *memos = NodeMemos::default(),
    }
    *digest = Some(values);
    let n_run = memos.run_check(
        plan_values::judges,
        |view, node, found| plan_values::check_node(view, node, &inputs, found),
        on,
    );
    // Plan skips what depends on a node that failed.
    let failed: BTreeSet<Node> = memos
        .memos()
        .filter(|(node, memo)| {
            matches!(
                node,
                Node::Local(_) | Node::Block(BlockAddress::Resource { .. })
            ) && memo
                .diagnostics
                .iter()
                .any(|found| found.severity == tofu_syntax::Severity::Error)
        })
        .map(|(node, _)| node.clone())
        .collect();
    let with_findings = memos
        .memos()
        .filter(|(_, memo)| !memo.diagnostics.is_empty())
        .map(|(node, _)| node);
    let stopped = plan_values::stopped_nodes(&on.module.effective, &failed, &inputs, with_findings);
    for (node, memo) in memos.memos() {
        if !stopped.contains(node) {
            out.extend(memo.diagnostics.iter().cloned());
        }
    }
    n_run
}

/// The walk's values of the local values that resources, data sources,
/// ephemeral resources and provider configurations of providers with a
/// process (a schema at hand, not the built-in one) read directly, taken
/// from (or added to) the run's shared local values; those that failed are
/// left out.
fn walk_locals(on: &RunOn<'_, '_>) -> BTreeMap<String, tofu_eval::Value> {
    // Most modules have no provider with a process: nothing to compute,
    // and no block to look at on every keystroke.
    let with_process = on
        .names
        .providers
        .schemas
        .iter()
        .any(|(address, _)| !tofu_schema::requirements::is_built_in(address));
    if !with_process {
        return BTreeMap::new();
    }
    let read: BTreeSet<&str> = on
        .module
        .effective
        .blocks
        .iter()
        .filter(|block| {
            // Only blocks whose provider has a process to ask (a schema at
            // hand, not the built-in provider): computing values no
            // validator reads cost 45 ms a keystroke on the 1,000-file
            // module (lsp-keystroke-chain).
            let local_name = match &block.address {
                BlockAddress::Resource { .. } => on
                    .names
                    .objects
                    .get(&block.address)
                    .map(|declared| declared.provider.as_str()),
                BlockAddress::Provider { name, .. } => Some(name.as_str()),
                _ => None,
            };
            local_name.is_some_and(|local_name| {
                let (address, schema) = on.names.providers.schema(local_name);
                schema.is_some() && !tofu_schema::requirements::is_built_in(&address)
            })
        })
        .flat_map(|block| block.references.all())
        .filter_map(|reference| match reference.node() {
            Some(Node::Local(name)) => on
                .module
                .effective
                .local(&name)
                .map(|local| local.name.as_str()),
            _ => None,
        })
        .collect();
    let view = ModuleView::new(on.module, on.names, on.config, on.uses)
        .with_shared_locals(on.shared_locals);
    read.into_iter()
        .filter_map(|name| {
            let value = WalkValues::new(&view).known_local(name)?;
            Some((name.to_owned(), value))
        })
        .collect()
}

/// Phases 2 and 3 as built by one road.
struct Built {
    declared: DeclaredModule,
    plan: Arc<OverridePlan>,
    names: Arc<DeclaredNames>,
    effective: EffectiveModule,
    by_owner: Arc<FindingsByOwner>,
    files: Files,
    /// The identities and local values checked anew (merged, or their rules
    /// run again): the graph resolves their references again.
    rechecked: Vec<Node>,
}

/// Phases 2 and 3 from nothing.
fn whole(
    loaded: LoadedModule,
    tree: &CalledModules,
    schemas: &ProviderSchemas,
    module_files: &ModuleFiles,
    store: &mut FileStore,
    retained: &mut Retained,
) -> Built {
    let files = Files::of(&loaded);
    build(
        declare(loaded),
        files,
        None,
        Given {
            tree,
            schemas,
            module_files,
        },
        store,
        retained,
    )
}

/// Phases 2 and 3 again after `changed` files changed their shapes (a block
/// added, removed or relabelled): declarations and the plan are built whole
/// (the identities and their order change), but an identity or local value
/// with no block in a changed file, before or after the edit, has the same
/// blocks as before, so its merge and what it reported are taken from the
/// analysis before; its rules run again only when a name they asked
/// about changed. What merging reports on override files is redone for all
/// of them: whether a local value exists, and its "Did you mean", may have
/// changed.
fn reshaped(
    previous: Previous,
    changed: &[FileId],
    loaded: LoadedModule,
    given: Given<'_>,
    store: &mut FileStore,
    retained: &mut Retained,
) -> Built {
    let Given {
        tree,
        schemas,
        module_files,
    } = given;
    // Every identity with a block in a changed file, before the edit or now.
    let mut touched = Touched::default();
    for &file_id in changed {
        if loaded
            .file(file_id)
            .is_some_and(|file| file.role.is_loaded())
        {
            let index = file_id.0 as usize;
            touched.add(previous.files.sources.get(index).and_then(Option::as_deref));
        }
    }
    let files = previous.files.update(&loaded, changed);
    let declared = declare(loaded);
    touched.add_files(&declared, changed);
    let keep = Keep {
        effective: &previous.effective,
        by_owner: &previous.by_owner,
        names: &previous.names,
        touched,
    };
    build(
        declared,
        files,
        Some(keep),
        Given {
            tree,
            schemas,
            module_files,
        },
        store,
        retained,
    )
}

/// What a rebuild takes from the analysis before: the merged blocks, local
/// values and diagnostics of the identities and local values an edit did
/// not touch.
struct Keep<'a> {
    effective: &'a EffectiveModule,
    by_owner: &'a FindingsByOwner,
    names: &'a DeclaredNames,
    touched: Touched,
}

/// Declarations and the plan of `declared`, every identity and local value
/// merged or, where `keep` allows, taken from the analysis before.
fn build(
    declared: DeclaredModule,
    files: Files,
    keep: Option<Keep<'_>>,
    given: Given<'_>,
    store: &mut FileStore,
    retained: &mut Retained,
) -> Built {
    let Given {
        tree,
        schemas,
        module_files,
    } = given;
    let plan = OverridePlan::new(&declared);
    let names = DeclaredNames::of(&declared, &plan, tree, schemas, module_files);
    let name_changes = keep
        .as_ref()
        .map(|keep| keep.names.changes(&names))
        .unwrap_or_default();
    let mut by_owner = FindingsByOwner::default();
    let mut rechecked = Vec::new();
    let mut blocks = Vec::with_capacity(declared.declarations.blocks.len());
    for (address, base) in plan.identities(&declared) {
        let kept = keep.as_ref().and_then(|keep| {
            let block = keep.effective.shared(address)?;
            (!keep.touched.identities.contains(address)).then_some((keep, block))
        });
        if let Some((keep, block)) = kept {
            blocks.push(Arc::clone(block));
            if let Some(found) = keep.by_owner.merged.get(address) {
                by_owner.merged.insert(address.clone(), found.clone());
            }
            match keep.by_owner.block_rules.get(address) {
                Some(results)
                    if !results.names.touched_by(&name_changes)
                        && !results
                            .names
                            .reads_values_of(&keep.touched.locals, &keep.touched.identities) =>
                {
                    by_owner
                        .block_rules
                        .insert(address.clone(), Arc::clone(results));
                }
                // No results kept: the rules found nothing and asked about no name.
                None => {}
                Some(_) => {
                    check_rules_on(
                        &declared,
                        &plan,
                        MergedNode::Block(block),
                        &names,
                        &mut by_owner,
                        retained,
                    );
                    rechecked.push(Node::Block(address.clone()));
                }
            }
        } else if let Some(block) = merge_and_check_identity(
            &declared,
            &plan,
            &names,
            store,
            retained,
            address,
            base,
            &mut by_owner,
        ) {
            rechecked.push(Node::Block(address.clone()));
            blocks.push(Arc::new(block));
        }
    }
    let mut locals = Vec::with_capacity(declared.declarations.locals.len());
    for local in &declared.declarations.locals {
        let name = &local.name;
        let kept = keep.as_ref().and_then(|keep| {
            let local = keep.effective.shared_local(name)?;
            (!keep.touched.locals.contains(name)).then_some((keep, local))
        });
        if let Some((keep, local)) = kept {
            locals.push(Arc::clone(local));
            if let Some(found) = keep.by_owner.locals.get(name) {
                by_owner.locals.insert(name.clone(), found.clone());
            }
            match keep.by_owner.local_rules.get(name) {
                Some(results)
                    if !results.names.touched_by(&name_changes)
                        && !results
                            .names
                            .reads_values_of(&keep.touched.locals, &keep.touched.identities) =>
                {
                    by_owner
                        .local_rules
                        .insert(name.clone(), Arc::clone(results));
                }
                None => {}
                Some(_) => {
                    check_rules_on(
                        &declared,
                        &plan,
                        MergedNode::Local(local),
                        &names,
                        &mut by_owner,
                        retained,
                    );
                    rechecked.push(Node::Local(name.clone()));
                }
            }
        } else if let Some(local) =
            merge_and_check_local(&declared, &plan, &names, name, &mut by_owner, retained)
        {
            rechecked.push(Node::Local(name.clone()));
            locals.push(Arc::new(local));
        }
    }
    for &file_id in &declared.overrides {
        check_override_file(&declared, file_id, &mut by_owner);
    }
    let effective = EffectiveModule::new(blocks, locals, EffectiveTerraform::default());
    Built {
        declared,
        plan: Arc::new(plan),
        names: Arc::new(names),
        effective,
        by_owner: Arc::new(by_owner),
        files,
        rechecked,
    }
}

/// The rules on one identity or local value, their results kept by it.
fn check_rules_on(
    module: &DeclaredModule,
    plan: &OverridePlan,
    subject: MergedNode<'_>,
    names: &DeclaredNames,
    by_owner: &mut FindingsByOwner,
    retained: &mut Retained,
) {
    let (findings, mut names, n_violations) = rules::check_identity(
        retained.identity_rules,
        &mut IdentityView::new(module, subject, names).with_values_from(plan),
    );
    retained.n_rule_violations += n_violations as u64;
    let references = match subject {
        MergedNode::Block(block) => &block.references,
        MergedNode::Local(local) => &local.references,
    };
    names.add_names_of(references);
    let results = (!findings.is_empty() || !names.is_empty())
        .then(|| Arc::new(IdentityRuleResults { findings, names }));
    match (subject, results) {
        (MergedNode::Block(block), Some(results)) => {
            by_owner.block_rules.insert(block.address.clone(), results);
        }
        (MergedNode::Block(block), None) => {
            by_owner.block_rules.remove(&block.address);
        }
        (MergedNode::Local(local), Some(results)) => {
            by_owner.local_rules.insert(local.name.clone(), results);
        }
        (MergedNode::Local(local), None) => {
            by_owner.local_rules.remove(&local.name);
        }
    }
}

/// One identity merged, and what is reported on it alone: its duplicates,
/// what merging into it reported, the rules on one identity.
#[allow(clippy::too_many_arguments)] // The phases checking an identity reads, each once.
fn merge_and_check_identity(
    module: &DeclaredModule,
    plan: &OverridePlan,
    names: &DeclaredNames,
    store: &mut FileStore,
    retained: &mut Retained,
    address: &BlockAddress,
    base: Option<BlockRef>,
    by_owner: &mut FindingsByOwner,
) -> Option<EffectiveBlock> {
    retained.n_merged += 1;
    let mut found = Vec::new();
    if let Some(declared) = module.declarations.get(address) {
        duplicates_of(module, declared, &mut found);
    }
    let block = merge_identity(module, plan, store, address, base, &mut found);
    if found.is_empty() {
        by_owner.merged.remove(address);
    } else {
        by_owner.merged.insert(address.clone(), found);
    }
    let mut block = block?;
    block.references = node_refs::of_block(module, &block);
    check_rules_on(
        module,
        plan,
        MergedNode::Block(&block),
        names,
        by_owner,
        retained,
    );
    Some(block)
}

/// One local value merged, its duplicates, and the rules on it.
fn merge_and_check_local(
    module: &DeclaredModule,
    plan: &OverridePlan,
    names: &DeclaredNames,
    name: &str,
    by_owner: &mut FindingsByOwner,
    retained: &mut Retained,
) -> Option<EffectiveLocal> {
    if let Some(local) = module.declarations.local(name) {
        let mut found = Vec::new();
        duplicate_locals_of(module, local, &mut found);
        if found.is_empty() {
            by_owner.locals.remove(name);
        } else {
            by_owner.locals.insert(name.to_owned(), found);
        }
    }
    let mut local = merge_local(module, plan, name)?;
    local.references = node_refs::of_local(module, &local);
    check_rules_on(
        module,
        plan,
        MergedNode::Local(&local),
        names,
        by_owner,
        retained,
    );
    Some(local)
}

/// What merging reports on one override file alone.
fn check_override_file(module: &DeclaredModule, file_id: FileId, by_owner: &mut FindingsByOwner) {
    let mut found = Vec::new();
    override_file_diagnostics(module, file_id, &mut found);
    if !found.is_empty() {
        by_owner.override_files.insert(file_id, found);
    }
}

/// Phases 2 and 3 again after `changed` files kept their shapes, and the
/// identities and local values the edit touched.
fn shapes_kept(
    previous: Previous,
    changes: &Changes,
    loaded: LoadedModule,
    store: &mut FileStore,
    retained: &mut Retained,
) -> (Built, Touched) {
    let changed = changes.files.as_slice();
    let declared = DeclaredModule {
        loaded,
        declarations: previous.declarations,
        primary_fates: previous.primary_fates,
    };
    let plan = previous.plan;
    let names = previous.names;
    let mut effective = previous.effective;
    let mut by_owner = Arc::unwrap_or_clone(previous.by_owner);
    let mut touched = Touched::default();
    touched.add_edited(&declared, &previous.files, changes);
    for address in &touched.identities {
        by_owner.merged.remove(address);
        by_owner.block_rules.remove(address);
        let Some(base) = plan.base_of(&declared, address) else {
            continue;
        };
        if let Some(block) = merge_and_check_identity(
            &declared,
            &plan,
            &names,
            store,
            retained,
            address,
            base,
            &mut by_owner,
        ) {
            effective.replace(block);
        }
    }
    for name in &touched.locals {
        by_owner.locals.remove(name);
        by_owner.local_rules.remove(name);
        if let Some(local) =
            merge_and_check_local(&declared, &plan, &names, name, &mut by_owner, retained)
        {
            effective.replace_local(local);
        }
    }
    // What read the value of a touched local value or variable (a
    // resource body evaluated against its schema) is judged again too.
    let value_readers = |results: &IdentityRuleResults| {
        results
            .names
            .reads_values_of(&touched.locals, &touched.identities)
    };
    let block_readers: Vec<BlockAddress> = by_owner
        .block_rules
        .iter()
        .filter(|(address, results)| {
            !touched.identities.contains(*address) && value_readers(results)
        })
        .map(|(address, _)| address.clone())
        .collect();
    let local_readers: Vec<String> = by_owner
        .local_rules
        .iter()
        .filter(|(name, results)| !touched.locals.contains(*name) && value_readers(results))
        .map(|(name, _)| name.clone())
        .collect();
    let mut rechecked_readers = Vec::new();
    for address in block_readers {
        if let Some(block) = effective.shared(&address).map(Arc::clone) {
            check_rules_on(
                &declared,
                &plan,
                MergedNode::Block(&block),
                &names,
                &mut by_owner,
                retained,
            );
            rechecked_readers.push(Node::Block(address));
        }
    }
    for name in local_readers {
        if let Some(local) = effective.shared_local(&name).map(Arc::clone) {
            check_rules_on(
                &declared,
                &plan,
                MergedNode::Local(&local),
                &names,
                &mut by_owner,
                retained,
            );
            rechecked_readers.push(Node::Local(name));
        }
    }
    for &file_id in changed {
        if declared.file(file_id).map(|file| file.role) == Some(FileRole::Override) {
            by_owner.override_files.remove(&file_id);
            check_override_file(&declared, file_id, &mut by_owner);
        }
    }
    let files = previous.files.update(&declared, changed);
    let identities = touched.identities.iter().cloned().map(Node::Block);
    let locals = touched.locals.iter().cloned().map(Node::Local);
    let locals = locals.chain(rechecked_readers);
    let built = Built {
        declared,
        plan,
        names,
        effective,
        by_owner: Arc::new(by_owner),
        files,
        rechecked: identities.chain(locals).collect(),
    };
    (built, touched)
}

/// The identities and local values that some blocks declare or override.
#[derive(Default)]
struct Touched {
    identities: HashSet<BlockAddress>,
    locals: HashSet<String>,
}

impl Touched {
    /// Adds those with a block in one of the loaded `files` of `module`, as
    /// they are there.
    fn add_files(&mut self, module: &LoadedModule, files: &[FileId]) {
        for &file_id in files {
            if let Some(file) = module.file(file_id).filter(|file| file.role.is_loaded()) {
                self.add(file.source.as_deref());
            }
        }
    }

    /// Adds those whose text an edit that kept every shape changed: the
    /// blocks (for `locals` blocks, their local values) that end after the
    /// first byte that differs. Those before it are the same text at the
    /// same place; those after it moved, which changes their ranges.
    /// (A block or attribute ends after it in the text before the edit or
    /// in the text after it: a deletion at its end shortens it.)
    fn add_edited(&mut self, module: &LoadedModule, before: &Files, changes: &Changes) {
        for &file_id in &changes.files {
            let Some(file) = module.file(file_id).filter(|file| file.role.is_loaded()) else {
                continue;
            };
            let from = changes.from.get(&file_id).copied().unwrap_or(0);
            let old = before
                .sources
                .get(file_id.0 as usize)
                .and_then(Option::as_deref);
            self.add_from(old, from);
            self.add_from(file.source.as_deref(), from);
        }
    }

    fn add(&mut self, source: Option<&SourceFile>) {
        self.add_from(source, 0);
    }

    /// Adds those with a block in `source` that ends after byte `from`.
    fn add_from(&mut self, source: Option<&SourceFile>, from: u32) {
        let Some(source) = source else { return };
        for block in &source.body.blocks {
            if drop_reason(block).is_some() || block.range.end <= from {
                continue;
            }
            if block.kind == "locals" {
                // Every name of the block: a name written twice in one body
                // changes what the first one means (and JSON keeps one).
                let names = block.body.attributes.iter().map(|attr| attr.name.clone());
                self.locals.extend(names);
                continue;
            }
            self.identities.extend(address_of(block));
            if let Some((_, address)) = checked_data(block) {
                self.identities.insert(address);
            }
        }
    }
}

/// How many bytes `old` and `new` begin with alike.
fn common_prefix(old: &[u8], new: &[u8]) -> usize {
    old.iter().zip(new).take_while(|(a, b)| a == b).count()
}

/// How the files of a module changed since the analysis before.
struct Changes {
    files: Vec<FileId>,
    /// For each changed loaded file (whose shapes are compared), the first
    /// byte where its text differs from the text before: what lies before
    /// it is the same, at the same place. A changed file not in it changed
    /// whole.
    from: HashMap<FileId, u32>,
    /// Every changed file declares the same things in the same places.
    keep_shapes: bool,
}

/// The files of `loaded` that changed since `previous`, and whether they
/// kept their shapes; `None` when a file was added, removed or renamed.
fn changes(previous: &Previous, loaded: &LoadedModule) -> Option<Changes> {
    let known = &previous.files;
    if loaded.files.len() != known.names.len() {
        return None;
    }
    let mut changes = Changes {
        files: Vec::new(),
        from: HashMap::default(),
        keep_shapes: true,
    };
    for (index, file) in loaded.files.iter().enumerate() {
        if known.names.get(index)? != &file.name {
            return None;
        }
        let old_text = known.texts.get(index)?;
        let old_source = known.sources.get(index)?;
        let same_text = Arc::ptr_eq(old_text, &file.text) || **old_text == *file.text;
        let same_source = match (old_source, &file.source) {
            (Some(old), Some(new)) => Arc::ptr_eq(old, new),
            (None, None) => true,
            _ => false,
        };
        let same_completeness = known.incomplete.get(index) == Some(&file.is_incomplete());
        if same_text && same_source && same_completeness {
            continue;
        }
        let id = FileId(tofu_syntax::text::to_u32(index));
        if file.role.is_loaded() {
            let same = match (old_source, &file.source) {
                (Some(old), Some(new)) => same_shapes(old, new),
                (None, None) => true,
                _ => false,
            };
            changes.keep_shapes &= same && same_completeness;
            let same_prefix = common_prefix(old_text.as_bytes(), file.text.as_bytes());
            changes
                .from
                .insert(id, tofu_syntax::text::to_u32(same_prefix));
        }
        changes.files.push(id);
    }
    Some(changes)
}

//! What `tofu plan` reports from known values before it contacts a
//! provider (`spec/diagnostics.md` §7, issue 45): first, input variables'
//! `validation` rules.
//!
//! A directory is judged as plan would judge it as the root module when it
//! holds a values file plan reads by itself (`terraform.tfvars`,
//! `terraform.tfvars.json`, `*.auto.tfvars(.json)`), or when the user
//! names values for it (`Config::values`: `--var-file`, `--var`, a
//! `TF_VAR_` of a variable it declares, the server's `varFiles`): that is
//! where users run `tofu plan`. A module directory without either is
//! judged as validate judges it (every input variable unknown), since its
//! values come from its callers.
//!
//! Each variable's value is the one plan uses (`tofu_module::given_values`:
//! the environment, the automatic files, then the named files and `-var`s
//! in order, the last assignment winning), else its constant default,
//! converted to its type (optional attributes' defaults applied); a value
//! that does not convert is `variable-values`'s error and is not
//! validated. When plan stops while it collects the values (a `-var` for
//! an undeclared variable, a raw value that does not parse), nothing here
//! is judged. Every known value is known to the conditions at once, as in
//! plan (a condition may read other variables); resources, data sources
//! and module outputs stay unknown, so a condition that reads them is
//! unknown and judged by nobody: nothing rests on a guess.
//!
//! As OpenTofu (`evalVariableValidations`), the rules of one variable are
//! checked in order and the first that fails is reported: "Invalid value
//! for variable" on the `variable` block's header, its error message
//! followed by where the rule is; a condition that fails to evaluate only
//! with the value is plan's error there. The rules of a variable are one
//! node of plan's graph: when one of them reads a variable that failed (its
//! validation, or a value that does not convert) or a local value that
//! fails, none is evaluated, and the variable does not get past either.
//!
//! Then (`plan-values`) the module's other nodes with those values, each in
//! a walk of its own; a node that reads what failed is not evaluated. What
//! validate's evaluation rule reports only with the known values (a
//! negative `count`, a function that fails on them, an output's
//! precondition that is false) comes under codes of plan's own family;
//! also every false precondition of a single managed resource ("Resource
//! precondition failed"), then, when they hold, errors in its arguments;
//! and a `check` block's assertion that is false (a warning, "Check block
//! assertion failed"; an error when it fails to evaluate with the values).
//! Postconditions, data sources' conditions and instances of repeated
//! resources (their `count.index` and `each` are unknown here) are not
//! judged yet.
//!
//! A keystroke in a values file changes the value of one variable: the
//! values and the validations are found again ([`PlanInputs::of`], a
//! handful of variables' rules), but each node's findings are kept with
//! what its walk read, and only the nodes that read a variable whose value
//! changed, or that an edit touched otherwise, are walked again
//! (`incremental::Memos`, [`PlanDigest::changed_from`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use tofu_eval::convert::convert;
use tofu_eval::{Type, Value};
use tofu_syntax::{Diagnostic, FileId, Location};

use crate::rules::evaluation;
use crate::rules::expression_evaluation;
use crate::rules::messages::{self, ConditionMessage};
use crate::rules::values::{
    assigned_value, is_nullable, module_files, null_not_allowed, variable_type,
};
use crate::rules::views::{MergedNode, ModuleView};
use crate::rules::walk_values::{Instance, WalkValues};
use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::effective::{EffectiveBlock, EffectiveNestedBlock};
use tofu_module::given_values::{assignments, Assignment};
use tofu_module::refs::{Node, NodeRef};
use tofu_module::types::{constant_value, convert_variable_value, declared_true};

/// A variable's value as plan knows it, and where it was written.
#[derive(Clone, Debug)]
struct Known {
    value: Value,
    /// Where the value is written (`None` for a `-var` or `TF_VAR_`
    /// value).
    from: Option<Location>,
    from_default: bool,
}

/// Each input variable's known value as the last analysis of a directory
/// found it, kept across analyses: found again only when the variable's
/// effective block (a new `Arc` after an edit touched it) or what gives
/// it its value (the values file's expression, a `-var`) changed. A
/// keystroke in a values file changes one variable's.
#[derive(Debug, Default)]
pub(crate) struct KnownValues {
    by_variable: HashMap<String, CachedKnown>,
}

#[derive(Debug)]
struct CachedKnown {
    block: Arc<EffectiveBlock>,
    given: String,
    known: Option<Known>,
    /// The value exactly as found (type and marks included), to tell a
    /// changed value.
    digest: String,
}

impl KnownValues {
    /// `variable`'s known value, from the cache when neither its block nor
    /// `given` changed.
    fn known(
        &mut self,
        view: &ModuleView<'_>,
        variable: &EffectiveBlock,
        name: &str,
        given: Option<Assignment<'_>>,
    ) -> Option<(&Known, &str)> {
        let block = view.effective_shared(&variable.address)?;
        let key = given_key(view, given);
        let fresh = self
            .by_variable
            .get(name)
            .is_some_and(|cached| Arc::ptr_eq(&cached.block, block) && cached.given == key);
        if !fresh {
            let known = known_value(view, variable, given);
            let digest = known
                .as_ref()
                .map(|known| format!("{:?}", known.value))
                .unwrap_or_default();
            self.by_variable.insert(
                name.to_owned(),
                CachedKnown {
                    block: Arc::clone(block),
                    given: key,
                    known,
                    digest,
                },
            );
        }
        let cached = self.by_variable.get(name)?;
        Some((cached.known.as_ref()?, cached.digest.as_str()))
    }

    /// Forgets the variables not among `variables`. (A variable removed
    /// changes a shape, which starts the memos afresh, so this finds
    /// nothing to forget on a keystroke: the set is built only then.)
    fn retain(&mut self, variables: &[&EffectiveBlock]) {
        if self.by_variable.len() <= variables.len() {
            return;
        }
        let declared: BTreeSet<&str> = variables
            .iter()
            .filter_map(|variable| match &variable.address {
                BlockAddress::Variable(name) => Some(name.as_str()),
                _ => None,
            })
            .collect();
        self.by_variable
            .retain(|name, _| declared.contains(name.as_str()));
    }
}

/// What gives a variable its value, as text that changes when the value
/// may: the values file's expression where it is (a range moves with the
/// text before it, and the file's id with the files), or the raw text.
fn given_key(view: &ModuleView<'_>, given: Option<Assignment<'_>>) -> String {
    match given {
        None => String::new(),
        Some(Assignment::File {
            file, attribute, ..
        }) => {
            let range = attribute.expr.range;
            let text = view
                .file(file)
                .and_then(|written| written.text.get(range.start as usize..range.end as usize))
                .unwrap_or_default();
            format!("{}:{}-{}:{text}", file.0, range.start, range.end)
        }
        Some(Assignment::Raw { text, .. }) => format!("raw:{text}"),
    }
}

/// What plan's walk starts from in a directory `tofu plan` is run in,
/// found once per analysis (the values files, the variables' validation
/// rules): the known values, the variables whose validation failed, and
/// "Invalid value for variable" for those this module reports (on the
/// `variable` block). The module's nodes are then judged one by one
/// ([`check_node`]), each memo holding while the values it read hold
/// ([`PlanInputs::values_read`]).
pub(crate) struct PlanInputs {
    /// The values the walk knows (not those of variables whose
    /// validation failed); shared by every node's walk, not copied.
    known: std::rc::Rc<BTreeMap<String, Value>>,
    /// Each known value exactly as found ([`KnownValues`]).
    digests: BTreeMap<String, String>,
    /// The variables whose validation failed (or read what failed).
    failed: Vec<String>,
    pub(crate) validations: Vec<Diagnostic>,
}

/// Each input variable's value as plan's walk sees it, to tell which
/// changed between two analyses: its value exactly as evaluated (type and
/// marks included), or withheld.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct PlanDigest {
    values: BTreeMap<String, String>,
    withheld: BTreeSet<String>,
}

impl PlanDigest {
    /// The variables whose value in the walk differs between `self` and
    /// `other` (given, changed, withheld or no longer).
    pub(crate) fn changed_from(&self, other: &PlanDigest) -> rustc_hash::FxHashSet<String> {
        let mut changed = rustc_hash::FxHashSet::default();
        for (name, value) in &self.values {
            if other.values.get(name) != Some(value) {
                changed.insert(name.clone());
            }
        }
        for name in other.values.keys() {
            if !self.values.contains_key(name) {
                changed.insert(name.clone());
            }
        }
        changed.extend(self.withheld.symmetric_difference(&other.withheld).cloned());
        changed
    }
}

impl PlanInputs {
    /// `None` in a directory plan is not run in (no automatic values file,
    /// no values chosen for it), or where plan stops while it collects them.
    pub(crate) fn of(view: &ModuleView<'_>, cache: &mut KnownValues) -> Option<PlanInputs> {
        let plan = PlanValues::of(view, cache)?;
        let known = plan.for_the_walk();
        let digests = plan
            .digests
            .into_iter()
            .filter(|(name, _)| known.contains_key(name))
            .collect();
        let failed = plan
            .failed_validations
            .iter()
            .map(|(name, _)| name.clone())
            .collect();
        Some(PlanInputs {
            known: std::rc::Rc::new(known),
            digests,
            failed,
            validations: plan
                .failed_validations
                .into_iter()
                .flat_map(|(_, diagnostics)| diagnostics)
                .collect(),
        })
    }

    /// What the nodes' memos depend on besides what they read through
    /// their views.
    pub(crate) fn values_read(&self) -> PlanDigest {
        PlanDigest {
            values: self.digests.clone(),
            withheld: self.failed.iter().cloned().collect(),
        }
    }

    /// Plan's walk for one node.
    fn walk<'v, 'a>(&self, view: &'v ModuleView<'a>) -> WalkValues<'v, 'a> {
        WalkValues::with_known_variables(view, std::rc::Rc::clone(&self.known))
            .withholding(self.failed.iter().cloned())
    }
}

/// The values `tofu plan` knows in a directory it is run in, and the
/// variables whose validation they fail.
struct PlanValues {
    known: BTreeMap<String, Known>,
    /// Each known value exactly as found ([`KnownValues`]).
    digests: BTreeMap<String, String>,
    /// The variables plan's walk does not get past: their validation
    /// failed (with its diagnostic, where this rule reports it) or read
    /// what failed.
    failed_validations: Vec<(String, Vec<Diagnostic>)>,
}

impl PlanValues {
    /// `None` in a directory plan is not run in (without an automatic
    /// values file or values the user names), or where plan stops while it
    /// collects the values.
    fn of(view: &ModuleView<'_>, cache: &mut KnownValues) -> Option<PlanValues> {
        let files = module_files(view);
        let chosen = &view.config().values;
        if !crate::rules::values::planned(view, &files) {
            return None;
        }
        let given = assignments(&files, chosen);
        // Plan stopped while it collected the values: a value it could not
        // take, or one it needs and did not get.
        if crate::rules::values::command_line_fails(view, &given)
            || !crate::rules::values::unset_required(view, &given).is_empty()
        {
            return None;
        }
        let variables =
            view.effective_blocks(|address| matches!(address, BlockAddress::Variable(_)));
        let mut known: BTreeMap<String, Known> = BTreeMap::new();
        let mut digests: BTreeMap<String, String> = BTreeMap::new();
        cache.retain(&variables);
        // A value that does not convert to its variable's type fails the
        // variable's node (`variable-values` reports it): plan evaluates
        // nothing that reads it.
        let mut unconvertible: Vec<(String, Vec<Diagnostic>)> = Vec::new();
        for variable in &variables {
            let BlockAddress::Variable(name) = &variable.address else {
                continue;
            };
            let given = given.get(name.as_str()).copied();
            match cache.known(view, variable, name, given) {
                Some((value, digest)) => {
                    known.insert(name.clone(), value.clone());
                    digests.insert(name.clone(), digest.to_owned());
                }
                None if given.is_some_and(|given| does_not_convert(view, variable, given)) => {
                    unconvertible.push((name.clone(), Vec::new()));
                }
                None => {}
            }
        }
        // Plan validates a variable after the variables its rules read,
        // and evaluates nothing that reads one whose validation failed: a
        // rule reading such a variable sees it unknown. Found by rounds
        // until no new variable fails (each round at least one more fails,
        // or it is the last); each variable's rules in a walk of their own,
        // so that a local value failing in one does not silence the others.
        let mut failed_validations: Vec<(String, Vec<Diagnostic>)> = Vec::new();
        // Only variables with rules and a known value have rules to check.
        let validated: Vec<&EffectiveBlock> = variables
            .iter()
            .copied()
            .filter(|variable| {
                matches!(&variable.address, BlockAddress::Variable(name) if known.contains_key(name))
                    && variable
                        .body
                        .blocks
                        .iter()
                        .any(|block| block.kind == "validation")
            })
            .collect();
        for _ in 0..=validated.len() {
            let mut failing = Vec::new();
            // The values every rule of the round sees (those of failed
            // variables withheld), built once a round, not per variable.
            let mut seen_by_all = if validated.is_empty() {
                BTreeMap::new()
            } else {
                known_map(&known)
            };
            for (failed, _) in &failed_validations {
                seen_by_all.remove(failed);
            }
            let seen_by_all = std::rc::Rc::new(seen_by_all);
            for variable in &validated {
                let BlockAddress::Variable(name) = &variable.address else {
                    continue;
                };
                let Some(value) = known.get(name) else {
                    continue;
                };
                let own_failed = failed_validations.iter().any(|(failed, _)| failed == name);
                let seen = if own_failed {
                    // Its own rules see its own value.
                    let mut seen = (*seen_by_all).clone();
                    seen.insert(name.clone(), value.value.clone());
                    std::rc::Rc::new(seen)
                } else {
                    std::rc::Rc::clone(&seen_by_all)
                };
                let withheld = failed_validations
                    .iter()
                    .map(|(failed, _)| failed)
                    .filter(|failed| *failed != name)
                    .cloned();
                let values = WalkValues::with_known_variables(view, seen).withholding(withheld);
                if let Some(failure) = first_failed_rule(view, &values, name, variable, value) {
                    failing.push((name.clone(), failure));
                }
            }
            failing.extend(unconvertible.iter().cloned());
            let stable = failing.len() == failed_validations.len()
                && failing
                    .iter()
                    .zip(&failed_validations)
                    .all(|((a, _), (b, _))| a == b);
            failed_validations = failing;
            if stable {
                break;
            }
        }
        Some(PlanValues {
            known,
            digests,
            failed_validations,
        })
    }

    /// The known values plan evaluates the rest of the module with: not
    /// those of variables whose validation failed.
    fn for_the_walk(&self) -> BTreeMap<String, Value> {
        let mut values = known_map(&self.known);
        for (name, _) in &self.failed_validations {
            values.remove(name);
        }
        values
    }
}

fn known_map(known: &BTreeMap<String, Known>) -> BTreeMap<String, Value> {
    known
        .iter()
        .map(|(name, known)| (name.clone(), known.value.clone()))
        .collect()
}

/// The nodes plan's walk judges with its values ([`check_node`]): local
/// values, outputs, module calls, resources and data sources, and `check`
/// blocks.
pub(crate) fn judges(node: NodeRef<'_>) -> bool {
    matches!(
        node,
        NodeRef::Local(_)
            | NodeRef::Block(
                BlockAddress::Output(_)
                    | BlockAddress::Module(_)
                    | BlockAddress::Resource { .. }
                    | BlockAddress::Check(_)
            )
    )
}

/// Which of `candidates` (the nodes with findings) plan does not evaluate
/// because of what they read: a resource, data source or local value
/// whose node failed (`failed`: its memo holds an error), a variable
/// whose validation failed (`inputs`), or a node plan did not evaluate for
/// such a reason, directly or through others: OpenTofu's walk skips every
/// node downstream of one with errors. Only references count (not
/// `depends_on`); module calls neither carry it (a child's outputs may not
/// read what failed) nor are stopped whole (each argument is a node).
/// Searched upstream from the candidates only, so that a keystroke pays
/// for what its findings read, not for the whole module.
pub(crate) fn stopped_nodes<'n>(
    module: &tofu_module::effective::EffectiveModule,
    failed: &BTreeSet<Node>,
    inputs: &PlanInputs,
    candidates: impl Iterator<Item = &'n Node>,
) -> BTreeSet<Node> {
    if failed.is_empty() && inputs.failed.is_empty() {
        return BTreeSet::new();
    }
    let mut search = StopSearch {
        module,
        failed,
        inputs,
        known: HashMap::default(),
    };
    candidates
        .filter(|node| !matches!(node, Node::Block(BlockAddress::Module(_))))
        .filter(|node| search.stopped(node, 0))
        .cloned()
        .collect()
}

/// The search of [`stopped_nodes`], with what it found of each node.
struct StopSearch<'s> {
    module: &'s tofu_module::effective::EffectiveModule,
    failed: &'s BTreeSet<Node>,
    inputs: &'s PlanInputs,
    /// Whether each node seen is stopped (`false` while it is searched, so
    /// that a cycle ends).
    known: HashMap<Node, bool>,
}

/// How deep the search follows references (deeper: not stopped).
const MAX_STOP_DEPTH: usize = 256;

impl StopSearch<'_> {
    fn stopped(&mut self, node: &Node, depth: usize) -> bool {
        if let Some(&found) = self.known.get(node) {
            return found;
        }
        if depth > MAX_STOP_DEPTH {
            return false;
        }
        self.known.insert(node.clone(), false);
        let references = match node {
            Node::Local(name) => self.module.local(name).map(|local| &local.references),
            Node::Block(address) => self.module.get(address).map(|block| &block.references),
        };
        let mut stopped = false;
        if let Some(references) = references {
            for reference in references.all() {
                match reference.node() {
                    Some(Node::Block(BlockAddress::Variable(name))) => {
                        stopped = self.inputs.failed.contains(&name);
                    }
                    Some(other @ (Node::Local(_) | Node::Block(BlockAddress::Resource { .. })))
                        if other != *node =>
                    {
                        stopped = self.failed.contains(&other) || self.stopped(&other, depth + 1);
                    }
                    _ => {}
                }
                if stopped {
                    break;
                }
            }
        }
        self.known.insert(node.clone(), stopped);
        stopped
    }
}

/// The `plan-values` rule on one node, in a walk of its own: a local value
/// that fails stops what reads it, not every node judged after it; a node
/// that reads a variable whose validation failed, or a local value that
/// fails, is not evaluated by plan.
pub(crate) fn check_node(
    view: &ModuleView<'_>,
    node: MergedNode<'_>,
    inputs: &PlanInputs,
    out: &mut Vec<Diagnostic>,
) {
    if let MergedNode::Block(check) = node {
        if matches!(check.address, BlockAddress::Check(_)) {
            check_block(view, check, inputs, out);
            return;
        }
    }
    let walk = inputs.walk(view);
    let block = match node {
        MergedNode::Block(block) => Some(block),
        MergedNode::Local(_) => None,
    };
    // How plan expands the node, found once: its `enabled`, judged, and a
    // resource's instances.
    let judged_enabled = block
        .and_then(enabled)
        .map(|attribute| judge_enabled(&walk, attribute));
    let resource_instances = block
        .filter(|block| matches!(block.address, BlockAddress::Resource { .. }))
        .map(|block| instances(&walk, block, judged_enabled.as_ref()));
    // A resource with no instance (`count = 0`, an empty `for_each`,
    // `enabled` false) is not evaluated beyond its expansion.
    if !matches!(judged_enabled, Some(Enabled::Failed(_)))
        && matches!(&resource_instances, Some(Some(instances)) if instances.is_empty())
    {
        return;
    }
    let mut after = Vec::new();
    match repeated_call(&walk, node, judged_enabled.as_ref()) {
        // A module call whose instances plan knows: its arguments (and
        // the child's rules on them) in each instance, with its
        // `count.index` or `each`; none when it has no instance.
        Some(instances) => {
            for instance in instances {
                let mut judged = Vec::new();
                walk.in_instance(Some(instance), || {
                    evaluation::check_with(view, node, &walk, &mut judged);
                });
                for diagnostic in judged {
                    push_once(&mut after, diagnostic);
                }
            }
        }
        None => evaluation::check_with(view, node, &walk, &mut after),
    }
    // What validate reports too is validate's: evaluated without the
    // values only when there is something to compare.
    let mut before = Vec::new();
    if !after.is_empty() {
        evaluation::check_with(view, node, &WalkValues::new(view), &mut before);
    }
    // An error in a resource's postcondition fails that rule alone: the
    // resource is still planned and its other postconditions judged.
    let postconditions = match node {
        MergedNode::Block(block) => postcondition_places(block),
        MergedNode::Local(_) => Vec::new(),
    };
    let failed = after.iter().any(|diagnostic| {
        diagnostic.severity == tofu_syntax::Severity::Error
            && !postconditions.iter().any(|place| {
                place.file == diagnostic.subject.file
                    && matches!((place.range, diagnostic.subject.range), (Some(outer), Some(inner))
                        if outer.start <= inner.start && inner.end <= outer.end)
            })
    });
    let mut found = Vec::new();
    for diagnostic in after {
        let seen = before
            .iter()
            .any(|old| old.subject == diagnostic.subject && old.summary == diagnostic.summary);
        if seen {
            continue;
        }
        let code = match diagnostic.code {
            crate::codes::CONDITION_FAILED => crate::codes::PLAN_CONDITION_FAILED,
            crate::codes::MODULE_ARGUMENT_VALIDATION => crate::codes::PLAN_VARIABLE_VALIDATION,
            crate::codes::SENSITIVE_CONDITION_MESSAGE => {
                crate::codes::PLAN_SENSITIVE_CONDITION_MESSAGE
            }
            crate::codes::SENSITIVE_VALIDATION_MESSAGE => {
                crate::codes::PLAN_SENSITIVE_VALIDATION_MESSAGE
            }
            _ => crate::codes::PLAN_INVALID_VALUE,
        };
        let mut diagnostic = diagnostic;
        diagnostic.code = code;
        diagnostic.severity = code.default_severity();
        found.push(diagnostic);
    }
    if let Some(Enabled::Failed(errors)) = judged_enabled {
        // The node does not expand: nothing in it is evaluated.
        if !walk.followed_a_failure() {
            out.extend(errors);
        }
        return;
    }
    if let (Some(block), Some(Some(instances))) = (block, resource_instances) {
        resource_plan(view, &walk, block, instances, failed, &mut found);
    }
    if !walk.followed_a_failure() {
        out.extend(found);
    }
}

/// A `check` block's assertions that are false with plan's values (a
/// warning, "Check block assertion failed"; an error when one fails to
/// evaluate only with them); a check block that reads what failed is not
/// evaluated.
fn check_block(
    view: &ModuleView<'_>,
    check: &EffectiveBlock,
    inputs: &PlanInputs,
    out: &mut Vec<Diagnostic>,
) {
    let walk = inputs.walk(view);
    let mut found = Vec::new();
    for assert in check.body.blocks.iter().filter(|b| b.kind == "assert") {
        false_condition(
            view,
            &walk,
            assert,
            (
                crate::codes::PLAN_CHECK_FAILED,
                "Check block assertion failed",
            ),
            &mut found,
        );
    }
    if !walk.followed_a_failure() {
        out.extend(found);
    }
}

/// A managed resource as plan judges it before the provider, in each of
/// its instances when `count` or `for_each` is known (`count.index`,
/// `each.key` and `each.value` then have the instance's values): every
/// precondition that is false ("Resource precondition failed"); when none
/// is, its arguments, whose errors only the values bring are plan's. An
/// instance's finding that another instance gave is given once.
fn resource_plan(
    view: &ModuleView<'_>,
    walk: &WalkValues<'_, '_>,
    block: &EffectiveBlock,
    instances: Vec<Option<Instance>>,
    failed: bool,
    found: &mut Vec<Diagnostic>,
) {
    let judged = matches!(
        block.address,
        BlockAddress::Resource {
            mode: ResourceMode::Managed | ResourceMode::Data,
            ..
        }
    );
    if !judged {
        return;
    }
    for instance in instances {
        let mut judged = Vec::new();
        walk.in_instance(instance, || {
            instance_plan(view, walk, block, failed, &mut judged);
        });
        for diagnostic in judged {
            push_once(found, diagnostic);
        }
    }
}

/// Adds `diagnostic` to `found` unless an instance gave the same one
/// (place, summary and detail) already.
fn push_once(found: &mut Vec<Diagnostic>, diagnostic: Diagnostic) {
    let given = found.iter().any(|earlier| {
        earlier.subject == diagnostic.subject
            && earlier.summary == diagnostic.summary
            && earlier.detail == diagnostic.detail
    });
    if !given {
        found.push(diagnostic);
    }
}

/// The `kind` blocks (`precondition`, `postcondition`) of a resource's
/// `lifecycle` blocks, in order.
fn lifecycle_rules<'b>(
    block: &'b EffectiveBlock,
    kind: &'static str,
) -> impl Iterator<Item = &'b EffectiveNestedBlock> + 'b {
    block
        .body
        .blocks
        .iter()
        .filter(|nested| nested.kind == "lifecycle")
        .flat_map(|lifecycle| lifecycle.body.blocks.iter())
        .filter(move |nested| nested.kind == kind)
}

/// Where the arguments of a resource's postcondition blocks are written.
fn postcondition_places(block: &EffectiveBlock) -> Vec<Location> {
    lifecycle_rules(block, "postcondition")
        .flat_map(|rule| rule.body.attributes.iter())
        .map(|attribute| Location::new(attribute.origin.file, attribute.origin.range))
        .collect()
}

/// The instances of a module call repeated by a `count` or `for_each`
/// that plan knows; `None` for any other node, or when the expansion is
/// not known.
fn repeated_call(
    walk: &WalkValues<'_, '_>,
    node: MergedNode<'_>,
    judged_enabled: Option<&Enabled>,
) -> Option<Vec<Instance>> {
    let MergedNode::Block(call) = node else {
        return None;
    };
    if !matches!(call.address, BlockAddress::Module(_)) {
        return None;
    }
    let instances = instances(walk, call, judged_enabled)?;
    // A call without `count` and `for_each` is one instance without keys.
    instances.into_iter().collect::<Option<Vec<Instance>>>()
}

/// A resource's or module call's `lifecycle.enabled`.
fn enabled(block: &EffectiveBlock) -> Option<&tofu_module::effective::EffectiveAttribute> {
    block
        .body
        .blocks
        .iter()
        .filter(|nested| nested.kind == "lifecycle")
        .find_map(|lifecycle| lifecycle.body.attribute("enabled"))
}

/// What plan makes of `enabled` with its values.
enum Enabled {
    Known(bool),
    /// "Invalid enabled argument" (or an error only the values bring).
    Failed(Vec<Diagnostic>),
    /// Unknown, or its errors are validate's: nothing to say.
    Unknown,
}

/// `enabled` as plan evaluates it (`EvaluateEnabledExpression`): a
/// sensitive, ephemeral or null value, or one that is no bool, is
/// "Invalid enabled argument" on the expression. An unknown value is an
/// error in plan too, but what tofu-lens does not know may be known to
/// plan: nothing is said then.
fn judge_enabled(
    walk: &WalkValues<'_, '_>,
    attribute: &tofu_module::effective::EffectiveAttribute,
) -> Enabled {
    let Some(expr) = walk.expression(attribute) else {
        return Enabled::Unknown;
    };
    let file = attribute.origin.file;
    let evaluation = walk.evaluate_in(file, &expr);
    if !evaluation.diagnostics.is_empty() || walk.followed_a_failure() {
        return Enabled::Unknown;
    }
    let at = Location::new(file, expr.range);
    let invalid = |detail: String| {
        Diagnostic::new(
            crate::codes::PLAN_INVALID_VALUE,
            "Invalid enabled argument",
            at,
        )
        .with_detail(detail)
    };
    let (value, marks) = evaluation.value.unmark();
    let mut found = Vec::new();
    if marks.sensitive {
        found.push(invalid("Sensitive values, or values derived from sensitive values, cannot be used in \"enabled\" arguments. If used, the sensitive value would be exposed by whether an instance is present.".to_owned()));
    }
    if marks.ephemeral {
        found.push(invalid(
            "The given \"enabled\" argument value is unsuitable: the given value is ephemeral."
                .to_owned(),
        ));
    }
    if value.is_null() {
        found.push(invalid(
            "The given \"enabled\" argument value is unsuitable: the given value is null."
                .to_owned(),
        ));
    } else if !value.is_known() {
        return Enabled::Unknown;
    }
    if !found.is_empty() {
        return Enabled::Failed(found);
    }
    match convert(&value, &Type::Bool) {
        Ok(converted) => match converted.as_bool() {
            Some(known) => Enabled::Known(known),
            None => Enabled::Unknown,
        },
        Err(error) => Enabled::Failed(vec![invalid(format!(
            "The given \"enabled\" argument value is unsuitable: {error}."
        ))]),
    }
}

/// The most instances of one resource judged: a resource repeated more
/// often is not judged (nothing is said rather than a wait).
const MAX_INSTANCES: i64 = 256;

/// The instances plan expands `block` to: without `count` and `for_each`,
/// one (`None`) or none as its `enabled` (`judged_enabled`) decides;
/// `None` when the expansion is not known with plan's
/// values (unknown, sensitive, failing: the expansion's own errors are
/// the evaluation rule's) or larger than [`MAX_INSTANCES`].
fn instances(
    walk: &WalkValues<'_, '_>,
    block: &EffectiveBlock,
    judged_enabled: Option<&Enabled>,
) -> Option<Vec<Option<Instance>>> {
    let repetition = block
        .body
        .attribute("count")
        .map(|count| (count, true))
        .or_else(|| block.body.attribute("for_each").map(|each| (each, false)));
    let Some((attribute, is_count)) = repetition else {
        // `lifecycle.enabled` (judged by the caller): one instance or
        // none, when known.
        return match judged_enabled {
            Some(Enabled::Known(true)) | None => Some(vec![None]),
            Some(Enabled::Known(false)) => Some(Vec::new()),
            Some(Enabled::Failed(_) | Enabled::Unknown) => None,
        };
    };
    let expr = walk.expression(attribute)?;
    let evaluation = walk.evaluate_in(attribute.origin.file, &expr);
    if !evaluation.diagnostics.is_empty() || walk.followed_a_failure() {
        return None;
    }
    let (value, marks) = evaluation.value.unmark();
    if marks.sensitive || marks.ephemeral || !value.is_wholly_known() || value.is_null() {
        return None;
    }
    if is_count {
        let count = convert(&value, &Type::Number)
            .ok()?
            .as_number()?
            .to_i64_exact()?;
        if !(0..=MAX_INSTANCES).contains(&count) {
            return None;
        }
        return Some(
            (0..count)
                .map(|index| Some(Instance::Count(index)))
                .collect(),
        );
    }
    let instances: Vec<Option<Instance>> = match value.ty() {
        Type::Map(_) | Type::Object(_) => value
            .entries()?
            .iter()
            .map(|(key, value)| {
                Some(Instance::Each {
                    key: key.clone(),
                    value: value.clone(),
                })
            })
            .collect(),
        Type::Set(element) if *element == Type::String => value
            .items()?
            .iter()
            .map(|item| {
                let key = item.as_str()?.to_owned();
                Some(Some(Instance::Each {
                    key,
                    value: item.clone(),
                }))
            })
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    };
    if i64::try_from(instances.len()).map_or(true, |n| n > MAX_INSTANCES) {
        return None;
    }
    Some(instances)
}

/// One instance of a managed resource or data source (the walk in it):
/// its false preconditions, else (and when the node did not fail already)
/// its arguments' errors only the values bring; when none, a managed
/// resource's false postconditions, `self` the object plan plans
/// ([`WalkValues::planned_object`]: what is computed stays unknown). A
/// data source's postconditions need what it reads: not judged.
fn instance_plan(
    view: &ModuleView<'_>,
    walk: &WalkValues<'_, '_>,
    block: &EffectiveBlock,
    failed: bool,
    found: &mut Vec<Diagnostic>,
) {
    let preconditions = lifecycle_rules(block, "precondition");
    // Each precondition that is false; one that fails to evaluate is the
    // evaluation rule's (already found: given once), unless only the
    // instance's values make it fail.
    for rule in preconditions {
        false_condition(
            view,
            walk,
            rule,
            (
                crate::codes::PLAN_CONDITION_FAILED,
                "Resource precondition failed",
            ),
            found,
        );
    }
    let precondition_failed = found
        .iter()
        .any(|diagnostic| diagnostic.severity == tofu_syntax::Severity::Error);
    if failed || precondition_failed {
        return;
    }
    for attribute in &block.body.attributes {
        if RESOURCE_META_ARGUMENTS.contains(&attribute.name.as_str()) {
            continue;
        }
        let Some(expr) = walk.expression(attribute) else {
            continue;
        };
        let file = attribute.origin.file;
        let evaluation = walk.evaluate_in(file, &expr);
        if !evaluation.diagnostics.is_empty() {
            found.extend(only_with_values(view, file, &expr, evaluation.diagnostics));
        }
    }
    let managed = matches!(
        block.address,
        BlockAddress::Resource {
            mode: ResourceMode::Managed,
            ..
        }
    );
    if !managed
        || found
            .iter()
            .any(|diagnostic| diagnostic.severity == tofu_syntax::Severity::Error)
    {
        return;
    }
    let planned = walk.planned_object(block);
    let postconditions = lifecycle_rules(block, "postcondition");
    walk.with_self(planned, || {
        for rule in postconditions {
            false_condition(
                view,
                walk,
                rule,
                (
                    crate::codes::PLAN_CONDITION_FAILED,
                    "Resource postcondition failed",
                ),
                found,
            );
        }
    });
}

/// A resource's arguments that are not its provider's.
const RESOURCE_META_ARGUMENTS: [&str; 5] =
    ["count", "for_each", "provider", "depends_on", "enabled"];

/// The first of `found` (errors of `expr` evaluated with plan's values)
/// that validate's walk, without the values, does not give, as plan's.
fn only_with_values(
    view: &ModuleView<'_>,
    file: FileId,
    expr: &tofu_syntax::Expr,
    found: Vec<tofu_eval::EvalDiagnostic>,
) -> Option<Diagnostic> {
    let validate = WalkValues::new(view).evaluate_in(file, expr).diagnostics;
    let without: Vec<Diagnostic> = validate
        .into_iter()
        .map(|found| expression_evaluation::evaluation_diagnostic(file, found))
        .collect();
    found
        .into_iter()
        .map(|found| expression_evaluation::evaluation_diagnostic(file, found))
        .find(|diagnostic| {
            !without
                .iter()
                .any(|old| old.subject == diagnostic.subject && old.summary == diagnostic.summary)
        })
        .map(|mut diagnostic| {
            diagnostic.code = crate::codes::PLAN_INVALID_VALUE;
            diagnostic.severity = crate::codes::PLAN_INVALID_VALUE.default_severity();
            diagnostic
        })
}

/// Whether a condition's result is known and false (unknown, null or no
/// bool: nothing to report).
fn is_false(result: Value) -> bool {
    let (result, _) = result.unmark();
    result.is_known()
        && !result.is_null()
        && convert(&result, &Type::Bool).is_ok_and(|result| result.as_bool() == Some(false))
}

/// A condition block (`precondition`, `assert`) judged with plan's
/// values, into `out`: its message's warning when the message shows a
/// sensitive value (whatever the condition), then, when the condition is
/// known and false, `failure` (code and summary) on the condition with the
/// message as detail; an error only the values bring instead.
fn false_condition(
    view: &ModuleView<'_>,
    values: &WalkValues<'_, '_>,
    rule: &EffectiveNestedBlock,
    (code, summary): (tofu_syntax::Code, &str),
    out: &mut Vec<Diagnostic>,
) {
    let message = messages::condition_message(values, rule);
    let Some(condition) = rule.body.attribute("condition") else {
        return;
    };
    let Some(expr) = values.expression(condition) else {
        return;
    };
    let evaluation = values.evaluate_in(condition.origin.file, &expr);
    if values.followed_a_failure() {
        return;
    }
    let detail = match message {
        // Its errors are the evaluation rule's, and the rule is no more
        // judged (`evalCheckRule` stops at them).
        ConditionMessage::Failed(..) => return,
        ConditionMessage::Sensitive(at) => {
            out.push(messages::sensitive_condition_message(
                crate::codes::PLAN_SENSITIVE_CONDITION_MESSAGE,
                at,
            ));
            None
        }
        ConditionMessage::Shown(text) => Some(text).filter(|text| !text.is_empty()),
        ConditionMessage::Unknown => None,
    };
    if !evaluation.diagnostics.is_empty() {
        // An error (even in a check block's assertion, which is no
        // warning then) that only the values bring.
        out.extend(only_with_values(
            view,
            condition.origin.file,
            &expr,
            evaluation.diagnostics,
        ));
        return;
    }
    if !is_false(evaluation.value) {
        return;
    }
    let detail = detail.unwrap_or_else(|| messages::INVALID_MESSAGE_FAILURE.to_owned());
    out.push(
        Diagnostic::new(
            code,
            summary,
            Location::new(condition.origin.file, expr.range),
        )
        .with_detail(detail),
    );
}

/// Whether the value `given` assigns does not convert to `variable`'s
/// type (or, given raw, does not parse): the variable's node fails.
fn does_not_convert(
    view: &ModuleView<'_>,
    variable: &EffectiveBlock,
    given: Assignment<'_>,
) -> bool {
    match assigned_value(view, variable, given) {
        Some(Ok(value)) => variable_type(view, variable).is_some_and(|constraint| {
            match convert_variable_value(&value, &constraint) {
                Err(_) => true,
                // Null for a variable that may not be null and has no
                // default: "Required variable not set".
                Ok(converted) => converted.is_null() && null_not_allowed(view, variable),
            }
        }),
        Some(Err(_)) => true,
        None => false,
    }
}

/// The value plan gives `variable`: the constant `given` (an attribute of
/// a values file), else its constant default, converted to its type and
/// marked as declared. `None` when it has neither, or the value is no
/// constant or does not convert.
fn known_value(
    view: &ModuleView<'_>,
    variable: &EffectiveBlock,
    given: Option<Assignment<'_>>,
) -> Option<Known> {
    // Null for a variable that may not be null: its default instead, as
    // plan takes it (without one, the variable fails: `does_not_convert`).
    let given = given.filter(|&given| {
        let null =
            matches!(assigned_value(view, variable, given), Some(Ok(value)) if value.is_null());
        !null || is_nullable(view, variable)
    });
    let (value, from, from_default) = match given {
        Some(given) => {
            let value = assigned_value(view, variable, given)?.ok()?;
            let from = match given {
                Assignment::File {
                    file, attribute, ..
                } => Some(Location::new(file, attribute.expr.range)),
                Assignment::Raw { .. } => None,
            };
            (value, from, false)
        }
        None => {
            let default = variable.body.attribute("default")?;
            let file = view.file(default.origin.file)?;
            let written = file.attribute_at(default.origin.range)?;
            let value = constant_value(&written.expr, &file.text).ok()?;
            (
                value,
                Some(Location::new(default.origin.file, written.expr.range)),
                true,
            )
        }
    };
    let value = as_declared(view, variable, &value)?;
    Some(Known {
        value,
        from,
        from_default,
    })
}

/// `value` as `variable` holds it: converted to its type and marked
/// sensitive as declared; `None` when it does not convert, or for an
/// ephemeral variable (its value is not kept past validation, and its
/// messages may not show it: left to a later step).
pub(crate) fn as_declared(
    view: &ModuleView<'_>,
    variable: &EffectiveBlock,
    value: &Value,
) -> Option<Value> {
    let constraint = variable_type(view, variable)?;
    let value = convert_variable_value(value, &constraint).ok()?;
    let declared = |argument: &str| {
        variable.body.attribute(argument).is_some_and(|attribute| {
            view.file(attribute.origin.file)
                .and_then(|file| {
                    let written = file.attribute_at(attribute.origin.range)?;
                    let syntax = file.source.as_ref()?.syntax;
                    Some(declared_true(&written.expr, syntax))
                })
                .unwrap_or(false)
        })
    };
    if declared("ephemeral") {
        return None;
    }
    Some(if declared("sensitive") {
        value.mark_sensitive()
    } else {
        value
    })
}

/// The value each input variable starts a `tofu test` run with: from the
/// directory's automatic values files, else its constant default
/// (as [`as_declared`]); `None` for one without either.
pub(crate) fn automatic_values(view: &ModuleView<'_>) -> BTreeMap<String, Option<Value>> {
    let files = module_files(view);
    let nothing_chosen = tofu_module::given_values::GivenValues::default();
    let given = assignments(&files, &nothing_chosen);
    view.effective_blocks(|address| matches!(address, BlockAddress::Variable(_)))
        .into_iter()
        .filter_map(|variable| {
            let BlockAddress::Variable(name) = &variable.address else {
                return None;
            };
            let known = known_value(view, variable, given.get(name.as_str()).copied());
            Some((name.clone(), known.map(|known| known.value)))
        })
        .collect()
}

/// Whether plan's walk gets past `variable`: `None` when its rules hold
/// (or are unknown); else the diagnostics of the first rule its known value
/// fails, which this rule reports (none when a rule fails in a way
/// reported elsewhere or the rules read what failed).
fn first_failed_rule(
    view: &ModuleView<'_>,
    values: &WalkValues<'_, '_>,
    name: &str,
    variable: &EffectiveBlock,
    known: &Known,
) -> Option<Vec<Diagnostic>> {
    let rules: Vec<&EffectiveNestedBlock> = variable
        .body
        .blocks
        .iter()
        .filter(|block| block.kind == "validation")
        .collect();
    let failure = rules
        .iter()
        .find_map(|rule| rule_failure(view, values, name, variable, known, rule));
    // The variable's rules are one node of plan's graph: when any of them
    // reads what failed (another variable's validation, a local value),
    // none is evaluated.
    for rule in &rules {
        for argument in ["condition", "error_message"] {
            if let Some(attribute) = rule.body.attribute(argument) {
                if let Some(expr) = values.expression(attribute) {
                    values.evaluate_in(attribute.origin.file, &expr);
                }
            }
        }
    }
    if values.followed_a_failure() {
        // Not evaluated, so not past either: what reads it is not
        // evaluated.
        return Some(Vec::new());
    }
    failure
}

/// What one validation rule says with plan's values: `None` when it holds
/// (or is unknown), else its diagnostics (none when it fails in a way not
/// reported here: an error validate gives too, a message that does not
/// evaluate).
fn rule_failure(
    view: &ModuleView<'_>,
    values: &WalkValues<'_, '_>,
    name: &str,
    variable: &EffectiveBlock,
    known: &Known,
    rule: &EffectiveNestedBlock,
) -> Option<Vec<Diagnostic>> {
    let condition = rule.body.attribute("condition")?;
    let expr = values.expression(condition)?;
    let evaluation = values.evaluate_in(condition.origin.file, &expr);
    if !evaluation.diagnostics.is_empty() {
        // An error only the value brings is plan's, and the variable then
        // counts as failed; one validate gives too is validate's.
        return Some(
            only_with_values(view, condition.origin.file, &expr, evaluation.diagnostics)
                .into_iter()
                .collect(),
        );
    }
    if !is_false(evaluation.value) {
        return None;
    }
    Some(failed_rule_diagnostics(
        view, values, name, variable, known, rule,
    ))
}

/// "Invalid value for variable" for `rule`, which failed, after "Error
/// message refers to sensitive values" when its message shows a sensitive
/// value (the message is then not shown); none when its message does not
/// evaluate or is unknown (OpenTofu's own errors of the message).
fn failed_rule_diagnostics(
    view: &ModuleView<'_>,
    values: &WalkValues<'_, '_>,
    name: &str,
    variable: &EffectiveBlock,
    known: &Known,
    rule: &EffectiveNestedBlock,
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let message = match messages::condition_message(values, rule) {
        ConditionMessage::Shown(message) => message,
        ConditionMessage::Sensitive(at) => {
            found.push(messages::sensitive_validation_message(
                crate::codes::PLAN_SENSITIVE_VALIDATION_MESSAGE,
                at,
            ));
            messages::SENSITIVE_VALIDATION_FAILURE.to_owned()
        }
        ConditionMessage::Failed(..) | ConditionMessage::Unknown => return found,
    };
    let Some(header) = variable
        .base
        .and_then(|base| Some(Location::new(base.file, view.block(base)?.header)))
    else {
        return Vec::new();
    };
    let rule_at = Location::new(rule.origin.file, rule.origin.range);
    let detail = format!(
        "{message}\n\nThis was checked by the validation rule at {}.",
        view.describe(rule_at)
    );
    let source = if known.from_default {
        format!("var.{name} has its default value here")
    } else {
        format!("var.{name} is given its value here")
    };
    let diagnostic = Diagnostic::new(
        crate::codes::PLAN_VARIABLE_VALIDATION,
        "Invalid value for variable",
        header,
    )
    .with_detail(detail);
    found.push(match known.from {
        Some(from) => diagnostic.with_related(from, source),
        None => diagnostic,
    });
    found
}

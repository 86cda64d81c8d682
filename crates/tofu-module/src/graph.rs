//! The dependency graph of the merged module, as `tofu validate` builds it
//! from references (`spec/diagnostics.md` §7): its cycles
//! (`reference-cycle`), which nodes' findings the walk reports, and which
//! declarations other nodes use.
//!
//! Vertices are the module's identities and local values, plus one per
//! module output read (`module.c.output.o`, which depends on the call and
//! on the inputs the child says it depends on) and one per module argument
//! (`module.c.var.v`, which depends on the argument's references): a cycle
//! through a called module is found here, named as OpenTofu names it, the
//! child's part taken from its interface. Edges are the references
//! OpenTofu draws one for (`node_refs`), to declared objects only; an
//! object's references to itself draw none.
//! OpenTofu names every vertex of a strongly connected component in one
//! `Cycle: …` error without a range, in no fixed order; tofu-lens keeps the
//! summary, lists a cycle through the component first, puts the error on
//! the first reference of that cycle and relates the others.
//!
//! When the graph has a cycle, `validate` stops before its walk: nothing
//! the walk reports is reported. Otherwise a node whose walk failed makes
//! every node that depends on it, directly or not, silent.
//!
//! Which variables, local values and data sources other nodes' references
//! use ([`Uses`]) is kept here too, memoized by the uses; the
//! `unused-declaration` rule (`rules::unused`) reads it through its view.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;
use tofu_syntax::{Diagnostic, Location};

use crate::address::BlockAddress;
use crate::expr::parse_ref::Referenceable;
use crate::interface::ModuleInterface;
use crate::merge::MergedModule;
use crate::refs::{Node, NodeRef, NodeReferences, Ref};

/// What the graph decides.
#[derive(Debug, Default)]
pub struct GraphOutcome {
    pub cycles: Vec<Diagnostic>,
    pub walk: Vec<Diagnostic>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Vertex {
    Node(Node),
    ModuleOutput {
        call: String,
        output: String,
    },
    /// A called module's input variable, which depends on the argument's
    /// references (OpenTofu's `module.c.var.v (expand, input)`).
    ModuleInput {
        call: String,
        variable: String,
    },
}

/// One edge, with the reference that draws it (none for the edge from a
/// module output to its call).
#[derive(Clone, Copy, Debug)]
struct Edge {
    to: usize,
    at: Option<Location>,
}

/// The graph of a merged module, kept between analyses. A vertex keeps its
/// number for as long as the graph lives (absent while its object is not
/// declared), so an edit resolves again only the references of the nodes
/// it checked again: those it touched, and after a change of shape those
/// whose rules asked about a name that changed (`update`). Deciding on the
/// graph is then integer work over it, memoized by what it derives from.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    vertices: Vec<Vertex>,
    blocks: HashMap<BlockAddress, usize>,
    locals: HashMap<String, usize>,
    outputs: HashMap<(String, String), usize>,
    inputs: HashMap<(String, String), usize>,
    /// Whether each vertex's object is declared now.
    present: Vec<bool>,
    /// The vertex of each effective block, then of each local value, in
    /// the module's order.
    positions: Vec<usize>,
    /// The dependency edges out of each vertex.
    edges: Vec<Vec<Edge>>,
    /// The variables, local values and data sources each vertex's
    /// references name, itself left out (for `unused-declaration`).
    uses: Vec<Vec<usize>>,
    /// What judging found last time, and the edges, uses and failures it
    /// was found for: after a keystroke that changed none of them, it holds.
    memo: Memo,
}

/// What `outcome` derives from the graph's structure alone.
#[derive(Clone, Debug, Default)]
struct Memo {
    /// Bumped whenever an edge's target changes.
    edges_version: u64,
    /// Bumped whenever a use changes.
    uses_version: u64,
    /// The components with a cycle, for `edges_version`.
    cycles: Option<(u64, Vec<Vec<usize>>)>,
    /// Whether each vertex is used, for `uses_version`.
    used: Option<(u64, Vec<bool>)>,
    /// Which vertices depend on a failed one, for `edges_version`, the
    /// failed vertices, the dangling outputs and the resources of failed
    /// provider configurations.
    silenced: Option<(u64, [Vec<usize>; 3], Vec<bool>)>,
}

impl Graph {
    fn push(&mut self, vertex: Vertex) -> usize {
        let id = self.vertices.len();
        self.vertices.push(vertex);
        self.present.push(false);
        self.edges.push(Vec::new());
        self.uses.push(Vec::new());
        id
    }

    /// The vertex of a node declared now.
    fn id_of(&self, node: &Node) -> Option<usize> {
        self.id_of_ref(match node {
            Node::Block(address) => NodeRef::Block(address),
            Node::Local(name) => NodeRef::Local(name),
        })
    }

    fn id_of_ref(&self, node: NodeRef<'_>) -> Option<usize> {
        let id = match node {
            NodeRef::Block(address) => self.blocks.get(address),
            NodeRef::Local(name) => self.locals.get(name),
        }?;
        self.present
            .get(*id)
            .copied()
            .unwrap_or(false)
            .then_some(*id)
    }

    /// The graph of `module`, from nothing.
    pub fn build(module: &MergedModule) -> Graph {
        let mut graph = Graph::default();
        for id in graph.place(module) {
            graph.resolve(module, id);
        }
        graph
    }

    /// The same graph after an edit: the vertices of what `module` declares
    /// now, and the references of `rechecked` (the nodes checked again) and of
    /// new vertices resolved again. The others' edges, and the places they
    /// were drawn at, are in files the edit did not change, and name nothing
    /// whose declaration changed.
    pub fn update(
        &mut self,
        module: &MergedModule,
        reshaped: bool,
        rechecked: impl Iterator<Item = Node>,
    ) {
        let mut fresh = Vec::new();
        if reshaped {
            fresh = self.place(module);
            self.memo.edges_version += 1;
            self.memo.uses_version += 1;
        }
        for id in fresh {
            self.resolve(module, id);
        }
        for node in rechecked {
            if let Some(id) = self.id_of(&node) {
                self.resolve(module, id);
            }
        }
    }

    /// Marks the vertices of what `module` declares present (others absent,
    /// with no edges and no uses), in the module's order; returns the
    /// vertices it had to add.
    fn place(&mut self, module: &MergedModule) -> Vec<usize> {
        let mut fresh = Vec::new();
        self.present.iter_mut().for_each(|present| *present = false);
        self.positions.clear();
        self.positions
            .reserve(module.effective.blocks.len() + module.effective.locals.len());
        for block in &module.effective.blocks {
            let id = match self.blocks.get(&block.address) {
                Some(&id) => id,
                None => {
                    let id = self.push(Vertex::Node(Node::Block(block.address.clone())));
                    self.blocks.insert(block.address.clone(), id);
                    fresh.push(id);
                    id
                }
            };
            set(&mut self.present, id, true);
            self.positions.push(id);
        }
        for local in &module.effective.locals {
            let id = match self.locals.get(&local.name) {
                Some(&id) => id,
                None => {
                    let id = self.push(Vertex::Node(Node::Local(local.name.clone())));
                    self.locals.insert(local.name.clone(), id);
                    fresh.push(id);
                    id
                }
            };
            set(&mut self.present, id, true);
            self.positions.push(id);
        }
        for ((call, _), &id) in self.outputs.iter().chain(&self.inputs) {
            let call_present = self
                .blocks
                .get(&BlockAddress::Module(call.clone()))
                .is_some_and(|&call_id| self.present.get(call_id).copied().unwrap_or(false));
            if let Some(slot) = self.present.get_mut(id) {
                *slot = call_present;
            }
        }
        for id in 0..self.vertices.len() {
            if !self.present.get(id).copied().unwrap_or(false) {
                set(&mut self.edges, id, Vec::new());
                set(&mut self.uses, id, Vec::new());
            }
        }
        fresh
    }

    /// The vertex of a module output read by a reference (added on first
    /// use, with its edge to the call).
    fn output(&mut self, call: &str, output: &str) -> Option<usize> {
        let call_id = self.id_of(&Node::Block(BlockAddress::Module(call.to_owned())))?;
        let key = (call.to_owned(), output.to_owned());
        let id = match self.outputs.get(&key) {
            Some(&id) => id,
            None => {
                let id = self.push(Vertex::ModuleOutput {
                    call: key.0.clone(),
                    output: key.1.clone(),
                });
                self.outputs.insert(key, id);
                id
            }
        };
        set(&mut self.present, id, true);
        // Its edges to the call's inputs are the child's (`refresh_outputs`).
        if self.edges.get(id).is_none_or(Vec::is_empty) {
            set(
                &mut self.edges,
                id,
                vec![Edge {
                    to: call_id,
                    at: None,
                }],
            );
        }
        Some(id)
    }

    /// The vertex of a called module's input variable (added on first use).
    fn input(&mut self, call: &str, variable: &str) -> usize {
        let key = (call.to_owned(), variable.to_owned());
        match self.inputs.get(&key) {
            Some(&id) => id,
            None => {
                let id = self.push(Vertex::ModuleInput {
                    call: key.0.clone(),
                    variable: key.1.clone(),
                });
                self.inputs.insert(key, id);
                set(&mut self.present, id, true);
                id
            }
        }
    }

    /// The edges of a module call's inputs, from its arguments' references;
    /// an input no longer set has none.
    fn resolve_inputs(&mut self, call: &str, references: &NodeReferences) {
        let mut set_now: Vec<usize> = Vec::new();
        for (variable, unit) in &references.arguments {
            let id = self.input(call, variable);
            let mut edges = Vec::new();
            for reference in references
                .units
                .get(*unit)
                .into_iter()
                .flat_map(|unit| &unit.refs)
            {
                if let Some(to) = self.target(reference) {
                    edges.push(Edge {
                        to,
                        at: Some(reference_location(reference)),
                    });
                }
            }
            self.set_edges(id, edges);
            set_now.push(id);
        }
        let unset: Vec<usize> = self
            .inputs
            .iter()
            .filter(|((of, _), id)| of == call && !set_now.contains(id))
            .map(|(_, &id)| id)
            .collect();
        for id in unset {
            self.set_edges(id, Vec::new());
        }
    }

    /// Replaces a vertex's edges, counting a change of their targets.
    fn set_edges(&mut self, id: usize, edges: Vec<Edge>) {
        if let Some(slot) = self.edges.get_mut(id) {
            let same_targets = slot.len() == edges.len()
                && slot.iter().zip(&edges).all(|(old, new)| old.to == new.to);
            if !same_targets {
                self.memo.edges_version += 1;
            }
            *slot = edges;
        }
    }

    /// The edges of each module output read: to its call, and to the call's
    /// inputs for the variables the child says the output depends on.
    fn refresh_outputs(&mut self, children: &HashMap<String, Arc<ModuleInterface>>) {
        let outputs: Vec<((String, String), usize)> = self
            .outputs
            .iter()
            .map(|(key, &id)| (key.clone(), id))
            .collect();
        for ((call, output), id) in outputs {
            if !self.present.get(id).copied().unwrap_or(false) {
                continue;
            }
            let Some(call_id) = self.id_of(&Node::Block(BlockAddress::Module(call.clone()))) else {
                continue;
            };
            let mut edges = vec![Edge {
                to: call_id,
                at: None,
            }];
            let depends_on = children
                .get(&call)
                .and_then(|child| child.output(&output))
                .map(|output| output.depends_on.as_slice())
                .unwrap_or_default();
            for dependency in depends_on {
                let key = (call.clone(), dependency.variable.clone());
                if let Some(&input) = self.inputs.get(&key) {
                    edges.push(Edge {
                        to: input,
                        at: None,
                    });
                }
            }
            self.set_edges(id, edges);
        }
    }

    /// The edges and uses of one node's vertex, from its references.
    fn resolve(&mut self, module: &MergedModule, from: usize) {
        let (references, is_provider) = match self.vertices.get(from) {
            Some(Vertex::Node(Node::Block(address))) => (
                module.effective.get(address).map(|block| &block.references),
                matches!(address, BlockAddress::Provider { .. }),
            ),
            Some(Vertex::Node(Node::Local(name))) => (
                module.effective.local(name).map(|local| &local.references),
                false,
            ),
            _ => (None, false),
        };
        let Some(references) = references else {
            return;
        };
        let mut edges = Vec::new();
        if !is_provider {
            for reference in references.edges() {
                let Some(to) = self.target(reference) else {
                    continue;
                };
                if to != from {
                    edges.push(Edge {
                        to,
                        at: Some(reference_location(reference)),
                    });
                }
            }
        }
        let mut uses: Vec<usize> = references
            .all()
            .filter_map(|reference| used_vertex(self, reference))
            .filter(|&used| used != from)
            .collect();
        uses.sort_unstable();
        uses.dedup();
        self.set_edges(from, edges);
        if let Some(Vertex::Node(Node::Block(BlockAddress::Module(call)))) =
            self.vertices.get(from).cloned()
        {
            self.resolve_inputs(&call, references);
        }
        if let Some(slot) = self.uses.get_mut(from) {
            if *slot != uses {
                self.memo.uses_version += 1;
            }
            *slot = uses;
        }
    }

    /// The vertex a reference leads to, when it names a declared object.
    fn target(&mut self, reference: &Ref) -> Option<usize> {
        let parsed = reference.parsed.as_ref().ok()?;
        if let Referenceable::ModuleCall {
            name,
            output: Some(output),
            ..
        } = &parsed.subject
        {
            return self.output(name, output);
        }
        self.id_of(&reference.node()?)
    }

    /// The components with a cycle (memoized by the edges).
    fn cycles(&mut self) -> &[Vec<usize>] {
        let version = self.memo.edges_version;
        if !matches!(&self.memo.cycles, Some((seen, _)) if *seen == version) {
            let components: Vec<Vec<usize>> =
                strongly_connected(self.vertices.len(), |vertex, i| {
                    let to = self.edges.get(vertex)?.get(i)?.to;
                    Some(self.present.get(to).copied().unwrap_or(false).then_some(to))
                })
                .into_iter()
                .filter(|component| component.len() > 1)
                .collect();
            self.memo.cycles = Some((version, components));
        }
        self.memo
            .cycles
            .as_ref()
            .map_or(&[][..], |(_, components)| components.as_slice())
    }

    /// Whether each vertex is named by another's references (memoized by
    /// the uses).
    fn used(&mut self) -> &[bool] {
        let version = self.memo.uses_version;
        if !matches!(&self.memo.used, Some((seen, _)) if *seen == version) {
            let mut used = vec![false; self.vertices.len()];
            for &vertex in self.uses.iter().flatten() {
                if let Some(slot) = used.get_mut(vertex) {
                    *slot = true;
                }
            }
            // An absent vertex is used by nothing that is declared now, and
            // a use of one is no use (its object is not declared).
            for (slot, present) in used.iter_mut().zip(&self.present) {
                *slot &= *present;
            }
            self.memo.used = Some((version, used));
        }
        self.memo
            .used
            .as_ref()
            .map_or(&[][..], |(_, used)| used.as_slice())
    }

    /// Which vertices depend, directly or not, on one of `failed` other
    /// than through a `dangling` output (both sorted; memoized by the edges
    /// and both lists).
    fn silenced(
        &mut self,
        failed: Vec<usize>,
        dangling: Vec<usize>,
        provider_users: Vec<usize>,
    ) -> &[bool] {
        let version = self.memo.edges_version;
        let key = [failed, dangling, provider_users];
        let holds = matches!(&self.memo.silenced, Some((seen, seen_key, _)) if *seen == version && *seen_key == key);
        if !holds {
            let [failed, dangling, provider_users] = &key;
            let silenced = dependents(self, failed, dangling, provider_users);
            self.memo.silenced = Some((version, key, silenced));
        }
        self.memo
            .silenced
            .as_ref()
            .map_or(&[][..], |(_, _, silenced)| silenced.as_slice())
    }
}

/// What the graph decides, given each node's walk findings: its cycles, and
/// which nodes' findings the walk reports. `provider_users` says which
/// resources use each provider configuration: OpenTofu's walk validates a
/// resource after its provider, so a configuration that failed silences
/// them and what depends on them.
pub fn outcome<'a>(
    graph: &mut Graph,
    walk: impl Iterator<Item = (NodeRef<'a>, &'a [Diagnostic])>,
    children: &HashMap<String, Arc<ModuleInterface>>,
    provider_users: &dyn Fn(&BlockAddress) -> Vec<BlockAddress>,
    argument_at: &dyn Fn(&str, &Location) -> Option<String>,
) -> GraphOutcome {
    let mut outcome = GraphOutcome::default();
    graph.refresh_outputs(children);
    let components = graph.cycles().to_vec();
    let cycles: Vec<Diagnostic> = components
        .iter()
        .filter_map(|component| cycle(graph, component, children))
        .collect();
    if !cycles.is_empty() {
        outcome.cycles = cycles;
        return outcome;
    }
    let walk: Vec<(usize, &[Diagnostic])> = walk
        .filter_map(|(node, found)| Some((graph.id_of_ref(node)?, found)))
        .collect();
    let mut failed: Vec<usize> = walk
        .iter()
        .filter(|(_, found)| found.iter().any(Diagnostic::is_error))
        .map(|(index, _)| *index)
        .collect();
    failed.sort_unstable();
    let silenced: Vec<bool> = if failed.is_empty() {
        Vec::new()
    } else {
        // OpenTofu's graph has no vertex for an output the child lacks, so
        // nothing waits on the call through it: the reference is judged.
        let mut dangling: Vec<usize> = graph
            .outputs
            .iter()
            .filter(|((call, output), _)| {
                children
                    .get(call)
                    .is_some_and(|child| !child.incomplete && child.output(output).is_none())
            })
            .map(|(_, &id)| id)
            .collect();
        dangling.sort_unstable();
        let mut users: Vec<usize> = Vec::new();
        for &vertex in &failed {
            if let Some(Vertex::Node(Node::Block(provider @ BlockAddress::Provider { .. }))) =
                graph.vertices.get(vertex)
            {
                let provider = provider.clone();
                users.extend(
                    provider_users(&provider)
                        .iter()
                        .filter_map(|user| graph.id_of_ref(NodeRef::Block(user))),
                );
            }
        }
        users.sort_unstable();
        users.dedup();
        graph.silenced(failed, dangling, users).to_vec()
    };
    let is_silenced = |index: usize| silenced.get(index).copied().unwrap_or(false);
    for (index, found) in walk {
        if is_silenced(index) {
            continue;
        }
        let call = match graph.vertices.get(index) {
            Some(Vertex::Node(Node::Block(BlockAddress::Module(call)))) => Some(call),
            _ => None,
        };
        for diagnostic in found {
            // What a module argument reports is its input's, silenced when
            // the argument's own dependency failed (`nodeModuleVariable`).
            let input = call.filter(|_| !silenced.is_empty()).and_then(|call| {
                let argument = argument_at(call, &diagnostic.subject)?;
                graph.inputs.get(&(call.clone(), argument)).copied()
            });
            if !input.is_some_and(is_silenced) {
                outcome.walk.push(diagnostic.clone());
            }
        }
    }
    outcome
}

fn reference_location(reference: &Ref) -> Location {
    let range = match &reference.parsed {
        Ok(parsed) => parsed.range,
        Err(error) => error.range,
    };
    Location::new(reference.file, range)
}

/// Every vertex that depends, directly or not, on one of `failed`, except
/// through one of `dangling` (sorted); and `provider_users` with what
/// depends on them.
fn dependents(
    graph: &Graph,
    failed: &[usize],
    dangling: &[usize],
    provider_users: &[usize],
) -> Vec<bool> {
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); graph.vertices.len()];
    for (from, edges) in graph.edges.iter().enumerate() {
        if dangling.binary_search(&from).is_ok() {
            continue;
        }
        for edge in edges {
            if !graph.present.get(edge.to).copied().unwrap_or(false) {
                continue;
            }
            if let Some(list) = incoming.get_mut(edge.to) {
                list.push(from);
            }
        }
    }
    let mut silenced = vec![false; graph.vertices.len()];
    let mut queue: Vec<usize> = Vec::new();
    for &vertex in failed {
        queue.extend(incoming.get(vertex).into_iter().flatten().copied());
    }
    queue.extend(provider_users.iter().copied());
    while let Some(vertex) = queue.pop() {
        let Some(slot) = silenced.get_mut(vertex) else {
            continue;
        };
        if *slot {
            continue;
        }
        *slot = true;
        queue.extend(incoming.get(vertex).into_iter().flatten().copied());
    }
    silenced
}

/// Tarjan's strongly connected components, without recursion, of the
/// graph of `n` vertices whose edges `edge(vertex, i)` gives in turn: its
/// `i`-th edge's target (`Some(None)` for an edge to skip), `None` after
/// the last. Each component sorted.
pub fn strongly_connected(
    n: usize,
    edge: impl Fn(usize, usize) -> Option<Option<usize>>,
) -> Vec<Vec<usize>> {
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index.get(root).copied() != Some(usize::MAX) {
            continue;
        }
        // (vertex, next edge to look at)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (vertex, ref mut edge_at)) = work.last_mut() {
            if *edge_at == 0 && index.get(vertex).copied() == Some(usize::MAX) {
                set(&mut index, vertex, next);
                set(&mut low, vertex, next);
                next += 1;
                stack.push(vertex);
                set(&mut on_stack, vertex, true);
            }
            if let Some(target) = edge(vertex, *edge_at) {
                *edge_at += 1;
                let Some(to) = target else {
                    continue;
                };
                if index.get(to).copied() == Some(usize::MAX) {
                    work.push((to, 0));
                } else if on_stack.get(to).copied().unwrap_or(false) {
                    let lowest = get(&low, vertex).min(get(&index, to));
                    set(&mut low, vertex, lowest);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                let lowest = get(&low, parent).min(get(&low, vertex));
                set(&mut low, parent, lowest);
            }
            if get(&low, vertex) == get(&index, vertex) {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    set(&mut on_stack, member, false);
                    component.push(member);
                    if member == vertex {
                        break;
                    }
                }
                component.sort_unstable();
                components.push(component);
            }
        }
    }
    components
}

fn get(values: &[usize], at: usize) -> usize {
    values.get(at).copied().unwrap_or(usize::MAX)
}

fn set<T>(values: &mut [T], at: usize, value: T) {
    if let Some(slot) = values.get_mut(at) {
        *slot = value;
    }
}

/// The `Cycle: …` error of one strongly connected component.
fn cycle(
    graph: &Graph,
    component: &[usize],
    children: &HashMap<String, Arc<ModuleInterface>>,
) -> Option<Diagnostic> {
    // Start at the first declared node of the component (a module output
    // has no reference of its own), or at a module input when the cycle
    // runs through module calls alone.
    let starts_with = |wanted: fn(&Vertex) -> bool| {
        component
            .iter()
            .copied()
            .find(|&vertex| graph.vertices.get(vertex).is_some_and(wanted))
    };
    let start = starts_with(|vertex| matches!(vertex, Vertex::Node(_)))
        .or_else(|| starts_with(|vertex| matches!(vertex, Vertex::ModuleInput { .. })))?;
    let path = cycle_through(graph, component, start)?;
    let mut names: Vec<String> = path
        .iter()
        .filter_map(|(vertex, _)| graph.vertices.get(*vertex).map(vertex_name))
        .collect();
    for &vertex in component {
        if !path.iter().any(|(on_path, _)| *on_path == vertex) {
            names.extend(graph.vertices.get(vertex).map(vertex_name));
        }
    }
    names.extend(inside_children(graph, component, children));
    let steps: Vec<(String, String, Option<Location>)> = path
        .iter()
        .enumerate()
        .filter_map(|(position, (vertex, edge))| {
            let next = path.get((position + 1) % path.len())?.0;
            Some((
                graph.vertices.get(*vertex).map(vertex_address)?,
                graph.vertices.get(next).map(vertex_address)?,
                edge.at,
            ))
        })
        .collect();
    let (_, _, first_at) = steps.first()?;
    let subject = (*first_at)?;
    // An edge without a reference is drawn by the module a call reads an
    // output of (the output depends on the input) or to the call itself.
    let walked: Vec<String> = steps
        .iter()
        .map(|(from, to, at)| match at {
            Some(_) => format!("{from} refers to {to}"),
            None => format!("{from} depends on {to}"),
        })
        .collect();
    let mut diagnostic = Diagnostic::new(
        crate::codes::REFERENCE_CYCLE,
        format!("Cycle: {}", names.join(", ")),
        subject,
    )
    .with_detail(format!(
        "OpenTofu cannot order these objects, because each depends on the next: {}. OpenTofu reports the cycle without a place; this is one reference in it.",
        walked.join(", ")
    ));
    for (from, to, at) in steps.iter().skip(1) {
        if let Some(at) = at {
            diagnostic = diagnostic.with_related(*at, format!("{from} refers to {to}"));
        }
    }
    Some(diagnostic)
}

/// What a cycle through called modules passes inside them, as OpenTofu
/// names it: each input variable where the child reads it
/// (`module.c.var.v (expand, reference)`), and what lies between it and the
/// output the cycle leaves by.
fn inside_children(
    graph: &Graph,
    component: &[usize],
    children: &HashMap<String, Arc<ModuleInterface>>,
) -> Vec<String> {
    let in_component = |call: &str, variable: &str| {
        graph
            .inputs
            .get(&(call.to_owned(), variable.to_owned()))
            .is_some_and(|id| component.binary_search(id).is_ok())
    };
    let mut names: Vec<String> = Vec::new();
    for &vertex in component {
        match graph.vertices.get(vertex) {
            Some(Vertex::ModuleInput { call, variable }) => {
                names.push(format!("module.{call}.var.{variable} (expand, reference)"));
            }
            Some(Vertex::ModuleOutput { call, output }) => {
                let depends_on = children
                    .get(call)
                    .and_then(|child| child.output(output))
                    .map(|output| output.depends_on.as_slice())
                    .unwrap_or_default();
                for dependency in depends_on {
                    if in_component(call, &dependency.variable) {
                        names.extend(
                            dependency
                                .through
                                .iter()
                                .map(|name| format!("module.{call}.{name}")),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    let mut seen = std::collections::HashSet::new();
    names.retain(|name| seen.insert(name.clone()));
    names
}

/// A shortest cycle from `start` back to it inside `component`: each vertex
/// with the edge it leaves by.
fn cycle_through(graph: &Graph, component: &[usize], start: usize) -> Option<Vec<(usize, Edge)>> {
    let inside = |vertex: usize| component.binary_search(&vertex).is_ok();
    let mut came_from: HashMap<usize, (usize, Edge)> = HashMap::default();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(vertex) = queue.pop_front() {
        for edge in graph.edges.get(vertex).into_iter().flatten() {
            if !inside(edge.to) {
                continue;
            }
            if edge.to == start {
                let mut path = vec![(vertex, *edge)];
                let mut at = vertex;
                while at != start {
                    let &(previous, previous_edge) = came_from.get(&at)?;
                    path.push((previous, previous_edge));
                    at = previous;
                }
                path.reverse();
                return Some(path);
            }
            if edge.to != start && !came_from.contains_key(&edge.to) {
                came_from.insert(edge.to, (vertex, *edge));
                queue.push_back(edge.to);
            }
        }
    }
    None
}

/// How OpenTofu names a vertex in a `Cycle:` error.
fn vertex_name(vertex: &Vertex) -> String {
    match vertex {
        Vertex::Node(node) => node.cycle_name(),
        Vertex::ModuleOutput { call, output } => format!("module.{call}.output.{output} (expand)"),
        Vertex::ModuleInput { call, variable } => {
            format!("module.{call}.var.{variable} (expand, input)")
        }
    }
}

/// A vertex as a reference writes it.
fn vertex_address(vertex: &Vertex) -> String {
    match vertex {
        Vertex::Node(node) => node.address_text(),
        Vertex::ModuleOutput { call, output } => format!("module.{call}.{output}"),
        Vertex::ModuleInput { call, variable } => format!("module.{call}.var.{variable}"),
    }
}

/// The vertex of the variable, local value or data source a reference
/// names (what `unused-declaration` counts as a use).
fn used_vertex(graph: &Graph, reference: &Ref) -> Option<usize> {
    graph.id_of(&reference.used_node()?)
}

/// Which variables, local values and data sources the references of other
/// nodes use, as the graph holds them now, and a version that changes
/// whenever they may have (what a memoized rule that read them compares).
pub struct Uses<'g> {
    graph: &'g Graph,
    used: &'g [bool],
}

impl Uses<'_> {
    pub fn version(&self) -> u64 {
        self.graph.memo.uses_version
    }

    /// Whether another node's references name `node`; a node the graph
    /// does not hold counts as used.
    pub fn is_used(&self, node: &Node) -> bool {
        self.graph
            .id_of(node)
            .is_none_or(|id| self.used.get(id).copied().unwrap_or(true))
    }
}

impl Graph {
    /// What other nodes' references use (computed when the uses changed).
    pub fn uses(&mut self) -> Uses<'_> {
        self.used();
        let graph: &Graph = self;
        let used = graph
            .memo
            .used
            .as_ref()
            .map_or(&[][..], |(_, used)| used.as_slice());
        Uses { graph, used }
    }
}

#[cfg(test)]
mod component_tests {
    use super::strongly_connected;

    #[test]
    fn strongly_connected_components_are_the_cycles() {
        // 0 → 1 → 2 → 0, 3 → 0, 4 alone; 2 has an edge to skip as well.
        let edges: Vec<Vec<Option<usize>>> = vec![
            vec![Some(1)],
            vec![Some(2)],
            vec![Some(0), None],
            vec![Some(0)],
            vec![],
        ];
        let mut components =
            strongly_connected(edges.len(), |vertex, i| edges.get(vertex)?.get(i).copied());
        components.sort();
        assert_eq!(components, vec![vec![0, 1, 2], vec![3], vec![4]]);
    }
}

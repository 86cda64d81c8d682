//! The module tree as one directory's analysis sees it (issue 27,
//! `spec/diagnostics.md` §7): the interface of each module it calls, given by
//! the caller of [`crate::analyze_in_tree`], which knows the directories.
//!
//! A [`ModuleInterface`] is what a caller may know of a module: its merged
//! variables (whether required, their type, where declared) and outputs
//! (with the variables each depends on, for cycles through the call); a
//! summary, so a caller's analysis never holds a child's syntax trees. [`ModuleTree`] maps
//! a call's `source` as written to the interface of the directory it names,
//! and marks sources whose directory calls back up the tree (a loop).
//! Sources the caller could not resolve (a registry address before `tofu
//! init`) are absent: their calls are not judged.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use crate::address::BlockAddress;
use crate::merge::MergedModule;
use crate::refs::{Node, NodeReferences};
use crate::types::{parse_variable_type, TypeConstraint};
use tofu_syntax::TextRange;

/// What a caller may know of a module directory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleInterface {
    /// By name.
    pub variables: Vec<InterfaceVariable>,
    /// By name.
    pub outputs: Vec<InterfaceOutput>,
    /// Loading the module reported an error (or a file could not be parsed
    /// whole): what it declares proves nothing, so callers are not judged
    /// against it.
    pub incomplete: bool,
}

#[derive(Clone, Debug)]
pub struct InterfaceVariable {
    pub name: String,
    /// No default: a caller must set it.
    pub required: bool,
    pub constraint: TypeConstraint,
    /// Where it is declared, as HCL writes a range in a detail, relative to
    /// the module's directory (`main.tf:1,1-18`).
    pub declared_at: String,
    /// The same place as a file and a byte range, for a caller's related
    /// location.
    pub place: Option<DeclarationPlace>,
    pub sensitive: bool,
    pub ephemeral: bool,
}

/// Two variables are the same to a caller when everything but `place` is:
/// `declared_at` says the same line and columns, and a caller's diagnostics
/// relate the variable through the text they were made with, so text that
/// moved by bytes (an edit above the block, within a line) but not by lines
/// does not make every caller judged again.
impl PartialEq for InterfaceVariable {
    fn eq(&self, other: &InterfaceVariable) -> bool {
        self.name == other.name
            && self.required == other.required
            && self.constraint == other.constraint
            && self.declared_at == other.declared_at
            && self.sensitive == other.sensitive
            && self.ephemeral == other.ephemeral
    }
}

/// A block's header in a file of a module directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationPlace {
    /// The file's name in the module's directory.
    pub file: String,
    /// The file's text, which `header` indexes into.
    pub text: Arc<str>,
    pub header: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceOutput {
    pub name: String,
    /// Where it is declared (`outputs.tf:3,1-20`).
    pub declared_at: String,
    /// The module's variables its value depends on, by name: a caller's
    /// argument for one of them that reads this output closes a cycle.
    pub depends_on: Vec<OutputDependency>,
}

/// A variable an output depends on, directly or through other objects of
/// the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputDependency {
    pub variable: String,
    /// OpenTofu's names of the objects on the way (`local.z (expand)`,
    /// `terraform_data.r`), sorted: the child's part of a caller's cycle.
    pub through: Vec<String>,
}

impl ModuleInterface {
    pub fn variable(&self, name: &str) -> Option<&InterfaceVariable> {
        self.variables
            .binary_search_by(|variable| variable.name.as_str().cmp(name))
            .ok()
            .and_then(|index| self.variables.get(index))
    }

    pub fn output(&self, name: &str) -> Option<&InterfaceOutput> {
        self.outputs
            .binary_search_by(|output| output.name.as_str().cmp(name))
            .ok()
            .and_then(|index| self.outputs.get(index))
    }

    /// The interface of a merged module whose analysis reported errors or
    /// not (`crate::ModuleAnalysis::interface`).
    pub(crate) fn of(analysis: &MergedModule, has_errors: bool) -> ModuleInterface {
        let mut interface = ModuleInterface {
            incomplete: has_errors
                || analysis.declarations.incomplete
                || analysis.files.iter().any(|file| file.is_incomplete()),
            ..ModuleInterface::default()
        };
        let mut dependencies = output_dependencies(analysis);
        for block in &analysis.effective.blocks {
            if !matches!(
                block.address,
                BlockAddress::Variable(_) | BlockAddress::Output(_)
            ) {
                continue;
            }
            let Some(base) = block.base else { continue };
            let Some(header) = analysis.block(base).map(|written| written.header) else {
                continue;
            };
            let declared_at = analysis.describe(tofu_syntax::Location::new(base.file, header));
            let place = analysis.file(base.file).map(|file| DeclarationPlace {
                file: file.name.clone(),
                text: Arc::clone(&file.text),
                header,
            });
            match &block.address {
                BlockAddress::Variable(name) => {
                    let text_of = |argument: &str| {
                        let attribute = block.body.attribute(argument)?;
                        let file = analysis.file(attribute.origin.file)?;
                        Some((attribute, file))
                    };
                    let constraint = text_of("type")
                        .and_then(|(attribute, file)| {
                            let source = file.source.as_ref()?;
                            let written = file.attribute_at(attribute.origin.range)?;
                            Some(
                                parse_variable_type(&written.expr, source.syntax, &file.text)
                                    .constraint,
                            )
                        })
                        .unwrap_or(TypeConstraint::Any);
                    let flag = |argument: &str| {
                        text_of(argument).is_some_and(|(attribute, file)| {
                            attribute.value.slice(&file.text).trim() == "true"
                        })
                    };
                    interface.variables.push(InterfaceVariable {
                        name: name.clone(),
                        required: block.body.attribute("default").is_none(),
                        constraint,
                        declared_at,
                        place,
                        sensitive: flag("sensitive"),
                        ephemeral: flag("ephemeral"),
                    });
                }
                BlockAddress::Output(name) => interface.outputs.push(InterfaceOutput {
                    name: name.clone(),
                    declared_at,
                    depends_on: dependencies.remove(name).unwrap_or_default(),
                }),
                _ => {}
            }
        }
        interface.variables.sort_by(|a, b| a.name.cmp(&b.name));
        interface.outputs.sort_by(|a, b| a.name.cmp(&b.name));
        interface
    }
}

/// For each output, the variables its value depends on through the
/// module's references (the edges OpenTofu's graph draws), and what lies
/// between. A path through a module the module calls is not followed.
fn output_dependencies(module: &MergedModule) -> HashMap<String, Vec<OutputDependency>> {
    let mut nodes: Vec<(Node, Option<&NodeReferences>)> = Vec::new();
    for block in &module.effective.blocks {
        let references =
            (!matches!(block.address, BlockAddress::Provider { .. })).then_some(&*block.references);
        nodes.push((Node::Block(block.address.clone()), references));
    }
    for local in &module.effective.locals {
        nodes.push((Node::Local(local.name.clone()), Some(&*local.references)));
    }
    let index: HashMap<&Node, usize> = nodes
        .iter()
        .enumerate()
        .map(|(at, (node, _))| (node, at))
        .collect();
    let mut forward: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut backward: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (from, (_, references)) in nodes.iter().enumerate() {
        let Some(references) = references else {
            continue;
        };
        for reference in references.edges() {
            let Some(&to) = reference.node().as_ref().and_then(|n| index.get(n)) else {
                continue;
            };
            if to != from {
                if let Some(edges) = forward.get_mut(from) {
                    edges.push(to);
                }
                if let Some(edges) = backward.get_mut(to) {
                    edges.push(from);
                }
            }
        }
    }
    let is_variable = |at: usize| {
        matches!(
            nodes.get(at),
            Some((Node::Block(BlockAddress::Variable(_)), _))
        )
    };
    // What reaches each variable that some output reaches.
    let mut reaching: HashMap<usize, Vec<bool>> = HashMap::new();
    let mut out: HashMap<String, Vec<OutputDependency>> = HashMap::new();
    for (at, (node, _)) in nodes.iter().enumerate() {
        let Node::Block(BlockAddress::Output(name)) = node else {
            continue;
        };
        let reached = reach(&forward, at);
        let mut dependencies = Vec::new();
        for variable in (0..nodes.len()).filter(|&v| is_variable(v) && flag(&reached, v)) {
            let back = reaching
                .entry(variable)
                .or_insert_with(|| reach(&backward, variable));
            let mut through: Vec<String> = (0..nodes.len())
                .filter(|&n| n != at && n != variable && flag(&reached, n) && flag(back, n))
                .filter_map(|n| nodes.get(n).map(|(node, _)| node.cycle_name()))
                .collect();
            through.sort();
            if let Some((Node::Block(BlockAddress::Variable(variable)), _)) = nodes.get(variable) {
                dependencies.push(OutputDependency {
                    variable: variable.clone(),
                    through,
                });
            }
        }
        dependencies.sort_by(|a, b| a.variable.cmp(&b.variable));
        out.insert(name.clone(), dependencies);
    }
    out
}

/// Which vertices `edges` lead to from `start` (itself only through a cycle).
fn reach(edges: &[Vec<usize>], start: usize) -> Vec<bool> {
    let mut seen = vec![false; edges.len()];
    let mut stack: Vec<usize> = edges.get(start).cloned().unwrap_or_default();
    while let Some(at) = stack.pop() {
        match seen.get_mut(at) {
            Some(slot) if !*slot => *slot = true,
            _ => continue,
        }
        stack.extend(edges.get(at).into_iter().flatten().copied());
    }
    seen
}

fn flag(flags: &[bool], at: usize) -> bool {
    flags.get(at).copied().unwrap_or(false)
}

/// The modules one directory calls, by `source` as written in the call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleTree {
    pub children: BTreeMap<String, Arc<ModuleInterface>>,
    /// Sources whose directory is this one, or calls back to it through
    /// other calls.
    pub loops: BTreeSet<String>,
}

impl ModuleTree {
    pub fn is_empty(&self) -> bool {
        self.children.is_empty() && self.loops.is_empty()
    }
}

/// The directory a local module source names, relative to the caller's
/// directory, `.` and `..` resolved as far as they go (`./a/../b` is `b`,
/// `../x` stays `../x`); `None` for a source that is not a local path.
pub fn local_source_path(source: &str) -> Option<String> {
    if !(source.starts_with("./") || source.starts_with("../")) {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in source.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if matches!(parts.last(), Some(last) if *last != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    Some(if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_sources_resolve_relative_to_the_caller() {
        assert_eq!(local_source_path("./child").as_deref(), Some("child"));
        assert_eq!(local_source_path("./a/../b/").as_deref(), Some("b"));
        assert_eq!(local_source_path("../..").as_deref(), Some("../.."));
        assert_eq!(local_source_path("./").as_deref(), Some("."));
        assert_eq!(local_source_path("hashicorp/consul/aws"), None);
        assert_eq!(local_source_path("git::https://x/y.git"), None);
    }
}

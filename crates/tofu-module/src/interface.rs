//! What a caller may know of a module it calls (issue 27,
//! `spec/diagnostics.md` §7): a [`ModuleInterface`], its merged variables
//! (whether required, their type, where declared) and outputs (with the
//! variables each depends on, for cycles through the call), and its
//! provider configurations and requirements (issue 35,
//! [`ProviderSummary`]). A summary, so
//! a caller's analysis never holds a child's syntax trees; the caller of
//! [`crate::analyze_in_tree`] hands each call's interface in
//! ([`crate::calls::CalledModules`]).

use std::collections::HashMap;
use std::sync::Arc;

use crate::address::BlockAddress;
pub use crate::declaration_place::DeclarationPlace;
use crate::effective::EffectiveBlock;
use crate::expr::json::json_expression;
use crate::expr::traversal::Part;
use crate::expr::walk::references;
use crate::merge::MergedModule;
use crate::provider_tree::summary::ProviderSummary;
use crate::refs::{Node, NodeReferences};
use crate::types::constant_value;
use crate::types::parse_variable_type;
use tofu_eval::TypeConstraint;

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
    /// Its provider configurations and requirements, and what of them lies
    /// further down its tree.
    pub providers: ProviderSummary,
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
    /// Not declared `nullable = false`: a caller's null is its value.
    pub nullable: bool,
    /// Its `validation` rules, in order: a caller whose argument gives the
    /// variable a known value judges them (OpenTofu evaluates them in the
    /// child, and reports a failure at the caller's argument).
    pub validations: Vec<InterfaceRule>,
}

/// A variable's `validation` rule, as a caller evaluates it.
#[derive(Clone, Debug)]
pub struct InterfaceRule {
    /// The condition and the error message, as HCL evaluates them (a
    /// JSON file's read with HCL's JSON semantics: `crate::expr::json`).
    /// Their ranges index the child's file, not the caller's.
    pub condition: tofu_syntax::Expr,
    pub error_message: tofu_syntax::Expr,
    /// Their text as written, which is what two rules are compared by.
    pub written: String,
    /// Where the rule is (its `validation` keyword), as OpenTofu names it
    /// in a detail, relative to the module's directory (`main.tf:4,3-13`).
    pub declared_at: String,
    /// The same place as a file and a byte range.
    pub place: Option<DeclarationPlace>,
    /// The local values of the child it reads whose definitions are
    /// constants, with their values (by name): what the caller can know
    /// of the child's local values.
    pub locals: Vec<ConstantLocal>,
    /// It reads another of the module's variables.
    pub reads_others: bool,
}

/// A local value defined by a constant.
#[derive(Clone, Debug)]
pub struct ConstantLocal {
    pub name: String,
    /// Its definition as written, which is what two are compared by.
    pub written: String,
    pub value: tofu_eval::Value,
}

impl PartialEq for ConstantLocal {
    fn eq(&self, other: &ConstantLocal) -> bool {
        self.name == other.name && self.written == other.written
    }
}

/// Compared by what they say and where, not by byte offsets (see
/// [`InterfaceVariable`]'s equality).
impl PartialEq for InterfaceRule {
    fn eq(&self, other: &InterfaceRule) -> bool {
        self.written == other.written
            && self.declared_at == other.declared_at
            && self.locals == other.locals
            && self.reads_others == other.reads_others
    }
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
            && self.nullable == other.nullable
            && self.validations == other.validations
    }
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
    /// not, with its providers' summary (`crate::ModuleAnalysis::interface`).
    pub fn of(
        analysis: &MergedModule,
        has_errors: bool,
        providers: ProviderSummary,
    ) -> ModuleInterface {
        let mut interface = ModuleInterface {
            incomplete: has_errors
                || analysis.declarations.incomplete
                || analysis.files.iter().any(|file| file.is_incomplete()),
            providers,
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
                        .unwrap_or(TypeConstraint::any());
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
                        nullable: !text_of("nullable").is_some_and(|(attribute, file)| {
                            attribute.value.slice(&file.text).trim() == "false"
                        }),
                        validations: validation_rules(analysis, block),
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

/// A variable's `validation` rules, as written where they won; a rule
/// without both arguments (loading reports it) is left out, and so are
/// the rules after it, which a caller could not judge in order.
fn validation_rules(module: &MergedModule, variable: &EffectiveBlock) -> Vec<InterfaceRule> {
    let BlockAddress::Variable(own) = &variable.address else {
        return Vec::new();
    };
    let mut rules = Vec::new();
    for rule in variable
        .body
        .blocks
        .iter()
        .filter(|block| block.kind == "validation")
    {
        let mut read_locals: Vec<String> = Vec::new();
        let mut reads_others = false;
        let mut expression = |name: &str| {
            let attribute = rule.body.attribute(name)?;
            let file = module.file(attribute.origin.file)?;
            let written = &file.attribute_at(attribute.origin.range)?.expr;
            let text = attribute.value.slice(&file.text).to_owned();
            for found in references(&file.text, written, file.is_json()).references {
                if let [root, step, ..] = found.steps.as_slice() {
                    if let (Part::Name(root), Part::Name(step)) = (&root.part, &step.part) {
                        if root == "local" && !read_locals.contains(step) {
                            read_locals.push(step.clone());
                        }
                        reads_others |= root == "var" && step != own;
                    }
                }
            }
            let expr = if file.is_json() {
                json_expression(file.text.as_ref(), written)
            } else {
                written.clone()
            };
            Some((expr, text))
        };
        let (Some((condition, condition_text)), Some((error_message, message_text))) =
            (expression("condition"), expression("error_message"))
        else {
            break;
        };
        let at = tofu_syntax::Location::new(rule.origin.file, rule.origin.range);
        rules.push(InterfaceRule {
            condition,
            error_message,
            written: format!("{condition_text}\u{0}{message_text}"),
            declared_at: module.describe(at),
            place: module.file(rule.origin.file).map(|file| DeclarationPlace {
                file: file.name.clone(),
                text: Arc::clone(&file.text),
                header: rule.origin.range,
            }),
            locals: read_locals
                .into_iter()
                .filter_map(|name| constant_local(module, &name))
                .collect(),
            reads_others,
        });
    }
    rules
}

/// Local value `name` when its definition is a constant.
fn constant_local(module: &MergedModule, name: &str) -> Option<ConstantLocal> {
    let local = module.effective.local(name)?;
    let file = module.file(local.attribute.origin.file)?;
    let written = &file.attribute_at(local.attribute.origin.range)?.expr;
    let value = if file.is_json() {
        let expr = json_expression(file.text.as_ref(), written);
        constant_value(&expr, &file.text).ok()?
    } else {
        constant_value(written, &file.text).ok()?
    };
    Some(ConstantLocal {
        name: name.to_owned(),
        written: local.attribute.value.slice(&file.text).to_owned(),
        value,
    })
}

/// For each output, the variables its value depends on through the
/// module's references (the edges OpenTofu's graph draws), and what lies
/// between. A path through a module the module calls is not followed. Only
/// what the outputs depend on is visited: after each keystroke in a called
/// module this runs again, and most of a module is no output's concern.
fn output_dependencies(module: &MergedModule) -> HashMap<String, Vec<OutputDependency>> {
    let references_of = |node: &Node| -> Option<&NodeReferences> {
        match node {
            Node::Block(BlockAddress::Provider { .. }) => None,
            Node::Block(address) => module.effective.get(address).map(|b| &*b.references),
            Node::Local(name) => module.effective.local(name).map(|l| &*l.references),
        }
    };
    // The vertices visited, numbered, with their edges.
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<Node, usize> = HashMap::new();
    let mut forward: Vec<Vec<usize>> = Vec::new();
    let mut number = |node: Node, nodes: &mut Vec<Node>, forward: &mut Vec<Vec<usize>>| {
        *index.entry(node.clone()).or_insert_with(|| {
            nodes.push(node);
            forward.push(Vec::new());
            nodes.len() - 1
        })
    };
    let mut outputs: Vec<(String, usize)> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut expanded: Vec<bool> = Vec::new();
    for block in &module.effective.blocks {
        if let BlockAddress::Output(name) = &block.address {
            let at = number(Node::Block(block.address.clone()), &mut nodes, &mut forward);
            outputs.push((name.clone(), at));
            stack.push(at);
        }
    }
    while let Some(at) = stack.pop() {
        expanded.resize(nodes.len(), false);
        match expanded.get_mut(at) {
            Some(done) if !*done => *done = true,
            _ => continue,
        }
        let Some(references) = nodes.get(at).and_then(&references_of) else {
            continue;
        };
        let targets: Vec<Node> = references
            .edges()
            .filter_map(|reference| reference.node())
            .filter(|target| is_declared(module, target))
            .collect();
        for target in targets {
            let to = number(target, &mut nodes, &mut forward);
            if to != at {
                if let Some(edges) = forward.get_mut(at) {
                    edges.push(to);
                }
                stack.push(to);
            }
        }
    }
    let mut backward: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (from, edges) in forward.iter().enumerate() {
        for &to in edges {
            if let Some(slot) = backward.get_mut(to) {
                slot.push(from);
            }
        }
    }
    let variable_name = |at: usize| match nodes.get(at) {
        Some(Node::Block(BlockAddress::Variable(name))) => Some(name.clone()),
        _ => None,
    };
    // What reaches each variable some output reaches.
    let mut reaching: HashMap<usize, Vec<bool>> = HashMap::new();
    let mut out: HashMap<String, Vec<OutputDependency>> = HashMap::new();
    for (name, at) in outputs {
        let reached = reach(&forward, at);
        let mut dependencies = Vec::new();
        for variable in (0..nodes.len()).filter(|&v| flag(&reached, v)) {
            let Some(variable_name) = variable_name(variable) else {
                continue;
            };
            let back = reaching
                .entry(variable)
                .or_insert_with(|| reach(&backward, variable));
            let mut through: Vec<String> = (0..nodes.len())
                .filter(|&n| n != at && n != variable && flag(&reached, n) && flag(back, n))
                .filter_map(|n| nodes.get(n).map(Node::cycle_name))
                .collect();
            through.sort();
            dependencies.push(OutputDependency {
                variable: variable_name,
                through,
            });
        }
        dependencies.sort_by(|a, b| a.variable.cmp(&b.variable));
        out.insert(name, dependencies);
    }
    out
}

/// A node the module declares.
fn is_declared(module: &MergedModule, node: &Node) -> bool {
    match node {
        Node::Block(address) => module.effective.get(address).is_some(),
        Node::Local(name) => module.effective.local(name).is_some(),
    }
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

//! The reference index's data: the nodes of OpenTofu's dependency graph and
//! the references of each, by evaluation unit. `node_refs` reads them from
//! the effective configuration; effective blocks and local values carry
//! them; the reference rules and the graph read them.

use tofu_syntax::{FileId, TextRange};

use crate::address::{BlockAddress, ResourceMode};
use crate::expr::parse_ref::{RefError, Reference, Referenceable};
use crate::expr::traversal::ParsedStep;

/// A node of OpenTofu's dependency graph that the module declares.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Node {
    Block(BlockAddress),
    Local(String),
}

impl Node {
    /// The node, borrowed.
    pub fn as_ref(&self) -> NodeRef<'_> {
        match self {
            Node::Block(address) => NodeRef::Block(address),
            Node::Local(name) => NodeRef::Local(name),
        }
    }

    /// How OpenTofu names the node in a `Cycle:` error.
    pub fn cycle_name(&self) -> String {
        match self {
            Node::Local(name) => format!("local.{name} (expand)"),
            Node::Block(address) => match address {
                BlockAddress::Variable(name) => format!("var.{name} (expand, reference)"),
                BlockAddress::Output(name) => format!("output.{name} (expand)"),
                BlockAddress::Module(name) => format!("module.{name} (expand)"),
                BlockAddress::Check(name) => format!("check.{name} (expand)"),
                _ => self.address_text(),
            },
        }
    }

    /// The node as a reference writes it.
    pub fn address_text(&self) -> String {
        match self {
            Node::Local(name) => format!("local.{name}"),
            Node::Block(address) => match address {
                BlockAddress::Variable(name) => format!("var.{name}"),
                BlockAddress::Output(name) => format!("output.{name}"),
                BlockAddress::Module(name) => format!("module.{name}"),
                BlockAddress::Check(name) => format!("check.{name}"),
                BlockAddress::Resource {
                    mode,
                    type_name,
                    name,
                } => match mode {
                    ResourceMode::Managed => format!("{type_name}.{name}"),
                    ResourceMode::Data => format!("data.{type_name}.{name}"),
                    ResourceMode::Ephemeral => format!("ephemeral.{type_name}.{name}"),
                },
                BlockAddress::Provider { name, alias } => match alias {
                    Some(alias) => format!("provider.{name}.{alias}"),
                    None => format!("provider.{name}"),
                },
            },
        }
    }
}

/// A node, borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeRef<'a> {
    Block(&'a BlockAddress),
    Local(&'a str),
}

/// The references of one node, by unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeReferences {
    pub units: Vec<Unit>,
    /// References OpenTofu reads but `validate` does not judge.
    pub unevaluated: Vec<Ref>,
    /// Edges OpenTofu adds for unevaluated references (`enabled`,
    /// `replace_triggered_by`, …) are in `unevaluated`; these are the ones it
    /// does not add (destroy-time provisioners), kept as uses only.
    pub uses_only: Vec<Ref>,
    /// A module call's arguments: each name with the index of its unit in
    /// `units` (the child's input variable depends on that unit's
    /// references).
    pub arguments: Vec<(String, usize)>,
}

impl NodeReferences {
    /// Every reference, judged or not.
    pub fn all(&self) -> impl Iterator<Item = &Ref> {
        self.units
            .iter()
            .flat_map(|unit| &unit.refs)
            .chain(&self.unevaluated)
            .chain(&self.uses_only)
    }

    /// The references OpenTofu draws a dependency edge for. A module
    /// argument's edge goes from the child's variable, which is inside the
    /// child: the call itself depends only on its `count`, `for_each` and
    /// `depends_on`.
    pub fn edges(&self) -> impl Iterator<Item = &Ref> {
        self.units
            .iter()
            .filter(|unit| unit.kind != UnitKind::ModuleArgument)
            .flat_map(|unit| &unit.refs)
            .chain(&self.unevaluated)
    }
}

/// A group of references OpenTofu evaluates together: a static error in it
/// (a resource or module that does not exist, `self` out of place) hides its
/// other errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    pub kind: UnitKind,
    pub refs: Vec<Ref>,
    /// In conditions, OpenTofu evaluates the expression even after a static
    /// error, with nothing defined: each reference from this one on then
    /// also gets `Unknown variable` on its root.
    pub unknown_after_static: Option<usize>,
}

/// Where a unit is, which decides what `count`, `each` and `self` mean there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A resource body, a condition, a provisioner: with the block's own
    /// repetition.
    Instance { self_allowed: bool },
    /// A resource's own arguments and nested blocks (not its meta-arguments,
    /// conditions, provisioners or connection): like `Instance` without
    /// `self`, and what its provider's schema decodes, when there is one
    /// (`rules::provider_schema`).
    ResourceBody,
    /// A provider configuration's own arguments and nested blocks (not its
    /// meta-arguments): like `ResourceBody`, with the configuration's own
    /// `for_each`, and judged only when the analysis has the provider's
    /// schema and something uses the configuration
    /// (`rules::provider_schema::provider_body`).
    ProviderBody,
    /// A `count` or `for_each` expression: evaluated with no instance.
    Repetition,
    /// `depends_on`: items in order, and none after the first error.
    DependsOn,
    /// A module argument: `count` and `each` are not judged there.
    ModuleArgument,
    /// A local value, an output value or precondition, a variable
    /// validation, a check assertion: no instance.
    Plain,
    /// An output's value, judged only when its preconditions hold.
    OutputValue,
    /// A provisioner after the first: judged only while the resource has no
    /// error so far.
    LaterProvisioner,
}

/// One reference, as `addrs.ParseRef` reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ref {
    pub file: FileId,
    pub parsed: Result<Reference, RefError>,
    /// The steps read from the subject (`.id` of `aws_instance.web.id`).
    pub remaining: Option<TextRange>,
    /// The first of those steps, when it is an attribute name.
    pub first_attribute: Option<String>,
    /// Those steps, for a reference to a resource or to `self` (what its
    /// schema says of them, `rules::provider_schema::traversal`); empty
    /// otherwise.
    pub after: Box<[ParsedStep]>,
    /// False inside a JSON string with escapes (every range is the string's).
    pub exact: bool,
    /// The root name and its range (`var` of `var.x`).
    pub root: String,
    pub root_range: TextRange,
}

impl Ref {
    /// The variable, local value or data source it names: what
    /// `unused-declaration` counts as a use.
    pub fn used_node(&self) -> Option<Node> {
        match self.node()? {
            node @ (Node::Local(_)
            | Node::Block(BlockAddress::Variable(_))
            | Node::Block(BlockAddress::Resource {
                mode: ResourceMode::Data,
                ..
            })) => Some(node),
            Node::Block(_) => None,
        }
    }

    /// The variable, local value or resource it names (a module output is
    /// a vertex of the graph, not a node of the module).
    pub fn node(&self) -> Option<Node> {
        let parsed = self.parsed.as_ref().ok()?;
        Some(match &parsed.subject {
            Referenceable::Variable(name) => Node::Block(BlockAddress::Variable(name.clone())),
            Referenceable::Local(name) => Node::Local(name.clone()),
            Referenceable::Resource {
                mode,
                type_name,
                name,
                ..
            } => Node::Block(BlockAddress::Resource {
                mode: *mode,
                type_name: type_name.clone(),
                name: name.clone(),
            }),
            _ => return None,
        })
    }
}

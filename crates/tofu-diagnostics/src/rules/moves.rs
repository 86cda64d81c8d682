//! What `tofu plan` reports of `moved` blocks once it knows what the
//! configuration declares (OpenTofu's `refactoring.ValidateMoves`, run
//! after the plan walk; `tofu validate` never runs it): a statement whose
//! `from` and `to` are the same address ("Redundant move statement"), one
//! moving an object that is still declared ("Moved object still exists"),
//! and two statements giving one object two destinations, or one
//! destination two sources ("Ambiguous move statements"), each on the
//! `moved` keyword of the statement, with OpenTofu's details.
//!
//! The module is judged as the root module of a plan (one instance), as a
//! directory is everywhere else. Endpoints are compared as OpenTofu prints
//! them; a statement with an endpoint whose key is not a whole number or a
//! plain string is not judged. A whole resource or module call of this
//! module still exists when it is declared (whatever its `count`); an
//! instance only when its resource's `count` is a whole number above its
//! key: whether `a["x"]` or `module.net[1]` is declared otherwise depends
//! on values plan has. Statements are
//! taken in the order OpenTofu loads them (primary files by name, blocks in
//! order); `moved` blocks of override files are an error while loading and
//! are not statements. Last, when nothing above was found and every
//! statement was judged, the cycles of statements that must run before
//! one another (OpenTofu's last resort, "Cyclic dependency in move
//! statements": chains and nesting as `statementDependsOn` relates them,
//! found as OpenTofu's graph finds them, strongly connected components).

use std::collections::HashMap;

use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::graph::strongly_connected;
use tofu_module::{BlockRef, FileRole};
use tofu_syntax::{Block, Diagnostic, FileId, Location};

use crate::rules::views::ModuleView;

/// The `plan-moves` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let (statements, all_read) = statements(view);
    let before = out.len();
    // Whether every statement was judged as plan judges it: only then is
    // "nothing found" what plan finds, and a cycle plan's last resort.
    let mut all_decided = all_read;
    // Each source's destination and each destination's source, with the
    // place of the statement that said so first.
    let mut destination_of: HashMap<(bool, String), (String, String)> = HashMap::new();
    let mut source_of: HashMap<(bool, String), (String, String)> = HashMap::new();
    for statement in &statements {
        let from = &statement.from.address;
        let to = &statement.to.address;
        let at = statement.at;
        if from == to {
            out.push(
                Diagnostic::new(
                    crate::codes::PLAN_MOVE_STATEMENT,
                    "Redundant move statement",
                    at,
                )
                .with_detail(format!(
                    "This statement declares a move from {from} to the same address, which is the same as not declaring this move at all."
                )),
            );
            continue;
        }
        let (noun, short_noun) = statement.nouns();
        let declared = still_declared(view, &statement.from, statement.moves_instances());
        all_decided &= declared.is_some();
        if let Some(Some(declared_at)) = declared {
            out.push(
                Diagnostic::new(
                    crate::codes::PLAN_MOVE_STATEMENT,
                    "Moved object still exists",
                    at,
                )
                .with_detail(format!(
                    "This statement declares a move from {from}, but that {noun} is still declared at {declared_at}.\n\nChange your configuration so that this {short_noun} will be declared as {to} instead."
                )),
            );
        }
        let here = start_of(view, at);
        match destination_of.get(&statement.key(&statement.from)) {
            Some((other, said_at)) if other != to => out.push(
                Diagnostic::new(
                    crate::codes::PLAN_MOVE_STATEMENT,
                    "Ambiguous move statements",
                    at,
                )
                .with_detail(format!(
                    "A statement at {said_at} declared that {from} moved to {other}, but this statement instead declares that it moved to {to}.\n\nEach {noun} can move to only one destination {short_noun}."
                )),
            ),
            Some(_) => {}
            None => {
                destination_of.insert(statement.key(&statement.from), (to.clone(), here.clone()));
            }
        }
        match source_of.get(&statement.key(&statement.to)) {
            Some((other, said_at)) if other != from => out.push(
                Diagnostic::new(
                    crate::codes::PLAN_MOVE_STATEMENT,
                    "Ambiguous move statements",
                    at,
                )
                .with_detail(format!(
                    "A statement at {said_at} declared that {other} moved to {to}, but this statement instead declares that {from} moved there.\n\nEach {noun} can have moved from only one source {short_noun}."
                )),
            ),
            Some(_) => {}
            None => {
                source_of.insert(statement.key(&statement.to), (from.clone(), here));
            }
        }
    }
    if out.len() == before && all_decided {
        cycles(view, &statements, out);
    }
}

/// OpenTofu's last resort (`validateMoveStatementGraph`): each cycle of
/// statements in the order they must run ("Cyclic dependency in move
/// statements", which OpenTofu gives without a place: here on the first
/// statement of the cycle as it lists them, the others related), its
/// statements listed as OpenTofu lists them, sorted.
fn cycles(view: &ModuleView<'_>, statements: &[Statement], out: &mut Vec<Diagnostic>) {
    let endpoints: Vec<(MoveAddress, MoveAddress)> = statements
        .iter()
        .map(|statement| {
            let instances = statement.moves_instances();
            (
                MoveAddress::of(&statement.from, instances),
                MoveAddress::of(&statement.to, instances),
            )
        })
        .collect();
    let edges: Vec<Vec<usize>> = endpoints
        .iter()
        .enumerate()
        .map(|(a, depender)| {
            endpoints
                .iter()
                .enumerate()
                .filter(|&(b, dependee)| a != b && depends_on(depender, dependee))
                .map(|(b, _)| b)
                .collect()
        })
        .collect();
    let components = strongly_connected(edges.len(), |vertex, i| {
        Some(Some(*edges.get(vertex)?.get(i)?))
    });
    for component in components {
        if component.len() < 2 {
            continue;
        }
        let mut listed: Vec<(String, Location)> = component
            .iter()
            .filter_map(|&index| {
                let statement = statements.get(index)?;
                // A whole resource or call is printed with a wildcard key.
                let whole = if statement.moves_instances() {
                    ""
                } else {
                    "[*]"
                };
                Some((
                    format!(
                        "\n  - {}: {}{whole} → {}{whole}",
                        start_of(view, statement.at),
                        statement.from.address,
                        statement.to.address
                    ),
                    statement.at,
                ))
            })
            .collect();
        listed.sort();
        let Some((_, first)) = listed.first() else {
            continue;
        };
        let lines: String = listed.iter().map(|(line, _)| line.as_str()).collect();
        let mut diagnostic = Diagnostic::new(
            crate::codes::PLAN_MOVE_STATEMENT,
            "Cyclic dependency in move statements",
            *first,
        )
        .with_detail(format!(
            "The following chained move statements form a cycle, and so there is no final location to move objects to:{lines}\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration."
        ));
        for (_, at) in listed.iter().skip(1) {
            diagnostic = diagnostic.with_related(*at, "a statement of the same cycle");
        }
        out.push(diagnostic);
    }
}

/// An endpoint as OpenTofu relates statements (`MoveEndpointInModule`,
/// both sides unified to one kind): what it selects, in this module.
#[derive(Debug, PartialEq)]
enum MoveAddress {
    /// A whole module call: the calls above it, and its name.
    Call(Vec<ModuleStep>, String),
    /// A module instance (a key on either side; none is `NoKey`).
    Instance(Vec<ModuleStep>),
    Resource(Vec<ModuleStep>, String),
    /// A resource instance, with its key as printed (`None`: `NoKey`).
    ResourceInstance(Vec<ModuleStep>, String, Option<String>),
}

/// A step of a module instance path; `key` `None` is `NoKey`, and `any`
/// the wildcard of a whole call (`anyKey`).
#[derive(Clone, Debug, PartialEq)]
struct ModuleStep {
    name: String,
    key: Option<String>,
    any: bool,
}

impl MoveAddress {
    fn of(endpoint: &Endpoint, instances: bool) -> MoveAddress {
        let mut path: Vec<ModuleStep> = Vec::new();
        let mut rest = endpoint.steps.as_slice();
        while let [Step::Name(module), Step::Name(name), more @ ..] = rest {
            if module != "module" {
                break;
            }
            let (key, more) = match more {
                [Step::Key(key), more @ ..] => (Some(key.clone()), more),
                _ => (None, more),
            };
            path.push(ModuleStep {
                name: name.clone(),
                key,
                any: false,
            });
            rest = more;
        }
        match rest {
            [Step::Name(type_name), Step::Name(name), more @ ..] => {
                let resource = format!("{type_name}.{name}");
                if instances {
                    let key = match more {
                        [Step::Key(key)] => Some(key.clone()),
                        _ => None,
                    };
                    MoveAddress::ResourceInstance(path, resource, key)
                } else {
                    MoveAddress::Resource(path, resource)
                }
            }
            _ if instances => MoveAddress::Instance(path),
            _ => {
                let call = path.pop().map(|step| step.name).unwrap_or_default();
                MoveAddress::Call(path, call)
            }
        }
    }

    /// OpenTofu's `synthModuleInstance`: the module instance path it
    /// selects in, a whole call's own step matching any key.
    fn synthesized(&self) -> Vec<ModuleStep> {
        match self {
            MoveAddress::Call(path, call) => {
                let mut path = path.clone();
                path.push(ModuleStep {
                    name: call.clone(),
                    key: None,
                    any: true,
                });
                path
            }
            MoveAddress::Instance(path)
            | MoveAddress::Resource(path, _)
            | MoveAddress::ResourceInstance(path, _, _) => path.clone(),
        }
    }

    fn is_module(&self) -> bool {
        matches!(self, MoveAddress::Call(..) | MoveAddress::Instance(_))
    }

    /// `CanChainFrom`: whether this (a statement's `from`) could select
    /// what `other` (another's `to`) selects.
    fn can_chain_from(&self, other: &MoveAddress) -> bool {
        let (mine, theirs) = (self.synthesized(), other.synthesized());
        if mine.len() != theirs.len() || !can_match(&theirs, &mine) {
            return false;
        }
        match (other, self) {
            (o, e) if o.is_module() && e.is_module() => true,
            (MoveAddress::Resource(_, o), MoveAddress::Resource(_, e)) => o == e,
            (
                MoveAddress::ResourceInstance(_, o, o_key),
                MoveAddress::ResourceInstance(_, e, e_key),
            ) => o == e && o_key == e_key,
            _ => false,
        }
    }

    /// `NestedWithin`: whether this lies inside what `other` selects.
    fn nested_within(&self, other: &MoveAddress) -> bool {
        let (mine, theirs) = (self.synthesized(), other.synthesized());
        if theirs.len() > mine.len() || !can_match(&theirs, &mine) {
            return false;
        }
        match other {
            // A call selects its instances; a call or instance nests in
            // another only deeper down.
            MoveAddress::Call(..) => {
                !matches!(self, MoveAddress::Call(..)) || mine.len() > theirs.len()
            }
            MoveAddress::Instance(_) => !self.is_module() || mine.len() > theirs.len(),
            MoveAddress::Resource(_, resource) => {
                mine.len() == theirs.len()
                    && matches!(self, MoveAddress::ResourceInstance(_, mine, _) if mine == resource)
            }
            MoveAddress::ResourceInstance(..) => false,
        }
    }
}

/// `moduleInstanceCanMatch`: `a`'s steps against the start of `b`'s.
fn can_match(a: &[ModuleStep], b: &[ModuleStep]) -> bool {
    a.iter().zip(b).all(|(a, b)| {
        if a.any || b.any {
            a.name == b.name
        } else {
            a.name == b.name && a.key == b.key
        }
    })
}

/// `statementDependsOn` for two statements of this module: `a` runs after
/// `b` when `b`'s destination is `a`'s source, or one nests in the other.
fn depends_on(a: &(MoveAddress, MoveAddress), b: &(MoveAddress, MoveAddress)) -> bool {
    let ((a_from, a_to), (b_from, b_to)) = (a, b);
    a_from.can_chain_from(b_to)
        || a_from.nested_within(b_to)
        || a_to.nested_within(b_to)
        || b_from.nested_within(a_from)
        || b_to.nested_within(a_from)
}

/// One `moved` block whose endpoints this rule judges.
struct Statement {
    from: Endpoint,
    to: Endpoint,
    /// The `moved` keyword (OpenTofu's `DeclRange`).
    at: Location,
}

/// An endpoint, as OpenTofu prints it.
#[derive(Debug, PartialEq)]
pub(crate) struct Endpoint {
    pub(crate) address: String,
    /// Inside a module call of this module (`module.a.terraform_data.x`).
    pub(crate) in_module: bool,
    /// One instance (`a[0]`, `module.a["x"]`) rather than the whole object.
    instance: bool,
    pub(crate) object: Object,
    /// The steps as written, for the order of statements (`cycles`).
    pub(crate) steps: Vec<Step>,
}

#[derive(Debug, PartialEq)]
pub(crate) enum Object {
    Call(String),
    Resource { type_name: String, name: String },
}

impl Statement {
    /// Whether it moves instances: a key on either side (OpenTofu then
    /// takes an unkeyed side as the instance without a key).
    fn moves_instances(&self) -> bool {
        self.from.instance || self.to.instance
    }

    /// OpenTofu's noun and short noun for its source.
    fn nouns(&self) -> (&'static str, &'static str) {
        match (&self.from.object, self.moves_instances()) {
            (Object::Call(_), false) => ("module call", "call"),
            (Object::Call(_), true) => ("module instance", "instance"),
            (Object::Resource { .. }, false) => ("resource", "resource"),
            (Object::Resource { .. }, true) => ("resource instance", "instance"),
        }
    }

    /// An endpoint as a key of the maps of sources and destinations: a
    /// resource and its instance without a key are different objects.
    fn key(&self, endpoint: &Endpoint) -> (bool, String) {
        (self.moves_instances(), endpoint.address.clone())
    }
}

/// The judged statements, in OpenTofu's loading order (primary files in
/// order, blocks in order), and whether they are all the module's `moved`
/// blocks of primary files (none was left out as unjudged). Only the
/// `moved` blocks are read: an edit elsewhere does not run the rule again.
/// The blocks of kind `kind` (`moved`, `import`, `removed`) in primary
/// files, in the order OpenTofu loads them (files by name, blocks in order).
pub(crate) fn primary_blocks_in_order<'a>(
    view: &ModuleView<'a>,
    kind: &str,
) -> Vec<(BlockRef, &'a Block)> {
    let mut blocks = view.undeclaring_blocks(kind);
    let order = view.primary_files();
    blocks.retain(|(block_ref, _)| matches!(view.role(block_ref.file), Some(FileRole::Primary)));
    blocks.sort_by_key(|(block_ref, _)| {
        (
            order.iter().position(|&file| file == block_ref.file),
            block_ref.index,
        )
    });
    blocks
}

fn statements(view: &ModuleView<'_>) -> (Vec<Statement>, bool) {
    let blocks = primary_blocks_in_order(view, "moved");
    let n_blocks = blocks.len();
    let statements: Vec<Statement> = blocks
        .into_iter()
        .filter_map(|(block_ref, block)| {
            let file = view.file_to(block_ref.file, block.range.end)?;
            statement(block, &file.text, file.is_json(), block_ref.file)
        })
        .collect();
    let all_read = statements.len() == n_blocks;
    (statements, all_read)
}

fn statement(block: &Block, text: &str, json: bool, file: FileId) -> Option<Statement> {
    let endpoint = |name: &str| {
        let attribute = block.body.attribute(name)?;
        let written =
            text.get(attribute.expr.range.start as usize..attribute.expr.range.end as usize)?;
        parse_endpoint(written, json)
    };
    Some(Statement {
        from: endpoint("from")?,
        to: endpoint("to")?,
        at: Location::new(file, block.header),
    })
}

/// `from` or `to` as written: a traversal (native) or a string holding one
/// (JSON). `None` for anything else: a key that is not a whole number or a
/// plain string, or an address that is not a resource or module call
/// OpenTofu lets move (those are errors while loading).
pub(crate) fn parse_endpoint(written: &str, json: bool) -> Option<Endpoint> {
    let decoded;
    let written = if json {
        // The string's content, its escapes decoded, as HCL reads it.
        let trimmed = written.trim();
        if !trimmed.starts_with('"') {
            return None;
        }
        decoded = tofu_module::expr::content::json_string_value(trimmed)?;
        decoded.as_str()
    } else {
        written
    };
    let steps = steps(written)?;
    let mut calls = 0usize;
    let mut rest = steps.as_slice();
    while let [Step::Name(module), Step::Name(_), more @ ..] = rest {
        if module != "module" {
            break;
        }
        calls += 1;
        rest = more;
        if let [Step::Key(_), more @ ..] = rest {
            rest = more;
        }
    }
    let last_is_key = matches!(steps.last(), Some(Step::Key(_)));
    let object = match rest {
        [] => {
            calls = calls.saturating_sub(1);
            let name = steps.iter().rev().find_map(|step| match step {
                Step::Name(name) => Some(name.clone()),
                Step::Key(_) => None,
            })?;
            Object::Call(name)
        }
        [Step::Name(type_name), Step::Name(name), ..]
            if !matches!(
                type_name.as_str(),
                "data" | "ephemeral" | "resource" | "module"
            ) =>
        {
            match rest {
                [_, _] | [_, _, Step::Key(_)] => Object::Resource {
                    type_name: type_name.clone(),
                    name: name.clone(),
                },
                _ => return None,
            }
        }
        _ => return None,
    };
    let mut address = String::new();
    for step in &steps {
        match step {
            Step::Name(name) => {
                if !address.is_empty() {
                    address.push('.');
                }
                address.push_str(name);
            }
            Step::Key(key) => address.push_str(key),
        }
    }
    Some(Endpoint {
        address,
        in_module: calls > 0,
        instance: last_is_key,
        object,
        steps,
    })
}

/// One step of an address: a name, or an index key as OpenTofu prints it
/// (`[0]`, `["a"]`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    Name(String),
    Key(String),
}

/// The steps of a traversal written `a.b[0].c["x"]` (spaces allowed
/// around the punctuation); `None` for anything else, or a key other than
/// a whole number without leading zeros or a string without escapes or
/// templates.
fn steps(written: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = written.trim_start();
    let mut after_key = false;
    loop {
        if let Some(more) = rest.strip_prefix('[') {
            let more = more.trim_start();
            let (key, more) = if let Some(quoted) = more.strip_prefix('"') {
                let end = quoted.find('"')?;
                let content = quoted.get(..end)?;
                if content.contains(['\\', '$', '%']) {
                    return None;
                }
                (format!("[\"{content}\"]"), quoted.get(end + 1..)?)
            } else {
                let end = more
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(more.len());
                let digits = more.get(..end)?;
                if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
                    return None;
                }
                (format!("[{digits}]"), more.get(end..)?)
            };
            rest = more.trim_start().strip_prefix(']')?.trim_start();
            if steps.is_empty() || after_key {
                return None;
            }
            steps.push(Step::Key(key));
            after_key = true;
        } else {
            if !steps.is_empty() {
                rest = rest.strip_prefix('.')?.trim_start();
            }
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len());
            let name = rest.get(..end)?;
            if !tofu_module::names::is_identifier(name) {
                return None;
            }
            steps.push(Step::Name(name.to_owned()));
            rest = rest.get(end..)?.trim_start();
            after_key = false;
        }
        if rest.is_empty() {
            return Some(steps);
        }
    }
}

/// Where the object `from` names is declared (OpenTofu's `StartString`
/// of its declaration), when it is: a resource or module call of this
/// module, declared at all (plan knows it whatever its `count`); an
/// instance (`instances`: a statement with a key on either side, whose
/// unkeyed side OpenTofu takes as the instance without a key), when its
/// resource or call is declared without `count`, `for_each` and
/// `enabled` and the instance has no key (declared at the block), or when
/// its `count` is a whole number above the instance's key (declared at
/// that number). `Some(None)` when it is not declared (a keyed instance of
/// an object without `count`, an unkeyed or string-keyed one of an object
/// with `count`); `None` when only plan knows (an object in a called
/// module, an instance of an object under `for_each`, `enabled`, or a
/// `count` that is no whole number as written).
fn still_declared(
    view: &ModuleView<'_>,
    from: &Endpoint,
    instances: bool,
) -> Option<Option<String>> {
    if from.in_module {
        return None;
    }
    let address = match &from.object {
        Object::Call(name) => BlockAddress::Module(name.clone()),
        Object::Resource { type_name, name } => BlockAddress::Resource {
            mode: ResourceMode::Managed,
            type_name: type_name.clone(),
            name: name.clone(),
        },
    };
    let Some(declared) = view.effective(&address) else {
        return Some(None);
    };
    let base = declared.base?;
    let at_block = || {
        let block = view.block(base)?;
        Some(Some(start_of(view, Location::new(base.file, block.header))))
    };
    if !instances {
        return at_block();
    }
    let body = &declared.body;
    let count = body.attribute("count");
    let repeated_otherwise = body.attribute("for_each").is_some()
        || body.attribute("enabled").is_some()
        || body
            .blocks
            .iter()
            .any(|block| block.kind == "lifecycle" && block.body.attribute("enabled").is_some());
    if repeated_otherwise {
        return None;
    }
    let key = from
        .address
        .strip_suffix(']')
        .and_then(|rest| rest.rsplit_once('['));
    match (key, count) {
        (None, None) => at_block(),
        // A single object has no keyed instance; a counted one none
        // without a key.
        (None, Some(_)) | (Some(_), None) => Some(None),
        (Some((_, key)), Some(count)) => {
            let file = view.file_to(count.origin.file, count.value.end)?;
            let written = file
                .text
                .get(count.value.start as usize..count.value.end as usize)?;
            let instances: u64 = written.trim().parse().ok()?;
            let Ok(key) = key.parse::<u64>() else {
                // A string key: `count` makes none.
                return Some(None);
            };
            Some(
                (key < instances)
                    .then(|| start_of(view, Location::new(count.origin.file, count.value))),
            )
        }
    }
}

/// `FILE:LINE,COLUMN` of where `location` starts, as OpenTofu's
/// `SourceRange.StartString` writes it.
fn start_of(view: &ModuleView<'_>, location: Location) -> String {
    let described = view.describe(location);
    match described.rsplit_once('-') {
        Some((start, _)) => start.to_owned(),
        None => described,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, json: bool) -> Option<(String, bool, bool, Object)> {
        parse_endpoint(text, json).map(|endpoint| {
            (
                endpoint.address,
                endpoint.in_module,
                endpoint.instance,
                endpoint.object,
            )
        })
    }

    fn resource(type_name: &str, name: &str) -> Object {
        Object::Resource {
            type_name: type_name.to_owned(),
            name: name.to_owned(),
        }
    }

    #[test]
    fn endpoints_are_read_as_opentofu_prints_them() {
        assert_eq!(
            read("terraform_data.a", false),
            Some((
                "terraform_data.a".to_owned(),
                false,
                false,
                resource("terraform_data", "a")
            ))
        );
        assert_eq!(
            read("terraform_data.many [ 0 ]", false),
            Some((
                "terraform_data.many[0]".to_owned(),
                false,
                true,
                resource("terraform_data", "many")
            ))
        );
        assert_eq!(
            read("module.net", false),
            Some((
                "module.net".to_owned(),
                false,
                false,
                Object::Call("net".to_owned())
            ))
        );
        assert_eq!(
            read("module.net[\"a b\"]", false),
            Some((
                "module.net[\"a b\"]".to_owned(),
                false,
                true,
                Object::Call("net".to_owned())
            ))
        );
        assert_eq!(
            read(" module . a [1]. module.b ", false),
            Some((
                "module.a[1].module.b".to_owned(),
                true,
                false,
                Object::Call("b".to_owned())
            ))
        );
        assert_eq!(
            read("\"module.a.terraform_data.x\"", true),
            Some((
                "module.a.terraform_data.x".to_owned(),
                true,
                false,
                resource("terraform_data", "x")
            ))
        );
    }

    #[test]
    fn a_call_and_its_instance_moved_alike_depend_on_each_other() {
        let address = |text: &str, instances: bool| {
            MoveAddress::of(&parse_endpoint(text, false).unwrap(), instances)
        };
        let whole = (address("module.old", false), address("module.new", false));
        let one = (
            address("module.old[1]", true),
            address("module.new[1]", true),
        );
        assert!(depends_on(&whole, &one) && depends_on(&one, &whole));
        let other = (
            address("module.older[1]", true),
            address("module.new[1]", true),
        );
        assert!(!depends_on(&other, &whole) || !depends_on(&whole, &other));
    }

    #[test]
    fn other_addresses_and_keys_are_left_alone() {
        for left_alone in [
            "terraform_data.a[var.x]",
            "terraform_data.a[01]",
            "terraform_data.a[0][1]",
            "terraform_data.a[\"${x}\"]",
            "terraform_data.a.b",
            "data.terraform_data.a",
            "\"terraform_data.a\"",
            "terraform_data",
            "module",
            "[0]",
            "a.b.c",
            "",
        ] {
            assert_eq!(read(left_alone, false), None, "{left_alone}");
        }
        assert_eq!(read("terraform_data.a", true), None);
        assert_eq!(
            read(r#""terraform_data.y[\"a\"]""#, true).map(|read| read.0),
            Some(r#"terraform_data.y["a"]"#.to_owned())
        );
    }
}

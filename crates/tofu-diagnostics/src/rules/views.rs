//! What a rule may read, by entry point: [`IdentityView`] for a rule on one
//! merged identity, [`ModuleView`] for a rule on the whole merged module
//! (the one-file view of the as-written rules is
//! [`tofu_module::loaded::FileView`]).
//!
//! The views are the only way a rule reaches the module, so what a rule
//! reads is known without trusting the rule:
//!
//! - An identity view hands out that identity's effective block, its own
//!   blocks (its kept declaration, its duplicates, its overrides) and, of
//!   the files that hold them, only what lies inside those blocks
//!   ([`IdentityFile`]: text, attributes and places there, the file's role
//!   and syntax; for a local value, inside its own definitions). A request
//!   for any other block, file or range is refused and recorded as a
//!   [`Violation`] naming the rule. The registry logs and counts those in
//!   every build, and debug builds stop on one by a registered rule (the
//!   tests in `rules/tests.rs` catch deliberately wrong rules reading
//!   another identity's block, another file, and their own file past their
//!   block), so a rule that reads too much fails deterministically instead
//!   of being served stale results.
//! - A module view hands out anything, and records every file, identity and
//!   local value it handed out ([`Reads`]). A rule's last result is reused
//!   while an edit keeps every file's shape and touches none of what it
//!   read; nothing is listed by hand.
//!
//! Names, roles and the declarations index depend only on the shapes of the
//! files, which every reuse requires to be unchanged, so reading them is not
//! recorded by the module view.

use std::borrow::Cow;
use std::cell::RefCell;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tofu_syntax::{Attribute, Block, Expr, FileId, Location, Syntax, TextRange};

use crate::declare_fix::UndeclaredVariableUse;
use crate::declared_names::{DeclaredNames, DeclaredObject, NameChanges, NameList};
use tofu_module::address::BlockAddress;
use tofu_module::declarations::{Declarations, DeclaredModule, LocalRef};
use tofu_module::effective::{
    EffectiveAttribute, EffectiveBlock, EffectiveLocal, EffectiveTerraform,
};
use tofu_module::expr::json::json_expression;
use tofu_module::expr::parse_ref::Referenceable;
use tofu_module::file_text::FileText;
use tofu_module::graph::Uses;
use tofu_module::input::Config;
use tofu_module::interface::ModuleInterface;
use tofu_module::loaded::{BlockRef, FileRole, ModuleFile};
use tofu_module::local_memo::LocalMemo;
use tofu_module::merge::{MergedModule, OverridePlan};
use tofu_module::module_source::local_source;
use tofu_module::refs::NodeReferences;
use tofu_schema::{ProviderAddress, ProviderSchema};

/// A read a rule on one identity made outside its view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    /// The rule's name in the registry.
    pub(crate) rule: &'static str,
    /// What it asked for.
    pub(crate) read: String,
}

/// What a rule on one identity checks: a node of the dependency graph as
/// merged, an effective block or a local value.
#[derive(Clone, Copy)]
pub(crate) enum MergedNode<'a> {
    Block(&'a EffectiveBlock),
    Local(&'a EffectiveLocal),
}

/// The names a rule on one identity asked about (see `declared_names`):
/// kept with every identity, so kept small (one list, no hash sets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NameReads {
    reads: Vec<NameRead>,
    /// Every name of a kind was read (a "Did you mean" over all of them).
    all_variables: bool,
    all_locals: bool,
    all_modules: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum NameRead {
    Variable(String),
    Local(String),
    /// A local value's definition, read to evaluate it.
    LocalValue(String),
    /// An input variable's type and marks, read to make its value.
    VariableValue(String),
    Module(String),
    Object(BlockAddress),
    /// Which provider a local name stands for, and that provider's schema.
    Provider {
        local_name: String,
        address: ProviderAddress,
    },
    /// Which provider configurations the module's blocks use.
    ProviderUses,
}

impl NameReads {
    pub(crate) fn is_empty(&self) -> bool {
        *self == NameReads::default()
    }

    fn add(&mut self, read: NameRead) {
        if !self.reads.contains(&read) {
            self.reads.push(read);
        }
    }

    /// Adds every name the references name: the dependency graph resolves a
    /// node's references (evaluated or not) against the declarations, so a
    /// change of one of these names must resolve them again.
    pub(crate) fn add_names_of(&mut self, references: &NodeReferences) {
        for reference in references.all() {
            let Ok(parsed) = &reference.parsed else {
                continue;
            };
            let read = match &parsed.subject {
                Referenceable::Variable(name) => NameRead::Variable(name.clone()),
                Referenceable::Local(name) => NameRead::Local(name.clone()),
                Referenceable::ModuleCall { name, .. } => NameRead::Module(name.clone()),
                Referenceable::Resource {
                    mode,
                    type_name,
                    name,
                    ..
                } => NameRead::Object(BlockAddress::Resource {
                    mode: *mode,
                    type_name: type_name.clone(),
                    name: name.clone(),
                }),
                _ => continue,
            };
            self.add(read);
        }
    }

    /// True when the reads include the value of a local value in `locals`
    /// or of an input variable in `identities` (their definitions changed).
    pub(crate) fn reads_values_of(
        &self,
        locals: &HashSet<String>,
        identities: &HashSet<BlockAddress>,
    ) -> bool {
        if locals.is_empty() && identities.is_empty() {
            return false;
        }
        let variables = identities
            .iter()
            .any(|address| matches!(address, BlockAddress::Variable(_)));
        self.reads.iter().any(|read| match read {
            NameRead::LocalValue(name) => locals.contains(name),
            NameRead::VariableValue(name) if variables => {
                identities.contains(&BlockAddress::Variable(name.clone()))
            }
            _ => false,
        })
    }

    /// True when an answer given to these reads may have changed.
    pub(crate) fn touched_by(&self, changes: &NameChanges) -> bool {
        if (self.all_variables && !changes.variables.is_empty())
            || (self.all_locals && !changes.locals.is_empty())
            || (self.all_modules && !changes.modules.is_empty())
        {
            return true;
        }
        self.reads.iter().any(|read| match read {
            NameRead::Variable(name) => changes.variables.contains(name),
            NameRead::Local(name) | NameRead::LocalValue(name) => changes.locals.contains(name),
            NameRead::VariableValue(name) => changes.variables.contains(name),
            NameRead::Module(name) => changes.modules.contains(name),
            NameRead::Object(address) => changes.objects.contains(address),
            NameRead::Provider {
                local_name,
                address,
            } => changes.provider_names.contains(local_name) || changes.providers.contains(address),
            NameRead::ProviderUses => changes.provider_uses,
        })
    }
}

/// The arguments of an input variable that make its value in validate's
/// walk, each with the file it is written in.
#[derive(Default)]
pub(crate) struct VariableArguments<'a> {
    pub(crate) ty: Option<(&'a ModuleFile, &'a Expr)>,
    pub(crate) sensitive: Option<(&'a ModuleFile, &'a Expr)>,
    pub(crate) ephemeral: Option<(&'a ModuleFile, &'a Expr)>,
}

impl VariableArguments<'_> {
    /// The variable's value in validate's walk: an unknown value of its
    /// declared type (any type without one), marked sensitive and
    /// ephemeral as declared (`declared_true`). The one answer for node
    /// rules (`walk_values`) and identity rules (`expression_evaluation`).
    pub(crate) fn walk_value(&self) -> tofu_eval::Value {
        let ty = self.ty.map_or(tofu_eval::Type::Dynamic, |(file, expr)| {
            tofu_module::types::parse_variable_type(expr, file.syntax(), file.text.as_ref())
                .constraint
                .ty
        });
        let is_set = |argument: Option<(&ModuleFile, &Expr)>| {
            argument
                .is_some_and(|(file, expr)| tofu_module::types::declared_true(expr, file.syntax()))
        };
        let marks = tofu_eval::Marks {
            sensitive: is_set(self.sensitive),
            ephemeral: is_set(self.ephemeral),
        };
        tofu_eval::Value::unknown(ty).with_marks(marks)
    }
}

/// One merged identity, as a rule on it may read it.
pub(crate) struct IdentityView<'a> {
    module: &'a DeclaredModule,
    subject: MergedNode<'a>,
    names: &'a DeclaredNames,
    /// How override files merge, to read the effective definitions of
    /// other local values and variables (`local_value`, `variable_value`);
    /// without it those are unknown.
    plan: Option<&'a OverridePlan>,
    /// The values of the local values its rules evaluated.
    local_values: LocalMemo<tofu_eval::Value>,
    /// Its blocks: the kept declaration, duplicates and overrides (none for
    /// a local value, whose `locals` blocks define other local values too).
    own_blocks: Vec<BlockRef>,
    /// What of its files it may read: its blocks' ranges (a local value's
    /// definitions, `name = value`), sorted.
    own_ranges: Vec<Location>,
    rule: &'static str,
    violations: RefCell<Vec<Violation>>,
    name_reads: RefCell<NameReads>,
    undeclared_variables: RefCell<Vec<UndeclaredVariableUse>>,
}

impl<'a> IdentityView<'a> {
    pub(crate) fn new(
        module: &'a DeclaredModule,
        subject: MergedNode<'a>,
        names: &'a DeclaredNames,
    ) -> Self {
        let mut own_blocks: Vec<BlockRef> = Vec::new();
        let mut own_ranges: Vec<Location> = Vec::new();
        match subject {
            MergedNode::Block(effective) => {
                own_blocks.extend(effective.base.iter().chain(&effective.overrides).copied());
                if let Some(declared) = module.declarations.get(&effective.address) {
                    own_blocks.extend(declared.all.iter().copied());
                }
                own_blocks.sort_unstable();
                own_blocks.dedup();
                own_ranges.extend(own_blocks.iter().filter_map(|&block_ref| {
                    let block = module.block(block_ref)?;
                    Some(Location::new(block_ref.file, block.range))
                }));
            }
            MergedNode::Local(local) => {
                let mut definitions: Vec<LocalRef> = std::iter::once(local.base)
                    .chain(local.overrides.iter().copied())
                    .collect();
                if let Some(declared) = module.declarations.local(&local.name) {
                    definitions.extend(declared.all.iter().copied());
                }
                own_ranges.extend(definitions.iter().filter_map(|local_ref| {
                    let block = module.block(local_ref.block)?;
                    let attribute = block.body.attributes.get(local_ref.attr)?;
                    Some(Location::new(local_ref.block.file, attribute.range))
                }));
            }
        }
        own_ranges.sort_unstable();
        own_ranges.dedup();
        IdentityView {
            module,
            subject,
            names,
            plan: None,
            local_values: LocalMemo::new(),
            own_blocks,
            own_ranges,
            rule: "",
            violations: RefCell::new(Vec::new()),
            name_reads: RefCell::new(NameReads::default()),
            undeclared_variables: RefCell::new(Vec::new()),
        }
    }

    /// The view, reading the values of other local values and variables
    /// as `plan` merges them.
    pub(crate) fn with_values_from(mut self, plan: &'a OverridePlan) -> Self {
        self.plan = Some(plan);
        self
    }

    /// The effective definition of local value `name` as written (its
    /// file and expression, one in a JSON file read as HCL evaluates it),
    /// to evaluate it (recorded: an edit of the definition judges this
    /// identity again).
    pub(crate) fn local_value(&self, name: &str) -> Option<(FileId, Cow<'a, Expr>)> {
        let plan = self.plan?;
        self.name_reads
            .borrow_mut()
            .add(NameRead::LocalValue(name.to_owned()));
        let declared = self.module.declarations.local(name)?;
        let local_ref = plan
            .local_overrides_of(name)
            .last()
            .copied()
            .unwrap_or(declared.kept);
        let file = self.module.file(local_ref.block.file)?;
        let block = self.module.block(local_ref.block)?;
        let attribute = block.body.attributes.get(local_ref.attr)?;
        if file.is_json() {
            let expr = json_expression(file.text.as_ref(), &attribute.expr);
            return Some((local_ref.block.file, Cow::Owned(expr)));
        }
        Some((local_ref.block.file, Cow::Borrowed(&attribute.expr)))
    }

    /// The memo of the local values evaluated through this view.
    pub(crate) fn local_values(&self) -> &LocalMemo<tofu_eval::Value> {
        &self.local_values
    }

    /// The effective `type`, `sensitive` and `ephemeral` arguments of
    /// input variable `name` (the last block that sets each, override
    /// files after the base), with the files they are written in
    /// (recorded: an edit of the variable judges this identity again).
    pub(crate) fn variable_value(&self, name: &str) -> Option<VariableArguments<'a>> {
        let plan = self.plan?;
        self.name_reads
            .borrow_mut()
            .add(NameRead::VariableValue(name.to_owned()));
        let address = BlockAddress::Variable(name.to_owned());
        let base = plan.base_of(self.module, &address)??;
        let mut arguments = VariableArguments::default();
        for &block_ref in std::iter::once(&base).chain(plan.overrides_of(&address)) {
            let Some(block) = self.module.block(block_ref) else {
                continue;
            };
            let Some(file) = self.module.file(block_ref.file) else {
                continue;
            };
            for attribute in &block.body.attributes {
                let slot = match attribute.name.as_str() {
                    "type" => &mut arguments.ty,
                    "sensitive" => &mut arguments.sensitive,
                    "ephemeral" => &mut arguments.ephemeral,
                    _ => continue,
                };
                *slot = Some((file, &attribute.expr));
            }
        }
        Some(arguments)
    }

    /// The view as `rule` reads it (violations are recorded under its name).
    pub(crate) fn for_rule(&mut self, rule: &'static str) {
        self.rule = rule;
    }

    /// Every read refused so far.
    pub(crate) fn take_violations(&self) -> Vec<Violation> {
        std::mem::take(&mut *self.violations.borrow_mut())
    }

    /// The names asked about so far.
    pub(crate) fn take_name_reads(&self) -> NameReads {
        std::mem::take(&mut *self.name_reads.borrow_mut())
    }

    /// Records that the rule reports a use of an undeclared input variable
    /// at `at` (for the "Declare variable" fix, `declare_fix`).
    pub(crate) fn record_undeclared_variable(&self, at: Location, name: &str) {
        self.undeclared_variables
            .borrow_mut()
            .push(UndeclaredVariableUse {
                at,
                name: name.to_owned(),
            });
    }

    /// The uses of undeclared variables recorded so far.
    pub(crate) fn take_undeclared_variables(&self) -> Vec<UndeclaredVariableUse> {
        std::mem::take(&mut *self.undeclared_variables.borrow_mut())
    }

    fn refuse(&self, read: String) {
        self.violations.borrow_mut().push(Violation {
            rule: self.rule,
            read,
        });
    }

    /// The effective block, when the identity is a block.
    pub(crate) fn effective(&self) -> Option<&'a EffectiveBlock> {
        match self.subject {
            MergedNode::Block(effective) => Some(effective),
            MergedNode::Local(_) => None,
        }
    }

    /// The merged local value, when the identity is one.
    pub(crate) fn local(&self) -> Option<&'a EffectiveLocal> {
        match self.subject {
            MergedNode::Local(local) => Some(local),
            MergedNode::Block(_) => None,
        }
    }

    /// The identity's references, by evaluation unit.
    pub(crate) fn references(&self) -> &'a NodeReferences {
        match self.subject {
            MergedNode::Block(effective) => &effective.references,
            MergedNode::Local(local) => &local.references,
        }
    }

    /// One of the identity's own blocks; any other is refused.
    pub(crate) fn block(&self, block: BlockRef) -> Option<&'a Block> {
        if self.own_blocks.binary_search(&block).is_err() {
            self.refuse(format!("block {block:?}"));
            return None;
        }
        self.module.block(block)
    }

    /// A file holding one of the identity's own blocks (or definitions), to
    /// read inside them; any other file is refused.
    pub(crate) fn file(&self, file: FileId) -> Option<IdentityFile<'_, 'a>> {
        if !self.own_ranges.iter().any(|own| own.file == file) {
            self.refuse(format!("file {file:?}"));
            return None;
        }
        Some(IdentityFile {
            view: self,
            id: file,
            file: self.module.file(file)?,
        })
    }

    /// An effective attribute's expression as written, with its file; `None`
    /// in a JSON file (whose expressions are strings to read again) and
    /// outside the identity.
    pub(crate) fn native_expr(
        &self,
        attribute: &EffectiveAttribute,
    ) -> Option<(IdentityFile<'_, 'a>, &'a Expr)> {
        let file = self.file(attribute.origin.file)?;
        if file.is_json() {
            return None;
        }
        let written = file.attribute_at(attribute.origin.range)?;
        Some((file, &written.expr))
    }

    /// The own range of `file` that holds `range`; refused when none does.
    fn own_range_holding(&self, file: FileId, range: TextRange) -> Option<TextRange> {
        let holding = self
            .own_ranges
            .iter()
            .filter(|own| own.file == file)
            .filter_map(|own| own.range)
            .find(|own| own.start <= range.start && range.end <= own.end);
        if holding.is_none() {
            self.refuse(format!("range {range:?} of file {file:?}"));
        }
        holding
    }

    /// Whether the module declares the input variable `name` (recorded).
    pub(crate) fn declares_variable(&self, name: &str) -> bool {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Variable(name.to_owned()));
        self.names.has_variable(name)
    }

    /// Whether the module declares the local value `name` (recorded).
    pub(crate) fn declares_local(&self, name: &str) -> bool {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Local(name.to_owned()));
        self.names.has_local(name)
    }

    /// Whether the module declares the module call `name` (recorded).
    pub(crate) fn declares_module(&self, name: &str) -> bool {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Module(name.to_owned()));
        self.names.has_module(name)
    }

    /// A declared resource or module call, with its repetition and scope
    /// (recorded).
    pub(crate) fn declared(&self, address: &BlockAddress) -> Option<&'a DeclaredObject> {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Object(address.clone()));
        self.names.objects.get(address)
    }

    /// The declared name of `list` closest to `given`, for "Did you mean"
    /// (recorded as a read of all of them).
    pub(crate) fn suggest(&self, list: NameList, given: &str) -> Option<String> {
        {
            let mut reads = self.name_reads.borrow_mut();
            match list {
                NameList::Variables => reads.all_variables = true,
                NameList::Locals => reads.all_locals = true,
                NameList::Modules => reads.all_modules = true,
            }
        }
        self.names.suggest(list, given)
    }

    /// What the module tree says the directory of module call `name`
    /// declares (recorded as a read of the call).
    pub(crate) fn child(&self, name: &str) -> Option<&'a ModuleInterface> {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Module(name.to_owned()));
        self.names.children.get(name).map(|child| &**child)
    }

    /// The directory module call `name` names, relative to this one: its
    /// local source, or where `tofu init` installed it (recorded).
    pub(crate) fn child_dir(&self, name: &str, source: Option<&str>) -> Option<String> {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Module(name.to_owned()));
        source
            .and_then(local_source)
            .or_else(|| self.names.installed.get(name).cloned())
    }

    /// Whether the module's `required_providers` has an entry named
    /// `local_name` (recorded: an entry added or removed judges the
    /// identity again).
    pub(crate) fn requires_provider(&self, local_name: &str) -> bool {
        let (address, _) = self.names.providers.schema(local_name);
        self.name_reads.borrow_mut().add(NameRead::Provider {
            local_name: local_name.to_owned(),
            address,
        });
        self.names.required_provider_names.contains(local_name)
    }

    /// What functions read files through (the same for every identity; a
    /// new one analyses the module whole, so it is not recorded).
    pub(crate) fn module_files(&self) -> &'a dyn tofu_eval::Environment {
        self.names.module_files.environment()
    }

    /// The provider the local name `local_name` stands for and its schema,
    /// when the analysis was given one (recorded: a new schema for it, or
    /// a `required_providers` entry naming another provider, judges the
    /// identity again).
    pub(crate) fn provider_schema(
        &self,
        local_name: &str,
    ) -> (ProviderAddress, Option<&'a ProviderSchema>) {
        let (address, schema) = self.names.providers.schema(local_name);
        self.name_reads.borrow_mut().add(NameRead::Provider {
            local_name: local_name.to_owned(),
            address: address.clone(),
        });
        (address, schema)
    }

    /// The provider function `name` (`provider::NAME::FUNCTION`) from its
    /// provider's schema (recorded as [`Self::provider_schema`] is).
    pub(crate) fn provider_function(&self, name: &str) -> Option<tofu_eval::ProviderFunction> {
        let (local_name, function) = tofu_module::provider_schemas::provider_function_name(name)?;
        let (address, schema) = self.provider_schema(local_name);
        tofu_module::provider_schemas::provider_function(&address, schema?, function)
    }

    /// Whether OpenTofu keeps provider configuration `NAME[.ALIAS]`
    /// (`tofu_module::provider_uses`; recorded).
    pub(crate) fn keeps_provider_configuration(&self, name: &str, alias: Option<&str>) -> bool {
        self.name_reads.borrow_mut().add(NameRead::ProviderUses);
        self.names.provider_uses.keeps(name, alias)
    }

    /// Whether module call `name` leads back up the tree (recorded).
    pub(crate) fn loops(&self, name: &str) -> bool {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Module(name.to_owned()));
        self.names.loops.contains(name)
    }

    /// Whether the directory module call `name` names cannot be read (it
    /// does not exist, or is no directory; recorded).
    pub(crate) fn unreadable(&self, name: &str) -> bool {
        self.name_reads
            .borrow_mut()
            .add(NameRead::Module(name.to_owned()));
        self.names.unreadable.contains(name)
    }
}

/// A file holding some of an identity's blocks, as a rule on the identity
/// reads it: its id, role and syntax, and inside the identity's own blocks
/// (a local value's own definitions) the text, the attributes written there
/// and their places. Anything else of the file is refused like another
/// identity's block, since it is another identity's.
pub(crate) struct IdentityFile<'v, 'a> {
    view: &'v IdentityView<'a>,
    id: FileId,
    file: &'a ModuleFile,
}

impl<'a> IdentityFile<'_, 'a> {
    pub(crate) fn role(&self) -> FileRole {
        self.file.role
    }

    pub(crate) fn is_json(&self) -> bool {
        self.file.is_json()
    }

    /// The syntax it was parsed with, when it was parsed.
    pub(crate) fn syntax(&self) -> Option<Syntax> {
        self.file.source.as_ref().map(|source| source.syntax)
    }

    /// The text of the own block (or definition) holding `range`, read at
    /// the file's offsets; refused when `range` is in none.
    pub(crate) fn text(&self, range: TextRange) -> Option<FileText<'a>> {
        let own = self.view.own_range_holding(self.id, range)?;
        Some(FileText::part(&self.file.text, own))
    }

    /// The attribute written exactly at `range`, inside an own block;
    /// refused when `range` is in none.
    pub(crate) fn attribute_at(&self, range: TextRange) -> Option<&'a Attribute> {
        self.view.own_range_holding(self.id, range)?;
        self.file.attribute_at(range)
    }

    /// The nested block written exactly at `range` (its whole range),
    /// inside an own block; refused when `range` is in none.
    pub(crate) fn block_at(&self, range: TextRange) -> Option<&'a Block> {
        self.view.own_range_holding(self.id, range)?;
        self.file.block_at(range)
    }

    /// What deletes `range` cleanly (whole lines when nothing else shares
    /// them), inside an own block; refused when `range` is in none.
    pub(crate) fn removal_range(&self, range: TextRange) -> Option<TextRange> {
        self.view.own_range_holding(self.id, range)?;
        Some(self.file.removal_range(range))
    }

    /// `main.tf:3,1-29` for a range inside an own block, as HCL writes
    /// ranges in details; refused when `range` is in none.
    pub(crate) fn describe(&self, range: TextRange) -> Option<String> {
        self.view.own_range_holding(self.id, range)?;
        Some(self.file.describe(range))
    }
}

/// What a rule on the whole module read through its view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reads {
    /// The files read, each with the end of what was read of it (from its
    /// start; `u32::MAX`: all of it).
    pub(crate) files: HashMap<FileId, u32>,
    pub(crate) identities: HashSet<BlockAddress>,
    pub(crate) locals: HashSet<String>,
    /// The version of the graph's uses it read, if it read them.
    pub(crate) uses: Option<u64>,
    /// The input variables whose value in plan's walk it read (known,
    /// withheld or unknown): a memo of plan's walk holds while each keeps
    /// its value (`plan_values::PlanInputs`).
    pub(crate) variables: HashSet<String>,
}

impl Reads {
    /// Records that `file` was read up to byte `end`.
    pub(crate) fn read_file(&mut self, file: FileId, end: u32) {
        let extent = self.files.entry(file).or_insert(0);
        *extent = (*extent).max(end);
    }

    /// True when what was read of `file` reaches the first byte an edit
    /// changed (`from`, by file; a file not in it changed whole).
    pub(crate) fn read_after(&self, file: FileId, from: &HashMap<FileId, u32>) -> bool {
        self.files
            .get(&file)
            .is_some_and(|&end| end > from.get(&file).copied().unwrap_or(0))
    }
}

/// The merged module, as a rule on all of it reads it: every read is
/// recorded.
pub(crate) struct ModuleView<'a> {
    module: &'a MergedModule,
    /// The names and the module tree (shapes only, and the tree: a rule's
    /// result is reused only under the same tree).
    names: &'a DeclaredNames,
    config: &'a Config,
    uses: &'a Uses<'a>,
    reads: RefCell<Reads>,
    undeclared_variables: RefCell<Vec<UndeclaredVariableUse>>,
    /// The local values one run of the node rules evaluated, when the view
    /// is one of that run's.
    shared_locals: Option<&'a SharedLocals>,
}

/// The local values evaluated in validate's walk during one run of the
/// node rules, each once, with what evaluating it read (so that a node
/// that takes a value from here records the same reads as if it had
/// evaluated it). One analysis of one module: never kept across edits.
#[derive(Default)]
pub(crate) struct SharedLocals {
    entries: RefCell<HashMap<String, SharedLocal>>,
    in_progress: RefCell<HashSet<String>>,
    depth: std::cell::Cell<usize>,
}

/// A local value's value in the walk, whether evaluating it (or a local
/// value it follows) failed, and what that read.
#[derive(Clone)]
pub(crate) struct SharedLocal {
    pub(crate) value: tofu_eval::Value,
    pub(crate) failed: bool,
    pub(crate) reads: Reads,
}

impl SharedLocals {
    pub(crate) fn get(&self, name: &str) -> Option<SharedLocal> {
        self.entries.borrow().get(name).cloned()
    }

    /// Starts evaluating `name`; false when it is being evaluated already
    /// (it reaches itself) or lies too deep.
    pub(crate) fn begin(&self, name: &str) -> bool {
        if self.depth.get() >= tofu_module::local_memo::MAX_LOCAL_DEPTH
            || !self.in_progress.borrow_mut().insert(name.to_owned())
        {
            return false;
        }
        self.depth.set(self.depth.get() + 1);
        true
    }

    pub(crate) fn end(&self, name: &str, local: SharedLocal) {
        self.in_progress.borrow_mut().remove(name);
        self.depth.set(self.depth.get().saturating_sub(1));
        self.entries.borrow_mut().insert(name.to_owned(), local);
    }
}

impl<'a> ModuleView<'a> {
    pub(crate) fn new(
        module: &'a MergedModule,
        names: &'a DeclaredNames,
        config: &'a Config,
        uses: &'a Uses<'a>,
    ) -> Self {
        ModuleView {
            module,
            names,
            config,
            uses,
            reads: RefCell::new(Reads::default()),
            undeclared_variables: RefCell::new(Vec::new()),
            shared_locals: None,
        }
    }

    /// The view, taking local values from (and giving them to) `shared`.
    pub(crate) fn with_shared_locals(mut self, shared: &'a SharedLocals) -> Self {
        self.shared_locals = Some(shared);
        self
    }

    pub(crate) fn shared_locals(&self) -> Option<&'a SharedLocals> {
        self.shared_locals
    }

    /// A fresh view of the same module, recording its own reads.
    pub(crate) fn sub_view(&self) -> ModuleView<'a> {
        ModuleView {
            module: self.module,
            names: self.names,
            config: self.config,
            uses: self.uses,
            reads: RefCell::new(Reads::default()),
            undeclared_variables: RefCell::new(Vec::new()),
            shared_locals: self.shared_locals,
        }
    }

    /// Records `reads` as this view's own.
    pub(crate) fn merge_reads(&self, reads: &Reads) {
        let mut own = self.reads.borrow_mut();
        for (&file, &end) in &reads.files {
            own.read_file(file, end);
        }
        own.identities.extend(reads.identities.iter().cloned());
        own.locals.extend(reads.locals.iter().cloned());
        own.variables.extend(reads.variables.iter().cloned());
        if reads.uses.is_some() {
            own.uses = reads.uses;
        }
    }

    /// The view a rule on one identity has of `node`, for a node rule
    /// that asks what such a rule would decide (whether its references
    /// fail). Its reads are the node's own and the names it asks about:
    /// the node was read through this view, and a node rule's memo does
    /// not outlive a change of shapes.
    pub(crate) fn identity_view(&self, node: MergedNode<'a>) -> IdentityView<'a> {
        IdentityView::new(&self.module.declared, node, self.names)
    }

    /// What the rule read, and the uses of undeclared variables it
    /// recorded.
    pub(crate) fn into_records(self) -> (Reads, Vec<UndeclaredVariableUse>) {
        (
            self.reads.into_inner(),
            self.undeclared_variables.into_inner(),
        )
    }

    /// Records that the rule reports a use of an undeclared input variable
    /// at `at` (for the "Declare variable" fix, `declare_fix`).
    pub(crate) fn record_undeclared_variable(&self, at: Location, name: &str) {
        self.undeclared_variables
            .borrow_mut()
            .push(UndeclaredVariableUse {
                at,
                name: name.to_owned(),
            });
    }

    /// The configuration (a change of it invalidates every result).
    pub(crate) fn config(&self) -> &'a Config {
        self.config
    }

    /// What functions read files through (a new one analyses the module
    /// whole, so it is not recorded).
    pub(crate) fn module_files(&self) -> &'a dyn tofu_eval::Environment {
        self.names.module_files.environment()
    }

    /// A declared resource or module call, with its repetition and its
    /// provider's local name (not recorded: it follows from the shapes).
    pub(crate) fn declared(&self, address: &BlockAddress) -> Option<&'a DeclaredObject> {
        self.names.objects.get(address)
    }

    /// The schema of the provider the local name `local_name` stands for,
    /// when the analysis was given one (not recorded: a result is reused
    /// only under the same schemas and shapes).
    pub(crate) fn provider_schema(&self, local_name: &str) -> Option<&'a ProviderSchema> {
        self.names.providers.schema(local_name).1
    }

    /// Which provider each local name stands for, and the schemas given
    /// (not recorded, as [`Self::provider_schema`]).
    pub(crate) fn provider_names(&self) -> &'a tofu_module::provider_schemas::ProviderNames {
        &self.names.providers
    }

    /// The provider function `name` (`provider::NAME::FUNCTION`) from its
    /// provider's schema (not recorded, as [`Self::provider_schema`]).
    pub(crate) fn provider_function(&self, name: &str) -> Option<tofu_eval::ProviderFunction> {
        self.names.providers.function(name)
    }

    /// The declarations index (shapes only).
    pub(crate) fn declarations(&self) -> &'a Declarations {
        &self.module.declarations
    }

    /// The top-level `kind` blocks among those that declare nothing
    /// (`moved`, `import`, `removed`), in the declarations index's order:
    /// which blocks they are is part of the shapes (not recorded); each one
    /// handed out records its file up to its end, as [`Self::block`].
    pub(crate) fn undeclaring_blocks(&self, kind: &str) -> Vec<(BlockRef, &'a Block)> {
        let mut found = Vec::new();
        for &block_ref in &self.module.declarations.other {
            let Some(block) = self.module.block(block_ref) else {
                continue;
            };
            if block.kind == kind {
                self.reads
                    .borrow_mut()
                    .read_file(block_ref.file, block.range.end);
                found.push((block_ref, block));
            }
        }
        found
    }

    /// Primary files in loading order (names only).
    pub(crate) fn primary_files(&self) -> &'a [FileId] {
        &self.module.primary
    }

    /// Every file id, loaded or not (names only).
    pub(crate) fn file_ids(&self) -> impl Iterator<Item = FileId> + 'a {
        (0..self.module.files.len()).map(|index| FileId(tofu_syntax::text::to_u32(index)))
    }

    /// A file's name (not recorded: names are fixed while results are reused).
    pub(crate) fn name(&self, file: FileId) -> Option<&'a str> {
        self.module.file(file).map(|file| file.name.as_str())
    }

    /// A file's role (likewise).
    pub(crate) fn role(&self, file: FileId) -> Option<FileRole> {
        self.module.file(file).map(|file| file.role)
    }

    /// Whether part of a file could not be read or parsed (part of its
    /// shape: not recorded).
    pub(crate) fn is_incomplete(&self, file: FileId) -> bool {
        self.module
            .file(file)
            .is_some_and(|file| file.is_incomplete())
    }

    /// Which declarations other nodes' references use (recorded, by the
    /// graph's version of them).
    pub(crate) fn uses(&self) -> &'a Uses<'a> {
        self.reads.borrow_mut().uses = Some(self.uses.version());
        self.uses
    }

    /// A file, whole (recorded).
    pub(crate) fn file(&self, file: FileId) -> Option<&'a ModuleFile> {
        self.reads.borrow_mut().read_file(file, u32::MAX);
        self.module.file(file)
    }

    /// A file, of which the caller reads only what lies before byte `end`
    /// (a definition at an origin, and what comes before it: recorded so).
    pub(crate) fn file_to(&self, file: FileId, end: u32) -> Option<&'a ModuleFile> {
        self.reads.borrow_mut().read_file(file, end);
        self.module.file(file)
    }

    /// Whether a file is JSON (its name: not recorded).
    pub(crate) fn is_json(&self, file: FileId) -> bool {
        self.module.file(file).is_some_and(ModuleFile::is_json)
    }

    /// The top-level blocks of one kind in `file`; the file is recorded when
    /// it has any (which kinds a file holds is part of its shape).
    pub(crate) fn blocks_of_kinds(
        &self,
        file: FileId,
        kinds: &[&str],
    ) -> Vec<(BlockRef, &'a Block)> {
        let Some(source) = self
            .module
            .file(file)
            .and_then(|module_file| module_file.source.as_deref())
        else {
            return Vec::new();
        };
        let found: Vec<(BlockRef, &'a Block)> = source
            .body
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, block)| kinds.contains(&block.kind.as_str()))
            .map(|(index, block)| {
                let block_ref = BlockRef {
                    file,
                    index,
                    nested: None,
                };
                (block_ref, block)
            })
            .collect();
        if let Some(end) = found.iter().map(|(_, block)| block.range.end).max() {
            self.reads.borrow_mut().read_file(file, end);
        }
        found
    }

    /// A block of the module (its file is recorded).
    pub(crate) fn block(&self, block: BlockRef) -> Option<&'a Block> {
        let found = self.module.block(block);
        let end = found.map_or(u32::MAX, |found| found.range.end);
        self.reads.borrow_mut().read_file(block.file, end);
        found
    }

    /// The effective block of an identity (recorded).
    pub(crate) fn effective(&self, address: &BlockAddress) -> Option<&'a EffectiveBlock> {
        self.reads.borrow_mut().identities.insert(address.clone());
        self.module.effective.get(address)
    }

    /// [`ModuleView::effective`], as the analysis shares it: what a cache
    /// kept across analyses holds on to (the same `Arc` while no edit
    /// touched the identity).
    pub(crate) fn effective_shared(
        &self,
        address: &BlockAddress,
    ) -> Option<&'a std::sync::Arc<EffectiveBlock>> {
        self.reads.borrow_mut().identities.insert(address.clone());
        self.module.effective.shared(address)
    }

    /// Whether resource `address` sets a `provider` argument in one of its
    /// blocks (true when it is not declared). Not recorded: it follows from
    /// the shapes, and the module rules' results hold only while every
    /// shape is kept.
    pub(crate) fn sets_provider(&self, address: &BlockAddress) -> bool {
        self.names
            .objects
            .get(address)
            .is_none_or(|object| object.provider_argument)
    }

    /// The effective blocks whose address satisfies `wanted`, each recorded
    /// (which identities exist is part of the shapes).
    pub(crate) fn effective_blocks(
        &self,
        wanted: impl Fn(&BlockAddress) -> bool,
    ) -> Vec<&'a EffectiveBlock> {
        let found: Vec<&'a EffectiveBlock> = self
            .module
            .effective
            .blocks
            .iter()
            .map(|block| &**block)
            .filter(|block| wanted(&block.address))
            .collect();
        let mut reads = self.reads.borrow_mut();
        reads
            .identities
            .extend(found.iter().map(|block| block.address.clone()));
        found
    }

    /// The effective local values whose name satisfies `wanted`, each
    /// recorded (which local values exist is part of the shapes).
    pub(crate) fn effective_locals(
        &self,
        wanted: impl Fn(&str) -> bool,
    ) -> Vec<&'a EffectiveLocal> {
        let found: Vec<&'a EffectiveLocal> = self
            .module
            .effective
            .locals
            .iter()
            .map(|local| &**local)
            .filter(|local| wanted(&local.name))
            .collect();
        let mut reads = self.reads.borrow_mut();
        reads
            .locals
            .extend(found.iter().map(|local| local.name.clone()));
        found
    }

    /// Records that plan's walk read input variable `name`'s value.
    pub(crate) fn read_plan_variable(&self, name: &str) {
        self.reads.borrow_mut().variables.insert(name.to_owned());
    }

    /// The effective local value `name` (recorded).
    pub(crate) fn local(&self, name: &str) -> Option<&'a EffectiveLocal> {
        self.reads.borrow_mut().locals.insert(name.to_owned());
        self.module.effective.local(name)
    }

    /// What the module tree says the directory of module call `name`
    /// declares (not recorded: a result is reused only under the same tree
    /// and the same shapes, which name the calls and their sources).
    pub(crate) fn child(&self, name: &str) -> Option<&'a ModuleInterface> {
        self.names.children.get(name).map(|child| &**child)
    }

    /// Whether module call `name` leads back up the tree (likewise).
    pub(crate) fn loops(&self, name: &str) -> bool {
        self.names.loops.contains(name)
    }

    /// What the module tree says the directory a test run's `module`
    /// block names by `source` declares (likewise: the tree is given, and
    /// the source is read from the test file, whose reads are recorded).
    pub(crate) fn test_module(&self, source: &str) -> Option<&'a ModuleInterface> {
        self.names.test_modules.get(source).map(|module| &**module)
    }

    /// The directory module call `name` names, relative to this one: its
    /// local source, or where `tofu init` installed it (likewise).
    pub(crate) fn child_dir(&self, name: &str, source: Option<&str>) -> Option<String> {
        source
            .and_then(local_source)
            .or_else(|| self.names.installed.get(name).cloned())
    }

    /// The synthesized `terraform` settings; the files of every `terraform`
    /// block that contributed are recorded.
    pub(crate) fn terraform(&self) -> &'a EffectiveTerraform {
        let terraform = &self.module.effective.terraform;
        let mut reads = self.reads.borrow_mut();
        for &block in &terraform.blocks {
            let end = self
                .module
                .block(block)
                .map_or(u32::MAX, |found| found.range.end);
            reads.read_file(block.file, end);
        }
        terraform
    }

    /// `main.tf:3,1-29` for a location (its file recorded).
    pub(crate) fn describe(&self, location: tofu_syntax::Location) -> String {
        self.reads.borrow_mut().read_file(
            location.file,
            location.range.map_or(u32::MAX, |range| range.end),
        );
        self.module.describe(location)
    }
}

//! The values `tofu validate`'s walk knows, read through a rule's
//! [`ModuleView`] (so every local value, variable and file it reads is
//! recorded): a `tofu_eval::Scope` for rules that judge what an expression
//! evaluates to, not only whether it evaluates (`sensitive-output`).
//!
//! As validate evaluates (`evaluate.go`, `walkValidate`): `var.NAME` is an
//! unknown value of the variable's type, marked sensitive and ephemeral as
//! declared (its default and `.tfvars` values are not used);
//! `local.NAME` is its effective definition evaluated in the same scope
//! (each at most once per [`WalkValues`]; one that reaches itself or lies
//! deeper than [`MAX_LOCAL_DEPTH`](tofu_module::local_memo::MAX_LOCAL_DEPTH) is unknown); `path.module` and
//! `path.root` are `.`, `terraform.workspace` is `default`;
//! `ephemeral.TYPE.NAME` is unknown and marked ephemeral (validate never
//! opens an ephemeral resource). A resource or data source without
//! `count` or `for_each` whose provider's schema is at hand is an unknown
//! value of the schema's type (so `length(time_static.t.year)` fails, as
//! in validate); without `enabled`, when the schema marks attributes
//! sensitive, an object of unknown attributes, those marked (as
//! `GetResource` builds it with `schema.ValueMarks`; nested blocks are
//! unknown, so a sensitive attribute inside one is not marked).
//! Everything else is an unknown value of any type with no marks: other
//! resources and data sources (repeated, or without a schema), module outputs (validate expands no module
//! call, so a child's `sensitive = true` output is read unmarked, as
//! OpenTofu 1.12.6 shows), `path.cwd`, `count`, `each`, `self`.
//!
//! Whether the evaluation of any local value it followed reported an error
//! is kept ([`WalkValues::followed_a_failure`]): OpenTofu reports that
//! error at the local value and never evaluates what depends on it, so a
//! rule judging the value says nothing then. A local value written in a
//! JSON file is evaluated with HCL's JSON semantics (its strings are
//! templates: `tofu_module::expr::json`).

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;

use tofu_eval::{evaluate, Environment, EvalDiagnostic, Evaluation, Marks, Reference, Referenced};
use tofu_eval::{Scope, Type, Value};
use tofu_syntax::{Expr, FileId, TextRange, TraversalStep};

use crate::rules::provider_schema::schema_mode;
use crate::rules::views::{ModuleView, SharedLocal, SharedLocals, VariableArguments};
use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::effective::{EffectiveAttribute, EffectiveBlock};
use tofu_module::expr::json::json_expression;
use tofu_module::local_memo::LocalMemo;
use tofu_module::shape::Repetition;
use tofu_module::types::declared_true;

/// The walk's values, evaluated on demand through a recording view.
pub(crate) struct WalkValues<'v, 'a> {
    view: &'v ModuleView<'a>,
    /// Each local value evaluated, and whether its evaluation followed a
    /// failure (told again to every later reader).
    locals: LocalMemo<(Value, bool)>,
    followed_a_failure: Cell<bool>,
    /// Input variables whose value is known, as `tofu plan` knows them
    /// (`plan_values`); empty in validate's walk.
    known_variables: std::rc::Rc<BTreeMap<String, Value>>,
    /// Input variables whose validation failed in plan: read, they are
    /// unknown and count as a failure followed (plan evaluates nothing
    /// that depends on them).
    withheld: std::collections::BTreeSet<String>,
    /// The instance of a repeated block whose expressions are evaluated
    /// ([`WalkValues::in_instance`]): `count.index`, `each.key` and
    /// `each.value` are its; unknown otherwise.
    instance: std::cell::RefCell<Option<Instance>>,
    /// `self` in a resource's postconditions ([`WalkValues::with_self`]);
    /// unknown otherwise.
    own_object: std::cell::RefCell<Option<Value>>,
    /// Plan's walk ([`WalkValues::with_known_variables`]).
    plan: bool,
    /// `output.NAME` is the module's output value, as a `tofu test`
    /// assertion reads it ([`WalkValues::reading_outputs`]).
    outputs: bool,
}

/// One instance of a block repeated by `count` or `for_each` whose keys
/// plan knows.
#[derive(Clone, Debug)]
pub(crate) enum Instance {
    Count(i64),
    Each { key: String, value: Value },
}

impl<'v, 'a> WalkValues<'v, 'a> {
    pub(crate) fn new(view: &'v ModuleView<'a>) -> Self {
        WalkValues {
            view,
            locals: LocalMemo::new(),
            followed_a_failure: Cell::new(false),
            known_variables: std::rc::Rc::default(),
            withheld: std::collections::BTreeSet::new(),
            instance: std::cell::RefCell::new(None),
            own_object: std::cell::RefCell::new(None),
            plan: false,
            outputs: false,
        }
    }

    /// The same walk, where `output.NAME` reads the module's output value
    /// (a `tofu test` assertion's scope).
    pub(crate) fn reading_outputs(mut self) -> Self {
        self.outputs = true;
        self
    }

    /// `output.NAME`'s value: its `value` evaluated in the walk, marked
    /// sensitive as declared; unknown when it is not declared or fails to
    /// evaluate (a failure followed).
    fn output(&self, name: &str) -> Value {
        let Some(block) = self.view.effective(&BlockAddress::Output(name.to_owned())) else {
            return Value::dynamic_unknown();
        };
        let Some(attribute) = block.body.attribute("value") else {
            return Value::dynamic_unknown();
        };
        let Some(expr) = self.expression(attribute) else {
            return Value::dynamic_unknown();
        };
        let evaluation = self.evaluate_in(attribute.origin.file, &expr);
        if !evaluation.diagnostics.is_empty() {
            self.followed_a_failure.set(true);
            return Value::dynamic_unknown();
        }
        let sensitive = block.body.attribute("sensitive").is_some_and(|attribute| {
            self.view
                .file(attribute.origin.file)
                .and_then(|file| {
                    let written = file.attribute_at(attribute.origin.range)?;
                    let syntax = file.source.as_ref()?.syntax;
                    Some(declared_true(&written.expr, syntax))
                })
                .unwrap_or(false)
        });
        if sensitive {
            evaluation.value.mark_sensitive()
        } else {
            evaluation.value
        }
    }

    /// Runs `f` with `self` the value `own`.
    pub(crate) fn with_self<R>(&self, own: Value, f: impl FnOnce() -> R) -> R {
        let before = self.own_object.replace(Some(own));
        let result = f();
        self.own_object.replace(before);
        result
    }

    /// The object plan plans for the managed resource `block` (in the
    /// current instance), as its postconditions read it as `self`: an
    /// argument of its provider's schema that the provider may not change
    /// (not computed) has the value the configuration gives it, or null;
    /// every other attribute and every nested block is unknown, marked
    /// sensitive as the schema marks it. Unknown as a whole without the
    /// schema or when an argument does not evaluate.
    pub(crate) fn planned_object(&self, block: &EffectiveBlock) -> Value {
        self.planned_attributes(block)
            .unwrap_or_else(Value::dynamic_unknown)
    }

    fn planned_attributes(&self, block: &EffectiveBlock) -> Option<Value> {
        let BlockAddress::Resource {
            mode, type_name, ..
        } = &block.address
        else {
            return None;
        };
        let declared = self.view.declared(&block.address)?;
        let schema = self
            .view
            .provider_schema(&declared.provider)?
            .schema_for(schema_mode(*mode), type_name)?;
        let schema = &schema.block;
        let Type::Object(object) = schema.implied_type() else {
            return None;
        };
        let mut attributes = BTreeMap::new();
        for (name, ty) in object.attributes() {
            let argument = schema.attributes.get(name);
            let value = match argument {
                Some(argument) if argument.write_only => Value::null(ty.clone()),
                Some(argument) if !argument.computed => match block.body.attribute(name) {
                    Some(attribute) => {
                        let expr = self.expression(attribute)?;
                        let evaluation = self.evaluate_in(attribute.origin.file, &expr);
                        if !evaluation.diagnostics.is_empty() {
                            return None;
                        }
                        tofu_eval::convert::convert(&evaluation.value, ty)
                            .unwrap_or_else(|_| Value::unknown(ty.clone()))
                    }
                    None => Value::null(ty.clone()),
                },
                _ => Value::unknown(ty.clone()),
            };
            let value = if argument.is_some_and(|argument| argument.sensitive) {
                value.mark_sensitive()
            } else {
                value
            };
            attributes.insert(name.to_string(), value);
        }
        Some(Value::object(attributes))
    }

    /// Runs `f` with the expressions it evaluates in `instance`.
    pub(crate) fn in_instance<R>(&self, instance: Option<Instance>, f: impl FnOnce() -> R) -> R {
        let before = self.instance.replace(instance);
        let result = f();
        self.instance.replace(before);
        result
    }

    /// The walk of `tofu plan` before it contacts a provider: the input
    /// variables of `known` have those values (every other one is unknown
    /// of its type, as in validate), and local values are evaluated with
    /// them, never taken from the run's values shared by validate's rules.
    pub(crate) fn with_known_variables(
        view: &'v ModuleView<'a>,
        known: impl Into<std::rc::Rc<BTreeMap<String, Value>>>,
    ) -> Self {
        WalkValues {
            known_variables: known.into(),
            plan: true,
            ..WalkValues::new(view)
        }
    }

    /// The same walk, with the variables of `failed` withheld: reading one
    /// is a failure followed ([`WalkValues::followed_a_failure`]).
    pub(crate) fn withholding(mut self, failed: impl IntoIterator<Item = String>) -> Self {
        self.withheld.extend(failed);
        self
    }

    /// Evaluates `expr`, written in `file`.
    pub(crate) fn evaluate_in(&self, file: FileId, expr: &Expr) -> Evaluation {
        evaluate(expr, &FileScope { values: self, file })
    }

    /// The expression of an effective attribute as written where it won,
    /// as HCL evaluates it (in a JSON file, read with HCL's JSON
    /// semantics: `tofu_module::expr::json`).
    pub(crate) fn expression(&self, attribute: &EffectiveAttribute) -> Option<Cow<'a, Expr>> {
        let file = self.view.file(attribute.origin.file)?;
        let written = &file.attribute_at(attribute.origin.range)?.expr;
        if file.is_json() {
            return Some(Cow::Owned(json_expression(file.text.as_ref(), written)));
        }
        Some(Cow::Borrowed(written))
    }

    /// Runs `f` as a node of its own (a module call's argument, which
    /// OpenTofu evaluates apart from the call's other arguments): whether
    /// it followed a failure is returned, and not kept for what comes
    /// after. The local values already evaluated are shared.
    pub(crate) fn separately<R>(&self, f: impl FnOnce() -> R) -> (R, bool) {
        let before = self.followed_a_failure.replace(false);
        let result = f();
        let failed = self.followed_a_failure.replace(before);
        (result, failed)
    }

    /// Whether this is plan's walk, which knows input variables' values
    /// (possibly none: every one withheld or unknown).
    pub(crate) fn knows_variables(&self) -> bool {
        self.plan
    }

    /// Whether a local value followed so far failed to evaluate.
    pub(crate) fn followed_a_failure(&self) -> bool {
        self.followed_a_failure.get()
    }

    /// `local.NAME`'s value in the walk, `None` when evaluating it (or a
    /// local value it follows) failed: OpenTofu never evaluates what reads
    /// it then.
    pub(crate) fn known_local(&self, name: &str) -> Option<Value> {
        let value = self.local(name);
        (!self.followed_a_failure()).then_some(value)
    }

    /// `local.NAME`: unknown when the module declares no such local value.
    fn local(&self, name: &str) -> Value {
        if let Some(shared) = self.view.shared_locals().filter(|_| !self.plan) {
            return self.shared_local(shared, name);
        }
        let (value, failed) = self
            .locals
            .value(name, (Value::dynamic_unknown(), false), || {
                let before = self.followed_a_failure.replace(false);
                let value = self.definition_value(name);
                let failed = self.followed_a_failure.replace(before);
                (value, failed)
            });
        if failed {
            self.followed_a_failure.set(true);
        }
        value
    }

    /// The value of local value `name`'s definition; a failure is noted.
    fn definition_value(&self, name: &str) -> Value {
        let Some(local) = self.view.local(name) else {
            return Value::dynamic_unknown();
        };
        let Some(expr) = self.expression(&local.attribute) else {
            return Value::dynamic_unknown();
        };
        let evaluation = self.evaluate_in(local.attribute.origin.file, &expr);
        if evaluation.diagnostics.is_empty() {
            evaluation.value
        } else {
            self.followed_a_failure.set(true);
            Value::dynamic_unknown()
        }
    }

    /// `local.NAME` from the run's shared values: evaluated once, in a
    /// view of its own, whose reads every reader records as its own.
    fn shared_local(&self, shared: &SharedLocals, name: &str) -> Value {
        let taken = shared.get(name).or_else(|| {
            if !shared.begin(name) {
                return None;
            }
            let sub = self.view.sub_view();
            let values = WalkValues::new(&sub);
            let value = values.definition_value(name);
            let failed = values.followed_a_failure();
            drop(values);
            let (reads, _) = sub.into_records();
            let local = SharedLocal {
                value,
                failed,
                reads,
            };
            shared.end(name, local.clone());
            Some(local)
        });
        let Some(local) = taken else {
            // It reaches itself, or lies too deep: unknown, as the memo
            // cuts it off.
            self.view.local(name);
            return Value::dynamic_unknown();
        };
        self.view.merge_reads(&local.reads);
        if local.failed {
            self.followed_a_failure.set(true);
        }
        local.value
    }

    /// `var.NAME`: an unknown value of its type, marked as declared;
    /// unknown of any type when the module declares no such variable.
    fn variable(&self, name: &str) -> Value {
        if self.plan {
            // Plan's walk: what it found holds while this value does.
            self.view.read_plan_variable(name);
        }
        if self.withheld.contains(name) {
            self.followed_a_failure.set(true);
        }
        if let Some(known) = self.known_variables.get(name) {
            // Recorded as a read of the variable, as the unknown one is.
            self.view
                .effective(&BlockAddress::Variable(name.to_owned()));
            return known.clone();
        }
        let Some(variable) = self
            .view
            .effective(&BlockAddress::Variable(name.to_owned()))
        else {
            return Value::dynamic_unknown();
        };
        let written = |name: &str| {
            let attribute = variable.body.attribute(name)?;
            let file = self.view.file(attribute.origin.file)?;
            Some((file, &file.attribute_at(attribute.origin.range)?.expr))
        };
        VariableArguments {
            ty: written("type"),
            sensitive: written("sensitive"),
            ephemeral: written("ephemeral"),
        }
        .walk_value()
    }

    /// A resource or data source without `count` or `for_each` whose
    /// provider's schema is at hand, as `GetResource` gives it in validate:
    /// an unknown value of the schema's type, or, when the schema marks
    /// attributes sensitive and the block sets no `enabled`, an object of
    /// unknown attributes, those marked. `None` for anything else (unknown
    /// of any type, unmarked).
    fn resource(&self, address: &BlockAddress) -> Option<Value> {
        let BlockAddress::Resource {
            mode, type_name, ..
        } = address
        else {
            return None;
        };
        let declared = self.view.declared(address)?;
        if declared.repetition != Repetition::Single {
            return None;
        }
        let schema = self
            .view
            .provider_schema(&declared.provider)?
            .schema_for(schema_mode(*mode), type_name)?;
        let block = &schema.block;
        let marks_attributes = block
            .attributes
            .iter()
            .any(|(_, attribute)| attribute.sensitive);
        if !marks_attributes || self.is_conditional(address) {
            return Some(Value::unknown(block.implied_type()));
        }
        let Type::Object(object) = block.implied_type() else {
            return None;
        };
        let attributes: BTreeMap<String, Value> = object
            .attributes()
            .iter()
            .map(|(name, ty)| {
                let sensitive = block
                    .attributes
                    .get(name)
                    .is_some_and(|attribute| attribute.sensitive);
                let value = Value::unknown(ty.clone());
                let value = if sensitive {
                    value.mark_sensitive()
                } else {
                    value
                };
                (name.to_string(), value)
            })
            .collect();
        Some(Value::object(attributes))
    }

    /// Whether a resource sets `enabled` (in `lifecycle`, or a data
    /// source's own): validate reads it unknown and unmarked.
    fn is_conditional(&self, address: &BlockAddress) -> bool {
        let Some(effective) = self.view.effective(address) else {
            return false;
        };
        effective.body.attribute("enabled").is_some()
            || effective.body.blocks.iter().any(|nested| {
                nested.kind == "lifecycle" && nested.body.attribute("enabled").is_some()
            })
    }

    /// Whether the block sets the bool argument `name` to true, as
    /// OpenTofu decodes it while loading ([`declared_true`]).
    pub(crate) fn is_set(&self, block: &EffectiveBlock, name: &str) -> bool {
        let Some(attribute) = block.body.attribute(name) else {
            return false;
        };
        let Some(file) = self.view.file(attribute.origin.file) else {
            return false;
        };
        file.attribute_at(attribute.origin.range)
            .is_some_and(|written| declared_true(&written.expr, file.syntax()))
    }
}

/// The roots of references that do not name a managed resource.
const NOT_RESOURCES: [&str; 10] = [
    "var",
    "local",
    "module",
    "data",
    "ephemeral",
    "path",
    "terraform",
    "count",
    "each",
    "self",
];

fn resource(mode: ResourceMode, type_name: &str, name: &str) -> BlockAddress {
    BlockAddress::Resource {
        mode,
        type_name: type_name.to_owned(),
        name: name.to_owned(),
    }
}

impl FileScope<'_, '_, '_> {
    /// An unknown value of any type for the whole reference.
    fn unknown(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        Ok(Referenced {
            value: Value::dynamic_unknown(),
            n_steps: reference.steps.len(),
        })
    }
}

/// The scope of one file's expressions: references resolve in the module,
/// ranges are described in that file.
struct FileScope<'w, 'v, 'a> {
    values: &'w WalkValues<'v, 'a>,
    file: FileId,
}

impl Scope for FileScope<'_, '_, '_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let first = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let named = |value: Value| Ok(Referenced { value, n_steps: 1 });
        match (reference.root, first) {
            ("local", Some(name)) => named(self.values.local(name)),
            ("var", Some(name)) => named(self.values.variable(name)),
            ("path", Some("module" | "root")) => named(Value::string(".")),
            ("terraform", Some("workspace")) => named(Value::string("default")),
            // Only a test file's assertion reads `output.NAME`.
            ("output", Some(name))
                if self.values.outputs
                    && self.values.view.role(self.file)
                        == Some(tofu_module::loaded::FileRole::Test) =>
            {
                named(self.values.output(name))
            }
            ("self", _) => match &*self.values.own_object.borrow() {
                Some(own) => Ok(Referenced {
                    value: own.clone(),
                    n_steps: 0,
                }),
                None => self.unknown(reference),
            },
            ("count" | "each", Some(name)) => match (&*self.values.instance.borrow(), name) {
                (Some(Instance::Count(index)), "index") => named(Value::int(*index)),
                (Some(Instance::Each { key, .. }), "key") => named(Value::string(key)),
                (Some(Instance::Each { value, .. }), "value") => named(value.clone()),
                _ => self.unknown(reference),
            },
            ("data", Some(type_name)) => {
                let name = match reference.steps.get(1) {
                    Some(TraversalStep::Attr { name, .. }) => name,
                    _ => return self.unknown(reference),
                };
                let address = resource(ResourceMode::Data, type_name, name);
                match self.values.resource(&address) {
                    Some(value) => Ok(Referenced { value, n_steps: 2 }),
                    None => self.unknown(reference),
                }
            }
            (root, Some(name)) if !NOT_RESOURCES.contains(&root) => {
                let address = resource(ResourceMode::Managed, root, name);
                match self.values.resource(&address) {
                    Some(value) => named(value),
                    None => self.unknown(reference),
                }
            }
            ("ephemeral", _) => Ok(Referenced {
                value: Value::dynamic_unknown().with_marks(Marks {
                    sensitive: false,
                    ephemeral: true,
                }),
                n_steps: reference.steps.len(),
            }),
            _ => self.unknown(reference),
        }
    }

    fn environment(&self) -> &dyn Environment {
        self.values.view.module_files()
    }

    fn provider_function(&self, name: &str) -> Option<tofu_eval::ProviderFunction> {
        self.values.view.provider_function(name)
    }

    fn describe_range(&self, range: TextRange) -> String {
        self.values
            .view
            .file(self.file)
            .map(|file| file.describe(range))
            .unwrap_or_default()
    }
}

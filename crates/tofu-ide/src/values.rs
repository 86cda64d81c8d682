//! Values where people read: the value of a local value, an input variable
//! or an output, as `tofu console` prints it in the module directory
//! (`tofu_eval::format_value`), for hover.
//!
//! A [`ModuleValues`] is a `tofu_eval::Scope` over the module's merged
//! configuration: `local.NAME` is its effective definition evaluated (each
//! local at most once per hover, a local that reaches itself or lies
//! deeper than [`MAX_LOCAL_DEPTH`] is unknown); `var.NAME` is the value the
//! last `.tfvars` file OpenTofu loads by itself sets (`terraform.tfvars`,
//! `terraform.tfvars.json`, then `*.auto.tfvars` and `*.auto.tfvars.json`
//! by name), else its default, else unknown, converted to its type and
//! marked sensitive or ephemeral as declared; `path.module` and
//! `path.root` are `.`, `path.cwd` the module directory, and
//! `terraform.workspace` is `default`. Everything else (resources, data,
//! module outputs, `count`, `each`) is unknown, as before apply. Functions
//! that read files get no files (their result is unknown): the engine does
//! no IO. Only what the hovered name needs is evaluated, so a hover costs
//! what its expression reaches, not the module's size.
//!
//! Left out: the defaults of `optional(T, DEFAULT)` attributes (a variable
//! whose type has them is unknown), `-var` and `-var-file`, environment
//! variables (`TF_VAR_*`), and checking references (validation reports
//! those): an undeclared name is unknown here.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;

use tofu_eval::{
    evaluate, format_value, Environment, EvalDiagnostic, Marks, NoFiles, Reference, Referenced,
    Scope, Type, Value,
};
use tofu_module::reference_sites::RefTarget;
use tofu_module::types::{parse_variable_type, TypeConstraint};
use tofu_module::{BlockAddress, EffectiveAttribute, EffectiveBlock, FileRole, ModuleAnalysis};
use tofu_syntax::{Expr, ExprKind, FileId, Syntax, TextRange, TraversalStep};

/// How many local values may lie between the hovered name and the one
/// being evaluated before the rest is unknown (keeps the stack bounded).
const MAX_LOCAL_DEPTH: usize = 64;

/// The paragraph hover adds for `target`: its value as `tofu console`
/// prints it, and where a variable's value comes from. `None` for other
/// targets, and when evaluating gives errors (validation reports them).
/// `markdown` with the value paragraph for `target` below a rule, if any.
pub(crate) fn with_value_note(
    mut markdown: String,
    analysis: &ModuleAnalysis,
    dir: &Path,
    target: &RefTarget,
) -> String {
    if let Some(note) = value_note(analysis, dir, target) {
        markdown.push_str("\n---\n\n");
        markdown.push_str(&note);
    }
    markdown
}

fn value_note(analysis: &ModuleAnalysis, dir: &Path, target: &RefTarget) -> Option<String> {
    let values = ModuleValues::new(analysis, dir);
    let (value, source) = match target {
        RefTarget::Local(name) => (values.local(name).ok()?, None),
        RefTarget::Variable(name) => {
            let (value, source) = values.variable(name);
            (value.ok()?, Some(source))
        }
        RefTarget::Output(name) => (values.output(name)?.ok()?, None),
        _ => return None,
    };
    let heading = match source {
        Some(VariableSource::Values(file)) => format!("Value (set in `{file}`)"),
        Some(VariableSource::Default) => "Value (its default)".to_owned(),
        Some(VariableSource::Unset) => "Value (no default, no `.tfvars` file sets it)".to_owned(),
        None => "Value".to_owned(),
    };
    Some(format!(
        "{heading}, as `tofu console` prints it:\n\n```hcl\n{}\n```\n",
        format_value(&value)
    ))
}

/// Where a variable's value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum VariableSource {
    /// The last `.tfvars` file OpenTofu loads by itself that sets it.
    Values(String),
    Default,
    Unset,
}

/// The outcome of evaluating something: its value, or the errors (their
/// summaries, in HCL's shape, to pass up to whatever referred to it).
type Evaluated = Result<Value, Vec<EvalDiagnostic>>;

/// A local value being evaluated, or evaluated.
enum LocalState {
    InProgress,
    Done(Evaluated),
}

/// The module's values, evaluated on demand (see the module doc).
struct ModuleValues<'a> {
    analysis: &'a ModuleAnalysis,
    dir: &'a Path,
    locals: RefCell<BTreeMap<String, LocalState>>,
    depth: RefCell<usize>,
}

/// The scope of one file's expressions: references resolve in the module,
/// ranges are described in that file.
struct FileScope<'v, 'a> {
    values: &'v ModuleValues<'a>,
    file: FileId,
}

impl<'a> ModuleValues<'a> {
    fn new(analysis: &'a ModuleAnalysis, dir: &'a Path) -> Self {
        ModuleValues {
            analysis,
            dir,
            locals: RefCell::new(BTreeMap::new()),
            depth: RefCell::new(0),
        }
    }

    fn evaluate_in(&self, file: FileId, expr: &Expr) -> Evaluated {
        let evaluation = evaluate(expr, &FileScope { values: self, file });
        if evaluation.diagnostics.is_empty() {
            Ok(evaluation.value)
        } else {
            Err(evaluation.diagnostics)
        }
    }

    /// The expression of an effective attribute, as written where it won.
    fn attribute_expr(&self, attribute: &EffectiveAttribute) -> Option<&'a Expr> {
        let file = self.analysis.file(attribute.origin.file)?;
        Some(&file.attribute_at(attribute.origin.range)?.expr)
    }

    fn local(&self, name: &str) -> Evaluated {
        match self.locals.borrow().get(name) {
            Some(LocalState::Done(evaluated)) => return evaluated.clone(),
            Some(LocalState::InProgress) => return Ok(Value::dynamic_unknown()),
            None => {}
        }
        let Some(local) = self.analysis.effective.local(name) else {
            return Ok(Value::dynamic_unknown());
        };
        let Some(expr) = self.attribute_expr(&local.attribute) else {
            return Ok(Value::dynamic_unknown());
        };
        if *self.depth.borrow() >= MAX_LOCAL_DEPTH {
            return Ok(Value::dynamic_unknown());
        }
        self.locals
            .borrow_mut()
            .insert(name.to_owned(), LocalState::InProgress);
        *self.depth.borrow_mut() += 1;
        let evaluated = self.evaluate_in(local.attribute.origin.file, expr);
        *self.depth.borrow_mut() -= 1;
        self.locals
            .borrow_mut()
            .insert(name.to_owned(), LocalState::Done(evaluated.clone()));
        evaluated
    }

    fn variable(&self, name: &str) -> (Evaluated, VariableSource) {
        let address = BlockAddress::Variable(name.to_owned());
        let Some(variable) = self.analysis.effective.get(&address) else {
            return (Ok(Value::dynamic_unknown()), VariableSource::Unset);
        };
        let Some(constraint) = self.variable_type(variable) else {
            return (Ok(Value::dynamic_unknown()), VariableSource::Unset);
        };
        let (given, source) = match self.values_file_setting(name) {
            Some((file, expr, file_name)) => (
                self.evaluate_in(file, expr),
                VariableSource::Values(file_name),
            ),
            None => match variable
                .body
                .attribute("default")
                .and_then(|default| Some((default.origin.file, self.attribute_expr(default)?)))
            {
                Some((file, expr)) => (self.evaluate_in(file, expr), VariableSource::Default),
                None => (
                    Ok(Value::unknown(constraint.clone())),
                    VariableSource::Unset,
                ),
            },
        };
        let converted = given.and_then(|value| {
            tofu_eval::convert::convert(&value, &constraint).map_err(|error| {
                vec![EvalDiagnostic::new(
                    "Invalid value for input variable",
                    error.message,
                    TextRange::default(),
                )]
            })
        });
        let marks = Marks {
            sensitive: self.is_true(variable, "sensitive"),
            ephemeral: self.is_true(variable, "ephemeral"),
        };
        (converted.map(|value| value.with_marks(marks)), source)
    }

    /// The variable's type constraint as a type; `None` when it has
    /// defaults for optional attributes, which this does not apply.
    fn variable_type(&self, variable: &EffectiveBlock) -> Option<Type> {
        let Some(attribute) = variable.body.attribute("type") else {
            return Some(Type::Dynamic);
        };
        let file = self.analysis.file(attribute.origin.file)?;
        let expr = self.attribute_expr(attribute)?;
        let syntax = if file.is_json() {
            Syntax::Json
        } else {
            Syntax::Native
        };
        let parsed = parse_variable_type(expr, syntax, file.text.as_ref());
        type_of_constraint(&parsed.constraint)
    }

    /// The expression the last `.tfvars` file OpenTofu loads by itself
    /// gives `name`, with that file.
    fn values_file_setting(&self, name: &str) -> Option<(FileId, &'a Expr, String)> {
        let mut loaded: Vec<(u8, &str, FileId, &'a tofu_module::ModuleFile)> = self
            .analysis
            .files
            .iter()
            .enumerate()
            .filter(|(_, file)| file.role == FileRole::Values)
            .filter_map(|(index, file)| {
                let rank = match file.name.as_str() {
                    "terraform.tfvars" => 0,
                    "terraform.tfvars.json" => 1,
                    other
                        if other.ends_with(".auto.tfvars")
                            || other.ends_with(".auto.tfvars.json") =>
                    {
                        2
                    }
                    _ => return None,
                };
                Some((
                    rank,
                    file.name.as_str(),
                    FileId(tofu_syntax::text::to_u32(index)),
                    file,
                ))
            })
            .collect();
        loaded.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        loaded
            .into_iter()
            .rev()
            .find_map(|(_, file_name, id, file)| {
                let attribute = file
                    .source
                    .as_ref()?
                    .body
                    .attributes
                    .iter()
                    .find(|attribute| attribute.name == name)?;
                Some((id, &attribute.expr, file_name.to_owned()))
            })
    }

    /// `NAME = true` in the block, as a literal.
    fn is_true(&self, block: &EffectiveBlock, name: &str) -> bool {
        block
            .body
            .attribute(name)
            .and_then(|attribute| self.attribute_expr(attribute))
            .is_some_and(|expr| matches!(expr.kind, ExprKind::Bool(true)))
    }

    fn output(&self, name: &str) -> Option<Evaluated> {
        let output = self
            .analysis
            .effective
            .get(&BlockAddress::Output(name.to_owned()))?;
        let attribute = output.body.attribute("value")?;
        let expr = self.attribute_expr(attribute)?;
        let evaluated = self.evaluate_in(attribute.origin.file, expr);
        let sensitive = self.is_true(output, "sensitive");
        Some(evaluated.map(|value| {
            if sensitive {
                value.mark_sensitive()
            } else {
                value
            }
        }))
    }
}

/// A constraint without `optional(T, DEFAULT)` defaults, as the type
/// conversions take it.
fn type_of_constraint(constraint: &TypeConstraint) -> Option<Type> {
    Some(match constraint {
        TypeConstraint::String => Type::String,
        TypeConstraint::Number => Type::Number,
        TypeConstraint::Bool => Type::Bool,
        TypeConstraint::Any => Type::Dynamic,
        TypeConstraint::List(element) => Type::list(type_of_constraint(element)?),
        TypeConstraint::Set(element) => Type::set(type_of_constraint(element)?),
        TypeConstraint::Map(element) => Type::map(type_of_constraint(element)?),
        TypeConstraint::Tuple(elements) => Type::Tuple(
            elements
                .iter()
                .map(type_of_constraint)
                .collect::<Option<Vec<_>>>()?,
        ),
        TypeConstraint::Object { attrs } => {
            let mut object = tofu_eval::ObjectType::default();
            for attribute in attrs {
                if attribute.default.is_some() {
                    return None;
                }
                object
                    .attributes
                    .insert(attribute.name.clone(), type_of_constraint(&attribute.ty)?);
                if attribute.optional {
                    object.optional.insert(attribute.name.clone());
                }
            }
            Type::Object(object)
        }
    })
}

impl Scope for FileScope<'_, '_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let first = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let named = |value: Value| Referenced { value, n_steps: 1 };
        let values = self.values;
        match (reference.root, first) {
            ("local", Some(name)) => values.local(name).map(named),
            ("var", Some(name)) => values.variable(name).0.map(named),
            ("path", Some("module" | "root")) => Ok(named(Value::string("."))),
            ("path", Some("cwd")) => Ok(named(Value::string(values.dir.to_string_lossy()))),
            ("terraform", Some("workspace")) => Ok(named(Value::string("default"))),
            _ => Ok(Referenced {
                value: Value::dynamic_unknown(),
                n_steps: reference.steps.len(),
            }),
        }
    }

    fn environment(&self) -> &dyn Environment {
        &NoFiles
    }

    fn describe_range(&self, range: TextRange) -> String {
        self.values
            .analysis
            .file(self.file)
            .map(|file| file.describe(range))
            .unwrap_or_default()
    }
}

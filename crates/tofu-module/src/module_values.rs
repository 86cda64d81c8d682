//! The values of a module, as `tofu console` knows them in the module
//! directory: the one scope over the merged configuration that hover and
//! `tofu-lens console` evaluate in.
//!
//! A [`ModuleValues`] evaluates on demand, as a `tofu_eval::Scope`:
//! `local.NAME` is its effective definition evaluated (each local at most
//! once per `ModuleValues`; a local that reaches itself or lies deeper
//! than [`MAX_LOCAL_DEPTH`] is unknown); `var.NAME` is the value the last
//! `.tfvars` file OpenTofu loads by itself sets (`terraform.tfvars`,
//! `terraform.tfvars.json`, then `*.auto.tfvars` and `*.auto.tfvars.json`
//! by name), else its default, else unknown, converted to its type and
//! marked sensitive or ephemeral as declared; an output is its `value`,
//! marked sensitive as declared. `path.module` and `path.root` are `.`,
//! `path.cwd` the environment's working directory (unknown without one),
//! and `terraform.workspace` is `default`. Everything else (resources,
//! data, module outputs, `count`, `each`) is unknown, as before apply.
//! Functions that read files read them through the caller's
//! `tofu_eval::Environment`: this module does no IO.
//!
//! The defaults of `optional(T, DEFAULT)` attributes are filled in before
//! the conversion, as OpenTofu does.
//!
//! With [`ModuleValues::with_given_values`], the values the user names
//! (`-var-file`, `-var`, `TF_VAR_*`) come over the automatic files, as
//! plan reads them (`crate::given_values`).
//!
//! Left out: checking references (validation reports those): an undeclared name
//! referred to from the module is unknown.

use tofu_eval::console::ConsoleModule;
use tofu_eval::functions::suggest::nearest_name;
use tofu_eval::{
    evaluate, Environment, EvalDiagnostic, Marks, ProviderFunction, Reference, Referenced, Scope,
    Value,
};
use tofu_syntax::{Expr, FileId, TextRange, TraversalStep};

use crate::address::BlockAddress;
use crate::effective::{EffectiveAttribute, EffectiveBlock};
use crate::given_values::{
    all_assignments, parse_raw_value, reads_literally, Assignment, GivenValues, RawSource,
};
use crate::loaded::ModuleFile;
use crate::local_memo::LocalMemo;
use crate::merge::MergedModule;
use crate::types::{convert_variable_value, declared_true, parse_variable_type};
use tofu_eval::TypeConstraint;

pub use crate::local_memo::MAX_LOCAL_DEPTH;

/// The outcome of evaluating something: its value, or the errors (in
/// HCL's shape, to pass up to whatever referred to it).
pub type Evaluated = Result<Value, Vec<EvalDiagnostic>>;

/// Where a variable's value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariableSource {
    /// The values file (by its name among the module's files) whose
    /// assignment plan uses.
    Values(String),
    /// `-var NAME=VALUE`.
    CommandLine,
    /// `TF_VAR_NAME`.
    Environment,
    Default,
    Unset,
}

/// The module's values, evaluated on demand (see the module doc).
pub struct ModuleValues<'a> {
    analysis: &'a MergedModule,
    environment: &'a dyn Environment,
    locals: LocalMemo<Evaluated>,
    provider_functions: Option<&'a ProviderFunctions<'a>>,
    given: Option<&'a GivenValues>,
}

/// Where provider functions' signatures come from: `provider::NAME::FN`
/// as written, to the function the provider's schema declares.
pub type ProviderFunctions<'a> = dyn Fn(&str) -> Option<ProviderFunction> + 'a;

impl<'a> ModuleValues<'a> {
    /// The values of `analysis`'s module; functions read files through
    /// `environment`.
    pub fn new(analysis: &'a MergedModule, environment: &'a dyn Environment) -> Self {
        ModuleValues {
            analysis,
            environment,
            locals: LocalMemo::new(),
            provider_functions: None,
            given: None,
        }
    }

    /// The same, with provider functions declared by `functions` (called
    /// through the environment, where a provider may run).
    pub fn with_provider_functions(mut self, functions: &'a ProviderFunctions<'a>) -> Self {
        self.provider_functions = Some(functions);
        self
    }

    /// The same, with the values the user names (`-var-file`, `-var`,
    /// `TF_VAR_*`) over the automatic files, as plan reads them.
    pub fn with_given_values(mut self, given: &'a GivenValues) -> Self {
        self.given = Some(given);
        self
    }

    fn provider_function(&self, name: &str) -> Option<ProviderFunction> {
        (self.provider_functions?)(name)
    }

    /// The value of `local.NAME`; `None` when the module declares no such
    /// local value.
    pub fn local(&self, name: &str) -> Option<Evaluated> {
        let local = self.analysis.effective.local(name)?;
        Some(self.locals.value(name, Ok(Value::dynamic_unknown()), || {
            match self.attribute_expr(&local.attribute) {
                Some(expr) => self.evaluate_in(local.attribute.origin.file, expr),
                None => Ok(Value::dynamic_unknown()),
            }
        }))
    }

    /// The value of `var.NAME` and where it comes from; `None` when the
    /// module declares no such variable.
    pub fn variable(&self, name: &str) -> Option<(Evaluated, VariableSource)> {
        let variable = self
            .analysis
            .effective
            .get(&BlockAddress::Variable(name.to_owned()))?;
        let Some(constraint) = self.variable_type(variable) else {
            return Some((Ok(Value::dynamic_unknown()), VariableSource::Unset));
        };
        let (given, source) = match self.assignment(name) {
            Some(Assignment::File {
                file, attribute, ..
            }) => (
                self.evaluate_in(file, &attribute.expr),
                VariableSource::Values(
                    self.analysis
                        .file(file)
                        .map(|file| file.name.clone())
                        .unwrap_or_default(),
                ),
            ),
            Some(Assignment::Raw { text, source }) => {
                let literal =
                    reads_literally(variable.body.attribute("type").is_some(), &constraint);
                let parsed = parse_raw_value(text, literal).map_err(|error| {
                    vec![EvalDiagnostic::new(
                        error.summary,
                        error.detail,
                        TextRange::default(),
                    )]
                });
                let source = match source {
                    RawSource::CommandLine => VariableSource::CommandLine,
                    RawSource::Environment => VariableSource::Environment,
                };
                (parsed, source)
            }
            None => match variable
                .body
                .attribute("default")
                .and_then(|default| Some((default.origin.file, self.attribute_expr(default)?)))
            {
                Some((file, expr)) => (self.evaluate_in(file, expr), VariableSource::Default),
                None => (
                    Ok(Value::unknown(constraint.ty.clone())),
                    VariableSource::Unset,
                ),
            },
        };
        let converted = given.and_then(|value| {
            convert_variable_value(&value, &constraint).map_err(|error| {
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
        Some((converted.map(|value| value.with_marks(marks)), source))
    }

    /// The value of the output `NAME`; `None` when the module declares no
    /// such output or it has no `value`.
    pub fn output(&self, name: &str) -> Option<Evaluated> {
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

    /// The value of an effective attribute of any block (a resource's
    /// `for_each`, say), evaluated where it was written.
    /// A value written in JSON is read with HCL's JSON semantics.
    pub fn attribute(&self, attribute: &EffectiveAttribute) -> Option<Evaluated> {
        let expr = self.attribute_expr(attribute)?;
        let file = self.analysis.file(attribute.origin.file)?;
        if file.is_json() {
            let converted = crate::expr::json::json_expression(file.text.as_ref(), expr);
            return Some(self.evaluate_in(attribute.origin.file, &converted));
        }
        Some(self.evaluate_in(attribute.origin.file, expr))
    }

    /// The value of `expr`, written in the native file `file` of the
    /// module (a part of an argument, say).
    pub fn expression(&self, file: FileId, expr: &Expr) -> Evaluated {
        self.evaluate_in(file, expr)
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

    /// The variable's type constraint, with the defaults of its optional
    /// attributes.
    fn variable_type(&self, variable: &EffectiveBlock) -> Option<TypeConstraint> {
        let Some(attribute) = variable.body.attribute("type") else {
            return Some(TypeConstraint::any());
        };
        let file = self.analysis.file(attribute.origin.file)?;
        let expr = self.attribute_expr(attribute)?;
        let syntax = file.syntax();
        Some(parse_variable_type(expr, syntax, file.text.as_ref()).constraint)
    }

    /// The assignment plan uses for `name` (`crate::given_values`).
    fn assignment(&self, name: &str) -> Option<Assignment<'a>> {
        let files: Vec<(FileId, &'a ModuleFile)> = self
            .analysis
            .files
            .iter()
            .enumerate()
            .map(|(index, file)| (FileId(tofu_syntax::text::to_u32(index)), file))
            .collect();
        static NO_VALUES: GivenValues = GivenValues {
            environment: Vec::new(),
            given: Vec::new(),
        };
        all_assignments(&files, self.given.unwrap_or(&NO_VALUES))
            .into_iter()
            .rev()
            .find(|(assigned, _)| *assigned == name)
            .map(|(_, assignment)| assignment)
    }

    /// `NAME = true` in the block, as a literal.
    fn is_true(&self, block: &EffectiveBlock, name: &str) -> bool {
        let Some(attribute) = block.body.attribute(name) else {
            return false;
        };
        let Some(file) = self.analysis.file(attribute.origin.file) else {
            return false;
        };
        self.attribute_expr(attribute)
            .is_some_and(|expr| declared_true(expr, file.syntax()))
    }
}

/// The console's view: a variable or local value whose evaluation fails
/// is unknown.
impl ConsoleModule for ModuleValues<'_> {
    fn value(&self, root: &str, name: &str) -> Option<Value> {
        let evaluated = match root {
            "var" => self.variable(name).map(|(evaluated, _)| evaluated),
            "local" => self.local(name),
            _ => None,
        }?;
        Some(evaluated.unwrap_or_else(|_| Value::dynamic_unknown()))
    }

    fn suggest(&self, root: &str, name: &str) -> Option<String> {
        let effective = &self.analysis.effective;
        let found = match root {
            "var" => nearest_name(
                name,
                effective
                    .blocks
                    .iter()
                    .filter_map(|block| match &block.address {
                        BlockAddress::Variable(declared) => Some(declared.as_str()),
                        _ => None,
                    }),
            ),
            _ => nearest_name(
                name,
                effective.locals.iter().map(|local| local.name.as_str()),
            ),
        };
        found.map(str::to_owned)
    }
}

/// The scope of one file's expressions: references resolve in the module,
/// ranges are described in that file.
struct FileScope<'v, 'a> {
    values: &'v ModuleValues<'a>,
    file: FileId,
}

impl Scope for FileScope<'_, '_> {
    fn provider_function(&self, name: &str) -> Option<ProviderFunction> {
        self.values.provider_function(name)
    }

    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let first = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let named = |value: Value| Referenced { value, n_steps: 1 };
        let unknown = || Ok(named(Value::dynamic_unknown()));
        let values = self.values;
        match (reference.root, first) {
            ("local", Some(name)) => values.local(name).map_or_else(unknown, |v| v.map(named)),
            ("var", Some(name)) => values
                .variable(name)
                .map_or_else(unknown, |(v, _)| v.map(named)),
            ("path", Some("module" | "root")) => Ok(named(Value::string("."))),
            ("path", Some("cwd")) => Ok(named(
                values
                    .environment
                    .working_directory()
                    .map_or_else(Value::dynamic_unknown, Value::string),
            )),
            ("terraform", Some("workspace")) => Ok(named(Value::string("default"))),
            _ => Ok(Referenced {
                value: Value::dynamic_unknown(),
                n_steps: reference.steps.len(),
            }),
        }
    }

    fn environment(&self) -> &dyn Environment {
        self.values.environment
    }

    fn describe_range(&self, range: TextRange) -> String {
        self.values
            .analysis
            .file(self.file)
            .map(|file| file.describe(range))
            .unwrap_or_default()
    }
}

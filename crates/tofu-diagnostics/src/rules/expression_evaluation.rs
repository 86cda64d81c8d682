//! Evaluating one attribute's expression as `tofu validate` does, for the
//! rules that report what evaluation finds (`provider_schema`: the arguments a provider's
//! schema declares in resource bodies and provider configurations, at any
//! depth of nested blocks): every reference but `path.module`
//! and `path.root` (`.`) an unknown value of any type, files read through
//! the `ModuleFiles` the caller gave the analysis, each error as a
//! diagnostic of its family (`unknown-function`, `invalid-function-call`,
//! `invalid-expression-value`). Expressions written in JSON files are
//! evaluated as HCL's JSON syntax evaluates them (`tofu_module::expr::json`:
//! strings are templates, placed inside the string; one that is no valid
//! template gives HCL's syntax errors, as `syntax-error`). Inside a `dynamic` block's
//! content ([`Context`]) the iterators of the blocks around it are the
//! objects `{key, value}` of the element being made, and an unknown
//! function gets no "Did you mean" (`dynblock`'s iteration context has no
//! functions of its own).

use tofu_eval::{evaluate, Environment, EvalDiagnostic, Reference, Referenced, Scope, Value};
use tofu_syntax::{Diagnostic, Expr, FileId, Location, TextRange, TraversalStep};

use crate::rules::views::IdentityFile;
use crate::rules::views::IdentityView;
use tofu_module::expr::json::json_expression;

/// What an expression is evaluated with besides unknown references: the
/// body's own context, or a `dynamic` block's content.
pub(crate) struct Context<'i> {
    /// The iterators in scope, outermost first.
    pub(crate) iterations: &'i [Iteration],
    /// Whether an unknown function gets HCL's suggestion.
    pub(crate) suggests_function_names: bool,
}

impl Context<'_> {
    /// The context of a block's body, outside any `dynamic` block.
    pub(crate) const BODY: Context<'static> = Context {
        iterations: &[],
        suggests_function_names: true,
    };
}

/// The name a `dynamic` block binds in its content and the object it
/// stands for (`dynblock`'s `iteration.Object()`).
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    pub(crate) name: String,
    /// `{key, value}` of the element being made (unknown ones when the
    /// block's `for_each` is unknown).
    pub(crate) object: Value,
}

/// Evaluates an expression written in `file` (an own file of the
/// identity; in a JSON file with HCL's JSON semantics) and reports what
/// that finds; `None` when it is not evaluated (a file the view refuses).
pub(crate) fn evaluate_expression(
    view: &IdentityView<'_>,
    file: FileId,
    expr: &Expr,
    context: &Context<'_>,
    out: &mut Vec<Diagnostic>,
) -> Option<Value> {
    let identity_file = view.file(file)?;
    if identity_file.is_json() {
        let text = identity_file.text(expr.range)?;
        let expr = json_expression(text, expr);
        return Some(evaluate_in(view, &identity_file, file, &expr, context, out));
    }
    Some(evaluate_in(view, &identity_file, file, expr, context, out))
}

fn evaluate_in(
    view: &IdentityView<'_>,
    file: &IdentityFile<'_, '_>,
    file_id: FileId,
    expr: &Expr,
    context: &Context<'_>,
    out: &mut Vec<Diagnostic>,
) -> Value {
    let scope = UnknownReferences {
        view,
        file: Some(file),
        module_files: view.module_files(),
        context,
    };
    let evaluation = evaluate(expr, &scope);
    out.extend(
        evaluation
            .diagnostics
            .into_iter()
            .map(|found| evaluation_diagnostic(file_id, found)),
    );
    evaluation.value
}

/// One evaluation error as a diagnostic of its family, at its subject in
/// `file`: a JSON string that is no valid template is a `syntax-error`,
/// as the same mistake in native syntax is.
pub(crate) fn evaluation_diagnostic(file: FileId, found: EvalDiagnostic) -> Diagnostic {
    let code = match found.summary.as_str() {
        _ if found.syntax => crate::codes::SYNTAX_ERROR,
        "Call to unknown function" | "Unknown function namespace" => crate::codes::UNKNOWN_FUNCTION,
        "Not enough function arguments"
        | "Too many function arguments"
        | "Invalid function argument"
        | "Error in function call" => crate::codes::INVALID_FUNCTION_CALL,
        _ => crate::codes::INVALID_EXPRESSION_VALUE,
    };
    Diagnostic::new(code, found.summary, Location::new(file, found.subject))
        .with_detail(found.detail)
}

/// Every reference is an unknown value of any type but `path.module` and
/// `path.root`, which validate knows (`.`), the iterators of the context,
/// and what the walk knows through the view: a local value's value (its
/// effective definition evaluated, unknown when that fails) and an
/// input variable's (unknown, of its declared type, marked as declared). Files are read through what the caller gave the analysis.
struct UnknownReferences<'f, 'v, 'a, 'c> {
    view: &'v IdentityView<'a>,
    /// The file the expression is written in, when it is one of the
    /// identity's own (another local value's is evaluated for its value
    /// alone).
    file: Option<&'f IdentityFile<'v, 'a>>,
    module_files: &'a dyn Environment,
    context: &'c Context<'c>,
}

impl<'a> UnknownReferences<'_, '_, 'a, '_> {
    /// `local.NAME` as the walk knows it.
    fn local(&self, name: &str) -> Value {
        let view = self.view;
        view.local_values()
            .value(name, Value::dynamic_unknown(), || {
                let Some((_, expr)) = view.local_value(name) else {
                    return Value::dynamic_unknown();
                };
                let scope = UnknownReferences {
                    view,
                    file: None,
                    module_files: self.module_files,
                    context: &Context::BODY,
                };
                let evaluation = evaluate(&expr, &scope);
                if evaluation.diagnostics.is_empty() {
                    evaluation.value
                } else {
                    Value::dynamic_unknown()
                }
            })
    }

    /// `var.NAME` as the walk knows it: unknown, of its type, marked.
    fn variable(&self, name: &str) -> Value {
        self.view
            .variable_value(name)
            .map_or_else(Value::dynamic_unknown, |arguments| arguments.walk_value())
    }
}

impl Scope for UnknownReferences<'_, '_, '_, '_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        // The innermost iterator of that name; the evaluator takes its steps.
        if let Some(iteration) = self
            .context
            .iterations
            .iter()
            .rev()
            .find(|iteration| iteration.name == reference.root)
        {
            return Ok(Referenced {
                value: iteration.object.clone(),
                n_steps: 0,
            });
        }
        let first = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let named = |value: Value| Ok(Referenced { value, n_steps: 1 });
        match (reference.root, first) {
            ("path", Some("module" | "root")) => return named(Value::string(".")),
            ("local", Some(name)) => return named(self.local(name)),
            ("var", Some(name)) => return named(self.variable(name)),
            _ => {}
        }
        Ok(Referenced {
            value: Value::dynamic_unknown(),
            n_steps: reference.steps.len(),
        })
    }

    fn environment(&self) -> &dyn Environment {
        self.module_files
    }

    fn describe_range(&self, range: TextRange) -> String {
        self.file
            .and_then(|file| file.describe(range))
            .unwrap_or_default()
    }

    fn suggests_function_names(&self) -> bool {
        self.context.suggests_function_names
    }

    fn provider_function(&self, name: &str) -> Option<tofu_eval::ProviderFunction> {
        self.view.provider_function(name)
    }
}

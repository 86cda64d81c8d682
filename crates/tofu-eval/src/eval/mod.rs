//! The expression evaluator: the value of an expression of `tofu-syntax`'s
//! model and OpenTofu's errors evaluating it, as HCL's `hclsyntax`
//! computes them (`Expression.Value`), with cty's operations.
//!
//! What a reference names (`var.x`, `local.y`, `path.module`, `each.key`,
//! …) comes from the caller's [`Scope`]: the evaluator hands it the
//! static part of a traversal and applies the steps the scope did not use,
//! as HCL applies them to the variables of an evaluation context. Names a
//! `for` expression binds and the items of a splat are the evaluator's own.
//! Files, and whatever else functions read, come through the scope's
//! [`Environment`].
//!
//! Like HCL, evaluation never stops at an error: every sub-expression is
//! evaluated, an erroneous one gives an unknown value, and all errors are
//! reported, in HCL's order, with HCL's summary, detail and subject (byte
//! offsets of the expression's file). Errors a caller reports before
//! evaluating (undeclared or invalid references) are the scope's.
//!
//! Left out: refinements of unknown values other than "not null" (string
//! prefixes, number bounds, collection lengths), which change no printed
//! value; an attribute step's subject starts one byte before its name
//! (HCL's starts at the dot, which the model does not keep).

mod call;
mod for_expr;
mod operations;
mod steps;
mod template;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use tofu_syntax::{Expr, ExprKind, ObjectItem, OperationKind, TextRange, Traversal, TraversalStep};

use crate::convert::convert;
use crate::functions::{Environment, ProviderFunction};
use crate::number::Number;
use crate::types::Type;
use crate::value::{Marks, Value};

/// An error evaluating an expression, in HCL's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalDiagnostic {
    pub summary: String,
    pub detail: String,
    /// The part of the expression the error is about.
    pub subject: TextRange,
    /// The wider expression around it, where HCL gives one.
    pub context: Option<TextRange>,
    /// An HCL syntax error met while evaluating: a JSON string whose
    /// content is no valid template ([`OperationKind::SyntaxErrors`]).
    pub syntax: bool,
}

impl EvalDiagnostic {
    pub fn new(summary: impl Into<String>, detail: impl Into<String>, subject: TextRange) -> Self {
        EvalDiagnostic {
            summary: summary.into(),
            detail: detail.into(),
            subject,
            context: None,
            syntax: false,
        }
    }

    fn in_context(mut self, context: TextRange) -> Self {
        self.context = Some(context);
        self
    }
}

/// The static start of a traversal as the scope sees it: the root name and
/// the attribute and constant index steps that follow it, up to the first
/// splat or computed index (HCL's `ScopeTraversalExpr`).
#[derive(Clone, Copy, Debug)]
pub struct Reference<'a> {
    pub root: &'a str,
    pub root_range: TextRange,
    pub steps: &'a [TraversalStep],
}

/// What a scope gives for a reference: the value of the part that names
/// something (`var.x` of `var.x.y[0]`) and how many of the steps that part
/// took; the evaluator applies the rest.
#[derive(Clone, Debug)]
pub struct Referenced {
    pub value: Value,
    pub n_steps: usize,
}

/// What an expression's references and functions read, given by the caller
/// (a module's variables and locals at validate time, the console's empty
/// module, a test).
pub trait Scope {
    /// The value `reference` names, or OpenTofu's errors for it.
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>>;

    /// Files for `file`, `templatefile`, …, and whether the console's own
    /// functions exist.
    fn environment(&self) -> &dyn Environment;

    /// How OpenTofu names a range inside a message (`try`'s "(at
    /// main.tf:3,9-12)"): HCL's `Range.String()`.
    fn describe_range(&self, range: TextRange) -> String;

    /// Whether "Call to unknown function" suggests a known name. HCL
    /// suggests among the functions of the innermost evaluation context,
    /// and the context `dynblock` evaluates a `dynamic` block's content in
    /// (its iterator's) has none of its own: there, no name is suggested.
    fn suggests_function_names(&self) -> bool {
        true
    }

    /// The provider function `name` (`provider::time::rfc3339_parse`, as
    /// written), from the schema of the provider its local name stands
    /// for; `None` (the default) when there is none, as at validate time
    /// for a function the schema does not declare: any arguments, an
    /// unknown result.
    fn provider_function(&self, _name: &str) -> Option<ProviderFunction> {
        None
    }
}

/// The value of an expression and the errors evaluating it.
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub value: Value,
    pub diagnostics: Vec<EvalDiagnostic>,
}

/// Evaluates `expr` in `scope` (see the module doc).
pub fn evaluate(expr: &Expr, scope: &dyn Scope) -> Evaluation {
    let mut evaluator = Evaluator::new(scope);
    let (value, diagnostics) = evaluator.value(expr);
    Evaluation { value, diagnostics }
}

/// Expressions nested deeper than this evaluate to an unknown value (the
/// parser gives up long before; this keeps the stack bounded).
const MAX_DEPTH: usize = 512;

/// How many templates may render inside each other before the innermost
/// is unknown: a template that renders itself must end long before the
/// stack does (OpenTofu allows 1,024 levels, then reports an error).
const MAX_TEMPLATE_DEPTH: usize = 16;

type Diagnostics = Vec<EvalDiagnostic>;

/// One evaluation: the scope, and the names bound by enclosing `for`
/// expressions and directives (innermost last).
pub(crate) struct Evaluator<'s> {
    scope: &'s dyn Scope,
    bindings: Vec<(String, Value)>,
    depth: usize,
    /// How many templates (`templatefile`, `templatestring`) enclose this
    /// evaluation.
    template_depth: usize,
}

impl<'s> Evaluator<'s> {
    pub(crate) fn new(scope: &'s dyn Scope) -> Self {
        Evaluator {
            scope,
            bindings: Vec::new(),
            depth: 0,
            template_depth: 0,
        }
    }

    /// HCL's `Expression.Value`.
    pub(crate) fn value(&mut self, expr: &Expr) -> (Value, Diagnostics) {
        if self.depth >= MAX_DEPTH {
            return (Value::dynamic_unknown(), Vec::new());
        }
        self.depth += 1;
        let result = self.value_of_kind(expr);
        self.depth -= 1;
        result
    }

    fn value_of_kind(&mut self, expr: &Expr) -> (Value, Diagnostics) {
        match &expr.kind {
            ExprKind::Null => (Value::dynamic_null(), Vec::new()),
            ExprKind::Bool(value) => (Value::bool(*value), Vec::new()),
            ExprKind::Number(text) => (number_literal(text), Vec::new()),
            ExprKind::String(text) => (Value::string(text), Vec::new()),
            ExprKind::Template(template) => self.template(expr, template),
            ExprKind::Array(items) => {
                let mut diagnostics = Vec::new();
                let values = items
                    .iter()
                    .map(|item| {
                        let (value, item_diagnostics) = self.value(item);
                        diagnostics.extend(item_diagnostics);
                        value
                    })
                    .collect();
                (Value::tuple(values), diagnostics)
            }
            ExprKind::Object(items) => self.object(items),
            ExprKind::Traversal(traversal) => self.traversal(traversal),
            ExprKind::Call(call) => self.call(expr, call),
            ExprKind::For(for_expr) => self.for_expr(expr, for_expr),
            ExprKind::Operation(operation) => match &operation.kind {
                OperationKind::Unary(operator) => {
                    self.unary(expr, *operator, operation.operands.first())
                }
                OperationKind::Binary(operator) => {
                    self.binary(expr, *operator, &operation.operands)
                }
                OperationKind::Conditional => self.conditional(expr, &operation.operands),
                OperationKind::Steps(relative_steps) => {
                    let Some((source, keys)) = operation.operands.split_first() else {
                        return (Value::dynamic_unknown(), Vec::new());
                    };
                    let (value, mut diagnostics) = self.value(source);
                    let had_errors = !diagnostics.is_empty();
                    let (value, step_diagnostics) = self.apply_relative_steps(
                        value,
                        relative_steps,
                        keys,
                        had_errors,
                        source.range.start,
                    );
                    diagnostics.extend(step_diagnostics);
                    (value, diagnostics)
                }
                OperationKind::TooDeep => (Value::dynamic_unknown(), Vec::new()),
                OperationKind::SyntaxErrors(errors) => {
                    let scope = self.scope;
                    let diagnostics = errors
                        .iter()
                        .map(|error| EvalDiagnostic {
                            syntax: true,
                            ..EvalDiagnostic::new(
                                error.summary.clone(),
                                error.detail_with(|range| scope.describe_range(range)),
                                error.range,
                            )
                        })
                        .collect();
                    (Value::dynamic_unknown(), diagnostics)
                }
            },
        }
    }

    /// HCL's `ObjectConsExpr`.
    fn object(&mut self, items: &[ObjectItem]) -> (Value, Diagnostics) {
        let mut diagnostics = Vec::new();
        let mut attributes = BTreeMap::new();
        let mut marks = Marks::default();
        let mut known = true;
        let mut json_names: BTreeMap<String, TextRange> = BTreeMap::new();
        for item in items {
            if item.json {
                let (key, key_diagnostics) = self.value(&item.key);
                diagnostics.extend(key_diagnostics);
                let (value, value_diagnostics) = self.value(&item.value);
                diagnostics.extend(value_diagnostics);
                match self.json_name(key, item.key.range, &json_names) {
                    Ok(Some((name, key_marks))) => {
                        marks = marks.union(key_marks);
                        json_names.insert(name.clone(), item.key.range);
                        attributes.insert(name, value);
                    }
                    Ok(None) => known = false,
                    Err(error) => diagnostics.push(error),
                }
                continue;
            }
            let (key, key_diagnostics) = self.object_key(&item.key);
            let key_failed = !key_diagnostics.is_empty();
            diagnostics.extend(key_diagnostics);
            let (value, value_diagnostics) = self.value(&item.value);
            diagnostics.extend(value_diagnostics);
            if key_failed {
                known = false;
                continue;
            }
            if key.is_null() {
                diagnostics.push(EvalDiagnostic::new(
                    "Null value as key",
                    "Can't use a null value as a key.",
                    item.value.range,
                ));
                known = false;
                continue;
            }
            let (key, key_marks) = key.unmark();
            marks = marks.union(key_marks);
            let key = match convert(&key, &Type::String) {
                Ok(key) => key,
                Err(error) => {
                    diagnostics.push(EvalDiagnostic::new(
                        "Incorrect key type",
                        format!("Can't use this value as a key: {}.", error.message),
                        item.key.range,
                    ));
                    known = false;
                    continue;
                }
            };
            match key.as_str() {
                Some(name) => {
                    attributes.insert(name.to_owned(), value);
                }
                None => known = false,
            }
        }
        if !known {
            return (Value::dynamic_unknown(), diagnostics);
        }
        (Value::object(attributes).with_marks(marks), diagnostics)
    }

    /// The name of a property of an object written in JSON, as HCL's JSON
    /// syntax takes it (`json.expression.Value`): a string, not null, not
    /// one `names` already holds; `None` when it is unknown.
    fn json_name(
        &self,
        key: Value,
        range: TextRange,
        names: &BTreeMap<String, TextRange>,
    ) -> Result<Option<(String, Marks)>, EvalDiagnostic> {
        let invalid =
            |detail: String| EvalDiagnostic::new("Invalid object key expression", detail, range);
        let (key, key_marks) = key.unmark();
        let key = convert(&key, &Type::String).map_err(|error| {
            invalid(format!(
                "Cannot use this expression as an object key: {}.",
                error.message
            ))
        })?;
        if key.is_null() {
            return Err(invalid(
                "Cannot use null value as an object key.".to_owned(),
            ));
        }
        let Some(name) = key.as_str() else {
            return Ok(None);
        };
        if let Some(first) = names.get(name) {
            return Err(EvalDiagnostic::new(
                "Duplicate object attribute",
                format!(
                    "An attribute named {} was already defined at {}.",
                    tofu_syntax::go_text::go_quote(name),
                    self.scope.describe_range(*first)
                ),
                range,
            ));
        }
        Ok(Some((name.to_owned(), key_marks)))
    }

    /// HCL's `ObjectConsKeyExpr`: a bare name (or `null`, `true`, `false`)
    /// is that name; a bare traversal of several steps is ambiguous;
    /// anything else (a parenthesised name too) is evaluated.
    fn object_key(&mut self, key: &Expr) -> (Value, Diagnostics) {
        match &key.kind {
            ExprKind::Traversal(traversal) if traversal.root_range.start == key.range.start => {
                if traversal.steps.is_empty() {
                    return (Value::string(&traversal.root), Vec::new());
                }
                if traversal.steps.len() == static_length(&traversal.steps) {
                    return (
                        Value::dynamic_unknown(),
                        vec![EvalDiagnostic::new(
                            "Ambiguous attribute key",
                            "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                            key.range,
                        )],
                    );
                }
                self.value(key)
            }
            ExprKind::Null if key.range.len() == 4 => (Value::string("null"), Vec::new()),
            ExprKind::Bool(value) if key.range.len() == if *value { 4 } else { 5 } => {
                (Value::string(value.to_string()), Vec::new())
            }
            _ => self.value(key),
        }
    }

    /// A name: one a `for` or a splat binds, else what the scope says.
    fn traversal(&mut self, traversal: &Traversal) -> (Value, Diagnostics) {
        let bound = self
            .bindings
            .iter()
            .rev()
            .find(|(name, _)| *name == traversal.root)
            .map(|(_, value)| value.clone());
        let (value, n_steps) = match bound {
            Some(value) => (value, 0),
            None => {
                let reference = Reference {
                    root: &traversal.root,
                    root_range: traversal.root_range,
                    steps: traversal
                        .steps
                        .get(..static_length(&traversal.steps))
                        .unwrap_or_default(),
                };
                match self.scope.reference(&reference) {
                    Ok(referenced) => (referenced.value, referenced.n_steps),
                    Err(diagnostics) => return (Value::dynamic_unknown(), diagnostics),
                }
            }
        };
        let rest = traversal.steps.get(n_steps..).unwrap_or_default();
        self.apply_absolute_steps(value, rest, traversal.root_range.start)
    }

    /// Runs `run` with `names` bound to `values`, as HCL's child contexts.
    fn with_bindings<T>(
        &mut self,
        bindings: Vec<(String, Value)>,
        run: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let n_before = self.bindings.len();
        self.bindings.extend(bindings);
        let result = run(self);
        self.bindings.truncate(n_before);
        result
    }
}

/// How many steps from the start HCL keeps in a scope traversal: attributes
/// and indexes whose key is a literal, up to a splat or a computed index.
pub(crate) fn static_length(steps: &[TraversalStep]) -> usize {
    steps
        .iter()
        .position(|step| match step {
            TraversalStep::Attr { .. } => false,
            TraversalStep::Index { key, .. } => !is_literal_key(key),
            TraversalStep::Splat { .. } => true,
        })
        .unwrap_or(steps.len())
}

/// HCL folds `[0]`, `["a"]`, `[true]`, `[null]` into the traversal: a
/// literal value, or a template that is one literal string.
pub(crate) fn is_literal_key(key: &Expr) -> bool {
    match &key.kind {
        ExprKind::Number(text) => !text.starts_with('-'),
        ExprKind::String(_) | ExprKind::Bool(_) | ExprKind::Null => true,
        ExprKind::Template(template) => {
            template.expressions.is_empty()
                && matches!(
                    template.parts.as_slice(),
                    [tofu_syntax::TemplatePart::Literal(_)]
                )
        }
        _ => false,
    }
}

/// A number as written (hcl-edit folds a leading minus into it, spaces
/// included); cty parses it with 512 bits.
fn number_literal(text: &str) -> Value {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    Number::parse(&compact).map_or_else(Value::dynamic_unknown, Value::number)
}

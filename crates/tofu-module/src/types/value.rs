//! Constant values, as OpenTofu evaluates arguments while loading: with no
//! variables and no functions (`diagnostics.md` §4.15), as tofu-eval's
//! [`Value`]s.
//!
//! Native syntax gives a value for literals, `[…]` and `{…}` of constants,
//! strings without interpolation and a unary minus on a number; anything else
//! (references, calls, templates, operators, `for`) makes the whole value
//! unknown (of type `dynamic`), which converts to every type, so rules stay
//! silent on it. JSON syntax gives its literal values, strings verbatim (no
//! template reading while loading, so `"${var.x}"` is that text).
//!
//! Constructors give tuples and objects, as HCL's do (the conversions make
//! them collections); a null is of type `dynamic`; numbers are cty's
//! numbers, strings in normal form C, as `cty.StringVal` makes them. Values
//! nested deeper than [`MAX_VALUE_DEPTH`] are unknown.

use std::collections::BTreeMap;

use tofu_eval::{Number, Value, ValueKind};
use tofu_syntax::{Expr, ExprKind, Operation, Syntax, Template, TextRange};

use crate::file_text::FileText;

/// Values nested deeper than this are not evaluated (they are unknown).
pub const MAX_VALUE_DEPTH: usize = 128;

/// The value of an argument OpenTofu evaluates while loading (`default`).
/// `text` is the file the expression's ranges index into (whole, or the
/// part a rule may read).
pub fn static_value<'t>(expr: &Expr, syntax: Syntax, text: impl Into<FileText<'t>>) -> Value {
    let text = text.into();
    let value = match syntax {
        Syntax::Native => native_value(expr, text, 0),
        Syntax::Json => json_value(expr, text, 0),
    };
    value.unwrap_or_else(Value::dynamic_unknown)
}

/// An evaluation error HCL reports for a non-constant expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    pub summary: String,
    pub detail: String,
    pub range: TextRange,
}

/// Evaluates a native expression with no variables and no functions, as HCL's
/// `Value(nil)` does: the errors HCL would certainly report (a reference, a
/// function call) or the value. A construct tofu-lens does not evaluate
/// (operators, conditionals, `for`, templates) gives an unknown value: it
/// may well be a constant.
pub fn constant_value<'t>(
    expr: &Expr,
    text: impl Into<FileText<'t>>,
) -> Result<Value, Vec<ValueError>> {
    let text = text.into();
    let mut has_unevaluated = false;
    expr.walk(&mut |part| {
        has_unevaluated |= matches!(part.kind, ExprKind::Operation(_) | ExprKind::For(_));
    });
    if !has_unevaluated {
        let mut errors = Vec::new();
        evaluation_errors(expr, &[], &mut errors, 0);
        if !errors.is_empty() {
            return Err(errors);
        }
    }
    Ok(native_value(expr, text, 0).unwrap_or_else(Value::dynamic_unknown))
}

/// HCL's errors evaluating `expr` without a context: every reference but
/// to the names enclosing `for`s bind (`bound`), every call.
fn evaluation_errors(expr: &Expr, bound: &[&str], errors: &mut Vec<ValueError>, depth: usize) {
    if depth > MAX_VALUE_DEPTH {
        return;
    }
    match &expr.kind {
        ExprKind::Traversal(traversal) if bound.contains(&traversal.root.as_str()) => {}
        ExprKind::Traversal(traversal) => errors.push(ValueError {
            summary: "Variables not allowed".to_owned(),
            detail: "Variables may not be used here.".to_owned(),
            range: traversal.root_range,
        }),
        // HCL fails the call before evaluating its arguments.
        ExprKind::Call(_) => errors.push(ValueError {
            summary: "Function calls not allowed".to_owned(),
            detail: "Functions may not be called here.".to_owned(),
            range: expr.range,
        }),
        ExprKind::Template(Template {
            expressions: parts, ..
        })
        | ExprKind::Array(parts)
        | ExprKind::Operation(Operation {
            operands: parts, ..
        }) => {
            for part in parts {
                evaluation_errors(part, bound, errors, depth + 1);
            }
        }
        ExprKind::Object(items) => {
            for item in items {
                // A bare key is a name, not a reference.
                if !is_bare_key(&item.key) {
                    evaluation_errors(&item.key, bound, errors, depth + 1);
                }
                evaluation_errors(&item.value, bound, errors, depth + 1);
            }
        }
        ExprKind::For(for_expr) => {
            let n_before = errors.len();
            evaluation_errors(&for_expr.collection, bound, errors, depth + 1);
            if errors.len() > n_before {
                return;
            }
            let mut inner: Vec<&str> = bound.to_vec();
            inner.extend(for_expr.names.iter().map(|(name, _)| name.as_str()));
            for part in &for_expr.body {
                evaluation_errors(part, &inner, errors, depth + 1);
            }
        }
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
    }
}

fn is_bare_key(key: &Expr) -> bool {
    matches!(&key.kind, ExprKind::Traversal(traversal)
        if traversal.steps.is_empty() && traversal.root_range == key.range)
}

fn native_value(expr: &Expr, text: FileText<'_>, depth: usize) -> Option<Value> {
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    match &expr.kind {
        ExprKind::Null => Some(Value::dynamic_null()),
        ExprKind::Bool(value) => Some(Value::bool(*value)),
        // hcl-edit folds a minus into the literal, spaces included: `- 1.5`.
        ExprKind::Number(number) => number_value(
            &number
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>(),
        ),
        ExprKind::String(value) => Some(Value::string(value)),
        ExprKind::Array(items) => items
            .iter()
            .map(|item| native_value(item, text, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Value::tuple),
        ExprKind::Object(items) => {
            // A later key replaces an earlier one.
            let mut attributes = BTreeMap::new();
            for item in items {
                let key = native_key(&item.key, text, depth)?;
                let value = native_value(&item.value, text, depth + 1)?;
                attributes.insert(key, value);
            }
            Some(Value::object(attributes))
        }
        // Unary minus is the only operator evaluated: `-5`, `- 5`, `-(5)`.
        ExprKind::Operation(Operation {
            operands: children, ..
        }) => match children.as_slice() {
            [operand] if text.slice(expr.range).trim_start().starts_with('-') => {
                match native_value(operand, text, depth + 1)?.kind {
                    ValueKind::Number(number) => Some(Value::number(number.negate())),
                    _ => None,
                }
            }
            _ => None,
        },
        ExprKind::Template(_) | ExprKind::Traversal(_) | ExprKind::Call(_) | ExprKind::For(_) => {
            None
        }
    }
}

/// The attribute name a native object constructor key gives when HCL
/// evaluates it with no variables and no functions: a bare name (also `null`,
/// `true`, `false`) is that name, a constant string, number or bool converts
/// to one. `None` when the key is not such a constant (a reference, a call, a
/// template, a computed null).
pub fn object_key<'t>(key: &Expr, text: impl Into<FileText<'t>>) -> Option<String> {
    native_key(key, text.into(), 0)
}

/// An object constructor key: a bare name is that name; anything else is
/// evaluated and must give a string (numbers and bools convert).
fn native_key(key: &Expr, text: FileText<'_>, depth: usize) -> Option<String> {
    if let ExprKind::Traversal(traversal) = &key.kind {
        return is_bare_key(key).then(|| traversal.root.clone());
    }
    match native_value(key, text, depth + 1)?.kind {
        ValueKind::String(value) => Some(value),
        // The text cty prints for it: `1e3` is the name "1000".
        ValueKind::Number(number) => Some(number.text('f', -1)),
        ValueKind::Bool(value) => Some(value.to_string()),
        // HCL reads a bare `null` key as the name "null"; a computed null is an error.
        ValueKind::Null(_) if text.slice(key.range) == "null" => Some("null".to_owned()),
        _ => None,
    }
}

fn json_value(expr: &Expr, text: FileText<'_>, depth: usize) -> Option<Value> {
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    match &expr.kind {
        ExprKind::Null => Some(Value::dynamic_null()),
        ExprKind::Bool(value) => Some(Value::bool(*value)),
        ExprKind::Number(number) => number_value(number),
        ExprKind::String(value) => Some(Value::string(value)),
        // A string holding `${` or `%{`: verbatim while loading.
        ExprKind::Template(_) => decode_json_string(text.slice(expr.range)).map(Value::string),
        ExprKind::Array(items) => items
            .iter()
            .map(|item| json_value(item, text, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Value::tuple),
        ExprKind::Object(items) => {
            let mut attributes = BTreeMap::new();
            for item in items {
                let key = item.key.as_str()?.to_owned();
                let value = json_value(&item.value, text, depth + 1)?;
                attributes.insert(key, value);
            }
            Some(Value::object(attributes))
        }
        ExprKind::Traversal(_) | ExprKind::Call(_) | ExprKind::Operation(_) | ExprKind::For(_) => {
            None
        }
    }
}

/// A number literal as cty parses it (one it does not parse is unknown).
fn number_value(text: &str) -> Option<Value> {
    Number::parse(text).map(Value::number)
}

pub use crate::expr::content::json_string_value as decode_json_string;

/// Whether a block's bool argument (`sensitive`, `ephemeral`) is true as
/// OpenTofu decodes it while loading (`gohcl` with no context): a
/// constant converted to bool — `true`, `"true"`, `1 == 1`; in a JSON
/// file the value as written (`true`, `"true"`). A reference or a call
/// (an error OpenTofu reports), or any value that does not convert, is
/// false.
pub fn declared_true(expr: &Expr, syntax: Syntax) -> bool {
    let mut has_reference_or_call = false;
    expr.walk(&mut |part| {
        has_reference_or_call |= matches!(part.kind, ExprKind::Traversal(_) | ExprKind::Call(_));
    });
    if has_reference_or_call {
        return false;
    }
    let value = match (&expr.kind, syntax) {
        (ExprKind::String(text), Syntax::Json) => Value::string(text),
        (ExprKind::Bool(value), _) => Value::bool(*value),
        (_, Syntax::Json) => return false,
        (_, Syntax::Native) => {
            let evaluation = tofu_eval::evaluate(expr, &NoContext);
            if !evaluation.diagnostics.is_empty() {
                return false;
            }
            evaluation.value
        }
    };
    tofu_eval::convert::convert(&value, &tofu_eval::Type::Bool)
        .is_ok_and(|converted| converted.as_bool() == Some(true))
}

/// HCL's evaluation with no context: nothing to refer to, no files.
struct NoContext;

impl tofu_eval::Scope for NoContext {
    fn reference(
        &self,
        reference: &tofu_eval::Reference<'_>,
    ) -> Result<tofu_eval::Referenced, Vec<tofu_eval::EvalDiagnostic>> {
        Ok(tofu_eval::Referenced {
            value: Value::dynamic_unknown(),
            n_steps: reference.steps.len(),
        })
    }

    fn environment(&self) -> &dyn tofu_eval::Environment {
        &tofu_eval::NoFiles
    }

    fn describe_range(&self, _: TextRange) -> String {
        String::new()
    }
}

//! Evaluating the part of `tofu-syntax`'s expression model that needs no
//! scope: literals, tuples and objects of them, and calls of built-in
//! functions. This is the seed of the expression evaluator (issue 33):
//! references, operators, conditionals, templates and `for` expressions
//! are not evaluated yet and give [`EvalError::Unsupported`], since the
//! syntax model does not keep operators apart yet.

use std::collections::BTreeMap;

use tofu_syntax::{Expr, ExprKind, TextRange};

use crate::functions::{call_function, CallError, Environment};
use crate::number::Number;
use crate::value::Value;

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// OpenTofu's errors for a function call at `range`.
    Call {
        range: TextRange,
        errors: Vec<CallError>,
    },
    /// A construct this evaluator does not handle yet.
    Unsupported { range: TextRange },
}

/// The value of `expr`, reading files through `environment`.
pub fn evaluate(expr: &Expr, environment: &dyn Environment) -> Result<Value, EvalError> {
    let unsupported = || EvalError::Unsupported { range: expr.range };
    match &expr.kind {
        ExprKind::Null => Ok(Value::dynamic_null()),
        ExprKind::Bool(value) => Ok(Value::bool(*value)),
        ExprKind::Number(text) => {
            let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            Number::parse(&compact)
                .map(Value::number)
                .ok_or_else(unsupported)
        }
        ExprKind::String(text) => Ok(Value::string(text)),
        ExprKind::Array(items) => items
            .iter()
            .map(|item| evaluate(item, environment))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::tuple),
        ExprKind::Object(items) => {
            let mut attributes = BTreeMap::new();
            for item in items {
                let key = match &item.key.kind {
                    ExprKind::Traversal(traversal) if traversal.steps.is_empty() => {
                        traversal.root.clone()
                    }
                    _ => {
                        let key = evaluate(&item.key, environment)?;
                        let converted = crate::convert::convert(&key, &crate::Type::String)
                            .map_err(|_| unsupported())?;
                        converted.as_str().ok_or_else(unsupported)?.to_owned()
                    }
                };
                attributes.insert(key, evaluate(&item.value, environment)?);
            }
            Ok(Value::object(attributes))
        }
        ExprKind::Call(call) => {
            let arguments = call
                .args
                .iter()
                .map(|argument| evaluate(argument, environment))
                .collect::<Result<Vec<_>, _>>()?;
            call_function(&call.name, &arguments, environment).map_err(|errors| EvalError::Call {
                range: expr.range,
                errors,
            })
        }
        ExprKind::Template(_)
        | ExprKind::Traversal(_)
        | ExprKind::For(_)
        | ExprKind::Operation(_) => Err(unsupported()),
    }
}

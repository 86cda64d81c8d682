//! Constant values, as OpenTofu evaluates arguments while loading: with no
//! variables and no functions (`diagnostics.md` §4.15).
//!
//! Native syntax gives a value for literals, `[…]` and `{…}` of constants,
//! strings without interpolation and a unary minus on a number; anything else
//! (references, calls, templates, operators, `for`) makes the whole value
//! [`Value::Unknown`], which converts to every type, so rules stay silent on it.
//! JSON syntax gives its literal values, strings verbatim (no template reading
//! while loading, so `"${var.x}"` is that text).
//!
//! Collections keep their structural shape: a list, set or map produced by a
//! conversion is still a [`Value::Tuple`] or [`Value::Object`]. Numbers keep
//! their text as written; a conversion (through `tofu_eval`'s model, see
//! [`Value::to_eval`]) gives the text cty prints. Values nested deeper than
//! [`MAX_VALUE_DEPTH`] are unknown.

use tofu_syntax::{Expr, ExprKind, Operation, Syntax, Template, TextRange};

use crate::file_text::FileText;

/// Values nested deeper than this are not evaluated (they are unknown).
pub const MAX_VALUE_DEPTH: usize = 128;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The number as written (or as a conversion produced it).
    Number(String),
    String(String),
    /// A tuple, or a list or set after conversion.
    Tuple(Vec<Value>),
    /// An object, or a map after conversion; keys are unique, in source order.
    Object(Vec<(String, Value)>),
    /// Not a constant: converts to anything.
    Unknown,
}

impl Value {
    /// The value of an argument OpenTofu evaluates while loading (`default`).
    /// `text` is the file the expression's ranges index into (whole, or
    /// the part a rule may read).
    pub fn from_expr<'t>(expr: &Expr, syntax: Syntax, text: impl Into<FileText<'t>>) -> Value {
        let text = text.into();
        let value = match syntax {
            Syntax::Native => native_value(expr, text, 0),
            Syntax::Json => json_value(expr, text, 0),
        };
        value.unwrap_or(Value::Unknown)
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_known(&self) -> bool {
        !matches!(self, Value::Unknown)
    }

    /// The value as `tofu_eval`'s, which the conversions take: a null or
    /// an unknown of type `dynamic` (a constant's type is known only once
    /// converted), a number as cty parses it (one it does not is unknown).
    /// Parts nested deeper than [`MAX_VALUE_DEPTH`] are unknown.
    pub fn to_eval(&self) -> tofu_eval::Value {
        self.to_eval_at(0)
    }

    fn to_eval_at(&self, depth: usize) -> tofu_eval::Value {
        use tofu_eval::Value as EvalValue;
        if depth > MAX_VALUE_DEPTH {
            return EvalValue::dynamic_unknown();
        }
        match self {
            Value::Null => EvalValue::dynamic_null(),
            Value::Unknown => EvalValue::dynamic_unknown(),
            Value::Bool(value) => EvalValue::bool(*value),
            Value::Number(text) => tofu_eval::Number::parse(text)
                .map_or_else(EvalValue::dynamic_unknown, EvalValue::number),
            Value::String(text) => EvalValue::string(text),
            Value::Tuple(items) => EvalValue::tuple(
                items
                    .iter()
                    .map(|item| item.to_eval_at(depth + 1))
                    .collect(),
            ),
            Value::Object(attributes) => EvalValue::object(
                attributes
                    .iter()
                    .map(|(name, value)| (name.clone(), value.to_eval_at(depth + 1)))
                    .collect(),
            ),
        }
    }

    /// A `tofu_eval` value in this model: collections become tuples and
    /// objects (keys in cty's order), numbers the text cty prints.
    pub fn from_eval(value: &tofu_eval::Value) -> Value {
        use tofu_eval::ValueKind;
        match &value.kind {
            ValueKind::Null(_) => Value::Null,
            ValueKind::Unknown(_) => Value::Unknown,
            ValueKind::Bool(flag) => Value::Bool(*flag),
            ValueKind::Number(number) => Value::Number(number.text('f', -1)),
            ValueKind::String(text) => Value::String(text.clone()),
            ValueKind::List { items, .. }
            | ValueKind::Set { items, .. }
            | ValueKind::Tuple(items) => Value::Tuple(items.iter().map(Value::from_eval).collect()),
            ValueKind::Map { entries, .. } | ValueKind::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(name, entry)| (name.clone(), Value::from_eval(entry)))
                    .collect(),
            ),
        }
    }
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
/// (operators, conditionals, `for`, templates) gives `Ok(Value::Unknown)`:
/// it may well be a constant.
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
    Ok(native_value(expr, text, 0).unwrap_or(Value::Unknown))
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
        ExprKind::Null => Some(Value::Null),
        ExprKind::Bool(value) => Some(Value::Bool(*value)),
        // hcl-edit folds a minus into the literal, spaces included: `- 1.5`.
        ExprKind::Number(number) => Some(Value::Number(
            number.chars().filter(|c| !c.is_whitespace()).collect(),
        )),
        ExprKind::String(value) => Some(Value::String(value.clone())),
        ExprKind::Array(items) => items
            .iter()
            .map(|item| native_value(item, text, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Value::Tuple),
        ExprKind::Object(items) => {
            let mut attributes = Vec::with_capacity(items.len());
            for item in items {
                let key = native_key(&item.key, text, depth)?;
                let value = native_value(&item.value, text, depth + 1)?;
                insert_attribute(&mut attributes, key, value);
            }
            Some(Value::Object(attributes))
        }
        // Unary minus is the only operator evaluated: `-5`, `- 5`, `-(5)`.
        ExprKind::Operation(Operation {
            operands: children, ..
        }) => match children.as_slice() {
            [operand] if text.slice(expr.range).trim_start().starts_with('-') => {
                match native_value(operand, text, depth + 1)? {
                    Value::Number(number) => Some(Value::Number(negate(&number))),
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
    match native_value(key, text, depth + 1)? {
        Value::String(value) => Some(value),
        // The text cty prints for it: `1e3` is the name "1000".
        Value::Number(number) => {
            Some(tofu_eval::Number::parse(&number).map_or(number, |parsed| parsed.text('f', -1)))
        }
        Value::Bool(value) => Some(value.to_string()),
        // HCL reads a bare `null` key as the name "null"; a computed null is an error.
        Value::Null if text.slice(key.range) == "null" => Some("null".to_owned()),
        _ => None,
    }
}

fn json_value(expr: &Expr, text: FileText<'_>, depth: usize) -> Option<Value> {
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    match &expr.kind {
        ExprKind::Null => Some(Value::Null),
        ExprKind::Bool(value) => Some(Value::Bool(*value)),
        ExprKind::Number(number) => Some(Value::Number(number.clone())),
        ExprKind::String(value) => Some(Value::String(value.clone())),
        // A string holding `${` or `%{`: verbatim while loading.
        ExprKind::Template(_) => decode_json_string(text.slice(expr.range)).map(Value::String),
        ExprKind::Array(items) => items
            .iter()
            .map(|item| json_value(item, text, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Value::Tuple),
        ExprKind::Object(items) => {
            let mut attributes = Vec::with_capacity(items.len());
            for item in items {
                let key = item.key.as_str()?.to_owned();
                let value = json_value(&item.value, text, depth + 1)?;
                insert_attribute(&mut attributes, key, value);
            }
            Some(Value::Object(attributes))
        }
        ExprKind::Traversal(_) | ExprKind::Call(_) | ExprKind::Operation(_) | ExprKind::For(_) => {
            None
        }
    }
}

/// A later key replaces an earlier one in place.
fn insert_attribute(attributes: &mut Vec<(String, Value)>, key: String, value: Value) {
    match attributes.iter_mut().find(|(name, _)| *name == key) {
        Some(existing) => existing.1 = value,
        None => attributes.push((key, value)),
    }
}

fn negate(number: &str) -> String {
    match number.strip_prefix('-') {
        Some(positive) => positive.to_owned(),
        None => format!("-{}", number.strip_prefix('+').unwrap_or(number)),
    }
}

pub use crate::expr::content::json_string_value as decode_json_string;

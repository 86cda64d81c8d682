//! Arguments OpenTofu evaluates while loading (`diagnostics.md` §4.15), with
//! no variables and no functions: `invalid-constant-argument`.
//!
//! [`FileChecker::evaluate`] is HCL's `Value(nil)`: every reference gives
//! "Variables not allowed" on its first name, every call "Function calls not
//! allowed" on the call (its arguments are not evaluated); names bound by a
//! `for` expression are not references. The value itself comes from
//! [`Value::from_expr`]. The decoders then convert as `gohcl.DecodeExpression`
//! does, with "Unsuitable value type" on the expression's start; a value that
//! failed to evaluate is unknown, and OpenTofu reports that too (`value must be
//! known`). JSON strings are taken verbatim and never fail to evaluate.
//!
//! Deliberately left out: operators, conditionals, templates and `for`
//! expressions are not computed. Their references and calls are reported, but a
//! value built from constants by them is not converted, so HCL's own evaluation
//! errors ("Invalid operand", …) never appear. Nothing here reports on what it
//! does not evaluate.

use tofu_syntax::{Code, Diagnostic, Expr, ExprKind, Syntax, TextRange, TraversalStep};

use super::FileChecker;
use crate::types::Value;

/// What an expression evaluates to, as far as the decoders need to know.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Constant {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    String(String),
    /// A tuple or object constructor (JSON: an array or object): cty's
    /// name for its type, `tuple` or `object`.
    Collection(&'static str),
    /// Evaluation failed and was reported: the value is unknown.
    Unknown,
    /// Something tofu-lens does not compute (operators, conditionals, `for`).
    NotEvaluated,
}

/// The result of decoding an argument into a string or a bool.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Decoded<T> {
    Value(T),
    /// Errors were reported for the argument.
    Failed,
    /// tofu-lens did not compute the value; nothing was reported.
    Unchecked,
}

impl FileChecker<'_> {
    /// Decodes an argument into a string (`description`, `alias`, …).
    pub(super) fn decode_string(&self, expr: &Expr, out: &mut Vec<Diagnostic>) -> Decoded<String> {
        let mut errors = Vec::new();
        let value = self.evaluate(expr, &mut errors);
        let evaluation_failed = !errors.is_empty();
        out.extend(errors);
        let converted = match value {
            Constant::String(text) | Constant::Number(text) => Ok(text),
            Constant::Bool(value) => Ok(value.to_string()),
            Constant::Null => Err("null value is not allowed".to_owned()),
            Constant::Collection(kind) => Err(mismatch("string", kind)),
            Constant::Unknown => Err("value must be known".to_owned()),
            Constant::NotEvaluated => return Decoded::Unchecked,
        };
        self.finish_decoding(expr, converted, evaluation_failed, out)
    }

    /// Decodes an argument into a bool (`sensitive`, `nullable`, …).
    pub(super) fn decode_bool(&self, expr: &Expr, out: &mut Vec<Diagnostic>) -> Decoded<bool> {
        let mut errors = Vec::new();
        let value = self.evaluate(expr, &mut errors);
        let evaluation_failed = !errors.is_empty();
        out.extend(errors);
        let converted = match value {
            Constant::Bool(value) => Ok(value),
            Constant::String(text) => string_to_bool(&text).map_err(str::to_owned),
            Constant::Number(_) => Err(mismatch("bool", "number")),
            Constant::Collection(kind) => Err(mismatch("bool", kind)),
            Constant::Null => Err("null value is not allowed".to_owned()),
            Constant::Unknown => Err("value must be known".to_owned()),
            Constant::NotEvaluated => return Decoded::Unchecked,
        };
        self.finish_decoding(expr, converted, evaluation_failed, out)
    }

    fn finish_decoding<T>(
        &self,
        expr: &Expr,
        converted: Result<T, String>,
        evaluation_failed: bool,
        out: &mut Vec<Diagnostic>,
    ) -> Decoded<T> {
        match converted {
            Ok(value) if !evaluation_failed => Decoded::Value(value),
            Ok(_) => Decoded::Failed,
            Err(reason) => {
                out.push(
                    Diagnostic::new(
                        Code::InvalidConstantArgument,
                        "Unsuitable value type",
                        self.at(self.expr_start(expr)),
                    )
                    .with_detail(format!("Unsuitable value: {reason}")),
                );
                Decoded::Failed
            }
        }
    }

    /// Evaluates an expression with no variables and no functions, pushing
    /// HCL's evaluation errors to `errors`.
    pub(super) fn evaluate(&self, expr: &Expr, errors: &mut Vec<Diagnostic>) -> Constant {
        let syntax = if self.is_json() {
            Syntax::Json
        } else {
            let n_errors_before = errors.len();
            self.evaluation_errors(expr, &[], errors);
            if errors.len() > n_errors_before {
                // A constructor still has its shape; anything else is unknown.
                return match expr.kind {
                    ExprKind::Array(_) => Constant::Collection("tuple"),
                    ExprKind::Object(_) => Constant::Collection("object"),
                    _ => Constant::Unknown,
                };
            }
            Syntax::Native
        };
        match Value::from_expr(expr, syntax, self.text()) {
            Value::Null => Constant::Null,
            Value::Bool(value) => Constant::Bool(value),
            Value::Number(number) => Constant::Number(number),
            Value::String(text) => Constant::String(text),
            Value::Tuple(_) => Constant::Collection("tuple"),
            Value::Object(_) => Constant::Collection("object"),
            Value::Unknown => Constant::NotEvaluated,
        }
    }

    /// HCL's errors for a native expression evaluated without a context:
    /// every reference but to names a `for` expression binds (`bound`), and
    /// every call (whose arguments are not evaluated).
    fn evaluation_errors(&self, expr: &Expr, bound: &[&str], errors: &mut Vec<Diagnostic>) {
        match &expr.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
            ExprKind::Template(parts) => {
                // Template directives bind names (`%{ for x in … }`): not walked.
                if !expr.range.slice(self.text()).contains("%{") {
                    for part in parts {
                        self.evaluation_errors(part, bound, errors);
                    }
                }
            }
            ExprKind::Array(items) => {
                for item in items {
                    self.evaluation_errors(item, bound, errors);
                }
            }
            ExprKind::Object(items) => {
                for item in items {
                    if !self.is_literal_object_key(&item.key) {
                        self.evaluation_errors(&item.key, bound, errors);
                    }
                    self.evaluation_errors(&item.value, bound, errors);
                }
            }
            ExprKind::Traversal(traversal) => {
                if bound.contains(&traversal.root.as_str()) {
                    return;
                }
                errors.push(
                    Diagnostic::new(
                        Code::InvalidConstantArgument,
                        "Variables not allowed",
                        self.at(traversal.root_range),
                    )
                    .with_detail("Variables may not be used here."),
                );
                for step in &traversal.steps {
                    if let TraversalStep::Index { key, .. } = step {
                        if !is_literal(key) {
                            self.evaluation_errors(key, bound, errors);
                        }
                    }
                }
            }
            ExprKind::Call(_) => errors.push(
                Diagnostic::new(
                    Code::InvalidConstantArgument,
                    "Function calls not allowed",
                    self.at(expr.range),
                )
                .with_detail("Functions may not be called here."),
            ),
            ExprKind::Other(children) => {
                let Some(for_names) = self.for_expression_names(expr) else {
                    for child in children {
                        self.evaluation_errors(child, bound, errors);
                    }
                    return;
                };
                // A `for` expression evaluates its collection first; only when
                // that succeeds are the key, value and condition evaluated, with
                // the names it binds (once here, where HCL repeats per element).
                let Some((collection, rest)) = children.split_first() else {
                    return;
                };
                let n_errors_before = errors.len();
                self.evaluation_errors(collection, bound, errors);
                if errors.len() > n_errors_before {
                    return;
                }
                let mut inner_bound = bound.to_vec();
                inner_bound.extend(for_names.iter().copied());
                for child in rest {
                    self.evaluation_errors(child, &inner_bound, errors);
                }
            }
        }
    }

    /// An object key written as a bare name (`{ a = 1 }`) is a string, not a
    /// reference; a parenthesised one (`{ (a) = 1 }`) is an expression.
    fn is_literal_object_key(&self, key: &Expr) -> bool {
        match &key.kind {
            ExprKind::Traversal(traversal) => {
                traversal.steps.is_empty() && !key.range.slice(self.text()).starts_with('(')
            }
            _ => is_literal(key),
        }
    }

    /// The names a `for` expression binds (`[for k, v in …`), or `None` when
    /// `expr` is not a `for` expression.
    fn for_expression_names<'t>(&'t self, expr: &Expr) -> Option<Vec<&'t str>> {
        let raw = expr.range.slice(self.text());
        let rest = raw.strip_prefix('[').or_else(|| raw.strip_prefix('{'))?;
        let after_for = rest.trim_start().strip_prefix("for")?;
        if !after_for.starts_with(char::is_whitespace) {
            return None;
        }
        let names_end = after_for.find(" in ")?;
        let names = after_for.get(..names_end)?;
        Some(names.split(',').map(str::trim).collect())
    }

    /// Where HCL starts an expression ([`crate::expr::start`]).
    pub(super) fn expr_start(&self, expr: &Expr) -> TextRange {
        crate::expr::start::expr_start(self.text(), expr, self.is_json())
    }
}

/// A literal key or index: a number, a quoted string without interpolation,
/// `true`, `false`, `null`.
pub(super) fn is_literal(expr: &Expr) -> bool {
    matches!(
        expr.kind,
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_)
    )
}

/// cty's conversion error for a value of type `have` where `want` is
/// required (`convert.MismatchMessage` for primitive types).
fn mismatch(want: &str, have: &str) -> String {
    format!("{want} required, but have {have}")
}

/// cty's string-to-bool conversion.
fn string_to_bool(text: &str) -> Result<bool, &'static str> {
    match text {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ if text.eq_ignore_ascii_case("true") => {
            Err("a bool is required; to convert from string, use lowercase \"true\"")
        }
        _ if text.eq_ignore_ascii_case("false") => {
            Err("a bool is required; to convert from string, use lowercase \"false\"")
        }
        _ => Err("a bool is required"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_convert_to_bools_as_cty_converts_them() {
        assert_eq!(string_to_bool("1"), Ok(true));
        assert_eq!(string_to_bool("false"), Ok(false));
        assert_eq!(
            string_to_bool("True"),
            Err("a bool is required; to convert from string, use lowercase \"true\"")
        );
        assert_eq!(string_to_bool("123"), Err("a bool is required"));
    }
}

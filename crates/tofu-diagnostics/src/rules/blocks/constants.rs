//! Arguments OpenTofu evaluates while loading (`diagnostics.md` §4.15), with
//! no variables and no functions: `invalid-constant-argument`.
//!
//! [`FileChecker::evaluate`] is HCL's `Value(nil)`: every reference gives
//! "Variables not allowed" on its first name, every call "Function calls not
//! allowed" on the call (its arguments are not evaluated); names bound by a
//! `for` expression are not references. The value itself comes from
//! [`static_value`]. The decoders then convert as `gohcl.DecodeExpression`
//! does, with "Unsuitable value type" on the expression's start; a value that
//! failed to evaluate is not converted, so its evaluation errors are all that
//! is reported (as `tofu validate` 1.12.6 does). JSON strings are taken
//! verbatim and never fail to evaluate.
//!
//! Deliberately left out: operators, conditionals, templates and `for`
//! expressions are not computed. Their references and calls are reported, but a
//! value built from constants by them is not converted, so HCL's own evaluation
//! errors ("Invalid operand", …) never appear. Nothing here reports on what it
//! does not evaluate.

use tofu_syntax::{
    Diagnostic, Expr, ExprKind, Operation, Syntax, Template, TextRange, TraversalStep,
};

use super::file_checker::FileChecker;
use tofu_eval::ValueKind;
use tofu_module::types::static_value;

/// What an expression evaluates to, as far as the decoders need to know.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Constant {
    Null,
    Bool(bool),
    /// The number as cty writes it as a string (`1.50` is `1.5`).
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
            // OpenTofu does not convert a value whose evaluation failed: the
            // evaluation errors are all it reports.
            _ if evaluation_failed => Decoded::Failed,
            Ok(value) => Decoded::Value(value),
            Err(reason) => {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_CONSTANT_ARGUMENT,
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
        match static_value(expr, syntax, self.text()).kind {
            ValueKind::Null(_) => Constant::Null,
            ValueKind::Bool(value) => Constant::Bool(value),
            ValueKind::Number(number) => Constant::Number(number.text('f', -1)),
            ValueKind::String(text) => Constant::String(text),
            ValueKind::Tuple(_) => Constant::Collection("tuple"),
            ValueKind::Object(_) => Constant::Collection("object"),
            // Constants are never collections; anything else is not
            // computed.
            _ => Constant::NotEvaluated,
        }
    }

    /// HCL's errors for a native expression evaluated without a context:
    /// every reference but to names a `for` expression binds (`bound`), and
    /// every call (whose arguments are not evaluated).
    fn evaluation_errors(&self, expr: &Expr, bound: &[&str], errors: &mut Vec<Diagnostic>) {
        match &expr.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
            ExprKind::Template(Template {
                expressions: parts, ..
            }) => {
                for part in parts {
                    self.evaluation_errors(part, bound, errors);
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
                        crate::codes::INVALID_CONSTANT_ARGUMENT,
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
                    crate::codes::INVALID_CONSTANT_ARGUMENT,
                    "Function calls not allowed",
                    self.at(expr.range),
                )
                .with_detail("Functions may not be called here."),
            ),
            ExprKind::Operation(Operation {
                operands: children, ..
            }) => {
                for child in children {
                    self.evaluation_errors(child, bound, errors);
                }
            }
            ExprKind::For(for_expr) => {
                // The collection is evaluated first; only when that succeeds
                // are the key, value and condition evaluated, with the names
                // the `for` binds (once here, where HCL repeats per element).
                let n_errors_before = errors.len();
                self.evaluation_errors(&for_expr.collection, bound, errors);
                if errors.len() > n_errors_before {
                    return;
                }
                let mut inner_bound = bound.to_vec();
                inner_bound.extend(for_expr.names.iter().map(|(name, _)| name.as_str()));
                for part in &for_expr.body {
                    self.evaluation_errors(part, &inner_bound, errors);
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

    /// Where HCL starts an expression ([`tofu_module::expr::start`]).
    pub(super) fn expr_start(&self, expr: &Expr) -> TextRange {
        tofu_module::expr::start::expr_start(self.text(), expr, self.is_json())
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

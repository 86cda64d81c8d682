//! Operators and conditionals: HCL's `UnaryOpExpr`, `BinaryOpExpr` and
//! `ConditionalExpr` over cty's operator functions (`stdlib.AddFunc`,
//! `EqualFunc`, `AndFunc`, …).
//!
//! An operand is converted to the operator's parameter type first
//! ("Invalid operand"); `&&` and `||` short-circuit on known operands
//! (a null is not true, and so counts as false); then the function runs as cty runs it:
//! a null operand is an error ("argument must not be null"), an unknown
//! one gives an unknown result (comparisons and equality excepted, which
//! look at unknowns themselves), marks are taken off and put on the result.
//! The conditional evaluates both results, unifies their types, and keeps
//! the errors of the branch it takes only.

use tofu_syntax::{BinaryOperator, Expr, TextRange, UnaryOperator};

use super::{Diagnostics, EvalDiagnostic, Evaluator};
use crate::convert::{convert, unify};
use crate::number::Number;
use crate::types::Type;
use crate::value::{Tristate, Value, ValueKind};
use tofu_syntax::go_text::go_quote;

impl Evaluator<'_> {
    /// `-x`, `!x`.
    pub(super) fn unary(
        &mut self,
        expr: &Expr,
        operator: UnaryOperator,
        operand: Option<&Expr>,
    ) -> (Value, Diagnostics) {
        let Some(operand) = operand else {
            return (Value::dynamic_unknown(), Vec::new());
        };
        let (parameter, result_type) = match operator {
            UnaryOperator::Negate => (Type::Number, Type::Number),
            UnaryOperator::Not => (Type::Bool, Type::Bool),
        };
        let (given, mut diagnostics) = self.value(operand);
        let converted = self.operand(&given, &parameter, operand, "unary", expr, &mut diagnostics);
        let Some(value) = converted.filter(|_| diagnostics.is_empty()) else {
            return (Value::unknown(result_type), diagnostics);
        };
        let (value, marks) = value.unmark_deep();
        if value.is_null() {
            diagnostics.push(operation_failed(expr.range, "argument must not be null"));
            return (Value::unknown(result_type), diagnostics);
        }
        let result = match (&value.kind, operator) {
            (ValueKind::Number(number), UnaryOperator::Negate) => Value::number(number.negate()),
            (ValueKind::Bool(value), UnaryOperator::Not) => Value::bool(!value),
            _ => Value::unknown_not_null(result_type),
        };
        (result.with_marks(marks), diagnostics)
    }

    /// `a OP b`.
    pub(super) fn binary(
        &mut self,
        expr: &Expr,
        operator: BinaryOperator,
        operands: &[Expr],
    ) -> (Value, Diagnostics) {
        let [left, right] = operands else {
            return (Value::dynamic_unknown(), Vec::new());
        };
        let (parameter, result_type) = operator_types(operator);
        let mut diagnostics = Vec::new();
        let (given_left, left_diagnostics) = self.value(left);
        let left_value = self.operand(
            &given_left,
            &parameter,
            left,
            "left",
            expr,
            &mut diagnostics,
        );
        let (given_right, right_diagnostics) = self.value(right);
        let right_value = self.operand(
            &given_right,
            &parameter,
            right,
            "right",
            expr,
            &mut diagnostics,
        );
        let (Some(left_value), Some(right_value)) = (left_value, right_value) else {
            diagnostics.extend(left_diagnostics);
            diagnostics.extend(right_diagnostics);
            return (Value::unknown(result_type), diagnostics);
        };
        let (left_value, left_marks) = left_value.unmark();
        let (right_value, right_marks) = right_value.unmark();
        let mut marks = left_marks.union(right_marks);
        if matches!(operator, BinaryOperator::Equal | BinaryOperator::NotEqual) {
            // cty's `Equals` takes nested marks off and puts them on the result.
            marks = marks
                .union(left_value.deep_marks())
                .union(right_value.deep_marks());
        }
        if let Some((forced, forced_diagnostics)) = short_circuit(
            operator,
            &left_value,
            &right_value,
            &left_diagnostics,
            &right_diagnostics,
        ) {
            return (forced.with_marks(marks), forced_diagnostics);
        }
        diagnostics.extend(left_diagnostics);
        diagnostics.extend(right_diagnostics);
        if !diagnostics.is_empty() {
            return (Value::unknown(result_type).with_marks(marks), diagnostics);
        }
        match apply_binary(operator, &left_value, &right_value) {
            Ok(result) => (result.with_marks(marks), diagnostics),
            Err(message) => {
                diagnostics.push(operation_failed(expr.range, message));
                (Value::unknown(result_type), diagnostics)
            }
        }
    }

    /// One operand converted to the operator's parameter type.
    fn operand(
        &self,
        given: &Value,
        parameter: &Type,
        operand: &Expr,
        side: &str,
        expr: &Expr,
        diagnostics: &mut Diagnostics,
    ) -> Option<Value> {
        match convert(given, parameter) {
            Ok(value) => Some(value),
            Err(error) => {
                diagnostics.push(
                    EvalDiagnostic::new(
                        "Invalid operand",
                        format!("Unsuitable value for {side} operand: {}.", error.message),
                        operand.range,
                    )
                    .in_context(expr.range),
                );
                None
            }
        }
    }

    /// `c ? a : b`.
    pub(super) fn conditional(&mut self, expr: &Expr, operands: &[Expr]) -> (Value, Diagnostics) {
        let [condition, if_true, if_false] = operands else {
            return (Value::dynamic_unknown(), Vec::new());
        };
        let (true_value, true_diagnostics) = self.value(if_true);
        let (false_value, false_diagnostics) = self.value(if_false);
        let (condition_value, condition_diagnostics) = self.value(condition);
        let branches = Branches {
            true_value,
            true_diagnostics,
            true_range: if_true.range,
            false_value,
            false_diagnostics,
            false_range: if_false.range,
        };
        choose(
            expr.range,
            condition.range,
            (condition_value, condition_diagnostics),
            branches,
        )
    }
}

/// The two results of a conditional (or a `%{ if }`), evaluated.
pub(super) struct Branches {
    pub true_value: Value,
    pub true_diagnostics: Diagnostics,
    pub true_range: TextRange,
    pub false_value: Value,
    pub false_diagnostics: Diagnostics,
    pub false_range: TextRange,
}

/// HCL's `ConditionalExpr.Value` once its three parts are evaluated (the
/// condition's errors come after the type check, as HCL evaluates it).
pub(super) fn choose(
    range: TextRange,
    condition_range: TextRange,
    condition: (Value, Diagnostics),
    branches: Branches,
) -> (Value, Diagnostics) {
    let Branches {
        true_value,
        true_diagnostics,
        true_range,
        false_value,
        false_diagnostics,
        false_range,
    } = branches;
    let is_dynamic_null =
        |value: &Value| matches!(&value.kind, ValueKind::Null(Type::Dynamic)) && !value.is_marked();
    let true_type = true_value.ty();
    let false_type = false_value.ty();
    let result_type = if is_dynamic_null(&true_value) {
        Some(false_type.clone())
    } else if is_dynamic_null(&false_value) {
        Some(true_type.clone())
    } else if true_type == Type::Dynamic || false_type == Type::Dynamic {
        Some(Type::Dynamic)
    } else {
        unify(&[true_type.clone(), false_type.clone()], true)
    };
    let Some(result_type) = result_type else {
        return (
            Value::dynamic_unknown(),
            vec![EvalDiagnostic::new(
                "Inconsistent conditional result types",
                format!(
                    "The true and false result expressions must have consistent types. {}.",
                    describe_mismatch(&true_type, &false_type)
                ),
                true_range.cover(false_range),
            )
            .in_context(range)],
        );
    };
    let (condition_value, mut diagnostics) = condition;
    if condition_value.is_null() {
        diagnostics.push(
            EvalDiagnostic::new(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                condition_range,
            )
            .in_context(range),
        );
        return (Value::unknown(result_type), diagnostics);
    }
    let (condition_value, condition_marks) = condition_value.unmark();
    let (true_value, true_marks) = true_value.unmark();
    let (false_value, false_marks) = false_value.unmark();
    let marks = condition_marks.union(true_marks).union(false_marks);
    if !condition_value.is_known() {
        if true_value.is_null() && false_value.is_null() {
            return (Value::null(result_type).with_marks(marks), diagnostics);
        }
        let not_null = definitely_not_null(&true_value) && definitely_not_null(&false_value);
        let unknown = if not_null {
            Value::unknown_not_null(result_type)
        } else {
            Value::unknown(result_type)
        };
        return (unknown.with_marks(marks), diagnostics);
    }
    let Some(chosen) = convert(&condition_value, &Type::Bool)
        .ok()
        .and_then(|value| value.as_bool())
    else {
        diagnostics.push(
            EvalDiagnostic::new(
                "Incorrect condition type",
                "The condition expression must be of type bool.",
                condition_range,
            )
            .in_context(range),
        );
        return (Value::unknown(result_type), diagnostics);
    };
    let (value, value_diagnostics, value_range, which) = if chosen {
        (true_value, true_diagnostics, true_range, "true")
    } else {
        (false_value, false_diagnostics, false_range, "false")
    };
    diagnostics.extend(value_diagnostics);
    let value = if value.ty() == result_type {
        value
    } else {
        match convert(&value, &result_type) {
            Ok(converted) => converted,
            Err(error) => {
                diagnostics.push(
                    EvalDiagnostic::new(
                        "Inconsistent conditional result types",
                        format!(
                            "The {which} result value has the wrong type: {}.",
                            error.message
                        ),
                        value_range,
                    )
                    .in_context(range),
                );
                Value::unknown(result_type)
            }
        }
    };
    (value.with_marks(marks), diagnostics)
}

fn definitely_not_null(value: &Value) -> bool {
    match &value.kind {
        ValueKind::Null(_) => false,
        ValueKind::Unknown(unknown) => unknown.not_null,
        _ => true,
    }
}

/// HCL's `describeConditionalTypeMismatch`.
fn describe_mismatch(true_type: &Type, false_type: &Type) -> String {
    match (true_type, false_type) {
        (Type::Object(true_object), Type::Object(false_object)) => {
            for (name, true_attribute) in true_object.attributes() {
                let Some(false_attribute) = false_object.attribute(name) else {
                    return format!(
                        "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                        go_quote(name)
                    );
                };
                if true_attribute != false_attribute {
                    return format!(
                        "Type mismatch for object attribute {}: {}",
                        go_quote(name),
                        describe_mismatch(true_attribute, false_attribute)
                    );
                }
            }
            if let Some(name) = false_object
                .names()
                .find(|name| !true_object.has_attribute(name))
            {
                return format!(
                    "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                    go_quote(name)
                );
            }
        }
        (Type::Tuple(true_elements), Type::Tuple(false_elements)) => {
            if true_elements.len() != false_elements.len() {
                return format!(
                    "The 'true' tuple has length {}, but the 'false' tuple has length {}",
                    true_elements.len(),
                    false_elements.len()
                );
            }
            for (index, (true_element, false_element)) in
                true_elements.iter().zip(false_elements).enumerate()
            {
                if true_element != false_element {
                    return format!(
                        "Type mismatch for tuple element {index}: {}",
                        describe_mismatch(true_element, false_element)
                    );
                }
            }
        }
        (
            Type::List(true_element) | Type::Set(true_element) | Type::Map(true_element),
            Type::List(false_element) | Type::Set(false_element) | Type::Map(false_element),
        ) => {
            let noun = match (true_type, false_type) {
                (Type::List(_), Type::List(_)) => Some("list"),
                (Type::Set(_), Type::Set(_)) => Some("set"),
                (Type::Map(_), Type::Map(_)) => Some("map"),
                _ => None,
            };
            let structural = (true_element.is_object() && false_element.is_object())
                || (true_element.is_tuple() && false_element.is_tuple());
            if let (Some(noun), true) = (noun, structural) {
                return format!(
                    "Mismatched {noun} element types: {}",
                    describe_mismatch(true_element, false_element)
                );
            }
        }
        _ => {}
    }
    let (true_name, false_name) = (true_type.friendly_name(), false_type.friendly_name());
    if true_name == false_name {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".to_owned();
    }
    format!("The 'true' value is {true_name}, but the 'false' value is {false_name}")
}

/// The parameter type and the result type of a binary operator's function.
fn operator_types(operator: BinaryOperator) -> (Type, Type) {
    match operator {
        BinaryOperator::And | BinaryOperator::Or => (Type::Bool, Type::Bool),
        BinaryOperator::Equal | BinaryOperator::NotEqual => (Type::Dynamic, Type::Bool),
        BinaryOperator::LessThan
        | BinaryOperator::LessThanOrEqual
        | BinaryOperator::GreaterThan
        | BinaryOperator::GreaterThanOrEqual => (Type::Number, Type::Bool),
        BinaryOperator::Add
        | BinaryOperator::Subtract
        | BinaryOperator::Multiply
        | BinaryOperator::Divide
        | BinaryOperator::Modulo => (Type::Number, Type::Number),
    }
}

/// HCL's `ShortCircuit` of `||` and `&&` on converted, unmarked operands.
fn short_circuit(
    operator: BinaryOperator,
    left: &Value,
    right: &Value,
    left_diagnostics: &Diagnostics,
    right_diagnostics: &Diagnostics,
) -> Option<(Value, Diagnostics)> {
    let decisive = match operator {
        BinaryOperator::Or => true,
        BinaryOperator::And => false,
        _ => return None,
    };
    // cty's `True()` is `Equals(True)`, and `False()` is `!True()`: a
    // known null is not true, and so it is false.
    let is = |value: &Value, wanted: bool| (value.as_bool() == Some(true)) == wanted;
    let unknown_bool = || Value::unknown_not_null(Type::Bool);
    match (left.is_known(), right.is_known()) {
        (false, false) => {
            if left_diagnostics.is_empty() {
                return Some((unknown_bool(), left_diagnostics.clone()));
            }
            return None;
        }
        _ if left.is_known() && is(left, decisive) => {
            return Some((Value::bool(decisive), left_diagnostics.clone()))
        }
        _ if right.is_known() && is(right, decisive) => {
            return Some((Value::bool(decisive), right_diagnostics.clone()))
        }
        _ => {}
    }
    if !left.is_known() && is(right, !decisive) {
        return Some((unknown_bool(), left_diagnostics.clone()));
    }
    if !right.is_known() && is(left, !decisive) {
        return Some((unknown_bool(), right_diagnostics.clone()));
    }
    None
}

/// cty's operator function on unmarked operands of the parameter type.
fn apply_binary(
    operator: BinaryOperator,
    left: &Value,
    right: &Value,
) -> Result<Value, &'static str> {
    let (_, result_type) = operator_types(operator);
    if matches!(operator, BinaryOperator::Equal | BinaryOperator::NotEqual) {
        let equal = match left.equals(right) {
            Tristate::True => Some(true),
            Tristate::False => Some(false),
            Tristate::Unknown => None,
        };
        return Ok(match equal {
            Some(equal) => Value::bool(equal == (operator == BinaryOperator::Equal)),
            None => Value::unknown_not_null(Type::Bool),
        });
    }
    if left.is_null() || right.is_null() {
        return Err("argument must not be null");
    }
    if !left.is_known() || !right.is_known() {
        return Ok(Value::unknown_not_null(result_type));
    }
    match (&left.kind, &right.kind) {
        (ValueKind::Bool(a), ValueKind::Bool(b)) => Ok(Value::bool(match operator {
            BinaryOperator::And => *a && *b,
            _ => *a || *b,
        })),
        (ValueKind::Number(a), ValueKind::Number(b)) => arithmetic(operator, a, b),
        _ => Ok(Value::unknown_not_null(result_type)),
    }
}

fn arithmetic(operator: BinaryOperator, a: &Number, b: &Number) -> Result<Value, &'static str> {
    use std::cmp::Ordering;
    let both_infinite = a.is_infinite() && b.is_infinite();
    let zero_and_infinite = (a.is_zero() && b.is_infinite()) || (a.is_infinite() && b.is_zero());
    let number = match operator {
        BinaryOperator::Add => {
            if both_infinite && a.is_negative() != b.is_negative() {
                return Err("can't compute sum of opposing infinities");
            }
            a.add(b)
        }
        BinaryOperator::Subtract => {
            if both_infinite && a.is_negative() == b.is_negative() {
                return Err("can't subtract infinity from itself");
            }
            a.subtract(b)
        }
        BinaryOperator::Multiply => {
            if zero_and_infinite {
                return Err("can't multiply zero by infinity");
            }
            a.multiply(b)
        }
        BinaryOperator::Divide => {
            if both_infinite || (a.is_zero() && b.is_zero()) {
                return Err("can't divide zero by zero or infinity by infinity");
            }
            a.divide(b)
        }
        BinaryOperator::Modulo => {
            if zero_and_infinite {
                return Err("can't use modulo with zero and infinity");
            }
            a.modulo(b)
        }
        BinaryOperator::LessThan => return Ok(Value::bool(a.cmp_value(b) == Ordering::Less)),
        BinaryOperator::LessThanOrEqual => {
            return Ok(Value::bool(a.cmp_value(b) != Ordering::Greater))
        }
        BinaryOperator::GreaterThan => return Ok(Value::bool(a.cmp_value(b) == Ordering::Greater)),
        BinaryOperator::GreaterThanOrEqual => {
            return Ok(Value::bool(a.cmp_value(b) != Ordering::Less))
        }
        BinaryOperator::Equal
        | BinaryOperator::NotEqual
        | BinaryOperator::And
        | BinaryOperator::Or => return Ok(Value::unknown_not_null(Type::Bool)),
    };
    Ok(Value::number(number))
}

fn operation_failed(range: TextRange, message: &str) -> EvalDiagnostic {
    EvalDiagnostic::new(
        "Operation failed",
        format!("Error during operation: {message}."),
        range,
    )
}

//! Converting a constant value to a type constraint, as cty's
//! `convert.Convert` does for OpenTofu (`merging.md` §6.1), through
//! `tofu_eval`'s conversion: the value and the constraint go over to
//! `tofu_eval`'s model, and the converted value comes back.
//!
//! cty decides in two steps: first on the *types* (is there any conversion
//! from the value's type to the constraint?), which fails with cty's
//! `MismatchMessage` ("bool required", "element 0: number required",
//! `attribute "a" is required`); then on the *values*, where only strings
//! can fail ("a number is required", "a bool is required"), with the path
//! to the failing element kept apart in [`ConversionError::path`] because
//! OpenTofu prints it in one message and not in another.
//!
//! What stays here is what `tofu_eval`'s types do not carry: the defaults
//! of `optional(T, DEFAULT)` attributes ([`apply_defaults`]).

use std::collections::BTreeMap;

pub use tofu_eval::convert::ConversionError;

use super::constraint::TypeConstraint;
use super::value::Value;

/// Default-filling recursion deeper than this leaves the value as it is.
const MAX_CONVERT_DEPTH: usize = 256;

/// Converts `value` to `ty`, returning the converted value (numbers as
/// strings, strings as numbers or bools, objects reduced to the type's
/// attributes with absent optional ones null) or why it does not convert.
pub fn convert(value: &Value, ty: &TypeConstraint) -> Result<Value, ConversionError> {
    tofu_eval::convert::convert(&value.to_eval(), &ty.to_type())
        .map(|converted| Value::from_eval(&converted))
}

/// OpenTofu's conversion of a value given for a variable (its default, a
/// `.tfvars` setting, a module call's argument): the defaults of
/// `optional(T, DEFAULT)` attributes filled in, unless the value is null,
/// then cty's conversion to the constraint.
pub fn convert_variable_value(
    value: &tofu_eval::Value,
    ty: &TypeConstraint,
) -> Result<tofu_eval::Value, ConversionError> {
    let value = if value.is_null() {
        value.clone()
    } else {
        apply_defaults(value, ty)
    };
    tofu_eval::convert::convert(&value, &ty.to_type())
}

/// Fills in the defaults of `optional(T, DEFAULT)` attributes that are absent
/// or null, at every level, as HCL's `typeexpr.Defaults.Apply` does before
/// OpenTofu converts a variable's value. A collection that gets defaults
/// comes back as a tuple or an object, which the conversion then makes a
/// collection again; marks stay where they were.
pub fn apply_defaults(value: &tofu_eval::Value, ty: &TypeConstraint) -> tofu_eval::Value {
    apply_defaults_at(value, ty, 0)
}

fn apply_defaults_at(
    value: &tofu_eval::Value,
    ty: &TypeConstraint,
    depth: usize,
) -> tofu_eval::Value {
    use tofu_eval::{Value as EvalValue, ValueKind};
    if depth > MAX_CONVERT_DEPTH {
        return value.clone();
    }
    let next = depth + 1;
    let marks = value.marks;
    let applied = match (&value.kind, ty) {
        (
            ValueKind::Object(items) | ValueKind::Map { entries: items, .. },
            TypeConstraint::Object { attrs },
        ) => {
            let mut applied: BTreeMap<String, EvalValue> = items
                .iter()
                .map(|(name, item)| {
                    let item = match ty.attribute(name) {
                        Some(attr) => apply_defaults_at(item, &attr.ty, next),
                        None => item.clone(),
                    };
                    (name.clone(), item)
                })
                .collect();
            for attr in attrs {
                let Some(default) = &attr.default else {
                    continue;
                };
                if applied.get(&attr.name).is_none_or(EvalValue::is_null) {
                    let filled = apply_defaults_at(&default.to_eval(), &attr.ty, next);
                    applied.insert(attr.name.clone(), filled);
                }
            }
            EvalValue::object(applied)
        }
        (
            ValueKind::Object(items) | ValueKind::Map { entries: items, .. },
            TypeConstraint::Map(element),
        ) => EvalValue::object(
            items
                .iter()
                .map(|(name, item)| (name.clone(), apply_defaults_at(item, element, next)))
                .collect(),
        ),
        (
            ValueKind::Tuple(items) | ValueKind::List { items, .. } | ValueKind::Set { items, .. },
            TypeConstraint::List(element) | TypeConstraint::Set(element),
        ) => EvalValue::tuple(
            items
                .iter()
                .map(|item| apply_defaults_at(item, element, next))
                .collect(),
        ),
        (ValueKind::Tuple(items), TypeConstraint::Tuple(types)) => EvalValue::tuple(
            items
                .iter()
                .enumerate()
                .map(|(index, item)| match types.get(index) {
                    Some(element) => apply_defaults_at(item, element, next),
                    None => item.clone(),
                })
                .collect(),
        ),
        _ => return value.clone(),
    };
    applied.with_marks(marks)
}

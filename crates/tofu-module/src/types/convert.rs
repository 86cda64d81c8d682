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

/// Fills in the defaults of `optional(T, DEFAULT)` attributes that are absent
/// or null, at every level, as HCL's `typeexpr.Defaults.Apply` does before
/// OpenTofu converts a variable's default.
pub fn apply_defaults(value: &Value, ty: &TypeConstraint) -> Value {
    apply_defaults_at(value, ty, 0)
}

fn apply_defaults_at(value: &Value, ty: &TypeConstraint, depth: usize) -> Value {
    if depth > MAX_CONVERT_DEPTH {
        return value.clone();
    }
    match (value, ty) {
        (Value::Object(items), TypeConstraint::Object { attrs }) => {
            let mut applied: Vec<(String, Value)> = items
                .iter()
                .map(|(name, item)| {
                    let item = match ty.attribute(name) {
                        Some(attr) => apply_defaults_at(item, &attr.ty, depth + 1),
                        None => item.clone(),
                    };
                    (name.clone(), item)
                })
                .collect();
            for attr in attrs {
                let Some(default) = &attr.default else {
                    continue;
                };
                let filled = apply_defaults_at(default, &attr.ty, depth + 1);
                match applied.iter_mut().find(|(name, _)| *name == attr.name) {
                    Some((_, existing)) if existing.is_null() => *existing = filled,
                    Some(_) => {}
                    None => applied.push((attr.name.clone(), filled)),
                }
            }
            Value::Object(applied)
        }
        (Value::Object(items), TypeConstraint::Map(element)) => Value::Object(
            items
                .iter()
                .map(|(name, item)| (name.clone(), apply_defaults_at(item, element, depth + 1)))
                .collect(),
        ),
        (Value::Tuple(items), TypeConstraint::List(element) | TypeConstraint::Set(element)) => {
            Value::Tuple(
                items
                    .iter()
                    .map(|item| apply_defaults_at(item, element, depth + 1))
                    .collect(),
            )
        }
        (Value::Tuple(items), TypeConstraint::Tuple(types)) => Value::Tuple(
            items
                .iter()
                .enumerate()
                .map(|(index, item)| match types.get(index) {
                    Some(element) => apply_defaults_at(item, element, depth + 1),
                    None => item.clone(),
                })
                .collect(),
        ),
        _ => value.clone(),
    }
}

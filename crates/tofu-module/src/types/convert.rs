//! OpenTofu's conversion of a value given for a variable (`merging.md`
//! §6.1): the defaults of `optional(T, DEFAULT)` attributes filled in, then
//! cty's conversion, both tofu-eval's.
//!
//! cty decides in two steps: first on the *types* (is there any conversion
//! from the value's type to the constraint?), which fails with cty's
//! `MismatchMessage` ("bool required", "element 0: number required",
//! `attribute "a" is required`); then on the *values*, where only strings
//! can fail ("a number is required", "a bool is required"), with the path
//! to the failing element kept apart in [`ConversionError::path`] because
//! OpenTofu prints it in one message and not in another.

pub use tofu_eval::convert::ConversionError;
use tofu_eval::{apply_defaults, TypeConstraint, Value};

/// OpenTofu's conversion of a value given for a variable (its default, a
/// `.tfvars` setting, a module call's argument): the defaults of
/// `optional(T, DEFAULT)` attributes filled in, unless the value is null,
/// then cty's conversion to the constraint.
pub fn convert_variable_value(
    value: &Value,
    constraint: &TypeConstraint,
) -> Result<Value, ConversionError> {
    let value = if value.is_null() {
        value.clone()
    } else {
        apply_defaults(value, &constraint.ty, &constraint.defaults)
    };
    tofu_eval::convert::convert(&value, &constraint.ty)
}

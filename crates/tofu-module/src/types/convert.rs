//! Converting a constant value to a type constraint, as cty's
//! `convert.Convert` does for OpenTofu (`merging.md` §6.1).
//!
//! cty decides in two steps and so does this module: first on the *types*
//! (is there any conversion from the value's shape to the constraint?), which
//! fails with cty's `MismatchMessage` ("bool required", "element 0: number
//! required", `attribute "a" is required`); then on the *values*, where only
//! strings can fail ("a number is required", "a bool is required"), with the
//! path to the failing element kept apart in [`ConversionError::path`] because
//! OpenTofu prints it in one message and not in another.
//!
//! Silent on purpose: an element type `any` accepts every element (cty's
//! unification of mixed element types is modelled for primitives only, for the
//! converted value), and unknown or null values convert to everything.

use std::fmt;

use super::constraint::{ObjectAttribute, TypeConstraint};
use super::value::{canonical_number, is_number, Value};
use crate::go_text::go_quote;

/// Conversion recursion deeper than this accepts the value as it is.
const MAX_CONVERT_DEPTH: usize = 256;

/// Why a value does not convert, in cty's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionError {
    /// Where in the value, as OpenTofu formats paths (`[0]`, `.name`,
    /// `["key"]`); empty at the top or for a mismatch of shapes.
    pub path: String,
    pub message: String,
}

/// `PATH: MESSAGE`, as OpenTofu's `tfdiags.FormatError` writes it.
impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Converts `value` to `ty`, returning the converted value (numbers as
/// strings, strings as numbers or bools, objects reduced to the type's
/// attributes with absent optional ones null) or why it does not convert.
pub fn convert(value: &Value, ty: &TypeConstraint) -> Result<Value, ConversionError> {
    if !convertible(value, ty, 0) {
        return Err(ConversionError {
            path: String::new(),
            message: mismatch_message(value, ty, 0),
        });
    }
    let mut path = String::new();
    convert_value(value, ty, &mut path, 0)
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

/// Whether cty has a conversion from the value's type to `ty` (`GetConversionUnsafe`).
fn convertible(value: &Value, ty: &TypeConstraint, depth: usize) -> bool {
    if depth > MAX_CONVERT_DEPTH {
        return true;
    }
    match (value, ty) {
        (_, TypeConstraint::Any) | (Value::Unknown | Value::Null, _) => true,
        (
            Value::String(_),
            TypeConstraint::String | TypeConstraint::Number | TypeConstraint::Bool,
        )
        | (Value::Number(_), TypeConstraint::String | TypeConstraint::Number)
        | (Value::Bool(_), TypeConstraint::String | TypeConstraint::Bool) => true,
        (Value::Tuple(items), TypeConstraint::List(element) | TypeConstraint::Set(element)) => {
            matches!(**element, TypeConstraint::Any)
                || items
                    .iter()
                    .all(|item| convertible(item, element, depth + 1))
        }
        (Value::Tuple(items), TypeConstraint::Tuple(types)) => {
            items.len() == types.len()
                && items
                    .iter()
                    .zip(types)
                    .all(|(item, element)| convertible(item, element, depth + 1))
        }
        (Value::Object(items), TypeConstraint::Map(element)) => {
            matches!(**element, TypeConstraint::Any)
                || items
                    .iter()
                    .all(|(_, item)| convertible(item, element, depth + 1))
        }
        (Value::Object(items), TypeConstraint::Object { attrs }) => {
            attrs.iter().all(|attr| match find(items, &attr.name) {
                Some(item) => convertible(item, &attr.ty, depth + 1),
                None => attr.optional,
            })
        }
        _ => false,
    }
}

/// cty's `MismatchMessage`, for a value that is not `convertible`.
fn mismatch_message(value: &Value, ty: &TypeConstraint, depth: usize) -> String {
    if depth > MAX_CONVERT_DEPTH {
        return format!("{} required", ty.friendly_name());
    }
    match (value, ty) {
        (Value::Object(items), TypeConstraint::Object { attrs }) => {
            let mut missing: Vec<&str> = attrs
                .iter()
                .filter(|attr| !attr.optional && find(items, &attr.name).is_none())
                .map(|attr| attr.name.as_str())
                .collect();
            missing.sort_unstable();
            match missing.as_slice() {
                [] => {}
                [only] => return format!("attribute {} is required", go_quote(only)),
                [first, second] => {
                    return format!(
                        "attributes {} and {} are required",
                        go_quote(first),
                        go_quote(second)
                    )
                }
                [init @ .., last] => {
                    let listed: Vec<String> = init.iter().map(|name| go_quote(name)).collect();
                    return format!(
                        "attributes {}, and {} are required",
                        listed.join(", "),
                        go_quote(last)
                    );
                }
            }
            let mut sorted: Vec<_> = attrs.iter().collect();
            sorted.sort_by(|a, b| a.name.cmp(&b.name));
            for attr in sorted {
                let Some(item) = find(items, &attr.name) else {
                    continue;
                };
                if !convertible(item, &attr.ty, depth + 1) {
                    return format!(
                        "attribute {}: {}",
                        go_quote(&attr.name),
                        mismatch_message(item, &attr.ty, depth + 1)
                    );
                }
            }
            "incorrect object attributes".to_owned()
        }
        (Value::Tuple(items), TypeConstraint::List(element) | TypeConstraint::Set(element)) => {
            for (index, item) in items.iter().enumerate() {
                if !convertible(item, element, depth + 1) {
                    return format!(
                        "element {index}: {}",
                        mismatch_message(item, element, depth + 1)
                    );
                }
            }
            format!("all elements must be {}", element.friendly_name())
        }
        (Value::Object(items), TypeConstraint::Map(element)) => {
            let mut sorted: Vec<_> = items.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, item) in sorted {
                if !convertible(item, element, depth + 1) {
                    return format!(
                        "element {}: {}",
                        go_quote(name),
                        mismatch_message(item, element, depth + 1)
                    );
                }
            }
            format!("all elements must be {}", element.friendly_name())
        }
        // A structural value of the wrong kind for a collection: cty names
        // only what is required.
        (Value::Object(_), TypeConstraint::List(_) | TypeConstraint::Set(_))
        | (Value::Tuple(_), TypeConstraint::Map(_)) => {
            format!("{} required", ty.friendly_name())
        }
        _ => match value_type_name(value) {
            Some(have) if !likely_to_confuse(value, ty) => {
                format!("{} required, but have {have}", ty.friendly_name())
            }
            _ => format!("{} required", ty.friendly_name()),
        },
    }
}

/// cty's `MismatchMessage` between two exact types, for a value of type
/// `have` (a default already converted to an earlier type constraint) that
/// does not convert to `want`. `None` where cty looks inside the values
/// (objects into objects, structures and collections into collections): the
/// value-based message then applies.
pub fn type_mismatch_message(have: &TypeConstraint, want: &TypeConstraint) -> Option<String> {
    let primitive = |ty: &TypeConstraint| {
        matches!(
            ty,
            TypeConstraint::Bool | TypeConstraint::Number | TypeConstraint::String
        )
    };
    let collection = |ty: &TypeConstraint| {
        matches!(
            ty,
            TypeConstraint::List(_) | TypeConstraint::Set(_) | TypeConstraint::Map(_)
        )
    };
    if !is_exact(have) || (!primitive(have) && collection(want)) {
        return None;
    }
    if matches!(
        (have, want),
        (TypeConstraint::Object { .. }, TypeConstraint::Object { .. })
    ) {
        return None;
    }
    let confusing = primitive(have) == primitive(want)
        && !matches!(want, TypeConstraint::String)
        && !matches!(
            (have, want),
            (TypeConstraint::Number, TypeConstraint::Bool)
                | (TypeConstraint::Bool, TypeConstraint::Number)
                | (TypeConstraint::Tuple(_), TypeConstraint::Object { .. })
        );
    Some(if confusing {
        format!("{} required", want.friendly_name())
    } else {
        format!(
            "{} required, but have {}",
            want.friendly_name(),
            have.friendly_name()
        )
    })
}

/// A type without `any` in it: what a value converted to it has exactly.
pub fn is_exact(ty: &TypeConstraint) -> bool {
    match ty {
        TypeConstraint::Any => false,
        TypeConstraint::String | TypeConstraint::Number | TypeConstraint::Bool => true,
        TypeConstraint::List(element)
        | TypeConstraint::Set(element)
        | TypeConstraint::Map(element) => is_exact(element),
        TypeConstraint::Object { attrs } => attrs.iter().all(|attr| is_exact(&attr.ty)),
        TypeConstraint::Tuple(elements) => elements.iter().all(is_exact),
    }
}

/// cty's friendly name of a value's own type, where it has one.
fn value_type_name(value: &Value) -> Option<&'static str> {
    match value {
        Value::Bool(_) => Some("bool"),
        Value::Number(_) => Some("number"),
        Value::String(_) => Some("string"),
        Value::Tuple(_) => Some("tuple"),
        Value::Object(_) => Some("object"),
        Value::Null | Value::Unknown => None,
    }
}

/// cty's `typesAreLikelyToCauseConfusion` (go-cty 1.18, OpenTofu 1.12): when
/// naming both types would mislead, the message names only the one required.
/// Not confusing: a primitive where a non-primitive is required or the other
/// way round, bool and number for each other, a tuple where an object is
/// required.
fn likely_to_confuse(value: &Value, ty: &TypeConstraint) -> bool {
    let value_primitive = matches!(value, Value::Bool(_) | Value::Number(_) | Value::String(_));
    let type_primitive = matches!(
        ty,
        TypeConstraint::Bool | TypeConstraint::Number | TypeConstraint::String
    );
    if value_primitive != type_primitive || matches!(ty, TypeConstraint::String) {
        return false;
    }
    !matches!(
        (value, ty),
        (Value::Number(_), TypeConstraint::Bool)
            | (Value::Bool(_), TypeConstraint::Number)
            | (Value::Tuple(_), TypeConstraint::Object { .. })
    )
}

/// The value-level conversion, for a value that is `convertible`.
fn convert_value(
    value: &Value,
    ty: &TypeConstraint,
    path: &mut String,
    depth: usize,
) -> Result<Value, ConversionError> {
    if depth > MAX_CONVERT_DEPTH {
        return Ok(value.clone());
    }
    let fail = |path: &String, message: &str| ConversionError {
        path: path.clone(),
        message: message.to_owned(),
    };
    match (value, ty) {
        (_, TypeConstraint::Any) => Ok(value.clone()),
        (Value::Unknown, _) => Ok(Value::Unknown),
        (Value::Null, _) => Ok(Value::Null),
        (Value::String(_), TypeConstraint::String)
        | (Value::Number(_), TypeConstraint::Number)
        | (Value::Bool(_), TypeConstraint::Bool) => Ok(value.clone()),
        (Value::String(text), TypeConstraint::Number) => {
            if is_number(text) {
                Ok(Value::Number(text.clone()))
            } else {
                Err(fail(path, "a number is required"))
            }
        }
        (Value::String(text), TypeConstraint::Bool) => match text.as_str() {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            _ => Err(fail(
                path,
                match text.to_lowercase().as_str() {
                    "true" => "a bool is required; to convert from string, use lowercase \"true\"",
                    "false" => {
                        "a bool is required; to convert from string, use lowercase \"false\""
                    }
                    _ => "a bool is required",
                },
            )),
        },
        (Value::Number(number), TypeConstraint::String) => Ok(Value::String(
            canonical_number(number).unwrap_or_else(|| number.clone()),
        )),
        (Value::Bool(value), TypeConstraint::String) => Ok(Value::String(value.to_string())),
        (Value::Tuple(items), TypeConstraint::List(element) | TypeConstraint::Set(element)) => {
            let mut converted = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let mark = path.len();
                path.push_str(&format!("[{index}]"));
                let result = convert_value(item, element, path, depth + 1);
                path.truncate(mark);
                converted.push(result?);
            }
            if matches!(**element, TypeConstraint::Any) {
                unify_primitives(&mut converted);
            }
            Ok(Value::Tuple(converted))
        }
        (Value::Tuple(items), TypeConstraint::Tuple(types)) => {
            let mut converted = Vec::with_capacity(items.len());
            for (index, (item, element)) in items.iter().zip(types).enumerate() {
                let mark = path.len();
                path.push_str(&format!("[{index}]"));
                let result = convert_value(item, element, path, depth + 1);
                path.truncate(mark);
                converted.push(result?);
            }
            Ok(Value::Tuple(converted))
        }
        (Value::Object(items), TypeConstraint::Map(element)) => {
            // cty walks an object's attributes in name order: the first
            // failure in that order is the one reported.
            let mut order: Vec<usize> = (0..items.len()).collect();
            order.sort_by(|&a, &b| name_at(items, a).cmp(name_at(items, b)));
            let mut converted: Vec<Option<Value>> = vec![None; items.len()];
            for index in order {
                let Some((name, item)) = items.get(index) else {
                    continue;
                };
                let mark = path.len();
                path.push_str(&format!("[{}]", go_quote(name)));
                let result = convert_value(item, element, path, depth + 1);
                path.truncate(mark);
                if let Some(slot) = converted.get_mut(index) {
                    *slot = Some(result?);
                }
            }
            let mut values: Vec<Value> = converted.into_iter().flatten().collect();
            if matches!(**element, TypeConstraint::Any) {
                unify_primitives(&mut values);
            }
            Ok(Value::Object(
                items
                    .iter()
                    .map(|(name, _)| name.clone())
                    .zip(values)
                    .collect(),
            ))
        }
        (Value::Object(items), TypeConstraint::Object { attrs }) => {
            let mut order: Vec<&ObjectAttribute> = attrs.iter().collect();
            order.sort_by(|a, b| a.name.cmp(&b.name));
            let mut converted: Vec<(String, Value)> = Vec::with_capacity(attrs.len());
            for attr in order {
                let value = match find(items, &attr.name) {
                    Some(item) => {
                        let mark = path.len();
                        path.push('.');
                        path.push_str(&attr.name);
                        let result = convert_value(item, &attr.ty, path, depth + 1);
                        path.truncate(mark);
                        result?
                    }
                    None => Value::Null,
                };
                converted.push((attr.name.clone(), value));
            }
            // Back to the type's attribute order.
            converted.sort_by_key(|(name, _)| {
                attrs
                    .iter()
                    .position(|attr| attr.name == *name)
                    .unwrap_or(usize::MAX)
            });
            Ok(Value::Object(converted))
        }
        _ => Err(fail(path, &format!("{} required", ty.friendly_name()))),
    }
}

fn find<'v>(items: &'v [(String, Value)], name: &str) -> Option<&'v Value> {
    items
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value)
}

fn name_at(items: &[(String, Value)], index: usize) -> &str {
    items.get(index).map_or("", |(name, _)| name.as_str())
}

/// Mixed primitive elements of a `list(any)` or `map(any)` all become strings,
/// the type cty unifies them to.
fn unify_primitives(values: &mut [Value]) {
    let mut kinds = values.iter().filter_map(|value| match value {
        Value::String(_) => Some(0),
        Value::Number(_) => Some(1),
        Value::Bool(_) => Some(2),
        _ => None,
    });
    let all_primitive = values.iter().all(|value| {
        matches!(
            value,
            Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null | Value::Unknown
        )
    });
    let Some(first) = kinds.next() else { return };
    if !all_primitive || kinds.all(|kind| kind == first) {
        return;
    }
    for value in values.iter_mut() {
        if let Ok(converted) = convert_value(value, &TypeConstraint::String, &mut String::new(), 0)
        {
            *value = converted;
        }
    }
}

/// cty's verdict on the *types* alone, for a value of the exact type `have`
/// (a typed null, whose conversion cty decides before looking at it):
/// `None` where a conversion exists, else cty's `MismatchMessage`. Where cty
/// names the first of several mismatched attributes in map order (random),
/// this names the first by name.
pub fn type_conversion_error(have: &TypeConstraint, want: &TypeConstraint) -> Option<String> {
    (!conversion_exists(have, want, 0)).then(|| type_mismatch(have, want, 0))
}

/// cty's `GetConversionUnsafe(have, want) != nil`.
fn conversion_exists(have: &TypeConstraint, want: &TypeConstraint, depth: usize) -> bool {
    use TypeConstraint as T;
    if depth > MAX_CONVERT_DEPTH {
        return true;
    }
    let next = depth + 1;
    match (have, want) {
        (_, T::Any) | (T::Any, _) => true,
        (T::Bool, T::Number) | (T::Number, T::Bool) => false,
        (T::Bool | T::Number | T::String, T::Bool | T::Number | T::String) => true,
        (T::Object { attrs: have }, T::Object { attrs: want }) => {
            want.iter().all(
                |wanted| match have.iter().find(|attr| attr.name == wanted.name) {
                    Some(attr) => conversion_exists(&attr.ty, &wanted.ty, next),
                    None => wanted.optional,
                },
            )
        }
        (T::Tuple(have), T::Tuple(want)) => {
            have.len() == want.len()
                && have
                    .iter()
                    .zip(want)
                    .all(|(have, want)| conversion_exists(have, want, next))
        }
        (T::List(have) | T::Set(have), T::List(want) | T::Set(want))
        | (T::Map(have), T::Map(want)) => conversion_exists(have, want, next),
        (T::Tuple(elements), T::List(want) | T::Set(want)) => {
            elements_convert(elements.iter(), want, next)
        }
        (T::Object { attrs }, T::Map(want)) => {
            elements_convert(attrs.iter().map(|attr| &attr.ty), want, next)
        }
        // An optional attribute may be absent from the map: cty leaves its
        // conversion to the value.
        (T::Map(have), T::Object { attrs }) => attrs
            .iter()
            .all(|attr| attr.optional || conversion_exists(have, &attr.ty, next)),
        _ => false,
    }
}

/// The elements of a tuple or an object converting to a collection's
/// element type; to `any`, cty unifies them, modelled for equal and
/// primitive types (which unify to a string).
fn elements_convert<'t>(
    mut elements: impl Iterator<Item = &'t TypeConstraint> + Clone,
    want: &TypeConstraint,
    depth: usize,
) -> bool {
    if *want == TypeConstraint::Any {
        let mut first = elements.clone();
        let Some(head) = first.next() else {
            return true;
        };
        let primitive = |ty: &TypeConstraint| {
            matches!(
                ty,
                TypeConstraint::Bool | TypeConstraint::Number | TypeConstraint::String
            )
        };
        return elements.all(|ty| same_type(ty, head) || (primitive(ty) && primitive(head)));
    }
    elements.all(|ty| conversion_exists(ty, want, depth))
}

/// Type equality as cty's `Equals` sees the type of a converted value:
/// optional markers and defaults left out.
fn same_type(a: &TypeConstraint, b: &TypeConstraint) -> bool {
    use TypeConstraint as T;
    match (a, b) {
        (T::List(a), T::List(b)) | (T::Set(a), T::Set(b)) | (T::Map(a), T::Map(b)) => {
            same_type(a, b)
        }
        (T::Tuple(a), T::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_type(a, b))
        }
        (T::Object { attrs: a }, T::Object { attrs: b }) => {
            a.len() == b.len()
                && a.iter().all(|attr| {
                    b.iter()
                        .any(|other| other.name == attr.name && same_type(&attr.ty, &other.ty))
                })
        }
        (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

fn has_any(ty: &TypeConstraint) -> bool {
    use TypeConstraint as T;
    match ty {
        T::Any => true,
        T::List(element) | T::Set(element) | T::Map(element) => has_any(element),
        T::Object { attrs } => attrs.iter().any(|attr| has_any(&attr.ty)),
        T::Tuple(elements) => elements.iter().any(has_any),
        T::String | T::Number | T::Bool => false,
    }
}

/// cty's `MismatchMessage(got, want)` on types.
fn type_mismatch(got: &TypeConstraint, want: &TypeConstraint, depth: usize) -> String {
    use TypeConstraint as T;
    let required = || format!("{} required", want.friendly_name());
    if depth > MAX_CONVERT_DEPTH {
        return required();
    }
    let next = depth + 1;
    let collection = |ty: &TypeConstraint| matches!(ty, T::List(_) | T::Set(_) | T::Map(_));
    match (got, want) {
        (T::Object { attrs: got }, T::Object { attrs: want }) => {
            let mut missing: Vec<&str> = Vec::new();
            let mut wanted: Vec<_> = want.iter().collect();
            wanted.sort_by(|a, b| a.name.cmp(&b.name));
            let mut mismatch = None;
            for attr in wanted {
                match got.iter().find(|have| have.name == attr.name) {
                    None if !attr.optional => missing.push(&attr.name),
                    Some(have)
                        if mismatch.is_none()
                            && !same_type(&have.ty, &attr.ty)
                            && !conversion_exists(&have.ty, &attr.ty, next) =>
                    {
                        mismatch = Some(format!(
                            "attribute {}: {}",
                            go_quote(&attr.name),
                            type_mismatch(&have.ty, &attr.ty, next)
                        ));
                    }
                    _ => {}
                }
            }
            match missing.as_slice() {
                [] => mismatch.unwrap_or_else(|| "incorrect object attributes".to_owned()),
                [one] => format!("attribute {} is required", go_quote(one)),
                [a, b] => format!(
                    "attributes {} and {} are required",
                    go_quote(a),
                    go_quote(b)
                ),
                [init @ .., last] => {
                    let init: Vec<String> = init.iter().map(|name| go_quote(name)).collect();
                    format!(
                        "attributes {}, and {} are required",
                        init.join(", "),
                        go_quote(last)
                    )
                }
            }
        }
        (T::Tuple(_), T::List(element)) if **element == T::Any => {
            "all list elements must have the same type".to_owned()
        }
        (T::Tuple(_), T::Set(element)) if **element == T::Any => {
            "all set elements must have the same type".to_owned()
        }
        (T::Object { .. }, T::Map(element)) if **element == T::Any => {
            "all map elements must have the same type".to_owned()
        }
        (T::Tuple(elements), T::List(element) | T::Set(element)) => elements
            .iter()
            .enumerate()
            .find(|(_, ty)| !same_type(ty, element) && !conversion_exists(ty, element, next))
            .map(|(index, ty)| format!("element {index}: {}", type_mismatch(ty, element, next)))
            .unwrap_or_else(|| format!("all elements must be {}", element.friendly_name())),
        (T::Object { attrs }, T::Map(element)) => {
            let mut attrs: Vec<_> = attrs.iter().collect();
            attrs.sort_by(|a, b| a.name.cmp(&b.name));
            attrs
                .iter()
                .find(|attr| {
                    !same_type(&attr.ty, element) && !conversion_exists(&attr.ty, element, next)
                })
                .map(|attr| {
                    format!(
                        "element {}: {}",
                        go_quote(&attr.name),
                        type_mismatch(&attr.ty, element, next)
                    )
                })
                .unwrap_or_else(|| format!("all elements must be {}", element.friendly_name()))
        }
        (T::Tuple(_) | T::Object { .. }, _) if collection(want) => required(),
        (T::List(_) | T::Set(_), T::List(_) | T::Set(_)) | (T::Map(_), T::Map(_)) => {
            let (T::List(have) | T::Set(have) | T::Map(have)) = got else {
                return required();
            };
            let (noun, T::List(element) | T::Set(element) | T::Map(element)) = (
                match want {
                    T::List(_) => "list element type",
                    T::Set(_) => "set element type",
                    _ => "map element type",
                },
                want,
            ) else {
                return required();
            };
            format!("incorrect {noun}: {}", type_mismatch(have, element, next))
        }
        _ if collection(got) && collection(want) => required(),
        _ if !types_confuse(got, want) => format!(
            "{} required, but have {}",
            want.friendly_name(),
            got.friendly_name()
        ),
        _ => required(),
    }
}

/// cty's `typesAreLikelyToCauseConfusion`.
fn types_confuse(got: &TypeConstraint, want: &TypeConstraint) -> bool {
    use TypeConstraint as T;
    let primitive = |ty: &TypeConstraint| matches!(ty, T::Bool | T::Number | T::String);
    let element = |ty: &TypeConstraint| match ty {
        T::List(element) | T::Set(element) | T::Map(element) => Some(has_any(element)),
        _ => None,
    };
    if primitive(got) != primitive(want) || *want == T::String {
        return false;
    }
    if matches!((got, want), (T::Bool, T::Number) | (T::Number, T::Bool)) {
        return false;
    }
    if element(got) == Some(false) && element(want) == Some(true) {
        return false;
    }
    !matches!((got, want), (T::Tuple(_), T::Object { .. }))
}

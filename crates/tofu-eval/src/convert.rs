//! cty's `convert` package: converting a value to a type (constraint), the
//! decision on types alone whether a conversion exists (safe: never fails on
//! a value; unsafe: may, like `"abc"` to number), unification of several
//! types into one (`unify`), and cty's `MismatchMessage` wording for a
//! conversion that does not exist (`mismatch`).
//!
//! As in cty, the decision is taken on the types first, so a null or
//! unknown value converts (to a null or unknown of the wanted type) exactly
//! when a known value of its type could; only then are the values
//! converted, and only strings can fail ("a number is required").
//!
//! Left out: the re-unification cty does after converting elements whose
//! target type has `dynamic` nested inside (`conversionUnifyListElements`),
//! and the refinements cty puts on unknown results.

mod mismatch;
mod unify;

use std::collections::BTreeMap;
use std::fmt;

use crate::number::Number;
use crate::types::Type;
use crate::value::{Value, ValueKind};
use tofu_syntax::go_text::go_quote;

pub use mismatch::mismatch_message;
pub use unify::unify;

/// A step of the path to the part of a value that failed to convert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStep {
    Index(usize),
    Key(String),
    Attribute(String),
}

/// A conversion that failed: cty's message and where in the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionError {
    pub path: Vec<PathStep>,
    pub message: String,
}

/// `PATH: MESSAGE`, the path as OpenTofu's `tfdiags.FormatCtyPath` writes
/// it (`[0]`, `["key"]`, `.name`); the message alone at the top.
impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.path {
            match step {
                PathStep::Index(index) => write!(f, "[{index}]")?,
                PathStep::Key(key) => write!(f, "[{}]", go_quote(key))?,
                PathStep::Attribute(name) => write!(f, ".{name}")?,
            }
        }
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, ": {}", self.message)
        }
    }
}

impl ConversionError {
    fn at(path: &[PathStep], message: impl Into<String>) -> ConversionError {
        ConversionError {
            path: path.to_vec(),
            message: message.into(),
        }
    }
}

/// cty's `convert.Convert`: unsafe conversions allowed.
pub fn convert(value: &Value, want: &Type) -> Result<Value, ConversionError> {
    let have = value.ty();
    if have == want.without_optional() {
        return Ok(value.clone());
    }
    if !conversion_exists(&have, want, true) {
        return Err(ConversionError::at(&[], mismatch_message(&have, want)));
    }
    convert_value(value, want, true, &mut Vec::new())
}

/// cty's `GetConversion`/`GetConversionUnsafe(have, want) != nil`.
pub fn conversion_exists(have: &Type, want: &Type, unsafe_allowed: bool) -> bool {
    if have == want {
        return true;
    }
    let exists =
        |have: &Type, want: &Type| have == want || conversion_exists(have, want, unsafe_allowed);
    match (have, want) {
        (_, Type::Dynamic) => true,
        (Type::Dynamic, _) => unsafe_allowed,
        (Type::Number | Type::Bool, Type::String) => true,
        (Type::String, Type::Number | Type::Bool) => unsafe_allowed,
        (Type::Object(have), Type::Object(want)) => {
            want.attributes()
                .iter()
                .all(|(name, wanted)| match have.attribute(name) {
                    Some(attribute) => exists(attribute, wanted),
                    None => want.is_optional(name),
                })
        }
        (Type::Tuple(have), Type::Tuple(want)) => {
            have.len() == want.len() && have.iter().zip(want).all(|(h, w)| exists(h, w))
        }
        (Type::List(have) | Type::Set(have), Type::List(want)) => exists(have, want),
        (Type::Set(have), Type::Set(want)) => exists(have, want),
        (Type::List(have), Type::Set(want)) => unsafe_allowed && exists(have, want),
        (Type::Map(have), Type::Map(want)) => exists(have, want),
        (Type::Tuple(elements), Type::List(want) | Type::Set(want)) => {
            structural_element_type(elements, want, unsafe_allowed, Structure::Tuple).is_some()
        }
        (Type::Object(object), Type::Map(want)) => {
            let attribute_types: Vec<Type> = object.types().cloned().collect();
            structural_element_type(&attribute_types, want, unsafe_allowed, Structure::Object)
                .is_some()
        }
        (Type::Map(element), Type::Object(object)) => {
            unsafe_allowed
                && object
                    .attributes()
                    .iter()
                    .all(|(name, wanted)| exists(element, wanted) || object.is_optional(name))
        }
        _ => false,
    }
}

/// Which structural type is converted to a collection.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Structure {
    Tuple,
    Object,
}

/// The element type a tuple's elements (or an object's attributes) convert
/// to for a collection of `want`: `want` itself, or their unification when
/// it is `dynamic`. `None` when there is no such conversion. A tuple whose
/// elements unify only to `dynamic` converts to a list or set only when
/// every element is `dynamic` (`conversionTupleToList`); an object
/// converts to a map whatever its attributes unify to
/// (`conversionObjectToMap` has no such check).
fn structural_element_type(
    elements: &[Type],
    want: &Type,
    unsafe_allowed: bool,
    structure: Structure,
) -> Option<Type> {
    if elements.is_empty() {
        return Some(want.without_optional());
    }
    let element_type = if *want == Type::Dynamic {
        let unified = unify(elements, unsafe_allowed)?;
        if structure == Structure::Tuple
            && unified == Type::Dynamic
            && elements.iter().any(|ty| *ty != Type::Dynamic)
        {
            return None;
        }
        unified
    } else {
        want.clone()
    };
    elements
        .iter()
        .all(|ty| *ty == element_type || conversion_exists(ty, &element_type, unsafe_allowed))
        .then_some(element_type)
}

/// Converts a value whose conversion is known to exist.
pub(crate) fn convert_value(
    value: &Value,
    want: &Type,
    unsafe_allowed: bool,
    path: &mut Vec<PathStep>,
) -> Result<Value, ConversionError> {
    if value.is_marked() {
        let (unmarked, marks) = value.clone().unmark();
        return Ok(convert_value(&unmarked, want, unsafe_allowed, path)?.with_marks(marks));
    }
    if *want == Type::Dynamic {
        return Ok(value.clone());
    }
    let have = value.ty();
    match &value.kind {
        ValueKind::Unknown(unknown) => {
            let ty = dynamic_replace(&have, &want.without_optional());
            return Ok(if unknown.not_null {
                Value::unknown_not_null(ty)
            } else {
                Value::unknown(ty)
            });
        }
        ValueKind::Null(_) => {
            return Ok(Value::null(dynamic_replace(
                &have,
                &want.without_optional(),
            )));
        }
        _ => {}
    }
    if have == want.without_optional() {
        return Ok(value.clone());
    }
    match (&value.kind, want) {
        (ValueKind::Number(number), Type::String) => Ok(Value::string(number.text('f', -1))),
        (ValueKind::Bool(flag), Type::String) => {
            Ok(Value::string(if *flag { "true" } else { "false" }))
        }
        (ValueKind::String(text), Type::Number) => match Number::parse(text) {
            Some(number) => Ok(Value::number(number)),
            None => Err(ConversionError::at(path, "a number is required")),
        },
        (ValueKind::String(text), Type::Bool) => match text.as_str() {
            "true" | "1" => Ok(Value::bool(true)),
            "false" | "0" => Ok(Value::bool(false)),
            other => Err(ConversionError::at(
                path,
                match other.to_lowercase().as_str() {
                    "true" => "a bool is required; to convert from string, use lowercase \"true\"",
                    "false" => {
                        "a bool is required; to convert from string, use lowercase \"false\""
                    }
                    _ => "a bool is required",
                },
            )),
        },
        (ValueKind::Object(attributes), Type::Object(object)) => {
            let mut converted = BTreeMap::new();
            for (name, wanted) in object.attributes() {
                let converted_value = match attributes.get(name.as_ref()) {
                    Some(attribute) => {
                        path.push(PathStep::Attribute(name.to_string()));
                        let result = convert_value(attribute, wanted, unsafe_allowed, path);
                        path.pop();
                        result?
                    }
                    None => Value::null(wanted.without_optional()),
                };
                converted.insert(name.to_string(), converted_value);
            }
            Ok(Value::object(converted))
        }
        (ValueKind::Tuple(items), Type::Tuple(wanted)) => {
            let mut converted = Vec::with_capacity(items.len());
            for (index, (item, wanted)) in items.iter().zip(wanted).enumerate() {
                path.push(PathStep::Index(index));
                let result = convert_value(item, wanted, unsafe_allowed, path);
                path.pop();
                converted.push(result?);
            }
            Ok(Value::tuple(converted))
        }
        (
            ValueKind::List { element, items } | ValueKind::Set { element, items },
            Type::List(wanted) | Type::Set(wanted),
        ) => {
            let converted = convert_items(items, wanted, unsafe_allowed, path)?;
            let element_type = if **wanted == Type::Dynamic {
                element.clone()
            } else {
                wanted.without_optional()
            };
            if want.is_list() {
                Ok(Value::list(element_type, converted))
            } else {
                Ok(Value::set(element_type, converted))
            }
        }
        (ValueKind::Map { element, entries }, Type::Map(wanted)) => {
            let converted = convert_entries(entries, wanted, unsafe_allowed, path)?;
            let element_type = if **wanted == Type::Dynamic {
                element.clone()
            } else {
                wanted.without_optional()
            };
            Ok(Value::map(element_type, converted))
        }
        (ValueKind::Tuple(items), Type::List(wanted) | Type::Set(wanted)) => {
            let types: Vec<Type> = items.iter().map(Value::ty).collect();
            let Some(element_type) =
                structural_element_type(&types, wanted, unsafe_allowed, Structure::Tuple)
            else {
                return Err(ConversionError::at(path, mismatch_message(&have, want)));
            };
            let converted = convert_items(items, &element_type, unsafe_allowed, path)?;
            let element_type = element_type.without_optional();
            if want.is_list() {
                Ok(Value::list(element_type, converted))
            } else {
                Ok(Value::set(element_type, converted))
            }
        }
        (ValueKind::Object(attributes), Type::Map(wanted)) => {
            let types: Vec<Type> = attributes.values().map(Value::ty).collect();
            let Some(element_type) =
                structural_element_type(&types, wanted, unsafe_allowed, Structure::Object)
            else {
                return Err(ConversionError::at(path, mismatch_message(&have, want)));
            };
            let converted = convert_entries(attributes, &element_type, unsafe_allowed, path)?;
            if element_type == Type::Dynamic {
                return map_of_dynamic(converted, path);
            }
            Ok(Value::map(element_type.without_optional(), converted))
        }
        (ValueKind::Map { entries, .. }, Type::Object(object)) => {
            let mut converted = BTreeMap::new();
            for (name, wanted) in object.attributes() {
                match entries.get(name.as_ref()) {
                    Some(entry) => {
                        path.push(PathStep::Attribute(name.to_string()));
                        let result = convert_value(entry, wanted, unsafe_allowed, path);
                        path.pop();
                        converted.insert(name.to_string(), result?);
                    }
                    None if object.is_optional(name) => {
                        converted.insert(name.to_string(), Value::null(wanted.without_optional()));
                    }
                    None => {
                        return Err(ConversionError::at(
                            path,
                            format!(
                                "map has no element for required attribute {}",
                                tofu_syntax::go_text::go_quote(name)
                            ),
                        ))
                    }
                }
            }
            Ok(Value::object(converted))
        }
        _ => Err(ConversionError::at(path, mismatch_message(&have, want))),
    }
}

fn convert_items(
    items: &[Value],
    want: &Type,
    unsafe_allowed: bool,
    path: &mut Vec<PathStep>,
) -> Result<Vec<Value>, ConversionError> {
    let mut converted = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        path.push(PathStep::Index(index));
        let result = convert_value(item, want, unsafe_allowed, path);
        path.pop();
        converted.push(result?);
    }
    Ok(converted)
}

/// cty's `MapVal` of attributes that unified only to `dynamic`: the map
/// takes the one type its attributes of known type have (a `dynamic` null
/// becomes a null of that type); different types are an error.
fn map_of_dynamic(
    entries: BTreeMap<String, Value>,
    path: &[PathStep],
) -> Result<Value, ConversionError> {
    let mut element_type = Type::Dynamic;
    for entry in entries.values() {
        let ty = entry.ty();
        if ty == Type::Dynamic || ty == element_type {
            continue;
        }
        if element_type != Type::Dynamic {
            return Err(ConversionError::at(
                path,
                "attribute types must all match for conversion to map",
            ));
        }
        element_type = ty;
    }
    let mut typed = BTreeMap::new();
    for (key, entry) in entries {
        let entry = if entry.ty() == Type::Dynamic {
            convert_value(&entry, &element_type, true, &mut path.to_vec())?
        } else {
            entry
        };
        typed.insert(key, entry);
    }
    Ok(Value::map(element_type, typed))
}

fn convert_entries(
    entries: &BTreeMap<String, Value>,
    want: &Type,
    unsafe_allowed: bool,
    path: &mut Vec<PathStep>,
) -> Result<BTreeMap<String, Value>, ConversionError> {
    let mut converted = BTreeMap::new();
    for (key, entry) in entries {
        path.push(PathStep::Key(key.clone()));
        let result = convert_value(entry, want, unsafe_allowed, path);
        path.pop();
        converted.insert(key.clone(), result?);
    }
    Ok(converted)
}

/// cty's `dynamicReplace`: `want` with each `dynamic` replaced by what
/// `have` has there.
fn dynamic_replace(have: &Type, want: &Type) -> Type {
    match (have, want) {
        (_, Type::Dynamic) => have.clone(),
        (Type::List(h), Type::List(w)) => Type::list(dynamic_replace(h, w)),
        (Type::Set(h), Type::Set(w)) => Type::set(dynamic_replace(h, w)),
        (Type::Map(h), Type::Map(w)) => Type::map(dynamic_replace(h, w)),
        (Type::Tuple(h), Type::List(w)) | (Type::Tuple(h), Type::Set(w))
            if **w == Type::Dynamic =>
        {
            let element = unify(h, true).unwrap_or(Type::Dynamic);
            if want.is_list() {
                Type::list(element)
            } else {
                Type::set(element)
            }
        }
        (Type::Object(h), Type::Map(w)) if **w == Type::Dynamic => {
            let types: Vec<Type> = h.types().cloned().collect();
            Type::map(unify(&types, true).unwrap_or(Type::Dynamic))
        }
        (Type::Tuple(h), Type::Tuple(w)) if h.len() == w.len() => Type::Tuple(
            h.iter()
                .zip(w)
                .map(|(h, w)| dynamic_replace(h, w))
                .collect(),
        ),
        (Type::Object(h), Type::Object(w)) => {
            Type::object(w.attributes().iter().map(|(name, wanted)| {
                let replaced = match h.attribute(name) {
                    Some(had) => dynamic_replace(had, wanted),
                    None => wanted.clone(),
                };
                (name.clone(), replaced)
            }))
        }
        _ => want.clone(),
    }
}

#[cfg(test)]
mod tests;

//! Type constraints with the defaults of their `optional(T, DEFAULT)`
//! attributes, as HCL's `typeexpr.TypeConstraintWithDefaults` reads a
//! variable's type: the [`Type`] (with optional attributes marked, as cty's
//! `ObjectWithOptionalAttrs`) and, beside it, [`Defaults`] (HCL's
//! `typeexpr.Defaults`): the default values of an object type's optional
//! attributes, and those deeper down by the step that leads there.
//!
//! [`apply_defaults`] fills them into a value before OpenTofu converts it
//! to the type (`Defaults.Apply`).

use std::collections::BTreeMap;

use crate::types::Type;
use crate::value::{Value, ValueKind};

/// Default-filling recursion deeper than this leaves the value as it is.
const MAX_APPLY_DEPTH: usize = 256;

/// A type constraint: the type and the defaults of its optional attributes.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeConstraint {
    pub ty: Type,
    pub defaults: Defaults,
}

impl TypeConstraint {
    /// A constraint without defaults.
    pub fn of(ty: Type) -> TypeConstraint {
        TypeConstraint {
            ty,
            defaults: Defaults::default(),
        }
    }

    /// `any`.
    pub fn any() -> TypeConstraint {
        TypeConstraint::of(Type::Dynamic)
    }
}

/// `any`.
impl Default for TypeConstraint {
    fn default() -> TypeConstraint {
        TypeConstraint::any()
    }
}

/// The defaults of a type's `optional(T, DEFAULT)` attributes: this
/// object type's own (each already converted to its attribute's type) and,
/// by step, those of the types inside it. Empty for a type without any.
#[derive(Clone, Debug, Default)]
pub struct Defaults {
    values: BTreeMap<String, Value>,
    children: BTreeMap<DefaultsStep, Defaults>,
}

/// Where in a type a nested [`Defaults`] applies (HCL's
/// `TypeConstraintTraversalStep`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DefaultsStep {
    /// An object type's attribute.
    Attribute(String),
    /// The element of a list, set or map type.
    Element,
    /// An element of a tuple type.
    Index(usize),
}

impl Defaults {
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.children.is_empty()
    }

    /// The default of this object type's attribute `name`.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }

    /// This object type's defaults, by attribute name.
    pub fn values(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.values
            .iter()
            .map(|(name, value)| (name.as_str(), value))
    }

    /// The defaults of the type one `step` inside this one.
    pub fn child(&self, step: &DefaultsStep) -> Option<&Defaults> {
        self.children.get(step)
    }

    /// Sets the default of the attribute `name`.
    pub fn set_value(&mut self, name: impl Into<String>, value: Value) {
        self.values.insert(name.into(), value);
    }

    /// Sets the defaults one `step` inside; empty ones are not kept.
    pub fn set_child(&mut self, step: DefaultsStep, child: Defaults) {
        if child.is_empty() {
            self.children.remove(&step);
        } else {
            self.children.insert(step, child);
        }
    }
}

/// Two sets of defaults are equal when they hold the same values
/// (`RawEquals`) at the same places.
impl PartialEq for Defaults {
    fn eq(&self, other: &Defaults) -> bool {
        self.children == other.children
            && self.values.len() == other.values.len()
            && self.values.iter().zip(&other.values).all(
                |((name, value), (other_name, other_value))| {
                    name == other_name && value.raw_equals(other_value)
                },
            )
    }
}

/// Fills in the defaults of `optional(T, DEFAULT)` attributes that are
/// absent or null, at every level of `ty`, as HCL's `Defaults.Apply` does
/// before OpenTofu converts a variable's value. A collection walked comes
/// back as a tuple or an object, which the conversion then makes a
/// collection again; marks stay where they were.
pub fn apply_defaults(value: &Value, ty: &Type, defaults: &Defaults) -> Value {
    apply_at(value, ty, Some(defaults), 0)
}

fn apply_at(value: &Value, ty: &Type, defaults: Option<&Defaults>, depth: usize) -> Value {
    if depth > MAX_APPLY_DEPTH {
        return value.clone();
    }
    let next = depth + 1;
    let child = |step: DefaultsStep| defaults.and_then(|defaults| defaults.child(&step));
    let applied = match (&value.kind, ty) {
        (
            ValueKind::Object(items) | ValueKind::Map { entries: items, .. },
            Type::Object(object),
        ) => {
            let mut applied: BTreeMap<String, Value> = items
                .iter()
                .map(|(name, item)| {
                    let item = match object.attribute(name) {
                        Some(attribute) => apply_at(
                            item,
                            attribute,
                            child(DefaultsStep::Attribute(name.clone())),
                            next,
                        ),
                        None => item.clone(),
                    };
                    (name.clone(), item)
                })
                .collect();
            for (name, default) in defaults.map(Defaults::values).into_iter().flatten() {
                let Some(attribute) = object.attribute(name) else {
                    continue;
                };
                if applied.get(name).is_none_or(Value::is_null) {
                    let within = child(DefaultsStep::Attribute(name.to_owned()));
                    let filled = apply_at(default, attribute, within, next);
                    applied.insert(name.to_owned(), filled);
                }
            }
            Value::object(applied)
        }
        (ValueKind::Object(items) | ValueKind::Map { entries: items, .. }, Type::Map(element)) => {
            let within = child(DefaultsStep::Element);
            Value::object(
                items
                    .iter()
                    .map(|(name, item)| (name.clone(), apply_at(item, element, within, next)))
                    .collect(),
            )
        }
        (
            ValueKind::Tuple(items) | ValueKind::List { items, .. } | ValueKind::Set { items, .. },
            Type::List(element) | Type::Set(element),
        ) => {
            let within = child(DefaultsStep::Element);
            Value::tuple(
                items
                    .iter()
                    .map(|item| apply_at(item, element, within, next))
                    .collect(),
            )
        }
        (ValueKind::Tuple(items), Type::Tuple(types)) => Value::tuple(
            items
                .iter()
                .enumerate()
                .map(|(index, item)| match types.get(index) {
                    Some(element) => {
                        apply_at(item, element, child(DefaultsStep::Index(index)), next)
                    }
                    None => item.clone(),
                })
                .collect(),
        ),
        _ => return value.clone(),
    };
    applied.with_marks(value.marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(pairs: &[(&str, Value)]) -> Value {
        Value::object(
            pairs
                .iter()
                .map(|(name, value)| ((*name).to_owned(), value.clone()))
                .collect(),
        )
    }

    #[test]
    fn absent_and_null_attributes_get_their_defaults_at_every_level() {
        // list(object({a = optional(string, "x"), b = optional(object({c = optional(number, 1)}), {})}))
        let inner = Type::Object(Box::new(
            crate::ObjectType::new([("c", Type::Number)]).with_optional(["c"]),
        ));
        let element = Type::Object(Box::new(
            crate::ObjectType::new([("a", Type::String), ("b", inner)]).with_optional(["a", "b"]),
        ));
        let ty = Type::list(element);
        let mut inner_defaults = Defaults::default();
        inner_defaults.set_value("c", Value::int(1));
        let mut element_defaults = Defaults::default();
        element_defaults.set_value("a", Value::string("x"));
        element_defaults.set_value("b", Value::empty_object());
        element_defaults.set_child(DefaultsStep::Attribute("b".to_owned()), inner_defaults);
        let mut defaults = Defaults::default();
        defaults.set_child(DefaultsStep::Element, element_defaults);

        let value = Value::tuple(vec![
            Value::empty_object(),
            object(&[("a", Value::null(Type::String)), ("b", object(&[]))]),
            object(&[("a", Value::string("y"))]),
        ]);
        let applied = apply_defaults(&value, &ty, &defaults);
        let with_c = object(&[("c", Value::int(1))]);
        let expected = Value::tuple(vec![
            object(&[("a", Value::string("x")), ("b", with_c.clone())]),
            object(&[("a", Value::string("x")), ("b", with_c.clone())]),
            object(&[("a", Value::string("y")), ("b", with_c)]),
        ]);
        assert!(applied.raw_equals(&expected), "{applied:?}");
    }

    #[test]
    fn defaults_compare_by_their_values() {
        let mut one = Defaults::default();
        one.set_value("a", Value::string("x"));
        let mut same = Defaults::default();
        same.set_value("a", Value::string("x"));
        let mut other = Defaults::default();
        other.set_value("a", Value::string("y"));
        assert_eq!(one, same);
        assert_ne!(one, other);
        assert_ne!(one, Defaults::default());
    }
}

//! cty's types: the primitives, the collections (list, set, map of one
//! element type), the structural types (tuple, object) and `dynamic`, the
//! type of a value whose type is not known yet and, in a type constraint,
//! `any`.
//!
//! A type constraint is a [`Type`] too, as in cty: `dynamic` inside it means
//! "any type", and an object type may mark attributes optional (only
//! constraints do). Defaults of optional attributes are not kept here; the
//! module layer applies them.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    String,
    Number,
    Bool,
    /// cty's `DynamicPseudoType`: not known yet, or `any` in a constraint.
    Dynamic,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    Tuple(Vec<Type>),
    Object(ObjectType),
}

/// An object type: attribute names (sorted, as cty keeps them) and types,
/// and which of them a constraint marks `optional(…)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectType {
    pub attributes: BTreeMap<String, Type>,
    pub optional: BTreeSet<String>,
}

impl Type {
    pub fn list(element: Type) -> Type {
        Type::List(Box::new(element))
    }

    pub fn set(element: Type) -> Type {
        Type::Set(Box::new(element))
    }

    pub fn map(element: Type) -> Type {
        Type::Map(Box::new(element))
    }

    pub fn object(attributes: BTreeMap<String, Type>) -> Type {
        Type::Object(ObjectType {
            attributes,
            optional: BTreeSet::new(),
        })
    }

    pub fn empty_object() -> Type {
        Type::Object(ObjectType::default())
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }

    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }

    pub fn is_list(&self) -> bool {
        matches!(self, Type::List(_))
    }

    pub fn is_set(&self) -> bool {
        matches!(self, Type::Set(_))
    }

    pub fn is_map(&self) -> bool {
        matches!(self, Type::Map(_))
    }

    pub fn is_tuple(&self) -> bool {
        matches!(self, Type::Tuple(_))
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Type::Object(_))
    }

    pub fn is_dynamic(&self) -> bool {
        matches!(self, Type::Dynamic)
    }

    /// The element type of a list, set or map.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::List(element) | Type::Set(element) | Type::Map(element) => Some(element),
            _ => None,
        }
    }

    /// Contains `dynamic` anywhere (`HasDynamicTypes`).
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::List(element) | Type::Set(element) | Type::Map(element) => element.has_dynamic(),
            Type::Tuple(elements) => elements.iter().any(Type::has_dynamic),
            Type::Object(object) => object.attributes.values().any(Type::has_dynamic),
            Type::String | Type::Number | Type::Bool => false,
        }
    }

    /// The type with every optional marker removed
    /// (`WithoutOptionalAttributesDeep`).
    pub fn without_optional(&self) -> Type {
        match self {
            Type::List(element) => Type::list(element.without_optional()),
            Type::Set(element) => Type::set(element.without_optional()),
            Type::Map(element) => Type::map(element.without_optional()),
            Type::Tuple(elements) => {
                Type::Tuple(elements.iter().map(Type::without_optional).collect())
            }
            Type::Object(object) => Type::object(
                object
                    .attributes
                    .iter()
                    .map(|(name, ty)| (name.clone(), ty.without_optional()))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// cty's `FriendlyName`: `string`, `list of number`, `object`, `dynamic`.
    pub fn friendly_name(&self) -> String {
        match self {
            Type::String => "string".to_owned(),
            Type::Number => "number".to_owned(),
            Type::Bool => "bool".to_owned(),
            Type::Dynamic => "dynamic".to_owned(),
            Type::List(element) => format!("list of {}", element.friendly_name()),
            Type::Set(element) => format!("set of {}", element.friendly_name()),
            Type::Map(element) => format!("map of {}", element.friendly_name()),
            Type::Tuple(_) => "tuple".to_owned(),
            Type::Object(_) => "object".to_owned(),
        }
    }

    /// cty's `FriendlyNameForConstraint`: `any type`, `list of any single
    /// type`.
    pub fn friendly_name_for_constraint(&self) -> String {
        match self {
            Type::Dynamic => "any type".to_owned(),
            Type::List(element) => format!("list of {}", element_constraint_name(element)),
            Type::Set(element) => format!("set of {}", element_constraint_name(element)),
            Type::Map(element) => format!("map of {}", element_constraint_name(element)),
            other => other.friendly_name(),
        }
    }
}

fn element_constraint_name(element: &Type) -> String {
    match element {
        Type::Dynamic => "any single type".to_owned(),
        other => other.friendly_name_for_constraint(),
    }
}

/// The type in OpenTofu's type syntax, as the `type` function of
/// `tofu console` prints it: `list(string)`, `object({a: number})`.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => f.write_str("string"),
            Type::Number => f.write_str("number"),
            Type::Bool => f.write_str("bool"),
            Type::Dynamic => f.write_str("dynamic"),
            Type::List(element) => write!(f, "list({element})"),
            Type::Set(element) => write!(f, "set({element})"),
            Type::Map(element) => write!(f, "map({element})"),
            Type::Tuple(elements) => {
                f.write_str("tuple([")?;
                for (index, element) in elements.iter().enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{element}")?;
                }
                f.write_str("])")
            }
            Type::Object(object) => {
                f.write_str("object({")?;
                for (index, (name, ty)) in object.attributes.iter().enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    if object.optional.contains(name) {
                        write!(f, "{name}: optional({ty})")?;
                    } else {
                        write!(f, "{name}: {ty}")?;
                    }
                }
                f.write_str("})")
            }
        }
    }
}

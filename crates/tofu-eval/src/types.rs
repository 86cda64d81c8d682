//! cty's types: the primitives, the collections (list, set, map of one
//! element type), the structural types (tuple, object) and `dynamic`, the
//! type of a value whose type is not known yet and, in a type constraint,
//! `any`.
//!
//! A type constraint is a [`Type`] too, as in cty: `dynamic` inside it means
//! "any type", and an object type may mark attributes optional (only
//! constraints do). Defaults of optional attributes are not part of the
//! type, as in cty: they are `defaults.rs`'s.

use std::fmt;

/// A cty type. Kept compact, since provider schemas hold one per
/// attribute: 24 bytes, a tuple's elements and an object's attributes on
/// the heap.
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
    Tuple(Box<[Type]>),
    Object(Box<ObjectType>),
}

/// An object type: attribute names (sorted by their bytes, as cty keeps
/// them, each once) and types, and which of them a constraint marks
/// `optional(…)` (cty's `ObjectWithOptionalAttrs`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectType {
    attributes: Box<[(Box<str>, Type)]>,
    optional: Box<[Box<str>]>,
}

impl ObjectType {
    /// An object type of these attributes, in any order; of a name given
    /// twice the last type counts.
    pub fn new<N: Into<Box<str>>>(attributes: impl IntoIterator<Item = (N, Type)>) -> ObjectType {
        let mut attributes: Vec<(Box<str>, Type)> = attributes
            .into_iter()
            .map(|(name, ty)| (name.into(), ty))
            .collect();
        let sorted = attributes
            .windows(2)
            .all(|pair| matches!(pair, [(left, _), (right, _)] if left < right));
        if !sorted {
            // Stable: of equal names the last given ends up last, and is
            // kept.
            attributes.sort_by(|(left, _), (right, _)| left.cmp(right));
            attributes.reverse();
            attributes.dedup_by(|(later, _), (earlier, _)| later == earlier);
            attributes.reverse();
        }
        ObjectType {
            attributes: attributes.into_boxed_slice(),
            optional: Box::default(),
        }
    }

    /// The same type with these attributes marked optional (names in any
    /// order; each kept once).
    pub fn with_optional<N: Into<Box<str>>>(
        mut self,
        names: impl IntoIterator<Item = N>,
    ) -> ObjectType {
        let mut optional: Vec<Box<str>> = names.into_iter().map(Into::into).collect();
        optional.sort();
        optional.dedup();
        self.optional = optional.into_boxed_slice();
        self
    }

    /// The attributes, sorted by name.
    pub fn attributes(&self) -> &[(Box<str>, Type)] {
        &self.attributes
    }

    /// The type of the attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&Type> {
        self.attributes
            .binary_search_by(|(attribute, _)| attribute.as_ref().cmp(name))
            .ok()
            .and_then(|index| self.attributes.get(index))
            .map(|(_, ty)| ty)
    }

    pub fn has_attribute(&self, name: &str) -> bool {
        self.attribute(name).is_some()
    }

    /// The attribute names, sorted.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.attributes.iter().map(|(name, _)| name.as_ref())
    }

    /// The attribute types, in the order of their names.
    pub fn types(&self) -> impl ExactSizeIterator<Item = &Type> + '_ {
        self.attributes.iter().map(|(_, ty)| ty)
    }

    pub fn len(&self) -> usize {
        self.attributes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.attributes.is_empty()
    }

    /// The names marked optional, sorted.
    pub fn optional(&self) -> &[Box<str>] {
        &self.optional
    }

    pub fn is_optional(&self, name: &str) -> bool {
        self.optional
            .binary_search_by(|optional| optional.as_ref().cmp(name))
            .is_ok()
    }
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

    /// An object type of these attributes (see [`ObjectType::new`]).
    pub fn object<N: Into<Box<str>>>(attributes: impl IntoIterator<Item = (N, Type)>) -> Type {
        Type::Object(Box::new(ObjectType::new(attributes)))
    }

    pub fn empty_object() -> Type {
        Type::Object(Box::default())
    }

    pub fn tuple(elements: impl IntoIterator<Item = Type>) -> Type {
        Type::Tuple(elements.into_iter().collect())
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
            Type::Object(object) => object.types().any(Type::has_dynamic),
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
                    .attributes()
                    .iter()
                    .map(|(name, ty)| (name.clone(), ty.without_optional())),
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
                for (index, (name, ty)) in object.attributes().iter().enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    if object.is_optional(name) {
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

//! OpenTofu's type constraints (cty types that may hold `any` and optional
//! attributes), and how OpenTofu names and writes them; parsing them is
//! the parent module's, converting values to them `convert`'s.

use std::fmt;

use super::value::Value;

/// Types nested deeper than this are not parsed (they count as `any`).
pub const MAX_TYPE_DEPTH: usize = 64;

/// A type constraint: a type that may contain `any` and optional attributes.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeConstraint {
    String,
    Number,
    Bool,
    /// `any`: every value conforms.
    Any,
    List(Box<TypeConstraint>),
    Set(Box<TypeConstraint>),
    Map(Box<TypeConstraint>),
    Object {
        attrs: Vec<ObjectAttribute>,
    },
    Tuple(Vec<TypeConstraint>),
}

/// One attribute of an `object({…})` type, in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectAttribute {
    pub name: String,
    pub ty: TypeConstraint,
    /// Written as `optional(T)` or `optional(T, DEFAULT)`.
    pub optional: bool,
    /// The default of `optional(T, DEFAULT)`, already converted to `T`.
    pub default: Option<Value>,
}

impl TypeConstraint {
    /// The name cty uses for this type in conversion errors
    /// (`FriendlyNameForConstraint`): `list of string`, `map of any single type`,
    /// `object`, `any type`.
    pub fn friendly_name(&self) -> String {
        match self {
            TypeConstraint::String => "string".to_owned(),
            TypeConstraint::Number => "number".to_owned(),
            TypeConstraint::Bool => "bool".to_owned(),
            TypeConstraint::Any => "any type".to_owned(),
            TypeConstraint::List(element) => format!("list of {}", element_name(element)),
            TypeConstraint::Set(element) => format!("set of {}", element_name(element)),
            TypeConstraint::Map(element) => format!("map of {}", element_name(element)),
            TypeConstraint::Object { .. } => "object".to_owned(),
            TypeConstraint::Tuple(_) => "tuple".to_owned(),
        }
    }

    /// The constraint as a `tofu_eval` type, `optional(…)` markers kept and
    /// defaults left out (they are `apply_defaults`'s). Parts nested
    /// deeper than [`MAX_TYPE_DEPTH`] are `any`, as when parsed.
    pub fn to_type(&self) -> tofu_eval::Type {
        self.to_type_at(0)
    }

    fn to_type_at(&self, depth: usize) -> tofu_eval::Type {
        use tofu_eval::Type;
        if depth > MAX_TYPE_DEPTH {
            return Type::Dynamic;
        }
        let next = depth + 1;
        match self {
            TypeConstraint::String => Type::String,
            TypeConstraint::Number => Type::Number,
            TypeConstraint::Bool => Type::Bool,
            TypeConstraint::Any => Type::Dynamic,
            TypeConstraint::List(element) => Type::list(element.to_type_at(next)),
            TypeConstraint::Set(element) => Type::set(element.to_type_at(next)),
            TypeConstraint::Map(element) => Type::map(element.to_type_at(next)),
            TypeConstraint::Tuple(elements) => Type::Tuple(
                elements
                    .iter()
                    .map(|element| element.to_type_at(next))
                    .collect(),
            ),
            TypeConstraint::Object { attrs } => Type::Object(Box::new(
                tofu_eval::ObjectType::new(
                    attrs
                        .iter()
                        .map(|attribute| (attribute.name.as_str(), attribute.ty.to_type_at(next))),
                )
                .with_optional(
                    attrs
                        .iter()
                        .filter(|attribute| attribute.optional)
                        .map(|attribute| attribute.name.as_str()),
                ),
            )),
        }
    }

    pub fn attribute(&self, name: &str) -> Option<&ObjectAttribute> {
        match self {
            TypeConstraint::Object { attrs } => attrs.iter().find(|attr| attr.name == name),
            _ => None,
        }
    }
}

fn element_name(element: &TypeConstraint) -> String {
    match element {
        TypeConstraint::Any => "any single type".to_owned(),
        other => other.friendly_name(),
    }
}

/// Writes the type in OpenTofu's type syntax, e.g. `map(list(string))`.
/// Optional defaults are not shown.
impl fmt::Display for TypeConstraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeConstraint::String => f.write_str("string"),
            TypeConstraint::Number => f.write_str("number"),
            TypeConstraint::Bool => f.write_str("bool"),
            TypeConstraint::Any => f.write_str("any"),
            TypeConstraint::List(element) => write!(f, "list({element})"),
            TypeConstraint::Set(element) => write!(f, "set({element})"),
            TypeConstraint::Map(element) => write!(f, "map({element})"),
            TypeConstraint::Tuple(elements) => {
                f.write_str("tuple([")?;
                for (index, element) in elements.iter().enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{element}")?;
                }
                f.write_str("])")
            }
            TypeConstraint::Object { attrs } => {
                f.write_str("object({")?;
                for (index, attr) in attrs.iter().enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    if attr.optional {
                        write!(f, "{} = optional({})", attr.name, attr.ty)?;
                    } else {
                        write!(f, "{} = {}", attr.name, attr.ty)?;
                    }
                }
                f.write_str("})")
            }
        }
    }
}

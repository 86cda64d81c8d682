//! The values tofu-lens sends a provider and reads back from it: a
//! configuration (with unknowns where `tofu validate` has them) for the
//! `Validate*` calls, and whatever a provider returns as a `DynamicValue`.
//!
//! [`ConfigValue`] is cty's value model as it crosses the plugin protocol,
//! and nothing more: no marks (OpenTofu removes them before it calls a
//! provider), no operations. It is shaped so that tofu-eval's values map
//! onto it one variant to one variant: a null and an unknown carry their
//! type, a collection its element type, objects and maps their keys sorted
//! (`BTreeMap`, byte order, as cty sorts them), and an unknown its
//! refinements. Types are [`SchemaType`], the type model of schemas.
//!
//! A set's items are written in the order given: cty writes a set in its
//! own order, so a caller converting from tofu-eval passes the order
//! tofu-eval keeps (`value::set_order`).

use std::collections::BTreeMap;

use crate::types::SchemaType;

/// One value, as cty has it (without marks).
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigValue {
    /// A null of this type (`Dynamic` for a null written as `null`).
    Null(SchemaType),
    Unknown(UnknownValue),
    Bool(bool),
    Number(ConfigNumber),
    String(String),
    List {
        element: SchemaType,
        items: Vec<ConfigValue>,
    },
    Set {
        element: SchemaType,
        items: Vec<ConfigValue>,
    },
    Map {
        element: SchemaType,
        entries: BTreeMap<String, ConfigValue>,
    },
    Tuple(Vec<ConfigValue>),
    Object(BTreeMap<String, ConfigValue>),
}

/// A number in the form cty's msgpack writer chooses for it.
///
/// The variant says how the number is written: a caller converting from
/// an arbitrary-precision number picks `Integer` when it is an integer in
/// the range of `i64`, `Float` when it is exactly a finite `f64` that is
/// not such an integer (or an infinity), and `Decimal` otherwise, with
/// the number's shortest exact decimal text (Go's `big.Float.Text('f',
/// -1)`), which is how cty writes such a number.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigNumber {
    Integer(i64),
    Float(f64),
    Decimal(String),
}

/// An unknown value: its type and what is known about it.
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownValue {
    pub ty: SchemaType,
    pub refinements: Refinements,
}

/// What cty knows about an unknown value ("refinements"): whether it can
/// be null, a string's known prefix, a number's bounds, a collection's
/// length bounds. Each applies only to its kind of type; an unknown of
/// type `dynamic` has none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refinements {
    pub not_null: bool,
    pub string_prefix: Option<String>,
    /// The lower bound and whether it is included.
    pub number_lower_bound: Option<(ConfigNumber, bool)>,
    /// The upper bound and whether it is included.
    pub number_upper_bound: Option<(ConfigNumber, bool)>,
    pub length_lower_bound: Option<u64>,
    pub length_upper_bound: Option<u64>,
}

impl Refinements {
    pub fn is_empty(&self) -> bool {
        *self == Refinements::default()
    }
}

impl ConfigValue {
    /// An unknown value of `ty` with no refinements.
    pub fn unknown(ty: SchemaType) -> ConfigValue {
        ConfigValue::Unknown(UnknownValue {
            ty,
            refinements: Refinements::default(),
        })
    }

    /// An unknown value of `ty` known not to be null.
    pub fn unknown_not_null(ty: SchemaType) -> ConfigValue {
        ConfigValue::Unknown(UnknownValue {
            ty,
            refinements: Refinements {
                not_null: true,
                ..Refinements::default()
            },
        })
    }

    pub fn string(text: impl Into<String>) -> ConfigValue {
        ConfigValue::String(text.into())
    }

    pub fn integer(number: i64) -> ConfigValue {
        ConfigValue::Number(ConfigNumber::Integer(number))
    }

    /// An object of these attributes.
    pub fn object<'a>(attributes: impl IntoIterator<Item = (&'a str, ConfigValue)>) -> ConfigValue {
        ConfigValue::Object(
            attributes
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect(),
        )
    }

    pub fn is_known(&self) -> bool {
        !matches!(self, ConfigValue::Unknown(_))
    }

    pub fn is_null(&self) -> bool {
        matches!(self, ConfigValue::Null(_))
    }

    /// The value's own type: what cty writes beside a value whose place in
    /// the schema is `dynamic`. A tuple's and an object's come from their
    /// elements; a collection's from its element type.
    pub fn ty(&self) -> SchemaType {
        match self {
            ConfigValue::Null(ty) => ty.clone(),
            ConfigValue::Unknown(unknown) => unknown.ty.clone(),
            ConfigValue::Bool(_) => SchemaType::Bool,
            ConfigValue::Number(_) => SchemaType::Number,
            ConfigValue::String(_) => SchemaType::String,
            ConfigValue::List { element, .. } => SchemaType::List(Box::new(element.clone())),
            ConfigValue::Set { element, .. } => SchemaType::Set(Box::new(element.clone())),
            ConfigValue::Map { element, .. } => SchemaType::Map(Box::new(element.clone())),
            ConfigValue::Tuple(items) => {
                SchemaType::Tuple(items.iter().map(ConfigValue::ty).collect())
            }
            ConfigValue::Object(attributes) => {
                SchemaType::Object(Box::new(crate::types::ObjectType {
                    attributes: attributes
                        .iter()
                        .map(|(name, value)| (Box::from(name.as_str()), value.ty()))
                        .collect(),
                    optional: Box::default(),
                }))
            }
        }
    }
}

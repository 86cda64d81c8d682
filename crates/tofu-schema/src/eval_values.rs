//! Between tofu-eval's values and the values a provider is sent: a
//! schema's type as a tofu-eval type to convert a configured value to
//! ([`SchemaType::to_eval_type`], [`Attribute::decoder_type`]), and an
//! evaluated value as a [`ConfigValue`] ([`ConfigValue::from_eval`]).
//!
//! Marks are dropped, as OpenTofu unmarks a configuration before it calls
//! a provider. An unknown keeps its "not null" refinement, the only one
//! tofu-eval tracks. A number is written in the form cty's msgpack writer
//! picks for it (see [`ConfigNumber`]).

#[cfg(test)]
use std::collections::BTreeMap;

use tofu_eval::{Number, Type, Value, ValueKind};

use crate::config_value::{ConfigNumber, ConfigValue, Refinements, UnknownValue};
use crate::model::{Attribute, AttributeType, NestedAttributes, Nesting};
use crate::types::{ObjectType, SchemaType};

impl SchemaType {
    /// The same type in tofu-eval's terms (`dynamic` stays `dynamic`).
    pub fn to_eval_type(&self) -> Type {
        match self {
            SchemaType::String => Type::String,
            SchemaType::Number => Type::Number,
            SchemaType::Bool => Type::Bool,
            SchemaType::Dynamic => Type::Dynamic,
            SchemaType::List(element) => Type::list(element.to_eval_type()),
            SchemaType::Set(element) => Type::set(element.to_eval_type()),
            SchemaType::Map(element) => Type::map(element.to_eval_type()),
            SchemaType::Tuple(elements) => {
                Type::Tuple(elements.iter().map(SchemaType::to_eval_type).collect())
            }
            SchemaType::Object(object) => Type::Object(Box::new(
                tofu_eval::ObjectType::new(
                    object
                        .attributes
                        .iter()
                        .map(|(name, ty)| (name.clone(), ty.to_eval_type())),
                )
                .with_optional(object.optional.iter().cloned()),
            )),
        }
    }

    /// A tofu-eval type as a schema type.
    pub fn from_eval_type(ty: &Type) -> SchemaType {
        match ty {
            Type::String => SchemaType::String,
            Type::Number => SchemaType::Number,
            Type::Bool => SchemaType::Bool,
            Type::Dynamic => SchemaType::Dynamic,
            Type::List(element) => SchemaType::List(Box::new(SchemaType::from_eval_type(element))),
            Type::Set(element) => SchemaType::Set(Box::new(SchemaType::from_eval_type(element))),
            Type::Map(element) => SchemaType::Map(Box::new(SchemaType::from_eval_type(element))),
            Type::Tuple(elements) => {
                SchemaType::Tuple(elements.iter().map(SchemaType::from_eval_type).collect())
            }
            Type::Object(object) => SchemaType::Object(Box::new(ObjectType {
                attributes: object
                    .attributes()
                    .iter()
                    .map(|(name, ty)| (name.clone(), SchemaType::from_eval_type(ty)))
                    .collect(),
                optional: Box::default(),
            })),
        }
    }
}

impl Attribute {
    /// The type a configured value of this attribute is converted to
    /// (`configschema.Attribute.decoderSpec`): its cty type, or for nested
    /// attributes an object whose optional and computed attributes may be
    /// left out, in the collection the nesting says.
    pub fn decoder_type(&self) -> Type {
        match &self.ty {
            AttributeType::Type(ty) => ty.to_eval_type(),
            AttributeType::Nested(nested) => nested.decoder_type(),
        }
    }
}

impl NestedAttributes {
    fn decoder_type(&self) -> Type {
        let attributes = self
            .attributes
            .iter()
            .map(|(name, attribute)| (name, attribute.decoder_type()));
        let optional = self
            .attributes
            .iter()
            .filter(|(_, attribute)| attribute.optional || attribute.computed)
            .map(|(name, _)| name);
        let object = Type::Object(Box::new(
            tofu_eval::ObjectType::new(attributes).with_optional(optional),
        ));
        match self.nesting {
            Nesting::List => Type::list(object),
            Nesting::Set => Type::set(object),
            Nesting::Map => Type::map(object),
            Nesting::Single | Nesting::Group => object,
            Nesting::Invalid => Type::empty_object(),
        }
    }
}

impl ConfigValue {
    /// An evaluated value as it is sent, marks dropped.
    pub fn from_eval(value: &Value) -> ConfigValue {
        match &value.kind {
            ValueKind::Null(ty) => ConfigValue::Null(SchemaType::from_eval_type(ty)),
            ValueKind::Unknown(unknown) => ConfigValue::Unknown(UnknownValue {
                ty: SchemaType::from_eval_type(&unknown.ty),
                refinements: Refinements {
                    // cty refines only values of a known type.
                    not_null: unknown.not_null && unknown.ty != Type::Dynamic,
                    ..Refinements::default()
                },
            }),
            ValueKind::Bool(value) => ConfigValue::Bool(*value),
            ValueKind::Number(number) => ConfigValue::Number(config_number(number)),
            ValueKind::String(text) => ConfigValue::String(text.clone()),
            ValueKind::List { element, items } => ConfigValue::List {
                element: SchemaType::from_eval_type(element),
                items: items.iter().map(ConfigValue::from_eval).collect(),
            },
            ValueKind::Set { element, items } => ConfigValue::Set {
                element: SchemaType::from_eval_type(element),
                items: items.iter().map(ConfigValue::from_eval).collect(),
            },
            ValueKind::Map { element, entries } => ConfigValue::Map {
                element: SchemaType::from_eval_type(element),
                entries: entries
                    .iter()
                    .map(|(key, value)| (key.clone(), ConfigValue::from_eval(value)))
                    .collect(),
            },
            ValueKind::Tuple(items) => {
                ConfigValue::Tuple(items.iter().map(ConfigValue::from_eval).collect())
            }
            ValueKind::Object(attributes) => ConfigValue::Object(
                attributes
                    .iter()
                    .map(|(name, value)| (name.clone(), ConfigValue::from_eval(value)))
                    .collect(),
            ),
        }
    }
}

/// An integer that fits `i64` as an integer, a number that is exactly an
/// `f64` (or infinite) as a float, anything else as its exact decimal text.
fn config_number(number: &Number) -> ConfigNumber {
    if let Some(integer) = number.to_i64_exact() {
        return ConfigNumber::Integer(integer);
    }
    let float = number.to_f64();
    if float.is_infinite() || Number::from_f64(float).cmp_value(number).is_eq() {
        return ConfigNumber::Float(float);
    }
    ConfigNumber::Decimal(number.text('f', -1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_take_the_form_cty_writes() {
        let form = |text: &str| config_number(&Number::parse(text).unwrap());
        assert_eq!(form("42"), ConfigNumber::Integer(42));
        assert_eq!(form("-7"), ConfigNumber::Integer(-7));
        assert_eq!(form("0.5"), ConfigNumber::Float(0.5));
        assert_eq!(
            form("0.1"),
            ConfigNumber::Decimal("0.1".to_owned()),
            "0.1 is no f64 exactly"
        );
        assert_eq!(
            form("1180591620717411303424"),
            ConfigNumber::Float(2f64.powi(70)),
            "a whole number beyond i64 that is exactly an f64"
        );
        assert_eq!(
            form("1e30"),
            ConfigNumber::Decimal("1000000000000000000000000000000".to_owned()),
            "no f64 is 10^30 exactly"
        );
    }

    #[test]
    fn values_keep_their_shape_and_lose_their_marks() {
        let value = Value::object(BTreeMap::from([
            ("a".to_owned(), Value::string("x").mark_sensitive()),
            ("b".to_owned(), Value::unknown_not_null(Type::String)),
            ("c".to_owned(), Value::null(Type::Number)),
            ("d".to_owned(), Value::dynamic_unknown()),
        ]));
        assert_eq!(
            ConfigValue::from_eval(&value),
            ConfigValue::object([
                ("a", ConfigValue::string("x")),
                ("b", ConfigValue::unknown_not_null(SchemaType::String)),
                ("c", ConfigValue::Null(SchemaType::Number)),
                ("d", ConfigValue::unknown(SchemaType::Dynamic)),
            ])
        );
    }

    #[test]
    fn nested_attributes_convert_with_their_optional_attributes_left_out() {
        let nested = NestedAttributes {
            nesting: Nesting::List,
            attributes: crate::model::ByName::from_unsorted(vec![
                ("name".into(), plain(SchemaType::String, true)),
                ("size".into(), plain(SchemaType::Number, false)),
            ]),
        };
        let Type::List(object) = nested.decoder_type() else {
            panic!("not a list")
        };
        let Type::Object(object) = *object else {
            panic!("not an object")
        };
        assert_eq!(object.optional().to_vec(), vec![Box::<str>::from("size")]);
    }

    fn plain(ty: SchemaType, required: bool) -> Attribute {
        Attribute {
            ty: AttributeType::Type(ty),
            description: Default::default(),
            required,
            optional: !required,
            computed: false,
            sensitive: false,
            deprecated: false,
            write_only: false,
            deprecation_message: Box::default(),
        }
    }
}

//! The type of an attribute, a function parameter or a function result as a
//! provider states it: a cty type in its JSON form (`"string"`,
//! `["list","number"]`, `["object",{"a":"bool"},["a"]]`), the form both the
//! plugin protocol (`bytes type`) and `tofu providers schema -json` use.
//!
//! [`SchemaType`] is deliberately a plain description, not tofu-eval's type
//! model: it maps onto it one variant to one type constructor. Left out:
//! capsule types, which never cross the plugin protocol. Parsing never
//! panics; a form it does not know is an error the caller reports.

use std::fmt::Write as _;

use jsonc_parser::JsonValue;

/// A cty type as a schema gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaType {
    String,
    Number,
    Bool,
    /// `"dynamic"`: any type (cty's `DynamicPseudoType`).
    Dynamic,
    List(Box<SchemaType>),
    Set(Box<SchemaType>),
    Map(Box<SchemaType>),
    Object(Box<ObjectType>),
    Tuple(Box<[SchemaType]>),
}

/// An object type: its attributes sorted by name, and which of them are
/// optional (a type constraint's `optional(...)`, sorted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectType {
    pub attributes: Box<[(Box<str>, SchemaType)]>,
    pub optional: Box<[Box<str>]>,
}

impl ObjectType {
    /// The type of the attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&SchemaType> {
        let index = self
            .attributes
            .binary_search_by(|(attribute, _)| attribute.as_ref().cmp(name))
            .ok()?;
        self.attributes.get(index).map(|(_, ty)| ty)
    }
}

/// Why a type's JSON form was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub message: String,
}

impl SchemaType {
    /// Reads a type from its JSON text, as the plugin protocol sends it.
    pub fn from_json_text(text: &str) -> Result<SchemaType, TypeError> {
        match jsonc_parser::parse_to_value(text, &jsonc_parser::ParseOptions::default()) {
            Ok(Some(value)) => SchemaType::from_json(value),
            Ok(None) => Err(type_error("an empty type")),
            Err(error) => Err(type_error(&format!("a type that is not JSON: {error}"))),
        }
    }

    /// Reads a type from an already parsed JSON value.
    pub fn from_json(value: JsonValue<'_>) -> Result<SchemaType, TypeError> {
        match value {
            JsonValue::String(name) => match name.as_ref() {
                "string" => Ok(SchemaType::String),
                "number" => Ok(SchemaType::Number),
                "bool" => Ok(SchemaType::Bool),
                "dynamic" => Ok(SchemaType::Dynamic),
                other => Err(type_error(&format!("an unknown primitive type {other:?}"))),
            },
            JsonValue::Array(items) => {
                let mut items = items.take_inner().into_iter();
                let Some(JsonValue::String(kind)) = items.next() else {
                    return Err(type_error("a type array without its kind"));
                };
                let argument = items.next();
                match (kind.as_ref(), argument) {
                    ("list", Some(element)) => {
                        Ok(SchemaType::List(Box::new(SchemaType::from_json(element)?)))
                    }
                    ("set", Some(element)) => {
                        Ok(SchemaType::Set(Box::new(SchemaType::from_json(element)?)))
                    }
                    ("map", Some(element)) => {
                        Ok(SchemaType::Map(Box::new(SchemaType::from_json(element)?)))
                    }
                    ("tuple", Some(JsonValue::Array(elements))) => {
                        let elements = elements
                            .take_inner()
                            .into_iter()
                            .map(SchemaType::from_json)
                            .collect::<Result<Vec<_>, _>>()?;
                        Ok(SchemaType::Tuple(elements.into_boxed_slice()))
                    }
                    ("object", Some(JsonValue::Object(attributes))) => {
                        let mut attribute_types: Vec<(Box<str>, SchemaType)> =
                            Vec::with_capacity(attributes.len());
                        for (name, ty) in attributes {
                            attribute_types
                                .push((Box::from(name.as_ref()), SchemaType::from_json(ty)?));
                        }
                        attribute_types.sort_by(|(left, _), (right, _)| left.cmp(right));
                        let mut optional = Vec::new();
                        if let Some(JsonValue::Array(names)) = items.next() {
                            for name in names.take_inner() {
                                let JsonValue::String(name) = name else {
                                    return Err(type_error(
                                        "an optional attribute name that is not a string",
                                    ));
                                };
                                optional.push(Box::from(name.as_ref()));
                            }
                        }
                        optional.sort();
                        Ok(SchemaType::Object(Box::new(ObjectType {
                            attributes: attribute_types.into_boxed_slice(),
                            optional: optional.into_boxed_slice(),
                        })))
                    }
                    (other, _) => Err(type_error(&format!("an unknown type kind {other:?}"))),
                }
            }
            _ => Err(type_error("a type that is neither a string nor an array")),
        }
    }

    /// The JSON form, compact, object attributes sorted (as cty writes it).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends the JSON form to `out`.
    pub fn write_json(&self, out: &mut String) {
        match self {
            SchemaType::String => out.push_str("\"string\""),
            SchemaType::Number => out.push_str("\"number\""),
            SchemaType::Bool => out.push_str("\"bool\""),
            SchemaType::Dynamic => out.push_str("\"dynamic\""),
            SchemaType::List(element) => write_collection(out, "list", element),
            SchemaType::Set(element) => write_collection(out, "set", element),
            SchemaType::Map(element) => write_collection(out, "map", element),
            SchemaType::Tuple(elements) => {
                out.push_str("[\"tuple\",[");
                for (index, element) in elements.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    element.write_json(out);
                }
                out.push_str("]]");
            }
            SchemaType::Object(object) => {
                out.push_str("[\"object\",{");
                for (index, (name, ty)) in object.attributes.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write_json_string(out, name);
                    out.push(':');
                    ty.write_json(out);
                }
                out.push('}');
                if !object.optional.is_empty() {
                    out.push_str(",[");
                    for (index, name) in object.optional.iter().enumerate() {
                        if index > 0 {
                            out.push(',');
                        }
                        write_json_string(out, name);
                    }
                    out.push(']');
                }
                out.push(']');
            }
        }
    }

    /// How OpenTofu names the type in messages (`list of string`,
    /// `object`, `any` for dynamic), cty's friendly name.
    pub fn friendly_name(&self) -> String {
        match self {
            SchemaType::String => "string".to_owned(),
            SchemaType::Number => "number".to_owned(),
            SchemaType::Bool => "bool".to_owned(),
            SchemaType::Dynamic => "dynamic".to_owned(),
            SchemaType::List(element) => format!("list of {}", element.friendly_name()),
            SchemaType::Set(element) => format!("set of {}", element.friendly_name()),
            SchemaType::Map(element) => format!("map of {}", element.friendly_name()),
            SchemaType::Object(_) => "object".to_owned(),
            SchemaType::Tuple(_) => "tuple".to_owned(),
        }
    }
}

fn write_collection(out: &mut String, kind: &str, element: &SchemaType) {
    out.push_str("[\"");
    out.push_str(kind);
    out.push_str("\",");
    element.write_json(out);
    out.push(']');
}

/// Appends `text` as a JSON string literal.
pub(crate) fn write_json_string(out: &mut String, text: &str) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            control if u32::from(control) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(control));
            }
            other => out.push(other),
        }
    }
    out.push('"');
}

fn type_error(message: &str) -> TypeError {
    TypeError {
        message: message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_and_writes_back() {
        for text in [
            "\"string\"",
            "\"number\"",
            "\"bool\"",
            "\"dynamic\"",
            "[\"list\",\"string\"]",
            "[\"set\",[\"map\",\"number\"]]",
            "[\"tuple\",[\"string\",\"bool\"]]",
            "[\"object\",{\"a\":\"string\",\"b\":[\"list\",\"bool\"]}]",
            "[\"object\",{\"a\":\"string\",\"b\":\"number\"},[\"b\"]]",
        ] {
            let ty = SchemaType::from_json_text(text).unwrap();
            assert_eq!(ty.to_json(), text);
        }
    }

    #[test]
    fn object_attributes_are_sorted_and_found() {
        let ty =
            SchemaType::from_json_text("[\"object\",{\"z\":\"string\",\"a\":\"bool\"}]").unwrap();
        assert_eq!(
            ty.to_json(),
            "[\"object\",{\"a\":\"bool\",\"z\":\"string\"}]"
        );
        let SchemaType::Object(object) = ty else {
            panic!("not an object")
        };
        assert_eq!(object.attribute("z"), Some(&SchemaType::String));
        assert_eq!(object.attribute("y"), None);
    }

    #[test]
    fn unknown_forms_are_errors() {
        for text in [
            "\"capsule\"",
            "[\"list\"]",
            "[\"object\",[]]",
            "3",
            "",
            "[\"tuple\",\"string\"]",
        ] {
            assert!(SchemaType::from_json_text(text).is_err(), "{text}");
        }
    }

    #[test]
    fn friendly_names_read_as_opentofu_writes_them() {
        let ty = SchemaType::from_json_text("[\"list\",[\"map\",\"string\"]]").unwrap();
        assert_eq!(ty.friendly_name(), "list of map of string");
    }
}

//! The type of an attribute, a function parameter or a function result as a
//! provider states it: a cty type (tofu-eval's [`Type`]) in its JSON form
//! (`"string"`, `["list","number"]`, `["object",{"a":"bool"},["a"]]`), the
//! form both the plugin protocol (`bytes type`) and `tofu providers schema
//! -json` use, read and written here.
//!
//! Left out: capsule types, which never cross the plugin protocol. Parsing
//! never panics; a form it does not know is an error the caller reports.

use std::fmt::Write as _;

use jsonc_parser::JsonValue;
use tofu_eval::{ObjectType, Type};

/// Why a type's JSON form was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub message: String,
}

/// Reads a type from its JSON text, as the plugin protocol sends it.
pub fn type_from_json_text(text: &str) -> Result<Type, TypeError> {
    match jsonc_parser::parse_to_value(text, &jsonc_parser::ParseOptions::default()) {
        Ok(Some(value)) => type_from_json(value),
        Ok(None) => Err(type_error("an empty type")),
        Err(error) => Err(type_error(&format!("a type that is not JSON: {error}"))),
    }
}

/// Reads a type from an already parsed JSON value.
pub fn type_from_json(value: JsonValue<'_>) -> Result<Type, TypeError> {
    match value {
        JsonValue::String(name) => match name.as_ref() {
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "bool" => Ok(Type::Bool),
            "dynamic" => Ok(Type::Dynamic),
            other => Err(type_error(&format!("an unknown primitive type {other:?}"))),
        },
        JsonValue::Array(items) => {
            let mut items = items.take_inner().into_iter();
            let Some(JsonValue::String(kind)) = items.next() else {
                return Err(type_error("a type array without its kind"));
            };
            let argument = items.next();
            match (kind.as_ref(), argument) {
                ("list", Some(element)) => Ok(Type::list(type_from_json(element)?)),
                ("set", Some(element)) => Ok(Type::set(type_from_json(element)?)),
                ("map", Some(element)) => Ok(Type::map(type_from_json(element)?)),
                ("tuple", Some(JsonValue::Array(elements))) => {
                    let elements = elements
                        .take_inner()
                        .into_iter()
                        .map(type_from_json)
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Type::tuple(elements))
                }
                ("object", Some(JsonValue::Object(attributes))) => {
                    let mut attribute_types: Vec<(Box<str>, Type)> =
                        Vec::with_capacity(attributes.len());
                    for (name, ty) in attributes {
                        attribute_types.push((Box::from(name.as_ref()), type_from_json(ty)?));
                    }
                    let mut optional: Vec<Box<str>> = Vec::new();
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
                    Ok(Type::Object(Box::new(
                        ObjectType::new(attribute_types).with_optional(optional),
                    )))
                }
                (other, _) => Err(type_error(&format!("an unknown type kind {other:?}"))),
            }
        }
        _ => Err(type_error("a type that is neither a string nor an array")),
    }
}

/// The JSON form, compact, object attributes sorted (as cty writes it).
pub fn type_to_json(ty: &Type) -> String {
    let mut out = String::new();
    write_type_json(ty, &mut out);
    out
}

/// Appends the JSON form of `ty` to `out`.
pub fn write_type_json(ty: &Type, out: &mut String) {
    match ty {
        Type::String => out.push_str("\"string\""),
        Type::Number => out.push_str("\"number\""),
        Type::Bool => out.push_str("\"bool\""),
        Type::Dynamic => out.push_str("\"dynamic\""),
        Type::List(element) => write_collection(out, "list", element),
        Type::Set(element) => write_collection(out, "set", element),
        Type::Map(element) => write_collection(out, "map", element),
        Type::Tuple(elements) => {
            out.push_str("[\"tuple\",[");
            for (index, element) in elements.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_type_json(element, out);
            }
            out.push_str("]]");
        }
        Type::Object(object) => {
            out.push_str("[\"object\",{");
            for (index, (name, ty)) in object.attributes().iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_json_string(out, name);
                out.push(':');
                write_type_json(ty, out);
            }
            out.push('}');
            if !object.optional().is_empty() {
                out.push_str(",[");
                for (index, name) in object.optional().iter().enumerate() {
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

fn write_collection(out: &mut String, kind: &str, element: &Type) {
    out.push_str("[\"");
    out.push_str(kind);
    out.push_str("\",");
    write_type_json(element, out);
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
            let ty = type_from_json_text(text).unwrap();
            assert_eq!(type_to_json(&ty), text);
        }
    }

    #[test]
    fn object_attributes_are_sorted_and_found() {
        let ty = type_from_json_text("[\"object\",{\"z\":\"string\",\"a\":\"bool\"}]").unwrap();
        assert_eq!(
            type_to_json(&ty),
            "[\"object\",{\"a\":\"bool\",\"z\":\"string\"}]"
        );
        let Type::Object(object) = ty else {
            panic!("not an object")
        };
        assert_eq!(object.attribute("z"), Some(&Type::String));
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
            assert!(type_from_json_text(text).is_err(), "{text}");
        }
    }

    #[test]
    fn friendly_names_read_as_opentofu_writes_them() {
        let ty = type_from_json_text("[\"list\",[\"map\",\"string\"]]").unwrap();
        assert_eq!(ty.friendly_name(), "list of map of string");
    }

    #[test]
    fn a_type_takes_no_more_room_than_three_words() {
        assert_eq!(std::mem::size_of::<Type>(), 24);
    }
}

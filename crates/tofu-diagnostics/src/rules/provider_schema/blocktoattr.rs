//! Attributes of a list or set of objects written as nested blocks, as
//! OpenTofu's `lang/blocktoattr` (`FixUpBlockAttrs`) lets a body write
//! them when `EvaluateBlock` decodes it: `binding { host_id = "h" }` for
//! the attribute `binding` of type `list(object({host_id = string, ...}))`.
//!
//! A name is written as blocks when the body does not set it as an
//! argument (the argument wins, and its blocks are then unsupported) and a
//! block or a `dynamic` block of that type is written. Each such block is
//! decoded against a schema made from the element type
//! (`SchemaForCtyElementType`): every attribute optional, no block types,
//! no labels, no count; inside it the same rule applies again. No name is
//! ambiguous in a schema the legacy SDK could not have made
//! (`skipFixup`): one with nested attributes, or an attribute of a tuple or
//! object type, a map of objects, or a collection of collections of other
//! than primitive types, anywhere in the block or its nested block types.
//!
//! Left out: JSON bodies, where the argument is always preferred (they are
//! read as arguments by the callers already).

use tofu_eval::Type;
use tofu_schema::{Attribute, AttributeType, Block as SchemaBlock};

/// The schema of one block written for the attribute `name` of `schema`,
/// when `name` is an attribute a body may write as blocks; `None` when it
/// is not (a block type, another type, or a schema that skips the fixup).
pub(crate) fn element_schema(schema: &SchemaBlock, name: &str) -> Option<SchemaBlock> {
    let attribute = schema.attributes.get(name)?;
    let AttributeType::Type(Type::List(element) | Type::Set(element)) = &attribute.ty else {
        return None;
    };
    let Type::Object(object) = element.as_ref() else {
        return None;
    };
    if skips_fixup(schema) {
        return None;
    }
    let attributes = object
        .attributes()
        .iter()
        .map(|(attribute_name, ty)| (attribute_name.clone(), optional_attribute(ty)))
        .collect();
    Some(SchemaBlock {
        attributes: tofu_schema::ByName::from_unsorted(attributes),
        ..SchemaBlock::default()
    })
}

/// `SchemaForCtyElementType`'s attribute: optional, of the given type.
fn optional_attribute(ty: &Type) -> Attribute {
    Attribute {
        ty: AttributeType::Type(ty.clone()),
        description: tofu_schema::Description::default(),
        required: false,
        optional: true,
        computed: false,
        sensitive: false,
        deprecated: false,
        write_only: false,
        deprecation_message: Box::default(),
    }
}

/// `skipFixup`: whether the schema, or one of its nested block types,
/// has something the legacy SDK could not make.
fn skips_fixup(schema: &SchemaBlock) -> bool {
    let attribute_skips = schema
        .attributes
        .iter()
        .any(|(_, attribute)| match &attribute.ty {
            AttributeType::Nested(_) => true,
            AttributeType::Type(ty) => legacy_sdk_cannot_make(ty),
        });
    attribute_skips
        || schema
            .block_types
            .iter()
            .any(|(_, nested)| skips_fixup(&nested.block))
}

fn legacy_sdk_cannot_make(ty: &Type) -> bool {
    match ty {
        Type::Tuple(_) | Type::Object(_) => true,
        Type::Map(element) if matches!(element.as_ref(), Type::Object(_)) => true,
        Type::List(element) | Type::Set(element) | Type::Map(element) => match element.as_ref() {
            Type::List(inner) | Type::Set(inner) | Type::Map(inner) => {
                !matches!(inner.as_ref(), Type::String | Type::Number | Type::Bool)
            }
            _ => false,
        },
        Type::String | Type::Number | Type::Bool | Type::Dynamic => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema_of(types: &[(&str, &str)]) -> SchemaBlock {
        let attributes = types
            .iter()
            .map(|(name, json)| {
                let ty = tofu_schema::type_from_json_text(json).unwrap();
                (Box::<str>::from(*name), optional_attribute(&ty))
            })
            .collect();
        SchemaBlock {
            attributes: tofu_schema::ByName::from_unsorted(attributes),
            ..SchemaBlock::default()
        }
    }

    const BINDING: &str =
        r#"["list",["object",{"host_id":"string","vif_details":["map","string"]}]]"#;

    #[test]
    fn a_list_or_set_of_objects_may_be_written_as_blocks() {
        let schema = schema_of(&[
            ("binding", BINDING),
            ("pairs", r#"["set",["object",{"ip":"string"}]]"#),
            ("tags", r#"["list",["list","string"]]"#),
        ]);
        let binding = element_schema(&schema, "binding").unwrap();
        assert_eq!(
            binding.attributes.names().collect::<Vec<_>>(),
            ["host_id", "vif_details"]
        );
        assert!(binding
            .attributes
            .iter()
            .all(|(_, attribute)| attribute.optional && !attribute.required));
        assert!(element_schema(&schema, "pairs").is_some());
        assert!(element_schema(&schema, "tags").is_none());
        assert!(element_schema(&schema, "nothing").is_none());
    }

    #[test]
    fn a_schema_the_legacy_sdk_could_not_make_writes_no_blocks() {
        for other in [
            r#"["object",{"a":"string"}]"#,
            r#"["tuple",["string"]]"#,
            r#"["map",["object",{"a":"string"}]]"#,
            r#"["list",["list",["list","string"]]]"#,
            r#"["set",["map","dynamic"]]"#,
        ] {
            let schema = schema_of(&[("binding", BINDING), ("other", other)]);
            assert!(element_schema(&schema, "binding").is_none(), "{other}");
        }
        let mut nested_attributes = schema_of(&[("binding", BINDING)]);
        let mut attributes: Vec<(Box<str>, Attribute)> = nested_attributes
            .attributes
            .iter()
            .map(|(name, attribute)| (Box::from(name), attribute.clone()))
            .collect();
        attributes.push((
            Box::from("pairs"),
            Attribute {
                ty: AttributeType::Nested(Box::new(tofu_schema::NestedAttributes {
                    nesting: tofu_schema::Nesting::List,
                    attributes: tofu_schema::ByName::default(),
                })),
                ..optional_attribute(&Type::String)
            },
        ));
        nested_attributes.attributes = tofu_schema::ByName::from_unsorted(attributes);
        assert!(element_schema(&nested_attributes, "binding").is_none());
        let mut in_nested_block = schema_of(&[("binding", BINDING)]);
        in_nested_block.block_types = tofu_schema::ByName::from_unsorted(vec![(
            Box::from("network"),
            tofu_schema::NestedBlock {
                nesting: tofu_schema::Nesting::List,
                block: schema_of(&[("port", r#"["object",{"a":"string"}]"#)]),
                min_items: 0,
                max_items: 0,
            },
        )]);
        assert!(element_schema(&in_nested_block, "binding").is_none());
        let fine = schema_of(&[
            ("binding", BINDING),
            ("other", r#"["list",["map","number"]]"#),
        ]);
        assert!(element_schema(&fine, "binding").is_some());
    }
}

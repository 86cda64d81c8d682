//! The type of the value a block's configuration decodes to
//! (`configschema.Block.ImpliedType`): the type OpenTofu writes a
//! configuration as when it calls `ValidateResourceConfig` and the other
//! `Validate*` calls.
//!
//! A block is an object of its attributes and nested block types (an
//! attribute wins over a block type of the same name). A nested block
//! type is an object (single, group), a list, a set or a map of objects;
//! a list or map of blocks whose type holds `dynamic` anywhere is itself
//! `dynamic` (OpenTofu then decodes the blocks as a tuple or an object).
//! Nested attributes are an object or a collection of objects. Optional
//! markers are left out, as `ImpliedType` drops them; nesting OpenTofu
//! does not know (`Invalid`) is left out of the object.

use tofu_eval::Type;

use crate::model::{Attribute, AttributeType, Block, NestedAttributes, Nesting};

impl Block {
    /// The type of this block's configuration value.
    pub fn implied_type(&self) -> Type {
        let mut attributes: Vec<(Box<str>, Type)> = self
            .attributes
            .iter()
            .map(|(name, attribute)| (Box::from(name), attribute.implied_type()))
            .collect();
        for (name, nested) in self.block_types.iter() {
            if self.attributes.get(name).is_some() {
                continue;
            }
            let object = nested.block.implied_type();
            let ty = match nested.nesting {
                Nesting::Single | Nesting::Group => object,
                Nesting::List if object.has_dynamic() => Type::Dynamic,
                Nesting::List => Type::list(object),
                Nesting::Set => Type::set(object),
                Nesting::Map if object.has_dynamic() => Type::Dynamic,
                Nesting::Map => Type::map(object),
                Nesting::Invalid => continue,
            };
            attributes.push((Box::from(name), ty));
        }
        Type::object(attributes)
    }
}

impl Attribute {
    /// The attribute's value type (nested attributes as objects).
    pub fn implied_type(&self) -> Type {
        match &self.ty {
            AttributeType::Type(ty) => ty.clone(),
            AttributeType::Nested(nested) => nested.implied_type(),
        }
    }
}

impl NestedAttributes {
    /// An object of the attributes, wrapped as the nesting says.
    pub fn implied_type(&self) -> Type {
        let object = Type::object(
            self.attributes
                .iter()
                .map(|(name, attribute)| (name, attribute.implied_type())),
        );
        match self.nesting {
            Nesting::Single | Nesting::Group => object,
            Nesting::List => Type::list(object),
            Nesting::Set => Type::set(object),
            Nesting::Map => Type::map(object),
            // OpenTofu's fallback for a nesting it does not know.
            Nesting::Invalid => Type::empty_object(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::json_decode::decode_providers_schema_json;

    fn time_schema() -> crate::model::ProviderSchema {
        let text = include_str!("../test_data/schema-time.json");
        let mut providers = decode_providers_schema_json(text).unwrap();
        providers.remove(0).1
    }

    #[test]
    fn a_resource_is_an_object_of_its_attributes() {
        let schema = time_schema();
        let sleep = schema
            .resource_types
            .get("time_sleep")
            .map(|schema| &schema.block);
        assert_eq!(
            sleep
                .map(|block| crate::type_to_json(&block.implied_type()))
                .as_deref(),
            Some(
                "[\"object\",{\"create_duration\":\"string\",\"destroy_duration\":\"string\",\
                 \"id\":\"string\",\"triggers\":[\"map\",\"string\"]}]"
            )
        );
    }

    #[test]
    fn blocks_nest_by_their_nesting_and_dynamic_lists_become_dynamic() {
        use crate::model::{ByName, NestedBlock};
        let attribute = |ty: Type| Attribute {
            ty: AttributeType::Type(ty),
            description: Default::default(),
            required: false,
            optional: true,
            computed: false,
            sensitive: false,
            deprecated: false,
            write_only: false,
            deprecation_message: Box::default(),
        };
        let block_of = |ty: Type| Block {
            attributes: ByName::from_unsorted(vec![(Box::from("v"), attribute(ty))]),
            ..Block::default()
        };
        let nested = |nesting, block| NestedBlock {
            nesting,
            block,
            min_items: 0,
            max_items: 0,
        };
        let block = Block {
            attributes: ByName::from_unsorted(vec![
                (Box::from("name"), attribute(Type::String)),
                (
                    Box::from("settings"),
                    Attribute {
                        ty: AttributeType::Nested(Box::new(NestedAttributes {
                            nesting: Nesting::Set,
                            attributes: ByName::from_unsorted(vec![(
                                Box::from("k"),
                                attribute(Type::Number),
                            )]),
                        })),
                        ..attribute(Type::String)
                    },
                ),
            ]),
            block_types: ByName::from_unsorted(vec![
                (
                    Box::from("single"),
                    nested(Nesting::Single, block_of(Type::Bool)),
                ),
                (
                    Box::from("group"),
                    nested(Nesting::Group, block_of(Type::Bool)),
                ),
                (
                    Box::from("list"),
                    nested(Nesting::List, block_of(Type::Number)),
                ),
                (
                    Box::from("dynamic_list"),
                    nested(Nesting::List, block_of(Type::Dynamic)),
                ),
                (
                    Box::from("set"),
                    nested(Nesting::Set, block_of(Type::Dynamic)),
                ),
                (
                    Box::from("map"),
                    nested(Nesting::Map, block_of(Type::String)),
                ),
                (
                    Box::from("dynamic_map"),
                    nested(Nesting::Map, block_of(Type::Dynamic)),
                ),
                (
                    Box::from("name"),
                    nested(Nesting::List, block_of(Type::String)),
                ),
                (
                    Box::from("invalid"),
                    nested(Nesting::Invalid, block_of(Type::String)),
                ),
            ]),
            ..Block::default()
        };
        assert_eq!(
            crate::type_to_json(&block.implied_type()),
            "[\"object\",{\"dynamic_list\":\"dynamic\",\"dynamic_map\":\"dynamic\",\
             \"group\":[\"object\",{\"v\":\"bool\"}],\
             \"list\":[\"list\",[\"object\",{\"v\":\"number\"}]],\
             \"map\":[\"map\",[\"object\",{\"v\":\"string\"}]],\
             \"name\":\"string\",\
             \"set\":[\"set\",[\"object\",{\"v\":\"dynamic\"}]],\
             \"settings\":[\"set\",[\"object\",{\"k\":\"number\"}]],\
             \"single\":[\"object\",{\"v\":\"bool\"}]}]"
        );
    }
}

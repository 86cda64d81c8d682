//! The type a configured value of an attribute is converted to before a
//! provider is sent it (`configschema.Attribute.decoderSpec`).

use tofu_eval::Type;

use crate::model::{Attribute, AttributeType, NestedAttributes, Nesting};

impl Attribute {
    /// The type a configured value of this attribute is converted to
    /// (`configschema.Attribute.decoderSpec`): its cty type, or for nested
    /// attributes an object whose optional and computed attributes may be
    /// left out, in the collection the nesting says.
    pub fn decoder_type(&self) -> Type {
        match &self.ty {
            AttributeType::Type(ty) => ty.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_attributes_convert_with_their_optional_attributes_left_out() {
        let nested = NestedAttributes {
            nesting: Nesting::List,
            attributes: crate::model::ByName::from_unsorted(vec![
                ("name".into(), plain(Type::String, true)),
                ("size".into(), plain(Type::Number, false)),
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

    fn plain(ty: Type, required: bool) -> Attribute {
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

//! Writes the model in the shape of `tofu providers schema -json`: the
//! cache's file format, and what the comparison with OpenTofu's own output
//! reads (`scripts/compare_schemas.py`).
//!
//! Keys are sorted and empty values left out exactly where OpenTofu's
//! `jsonprovider` package leaves them out (`omitempty`), so the two outputs
//! are equal as JSON values. What OpenTofu's output drops but the model
//! keeps (a function's `description_kind` and `deprecation_message`, a
//! parameter's `allow_unknown_values`, `provider_meta`) is written under
//! extra keys only when it is not the default; `json_decode` reads them back.
//! Strings are escaped as JSON requires, not as Go's HTML-safe encoder does.

use tofu_eval::Type;

use crate::address::ProviderAddress;
use crate::model::{
    Attribute, AttributeType, Block, ByName, Description, DescriptionKind, Function,
    FunctionParameter, IdentityAttribute, NestedBlock, ProviderSchema, ResourceIdentitySchema,
    Schema,
};
use crate::types::{write_json_string, write_type_json};

/// The whole document: `format_version` and every provider given.
pub fn encode_providers_schema_json(providers: &[(&ProviderAddress, &ProviderSchema)]) -> String {
    let mut sorted: Vec<&(&ProviderAddress, &ProviderSchema)> = providers.iter().collect();
    sorted.sort_by(|left, right| left.0.cmp(right.0));
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("{\"format_version\":\"1.0\",\"provider_schemas\":{");
    for (index, (address, schema)) in sorted.into_iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        write_json_string(&mut out, &address.to_string());
        out.push(':');
        write_provider(&mut out, schema);
    }
    out.push_str("}}");
    out
}

/// Writes one JSON object, a key at a time, with the commas between.
struct ObjectWriter<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> ObjectWriter<'a> {
    fn open(out: &'a mut String) -> ObjectWriter<'a> {
        out.push('{');
        ObjectWriter { out, first: true }
    }

    fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        write_json_string(self.out, key);
        self.out.push(':');
        self.out
    }

    fn string(&mut self, key: &str, value: &str) {
        let out = self.key(key);
        write_json_string(out, value);
    }

    /// `omitempty` on a string.
    fn string_unless_empty(&mut self, key: &str, value: &str) {
        if !value.is_empty() {
            self.string(key, value);
        }
    }

    /// `omitempty` on a bool.
    fn flag(&mut self, key: &str, value: bool) {
        if value {
            self.key(key).push_str("true");
        }
    }

    fn number(&mut self, key: &str, value: impl ToString) {
        let text = value.to_string();
        self.key(key).push_str(&text);
    }

    fn ty(&mut self, key: &str, ty: &Type) {
        let out = self.key(key);
        write_type_json(ty, out);
    }

    /// `omitempty` on a map: each value written by `write`.
    fn map<T>(&mut self, key: &str, items: &ByName<T>, write: fn(&mut String, &T)) {
        if items.is_empty() {
            return;
        }
        let out = self.key(key);
        let mut inner = ObjectWriter::open(out);
        for (name, item) in items.iter() {
            write(inner.key(name), item);
        }
        inner.close();
    }

    fn close(self) {
        self.out.push('}');
    }
}

fn write_provider(out: &mut String, schema: &ProviderSchema) {
    let mut object = ObjectWriter::open(out);
    write_schema(object.key("provider"), &schema.provider);
    if let Some(meta) = &schema.provider_meta {
        write_schema(object.key("provider_meta"), meta);
    }
    object.map("resource_schemas", &schema.resource_types, write_schema);
    object.map("data_source_schemas", &schema.data_sources, write_schema);
    object.map(
        "ephemeral_resource_schemas",
        &schema.ephemeral_resources,
        write_schema,
    );
    object.map("functions", &schema.functions, write_function);
    object.map(
        "resource_identity_schemas",
        &schema.resource_identities,
        write_identity_schema,
    );
    object.close();
}

fn write_schema(out: &mut String, schema: &Schema) {
    let mut object = ObjectWriter::open(out);
    object.number("version", schema.version);
    write_block(object.key("block"), &schema.block);
    object.close();
}

fn write_block(out: &mut String, block: &Block) {
    let mut object = ObjectWriter::open(out);
    object.map("attributes", &block.attributes, write_attribute);
    object.map("block_types", &block.block_types, write_nested_block);
    write_description(&mut object, &block.description);
    object.flag("deprecated", block.deprecated);
    object.string_unless_empty("deprecation_message", &block.deprecation_message);
    object.close();
}

fn write_nested_block(out: &mut String, nested: &NestedBlock) {
    let mut object = ObjectWriter::open(out);
    object.string("nesting_mode", nested.nesting.as_str());
    write_block(object.key("block"), &nested.block);
    if nested.min_items > 0 {
        object.number("min_items", nested.min_items);
    }
    if nested.max_items > 0 {
        object.number("max_items", nested.max_items);
    }
    object.close();
}

fn write_attribute(out: &mut String, attribute: &Attribute) {
    let mut object = ObjectWriter::open(out);
    match &attribute.ty {
        AttributeType::Type(ty) => object.ty("type", ty),
        AttributeType::Nested(nested) => {
            let mut inner = ObjectWriter::open(object.key("nested_type"));
            inner.map("attributes", &nested.attributes, write_attribute);
            inner.string("nesting_mode", nested.nesting.as_str());
            inner.close();
        }
    }
    write_description(&mut object, &attribute.description);
    object.flag("deprecated", attribute.deprecated);
    object.string_unless_empty("deprecation_message", &attribute.deprecation_message);
    object.flag("required", attribute.required);
    object.flag("optional", attribute.optional);
    object.flag("computed", attribute.computed);
    object.flag("sensitive", attribute.sensitive);
    object.flag("write_only", attribute.write_only);
    object.close();
}

/// OpenTofu always writes `description_kind` (it is never empty).
fn write_description(object: &mut ObjectWriter<'_>, description: &Description) {
    object.string_unless_empty("description", &description.text);
    object.string("description_kind", description.kind.as_str());
}

fn write_function(out: &mut String, function: &Function) {
    let mut object = ObjectWriter::open(out);
    object.string("description", &function.description.text);
    if function.description.kind != DescriptionKind::Plain {
        object.string("description_kind", function.description.kind.as_str());
    }
    object.string_unless_empty("deprecation_message", &function.deprecation_message);
    object.string("summary", &function.summary);
    object.ty("return_type", &function.return_type);
    if !function.parameters.is_empty() {
        let out = object.key("parameters");
        out.push('[');
        for (index, parameter) in function.parameters.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            write_parameter(out, parameter);
        }
        out.push(']');
    }
    if let Some(variadic) = &function.variadic_parameter {
        write_parameter(object.key("variadic_parameter"), variadic);
    }
    object.close();
}

fn write_parameter(out: &mut String, parameter: &FunctionParameter) {
    let mut object = ObjectWriter::open(out);
    object.string("name", &parameter.name);
    object.string("description", &parameter.description.text);
    if parameter.description.kind != DescriptionKind::Plain {
        object.string("description_kind", parameter.description.kind.as_str());
    }
    object.ty("type", &parameter.ty);
    object.flag("is_nullable", parameter.allow_null_value);
    object.flag("allow_unknown_values", parameter.allow_unknown_values);
    object.close();
}

fn write_identity_schema(out: &mut String, identity: &ResourceIdentitySchema) {
    let mut object = ObjectWriter::open(out);
    object.number("version", identity.version);
    object.map("attributes", &identity.attributes, write_identity_attribute);
    object.close();
}

fn write_identity_attribute(out: &mut String, attribute: &IdentityAttribute) {
    let mut object = ObjectWriter::open(out);
    object.ty("type", &attribute.ty);
    object.string_unless_empty("description", &attribute.description);
    object.flag("required_for_import", attribute.required_for_import);
    object.flag("optional_for_import", attribute.optional_for_import);
    object.close();
}

//! Reads `tofu providers schema -json` output into the model: the files a
//! `schemas` section of `.tofu-lens.toml` points at, and this crate's own
//! cache entries (written in the same shape by `json_encode`).
//!
//! Keys OpenTofu leaves out when empty or false may be absent; keys this
//! decoder does not know are skipped, so newer output still reads. Besides
//! OpenTofu's keys it reads the few the cache adds for what OpenTofu's
//! output drops (a function's `description_kind` and
//! `deprecation_message`, a parameter's `allow_unknown_values`,
//! `provider_meta`). A value of the wrong shape is an error naming where
//! it is (`provider_schemas.X.resource_schemas.Y.block.attributes.Z.type`).

use std::borrow::Cow;
use std::fmt;

use jsonc_parser::{JsonArray, JsonObject, JsonValue};
use tofu_eval::Type;

use crate::address::ProviderAddress;
use crate::model::{
    Attribute, AttributeType, Block, ByName, Description, DescriptionKind, Function,
    FunctionParameter, IdentityAttribute, NestedAttributes, NestedBlock, Nesting, ProviderSchema,
    ResourceIdentitySchema, Schema,
};
use crate::types::type_from_json;

/// Why a schema file could not be read, and where in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaJsonError {
    /// Dotted path of keys to the value at fault; empty for the whole file.
    pub path: String,
    pub message: String,
}

impl fmt::Display for SchemaJsonError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(formatter, "{}", self.message)
        } else {
            write!(formatter, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for SchemaJsonError {}

impl SchemaJsonError {
    fn new(message: impl Into<String>) -> SchemaJsonError {
        SchemaJsonError {
            path: String::new(),
            message: message.into(),
        }
    }

    /// Puts `key` in front of the path (errors bubble up from the value).
    fn within(mut self, key: &str) -> SchemaJsonError {
        self.path = if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{key}.{}", self.path)
        };
        self
    }
}

type Decoded<T> = Result<T, SchemaJsonError>;

/// Reads a whole `tofu providers schema -json` document: every provider it
/// holds, in address order.
pub fn decode_providers_schema_json(text: &str) -> Decoded<Vec<(ProviderAddress, ProviderSchema)>> {
    let value = jsonc_parser::parse_to_value(text, &jsonc_parser::ParseOptions::default())
        .map_err(|error| SchemaJsonError::new(format!("not JSON: {error}")))?;
    let Some(JsonValue::Object(mut root)) = value else {
        return Err(SchemaJsonError::new("not a JSON object"));
    };
    let Some(format_version) = take_string(&mut root, "format_version")? else {
        return Err(SchemaJsonError::new(
            "no format_version: not `tofu providers schema -json` output",
        ));
    };
    if !format_version.starts_with("1.") {
        return Err(SchemaJsonError::new(format!(
            "format_version {format_version} is not one this version reads (1.x)"
        ))
        .within("format_version"));
    }
    let mut providers = Vec::new();
    for (key, value) in take_object(&mut root, "provider_schemas")?
        .into_iter()
        .flatten()
    {
        let decoded = decode_provider(value).map_err(|error| error.within(&key))?;
        let Some(address) = ProviderAddress::parse(&key) else {
            return Err(SchemaJsonError::new("not a provider address").within(&key));
        };
        providers.push((address, decoded));
    }
    providers.sort_by(|(left, _), (right, _)| left.cmp(right));
    Ok(providers)
}

fn decode_provider(value: JsonValue<'_>) -> Decoded<ProviderSchema> {
    let mut object = expect_object(value)?;
    let provider = match object.take("provider") {
        Some(value) => decode_schema(value).map_err(|error| error.within("provider"))?,
        None => Schema::default(),
    };
    let provider_meta = match object.take("provider_meta") {
        Some(value) => Some(decode_schema(value).map_err(|error| error.within("provider_meta"))?),
        None => None,
    };
    Ok(ProviderSchema {
        provider,
        provider_meta,
        resource_types: decode_map(&mut object, "resource_schemas", decode_schema)?,
        data_sources: decode_map(&mut object, "data_source_schemas", decode_schema)?,
        ephemeral_resources: decode_map(&mut object, "ephemeral_resource_schemas", decode_schema)?,
        functions: decode_map(&mut object, "functions", decode_function)?,
        resource_identities: decode_map(
            &mut object,
            "resource_identity_schemas",
            decode_identity_schema,
        )?,
    })
}

/// Decodes every value of the object under `key` (absent is empty).
fn decode_map<T>(
    object: &mut JsonObject<'_>,
    key: &str,
    decode: fn(JsonValue<'_>) -> Decoded<T>,
) -> Decoded<ByName<T>> {
    let Some(entries) = take_object(object, key)? else {
        return Ok(ByName::default());
    };
    let mut items = Vec::with_capacity(entries.len());
    for (name, value) in entries {
        let item = decode(value).map_err(|error| error.within(&name).within(key))?;
        items.push((Box::from(name.as_ref()), item));
    }
    Ok(ByName::from_unsorted(items))
}

fn decode_schema(value: JsonValue<'_>) -> Decoded<Schema> {
    let mut object = expect_object(value)?;
    let version = take_integer(&mut object, "version")?.unwrap_or(0);
    let block = match object.take("block") {
        Some(value) => decode_block(value).map_err(|error| error.within("block"))?,
        None => Block::default(),
    };
    Ok(Schema { version, block })
}

fn decode_block(value: JsonValue<'_>) -> Decoded<Block> {
    let mut object = expect_object(value)?;
    Ok(Block {
        attributes: decode_map(&mut object, "attributes", decode_attribute)?,
        block_types: decode_map(&mut object, "block_types", decode_nested_block)?,
        description: take_description(&mut object)?,
        deprecated: take_flag(&mut object, "deprecated")?,
        deprecation_message: take_text(&mut object, "deprecation_message")?,
    })
}

fn decode_nested_block(value: JsonValue<'_>) -> Decoded<NestedBlock> {
    let mut object = expect_object(value)?;
    let nesting = take_nesting(&mut object)?;
    let block = match object.take("block") {
        Some(value) => decode_block(value).map_err(|error| error.within("block"))?,
        None => Block::default(),
    };
    Ok(NestedBlock {
        nesting,
        block,
        min_items: take_count(&mut object, "min_items")?,
        max_items: take_count(&mut object, "max_items")?,
    })
}

fn decode_attribute(value: JsonValue<'_>) -> Decoded<Attribute> {
    let mut object = expect_object(value)?;
    let ty = if let Some(nested) = object.take("nested_type") {
        let mut nested = expect_object(nested).map_err(|error| error.within("nested_type"))?;
        AttributeType::Nested(Box::new(NestedAttributes {
            nesting: take_nesting(&mut nested).map_err(|error| error.within("nested_type"))?,
            attributes: decode_map(&mut nested, "attributes", decode_attribute)
                .map_err(|error| error.within("nested_type"))?,
        }))
    } else {
        AttributeType::Type(take_type(&mut object, "type")?.unwrap_or(Type::Dynamic))
    };
    Ok(Attribute {
        ty,
        description: take_description(&mut object)?,
        required: take_flag(&mut object, "required")?,
        optional: take_flag(&mut object, "optional")?,
        computed: take_flag(&mut object, "computed")?,
        sensitive: take_flag(&mut object, "sensitive")?,
        deprecated: take_flag(&mut object, "deprecated")?,
        write_only: take_flag(&mut object, "write_only")?,
        deprecation_message: take_text(&mut object, "deprecation_message")?,
    })
}

fn decode_function(value: JsonValue<'_>) -> Decoded<Function> {
    let mut object = expect_object(value)?;
    let mut parameters = Vec::new();
    if let Some(list) = take_array(&mut object, "parameters")? {
        for (index, parameter) in list.take_inner().into_iter().enumerate() {
            parameters.push(
                decode_parameter(parameter)
                    .map_err(|error| error.within(&index.to_string()).within("parameters"))?,
            );
        }
    }
    let variadic_parameter = match object.take("variadic_parameter") {
        Some(JsonValue::Null) | None => None,
        Some(value) => Some(Box::new(
            decode_parameter(value).map_err(|error| error.within("variadic_parameter"))?,
        )),
    };
    Ok(Function {
        parameters: parameters.into_boxed_slice(),
        variadic_parameter,
        return_type: take_type(&mut object, "return_type")?.unwrap_or(Type::Dynamic),
        summary: take_text(&mut object, "summary")?,
        description: take_description(&mut object)?,
        deprecation_message: take_text(&mut object, "deprecation_message")?,
    })
}

fn decode_parameter(value: JsonValue<'_>) -> Decoded<FunctionParameter> {
    let mut object = expect_object(value)?;
    Ok(FunctionParameter {
        name: take_text(&mut object, "name")?,
        ty: take_type(&mut object, "type")?.unwrap_or(Type::Dynamic),
        allow_null_value: take_flag(&mut object, "is_nullable")?,
        allow_unknown_values: take_flag(&mut object, "allow_unknown_values")?,
        description: take_description(&mut object)?,
    })
}

fn decode_identity_schema(value: JsonValue<'_>) -> Decoded<ResourceIdentitySchema> {
    let mut object = expect_object(value)?;
    Ok(ResourceIdentitySchema {
        version: take_integer(&mut object, "version")?.unwrap_or(0),
        attributes: decode_map(&mut object, "attributes", decode_identity_attribute)?,
    })
}

fn decode_identity_attribute(value: JsonValue<'_>) -> Decoded<IdentityAttribute> {
    let mut object = expect_object(value)?;
    Ok(IdentityAttribute {
        ty: take_type(&mut object, "type")?.unwrap_or(Type::Dynamic),
        description: take_text(&mut object, "description")?,
        required_for_import: take_flag(&mut object, "required_for_import")?,
        optional_for_import: take_flag(&mut object, "optional_for_import")?,
    })
}

fn expect_object(value: JsonValue<'_>) -> Decoded<JsonObject<'_>> {
    match value {
        JsonValue::Object(object) => Ok(object),
        _ => Err(SchemaJsonError::new("not an object")),
    }
}

fn take_object<'a>(object: &mut JsonObject<'a>, key: &str) -> Decoded<Option<JsonObject<'a>>> {
    match object.take(key) {
        None | Some(JsonValue::Null) => Ok(None),
        Some(JsonValue::Object(inner)) => Ok(Some(inner)),
        Some(_) => Err(SchemaJsonError::new("not an object").within(key)),
    }
}

fn take_array<'a>(object: &mut JsonObject<'a>, key: &str) -> Decoded<Option<JsonArray<'a>>> {
    match object.take(key) {
        None | Some(JsonValue::Null) => Ok(None),
        Some(JsonValue::Array(inner)) => Ok(Some(inner)),
        Some(_) => Err(SchemaJsonError::new("not an array").within(key)),
    }
}

fn take_string<'a>(object: &mut JsonObject<'a>, key: &str) -> Decoded<Option<Cow<'a, str>>> {
    match object.take(key) {
        None | Some(JsonValue::Null) => Ok(None),
        Some(JsonValue::String(text)) => Ok(Some(text)),
        Some(_) => Err(SchemaJsonError::new("not a string").within(key)),
    }
}

fn take_text(object: &mut JsonObject<'_>, key: &str) -> Decoded<Box<str>> {
    Ok(take_string(object, key)?
        .map(|text| Box::from(text.as_ref()))
        .unwrap_or_default())
}

fn take_flag(object: &mut JsonObject<'_>, key: &str) -> Decoded<bool> {
    match object.take(key) {
        None | Some(JsonValue::Null) => Ok(false),
        Some(JsonValue::Boolean(flag)) => Ok(flag),
        Some(_) => Err(SchemaJsonError::new("not true or false").within(key)),
    }
}

fn take_integer(object: &mut JsonObject<'_>, key: &str) -> Decoded<Option<i64>> {
    match object.take(key) {
        None | Some(JsonValue::Null) => Ok(None),
        Some(JsonValue::Number(number)) => number
            .parse::<i64>()
            .map(Some)
            .map_err(|_| SchemaJsonError::new("not an integer").within(key)),
        Some(_) => Err(SchemaJsonError::new("not a number").within(key)),
    }
}

fn take_count(object: &mut JsonObject<'_>, key: &str) -> Decoded<u64> {
    let count = take_integer(object, key)?.unwrap_or(0);
    u64::try_from(count).map_err(|_| SchemaJsonError::new("a negative count").within(key))
}

fn take_type(object: &mut JsonObject<'_>, key: &str) -> Decoded<Option<Type>> {
    match object.take(key) {
        None | Some(JsonValue::Null) => Ok(None),
        Some(value) => type_from_json(value)
            .map(Some)
            .map_err(|error| SchemaJsonError::new(error.message).within(key)),
    }
}

fn take_nesting(object: &mut JsonObject<'_>) -> Decoded<Nesting> {
    let nesting = take_string(object, "nesting_mode")?;
    Ok(match nesting.as_deref() {
        Some("single") => Nesting::Single,
        Some("group") => Nesting::Group,
        Some("list") => Nesting::List,
        Some("set") => Nesting::Set,
        Some("map") => Nesting::Map,
        _ => Nesting::Invalid,
    })
}

fn take_description(object: &mut JsonObject<'_>) -> Decoded<Description> {
    let text = take_text(object, "description")?;
    let kind = match take_string(object, "description_kind")?.as_deref() {
        Some("markdown") => DescriptionKind::Markdown,
        _ => DescriptionKind::Plain,
    };
    Ok(Description { text, kind })
}

#[cfg(test)]
mod tests;

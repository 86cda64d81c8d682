//! The plugin protocol's messages that tofu-lens reads, decoded straight
//! into the schema model: `GetProviderSchema.Response`,
//! `GetFunctions.Response`, `GetResourceIdentitySchemas.Response` and the
//! diagnostics every response carries, for protocol 5 and 6.
//!
//! Field numbers are those of `tfplugin5.proto` (5.10) and
//! `tfplugin6.proto` (6.10). The two protocols differ in one message:
//! `Schema.Attribute` in protocol 6 has `nested_type = 10`, so its
//! `write_only` and `deprecation_message` are 11 and 12 where protocol 5
//! has 10 and 11. Fields tofu-lens does not use (list resources, actions,
//! state stores, server capabilities) are skipped. Conversions follow
//! OpenTofu's (`plugin6/convert/schema.go`): an unknown nesting mode is
//! [`Nesting::Invalid`], a type that does not parse is an error.

use tofu_eval::Type;

use crate::model::{
    Attribute, AttributeType, Block, ByName, Description, DescriptionKind, Function,
    FunctionParameter, IdentityAttribute, NestedAttributes, NestedBlock, Nesting, ProviderSchema,
    ResourceIdentitySchema, Schema,
};
use crate::plugin::protobuf::{FieldValue, MessageReader, WireError};
use crate::types::type_from_json_text;

/// The plugin protocol's major version: 5 (SDKv2 and older providers) or 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolVersion {
    Five,
    Six,
}

impl ProtocolVersion {
    /// The gRPC package of the `Provider` service.
    pub fn package(self) -> &'static str {
        match self {
            ProtocolVersion::Five => "tfplugin5",
            ProtocolVersion::Six => "tfplugin6",
        }
    }

    pub fn number(self) -> u32 {
        match self {
            ProtocolVersion::Five => 5,
            ProtocolVersion::Six => 6,
        }
    }
}

/// Why a response could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageError {
    pub message: String,
}

impl From<WireError> for MessageError {
    fn from(error: WireError) -> MessageError {
        MessageError {
            message: format!("malformed protobuf: {error}"),
        }
    }
}

type Decoded<T> = Result<T, MessageError>;

/// A diagnostic a provider returned (`tfplugin.Diagnostic`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderDiagnostic {
    pub severity: DiagnosticSeverity,
    pub summary: String,
    pub detail: String,
    /// The attribute it is about, when the provider said.
    pub attribute: Vec<AttributePathStep>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticSeverity {
    Invalid,
    Error,
    Warning,
}

/// One step of an attribute path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributePathStep {
    AttributeName(String),
    ElementKeyString(String),
    ElementKeyInt(i64),
}

/// What `GetProviderSchema` returned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProviderSchemaResponse {
    pub schema: ProviderSchema,
    pub diagnostics: Vec<ProviderDiagnostic>,
}

/// What `GetFunctions` or `GetResourceIdentitySchemas` returned.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedItemsResponse<T> {
    pub items: ByName<T>,
    pub diagnostics: Vec<ProviderDiagnostic>,
}

/// Decodes `GetProviderSchema.Response`.
pub fn decode_provider_schema_response(
    message: &[u8],
    protocol: ProtocolVersion,
) -> Decoded<ProviderSchemaResponse> {
    let mut response = ProviderSchemaResponse::default();
    let mut resource_types = Vec::new();
    let mut data_sources = Vec::new();
    let mut ephemeral_resources = Vec::new();
    let mut functions = Vec::new();
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => response.schema.provider = decode_schema(value.as_bytes(), protocol)?,
            2 => resource_types.push(decode_map_entry(value, |bytes| {
                decode_schema(bytes, protocol)
            })?),
            3 => data_sources.push(decode_map_entry(value, |bytes| {
                decode_schema(bytes, protocol)
            })?),
            4 => response
                .diagnostics
                .push(decode_diagnostic(value.as_bytes())?),
            5 => response.schema.provider_meta = Some(decode_schema(value.as_bytes(), protocol)?),
            7 => functions.push(decode_map_entry(value, decode_function)?),
            8 => ephemeral_resources.push(decode_map_entry(value, |bytes| {
                decode_schema(bytes, protocol)
            })?),
            _ => {}
        }
    }
    response.schema.resource_types = ByName::from_unsorted(resource_types);
    response.schema.data_sources = ByName::from_unsorted(data_sources);
    response.schema.ephemeral_resources = ByName::from_unsorted(ephemeral_resources);
    response.schema.functions = ByName::from_unsorted(functions);
    Ok(response)
}

/// Decodes `GetFunctions.Response`.
pub fn decode_functions_response(message: &[u8]) -> Decoded<NamedItemsResponse<Function>> {
    decode_named_items(message, decode_function)
}

/// Decodes `GetResourceIdentitySchemas.Response`.
pub fn decode_identity_schemas_response(
    message: &[u8],
) -> Decoded<NamedItemsResponse<ResourceIdentitySchema>> {
    decode_named_items(message, decode_identity_schema)
}

/// Decodes the diagnostics of a response whose only other fields tofu-lens
/// does not read (the `Validate*` calls: diagnostics are field 1 or 2).
pub fn decode_diagnostics_field(message: &[u8], field: u32) -> Decoded<Vec<ProviderDiagnostic>> {
    let mut diagnostics = Vec::new();
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        if number == field {
            diagnostics.push(decode_diagnostic(value.as_bytes())?);
        }
    }
    Ok(diagnostics)
}

/// A response with `map<string, T> = 1` and `repeated Diagnostic = 2`.
fn decode_named_items<T>(
    message: &[u8],
    decode: fn(&[u8]) -> Decoded<T>,
) -> Decoded<NamedItemsResponse<T>> {
    let mut items = Vec::new();
    let mut diagnostics = Vec::new();
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => items.push(decode_map_entry(value, decode)?),
            2 => diagnostics.push(decode_diagnostic(value.as_bytes())?),
            _ => {}
        }
    }
    Ok(NamedItemsResponse {
        items: ByName::from_unsorted(items),
        diagnostics,
    })
}

/// A map entry: `key = 1`, `value = 2`.
fn decode_map_entry<T>(
    entry: FieldValue<'_>,
    decode: impl Fn(&[u8]) -> Decoded<T>,
) -> Decoded<(Box<str>, T)> {
    let mut key = "";
    let mut value: &[u8] = &[];
    let mut reader = MessageReader::new(entry.as_bytes());
    while let Some((number, field)) = reader.next_field()? {
        match number {
            1 => key = field.as_str()?,
            2 => value = field.as_bytes(),
            _ => {}
        }
    }
    let decoded = decode(value).map_err(|error| MessageError {
        message: format!("{key}: {}", error.message),
    })?;
    Ok((Box::from(key), decoded))
}

fn decode_schema(message: &[u8], protocol: ProtocolVersion) -> Decoded<Schema> {
    let mut schema = Schema::default();
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => schema.version = value.as_i64(),
            2 => schema.block = decode_block(value.as_bytes(), protocol)?,
            _ => {}
        }
    }
    Ok(schema)
}

fn decode_block(message: &[u8], protocol: ProtocolVersion) -> Decoded<Block> {
    let mut block = Block::default();
    let mut attributes = Vec::new();
    let mut block_types = Vec::new();
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            2 => attributes.push(decode_attribute(value.as_bytes(), protocol)?),
            3 => block_types.push(decode_nested_block(value.as_bytes(), protocol)?),
            4 => block.description.text = Box::from(value.as_str()?),
            5 => block.description.kind = description_kind(value),
            6 => block.deprecated = value.as_bool(),
            7 => block.deprecation_message = Box::from(value.as_str()?),
            _ => {}
        }
    }
    block.attributes = ByName::from_unsorted(attributes);
    block.block_types = ByName::from_unsorted(block_types);
    Ok(block)
}

fn decode_attribute(message: &[u8], protocol: ProtocolVersion) -> Decoded<(Box<str>, Attribute)> {
    let (write_only_field, deprecation_field) = match protocol {
        ProtocolVersion::Five => (10, 11),
        ProtocolVersion::Six => (11, 12),
    };
    let mut name = "";
    let mut type_json: Option<&[u8]> = None;
    let mut nested: Option<NestedAttributes> = None;
    let mut attribute = Attribute {
        ty: AttributeType::Type(Type::Dynamic),
        description: Description::default(),
        required: false,
        optional: false,
        computed: false,
        sensitive: false,
        deprecated: false,
        write_only: false,
        deprecation_message: Box::default(),
    };
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => name = value.as_str()?,
            2 => type_json = Some(value.as_bytes()),
            3 => attribute.description.text = Box::from(value.as_str()?),
            4 => attribute.required = value.as_bool(),
            5 => attribute.optional = value.as_bool(),
            6 => attribute.computed = value.as_bool(),
            7 => attribute.sensitive = value.as_bool(),
            8 => attribute.description.kind = description_kind(value),
            9 => attribute.deprecated = value.as_bool(),
            10 if protocol == ProtocolVersion::Six => {
                nested = Some(decode_object(value.as_bytes(), protocol)?);
            }
            number if number == write_only_field => attribute.write_only = value.as_bool(),
            number if number == deprecation_field => {
                attribute.deprecation_message = Box::from(value.as_str()?);
            }
            _ => {}
        }
    }
    if let Some(nested) = nested {
        attribute.ty = AttributeType::Nested(Box::new(nested));
    } else if let Some(type_json) = type_json.filter(|bytes| !bytes.is_empty()) {
        attribute.ty =
            AttributeType::Type(decode_type(type_json).map_err(|error| MessageError {
                message: format!("{name}: {}", error.message),
            })?);
    }
    Ok((Box::from(name), attribute))
}

/// Protocol 6's `Schema.Object`: nested attributes.
fn decode_object(message: &[u8], protocol: ProtocolVersion) -> Decoded<NestedAttributes> {
    let mut attributes = Vec::new();
    let mut nesting = Nesting::Invalid;
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => attributes.push(decode_attribute(value.as_bytes(), protocol)?),
            3 => {
                nesting = match value.as_i64() {
                    1 => Nesting::Single,
                    2 => Nesting::List,
                    3 => Nesting::Set,
                    4 => Nesting::Map,
                    _ => Nesting::Invalid,
                }
            }
            _ => {}
        }
    }
    Ok(NestedAttributes {
        nesting,
        attributes: ByName::from_unsorted(attributes),
    })
}

fn decode_nested_block(
    message: &[u8],
    protocol: ProtocolVersion,
) -> Decoded<(Box<str>, NestedBlock)> {
    let mut name = "";
    let mut nested = NestedBlock {
        nesting: Nesting::Invalid,
        block: Block::default(),
        min_items: 0,
        max_items: 0,
    };
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => name = value.as_str()?,
            2 => nested.block = decode_block(value.as_bytes(), protocol)?,
            3 => {
                nested.nesting = match value.as_i64() {
                    1 => Nesting::Single,
                    2 => Nesting::List,
                    3 => Nesting::Set,
                    4 => Nesting::Map,
                    5 => Nesting::Group,
                    _ => Nesting::Invalid,
                }
            }
            // OpenTofu converts with int(): a negative count is kept as
            // such there; here it reads as no limit.
            4 => nested.min_items = u64::try_from(value.as_i64()).unwrap_or(0),
            5 => nested.max_items = u64::try_from(value.as_i64()).unwrap_or(0),
            _ => {}
        }
    }
    Ok((Box::from(name), nested))
}

fn decode_function(message: &[u8]) -> Decoded<Function> {
    let mut parameters = Vec::new();
    let mut function = Function {
        parameters: Box::default(),
        variadic_parameter: None,
        return_type: Type::Dynamic,
        summary: Box::default(),
        description: Description::default(),
        deprecation_message: Box::default(),
    };
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => parameters.push(decode_parameter(value.as_bytes())?),
            2 => function.variadic_parameter = Some(Box::new(decode_parameter(value.as_bytes())?)),
            3 => {
                let mut return_reader = MessageReader::new(value.as_bytes());
                while let Some((number, value)) = return_reader.next_field()? {
                    if number == 1 {
                        function.return_type = decode_type(value.as_bytes())?;
                    }
                }
            }
            4 => function.summary = Box::from(value.as_str()?),
            5 => function.description.text = Box::from(value.as_str()?),
            6 => function.description.kind = description_kind(value),
            7 => function.deprecation_message = Box::from(value.as_str()?),
            _ => {}
        }
    }
    function.parameters = parameters.into_boxed_slice();
    Ok(function)
}

fn decode_parameter(message: &[u8]) -> Decoded<FunctionParameter> {
    let mut parameter = FunctionParameter {
        name: Box::default(),
        ty: Type::Dynamic,
        allow_null_value: false,
        allow_unknown_values: false,
        description: Description::default(),
    };
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => parameter.name = Box::from(value.as_str()?),
            2 => parameter.ty = decode_type(value.as_bytes())?,
            3 => parameter.allow_null_value = value.as_bool(),
            4 => parameter.allow_unknown_values = value.as_bool(),
            5 => parameter.description.text = Box::from(value.as_str()?),
            6 => parameter.description.kind = description_kind(value),
            _ => {}
        }
    }
    Ok(parameter)
}

fn decode_identity_schema(message: &[u8]) -> Decoded<ResourceIdentitySchema> {
    let mut version = 0;
    let mut attributes = Vec::new();
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => version = value.as_i64(),
            2 => attributes.push(decode_identity_attribute(value.as_bytes())?),
            _ => {}
        }
    }
    Ok(ResourceIdentitySchema {
        version,
        attributes: ByName::from_unsorted(attributes),
    })
}

fn decode_identity_attribute(message: &[u8]) -> Decoded<(Box<str>, IdentityAttribute)> {
    let mut name = "";
    let mut attribute = IdentityAttribute {
        ty: Type::Dynamic,
        description: Box::default(),
        required_for_import: false,
        optional_for_import: false,
    };
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => name = value.as_str()?,
            2 => attribute.ty = decode_type(value.as_bytes())?,
            3 => attribute.required_for_import = value.as_bool(),
            4 => attribute.optional_for_import = value.as_bool(),
            5 => attribute.description = Box::from(value.as_str()?),
            _ => {}
        }
    }
    Ok((Box::from(name), attribute))
}

/// `tfplugin.Diagnostic`.
pub fn decode_diagnostic(message: &[u8]) -> Decoded<ProviderDiagnostic> {
    let mut diagnostic = ProviderDiagnostic {
        severity: DiagnosticSeverity::Invalid,
        summary: String::new(),
        detail: String::new(),
        attribute: Vec::new(),
    };
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        match number {
            1 => {
                diagnostic.severity = match value.as_i64() {
                    1 => DiagnosticSeverity::Error,
                    2 => DiagnosticSeverity::Warning,
                    _ => DiagnosticSeverity::Invalid,
                }
            }
            2 => diagnostic.summary = value.as_str()?.to_owned(),
            3 => diagnostic.detail = value.as_str()?.to_owned(),
            4 => diagnostic.attribute = decode_attribute_path(value.as_bytes())?,
            _ => {}
        }
    }
    Ok(diagnostic)
}

fn decode_attribute_path(message: &[u8]) -> Decoded<Vec<AttributePathStep>> {
    let mut steps = Vec::new();
    let mut reader = MessageReader::new(message);
    while let Some((number, value)) = reader.next_field()? {
        if number != 1 {
            continue;
        }
        let mut step_reader = MessageReader::new(value.as_bytes());
        while let Some((selector, value)) = step_reader.next_field()? {
            match selector {
                1 => steps.push(AttributePathStep::AttributeName(value.as_str()?.to_owned())),
                2 => steps.push(AttributePathStep::ElementKeyString(
                    value.as_str()?.to_owned(),
                )),
                3 => steps.push(AttributePathStep::ElementKeyInt(value.as_i64())),
                _ => {}
            }
        }
    }
    Ok(steps)
}

fn decode_type(json: &[u8]) -> Decoded<Type> {
    let text = std::str::from_utf8(json).map_err(|_| MessageError {
        message: "a type that is not UTF-8".to_owned(),
    })?;
    type_from_json_text(text).map_err(|error| MessageError {
        message: error.message,
    })
}

fn description_kind(value: FieldValue<'_>) -> DescriptionKind {
    if value.as_i64() == 1 {
        DescriptionKind::Markdown
    } else {
        DescriptionKind::Plain
    }
}

#[cfg(test)]
mod tests;

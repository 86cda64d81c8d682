//! The response decoders on messages built field by field, protocol 5 and
//! 6 side by side where their numbering differs.

use super::*;
use crate::plugin::protobuf::MessageWriter;

fn map_entry(key: &str, value: &[u8]) -> Vec<u8> {
    MessageWriter::new()
        .bytes(1, key.as_bytes())
        .bytes(2, value)
        .finish()
}

fn schema_with_attribute(attribute: &[u8]) -> Vec<u8> {
    let block = MessageWriter::new()
        .bytes(2, attribute)
        .bytes(4, b"A thing.")
        .integer(5, 1)
        .finish();
    MessageWriter::new().integer(1, 2).bytes(2, &block).finish()
}

#[test]
fn write_only_and_deprecation_use_each_protocols_numbers() {
    let version_5 = MessageWriter::new()
        .bytes(1, b"token")
        .bytes(2, b"\"string\"")
        .flag(5, true)
        .flag(10, true)
        .bytes(11, b"Use other.")
        .finish();
    let version_6 = MessageWriter::new()
        .bytes(1, b"token")
        .bytes(2, b"\"string\"")
        .flag(5, true)
        .flag(11, true)
        .bytes(12, b"Use other.")
        .finish();
    for (attribute, protocol) in [
        (version_5, ProtocolVersion::Five),
        (version_6, ProtocolVersion::Six),
    ] {
        let response = MessageWriter::new()
            .bytes(
                2,
                &map_entry("thing_one", &schema_with_attribute(&attribute)),
            )
            .finish();
        let decoded = decode_provider_schema_response(&response, protocol).unwrap();
        let thing = decoded.schema.resource_types.get("thing_one").unwrap();
        assert_eq!(thing.version, 2);
        assert_eq!(thing.block.description.kind, DescriptionKind::Markdown);
        let token = thing.block.attributes.get("token").unwrap();
        assert!(token.optional && token.write_only, "{protocol:?}");
        assert_eq!(&*token.deprecation_message, "Use other.");
        assert_eq!(token.ty, AttributeType::Type(tofu_eval::Type::String));
    }
}

#[test]
fn nested_attributes_blocks_functions_and_diagnostics_read() {
    let port = MessageWriter::new()
        .bytes(1, b"port")
        .bytes(2, b"\"number\"")
        .flag(4, true)
        .finish();
    let object = MessageWriter::new().bytes(1, &port).integer(3, 3).finish();
    let rules = MessageWriter::new()
        .bytes(1, b"rules")
        .bytes(10, &object)
        .flag(5, true)
        .finish();
    let timeouts = MessageWriter::new()
        .bytes(1, b"timeouts")
        .bytes(2, &[])
        .integer(3, 5)
        .integer(4, 1)
        .integer(5, 3)
        .finish();
    let block = MessageWriter::new()
        .bytes(2, &rules)
        .bytes(3, &timeouts)
        .finish();
    let schema = MessageWriter::new().bytes(2, &block).finish();
    let parameter = MessageWriter::new()
        .bytes(1, b"input")
        .bytes(2, b"[\"list\",\"string\"]")
        .flag(3, true)
        .finish();
    let function = MessageWriter::new()
        .bytes(1, &parameter)
        .bytes(3, &MessageWriter::new().bytes(1, b"\"bool\"").finish())
        .bytes(4, b"Checks.")
        .finish();
    let path = MessageWriter::new()
        .bytes(1, &MessageWriter::new().bytes(1, b"rules").finish())
        .bytes(1, &MessageWriter::new().integer(3, -1).finish())
        .finish();
    let diagnostic = MessageWriter::new()
        .integer(1, 2)
        .bytes(2, b"Careful")
        .bytes(3, b"Details.")
        .bytes(4, &path)
        .finish();
    let response = MessageWriter::new()
        .bytes(1, &schema)
        .bytes(3, &map_entry("thing_data", &schema))
        .bytes(4, &diagnostic)
        .bytes(7, &map_entry("check", &function))
        .bytes(8, &map_entry("thing_secret", &schema))
        .bytes(11, b"an action schema tofu-lens skips")
        .finish();
    let decoded = decode_provider_schema_response(&response, ProtocolVersion::Six).unwrap();
    let AttributeType::Nested(nested) = &decoded
        .schema
        .provider
        .block
        .attributes
        .get("rules")
        .unwrap()
        .ty
    else {
        panic!("rules is not nested")
    };
    assert_eq!(nested.nesting, Nesting::Set);
    assert!(nested.attributes.get("port").unwrap().required);
    let timeouts = decoded
        .schema
        .provider
        .block
        .block_types
        .get("timeouts")
        .unwrap();
    assert_eq!(
        (timeouts.nesting, timeouts.min_items, timeouts.max_items),
        (Nesting::Group, 1, 3)
    );
    assert!(decoded.schema.data_sources.get("thing_data").is_some());
    assert!(decoded
        .schema
        .ephemeral_resources
        .get("thing_secret")
        .is_some());
    let check = decoded.schema.functions.get("check").unwrap();
    assert_eq!(check.return_type, tofu_eval::Type::Bool);
    assert!(check.parameters[0].allow_null_value);
    assert_eq!(
        decoded.diagnostics,
        [ProviderDiagnostic {
            severity: DiagnosticSeverity::Warning,
            summary: "Careful".to_owned(),
            detail: "Details.".to_owned(),
            attribute: vec![
                AttributePathStep::AttributeName("rules".to_owned()),
                AttributePathStep::ElementKeyInt(-1)
            ],
        }]
    );
}

#[test]
fn identity_schemas_and_function_lists_read() {
    let attribute = MessageWriter::new()
        .bytes(1, b"id")
        .bytes(2, b"\"string\"")
        .flag(3, true)
        .bytes(5, b"The id.")
        .finish();
    let identity = MessageWriter::new()
        .integer(1, 1)
        .bytes(2, &attribute)
        .finish();
    let response = MessageWriter::new()
        .bytes(1, &map_entry("thing_one", &identity))
        .finish();
    let decoded = decode_identity_schemas_response(&response).unwrap();
    let identity = decoded.items.get("thing_one").unwrap();
    assert_eq!(identity.version, 1);
    assert!(identity.attributes.get("id").unwrap().required_for_import);
    let functions = decode_functions_response(&[]).unwrap();
    assert!(functions.items.is_empty() && functions.diagnostics.is_empty());
}

#[test]
fn a_bad_type_names_its_attribute() {
    let attribute = MessageWriter::new()
        .bytes(1, b"broken")
        .bytes(2, b"[\"list\"]")
        .finish();
    let response = MessageWriter::new()
        .bytes(
            2,
            &map_entry("thing_one", &schema_with_attribute(&attribute)),
        )
        .finish();
    let error = decode_provider_schema_response(&response, ProtocolVersion::Five).unwrap_err();
    assert!(
        error.message.starts_with("thing_one: broken: "),
        "{}",
        error.message
    );
}

//! The JSON decoder on OpenTofu's own output for hashicorp/time and on
//! small hand-written documents, and the encoder writing back what it read.

use super::*;
use crate::json_encode::encode_providers_schema_json;

const TIME_SCHEMA_JSON: &str = include_str!("../../test_data/schema-time.json");

fn parse(text: &str) -> JsonValue<'_> {
    jsonc_parser::parse_to_value(text, &jsonc_parser::ParseOptions::default())
        .unwrap()
        .unwrap()
}

#[test]
fn the_time_provider_reads_with_every_flag() {
    let providers = decode_providers_schema_json(TIME_SCHEMA_JSON).unwrap();
    assert_eq!(providers.len(), 1);
    let (address, schema) = &providers[0];
    assert_eq!(address.to_string(), "registry.opentofu.org/hashicorp/time");
    assert_eq!(
        schema.resource_types.names().collect::<Vec<_>>(),
        ["time_offset", "time_rotating", "time_sleep", "time_static"]
    );
    let rotating = &schema.resource_types.get("time_rotating").unwrap().block;
    let days = rotating.attributes.get("rotation_days").unwrap();
    assert!(days.optional && !days.required && !days.computed);
    assert_eq!(days.ty, AttributeType::Type(tofu_eval::Type::Number));
    let triggers = schema
        .resource_types
        .get("time_offset")
        .unwrap()
        .block
        .attributes
        .get("triggers")
        .unwrap();
    assert_eq!(
        triggers.ty,
        AttributeType::Type(tofu_eval::Type::map(tofu_eval::Type::String))
    );
    assert!(triggers
        .description
        .text
        .starts_with("Arbitrary map of values"));
    let parse_duration = schema.functions.get("duration_parse").unwrap();
    assert_eq!(parse_duration.parameters.len(), 1);
    assert_eq!(&*parse_duration.parameters[0].name, "duration");
    assert_eq!(
        crate::type_to_json(&parse_duration.return_type),
        "[\"object\",{\"hours\":\"number\",\"microseconds\":\"number\",\"milliseconds\":\"number\",\"minutes\":\"number\",\"nanoseconds\":\"number\",\"seconds\":\"number\"}]"
    );
}

#[test]
fn what_is_read_writes_back_as_the_same_json() {
    let providers = decode_providers_schema_json(TIME_SCHEMA_JSON).unwrap();
    let borrowed: Vec<_> = providers
        .iter()
        .map(|(address, schema)| (address, schema))
        .collect();
    let written = encode_providers_schema_json(&borrowed);
    assert_eq!(parse(&written), parse(TIME_SCHEMA_JSON));
}

#[test]
fn nested_attributes_blocks_and_extra_keys_round_trip() {
    let text = r#"{"format_version":"1.0","provider_schemas":{"example.com/acme/thing":{
        "provider":{"version":0,"block":{"description_kind":"plain"}},
        "provider_meta":{"version":0,"block":{"attributes":{"module_name":{"type":"string","description_kind":"plain","optional":true}},"description_kind":"plain"}},
        "resource_schemas":{"thing_one":{"version":3,"block":{
            "attributes":{
                "rules":{"nested_type":{"attributes":{"port":{"type":"number","description_kind":"markdown","required":true,"sensitive":true}},"nesting_mode":"set"},"description":"Rules.","description_kind":"plain","optional":true,"deprecated":true,"deprecation_message":"Use other."},
                "token":{"type":"string","description_kind":"plain","optional":true,"write_only":true}
            },
            "block_types":{"timeouts":{"nesting_mode":"single","block":{"attributes":{"create":{"type":"string","description_kind":"plain","optional":true}},"description_kind":"plain"},"min_items":1,"max_items":2}},
            "description":"A thing.","description_kind":"markdown","deprecated":true}}},
        "ephemeral_resource_schemas":{"thing_secret":{"version":0,"block":{"description_kind":"plain"}}},
        "functions":{"f":{"description":"","description_kind":"markdown","summary":"s","return_type":["list","string"],
            "parameters":[{"name":"a","description":"","type":"dynamic","is_nullable":true,"allow_unknown_values":true}],
            "variadic_parameter":{"name":"rest","description":"d","type":"string"}}},
        "resource_identity_schemas":{"thing_one":{"version":1,"attributes":{"id":{"type":"string","description":"The id.","required_for_import":true}}}}
    }}}"#;
    let providers = decode_providers_schema_json(text).unwrap();
    let (_, schema) = &providers[0];
    let thing = schema.resource_types.get("thing_one").unwrap();
    assert_eq!(thing.version, 3);
    let AttributeType::Nested(rules) = &thing.block.attributes.get("rules").unwrap().ty else {
        panic!("rules is not nested")
    };
    assert_eq!(rules.nesting, Nesting::Set);
    assert!(rules.attributes.get("port").unwrap().sensitive);
    let timeouts = thing.block.block_types.get("timeouts").unwrap();
    assert_eq!(
        (timeouts.nesting, timeouts.min_items, timeouts.max_items),
        (Nesting::Single, 1, 2)
    );
    assert!(schema.functions.get("f").unwrap().parameters[0].allow_unknown_values);
    assert!(schema.provider_meta.is_some());
    let borrowed: Vec<_> = providers
        .iter()
        .map(|(address, schema)| (address, schema))
        .collect();
    assert_eq!(parse(&encode_providers_schema_json(&borrowed)), parse(text));
}

#[test]
fn mistakes_name_where_they_are() {
    let error = decode_providers_schema_json(
        r#"{"format_version":"1.0","provider_schemas":{"hashicorp/x":{"resource_schemas":{"x_a":{"block":{"attributes":{"b":{"type":["list"]}}}}}}}}"#,
    )
    .unwrap_err();
    assert_eq!(
        error.path,
        "hashicorp/x.resource_schemas.x_a.block.attributes.b.type"
    );
    for text in [
        "",
        "[]",
        "{}",
        r#"{"format_version":"2.0"}"#,
        r#"{"format_version":"1.0","provider_schemas":{"not an address":{}}}"#,
        r#"{"format_version":"1.0","provider_schemas":{"a/b":{"provider":{"version":"x"}}}}"#,
    ] {
        assert!(decode_providers_schema_json(text).is_err(), "{text}");
    }
}

//! The msgpack writer and reader against cty's own bytes for every form
//! (`test_data/msgpack/cty-golden.txt`), and on odd input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::BTreeMap;

use super::*;
use crate::config_value::{ConfigNumber, Refinements, UnknownValue};

fn ty(json: &str) -> SchemaType {
    SchemaType::from_json_text(json).unwrap()
}

fn string(text: &str) -> ConfigValue {
    ConfigValue::string(text)
}

fn integer(number: i64) -> ConfigValue {
    ConfigValue::integer(number)
}

fn refined(ty_json: &str, refinements: Refinements) -> ConfigValue {
    ConfigValue::Unknown(UnknownValue {
        ty: ty(ty_json),
        refinements,
    })
}

/// The cases of `test_data/msgpack/cty_golden.go`, by name: the value and
/// the type it is written as.
fn golden_cases() -> Vec<(&'static str, ConfigValue, SchemaType)> {
    let number = |number: ConfigNumber| ConfigValue::Number(number);
    let list = |element: &str, items| ConfigValue::List {
        element: ty(element),
        items,
    };
    let strings = |items: &[&str]| items.iter().map(|item| string(item)).collect::<Vec<_>>();
    vec![
        ("string", string("hello"), SchemaType::String),
        ("string_empty", string(""), SchemaType::String),
        ("string_31", string(&"a".repeat(31)), SchemaType::String),
        ("string_32", string(&"a".repeat(32)), SchemaType::String),
        ("string_300", string(&"b".repeat(300)), SchemaType::String),
        ("string_unicode", string("héllo ☃"), SchemaType::String),
        ("int_0", integer(0), SchemaType::Number),
        ("int_127", integer(127), SchemaType::Number),
        ("int_128", integer(128), SchemaType::Number),
        ("int_256", integer(256), SchemaType::Number),
        ("int_65536", integer(65536), SchemaType::Number),
        ("int_4294967296", integer(4_294_967_296), SchemaType::Number),
        ("int_minus_1", integer(-1), SchemaType::Number),
        ("int_minus_32", integer(-32), SchemaType::Number),
        ("int_minus_33", integer(-33), SchemaType::Number),
        ("int_minus_129", integer(-129), SchemaType::Number),
        ("int_minus_40000", integer(-40000), SchemaType::Number),
        ("int_minus_3000000000", integer(-3_000_000_000), SchemaType::Number),
        ("int_max", integer(i64::MAX), SchemaType::Number),
        ("int_min", integer(i64::MIN), SchemaType::Number),
        ("float_1_5", number(ConfigNumber::Float(1.5)), SchemaType::Number),
        ("float_minus_0_25", number(ConfigNumber::Float(-0.25)), SchemaType::Number),
        ("decimal_0_1", number(ConfigNumber::Decimal("0.1".into())), SchemaType::Number),
        (
            "decimal_2_pow_64",
            number(ConfigNumber::Decimal("18446744073709551616".into())),
            SchemaType::Number,
        ),
        ("infinity", number(ConfigNumber::Float(f64::INFINITY)), SchemaType::Number),
        (
            "negative_infinity",
            number(ConfigNumber::Float(f64::NEG_INFINITY)),
            SchemaType::Number,
        ),
        ("true", ConfigValue::Bool(true), SchemaType::Bool),
        ("false", ConfigValue::Bool(false), SchemaType::Bool),
        ("null_string", ConfigValue::Null(SchemaType::String), SchemaType::String),
        ("unknown_string", ConfigValue::unknown(SchemaType::String), SchemaType::String),
        (
            "unknown_string_not_null",
            ConfigValue::unknown_not_null(SchemaType::String),
            SchemaType::String,
        ),
        (
            "unknown_string_prefix",
            refined(
                "\"string\"",
                Refinements {
                    not_null: true,
                    string_prefix: Some("ab".into()),
                    ..Refinements::default()
                },
            ),
            SchemaType::String,
        ),
        (
            "unknown_number_bounds",
            refined(
                "\"number\"",
                Refinements {
                    number_lower_bound: Some((ConfigNumber::Integer(1), true)),
                    number_upper_bound: Some((ConfigNumber::Float(2.5), false)),
                    ..Refinements::default()
                },
            ),
            SchemaType::Number,
        ),
        (
            "unknown_list_length",
            refined(
                "[\"list\",\"string\"]",
                Refinements {
                    length_lower_bound: Some(1),
                    length_upper_bound: Some(3),
                    ..Refinements::default()
                },
            ),
            ty("[\"list\",\"string\"]"),
        ),
        ("unknown_dynamic", ConfigValue::unknown(SchemaType::Dynamic), SchemaType::Dynamic),
        ("list", list("\"string\"", strings(&["a", "b"])), ty("[\"list\",\"string\"]")),
        ("list_empty", list("\"string\"", Vec::new()), ty("[\"list\",\"string\"]")),
        (
            "list_16",
            list("\"number\"", (0..16).map(integer).collect()),
            ty("[\"list\",\"number\"]"),
        ),
        (
            "list_with_unknown",
            list(
                "\"string\"",
                vec![string("a"), ConfigValue::unknown(SchemaType::String)],
            ),
            ty("[\"list\",\"string\"]"),
        ),
        (
            "set",
            ConfigValue::Set {
                element: SchemaType::String,
                items: strings(&["a", "b"]),
            },
            ty("[\"set\",\"string\"]"),
        ),
        (
            "map",
            ConfigValue::Map {
                element: SchemaType::Number,
                entries: BTreeMap::from([("b".into(), integer(2)), ("a".into(), integer(1))]),
            },
            ty("[\"map\",\"number\"]"),
        ),
        (
            "tuple",
            ConfigValue::Tuple(vec![string("a"), ConfigValue::Bool(true)]),
            ty("[\"tuple\",[\"string\",\"bool\"]]"),
        ),
        (
            "object",
            ConfigValue::object([("b", ConfigValue::Null(SchemaType::Number)), ("a", string("x"))]),
            ty("[\"object\",{\"a\":\"string\",\"b\":\"number\"}]"),
        ),
        (
            "object_null",
            ConfigValue::Null(ty("[\"object\",{\"a\":\"string\"}]")),
            ty("[\"object\",{\"a\":\"string\"}]"),
        ),
        ("dynamic_string", string("x"), SchemaType::Dynamic),
        ("dynamic_list", list("\"string\"", strings(&["a"])), SchemaType::Dynamic),
        (
            "dynamic_object",
            ConfigValue::object([("z", integer(1)), ("a", ConfigValue::Bool(true))]),
            SchemaType::Dynamic,
        ),
        (
            "dynamic_tuple",
            ConfigValue::Tuple(vec![string("a"), integer(1)]),
            SchemaType::Dynamic,
        ),
        ("dynamic_null_string", ConfigValue::Null(SchemaType::String), SchemaType::Dynamic),
        ("dynamic_null", ConfigValue::Null(SchemaType::Dynamic), SchemaType::Dynamic),
        (
            "dynamic_unknown_string",
            ConfigValue::unknown(SchemaType::String),
            SchemaType::Dynamic,
        ),
        (
            "dynamic_in_object",
            ConfigValue::object([("v", integer(3))]),
            ty("[\"object\",{\"v\":\"dynamic\"}]"),
        ),
        (
            "nested_blocks",
            ConfigValue::object([
                ("name", string("web")),
                (
                    "rule",
                    list(
                        "[\"object\",{\"port\":\"number\"}]",
                        vec![ConfigValue::object([("port", integer(443))])],
                    ),
                ),
                ("tags", ConfigValue::Null(ty("[\"map\",\"string\"]"))),
            ]),
            ty("[\"object\",{\"name\":\"string\",\"rule\":[\"list\",[\"object\",{\"port\":\"number\"}]],\"tags\":[\"map\",\"string\"]}]"),
        ),
    ]
}

fn golden_bytes() -> BTreeMap<String, Vec<u8>> {
    include_str!("../../test_data/msgpack/cty-golden.txt")
        .lines()
        .map(|line| {
            let (name, hex) = line.split_once(' ').unwrap();
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|at| u8::from_str_radix(&hex[at..at + 2], 16).unwrap())
                .collect();
            (name.to_owned(), bytes)
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[test]
fn every_value_is_written_as_cty_writes_it() {
    let golden = golden_bytes();
    let cases = golden_cases();
    assert_eq!(
        cases.len(),
        golden.len(),
        "a case without its golden line, or the reverse"
    );
    for (name, value, ty) in cases {
        let expected = golden
            .get(name)
            .unwrap_or_else(|| panic!("{name}: no golden line"));
        let written = encode_msgpack(&value, &ty).unwrap();
        assert_eq!(hex(&written), hex(expected), "{name}");
    }
}

#[test]
fn what_cty_writes_reads_back_as_the_value() {
    let golden = golden_bytes();
    for (name, value, ty) in golden_cases() {
        let read = decode_msgpack(&golden[name], &ty).unwrap();
        // A number written as an integer reads back as one; the rest as given.
        assert_eq!(read, value, "{name}");
    }
}

#[test]
fn floats_that_are_integers_are_written_as_integers() {
    let three = ConfigValue::Number(ConfigNumber::Float(3.0));
    assert_eq!(encode_msgpack(&three, &SchemaType::Number).unwrap(), [0x03]);
    assert_eq!(
        decode_msgpack(&[0xcb, 0x40, 0x08, 0, 0, 0, 0, 0, 0], &SchemaType::Number).unwrap(),
        integer(3)
    );
    let nan = ConfigValue::Number(ConfigNumber::Float(f64::NAN));
    assert!(encode_msgpack(&nan, &SchemaType::Number).is_err());
}

#[test]
fn an_object_missing_attributes_writes_them_null_and_refuses_extra_ones() {
    let object_type = ty("[\"object\",{\"a\":\"string\",\"b\":\"number\"}]");
    let partial = ConfigValue::object([("a", string("x"))]);
    assert_eq!(
        hex(&encode_msgpack(&partial, &object_type).unwrap()),
        "82a161a178a162c0"
    );
    let extra = ConfigValue::object([("c", string("x"))]);
    assert_eq!(
        encode_msgpack(&extra, &object_type)
            .unwrap_err()
            .to_string(),
        "unsupported attribute \"c\""
    );
}

#[test]
fn a_value_of_the_wrong_type_is_an_error_naming_where() {
    let object_type = ty("[\"object\",{\"rule\":[\"list\",[\"object\",{\"port\":\"number\"}]]}]");
    let value = ConfigValue::object([(
        "rule",
        ConfigValue::Tuple(vec![ConfigValue::object([("port", string("443"))])]),
    )]);
    let error = encode_msgpack(&value, &object_type).unwrap_err();
    assert_eq!(error.path, ".rule[0].port");
    assert_eq!(
        error.to_string(),
        ".rule[0].port: a string value where a number is required"
    );
    let tuple = ty("[\"tuple\",[\"string\"]]");
    assert!(encode_msgpack(&ConfigValue::Tuple(Vec::new()), &tuple).is_err());
}

#[test]
fn refinements_apply_only_to_their_kind_of_type() {
    // A prefix on a number, bounds on a string: written as plain unknowns.
    let all = Refinements {
        not_null: false,
        string_prefix: Some("x".into()),
        number_lower_bound: Some((ConfigNumber::Integer(0), true)),
        number_upper_bound: None,
        length_lower_bound: Some(2),
        length_upper_bound: None,
    };
    let value = refined("\"bool\"", all.clone());
    assert_eq!(
        encode_msgpack(&value, &SchemaType::Bool).unwrap(),
        [0xd4, 0, 0]
    );
    // Infinite bounds are no bounds.
    let unbounded = Refinements {
        number_lower_bound: Some((ConfigNumber::Float(f64::NEG_INFINITY), true)),
        number_upper_bound: Some((ConfigNumber::Float(f64::INFINITY), true)),
        ..Refinements::default()
    };
    assert_eq!(
        encode_msgpack(&refined("\"number\"", unbounded), &SchemaType::Number).unwrap(),
        [0xd4, 0, 0]
    );
    // A long prefix is cut to 255 bytes.
    let long = Refinements {
        string_prefix: Some("é".repeat(200)),
        ..Refinements::default()
    };
    let written = encode_msgpack(&refined("\"string\"", long), &SchemaType::String).unwrap();
    let ConfigValue::Unknown(read) = decode_msgpack(&written, &SchemaType::String).unwrap() else {
        panic!("not unknown")
    };
    assert_eq!(read.refinements.string_prefix, Some("é".repeat(127)));
}

#[test]
fn odd_input_is_an_error_never_a_panic() {
    let object_type = ty("[\"object\",{\"a\":[\"list\",\"string\"]}]");
    for bytes in [
        &[][..],
        &[0x81],
        &[0x81, 0xa1, b'a', 0xdd, 0xff, 0xff, 0xff, 0xff],
        &[0x81, 0xa1, b'b', 0xc0],
        &[0x82, 0xa1, b'a', 0xc0, 0xa1, b'a', 0xc0],
        &[0x81, 0xa1, b'a', 0xc7, 0x03, 0x05, 1, 2, 3],
        &[0xc1],
        &[0xc0, 0xc0],
    ] {
        assert!(
            decode_msgpack(bytes, &object_type).is_err(),
            "{}",
            hex(bytes)
        );
    }
    // A dynamic value nested past any schema's depth.
    let mut deep = Vec::new();
    let mut type_json = String::from("\"string\"");
    for _ in 0..200 {
        type_json = format!("[\"list\",{type_json}]");
    }
    deep.extend_from_slice(&[0x92, 0xc5]);
    deep.extend_from_slice(&u16::try_from(type_json.len()).unwrap().to_be_bytes());
    deep.extend_from_slice(type_json.as_bytes());
    deep.extend(std::iter::repeat_n(0x91, 200));
    deep.extend_from_slice(&[0xa1, b'x']);
    assert!(decode_msgpack(&deep, &SchemaType::Dynamic).is_err());
    // Every prefix of every golden encoding: an error or a value, no panic.
    for bytes in golden_bytes().values() {
        for end in 0..bytes.len() {
            let _ = decode_msgpack(&bytes[..end], &SchemaType::Dynamic);
            let _ = decode_msgpack(&bytes[..end], &object_type);
        }
    }
}

#[test]
fn unknown_refinements_cty_may_add_later_are_skipped() {
    // {1: false, 9: [1, 2]}: "not null", and a key cty v1.18 does not know.
    let bytes = [0xc7, 0x07, 0x0c, 0x82, 0x01, 0xc2, 0x09, 0x92, 0x01, 0x02];
    assert_eq!(
        decode_msgpack(&bytes, &SchemaType::String).unwrap(),
        ConfigValue::unknown_not_null(SchemaType::String)
    );
    // Known to be null is a null.
    let null = [0xc7, 0x03, 0x0c, 0x81, 0x01, 0xc3];
    assert_eq!(
        decode_msgpack(&null, &SchemaType::String).unwrap(),
        ConfigValue::Null(SchemaType::String)
    );
}

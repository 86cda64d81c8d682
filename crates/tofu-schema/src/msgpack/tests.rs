//! The msgpack writer and reader against cty's own bytes for every form
//! (`test_data/msgpack/cty-golden.txt`), and on odd input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::BTreeMap;

use tofu_eval::{Number, Refinements, Unknown, ValueKind};

use super::*;
use crate::types::type_from_json_text;

fn ty(json: &str) -> Type {
    type_from_json_text(json).unwrap()
}

fn string(text: &str) -> Value {
    Value::string(text)
}

fn integer(number: i64) -> Value {
    Value::int(number)
}

fn decimal(text: &str) -> Value {
    Value::number(Number::parse(text).unwrap())
}

fn float(float: f64) -> Value {
    Value::number(Number::from_f64(float))
}

fn object<'a>(attributes: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
    Value::object(
        attributes
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect(),
    )
}

fn refined(ty_json: &str, not_null: bool, refinements: Refinements) -> Value {
    ValueKind::Unknown(Unknown {
        ty: ty(ty_json),
        not_null,
        refinements: Some(Box::new(refinements)),
    })
    .into()
}

fn set(element: Type, items: Vec<Value>) -> Value {
    ValueKind::Set { element, items }.into()
}

/// The same value, unknowns, types and marks included (cty's `RawEquals`).
fn assert_same(read: &Value, expected: &Value, name: &str) {
    assert!(
        read.raw_equals(expected),
        "{name}: {read:?} is not {expected:?}"
    );
}

/// The cases of `test_data/msgpack/cty_golden.go`, by name: the value and
/// the type it is written as.
fn golden_cases() -> Vec<(&'static str, Value, Type)> {
    let list = |element: &str, items| Value::list(ty(element), items);
    let strings = |items: &[&str]| items.iter().map(|item| string(item)).collect::<Vec<_>>();
    vec![
        ("string", string("hello"), Type::String),
        ("string_empty", string(""), Type::String),
        ("string_31", string(&"a".repeat(31)), Type::String),
        ("string_32", string(&"a".repeat(32)), Type::String),
        ("string_300", string(&"b".repeat(300)), Type::String),
        ("string_unicode", string("héllo ☃"), Type::String),
        ("int_0", integer(0), Type::Number),
        ("int_127", integer(127), Type::Number),
        ("int_128", integer(128), Type::Number),
        ("int_256", integer(256), Type::Number),
        ("int_65536", integer(65536), Type::Number),
        ("int_4294967296", integer(4_294_967_296), Type::Number),
        ("int_minus_1", integer(-1), Type::Number),
        ("int_minus_32", integer(-32), Type::Number),
        ("int_minus_33", integer(-33), Type::Number),
        ("int_minus_129", integer(-129), Type::Number),
        ("int_minus_40000", integer(-40000), Type::Number),
        ("int_minus_3000000000", integer(-3_000_000_000), Type::Number),
        ("int_max", integer(i64::MAX), Type::Number),
        ("int_min", integer(i64::MIN), Type::Number),
        ("float_1_5", float(1.5), Type::Number),
        ("float_minus_0_25", float(-0.25), Type::Number),
        ("decimal_0_1", decimal("0.1"), Type::Number),
        ("decimal_2_pow_64", decimal("18446744073709551616"), Type::Number),
        ("infinity", Value::number(Number::infinity(false)), Type::Number),
        (
            "negative_infinity",
            Value::number(Number::infinity(true)),
            Type::Number,
        ),
        ("true", Value::bool(true), Type::Bool),
        ("false", Value::bool(false), Type::Bool),
        ("null_string", Value::null(Type::String), Type::String),
        ("unknown_string", Value::unknown(Type::String), Type::String),
        (
            "unknown_string_not_null",
            Value::unknown_not_null(Type::String),
            Type::String,
        ),
        (
            "unknown_string_prefix",
            refined(
                "\"string\"",
                true,
                Refinements {
                    string_prefix: Some("ab".into()),
                    ..Refinements::default()
                },
            ),
            Type::String,
        ),
        (
            "unknown_number_bounds",
            refined(
                "\"number\"",
                false,
                Refinements {
                    number_lower_bound: Some((Number::from_i64(1), true)),
                    number_upper_bound: Some((Number::from_f64(2.5), false)),
                    ..Refinements::default()
                },
            ),
            Type::Number,
        ),
        (
            "unknown_list_length",
            refined(
                "[\"list\",\"string\"]",
                false,
                Refinements {
                    length_lower_bound: Some(1),
                    length_upper_bound: Some(3),
                    ..Refinements::default()
                },
            ),
            ty("[\"list\",\"string\"]"),
        ),
        ("unknown_dynamic", Value::dynamic_unknown(), Type::Dynamic),
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
                vec![string("a"), Value::unknown(Type::String)],
            ),
            ty("[\"list\",\"string\"]"),
        ),
        (
            "set",
            set(Type::String, strings(&["a", "b"])),
            ty("[\"set\",\"string\"]"),
        ),
        (
            "map",
            Value::map(
                Type::Number,
                BTreeMap::from([("b".into(), integer(2)), ("a".into(), integer(1))]),
            ),
            ty("[\"map\",\"number\"]"),
        ),
        (
            "tuple",
            Value::tuple(vec![string("a"), Value::bool(true)]),
            ty("[\"tuple\",[\"string\",\"bool\"]]"),
        ),
        (
            "object",
            object([("b", Value::null(Type::Number)), ("a", string("x"))]),
            ty("[\"object\",{\"a\":\"string\",\"b\":\"number\"}]"),
        ),
        (
            "object_null",
            Value::null(ty("[\"object\",{\"a\":\"string\"}]")),
            ty("[\"object\",{\"a\":\"string\"}]"),
        ),
        ("dynamic_string", string("x"), Type::Dynamic),
        ("dynamic_list", list("\"string\"", strings(&["a"])), Type::Dynamic),
        (
            "dynamic_object",
            object([("z", integer(1)), ("a", Value::bool(true))]),
            Type::Dynamic,
        ),
        (
            "dynamic_tuple",
            Value::tuple(vec![string("a"), integer(1)]),
            Type::Dynamic,
        ),
        ("dynamic_null_string", Value::null(Type::String), Type::Dynamic),
        ("dynamic_null", Value::null(Type::Dynamic), Type::Dynamic),
        (
            "dynamic_unknown_string",
            Value::unknown(Type::String),
            Type::Dynamic,
        ),
        (
            "dynamic_in_object",
            object([("v", integer(3))]),
            ty("[\"object\",{\"v\":\"dynamic\"}]"),
        ),
        (
            "nested_blocks",
            object([
                ("name", string("web")),
                (
                    "rule",
                    list(
                        "[\"object\",{\"port\":\"number\"}]",
                        vec![object([("port", integer(443))])],
                    ),
                ),
                ("tags", Value::null(ty("[\"map\",\"string\"]"))),
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
        assert_same(&read, &value, name);
    }
}

#[test]
fn floats_that_are_integers_are_written_as_integers() {
    assert_eq!(encode_msgpack(&float(3.0), &Type::Number).unwrap(), [0x03]);
    assert_same(
        &decode_msgpack(&[0xcb, 0x40, 0x08, 0, 0, 0, 0, 0, 0], &Type::Number).unwrap(),
        &integer(3),
        "3.0",
    );
    // A NaN is no number cty reads.
    let nan = [0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0];
    assert!(decode_msgpack(&nan, &Type::Number).is_err());
}

#[test]
fn an_object_missing_attributes_writes_them_null_and_refuses_extra_ones() {
    let object_type = ty("[\"object\",{\"a\":\"string\",\"b\":\"number\"}]");
    let partial = object([("a", string("x"))]);
    assert_eq!(
        hex(&encode_msgpack(&partial, &object_type).unwrap()),
        "82a161a178a162c0"
    );
    let extra = object([("c", string("x"))]);
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
    let value = object([(
        "rule",
        Value::tuple(vec![object([("port", string("443"))])]),
    )]);
    let error = encode_msgpack(&value, &object_type).unwrap_err();
    assert_eq!(error.path, ".rule[0].port");
    assert_eq!(
        error.to_string(),
        ".rule[0].port: a string value where a number is required"
    );
    let tuple = ty("[\"tuple\",[\"string\"]]");
    assert!(encode_msgpack(&Value::tuple(Vec::new()), &tuple).is_err());
}

#[test]
fn refinements_apply_only_to_their_kind_of_type() {
    // A prefix on a number, bounds on a string: written as plain unknowns.
    let all = Refinements {
        string_prefix: Some("x".into()),
        number_lower_bound: Some((Number::from_i64(0), true)),
        number_upper_bound: None,
        length_lower_bound: Some(2),
        length_upper_bound: None,
    };
    let value = refined("\"bool\"", false, all.clone());
    assert_eq!(encode_msgpack(&value, &Type::Bool).unwrap(), [0xd4, 0, 0]);
    // Infinite bounds are no bounds.
    let unbounded = Refinements {
        number_lower_bound: Some((Number::infinity(true), true)),
        number_upper_bound: Some((Number::infinity(false), true)),
        ..Refinements::default()
    };
    assert_eq!(
        encode_msgpack(&refined("\"number\"", false, unbounded), &Type::Number).unwrap(),
        [0xd4, 0, 0]
    );
    // A long prefix is cut to 255 bytes.
    let long = Refinements {
        string_prefix: Some("é".repeat(200)),
        ..Refinements::default()
    };
    let written = encode_msgpack(&refined("\"string\"", false, long), &Type::String).unwrap();
    let ValueKind::Unknown(read) = decode_msgpack(&written, &Type::String).unwrap().kind else {
        panic!("not unknown")
    };
    assert_eq!(
        read.refinements
            .and_then(|refinements| refinements.string_prefix),
        Some("é".repeat(127))
    );
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
    assert!(decode_msgpack(&deep, &Type::Dynamic).is_err());
    // Every prefix of every golden encoding: an error or a value, no panic.
    for bytes in golden_bytes().values() {
        for end in 0..bytes.len() {
            let _ = decode_msgpack(&bytes[..end], &Type::Dynamic);
            let _ = decode_msgpack(&bytes[..end], &object_type);
        }
    }
}

#[test]
fn unknown_refinements_cty_may_add_later_are_skipped() {
    // {1: false, 9: [1, 2]}: "not null", and a key cty v1.18 does not know.
    let bytes = [0xc7, 0x07, 0x0c, 0x82, 0x01, 0xc2, 0x09, 0x92, 0x01, 0x02];
    assert_same(
        &decode_msgpack(&bytes, &Type::String).unwrap(),
        &Value::unknown_not_null(Type::String),
        "not null",
    );
    // Known to be null is a null.
    let null = [0xc7, 0x03, 0x0c, 0x81, 0x01, 0xc3];
    assert_same(
        &decode_msgpack(&null, &Type::String).unwrap(),
        &Value::null(Type::String),
        "null",
    );
}

#[test]
fn marks_are_left_out_and_dynamic_unknowns_carry_no_refinement() {
    let sensitive = object([("a", string("x").mark_sensitive())]).mark_sensitive();
    let object_type = ty("[\"object\",{\"a\":\"string\"}]");
    assert_eq!(
        encode_msgpack(&sensitive, &object_type).unwrap(),
        encode_msgpack(&object([("a", string("x"))]), &object_type).unwrap()
    );
    // An unknown whose own type is not known yet is written plain, even
    // known not to be null, as cty refines only values of a known type.
    assert_eq!(
        encode_msgpack(&Value::unknown_not_null(Type::Dynamic), &Type::String).unwrap(),
        [0xd4, 0, 0]
    );
}

//! Conversions and mismatch messages, each expectation as cty gives it.

use super::*;

fn string_list() -> Type {
    Type::list(Type::String)
}

#[test]
fn converts_primitives_both_ways() {
    let converted = convert(&Value::string("12.50"), &Type::Number).unwrap();
    assert_eq!(converted.as_number().unwrap().text('f', -1), "12.5");
    let error = convert(&Value::string("abc"), &Type::Number).unwrap_err();
    assert_eq!(error.message, "a number is required");
    let error = convert(&Value::string("True"), &Type::Bool).unwrap_err();
    assert_eq!(
        error.message,
        "a bool is required; to convert from string, use lowercase \"true\""
    );
    let converted = convert(&Value::bool(true), &Type::String).unwrap();
    assert_eq!(converted.as_str(), Some("true"));
}

#[test]
fn mismatch_messages_use_cty_wording() {
    assert_eq!(
        mismatch_message(&Type::Bool, &Type::Number),
        "number required, but have bool"
    );
    assert_eq!(
        mismatch_message(&string_list(), &Type::String),
        "string required, but have list of string"
    );
    assert_eq!(
        mismatch_message(
            &Type::tuple([Type::String, Type::Bool]),
            &Type::list(Type::Dynamic)
        ),
        "all list elements must have the same type"
    );
    let object = Type::object([("a", Type::String)]);
    let wanted = Type::object([("a", Type::String), ("b", Type::String)]);
    assert_eq!(
        mismatch_message(&object, &wanted),
        "attribute \"b\" is required"
    );
}

#[test]
fn unifies_mixed_primitives_to_string() {
    assert_eq!(
        unify(&[Type::Number, Type::String], false),
        Some(Type::String)
    );
    assert_eq!(unify(&[Type::Number, Type::Bool], false), None);
    assert_eq!(unify(&[Type::Number, Type::Bool], true), None);
    let converted = convert(
        &Value::tuple(vec![Value::int(1), Value::string("a")]),
        &Type::list(Type::Dynamic),
    )
    .unwrap();
    assert_eq!(converted.ty(), string_list());
}

#[test]
fn errors_name_their_path_as_opentofu_prints_it() {
    let value = Value::object(
        [(
            "k".to_owned(),
            Value::tuple(vec![Value::object(
                [("a".to_owned(), Value::string("x"))].into_iter().collect(),
            )]),
        )]
        .into_iter()
        .collect(),
    );
    let want = Type::map(Type::list(Type::object([("a", Type::Number)])));
    let error = convert(&value, &want).unwrap_err();
    assert_eq!(error.to_string(), r#"["k"][0].a: a number is required"#);
    let error = convert(&Value::string("x"), &Type::Number).unwrap_err();
    assert_eq!(error.to_string(), "a number is required");
}

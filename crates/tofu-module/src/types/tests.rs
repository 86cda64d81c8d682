//! Unit tests of type constraints, constant values and conversions: the
//! conversion table of `merging.md` §6.1 and the grammar rows of
//! `diagnostics.md` §4.14, one table each.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use tofu_eval::{apply_defaults, Type, Value, ValueKind};
use tofu_syntax::{Expr, Syntax};

use super::*;

/// The expression of `x = SOURCE` and the text its ranges index into.
fn native(source: &str) -> (Expr, String) {
    let text = format!("x = {source}\n");
    let file = tofu_syntax::parse("test.tf", &text);
    assert!(file.errors.is_empty(), "{source}: {:?}", file.errors);
    (file.body.attributes[0].expr.clone(), text)
}

/// The expression of `"x": SOURCE` in a JSON variable block.
fn json(source: &str) -> (Expr, String) {
    let text = format!("{{\"variable\": {{\"v\": {{\"x\": {source}}}}}}}");
    let file = tofu_syntax::parse("test.tf.json", &text);
    assert!(file.errors.is_empty(), "{source}: {:?}", file.errors);
    (file.body.blocks[0].body.attributes[0].expr.clone(), text)
}

fn native_value(source: &str) -> Value {
    let (expr, text) = native(source);
    static_value(&expr, Syntax::Native, &text)
}

/// cty's conversion to the constraint's type (no defaults applied).
fn convert(value: &Value, ty: &TypeConstraint) -> Result<Value, ConversionError> {
    tofu_eval::convert::convert(value, &ty.ty)
}

/// A value written compactly: `null`, `(unknown)`, numbers as cty writes
/// them, strings quoted, `[…]` for tuples, lists and sets, `{a = …}` for
/// objects and maps.
fn show(value: &Value) -> String {
    match &value.kind {
        ValueKind::Null(_) => "null".to_owned(),
        ValueKind::Unknown(_) => "(unknown)".to_owned(),
        ValueKind::Bool(flag) => flag.to_string(),
        ValueKind::Number(number) => number.text('f', -1),
        ValueKind::String(text) => format!("{text:?}"),
        ValueKind::List { items, .. } | ValueKind::Set { items, .. } | ValueKind::Tuple(items) => {
            format!(
                "[{}]",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            )
        }
        ValueKind::Map { entries, .. } | ValueKind::Object(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(name, entry)| format!("{name} = {}", show(entry)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn native_type(source: &str) -> TypeConstraint {
    let (expr, text) = native(source);
    let parsed = parse_variable_type(&expr, Syntax::Native, &text);
    assert_eq!(parsed.problem, None, "{source}");
    parsed.constraint
}

/// `Ok(())` or the error as OpenTofu prints it in the in-block message.
fn convert_sources(value: &str, ty: &str) -> Result<(), String> {
    convert(&native_value(value), &native_type(ty))
        .map(|_| ())
        .map_err(|error| error.to_string())
}

/// Every cell of the §6.1 table: (value, type, expected).
#[test]
fn conversion_table() {
    let table: &[(&str, &str, Result<(), &str>)] = &[
        // string → …
        (r#""a""#, "string", Ok(())),
        (r#""8080""#, "number", Ok(())),
        (r#""-1.5e3""#, "number", Ok(())),
        (r#""http""#, "number", Err("a number is required")),
        (r#"" 1""#, "number", Err("a number is required")),
        (r#""1_000""#, "number", Err("a number is required")),
        (r#""0x10""#, "number", Err("a number is required")),
        (r#""""#, "number", Err("a number is required")),
        (r#""true""#, "bool", Ok(())),
        (r#""false""#, "bool", Ok(())),
        (r#""1""#, "bool", Ok(())),
        (r#""0""#, "bool", Ok(())),
        (r#""yes""#, "bool", Err("a bool is required")),
        (
            r#""True""#,
            "bool",
            Err(r#"a bool is required; to convert from string, use lowercase "true""#),
        ),
        (
            r#""FALSE""#,
            "bool",
            Err(r#"a bool is required; to convert from string, use lowercase "false""#),
        ),
        (
            r#""a""#,
            "list(string)",
            Err("list of string required, but have string"),
        ),
        (
            r#""a""#,
            "set(number)",
            Err("set of number required, but have string"),
        ),
        (
            r#""a""#,
            "map(string)",
            Err("map of string required, but have string"),
        ),
        (
            r#""a""#,
            "object({a = string})",
            Err("object required, but have string"),
        ),
        (
            r#""a""#,
            "tuple([string])",
            Err("tuple required, but have string"),
        ),
        (r#""a""#, "any", Ok(())),
        // number → …
        ("80", "string", Ok(())),
        ("80", "number", Ok(())),
        ("80", "bool", Err("bool required, but have number")),
        (
            "80",
            "list(number)",
            Err("list of number required, but have number"),
        ),
        (
            "80",
            "map(number)",
            Err("map of number required, but have number"),
        ),
        ("80", "object({})", Err("object required, but have number")),
        ("-80", "any", Ok(())),
        // bool → …
        ("true", "string", Ok(())),
        ("true", "number", Err("number required, but have bool")),
        ("false", "bool", Ok(())),
        (
            "true",
            "set(bool)",
            Err("set of bool required, but have bool"),
        ),
        (
            "true",
            "map(bool)",
            Err("map of bool required, but have bool"),
        ),
        (
            "true",
            "object({a = bool})",
            Err("object required, but have bool"),
        ),
        ("true", "any", Ok(())),
        // tuple / list → …
        ("[]", "string", Err("string required, but have tuple")),
        ("[1]", "number", Err("number required, but have tuple")),
        ("[true]", "bool", Err("bool required, but have tuple")),
        (r#"["a", 1, true]"#, "list(string)", Ok(())),
        (r#"["1", 2]"#, "set(number)", Ok(())),
        (
            r#"["a", "x"]"#,
            "list(number)",
            Err("[0]: a number is required"),
        ),
        (
            r#"["1", "x"]"#,
            "list(number)",
            Err("[1]: a number is required"),
        ),
        (
            "[[1]]",
            "list(number)",
            Err("element 0: number required, but have tuple"),
        ),
        (
            r#"[1, ["a"]]"#,
            "list(string)",
            Err("element 1: string required, but have tuple"),
        ),
        (
            "[[1], [true]]",
            "list(list(number))",
            Err("element 1: element 0: number required, but have bool"),
        ),
        ("[1]", "map(number)", Err("map of number required")),
        ("[1]", "object({})", Err("object required, but have tuple")),
        (r#"[1, "a"]"#, "tuple([number, string])", Ok(())),
        ("[1]", "tuple([number, string])", Err("tuple required")),
        (
            r#"["x"]"#,
            "tuple([number])",
            Err("[0]: a number is required"),
        ),
        ("[]", "list(object({a = string}))", Ok(())),
        // `any` as an element type: one type the elements unify to, as
        // `tofu validate` reports it (fixture
        // variables/any-element-types-must-unify).
        (
            "[1, [2], {a = 3}]",
            "list(any)",
            Err("all list elements must have the same type"),
        ),
        (
            "[1, true]",
            "list(any)",
            Err("all list elements must have the same type"),
        ),
        (r#"[1, "a", true]"#, "list(any)", Ok(())),
        (r#"[[1], ["a"]]"#, "list(any)", Ok(())),
        (
            r#""a""#,
            "list(any)",
            Err("list of dynamic required, but have string"),
        ),
        ("[1]", "any", Ok(())),
        // object / map → …
        ("{}", "string", Err("string required, but have object")),
        ("{a = 1}", "number", Err("number required, but have object")),
        ("{a = 1}", "list(number)", Err("list of number required")),
        (r#"{a = 1, b = "2"}"#, "map(number)", Ok(())),
        (
            r#"{a = 1, b = "x"}"#,
            "map(number)",
            Err(r#"["b"]: a number is required"#),
        ),
        (
            "{b = [1], a = [2]}",
            "map(number)",
            Err(r#"element "a": number required, but have tuple"#),
        ),
        (
            "{a = 1, b = [2]}",
            "map(any)",
            Err("all map elements must have the same type"),
        ),
        ("{a = 1}", "object({a = number})", Ok(())),
        ("{a = 1, extra = true}", "object({a = string})", Ok(())),
        (
            "{}",
            "object({a = string})",
            Err(r#"attribute "a" is required"#),
        ),
        (
            "{}",
            "object({b = string, a = string})",
            Err(r#"attributes "a" and "b" are required"#),
        ),
        (
            "{}",
            "object({c = string, b = string, a = string})",
            Err(r#"attributes "a", "b", and "c" are required"#),
        ),
        ("{}", "object({a = optional(string)})", Ok(())),
        (
            r#"{a = "zz"}"#,
            "object({a = number})",
            Err(".a: a number is required"),
        ),
        (
            "{a = [1]}",
            "object({a = number})",
            Err(r#"attribute "a": number required, but have tuple"#),
        ),
        (
            "{a = {b = 1}}",
            "object({a = object({b = list(number)})})",
            Err(r#"attribute "a": attribute "b": list of number required, but have number"#),
        ),
        (
            "{k = {b = 1}}",
            "map(object({a = number}))",
            Err(r#"element "k": attribute "a" is required"#),
        ),
        (
            "{k = {a = \"x\"}}",
            "map(object({a = number}))",
            Err(r#"["k"].a: a number is required"#),
        ),
        ("{a = 1}", "tuple([number])", Err("tuple required")),
        ("{a = 1}", "any", Ok(())),
        // null → anything
        ("null", "string", Ok(())),
        ("null", "number", Ok(())),
        ("null", "bool", Ok(())),
        ("null", "list(string)", Ok(())),
        ("null", "set(string)", Ok(())),
        ("null", "map(string)", Ok(())),
        ("null", "object({a = string})", Ok(())),
        ("null", "any", Ok(())),
        ("[null]", "list(number)", Ok(())),
        ("{a = null}", "object({a = number})", Ok(())),
        // not constants: unknown, converts to anything
        ("var.x", "number", Ok(())),
        ("upper(\"a\")", "list(string)", Ok(())),
        ("\"${var.x}\"", "number", Ok(())),
        ("[var.x, \"a\"]", "list(number)", Ok(())),
        ("1 + 1", "bool", Ok(())),
    ];
    let mut failures = Vec::new();
    for (value, ty, expected) in table {
        let actual = convert_sources(value, ty);
        let expected = expected.map_err(str::to_owned);
        if actual != expected {
            failures.push(format!(
                "{value} → {ty}: expected {expected:?}, got {actual:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn converted_values_are_what_cty_produces() {
    let cases: &[(&str, &str, &str)] = &[
        ("1.0", "string", r#""1""#),
        ("1e3", "string", r#""1000""#),
        ("-0.50", "string", r#""-0.5""#),
        ("true", "string", r#""true""#),
        (r#""1""#, "bool", "true"),
        (r#""8080""#, "number", "8080"),
        (r#"["a", 1]"#, "list(any)", r#"["a", "1"]"#),
        (
            "{b = 1, extra = 2}",
            "object({a = optional(number), b = string})",
            r#"{a = null, b = "1"}"#,
        ),
    ];
    for (value, ty, expected) in cases {
        let converted = convert(&native_value(value), &native_type(ty)).unwrap();
        assert_eq!(show(&converted), *expected, "{value} → {ty}");
    }
}

#[test]
fn optional_attribute_defaults_are_applied_before_converting() {
    let applied = |value: &str, ty: &TypeConstraint| {
        show(&apply_defaults(&native_value(value), &ty.ty, &ty.defaults))
    };
    let ty = native_type(
        r#"object({a = optional(string, "x"), b = optional(object({c = optional(number, 1)}), {})})"#,
    );
    assert_eq!(applied("{b = null}", &ty), r#"{a = "x", b = {c = 1}}"#);
    let list_of = native_type(r#"list(object({a = optional(string, "x")}))"#);
    assert_eq!(applied("[{}]", &list_of), r#"[{a = "x"}]"#);
    // A list already typed (an evaluated value) gets them too, and keeps
    // its marks.
    let typed_list = tofu_eval::Value::list(
        tofu_eval::Type::empty_object(),
        vec![tofu_eval::Value::empty_object()],
    )
    .mark_sensitive();
    let filled = apply_defaults(&typed_list, &list_of.ty, &list_of.defaults);
    assert!(filled.is_sensitive());
    assert_eq!(show(&filled), r#"[{a = "x"}]"#);
    // Null and unknown values are left alone, and a variable's null
    // value gets no defaults.
    assert_eq!(applied("null", &ty), "null");
    assert_eq!(applied("var.x", &ty), "(unknown)");
    let converted = convert_variable_value(&tofu_eval::Value::dynamic_null(), &ty).unwrap();
    assert!(converted.is_null());
}

#[test]
fn types_parse_and_display() {
    let cases = [
        ("string", "string"),
        ("number", "number"),
        ("bool", "bool"),
        ("any", "any"),
        ("list", "list(any)"),
        ("map", "map(any)"),
        ("list(string)", "list(string)"),
        ("set(number)", "set(number)"),
        ("map(list(any))", "map(list(any))"),
        ("tuple([string, number])", "tuple([string, number])"),
        ("tuple([])", "tuple([])"),
        (
            "object({a = string, b = optional(number), c = optional(bool, true)})",
            "object({a = string, b = optional(number), c = optional(bool)})",
        ),
        (
            "object({\n  a = string\n  b = number\n})",
            "object({a = string, b = number})",
        ),
        ("object({})", "object({})"),
    ];
    for (source, shown) in cases {
        assert_eq!(constraint_text(&native_type(source).ty), shown, "{source}");
    }
    let with_default = native_type(r#"object({a = optional(number, "5")})"#);
    assert_eq!(
        with_default.defaults.value("a").map(show).as_deref(),
        Some("5")
    );
}

/// The error rows of §4.14: (type, detail, the text the range covers).
#[test]
fn type_grammar_errors() {
    let table: &[(&str, &str, &str)] = &[
        ("notatype", r#"The keyword "notatype" is not a valid type specification."#, "notatype"),
        ("int", r#"The keyword "int" is not a valid type specification."#, "int"),
        ("null", r#"The keyword "null" is not a valid type specification."#, "null"),
        ("true", r#"The keyword "true" is not a valid type specification."#, "true"),
        ("optional", r#"The keyword "optional" is not a valid type specification."#, "optional"),
        ("set", "The set type constructor requires one argument specifying the element type.", "set"),
        (
            "list(list)",
            "The list type constructor requires one argument specifying the element type.",
            "list",
        ),
        (
            "map(map)",
            "The map type constructor requires one argument specifying the element type.",
            "map",
        ),
        (
            "object",
            "The object type constructor requires one argument specifying the attribute types and values as a map.",
            "object",
        ),
        (
            "tuple",
            "The tuple type constructor requires one argument specifying the element types as a list.",
            "tuple",
        ),
        ("5", NOT_A_TYPE, "5"),
        ("[string]", NOT_A_TYPE, "[string]"),
        ("list(\"string\")", NOT_A_TYPE, "\"string\""),
        ("var.x", NOT_A_TYPE, "var.x"),
        // HCL keeps parentheses as an expression of their own, which is no
        // keyword, call or constructor (checked with the oracle).
        ("(string)", NOT_A_TYPE, "(string)"),
        ("(list)", NOT_A_TYPE, "(list)"),
        ("list((string))", NOT_A_TYPE, "(string)"),
        ("object({a = (optional(string))})", NOT_A_TYPE, "(optional(string))"),
        (
            "object(({a = string}))",
            "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
            "({a = string})",
        ),
        ("tuple(([string]))", "Tuple type constructor requires a list of element types.", "([string])"),
        ("string(5)", r#"Primitive type keyword "string" does not expect arguments."#, "(5)"),
        ("number()", r#"Primitive type keyword "number" does not expect arguments."#, "()"),
        ("bool (x)", r#"Primitive type keyword "bool" does not expect arguments."#, "(x)"),
        ("any(1)", r#"Type constraint keyword "any" does not expect arguments."#, "(1)"),
        (
            "list()",
            "The list type constructor requires one argument specifying the element type.",
            "()",
        ),
        (
            "map(string, number, bool)",
            "The map type constructor requires one argument specifying the element type.",
            "number, bool",
        ),
        (
            "object({}, {})",
            "The object type constructor requires one argument specifying the attribute types and values as a map.",
            "{}",
        ),
        (
            "tuple()",
            "The tuple type constructor requires one argument specifying the element types as a list.",
            "()",
        ),
        (
            "object([string])",
            "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
            "[string]",
        ),
        ("tuple({a = string})", "Tuple type constructor requires a list of element types.", "{a = string}"),
        (
            r#"object({"a" = string})"#,
            "Object constructor map keys must be attribute names.",
            r#""a""#,
        ),
        (
            "object({(a) = string})",
            "Object constructor map keys must be attribute names.",
            "(a)",
        ),
        ("object({a = string, (\"a\") = number})", "Object constructor map keys must be attribute names.", "(\"a\")"),
        (
            "object({a = optional()})",
            "Optional attribute modifier requires the attribute type as its argument.",
            "()",
        ),
        (
            "object({a = optional(string, \"x\", 1)})",
            "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
            "(string, \"x\", 1)",
        ),
        (
            "optional(string)",
            r#"Keyword "optional" is valid only as a modifier for object type attributes."#,
            "optional",
        ),
        (
            "list(optional(string))",
            r#"Keyword "optional" is valid only as a modifier for object type attributes."#,
            "optional",
        ),
        ("frobnicate(string)", r#"Keyword "frobnicate" is not a valid type constructor."#, "frobnicate(string)"),
        (
            "provider::x::y(string)",
            r#"Keyword "provider::x::y" is not a valid type constructor."#,
            "provider::x::y(string)",
        ),
    ];
    let mut failures = Vec::new();
    for (source, detail, covered) in table {
        let (expr, text) = native(source);
        match parse_type_constraint(&expr, &text) {
            Ok(ty) => failures.push(format!("{source}: parsed as {}", constraint_text(&ty.ty))),
            Err(errors) => {
                let first = &errors[0];
                if first.summary != "Invalid type specification"
                    || first.detail != *detail
                    || first.range.slice(&text) != *covered
                {
                    failures.push(format!(
                        "{source}: got {:?} on {:?}",
                        first.detail,
                        first.range.slice(&text)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn optional_defaults_are_evaluated_and_converted() {
    let table: &[(&str, &str, &str, &str)] = &[
        (
            "object({a = optional(string, var.x)})",
            "Variables not allowed",
            "Variables may not be used here.",
            "var",
        ),
        (
            "object({a = optional(list(string), [upper(\"a\")])})",
            "Function calls not allowed",
            "Functions may not be called here.",
            "upper(\"a\")",
        ),
        (
            "object({a = optional(number, \"x\")})",
            "Invalid default value for optional attribute",
            "This default value is not compatible with the attribute's type constraint: a number is required.",
            "\"x\"",
        ),
        (
            "object({a = optional(list(number), [[1]])})",
            "Invalid default value for optional attribute",
            "This default value is not compatible with the attribute's type constraint: element 0: number required, but have tuple.",
            "[[1]]",
        ),
    ];
    for (source, summary, detail, covered) in table {
        let (expr, text) = native(source);
        let errors = parse_type_constraint(&expr, &text).unwrap_err();
        assert_eq!(errors.len(), 1, "{source}: {errors:?}");
        assert_eq!(errors[0].summary, *summary, "{source}");
        assert_eq!(errors[0].detail, *detail, "{source}");
        assert_eq!(errors[0].range.slice(&text), *covered, "{source}");
    }
    // A default tofu-lens cannot evaluate is accepted (and unknown).
    let ty = native_type("object({a = optional(number, 1 + 2)})");
    assert_eq!(
        ty.defaults.value("a").map(show).as_deref(),
        Some("(unknown)")
    );
}

/// A repeated key in `object({…})` parses (HCL accepts it in an object
/// constructor); the type constraint's own check refuses it.
#[test]
fn repeated_object_keys() {
    let (expr, text) = native("object({a = string, a = number})");
    let errors = parse_type_constraint(&expr, &text).unwrap_err();
    assert_eq!(
        errors[0].detail,
        "Object constructor map keys must be unique."
    );
}

#[test]
fn every_error_of_an_object_is_reported() {
    let (expr, text) = native(r#"object({a = int, "b" = string, c = list()})"#);
    let errors = parse_type_constraint(&expr, &text).unwrap_err();
    let covered: Vec<&str> = errors.iter().map(|e| e.range.slice(&text)).collect();
    assert_eq!(covered, ["int", "\"b\"", "()"]);
}

#[test]
fn variable_types_in_both_syntaxes() {
    // Native quoted strings are the legacy form: always `any`.
    for source in [
        r#""string""#,
        r#""list""#,
        r#""map""#,
        r#""nope""#,
        r#""a${x}""#,
        r#""${x} ""#,
        r#""${x}${y}""#,
        "<<EOT\n${x}\nEOT",
    ] {
        let (expr, text) = native(source);
        let parsed = parse_variable_type(&expr, Syntax::Native, &text);
        assert_eq!(parsed.constraint, TypeConstraint::any(), "{source}");
        assert!(
            matches!(parsed.problem, Some(VariableTypeProblem::Quoted { .. })),
            "{source}"
        );
    }
    // JSON strings hold type expressions.
    let cases = [
        (r#""string""#, "string"),
        (r#""list""#, "list(any)"),
        (r#""map""#, "map(any)"),
        (r#""list(string)""#, "list(string)"),
        (
            r#""object({a = optional(string, \"x\")})""#,
            "object({a = optional(string)})",
        ),
        (
            r#""map(object({\n a = number\n}))""#,
            "map(object({a = number}))",
        ),
    ];
    for (source, shown) in cases {
        let (expr, text) = json(source);
        let parsed = parse_variable_type(&expr, Syntax::Json, &text);
        assert_eq!(parsed.problem, None, "{source}");
        assert_eq!(constraint_text(&parsed.constraint.ty), shown, "{source}");
    }
    // A string that is one interpolation, and parentheses, are no quoted
    // type and no shorthand: HCL finds no type in them.
    for source in [r#""${x}""#, r#""${ x ~}""#, "(list)", "(string)"] {
        let (expr, text) = native(source);
        let parsed = parse_variable_type(&expr, Syntax::Native, &text);
        let Some(VariableTypeProblem::Invalid(errors)) = parsed.problem else {
            panic!("{source}: {:?}", parsed.problem)
        };
        assert_eq!(errors[0].detail, NOT_A_TYPE, "{source}");
        assert_eq!(errors[0].range.slice(&text), source, "{source}");
    }
    // JSON errors: inside the string, or the whole string (quotes included,
    // as HCL reports it) for an error on the type as a whole.
    let errors = [
        (r#""list(int)""#, "int"),
        (r#""list(string""#, r#""list(string""#),
        (r#""string\nx = 1""#, r#""string\nx = 1""#),
        (r#""notatype""#, r#""notatype""#),
        (r#"" notatype""#, r#"" notatype""#),
        (r#""(string)""#, r#""(string)""#),
        ("5", "5"),
        ("[\"string\"]", "[\"string\"]"),
        ("null", "null"),
        (r#""${string}""#, r#""${string}""#),
    ];
    for (source, covered) in errors {
        let (expr, text) = json(source);
        let parsed = parse_variable_type(&expr, Syntax::Json, &text);
        assert_eq!(parsed.constraint, TypeConstraint::any(), "{source}");
        let Some(VariableTypeProblem::Invalid(errors)) = parsed.problem else {
            panic!("{source}: {:?}", parsed.problem)
        };
        assert_eq!(errors[0].range.slice(&text), covered, "{source}");
    }
}

#[test]
fn constant_values() {
    let native_cases: &[(&str, &str)] = &[
        ("null", "null"),
        ("true", "true"),
        ("80", "80"),
        ("-80", "-80"),
        ("- 1.5", "-1.5"),
        ("-(2)", "-2"),
        ("1.50", "1.5"),
        (r#""a\tb""#, r#""a\tb""#),
        ("\"$${x}\"", r#""${x}""#),
        ("<<EOT\nhello\nEOT", r#""hello\n""#),
        // Normal form C, as cty keeps strings.
        ("\"e\\u0301\"", "\"\u{e9}\""),
        (r#"[1, "a", [true]]"#, r#"[1, "a", [true]]"#),
        (
            r#"{a = 5, "b c" = 2, 3 = 4, 1.50 = 6, a = 7}"#,
            "{1.5 = 6, 3 = 4, a = 7, b c = 2}",
        ),
        ("var.x", "(unknown)"),
        ("local.x[0]", "(unknown)"),
        ("upper(\"a\")", "(unknown)"),
        ("\"${var.x}\"", "(unknown)"),
        ("\"a-${1}\"", "(unknown)"),
        ("<<EOT\n${var.x}\nEOT", "(unknown)"),
        ("[1, var.x]", "(unknown)"),
        ("{(var.k) = 1}", "(unknown)"),
        ("1 + 2", "(unknown)"),
        ("!true", "(unknown)"),
        ("true ? 1 : 2", "(unknown)"),
        ("[for x in [1] : x]", "(unknown)"),
    ];
    for (source, expected) in native_cases {
        assert_eq!(show(&native_value(source)), *expected, "{source}");
    }
    let json_cases: &[(&str, &str)] = &[
        ("null", "null"),
        ("-1.5e2", "-150"),
        (r#""a""#, r#""a""#),
        // Verbatim, not a template.
        (r#""${var.x}""#, r#""${var.x}""#),
        (r#""%{ if x }\u00e9\"""#, r#""%{ if x }é\"""#),
        (r#"{"a": [1, {"b": "${c}"}]}"#, r#"{a = [1, {b = "${c}"}]}"#),
    ];
    for (source, expected) in json_cases {
        let (expr, text) = json(source);
        assert_eq!(
            show(&static_value(&expr, Syntax::Json, &text)),
            *expected,
            "{source}"
        );
    }
}

#[test]
fn number_text() {
    for valid in [
        "0", "80", "-1", "+1", "1.5", ".5", "5.", "1e3", "1E-3", "2p4", "Inf", "-inf",
    ] {
        let converted = convert(&Value::string(valid), &TypeConstraint::of(Type::Number));
        assert!(converted.is_ok(), "{valid}");
    }
    for invalid in [
        "", "-", ".", "1e", "1.2.3", "0x10", "1_000", " 1", "1 ", "one", "1e+", "infinity",
    ] {
        let converted = convert(&Value::string(invalid), &TypeConstraint::of(Type::Number));
        assert!(converted.is_err(), "{invalid}");
    }
    let canonical = [
        ("80", "80"),
        ("080", "80"),
        ("1.0", "1"),
        ("1.50", "1.5"),
        ("1e3", "1000"),
        ("1.5e1", "15"),
        ("1e-3", "0.001"),
        (".5", "0.5"),
        ("-0.0", "-0"),
        ("0", "0"),
        ("+7", "7"),
        ("123.456e2", "12345.6"),
    ];
    for (written, expected) in canonical {
        let number = Value::number(tofu_eval::Number::parse(written).unwrap());
        let as_string = convert(&number, &TypeConstraint::of(Type::String)).unwrap();
        assert_eq!(as_string.as_str(), Some(expected), "{written}");
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 5000;
    let deep_type = format!("{}string{}", "list(".repeat(depth), ")".repeat(depth));
    let deep_value = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let file = tofu_syntax::parse("deep.tf", &format!("a = {deep_type}\nb = {deep_value}\n"));
    let text = format!("a = {deep_type}\nb = {deep_value}\n");
    for attribute in &file.body.attributes {
        let parsed = parse_variable_type(&attribute.expr, Syntax::Native, &text);
        let value = static_value(&attribute.expr, Syntax::Native, &text);
        let _ = convert(&value, &parsed.constraint);
        let _ = convert_variable_value(&value, &parsed.constraint);
    }
    // As deep as a constant gets.
    let mut value = Value::int(1);
    let mut ty = Type::Number;
    for _ in 0..MAX_VALUE_DEPTH {
        value = Value::tuple(vec![value]);
        ty = Type::list(ty);
    }
    assert!(convert(&value, &TypeConstraint::of(ty)).is_ok());
    assert!(convert(&value, &TypeConstraint::of(Type::String)).is_err());
}

/// A typed null converts where its type does (cty decides on the types
/// before the value): the messages as `tofu validate` printed them for an
/// override changing the type of a variable whose default is `null`.
#[test]
fn conversions_between_types() {
    let table: &[(&str, &str, Option<&str>)] = &[
        ("string", "number", None),
        ("bool", "number", Some("number required, but have bool")),
        (
            "string",
            "list(string)",
            Some("list of string required, but have string"),
        ),
        (
            "object({ size = number, tags = map(string) })",
            "map(number)",
            Some(r#"element "tags": number required, but have map of string"#),
        ),
        (
            "object({ size = number, count = number })",
            "map(string)",
            None,
        ),
        (
            "object({ a = string })",
            "object({ a = number, b = string })",
            Some(r#"attribute "b" is required"#),
        ),
        (
            "object({ a = bool })",
            "object({ a = number })",
            Some(r#"attribute "a": number required, but have bool"#),
        ),
        (
            "object({ a = string })",
            "object({ a = string, b = optional(number) })",
            None,
        ),
        (
            "tuple([string, bool])",
            "list(number)",
            Some("element 1: number required, but have bool"),
        ),
        ("tuple([string, number])", "list(string)", None),
        (
            "tuple([string, list(string)])",
            "list(any)",
            Some("all list elements must have the same type"),
        ),
        (
            "list(bool)",
            "list(number)",
            Some("incorrect list element type: number required, but have bool"),
        ),
        ("list(string)", "set(number)", None),
        (
            "map(bool)",
            "map(number)",
            Some("incorrect map element type: number required, but have bool"),
        ),
        ("map(string)", "object({ a = number })", None),
        (
            "map(list(string))",
            "object({ a = string })",
            Some("object required"),
        ),
        (
            "map(number)",
            "object({ size = number, tags = optional(map(string), {}) })",
            None,
        ),
        ("set(string)", "list(number)", None),
        ("object({ x = list(string) })", "map(list(number))", None),
    ];
    for &(have, want, expected) in table {
        let (have, want) = (
            native_type(have).ty.without_optional(),
            native_type(want).ty,
        );
        let error = (!tofu_eval::convert::conversion_exists(&have, &want, true))
            .then(|| tofu_eval::convert::mismatch_message(&have, &want));
        assert_eq!(error.as_deref(), expected, "{have} → {want}");
    }
}

/// `sensitive = …` and `ephemeral = …` as OpenTofu decodes them while
/// loading: a constant converted to bool; a reference or a call is an
/// error there, so never true.
#[test]
fn declared_bools_are_constants_converted_to_bool() {
    for (source, expected) in [
        ("true", true),
        ("false", false),
        ("\"true\"", true),
        ("\"1\"", true),
        ("\"yes\"", false),
        ("1 == 1", true),
        ("!false", true),
        ("null", false),
        ("var.sensitive", false),
        ("tobool(\"true\")", false),
        ("[true]", false),
    ] {
        let (expr, _) = native(source);
        assert_eq!(declared_true(&expr, Syntax::Native), expected, "{source}");
    }
    for (source, expected) in [
        ("true", true),
        ("\"true\"", true),
        ("\"false\"", false),
        ("1", false),
    ] {
        let (expr, _) = json(source);
        assert_eq!(
            declared_true(&expr, Syntax::Json),
            expected,
            "json {source}"
        );
    }
}

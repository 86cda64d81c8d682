//! What the console cannot show: subject ranges, unknown values from the
//! scope, and how much of a reference the scope takes. The values and
//! wording are checked against OpenTofu by `tests/console/expressions.txt`.

use std::collections::BTreeMap;

use tofu_syntax::TextRange;

use super::*;
use crate::functions::NoFiles;
use crate::printer::format_value;

/// `var.known` is `{a = {b = 1}}`, `var.unknown` an unknown of any type,
/// `var.list` an unknown list of objects; anything else is an error.
struct TestScope;

impl Scope for TestScope {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let name = match (reference.root, reference.steps.first()) {
            ("var", Some(TraversalStep::Attr { name, .. })) => name.as_str(),
            _ => {
                return Err(vec![EvalDiagnostic::new(
                    "Invalid reference",
                    "test",
                    reference.root_range,
                )])
            }
        };
        let value = match name {
            "known" => {
                let inner = Value::object(BTreeMap::from([("b".to_owned(), Value::int(1))]));
                Value::object(BTreeMap::from([("a".to_owned(), inner)]))
            }
            "unknown" => Value::dynamic_unknown(),
            "list" => Value::unknown(Type::list(Type::object(BTreeMap::from([(
                "id".to_owned(),
                Type::String,
            )])))),
            _ => {
                return Err(vec![EvalDiagnostic::new(
                    "Reference to undeclared input variable",
                    name,
                    reference.root_range,
                )])
            }
        };
        Ok(Referenced { value, n_steps: 1 })
    }

    fn environment(&self) -> &dyn Environment {
        &NoFiles
    }

    fn describe_range(&self, range: TextRange) -> String {
        format!("test.tf:{}-{}", range.start, range.end)
    }
}

/// The expression `text` (as the value of `x = `, so offsets start at 4).
fn run(text: &str) -> (String, Vec<(String, String)>) {
    let source = format!("x = {text}\n");
    let file = tofu_syntax::parse("test.tf", &source);
    assert!(file.errors.is_empty(), "{text}: {:?}", file.errors);
    let expr = &file.body.attributes[0].expr;
    let evaluation = evaluate(expr, &TestScope);
    let subjects = evaluation
        .diagnostics
        .iter()
        .map(|diagnostic| {
            (
                diagnostic.summary.clone(),
                diagnostic.subject.slice(&source).to_owned(),
            )
        })
        .collect();
    (format_value(&evaluation.value), subjects)
}

fn subjects(text: &str) -> Vec<(String, String)> {
    run(text).1
}

fn value(text: &str) -> String {
    let (value, diagnostics) = run(text);
    assert!(diagnostics.is_empty(), "{text}: {diagnostics:?}");
    value
}

fn pair(summary: &str, subject: &str) -> (String, String) {
    (summary.to_owned(), subject.to_owned())
}

#[test]
fn errors_point_where_hcl_points() {
    assert_eq!(subjects("{a = 1}.b"), [pair("Unsupported attribute", ".b")]);
    assert_eq!(subjects("[1, 2][5]"), [pair("Invalid index", "[5]")]);
    assert_eq!(subjects("1 + \"a\""), [pair("Invalid operand", "\"a\"")]);
    assert_eq!(
        subjects("true ? 1 : [1]"),
        [pair("Inconsistent conditional result types", "1 : [1]")]
    );
    assert_eq!(
        subjects("[for x in null : x]"),
        [pair("Iteration over null value", "null")]
    );
    assert_eq!(
        subjects("upper(1, 2)"),
        [pair("Too many function arguments", "2")]
    );
    assert_eq!(
        subjects("upper()"),
        [pair("Not enough function arguments", ")")]
    );
    assert_eq!(
        subjects("uper(1)"),
        [pair("Call to unknown function", "uper")]
    );
    assert_eq!(
        subjects("\"a${null}\""),
        [pair("Invalid template interpolation value", "null")]
    );
    assert_eq!(
        subjects("var.nope.a"),
        [pair("Reference to undeclared input variable", "var")]
    );
}

#[test]
fn the_scope_names_the_start_and_the_evaluator_walks_the_rest() {
    assert_eq!(value("var.known.a.b"), "1");
    assert_eq!(
        subjects("var.known.a.c"),
        [pair("Unsupported attribute", ".c")]
    );
    assert_eq!(value("var.known[\"a\"].b"), "1");
}

#[test]
fn unknown_values_flow_through_without_errors() {
    for text in [
        "var.unknown + 1",
        "var.unknown ? 1 : 2",
        "[for x in var.unknown : x]",
        "var.unknown.a[0]",
        "var.list[*].id",
        "\"a${var.unknown}\"",
        "can(var.unknown)",
        "try(var.unknown, 1)",
        "upper(var.unknown)",
        "var.unknown == 1",
    ] {
        assert_eq!(value(text), "(known after apply)", "{text}");
    }
    assert_eq!(value("var.unknown || true"), "true");
    assert_eq!(value("try(1 + \"a\", var.known.a.b)"), "1");
}

#[test]
fn try_names_the_ranges_of_what_it_caught() {
    let source = "x = try(1 + \"a\")\n";
    let file = tofu_syntax::parse("test.tf", source);
    let evaluation = evaluate(&file.body.attributes[0].expr, &TestScope);
    let [diagnostic] = evaluation.diagnostics.as_slice() else {
        panic!("{:?}", evaluation.diagnostics);
    };
    assert!(
        diagnostic
            .detail
            .contains("- Invalid operand (at test.tf:12-15)"),
        "{}",
        diagnostic.detail
    );
}

/// A scope like `TestScope` whose context, like a `dynamic` block's
/// content, has no functions of its own to suggest from.
struct WithoutSuggestions;

impl Scope for WithoutSuggestions {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        TestScope.reference(reference)
    }

    fn environment(&self) -> &dyn Environment {
        &NoFiles
    }

    fn describe_range(&self, range: TextRange) -> String {
        TestScope.describe_range(range)
    }

    fn suggests_function_names(&self) -> bool {
        false
    }
}

#[test]
fn an_unknown_function_is_suggested_only_where_the_scope_suggests_names() {
    let details = |scope: &dyn Scope, text: &str| {
        let source = format!("x = {text}\n");
        let file = tofu_syntax::parse("test.tf", &source);
        evaluate(&file.body.attributes[0].expr, scope)
            .diagnostics
            .into_iter()
            .map(|diagnostic| diagnostic.detail)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        details(&TestScope, "uppper(\"a\")"),
        ["There is no function named \"uppper\". Did you mean \"upper\"?"]
    );
    assert_eq!(
        details(&WithoutSuggestions, "uppper(\"a\")"),
        ["There is no function named \"uppper\"."]
    );
    // OpenTofu words namespaced names itself, in any context.
    assert_eq!(
        details(&WithoutSuggestions, "core::uppper(\"a\")"),
        ["There is no builtin (core::) function named \"uppper\"."]
    );
    assert_eq!(
        details(&WithoutSuggestions, "upper(\"a\")"),
        [] as [&str; 0]
    );
}

/// A scope with `provider::p::parse(text string) object({year = number})`,
/// whose environment "calls" the provider: "2024" gives `{year = 2024}`,
/// anything else the provider's error about argument 0.
struct ProviderScope;

struct ProviderEnvironment;

impl Environment for ProviderEnvironment {
    fn read_file(&self, _path: &str) -> Result<Vec<u8>, crate::functions::FileError> {
        Err(crate::functions::FileError::Unavailable)
    }

    fn file_exists(&self, _path: &str) -> Result<bool, crate::functions::FileError> {
        Err(crate::functions::FileError::Unavailable)
    }

    fn call_provider_function(
        &self,
        function: &crate::functions::ProviderFunction,
        arguments: &[Value],
    ) -> Option<Result<Value, crate::functions::FunctionError>> {
        assert_eq!(
            (function.provider.as_str(), function.function.as_str()),
            ("example.com/p/p", "parse")
        );
        match arguments {
            [text] if text.as_str() == Some("2024") => Some(Ok(Value::object(BTreeMap::from([(
                "year".to_owned(),
                Value::int(2024),
            )])))),
            _ => Some(Err(crate::functions::FunctionError::argument(
                0,
                "not a year",
            ))),
        }
    }
}

impl Scope for ProviderScope {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let _ = reference;
        Ok(Referenced {
            value: Value::unknown(Type::String),
            n_steps: 1,
        })
    }

    fn environment(&self) -> &dyn Environment {
        &ProviderEnvironment
    }

    fn describe_range(&self, range: TextRange) -> String {
        format!("test.tf:{}-{}", range.start, range.end)
    }

    fn provider_function(&self, name: &str) -> Option<crate::functions::ProviderFunction> {
        (name == "provider::p::parse").then(|| crate::functions::ProviderFunction {
            provider: "example.com/p/p".to_owned(),
            function: "parse".to_owned(),
            parameters: vec![crate::functions::ProviderParameter {
                name: "text".to_owned(),
                ty: Type::String,
                allow_null: false,
                allow_unknown: false,
            }],
            variadic: None,
            return_type: Type::object(BTreeMap::from([("year".to_owned(), Type::Number)])),
        })
    }
}

fn run_provider(text: &str) -> (String, Vec<(String, String, String)>) {
    let source = format!("x = {text}\n");
    let file = tofu_syntax::parse("test.tf", &source);
    assert!(file.errors.is_empty(), "{text}: {:?}", file.errors);
    let evaluation = evaluate(&file.body.attributes[0].expr, &ProviderScope);
    let found = evaluation
        .diagnostics
        .iter()
        .map(|diagnostic| {
            (
                diagnostic.summary.clone(),
                diagnostic.detail.clone(),
                diagnostic.subject.slice(&source).to_owned(),
            )
        })
        .collect();
    (format_value(&evaluation.value), found)
}

#[test]
fn a_provider_function_is_checked_against_its_signature_and_called_through_the_environment() {
    let error = |summary: &str, detail: &str, subject: &str| {
        vec![(summary.to_owned(), detail.to_owned(), subject.to_owned())]
    };
    assert_eq!(
        run_provider("provider::p::parse()").1,
        error(
            "Not enough function arguments",
            "Function \"provider::p::parse\" expects 1 argument(s). Missing value for \"text\".",
            ")"
        )
    );
    assert_eq!(
        run_provider("provider::p::parse(\"a\", 2)").1,
        error(
            "Too many function arguments",
            "Function \"provider::p::parse\" expects only 1 argument(s).",
            "2"
        )
    );
    assert_eq!(
        run_provider("provider::p::parse([\"a\"])").1,
        error(
            "Invalid function argument",
            "Invalid value for \"text\" parameter: string required, but have tuple.",
            "["
        )
    );
    assert_eq!(
        run_provider("provider::p::parse(null)").1,
        error(
            "Invalid function argument",
            "Invalid value for \"text\" parameter: argument must not be null.",
            "null"
        )
    );
    assert_eq!(
        run_provider("provider::p::parse(\"soon\")").1,
        error(
            "Invalid function argument",
            "Invalid value for \"text\" parameter: not a year.",
            "soon"
        )
    );
    assert_eq!(
        run_provider("provider::p::parse(\"2024\").year"),
        ("2024".to_owned(), Vec::new())
    );
    // An unknown argument: not sent; the result is unknown of the return
    // type, so a missing attribute is still found.
    assert_eq!(
        run_provider("provider::p::parse(var.x).nosuch").1,
        error(
            "Unsupported attribute",
            "This object does not have an attribute named \"nosuch\".",
            ".nosuch"
        )
    );
    // A function the schema does not declare: anything goes.
    assert_eq!(
        run_provider("provider::p::other(1, 2).x"),
        ("(known after apply)".to_owned(), Vec::new())
    );
}

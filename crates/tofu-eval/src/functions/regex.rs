//! `regex` and `regexall`, and the pattern compiler `replace` shares. Go's
//! RE2 syntax and Rust's `regex` crate agree on the language (both are
//! RE2 without backtracking); what a pattern captures decides the result
//! type: a string without groups, a tuple of strings for unnamed groups,
//! an object for named ones, never both.
//!
//! Left out: Go's wording of syntax errors (the message here is the
//! crate's).

use std::collections::BTreeMap;

use regex::Regex;

use super::{Arguments, FunctionError, Implementation, PLAIN};
use crate::types::Type;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    Some(match name {
        "regex" => Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: Some(result_type),
            run: |args| {
                let expression = compiled(args)?;
                let text = super::text(args, 1);
                let Some(captures) = expression.captures(&text) else {
                    return Err(FunctionError::call(
                        "pattern did not match any part of the given string",
                    ));
                };
                Ok(capture_value(&expression, &captures, &args.result_type))
            },
        },
        "regexall" => Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: Some(|args| result_type(args).map(Type::list)),
            run: |args| {
                let expression = compiled(args)?;
                let text = super::text(args, 1);
                let element = args.result_type.element().cloned().unwrap_or(Type::String);
                let matches = expression
                    .captures_iter(&text)
                    .map(|captures| capture_value(&expression, &captures, &element))
                    .collect();
                Ok(Value::list(element, matches))
            },
        },
        _ => return None,
    })
}

/// Compiles a pattern as Go's `regexp.Compile` would accept it.
pub(super) fn compile(pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|error| format!("error parsing regexp: {error}"))
}

fn compiled(args: &Arguments) -> Result<Regex, FunctionError> {
    compile(&super::text(args, 0))
        .map_err(|error| FunctionError::argument(0, format!("error parsing pattern: {error}")))
}

fn result_type(args: &[Value]) -> Result<Type, FunctionError> {
    // cty: an unknown pattern gives a result of unknown type.
    let Some(pattern) = args.first().filter(|pattern| pattern.is_known()) else {
        return Ok(Type::Dynamic);
    };
    let pattern = pattern.as_str().unwrap_or_default();
    let expression = compile(pattern)
        .map_err(|error| FunctionError::argument(0, format!("error parsing pattern: {error}")))?;
    let names: Vec<Option<&str>> = expression.capture_names().skip(1).collect();
    let n_unnamed = names.iter().filter(|name| name.is_none()).count();
    let named: Vec<&str> = names.iter().flatten().copied().collect();
    match (n_unnamed, named.len()) {
        (0, 0) => Ok(Type::String),
        (0, _) => Ok(Type::object(
            named
                .into_iter()
                .map(|name| (name.to_owned(), Type::String))
                .collect(),
        )),
        (_, 0) => Ok(Type::Tuple(vec![Type::String; n_unnamed])),
        _ => Err(FunctionError::argument(
            0,
            "invalid regexp pattern: cannot mix both named and unnamed capture groups",
        )),
    }
}

fn capture_value(expression: &Regex, captures: &regex::Captures, ty: &Type) -> Value {
    let group = |index: usize| match captures.get(index) {
        Some(found) => Value::string(found.as_str()),
        None => Value::null(Type::String),
    };
    match ty {
        Type::Tuple(elements) => Value::tuple((1..=elements.len()).map(group).collect()),
        Type::Object(_) => {
            let mut attributes = BTreeMap::new();
            for (index, name) in expression.capture_names().enumerate() {
                if let Some(name) = name {
                    attributes.insert(name.to_owned(), group(index));
                }
            }
            Value::object(attributes)
        }
        _ => group(0),
    }
}

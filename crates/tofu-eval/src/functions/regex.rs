//! `regex` and `regexall`, and the pattern compiler `replace` shares. Go's
//! RE2 syntax and Rust's `regex` crate agree on the language (both are
//! RE2 without backtracking); what a pattern captures decides the result
//! type: a string without groups, a tuple of strings for unnamed groups,
//! an object for named ones, never both.
//!
//! Where the two parsers differ on a valid pattern, the pattern is
//! rewritten before it is compiled: a `{` that starts no counted
//! repetition is a literal for Go (`with_literal_braces`).
//!
//! Left out: Go's wording of syntax errors (the message here is the
//! crate's), and Go's `\Q…\E` quoting.

use std::collections::BTreeMap;

use regex::Regex;

use super::implementation::{Arguments, FunctionError, Implementation, PLAIN};
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
                let text = super::implementation::text(args, 1);
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
                let text = super::implementation::text(args, 1);
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
    Regex::new(&with_literal_braces(pattern))
        .map_err(|error| format!("error parsing regexp: {error}"))
}

/// `pattern` with every `{` that Go's parser reads as a literal escaped:
/// Go reads `{` as a repetition only when `{n}`, `{n,}` or `{n,m}` follows
/// (no blanks, no leading zeros), and as itself otherwise, where the
/// regex crate refuses the pattern. Escapes (`\{`, `\x{…}`, `\p{…}`) and
/// character classes are copied as they are.
fn with_literal_braces(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut in_class = false;
    let mut chars = pattern.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                let Some((_, escaped)) = chars.next() else {
                    break;
                };
                out.push(escaped);
                if matches!(escaped, 'x' | 'p' | 'P')
                    && chars.peek().is_some_and(|&(_, c)| c == '{')
                {
                    for (_, c) in chars.by_ref() {
                        out.push(c);
                        if c == '}' {
                            break;
                        }
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` first in the class (after a `^`) is a member.
                if chars.peek().is_some_and(|&(_, c)| c == '^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek().is_some_and(|&(_, c)| c == ']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            '{' if !in_class && !is_go_repetition(pattern.get(at..).unwrap_or_default()) => {
                out.push_str("\\{");
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether `text`, starting with `{`, is a counted repetition for Go's
/// parser (`parseRepeat`).
fn is_go_repetition(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('{') else {
        return false;
    };
    let Some(rest) = go_int(rest) else {
        return false;
    };
    let rest = match rest.strip_prefix(',') {
        Some(after_comma) if after_comma.starts_with('}') => after_comma,
        Some(after_comma) => match go_int(after_comma) {
            Some(rest) => rest,
            None => return false,
        },
        None => rest,
    };
    rest.starts_with('}')
}

/// What follows a number as Go's `parseInt` reads one: digits, no
/// leading zero before another digit.
fn go_int(text: &str) -> Option<&str> {
    let n_digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if n_digits == 0 || (n_digits > 1 && text.starts_with('0')) {
        return None;
    }
    text.get(n_digits..)
}

fn compiled(args: &Arguments) -> Result<Regex, FunctionError> {
    compile(&super::implementation::text(args, 0))
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
                .map(|name| (name.to_owned(), Type::String)),
        )),
        (_, 0) => Ok(Type::tuple(vec![Type::String; n_unnamed])),
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

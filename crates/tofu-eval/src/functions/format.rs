//! `format` and `formatlist`: cty's `FormatFunc` and `FormatListFunc`,
//! their verb scanner (`format_fsm.rl`) with its error offsets, and the Go
//! `fmt` behaviour they lean on for numbers (`big.Int` and `big.Float`
//! `Format`: signs, `#` prefixes, width, precision, zero padding).
//!
//! `%v` prints strings and numbers as they are and anything else as JSON
//! (`%#v` always as JSON); `%s` and `%q` convert to a string first, a
//! precision counting grapheme clusters; width counts grapheme clusters.

use num_bigint::BigInt;
use num_traits::Signed;
use unicode_segmentation::UnicodeSegmentation;

use super::implementation::{Accepts, Arguments, FunctionError, Implementation};
use crate::convert::convert;
use crate::types::Type;
use crate::value::{Value, ValueKind};

const ARGUMENTS: Accepts = Accepts {
    null: true,
    unknown: true,
    dynamic: true,
    marked: false,
};

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let run: fn(&Arguments) -> Result<Value, FunctionError> = match name {
        "format" => format_function,
        "formatlist" => formatlist_function,
        _ => return None,
    };
    Some(Implementation {
        parameters: &[],
        variadic: ARGUMENTS,
        result_type: None,
        run,
    })
}

fn format_function(args: &Arguments) -> Result<Value, FunctionError> {
    let format = super::implementation::text(args, 0);
    let values = args.values.get(1..).unwrap_or_default();
    if values.iter().any(|value| !value.is_wholly_known()) {
        return Ok(Value::unknown_not_null(Type::String));
    }
    format_values(&format, values).map(Value::string)
}

fn formatlist_function(args: &Arguments) -> Result<Value, FunctionError> {
    let format = super::implementation::text(args, 0);
    let values = args.values.get(1..).unwrap_or_default();
    if values.is_empty() {
        let text = format_values(&format, values)?;
        return Ok(Value::list(Type::String, vec![Value::string(text)]));
    }
    let mut length: Option<(usize, usize)> = None;
    for (index, value) in values.iter().enumerate() {
        let ty = value.ty();
        let sequence = (ty.is_list() || ty.is_set() || ty.is_tuple()) && !value.is_null();
        if sequence {
            if !value.is_known() {
                return Ok(Value::unknown_not_null(Type::list(Type::String)));
            }
            let this = value.length().unwrap_or(0);
            match length {
                None => length = Some((this, index)),
                Some((first, chooser)) if first != this => {
                    return Err(FunctionError::argument(
                        index + 1,
                        format!(
                            "argument {} has length {this}, which is inconsistent with argument {} of length {first}",
                            index + 1,
                            chooser + 1
                        ),
                    ))
                }
                Some(_) => {}
            }
        } else if !value.is_known() && value.ty() == Type::Dynamic {
            return Ok(Value::unknown_not_null(Type::list(Type::String)));
        }
    }
    let n_results = length.map_or(1, |(length, _)| length);
    let mut results = Vec::with_capacity(n_results);
    for iteration in 0..n_results {
        let row: Vec<Value> = values
            .iter()
            .map(|value| match value.items() {
                Some(items) if !value.is_null() => items
                    .get(iteration)
                    .cloned()
                    .unwrap_or_else(Value::dynamic_null),
                _ => value.clone(),
            })
            .collect();
        if row.iter().any(|value| !value.is_wholly_known()) {
            results.push(Value::unknown_not_null(Type::String));
            continue;
        }
        let text = format_values(&format, &row).map_err(|error| {
            FunctionError::call(format!(
                "error on format iteration {iteration}: {}",
                error.message
            ))
        })?;
        results.push(Value::string(text));
    }
    Ok(Value::list(Type::String, results))
}

/// One verb as the scanner read it.
#[derive(Default)]
struct Verb {
    raw: String,
    offset: usize,
    argument: usize,
    mode: char,
    zero: bool,
    sharp: bool,
    plus: bool,
    minus: bool,
    space: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

/// cty's `formatFSM`: the text with every verb replaced.
fn format_values(format: &str, values: &[Value]) -> Result<String, FunctionError> {
    let bytes = format.as_bytes();
    let mut out = String::new();
    let mut next_argument = 1;
    let mut highest = 0;
    let mut position = 0;
    let call_error = |message: String| FunctionError::call(message);
    while position < bytes.len() {
        let Some(rest) = format.get(position..) else {
            break;
        };
        if !rest.starts_with('%') {
            let next = rest.find('%').map_or(format.len(), |at| position + at);
            out.push_str(format.get(position..next).unwrap_or_default());
            position = next;
            continue;
        }
        if rest.starts_with("%%") {
            out.push('%');
            position += 2;
            continue;
        }
        let start = position;
        position += 1;
        let mut verb = Verb {
            argument: next_argument,
            offset: start,
            ..Verb::default()
        };
        let at = |position: usize| bytes.get(position).copied();
        while let Some(flag) = at(position) {
            match flag {
                b'0' => verb.zero = true,
                b'#' => verb.sharp = true,
                b'-' => verb.minus = true,
                b'+' => verb.plus = true,
                b' ' => verb.space = true,
                _ => break,
            }
            position += 1;
        }
        if let Some(b'1'..=b'9') = at(position) {
            verb.width = Some(read_decimal(bytes, &mut position));
        }
        if at(position) == Some(b'.') {
            position += 1;
            verb.precision = Some(read_decimal(bytes, &mut position));
        }
        if at(position) == Some(b'[') {
            position += 1;
            if !matches!(at(position), Some(b'1'..=b'9')) {
                return Err(bad_character(format, position));
            }
            let argument = read_decimal(bytes, &mut position);
            if at(position) != Some(b']') {
                return Err(bad_character(format, position));
            }
            position += 1;
            verb.argument = argument;
        }
        match at(position) {
            Some(mode) if mode.is_ascii_alphabetic() => {
                verb.mode = char::from(mode);
                position += 1;
            }
            None => {
                return Err(call_error(format!(
                    "invalid format string starting at offset {position}"
                )))
            }
            Some(_) => return Err(bad_character(format, position)),
        }
        verb.raw = format.get(start..position).unwrap_or_default().to_owned();
        highest = highest.max(verb.argument);
        append(&verb, &mut out, values)?;
        next_argument = verb.argument + 1;
    }
    if highest < values.len() {
        let first_bad = highest + 1;
        let message = if highest == 0 {
            "too many arguments; no verbs in format string".to_owned()
        } else {
            format!("too many arguments; only {highest} used by format string")
        };
        return Err(FunctionError::argument(first_bad, message));
    }
    Ok(out)
}

/// The decimal digits at `position` (none: zero), moving past them.
fn read_decimal(bytes: &[u8], position: &mut usize) -> usize {
    let mut value = 0usize;
    while let Some(digit @ b'0'..=b'9') = bytes.get(*position).copied() {
        value = value
            .saturating_mul(10)
            .saturating_add(usize::from(digit - b'0'));
        *position += 1;
    }
    value
}

fn bad_character(format: &str, position: usize) -> FunctionError {
    let character = format
        .get(position..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or('\u{fffd}');
    FunctionError::call(format!(
        "unrecognized format character {} at offset {position}",
        go_rune(character)
    ))
}

/// Go's `%q` of a rune.
fn go_rune(character: char) -> String {
    let quoted = tofu_syntax::go_text::go_quote(&character.to_string());
    let inner = quoted
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or_default();
    let inner = if inner == "'" { "\\'" } else { inner };
    let inner = inner.replace("\\\"", "\"");
    format!("'{inner}'")
}

/// cty's `formatAppend`.
fn append(verb: &Verb, out: &mut String, values: &[Value]) -> Result<(), FunctionError> {
    let Some(value) = verb
        .argument
        .checked_sub(1)
        .and_then(|index| values.get(index))
    else {
        return Err(FunctionError::call(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            tofu_syntax::go_text::go_quote(&verb.raw),
            verb.offset,
            verb.argument,
            values.len()
        )));
    };
    let unsupported = |message: &str| {
        FunctionError::call(format!(
            "unsupported value for {} at {}: {message}",
            tofu_syntax::go_text::go_quote(&verb.raw),
            verb.offset
        ))
    };
    if verb.mode != 'v' && value.is_null() {
        return Err(unsupported("null value cannot be formatted"));
    }
    match verb.mode {
        'v' => {
            let text = match &value.kind {
                ValueKind::String(text) if !verb.sharp => text.clone(),
                ValueKind::Number(number) if !verb.sharp => number.text('g', -1),
                _ => super::encoding::to_json(value),
            };
            out.push_str(&pad(verb, &text));
        }
        't' => {
            let flag = convert(value, &Type::Bool).map_err(|error| unsupported(&error.message))?;
            out.push_str(if flag.as_bool() == Some(true) {
                "true"
            } else {
                "false"
            });
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let number =
                convert(value, &Type::Number).map_err(|error| unsupported(&error.message))?;
            let Some(number) = number.as_number() else {
                return Err(unsupported("a number is required"));
            };
            if matches!(verb.mode, 'e' | 'E' | 'f' | 'g' | 'G') {
                out.push_str(&float_text(verb, number));
            } else {
                let Some(whole) = number.truncate().filter(|_| number.is_integer()) else {
                    return Err(unsupported("an integer is required"));
                };
                out.push_str(&integer_text(verb, &whole));
            }
        }
        's' | 'q' => {
            let text =
                convert(value, &Type::String).map_err(|error| unsupported(&error.message))?;
            let mut text = text.as_str().unwrap_or_default().to_owned();
            if let Some(precision) = verb.precision.filter(|precision| *precision > 0) {
                text = text.graphemes(true).take(precision).collect();
            }
            let text = if verb.mode == 'q' {
                super::encoding::to_json(&Value::string(text))
            } else {
                text
            };
            out.push_str(&pad(verb, &text));
        }
        mode => {
            return Err(FunctionError::call(format!(
                "unsupported format verb {} in {} at offset {}",
                go_rune(mode),
                tofu_syntax::go_text::go_quote(&verb.raw),
                verb.offset
            )))
        }
    }
    Ok(())
}

/// cty's `formatPadWidth`, in grapheme clusters.
fn pad(verb: &Verb, text: &str) -> String {
    let Some(width) = verb.width else {
        return text.to_owned();
    };
    let length = text.graphemes(true).count();
    if length >= width {
        return text.to_owned();
    }
    let pads = if verb.zero { "0" } else { " " }.repeat(width - length);
    if verb.minus {
        format!("{text}{pads}")
    } else {
        format!("{pads}{text}")
    }
}

/// Go's `big.Int.Format`.
fn integer_text(verb: &Verb, whole: &BigInt) -> String {
    let radix = match verb.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let sign = if whole.is_negative() {
        "-"
    } else if verb.plus {
        "+"
    } else if verb.space {
        " "
    } else {
        ""
    };
    let prefix = match (verb.sharp, verb.mode) {
        (true, 'b') => "0b",
        (true, 'o') => "0",
        (true, 'x') => "0x",
        (true, 'X') => "0X",
        _ => "",
    };
    let mut digits = whole.magnitude().to_str_radix(radix);
    if verb.mode == 'X' {
        digits = digits.to_uppercase();
    }
    let mut zeros = 0;
    if let Some(precision) = verb.precision {
        if digits.len() < precision {
            zeros = precision - digits.len();
        } else if digits == "0" && precision == 0 {
            return String::new();
        }
    }
    let length = sign.len() + prefix.len() + zeros + digits.len();
    let (mut left, mut right) = (0, 0);
    if let Some(width) = verb.width.filter(|width| length < *width) {
        let extra = width - length;
        if verb.minus {
            right = extra;
        } else if verb.zero && verb.precision.is_none() {
            zeros = extra;
        } else {
            left = extra;
        }
    }
    format!(
        "{}{sign}{prefix}{}{digits}{}",
        " ".repeat(left),
        "0".repeat(zeros),
        " ".repeat(right)
    )
}

/// Go's `big.Float.Format` for `e`, `E`, `f`, `g`, `G`.
fn float_text(verb: &Verb, number: &crate::number::Number) -> String {
    let lower = verb.mode.to_ascii_lowercase();
    let digits = match verb.precision {
        Some(precision) => i64::try_from(precision).unwrap_or(i64::MAX),
        None if lower == 'g' => -1,
        None => 6,
    };
    let mut text = number.text(lower, digits);
    if verb.mode.is_ascii_uppercase() && !number.is_infinite() {
        text = text.to_uppercase();
    }
    let (sign, body) = if let Some(body) = text.strip_prefix('-') {
        ("-", body.to_owned())
    } else if let Some(body) = text.strip_prefix('+') {
        (if verb.space { " " } else { "+" }, body.to_owned())
    } else if verb.plus {
        ("+", text.clone())
    } else if verb.space {
        (" ", text.clone())
    } else {
        ("", text.clone())
    };
    let padding = verb
        .width
        .filter(|width| *width > sign.len() + body.len())
        .map_or(0, |width| width - sign.len() - body.len());
    if verb.zero && !number.is_infinite() {
        format!("{sign}{}{body}", "0".repeat(padding))
    } else if verb.minus {
        format!("{sign}{body}{}", " ".repeat(padding))
    } else {
        format!("{}{sign}{body}", " ".repeat(padding))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(text: &str, values: &[Value]) -> String {
        match format_values(text, values) {
            Ok(text) => text,
            Err(error) => format!("error: {}", error.message),
        }
    }

    #[test]
    fn verbs_flags_width_and_precision_as_go_prints_them() {
        let pi = Value::number(crate::number::Number::parse("3.14159").unwrap());
        assert_eq!(
            format("%s-%05.2f", &[Value::string("a"), pi.clone()]),
            "a-03.14"
        );
        assert_eq!(format("%d items", &[Value::int(3)]), "3 items");
        assert_eq!(
            format(
                "%+d|%x|%#X|%5d|%-5d|",
                &[
                    Value::int(5),
                    Value::int(255),
                    Value::int(255),
                    Value::int(7),
                    Value::int(7)
                ]
            ),
            "+5|ff|0XFF|    7|7    |"
        );
        assert_eq!(format("%e", std::slice::from_ref(&pi)), "3.141590e+00");
        assert_eq!(
            format(
                "%05d|%-05d|%05.3d",
                &[Value::int(-42), Value::int(42), Value::int(42)]
            ),
            "-0042|42   |  042"
        );
        assert_eq!(
            format("%v %v", &[pi, Value::tuple(vec![Value::int(1)])]),
            "3.14159 [1]"
        );
        assert_eq!(format("%q", &[Value::string("a\"b")]), "\"a\\\"b\"");
        assert_eq!(
            format("%.2s|%3s", &[Value::string("hello"), Value::string("x")]),
            "he|  x"
        );
        assert_eq!(
            format("%[2]s %[1]s", &[Value::string("a"), Value::string("b")]),
            "b a"
        );
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            format("%d", &[Value::string("x")]),
            "error: unsupported value for \"%d\" at 0: a number is required"
        );
        assert_eq!(
            format(
                "%d",
                &[Value::number(crate::number::Number::parse("1.5").unwrap())]
            ),
            "error: unsupported value for \"%d\" at 0: an integer is required"
        );
        assert_eq!(
            format("ab %", &[]),
            "error: invalid format string starting at offset 4"
        );
        assert_eq!(
            format("%s", &[]),
            "error: not enough arguments for \"%s\" at 0: need index 1 but have 0 total"
        );
        assert_eq!(
            format("x", &[Value::int(1)]),
            "error: too many arguments; no verbs in format string"
        );
        assert_eq!(
            format("%z", &[Value::int(1)]),
            "error: unsupported format verb 'z' in \"%z\" at offset 0"
        );
    }
}

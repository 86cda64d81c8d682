//! The encoding functions: base64 (`base64encode`, `base64decode`,
//! `textencodebase64`/`textdecodebase64` in the encodings of OpenTofu's
//! IANA index, `text_encoding.rs`), URLs (`urlencode` as
//! Go's `url.QueryEscape`, `urldecode`), JSON (`jsonencode` as cty writes
//! it, Go's HTML-safe escapes included; `jsondecode` with cty's types:
//! objects, tuples, 512-bit numbers) and `csvdecode`.
//!
//! `base64gunzip` reads gzip as Go does (`gunzip.rs`); `base64gzip` writes
//! the bytes Go's compressor writes (`gzip.rs`); `jsondecode` reads JSON as
//! Go's decoder does (`json_decode.rs`).
//!
//! `yamlencode` and `yamldecode` live in `yaml.rs`.

use super::gunzip::GunzipError;
use super::implementation::{Accepts, Arguments, FunctionError, Implementation, PLAIN};
use super::json_decode::{self, JsonDecodeError};
use super::text_encoding::{self, Failure};
use crate::types::Type;
use crate::value::{Value, ValueKind};
use tofu_syntax::go_text::go_quote;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let simple = Implementation::simple;
    Some(match name {
        "base64encode" => simple(|args| {
            Ok(Value::string(base64_encode(
                super::implementation::text(args, 0).as_bytes(),
            )))
        }),
        "base64decode" => Implementation {
            parameters: &[Accepts {
                marked: true,
                ..PLAIN
            }],
            variadic: PLAIN,
            result_type: None,
            run: base64decode,
        },
        "base64gzip" => simple(|args| {
            let compressed = super::gzip::gzip(super::implementation::text(args, 0).as_bytes());
            Ok(Value::string(base64_encode(&compressed)))
        }),
        "base64gunzip" => Implementation {
            parameters: &[Accepts {
                marked: true,
                ..PLAIN
            }],
            variadic: PLAIN,
            result_type: None,
            run: base64gunzip,
        },
        "textencodebase64" => simple(|args| {
            let found = find_encoding(&super::implementation::text(args, 1))?;
            match found.encode(&super::implementation::text(args, 0)) {
                Ok(bytes) => Ok(Value::string(base64_encode(&bytes))),
                Err(Failure::NotImplemented) => Ok(Value::unknown(Type::String)),
                Err(Failure::NotRepresented) => Err(FunctionError::argument(
                    0,
                    format!(
                        "the given string contains characters that cannot be represented in {}",
                        found.name
                    ),
                )),
            }
        }),
        "textdecodebase64" => simple(|args| {
            let found = find_encoding(&super::implementation::text(args, 1))?;
            let encoded = super::implementation::text(args, 0);
            let decoded = base64_decode(&encoded).map_err(|offset| {
                FunctionError::argument(
                    0,
                    format!("the given value is has an invalid base64 symbol at offset {offset}"),
                )
            })?;
            match found.decode(&decoded) {
                Ok(text) => Ok(Value::string(text)),
                Err(Failure::NotImplemented) => Ok(Value::unknown(Type::String)),
                Err(Failure::NotRepresented) => Err(FunctionError::argument(
                    0,
                    format!(
                        "the given string contains symbols that are not defined for {}",
                        found.name
                    ),
                )),
            }
        }),
        "urlencode" => simple(|args| {
            Ok(Value::string(query_escape(&super::implementation::text(
                args, 0,
            ))))
        }),
        "urldecode" => simple(|args| {
            let text = super::implementation::text(args, 0);
            query_unescape(&text)
                .map(Value::string)
                .map_err(|error| FunctionError::call(format!("failed to decode URL '': {error}")))
        }),
        "jsonencode" => Implementation {
            parameters: &[Accepts {
                null: true,
                unknown: true,
                dynamic: true,
                marked: false,
            }],
            variadic: PLAIN,
            result_type: None,
            run: |args| {
                let value = args.get(0);
                if !value.is_wholly_known() {
                    return Ok(Value::unknown(Type::String));
                }
                let mut out = String::new();
                json_encode(&value, &mut out);
                Ok(Value::string(out))
            },
        },
        "jsondecode" => Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: Some(|args| {
                // cty: an unknown string decodes to a value of unknown type.
                let Some(text) = args.first().filter(|text| text.is_known()) else {
                    return Ok(Type::Dynamic);
                };
                json_decode(text.as_str().unwrap_or_default()).map(|value| value.ty())
            }),
            run: |args| json_decode(&super::implementation::text(args, 0)),
        },
        "csvdecode" => simple(csvdecode),
        _ => return None,
    })
}

/// The encoding `name` names in OpenTofu's index, or its error.
fn find_encoding(name: &str) -> Result<text_encoding::Found, FunctionError> {
    text_encoding::find(name).ok_or_else(|| {
        FunctionError::argument(
            1,
            format!(
                "{} is not a supported IANA encoding name or alias in this OpenTofu version",
                go_quote(name)
            ),
        )
    })
}

const BASE64_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding (Go's `base64.StdEncoding`).
pub(super) fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b0 = u32::from(chunk.first().copied().unwrap_or(0));
        let b1 = u32::from(chunk.get(1).copied().unwrap_or(0));
        let b2 = u32::from(chunk.get(2).copied().unwrap_or(0));
        let triple = (b0 << 16) | (b1 << 8) | b2;
        let symbol = |shift: u32| {
            char::from(
                BASE64_ALPHABET
                    .get(usize::try_from((triple >> shift) & 63).unwrap_or(0))
                    .copied()
                    .unwrap_or(b'A'),
            )
        };
        out.push(symbol(18));
        out.push(symbol(12));
        out.push(if chunk.len() > 1 { symbol(6) } else { '=' });
        out.push(if chunk.len() > 2 { symbol(0) } else { '=' });
    }
    out
}

/// Go's `base64.StdEncoding.DecodeString`: padding required, `\r` and
/// `\n` skipped; the error is the offset of the first bad symbol.
pub(super) fn base64_decode(text: &str) -> Result<Vec<u8>, usize> {
    let symbols: Vec<(usize, u8)> = text
        .bytes()
        .enumerate()
        .filter(|(_, b)| *b != b'\r' && *b != b'\n')
        .collect();
    let mut out = Vec::with_capacity(symbols.len() / 4 * 3);
    for (quad_index, quad) in symbols.chunks(4).enumerate() {
        let mut values = [0u32; 4];
        let mut n_data = 0;
        for (position, (offset, symbol)) in quad.iter().enumerate() {
            if *symbol == b'=' {
                // Padding only in the last two places of the last quad.
                let is_last_quad = (quad_index + 1) * 4 >= symbols.len();
                let rest_padding = quad
                    .get(position..)
                    .unwrap_or_default()
                    .iter()
                    .all(|(_, b)| *b == b'=');
                if !is_last_quad || position < 2 || !rest_padding || quad.len() != 4 {
                    return Err(*offset);
                }
                break;
            }
            let Some(value) = BASE64_ALPHABET.iter().position(|b| b == symbol) else {
                return Err(*offset);
            };
            if let Some(slot) = values.get_mut(position) {
                *slot = u32::try_from(value).unwrap_or(0);
            }
            n_data += 1;
        }
        if quad.len() < 4 {
            let offset = quad.last().map_or(text.len(), |(offset, _)| offset + 1);
            return Err(if n_data == 1 { offset - 1 } else { offset });
        }
        let [a, b, c, d] = values;
        let triple = (a << 18) | (b << 12) | (c << 6) | d;
        let bytes = [(triple >> 16) as u8, (triple >> 8) as u8, triple as u8];
        let n_bytes = match n_data {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => 0,
        };
        out.extend(bytes.iter().take(n_bytes));
    }
    Ok(out)
}

fn base64decode(args: &Arguments) -> Result<Value, FunctionError> {
    let (value, marks) = args.get(0).unmark();
    let text = value.as_str().unwrap_or_default().to_owned();
    let shown = super::implementation::redacted(&text, marks);
    let decoded = base64_decode(&text)
        .map_err(|_| FunctionError::call(format!("failed to decode base64 data {shown}")))?;
    let decoded = String::from_utf8(decoded).map_err(|_| {
        FunctionError::call("the result of decoding the provided string is not valid UTF-8")
    })?;
    Ok(Value::string(decoded).with_marks(marks))
}

/// OpenTofu's `Base64GunzipFunc`: base64, then gzip; the bytes become the
/// string as they are (Go's `string(bytes)` keeps invalid UTF-8, which
/// cty then normalises; here invalid sequences become U+FFFD).
fn base64gunzip(args: &Arguments) -> Result<Value, FunctionError> {
    let (value, marks) = args.get(0).unmark();
    let text = value.as_str().unwrap_or_default();
    let decoded = base64_decode(text).map_err(|_| {
        FunctionError::call(format!(
            "failed to decode base64 data {}",
            super::implementation::redacted(text, marks)
        ))
    })?;
    let bytes = match super::gunzip::gunzip(&decoded) {
        Ok(bytes) => bytes,
        Err(GunzipError::Open(message)) => {
            return Err(FunctionError::call(format!(
                "failed to gunzip bytestream: {message}"
            )))
        }
        Err(GunzipError::Read(message)) => {
            return Err(FunctionError::call(format!(
                "failed to read gunzip raw data: {message}"
            )))
        }
        Err(GunzipError::TooLarge) => return Ok(Value::unknown(Type::String).with_marks(marks)),
    };
    Ok(Value::string(String::from_utf8_lossy(&bytes)).with_marks(marks))
}

/// Go's `url.QueryEscape`: unreserved bytes kept, space as `+`.
fn query_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(char::from(byte));
            }
            b' ' => out.push('+'),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

/// Go's `url.QueryUnescape`.
fn query_unescape(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        match byte {
            b'%' => {
                let hex = bytes.get(index + 1..index + 3).and_then(|pair| {
                    std::str::from_utf8(pair)
                        .ok()
                        .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                });
                let Some(decoded) = hex else {
                    let escape: String = text
                        .get(index..(index + 3).min(text.len()))
                        .unwrap_or_default()
                        .to_owned();
                    return Err(format!("invalid URL escape {}", go_quote(&escape)));
                };
                out.push(decoded);
                index += 3;
            }
            b'+' => {
                out.push(b' ');
                index += 1;
            }
            other => {
                out.push(other);
                index += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// `value` as cty's JSON encoding writes it.
pub(super) fn to_json(value: &Value) -> String {
    let mut out = String::new();
    json_encode(value, &mut out);
    out
}

/// cty's JSON encoding: objects and maps with sorted keys, numbers in
/// their shortest form, strings as Go's `json.Marshal` writes them.
fn json_encode(value: &Value, out: &mut String) {
    match &value.kind {
        ValueKind::Null(_) | ValueKind::Unknown(_) => out.push_str("null"),
        ValueKind::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        ValueKind::Number(number) => out.push_str(&number.text('f', -1)),
        ValueKind::String(text) => json_string(text, out),
        ValueKind::List { items, .. } | ValueKind::Set { items, .. } | ValueKind::Tuple(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                json_encode(item, out);
            }
            out.push(']');
        }
        ValueKind::Map { entries, .. } | ValueKind::Object(entries) => {
            out.push('{');
            for (index, (key, item)) in entries.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                json_string(key, out);
                out.push(':');
                json_encode(item, out);
            }
            out.push('}');
        }
    }
}

fn json_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_decode(text: &str) -> Result<Value, FunctionError> {
    json_decode::decode(text).map_err(|error| match error {
        JsonDecodeError::Syntax(message) => FunctionError::call(message),
        JsonDecodeError::InvalidNumber => FunctionError::call("a number is required"),
    })
}

fn csvdecode(args: &Arguments) -> Result<Value, FunctionError> {
    let text = super::implementation::text(args, 0);
    let records = parse_csv(&text).map_err(FunctionError::call)?;
    let mut rows = records.into_iter();
    let Some(header) = rows.next() else {
        return Err(FunctionError::call("missing header line"));
    };
    for (index, name) in header.iter().enumerate() {
        if header.iter().take(index).any(|earlier| earlier == name) {
            return Err(FunctionError::call(format!(
                "duplicate column name {}",
                go_quote(name)
            )));
        }
    }
    let object_type = Type::object(header.iter().map(|name| (name.clone(), Type::String)));
    let mut objects = Vec::new();
    for (line_index, row) in rows.enumerate() {
        if row.len() != header.len() {
            return Err(FunctionError::call(format!(
                "CSV parse error on line {}: wrong number of fields",
                line_index + 2
            )));
        }
        objects.push(Value::object(
            header
                .iter()
                .cloned()
                .zip(row.into_iter().map(Value::string))
                .collect(),
        ));
    }
    Ok(Value::list(object_type, objects))
}

/// Go's `encoding/csv` reader with default options: comma-separated,
/// double-quoted fields with `""` escapes, `\r\n` as `\n`, blank lines
/// skipped.
fn parse_csv(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut records = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        if chars.peek() == Some(&'\n') || chars.peek() == Some(&'\r') {
            if chars.next() == Some('\n') {
                line += 1;
            }
            continue;
        }
        let mut record = Vec::new();
        loop {
            let mut field = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                loop {
                    match chars.next() {
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            field.push('"');
                        }
                        Some('"') => break,
                        Some(c) => {
                            if c == '\n' {
                                line += 1;
                            }
                            field.push(c);
                        }
                        None => {
                            return Err(format!(
                                "CSV parse error on line {line}: extraneous or missing \" in quoted-field"
                            ))
                        }
                    }
                }
                match chars.peek() {
                    Some(',') | Some('\n') | Some('\r') | None => {}
                    Some(_) => {
                        return Err(format!(
                        "CSV parse error on line {line}: extraneous or missing \" in quoted-field"
                    ))
                    }
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c == ',' || c == '\n' || c == '\r' {
                        break;
                    }
                    if c == '"' {
                        return Err(format!(
                            "CSV parse error on line {line}: bare \" in non-quoted-field"
                        ));
                    }
                    field.push(c);
                    chars.next();
                }
            }
            record.push(field);
            match chars.next() {
                Some(',') => continue,
                Some('\r') => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    line += 1;
                    break;
                }
                Some('\n') => {
                    line += 1;
                    break;
                }
                _ => break,
            }
        }
        records.push(record);
    }
    Ok(records)
}

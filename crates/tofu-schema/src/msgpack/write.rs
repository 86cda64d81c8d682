//! Writing a value as cty's `msgpack.Marshal` does, with the msgpack forms
//! its encoder (vmihailenco/msgpack v5, compact integers, no compact
//! floats) picks: the shortest integer, string, array and map headers,
//! float 64 for floats, binary for a dynamic value's type.

use std::collections::BTreeMap;

use tofu_eval::{Number, Type, Unknown, Value, ValueKind};

use super::format::MsgpackError;
use super::format::{
    PathStep, ValuePath, REFINED_UNKNOWN_EXTENSION, REFINEMENT_LENGTH_LOWER,
    REFINEMENT_LENGTH_UPPER, REFINEMENT_NULLNESS, REFINEMENT_NUMBER_LOWER, REFINEMENT_NUMBER_UPPER,
    REFINEMENT_STRING_PREFIX,
};
use crate::types::type_to_json;

/// The longest string prefix an unknown's refinements keep (cty cuts
/// longer ones to 255 bytes so the refinements stay under its 1 KiB limit).
const LONGEST_PREFIX: usize = 256;

pub(super) fn encode(value: &Value, ty: &Type) -> Result<Vec<u8>, MsgpackError> {
    let mut out = Vec::new();
    write_value(&mut out, value, ty, &mut ValuePath::default())?;
    Ok(out)
}

fn write_value(
    out: &mut Vec<u8>,
    value: &Value,
    ty: &Type,
    path: &mut ValuePath,
) -> Result<(), MsgpackError> {
    if *ty == Type::Dynamic {
        let own = value.ty();
        if own != Type::Dynamic {
            // [type as JSON, the value written as its own type]
            write_array_length(out, 2);
            write_binary(out, type_to_json(&own).as_bytes());
            return write_value(out, value, &own, path);
        }
    }
    match (&value.kind, ty) {
        (ValueKind::Unknown(unknown), _) => {
            write_unknown(out, unknown, ty);
            Ok(())
        }
        (ValueKind::Null(_), _) => {
            out.push(0xc0);
            Ok(())
        }
        (ValueKind::String(text), Type::String) => {
            write_string(out, text);
            Ok(())
        }
        (ValueKind::Number(number), Type::Number) => {
            write_number(out, &NumberForm::of(number));
            Ok(())
        }
        (ValueKind::Bool(flag), Type::Bool) => {
            out.push(if *flag { 0xc3 } else { 0xc2 });
            Ok(())
        }
        (
            ValueKind::List { items, .. } | ValueKind::Set { items, .. } | ValueKind::Tuple(items),
            Type::List(element) | Type::Set(element),
        ) => {
            write_array_length(out, items.len());
            for (index, item) in items.iter().enumerate() {
                path.within(PathStep::Index(index), |path| {
                    write_value(out, item, element, path)
                })?;
            }
            Ok(())
        }
        (
            ValueKind::List { items, .. } | ValueKind::Set { items, .. } | ValueKind::Tuple(items),
            Type::Tuple(elements),
        ) => {
            if items.len() != elements.len() {
                return Err(path.error(format!(
                    "a tuple of {} elements is required, not {}",
                    elements.len(),
                    items.len()
                )));
            }
            write_array_length(out, items.len());
            for (index, (item, element)) in items.iter().zip(elements.iter()).enumerate() {
                path.within(PathStep::Index(index), |path| {
                    write_value(out, item, element, path)
                })?;
            }
            Ok(())
        }
        (ValueKind::Map { entries, .. } | ValueKind::Object(entries), Type::Map(element)) => {
            write_map(out, entries, element, path)
        }
        (ValueKind::Object(attributes), Type::Object(object)) => {
            if let Some(extra) = attributes.keys().find(|name| !object.has_attribute(name)) {
                return Err(path.error(format!("unsupported attribute {extra:?}")));
            }
            write_map_length(out, object.len());
            for (name, attribute_type) in object.attributes() {
                write_string(out, name);
                match attributes.get(name.as_ref()) {
                    Some(attribute) => path
                        .within(PathStep::Attribute(name.to_string()), |path| {
                            write_value(out, attribute, attribute_type, path)
                        })?,
                    // Not set: null, as an argument left out is.
                    None => out.push(0xc0),
                }
            }
            Ok(())
        }
        (_, ty) => Err(path.error(format!(
            "a {} value where a {} is required",
            value.ty().friendly_name(),
            ty.friendly_name()
        ))),
    }
}

fn write_map(
    out: &mut Vec<u8>,
    entries: &BTreeMap<String, Value>,
    element: &Type,
    path: &mut ValuePath,
) -> Result<(), MsgpackError> {
    write_map_length(out, entries.len());
    for (key, entry) in entries {
        write_string(out, key);
        path.within(PathStep::Key(key.clone()), |path| {
            write_value(out, entry, element, path)
        })?;
    }
    Ok(())
}

/// The form cty's msgpack writer (v1.18) picks for a number: an infinity as
/// a float, an integer that fits `i64` as an integer, a number with a
/// fraction that is exactly an `f64` as a float, anything else (a larger
/// integer included) as its shortest exact decimal text (Go's
/// `big.Float.Text('f', -1)`).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum NumberForm {
    Integer(i64),
    Float(f64),
    Decimal(String),
}

impl NumberForm {
    pub(super) fn of(number: &Number) -> NumberForm {
        if number.is_infinite() {
            return NumberForm::Float(number.to_f64());
        }
        if let Some(integer) = number.to_i64_exact() {
            return NumberForm::Integer(integer);
        }
        let float = number.to_f64();
        if !number.is_integer() && Number::from_f64(float).cmp_value(number).is_eq() {
            return NumberForm::Float(float);
        }
        NumberForm::Decimal(number.text('f', -1))
    }
}

/// A number in the form cty writes it.
fn write_number(out: &mut Vec<u8>, number: &NumberForm) {
    match number {
        NumberForm::Integer(integer) => write_integer(out, *integer),
        NumberForm::Float(float) => match exact_integer(*float) {
            Some(integer) => write_integer(out, integer),
            None => write_float(out, *float),
        },
        NumberForm::Decimal(text) => write_string(out, text),
    }
}

/// The integer a float is exactly, if it is one in the range of `i64`.
pub(super) fn exact_integer(float: f64) -> Option<i64> {
    // 2^63 is exactly representable; every float below it in magnitude
    // with no fraction converts exactly.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (float.is_finite() && float.fract() == 0.0 && (-LIMIT..LIMIT).contains(&float))
        .then_some(float as i64)
}

/// An unknown value: the short form, or its refinements for `ty` (cty
/// refines only values of a known type).
fn write_unknown(out: &mut Vec<u8>, unknown: &Unknown, ty: &Type) {
    let mut body = Vec::new();
    let mut entries = 0;
    if *ty != Type::Dynamic && unknown.ty != Type::Dynamic && unknown.not_null {
        entries += 1;
        write_integer(&mut body, REFINEMENT_NULLNESS);
        body.push(0xc2);
    }
    let no_refinements = tofu_eval::Refinements::default();
    let refinements = unknown.refinements.as_deref().unwrap_or(&no_refinements);
    match ty {
        Type::Number => {
            let bounds = [
                (
                    REFINEMENT_NUMBER_LOWER,
                    &refinements.number_lower_bound,
                    true,
                ),
                (
                    REFINEMENT_NUMBER_UPPER,
                    &refinements.number_upper_bound,
                    false,
                ),
            ];
            for (key, bound, lower) in bounds {
                let Some((number, inclusive)) = bound else {
                    continue;
                };
                // No bound at all (cty leaves infinite bounds out).
                if number.is_infinite() && number.is_negative() == lower {
                    continue;
                }
                entries += 1;
                write_integer(&mut body, key);
                write_array_length(&mut body, 2);
                write_number(&mut body, &NumberForm::of(number));
                body.push(if *inclusive { 0xc3 } else { 0xc2 });
            }
        }
        Type::String => {
            if let Some(prefix) = refinements
                .string_prefix
                .as_deref()
                .filter(|prefix| !prefix.is_empty())
            {
                entries += 1;
                write_integer(&mut body, REFINEMENT_STRING_PREFIX);
                write_string(&mut body, cut_prefix(prefix));
            }
        }
        Type::List(_) | Type::Set(_) | Type::Map(_) => {
            if let Some(lower) = refinements.length_lower_bound.filter(|lower| *lower != 0) {
                entries += 1;
                write_integer(&mut body, REFINEMENT_LENGTH_LOWER);
                write_integer(&mut body, i64::try_from(lower).unwrap_or(i64::MAX));
            }
            if let Some(upper) = refinements.length_upper_bound {
                entries += 1;
                write_integer(&mut body, REFINEMENT_LENGTH_UPPER);
                write_integer(&mut body, i64::try_from(upper).unwrap_or(i64::MAX));
            }
        }
        _ => {}
    }
    if entries == 0 {
        out.extend_from_slice(&[0xd4, 0, 0]);
        return;
    }
    let mut header = Vec::new();
    write_map_length(&mut header, entries);
    write_extension_header(out, REFINED_UNKNOWN_EXTENSION, header.len() + body.len());
    out.extend_from_slice(&header);
    out.extend_from_slice(&body);
}

/// A prefix cut to fewer than [`LONGEST_PREFIX`] bytes at a character
/// boundary, as cty cuts it (it also drops a last character that a
/// combining mark could still change; that is left out).
fn cut_prefix(prefix: &str) -> &str {
    if prefix.len() <= LONGEST_PREFIX {
        return prefix;
    }
    let mut end = LONGEST_PREFIX - 1;
    while !prefix.is_char_boundary(end) {
        end -= 1;
    }
    prefix.get(..end).unwrap_or_default()
}

fn write_integer(out: &mut Vec<u8>, integer: i64) {
    if integer >= 0 {
        let unsigned = integer.unsigned_abs();
        if unsigned <= 0x7f {
            out.push(unsigned as u8);
        } else if let Ok(byte) = u8::try_from(unsigned) {
            out.push(0xcc);
            out.push(byte);
        } else if let Ok(short) = u16::try_from(unsigned) {
            out.push(0xcd);
            out.extend_from_slice(&short.to_be_bytes());
        } else if let Ok(word) = u32::try_from(unsigned) {
            out.push(0xce);
            out.extend_from_slice(&word.to_be_bytes());
        } else {
            out.push(0xcf);
            out.extend_from_slice(&unsigned.to_be_bytes());
        }
    } else if integer >= -32 {
        // Negative fixint: the low byte of the two's complement.
        out.push((integer as i8) as u8);
    } else if let Ok(byte) = i8::try_from(integer) {
        out.push(0xd0);
        out.extend_from_slice(&byte.to_be_bytes());
    } else if let Ok(short) = i16::try_from(integer) {
        out.push(0xd1);
        out.extend_from_slice(&short.to_be_bytes());
    } else if let Ok(word) = i32::try_from(integer) {
        out.push(0xd2);
        out.extend_from_slice(&word.to_be_bytes());
    } else {
        out.push(0xd3);
        out.extend_from_slice(&integer.to_be_bytes());
    }
}

fn write_float(out: &mut Vec<u8>, float: f64) {
    out.push(0xcb);
    out.extend_from_slice(&float.to_be_bytes());
}

fn write_string(out: &mut Vec<u8>, text: &str) {
    write_length(out, text.len(), Some(0xa0), [0xd9, 0xda, 0xdb]);
    out.extend_from_slice(text.as_bytes());
}

fn write_binary(out: &mut Vec<u8>, bytes: &[u8]) {
    write_length(out, bytes.len(), None, [0xc4, 0xc5, 0xc6]);
    out.extend_from_slice(bytes);
}

fn write_array_length(out: &mut Vec<u8>, length: usize) {
    write_length(out, length, Some(0x90), [0xdc, 0xdc, 0xdd]);
}

fn write_map_length(out: &mut Vec<u8>, length: usize) {
    write_length(out, length, Some(0x80), [0xde, 0xde, 0xdf]);
}

/// A length header: the fixed form (`fixed` ORed with the length, up to 31
/// for strings and 15 for arrays and maps), else the 8-, 16- or 32-bit
/// form. Arrays and maps have no 8-bit form (their entry repeats the
/// 16-bit code, which the fixed form always covers).
fn write_length(out: &mut Vec<u8>, length: usize, fixed: Option<u8>, codes: [u8; 3]) {
    let [code8, code16, code32] = codes;
    let fixed_limit = match fixed {
        Some(0xa0) => 32,
        Some(_) => 16,
        None => 0,
    };
    if let Some(fixed) = fixed.filter(|_| length < fixed_limit) {
        out.push(fixed | length as u8);
    } else if let (Ok(byte), true) = (u8::try_from(length), code8 != code16) {
        out.push(code8);
        out.push(byte);
    } else if let Ok(short) = u16::try_from(length) {
        out.push(code16);
        out.extend_from_slice(&short.to_be_bytes());
    } else {
        out.push(code32);
        out.extend_from_slice(&u32::try_from(length).unwrap_or(u32::MAX).to_be_bytes());
    }
}

fn write_extension_header(out: &mut Vec<u8>, extension: u8, length: usize) {
    match length {
        1 => out.push(0xd4),
        2 => out.push(0xd5),
        4 => out.push(0xd6),
        8 => out.push(0xd7),
        16 => out.push(0xd8),
        _ => {
            if let Ok(byte) = u8::try_from(length) {
                out.push(0xc7);
                out.push(byte);
            } else if let Ok(short) = u16::try_from(length) {
                out.push(0xc8);
                out.extend_from_slice(&short.to_be_bytes());
            } else {
                out.push(0xc9);
                out.extend_from_slice(&u32::try_from(length).unwrap_or(u32::MAX).to_be_bytes());
            }
        }
    }
    out.push(extension);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn numbers_take_the_form_cty_writes() {
        let form = |text: &str| NumberForm::of(&Number::parse(text).unwrap());
        assert_eq!(form("42"), NumberForm::Integer(42));
        assert_eq!(form("-7"), NumberForm::Integer(-7));
        assert_eq!(form("0.5"), NumberForm::Float(0.5));
        assert_eq!(
            form("0.1"),
            NumberForm::Decimal("0.1".to_owned()),
            "0.1 is no f64 exactly"
        );
        assert_eq!(
            form("1180591620717411303424"),
            NumberForm::Decimal("1180591620717411303424".to_owned()),
            "a whole number beyond i64 is text, even when it is exactly an f64"
        );
        assert_eq!(
            form("1e30"),
            NumberForm::Decimal("1000000000000000000000000000000".to_owned()),
        );
        assert_eq!(
            NumberForm::of(&Number::infinity(true)),
            NumberForm::Float(f64::NEG_INFINITY)
        );
    }
}

//! Reading a value as cty's `msgpack.Unmarshal` does: directed by the
//! type; any extension is an unknown value (with the refinements of
//! extension 12); nil is a null of the type; a number may come as any
//! integer, a float or decimal text. Lengths are checked against what is
//! left of the input before anything is allocated, and nesting is capped,
//! so no input makes it allocate without bound or overflow the stack.

use std::collections::BTreeMap;

use tofu_eval::{Number, Refinements, Type, Unknown, Value, ValueKind};

use super::format::MsgpackError;
use super::format::{
    PathStep, ValuePath, REFINED_UNKNOWN_EXTENSION, REFINEMENT_LENGTH_LOWER,
    REFINEMENT_LENGTH_UPPER, REFINEMENT_NULLNESS, REFINEMENT_NUMBER_LOWER, REFINEMENT_NUMBER_UPPER,
    REFINEMENT_STRING_PREFIX,
};
use super::write::exact_integer;
use crate::types::type_from_json_text;

/// The deepest nesting read (types from the schema are far shallower; a
/// dynamic value's type comes from the input).
const DEEPEST: usize = 128;
/// The largest refinements body cty accepts.
const LARGEST_REFINEMENTS: usize = 1024;

pub(super) fn decode(bytes: &[u8], ty: &Type) -> Result<Value, MsgpackError> {
    let mut reader = Reader { bytes, position: 0 };
    let mut path = ValuePath::default();
    let value = read_value(&mut reader, ty, &mut path, 0)?;
    if reader.position != bytes.len() {
        return Err(path.error("extra bytes after the value"));
    }
    Ok(value)
}

struct Reader<'a> {
    bytes: &'a [u8],
    position: usize,
}

/// A msgpack item's header.
enum Header {
    Nil,
    Bool(bool),
    Integer(i64),
    /// An unsigned integer above `i64::MAX`.
    LargeUnsigned(u64),
    Float(f64),
    String(usize),
    Binary(usize),
    Array(usize),
    Map(usize),
    Extension {
        extension: u8,
        length: usize,
    },
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        let end = self.position.checked_add(count)?;
        let taken = self.bytes.get(self.position..end)?;
        self.position = end;
        Some(taken)
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.position)
    }

    fn take_array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn length<const N: usize>(&mut self) -> Option<usize> {
        let bytes = self.take_array::<N>()?;
        let mut length: usize = 0;
        for byte in bytes {
            length = length.checked_mul(256)?.checked_add(usize::from(byte))?;
        }
        Some(length)
    }

    fn header(&mut self) -> Option<Header> {
        let code = self.peek()?;
        self.position += 1;
        let header = match code {
            0x00..=0x7f => Header::Integer(i64::from(code)),
            0x80..=0x8f => Header::Map(usize::from(code & 0x0f)),
            0x90..=0x9f => Header::Array(usize::from(code & 0x0f)),
            0xa0..=0xbf => Header::String(usize::from(code & 0x1f)),
            0xc0 => Header::Nil,
            0xc2 => Header::Bool(false),
            0xc3 => Header::Bool(true),
            0xc4 => Header::Binary(self.length::<1>()?),
            0xc5 => Header::Binary(self.length::<2>()?),
            0xc6 => Header::Binary(self.length::<4>()?),
            0xc7..=0xc9 => {
                let length = match code {
                    0xc7 => self.length::<1>()?,
                    0xc8 => self.length::<2>()?,
                    _ => self.length::<4>()?,
                };
                let [extension] = self.take_array::<1>()?;
                Header::Extension { extension, length }
            }
            0xca => Header::Float(f64::from(f32::from_be_bytes(self.take_array()?))),
            0xcb => Header::Float(f64::from_be_bytes(self.take_array()?)),
            0xcc => Header::Integer(i64::from(u8::from_be_bytes(self.take_array()?))),
            0xcd => Header::Integer(i64::from(u16::from_be_bytes(self.take_array()?))),
            0xce => Header::Integer(i64::from(u32::from_be_bytes(self.take_array()?))),
            0xcf => {
                let unsigned = u64::from_be_bytes(self.take_array()?);
                match i64::try_from(unsigned) {
                    Ok(integer) => Header::Integer(integer),
                    Err(_) => Header::LargeUnsigned(unsigned),
                }
            }
            0xd0 => Header::Integer(i64::from(i8::from_be_bytes(self.take_array()?))),
            0xd1 => Header::Integer(i64::from(i16::from_be_bytes(self.take_array()?))),
            0xd2 => Header::Integer(i64::from(i32::from_be_bytes(self.take_array()?))),
            0xd3 => Header::Integer(i64::from_be_bytes(self.take_array()?)),
            0xd4..=0xd8 => {
                let length = 1 << (code - 0xd4);
                let [extension] = self.take_array::<1>()?;
                Header::Extension { extension, length }
            }
            0xd9 => Header::String(self.length::<1>()?),
            0xda => Header::String(self.length::<2>()?),
            0xdb => Header::String(self.length::<4>()?),
            0xdc => Header::Array(self.length::<2>()?),
            0xdd => Header::Array(self.length::<4>()?),
            0xde => Header::Map(self.length::<2>()?),
            0xdf => Header::Map(self.length::<4>()?),
            0xe0..=0xff => Header::Integer(i64::from(code as i8)),
            // 0xc1 is never used.
            _ => return None,
        };
        Some(header)
    }

    /// Skips one whole item (a refinement cty does not know).
    fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > DEEPEST {
            return None;
        }
        match self.header()? {
            Header::String(length) | Header::Binary(length) => {
                self.take(length)?;
            }
            Header::Extension { length, .. } => {
                self.take(length)?;
            }
            Header::Array(count) => {
                for _ in 0..count {
                    self.skip(depth + 1)?;
                }
            }
            Header::Map(count) => {
                for _ in 0..count.checked_mul(2)? {
                    self.skip(depth + 1)?;
                }
            }
            _ => {}
        }
        Some(())
    }
}

fn is_extension(code: u8) -> bool {
    matches!(code, 0xc7..=0xc9 | 0xd4..=0xd8)
}

fn read_value(
    reader: &mut Reader<'_>,
    ty: &Type,
    path: &mut ValuePath,
    depth: usize,
) -> Result<Value, MsgpackError> {
    if depth > DEEPEST {
        return Err(path.error("the value is nested too deeply"));
    }
    let Some(code) = reader.peek() else {
        return Err(path.error("the input ends before the value"));
    };
    if is_extension(code) {
        return read_unknown(reader, ty, path);
    }
    if *ty == Type::Dynamic {
        return read_dynamic(reader, path, depth);
    }
    let truncated = |path: &ValuePath| path.error("the input is cut short");
    let Some(header) = reader.header() else {
        return Err(truncated(path));
    };
    if let Header::Nil = header {
        return Ok(Value::null(ty.clone()));
    }
    match ty {
        Type::Bool => match header {
            Header::Bool(flag) => Ok(Value::bool(flag)),
            _ => Err(path.error("bool is required")),
        },
        Type::Number => read_number(reader, header)
            .map(Value::number)
            .ok_or_else(|| path.error("number is required")),
        // The text as sent (not normalised again).
        Type::String => match header {
            Header::String(length) | Header::Binary(length) => {
                read_text(reader, length).ok_or_else(|| path.error("string is required"))
            }
            _ => Err(path.error("string is required")),
        }
        .map(|text| ValueKind::String(text).into()),
        Type::List(element) | Type::Set(element) => {
            let Header::Array(count) = header else {
                let kind = if matches!(ty, Type::List(_)) {
                    "list"
                } else {
                    "set"
                };
                return Err(path.error(format!("a {kind} is required")));
            };
            let items = read_items(reader, count, path, depth, |_| element)?;
            let element = (**element).clone();
            // In the order sent.
            Ok(match ty {
                Type::List(_) => ValueKind::List { element, items },
                _ => ValueKind::Set { element, items },
            }
            .into())
        }
        Type::Tuple(elements) => {
            let Header::Array(count) = header else {
                return Err(path.error("a tuple is required"));
            };
            if count != 0 && count != elements.len() {
                return Err(path.error(format!("a tuple of length {} is required", elements.len())));
            }
            let items = read_items(reader, count, path, depth, |index| {
                elements.get(index).unwrap_or(&Type::Dynamic)
            })?;
            Ok(Value::tuple(items))
        }
        Type::Map(element) => {
            let Header::Map(count) = header else {
                return Err(path.error("a map is required"));
            };
            let entries = read_entries(reader, count, path, depth, |_| Some(element))?;
            Ok(Value::map((**element).clone(), entries))
        }
        Type::Object(object) => {
            let Header::Map(count) = header else {
                return Err(path.error("an object is required"));
            };
            if count != 0 && count != object.len() {
                return Err(path.error(format!(
                    "an object with {} attributes is required ({count} given)",
                    object.len()
                )));
            }
            let attributes =
                read_entries(reader, count, path, depth, |name| object.attribute(name))?;
            Ok(Value::object(attributes))
        }
        Type::Dynamic => Err(path.error("a dynamic value is required")),
    }
}

/// `count` array items, the `index`th of type `element(index)`.
fn read_items<'t>(
    reader: &mut Reader<'_>,
    count: usize,
    path: &mut ValuePath,
    depth: usize,
    element: impl Fn(usize) -> &'t Type,
) -> Result<Vec<Value>, MsgpackError> {
    // Every item takes at least a byte: a count beyond that is a lie.
    if count > reader.remaining() {
        return Err(path.error("the input is cut short"));
    }
    let mut items = Vec::with_capacity(count);
    for index in 0..count {
        let item = path.within(PathStep::Index(index), |path| {
            read_value(reader, element(index), path, depth + 1)
        })?;
        items.push(item);
    }
    Ok(items)
}

/// `count` map entries with string keys, each of type `element(key)`
/// (`None`: a key the type does not have).
fn read_entries<'t>(
    reader: &mut Reader<'_>,
    count: usize,
    path: &mut ValuePath,
    depth: usize,
    element: impl Fn(&str) -> Option<&'t Type>,
) -> Result<BTreeMap<String, Value>, MsgpackError> {
    if count > reader.remaining() {
        return Err(path.error("the input is cut short"));
    }
    let mut entries = BTreeMap::new();
    for _ in 0..count {
        let key = match reader.header() {
            Some(Header::String(length) | Header::Binary(length)) => read_text(reader, length),
            _ => None,
        };
        let Some(key) = key else {
            return Err(path.error("all keys must be strings"));
        };
        let value = path.within(PathStep::Key(key.clone()), |path| {
            let Some(ty) = element(&key) else {
                return Err(path.error("unsupported attribute"));
            };
            read_value(reader, ty, path, depth + 1)
        })?;
        entries.insert(key, value);
    }
    Ok(entries)
}

fn read_text(reader: &mut Reader<'_>, length: usize) -> Option<String> {
    let bytes = reader.take(length)?;
    String::from_utf8(bytes.to_vec()).ok()
}

/// A number in any of the forms cty reads: an integer, a float, or text.
fn read_number(reader: &mut Reader<'_>, header: Header) -> Option<Number> {
    match header {
        Header::Integer(integer) => Some(Number::from_i64(integer)),
        Header::LargeUnsigned(unsigned) => Some(Number::from_u64(unsigned)),
        Header::Float(float) if float.is_nan() => None,
        Header::Float(float) => Some(match exact_integer(float) {
            Some(integer) => Number::from_i64(integer),
            None => Number::from_f64(float),
        }),
        Header::String(length) => {
            let text = read_text(reader, length)?;
            if is_decimal(&text) {
                Number::parse(&text)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `-12.5e3` and the like: what `cty.ParseNumberVal` accepts, leaving
/// out its hexadecimal and `Inf` forms, which cty never writes.
fn is_decimal(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !exponent.is_empty() && digits(exponent)
    });
    !(whole.is_empty() && fraction.is_empty()) && digits(whole) && digits(fraction) && exponent_ok
}

/// `[type as JSON, value]`, or nil for a null of unknown type.
fn read_dynamic(
    reader: &mut Reader<'_>,
    path: &mut ValuePath,
    depth: usize,
) -> Result<Value, MsgpackError> {
    match reader.header() {
        Some(Header::Nil) => Ok(Value::dynamic_null()),
        Some(Header::Array(2)) => {
            let type_text = match reader.header() {
                Some(Header::Binary(length) | Header::String(length)) => read_text(reader, length),
                _ => None,
            };
            let Some(type_text) = type_text else {
                return Err(path.error("a dynamic value's type is required"));
            };
            let ty = type_from_json_text(&type_text).map_err(|error| {
                path.error(format!("a dynamic value's type: {}", error.message))
            })?;
            read_value(reader, &ty, path, depth + 1)
        }
        _ => Err(path.error("dynamic value array must have exactly two elements")),
    }
}

/// An extension: unknown, with the refinements extension 12 holds.
fn read_unknown(
    reader: &mut Reader<'_>,
    ty: &Type,
    path: &mut ValuePath,
) -> Result<Value, MsgpackError> {
    let Some(Header::Extension { extension, length }) = reader.header() else {
        return Err(path.error("extension code is required for unknown value"));
    };
    let Some(body) = reader.take(length) else {
        return Err(path.error("the input is cut short"));
    };
    let unknown = |not_null: bool, refinements: Refinements| {
        let refinements = (refinements != Refinements::default()).then(|| Box::new(refinements));
        Value::from(ValueKind::Unknown(Unknown {
            ty: ty.clone(),
            not_null,
            refinements,
        }))
    };
    if length <= 1 {
        return Ok(unknown(false, Refinements::default()));
    }
    if extension != REFINED_UNKNOWN_EXTENSION {
        return Err(path.error(format!(
            "unsupported extension type 0x{extension:02x} with len {length}"
        )));
    }
    if length > LARGEST_REFINEMENTS {
        return Err(path.error("oversize unknown value refinement"));
    }
    let mut body = Reader {
        bytes: body,
        position: 0,
    };
    let Some(Header::Map(count)) = body.header() else {
        return Err(path.error("failed to decode msgpack extension body: not a map"));
    };
    if *ty == Type::Dynamic {
        // cty ignores refinements of a dynamic unknown.
        return Ok(unknown(false, Refinements::default()));
    }
    let mut not_null = false;
    let mut refinements = Refinements::default();
    let bad = |what: &str| path.error(format!("failed to decode msgpack extension body: {what}"));
    for _ in 0..count {
        let Some(Header::Integer(key)) = body.header() else {
            return Err(bad("non-integer key in map"));
        };
        match key {
            REFINEMENT_NULLNESS => match body.header() {
                // Known to be null is a null.
                Some(Header::Bool(true)) => return Ok(Value::null(ty.clone())),
                Some(Header::Bool(false)) => not_null = true,
                _ => return Err(bad("null refinement is not boolean")),
            },
            REFINEMENT_STRING_PREFIX => {
                if *ty != Type::String {
                    return Err(bad("string prefix refinement for non-string type"));
                }
                let prefix = match body.header() {
                    Some(Header::String(length) | Header::Binary(length)) => {
                        read_text(&mut body, length)
                    }
                    _ => None,
                };
                let Some(prefix) = prefix else {
                    return Err(bad("string prefix refinement is not string"));
                };
                refinements.string_prefix = Some(prefix);
            }
            REFINEMENT_LENGTH_LOWER | REFINEMENT_LENGTH_UPPER => {
                if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Map(_)) {
                    return Err(bad("length bound refinement for non-collection type"));
                }
                let Some(Header::Integer(bound)) = body.header() else {
                    return Err(bad("length bound refinement must be integer"));
                };
                let bound = u64::try_from(bound).unwrap_or(0);
                if key == REFINEMENT_LENGTH_LOWER {
                    refinements.length_lower_bound = Some(bound);
                } else {
                    refinements.length_upper_bound = Some(bound);
                }
            }
            REFINEMENT_NUMBER_LOWER | REFINEMENT_NUMBER_UPPER => {
                if *ty != Type::Number {
                    return Err(bad("numeric bound refinement for non-number type"));
                }
                let bound = match body.header() {
                    Some(Header::Array(2)) => {
                        let number = body
                            .header()
                            .and_then(|header| read_number(&mut body, header));
                        match (number, body.header()) {
                            (Some(number), Some(Header::Bool(inclusive))) => {
                                Some((number, inclusive))
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let Some(bound) = bound else {
                    return Err(bad("number bound refinement must be [number, bool] array"));
                };
                if key == REFINEMENT_NUMBER_LOWER {
                    refinements.number_lower_bound = Some(bound);
                } else {
                    refinements.number_upper_bound = Some(bound);
                }
            }
            // A refinement added after cty v1.18: left for whoever knows it.
            _ => {
                if body.skip(0).is_none() {
                    return Err(bad("a refinement is cut short"));
                }
            }
        }
    }
    Ok(unknown(not_null, refinements))
}

//! The protocol buffers wire format, the little of it the plugin protocol
//! needs: reading a message field by field (varints, 64- and 32-bit
//! values, length-delimited bytes) and writing the few requests tofu-lens
//! sends.
//!
//! The message definitions themselves are the decoders in `messages`,
//! written from the published field numbers of `tfplugin5.proto` and
//! `tfplugin6.proto`; there is no code generation. Unknown fields are
//! skipped, as protobuf requires, so newer providers still read. Nothing
//! here panics on any input: a truncated or malformed message is an error.

use std::fmt;

/// A malformed message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    pub message: &'static str,
}

impl fmt::Display for WireError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.message)
    }
}

fn wire_error(message: &'static str) -> WireError {
    WireError { message }
}

/// One field's value as it appears on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValue<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32(u32),
}

impl<'a> FieldValue<'a> {
    /// An `int64`, `bool` or enum field (a varint); anything else reads as 0.
    pub fn as_i64(self) -> i64 {
        match self {
            // Two's complement, as protobuf encodes negative int64 values.
            FieldValue::Varint(value) => value as i64,
            _ => 0,
        }
    }

    pub fn as_bool(self) -> bool {
        matches!(self, FieldValue::Varint(value) if value != 0)
    }

    /// A `bytes` or embedded message field; anything else reads as empty.
    pub fn as_bytes(self) -> &'a [u8] {
        match self {
            FieldValue::Bytes(bytes) => bytes,
            _ => &[],
        }
    }

    /// A `string` field. Invalid UTF-8 is an error (proto3 strings are UTF-8).
    pub fn as_str(self) -> Result<&'a str, WireError> {
        std::str::from_utf8(self.as_bytes()).map_err(|_| wire_error("a string that is not UTF-8"))
    }
}

/// Reads the fields of one message in order.
pub struct MessageReader<'a> {
    rest: &'a [u8],
}

impl<'a> MessageReader<'a> {
    pub fn new(message: &'a [u8]) -> MessageReader<'a> {
        MessageReader { rest: message }
    }

    /// The next field number and value, `None` at the end.
    pub fn next_field(&mut self) -> Result<Option<(u32, FieldValue<'a>)>, WireError> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        let key = self.varint()?;
        let number = u32::try_from(key >> 3).map_err(|_| wire_error("a field number too large"))?;
        if number == 0 {
            return Err(wire_error("field number 0"));
        }
        let value = match key & 7 {
            0 => FieldValue::Varint(self.varint()?),
            1 => FieldValue::Fixed64(u64::from_le_bytes(self.array::<8>()?)),
            2 => {
                let length = usize::try_from(self.varint()?)
                    .map_err(|_| wire_error("a length too large"))?;
                FieldValue::Bytes(self.take(length)?)
            }
            5 => FieldValue::Fixed32(u32::from_le_bytes(self.array::<4>()?)),
            _ => return Err(wire_error("an unsupported wire type (groups are not used)")),
        };
        Ok(Some((number, value)))
    }

    fn varint(&mut self) -> Result<u64, WireError> {
        let mut value: u64 = 0;
        for shift in (0..64).step_by(7) {
            let Some((&byte, rest)) = self.rest.split_first() else {
                return Err(wire_error("a truncated varint"));
            };
            self.rest = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(wire_error("a varint longer than ten bytes"))
    }

    fn take(&mut self, length: usize) -> Result<&'a [u8], WireError> {
        if length > self.rest.len() {
            return Err(wire_error("a field longer than its message"));
        }
        let (taken, rest) = self.rest.split_at(length);
        self.rest = rest;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let bytes = self.take(N)?;
        let mut array = [0; N];
        array.copy_from_slice(bytes);
        Ok(array)
    }
}

/// Builds one message, field by field.
#[derive(Default)]
pub struct MessageWriter {
    bytes: Vec<u8>,
}

impl MessageWriter {
    pub fn new() -> MessageWriter {
        MessageWriter::default()
    }

    /// A `string`, `bytes` or embedded message field (written even when empty).
    pub fn bytes(&mut self, number: u32, value: &[u8]) -> &mut MessageWriter {
        self.key(number, 2);
        self.varint(value.len() as u64);
        self.bytes.extend_from_slice(value);
        self
    }

    /// A `bool` field; false is the default and not written.
    pub fn flag(&mut self, number: u32, value: bool) -> &mut MessageWriter {
        if value {
            self.key(number, 0);
            self.varint(1);
        }
        self
    }

    /// An `int64` or enum field; 0 is the default and not written.
    pub fn integer(&mut self, number: u32, value: i64) -> &mut MessageWriter {
        if value != 0 {
            self.key(number, 0);
            // Two's complement: a negative value takes ten bytes.
            self.varint(value as u64);
        }
        self
    }

    pub fn finish(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.bytes)
    }

    fn key(&mut self, number: u32, wire_type: u64) {
        self.varint((u64::from(number) << 3) | wire_type);
    }

    fn varint(&mut self, mut value: u64) {
        loop {
            let low = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.bytes.push(low);
                return;
            }
            self.bytes.push(low | 0x80);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_fields_read_back() {
        let inner = MessageWriter::new().bytes(1, b"time_sleep").finish();
        let message = MessageWriter::new()
            .bytes(2, &inner)
            .flag(3, true)
            .flag(4, false)
            .bytes(300, &[0; 200])
            .finish();
        let mut reader = MessageReader::new(&message);
        let (number, value) = reader.next_field().unwrap().unwrap();
        assert_eq!(number, 2);
        let mut inner_reader = MessageReader::new(value.as_bytes());
        assert_eq!(
            inner_reader.next_field().unwrap().unwrap().1.as_str(),
            Ok("time_sleep")
        );
        assert_eq!(
            reader.next_field().unwrap().map(|(n, v)| (n, v.as_bool())),
            Some((3, true))
        );
        let (number, value) = reader.next_field().unwrap().unwrap();
        assert_eq!((number, value.as_bytes().len()), (300, 200));
        assert_eq!(reader.next_field().unwrap(), None);
    }

    #[test]
    fn negative_varints_and_fixed_fields_read() {
        // Field 1 = -1 as int64 (ten bytes), field 2 fixed64, field 3 fixed32.
        let mut message = vec![
            0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ];
        message.extend([0x11, 1, 0, 0, 0, 0, 0, 0, 0, 0x1d, 2, 0, 0, 0]);
        let mut reader = MessageReader::new(&message);
        assert_eq!(reader.next_field().unwrap().unwrap().1.as_i64(), -1);
        assert_eq!(
            reader.next_field().unwrap().unwrap().1,
            FieldValue::Fixed64(1)
        );
        assert_eq!(
            reader.next_field().unwrap().unwrap().1,
            FieldValue::Fixed32(2)
        );
    }

    #[test]
    fn malformed_messages_are_errors_not_panics() {
        for message in [
            &[0x0a, 0x05, b'a'][..],
            &[0x08, 0xff],
            &[0x0b],
            &[0x00, 0x01],
            &[
                0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
            ],
        ] {
            let mut reader = MessageReader::new(message);
            assert!(reader.next_field().is_err(), "{message:?}");
        }
    }
}

//! A value (tofu-eval's [`Value`], marks left out) as msgpack, the
//! `DynamicValue` encoding the plugin
//! protocol uses, written and read exactly as cty (v1.18, OpenTofu 1.12)
//! does: [`encode_msgpack`] is `msgpack.Marshal(value, type)` and
//! [`decode_msgpack`] is `msgpack.Unmarshal(bytes, type)`.
//!
//! The encoding is directed by the type (for a resource's configuration,
//! its schema's implied type, [`crate::Block::implied_type`]): an object
//! is a map of every attribute of its type, sorted, an attribute the value
//! lacks written as nil (an argument that is not set); a list, set or
//! tuple is an array; a map is a map with its keys sorted. Where the type
//! is `dynamic` and the value's own type is not, the value is written as
//! `[type as JSON, value]`. An unknown value is msgpack extension 0 with
//! one zero byte (`d4 00 00`), or, when it has refinements for its type,
//! extension 12 holding a map of them (1: not null, 2: string prefix,
//! 3/4: number bounds as `[number, inclusive]`, 5/6: length bounds).
//! Numbers are written in the form cty picks: integers that fit `i64` in
//! the fewest bytes, other numbers that are exactly a float 64 (and the
//! infinities) as one, the rest (larger integers too) as decimal text.
//!
//! cty converts a value to the type before writing it; here the caller
//! converts (tofu-eval owns conversions), and a value that cannot be
//! written as the type is an error naming where it is. Tests compare every
//! form with the bytes cty writes (`test_data/msgpack/`).

mod format;
mod read;
mod write;

use tofu_eval::{Type, Value};

pub use format::MsgpackError;

/// Writes `value` as msgpack for a place of type `ty`.
pub fn encode_msgpack(value: &Value, ty: &Type) -> Result<Vec<u8>, MsgpackError> {
    write::encode(value, ty)
}

/// Reads a value of type `ty` from msgpack.
pub fn decode_msgpack(bytes: &[u8], ty: &Type) -> Result<Value, MsgpackError> {
    read::decode(bytes, ty)
}

#[cfg(test)]
mod tests;

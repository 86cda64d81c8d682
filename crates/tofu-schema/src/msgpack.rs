//! A [`ConfigValue`] as msgpack, the `DynamicValue` encoding the plugin
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
//! Numbers are written as their [`ConfigNumber`] variant says: integers
//! in the fewest bytes, floats as float 64, other numbers as decimal text.
//!
//! cty converts a value to the type before writing it; here the caller
//! converts (tofu-eval owns conversions), and a value that cannot be
//! written as the type is an error naming where it is. Tests compare every
//! form with the bytes cty writes (`test_data/msgpack/`).

mod read;
mod write;

use std::fmt;

#[cfg(doc)]
use crate::config_value::ConfigNumber;
use crate::config_value::ConfigValue;
use crate::types::SchemaType;

/// Why a value could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MsgpackError {
    /// Where in the value, as OpenTofu prints a path (`.rule[0].port`);
    /// empty for the value itself.
    pub path: String,
    pub message: String,
}

impl fmt::Display for MsgpackError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            formatter.write_str(&self.message)
        } else {
            write!(formatter, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for MsgpackError {}

/// Writes `value` as msgpack for a place of type `ty`.
pub fn encode_msgpack(value: &ConfigValue, ty: &SchemaType) -> Result<Vec<u8>, MsgpackError> {
    write::encode(value, ty)
}

/// Reads a value of type `ty` from msgpack.
pub fn decode_msgpack(bytes: &[u8], ty: &SchemaType) -> Result<ConfigValue, MsgpackError> {
    read::decode(bytes, ty)
}

/// One step of a path into a value.
#[derive(Clone, Debug)]
enum PathStep {
    Attribute(String),
    Index(usize),
    Key(String),
}

/// The path to the part being written or read, for errors.
#[derive(Default)]
struct ValuePath {
    steps: Vec<PathStep>,
}

impl ValuePath {
    fn error(&self, message: impl Into<String>) -> MsgpackError {
        let mut path = String::new();
        for step in &self.steps {
            match step {
                PathStep::Attribute(name) => {
                    path.push('.');
                    path.push_str(name);
                }
                PathStep::Index(index) => path.push_str(&format!("[{index}]")),
                PathStep::Key(key) => path.push_str(&format!("[{key:?}]")),
            }
        }
        MsgpackError {
            path,
            message: message.into(),
        }
    }

    /// Runs `inner` with `step` on the path.
    fn within<T>(&mut self, step: PathStep, inner: impl FnOnce(&mut ValuePath) -> T) -> T {
        self.steps.push(step);
        let result = inner(self);
        self.steps.pop();
        result
    }
}

/// The extension type of an unknown value with refinements.
const REFINED_UNKNOWN_EXTENSION: u8 = 0x0c;
/// The refinement keys.
const REFINEMENT_NULLNESS: i64 = 1;
const REFINEMENT_STRING_PREFIX: i64 = 2;
const REFINEMENT_NUMBER_LOWER: i64 = 3;
const REFINEMENT_NUMBER_UPPER: i64 = 4;
const REFINEMENT_LENGTH_LOWER: i64 = 5;
const REFINEMENT_LENGTH_UPPER: i64 = 6;

#[cfg(test)]
mod tests;

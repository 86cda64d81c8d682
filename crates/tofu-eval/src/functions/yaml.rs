//! The YAML functions as OpenTofu 1.12 calls them from go-cty-yaml:
//! `yamlencode` (any value, null included, to a document; unknown while any
//! part of the value is unknown; marks moved to the result) and
//! `yamldecode` (a string to a value of the type cty infers from the
//! document; unknown, of unknown type, while the string is unknown).
//!
//! The emitter is `yaml_emitter.rs`; reading a document is
//! `yaml_decode.rs`. What the reader does not cover gives an unknown value
//! rather than a value or an error OpenTofu might not give.

use super::implementation::{Accepts, FunctionError, Implementation, PLAIN};
use super::yaml_decode::{yaml_decode, Decoded};
use super::yaml_emitter::yaml_encode;
use crate::types::Type;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    Some(match name {
        "yamlencode" => Implementation {
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
                Ok(yaml_encode(&value).map_or_else(|| Value::unknown(Type::String), Value::string))
            },
        },
        "yamldecode" => Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: Some(|args| {
                // go-cty-yaml: an unknown string decodes to a value of
                // unknown type.
                let Some(text) = args.first().filter(|text| text.is_known()) else {
                    return Ok(Type::Dynamic);
                };
                decode(text.as_str().unwrap_or_default()).map(|value| value.ty())
            }),
            run: |args| decode(&super::implementation::text(args, 0)),
        },
        _ => return None,
    })
}

fn decode(text: &str) -> Result<Value, FunctionError> {
    match yaml_decode(text) {
        Decoded::Value(value) => Ok(value),
        Decoded::Error(message) => Err(FunctionError::call(message)),
        Decoded::NotCovered => Ok(Value::dynamic_unknown()),
    }
}

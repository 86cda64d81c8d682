//! The time functions: `timestamp` and `plantimestamp` differ per run and
//! are unknown, as `tofu validate` sees them. `timeadd`, `timecmp` and
//! `formatdate` are not implemented yet (unknown results, see `registry`).

use super::{Implementation, PLAIN};
use crate::types::Type;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    match name {
        "timestamp" | "plantimestamp" => Some(Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: None,
            run: |_| Ok(Value::unknown(Type::String)),
        }),
        _ => None,
    }
}

//! The table of functions: the signature of each (by name or `core::`
//! name) and which family module implements it. A function of the
//! signature table that no family implements yet gives an unknown result
//! of its return type (never an error), so a caller that validates stays
//! silent about it rather than report something OpenTofu would not.

use super::implementation::{Arguments, FunctionError, Implementation, ANYTHING};
use super::signature::Signature;
use super::signatures::SIGNATURES;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let families: [fn(&str) -> Option<Implementation>; 15] = [
        super::string::implementation,
        super::format::implementation,
        super::regex::implementation,
        super::numeric::implementation,
        super::collection::implementation,
        super::conversion::implementation,
        super::sensitivity::implementation,
        super::encoding::implementation,
        super::hash::implementation,
        super::network::implementation,
        super::time::implementation,
        super::filesystem::implementation,
        super::try_can::implementation,
        super::yaml::implementation,
        not_evaluated,
    ];
    families.iter().find_map(|family| family(name))
}

/// A function of the table without an implementation: its arguments are
/// checked against the signature, its result is unknown.
fn not_evaluated(name: &str) -> Option<Implementation> {
    signature(name)?;
    Some(Implementation {
        parameters: &[ANYTHING, ANYTHING, ANYTHING, ANYTHING],
        variadic: ANYTHING,
        result_type: None,
        run: unknown_result,
    })
}

fn unknown_result(args: &Arguments) -> Result<Value, FunctionError> {
    Ok(Value::unknown(args.result_type.clone()))
}

/// The signature of a built-in function, by its name or `core::` name.
pub fn signature(name: &str) -> Option<&'static Signature> {
    let name = name.strip_prefix("core::").unwrap_or(name);
    SIGNATURES
        .binary_search_by(|signature| signature.name.cmp(name))
        .ok()
        .and_then(|index| SIGNATURES.get(index))
}

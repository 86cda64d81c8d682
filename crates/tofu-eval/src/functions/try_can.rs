//! `try` and `can` on values already computed. In OpenTofu they receive
//! their arguments unevaluated and catch the errors of evaluating them;
//! that part belongs to the expression evaluator. Here an argument has a
//! value, so `can` is true (unknown while the value is not wholly known)
//! and `try` gives its first argument.

use super::implementation::{Accepts, Implementation, ANYTHING};
use crate::types::Type;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    Some(match name {
        "can" => Implementation {
            parameters: &[ANYTHING],
            variadic: Accepts::default(),
            result_type: None,
            run: |args| {
                if args.get(0).is_wholly_known() {
                    Ok(Value::bool(true))
                } else {
                    Ok(Value::unknown(Type::Bool))
                }
            },
        },
        "try" => Implementation {
            parameters: &[],
            variadic: ANYTHING,
            result_type: None,
            run: |args| {
                let Some(first) = args.values.first() else {
                    return Err(super::implementation::FunctionError::call(
                        "at least one argument is required",
                    ));
                };
                if !first.is_wholly_known() {
                    return Ok(Value::dynamic_unknown());
                }
                Ok(first.clone())
            },
        },
        _ => return None,
    })
}

//! The type conversion functions (`tostring`, `tonumber`, `tobool`,
//! `tolist`, `toset`, `tomap`, OpenTofu's `MakeToFunc`), `type` (console
//! only, printed as the type itself) and the deprecated `list` and `map`,
//! which only fail.

use super::implementation::{Accepts, Arguments, FunctionError, Implementation, PLAIN};
use crate::convert::{conversion_exists, convert, mismatch_message};
use crate::types::Type;
use crate::value::Value;
use tofu_syntax::go_text::go_quote;

const TO_PARAMETER: Accepts = Accepts {
    null: true,
    unknown: false,
    dynamic: true,
    marked: true,
};

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let to = |result_type: fn(&[Value]) -> Result<Type, FunctionError>| Implementation {
        parameters: &[TO_PARAMETER],
        variadic: PLAIN,
        result_type: Some(result_type),
        run: to_run,
    };
    Some(match name {
        "tostring" => to(|args| to_type(args, Type::String)),
        "tonumber" => to(|args| to_type(args, Type::Number)),
        "tobool" => to(|args| to_type(args, Type::Bool)),
        "tolist" => to(|args| to_type(args, Type::list(Type::Dynamic))),
        "toset" => to(|args| to_type(args, Type::set(Type::Dynamic))),
        "tomap" => to(|args| to_type(args, Type::map(Type::Dynamic))),
        _ => return None,
    })
}

/// The type check of `MakeToFunc`.
fn to_type(args: &[Value], want: Type) -> Result<Type, FunctionError> {
    let have = args.first().map(Value::ty).unwrap_or(Type::Dynamic);
    if have == want || conversion_exists(&have, &want, true) {
        return Ok(want);
    }
    Err(FunctionError::argument(
        0,
        match (&have, &want) {
            (Type::Tuple(_), Type::Tuple(_)) => format!(
                "incompatible tuple type for conversion: {}",
                mismatch_message(&have, &want)
            ),
            (Type::Object(_), Type::Object(_)) => format!(
                "incompatible object type for conversion: {}",
                mismatch_message(&have, &want)
            ),
            _ => format!(
                "cannot convert {} to {}",
                have.friendly_name(),
                want.friendly_name_for_constraint()
            ),
        },
    ))
}

fn to_run(args: &Arguments) -> Result<Value, FunctionError> {
    let value = args.get(0);
    let want = &args.result_type;
    convert(&value, want).map_err(|_| {
        let marks = value.deep_marks();
        let (unmarked, _) = value.clone().unmark_deep();
        let have = unmarked.ty();
        let want_name = want.friendly_name_for_constraint();
        let what = || match unmarked.as_str() {
            Some(text) => go_quote(text),
            None => "string".to_owned(),
        };
        FunctionError::argument(
            0,
            if marks.ephemeral {
                format!(
                    "cannot convert this ephemeral {} to {want_name}",
                    have.friendly_name()
                )
            } else if marks.sensitive {
                format!(
                    "cannot convert this sensitive {} to {want_name}",
                    have.friendly_name()
                )
            } else if have == Type::String && *want == Type::Bool {
                format!(
                    "cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed",
                    what()
                )
            } else if have == Type::String && *want == Type::Number {
                format!(
                    "cannot convert {} to number; given string must be a decimal representation of a number",
                    what()
                )
            } else {
                format!("cannot convert {} to {want_name}", have.friendly_name())
            },
        )
    })
}

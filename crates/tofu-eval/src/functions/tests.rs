//! Calls through `call_function`, with OpenTofu's errors.

use super::*;

fn call(name: &str, arguments: Vec<Value>) -> Result<String, String> {
    call_function(name, &arguments, &NoFiles)
        .map(|value| crate::format_value(&value))
        .map_err(|errors| {
            errors
                .iter()
                .map(|error| format!("{}: {}", error.summary, error.detail))
                .collect::<Vec<_>>()
                .join("\n")
        })
}

#[test]
fn arity_and_unknown_names_are_reported_as_hcl_does() {
    assert_eq!(
        call("length", vec![]),
        Err("Not enough function arguments: Function \"length\" expects 1 argument(s). Missing value for \"value\".".to_owned())
    );
    assert_eq!(
        call("uppper", vec![Value::string("x")]),
        Err("Call to unknown function: There is no function named \"uppper\". Did you mean \"upper\"?".to_owned())
    );
    assert_eq!(
        call("core::upper", vec![Value::string("x")]),
        Ok("\"X\"".to_owned())
    );
}

#[test]
fn unknown_and_marked_arguments_pass_through() {
    assert_eq!(
        call("upper", vec![Value::unknown(Type::String)]),
        Ok("(known after apply)".to_owned())
    );
    assert_eq!(
        call("upper", vec![Value::string("a").mark_sensitive()]),
        Ok("(sensitive value)".to_owned())
    );
    assert_eq!(
        call("tonumber", vec![Value::string("abc")]),
        Err("Invalid function argument: Invalid value for \"v\" parameter: cannot convert \"abc\" to number; given string must be a decimal representation of a number.".to_owned())
    );
}

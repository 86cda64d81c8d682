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

/// Recorded from `tofu console` (OpenTofu 1.12.6).
#[test]
fn formatdate_follows_ctys_date_format_language() {
    let format = |layout: &str, time: &str| {
        call(
            "formatdate",
            vec![Value::string(layout), Value::string(time)],
        )
    };
    let ok = |text: &str| Ok(format!("\"{text}\""));
    assert_eq!(
        format("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z"),
        ok("02 Jan 2018 23:12 UTC")
    );
    assert_eq!(
        format("EEEE, DD-MMM-YY hh:mm:ss ZZZZ", "2018-01-02T23:12:01-08:00"),
        ok("Tuesday, 02-Jan-18 23:12:01 -0800")
    );
    assert_eq!(
        format("EEE, DD MMM YYYY hh:mm:ss Z", "2018-01-02T23:12:01+05:30"),
        ok("Tue, 02 Jan 2018 23:12:01 +05:30")
    );
    assert_eq!(
        format("h:mm aa H AA MMMM M D s", "2018-11-04T00:05:09Z"),
        ok("0:05 am 12 AM November 11 4 9")
    );
    assert_eq!(format("日本 YYYY", "0001-01-01T00:00:00Z"), ok("日本 0001"));
    assert_eq!(format("Z ZZZ", "2024-02-29T12:00:00-00:00"), ok("Z UTC"));
    assert_eq!(
        format("'Date:' YYYY-MM-DD 'o''clock' ''", "2024-02-29T12:00:00Z"),
        ok("Date: 2024-02-29 o'clock '")
    );
    let format_error = |detail: &str| {
        Err(format!(
            "Invalid function argument: Invalid value for \"format\" parameter: {detail}."
        ))
    };
    assert_eq!(
        format("'Date:' x", "2024-02-29T12:00:00Z"),
        format_error("invalid date format verb \"x\"")
    );
    assert_eq!(
        format("'unterminated", "2024-02-29T12:00:00Z"),
        format_error("unterminated literal '")
    );
    assert_eq!(
        format("YYY", "2024-02-29T12:00:00Z"),
        format_error("invalid date format verb \"YYY\": year must either be \"YY\" or \"YYYY\"")
    );
    assert_eq!(
        format("ZZ", "2024-02-29T12:00:00Z"),
        format_error("invalid date format verb \"ZZ\": timezone must be Z, ZZZZ, or ZZZZZ")
    );
    assert_eq!(
        format("a", "2024-02-29T12:00:00Z"),
        format_error("invalid date format verb \"a\": must be \"aa\"")
    );
    assert_eq!(
        format("hhh", "2024-02-29T12:00:00.123Z"),
        format_error("invalid date format verb \"hhh\": 24-hour must either be \"h\" or \"hh\"")
    );
    assert_eq!(
        format("YY", "bogus"),
        Err("Invalid function argument: Invalid value for \"time\" parameter: not a valid RFC3339 timestamp: cannot use \"bogus\" as year.".to_owned())
    );
}

/// Recorded from `tofu console` (OpenTofu 1.12.6).
#[test]
fn base64gunzip_reads_gzip_as_go_does() {
    let gunzip = |text: &str| call("base64gunzip", vec![Value::string(text)]);
    let failed = |detail: &str| {
        Err(format!(
            "Error in function call: Call to function \"base64gunzip\" failed: {detail}."
        ))
    };
    assert_eq!(
        gunzip("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA=="),
        Ok("\"hello\"".to_owned())
    );
    assert_eq!(
        gunzip("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAA"),
        failed("failed to read gunzip raw data: unexpected EOF")
    );
    assert_eq!(
        gunzip("H4sIAAAAAAAAA8tIzcnJBwCGphA3BQAAAA=="),
        failed("failed to read gunzip raw data: gzip: invalid checksum")
    );
    assert_eq!(
        gunzip("H4sIAAAAAAAAA8tIzc"),
        failed("failed to decode base64 data \"H4sIAAAAAAAAA8tIzc\"")
    );
    assert_eq!(gunzip(""), failed("failed to gunzip bytestream: EOF"));
    assert_eq!(
        gunzip("H4sIAAAAAAAAA/////8="),
        failed("failed to read gunzip raw data: flate: corrupt input before offset 1")
    );
    assert_eq!(
        call("base64gunzip", vec![Value::string("abc").mark_sensitive()]),
        failed("failed to decode base64 data (sensitive value)")
    );
}

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

/// A clock and a random source that give the same every time: `now`, and
/// `random` over and over.
struct FixedRun {
    now: i128,
    random: Vec<u8>,
}

impl PerRun for FixedRun {
    fn now_unix_nanos(&self) -> i128 {
        self.now
    }

    fn fill_random(&self, bytes: &mut [u8]) -> bool {
        for (slot, byte) in bytes.iter_mut().zip(self.random.iter().cycle()) {
            *slot = *byte;
        }
        true
    }
}

/// An environment with no files but a [`FixedRun`], as the console has
/// the clock and random bytes.
struct ConsoleRun(FixedRun);

impl Environment for ConsoleRun {
    fn read_file(&self, _path: &str) -> Result<Vec<u8>, FileError> {
        Err(FileError::Unavailable)
    }

    fn file_exists(&self, _path: &str) -> Result<bool, FileError> {
        Err(FileError::Unavailable)
    }

    fn per_run(&self) -> Option<&dyn PerRun> {
        Some(&self.0)
    }
}

fn call_in_console(run: FixedRun, name: &str, arguments: Vec<Value>) -> Result<Value, String> {
    call_function(name, &arguments, &ConsoleRun(run)).map_err(|errors| {
        errors
            .iter()
            .map(|error| format!("{}: {}", error.summary, error.detail))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

fn counting_bytes() -> FixedRun {
    FixedRun {
        now: 0,
        random: (0..16).collect(),
    }
}

#[test]
fn uuid_prints_sixteen_random_bytes_as_hashicorp_go_uuid_does() {
    let value = call_in_console(counting_bytes(), "uuid", vec![]).unwrap();
    assert_eq!(
        crate::format_value(&value),
        "\"00010203-0405-0607-0809-0a0b0c0d0e0f\""
    );
    // No version or variant bits: go-uuid prints the bytes as they come.
    let all_ones = FixedRun {
        now: 0,
        random: vec![0xff],
    };
    let value = call_in_console(all_ones, "uuid", vec![]).unwrap();
    assert_eq!(
        crate::format_value(&value),
        "\"ffffffff-ffff-ffff-ffff-ffffffffffff\""
    );
    assert_eq!(call("uuid", vec![]), Ok("(known after apply)".to_owned()));
}

#[test]
fn timestamp_prints_the_clock_in_utc_as_rfc3339() {
    // 2026-11-27T11:56:56Z, as `tofu console` printed it, plus a fraction
    // of a second that Go's RFC 3339 layout leaves out.
    let run = |now: i128| {
        let value = call_in_console(
            FixedRun {
                now,
                random: vec![0],
            },
            "timestamp",
            vec![],
        )
        .unwrap();
        crate::format_value(&value)
    };
    assert_eq!(run(1_795_780_616_999_999_999), "\"2026-11-27T11:56:56Z\"");
    assert_eq!(run(-1), "\"1969-12-31T23:59:59Z\"");
    assert_eq!(
        call("timestamp", vec![]),
        Ok("(known after apply)".to_owned())
    );
    assert_eq!(
        call("plantimestamp", vec![]),
        Ok("(known after apply)".to_owned())
    );
}

/// `bcrypt("Hello World", "5")` as `tofu console` (OpenTofu 1.12.6)
/// printed it: given the same salt, tofu-eval prints the same hash.
#[test]
fn bcrypt_hashes_as_x_crypto_does() {
    let printed_by_tofu = "$2a$05$/HP487JSmJz5fg9x62aLcucYrxEEHB1Ij.fwpMDP8V13DTmfc0ley";
    let salt = printed_by_tofu
        .parse::<::bcrypt::HashParts>()
        .unwrap()
        .get_salt_raw();
    let run = FixedRun {
        now: 0,
        random: salt.to_vec(),
    };
    let value = call_in_console(
        run,
        "bcrypt",
        vec![Value::string("Hello World"), Value::string("5")],
    )
    .unwrap();
    assert_eq!(
        crate::format_value(&value),
        format!("\"{printed_by_tofu}\"")
    );
}

#[test]
fn bcrypt_takes_x_cryptos_default_and_limits() {
    let hash = |arguments: Vec<Value>| {
        call_in_console(counting_bytes(), "bcrypt", arguments)
            .map(|value| value.as_str().unwrap_or_default().to_owned())
    };
    let password = Value::string("secret");
    let default_cost = hash(vec![password.clone()]).unwrap();
    assert!(default_cost.starts_with("$2a$10$"), "{default_cost}");
    assert_eq!(default_cost.len(), 60);
    assert!(::bcrypt::verify("secret", &default_cost).unwrap());
    assert!(!::bcrypt::verify("secreT", &default_cost).unwrap());
    // Below x/crypto's minimum cost (4) the default is used.
    let low = hash(vec![password.clone(), Value::int(3)]).unwrap();
    assert!(low.starts_with("$2a$10$"), "{low}");
    let minimum = hash(vec![password.clone(), Value::int(4)]).unwrap();
    assert!(minimum.starts_with("$2a$04$"), "{minimum}");
    assert!(::bcrypt::verify("secret", &minimum).unwrap());
    assert_eq!(
        hash(vec![password.clone(), Value::int(32)]),
        Err("Error in function call: Call to function \"bcrypt\" failed: error occurred generating password crypto/bcrypt: cost 32 is outside allowed inclusive range 4..31.".to_owned())
    );
    // 72 bytes is the most x/crypto takes.
    let longest = hash(vec![Value::string("x".repeat(72)), Value::int(4)]).unwrap();
    assert!(::bcrypt::verify("x".repeat(72), &longest).unwrap());
    assert_eq!(
        hash(vec![Value::string("x".repeat(73)), Value::int(4)]),
        Err("Error in function call: Call to function \"bcrypt\" failed: error occurred generating password bcrypt: password length exceeds 72 bytes.".to_owned())
    );
    // A sensitive password gives a sensitive hash.
    let sensitive =
        call_in_console(counting_bytes(), "bcrypt", vec![password.mark_sensitive()]).unwrap();
    assert_eq!(crate::format_value(&sensitive), "(sensitive value)");
    let (unmarked, _) = sensitive.unmark_deep();
    assert!(::bcrypt::verify("secret", unmarked.as_str().unwrap()).unwrap());
    // Without the console's random bytes the hash is unknown.
    assert_eq!(
        call("bcrypt", vec![Value::string("secret")]),
        Ok("(known after apply)".to_owned())
    );
}

/// cty reports a Go panic with the goroutine's stack, whose frames are
/// left out; `tests/console/panics.txt` holds the console's cases.
#[test]
fn a_go_panic_ends_where_the_stack_trace_starts() {
    assert_eq!(
        call("indent", vec![Value::int(-1), Value::string("a\nb")]),
        Err("Error in function call: Call to function \"indent\" failed: panic in function implementation: strings: negative Repeat count\ngoroutine 1 [running]:\n.".to_owned())
    );
}

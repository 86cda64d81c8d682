//! Numbers against what Go's `big.Float` gives (each expectation was
//! printed by `tofu console` or a Go program using `math/big`).

use super::*;

fn parse(text: &str) -> Number {
    Number::parse(text).unwrap()
}

fn shortest(number: &Number) -> String {
    number.text('f', -1)
}

#[test]
fn parses_and_prints_the_shortest_form_at_512_bits() {
    let cases = [
        ("0.1", "0.1"),
        ("9007199254740993", "9007199254740993"),
        ("1e3", "1000"),
        ("1.50", "1.5"),
        ("-0.000001", "-0.000001"),
        (
            "123456789012345678901234567890",
            "123456789012345678901234567890",
        ),
        ("1e-30", "0.000000000000000000000000000001"),
        ("1p3", "8"),
        ("0", "0"),
        ("Inf", "+Inf"),
        ("-inf", "-Inf"),
    ];
    for (input, expected) in cases {
        assert_eq!(shortest(&parse(input)), expected, "{input}");
    }
    for bad in ["", ".", "1..2", "1e", "0x10", "1_000", " 1", "abc", "1e+"] {
        assert!(Number::parse(bad).is_none(), "{bad}");
    }
}

#[test]
fn arithmetic_rounds_once_at_the_larger_precision() {
    assert_eq!(shortest(&parse("0.1").add(&parse("0.2"))), "0.3");
    assert_eq!(
        shortest(&parse("1").divide(&parse("3"))),
        "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335"
    );
    assert_eq!(shortest(&parse("2").multiply(&parse("0.5"))), "1");
    // A float64 result keeps 53 bits: 0.1 as a float64, printed shortest.
    assert_eq!(shortest(&Number::from_f64(0.1)), "0.1");
    assert_eq!(Number::from_f64(0.1).to_f64(), 0.1);
    assert_eq!(shortest(&Number::from_i64(-42)), "-42");
}

#[test]
fn g_format_with_ten_digits_as_set_hashes_use_it() {
    assert_eq!(parse("1").text('g', 10), "1");
    assert_eq!(parse("1234567890123").text('g', 10), "1.23456789e+12");
    assert_eq!(parse("0.5").text('g', 10), "0.5");
    assert_eq!(parse("0.00001").text('g', 10), "1e-05");
}

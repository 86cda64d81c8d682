//! What a YAML scalar means to go-cty-yaml (`resolveScalar`): its tag,
//! else its style and its text decide between string, number, bool and
//! null.
//!
//! Quoted scalars are strings. Plain (and block) scalars are looked up
//! among YAML 1.1's words (`y`, `yes`, `on`, `true` and their cases for
//! true, likewise for false, `~`/`null`/empty for null, `.inf` for
//! infinity); then, by their first character, tried as a timestamp (a
//! subset of Go's layouts, written back as RFC 3339 text in UTC or the
//! given offset, fractions dropped), a decimal, `0o` or `0x` integer, or a
//! decimal float; else they are strings. `.nan` is an error: cty has no
//! NaN. Explicit tags (`!!str`, `!!int`, `!!float`, `!!bool`, `!!null`,
//! `!!timestamp`, `!!binary`) force their reading or fail with go-cty-yaml's
//! message.

use crate::number::Number;
use crate::types::Type;
use crate::value::Value;
use tofu_syntax::go_text::go_quote;

use super::yaml_scanner::ScalarStyle;

pub(super) const STR_TAG: &str = "tag:yaml.org,2002:str";
const BOOL_TAG: &str = "tag:yaml.org,2002:bool";
const INT_TAG: &str = "tag:yaml.org,2002:int";
const FLOAT_TAG: &str = "tag:yaml.org,2002:float";
const NULL_TAG: &str = "tag:yaml.org,2002:null";
const TIMESTAMP_TAG: &str = "tag:yaml.org,2002:timestamp";
const BINARY_TAG: &str = "tag:yaml.org,2002:binary";
pub(super) const MAP_TAG: &str = "tag:yaml.org,2002:map";
pub(super) const SEQ_TAG: &str = "tag:yaml.org,2002:seq";
pub(super) const MERGE_TAG: &str = "tag:yaml.org,2002:merge";

/// The value of a scalar with this (resolved) tag, text and style, or
/// go-cty-yaml's error without its position.
pub(super) fn resolve_scalar(tag: &str, text: &str, style: ScalarStyle) -> Result<Value, String> {
    if !matches!(
        tag,
        "" | STR_TAG | BOOL_TAG | INT_TAG | FLOAT_TAG | NULL_TAG | TIMESTAMP_TAG | BINARY_TAG
    ) {
        return Err(format!("unsupported tag {}", go_quote(tag)));
    }
    let mut tag = tag;
    let hint = match text.bytes().next() {
        None => Hint::Null,
        Some(b'+' | b'-') => Hint::Sign,
        Some(b'0'..=b'9') => Hint::Digit,
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => {
            Hint::Word
        }
        Some(b'.') => Hint::Dot,
        Some(_) => Hint::None,
    };
    if hint != Hint::None && tag != STR_TAG && tag != BINARY_TAG {
        if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
            return Ok(Value::string(text));
        }
        if let Some((value, _)) = known_word(text) {
            return Ok(value);
        }
        if tag.is_empty() && matches!(text, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".to_owned());
        }
        match hint {
            Hint::Dot => {
                if let Some(number) = Number::parse(text) {
                    return Ok(Value::number(number));
                }
            }
            Hint::Digit | Hint::Sign => {
                if tag.is_empty() || tag == TIMESTAMP_TAG {
                    if let Some(timestamp) = parse_timestamp(text) {
                        return Ok(Value::string(timestamp));
                    }
                }
                if is_integer_literal(text) {
                    tag = INT_TAG;
                } else if is_float_literal(text) {
                    tag = FLOAT_TAG;
                }
            }
            Hint::Word | Hint::Null | Hint::None => {}
        }
    }
    match tag {
        STR_TAG => Ok(Value::string(text)),
        BINARY_TAG => {
            if is_base64(text) {
                Ok(Value::string(text))
            } else {
                Err(format!(
                    "cannot parse {} as {tag}: not valid base64",
                    go_quote(text)
                ))
            }
        }
        BOOL_TAG => match known_word(text) {
            Some((value, true)) => Ok(value),
            _ => Err(cannot_parse(text, tag)),
        },
        FLOAT_TAG | INT_TAG => {
            let plain = text.replace('_', "");
            Number::parse(&plain)
                .or_else(|| go_parse_int(&plain))
                .map(Value::number)
                .ok_or_else(|| cannot_parse(text, tag))
        }
        TIMESTAMP_TAG => parse_timestamp(text)
            .map(Value::string)
            .ok_or_else(|| cannot_parse(text, tag)),
        NULL_TAG => Ok(Value::dynamic_null()),
        _ => Ok(Value::string(text)),
    }
}

fn cannot_parse(text: &str, tag: &str) -> String {
    format!("cannot parse {} as {tag}", go_quote(text))
}

/// What the first character suggests (go-yaml's `resolveTable`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    None,
    Null,
    Sign,
    Digit,
    Word,
    Dot,
}

/// YAML 1.1's booleans, nulls and infinities, and whether the word is a
/// boolean.
fn known_word(text: &str) -> Option<(Value, bool)> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            (Value::bool(true), true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (Value::bool(false), true)
        }
        "" | "~" | "null" | "Null" | "NULL" => (Value::null(Type::Dynamic), false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            (Value::number(Number::infinity(false)), false)
        }
        "-.inf" | "-.Inf" | "-.INF" => (Value::number(Number::infinity(true)), false),
        _ => return None,
    })
}

/// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`, the whole text.
fn is_integer_literal(text: &str) -> bool {
    let all_nonempty = |digits: &str, is_digit: fn(&u8) -> bool| {
        !digits.is_empty() && digits.as_bytes().iter().all(is_digit)
    };
    if let Some(digits) = text.strip_prefix("0o") {
        if all_nonempty(digits, |byte| (b'0'..=b'7').contains(byte)) {
            return true;
        }
    }
    if let Some(digits) = text.strip_prefix("0x") {
        if all_nonempty(digits, u8::is_ascii_hexdigit) {
            return true;
        }
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    all_nonempty(unsigned, u8::is_ascii_digit)
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the whole text.
fn is_float_literal(text: &str) -> bool {
    let text = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (text.get(..at).unwrap_or(""), text.get(at + 1..)),
        None => (text, None),
    };
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => !fraction.is_empty() && digits(fraction),
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => !mantissa.is_empty() && digits(mantissa),
    };
    let exponent_ok = match exponent {
        None => true,
        Some(exponent) => {
            let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
            !exponent.is_empty() && digits(exponent)
        }
    };
    mantissa_ok && exponent_ok
}

/// Go's `strconv.ParseInt(text, 0, 64)`, then `ParseUint`: a sign (for
/// `ParseInt`), a `0x`/`0o`/`0b`/`0` prefix, digits of that base.
fn go_parse_int(text: &str) -> Option<Number> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = unsigned.to_ascii_lowercase();
    let (radix, digits) = if let Some(digits) = lower.strip_prefix("0x") {
        (16, digits)
    } else if let Some(digits) = lower.strip_prefix("0o") {
        (8, digits)
    } else if let Some(digits) = lower.strip_prefix("0b") {
        (2, digits)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower.get(1..).unwrap_or(""))
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    let signed_text = text.starts_with(['+', '-']);
    if negative {
        let value = 0i64.checked_sub_unsigned(magnitude)?;
        return Some(Number::from_i64(value));
    }
    match i64::try_from(magnitude) {
        Ok(value) => Some(Number::from_i64(value)),
        // ParseUint takes no sign.
        Err(_) if !signed_text => Some(Number::from_u64(magnitude)),
        Err(_) => None,
    }
}

/// Go's `base64.StdEncoding.DecodeString` succeeds: padded quanta of the
/// standard alphabet, line breaks ignored.
fn is_base64(text: &str) -> bool {
    let symbols: Vec<u8> = text
        .bytes()
        .filter(|byte| !matches!(byte, b'\r' | b'\n'))
        .collect();
    if !symbols.len().is_multiple_of(4) {
        return false;
    }
    let is_symbol = |byte: &u8| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/');
    let n_padding = symbols
        .iter()
        .rev()
        .take_while(|byte| **byte == b'=')
        .count();
    let n_data = symbols.len() - n_padding;
    n_padding <= 2
        && symbols.iter().take(n_data).all(is_symbol)
        && (n_padding == 0 || n_data % 4 == 4 - n_padding)
}

/// go-cty-yaml's timestamps: Go's `time.Parse` with the layouts
/// `2006-1-2T15:4:5.999999999Z07:00` (also with `t`),
/// `2006-1-2 15:4:5.999999999` and `2006-1-2`, written back with
/// `time.RFC3339`.
fn parse_timestamp(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let n_year_digits = bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    if n_year_digits != 4 || bytes.get(4) != Some(&b'-') {
        return None;
    }
    let mut reader = TimeReader { rest: text };
    let year: u32 = reader.fixed_digits(4)?;
    reader.literal("-")?;
    let month = reader.short_number()?;
    reader.literal("-")?;
    let day = reader.short_number()?;
    let date_only = reader.rest.is_empty();
    let (mut hour, mut minute, mut second, mut offset) = (0, 0, 0, Some(0i32));
    if !date_only {
        let separator = reader.rest.chars().next()?;
        match separator {
            'T' | 't' => reader.literal(&separator.to_string())?,
            ' ' => reader.rest = reader.rest.trim_start_matches(' '),
            _ => return None,
        }
        hour = reader.short_number()?;
        reader.literal(":")?;
        minute = reader.short_number()?;
        reader.literal(":")?;
        second = reader.short_number()?;
        reader.fraction();
        offset = if separator == ' ' {
            Some(0)
        } else {
            reader.zone()
        };
        if hour >= 24 || minute >= 60 || second >= 60 {
            return None;
        }
    }
    let offset = offset?;
    if !reader.rest.is_empty() || !(1..=12).contains(&month) || day < 1 {
        return None;
    }
    if day > days_in_month(month, year) {
        return None;
    }
    let zone = if offset == 0 {
        "Z".to_owned()
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let minutes = offset.unsigned_abs() / 60;
        format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60)
    };
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{zone}"
    ))
}

fn days_in_month(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Reads a timestamp's text front to back as Go's `time.Parse` does.
struct TimeReader<'t> {
    rest: &'t str,
}

impl TimeReader<'_> {
    fn literal(&mut self, expected: &str) -> Option<()> {
        self.rest = self.rest.strip_prefix(expected)?;
        Some(())
    }

    fn fixed_digits(&mut self, n_digits: usize) -> Option<u32> {
        let digits = self.rest.get(..n_digits)?;
        if !digits.bytes().all(|byte| byte.is_ascii_digit()) {
            return None;
        }
        self.rest = self.rest.get(n_digits..)?;
        digits.parse().ok()
    }

    /// Go's `getnum(value, false)`: one digit, or two.
    fn short_number(&mut self) -> Option<u32> {
        let bytes = self.rest.as_bytes();
        let first = bytes.first().filter(|byte| byte.is_ascii_digit())?;
        match bytes.get(1).filter(|byte| byte.is_ascii_digit()) {
            Some(second) => {
                self.rest = self.rest.get(2..)?;
                Some(u32::from(first - b'0') * 10 + u32::from(second - b'0'))
            }
            None => {
                self.rest = self.rest.get(1..)?;
                Some(u32::from(first - b'0'))
            }
        }
    }

    /// An optional fraction of a second (`.` or `,` and digits), skipped:
    /// RFC 3339 as Go writes it has none.
    fn fraction(&mut self) {
        let bytes = self.rest.as_bytes();
        let starts = matches!(bytes.first(), Some(b'.' | b','))
            && bytes.get(1).is_some_and(u8::is_ascii_digit);
        if starts {
            let n_digits = bytes
                .iter()
                .skip(1)
                .take_while(|byte| byte.is_ascii_digit())
                .count();
            self.rest = self.rest.get(1 + n_digits..).unwrap_or("");
        }
    }

    /// `Z07:00`: `Z`, or a sign, two digits, `:` and two digits; the
    /// offset in seconds.
    fn zone(&mut self) -> Option<i32> {
        if let Some(rest) = self.rest.strip_prefix('Z') {
            self.rest = rest;
            return Some(0);
        }
        let bytes = self.rest.as_bytes();
        if bytes.len() < 6 || bytes.get(3) != Some(&b':') {
            return None;
        }
        let sign = match bytes.first() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return None,
        };
        let two_digits = |at: usize| -> Option<i32> {
            let high = bytes.get(at).filter(|byte| byte.is_ascii_digit())?;
            let low = bytes.get(at + 1).filter(|byte| byte.is_ascii_digit())?;
            Some(i32::from(high - b'0') * 10 + i32::from(low - b'0'))
        };
        let hours = two_digits(1)?;
        let minutes = two_digits(4)?;
        if hours > 24 || minutes > 60 {
            return None;
        }
        self.rest = self.rest.get(6..)?;
        Some(sign * (hours * 60 + minutes) * 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_written_back_in_rfc_3339() {
        let cases = [
            ("2001-12-14", Some("2001-12-14T00:00:00Z")),
            (
                "2001-2-3t4:05:06.5-05:30",
                Some("2001-02-03T04:05:06-05:30"),
            ),
            ("2001-12-14  21:59:43.10", Some("2001-12-14T21:59:43Z")),
            ("2001-12-14T21:59:43+00:00", Some("2001-12-14T21:59:43Z")),
            ("2001-02-29", None),
            ("2000-02-29", Some("2000-02-29T00:00:00Z")),
            ("2001-12-14T21:59:43", None),
            ("20011-12-14", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_timestamp(text).as_deref(), expected, "{text}");
        }
    }

    #[test]
    fn number_forms_follow_the_regular_expressions() {
        for text in ["1", "-1", "+01", "0o17", "0x1F"] {
            assert!(is_integer_literal(text), "{text}");
        }
        for text in ["0o", "0x", "1.5", "0b1", "--1"] {
            assert!(!is_integer_literal(text), "{text}");
        }
        for text in ["1.5", ".5", "1.", "-1e3", "1.5E+10"] {
            assert!(is_float_literal(text), "{text}");
        }
        for text in [".", "e3", "1e", "1.5.1", "."] {
            assert!(!is_float_literal(text), "{text}");
        }
    }

    #[test]
    fn base64_needs_padding_and_ignores_line_breaks() {
        assert!(is_base64("aGVsbG8="));
        assert!(is_base64("aGVs\nbG8="));
        assert!(is_base64(""));
        assert!(!is_base64("aGVsbG8"));
        assert!(!is_base64("a=VsbG8="));
    }
}

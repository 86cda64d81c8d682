//! The time functions. `timestamp` and `plantimestamp` differ per run:
//! `timestamp` is the environment's clock where it has one (the console),
//! else unknown, as `tofu validate` sees it; `plantimestamp` is always
//! unknown (the console does not offer it). `timeadd` and `timecmp`
//! follow OpenTofu's `funcs/datetime.go`: Go's `time.Parse` with the
//! RFC 3339 layout (its steps repeated, so its errors come out as OpenTofu
//! rewords them), `time.ParseDuration`, and `Format(time.RFC3339)`, which
//! keeps the timestamp's own UTC offset and drops fractions of a second.
//!
//! `formatdate` is cty's own date format language: runs of one letter are
//! verbs (`YYYY`, `MMM`, `hh`, `ZZZZZ`, …), text in single quotes is
//! literal (`''` is a quote), anything else is copied.

use super::implementation::{Arguments, FunctionError, Implementation, PLAIN};
use crate::types::Type;
use crate::value::Value;
use tofu_syntax::go_text::go_quote;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    match name {
        "timestamp" => Some(Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: None,
            run: timestamp,
        }),
        "plantimestamp" => Some(Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: None,
            run: |_| Ok(Value::unknown(Type::String)),
        }),
        "timeadd" => Some(Implementation::simple(timeadd)),
        "timecmp" => Some(Implementation::simple(timecmp)),
        "formatdate" => Some(Implementation::simple(formatdate)),
        _ => None,
    }
}

/// OpenTofu's `timestamp`: `time.Now().UTC().Format(time.RFC3339)`, whole
/// seconds and `Z`.
fn timestamp(args: &Arguments) -> Result<Value, FunctionError> {
    Ok(match args.environment.per_run() {
        Some(per_run) => Value::string(format_rfc3339(per_run.now_unix_nanos(), 0)),
        None => Value::unknown(Type::String),
    })
}

fn timeadd(args: &Arguments) -> Result<Value, FunctionError> {
    let timestamp = parse_timestamp(&super::implementation::text(args, 0), Wording::Cty)
        .map_err(FunctionError::call)?;
    let duration =
        parse_duration(&super::implementation::text(args, 1)).map_err(FunctionError::call)?;
    let nanos = timestamp.unix_nanos + i128::from(duration);
    Ok(Value::string(format_rfc3339(nanos, timestamp.offset)))
}

fn timecmp(args: &Arguments) -> Result<Value, FunctionError> {
    let a = parse_timestamp(&super::implementation::text(args, 0), Wording::OpenTofu)
        .map_err(|message| FunctionError::argument(0, message))?;
    let b = parse_timestamp(&super::implementation::text(args, 1), Wording::OpenTofu)
        .map_err(|message| FunctionError::argument(1, message))?;
    Ok(Value::int(match a.unix_nanos.cmp(&b.unix_nanos) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    }))
}

/// cty's `FormatDateFunc`: the timestamp is read first (its errors are
/// the `time` argument's), then the format, token by token.
fn formatdate(args: &Arguments) -> Result<Value, FunctionError> {
    let timestamp = parse_timestamp(&super::implementation::text(args, 1), Wording::Cty)
        .map_err(|e| FunctionError::argument(1, e))?;
    let format = super::implementation::text(args, 0);
    let local = LocalTime::of(&timestamp);
    let mut out = String::new();
    for token in date_format_tokens(&format) {
        if let Some(quoted) = token.strip_prefix('\'') {
            let Some(inner) = quoted.strip_suffix('\'') else {
                return Err(FunctionError::argument(0, "unterminated literal '"));
            };
            if inner.is_empty() {
                out.push('\'');
            } else {
                out.push_str(&inner.replace("''", "'"));
            }
            continue;
        }
        match token.chars().next() {
            Some(verb) if verb.is_ascii_alphabetic() => {
                out.push_str(&local.verb(verb, token.len(), token)?);
            }
            _ => out.push_str(token),
        }
    }
    Ok(Value::string(out))
}

/// cty's `splitDateFormat`: a quoted literal (to its closing quote, `''`
/// inside it skipped; to the end when unclosed), a run of one letter, or
/// anything up to the next quote or letter.
fn date_format_tokens(format: &str) -> Vec<&str> {
    let bytes = format.as_bytes();
    let mut tokens = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let first = bytes.get(start).copied().unwrap_or(0);
        let mut end = start + 1;
        if first == b'\'' {
            if bytes.get(end) == Some(&b'\'') {
                end += 1;
            } else {
                end = bytes.len();
                let mut index = start + 1;
                while index < bytes.len() {
                    if bytes.get(index) == Some(&b'\'') {
                        if bytes.get(index + 1) == Some(&b'\'') {
                            index += 2;
                            continue;
                        }
                        end = index + 1;
                        break;
                    }
                    index += 1;
                }
            }
        } else if first.is_ascii_alphabetic() {
            while bytes.get(end) == Some(&first) {
                end += 1;
            }
        } else {
            while let Some(byte) = bytes.get(end) {
                if *byte == b'\'' || byte.is_ascii_alphabetic() {
                    break;
                }
                end += 1;
            }
        }
        // Tokens end at ASCII bytes or the end, so each is whole UTF-8.
        if let Some(token) = format.get(start..end) {
            tokens.push(token);
        }
        start = end;
    }
    tokens
}

/// A timestamp's fields at its own UTC offset.
struct LocalTime {
    year: i64,
    month: i64,
    day: i64,
    weekday: i64,
    hour: i64,
    minute: i64,
    second: i64,
    offset: i64,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

impl LocalTime {
    fn of(timestamp: &Timestamp) -> LocalTime {
        let local_seconds =
            timestamp.unix_nanos.div_euclid(1_000_000_000) + i128::from(timestamp.offset);
        let days = i64::try_from(local_seconds.div_euclid(86_400)).unwrap_or(0);
        let second_of_day = i64::try_from(local_seconds.rem_euclid(86_400)).unwrap_or(0);
        let (year, month, day) = civil_from_days(days);
        LocalTime {
            year,
            month,
            day,
            // 1970-01-01 was a Thursday.
            weekday: (days + 4).rem_euclid(7),
            hour: second_of_day / 3600,
            minute: (second_of_day % 3600) / 60,
            second: second_of_day % 60,
            offset: timestamp.offset,
        }
    }

    /// One verb of `length` letters, or cty's error for it.
    fn verb(&self, verb: char, length: usize, token: &str) -> Result<String, FunctionError> {
        let invalid = |why: &str| {
            let quoted = go_quote(token);
            FunctionError::argument(
                0,
                if why.is_empty() {
                    format!("invalid date format verb {quoted}")
                } else {
                    format!("invalid date format verb {quoted}: {why}")
                },
            )
        };
        let number = |value: i64, why: &str| match length {
            1 => Ok(value.to_string()),
            2 => Ok(format!("{value:02}")),
            _ => Err(invalid(why)),
        };
        let month_name = usize::try_from(self.month - 1)
            .ok()
            .and_then(|index| MONTHS.get(index))
            .copied()
            .unwrap_or("");
        let weekday_name = usize::try_from(self.weekday)
            .ok()
            .and_then(|index| WEEKDAYS.get(index))
            .copied()
            .unwrap_or("");
        match verb {
            'Y' => match length {
                2 => Ok(format!("{:02}", self.year % 100)),
                4 => Ok(format!("{:04}", self.year)),
                _ => Err(invalid("year must either be \"YY\" or \"YYYY\"")),
            },
            'M' => match length {
                3 => Ok(month_name.chars().take(3).collect()),
                4 => Ok(month_name.to_owned()),
                _ => number(
                    self.month,
                    "month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"",
                ),
            },
            'D' => number(self.day, "day of month must either be \"D\" or \"DD\""),
            'E' => match length {
                3 => Ok(weekday_name.chars().take(3).collect()),
                4 => Ok(weekday_name.to_owned()),
                _ => Err(invalid("day of week must either be \"EEE\" or \"EEEE\"")),
            },
            'h' => number(self.hour, "24-hour must either be \"h\" or \"hh\""),
            'H' => {
                let twelve = match self.hour % 12 {
                    0 => 12,
                    hour => hour,
                };
                number(twelve, "12-hour must either be \"H\" or \"HH\"")
            }
            'A' | 'a' => {
                if length != 2 {
                    return Err(invalid(&format!("must be \"{verb}{verb}\"")));
                }
                let marker = if self.hour < 12 { "AM" } else { "PM" };
                Ok(if verb == 'A' {
                    marker.to_owned()
                } else {
                    marker.to_ascii_lowercase()
                })
            }
            'm' => number(self.minute, "minute must either be \"m\" or \"mm\""),
            's' => number(self.second, "second must either be \"s\" or \"ss\""),
            'Z' => {
                let sign = if self.offset < 0 { '-' } else { '+' };
                let hours = self.offset.abs() / 3600;
                let minutes = (self.offset.abs() % 3600) / 60;
                match length {
                    1 if self.offset == 0 => Ok("Z".to_owned()),
                    1 | 5 => Ok(format!("{sign}{hours:02}:{minutes:02}")),
                    3 if self.offset == 0 => Ok("UTC".to_owned()),
                    3 | 4 => Ok(format!("{sign}{hours:02}{minutes:02}")),
                    _ => Err(invalid("timezone must be Z, ZZZZ, or ZZZZZ")),
                }
            }
            _ => Err(invalid("")),
        }
    }
}

/// An instant and the UTC offset it was written with (seconds east).
struct Timestamp {
    unix_nanos: i128,
    offset: i64,
}

/// Go's `time.ParseError` fields OpenTofu looks at.
struct ParseError {
    layout_element: &'static str,
    value_element: String,
    message: String,
}

/// Whose `parseTimestamp` rewords Go's errors: cty's (`timeadd`) or
/// OpenTofu's copy of it (`timecmp`), which differ in two places.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wording {
    Cty,
    OpenTofu,
}

/// `parseTimestamp`: Go's error made readable.
fn parse_timestamp(text: &str, wording: Wording) -> Result<Timestamp, String> {
    parse_rfc3339(text).map_err(|error| {
        if error.layout_element.is_empty() && error.value_element.is_empty() {
            return match wording {
                Wording::Cty => format!("not a valid RFC3339 timestamp{}", error.message),
                Wording::OpenTofu => format!(
                    "not a valid RFC3339 timestamp: parsing time {}{}",
                    go_quote(text),
                    error.message
                ),
            };
        }
        if wording == Wording::Cty {
            let value = &error.value_element;
            match error.layout_element {
                "15" if value.contains(':') => {
                    return "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive"
                        .to_owned()
                }
                "15" if !value.is_empty() && value.len() != 2 => {
                    return "not a valid RFC3339 timestamp: hour must have exactly two digits"
                        .to_owned()
                }
                "04" if !value.is_empty() && value.len() != 2 => {
                    return "not a valid RFC3339 timestamp: minute must have exactly two digits"
                        .to_owned()
                }
                _ => {}
            }
        }
        let what = match error.layout_element {
            "2006" => "year",
            "01" => "month",
            "02" => "day of month",
            "15" => "hour",
            "04" => "minute",
            "05" => "second",
            "Z07:00" => "UTC offset",
            "T" => {
                return "not a valid RFC3339 timestamp: missing required time introducer 'T'"
                    .to_owned()
            }
            ":" | "-" => {
                return if error.value_element.is_empty() {
                    format!(
                        "not a valid RFC3339 timestamp: end of string where {} is expected",
                        go_quote(error.layout_element)
                    )
                } else {
                    format!(
                        "not a valid RFC3339 timestamp: found {} where {} is expected",
                        go_quote(&error.value_element),
                        go_quote(error.layout_element)
                    )
                };
            }
            _ => "timestamp segment",
        };
        if error.value_element.is_empty() {
            format!("not a valid RFC3339 timestamp: end of string before {what}")
        } else {
            format!(
                "not a valid RFC3339 timestamp: cannot use {} as {what}",
                go_quote(&error.value_element)
            )
        }
    })
}

/// `time.Parse(time.RFC3339, text)`, step by step.
fn parse_rfc3339(text: &str) -> Result<Timestamp, ParseError> {
    let fail = |layout_element: &'static str, value: &str, message: &str| ParseError {
        layout_element,
        value_element: value.to_owned(),
        message: message.to_owned(),
    };
    let mut value = text;
    let year_text = value
        .get(..4)
        .filter(|year| year.bytes().all(|b| b.is_ascii_digit()));
    let Some(year_text) = year_text else {
        return Err(fail("2006", value, ""));
    };
    let year: i64 = year_text.parse().unwrap_or(0);
    value = value.get(4..).unwrap_or_default();
    value = literal(value, "-")?;
    let (month, rest) = number(value, true, "01")?;
    if !(1..=12).contains(&month) {
        return Err(fail("01", rest, ": month out of range"));
    }
    value = literal(rest, "-")?;
    let (day, rest) = number(value, true, "02")?;
    value = literal(rest, "T")?;
    let (hour, rest) = number(value, false, "15")?;
    if hour >= 24 {
        return Err(fail("15", rest, ": hour out of range"));
    }
    value = literal(rest, ":")?;
    let (minute, rest) = number(value, true, "04")?;
    if minute >= 60 {
        return Err(fail("04", rest, ": minute out of range"));
    }
    value = literal(rest, ":")?;
    let (second, rest) = number(value, true, "05")?;
    if second >= 60 {
        return Err(fail("05", rest, ": second out of range"));
    }
    value = rest;
    let mut nanos: i128 = 0;
    if value.len() >= 2
        && matches!(value.as_bytes().first(), Some(b'.' | b','))
        && value.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
    {
        let n_digits = value.bytes().skip(1).take_while(u8::is_ascii_digit).count();
        let digits = value.get(1..1 + n_digits).unwrap_or_default();
        let padded: String = digits
            .chars()
            .chain(std::iter::repeat('0'))
            .take(9)
            .collect();
        nanos = padded.parse().unwrap_or(0);
        value = value.get(1 + n_digits..).unwrap_or_default();
    }
    let offset;
    if let Some(rest) = value.strip_prefix('Z') {
        offset = 0;
        value = rest;
    } else {
        let zone = value
            .get(..6)
            .filter(|zone| zone.as_bytes().get(3) == Some(&b':'));
        let Some(zone) = zone else {
            return Err(fail("Z07:00", value, ""));
        };
        let hours = zone
            .get(1..3)
            .filter(|h| h.bytes().all(|b| b.is_ascii_digit()));
        let minutes = zone
            .get(4..6)
            .filter(|m| m.bytes().all(|b| b.is_ascii_digit()));
        let (Some(hours), Some(minutes)) = (hours, minutes) else {
            return Err(fail("Z07:00", value, ""));
        };
        let (hours, minutes): (i64, i64) =
            (hours.parse().unwrap_or(0), minutes.parse().unwrap_or(0));
        let magnitude = hours * 3600 + minutes * 60;
        offset = match zone.as_bytes().first() {
            Some(b'+') => magnitude,
            Some(b'-') => -magnitude,
            _ => return Err(fail("Z07:00", value, "")),
        };
        if hours > 24 {
            return Err(fail(
                "Z07:00",
                value.get(6..).unwrap_or_default(),
                ": time zone offset hour out of range",
            ));
        }
        value = value.get(6..).unwrap_or_default();
    }
    if !value.is_empty() {
        return Err(ParseError {
            layout_element: "",
            value_element: value.to_owned(),
            message: format!(": extra text: {}", go_quote(value)),
        });
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err(fail("", "", ": day out of range"));
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Ok(Timestamp {
        unix_nanos: i128::from(seconds) * 1_000_000_000 + nanos,
        offset,
    })
}

/// A literal of the layout.
fn literal<'v>(value: &'v str, expected: &'static str) -> Result<&'v str, ParseError> {
    value.strip_prefix(expected).ok_or_else(|| ParseError {
        layout_element: expected,
        value_element: value.to_owned(),
        message: String::new(),
    })
}

/// Go's `getnum`: one or two digits (two when `fixed`).
fn number<'v>(
    value: &'v str,
    fixed: bool,
    element: &'static str,
) -> Result<(i64, &'v str), ParseError> {
    let bytes = value.as_bytes();
    let digit = |index: usize| bytes.get(index).filter(|b| b.is_ascii_digit());
    let fail = || ParseError {
        layout_element: element,
        value_element: value.to_owned(),
        message: String::new(),
    };
    let Some(first) = digit(0) else {
        return Err(fail());
    };
    let Some(second) = digit(1) else {
        if fixed {
            return Err(fail());
        }
        return Ok((i64::from(first - b'0'), value.get(1..).unwrap_or_default()));
    };
    Ok((
        i64::from(first - b'0') * 10 + i64::from(second - b'0'),
        value.get(2..).unwrap_or_default(),
    ))
}

/// Go's `time.ParseDuration`, in nanoseconds.
fn parse_duration(text: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", go_quote(text));
    let mut rest = text;
    let negative = rest.starts_with('-');
    if let Some(stripped) = rest.strip_prefix(['-', '+']) {
        rest = stripped;
    }
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: u128 = 0;
    while !rest.is_empty() {
        let n_whole = rest.bytes().take_while(u8::is_ascii_digit).count();
        let whole_text = rest.get(..n_whole).unwrap_or_default();
        rest = rest.get(n_whole..).unwrap_or_default();
        let mut fraction_text = "";
        if let Some(after_dot) = rest.strip_prefix('.') {
            let n_fraction = after_dot.bytes().take_while(u8::is_ascii_digit).count();
            fraction_text = after_dot.get(..n_fraction).unwrap_or_default();
            rest = after_dot.get(n_fraction..).unwrap_or_default();
            if whole_text.is_empty() && fraction_text.is_empty() {
                return Err(invalid());
            }
        } else if whole_text.is_empty() {
            return Err(invalid());
        }
        let n_unit = rest
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(rest.len(), |(at, _)| at);
        let unit = rest.get(..n_unit).unwrap_or_default();
        rest = rest.get(n_unit..).unwrap_or_default();
        if unit.is_empty() {
            return Err(format!("time: missing unit in duration {}", go_quote(text)));
        }
        let scale: u128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    go_quote(unit),
                    go_quote(text)
                ))
            }
        };
        let whole: u128 = if whole_text.is_empty() {
            0
        } else {
            whole_text.parse().map_err(|_| invalid())?
        };
        let mut part = whole.checked_mul(scale).ok_or_else(invalid)?;
        if !fraction_text.is_empty() {
            let mut fraction_scale = scale;
            let mut fraction_value: u128 = 0;
            for digit in fraction_text.bytes().take(30) {
                fraction_value = fraction_value * 10 + u128::from(digit - b'0');
                fraction_scale *= 10;
            }
            let scaled = fraction_value * scale;
            let divisor = fraction_scale / scale;
            part += scaled / divisor.max(1);
        }
        total = total.checked_add(part).ok_or_else(invalid)?;
        if total > 1u128 << 63 {
            return Err(invalid());
        }
    }
    let total = i128::try_from(total).map_err(|_| invalid())?;
    let signed = if negative { -total } else { total };
    i64::try_from(signed).map_err(|_| invalid())
}

/// `Format(time.RFC3339)` of an instant at a UTC offset.
fn format_rfc3339(unix_nanos: i128, offset: i64) -> String {
    let local_seconds = unix_nanos.div_euclid(1_000_000_000) + i128::from(offset);
    let days = i64::try_from(local_seconds.div_euclid(86_400)).unwrap_or(0);
    let second_of_day = i64::try_from(local_seconds.rem_euclid(86_400)).unwrap_or(0);
    let (year, month, day) = civil_from_days(days);
    let zone = if offset == 0 {
        "Z".to_owned()
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let magnitude = offset.abs();
        format!(
            "{sign}{:02}:{:02}",
            magnitude / 3600,
            (magnitude % 3600) / 60
        )
    };
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}{zone}",
        second_of_day / 3600,
        (second_of_day % 3600) / 60,
        second_of_day % 60
    )
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_through_days() {
        for (year, month, day) in [(1970, 1, 1), (2000, 2, 29), (2024, 12, 31), (1969, 7, 20)] {
            let days = days_from_civil(year, month, day);
            assert_eq!(civil_from_days(days), (year, month, day));
        }
        assert_eq!(parse_duration("1h30m").unwrap(), 5_400_000_000_000);
        assert_eq!(parse_duration("-1.5s").unwrap(), -1_500_000_000);
    }
}

//! The numeric functions: `abs`, `ceil`, `floor`, `signum`, `min`, `max`,
//! `sum`, `parseint` on cty's big numbers, and `log` and `pow`, which cty
//! computes in `float64` with Go's `math.Log` and `math.Pow` (`go_math.rs`
//! repeats them bit for bit).

use num_bigint::BigInt;
use num_traits::Num;

use super::go_math;
use super::implementation::{
    number, whole_number, Accepts, Arguments, FunctionError, Implementation, PLAIN,
};
use crate::convert::convert;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let simple = Implementation::simple;
    let dynamic = Accepts {
        dynamic: true,
        ..PLAIN
    };
    Some(match name {
        "abs" => Implementation {
            parameters: &[Accepts {
                dynamic: true,
                marked: true,
                ..PLAIN
            }],
            variadic: PLAIN,
            result_type: None,
            run: |args| {
                let value = args.get(0);
                let marks = value.marks;
                Ok(Value::number(number(&value).abs()).with_marks(marks))
            },
        },
        "ceil" => simple(|args| Ok(Value::number(number(&args.get(0)).ceil()))),
        "floor" => simple(|args| Ok(Value::number(number(&args.get(0)).floor()))),
        "signum" => simple(|args| {
            let value = whole_number(&args.get(0))?;
            Ok(Value::int(value.signum()))
        }),
        "log" => simple(|args| {
            let value = float(&args.get(0))?;
            let base = float(&args.get(1))?;
            finite(go_math::log(value) / go_math::log(base))
        }),
        "pow" => simple(|args| {
            let value = float(&args.get(0))?;
            let power = float(&args.get(1))?;
            finite(go_math::pow(value, power))
        }),
        "min" | "max" => Implementation {
            parameters: &[],
            variadic: dynamic,
            result_type: None,
            run: if name == "min" { min } else { max },
        },
        "sum" => simple(sum),
        "parseint" => Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: Some(|args| {
                let value = args.first().cloned().unwrap_or_else(Value::dynamic_null);
                if value.ty() != Type::String {
                    return Err(FunctionError::argument(
                        0,
                        format!(
                            "first argument must be a string, not {}",
                            value.ty().friendly_name()
                        ),
                    ));
                }
                Ok(Type::Number)
            }),
            run: parseint,
        },
        _ => return None,
    })
}

/// A `float64` result; NaN makes cty panic (`Float.SetFloat64(NaN)`), which
/// it reports with a stack trace.
fn finite(value: f64) -> Result<Value, FunctionError> {
    if value.is_nan() {
        return Err(FunctionError::go_panic("Float.SetFloat64(NaN)"));
    }
    Ok(Value::number(Number::from_f64(value)))
}

/// gocty's conversion to a Go `float64`.
fn float(value: &Value) -> Result<f64, FunctionError> {
    let converted = number(value).to_f64();
    if converted.is_infinite() && !number(value).is_infinite() {
        return Err(FunctionError::call(format!(
            "value must be between {:.6} and {:.6} inclusive",
            -f64::MAX,
            f64::MAX
        )));
    }
    Ok(converted)
}

fn min(args: &Arguments) -> Result<Value, FunctionError> {
    extreme(args, std::cmp::Ordering::Less)
}

fn max(args: &Arguments) -> Result<Value, FunctionError> {
    extreme(args, std::cmp::Ordering::Greater)
}

fn extreme(args: &Arguments, wanted: std::cmp::Ordering) -> Result<Value, FunctionError> {
    if args.values.is_empty() {
        return Err(FunctionError::call("must pass at least one number"));
    }
    let mut best = Value::number(Number::infinity(wanted == std::cmp::Ordering::Greater));
    for value in args.values {
        if number(value).cmp_value(&number(&best)) == wanted {
            best = value.clone();
        }
    }
    Ok(best)
}

fn sum(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    let Some(items) = list.items().or_else(|| {
        list.entries()
            .map(|_| &[] as &[Value])
            .filter(|_| list.length() == Some(0))
    }) else {
        if list.entries().is_some() {
            let ty = list.ty();
            return Err(FunctionError::argument(
                0,
                format!(
                    "argument must be list, set, or tuple. Received {}",
                    ty.friendly_name()
                ),
            ));
        }
        return Err(FunctionError::argument(0, "cannot sum noniterable"));
    };
    if items.is_empty() {
        return Err(FunctionError::argument(0, "cannot sum an empty list"));
    }
    if !list.is_wholly_known() {
        return Ok(Value::unknown(Type::Number));
    }
    let not_numbers =
        || FunctionError::argument(0, "argument must be list, set, or tuple of number values");
    let mut total: Option<Number> = None;
    let mut marks = crate::value::Marks::default();
    for item in items {
        if item.is_null() {
            return Err(not_numbers());
        }
        let converted = convert(item, &Type::Number).map_err(|_| not_numbers())?;
        let (converted, item_marks) = converted.unmark();
        marks = marks.union(item_marks);
        let value = number(&converted);
        total = Some(match total {
            None => value,
            Some(sum) => sum.add(&value),
        });
    }
    Ok(Value::number(total.unwrap_or_else(Number::zero)).with_marks(marks))
}

fn parseint(args: &Arguments) -> Result<Value, FunctionError> {
    let text = super::implementation::text(args, 0);
    let base = number(&args.get(1)).to_i64_exact().ok_or_else(|| {
        FunctionError::argument(
            1,
            format!(
                "value must be a whole number, between {} and {}",
                i64::MIN,
                i64::MAX
            ),
        )
    })?;
    if !(2..=62).contains(&base) {
        return Err(FunctionError::argument(
            1,
            "base must be a whole number between 2 and 62 inclusive",
        ));
    }
    let fail = || {
        FunctionError::argument(
            0,
            format!(
                "cannot parse {} as a base {base} integer",
                tofu_syntax::go_text::go_quote(&text)
            ),
        )
    };
    let parsed = parse_big_int(&text, u32::try_from(base).unwrap_or(10)).ok_or_else(fail)?;
    Ok(Value::number(Number::from_big_int(&parsed)))
}

/// Go's `big.Int.SetString(text, base)` for a base from 2 to 62: an
/// optional sign, then digits (`0-9a-z`, and `A-Z` as 36–61 above base 36,
/// or as 10–35 up to 36); an underscore only for base 0, so never here.
fn parse_big_int(text: &str, base: u32) -> Option<BigInt> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    let magnitude = if base <= 36 {
        if !digits.chars().all(|c| c.is_digit(base)) {
            return None;
        }
        BigInt::from_str_radix(digits, base).ok()?
    } else {
        let mut value = BigInt::from(0);
        for c in digits.chars() {
            let digit = match c {
                '0'..='9' => u32::from(c) - u32::from('0'),
                'a'..='z' => u32::from(c) - u32::from('a') + 10,
                'A'..='Z' => u32::from(c) - u32::from('A') + 36,
                _ => return None,
            };
            if digit >= base {
                return None;
            }
            value = value * base + digit;
        }
        value
    };
    Some(if negative { -magnitude } else { magnitude })
}

//! Numbers as cty holds them: Go's `big.Float`, a binary floating-point
//! number with a mantissa of `precision` bits, rounded to nearest even.
//!
//! cty parses every number written in a configuration or converted from a
//! string with 512 bits of mantissa (`ParseNumberVal`), so `0.1 + 0.2` is
//! not `0.30000000000000004` but a number whose shortest decimal form at 512
//! bits is `0.3`, and `9007199254740993` is exact. Integers that cty makes
//! from Go integers have 64 bits (`NumberIntVal`), results computed in
//! `float64` have 53 (`NumberFloatVal`); an operation's result has the larger
//! precision of its operands, as `big.Float` decides. This module emulates
//! that arithmetic exactly: every operation computes the exact result on
//! big integers and rounds once, which is what `big.Float` guarantees, and
//! parsing repeats Go's own steps (including its rounded powers of five for
//! large decimal exponents). [`Number::text`] is `big.Float.Text` for the
//! `f`, `e` and `g` formats, shortest form included.
//!
//! Left out: NaN (Go panics where it would arise; here such an operation
//! gives an infinity) and exponents beyond Go's `int32` range.

mod decimal;

use std::cmp::Ordering;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use decimal::Decimal;

/// The precision cty parses numbers with.
pub const PARSE_PRECISION: u32 = 512;

/// A decimal exponent larger than this is not parsed (Go would still try).
const MAX_DECIMAL_EXPONENT: i64 = 1_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Zero,
    Finite,
    Infinite,
}

/// A `big.Float`: `(-1)^negative × mantissa × 2^exponent`, the mantissa odd
/// and at most `precision` bits long (zero and the infinities have none).
#[derive(Clone, Debug)]
pub struct Number {
    negative: bool,
    form: Form,
    mantissa: BigUint,
    exponent: i64,
    precision: u32,
}

impl PartialEq for Number {
    /// Equal values, whatever their precision (`big.Float.Cmp == 0`).
    fn eq(&self, other: &Number) -> bool {
        self.cmp_value(other) == Ordering::Equal
    }
}

impl Number {
    pub fn zero() -> Number {
        Number {
            negative: false,
            form: Form::Zero,
            mantissa: BigUint::zero(),
            exponent: 0,
            precision: 64,
        }
    }

    pub fn infinity(negative: bool) -> Number {
        Number {
            negative,
            form: Form::Infinite,
            mantissa: BigUint::zero(),
            exponent: 0,
            precision: 64,
        }
    }

    /// cty's `NumberIntVal`: 64 bits of precision.
    pub fn from_i64(value: i64) -> Number {
        Number::from_integer(&BigInt::from(value), 64)
    }

    /// cty's `NumberUIntVal`.
    pub fn from_u64(value: u64) -> Number {
        Number::from_integer(&BigInt::from(value), 64)
    }

    /// A big integer with the precision `big.Float.SetInt` gives it: its
    /// bit length, at least 64.
    pub fn from_big_int(value: &BigInt) -> Number {
        let bits = u32::try_from(value.bits()).unwrap_or(u32::MAX).max(64);
        Number::from_integer(value, bits)
    }

    fn from_integer(value: &BigInt, precision: u32) -> Number {
        let negative = value.sign() == Sign::Minus;
        round(negative, value.magnitude().clone(), 0, precision, false)
    }

    /// cty's `NumberFloatVal`: 53 bits of precision. NaN gives zero.
    pub fn from_f64(value: f64) -> Number {
        if value.is_infinite() {
            return Number::infinity(value < 0.0);
        }
        if value == 0.0 || value.is_nan() {
            let mut zero = Number::zero();
            zero.precision = 53;
            zero.negative = value.is_sign_negative() && !value.is_nan();
            return zero;
        }
        let bits = value.to_bits();
        let negative = bits >> 63 == 1;
        let biased = i64::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
        let fraction = bits & ((1 << 52) - 1);
        let (mantissa, exponent) = if biased == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1 << 52), biased - 1075)
        };
        round(negative, BigUint::from(mantissa), exponent, 53, false)
    }

    /// Go's `big.ParseFloat(text, 10, 512, ToNearestEven)`, which cty uses
    /// for numbers in configuration and numbers converted from strings:
    /// an optional sign, then `Inf`/`inf`, or decimal digits with at most one
    /// point and an optional exponent (`e` decimal, `p` binary). `None` for
    /// anything else (spaces, underscores, hexadecimal).
    pub fn parse(text: &str) -> Option<Number> {
        parse_with_precision(text, PARSE_PRECISION)
    }

    pub fn is_zero(&self) -> bool {
        self.form == Form::Zero
    }

    pub fn is_infinite(&self) -> bool {
        self.form == Form::Infinite
    }

    pub fn is_negative(&self) -> bool {
        self.negative && self.form != Form::Zero
    }

    /// Has a sign bit, zero included (`big.Float.Signbit`).
    pub fn sign_bit(&self) -> bool {
        self.negative
    }

    pub fn precision(&self) -> u32 {
        self.precision
    }

    /// A whole number (`big.Float.IsInt`).
    pub fn is_integer(&self) -> bool {
        match self.form {
            Form::Zero => true,
            Form::Finite => self.exponent >= 0,
            Form::Infinite => false,
        }
    }

    /// The value as a big integer, truncated toward zero; `None` for an
    /// infinity.
    pub fn truncate(&self) -> Option<BigInt> {
        match self.form {
            Form::Zero => Some(BigInt::zero()),
            Form::Infinite => None,
            Form::Finite => {
                let magnitude = if self.exponent >= 0 {
                    &self.mantissa << usize::try_from(self.exponent).ok()?
                } else {
                    &self.mantissa >> usize::try_from(-self.exponent).ok()?
                };
                let sign = if self.negative {
                    Sign::Minus
                } else {
                    Sign::Plus
                };
                Some(BigInt::from_biguint(sign, magnitude))
            }
        }
    }

    /// Go's `Int64()` on a whole number that fits; `None` otherwise.
    pub fn to_i64_exact(&self) -> Option<i64> {
        if !self.is_integer() {
            return None;
        }
        self.truncate()?.to_i64()
    }

    /// Go's `Int64()`: truncated toward zero, saturating at the bounds.
    pub fn to_i64_saturating(&self) -> i64 {
        match self.form {
            Form::Infinite if self.negative => i64::MIN,
            Form::Infinite => i64::MAX,
            _ => match self.truncate().and_then(|value| value.to_i64()) {
                Some(value) => value,
                None if self.negative => i64::MIN,
                None => i64::MAX,
            },
        }
    }

    /// Go's `Float64()`: rounded to nearest even at 53 bits.
    pub fn to_f64(&self) -> f64 {
        let sign = if self.negative { -1.0 } else { 1.0 };
        match self.form {
            Form::Zero => sign * 0.0,
            Form::Infinite => sign * f64::INFINITY,
            Form::Finite => {
                let rounded = round(false, self.mantissa.clone(), self.exponent, 53, false);
                let mut value = rounded.mantissa.to_u64().unwrap_or(0) as f64;
                let mut exponent = rounded.exponent;
                while exponent > 0 && value.is_finite() {
                    let step = exponent.min(512);
                    value *= 2f64.powi(i32::try_from(step).unwrap_or(0));
                    exponent -= step;
                }
                while exponent < 0 && value != 0.0 {
                    let step = exponent.max(-512);
                    value *= 2f64.powi(i32::try_from(step).unwrap_or(0));
                    exponent -= step;
                }
                sign * value
            }
        }
    }

    pub fn negate(&self) -> Number {
        let mut negated = self.clone();
        negated.negative = !negated.negative;
        negated
    }

    pub fn abs(&self) -> Number {
        let mut absolute = self.clone();
        absolute.negative = false;
        absolute
    }

    /// `new(big.Float).Add(x, y)`: rounded to the larger precision.
    pub fn add(&self, other: &Number) -> Number {
        let precision = self.precision.max(other.precision);
        match (self.form, other.form) {
            (Form::Infinite, _) => self.with_precision(precision),
            (_, Form::Infinite) => other.with_precision(precision),
            (Form::Zero, Form::Zero) => {
                let mut zero = Number::zero();
                zero.precision = precision;
                zero.negative = self.negative && other.negative;
                zero
            }
            (Form::Zero, _) => other.rounded_to(precision),
            (_, Form::Zero) => self.rounded_to(precision),
            (Form::Finite, Form::Finite) => {
                let exponent = self.exponent.min(other.exponent);
                let left = self.signed_mantissa_at(exponent);
                let right = other.signed_mantissa_at(exponent);
                let sum = left + right;
                if sum.is_zero() {
                    let mut zero = Number::zero();
                    zero.precision = precision;
                    return zero;
                }
                let negative = sum.sign() == Sign::Minus;
                round(
                    negative,
                    sum.magnitude().clone(),
                    exponent,
                    precision,
                    false,
                )
            }
        }
    }

    pub fn subtract(&self, other: &Number) -> Number {
        self.add(&other.negate())
    }

    /// cty's `Multiply`: the product at 512 bits, kept at the larger of the
    /// operands' precisions and the bits the product needs.
    pub fn multiply(&self, other: &Number) -> Number {
        let precision = self.precision.max(other.precision);
        let negative = self.negative != other.negative;
        let mut product = match (self.form, other.form) {
            (Form::Infinite, _) | (_, Form::Infinite) => Number::infinity(negative),
            (Form::Zero, _) | (_, Form::Zero) => {
                let mut zero = Number::zero();
                zero.negative = negative;
                zero
            }
            (Form::Finite, Form::Finite) => round(
                negative,
                &self.mantissa * &other.mantissa,
                self.exponent.saturating_add(other.exponent),
                512,
                false,
            ),
        };
        product.precision = precision.max(product.minimum_precision());
        product
    }

    /// `new(big.Float).Mul(x, y)`: rounded to the larger precision.
    pub fn multiply_plain(&self, other: &Number) -> Number {
        let precision = self.precision.max(other.precision);
        self.multiply_at(other, precision)
    }

    fn multiply_at(&self, other: &Number, precision: u32) -> Number {
        let negative = self.negative != other.negative;
        match (self.form, other.form) {
            (Form::Infinite, _) | (_, Form::Infinite) => {
                Number::infinity(negative).with_precision(precision)
            }
            (Form::Zero, _) | (_, Form::Zero) => {
                let mut zero = Number::zero();
                zero.negative = negative;
                zero.precision = precision;
                zero
            }
            (Form::Finite, Form::Finite) => round(
                negative,
                &self.mantissa * &other.mantissa,
                self.exponent.saturating_add(other.exponent),
                precision,
                false,
            ),
        }
    }

    /// `new(big.Float).Quo(x, y)`: rounded to the larger precision; a
    /// division by zero gives an infinity (callers report it first).
    pub fn divide(&self, other: &Number) -> Number {
        let precision = self.precision.max(other.precision);
        self.divide_at(other, precision)
    }

    fn divide_at(&self, other: &Number, precision: u32) -> Number {
        let negative = self.negative != other.negative;
        match (self.form, other.form) {
            (Form::Infinite, _) | (_, Form::Zero) => {
                Number::infinity(negative).with_precision(precision)
            }
            (Form::Zero, _) | (_, Form::Infinite) => {
                let mut zero = Number::zero();
                zero.negative = negative;
                zero.precision = precision;
                zero
            }
            (Form::Finite, Form::Finite) => divide_rounded(
                negative,
                &self.mantissa,
                self.exponent,
                &other.mantissa,
                other.exponent,
                precision,
            ),
        }
    }

    /// cty's `Modulo`: `x - y × trunc(x / y)`, and `x` itself for `y = 0`.
    pub fn modulo(&self, other: &Number) -> Number {
        if self.is_infinite() || other.is_infinite() {
            return self.multiply(other);
        }
        if other.is_zero() {
            return self.clone();
        }
        let quotient = self.divide(other);
        let whole = quotient.truncate().unwrap_or_default();
        let whole = round(
            whole.sign() == Sign::Minus,
            whole.magnitude().clone(),
            0,
            self.precision,
            false,
        );
        let product = other.multiply_plain(&whole);
        self.add(&product.negate()).with_precision(self.precision)
    }

    /// Compares the values (an infinity beyond every finite number).
    pub fn cmp_value(&self, other: &Number) -> Ordering {
        let rank = |number: &Number| -> i8 {
            match (number.form, number.negative) {
                (Form::Infinite, true) => -2,
                (Form::Infinite, false) => 2,
                (Form::Zero, _) => 0,
                (Form::Finite, true) => -1,
                (Form::Finite, false) => 1,
            }
        };
        let (left, right) = (rank(self), rank(other));
        if left != right || left.abs() != 1 {
            return left.cmp(&right);
        }
        let exponent = self.exponent.min(other.exponent);
        self.signed_mantissa_at(exponent)
            .cmp(&other.signed_mantissa_at(exponent))
    }

    /// The whole number at or below (`floor`) or at or above (`ceil`).
    pub fn floor(&self) -> Number {
        self.to_whole(true)
    }

    pub fn ceil(&self) -> Number {
        self.to_whole(false)
    }

    fn to_whole(&self, down: bool) -> Number {
        if self.is_integer() {
            return self.clone();
        }
        let Some(truncated) = self.truncate() else {
            return self.clone();
        };
        let adjusted = match (down, self.negative) {
            (true, true) => truncated - BigInt::one(),
            (false, false) => truncated + BigInt::one(),
            _ => truncated,
        };
        Number::from_big_int(&adjusted)
    }

    /// `big.Float.Text(format, digits)` for `f`, `e` and `g`; `digits < 0`
    /// is the shortest form that reads back as the same number at its
    /// precision (what `tofu console` prints, with `f`).
    pub fn text(&self, format: char, digits: i64) -> String {
        let mut out = String::new();
        if self.negative {
            out.push('-');
        }
        if self.form == Form::Infinite {
            if !self.negative {
                out.push('+');
            }
            out.push_str("Inf");
            return out;
        }
        let mut exact = match self.form {
            Form::Finite => Decimal::exact(&self.mantissa, self.exponent),
            _ => Decimal::default(),
        };
        let mut digits = digits;
        let shortest = digits < 0;
        if shortest {
            self.round_shortest(&mut exact);
            let n_digits = exact.len();
            digits = match format {
                'e' | 'E' => n_digits - 1,
                'f' => (n_digits - exact.exponent).max(0),
                _ => n_digits,
            };
        } else {
            match format {
                'e' | 'E' => exact.round(1 + digits),
                'f' => exact.round(exact.exponent + digits),
                _ => {
                    if digits == 0 {
                        digits = 1;
                    }
                    exact.round(digits);
                }
            }
        }
        match format {
            'e' | 'E' => exact.write_e(&mut out, format, digits),
            'f' => exact.write_f(&mut out, digits),
            _ => {
                let n_digits = exact.len();
                let mut exponent_limit = digits;
                if exponent_limit > n_digits && n_digits >= exact.exponent {
                    exponent_limit = n_digits;
                }
                if shortest {
                    exponent_limit = 6;
                }
                let exponent = exact.exponent - 1;
                let exponent_char = if format == 'G' { 'E' } else { 'e' };
                if exponent < -4 || exponent >= exponent_limit {
                    if digits > n_digits {
                        digits = n_digits;
                    }
                    exact.write_e(&mut out, exponent_char, digits - 1);
                } else {
                    if digits > exact.exponent {
                        digits = n_digits;
                    }
                    exact.write_f(&mut out, (digits - exact.exponent).max(0));
                }
            }
        }
        out
    }

    /// Go's `roundShortest`: the fewest digits that still lie strictly
    /// between the neighbours at this precision (or on them, when even).
    fn round_shortest(&self, exact: &mut Decimal) {
        if exact.is_empty() || self.form != Form::Finite {
            return;
        }
        let bits = i64::try_from(self.mantissa.bits()).unwrap_or(0);
        let shift = i64::from(self.precision) + 1 - bits;
        let (scaled, exponent) = if shift >= 0 {
            (
                &self.mantissa << usize::try_from(shift).unwrap_or(0),
                self.exponent - shift,
            )
        } else {
            (
                &self.mantissa >> usize::try_from(-shift).unwrap_or(0),
                self.exponent - shift,
            )
        };
        let lower = Decimal::exact(&(&scaled - BigUint::one()), exponent);
        let upper = Decimal::exact(&(&scaled + BigUint::one()), exponent);
        let inclusive = !scaled.bit(1);
        exact.round_between(&lower, &upper, inclusive);
    }

    /// The number of mantissa bits needed (`big.Float.MinPrec`).
    fn minimum_precision(&self) -> u32 {
        match self.form {
            Form::Finite => u32::try_from(self.mantissa.bits()).unwrap_or(u32::MAX),
            _ => 0,
        }
    }

    fn with_precision(&self, precision: u32) -> Number {
        let mut copy = self.clone();
        copy.precision = precision;
        copy
    }

    /// `SetPrec`: rounds to the new precision.
    pub fn rounded_to(&self, precision: u32) -> Number {
        match self.form {
            Form::Finite => round(
                self.negative,
                self.mantissa.clone(),
                self.exponent,
                precision,
                false,
            ),
            _ => self.with_precision(precision),
        }
    }

    fn signed_mantissa_at(&self, exponent: i64) -> BigInt {
        if self.form != Form::Finite {
            return BigInt::zero();
        }
        let shift = usize::try_from(self.exponent - exponent).unwrap_or(0);
        let magnitude = &self.mantissa << shift;
        let sign = if self.negative {
            Sign::Minus
        } else {
            Sign::Plus
        };
        BigInt::from_biguint(sign, magnitude)
    }
}

/// Rounds `mantissa × 2^exponent` to `precision` bits, to nearest even;
/// `sticky` says that nonzero bits were already dropped below the mantissa.
fn round(negative: bool, mantissa: BigUint, exponent: i64, precision: u32, sticky: bool) -> Number {
    if mantissa.is_zero() {
        let mut zero = Number::zero();
        zero.negative = negative;
        zero.precision = precision;
        return zero;
    }
    let bits = mantissa.bits();
    let precision_bits = u64::from(precision.max(1));
    let (mut mantissa, mut exponent) = (mantissa, exponent);
    if bits > precision_bits {
        let shift = bits - precision_bits;
        let half = mantissa.bit(shift - 1);
        let below_half = shift >= 2 && mantissa.trailing_zeros().unwrap_or(0) < shift - 1;
        let shift_usize = usize::try_from(shift).unwrap_or(usize::MAX);
        mantissa >>= shift_usize;
        exponent = exponent.saturating_add(i64::try_from(shift).unwrap_or(i64::MAX));
        let odd = mantissa.bit(0);
        if half && (below_half || sticky || odd) {
            mantissa += 1u32;
        }
    }
    let zeros = mantissa.trailing_zeros().unwrap_or(0);
    if zeros > 0 {
        mantissa >>= usize::try_from(zeros).unwrap_or(0);
        exponent = exponent.saturating_add(i64::try_from(zeros).unwrap_or(0));
    }
    Number {
        negative,
        form: Form::Finite,
        mantissa,
        exponent,
        precision,
    }
}

/// `(dividend × 2^a) / (divisor × 2^b)` rounded to `precision` bits.
fn divide_rounded(
    negative: bool,
    dividend: &BigUint,
    dividend_exponent: i64,
    divisor: &BigUint,
    divisor_exponent: i64,
    precision: u32,
) -> Number {
    let dividend_bits = i64::try_from(dividend.bits()).unwrap_or(0);
    let divisor_bits = i64::try_from(divisor.bits()).unwrap_or(0);
    // Enough bits that the quotient has at least precision + 2 of them.
    let shift = (i64::from(precision) + 2 + divisor_bits - dividend_bits).max(0) + 1;
    let scaled = dividend << usize::try_from(shift).unwrap_or(0);
    let (quotient, remainder) = scaled.div_rem(divisor);
    round(
        negative,
        quotient,
        dividend_exponent - divisor_exponent - shift,
        precision,
        !remainder.is_zero(),
    )
}

fn parse_with_precision(text: &str, precision: u32) -> Option<Number> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    if unsigned == "Inf" || unsigned == "inf" {
        return Some(Number::infinity(negative).with_precision(precision));
    }
    let mantissa_end = unsigned
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(unsigned.len());
    let (mantissa_text, exponent_text) = unsigned.split_at(mantissa_end);
    let (whole, fraction) = match mantissa_text.split_once('.') {
        Some((whole, fraction)) if !fraction.contains('.') => (whole, fraction),
        Some(_) => return None,
        None => (mantissa_text, ""),
    };
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut exponent2: i64 = 0;
    let mut exponent5: i64 = 0;
    let n_fraction = i64::try_from(fraction.len()).ok()?;
    exponent2 -= n_fraction;
    exponent5 -= n_fraction;
    if !exponent_text.is_empty() {
        let mut chars = exponent_text.chars();
        let marker = chars.next()?;
        let rest = chars.as_str();
        let digits = rest
            .strip_prefix('-')
            .or_else(|| rest.strip_prefix('+'))
            .unwrap_or(rest);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let value: i64 = digits.parse().ok()?;
        let value = if rest.starts_with('-') { -value } else { value };
        match marker {
            'e' | 'E' => {
                if value.abs() > MAX_DECIMAL_EXPONENT {
                    return None;
                }
                exponent2 += value;
                exponent5 += value;
            }
            'p' | 'P' => exponent2 = exponent2.checked_add(value)?,
            _ => return None,
        }
    }
    let digits = format!("{whole}{fraction}");
    let mantissa = BigUint::parse_bytes(digits.as_bytes(), 10)?;
    if mantissa.is_zero() {
        let mut zero = Number::zero();
        zero.negative = negative;
        zero.precision = precision;
        return Some(zero);
    }
    if exponent5 == 0 {
        return Some(round(negative, mantissa, exponent2, precision, false));
    }
    let power = power_of_five(exponent5.unsigned_abs(), precision + 64);
    if exponent5 < 0 {
        Some(divide_rounded(
            negative,
            &mantissa,
            exponent2,
            &power.mantissa,
            power.exponent,
            precision,
        ))
    } else {
        Some(round(
            negative,
            &mantissa * &power.mantissa,
            exponent2 + power.exponent,
            precision,
            false,
        ))
    }
}

/// Go's `pow5`: exact up to 5^27, then by repeated squaring, each product
/// rounded to `precision` bits.
fn power_of_five(n: u64, precision: u32) -> Number {
    const EXACT_LIMIT: u64 = 27;
    let exact = |power: u64| {
        let value = num_traits::pow(BigUint::from(5u32), usize::try_from(power).unwrap_or(0));
        round(false, value, 0, precision, false)
    };
    if n <= EXACT_LIMIT {
        return exact(n);
    }
    let mut result = exact(EXACT_LIMIT);
    let mut remaining = n - EXACT_LIMIT;
    let mut factor = round(false, BigUint::from(5u32), 0, precision, false);
    while remaining > 0 {
        if remaining & 1 == 1 {
            result = result.multiply_at(&factor, precision);
        }
        factor = factor.multiply_at(&factor, precision);
        remaining >>= 1;
    }
    result
}

#[cfg(test)]
mod tests;

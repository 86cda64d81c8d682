//! Go's `math/big` decimal: the exact decimal digits of a binary number,
//! rounded the way `big.Float.Text` rounds them, and written in the `e` and
//! `f` formats.
//!
//! `digits` are ASCII digits without trailing zeros, and the value is
//! `0.digits × 10^exponent`; no digits is zero.

use num_bigint::BigUint;

#[derive(Clone, Debug, Default)]
pub(super) struct Decimal {
    digits: Vec<u8>,
    pub(super) exponent: i64,
}

impl Decimal {
    /// The exact value of `mantissa × 2^shift`.
    pub(super) fn exact(mantissa: &BigUint, shift: i64) -> Decimal {
        if mantissa.bits() == 0 {
            return Decimal::default();
        }
        let (text, point_shift) = if shift >= 0 {
            let shifted = mantissa << usize::try_from(shift).unwrap_or(0);
            (shifted.to_str_radix(10), 0)
        } else {
            let n_zeros = i64::try_from(mantissa.trailing_zeros().unwrap_or(0)).unwrap_or(0);
            let dropped = n_zeros.min(-shift);
            let mantissa = mantissa >> usize::try_from(dropped).unwrap_or(0);
            let remaining = -(shift + dropped);
            let power =
                num_traits::pow(BigUint::from(5u32), usize::try_from(remaining).unwrap_or(0));
            ((mantissa * power).to_str_radix(10), remaining)
        };
        let mut digits = text.into_bytes();
        let exponent = i64::try_from(digits.len()).unwrap_or(0) - point_shift;
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        let mut decimal = Decimal { digits, exponent };
        decimal.trim();
        decimal
    }

    pub(super) fn len(&self) -> i64 {
        i64::try_from(self.digits.len()).unwrap_or(i64::MAX)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.digits.is_empty()
    }

    fn at(&self, index: i64) -> u8 {
        usize::try_from(index)
            .ok()
            .and_then(|index| self.digits.get(index).copied())
            .unwrap_or(b'0')
    }

    fn trim(&mut self) {
        while self.digits.last() == Some(&b'0') {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exponent = 0;
        }
    }

    /// Rounds to `n` digits, half to even on an exact half.
    pub(super) fn round(&mut self, n: i64) {
        if n < 0 || n >= self.len() {
            return;
        }
        if self.should_round_up(n) {
            self.round_up(n);
        } else {
            self.round_down(n);
        }
    }

    fn should_round_up(&self, n: i64) -> bool {
        let digit = self.at(n);
        if digit == b'5' && n + 1 == self.len() {
            return n > 0 && (self.at(n - 1) - b'0') & 1 != 0;
        }
        digit >= b'5'
    }

    pub(super) fn round_up(&mut self, n: i64) {
        if n < 0 || n >= self.len() {
            return;
        }
        let mut n = n;
        while n > 0 && self.at(n - 1) >= b'9' {
            n -= 1;
        }
        let keep = usize::try_from(n).unwrap_or(0);
        if keep == 0 {
            self.digits = vec![b'1'];
            self.exponent += 1;
            return;
        }
        self.digits.truncate(keep);
        if let Some(last) = self.digits.last_mut() {
            *last += 1;
        }
    }

    pub(super) fn round_down(&mut self, n: i64) {
        if n < 0 || n >= self.len() {
            return;
        }
        self.digits.truncate(usize::try_from(n).unwrap_or(0));
        self.trim();
    }

    /// The digit loop of Go's `roundShortest`.
    pub(super) fn round_between(&mut self, lower: &Decimal, upper: &Decimal, inclusive: bool) {
        for i in 0..self.len() {
            let digit = self.at(i);
            let low = lower.at(i);
            let up = upper.at(i);
            let ok_down = low != digit || (inclusive && i + 1 == lower.len());
            let ok_up = digit != up && (inclusive || digit + 1 < up || i + 1 < upper.len());
            match (ok_down, ok_up) {
                (true, true) => return self.round(i + 1),
                (true, false) => return self.round_down(i + 1),
                (false, true) => return self.round_up(i + 1),
                (false, false) => {}
            }
        }
    }

    /// Go's `fmtF`: `digits` digits after the point.
    pub(super) fn write_f(&self, out: &mut String, digits: i64) {
        if self.exponent > 0 {
            let n_whole = self.len().min(self.exponent);
            for index in 0..n_whole {
                out.push(char::from(self.at(index)));
            }
            for _ in n_whole..self.exponent {
                out.push('0');
            }
        } else {
            out.push('0');
        }
        if digits > 0 {
            out.push('.');
            for index in 0..digits {
                out.push(char::from(self.at(self.exponent + index)));
            }
        }
    }

    /// Go's `fmtE`: one digit, `digits` after the point, then the exponent
    /// with at least two digits.
    pub(super) fn write_e(&self, out: &mut String, marker: char, digits: i64) {
        out.push(if self.is_empty() {
            '0'
        } else {
            char::from(self.at(0))
        });
        if digits > 0 {
            out.push('.');
            for index in 1..=digits {
                out.push(char::from(self.at(index)));
            }
        }
        out.push(marker);
        let exponent = if self.is_empty() {
            0
        } else {
            self.exponent - 1
        };
        out.push(if exponent < 0 { '-' } else { '+' });
        let magnitude = exponent.unsigned_abs();
        if magnitude < 10 {
            out.push('0');
        }
        out.push_str(&magnitude.to_string());
    }
}

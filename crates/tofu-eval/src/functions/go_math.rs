//! Go's `math.Log` and `math.Pow` as OpenTofu's linux/amd64 build computes
//! them, bit for bit: `log` and `pow` call them on `float64`s, and neither
//! is correctly rounded, so a platform's `ln`/`powf` differ in the last bit.
//!
//! On amd64 `math.Log` is an assembly routine (the fdlibm reduction with
//! its own `Frexp` that does not normalise subnormals), `math.Pow` is pure
//! Go (repeated squaring for the integer part of the power, `Exp(yf *
//! Log(x))` for the fraction) and `math.Exp` is assembly with two paths
//! chosen by the CPU: this module follows the fused multiply-add path that
//! every amd64 CPU with AVX and FMA takes. On an older CPU OpenTofu takes
//! the unfused path, which can differ in the last bit. Every operation here
//! is one IEEE 754 operation in the order Go performs it; nothing may be
//! reassociated.

const SIGN_MASK: u64 = 1 << 63;
const EXPONENT_MASK: u64 = 0x7FF;
const MANTISSA_MASK: u64 = (1 << 52) - 1;
const EXPONENT_BIAS: i64 = 1023;

/// Go's `math.Log` on amd64.
pub(super) fn log(x: f64) -> f64 {
    // The constants as the assembly spells them, by their bits.
    const HALF_SQRT_2: f64 = f64::from_bits(0x3FE6_A09E_667F_3BCD);
    const LN2_HIGH: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
    const LN2_LOW: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);
    const L1: f64 = f64::from_bits(0x3FE5_5555_5555_5593);
    const L2: f64 = f64::from_bits(0x3FD9_9999_9997_FA04);
    const L3: f64 = f64::from_bits(0x3FD2_4924_9422_9359);
    const L4: f64 = f64::from_bits(0x3FCC_71C5_1D8E_78AF);
    const L5: f64 = f64::from_bits(0x3FC7_4664_96CB_03DE);
    const L6: f64 = f64::from_bits(0x3FC3_9A09_D078_C69F);
    const L7: f64 = f64::from_bits(0x3FC2_F112_DF3E_5244);

    let bits = x.to_bits();
    if bits & !SIGN_MASK == 0 {
        return f64::NEG_INFINITY;
    }
    if bits & SIGN_MASK != 0 {
        // The routine's NaN has a payload of one.
        return f64::from_bits(0x7FF8_0000_0000_0001);
    }
    if bits >= f64::INFINITY.to_bits() {
        return x;
    }
    // The mantissa with the exponent of 0.5, and the exponent unbiased so
    // that x = fraction * 2^exponent; a subnormal is not normalised first.
    let fraction_bits = (bits & MANTISSA_MASK) | 0.5f64.to_bits();
    let mut fraction = f64::from_bits(fraction_bits);
    let mut exponent = (((bits >> 52) & EXPONENT_MASK) as i64 - 0x3FE) as f64;
    // The routine compares with "not less than" the other way round, so a
    // fraction equal to √2/2 is doubled too.
    if fraction <= HALF_SQRT_2 {
        exponent -= 1.0;
        fraction *= 2.0;
    }
    let f = fraction - 1.0;
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * (((L7 * s4 + L5) * s4 + L3) * s4 + L1);
    let t2 = s4 * ((L6 * s4 + L4) * s4 + L2);
    let r = t1 + t2;
    let half_f_squared = 0.5 * f * f;
    exponent * LN2_HIGH - ((half_f_squared - (s * (half_f_squared + r) + exponent * LN2_LOW)) - f)
}

/// Go's `math.Exp` on amd64, on the path of a CPU with FMA.
pub(super) fn exp(x: f64) -> f64 {
    const LOG2_E: f64 = f64::from_bits(0x3FF7_1547_652B_82FE);
    const LN2_UPPER: f64 = f64::from_bits(0x3FE6_2E42_FEFA_3000);
    const LN2_LOWER: f64 = f64::from_bits(0x3D53_DE6A_F278_ECE6);
    const OVERFLOW: f64 = f64::from_bits(0x4086_2E42_FEFA_39EF);
    // 1/n! for n = 8 down to 3.
    const TAYLOR: [f64; 6] = [
        f64::from_bits(0x3EFA_01A0_1A01_A01A),
        f64::from_bits(0x3F2A_01A0_1A01_A01A),
        f64::from_bits(0x3F56_C16C_16C1_6C17),
        f64::from_bits(0x3F81_1111_1111_1111),
        f64::from_bits(0x3FA5_5555_5555_5555),
        f64::from_bits(0x3FC5_5555_5555_5555),
    ];

    let bits = x.to_bits();
    if bits & !SIGN_MASK >= f64::INFINITY.to_bits() {
        if x == f64::NEG_INFINITY {
            return 0.0;
        }
        return x;
    }
    if x > OVERFLOW {
        return f64::INFINITY;
    }
    let exponent = round_to_i32(LOG2_E * x);
    let k = f64::from(exponent);
    let mut reduced = (-k).mul_add(LN2_UPPER, x);
    reduced = (-k).mul_add(LN2_LOWER, reduced);
    reduced *= 0.0625;
    let mut series = TAYLOR
        .iter()
        .fold(None, |series: Option<f64>, coefficient| {
            Some(series.map_or(*coefficient, |series| reduced.mul_add(series, *coefficient)))
        })
        .unwrap_or_default();
    series = reduced.mul_add(series, 0.5);
    series = reduced.mul_add(series, 1.0);
    // e^r = (e^(r/16))^16 by squaring four times, each as y(y + 2) on y = e^(r/16) - 1.
    let mut result = reduced * series;
    for _ in 0..3 {
        result *= result + 2.0;
    }
    result = (result + 2.0).mul_add(result, 1.0);
    scale(result, exponent)
}

/// `result * 2^exponent` as the Exp routine's tail does it.
fn scale(result: f64, exponent: i32) -> f64 {
    let biased = i64::from(exponent) + 0x3FF;
    if biased >= 0x7FF {
        return f64::INFINITY;
    }
    if biased > 0 {
        return result * f64::from_bits((biased as u64) << 52);
    }
    if biased < -52 {
        return 0.0;
    }
    let partly = result * f64::from_bits(((biased + 0x3FE) as u64) << 52);
    partly * f64::from_bits(1 << 52)
}

/// x86's `CVTSD2SL` under the default rounding mode: to the nearest
/// integer, ties to even, and `i32::MIN` for anything out of range.
fn round_to_i32(value: f64) -> i32 {
    let rounded = value.round_ties_even();
    if (-2_147_483_648.0..=2_147_483_647.0).contains(&rounded) {
        rounded as i32
    } else {
        i32::MIN
    }
}

/// Go's `math.Pow` (pure Go on amd64).
pub(super) fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return go_nan();
    }
    if x == 0.0 {
        if y < 0.0 {
            if x.is_sign_negative() && is_odd_integer(y) {
                return f64::NEG_INFINITY;
            }
            return f64::INFINITY;
        }
        if x.is_sign_negative() && is_odd_integer(y) {
            return x;
        }
        return 0.0;
    }
    if y.is_infinite() {
        if x == -1.0 {
            return 1.0;
        }
        if (x.abs() < 1.0) == (y == f64::INFINITY) {
            return 0.0;
        }
        return f64::INFINITY;
    }
    if x.is_infinite() {
        if x == f64::NEG_INFINITY {
            return pow(1.0 / x, -y);
        }
        if y < 0.0 {
            return 0.0;
        }
        return f64::INFINITY;
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }

    let mut whole = y.abs().trunc();
    let mut fraction = y.abs() - whole;
    if fraction != 0.0 && x < 0.0 {
        return go_nan();
    }
    if whole >= 9_223_372_036_854_775_808.0 {
        if x == -1.0 {
            return 1.0;
        }
        if (x.abs() < 1.0) == (y > 0.0) {
            return 0.0;
        }
        return f64::INFINITY;
    }

    let mut mantissa = 1.0;
    let mut exponent: i64 = 0;
    if fraction != 0.0 {
        if fraction > 0.5 {
            fraction -= 1.0;
            whole += 1.0;
        }
        mantissa = exp(fraction * log(x));
    }

    let (mut x_mantissa, mut x_exponent) = frexp(x);
    let mut remaining = whole as i64;
    while remaining != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&x_exponent) {
            exponent += x_exponent;
            break;
        }
        if remaining & 1 == 1 {
            mantissa *= x_mantissa;
            exponent += x_exponent;
        }
        x_mantissa *= x_mantissa;
        x_exponent <<= 1;
        if x_mantissa < 0.5 {
            x_mantissa += x_mantissa;
            x_exponent -= 1;
        }
        remaining >>= 1;
    }

    if y < 0.0 {
        mantissa = 1.0 / mantissa;
        exponent = -exponent;
    }
    ldexp(mantissa, exponent)
}

/// Go's `math.NaN()`.
fn go_nan() -> f64 {
    f64::from_bits(0x7FF8_0000_0000_0001)
}

fn is_odd_integer(value: f64) -> bool {
    if value.abs() >= 9_007_199_254_740_992.0 {
        return false;
    }
    let whole = value.trunc();
    value - whole == 0.0 && (whole as i64) & 1 == 1
}

/// Go's `normalize`: a subnormal scaled up by 2^52.
fn normalize(value: f64) -> (f64, i64) {
    if value.abs() < f64::MIN_POSITIVE {
        return (value * 4_503_599_627_370_496.0, -52);
    }
    (value, 0)
}

/// Go's `math.Frexp`: a fraction in [0.5, 1) and a power of two.
fn frexp(value: f64) -> (f64, i64) {
    if value == 0.0 || value.is_infinite() || value.is_nan() {
        return (value, 0);
    }
    let (normal, shift) = normalize(value);
    let bits = normal.to_bits();
    let exponent = shift + ((bits >> 52) & EXPONENT_MASK) as i64 - EXPONENT_BIAS + 1;
    let fraction_bits = (bits & !(EXPONENT_MASK << 52)) | (((EXPONENT_BIAS - 1) as u64) << 52);
    (f64::from_bits(fraction_bits), exponent)
}

/// Go's `math.Ldexp`: `fraction * 2^exponent`, rounding a subnormal once.
fn ldexp(fraction: f64, exponent: i64) -> f64 {
    if fraction == 0.0 || fraction.is_infinite() || fraction.is_nan() {
        return fraction;
    }
    let (normal, shift) = normalize(fraction);
    let bits = normal.to_bits();
    let mut exponent = exponent
        .saturating_add(shift)
        .saturating_add(((bits >> 52) & EXPONENT_MASK) as i64 - EXPONENT_BIAS);
    if exponent < -1075 {
        return 0.0f64.copysign(normal);
    }
    if exponent > 1023 {
        return f64::INFINITY.copysign(normal);
    }
    let mut multiplier = 1.0;
    if exponent < -1022 {
        exponent += 53;
        multiplier = 1.0 / 9_007_199_254_740_992.0;
    }
    let scaled_bits = (bits & !(EXPONENT_MASK << 52)) | (((exponent + EXPONENT_BIAS) as u64) << 52);
    multiplier * f64::from_bits(scaled_bits)
}

#[cfg(test)]
mod tests {
    use super::{log, pow};

    /// Cases recorded from Go 1.26 on linux/amd64 with FMA (the oracle's
    /// machine): `x y log(x) pow(x,y)` as the bits of each `float64`, in hex.
    /// They mix random bit patterns, ordinary numbers, integers, halves,
    /// subnormals, powers near overflow and the special values.
    const GO_CASES: &str = include_str!("go_math_cases.txt");

    #[test]
    fn log_and_pow_agree_with_go_bit_for_bit() {
        let mut n_cases = 0;
        for line in GO_CASES.lines() {
            let fields: Vec<u64> = line
                .split_whitespace()
                .map(|field| u64::from_str_radix(field, 16).unwrap())
                .collect();
            let [x, y, expected_log, expected_pow] = fields[..] else {
                panic!("bad line {line:?}");
            };
            let (x, y) = (f64::from_bits(x), f64::from_bits(y));
            assert_eq!(log(x).to_bits(), expected_log, "log({x:e})");
            assert_eq!(pow(x, y).to_bits(), expected_pow, "pow({x:e}, {y:e})");
            n_cases += 1;
        }
        assert!(n_cases > 1000, "{n_cases} cases");
    }
}

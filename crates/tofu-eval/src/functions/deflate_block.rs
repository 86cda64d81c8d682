//! One deflate block as Go's `compress/flate` writes it (RFC 1951), and the
//! bit stream blocks are written to.
//!
//! Go encodes a block's tokens with whichever of the fixed codes, the
//! block's own (dynamic) codes and, when the block's bytes are still in the
//! window and at most 65,535 long, a stored copy is smallest, counting
//! every bit of each; the fixed codes win a tie with the dynamic ones and
//! a stored block must be strictly smaller. The dynamic header run-length
//! encodes the code lengths in Go's way (repeats of a non-zero length after
//! its first, in runs of at most 6; zeros in runs of up to 138, then 10,
//! then plain). Every block this module writes is non-final; the stream
//! ends with an empty stored block (`write_stored_header`).

use super::huffman::{canonical_codes, code_lengths};

/// A literal byte or a back-reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Token {
    Literal(u8),
    /// `length` in 3..=258 bytes, `distance` in 1..=32,768 bytes back.
    Match {
        length: u16,
        distance: u16,
    },
}

/// Bits written from the least significant end, as deflate packs them.
#[derive(Default)]
pub(super) struct BitWriter {
    bytes: Vec<u8>,
    pending: u64,
    n_pending: u32,
}

impl BitWriter {
    /// Writes the low `n_bits` bits of `value` (at most 32).
    fn write_bits(&mut self, value: u32, n_bits: u32) {
        let mask = (1u64 << n_bits) - 1;
        self.pending |= (u64::from(value) & mask) << self.n_pending;
        self.n_pending += n_bits;
        while self.n_pending >= 8 {
            self.bytes.push(self.pending as u8);
            self.pending >>= 8;
            self.n_pending -= 8;
        }
    }

    /// Pads with zero bits to the next byte.
    fn align(&mut self) {
        if self.n_pending > 0 {
            self.bytes.push(self.pending as u8);
            self.pending = 0;
            self.n_pending = 0;
        }
    }

    /// The bytes written, the last one padded.
    pub(super) fn finish(mut self) -> Vec<u8> {
        self.align();
        self.bytes
    }
}

const END_OF_BLOCK: usize = 256;
const N_LITERAL_SYMBOLS: usize = 286;
const N_DISTANCE_SYMBOLS: usize = 30;
const N_CODEGEN_SYMBOLS: usize = 19;
/// The order the dynamic header lists the code length code's lengths in.
const CODEGEN_ORDER: [usize; N_CODEGEN_SYMBOLS] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];
/// The shortest length of each length code (RFC 1951, 3.2.5).
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const MAX_STORED_LENGTH: usize = 65_535;

/// An empty stored block's header or a stored block's (before its bytes):
/// three header bits, padding to a byte, the length and its complement.
pub(super) fn write_stored_header(writer: &mut BitWriter, length: u16, is_final: bool) {
    writer.write_bits(u32::from(is_final), 3);
    writer.align();
    writer.write_bits(u32::from(length), 16);
    writer.write_bits(u32::from(!length), 16);
}

/// Writes `tokens` as one non-final block; `stored` is the block's bytes
/// when Go could still store them.
pub(super) fn write_block(writer: &mut BitWriter, tokens: &[Token], stored: Option<&[u8]>) {
    let mut literal_counts = [0u64; N_LITERAL_SYMBOLS];
    let mut distance_counts = [0u64; N_DISTANCE_SYMBOLS];
    let mut n_extra_bits = 0u64;
    for token in tokens {
        let Token::Match { length, distance } = *token else {
            if let Token::Literal(byte) = token {
                bump(&mut literal_counts, usize::from(*byte));
            }
            continue;
        };
        let (length_symbol, length_extra, _) = length_code(length);
        let (distance_symbol, distance_extra, _) = distance_code(distance);
        bump(&mut literal_counts, 257 + length_symbol);
        bump(&mut distance_counts, distance_symbol);
        n_extra_bits += u64::from(length_extra + distance_extra);
    }
    bump(&mut literal_counts, END_OF_BLOCK);
    let n_literals = used_prefix(&literal_counts);
    let mut n_distances = used_prefix(&distance_counts);
    if n_distances == 0 {
        // Go declares one distance code even when no match needs one.
        bump(&mut distance_counts, 0);
        n_distances = 1;
    }

    let fixed = FixedCodes::new();
    let fixed_size = 3
        + cost(&literal_counts, &fixed.literal_lengths)
        + cost(&distance_counts, &fixed.distance_lengths)
        + n_extra_bits;

    let literal_lengths = code_lengths(&literal_counts, 15);
    let distance_lengths = code_lengths(&distance_counts, 15);
    let header_lengths: Vec<u8> = literal_lengths
        .iter()
        .take(n_literals)
        .chain(distance_lengths.iter().take(n_distances))
        .copied()
        .collect();
    let codegen = run_length_encode(&header_lengths);
    let mut codegen_counts = [0u64; N_CODEGEN_SYMBOLS];
    for (symbol, _) in &codegen {
        bump(&mut codegen_counts, usize::from(*symbol));
    }
    let codegen_lengths = code_lengths(&codegen_counts, 7);
    let mut n_codegen = N_CODEGEN_SYMBOLS;
    while n_codegen > 4 && count_of(&codegen_counts, CODEGEN_ORDER.get(n_codegen - 1)) == 0 {
        n_codegen -= 1;
    }
    let repeat_bits = 2 * count_of(&codegen_counts, Some(&16))
        + 3 * count_of(&codegen_counts, Some(&17))
        + 7 * count_of(&codegen_counts, Some(&18));
    let dynamic_size = 3
        + 5
        + 5
        + 4
        + 3 * n_codegen as u64
        + cost(&codegen_counts, &codegen_lengths)
        + repeat_bits
        + cost(&literal_counts, &literal_lengths)
        + cost(&distance_counts, &distance_lengths)
        + n_extra_bits;

    let best_coded_size = fixed_size.min(dynamic_size);
    if let Some(bytes) = stored.filter(|bytes| bytes.len() <= MAX_STORED_LENGTH) {
        if ((bytes.len() as u64) + 5) * 8 < best_coded_size {
            write_stored_header(writer, bytes.len() as u16, false);
            writer.align();
            writer.bytes.extend_from_slice(bytes);
            return;
        }
    }

    if dynamic_size < fixed_size {
        writer.write_bits(4, 3);
        writer.write_bits((n_literals - 257) as u32, 5);
        writer.write_bits((n_distances - 1) as u32, 5);
        writer.write_bits((n_codegen - 4) as u32, 4);
        for symbol in CODEGEN_ORDER.iter().take(n_codegen) {
            let length = codegen_lengths.get(*symbol).copied().unwrap_or(0);
            writer.write_bits(u32::from(length), 3);
        }
        let codegen_codes = Codes::from_lengths(codegen_lengths);
        for (symbol, repeat) in &codegen {
            codegen_codes.write(writer, usize::from(*symbol));
            match symbol {
                16 => writer.write_bits(u32::from(*repeat), 2),
                17 => writer.write_bits(u32::from(*repeat), 3),
                18 => writer.write_bits(u32::from(*repeat), 7),
                _ => {}
            }
        }
        write_tokens(
            writer,
            tokens,
            &Codes::from_lengths(literal_lengths),
            &Codes::from_lengths(distance_lengths),
        );
    } else {
        writer.write_bits(2, 3);
        write_tokens(
            writer,
            tokens,
            &Codes::from_lengths(fixed.literal_lengths),
            &Codes::from_lengths(fixed.distance_lengths),
        );
    }
}

/// The code lengths of the fixed codes (RFC 1951, 3.2.6).
struct FixedCodes {
    literal_lengths: Vec<u8>,
    distance_lengths: Vec<u8>,
}

impl FixedCodes {
    fn new() -> FixedCodes {
        let literal_lengths = (0..288)
            .map(|symbol| match symbol {
                0..=143 => 8,
                144..=255 => 9,
                256..=279 => 7,
                _ => 8,
            })
            .collect();
        FixedCodes {
            literal_lengths,
            distance_lengths: vec![5; N_DISTANCE_SYMBOLS],
        }
    }
}

/// A code's lengths and its canonical (bit-reversed) codes.
struct Codes {
    lengths: Vec<u8>,
    codes: Vec<u16>,
}

impl Codes {
    fn from_lengths(lengths: Vec<u8>) -> Codes {
        let codes = canonical_codes(&lengths);
        Codes { lengths, codes }
    }

    fn write(&self, writer: &mut BitWriter, symbol: usize) {
        let length = self.lengths.get(symbol).copied().unwrap_or(0);
        let code = self.codes.get(symbol).copied().unwrap_or(0);
        writer.write_bits(u32::from(code), u32::from(length));
    }
}

fn write_tokens(writer: &mut BitWriter, tokens: &[Token], literals: &Codes, distances: &Codes) {
    for token in tokens {
        match *token {
            Token::Literal(byte) => literals.write(writer, usize::from(byte)),
            Token::Match { length, distance } => {
                let (length_symbol, length_extra, length_base) = length_code(length);
                literals.write(writer, 257 + length_symbol);
                writer.write_bits(u32::from(length - length_base), length_extra);
                let (distance_symbol, distance_extra, distance_base) = distance_code(distance);
                distances.write(writer, distance_symbol);
                writer.write_bits(u32::from(distance - distance_base), distance_extra);
            }
        }
    }
    literals.write(writer, END_OF_BLOCK);
}

/// The length code (0-based, after 256), its extra bits and its base.
fn length_code(length: u16) -> (usize, u32, u16) {
    let code = LENGTH_BASE
        .iter()
        .rposition(|base| *base <= length)
        .unwrap_or(0);
    let extra = match code {
        0..=7 | 28 => 0,
        _ => (code as u32 - 4) / 4,
    };
    let base = LENGTH_BASE.get(code).copied().unwrap_or(3);
    (code, extra, base)
}

/// The distance code, its extra bits and its base (RFC 1951, 3.2.5).
fn distance_code(distance: u16) -> (usize, u32, u16) {
    let zero_based = distance.saturating_sub(1);
    if zero_based < 4 {
        return (usize::from(zero_based), 0, zero_based + 1);
    }
    let top_bit = 15 - zero_based.leading_zeros();
    let next_bit = (zero_based >> (top_bit - 1)) & 1;
    let code = 2 * top_bit + u32::from(next_bit);
    let extra = top_bit - 1;
    let base = ((2 + next_bit) << extra) + 1;
    (code as usize, extra, base)
}

/// Go's run-length encoding of the code lengths: each symbol (0 to 18)
/// with the value of its extra bits.
fn run_length_encode(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut encoded = Vec::new();
    let mut rest = lengths;
    while let Some(&value) = rest.first() {
        let run = rest.iter().take_while(|length| **length == value).count();
        rest = rest.get(run..).unwrap_or_default();
        let mut remaining = run;
        if value != 0 {
            encoded.push((value, 0));
            remaining -= 1;
            while remaining >= 3 {
                let n = remaining.min(6);
                encoded.push((16, (n - 3) as u8));
                remaining -= n;
            }
        } else {
            while remaining >= 11 {
                let n = remaining.min(138);
                encoded.push((18, (n - 11) as u8));
                remaining -= n;
            }
            if remaining >= 3 {
                encoded.push((17, (remaining - 3) as u8));
                remaining = 0;
            }
        }
        encoded.extend(std::iter::repeat_n((value, 0), remaining));
    }
    encoded
}

fn bump(counts: &mut [u64], symbol: usize) {
    if let Some(count) = counts.get_mut(symbol) {
        *count += 1;
    }
}

fn count_of(counts: &[u64], symbol: Option<&usize>) -> u64 {
    symbol
        .and_then(|symbol| counts.get(*symbol))
        .copied()
        .unwrap_or(0)
}

/// How many symbols up to the last used one.
fn used_prefix(counts: &[u64]) -> usize {
    counts
        .iter()
        .rposition(|count| *count != 0)
        .map_or(0, |last| last + 1)
}

/// The bits `counts` take with codes of `lengths`.
fn cost(counts: &[u64], lengths: &[u8]) -> u64 {
    counts
        .iter()
        .zip(lengths)
        .map(|(count, length)| count * u64::from(*length))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::{distance_code, length_code, run_length_encode};

    #[test]
    fn length_and_distance_codes_follow_the_rfc() {
        assert_eq!(length_code(3), (0, 0, 3));
        assert_eq!(length_code(11), (8, 1, 11));
        assert_eq!(length_code(257), (27, 5, 227));
        assert_eq!(length_code(258), (28, 0, 258));
        assert_eq!(distance_code(1), (0, 0, 1));
        assert_eq!(distance_code(5), (4, 1, 5));
        assert_eq!(distance_code(7), (5, 1, 7));
        assert_eq!(distance_code(32_768), (29, 13, 24_577));
    }

    #[test]
    fn code_lengths_are_run_length_encoded_as_go_does() {
        assert_eq!(
            run_length_encode(&[8, 8, 8, 8, 8, 8, 8, 8, 0, 0, 0, 5, 0, 0]),
            vec![(8, 0), (16, 3), (8, 0), (17, 0), (5, 0), (0, 0), (0, 0)]
        );
        assert_eq!(run_length_encode(&[0; 150]), vec![(18, 127), (18, 1)]);
    }
}

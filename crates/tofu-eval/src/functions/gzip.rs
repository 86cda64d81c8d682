//! Go's `gzip.Writer` as `base64gzip` uses it: a header with no name,
//! comment or modification time, XFL 0 (the default level) and OS 255
//! (unknown), the deflate stream of `deflate.rs`, and the CRC-32 and
//! length (modulo 2^32) of the input.

use super::deflate::deflate;
use super::gunzip::crc32;

/// The gzip member Go writes for `input`.
pub(super) fn gzip(input: &[u8]) -> Vec<u8> {
    let mut member = vec![0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff];
    member.extend(deflate(input));
    member.extend(crc32(input).to_le_bytes());
    member.extend((input.len() as u32).to_le_bytes());
    member
}

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    use super::gzip;
    use crate::functions::gunzip::gunzip;

    /// `KIND SIZE SHA-256` of what Go 1.26's `gzip.Writer` (Write, Flush,
    /// Close) wrote for the input [`generated`] makes; the Go program that
    /// recorded them builds the same inputs with the same generator.
    const GO_CASES: &str = include_str!("gzip_cases.txt");

    /// xorshift64*, seeded from the kind and size.
    struct Generator(u64);

    impl Generator {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    /// Random bytes (0), a small alphabet (1), words with multi-byte
    /// characters (2), a chunk repeated with insertions (3), runs (4) or a
    /// skewed distribution (5).
    fn generated(kind: u64, size: usize) -> Vec<u8> {
        const WORDS: [&str; 17] = [
            "resource",
            "variable",
            "\"aws_instance\"",
            " = ",
            "{\n",
            "}\n",
            "日本語",
            "héllo",
            "👍🏽",
            "the",
            "of",
            "and",
            "tofu",
            "\t",
            "  ",
            "0",
            "1",
        ];
        let mut random = Generator((kind * 1_000_003 + size as u64) | 1);
        let mut bytes = Vec::new();
        while bytes.len() < size {
            match kind {
                0 => bytes.push(random.next() as u8),
                1 => bytes.push(b'a' + (random.next() % (1 + size as u64 % 6)) as u8),
                2 => bytes.extend(WORDS[(random.next() % WORDS.len() as u64) as usize].bytes()),
                3 => {
                    let chunk: Vec<u8> = (0..1 + random.next() % 3000)
                        .map(|_| random.next() as u8)
                        .collect();
                    while bytes.len() < size {
                        bytes.extend(&chunk);
                        if random.next().is_multiple_of(3) {
                            bytes.push(random.next() as u8);
                        }
                    }
                }
                4 => {
                    let n = 1 + random.next() % 600;
                    let byte = (random.next() % 4) as u8;
                    bytes.extend((0..n).map(|_| byte));
                }
                _ => bytes.push(random.next().leading_zeros() as u8 * 3),
            }
        }
        bytes.truncate(size);
        bytes
    }

    #[test]
    fn generated_inputs_compress_to_gos_bytes() {
        let mut n_cases = 0;
        for line in GO_CASES.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [kind, size, expected] = fields[..] else {
                panic!("bad line {line:?}");
            };
            let input = generated(kind.parse().unwrap(), size.parse().unwrap());
            let digest = Sha256::digest(gzip(&input));
            let actual: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
            assert_eq!(actual, expected, "kind {kind}, {size} bytes");
            n_cases += 1;
        }
        assert_eq!(n_cases, 66);
    }

    #[test]
    fn short_strings_match_go() {
        // From Go 1.26: gzip.NewWriter, Write, Flush, Close.
        assert_eq!(
            gzip(b"abc"),
            [
                0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x4a, 0x4c, 0x4a, 0x06,
                0x00, 0x00, 0x00, 0xff, 0xff, 0x01, 0x00, 0x00, 0xff, 0xff, 0xc2, 0x41, 0x24, 0x35,
                0x03, 0x00, 0x00, 0x00
            ]
        );
        let long: Vec<u8> = (0..200_000u32)
            .map(|n| ((n % 251) ^ (n / 1000)) as u8)
            .collect();
        assert_eq!(gunzip(&gzip(&long)), Ok(long));
    }
}

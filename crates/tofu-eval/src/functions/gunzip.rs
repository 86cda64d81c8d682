//! Go's `gzip.Reader` read to the end, as `base64gunzip` uses it: the
//! header (magic, method, optional extra field, name, comment and header
//! checksum), raw deflate (through `miniz_oxide`, already the workspace's
//! inflater), the CRC-32 and size trailer, and further members until the
//! input ends. Errors carry Go's words and whether they come from opening
//! the reader (the first header) or from reading.

use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

/// The most a single call inflates; beyond it the result is unknown
/// rather than an editor's memory spent on a compression bomb.
pub(super) const MAX_OUTPUT: usize = 64 << 20;

#[derive(Debug, PartialEq, Eq)]
pub(super) enum GunzipError {
    /// `gzip.NewReader` failed (Go's message).
    Open(&'static str),
    /// Reading the stream failed (Go's message).
    Read(String),
    /// More than [`MAX_OUTPUT`] bytes.
    TooLarge,
}

const UNEXPECTED_EOF: &str = "unexpected EOF";
const INVALID_HEADER: &str = "gzip: invalid header";

/// The bytes of every member of `input`.
pub(super) fn gunzip(input: &[u8]) -> Result<Vec<u8>, GunzipError> {
    let mut position = read_header(input, 0).map_err(GunzipError::Open)?;
    let mut out = Vec::new();
    loop {
        let start = out.len();
        position = inflate(input, position, &mut out)?;
        let member = out.get(start..).unwrap_or_default();
        let (Some(digest), Some(size)) = (
            little_endian::<4>(input, position).map(u32::from_le_bytes),
            little_endian::<4>(input, position + 4).map(u32::from_le_bytes),
        ) else {
            return Err(GunzipError::Read(UNEXPECTED_EOF.to_owned()));
        };
        // The size is kept modulo 2^32, as Go's uint32 counter.
        if digest != crc32(member) || size != member.len() as u32 {
            return Err(GunzipError::Read("gzip: invalid checksum".to_owned()));
        }
        position += 8;
        if position >= input.len() {
            return Ok(out);
        }
        position =
            read_header(input, position).map_err(|error| GunzipError::Read(error.to_owned()))?;
    }
}

/// Go's `readHeader` from `at`: where the deflate data starts.
fn read_header(input: &[u8], at: usize) -> Result<usize, &'static str> {
    let rest = input.get(at..).unwrap_or_default();
    let Some([id1, id2, method, flags]) = little_endian::<4>(rest, 0).filter(|_| rest.len() >= 10)
    else {
        return Err(if rest.is_empty() {
            "EOF"
        } else {
            UNEXPECTED_EOF
        });
    };
    if id1 != 0x1f || id2 != 0x8b || method != 8 {
        return Err(INVALID_HEADER);
    }
    let mut position = 10;
    if flags & 0x04 != 0 {
        let length = little_endian::<2>(rest, position).ok_or(UNEXPECTED_EOF)?;
        let length = usize::from(u16::from_le_bytes(length));
        position += 2;
        rest.get(position..position + length)
            .ok_or(UNEXPECTED_EOF)?;
        position += length;
    }
    for flag in [0x08, 0x10] {
        if flags & flag != 0 {
            // A zero-terminated string of at most 512 bytes with its zero.
            let text = rest.get(position..).unwrap_or_default();
            match text.iter().take(512).position(|byte| *byte == 0) {
                Some(zero) => position += zero + 1,
                None if text.len() >= 512 => return Err(INVALID_HEADER),
                None => return Err(UNEXPECTED_EOF),
            }
        }
    }
    if flags & 0x02 != 0 {
        let stored = little_endian::<2>(rest, position).ok_or(UNEXPECTED_EOF)?;
        let header = rest.get(..position).unwrap_or_default();
        if u16::from_le_bytes(stored) != crc32(header) as u16 {
            return Err(INVALID_HEADER);
        }
        position += 2;
    }
    Ok(at + position)
}

/// Inflates the raw deflate stream at `at` onto `out`; where it ends.
fn inflate(input: &[u8], at: usize, out: &mut Vec<u8>) -> Result<usize, GunzipError> {
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut decompressor = Box::<DecompressorOxide>::default();
    let mut position = at;
    let start = out.len();
    let mut written = start;
    out.resize(start + 4096, 0);
    loop {
        let remaining = input.get(position..).unwrap_or_default();
        let (status, consumed, produced) =
            decompress(&mut decompressor, remaining, out, written, flags);
        position += consumed;
        written += produced;
        match status {
            TINFLStatus::Done => {
                out.truncate(written);
                return Ok(position);
            }
            TINFLStatus::HasMoreOutput => {
                if out.len() >= MAX_OUTPUT {
                    return Err(GunzipError::TooLarge);
                }
                let grown = out.len().saturating_mul(2).min(MAX_OUTPUT);
                out.resize(grown, 0);
            }
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(GunzipError::Read(UNEXPECTED_EOF.to_owned()));
            }
            _ => {
                return Err(GunzipError::Read(format!(
                    "flate: corrupt input before offset {}",
                    position - at
                )))
            }
        }
    }
}

/// The `N` bytes at `at`, if `bytes` has them.
fn little_endian<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

/// CRC-32 (IEEE), as gzip's trailer and header checksum use it.
pub(super) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `printf hello | gzip -n | od` (GNU gzip 1.x): a header without
    /// flags, one stored-or-fixed deflate block, the trailer.
    const HELLO: [u8; 25] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9,
        0x07, 0x00, 0x86, 0xa6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
    ];

    #[test]
    fn reads_members_and_reports_gos_errors() {
        assert_eq!(gunzip(&HELLO), Ok(b"hello".to_vec()));
        let twice = [HELLO, HELLO].concat();
        assert_eq!(gunzip(&twice), Ok(b"hellohello".to_vec()));
        assert_eq!(gunzip(b""), Err(GunzipError::Open("EOF")));
        assert_eq!(gunzip(b"hello"), Err(GunzipError::Open(UNEXPECTED_EOF)));
        assert_eq!(
            gunzip(b"hello world"),
            Err(GunzipError::Open(INVALID_HEADER))
        );
        let truncated = HELLO.get(..20).unwrap_or_default();
        assert_eq!(
            gunzip(truncated),
            Err(GunzipError::Read(UNEXPECTED_EOF.to_owned()))
        );
        let mut corrupt_sum = HELLO;
        corrupt_sum[17] ^= 1;
        assert_eq!(
            gunzip(&corrupt_sum),
            Err(GunzipError::Read("gzip: invalid checksum".to_owned()))
        );
        let trailing = [HELLO.as_slice(), b"x"].concat();
        assert_eq!(
            gunzip(&trailing),
            Err(GunzipError::Read(UNEXPECTED_EOF.to_owned()))
        );
    }

    #[test]
    fn crc32_is_ieee() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }
}

//! The character encodings of `textencodebase64` and `textdecodebase64`,
//! found as OpenTofu finds them: golang.org/x/text's IANA index, whose names
//! and aliases, IANA names and single-byte tables `iana_index.rs` holds
//! (generated from Go by `scripts/generate_iana_encodings.py`). A name is
//! trimmed of white space and looked up as given, then lowercased as Go
//! lowercases (Unicode's simple mappings: the Kelvin sign `K` is a `k`).
//!
//! How each encoding reads and writes text: a single-byte encoding by its
//! table (a character no byte decodes to cannot be written); UTF-8 and
//! UTF-16 by hand (x/text's `UTF-16` writes a big-endian byte order mark
//! and reads either one, taking it off; `UTF-16BE` and `UTF-16LE` neither
//! write nor take one off); the East Asian encodings through encoding_rs
//! where it answers as x/text does. Both build on WHATWG's indexes, but of
//! different years and with different encoders, so each was compared with
//! x/text on every code point and every one- and two-byte sequence (and
//! EUC-JP's three-byte JIS X 0212 ones): reading agrees for Big5, EUC-JP,
//! EUC-KR, Shift_JIS and GBK once the characters x/text does not know are
//! refused ([`not_in_x_text`]); writing agrees for EUC-KR only. The rest
//! (writing Big5, EUC-JP, Shift_JIS and GBK; GB18030, ISO-2022-JP and
//! HZ-GB-2312 either way) gives no answer rather than another library's.
//! Writing fails on a character the encoding cannot represent; reading
//! fails, as in OpenTofu, wherever the decoded text holds U+FFFD (bytes
//! that mean nothing, or a U+FFFD written in the source).

use super::iana_index::{TextEncoding, ALIASES, ENCODINGS};

/// An encoding found by name: its IANA name (for messages) and how it
/// works.
#[derive(Debug)]
pub(super) struct Found {
    pub name: &'static str,
    encoding: &'static TextEncoding,
}

/// Why a text could not be encoded or decoded.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Failure {
    /// A character the encoding cannot represent, or bytes that mean
    /// nothing in it.
    NotRepresented,
    /// An encoding tofu-eval does not implement.
    NotImplemented,
}

/// `ianaindex.IANA.Encoding(name)`: `None` for a name the index does not
/// know, or knows without an encoding.
pub(super) fn find(name: &str) -> Option<Found> {
    let trimmed = name.trim();
    let at = lookup(trimmed).or_else(|| {
        let lowered: String = trimmed.chars().map(super::string::to_lower).collect();
        lookup(&lowered)
    })?;
    let (name, encoding) = ENCODINGS.get(at)?;
    Some(Found { name, encoding })
}

fn lookup(name: &str) -> Option<usize> {
    ALIASES
        .binary_search_by_key(&name, |&(alias, _)| alias)
        .ok()
        .and_then(|at| ALIASES.get(at))
        .map(|&(_, encoding)| encoding)
}

impl Found {
    /// The bytes of `text` in this encoding.
    pub fn encode(&self, text: &str) -> Result<Vec<u8>, Failure> {
        match self.encoding {
            TextEncoding::SingleByte(table) => text
                .chars()
                .map(|c| {
                    let code = u16::try_from(u32::from(c))
                        .ok()
                        .filter(|&code| code != 0xfffd);
                    code.and_then(|code| table.iter().position(|&decoded| decoded == code))
                        .and_then(|byte| u8::try_from(byte).ok())
                        .ok_or(Failure::NotRepresented)
                })
                .collect(),
            TextEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
            TextEncoding::Utf16 {
                big_endian,
                byte_order_mark,
            } => {
                let mut bytes = Vec::with_capacity(text.len() * 2 + 2);
                let units = byte_order_mark
                    .then_some(0xfeff)
                    .into_iter()
                    .chain(text.encode_utf16());
                for unit in units {
                    bytes.extend(if *big_endian {
                        unit.to_be_bytes()
                    } else {
                        unit.to_le_bytes()
                    });
                }
                Ok(bytes)
            }
            TextEncoding::EncodingRs { label, encodes } => {
                let encoding = encoding_rs::Encoding::for_label(label.as_bytes())
                    .filter(|_| *encodes)
                    .ok_or(Failure::NotImplemented)?;
                let (bytes, _, unmappable) = encoding.encode(text);
                if unmappable {
                    return Err(Failure::NotRepresented);
                }
                Ok(bytes.into_owned())
            }
            TextEncoding::NotImplemented => Err(Failure::NotImplemented),
        }
    }

    /// The text `bytes` hold in this encoding.
    pub fn decode(&self, bytes: &[u8]) -> Result<String, Failure> {
        let text = match self.encoding {
            TextEncoding::SingleByte(table) => bytes
                .iter()
                .map(|&byte| {
                    table
                        .get(usize::from(byte))
                        .and_then(|&code| char::from_u32(u32::from(code)))
                        .unwrap_or(char::REPLACEMENT_CHARACTER)
                })
                .collect(),
            TextEncoding::Utf8 => {
                String::from_utf8(bytes.to_vec()).map_err(|_| Failure::NotRepresented)?
            }
            TextEncoding::Utf16 {
                big_endian,
                byte_order_mark,
            } => decode_utf16(bytes, *big_endian, *byte_order_mark)?,
            TextEncoding::EncodingRs { label, .. } => {
                let encoding = encoding_rs::Encoding::for_label(label.as_bytes())
                    .ok_or(Failure::NotImplemented)?;
                let (text, malformed) = encoding.decode_without_bom_handling(bytes);
                if malformed || text.chars().any(|c| not_in_x_text(label, c)) {
                    return Err(Failure::NotRepresented);
                }
                text.into_owned()
            }
            TextEncoding::NotImplemented => return Err(Failure::NotImplemented),
        };
        if text.contains(char::REPLACEMENT_CHARACTER) {
            return Err(Failure::NotRepresented);
        }
        Ok(text)
    }
}

/// Characters encoding_rs reads that x/text's decoder does not: the
/// private-use area (WHATWG's indexes map unassigned double bytes there),
/// and in GBK the characters GB 18030-2022 moved out of it (vertical
/// punctuation, `ḿ`, eight CJK components), which x/text does not know.
fn not_in_x_text(label: &str, c: char) -> bool {
    let gb_2022 = [
        '\u{fe10}'..='\u{fe19}',
        '\u{1e3f}'..='\u{1e3f}',
        '\u{9fb4}'..='\u{9fbb}',
    ];
    ('\u{e000}'..='\u{f8ff}').contains(&c)
        || (label == "GBK" && gb_2022.iter().any(|range| range.contains(&c)))
}

/// x/text's UTF-16 decoder: with `byte_order_mark`, a leading mark picks
/// the byte order and is taken off (one byte alone is an error);
/// an odd byte at the end or a lone surrogate decodes to U+FFFD.
fn decode_utf16(bytes: &[u8], big_endian: bool, byte_order_mark: bool) -> Result<String, Failure> {
    let (mut big_endian, mut rest) = (big_endian, bytes);
    if byte_order_mark && !bytes.is_empty() {
        match bytes {
            [0xfe, 0xff, after @ ..] => (big_endian, rest) = (true, after),
            [0xff, 0xfe, after @ ..] => (big_endian, rest) = (false, after),
            [_, _, ..] => {}
            _ => return Err(Failure::NotRepresented),
        }
    }
    if rest.len() % 2 != 0 {
        return Err(Failure::NotRepresented);
    }
    let units = rest.chunks_exact(2).map(|pair| match pair {
        [first, second] if big_endian => u16::from_be_bytes([*first, *second]),
        [first, second] => u16::from_le_bytes([*first, *second]),
        _ => 0xfffd,
    });
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|_| Failure::NotRepresented)
}

//! HPACK (RFC 7541), the header compression of HTTP/2: a complete decoder
//! (static and dynamic table, Huffman strings, table size updates) for
//! what the provider's gRPC server sends, and the simplest valid encoder
//! for what tofu-lens sends (every field a literal never indexed, strings
//! raw), so the server's decoder never needs a table entry of ours.
//!
//! Invariant: the decoder never panics and never holds more than the table
//! size it was given; any malformed block is a [`HpackError`], which the
//! connection treats as fatal (RFC 7540 §4.3: COMPRESSION_ERROR).

use std::collections::VecDeque;

use super::hpack_tables::{CODE_LENGTHS, STATIC_TABLE, SYMBOLS_BY_CODE};

/// A malformed header block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HpackError {
    pub message: &'static str,
}

fn hpack_error(message: &'static str) -> HpackError {
    HpackError { message }
}

/// One header field: name and value as bytes (HTTP/2 allows any octets).
pub type HeaderField = (Vec<u8>, Vec<u8>);

/// The decoding side of one connection: the dynamic table persists across
/// header blocks.
pub struct HpackDecoder {
    /// Newest first.
    dynamic_table: VecDeque<HeaderField>,
    /// Sum of entry sizes (name + value + 32 each).
    table_size: usize,
    /// The current maximum, changed by size updates in a block.
    max_table_size: usize,
    /// The limit tofu-lens announced (SETTINGS_HEADER_TABLE_SIZE).
    announced_limit: usize,
}

impl HpackDecoder {
    /// A decoder whose table may grow to `announced_limit` bytes.
    pub fn new(announced_limit: usize) -> HpackDecoder {
        HpackDecoder {
            dynamic_table: VecDeque::new(),
            table_size: 0,
            max_table_size: announced_limit,
            announced_limit,
        }
    }

    /// Decodes one complete header block (HEADERS plus CONTINUATIONs).
    pub fn decode(&mut self, mut block: &[u8]) -> Result<Vec<HeaderField>, HpackError> {
        let mut fields = Vec::new();
        while let Some(&first) = block.first() {
            if first & 0x80 != 0 {
                // Indexed field.
                let index = read_integer(&mut block, 7)?;
                fields.push(self.entry(index)?);
            } else if first & 0x40 != 0 {
                // Literal with incremental indexing.
                let field = self.read_literal(&mut block, 6)?;
                self.insert(field.clone());
                fields.push(field);
            } else if first & 0x20 != 0 {
                // Dynamic table size update.
                let size = read_integer(&mut block, 5)?;
                if size > self.announced_limit {
                    return Err(hpack_error("a table size update above the announced limit"));
                }
                self.max_table_size = size;
                self.evict_to(size);
            } else {
                // Literal without indexing (0000) or never indexed (0001).
                fields.push(self.read_literal(&mut block, 4)?);
            }
        }
        Ok(fields)
    }

    fn read_literal(&self, block: &mut &[u8], prefix_bits: u8) -> Result<HeaderField, HpackError> {
        let index = read_integer(block, prefix_bits)?;
        let name = if index == 0 {
            read_string(block)?
        } else {
            self.entry(index)?.0
        };
        let value = read_string(block)?;
        Ok((name, value))
    }

    fn entry(&self, index: usize) -> Result<HeaderField, HpackError> {
        if index == 0 {
            return Err(hpack_error("index 0"));
        }
        if let Some((name, value)) = STATIC_TABLE.get(index - 1) {
            return Ok((name.as_bytes().to_vec(), value.as_bytes().to_vec()));
        }
        self.dynamic_table
            .get(index - 1 - STATIC_TABLE.len())
            .cloned()
            .ok_or(hpack_error("an index past the tables"))
    }

    fn insert(&mut self, field: HeaderField) {
        let size = entry_size(&field);
        if size > self.max_table_size {
            // RFC 7541 §4.4: an entry larger than the table empties it.
            self.dynamic_table.clear();
            self.table_size = 0;
            return;
        }
        self.evict_to(self.max_table_size - size);
        self.table_size += size;
        self.dynamic_table.push_front(field);
    }

    fn evict_to(&mut self, limit: usize) {
        while self.table_size > limit {
            let Some(oldest) = self.dynamic_table.pop_back() else {
                self.table_size = 0;
                return;
            };
            self.table_size = self.table_size.saturating_sub(entry_size(&oldest));
        }
    }
}

fn entry_size((name, value): &HeaderField) -> usize {
    name.len() + value.len() + 32
}

/// An HPACK integer with an N-bit prefix (RFC 7541 §5.1).
fn read_integer(block: &mut &[u8], prefix_bits: u8) -> Result<usize, HpackError> {
    let Some((&first, rest)) = block.split_first() else {
        return Err(hpack_error("a truncated integer"));
    };
    *block = rest;
    let mask = (1u16 << prefix_bits) - 1;
    let mut value = usize::from(u16::from(first) & mask);
    if value < usize::from(mask) {
        return Ok(value);
    }
    let mut shift = 0u32;
    loop {
        let Some((&byte, rest)) = block.split_first() else {
            return Err(hpack_error("a truncated integer"));
        };
        *block = rest;
        if shift > 28 {
            return Err(hpack_error("an integer too large"));
        }
        value = value
            .checked_add(usize::from(byte & 0x7f) << shift)
            .ok_or(hpack_error("an integer too large"))?;
        shift += 7;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
}

/// A string literal, raw or Huffman-coded (RFC 7541 §5.2).
fn read_string(block: &mut &[u8]) -> Result<Vec<u8>, HpackError> {
    let huffman = block.first().is_some_and(|first| first & 0x80 != 0);
    let length = read_integer(block, 7)?;
    if length > block.len() {
        return Err(hpack_error("a string longer than its block"));
    }
    let (bytes, rest) = block.split_at(length);
    *block = rest;
    if huffman {
        decode_huffman(bytes)
    } else {
        Ok(bytes.to_vec())
    }
}

/// Decodes a Huffman-coded string with the canonical code's tables.
pub fn decode_huffman(bytes: &[u8]) -> Result<Vec<u8>, HpackError> {
    let mut out = Vec::with_capacity(bytes.len() * 8 / 5);
    let mut code: u32 = 0;
    let mut length: u8 = 0;
    for byte in bytes {
        for shift in (0..8).rev() {
            code = (code << 1) | u32::from((byte >> shift) & 1);
            length += 1;
            if let Some(symbol) = symbol_for(code, length) {
                out.push(symbol);
                code = 0;
                length = 0;
            } else if length >= 30 {
                // Only EOS (30 ones) is left at this length: never valid.
                return Err(hpack_error("EOS or an invalid code in a Huffman string"));
            }
        }
    }
    // Padding: fewer than 8 bits, all ones (a prefix of EOS).
    if length > 7 || code != (1u32 << length) - 1 {
        return Err(hpack_error("bad padding in a Huffman string"));
    }
    Ok(out)
}

fn symbol_for(code: u32, length: u8) -> Option<u8> {
    let (_, first_code, count, first_symbol) = CODE_LENGTHS
        .iter()
        .find(|(code_length, ..)| *code_length == length)?;
    let offset = code.checked_sub(*first_code)?;
    if offset >= *count {
        return None;
    }
    SYMBOLS_BY_CODE
        .get(first_symbol + usize::try_from(offset).ok()?)
        .copied()
}

/// Encodes fields as literals never indexed, with raw strings.
pub fn encode_headers(fields: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, value) in fields {
        // 0001 0000: never indexed, new name.
        out.push(0x10);
        write_raw_string(&mut out, name.as_bytes());
        write_raw_string(&mut out, value.as_bytes());
    }
    out
}

fn write_raw_string(out: &mut Vec<u8>, bytes: &[u8]) {
    write_integer(out, 0, 7, bytes.len());
    out.extend_from_slice(bytes);
}

fn write_integer(out: &mut Vec<u8>, flags: u8, prefix_bits: u8, mut value: usize) {
    let mask = (1usize << prefix_bits) - 1;
    if value < mask {
        out.push(flags | value as u8);
        return;
    }
    out.push(flags | mask as u8);
    value -= mask;
    while value >= 0x80 {
        out.push((value & 0x7f) as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

#[cfg(test)]
mod tests;

//! Go's `compress/flate` compressor at its default level (6), as a
//! `gzip.Writer` drives it for `base64gzip`: the whole string written at
//! once, then `Flush` (an empty non-final stored block) and `Close` (an
//! empty final stored block). The bytes must be Go's, not merely a valid
//! deflate stream, so every choice follows Go's:
//!
//! - A 64 KiB window over the input that slides by 32 KiB whenever fewer
//!   than 262 bytes lie ahead of the current position; input is added to it
//!   only between passes, so where the window slides decides which blocks
//!   may still be stored.
//! - Positions hashed by their next four bytes (17-bit multiplicative
//!   hash) into chains; a match search walks at most 128 links, stops at
//!   128 bytes, and refuses a 4-byte match more than 4,096 bytes back.
//! - Lazy matching: a match found at one position is emitted only if the
//!   next position's match is no longer, and the next position is not
//!   searched when the pending match is 16 bytes or longer. The position
//!   whose chain was last looked up is remembered even when the last three
//!   bytes of the window are no longer hashed.
//! - A block ends every 16,384 tokens and at the flush; `deflate_block.rs`
//!   picks its encoding.
//!
//! Positions are offsets into the input; Go's periodic renumbering of its
//! hash chains only forgets positions that no search can reach, so it is
//! not repeated.

use super::deflate_block::{write_block, write_stored_header, BitWriter, Token};

const WINDOW_SIZE: usize = 1 << 15;
const WINDOW_MASK: usize = WINDOW_SIZE - 1;
/// Go's compressor never emits a match shorter than this.
const MIN_MATCH: usize = 4;
const MAX_MATCH: usize = 258;
/// Fewer bytes than this ahead of the position wait for more input.
const MIN_LOOKAHEAD: usize = MIN_MATCH + MAX_MATCH;
const MAX_BLOCK_TOKENS: usize = 1 << 14;
const HASH_BITS: u32 = 17;
/// Level 6's parameters.
const GOOD_LENGTH: usize = 8;
const LAZY_LENGTH: usize = 16;
const NICE_LENGTH: usize = 128;
const MAX_CHAIN: usize = 128;
/// A match of only `MIN_MATCH` bytes further back than this is not used.
const FAR_FOR_SHORT_MATCH: usize = 4096;

/// The raw deflate stream Go's `Write`, `Flush` and `Close` produce for
/// `input`.
pub(super) fn deflate(input: &[u8]) -> Vec<u8> {
    let mut compressor = Compressor::new(input);
    while compressor.base + compressor.window_end < input.len() {
        compressor.compress(false);
        compressor.fill();
    }
    compressor.compress(true);
    write_stored_header(&mut compressor.writer, 0, false);
    compressor.compress(true);
    write_stored_header(&mut compressor.writer, 0, true);
    compressor.writer.finish()
}

struct Compressor<'a> {
    input: &'a [u8],
    writer: BitWriter,
    /// Where in the input the window starts (a multiple of 32 KiB).
    base: usize,
    /// How much of the input the window holds, from `base`.
    window_end: usize,
    /// The current position, from `base`.
    position: usize,
    /// Where the pending block's bytes start, from `base`; `None` once they
    /// have slid out of the window.
    block_start: Option<usize>,
    /// Whether the byte before `position` still needs a token.
    byte_pending: bool,
    /// The match found at the previous position (length 3: none).
    match_length: usize,
    match_distance: usize,
    /// The chain head last looked up, as stored in the chains.
    chain_head: usize,
    /// Per hash, the latest position with it; per position (modulo the
    /// window), the previous one. Stored as input offset plus one; zero is
    /// none.
    hash_head: Vec<usize>,
    hash_previous: Vec<usize>,
    tokens: Vec<Token>,
}

impl<'a> Compressor<'a> {
    fn new(input: &'a [u8]) -> Compressor<'a> {
        Compressor {
            input,
            writer: BitWriter::default(),
            base: 0,
            window_end: 0,
            position: 0,
            block_start: Some(0),
            byte_pending: false,
            match_length: MIN_MATCH - 1,
            match_distance: 0,
            chain_head: 0,
            hash_head: vec![0; 1 << HASH_BITS],
            hash_previous: vec![0; WINDOW_SIZE],
            tokens: Vec::with_capacity(MAX_BLOCK_TOKENS + 1),
        }
    }

    /// Adds input to the window, sliding it first when the position is
    /// near its end.
    fn fill(&mut self) {
        if self.position >= 2 * WINDOW_SIZE - MIN_LOOKAHEAD {
            self.base += WINDOW_SIZE;
            self.position -= WINDOW_SIZE;
            self.window_end -= WINDOW_SIZE;
            self.block_start = self
                .block_start
                .and_then(|start| start.checked_sub(WINDOW_SIZE));
        }
        let remaining = self.input.len() - (self.base + self.window_end);
        self.window_end += remaining.min(2 * WINDOW_SIZE - self.window_end);
    }

    fn byte(&self, position: usize) -> u8 {
        self.input.get(self.base + position).copied().unwrap_or(0)
    }

    /// Links `position` into its hash chain; returns the chain's previous
    /// head.
    fn insert(&mut self, position: usize) -> usize {
        let absolute = self.base + position;
        let bytes = self
            .input
            .get(absolute..absolute + 4)
            .and_then(|bytes| <[u8; 4]>::try_from(bytes).ok())
            .unwrap_or_default();
        let hash = u32::from_be_bytes(bytes).wrapping_mul(0x1E35_A7BD) >> (32 - HASH_BITS);
        let Some(head) = self.hash_head.get_mut(hash as usize) else {
            return 0;
        };
        let previous = *head;
        *head = absolute + 1;
        if let Some(link) = self.hash_previous.get_mut(absolute & WINDOW_MASK) {
            *link = previous;
        }
        previous
    }

    /// A stored chain entry as a window position, if it is one.
    fn window_position(&self, stored: usize) -> Option<usize> {
        stored.checked_sub(1 + self.base)
    }

    /// Go's `deflate` pass: tokens for the window's bytes, leaving the last
    /// 262 for more input unless `flush`.
    fn compress(&mut self, flush: bool) {
        if self.window_end - self.position < MIN_LOOKAHEAD && !flush {
            return;
        }
        let insert_limit = self.window_end.saturating_sub(MIN_MATCH - 1);
        loop {
            let lookahead = self.window_end - self.position;
            if lookahead < MIN_LOOKAHEAD {
                if !flush {
                    return;
                }
                if lookahead == 0 {
                    if self.byte_pending {
                        self.tokens
                            .push(Token::Literal(self.byte(self.position - 1)));
                        self.byte_pending = false;
                    }
                    if !self.tokens.is_empty() {
                        self.end_block(self.position);
                    }
                    return;
                }
            }
            let position = self.position;
            if position < insert_limit {
                self.chain_head = self.insert(position);
            }
            let previous_length = self.match_length;
            let previous_distance = self.match_distance;
            self.match_length = MIN_MATCH - 1;
            self.match_distance = 0;
            let lowest = position.saturating_sub(WINDOW_SIZE);
            if let Some(head) = self.window_position(self.chain_head) {
                if head >= lowest && lookahead > previous_length && previous_length < LAZY_LENGTH {
                    if let Some((length, distance)) = self.find_match(position, head, lookahead) {
                        self.match_length = length;
                        self.match_distance = distance;
                    }
                }
            }
            if previous_length >= MIN_MATCH && self.match_length <= previous_length {
                self.tokens.push(Token::Match {
                    length: previous_length as u16,
                    distance: previous_distance as u16,
                });
                // The match started at the previous position; hash the rest of it.
                let end = position + previous_length - 1;
                for skipped in position + 1..end {
                    if skipped < insert_limit {
                        self.insert(skipped);
                    }
                }
                self.position = end.max(position + 1);
                self.byte_pending = false;
                self.match_length = MIN_MATCH - 1;
                if self.tokens.len() == MAX_BLOCK_TOKENS {
                    self.end_block(self.position);
                }
            } else {
                if self.byte_pending {
                    self.tokens
                        .push(Token::Literal(self.byte(self.position - 1)));
                    if self.tokens.len() == MAX_BLOCK_TOKENS {
                        self.end_block(self.position);
                    }
                }
                self.position += 1;
                self.byte_pending = true;
            }
        }
    }

    /// The longest match for `position` along the chain from `candidate`.
    fn find_match(
        &self,
        position: usize,
        mut candidate: usize,
        lookahead: usize,
    ) -> Option<(usize, usize)> {
        let longest_possible = lookahead.min(MAX_MATCH);
        let good_enough = longest_possible.min(NICE_LENGTH);
        let mut length = MIN_MATCH - 1;
        let mut tries = if length >= GOOD_LENGTH {
            MAX_CHAIN / 4
        } else {
            MAX_CHAIN
        };
        let mut best = None;
        let mut byte_after_best = self.byte(position + length);
        // May be negative (before the input): then no candidate equals it.
        let lowest = position.checked_sub(WINDOW_SIZE);
        while tries > 0 {
            if self.byte(candidate + length) == byte_after_best {
                let n = self.match_length_at(candidate, position, longest_possible);
                let distance = position - candidate;
                if n > length && (n > MIN_MATCH || distance <= FAR_FOR_SHORT_MATCH) {
                    length = n;
                    best = Some((n, distance));
                    if n >= good_enough {
                        break;
                    }
                    byte_after_best = self.byte(position + n);
                }
            }
            if Some(candidate) == lowest {
                break;
            }
            let stored = self
                .hash_previous
                .get((self.base + candidate) & WINDOW_MASK)
                .copied()
                .unwrap_or(0);
            match self.window_position(stored) {
                Some(previous) if lowest.is_none_or(|lowest| previous >= lowest) => {
                    candidate = previous;
                }
                _ => break,
            }
            tries -= 1;
        }
        best
    }

    /// How many bytes from `candidate` equal those from `position`, up to `limit`.
    fn match_length_at(&self, candidate: usize, position: usize, limit: usize) -> usize {
        let at = |start: usize| {
            self.input
                .get(self.base + start..)
                .unwrap_or_default()
                .iter()
                .take(limit)
        };
        at(candidate)
            .zip(at(position))
            .take_while(|(a, b)| a == b)
            .count()
    }

    /// Writes the pending tokens as a block ending at `end`.
    fn end_block(&mut self, end: usize) {
        let stored = self
            .block_start
            .filter(|start| *start <= end)
            .and_then(|start| self.input.get(self.base + start..self.base + end));
        write_block(&mut self.writer, &self.tokens, stored);
        self.block_start = Some(end);
        self.tokens.clear();
    }
}

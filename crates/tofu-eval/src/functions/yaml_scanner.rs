//! `yamldecode`'s tokens: the scanner of libyaml as go-cty-yaml ports it,
//! rule for rule, so that the same text gives the same tokens, the same
//! positions and the same errors.
//!
//! The text is read as characters; a position ([`Mark`]) counts characters
//! from the start (`index`), lines from 0 and columns from 0, as libyaml
//! does. Tokens are produced lazily, only as far as the parser asks, with
//! libyaml's simple-key bookkeeping (a scalar may turn out to be a key when
//! a `:` follows it on the same line, within 1024 characters) and its
//! indentation stack (block starts and ends are tokens). Errors stop the
//! scanner: the first one is the one OpenTofu reports.
//!
//! Left out: `%TAG` directives and `%` escapes in tags scan as
//! [`ScanError::NotCovered`] (go-cty-yaml accepts them, but the values of
//! documents that carry them are not computed here); so do control
//! characters past the reader's first 512 bytes, which libyaml reports
//! only when it reaches them, after whatever error comes before.

use std::collections::VecDeque;

#[path = "yaml_scanner_scalars.rs"]
mod scalars;

/// A position in the text: characters from the start, line and column
/// from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Mark {
    pub index: usize,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum TokenKind {
    StreamStart,
    StreamEnd,
    VersionDirective { major: u8, minor: u8 },
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(String),
    Anchor(String),
    Tag { handle: String, suffix: String },
    Scalar { value: String, style: ScalarStyle },
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub kind: TokenKind,
    pub start_mark: Mark,
    pub end_mark: Mark,
}

/// Why reading stopped: libyaml's error (its problem, where it was found,
/// and the mark of what was being read), or a document this reader does
/// not cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ScanError {
    Problem(Problem),
    NotCovered,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Problem {
    pub kind: ProblemKind,
    pub problem: &'static str,
    pub problem_mark: Mark,
    pub context_mark: Mark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ProblemKind {
    Reader,
    Scanner,
    Parser,
}

/// How far libyaml's reader decodes before the scanner starts: a control
/// character within it is reported before anything else.
const FIRST_READ_BYTES: usize = 512;

#[derive(Clone, Copy, Default)]
struct SimpleKey {
    possible: bool,
    required: bool,
    token_number: usize,
    mark: Mark,
}

pub(super) struct Scanner {
    text: Vec<char>,
    position: usize,
    mark: Mark,
    tokens: VecDeque<Token>,
    tokens_parsed: usize,
    token_available: bool,
    stream_start_produced: bool,
    stream_end_produced: bool,
    indent: isize,
    indents: Vec<isize>,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    flow_level: usize,
    error: Option<ScanError>,
}

type Scan<T> = Result<T, ScanError>;

impl Scanner {
    pub fn new(text: &str) -> Scanner {
        let mut scanner = Scanner {
            text: text.chars().collect(),
            position: 0,
            mark: Mark::default(),
            tokens: VecDeque::new(),
            tokens_parsed: 0,
            token_available: false,
            stream_start_produced: false,
            stream_end_produced: false,
            indent: -1,
            indents: Vec::new(),
            simple_key_allowed: false,
            simple_keys: Vec::new(),
            flow_level: 0,
            error: None,
        };
        scanner.error = reader_error(text);
        // The reader drops a byte order mark at the start of the stream.
        if scanner.text.first() == Some(&'\u{feff}') {
            scanner.position = 1;
        }
        scanner
    }

    /// The next token, scanning as far as libyaml would to know it.
    pub fn peek(&mut self) -> Scan<&Token> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        if !self.token_available {
            if let Err(error) = self.fetch_more_tokens() {
                self.error = Some(error.clone());
                return Err(error);
            }
        }
        self.tokens.front().ok_or(ScanError::NotCovered)
    }

    pub fn skip_token(&mut self) {
        self.token_available = false;
        self.tokens_parsed += 1;
        if let Some(token) = self.tokens.pop_front() {
            self.stream_end_produced = token.kind == TokenKind::StreamEnd;
        }
    }

    pub fn stream_end_produced(&self) -> bool {
        self.stream_end_produced
    }

    fn at(&self, offset: usize) -> char {
        self.text
            .get(self.position + offset)
            .copied()
            .unwrap_or('\0')
    }

    fn is_at_end(&self) -> bool {
        self.position >= self.text.len()
    }

    fn error(&self, context_mark: Mark, problem: &'static str) -> ScanError {
        ScanError::Problem(Problem {
            kind: ProblemKind::Scanner,
            problem,
            problem_mark: self.mark,
            context_mark,
        })
    }

    fn skip(&mut self) {
        self.mark.index += 1;
        self.mark.column += 1;
        self.position += 1;
    }

    fn skip_line(&mut self) {
        if self.at(0) == '\r' && self.at(1) == '\n' {
            self.mark.index += 2;
            self.mark.column = 0;
            self.mark.line += 1;
            self.position += 2;
        } else if is_break(self.at(0)) {
            self.mark.index += 1;
            self.mark.column = 0;
            self.mark.line += 1;
            self.position += 1;
        }
    }

    fn read(&mut self, into: &mut String) {
        into.push(self.at(0));
        self.skip();
    }

    /// A line break read into `into` as libyaml normalises it: CR, LF,
    /// CRLF and NEL become `\n`; LS and PS stay.
    fn read_line(&mut self, into: &mut String) {
        let character = self.at(0);
        if character == '\r' && self.at(1) == '\n' {
            into.push('\n');
            self.position += 2;
            self.mark.index += 2;
        } else if matches!(character, '\r' | '\n' | '\u{85}') {
            into.push('\n');
            self.position += 1;
            self.mark.index += 1;
        } else if matches!(character, '\u{2028}' | '\u{2029}') {
            into.push(character);
            self.position += 1;
            self.mark.index += 1;
        } else {
            return;
        }
        self.mark.column = 0;
        self.mark.line += 1;
    }

    fn fetch_more_tokens(&mut self) -> Scan<()> {
        loop {
            let mut need_more_tokens = self.tokens.is_empty();
            if !need_more_tokens {
                self.stale_simple_keys()?;
                need_more_tokens = self
                    .simple_keys
                    .iter()
                    .any(|key| key.possible && key.token_number == self.tokens_parsed);
            }
            if !need_more_tokens {
                break;
            }
            self.fetch_next_token()?;
        }
        self.token_available = true;
        Ok(())
    }

    fn fetch_next_token(&mut self) -> Scan<()> {
        if !self.stream_start_produced {
            self.fetch_stream_start();
            return Ok(());
        }
        self.scan_to_next_token()?;
        self.stale_simple_keys()?;
        self.unroll_indent(self.mark.column as isize);
        if self.is_at_end() {
            return self.fetch_stream_end();
        }
        let character = self.at(0);
        let next = self.at(1);
        if self.mark.column == 0 && character == '%' {
            return self.fetch_directive();
        }
        if self.at_document_indicator() {
            let kind = if character == '-' {
                TokenKind::DocumentStart
            } else {
                TokenKind::DocumentEnd
            };
            return self.fetch_document_indicator(kind);
        }
        match character {
            '[' => return self.fetch_flow_collection_start(TokenKind::FlowSequenceStart),
            '{' => return self.fetch_flow_collection_start(TokenKind::FlowMappingStart),
            ']' => return self.fetch_flow_collection_end(TokenKind::FlowSequenceEnd),
            '}' => return self.fetch_flow_collection_end(TokenKind::FlowMappingEnd),
            ',' => return self.fetch_flow_entry(),
            '-' if is_blankz(next) => return self.fetch_block_entry(),
            '?' if self.flow_level > 0 || is_blankz(next) => return self.fetch_key(),
            ':' if self.flow_level > 0 || is_blankz(next) => return self.fetch_value(),
            '*' => return self.fetch_anchor(true),
            '&' => return self.fetch_anchor(false),
            '!' => return self.fetch_tag(),
            '|' if self.flow_level == 0 => return self.fetch_block_scalar(true),
            '>' if self.flow_level == 0 => return self.fetch_block_scalar(false),
            '\'' => return self.fetch_flow_scalar(true),
            '"' => return self.fetch_flow_scalar(false),
            _ => {}
        }
        let is_indicator = is_blankz(character)
            || matches!(
                character,
                '-' | '?'
                    | ':'
                    | ','
                    | '['
                    | ']'
                    | '{'
                    | '}'
                    | '#'
                    | '&'
                    | '*'
                    | '!'
                    | '|'
                    | '>'
                    | '\''
                    | '"'
                    | '%'
                    | '@'
                    | '`'
            );
        if !is_indicator
            || (character == '-' && !is_blank(next))
            || (self.flow_level == 0 && matches!(character, '?' | ':') && !is_blankz(next))
        {
            return self.fetch_plain_scalar();
        }
        Err(self.error(self.mark, "found character that cannot start any token"))
    }

    fn stale_simple_keys(&mut self) -> Scan<()> {
        let mark = self.mark;
        for index in 0..self.simple_keys.len() {
            let Some(key) = self.simple_keys.get(index).copied() else {
                continue;
            };
            if key.possible && (key.mark.line < mark.line || key.mark.index + 1024 < mark.index) {
                if key.required {
                    return Err(self.error(key.mark, "could not find expected ':'"));
                }
                if let Some(key) = self.simple_keys.get_mut(index) {
                    key.possible = false;
                }
            }
        }
        Ok(())
    }

    fn save_simple_key(&mut self) -> Scan<()> {
        let required = self.flow_level == 0 && self.indent == self.mark.column as isize;
        if self.simple_key_allowed {
            let key = SimpleKey {
                possible: true,
                required,
                token_number: self.tokens_parsed + self.tokens.len(),
                mark: self.mark,
            };
            self.remove_simple_key()?;
            if let Some(last) = self.simple_keys.last_mut() {
                *last = key;
            }
        }
        Ok(())
    }

    fn remove_simple_key(&mut self) -> Scan<()> {
        if let Some(key) = self.simple_keys.last().copied() {
            if key.possible && key.required {
                return Err(self.error(key.mark, "could not find expected ':'"));
            }
        }
        if let Some(key) = self.simple_keys.last_mut() {
            key.possible = false;
        }
        Ok(())
    }

    fn increase_flow_level(&mut self) {
        self.simple_keys.push(SimpleKey::default());
        self.flow_level += 1;
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            self.simple_keys.pop();
        }
    }

    /// A block start token when `column` is deeper than the indentation,
    /// at `number` (a token number) or at the end.
    fn roll_indent(&mut self, column: usize, number: Option<usize>, kind: TokenKind, mark: Mark) {
        if self.flow_level > 0 {
            return;
        }
        if self.indent < column as isize {
            self.indents.push(self.indent);
            self.indent = column as isize;
            let token = Token {
                kind,
                start_mark: mark,
                end_mark: mark,
            };
            match number {
                Some(number) => {
                    let at = number
                        .saturating_sub(self.tokens_parsed)
                        .min(self.tokens.len());
                    self.tokens.insert(at, token);
                }
                None => self.tokens.push_back(token),
            }
        }
    }

    fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            self.tokens.push_back(Token {
                kind: TokenKind::BlockEnd,
                start_mark: self.mark,
                end_mark: self.mark,
            });
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    /// A one-character indicator's token.
    fn push_indicator(&mut self, kind: TokenKind) {
        let start_mark = self.mark;
        self.skip();
        self.push_token(kind, start_mark);
    }

    fn push_token(&mut self, kind: TokenKind, start_mark: Mark) {
        self.tokens.push_back(Token {
            kind,
            start_mark,
            end_mark: self.mark,
        });
    }

    fn fetch_stream_start(&mut self) {
        self.indent = -1;
        self.simple_keys.push(SimpleKey::default());
        self.simple_key_allowed = true;
        self.stream_start_produced = true;
        self.push_token(TokenKind::StreamStart, self.mark);
    }

    fn fetch_stream_end(&mut self) -> Scan<()> {
        if self.mark.column != 0 {
            self.mark.column = 0;
            self.mark.line += 1;
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        self.push_token(TokenKind::StreamEnd, self.mark);
        Ok(())
    }

    fn fetch_directive(&mut self) -> Scan<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start_mark = self.mark;
        self.skip();
        let mut name = String::new();
        while is_alpha(self.at(0)) {
            self.read(&mut name);
        }
        if name.is_empty() {
            return Err(self.error(start_mark, "could not find expected directive name"));
        }
        if !is_blankz(self.at(0)) {
            return Err(self.error(start_mark, "found unexpected non-alphabetical character"));
        }
        let kind = match name.as_str() {
            "YAML" => {
                while is_blank(self.at(0)) {
                    self.skip();
                }
                let major = self.scan_version_number(start_mark)?;
                if self.at(0) != '.' {
                    return Err(
                        self.error(start_mark, "did not find expected digit or '.' character")
                    );
                }
                self.skip();
                let minor = self.scan_version_number(start_mark)?;
                TokenKind::VersionDirective { major, minor }
            }
            "TAG" => return Err(ScanError::NotCovered),
            _ => return Err(self.error(start_mark, "found unknown directive name")),
        };
        self.finish_line(start_mark)?;
        self.push_token(kind, start_mark);
        Ok(())
    }

    /// The rest of a directive's or a block scalar header's line: blanks,
    /// a comment, the line break.
    fn finish_line(&mut self, start_mark: Mark) -> Scan<()> {
        while is_blank(self.at(0)) {
            self.skip();
        }
        if self.at(0) == '#' {
            while !is_breakz(self.at(0)) {
                self.skip();
            }
        }
        if !is_breakz(self.at(0)) {
            return Err(self.error(start_mark, "did not find expected comment or line break"));
        }
        self.skip_line();
        Ok(())
    }

    /// `---` or `...` at the start of a line, then a blank or the end.
    fn at_document_indicator(&self) -> bool {
        self.mark.column == 0
            && is_blankz(self.at(3))
            && ((self.at(0) == '-' && self.at(1) == '-' && self.at(2) == '-')
                || (self.at(0) == '.' && self.at(1) == '.' && self.at(2) == '.'))
    }

    /// One number of a `%YAML` version: one or two digits.
    fn scan_version_number(&mut self, start_mark: Mark) -> Scan<u8> {
        let mut value = 0u8;
        let mut n_digits = 0;
        while let Some(digit) = self.at(0).to_digit(10) {
            n_digits += 1;
            if n_digits > 2 {
                return Err(self.error(start_mark, "found extremely long version number"));
            }
            value = value * 10 + digit as u8;
            self.skip();
        }
        if n_digits == 0 {
            return Err(self.error(start_mark, "did not find expected version number"));
        }
        Ok(value)
    }

    fn fetch_document_indicator(&mut self, kind: TokenKind) -> Scan<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start_mark = self.mark;
        self.skip();
        self.skip();
        self.skip();
        self.push_token(kind, start_mark);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: TokenKind) -> Scan<()> {
        self.save_simple_key()?;
        self.increase_flow_level();
        self.simple_key_allowed = true;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: TokenKind) -> Scan<()> {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Scan<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.push_indicator(TokenKind::FlowEntry);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.error(
                    self.mark,
                    "block sequence entries are not allowed in this context",
                ));
            }
            self.roll_indent(
                self.mark.column,
                None,
                TokenKind::BlockSequenceStart,
                self.mark,
            );
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.push_indicator(TokenKind::BlockEntry);
        Ok(())
    }

    fn fetch_key(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.error(self.mark, "mapping keys are not allowed in this context"));
            }
            self.roll_indent(
                self.mark.column,
                None,
                TokenKind::BlockMappingStart,
                self.mark,
            );
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        self.push_indicator(TokenKind::Key);
        Ok(())
    }

    fn fetch_value(&mut self) -> Scan<()> {
        let simple_key = self.simple_keys.last().copied().unwrap_or_default();
        if simple_key.possible {
            let at = simple_key
                .token_number
                .saturating_sub(self.tokens_parsed)
                .min(self.tokens.len());
            self.tokens.insert(
                at,
                Token {
                    kind: TokenKind::Key,
                    start_mark: simple_key.mark,
                    end_mark: simple_key.mark,
                },
            );
            self.roll_indent(
                simple_key.mark.column,
                Some(simple_key.token_number),
                TokenKind::BlockMappingStart,
                simple_key.mark,
            );
            if let Some(key) = self.simple_keys.last_mut() {
                key.possible = false;
            }
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    return Err(
                        self.error(self.mark, "mapping values are not allowed in this context")
                    );
                }
                self.roll_indent(
                    self.mark.column,
                    None,
                    TokenKind::BlockMappingStart,
                    self.mark,
                );
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        self.push_indicator(TokenKind::Value);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Scan<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start_mark = self.mark;
        self.skip();
        let mut name = String::new();
        while is_alpha(self.at(0)) {
            self.read(&mut name);
        }
        let character = self.at(0);
        let ends_well = is_blankz(character)
            || matches!(character, '?' | ':' | ',' | ']' | '}' | '%' | '@' | '`');
        if name.is_empty() || !ends_well {
            return Err(self.error(
                start_mark,
                "did not find expected alphabetic or numeric character",
            ));
        }
        let kind = if alias {
            TokenKind::Alias(name)
        } else {
            TokenKind::Anchor(name)
        };
        self.push_token(kind, start_mark);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Scan<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start_mark = self.mark;
        let (handle, suffix);
        if self.at(1) == '<' {
            self.skip();
            self.skip();
            suffix = self.scan_tag_uri("", start_mark)?;
            if self.at(0) != '>' {
                return Err(self.error(start_mark, "did not find the expected '>'"));
            }
            self.skip();
            handle = String::new();
        } else {
            let scanned_handle = self.scan_tag_handle()?;
            if scanned_handle.len() > 1 && scanned_handle.ends_with('!') {
                suffix = self.scan_tag_uri("", start_mark)?;
                handle = scanned_handle;
            } else {
                let scanned_suffix = self.scan_tag_uri(&scanned_handle, start_mark)?;
                if scanned_suffix.is_empty() {
                    handle = String::new();
                    suffix = "!".to_owned();
                } else {
                    handle = "!".to_owned();
                    suffix = scanned_suffix;
                }
            }
        }
        if !is_blankz(self.at(0)) {
            return Err(self.error(start_mark, "did not find expected whitespace or line break"));
        }
        self.push_token(TokenKind::Tag { handle, suffix }, start_mark);
        Ok(())
    }

    /// `!`, `!!` or `!name!` (the scanner already saw the first `!`).
    fn scan_tag_handle(&mut self) -> Scan<String> {
        let mut handle = String::new();
        self.read(&mut handle);
        while is_alpha(self.at(0)) {
            self.read(&mut handle);
        }
        if self.at(0) == '!' {
            self.read(&mut handle);
        }
        Ok(handle)
    }

    /// The characters of a tag's URI after `head` (without its first
    /// character); `%` escapes are left to a later version.
    fn scan_tag_uri(&mut self, head: &str, start_mark: Mark) -> Scan<String> {
        let mut uri: String = head.chars().skip(1).collect();
        let mut has_tag = !head.is_empty();
        loop {
            let character = self.at(0);
            let is_uri_character = is_alpha(character)
                || matches!(
                    character,
                    ';' | '/'
                        | '?'
                        | ':'
                        | '@'
                        | '&'
                        | '='
                        | '+'
                        | '$'
                        | ','
                        | '.'
                        | '!'
                        | '~'
                        | '*'
                        | '\''
                        | '('
                        | ')'
                        | '['
                        | ']'
                        | '%'
                );
            if !is_uri_character {
                break;
            }
            if character == '%' {
                return Err(ScanError::NotCovered);
            }
            self.read(&mut uri);
            has_tag = true;
        }
        if !has_tag {
            return Err(self.error(start_mark, "did not find expected tag URI"));
        }
        Ok(uri)
    }

    fn scan_to_next_token(&mut self) -> Scan<()> {
        loop {
            if self.mark.column == 0 && self.at(0) == '\u{feff}' {
                self.skip();
            }
            while self.at(0) == ' '
                || ((self.flow_level > 0 || !self.simple_key_allowed) && self.at(0) == '\t')
            {
                self.skip();
            }
            if self.at(0) == '#' {
                while !is_breakz(self.at(0)) {
                    self.skip();
                }
            }
            if is_break(self.at(0)) {
                self.skip_line();
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
            } else {
                return Ok(());
            }
        }
    }
}

/// libyaml's reader refuses control characters (and U+FFFE, U+FFFF); it
/// finds one within its first read before anything else happens.
fn reader_error(text: &str) -> Option<ScanError> {
    let (offset, character) = text.char_indices().find(|(_, character)| {
        !matches!(u32::from(*character),
            0x09 | 0x0a | 0x0d | 0x20..=0x7e | 0x85 | 0xa0..=0xd7ff | 0xe000..=0xfffd | 0x10000..)
    })?;
    if offset + character.len_utf8() > FIRST_READ_BYTES {
        return Some(ScanError::NotCovered);
    }
    Some(ScanError::Problem(Problem {
        kind: ProblemKind::Reader,
        problem: "control characters are not allowed",
        problem_mark: Mark::default(),
        context_mark: Mark::default(),
    }))
}

fn is_alpha(character: char) -> bool {
    character.is_ascii_alphanumeric() || character == '_' || character == '-'
}

fn is_blank(character: char) -> bool {
    character == ' ' || character == '\t'
}

fn is_break(character: char) -> bool {
    matches!(character, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_breakz(character: char) -> bool {
    is_break(character) || character == '\0'
}

fn is_blankz(character: char) -> bool {
    is_blank(character) || is_breakz(character)
}

//! `jsondecode` as OpenTofu runs it: cty's `ImpliedType` reads the document
//! token by token through Go's `encoding/json` `Decoder` (`Token`, then
//! `More` after the top-level value), and the value is built from the same
//! tokens. So a document fails where Go's decoder fails, in its words
//! ("invalid character 'f' in literal false (expecting 'a')", "unexpected
//! EOF", "EOF", "invalid character '}' looking for beginning of object key
//! string", "extraneous data after JSON object"), and what the decoder lets
//! through passes here too: a top-level value followed by `]` or `}` is
//! read and the rest ignored, since `More` then says nothing follows.
//!
//! The token states and the scanner of one scalar (string, number,
//! literal) follow Go's `stream.go` and `scanner.go`, byte by byte; string
//! escapes are decoded as Go's `unquote` does (a lone surrogate becomes
//! U+FFFD). Arrays and objects are read without recursion.

use std::collections::BTreeMap;

use crate::number::Number;
use crate::value::Value;
use tofu_syntax::go_text::go_quote;

/// Why a document does not decode.
#[derive(Debug, PartialEq)]
pub(crate) enum JsonDecodeError {
    /// What Go's decoder or cty's `ImpliedType` says, as the function
    /// call's error.
    Syntax(String),
    /// A number Go reads that cty cannot parse (`1e99999999999`): cty's
    /// "a number is required".
    InvalidNumber,
}

/// The value of a JSON document, as cty's `jsondecode` gives it: objects
/// and arrays as objects and tuples, `null` as a null of unknown type.
pub(crate) fn decode(text: &str) -> Result<Value, JsonDecodeError> {
    let mut decoder = Decoder::new(text.as_bytes());
    let mut open: Vec<Container> = Vec::new();
    let mut invalid_number = false;
    let mut token = decoder.token()?;
    loop {
        // `token` starts a value.
        let mut completed = match token {
            Token::Open(b'[') => {
                open.push(Container::Tuple(Vec::new()));
                None
            }
            Token::Open(_) => {
                open.push(Container::Object(BTreeMap::new(), None));
                None
            }
            Token::Scalar(scalar) => Some(scalar.into_value(&mut invalid_number)),
            Token::Close(delimiter) => {
                return Err(syntax(format!(
                    "unexpected token {}",
                    go_quote(&char::from(delimiter).to_string())
                )))
            }
        };
        // Values completed go into the container that holds them; then the
        // next token of the innermost open container.
        token = loop {
            if let Some(value) = completed.take() {
                match open.last_mut() {
                    None => {
                        if decoder.more() {
                            return Err(syntax("extraneous data after JSON object"));
                        }
                        if invalid_number {
                            return Err(JsonDecodeError::InvalidNumber);
                        }
                        return Ok(value);
                    }
                    Some(Container::Tuple(items)) => items.push(value),
                    Some(Container::Object(attributes, key)) => {
                        let key = key.take().unwrap_or_default();
                        if let Some(existing) = attributes.get(&key) {
                            if existing.ty() != value.ty() {
                                return Err(syntax(format!(
                                    "duplicate {} property in JSON object",
                                    go_quote(&key)
                                )));
                            }
                        }
                        attributes.insert(key, value);
                    }
                }
            }
            let next = decoder.token()?;
            match (open.last_mut(), next) {
                (Some(Container::Tuple(items)), Token::Close(b']')) => {
                    completed = Some(Value::tuple(std::mem::take(items)));
                    open.pop();
                }
                (Some(Container::Object(attributes, _)), Token::Close(b'}')) => {
                    completed = Some(Value::object(std::mem::take(attributes)));
                    open.pop();
                }
                (Some(Container::Object(_, key)), Token::Scalar(Scalar::String(name))) => {
                    *key = Some(name);
                    break decoder.token()?;
                }
                (Some(Container::Object(..)), _) => {
                    return Err(syntax("expected string but found a value"))
                }
                (_, next) => break next,
            }
        };
    }
}

fn syntax(message: impl Into<String>) -> JsonDecodeError {
    JsonDecodeError::Syntax(message.into())
}

/// An array or object being read; an object's key waits for its value.
enum Container {
    Tuple(Vec<Value>),
    Object(BTreeMap<String, Value>, Option<String>),
}

/// What Go's `Decoder.Token` returns.
enum Token {
    /// `[` or `{`.
    Open(u8),
    /// `]` or `}`.
    Close(u8),
    Scalar(Scalar),
}

enum Scalar {
    Null,
    Bool(bool),
    /// The number as written (`UseNumber`).
    Number(String),
    String(String),
}

impl Scalar {
    fn into_value(self, invalid_number: &mut bool) -> Value {
        match self {
            Scalar::Null => Value::dynamic_null(),
            Scalar::Bool(flag) => Value::bool(flag),
            Scalar::String(text) => Value::string(text),
            Scalar::Number(text) => match Number::parse(&text) {
                Some(number) => Value::number(number),
                None => {
                    *invalid_number = true;
                    Value::dynamic_null()
                }
            },
        }
    }
}

/// Go's `tokenState`: where the token stream is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TokenState {
    TopValue,
    ArrayStart,
    ArrayValue,
    ArrayComma,
    ObjectStart,
    ObjectKey,
    ObjectColon,
    ObjectValue,
    ObjectComma,
}

struct Decoder<'t> {
    bytes: &'t [u8],
    at: usize,
    state: TokenState,
    stack: Vec<TokenState>,
}

impl<'t> Decoder<'t> {
    fn new(bytes: &'t [u8]) -> Decoder<'t> {
        Decoder {
            bytes,
            at: 0,
            state: TokenState::TopValue,
            stack: Vec::new(),
        }
    }

    /// The next byte that is not a blank, which becomes the position.
    fn peek(&mut self) -> Option<u8> {
        while let Some(&byte) = self.bytes.get(self.at) {
            if !is_space(byte) {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    /// Go's `Decoder.More`.
    fn more(&mut self) -> bool {
        self.peek().is_some_and(|byte| byte != b']' && byte != b'}')
    }

    fn value_allowed(&self) -> bool {
        matches!(
            self.state,
            TokenState::TopValue
                | TokenState::ArrayStart
                | TokenState::ArrayValue
                | TokenState::ObjectValue
        )
    }

    fn value_end(&mut self) {
        self.state = match self.state {
            TokenState::ArrayStart | TokenState::ArrayValue => TokenState::ArrayComma,
            TokenState::ObjectValue => TokenState::ObjectComma,
            state => state,
        };
    }

    /// Go's `Decoder.Token`.
    fn token(&mut self) -> Result<Token, JsonDecodeError> {
        loop {
            let Some(byte) = self.peek() else {
                return Err(syntax("EOF"));
            };
            match byte {
                b'[' | b'{' => {
                    if !self.value_allowed() {
                        return Err(self.token_error(byte));
                    }
                    self.at += 1;
                    self.stack.push(self.state);
                    self.state = if byte == b'[' {
                        TokenState::ArrayStart
                    } else {
                        TokenState::ObjectStart
                    };
                    return Ok(Token::Open(byte));
                }
                b']' | b'}' => {
                    let closes = if byte == b']' {
                        [TokenState::ArrayStart, TokenState::ArrayComma]
                    } else {
                        [TokenState::ObjectStart, TokenState::ObjectComma]
                    };
                    if !closes.contains(&self.state) {
                        return Err(self.token_error(byte));
                    }
                    self.at += 1;
                    self.state = self.stack.pop().unwrap_or(TokenState::TopValue);
                    self.value_end();
                    return Ok(Token::Close(byte));
                }
                b':' => {
                    if self.state != TokenState::ObjectColon {
                        return Err(self.token_error(byte));
                    }
                    self.at += 1;
                    self.state = TokenState::ObjectValue;
                }
                b',' => {
                    self.state = match self.state {
                        TokenState::ArrayComma => TokenState::ArrayValue,
                        TokenState::ObjectComma => TokenState::ObjectKey,
                        _ => return Err(self.token_error(byte)),
                    };
                    self.at += 1;
                }
                b'"' if matches!(self.state, TokenState::ObjectStart | TokenState::ObjectKey) => {
                    let key = self.scalar()?;
                    self.state = TokenState::ObjectColon;
                    return Ok(Token::Scalar(key));
                }
                _ => {
                    if !self.value_allowed() {
                        return Err(self.token_error(byte));
                    }
                    let scalar = self.scalar()?;
                    self.value_end();
                    return Ok(Token::Scalar(scalar));
                }
            }
        }
    }

    /// Go's `tokenError`: a byte the token stream does not allow here.
    fn token_error(&self, byte: u8) -> JsonDecodeError {
        let context = match self.state {
            TokenState::TopValue
            | TokenState::ArrayStart
            | TokenState::ArrayValue
            | TokenState::ObjectValue => " looking for beginning of value",
            TokenState::ArrayComma => " after array element",
            TokenState::ObjectKey => " looking for beginning of object key string",
            TokenState::ObjectColon => " after object key",
            TokenState::ObjectComma => " after object key:value pair",
            TokenState::ObjectStart => "",
        };
        syntax(format!("invalid character {}{context}", quote_byte(byte)))
    }

    /// One string, number or literal from the position (Go's `readValue`
    /// with a fresh scanner, then `unquote`), which it moves past.
    fn scalar(&mut self) -> Result<Scalar, JsonDecodeError> {
        let start = self.at;
        let mut state = ScanState::Begin;
        let mut end = None;
        for (offset, &byte) in self
            .bytes
            .get(start..)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            match state.step(byte)? {
                Some(next) => state = next,
                None => {
                    end = Some(start + offset);
                    break;
                }
            }
        }
        let end = match end {
            Some(end) => end,
            None if state.ends_at_eof() => self.bytes.len(),
            None => return Err(syntax("unexpected EOF")),
        };
        self.at = end;
        let text = self.bytes.get(start..end).unwrap_or_default();
        Ok(match text.first() {
            Some(b'"') => Scalar::String(unquote(text)),
            Some(b't') => Scalar::Bool(true),
            Some(b'f') => Scalar::Bool(false),
            Some(b'n') => Scalar::Null,
            _ => Scalar::Number(String::from_utf8_lossy(text).into_owned()),
        })
    }
}

/// Go's scanner states for one scalar.
#[derive(Clone, Copy)]
enum ScanState {
    Begin,
    InString,
    InStringEscape,
    /// After `\u` and this many hexadecimal digits.
    InUnicodeEscape(u8),
    Negative,
    /// `state1`: in the digits of a number that does not start with 0.
    Digits,
    /// `state0`: after the integer part.
    IntegerDone,
    Dot,
    Fraction,
    Exponent,
    ExponentSign,
    ExponentDigits,
    /// In `true`, `false` or `null`, this many bytes read.
    Literal(&'static str, usize),
    /// The value is complete; the next byte ends it.
    End,
}

impl ScanState {
    /// The state after `byte`, or `None` when the value ended before it.
    fn step(self, byte: u8) -> Result<Option<ScanState>, JsonDecodeError> {
        let error = |context: &str| {
            Err(syntax(format!(
                "invalid character {} {context}",
                quote_byte(byte)
            )))
        };
        let next = match self {
            ScanState::Begin => match byte {
                b'"' => ScanState::InString,
                b'-' => ScanState::Negative,
                b'0' => ScanState::IntegerDone,
                b'1'..=b'9' => ScanState::Digits,
                b't' => ScanState::Literal("true", 1),
                b'f' => ScanState::Literal("false", 1),
                b'n' => ScanState::Literal("null", 1),
                _ => return error("looking for beginning of value"),
            },
            ScanState::InString => match byte {
                b'"' => ScanState::End,
                b'\\' => ScanState::InStringEscape,
                byte if byte < 0x20 => return error("in string literal"),
                _ => ScanState::InString,
            },
            ScanState::InStringEscape => match byte {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => ScanState::InString,
                b'u' => ScanState::InUnicodeEscape(0),
                _ => return error("in string escape code"),
            },
            ScanState::InUnicodeEscape(n_digits) => match byte {
                byte if byte.is_ascii_hexdigit() && n_digits >= 3 => ScanState::InString,
                byte if byte.is_ascii_hexdigit() => ScanState::InUnicodeEscape(n_digits + 1),
                _ => return error("in \\u hexadecimal character escape"),
            },
            ScanState::Negative => match byte {
                b'0' => ScanState::IntegerDone,
                b'1'..=b'9' => ScanState::Digits,
                _ => return error("in numeric literal"),
            },
            ScanState::Digits if byte.is_ascii_digit() => ScanState::Digits,
            ScanState::Digits | ScanState::IntegerDone => match byte {
                b'.' => ScanState::Dot,
                b'e' | b'E' => ScanState::Exponent,
                _ => return Ok(None),
            },
            ScanState::Dot => match byte {
                b'0'..=b'9' => ScanState::Fraction,
                _ => return error("after decimal point in numeric literal"),
            },
            ScanState::Fraction => match byte {
                b'0'..=b'9' => ScanState::Fraction,
                b'e' | b'E' => ScanState::Exponent,
                _ => return Ok(None),
            },
            ScanState::Exponent if byte == b'+' || byte == b'-' => ScanState::ExponentSign,
            ScanState::Exponent | ScanState::ExponentSign => match byte {
                b'0'..=b'9' => ScanState::ExponentDigits,
                _ => return error("in exponent of numeric literal"),
            },
            ScanState::ExponentDigits => match byte {
                b'0'..=b'9' => ScanState::ExponentDigits,
                _ => return Ok(None),
            },
            ScanState::Literal(word, n_read) => {
                let expected = word.as_bytes().get(n_read).copied().unwrap_or_default();
                if byte != expected {
                    return error(&format!(
                        "in literal {word} (expecting {})",
                        quote_byte(expected)
                    ));
                }
                if n_read + 1 == word.len() {
                    ScanState::End
                } else {
                    ScanState::Literal(word, n_read + 1)
                }
            }
            ScanState::End => return Ok(None),
        };
        Ok(Some(next))
    }

    /// Whether the input may end here (Go steps a space at the end).
    fn ends_at_eof(self) -> bool {
        matches!(
            self,
            ScanState::Digits
                | ScanState::IntegerDone
                | ScanState::Fraction
                | ScanState::ExponentDigits
                | ScanState::End
        )
    }
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: a byte as a quoted rune (a byte of a multi-byte
/// character is the Latin-1 character of that number).
fn quote_byte(byte: u8) -> String {
    match byte {
        b'\'' => "'\\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        _ => {
            let quoted = go_quote(&char::from(byte).to_string());
            let inner = quoted
                .get(1..quoted.len().saturating_sub(1))
                .unwrap_or_default();
            format!("'{inner}'")
        }
    }
}

/// A scanned string literal's text (quotes included) decoded as Go's
/// `unquote` does: escapes, surrogate pairs joined, a lone surrogate as
/// U+FFFD.
fn unquote(literal: &[u8]) -> String {
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or_default();
    let text = String::from_utf8_lossy(inner);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{08}'),
            Some('f') => out.push('\u{0c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let unit = hex4(&mut chars);
                if (0xd800..0xdc00).contains(&unit) {
                    let mut lookahead = chars.clone();
                    if lookahead.next() == Some('\\') && lookahead.next() == Some('u') {
                        let low = hex4(&mut lookahead);
                        if (0xdc00..0xe000).contains(&low) {
                            let joined = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                            out.push(char::from_u32(joined).unwrap_or('\u{fffd}'));
                            chars = lookahead;
                            continue;
                        }
                    }
                }
                out.push(char::from_u32(unit).unwrap_or('\u{fffd}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Four hexadecimal digits (the scanner checked them).
fn hex4(chars: &mut impl Iterator<Item = char>) -> u32 {
    chars
        .take(4)
        .fold(0, |unit, c| unit * 16 + c.to_digit(16).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> String {
        match decode(text) {
            Err(JsonDecodeError::Syntax(message)) => message,
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn errors_are_go_decoders_first() {
        let cases = [
            ("", "EOF"),
            ("  ", "EOF"),
            (
                "nope",
                "invalid character 'o' in literal null (expecting 'u')",
            ),
            (
                "ff",
                "invalid character 'f' in literal false (expecting 'a')",
            ),
            ("0x1F", "extraneous data after JSON object"),
            ("10.0.0.0/8", "extraneous data after JSON object"),
            ("\"abc", "unexpected EOF"),
            ("tru", "unexpected EOF"),
            ("1.", "unexpected EOF"),
            ("{", "EOF"),
            ("{1}", "invalid character '1'"),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            (
                "{\"a\": 1,}",
                "invalid character '}' looking for beginning of object key string",
            ),
            (
                "{\"a\": 1 \"b\"}",
                "invalid character '\"' after object key:value pair",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            (
                "[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                "1ex",
                "invalid character 'x' in exponent of numeric literal",
            ),
            ("\"a\\x\"", "invalid character 'x' in string escape code"),
            (
                "\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
            ("é", "invalid character 'Ã' looking for beginning of value"),
            (
                "'a'",
                "invalid character '\\'' looking for beginning of value",
            ),
            (
                "{\"a\": 1, \"a\": \"x\"}",
                "duplicate \"a\" property in JSON object",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error_of(text), expected, "{text:?}");
        }
    }

    /// The value as the console prints it.
    fn printed(text: &str) -> String {
        match decode(text) {
            Ok(value) => crate::printer::format_value(&value),
            Err(error) => format!("{error:?}"),
        }
    }

    #[test]
    fn what_go_lets_through_decodes() {
        assert_eq!(printed("1]"), "1");
        assert_eq!(printed(" [1, [2]] } x"), printed("[1,[2]]"));
        assert_eq!(printed("{\"a\": 1, \"a\": 2}"), "{\n  \"a\" = 2\n}");
        assert_eq!(
            printed("\"\\ud83d\\ude00 \\ud800x \\u00e9\""),
            "\"\u{1f600} \u{fffd}x é\""
        );
        assert_eq!(printed("null"), "null");
    }
}

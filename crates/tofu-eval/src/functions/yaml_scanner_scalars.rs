//! The scanner's scalars: block scalars (`|` and `>` with their chomping
//! and indentation indicators), single- and double-quoted scalars (folded
//! line breaks, escapes) and plain scalars (multi-line, ended by `: `, ` #`,
//! a document marker, less indentation, or a flow indicator in a flow
//! collection), as libyaml scans them.
//!
//! A child of `yaml_scanner.rs`: these are methods of its `Scanner`, kept
//! apart because they are half of it.

use super::{
    is_blank, is_blankz, is_break, is_breakz, Mark, ScalarStyle, Scan, Scanner, Token, TokenKind,
};

impl Scanner {
    pub(super) fn fetch_block_scalar(&mut self, literal: bool) -> Scan<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start_mark = self.mark;
        self.skip();
        let mut chomping = 0i8;
        let mut increment = 0usize;
        let mut read_increment = |scanner: &mut Scanner| -> Scan<()> {
            if let Some(digit) = scanner.at(0).to_digit(10) {
                if digit == 0 {
                    return Err(
                        scanner.error(start_mark, "found an indentation indicator equal to 0")
                    );
                }
                increment = digit as usize;
                scanner.skip();
            }
            Ok(())
        };
        if matches!(self.at(0), '+' | '-') {
            chomping = if self.at(0) == '+' { 1 } else { -1 };
            self.skip();
            read_increment(self)?;
        } else if self.at(0).is_ascii_digit() {
            read_increment(self)?;
            if matches!(self.at(0), '+' | '-') {
                chomping = if self.at(0) == '+' { 1 } else { -1 };
                self.skip();
            }
        }
        self.finish_line(start_mark)?;
        let mut end_mark = self.mark;
        let mut indent = 0usize;
        if increment > 0 {
            indent = if self.indent >= 0 {
                self.indent as usize + increment
            } else {
                increment
            };
        }
        let mut value = String::new();
        let mut leading_break = String::new();
        let mut trailing_breaks = String::new();
        self.scan_block_scalar_breaks(
            &mut indent,
            &mut trailing_breaks,
            start_mark,
            &mut end_mark,
        )?;
        let mut leading_blank = false;
        while self.mark.column == indent && !self.is_at_end() {
            let trailing_blank = is_blank(self.at(0));
            if !literal && !leading_blank && !trailing_blank && leading_break.starts_with('\n') {
                if trailing_breaks.is_empty() {
                    value.push(' ');
                }
            } else {
                value.push_str(&leading_break);
            }
            leading_break.clear();
            value.push_str(&trailing_breaks);
            trailing_breaks.clear();
            leading_blank = is_blank(self.at(0));
            while !is_breakz(self.at(0)) {
                self.read(&mut value);
            }
            self.read_line(&mut leading_break);
            self.scan_block_scalar_breaks(
                &mut indent,
                &mut trailing_breaks,
                start_mark,
                &mut end_mark,
            )?;
        }
        if chomping != -1 {
            value.push_str(&leading_break);
        }
        if chomping == 1 {
            value.push_str(&trailing_breaks);
        }
        let style = if literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        self.tokens.push_back(Token {
            kind: TokenKind::Scalar { value, style },
            start_mark,
            end_mark,
        });
        Ok(())
    }

    fn scan_block_scalar_breaks(
        &mut self,
        indent: &mut usize,
        breaks: &mut String,
        start_mark: Mark,
        end_mark: &mut Mark,
    ) -> Scan<()> {
        *end_mark = self.mark;
        let mut max_indent = 0;
        loop {
            while (*indent == 0 || self.mark.column < *indent) && self.at(0) == ' ' {
                self.skip();
            }
            max_indent = max_indent.max(self.mark.column);
            if (*indent == 0 || self.mark.column < *indent) && self.at(0) == '\t' {
                return Err(self.error(
                    start_mark,
                    "found a tab character where an indentation space is expected",
                ));
            }
            if !is_break(self.at(0)) {
                break;
            }
            self.read_line(breaks);
            *end_mark = self.mark;
        }
        if *indent == 0 {
            let least = (self.indent + 1).max(1) as usize;
            *indent = max_indent.max(least);
        }
        Ok(())
    }

    pub(super) fn fetch_flow_scalar(&mut self, single: bool) -> Scan<()> {
        let quote = if single { '\'' } else { '"' };
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start_mark = self.mark;
        self.skip();
        let mut value = String::new();
        let mut separation = Separation::default();
        loop {
            if self.at_document_indicator() {
                return Err(self.error(start_mark, "found unexpected document indicator"));
            }
            if self.is_at_end() {
                return Err(self.error(start_mark, "found unexpected end of stream"));
            }
            while !is_blankz(self.at(0)) {
                let character = self.at(0);
                if single && character == '\'' && self.at(1) == '\'' {
                    value.push('\'');
                    self.skip();
                    self.skip();
                } else if character == quote {
                    break;
                } else if !single && character == '\\' && is_break(self.at(1)) {
                    self.skip();
                    self.skip_line();
                    separation.leading_blanks = true;
                    break;
                } else if !single && character == '\\' {
                    self.scan_escape(&mut value, start_mark)?;
                } else {
                    self.read(&mut value);
                }
            }
            if self.at(0) == quote {
                break;
            }
            self.read_separation(&mut separation, None)?;
            separation.write_into(&mut value);
        }
        self.skip();
        let style = if single {
            ScalarStyle::SingleQuoted
        } else {
            ScalarStyle::DoubleQuoted
        };
        self.push_token(TokenKind::Scalar { value, style }, start_mark);
        Ok(())
    }

    /// One escape of a double-quoted scalar, at its `\`.
    fn scan_escape(&mut self, value: &mut String, start_mark: Mark) -> Scan<()> {
        let simple = match self.at(1) {
            '0' => Some('\0'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            't' | '\t' => Some('\t'),
            'n' => Some('\n'),
            'v' => Some('\u{b}'),
            'f' => Some('\u{c}'),
            'r' => Some('\r'),
            'e' => Some('\u{1b}'),
            ' ' => Some(' '),
            '"' => Some('"'),
            '\'' => Some('\''),
            '\\' => Some('\\'),
            'N' => Some('\u{85}'),
            '_' => Some('\u{a0}'),
            'L' => Some('\u{2028}'),
            'P' => Some('\u{2029}'),
            _ => None,
        };
        let code_length = match self.at(1) {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => 0,
        };
        if simple.is_none() && code_length == 0 {
            return Err(self.error(start_mark, "found unknown escape character"));
        }
        self.skip();
        self.skip();
        if let Some(character) = simple {
            value.push(character);
            return Ok(());
        }
        let mut code: u32 = 0;
        for offset in 0..code_length {
            let Some(digit) = self.at(offset).to_digit(16) else {
                return Err(self.error(start_mark, "did not find expected hexdecimal number"));
            };
            code = (code << 4) + digit;
        }
        let Some(character) = char::from_u32(code) else {
            return Err(self.error(start_mark, "found invalid Unicode character escape code"));
        };
        value.push(character);
        for _ in 0..code_length {
            self.skip();
        }
        Ok(())
    }

    pub(super) fn fetch_plain_scalar(&mut self) -> Scan<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let mut value = String::new();
        let mut separation = Separation::default();
        let indent = self.indent + 1;
        let start_mark = self.mark;
        let mut end_mark = self.mark;
        loop {
            if self.at_document_indicator() || self.at(0) == '#' {
                break;
            }
            while !is_blankz(self.at(0)) {
                let character = self.at(0);
                if (character == ':' && is_blankz(self.at(1)))
                    || (self.flow_level > 0
                        && matches!(character, ',' | '?' | '[' | ']' | '{' | '}'))
                {
                    break;
                }
                separation.write_into(&mut value);
                self.read(&mut value);
                end_mark = self.mark;
            }
            if !(is_blank(self.at(0)) || is_break(self.at(0))) {
                break;
            }
            self.read_separation(&mut separation, Some((indent, start_mark)))?;
            if self.flow_level == 0 && (self.mark.column as isize) < indent {
                break;
            }
        }
        self.tokens.push_back(Token {
            kind: TokenKind::Scalar {
                value,
                style: ScalarStyle::Plain,
            },
            start_mark,
            end_mark,
        });
        if separation.leading_blanks {
            self.simple_key_allowed = true;
        }
        Ok(())
    }

    /// The blanks and line breaks after a run of a flow or plain scalar's
    /// text. For a plain scalar (`plain`: its indentation and start), a tab
    /// where a continuation line's indentation is expected is an error.
    fn read_separation(
        &mut self,
        separation: &mut Separation,
        plain: Option<(isize, Mark)>,
    ) -> Scan<()> {
        while is_blank(self.at(0)) || is_break(self.at(0)) {
            if is_blank(self.at(0)) {
                if let Some((indent, start_mark)) = plain {
                    if separation.leading_blanks
                        && (self.mark.column as isize) < indent
                        && self.at(0) == '\t'
                    {
                        return Err(self.error(
                            start_mark,
                            "found a tab character that violates indentation",
                        ));
                    }
                }
                if separation.leading_blanks {
                    self.skip();
                } else {
                    self.read(&mut separation.whitespaces);
                }
            } else if separation.leading_blanks {
                self.read_line(&mut separation.trailing_breaks);
            } else {
                separation.whitespaces.clear();
                self.read_line(&mut separation.leading_break);
                separation.leading_blanks = true;
            }
        }
        Ok(())
    }
}

/// What lies between two runs of a flow or plain scalar's text: blanks
/// on one line, or line breaks (with the blanks around them dropped).
#[derive(Default)]
struct Separation {
    /// A line break came (or, in a double-quoted scalar, an escaped one).
    leading_blanks: bool,
    whitespaces: String,
    leading_break: String,
    trailing_breaks: String,
}

impl Separation {
    /// Into the scalar's value, and cleared: the blanks as they are, or the
    /// line breaks folded (a single `\n` becomes a space, more keep all but
    /// the first).
    fn write_into(&mut self, value: &mut String) {
        if !self.leading_blanks {
            value.push_str(&self.whitespaces);
            self.whitespaces.clear();
            return;
        }
        if self.leading_break.starts_with('\n') {
            if self.trailing_breaks.is_empty() {
                value.push(' ');
            } else {
                value.push_str(&self.trailing_breaks);
            }
        } else {
            value.push_str(&self.leading_break);
            value.push_str(&self.trailing_breaks);
        }
        self.trailing_breaks.clear();
        self.leading_break.clear();
        self.leading_blanks = false;
    }
}

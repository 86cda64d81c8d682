//! HCL native syntax cut into tokens the way HCL's scanner cuts it
//! (`hclsyntax/scan_tokens.rl`), for everything that reads a file as text
//! rather than through the block model: `tofu fmt`'s formatter, colours and
//! folding in the editor, and the native adapter's delimiter recovery.
//!
//! A [`Scanner`] yields [`Token`]s in order, each an HCL token type
//! ([`TokenKind`]) and a byte range into the text given. Spaces and tabs are
//! not tokens; a line break (`\n` or `\r\n`) is, and so is a `#` or `//`
//! comment, which takes its line break with it. Inside quoted strings and
//! heredocs the literal text is kept as [`TokenKind::QuotedLit`] and
//! [`TokenKind::StringLit`] tokens that cover every byte, escapes included;
//! `${`, `%{` and their closing `}` are tokens, and the expression between
//! them is scanned like any other. A heredoc's lines are literal tokens
//! holding their line breaks. A heredoc closes at a line holding only its
//! marker and blanks (HCL trims the line), or only the marker at the very
//! end of the text.
//!
//! [`Scanner::template`] reads a text that is a template on its own (HCL's
//! `scanTemplate` mode: the content of a JSON string, which OpenTofu parses
//! as a template): literal text, cut into [`TokenKind::StringLit`] tokens
//! at line breaks as in a heredoc, and template sequences, up to the end of
//! the text.
//!
//! Two modes. [`ScanMode::Strict`] stops at the first [`ScanProblem`] (a
//! character HCL does not know, an unterminated string, comment or heredoc,
//! an unclosed `${`). [`ScanMode::Forgiving`] records each problem and goes
//! on to the end of the text: an unterminated string ends at its line break
//! (which is not part of it), an unterminated comment or heredoc at the end of
//! the text, an unknown character becomes a [`TokenKind::Invalid`] token.
//! Where the scan meets no problem the two modes give the same tokens.
//!
//! The scanner judges no grammar (the parser does), keeps no whitespace,
//! never panics and never recurses: nesting is a stack on the heap, so any
//! depth of `"${"${…}"}"` is fine. Ranges always fall on character boundaries.

use unicode_ident::{is_xid_continue, is_xid_start};

use crate::text::TextRange;

/// What a token is. Names follow HCL's token types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A letter or `_`, then letters, digits, `_` and `-` (Unicode's
    /// identifier classes, as HCL's `Ident`).
    Ident,
    /// Digits, an optional fraction and an optional exponent.
    NumberLit,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    /// The `"` opening a quoted template.
    OQuote,
    /// The `"` closing a quoted template.
    CQuote,
    /// Literal text of a quoted template, escapes included.
    QuotedLit,
    /// Literal text of a heredoc: up to and including a line break, or up
    /// to an interpolation.
    StringLit,
    /// `${` or `${~`.
    TemplateInterp,
    /// `%{` or `%{~`.
    TemplateControl,
    /// The `}` or `~}` closing `${` or `%{`.
    TemplateSeqEnd,
    /// `<<EOT` or `<<-EOT` with its line break.
    OHeredoc,
    /// The line closing a heredoc: its marker with the blanks around it,
    /// without the line break.
    CHeredoc,
    /// A `#` or `//` comment with its line break (if any), or a `/* */` one.
    Comment,
    Newline,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    LessThan,
    LessThanEq,
    GreaterThan,
    GreaterThanEq,
    And,
    Or,
    Bang,
    Question,
    Colon,
    DoubleColon,
    Dot,
    Comma,
    Ellipsis,
    FatArrow,
    /// A character HCL does not know where it stands, or a `<<` that opens
    /// no heredoc (forgiving mode only).
    Invalid,
}

/// One token: its kind and its bytes in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub range: TextRange,
}

impl Token {
    /// Where the token starts, as an index into the text.
    pub fn start(self) -> usize {
        self.range.start as usize
    }

    /// Where the token ends (exclusive), as an index into the text.
    pub fn end(self) -> usize {
        self.range.end as usize
    }

    /// The token's text in `text`, the text it was scanned from.
    pub fn text(self, text: &str) -> &str {
        self.range.slice(text)
    }
}

/// Whether the scan stops at the first problem or goes on to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanMode {
    /// The tokens `tofu fmt` works on: the scan stops at the first problem.
    Strict,
    /// For editors and error recovery: every problem is recorded and the
    /// scan goes on.
    Forgiving,
}

/// Where the text cannot be cut into HCL's tokens as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanProblem {
    /// A character HCL does not know where it stands (a lone `\r`, `^`, a
    /// `~` outside a template sequence).
    InvalidCharacter { range: TextRange },
    /// `<<` not followed by a marker and a line break. With a marker the
    /// heredoc still opens (its first line is the rest of this one).
    InvalidHeredocOpener { range: TextRange },
    /// A quoted string that reaches a line break or the end of the text:
    /// from its opening quote to where it stops.
    UnterminatedString { string: TextRange },
    /// A `/*` with no `*/`: the comment runs to the end of the text.
    UnterminatedComment { comment: TextRange },
    /// A heredoc with no closing marker; `opener` is its `<<EOT`.
    UnterminatedHeredoc { opener: TextRange },
    /// A `${` or `%{` whose closing brace never comes; `open` is where it
    /// opens.
    UnclosedTemplateSequence { open: TextRange },
}

/// The tokens of one text of HCL native syntax, in order.
///
/// [`Scanner::problems`] lists what the scan met so far; a problem is
/// recorded before the token that follows it is yielded, so a caller that
/// reads them between tokens sees each at its place in the stream.
pub struct Scanner<'a> {
    text: &'a str,
    at: usize,
    mode: ScanMode,
    /// What is being scanned: the innermost nesting, kept apart from the
    /// stack of those around it (read once per token).
    current: Nesting<'a>,
    /// The nestings around `current`, outermost first; empty while the
    /// text's own expressions are scanned.
    around: Vec<Nesting<'a>>,
    problems: Vec<ScanProblem>,
}

#[derive(Clone, Copy)]
enum Nesting<'a> {
    /// Expressions: the text itself, or the inside of a template sequence
    /// (`sequence` is its `${` or `%{`), counting the braces opened there.
    Expressions {
        braces: usize,
        sequence: Option<TextRange>,
    },
    /// Inside a quoted template opened at `open`.
    Quoted { open: usize },
    /// Inside a heredoc; `line_start` is true where a line begins, the only
    /// place its closing marker may stand.
    Heredoc {
        opener: TextRange,
        marker: &'a str,
        line_start: bool,
    },
    /// A template read on its own: literal text and sequences up to the
    /// end of the text ([`Scanner::template`]).
    Template,
}

/// What one step of the scan did.
enum Step {
    Yield(Token),
    /// Nothing to yield yet (a problem was recovered from): step again.
    Again,
    End,
}

impl<'a> Scanner<'a> {
    /// A scan of `text` (without its BOM) from its start.
    pub fn new(text: &'a str, mode: ScanMode) -> Scanner<'a> {
        Scanner {
            text,
            at: 0,
            mode,
            current: Nesting::Expressions {
                braces: 0,
                sequence: None,
            },
            around: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// A scan of `text` as a template on its own (HCL's `scanTemplate`
    /// mode): literal text and template sequences to the end of the text.
    pub fn template(text: &'a str, mode: ScanMode) -> Scanner<'a> {
        Scanner {
            current: Nesting::Template,
            ..Scanner::new(text, mode)
        }
    }

    /// The problems met so far, in the order met. In strict mode at most
    /// one: the scan ends there.
    pub fn problems(&self) -> &[ScanProblem] {
        &self.problems
    }

    fn stopped(&self) -> bool {
        self.mode == ScanMode::Strict && !self.problems.is_empty()
    }

    fn byte(&self, ahead: usize) -> Option<u8> {
        self.text.as_bytes().get(self.at + ahead).copied()
    }

    fn token(&self, kind: TokenKind, start: usize) -> Token {
        Token {
            kind,
            range: TextRange::from_usize(start, self.at),
        }
    }

    fn step(&mut self) -> Step {
        match self.current {
            Nesting::Expressions { braces, sequence } => self.expression_step(braces, sequence),
            Nesting::Quoted { open } => self.quoted_step(open),
            Nesting::Heredoc {
                opener,
                marker,
                line_start,
            } => self.heredoc_step(opener, marker, line_start),
            Nesting::Template => self.template_step(),
        }
    }

    /// A nesting begins inside the current one.
    fn enter(&mut self, nesting: Nesting<'a>) {
        self.around
            .push(std::mem::replace(&mut self.current, nesting));
    }

    /// The current nesting ends; the text's own expressions never do.
    fn leave(&mut self) {
        if let Some(outer) = self.around.pop() {
            self.current = outer;
        }
    }

    /// Sets the brace count of the innermost expressions.
    fn set_braces(&mut self, count: usize) {
        if let Nesting::Expressions { braces, .. } = &mut self.current {
            *braces = count;
        }
    }

    fn expression_step(&mut self, braces: usize, sequence: Option<TextRange>) -> Step {
        use TokenKind::*;
        self.skip_until(|byte| byte != b' ' && byte != b'\t');
        let start = self.at;
        let Some(byte) = self.byte(0) else {
            return match sequence {
                Some(open) => {
                    self.leave();
                    self.problems
                        .push(ScanProblem::UnclosedTemplateSequence { open });
                    Step::Again
                }
                None => Step::End,
            };
        };
        // The commonest tokens first, by plain comparisons: a jump table
        // for every token mispredicts often.
        if byte.is_ascii_alphabetic() || byte == b'_' {
            self.at += ident_len(self.text, start);
            return Step::Yield(self.token(Ident, start));
        }
        if byte == b'\n' {
            self.at += 1;
            return Step::Yield(self.token(Newline, start));
        }
        let next = self.byte(1);
        let in_sequence = sequence.is_some() && braces == 0;
        let (kind, len) = match byte {
            b'\r' if next == Some(b'\n') => (Newline, 2),
            b'#' => (Comment, line_comment_len(self.text, start)),
            b'/' if next == Some(b'/') => (Comment, line_comment_len(self.text, start)),
            b'/' if next == Some(b'*') => {
                let rest = self.text.get(start + 2..).unwrap_or_default();
                match rest.find("*/") {
                    Some(close) => (Comment, close + 4),
                    None => {
                        let comment = TextRange::from_usize(start, self.text.len());
                        self.problems
                            .push(ScanProblem::UnterminatedComment { comment });
                        (Comment, self.text.len() - start)
                    }
                }
            }
            b'"' => {
                self.enter(Nesting::Quoted { open: start });
                (OQuote, 1)
            }
            b'<' if next == Some(b'<') => return self.heredoc_opener(),
            b'0'..=b'9' => (NumberLit, number_len(self.text.as_bytes(), start)),
            b'{' => {
                self.set_braces(braces + 1);
                (OBrace, 1)
            }
            b'}' if in_sequence => {
                self.leave();
                (TemplateSeqEnd, 1)
            }
            b'}' => {
                self.set_braces(braces.saturating_sub(1));
                (CBrace, 1)
            }
            b'~' if in_sequence && next == Some(b'}') => {
                self.leave();
                (TemplateSeqEnd, 2)
            }
            b'[' => (OBrack, 1),
            b']' => (CBrack, 1),
            b'(' => (OParen, 1),
            b')' => (CParen, 1),
            b'+' => (Plus, 1),
            b'-' => (Minus, 1),
            b'*' => (Star, 1),
            b'/' => (Slash, 1),
            b'%' => (Percent, 1),
            b'=' if next == Some(b'=') => (EqualOp, 2),
            b'=' if next == Some(b'>') => (FatArrow, 2),
            b'=' => (Equal, 1),
            b'!' if next == Some(b'=') => (NotEqual, 2),
            b'!' => (Bang, 1),
            b'<' if next == Some(b'=') => (LessThanEq, 2),
            b'<' => (LessThan, 1),
            b'>' if next == Some(b'=') => (GreaterThanEq, 2),
            b'>' => (GreaterThan, 1),
            b'&' if next == Some(b'&') => (And, 2),
            b'|' if next == Some(b'|') => (Or, 2),
            b'?' => (Question, 1),
            b':' if next == Some(b':') => (DoubleColon, 2),
            b':' => (Colon, 1),
            b'.' if next == Some(b'.') && self.byte(2) == Some(b'.') => (Ellipsis, 3),
            b'.' => (Dot, 1),
            b',' => (Comma, 1),
            _ => match ident_len(self.text, start) {
                0 => {
                    let len = char_len(self.text, start);
                    let range = TextRange::from_usize(start, start + len);
                    self.problems.push(ScanProblem::InvalidCharacter { range });
                    (Invalid, len)
                }
                len => (Ident, len),
            },
        };
        self.at += len;
        Step::Yield(self.token(kind, start))
    }

    /// At `<<`: a heredoc's opener (`<<EOT` or `<<-EOT` and a line break).
    /// With a marker but more on its line, the heredoc still opens and the
    /// rest of the line is its first; without a marker, `<<` is invalid.
    fn heredoc_opener(&mut self) -> Step {
        let start = self.at;
        let dash = usize::from(self.byte(2) == Some(b'-'));
        let marker_start = start + 2 + dash;
        let marker_len = ident_len(self.text, marker_start);
        let marker_end = marker_start + marker_len;
        if marker_len == 0 {
            self.at = start + 2;
            let range = TextRange::from_usize(start, self.at);
            self.problems
                .push(ScanProblem::InvalidHeredocOpener { range });
            return Step::Yield(self.token(TokenKind::Invalid, start));
        }
        let marker = self.text.get(marker_start..marker_end).unwrap_or_default();
        self.at = marker_end;
        let line_break = match (self.byte(0), self.byte(1)) {
            (Some(b'\n'), _) => 1,
            (Some(b'\r'), Some(b'\n')) => 2,
            _ => 0,
        };
        if line_break == 0 {
            let range = TextRange::from_usize(start, marker_end);
            self.problems
                .push(ScanProblem::InvalidHeredocOpener { range });
        }
        self.at += line_break;
        let opener = self.token(TokenKind::OHeredoc, start);
        self.enter(Nesting::Heredoc {
            opener: opener.range,
            marker,
            line_start: line_break > 0,
        });
        Step::Yield(opener)
    }

    /// Inside a quoted template: its literal text, then what ends it.
    fn quoted_step(&mut self, open: usize) -> Step {
        let start = self.at;
        loop {
            self.skip_until(|byte| matches!(byte, b'\n' | b'\r' | b'"' | b'\\' | b'$' | b'%'));
            match self.byte(0) {
                None | Some(b'\n' | b'\r' | b'"') => break,
                Some(b'\\') => {
                    // The escaped character's first byte; the rest of a
                    // multi-byte one is skipped with the literal text.
                    self.at += 1;
                    if !matches!(self.byte(0), None | Some(b'\n' | b'\r')) {
                        self.at += 1;
                    }
                }
                Some(b'$' | b'%') if self.byte(1) == Some(b'{') => break,
                Some(b'$' | b'%') if self.at_escaped_sequence() => self.at += 3,
                Some(_) => self.at += 1,
            }
        }
        if self.at > start {
            return Step::Yield(self.token(TokenKind::QuotedLit, start));
        }
        match self.byte(0) {
            Some(b'"') => {
                self.leave();
                self.at += 1;
                Step::Yield(self.token(TokenKind::CQuote, start))
            }
            Some(b'$' | b'%') => Step::Yield(self.template_sequence()),
            _ => {
                self.leave();
                let string = TextRange::from_usize(open, self.at);
                self.problems
                    .push(ScanProblem::UnterminatedString { string });
                Step::Again
            }
        }
    }

    /// Inside a heredoc: its closing marker at a line start, else its
    /// literal text up to a line break or a template sequence.
    fn heredoc_step(&mut self, opener: TextRange, marker: &str, line_start: bool) -> Step {
        let start = self.at;
        if line_start {
            if let Some(len) = closing_marker_len(self.text, start, marker) {
                self.leave();
                self.at += len;
                return Step::Yield(self.token(TokenKind::CHeredoc, start));
            }
        }
        let mut ended_line = false;
        loop {
            self.skip_until(|byte| matches!(byte, b'\n' | b'$' | b'%'));
            match self.byte(0) {
                None => break,
                Some(b'\n') => {
                    self.at += 1;
                    ended_line = true;
                    break;
                }
                Some(b'$' | b'%') if self.byte(1) == Some(b'{') => break,
                Some(b'$' | b'%') if self.at_escaped_sequence() => self.at += 3,
                Some(_) => self.at += 1,
            }
        }
        if let Nesting::Heredoc { line_start, .. } = &mut self.current {
            *line_start = ended_line;
        }
        if self.at > start {
            return Step::Yield(self.token(TokenKind::StringLit, start));
        }
        match self.byte(0) {
            Some(_) => Step::Yield(self.template_sequence()),
            None => {
                self.leave();
                self.problems
                    .push(ScanProblem::UnterminatedHeredoc { opener });
                Step::Again
            }
        }
    }

    /// A template on its own: its literal text up to and including a line
    /// break, or up to a template sequence; the scan ends with the text.
    fn template_step(&mut self) -> Step {
        let start = self.at;
        loop {
            self.skip_until(|byte| matches!(byte, b'\n' | b'$' | b'%'));
            match self.byte(0) {
                None => break,
                Some(b'\n') => {
                    self.at += 1;
                    break;
                }
                Some(b'$' | b'%') if self.byte(1) == Some(b'{') => break,
                Some(b'$' | b'%') if self.at_escaped_sequence() => self.at += 3,
                Some(_) => self.at += 1,
            }
        }
        if self.at > start {
            return Step::Yield(self.token(TokenKind::StringLit, start));
        }
        match self.byte(0) {
            Some(_) => Step::Yield(self.template_sequence()),
            None => Step::End,
        }
    }

    /// At `${` or `%{` (with an optional `~`): its token, and the
    /// expressions inside it begin.
    fn template_sequence(&mut self) -> Token {
        let start = self.at;
        let kind = match self.byte(0) {
            Some(b'$') => TokenKind::TemplateInterp,
            _ => TokenKind::TemplateControl,
        };
        self.at += if self.byte(2) == Some(b'~') { 3 } else { 2 };
        let token = self.token(kind, start);
        self.enter(Nesting::Expressions {
            braces: 0,
            sequence: Some(token.range),
        });
        token
    }

    /// Moves on to the next byte `stop` holds for, or to the end of the
    /// text. Every byte it stops at is ASCII, so it never stops inside a
    /// character.
    fn skip_until(&mut self, stop: impl Fn(u8) -> bool) {
        let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
        self.at += rest
            .iter()
            .position(|byte| stop(*byte))
            .unwrap_or(rest.len());
    }

    /// `$${` or `%%{`: a literal `${` or `%{`.
    fn at_escaped_sequence(&self) -> bool {
        let first = self.byte(0);
        first.is_some() && self.byte(1) == first && self.byte(2) == Some(b'{')
    }
}

impl Iterator for Scanner<'_> {
    type Item = Token;

    // Inlined into the caller's loop (another crate): one call per token
    // otherwise.
    #[inline]
    fn next(&mut self) -> Option<Token> {
        loop {
            if self.stopped() {
                return None;
            }
            match self.step() {
                Step::Yield(token) if !self.stopped() => return Some(token),
                Step::Yield(_) | Step::End => return None,
                Step::Again => {}
            }
        }
    }
}

/// An identifier at `at`: a letter or `_`, then letters, digits, `_` and
/// `-`; its length in bytes, 0 when there is none. ASCII is judged byte by
/// byte, anything else by Unicode's XID classes.
fn ident_len(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let char_at = |index: usize| text.get(index..).and_then(|rest| rest.chars().next());
    let mut end = match bytes.get(at) {
        Some(byte) if byte.is_ascii_alphabetic() || *byte == b'_' => at + 1,
        Some(byte) if !byte.is_ascii() => match char_at(at) {
            Some(first) if is_xid_start(first) => at + first.len_utf8(),
            _ => return 0,
        },
        _ => return 0,
    };
    loop {
        match bytes.get(end) {
            Some(byte) if byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-') => end += 1,
            Some(byte) if !byte.is_ascii() => match char_at(end) {
                Some(next) if is_xid_continue(next) => end += next.len_utf8(),
                _ => return end - at,
            },
            _ => return end - at,
        }
    }
}

/// The length of the character at `at` (1 past the end, so a scan always
/// moves on).
fn char_len(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(1, char::len_utf8)
}

/// A `#` or `//` comment runs to the end of its line, the line break included.
fn line_comment_len(text: &str, at: usize) -> usize {
    let rest = text.as_bytes().get(at..).unwrap_or_default();
    match rest.iter().position(|byte| *byte == b'\n') {
        Some(newline) => newline + 1,
        None => rest.len(),
    }
}

fn number_len(bytes: &[u8], at: usize) -> usize {
    let digits = |from: usize| {
        bytes
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count()
    };
    let mut end = at + digits(at);
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end += 1 + digits(end + 1);
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut exponent = end + 1;
        if matches!(bytes.get(exponent), Some(b'+' | b'-')) {
            exponent += 1;
        }
        let count = digits(exponent);
        if count > 0 {
            end = exponent + count;
        }
    }
    end - at
}

/// At a heredoc line start: the length of the line (without its line break)
/// when, blanks trimmed, it is the marker alone.
fn closing_marker_len(text: &str, at: usize, marker: &str) -> Option<usize> {
    let rest = text.get(at..)?;
    let line = match rest.find('\n') {
        Some(newline) => {
            let line = rest.get(..newline)?;
            line.strip_suffix('\r').unwrap_or(line)
        }
        None => rest,
    };
    (line.trim_matches([' ', '\t']) == marker).then_some(line.len())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    /// Each token as `Kind text`, then each problem.
    fn render(text: &str, mode: ScanMode) -> Vec<String> {
        let mut scanner = Scanner::new(text, mode);
        let mut out: Vec<String> = scanner
            .by_ref()
            .map(|token| format!("{:?} {:?}", token.kind, token.text(text)))
            .collect();
        out.extend(
            scanner
                .problems()
                .iter()
                .map(|problem| format!("{problem:?}")),
        );
        out
    }

    #[test]
    fn quoted_templates_are_literals_around_sequences() {
        let text = "a = \"x ${ b }y $${z} %{~ if c ~}\"\n";
        assert_eq!(
            render(text, ScanMode::Strict),
            [
                "Ident \"a\"",
                "Equal \"=\"",
                "OQuote \"\\\"\"",
                "QuotedLit \"x \"",
                "TemplateInterp \"${\"",
                "Ident \"b\"",
                "TemplateSeqEnd \"}\"",
                "QuotedLit \"y $${z} \"",
                "TemplateControl \"%{~\"",
                "Ident \"if\"",
                "Ident \"c\"",
                "TemplateSeqEnd \"~}\"",
                "CQuote \"\\\"\"",
                "Newline \"\\n\"",
            ]
        );
    }

    #[test]
    fn heredoc_lines_keep_their_line_breaks() {
        let text = "a = <<-EOT\r\n  x ${b}\n\n  EOT  \r\nc = 1 # d\n";
        assert_eq!(
            render(text, ScanMode::Strict),
            [
                "Ident \"a\"",
                "Equal \"=\"",
                "OHeredoc \"<<-EOT\\r\\n\"",
                "StringLit \"  x \"",
                "TemplateInterp \"${\"",
                "Ident \"b\"",
                "TemplateSeqEnd \"}\"",
                "StringLit \"\\n\"",
                "StringLit \"\\n\"",
                "CHeredoc \"  EOT  \"",
                "Newline \"\\r\\n\"",
                "Ident \"c\"",
                "Equal \"=\"",
                "NumberLit \"1\"",
                "Comment \"# d\\n\"",
            ]
        );
        // The marker must stand alone on its line; at the end of the text
        // it needs no line break.
        assert_eq!(
            render("a = <<EOT\nEOT x\nEOT", ScanMode::Strict)[2..],
            [
                "OHeredoc \"<<EOT\\n\"",
                "StringLit \"EOT x\\n\"",
                "CHeredoc \"EOT\""
            ]
        );
    }

    #[test]
    fn operators_numbers_and_identifiers() {
        let text = "x = a - b == !c ? 1.5e+3 : d... => e::f[*]";
        let kinds: Vec<String> = render(text, ScanMode::Strict)
            .iter()
            .map(|token| token.split(' ').next().unwrap().to_owned())
            .collect();
        assert_eq!(
            kinds.join(" "),
            "Ident Equal Ident Minus Ident EqualOp Bang Ident Question NumberLit Colon Ident \
             Ellipsis FatArrow Ident DoubleColon Ident OBrack Star CBrack"
        );
    }

    #[test]
    fn strict_mode_stops_at_the_first_problem() {
        let cases = [
            ("a = \"x\n", "UnterminatedString { string: 4..6 }"),
            ("a = \"x\\\n\"", "UnterminatedString { string: 4..7 }"),
            ("a = <<EOT\nx\n", "UnterminatedHeredoc { opener: 4..10 }"),
            ("a = <<EOT x\nEOT\n", "InvalidHeredocOpener { range: 4..9 }"),
            ("a = << x", "InvalidHeredocOpener { range: 4..6 }"),
            ("a = 1 ^ 2", "InvalidCharacter { range: 6..7 }"),
            ("a = 1\rb = 2", "InvalidCharacter { range: 5..6 }"),
            ("/* a", "UnterminatedComment { comment: 0..4 }"),
            ("a = \"${b", "UnclosedTemplateSequence { open: 5..7 }"),
        ];
        for (text, problem) in cases {
            let mut scanner = Scanner::new(text, ScanMode::Strict);
            scanner.by_ref().for_each(drop);
            let problems: Vec<String> = scanner
                .problems()
                .iter()
                .map(|p| format!("{p:?}"))
                .collect();
            assert_eq!(problems, [problem], "{text:?}");
        }
    }

    #[test]
    fn forgiving_mode_recovers_and_goes_on() {
        let text = "a = \"open\nb = 1 ^ <<EOT junk\nx ${ \"y\n}\nEOT\nc = <<\n/* end";
        assert_eq!(
            render(text, ScanMode::Forgiving),
            [
                "Ident \"a\"",
                "Equal \"=\"",
                "OQuote \"\\\"\"",
                "QuotedLit \"open\"",
                "Newline \"\\n\"",
                "Ident \"b\"",
                "Equal \"=\"",
                "NumberLit \"1\"",
                "Invalid \"^\"",
                "OHeredoc \"<<EOT\"",
                "StringLit \" junk\\n\"",
                "StringLit \"x \"",
                "TemplateInterp \"${\"",
                "OQuote \"\\\"\"",
                "QuotedLit \"y\"",
                "Newline \"\\n\"",
                "TemplateSeqEnd \"}\"",
                "StringLit \"\\n\"",
                "CHeredoc \"EOT\"",
                "Newline \"\\n\"",
                "Ident \"c\"",
                "Equal \"=\"",
                "Invalid \"<<\"",
                "Newline \"\\n\"",
                "Comment \"/* end\"",
                "UnterminatedString { string: 4..9 }",
                "InvalidCharacter { range: 16..17 }",
                "InvalidHeredocOpener { range: 18..23 }",
                "UnterminatedString { string: 34..36 }",
                "InvalidHeredocOpener { range: 47..49 }",
                "UnterminatedComment { comment: 50..56 }",
            ]
        );
    }

    #[test]
    fn unclosed_nesting_is_reported_innermost_first_at_the_end() {
        let text = "a = \"${ <<EOT\n${ b";
        let problems = render(text, ScanMode::Forgiving);
        assert_eq!(
            problems[problems.len() - 4..],
            [
                "UnclosedTemplateSequence { open: 14..16 }",
                "UnterminatedHeredoc { opener: 8..14 }",
                "UnclosedTemplateSequence { open: 5..7 }",
                "UnterminatedString { string: 4..18 }",
            ]
        );
    }

    #[test]
    fn a_problem_is_recorded_before_the_token_after_it() {
        let text = "a = \"x\nb";
        let mut scanner = Scanner::new(text, ScanMode::Forgiving);
        let mut n_problems_before = Vec::new();
        while let Some(token) = scanner.next() {
            n_problems_before.push((token.text(text).to_owned(), scanner.problems().len()));
        }
        assert_eq!(n_problems_before[4], ("\n".to_owned(), 1));
        assert_eq!(n_problems_before[3], ("x".to_owned(), 0));
    }

    #[test]
    fn a_template_on_its_own_is_literal_lines_and_sequences() {
        let text = "a \"${b}\"\n$${c} %{ if d }\n${ \"e";
        let mut scanner = Scanner::template(text, ScanMode::Forgiving);
        let tokens: Vec<String> = scanner
            .by_ref()
            .map(|token| format!("{:?} {:?}", token.kind, token.text(text)))
            .collect();
        assert_eq!(
            tokens,
            [
                "StringLit \"a \\\"\"",
                "TemplateInterp \"${\"",
                "Ident \"b\"",
                "TemplateSeqEnd \"}\"",
                "StringLit \"\\\"\\n\"",
                "StringLit \"$${c} \"",
                "TemplateControl \"%{\"",
                "Ident \"if\"",
                "Ident \"d\"",
                "TemplateSeqEnd \"}\"",
                "StringLit \"\\n\"",
                "TemplateInterp \"${\"",
                "OQuote \"\\\"\"",
                "QuotedLit \"e\"",
            ]
        );
        assert_eq!(
            scanner.problems(),
            [
                ScanProblem::UnterminatedString {
                    string: TextRange::from_usize(28, 30)
                },
                ScanProblem::UnclosedTemplateSequence {
                    open: TextRange::from_usize(25, 27)
                },
            ]
        );
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        let text = format!("a = {}", "\"${".repeat(100_000));
        let n_tokens = Scanner::new(&text, ScanMode::Forgiving).count();
        assert_eq!(n_tokens, 2 + 2 * 100_000);
    }
}

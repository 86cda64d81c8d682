//! The token stream `tofu fmt` works on: HCL native syntax cut into tokens the
//! way HCL's scanner cuts it.
//!
//! Whitespace (spaces and tabs) is not a token; a line break (`\n` or `\r\n`)
//! is, and so is a `#` or `//` comment, which takes its line break with it.
//! Inside quoted strings and heredocs the literal text is kept as
//! [`Kind::QuotedLit`] tokens that cover every byte, so nothing between them
//! is ever respaced; `${`, `%{` and their closing `}` are tokens, and the
//! expression between them is lexed as usual. A heredoc's lines are literal
//! tokens holding their line breaks, so they never start a formatting line.
//!
//! The lexer does not judge the grammar; it gives up (`None`) only where it
//! cannot go on: a character HCL does not know, an unterminated string,
//! comment or heredoc. Files are checked by the parser before they are
//! formatted, so this is a second line of defence, not the syntax check.

use unicode_ident::{is_xid_continue, is_xid_start};

/// What a token is. Names follow HCL's token types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
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
    /// Literal text of a quoted template or heredoc, escapes included.
    QuotedLit,
    /// `${` or `${~`.
    TemplateInterp,
    /// `%{` or `%{~`.
    TemplateControl,
    /// The `}` or `~}` closing `${` or `%{`.
    TemplateSeqEnd,
    /// `<<EOT` or `<<-EOT` with its line break.
    OHeredoc,
    /// The closing marker of a heredoc, with the blanks before it.
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
}

/// One token: its kind and its bytes in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: Kind,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Kind {
    /// `+1` for a token that opens a bracket pair, `-1` for one that closes
    /// it, as far as indentation is concerned.
    pub(crate) fn bracket_change(self) -> i64 {
        match self {
            Kind::OBrace
            | Kind::OBrack
            | Kind::OParen
            | Kind::TemplateInterp
            | Kind::TemplateControl => 1,
            Kind::CBrace | Kind::CBrack | Kind::CParen | Kind::TemplateSeqEnd => -1,
            _ => 0,
        }
    }
}

/// The tokens of `text` and the number of blank bytes after the last one, or
/// `None` when the text cannot be cut into tokens.
pub(crate) struct Lexed {
    pub(crate) tokens: Vec<Token>,
    /// Blank bytes between the last token and the end of the text.
    pub(crate) trailing_blanks: usize,
}

enum Mode {
    /// Expressions: the file itself, or inside `${ }` / `%{ }` counting the
    /// braces opened there.
    Expr {
        braces: usize,
        template: bool,
    },
    Quoted,
    Heredoc {
        marker: String,
        line_start: bool,
    },
}

/// Cuts `text` (without its BOM) into tokens.
pub(crate) fn lex(text: &str) -> Option<Lexed> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut modes = vec![Mode::Expr {
        braces: 0,
        template: false,
    }];
    let mut at = 0usize;
    let at_byte = |index: usize| bytes.get(index).copied();
    loop {
        let mode = modes.last_mut()?;
        match mode {
            Mode::Expr { braces, template } => {
                while matches!(at_byte(at), Some(b' ' | b'\t')) {
                    at += 1;
                }
                let Some(byte) = at_byte(at) else {
                    if *template || modes.len() > 1 {
                        return None;
                    }
                    let trailing_blanks = at - tokens.last().map_or(0, |token: &Token| token.end);
                    return Some(Lexed {
                        tokens,
                        trailing_blanks,
                    });
                };
                let start = at;
                let next = at_byte(at + 1);
                let (kind, len) = match byte {
                    b'\n' => (Kind::Newline, 1),
                    b'\r' if next == Some(b'\n') => (Kind::Newline, 2),
                    b'#' => (Kind::Comment, line_comment_len(bytes, at)),
                    b'/' if next == Some(b'/') => (Kind::Comment, line_comment_len(bytes, at)),
                    b'/' if next == Some(b'*') => {
                        let rest = text.get(at + 2..)?;
                        let close = rest.find("*/")?;
                        (Kind::Comment, close + 4)
                    }
                    b'"' => {
                        modes.push(Mode::Quoted);
                        (Kind::OQuote, 1)
                    }
                    b'<' if next == Some(b'<') => {
                        let (len, marker) = heredoc_opener(text, at)?;
                        modes.push(Mode::Heredoc {
                            marker,
                            line_start: true,
                        });
                        (Kind::OHeredoc, len)
                    }
                    b'0'..=b'9' => (Kind::Number, number_len(bytes, at)),
                    b'{' => {
                        *braces += 1;
                        (Kind::OBrace, 1)
                    }
                    b'}' if *template && *braces == 0 => {
                        modes.pop();
                        (Kind::TemplateSeqEnd, 1)
                    }
                    b'}' => {
                        *braces = braces.saturating_sub(1);
                        (Kind::CBrace, 1)
                    }
                    b'~' if *template && *braces == 0 && next == Some(b'}') => {
                        modes.pop();
                        (Kind::TemplateSeqEnd, 2)
                    }
                    b'[' => (Kind::OBrack, 1),
                    b']' => (Kind::CBrack, 1),
                    b'(' => (Kind::OParen, 1),
                    b')' => (Kind::CParen, 1),
                    b'+' => (Kind::Plus, 1),
                    b'-' => (Kind::Minus, 1),
                    b'*' => (Kind::Star, 1),
                    b'/' => (Kind::Slash, 1),
                    b'%' => (Kind::Percent, 1),
                    b'=' if next == Some(b'=') => (Kind::EqualOp, 2),
                    b'=' if next == Some(b'>') => (Kind::FatArrow, 2),
                    b'=' => (Kind::Equal, 1),
                    b'!' if next == Some(b'=') => (Kind::NotEqual, 2),
                    b'!' => (Kind::Bang, 1),
                    b'<' if next == Some(b'=') => (Kind::LessThanEq, 2),
                    b'<' => (Kind::LessThan, 1),
                    b'>' if next == Some(b'=') => (Kind::GreaterThanEq, 2),
                    b'>' => (Kind::GreaterThan, 1),
                    b'&' if next == Some(b'&') => (Kind::And, 2),
                    b'|' if next == Some(b'|') => (Kind::Or, 2),
                    b'?' => (Kind::Question, 1),
                    b':' if next == Some(b':') => (Kind::DoubleColon, 2),
                    b':' => (Kind::Colon, 1),
                    b'.' if next == Some(b'.') && at_byte(at + 2) == Some(b'.') => {
                        (Kind::Ellipsis, 3)
                    }
                    b'.' => (Kind::Dot, 1),
                    b',' => (Kind::Comma, 1),
                    _ => {
                        let len = ident_len(text, at);
                        if len == 0 {
                            return None;
                        }
                        (Kind::Ident, len)
                    }
                };
                at += len;
                tokens.push(Token {
                    kind,
                    start,
                    end: at,
                });
            }
            Mode::Quoted => {
                let start = at;
                loop {
                    match at_byte(at) {
                        None | Some(b'\n' | b'\r') => return None,
                        Some(b'"') => break,
                        Some(b'\\') => {
                            if matches!(at_byte(at + 1), None | Some(b'\n' | b'\r')) {
                                return None;
                            }
                            at += 1 + char_len(text, at + 1);
                        }
                        Some(b'$' | b'%') if at_byte(at + 1) == Some(b'{') => break,
                        Some(b'$')
                            if text.get(at..).is_some_and(|rest| rest.starts_with("$${")) =>
                        {
                            at += 3;
                        }
                        Some(b'%')
                            if text.get(at..).is_some_and(|rest| rest.starts_with("%%{")) =>
                        {
                            at += 3;
                        }
                        Some(_) => at += char_len(text, at),
                    }
                }
                if at > start {
                    tokens.push(Token {
                        kind: Kind::QuotedLit,
                        start,
                        end: at,
                    });
                }
                let (kind, len) = match at_byte(at) {
                    Some(b'"') => {
                        modes.pop();
                        (Kind::CQuote, 1)
                    }
                    Some(b'$') => {
                        modes.push(template_mode());
                        (Kind::TemplateInterp, sequence_len(bytes, at))
                    }
                    _ => {
                        modes.push(template_mode());
                        (Kind::TemplateControl, sequence_len(bytes, at))
                    }
                };
                tokens.push(Token {
                    kind,
                    start: at,
                    end: at + len,
                });
                at += len;
            }
            Mode::Heredoc { marker, line_start } => {
                if *line_start {
                    if let Some(len) = closing_marker_len(text, at, marker) {
                        tokens.push(Token {
                            kind: Kind::CHeredoc,
                            start: at,
                            end: at + len,
                        });
                        at += len;
                        modes.pop();
                        continue;
                    }
                }
                let start = at;
                let mut ended_line = false;
                loop {
                    match at_byte(at) {
                        None => return None,
                        Some(b'\n') => {
                            at += 1;
                            ended_line = true;
                            break;
                        }
                        Some(b'$' | b'%') if at_byte(at + 1) == Some(b'{') => break,
                        Some(b'$')
                            if text.get(at..).is_some_and(|rest| rest.starts_with("$${")) =>
                        {
                            at += 3;
                        }
                        Some(b'%')
                            if text.get(at..).is_some_and(|rest| rest.starts_with("%%{")) =>
                        {
                            at += 3;
                        }
                        Some(_) => at += char_len(text, at),
                    }
                }
                *line_start = ended_line;
                if at > start {
                    tokens.push(Token {
                        kind: Kind::QuotedLit,
                        start,
                        end: at,
                    });
                }
                if !ended_line {
                    let kind = if at_byte(at) == Some(b'$') {
                        Kind::TemplateInterp
                    } else {
                        Kind::TemplateControl
                    };
                    let len = sequence_len(bytes, at);
                    tokens.push(Token {
                        kind,
                        start: at,
                        end: at + len,
                    });
                    at += len;
                    modes.push(template_mode());
                }
            }
        }
    }
}

fn template_mode() -> Mode {
    Mode::Expr {
        braces: 0,
        template: true,
    }
}

/// `${` or `${~` (and the `%` forms): two or three bytes.
fn sequence_len(bytes: &[u8], at: usize) -> usize {
    if bytes.get(at + 2) == Some(&b'~') {
        3
    } else {
        2
    }
}

fn char_len(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(1, char::len_utf8)
}

/// A `#` or `//` comment runs to the end of its line, the line break included.
fn line_comment_len(bytes: &[u8], at: usize) -> usize {
    let rest = bytes.get(at..).unwrap_or_default();
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

/// An identifier: a letter or `_`, then letters, digits, `_` and `-`.
fn ident_len(text: &str, at: usize) -> usize {
    let rest = text.get(at..).unwrap_or_default();
    let mut chars = rest.char_indices();
    match chars.next() {
        Some((_, first)) if is_xid_start(first) || first == '_' => {}
        _ => return 0,
    }
    for (offset, ch) in chars {
        if !(is_xid_continue(ch) || ch == '-') {
            return offset;
        }
    }
    rest.len()
}

/// `<<EOT` or `<<-EOT` followed by a line break: its length (the line break
/// included) and the marker.
fn heredoc_opener(text: &str, at: usize) -> Option<(usize, String)> {
    let mut end = at + 2;
    if text.as_bytes().get(end) == Some(&b'-') {
        end += 1;
    }
    let len = ident_len(text, end);
    if len == 0 {
        return None;
    }
    let marker = text.get(end..end + len)?.to_owned();
    end += len;
    match text.as_bytes().get(end) {
        Some(b'\n') => Some((end + 1 - at, marker)),
        Some(b'\r') if text.as_bytes().get(end + 1) == Some(&b'\n') => Some((end + 2 - at, marker)),
        _ => None,
    }
}

/// At a heredoc line start: the length of `[ \t]*MARKER` when that is the
/// whole line (up to its line break or the end of the text).
fn closing_marker_len(text: &str, at: usize, marker: &str) -> Option<usize> {
    let rest = text.get(at..)?;
    let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let after_blanks = rest.get(blanks..)?;
    let after_marker = after_blanks.strip_prefix(marker)?;
    if after_marker.is_empty() || after_marker.starts_with('\n') || after_marker.starts_with("\r\n")
    {
        Some(blanks + marker.len())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    fn kinds(text: &str) -> Vec<Kind> {
        lex(text)
            .unwrap()
            .tokens
            .iter()
            .map(|token| token.kind)
            .collect()
    }

    #[test]
    fn templates_and_heredocs() {
        use Kind::*;
        assert_eq!(
            kinds("a = \"x${ b }y\"\n"),
            [
                Ident,
                Equal,
                OQuote,
                QuotedLit,
                TemplateInterp,
                Ident,
                TemplateSeqEnd,
                QuotedLit,
                CQuote,
                Newline
            ]
        );
        assert_eq!(
            kinds("a = <<EOT\n  x ${b}\nEOT\n"),
            [
                Ident,
                Equal,
                OHeredoc,
                QuotedLit,
                TemplateInterp,
                Ident,
                TemplateSeqEnd,
                QuotedLit,
                CHeredoc,
                Newline
            ]
        );
        assert_eq!(
            kinds("a = { b = 1 } # c\n"),
            [Ident, Equal, OBrace, Ident, Equal, Number, CBrace, Comment]
        );
        assert!(lex("a = \"x\n").is_none());
        assert!(lex("a = <<EOT\nx\n").is_none());
        assert!(lex("a = 1 ^ 2").is_none());
    }
}

//! What colouring, folding and selection read beside the syntax model, which
//! does not keep it: the comments of a file, the literal pieces of its quoted
//! strings and heredocs (apart from their interpolations), heredoc markers,
//! numbers and bare words.
//!
//! Native syntax comes from tofu-syntax's forgiving scanner, its tokens cut
//! down to what is shown: a line comment without its line break, a string
//! piece with the quote it starts or ends with, a heredoc line without its
//! line break, a closing marker without the blanks around it; punctuation
//! and line breaks are dropped. JSON syntax has a small scan of its own
//! (strings, numbers, `true`, `false` and `null`).
//!
//! It never gives up: an unterminated string ends at its line, an
//! unterminated comment or heredoc at the end of the text, and a character
//! it does not know is skipped. It judges no grammar (the parser does); no
//! lexeme but a `/* */` comment spans lines. Ranges are byte offsets into
//! the text given, always on character boundaries.

use tofu_syntax::scanner::{ScanMode, Scanner, TokenKind};
use tofu_syntax::TextRange;

/// What a lexeme is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LexKind {
    /// `# …`, `// …` (without the line break) or `/* … */`.
    Comment,
    /// A literal piece of a quoted string, with the quote it starts or ends
    /// with; a string with interpolations is several pieces.
    String,
    /// `<<EOT`, `<<-EOT`, or the closing `EOT`.
    HeredocMarker,
    /// The literal text of one heredoc line (without its line break), or of
    /// the part of it before or after an interpolation.
    HeredocText,
    Number,
    /// An identifier or keyword.
    Word,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lexeme {
    pub range: TextRange,
    pub kind: LexKind,
}

/// True when `position` is inside (or at the end of) a comment, a string,
/// a heredoc or its marker among `lexemes`.
pub(crate) fn in_literal(lexemes: &[Lexeme], position: u32) -> bool {
    lexemes.iter().any(|lexeme| {
        is_literal(lexeme.kind) && lexeme.range.start < position && position <= lexeme.range.end
    })
}

/// Comments, strings, heredocs and their markers: text, not code.
pub(crate) fn is_literal(kind: LexKind) -> bool {
    matches!(
        kind,
        LexKind::Comment | LexKind::String | LexKind::HeredocText | LexKind::HeredocMarker
    )
}

/// The lexemes of native syntax (`.tf`, `.tofu`), in order.
pub(crate) fn lex_native(text: &str) -> Vec<Lexeme> {
    // About one lexeme every 16 bytes in real configurations.
    let mut out = Vec::with_capacity(text.len() / 16);
    let mut push = |range: TextRange, kind: LexKind| {
        if !range.is_empty() {
            out.push(Lexeme { range, kind });
        }
    };
    // The piece of a quoted string being read: from its opening quote, or
    // from the end of a template sequence, to its closing quote.
    let mut piece: Option<TextRange> = None;
    for token in Scanner::new(text, ScanMode::Forgiving) {
        let range = token.range;
        // Plain comparisons for the commonest tokens: a jump table on every
        // token mispredicts often.
        let kind = token.kind;
        if kind == TokenKind::QuotedLit {
            piece = Some(piece.map_or(range, |open| open.cover(range)));
            continue;
        }
        if kind == TokenKind::CQuote {
            let whole = piece.take().map_or(range, |open| open.cover(range));
            push(whole, LexKind::String);
            continue;
        }
        if let Some(done) = piece.take() {
            push(done, LexKind::String);
        }
        if kind == TokenKind::Ident {
            push(range, LexKind::Word);
            continue;
        }
        if kind == TokenKind::OQuote {
            piece = Some(range);
            continue;
        }
        let lexeme = match kind {
            TokenKind::Comment if range.slice(text).starts_with("/*") => {
                Some((range, LexKind::Comment))
            }
            TokenKind::Comment => Some((line_comment(text, range), LexKind::Comment)),
            TokenKind::NumberLit => Some((range, LexKind::Number)),
            TokenKind::OHeredoc => Some((without_line_break(text, range), LexKind::HeredocMarker)),
            TokenKind::CHeredoc => {
                let written = range.slice(text);
                let blanks_before = written.len() - written.trim_start_matches([' ', '\t']).len();
                let marker = written.trim_matches([' ', '\t']);
                let start = token.start() + blanks_before;
                Some((
                    TextRange::from_usize(start, start + marker.len()),
                    LexKind::HeredocMarker,
                ))
            }
            TokenKind::StringLit => Some((without_line_break(text, range), LexKind::HeredocText)),
            _ => None,
        };
        if let Some((range, kind)) = lexeme {
            push(range, kind);
        }
    }
    if let Some(done) = piece {
        push(done, LexKind::String);
    }
    out
}

/// `range` without the line break (`\n` or `\r\n`) it ends with, if any.
fn without_line_break(text: &str, range: TextRange) -> TextRange {
    let written = range.slice(text);
    let kept = match written.strip_suffix('\n') {
        Some(line) => line.strip_suffix('\r').unwrap_or(line),
        None => written,
    };
    TextRange::from_usize(range.start as usize, range.start as usize + kept.len())
}

/// A `#` or `//` comment without its line break, nor a `\r` ending the text.
fn line_comment(text: &str, range: TextRange) -> TextRange {
    let written = range.slice(text);
    let kept = written.strip_suffix('\n').unwrap_or(written);
    let kept = kept.strip_suffix('\r').unwrap_or(kept);
    TextRange::from_usize(range.start as usize, range.start as usize + kept.len())
}

/// The lexemes of JSON syntax (`.tf.json`, `.tofu.json`): strings (whole,
/// quotes included), numbers and the words `true`, `false` and `null`.
pub(crate) fn lex_json(text: &str) -> Vec<Lexeme> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0usize;
    while let Some(&byte) = bytes.get(at) {
        let start = at;
        let kind = match byte {
            b'"' => {
                at += 1;
                loop {
                    match bytes.get(at) {
                        None | Some(b'\n' | b'\r') => break,
                        Some(b'"') => {
                            at += 1;
                            break;
                        }
                        Some(b'\\') => {
                            at += 1;
                            if !matches!(bytes.get(at), None | Some(b'\n' | b'\r')) {
                                at += char_len(text, at);
                            }
                        }
                        Some(_) => at += char_len(text, at),
                    }
                }
                Some(LexKind::String)
            }
            b'-' | b'0'..=b'9' => {
                at += 1;
                while bytes.get(at).is_some_and(|b| {
                    b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')
                }) {
                    at += 1;
                }
                Some(LexKind::Number)
            }
            b'a'..=b'z' | b'A'..=b'Z' => {
                while bytes.get(at).is_some_and(u8::is_ascii_alphanumeric) {
                    at += 1;
                }
                Some(LexKind::Word)
            }
            _ => {
                at += char_len(text, at);
                None
            }
        };
        if let Some(kind) = kind {
            out.push(Lexeme {
                range: TextRange::from_usize(start, at),
                kind,
            });
        }
    }
    out
}

fn char_len(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(1, char::len_utf8)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    fn render(text: &str, lexemes: &[Lexeme]) -> Vec<String> {
        lexemes
            .iter()
            .map(|lexeme| format!("{:?} {}", lexeme.kind, lexeme.range.slice(text)))
            .collect()
    }

    #[test]
    fn strings_are_cut_around_interpolations() {
        let text = "a = \"x ${var.y} $${z} %{ if b }c%{ endif }\" # note\n";
        assert_eq!(
            render(text, &lex_native(text)),
            [
                "Word a",
                "String \"x ",
                "Word var",
                "Word y",
                "String  $${z} ",
                "Word if",
                "Word b",
                "String c",
                "Word endif",
                "String \"",
                "Comment # note",
            ]
        );
    }

    #[test]
    fn heredocs_are_one_token_per_line_and_markers() {
        let text = "v = <<-EOT\r\n  one ${x}\n\n  two\n  EOT\n// after\n/* a\nb */";
        assert_eq!(
            render(text, &lex_native(text)),
            [
                "Word v",
                "HeredocMarker <<-EOT",
                "HeredocText   one ",
                "Word x",
                "HeredocText   two",
                "HeredocMarker EOT",
                "Comment // after",
                "Comment /* a\nb */",
            ]
        );
    }

    #[test]
    fn broken_text_still_lexes_to_the_end() {
        let text = "a = \"open\nb = 1.5e3 ~ <<\nc = <<EOT\nno end";
        assert_eq!(
            render(text, &lex_native(text)),
            [
                "Word a",
                "String \"open",
                "Word b",
                "Number 1.5e3",
                "Word c",
                "HeredocMarker <<EOT",
                "HeredocText no end",
            ]
        );
    }

    #[test]
    fn heredoc_markers_stand_without_their_blanks() {
        // A closing marker may have blanks after it (HCL trims the line); an
        // opener with more on its line still opens the heredoc.
        let text = "a = <<EOT junk\nx\n  EOT  \r\nb = 1 # c\r\n";
        assert_eq!(
            render(text, &lex_native(text)),
            [
                "Word a",
                "HeredocMarker <<EOT",
                "HeredocText  junk",
                "HeredocText x",
                "HeredocMarker EOT",
                "Word b",
                "Number 1",
                "Comment # c",
            ]
        );
    }

    #[test]
    fn json_strings_numbers_and_words() {
        let text = "{\"a\\\"b\": [1, -2.5e3, true, null], \"c\": \"${x}\"}";
        assert_eq!(
            render(text, &lex_json(text)),
            [
                "String \"a\\\"b\"",
                "Number 1",
                "Number -2.5e3",
                "Word true",
                "Word null",
                "String \"c\"",
                "String \"${x}\"",
            ]
        );
    }
}

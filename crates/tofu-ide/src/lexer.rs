//! A light, forgiving scan of a configuration file for what the syntax model
//! does not keep: comments, the literal pieces of quoted strings and
//! heredocs (apart from their interpolations), heredoc markers, numbers and
//! bare words. Colouring, folding and selection read it beside the model.
//!
//! It never gives up: an unterminated string ends at its line, an
//! unterminated comment or heredoc at the end of the text, and a character
//! it does not know is punctuation. It judges no grammar (the parser does)
//! and keeps no whitespace; a line comment's token stops before its line
//! break, and a heredoc body is one token per line, so no token but a
//! `/* */` comment spans lines. Ranges are byte offsets into the text given,
//! always on character boundaries.

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

enum Mode {
    /// Expressions: the file, or inside `${ }` / `%{ }` counting the braces
    /// opened there.
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

/// The lexemes of native syntax (`.tf`, `.tofu`), in order.
pub(crate) fn lex_native(text: &str) -> Vec<Lexeme> {
    let bytes = text.as_bytes();
    let at_byte = |index: usize| bytes.get(index).copied();
    let mut out = Vec::new();
    let mut push = |start: usize, end: usize, kind: LexKind| {
        if end > start {
            out.push(Lexeme {
                range: TextRange::from_usize(start, end),
                kind,
            });
        }
    };
    let mut modes = vec![Mode::Expr {
        braces: 0,
        template: false,
    }];
    let mut at = 0usize;
    // Where the literal piece of a quoted string being entered starts (its
    // opening quote).
    let mut piece_start: Option<usize> = None;
    while at < bytes.len() {
        let Some(mode) = modes.last_mut() else { break };
        match mode {
            Mode::Expr { braces, template } => {
                let Some(byte) = at_byte(at) else { break };
                let next = at_byte(at + 1);
                match byte {
                    b' ' | b'\t' | b'\r' | b'\n' => at += 1,
                    b'#' => {
                        let end = line_end(bytes, at);
                        push(at, end, LexKind::Comment);
                        at = end;
                    }
                    b'/' if next == Some(b'/') => {
                        let end = line_end(bytes, at);
                        push(at, end, LexKind::Comment);
                        at = end;
                    }
                    b'/' if next == Some(b'*') => {
                        let end = text
                            .get(at + 2..)
                            .and_then(|rest| rest.find("*/"))
                            .map_or(bytes.len(), |close| at + 2 + close + 2);
                        push(at, end, LexKind::Comment);
                        at = end;
                    }
                    b'"' => {
                        piece_start = Some(at);
                        at += 1;
                        modes.push(Mode::Quoted);
                    }
                    b'<' if next == Some(b'<') => match heredoc_opener(text, at) {
                        Some((marker_end, marker, body_start)) => {
                            push(at, marker_end, LexKind::HeredocMarker);
                            at = body_start;
                            modes.push(Mode::Heredoc {
                                marker,
                                line_start: true,
                            });
                        }
                        None => at += 2,
                    },
                    b'0'..=b'9' => {
                        let end = at + number_len(bytes, at);
                        push(at, end, LexKind::Number);
                        at = end;
                    }
                    b'{' => {
                        *braces += 1;
                        at += 1;
                    }
                    b'}' if *template && *braces == 0 => {
                        modes.pop();
                        at += 1;
                    }
                    b'}' => {
                        *braces = braces.saturating_sub(1);
                        at += 1;
                    }
                    b'~' if *template && *braces == 0 && next == Some(b'}') => {
                        modes.pop();
                        at += 2;
                    }
                    _ => {
                        let len = word_len(text, at);
                        if len == 0 {
                            at += char_len(text, at);
                        } else {
                            push(at, at + len, LexKind::Word);
                            at += len;
                        }
                    }
                }
            }
            Mode::Quoted => {
                let start = piece_start.take().unwrap_or(at);
                loop {
                    match at_byte(at) {
                        // Unterminated: the string ends with its line.
                        None | Some(b'\n' | b'\r') => {
                            push(start, at, LexKind::String);
                            modes.pop();
                            break;
                        }
                        Some(b'"') => {
                            push(start, at + 1, LexKind::String);
                            at += 1;
                            modes.pop();
                            break;
                        }
                        Some(b'\\') => {
                            at += 1;
                            if !matches!(at_byte(at), None | Some(b'\n' | b'\r')) {
                                at += char_len(text, at);
                            }
                        }
                        Some(b'$' | b'%') if at_byte(at + 1) == Some(b'{') => {
                            push(start, at, LexKind::String);
                            at += sequence_len(bytes, at);
                            modes.push(template_mode());
                            break;
                        }
                        Some(b'$' | b'%') if is_escaped_sequence(bytes, at) => at += 3,
                        Some(_) => at += char_len(text, at),
                    }
                }
            }
            Mode::Heredoc { marker, line_start } => {
                if *line_start {
                    if let Some((marker_start, marker_end)) = closing_marker(text, at, marker) {
                        push(marker_start, marker_end, LexKind::HeredocMarker);
                        at = marker_end;
                        modes.pop();
                        continue;
                    }
                }
                let start = at;
                loop {
                    match at_byte(at) {
                        None => {
                            push(start, at, LexKind::HeredocText);
                            *line_start = false;
                            break;
                        }
                        Some(b'\n') => {
                            let end = if at > start && at_byte(at - 1) == Some(b'\r') {
                                at - 1
                            } else {
                                at
                            };
                            push(start, end, LexKind::HeredocText);
                            at += 1;
                            *line_start = true;
                            break;
                        }
                        Some(b'$' | b'%') if at_byte(at + 1) == Some(b'{') => {
                            push(start, at, LexKind::HeredocText);
                            at += sequence_len(bytes, at);
                            *line_start = false;
                            modes.push(template_mode());
                            break;
                        }
                        Some(b'$' | b'%') if is_escaped_sequence(bytes, at) => at += 3,
                        Some(_) => at += char_len(text, at),
                    }
                }
            }
        }
    }
    out
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

fn template_mode() -> Mode {
    Mode::Expr {
        braces: 0,
        template: true,
    }
}

/// `$${` or `%%{`: a literal `${` or `%{`.
fn is_escaped_sequence(bytes: &[u8], at: usize) -> bool {
    let first = bytes.get(at);
    first.is_some() && bytes.get(at + 1) == first && bytes.get(at + 2) == Some(&b'{')
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

/// Where the line holding `at` ends: before its `\n` (or `\r\n`).
fn line_end(bytes: &[u8], at: usize) -> usize {
    let rest = bytes.get(at..).unwrap_or_default();
    let end = rest
        .iter()
        .position(|byte| *byte == b'\n')
        .map_or(bytes.len(), |newline| at + newline);
    if end > at && bytes.get(end - 1) == Some(&b'\r') {
        end - 1
    } else {
        end
    }
}

/// `<<EOT` or `<<-EOT` at `at`, followed by the end of its line: where the
/// marker ends, the marker word, and where the body starts.
fn heredoc_opener(text: &str, at: usize) -> Option<(usize, String, usize)> {
    let rest = text.get(at + 2..)?;
    let (dash, rest) = match rest.strip_prefix('-') {
        Some(rest) => (1, rest),
        None => (0, rest),
    };
    let len = word_len(rest, 0);
    if len == 0 {
        return None;
    }
    let marker = rest.get(..len)?.to_owned();
    let marker_end = at + 2 + dash + len;
    let after = text.get(marker_end..)?;
    let body_start = if after.starts_with("\r\n") {
        marker_end + 2
    } else if after.starts_with('\n') {
        marker_end + 1
    } else {
        return None;
    };
    Some((marker_end, marker, body_start))
}

/// The closing marker of a heredoc on the line starting at `at` (blanks
/// before it allowed), where it starts and ends.
fn closing_marker(text: &str, at: usize, marker: &str) -> Option<(usize, usize)> {
    let line = text.get(at..)?;
    let blanks = line.len() - line.trim_start_matches([' ', '\t']).len();
    let start = at + blanks;
    let after = text.get(start..)?.strip_prefix(marker)?;
    let ends_line = after.is_empty() || after.starts_with('\n') || after.starts_with("\r\n");
    ends_line.then_some((start, start + marker.len()))
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

/// An identifier at `at`: a letter or `_`, then letters, digits, `_` and `-`.
fn word_len(text: &str, at: usize) -> usize {
    let rest = text.get(at..).unwrap_or_default();
    let mut chars = rest.char_indices();
    match chars.next() {
        Some((_, first)) if first.is_alphabetic() || first == '_' => {}
        _ => return 0,
    }
    for (offset, c) in chars {
        if !(c.is_alphanumeric() || c == '_' || c == '-') {
            return offset;
        }
    }
    rest.len()
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

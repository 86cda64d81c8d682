//! The tokens `tofu fmt` works on: tofu-syntax's scanner in strict mode (a
//! text it cannot cut into HCL's tokens is not formatted), and how each
//! token moves the bracket depth that indentation counts.
//!
//! Whitespace is not a token, so the blanks after the last token are kept
//! apart: `tofu fmt` leaves them at the very end of a file without a final
//! line break.

use tofu_syntax::scanner::{ScanMode, Scanner, Token, TokenKind};

/// The tokens of a text and the number of blank bytes after the last one.
pub(crate) struct Lexed {
    pub(crate) tokens: Vec<Token>,
    /// Blank bytes between the last token and the end of the text.
    pub(crate) trailing_blanks: usize,
}

/// Cuts `text` (without its BOM) into tokens, or `None` where the scanner
/// meets a problem: a character HCL does not know, an unterminated string,
/// comment or heredoc. Files are checked by the parser before they are
/// formatted, so this is a second line of defence, not the syntax check.
pub(crate) fn lex(text: &str) -> Option<Lexed> {
    let mut scanner = Scanner::new(text, ScanMode::Strict);
    let tokens: Vec<Token> = scanner.by_ref().collect();
    if !scanner.problems().is_empty() {
        return None;
    }
    let last_end = tokens.last().map_or(0, |token| token.end());
    Some(Lexed {
        tokens,
        trailing_blanks: text.len() - last_end,
    })
}

/// `+1` for a token that opens a bracket pair, `-1` for one that closes it,
/// as far as indentation is concerned.
pub(crate) fn bracket_change(kind: TokenKind) -> i64 {
    match kind {
        TokenKind::OBrace
        | TokenKind::OBrack
        | TokenKind::OParen
        | TokenKind::TemplateInterp
        | TokenKind::TemplateControl => 1,
        TokenKind::CBrace | TokenKind::CBrack | TokenKind::CParen | TokenKind::TemplateSeqEnd => -1,
        _ => 0,
    }
}

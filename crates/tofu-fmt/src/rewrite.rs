//! `tofu fmt`'s rewrites, done on the token stream before the layout:
//!
//! - every block's labels are written back quoted (`resource foo bar` →
//!   `resource "foo" "bar"`), which drops comments among them and labels
//!   HCL's scanner splits (see `quote`);
//! - an attribute whose whole value is one interpolation, `"${x}"`, becomes
//!   `x`, in parentheses when it still spans lines once the line breaks at
//!   its edges are dropped (unless it starts with `(` and ends with `)`);
//!   only whole values, never one inside a list or object;
//! - in a top-level `variable` block, `type = "string"`, `"list"` and
//!   `"map"` become `string`, `list(string)` and `map(string)`, and bare
//!   `list`, `map` and `set` become `list(any)`, `map(any)` and `set(any)`
//!   (and such a `type` is not unwrapped).
//!
//! The result is a list of [`Piece`]s: source tokens (with where they came
//! from, for minimal edits) and the tokens the rewrites made.

use std::borrow::Cow;
use std::ops::Range;

use tofu_syntax::scanner::{Token, TokenKind};

use crate::quote;
use crate::structure::{Item, ItemKind};
use crate::tokens::bracket_change;

/// A token of the formatted file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece<'a> {
    pub(crate) kind: TokenKind,
    pub(crate) text: Cow<'a, str>,
    /// The source bytes this piece repeats unchanged, if it does.
    pub(crate) origin: Option<Range<usize>>,
}

/// The pieces of the formatted file: `tokens` with the rewrites applied.
pub(crate) fn apply<'a>(text: &'a str, tokens: &[Token], items: &[Item]) -> Vec<Piece<'a>> {
    let mut replacements = Vec::new();
    collect(text, tokens, items, true, false, &mut replacements);
    replacements.sort_by_key(|(range, _)| range.start);
    let mut pieces = Vec::with_capacity(tokens.len() + 8);
    let mut at = 0;
    for (range, replacement) in replacements {
        if range.start < at {
            continue;
        }
        pieces.extend(
            tokens
                .get(at..range.start)
                .unwrap_or_default()
                .iter()
                .map(|token| source(text, token)),
        );
        pieces.extend(replacement);
        at = range.end;
    }
    pieces.extend(
        tokens
            .get(at..)
            .unwrap_or_default()
            .iter()
            .map(|token| source(text, token)),
    );
    pieces
}

pub(crate) fn source<'a>(text: &'a str, token: &Token) -> Piece<'a> {
    Piece {
        kind: token.kind,
        text: Cow::Borrowed(text.get(token.start()..token.end()).unwrap_or_default()),
        origin: Some(token.start()..token.end()),
    }
}

fn made<'a>(kind: TokenKind, text: &'static str) -> Piece<'a> {
    Piece {
        kind,
        text: Cow::Borrowed(text),
        origin: None,
    }
}

type Replacement<'a> = (Range<usize>, Vec<Piece<'a>>);

fn collect<'a>(
    text: &'a str,
    tokens: &[Token],
    items: &[Item],
    top_level: bool,
    in_variable: bool,
    out: &mut Vec<Replacement<'a>>,
) {
    let token_text = |index: usize| {
        tokens
            .get(index)
            .and_then(|token| text.get(token.start()..token.end()))
            .unwrap_or_default()
    };
    for item in items {
        match &item.kind {
            ItemKind::Attribute { value } => {
                let is_type = in_variable && token_text(item.tokens.start) == "type";
                let replacement = if is_type {
                    legacy_type(text, tokens, value.clone())
                } else {
                    unwrap_interpolation(text, tokens, value.clone())
                };
                if let Some(pieces) = replacement {
                    out.push((value.clone(), pieces));
                }
            }
            ItemKind::Block { labels, body } => {
                if let Some(replacement) = quote_labels(text, tokens, labels.clone()) {
                    out.push(replacement);
                }
                let variable = top_level && token_text(item.tokens.start) == "variable";
                collect(text, tokens, body, false, variable, out);
            }
        }
    }
}

/// The labels between a block's type and its `{`, quoted, from the first
/// token after the type to the last label.
fn quote_labels<'a>(
    text: &'a str,
    tokens: &[Token],
    labels: Range<usize>,
) -> Option<Replacement<'a>> {
    let slice = tokens.get(labels.clone())?;
    let last = slice
        .iter()
        .rposition(|token| matches!(token.kind, TokenKind::Ident | TokenKind::CQuote))?;
    let mut pieces = Vec::new();
    let mut index = 0;
    while index <= last {
        let token = slice.get(index)?;
        match token.kind {
            TokenKind::Ident => {
                let raw = text.get(token.start()..token.end())?;
                label_pieces(quote::requote(raw, false), &mut pieces);
                index += 1;
            }
            TokenKind::OQuote => {
                let close = index
                    + slice
                        .get(index..)?
                        .iter()
                        .position(|t| t.kind == TokenKind::CQuote)?;
                let close_token = slice.get(close)?;
                let raw = text.get(token.end()..close_token.start())?;
                if quote::label_is_kept(raw) {
                    let requoted = quote::requote(raw, true);
                    if text.get(token.start()..close_token.end()) == Some(requoted.as_str()) {
                        // Unchanged: keep the source tokens, anchors for minimal edits.
                        pieces.extend(slice.get(index..=close)?.iter().map(|t| source(text, t)));
                    } else {
                        label_pieces(requoted, &mut pieces);
                    }
                }
                index = close + 1;
            }
            _ => index += 1,
        }
    }
    Some((labels.start..labels.start + last + 1, pieces))
}

fn label_pieces(quoted: String, out: &mut Vec<Piece<'_>>) {
    out.push(made(TokenKind::OQuote, "\""));
    let inner = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or_default()
        .to_owned();
    if !inner.is_empty() {
        out.push(Piece {
            kind: TokenKind::QuotedLit,
            text: Cow::Owned(inner),
            origin: None,
        });
    }
    out.push(made(TokenKind::CQuote, "\""));
}

/// `"${x}"` → `x` (or `(x)` over several lines).
fn unwrap_interpolation<'a>(
    text: &'a str,
    tokens: &[Token],
    value: Range<usize>,
) -> Option<Vec<Piece<'a>>> {
    let slice = tokens.get(value)?;
    let kinds = |index: usize| slice.get(index).map(|token| token.kind);
    if kinds(0) != Some(TokenKind::OQuote) || kinds(1) != Some(TokenKind::TemplateInterp) {
        return None;
    }
    let last = slice.len().checked_sub(1)?;
    if kinds(last) != Some(TokenKind::CQuote) {
        return None;
    }
    // The `}` closing the first `${` must be the one before the quote.
    let mut depth = 0i64;
    let mut close = None;
    for (index, token) in slice.iter().enumerate().skip(1) {
        depth += bracket_change(token.kind);
        if depth == 0 {
            close = Some(index);
            break;
        }
    }
    if close != Some(last - 1) || kinds(last - 1) != Some(TokenKind::TemplateSeqEnd) {
        return None;
    }
    let mut inner = slice.get(2..last - 1)?;
    while let Some((first, rest)) = inner.split_first() {
        if first.kind != TokenKind::Newline {
            break;
        }
        inner = rest;
    }
    while let Some((final_token, rest)) = inner.split_last() {
        if final_token.kind != TokenKind::Newline {
            break;
        }
        inner = rest;
    }
    if inner.is_empty() {
        return None;
    }
    // Parenthesised already (judged by the first and last token only, as
    // `tofu fmt` judges it) or on one line: no parentheses are added.
    let parenthesised = inner.first().map(|token| token.kind) == Some(TokenKind::OParen)
        && inner.last().map(|token| token.kind) == Some(TokenKind::CParen);
    let wrap = !parenthesised && inner.iter().any(|token| token.kind == TokenKind::Newline);
    let mut pieces = Vec::with_capacity(inner.len() + 2);
    if wrap {
        pieces.push(made(TokenKind::OParen, "("));
    }
    pieces.extend(inner.iter().map(|token| source(text, token)));
    if wrap {
        pieces.push(made(TokenKind::CParen, ")"));
    }
    Some(pieces)
}

/// A `variable` block's `type` written the pre-0.12 way.
fn legacy_type<'a>(text: &'a str, tokens: &[Token], value: Range<usize>) -> Option<Vec<Piece<'a>>> {
    let slice = tokens.get(value)?;
    let token_text = |token: &Token| text.get(token.start()..token.end()).unwrap_or_default();
    let replacement: &[(TokenKind, &'static str)] = match slice {
        [only] if only.kind == TokenKind::Ident => match token_text(only) {
            "list" => &[
                (TokenKind::Ident, "list"),
                (TokenKind::OParen, "("),
                (TokenKind::Ident, "any"),
                (TokenKind::CParen, ")"),
            ],
            "map" => &[
                (TokenKind::Ident, "map"),
                (TokenKind::OParen, "("),
                (TokenKind::Ident, "any"),
                (TokenKind::CParen, ")"),
            ],
            "set" => &[
                (TokenKind::Ident, "set"),
                (TokenKind::OParen, "("),
                (TokenKind::Ident, "any"),
                (TokenKind::CParen, ")"),
            ],
            _ => return None,
        },
        [open, literal, close]
            if open.kind == TokenKind::OQuote
                && literal.kind == TokenKind::QuotedLit
                && close.kind == TokenKind::CQuote =>
        {
            match token_text(literal) {
                "string" => &[(TokenKind::Ident, "string")],
                "list" => &[
                    (TokenKind::Ident, "list"),
                    (TokenKind::OParen, "("),
                    (TokenKind::Ident, "string"),
                    (TokenKind::CParen, ")"),
                ],
                "map" => &[
                    (TokenKind::Ident, "map"),
                    (TokenKind::OParen, "("),
                    (TokenKind::Ident, "string"),
                    (TokenKind::CParen, ")"),
                ],
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(
        replacement
            .iter()
            .map(|(kind, piece_text)| made(*kind, piece_text))
            .collect(),
    )
}

//! The bodies of a file over its tokens: which tokens are a block's type,
//! labels and braces, and which are an attribute's name and value, at every
//! nesting level. `tofu fmt`'s rewrites (labels, interpolation-only strings,
//! legacy type constraints) and range formatting need no more than this.
//!
//! It runs on files the parser accepted, so it does not report errors: a
//! construct it does not recognise is skipped to the end of its line. Bodies
//! nested deeper than [`MAX_DEPTH`] are not looked into (no rewrite there),
//! which keeps the walk's recursion bounded on any input.

use std::ops::Range;

use tofu_syntax::scanner::{Token, TokenKind};

use crate::tokens::bracket_change;

/// Blocks nested deeper than this are left without rewrites.
const MAX_DEPTH: usize = 200;

/// One attribute or block of a body, by token index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    /// The first and one past the last token of the item (its name or type
    /// up to its value's last token or its closing brace).
    pub(crate) tokens: Range<usize>,
    pub(crate) kind: ItemKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    Attribute {
        /// The value's tokens, without comments at either end.
        value: Range<usize>,
    },
    Block {
        /// The tokens between the type and the `{`: labels and comments.
        labels: Range<usize>,
        body: Vec<Item>,
    },
}

/// The items of the file's top-level body.
pub(crate) fn items(tokens: &[Token], text: &str) -> Vec<Item> {
    let mut at = 0;
    body(tokens, text, &mut at, 0)
}

fn kind_at(tokens: &[Token], index: usize) -> Option<TokenKind> {
    tokens.get(index).map(|token| token.kind)
}

/// A token that ends a line: a line break or a line comment.
pub(crate) fn ends_line(token: &Token, text: &str) -> bool {
    token.kind == TokenKind::Newline
        || (token.kind == TokenKind::Comment
            && text
                .get(token.start()..token.end())
                .is_some_and(|comment| comment.ends_with('\n')))
}

fn body(tokens: &[Token], text: &str, at: &mut usize, depth: usize) -> Vec<Item> {
    let mut items = Vec::new();
    while let Some(token) = tokens.get(*at) {
        match token.kind {
            TokenKind::Newline | TokenKind::Comment => *at += 1,
            TokenKind::CBrace if depth > 0 => return items,
            TokenKind::Ident => {
                let start = *at;
                let mut next = start + 1;
                while kind_at(tokens, next) == Some(TokenKind::Comment) {
                    next += 1;
                }
                if kind_at(tokens, next) == Some(TokenKind::Equal) {
                    let end = value_end(tokens, text, next + 1, depth > 0);
                    let mut value = next + 1..end;
                    while kind_at(tokens, value.start) == Some(TokenKind::Comment)
                        && value.start < value.end
                    {
                        value.start += 1;
                    }
                    while value.end > value.start
                        && kind_at(tokens, value.end - 1) == Some(TokenKind::Comment)
                    {
                        value.end -= 1;
                    }
                    items.push(Item {
                        tokens: start..value.end.max(next + 1),
                        kind: ItemKind::Attribute { value },
                    });
                    *at = end;
                } else if let Some(open) = block_open(tokens, start + 1) {
                    *at = open + 1;
                    let nested = if depth < MAX_DEPTH {
                        body(tokens, text, at, depth + 1)
                    } else {
                        skip_to_close(tokens, at);
                        Vec::new()
                    };
                    if kind_at(tokens, *at) == Some(TokenKind::CBrace) {
                        *at += 1;
                    }
                    items.push(Item {
                        tokens: start..*at,
                        kind: ItemKind::Block {
                            labels: start + 1..open,
                            body: nested,
                        },
                    });
                } else {
                    skip_line(tokens, at);
                }
            }
            _ => skip_line(tokens, at),
        }
    }
    items
}

/// Where an attribute's value ends: the line break (or line comment) at its
/// own nesting level, or the `}` closing a single-line block.
fn value_end(tokens: &[Token], text: &str, from: usize, nested: bool) -> usize {
    let mut depth = 0i64;
    let mut at = from;
    while let Some(token) = tokens.get(at) {
        match token.kind {
            TokenKind::Newline if depth == 0 => return at,
            TokenKind::Comment if depth == 0 && ends_line(token, text) => return at,
            TokenKind::CBrace if depth == 0 && nested => return at,
            kind => depth += nesting_change(kind),
        }
        at += 1;
    }
    at
}

/// How a token changes the nesting of brackets, quotes and heredocs.
fn nesting_change(kind: TokenKind) -> i64 {
    match kind {
        TokenKind::OQuote | TokenKind::OHeredoc => 1,
        TokenKind::CQuote | TokenKind::CHeredoc => -1,
        other => bracket_change(other),
    }
}

/// After a block type: labels and comments up to the `{`.
fn block_open(tokens: &[Token], from: usize) -> Option<usize> {
    let mut at = from;
    let mut in_label = false;
    while let Some(token) = tokens.get(at) {
        match token.kind {
            TokenKind::OBrace if !in_label => return Some(at),
            TokenKind::OQuote if !in_label => in_label = true,
            TokenKind::CQuote if in_label => in_label = false,
            TokenKind::QuotedLit if in_label => {}
            TokenKind::Ident | TokenKind::Comment if !in_label => {}
            _ => return None,
        }
        at += 1;
    }
    None
}

fn skip_line(tokens: &[Token], at: &mut usize) {
    let mut depth = 0i64;
    while let Some(token) = tokens.get(*at) {
        *at += 1;
        match token.kind {
            TokenKind::Newline if depth <= 0 => return,
            kind => depth += nesting_change(kind),
        }
    }
}

fn skip_to_close(tokens: &[Token], at: &mut usize) {
    let mut depth = 0i64;
    while let Some(token) = tokens.get(*at) {
        match token.kind {
            TokenKind::CBrace if depth == 0 => return,
            kind => depth += nesting_change(kind),
        }
        *at += 1;
    }
}

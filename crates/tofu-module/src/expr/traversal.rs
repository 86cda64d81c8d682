//! HCL's traversal parser (`hclsyntax.ParseTraversalAbs`), for the strings
//! OpenTofu reads as references: quoted references in `depends_on`,
//! `ignore_changes`, `replace_triggered_by`, quoted provider references, JSON
//! strings where a reference is expected. The lexer's invalid characters are
//! reported first, as HCL's `LexExpression` does; then the first parse error.
//! Newlines and comments are skipped (bare traversals are read as if in
//! parentheses). Ranges are relative to the parsed text.

use tofu_syntax::TextRange;

/// One step: the root name or an attribute (`.name`; the range includes the
/// dot), or an index with a constant key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Name(String),
    Index(IndexKey),
}

/// A constant index key, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexKey {
    Number(String),
    String(String),
    /// `true`, `false` or `null` (only from a native expression).
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedStep {
    pub part: Part,
    pub range: TextRange,
}

/// An HCL error: summary, detail and range (relative to the parsed text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraversalError {
    pub summary: &'static str,
    pub detail: &'static str,
    pub range: TextRange,
}

/// What the parser read (also when it stopped at an error; empty when not
/// even a root name was found) and the first error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedTraversal {
    pub steps: Vec<ParsedStep>,
    pub error: Option<TraversalError>,
}

impl ParsedTraversal {
    /// The traversal's source range (HCL's `Traversal.SourceRange`): from
    /// the root to the end of the last step read.
    pub fn range(&self) -> Option<TextRange> {
        let first = self.steps.first()?;
        let last = self.steps.last()?;
        Some(first.range.cover(last.range))
    }
}

/// Parses `text` as an absolute traversal.
pub fn parse_traversal(text: &str) -> ParsedTraversal {
    let tokens = tokenize(text);
    let invalid_character = tokens.iter().find_map(|token| match token.kind {
        TokenKind::Invalid => Some(TraversalError {
            summary: "Invalid character",
            detail: "This character is not used within the language.",
            range: token.range,
        }),
        _ => None,
    });
    let (steps, parse_error) = parse_tokens(&tokens, text);
    ParsedTraversal {
        steps,
        error: invalid_character.or(parse_error),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TokenKind {
    Ident,
    Dot,
    OpenBracket,
    CloseBracket,
    Number,
    QuotedString,
    Star,
    Invalid,
    Other,
    End,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: TokenKind,
    range: TextRange,
}

/// Splits `text` into the tokens the traversal parser looks at. Whitespace,
/// newlines and comments are skipped; the list always ends with `End`.
fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    let token = |kind, start: usize, end: usize| Token {
        kind,
        range: TextRange::from_usize(start, end),
    };
    while let Some((start, c)) = chars.next() {
        let next_char = chars.peek().map(|&(_, next)| next);
        match c {
            ' ' | '\t' | '\r' | '\n' => {}
            '#' => skip_line(&mut chars),
            '/' if next_char == Some('/') => skip_line(&mut chars),
            '/' if next_char == Some('*') => {
                chars.next();
                let mut previous = ' ';
                for (_, inner) in chars.by_ref() {
                    if previous == '*' && inner == '/' {
                        break;
                    }
                    previous = inner;
                }
            }
            '.' => tokens.push(token(TokenKind::Dot, start, start + 1)),
            '[' => tokens.push(token(TokenKind::OpenBracket, start, start + 1)),
            ']' => tokens.push(token(TokenKind::CloseBracket, start, start + 1)),
            '*' => tokens.push(token(TokenKind::Star, start, start + 1)),
            '"' => {
                let mut end = text.len();
                let mut escaped = false;
                for (at, inner) in chars.by_ref() {
                    match inner {
                        _ if escaped => escaped = false,
                        '\\' => escaped = true,
                        '"' => {
                            end = at + 1;
                            break;
                        }
                        _ => {}
                    }
                }
                tokens.push(token(TokenKind::QuotedString, start, end));
            }
            _ if c.is_ascii_digit() => {
                let mut end = start + 1;
                while let Some(&(at, next)) = chars.peek() {
                    let exponent_sign = matches!(next, '+' | '-')
                        && matches!(text.get(end - 1..end), Some("e" | "E"));
                    if next.is_ascii_alphanumeric()
                        || exponent_sign
                        || next == '.' && {
                            let after = text.get(at + 1..).and_then(|rest| rest.chars().next());
                            after.is_some_and(|d| d.is_ascii_digit())
                        }
                    {
                        end = at + next.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push(token(TokenKind::Number, start, end));
            }
            _ if c.is_alphabetic() || c == '_' => {
                let mut end = start + c.len_utf8();
                while let Some(&(at, next)) = chars.peek() {
                    if next.is_alphanumeric() || next == '_' || next == '-' {
                        end = at + next.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push(token(TokenKind::Ident, start, end));
            }
            _ if c.is_ascii_punctuation() && !matches!(c, '$' | '`' | '@' | '\\' | '^') => {
                tokens.push(token(TokenKind::Other, start, start + c.len_utf8()));
            }
            _ => tokens.push(token(TokenKind::Invalid, start, start + c.len_utf8())),
        }
    }
    tokens.push(token(TokenKind::End, text.len(), text.len()));
    tokens
}

fn skip_line(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) {
    for (_, c) in chars.by_ref() {
        if c == '\n' {
            break;
        }
    }
}

/// A quoted string token's value: simple escapes decoded. A template
/// sequence is HCL's "Invalid string literal" on the sequence's opening.
fn quoted_value(token: &str, start: u32) -> Result<String, TraversalError> {
    let mut value = String::new();
    let inner = token.strip_prefix('"').unwrap_or(token);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut chars = inner.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, 'n')) => value.push('\n'),
                Some((_, 't')) => value.push('\t'),
                Some((_, 'r')) => value.push('\r'),
                Some((_, escaped)) => value.push(escaped),
                None => {}
            },
            '$' | '%' if inner.get(at + 1..at + 2) == Some("{") => {
                let doubled = at > 0 && inner.get(at - 1..at) == Some(&c.to_string());
                if doubled {
                    continue;
                }
                let open = start + 1 + tofu_syntax::text::to_u32(at);
                return Err(TraversalError {
                    summary: "Invalid string literal",
                    detail: if c == '$' {
                        "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it."
                    } else {
                        "Template sequences are not allowed in this string. To include a literal \"%\", double it (as \"%%\") to escape it."
                    },
                    range: TextRange::new(open, open + 2),
                });
            }
            c => value.push(c),
        }
    }
    Ok(value)
}

/// HCL's `parseTraversal` without splats, over `tokens`.
fn parse_tokens(tokens: &[Token], text: &str) -> (Vec<ParsedStep>, Option<TraversalError>) {
    let end_of_text = Token {
        kind: TokenKind::End,
        range: TextRange::from_usize(text.len(), text.len()),
    };
    let mut tokens = tokens.iter().copied();
    let mut next = move || tokens.next().unwrap_or(end_of_text);
    let error = |summary, detail, range| {
        Some(TraversalError {
            summary,
            detail,
            range,
        })
    };
    let mut steps = Vec::new();
    let root = next();
    if root.kind != TokenKind::Ident {
        let detail = "Must begin with a variable name.";
        return (steps, error("Variable name required", detail, root.range));
    }
    steps.push(ParsedStep {
        part: Part::Name(root.range.slice(text).to_owned()),
        range: root.range,
    });
    loop {
        let token = next();
        match token.kind {
            TokenKind::End => return (steps, None),
            TokenKind::Dot => {
                let name = next();
                if name.kind != TokenKind::Ident {
                    let detail = if name.kind == TokenKind::Star {
                        "Splat expressions (.*) may not be used here."
                    } else {
                        "Dot must be followed by attribute name."
                    };
                    return (steps, error("Attribute name required", detail, name.range));
                }
                steps.push(ParsedStep {
                    part: Part::Name(name.range.slice(text).to_owned()),
                    range: token.range.cover(name.range),
                });
            }
            TokenKind::OpenBracket => {
                let key_token = next();
                let key = match key_token.kind {
                    TokenKind::Number => IndexKey::Number(key_token.range.slice(text).to_owned()),
                    TokenKind::QuotedString => {
                        match quoted_value(key_token.range.slice(text), key_token.range.start) {
                            Ok(value) => IndexKey::String(value),
                            Err(invalid) => return (steps, Some(invalid)),
                        }
                    }
                    TokenKind::Star => {
                        let detail = "Splat expressions ([*]) may not be used here.";
                        return (
                            steps,
                            error("Attribute name required", detail, key_token.range),
                        );
                    }
                    _ => {
                        let detail = "Index brackets must contain either a literal number or a literal string.";
                        return (
                            steps,
                            error("Index value required", detail, key_token.range),
                        );
                    }
                };
                let close = next();
                steps.push(ParsedStep {
                    part: Part::Index(key),
                    range: token.range.cover(close.range),
                });
                if close.kind != TokenKind::CloseBracket {
                    let detail = "Index key must be followed by a closing bracket.";
                    return (steps, error("Unclosed index brackets", detail, close.range));
                }
            }
            _ => {
                let detail = "Expected an attribute access or an index operator.";
                return (steps, error("Invalid character", detail, token.range));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(parsed: &ParsedTraversal) -> Vec<String> {
        parsed
            .steps
            .iter()
            .map(|step| match &step.part {
                Part::Name(name) => name.clone(),
                Part::Index(IndexKey::Number(n)) => format!("[{n}]"),
                Part::Index(IndexKey::String(s)) => format!("[{s:?}]"),
                Part::Index(IndexKey::Other) => "[?]".to_owned(),
            })
            .collect()
    }

    fn summary(text: &str) -> Option<&'static str> {
        parse_traversal(text).error.map(|error| error.summary)
    }

    #[test]
    fn traversals_parse_like_hcl() {
        let parsed = parse_traversal("aws.west");
        assert_eq!(names(&parsed), ["aws", "west"]);
        assert_eq!(parsed.error, None);
        assert_eq!(parsed.steps[1].range, TextRange::new(3, 8));
        assert_eq!(parsed.range(), Some(TextRange::new(0, 8)));

        let parsed = parse_traversal(" module.m[0][\"k\\\"\"] # comment");
        assert_eq!(names(&parsed), ["module", "m", "[0]", "[\"k\\\"\"]"]);
        assert_eq!(parsed.error, None);
        assert_eq!(parsed.range(), Some(TextRange::new(1, 19)));

        assert_eq!(names(&parse_traversal("tags-x")), ["tags-x"]);
        assert_eq!(names(&parse_traversal("aws.west$")), ["aws", "west"]);
    }

    #[test]
    fn errors_use_hcl_words() {
        assert_eq!(summary(""), Some("Variable name required"));
        assert_eq!(summary("*"), Some("Variable name required"));
        assert_eq!(summary("1aws"), Some("Variable name required"));
        assert_eq!(summary("aws."), Some("Attribute name required"));
        assert_eq!(summary("a.0"), Some("Attribute name required"));
        assert_eq!(summary("aws.*"), Some("Attribute name required"));
        assert_eq!(summary("a[*]"), Some("Attribute name required"));
        assert_eq!(summary("aws[each.key]"), Some("Index value required"));
        assert_eq!(summary("aws[0"), Some("Unclosed index brackets"));
        assert_eq!(summary("aws west"), Some("Invalid character"));
        assert_eq!(summary("${aws}"), Some("Invalid character"));
        assert_eq!(summary("a[\"${x}\"]"), Some("Invalid string literal"));
        assert_eq!(summary("a[\"$${x}\"]"), None);
        let error = parse_traversal("a[\"k${x}\"]").error;
        assert_eq!(error.map(|error| error.range), Some(TextRange::new(4, 6)));
    }
}

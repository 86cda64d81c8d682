//! Reading a string's content as native syntax, the way OpenTofu reads quoted
//! provider references (`hclsyntax.ParseTraversalAbs`) and JSON strings where
//! it expects a reference (`hclsyntax.ParseExpression`), with ranges mapped
//! back into the file (`loading.md` §6, `diagnostics.md` §4.12).
//!
//! [`parse_traversal`] is a small re-implementation of HCL's traversal parser
//! (a name, then `.name`, `[number]` and `["string"]` steps) with its error
//! wording. [`parse_expression`] reuses the native parser of `tofu_syntax` on a
//! one-argument body, so its errors use that parser's words, not HCL's.
//!
//! Ranges found inside a string map to the file one to one only when the
//! string's content is written without escapes; otherwise every such range is
//! the whole string ([`StringContent::map`]), as the HCL positions would be
//! off anyway.

use tofu_syntax::{Expr, ExprKind, SyntaxError, TextRange};

/// The content of a quoted string (native or JSON) and where it lies.
#[derive(Clone, Debug)]
pub(super) struct StringContent {
    /// The content as OpenTofu reads it (escapes decoded where the model
    /// decoded them).
    pub value: String,
    /// The whole string, quotes included.
    pub whole: TextRange,
    /// Where the content starts in the file, when content offsets map one to
    /// one onto file offsets.
    pub exact_start: Option<u32>,
}

impl StringContent {
    /// The content of a string expression as written in `text`: a native
    /// quoted string or heredoc without interpolation, or a JSON string (also
    /// one holding `${`, which JSON leaves to be read as native syntax). `None`
    /// for anything else.
    pub fn of(text: &str, expr: &Expr) -> Option<StringContent> {
        let written = expr.range.slice(text);
        let raw = written
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'));
        let value = match &expr.kind {
            ExprKind::String(value) => value.clone(),
            // A JSON string with `${`: the model keeps no value, the text is it.
            ExprKind::Template(parts) if parts.is_empty() => raw?.to_owned(),
            _ => return None,
        };
        let exact_start = raw
            .filter(|raw| *raw == value)
            .map(|_| expr.range.start + 1);
        Some(StringContent {
            value,
            whole: expr.range,
            exact_start,
        })
    }

    /// True when ranges inside the content map one to one into the file.
    pub fn is_exact(&self) -> bool {
        self.exact_start.is_some()
    }

    /// Maps a range relative to the content into the file.
    pub fn map(&self, relative: TextRange) -> TextRange {
        match self.exact_start {
            Some(start) => {
                let mapped = relative.shifted(start);
                let end = self.whole.end.saturating_sub(1).max(start);
                TextRange::new(mapped.start.min(end), mapped.end.min(end))
            }
            None => self.whole,
        }
    }
}

/// One step of a parsed traversal; ranges are relative to the parsed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum TraversalPart {
    /// The root name or an attribute step (`.name`, the range includes the dot).
    Name(String),
    /// An index step with a constant key (`[0]`, `["x"]`).
    Index,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ParsedStep {
    pub part: TraversalPart,
    pub range: TextRange,
}

/// An HCL error: summary, detail and range (relative to the parsed text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ContentError {
    pub summary: &'static str,
    pub detail: &'static str,
    pub range: TextRange,
}

/// What `hclsyntax.ParseTraversalAbs` makes of `text`: the steps it read (also
/// when it stopped at an error) and the first error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ParsedTraversal {
    pub steps: Vec<ParsedStep>,
    pub error: Option<ContentError>,
}

/// Parses `text` as an absolute traversal, as HCL does for a quoted reference
/// (newlines and comments are skipped, as HCL reads bare traversals).
pub(super) fn parse_traversal(text: &str) -> ParsedTraversal {
    let tokens = tokenize(text);
    let invalid_character = tokens.iter().find_map(|token| match token.kind {
        TokenKind::Invalid => Some(ContentError {
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

/// The result of reading a string's content as one native expression:
/// the expression, with ranges in `text`, and `offset`, where the content
/// starts in `text`.
#[derive(Debug)]
pub(super) struct ParsedExpression {
    pub text: String,
    pub offset: u32,
    pub expr: Expr,
}

/// Parses `content` as one native-syntax expression, as
/// `hclsyntax.ParseExpression` does for a JSON string OpenTofu reads as a
/// reference. Errors come with ranges relative to `content`.
pub(super) fn parse_expression(content: &str) -> Result<ParsedExpression, SyntaxError> {
    const PREFIX: &str = "x = ";
    let offset = tofu_syntax::text::to_u32(PREFIX.len());
    let text = format!("{PREFIX}{content}\n");
    let content_range = |range: TextRange| {
        let start = range.start.saturating_sub(offset);
        let end = range.end.saturating_sub(offset);
        let len = tofu_syntax::text::to_u32(content.len());
        TextRange::new(start.min(len), end.min(len))
    };
    let mut parsed = tofu_syntax::parse("reference.tf", &text);
    if let Some(mut error) = parsed.errors.drain(..).next() {
        error.range = content_range(error.range);
        return Err(error);
    }
    let mut attributes = std::mem::take(&mut parsed.body.attributes).into_iter();
    let Some(first) = attributes.next() else {
        return Err(syntax_error(
            "Invalid expression",
            "Expected the start of an expression.",
            TextRange::empty(0),
        ));
    };
    let extra_start = attributes
        .next()
        .map(|attr| attr.range.start)
        .or_else(|| parsed.body.blocks.first().map(|block| block.range.start));
    if let Some(extra_start) = extra_start {
        let extra = content_range(TextRange::new(
            extra_start,
            tofu_syntax::text::to_u32(text.len()),
        ));
        return Err(syntax_error(
            "Extra characters after expression",
            "An expression was successfully parsed, but extra characters were found after it.",
            extra,
        ));
    }
    Ok(ParsedExpression {
        offset,
        expr: first.expr,
        text,
    })
}

fn syntax_error(summary: &str, detail: &str, range: TextRange) -> SyntaxError {
    SyntaxError {
        summary: summary.to_owned(),
        detail: detail.to_owned(),
        range,
        duplicate_argument: false,
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

/// HCL's `parseTraversal` without splats, over `tokens`.
fn parse_tokens(tokens: &[Token], text: &str) -> (Vec<ParsedStep>, Option<ContentError>) {
    let end_of_text = Token {
        kind: TokenKind::End,
        range: TextRange::from_usize(text.len(), text.len()),
    };
    let mut tokens = tokens.iter().copied();
    let mut next = move || tokens.next().unwrap_or(end_of_text);
    let error = |summary, detail, range| {
        Some(ContentError {
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
        part: TraversalPart::Name(root.range.slice(text).to_owned()),
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
                    part: TraversalPart::Name(name.range.slice(text).to_owned()),
                    range: token.range.cover(name.range),
                });
            }
            TokenKind::OpenBracket => {
                let key = next();
                if !matches!(key.kind, TokenKind::Number | TokenKind::QuotedString) {
                    let (summary, detail) = if key.kind == TokenKind::Star {
                        (
                            "Attribute name required",
                            "Splat expressions ([*]) may not be used here.",
                        )
                    } else {
                        (
                            "Index value required",
                            "Index brackets must contain either a literal number or a literal string.",
                        )
                    };
                    return (steps, error(summary, detail, key.range));
                }
                let close = next();
                steps.push(ParsedStep {
                    part: TraversalPart::Index,
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
                TraversalPart::Name(name) => name.clone(),
                TraversalPart::Index => "[]".to_owned(),
            })
            .collect()
    }

    #[test]
    fn traversals_parse_like_hcl() {
        let parsed = parse_traversal("aws.west");
        assert_eq!(names(&parsed), ["aws", "west"]);
        assert_eq!(parsed.error, None);
        assert_eq!(parsed.steps[1].range, TextRange::new(3, 8));

        let parsed = parse_traversal(" aws.west[\"a\"] # comment");
        assert_eq!(names(&parsed), ["aws", "west", "[]"]);
        assert_eq!(parsed.error, None);

        let parsed = parse_traversal("aws[0]");
        assert_eq!(names(&parsed), ["aws", "[]"]);
        assert_eq!(parsed.error, None);
    }

    #[test]
    fn traversal_errors_use_hcl_words() {
        let summary = |text: &str| parse_traversal(text).error.map(|error| error.summary);
        assert_eq!(summary(""), Some("Variable name required"));
        assert_eq!(summary("1aws"), Some("Variable name required"));
        assert_eq!(summary("aws."), Some("Attribute name required"));
        assert_eq!(summary("aws.*"), Some("Attribute name required"));
        assert_eq!(summary("aws[each.key]"), Some("Index value required"));
        assert_eq!(summary("aws[0"), Some("Unclosed index brackets"));
        assert_eq!(summary("aws west"), Some("Invalid character"));
        assert_eq!(summary("${aws}"), Some("Invalid character"));
        assert_eq!(names(&parse_traversal("aws.west$")), ["aws", "west"]);
    }

    #[test]
    fn expressions_parse_with_offsets_into_the_content() {
        let parsed = parse_expression("aws.west[each.key]").unwrap();
        let ExprKind::Traversal(traversal) = &parsed.expr.kind else {
            panic!("{:?}", parsed.expr)
        };
        assert_eq!(traversal.root, "aws");
        assert_eq!(traversal.root_range, TextRange::new(4, 7));
        assert_eq!(parsed.offset, 4);

        assert!(parse_expression("aws west").is_err());
        assert!(parse_expression("aws\nwest = 1").is_err());
        assert!(parse_expression("${aws}").is_err());
        assert!(parse_expression("").is_err());
    }
}

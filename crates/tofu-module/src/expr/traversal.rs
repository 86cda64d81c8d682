//! HCL's traversal parser (`hclsyntax.ParseTraversalAbs`), for the strings
//! OpenTofu reads as references: quoted references in `depends_on`,
//! `ignore_changes`, `replace_triggered_by`, quoted provider references, JSON
//! strings where a reference is expected. The text is cut into tokens by
//! tofu-syntax's scanner, as HCL's `LexExpression` cuts it; what its lexer
//! rejects is reported first (the first such token, in HCL's words), then
//! the first parse error. Newlines and comments are skipped (bare
//! traversals are read as if in parentheses). Ranges are relative to the
//! parsed text.

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
        TokenKind::Invalid => Some(invalid_token_error(token.range.slice(text), token.range)),
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
    /// A quoted string, from its opening quote to its closing one (or to
    /// where it stops, unterminated), with the range of its first template
    /// sequence (`${`, `%{`), if any.
    QuotedString {
        sequence: Option<TextRange>,
    },
    Star,
    /// A character HCL's scanner does not know here, or an operator HCL
    /// has no use for (a single `&`, `|`, `~`, `^`).
    Invalid,
    Other,
    End,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: TokenKind,
    range: TextRange,
}

/// Cuts `text` into the tokens the traversal parser looks at, with
/// tofu-syntax's scanner (forgiving: an unterminated string ends where the
/// scanner ends it). Line breaks and comments are skipped (a bare
/// traversal ignores them, as in parentheses); a quoted string is one
/// token; the list always ends with `End`.
fn tokenize(text: &str) -> Vec<Token> {
    use tofu_syntax::scanner::{ScanMode, ScanProblem, Scanner, TokenKind as Scanned};
    let mut tokens = Vec::new();
    let mut scanner = Scanner::new(text, ScanMode::Forgiving);
    let mut n_problems = 0;
    // The quoted string being read: where it opens, its first template
    // sequence, how deep in sequences the scan is, where it ends so far.
    let mut string: Option<(u32, Option<TextRange>, usize, u32)> = None;
    while let Some(scanned) = scanner.next() {
        let problems = scanner.problems().get(n_problems..).unwrap_or_default();
        n_problems = scanner.problems().len();
        if let Some((open, sequence, _, _)) = string {
            let stopped = problems.iter().find_map(|problem| match problem {
                ScanProblem::UnterminatedString { string } if string.start == open => {
                    Some(string.end)
                }
                _ => None,
            });
            if let Some(end) = stopped {
                tokens.push(Token {
                    kind: TokenKind::QuotedString { sequence },
                    range: TextRange::new(open, end),
                });
                string = None;
            }
        }
        if let Some((open, sequence, depth, end)) = &mut string {
            *end = scanned.range.end;
            match scanned.kind {
                Scanned::TemplateInterp | Scanned::TemplateControl => {
                    sequence.get_or_insert(scanned.range);
                    *depth += 1;
                }
                Scanned::TemplateSeqEnd => *depth = depth.saturating_sub(1),
                Scanned::CQuote if *depth == 0 => {
                    tokens.push(Token {
                        kind: TokenKind::QuotedString {
                            sequence: *sequence,
                        },
                        range: TextRange::new(*open, scanned.range.end),
                    });
                    string = None;
                }
                // HCL's scanner reports these wherever they stand.
                Scanned::Invalid if is_invalid_character(scanned.text(text)) => {
                    tokens.push(Token {
                        kind: TokenKind::Invalid,
                        range: scanned.range,
                    })
                }
                _ => {}
            }
            continue;
        }
        let kind = match scanned.kind {
            Scanned::Comment | Scanned::Newline => continue,
            Scanned::OQuote => {
                string = Some((scanned.range.start, None, 0, scanned.range.end));
                continue;
            }
            Scanned::Ident => TokenKind::Ident,
            Scanned::Dot => TokenKind::Dot,
            Scanned::OBrack => TokenKind::OpenBracket,
            Scanned::CBrack => TokenKind::CloseBracket,
            Scanned::NumberLit => TokenKind::Number,
            Scanned::Star => TokenKind::Star,
            Scanned::Invalid if is_invalid_character(scanned.text(text)) => TokenKind::Invalid,
            _ => TokenKind::Other,
        };
        tokens.push(Token {
            kind,
            range: scanned.range,
        });
    }
    if let Some((open, sequence, _, end)) = string {
        tokens.push(Token {
            kind: TokenKind::QuotedString { sequence },
            range: TextRange::new(open, end),
        });
    }
    tokens.push(Token {
        kind: TokenKind::End,
        range: TextRange::from_usize(text.len(), text.len()),
    });
    tokens
}

/// An invalid token of the scanner that HCL's lexer reports: a character,
/// not a `<<` that opens no heredoc (two "less than" tokens to HCL).
fn is_invalid_character(token: &str) -> bool {
    token != "<<"
}

/// What HCL's lexer says of an invalid token (`checkInvalidTokens`).
fn invalid_token_error(token: &str, range: TextRange) -> TraversalError {
    const BITWISE: &str = "Unsupported operator";
    const INVALID: &str = "Invalid character";
    let (summary, detail) = match token {
        "&" => (
            BITWISE,
            "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?",
        ),
        "|" => (
            BITWISE,
            "Bitwise operators are not supported. Did you mean boolean OR (\"||\")?",
        ),
        "~" => (
            BITWISE,
            "Bitwise operators are not supported. Did you mean boolean NOT (\"!\")?",
        ),
        "^" => (BITWISE, "Bitwise operators are not supported."),
        "`" => (
            INVALID,
            "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".",
        ),
        "'" => (
            INVALID,
            "Single quotes are not valid. Use double quotes (\") to enclose strings.",
        ),
        ";" => (
            INVALID,
            "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
        ),
        "\u{201c}" | "\u{201d}" => (
            INVALID,
            "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".",
        ),
        _ => (INVALID, "This character is not used within the language."),
    };
    TraversalError {
        summary,
        detail,
        range,
    }
}

/// A quoted string token's value: simple escapes decoded, and `$${` and
/// `%%{` as the `${` and `%{` they stand for.
fn quoted_value(token: &str) -> String {
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
            '$' | '%' if inner.get(at + 1..at + 3) == Some(&format!("{c}{{")) => {}
            c => value.push(c),
        }
    }
    value
}

/// HCL's "Invalid string literal" on a template sequence (`${` or `%{`) in
/// a string that must be literal.
fn template_sequence_error(sequence: TextRange, text: &str) -> TraversalError {
    TraversalError {
        summary: "Invalid string literal",
        detail: if sequence.slice(text).starts_with('$') {
            "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it."
        } else {
            "Template sequences are not allowed in this string. To include a literal \"%\", double it (as \"%%\") to escape it."
        },
        range: sequence,
    }
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
                    TokenKind::QuotedString {
                        sequence: Some(sequence),
                    } => return (steps, Some(template_sequence_error(sequence, text))),
                    TokenKind::QuotedString { sequence: None } => {
                        IndexKey::String(quoted_value(key_token.range.slice(text)))
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

    /// The first error `tofu validate` (OpenTofu 1.12.6) reports on
    /// `depends_on = ["TEXT"]`, with its range inside the string.
    #[test]
    fn tokens_are_cut_as_hcl_cuts_them() {
        let first_error = |text: &str| {
            parse_traversal(text)
                .error
                .map(|error| (error.summary, error.detail, error.range))
        };
        let cases: &[(&str, &str, &str, (u32, u32))] = &[
            (
                "terraform_data.b&",
                "Unsupported operator",
                "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?",
                (16, 17),
            ),
            (
                "terraform_data.b~",
                "Unsupported operator",
                "Bitwise operators are not supported. Did you mean boolean NOT (\"!\")?",
                (16, 17),
            ),
            (
                "terraform_data.b^",
                "Unsupported operator",
                "Bitwise operators are not supported.",
                (16, 17),
            ),
            (
                "terraform_data.b;",
                "Invalid character",
                "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
                (16, 17),
            ),
            (
                "terraform_data.b'",
                "Invalid character",
                "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                (16, 17),
            ),
            (
                "terraform_data.b\u{201c}",
                "Invalid character",
                "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".",
                (16, 19),
            ),
            (
                "terraform_data.b@",
                "Invalid character",
                "This character is not used within the language.",
                (16, 17),
            ),
            (
                "terraform_data.b**",
                "Invalid character",
                "Expected an attribute access or an index operator.",
                (16, 17),
            ),
            // A number ends where its digits end: `1x` is a number and a
            // name.
            (
                "1terraform_data",
                "Variable name required",
                "Must begin with a variable name.",
                (0, 1),
            ),
            (
                "terraform_data.b[1x]",
                "Unclosed index brackets",
                "Index key must be followed by a closing bracket.",
                (18, 19),
            ),
            (
                "terraform_data.b[1e]",
                "Unclosed index brackets",
                "Index key must be followed by a closing bracket.",
                (18, 19),
            ),
            (
                "terraform_data.b[0x1]",
                "Unclosed index brackets",
                "Index key must be followed by a closing bracket.",
                (18, 20),
            ),
            (
                "terraform_data.b.2x",
                "Attribute name required",
                "Dot must be followed by attribute name.",
                (17, 18),
            ),
            (
                "terraform_data.b[\"${x}\"]",
                "Invalid string literal",
                "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it.",
                (18, 20),
            ),
        ];
        for (text, summary, detail, (start, end)) in cases {
            assert_eq!(
                first_error(text),
                Some((*summary, *detail, TextRange::new(*start, *end))),
                "{text}"
            );
        }
        for text in [
            "terraform_data.b[1.5e3]",
            "terraform_data.b # c",
            "terraform_data.b /* c */ .x",
            "terraform_data.b\t.x",
        ] {
            assert_eq!(first_error(text), None, "{text}");
        }
    }
}

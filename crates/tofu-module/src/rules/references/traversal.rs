//! Static references as HCL reads them where OpenTofu wants a reference, not a
//! value: `hcl.AbsTraversalForExpr` on a native expression, HCL's traversal
//! parser (`hclsyntax.ParseTraversalAbs`) on the content of a string, and the
//! start of an expression as HCL reports it (`StartRange`, the "expr-start"
//! of `diagnostics.md` §1).
//!
//! Only the shapes matter here: what a reference names is judged by the
//! callers. Positions inside a string ignore escape sequences, as HCL's do.

use tofu_syntax::{Expr, ExprKind, TextRange, TraversalStep};

use super::scan::{IndexKey, Reference, Step};

/// An error of HCL's traversal parser, with its range relative to the parsed
/// text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TraversalError {
    pub summary: &'static str,
    pub detail: &'static str,
    pub range: TextRange,
}

/// What `hclsyntax.ParseTraversalAbs` makes of `text`: the traversal it read
/// (possibly cut short, `None` when not even a root name was found) and the
/// first error, if any.
pub(super) fn parse_traversal(text: &str) -> (Option<Reference>, Option<TraversalError>) {
    let mut lexer = Lexer { text, at: 0 };
    let first = lexer.next();
    let Token::Ident(root) = first.token else {
        let error = TraversalError {
            summary: "Variable name required",
            detail: "Must begin with a variable name.",
            range: first.range,
        };
        return (None, Some(error));
    };
    let mut reference = Reference {
        root: root.to_owned(),
        steps: Vec::new(),
    };
    let error = loop {
        let next = lexer.next();
        match next.token {
            Token::End => break None,
            Token::Dot => {
                let name = lexer.next();
                match name.token {
                    Token::Ident(name) => reference.steps.push(Step::Attr(name.to_owned())),
                    Token::Star => {
                        break Some(TraversalError {
                            summary: "Attribute name required",
                            detail: "Splat expressions (.*) may not be used here.",
                            range: name.range,
                        })
                    }
                    _ => {
                        break Some(TraversalError {
                            summary: "Attribute name required",
                            detail: "Dot must be followed by attribute name.",
                            range: name.range,
                        })
                    }
                }
            }
            Token::OpenBracket => {
                let key = lexer.next();
                let key = match key.token {
                    Token::Number(number) => IndexKey::Number(number.to_owned()),
                    Token::String(Some(string)) => IndexKey::String(string),
                    Token::Star => {
                        break Some(TraversalError {
                            summary: "Attribute name required",
                            detail: "Splat expressions ([*]) may not be used here.",
                            range: key.range,
                        })
                    }
                    _ => {
                        break Some(TraversalError {
                            summary: "Index value required",
                            detail: "Index brackets must contain either a literal number or a literal string.",
                            range: key.range,
                        })
                    }
                };
                reference.steps.push(Step::Index(key));
                let close = lexer.next();
                if close.token != Token::CloseBracket {
                    break Some(TraversalError {
                        summary: "Unclosed index brackets",
                        detail: "Index key must be followed by a closing bracket.",
                        range: close.range,
                    });
                }
            }
            _ => {
                break Some(TraversalError {
                    summary: "Invalid character",
                    detail: "Expected an attribute access or an index operator.",
                    range: next.range,
                })
            }
        }
    };
    (Some(reference), error)
}

/// `hcl.AbsTraversalForExpr` on a native expression: a reference made only of
/// attributes and constant indexes, not in parentheses; the literals `true`,
/// `false` and `null` count as the names they are spelled with.
pub(super) fn static_reference(text: &str, expr: &Expr) -> Option<Reference> {
    if expr.range.slice(text).starts_with('(') {
        return None;
    }
    match &expr.kind {
        ExprKind::Traversal(traversal) => {
            let steps = traversal
                .steps
                .iter()
                .map(|step| match step {
                    TraversalStep::Attr { name, .. } => Some(Step::Attr(name.clone())),
                    TraversalStep::Index { key, .. } => {
                        if key.range.slice(text).starts_with('(') {
                            return None;
                        }
                        match &key.kind {
                            ExprKind::Number(number) => {
                                Some(Step::Index(IndexKey::Number(number.clone())))
                            }
                            ExprKind::String(string) => {
                                Some(Step::Index(IndexKey::String(string.clone())))
                            }
                            ExprKind::Bool(_) | ExprKind::Null => {
                                Some(Step::Index(IndexKey::Other))
                            }
                            _ => None,
                        }
                    }
                    TraversalStep::Splat { .. } => None,
                })
                .collect::<Option<Vec<Step>>>()?;
            Some(Reference {
                root: traversal.root.clone(),
                steps,
            })
        }
        ExprKind::Bool(value) => Some(keyword_reference(if *value { "true" } else { "false" })),
        ExprKind::Null => Some(keyword_reference("null")),
        _ => None,
    }
}

fn keyword_reference(name: &str) -> Reference {
    Reference {
        root: name.to_owned(),
        steps: Vec::new(),
    }
}

/// The "expr-start" range of `diagnostics.md` §1: in JSON the whole value; in
/// native syntax what HCL's `StartRange` gives: a reference or literal whole,
/// a quoted string without its quotes, a call's name through its `(`, the
/// opening bracket of a constructor or `for`, an operator's left operand.
pub(super) fn expr_start(text: &str, expr: &Expr, json: bool) -> TextRange {
    if json {
        expr.range
    } else {
        start_range(text, expr.range, &expr.kind)
    }
}

/// `expr_start` in native syntax, for an expression of `kind` at `range`
/// (which may include the parentheses the model keeps no node for).
fn start_range(text: &str, range: TextRange, kind: &ExprKind) -> TextRange {
    let source = range.slice(text);
    let first_char = TextRange::new(range.start, range.start.saturating_add(1));
    // Parentheses have no start of their own: HCL reports their content's.
    let n_leading = source.len()
        - source
            .trim_start_matches(|c: char| c == '(' || c.is_whitespace())
            .len();
    let content_start = range
        .start
        .saturating_add(tofu_syntax::text::to_u32(n_leading));
    if n_leading > 0 && !matches!(kind, ExprKind::Other(_)) {
        let n_trailing = source.len()
            - source
                .trim_end_matches(|c: char| c == ')' || c.is_whitespace())
                .len();
        let content_end = range
            .end
            .saturating_sub(tofu_syntax::text::to_u32(n_trailing));
        return start_range(text, TextRange::new(content_start, content_end), kind);
    }
    match kind {
        ExprKind::Array(_) | ExprKind::Object(_) => first_char,
        ExprKind::Call(call) => {
            let after_name = call.name_range.end as usize;
            let open = text
                .get(after_name..range.end as usize)
                .and_then(|rest| rest.find('('))
                .map_or(call.name_range.end, |at| {
                    tofu_syntax::text::to_u32(after_name + at + 1)
                });
            TextRange::new(call.name_range.start, open)
        }
        ExprKind::String(_) if source.starts_with('"') && source.len() >= 2 => {
            TextRange::new(range.start.saturating_add(1), range.end.saturating_sub(1))
        }
        ExprKind::Template(parts) if source.starts_with('"') => {
            let inner_start = range.start.saturating_add(1);
            let lone_interpolation =
                parts.len() == 1 && source.starts_with("\"${") && source.ends_with("}\"");
            let literal_end = source
                .find("${")
                .into_iter()
                .chain(source.find("%{"))
                .min()
                .map_or(range.end, |at| {
                    range.start.saturating_add(tofu_syntax::text::to_u32(at))
                });
            match parts.first() {
                // A lone interpolation is HCL's TemplateWrapExpr: the whole string.
                Some(_) if lone_interpolation => range,
                // Literal text first: HCL's first part is that literal.
                _ if literal_end > inner_start => TextRange::new(inner_start, literal_end),
                Some(first) => start_range(text, first.range, &first.kind),
                None => range,
            }
        }
        ExprKind::Other(children) => {
            let content = text
                .get(content_start as usize..range.end as usize)
                .unwrap_or_default();
            if content.starts_with(['[', '{', '!', '-']) {
                return TextRange::new(content_start, content_start.saturating_add(1));
            }
            match children.first() {
                Some(first) if (range.start..=content_start).contains(&first.range.start) => {
                    start_range(text, first.range, &first.kind)
                }
                _ => range,
            }
        }
        _ => range,
    }
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Ident(&'a str),
    Number(&'a str),
    /// A quoted string; `None` when it holds a template sequence.
    String(Option<String>),
    Dot,
    Star,
    OpenBracket,
    CloseBracket,
    Other,
    End,
}

struct Lexed<'a> {
    token: Token<'a>,
    range: TextRange,
}

/// Just enough of HCL's expression lexer for traversals.
struct Lexer<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Lexer<'a> {
    fn next(&mut self) -> Lexed<'a> {
        let rest = self.text.get(self.at..).unwrap_or_default();
        let trimmed = rest.trim_start_matches([' ', '\t', '\r', '\n']);
        let start = self.at + (rest.len() - trimmed.len());
        let mut chars = trimmed.chars();
        let Some(first) = chars.next() else {
            self.at = start;
            return Lexed {
                token: Token::End,
                range: TextRange::from_usize(start, start),
            };
        };
        let (token, len) = match first {
            '.' => (Token::Dot, 1),
            '*' => (Token::Star, 1),
            '[' => (Token::OpenBracket, 1),
            ']' => (Token::CloseBracket, 1),
            '"' => quoted_string(trimmed),
            c if c.is_alphabetic() || c == '_' => {
                let len = trimmed
                    .char_indices()
                    .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '-'))
                    .map_or(trimmed.len(), |(i, _)| i);
                (Token::Ident(trimmed.get(..len).unwrap_or_default()), len)
            }
            c if c.is_ascii_digit() => {
                let len = number_len(trimmed);
                (Token::Number(trimmed.get(..len).unwrap_or_default()), len)
            }
            c => (Token::Other, c.len_utf8()),
        };
        self.at = start + len;
        Lexed {
            token,
            range: TextRange::from_usize(start, start + len),
        }
    }
}

/// The length of the number literal at the start of `text` (digits, an
/// optional fraction and exponent).
fn number_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let digits_from = |mut at: usize| {
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        at
    };
    let mut end = digits_from(0);
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = digits_from(end + 1);
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut exponent = end + 1;
        if matches!(bytes.get(exponent), Some(b'+' | b'-')) {
            exponent += 1;
        }
        if bytes.get(exponent).is_some_and(u8::is_ascii_digit) {
            end = digits_from(exponent);
        }
    }
    end
}

/// A quoted string at the start of `text`: its value (simple escapes only;
/// `None` for a template sequence) and its length, quotes included.
fn quoted_string(text: &str) -> (Token<'static>, usize) {
    let mut value = String::new();
    let mut templated = false;
    let mut chars = text.char_indices().skip(1);
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => {
                let token = Token::String((!templated).then_some(value));
                return (token, at + 1);
            }
            '\\' => match chars.next() {
                Some((_, 'n')) => value.push('\n'),
                Some((_, 't')) => value.push('\t'),
                Some((_, 'r')) => value.push('\r'),
                Some((_, escaped)) => value.push(escaped),
                None => break,
            },
            '$' | '%' if text.get(at + 1..at + 2) == Some("{") => {
                templated = true;
                value.push(c);
            }
            '\n' => break,
            c => value.push(c),
        }
    }
    (Token::Other, text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (Option<usize>, Option<&'static str>) {
        let (reference, error) = parse_traversal(text);
        (reference.map(|r| r.steps.len()), error.map(|e| e.summary))
    }

    #[test]
    fn traversal_strings() {
        assert_eq!(parsed("aws_instance.web"), (Some(1), None));
        assert_eq!(parsed(" module.m[0][\"k\"] "), (Some(3), None));
        assert_eq!(parsed("tags-x"), (Some(0), None));
        assert_eq!(parsed(""), (None, Some("Variable name required")));
        assert_eq!(parsed("*"), (None, Some("Variable name required")));
        assert_eq!(parsed("a.0"), (Some(0), Some("Attribute name required")));
        assert_eq!(parsed("a[*]"), (Some(0), Some("Attribute name required")));
        assert_eq!(parsed("a[b]"), (Some(0), Some("Index value required")));
        assert_eq!(parsed("a[0"), (Some(1), Some("Unclosed index brackets")));
        assert_eq!(parsed("a b"), (Some(0), Some("Invalid character")));
    }

    #[test]
    fn static_references_in_native_syntax() {
        let text = "a = [x.y[0], (x.y), x[var.k], x[*].y, true, f(x), x[\"k\"]]\n";
        let file = tofu_syntax::parse("main.tf", text);
        let items = file.body.attributes[0].expr.as_array().unwrap_or_default();
        let kinds: Vec<bool> = items
            .iter()
            .map(|item| static_reference(text, item).is_some())
            .collect();
        assert_eq!(kinds, [true, false, false, false, true, false, true]);
    }

    #[test]
    fn expr_start_ranges() {
        let text =
            "a = \"x\"\nb = f (1)\nc = x + y\nd = \"ab${c}\"\ne = \"${c}\"\ng = [1]\nh = !x\ni = (\"all\")\nj = ((a) + b)\nk = \"${c}d\"\n";
        let file = tofu_syntax::parse("main.tf", text);
        let starts: Vec<&str> = file
            .body
            .attributes
            .iter()
            .map(|attr| expr_start(text, &attr.expr, false).slice(text))
            .collect();
        assert_eq!(
            starts,
            ["x", "f (", "x", "ab", "\"${c}\"", "[", "!", "all", "a", "c"]
        );
    }
}

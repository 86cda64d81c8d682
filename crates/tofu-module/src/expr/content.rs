//! Reading a string's content as native syntax, the way OpenTofu reads quoted
//! provider references (`hclsyntax.ParseTraversalAbs`) and JSON strings where
//! it expects a reference (`hclsyntax.ParseExpression`), with ranges mapped
//! back into the file (`loading.md` §6, `diagnostics.md` §4.12).
//!
//! Traversals are read by [`crate::expr::traversal`]. [`parse_expression`] reuses the native parser of `tofu_syntax` on a
//! one-argument body, so its errors use that parser's words, not HCL's.
//!
//! Ranges found inside a string map to the file one to one only when the
//! string's content is written without escapes; otherwise every such range is
//! the whole string ([`StringContent::map`]), as the HCL positions would be
//! off anyway.

use tofu_syntax::{Expr, ExprKind, SyntaxError, Template, TextRange};

/// The content of a quoted string (native or JSON) and where it lies.
#[derive(Clone, Debug)]
pub struct StringContent {
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
            ExprKind::Template(Template {
                expressions: parts, ..
            }) if parts.is_empty() => raw?.to_owned(),
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

/// The result of reading a string's content as one native expression:
/// the expression, with ranges in `text`, and `offset`, where the content
/// starts in `text`.
#[derive(Debug)]
pub struct ParsedExpression {
    pub text: String,
    pub offset: u32,
    pub expr: Expr,
}

/// Parses `content` as one native-syntax expression, as
/// `hclsyntax.ParseExpression` does for a JSON string OpenTofu reads as a
/// reference. Errors come with ranges relative to `content`.
pub fn parse_expression(content: &str) -> Result<ParsedExpression, SyntaxError> {
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

/// The value of a JSON string literal, quotes included (JSON's escapes
/// decoded, a surrogate pair joined; single quotes, which the JSON parser
/// refuses, are read too); `None` when it is not one.
pub fn json_string_value(literal: &str) -> Option<String> {
    let quote = literal.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = literal.strip_prefix(quote)?.strip_suffix(quote)?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escaped = match chars.next()? {
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let high = hex4(&mut chars)?;
                if (0xD800..0xDC00).contains(&high) {
                    if chars.next()? != '\\' || chars.next()? != 'u' {
                        return None;
                    }
                    let low = hex4(&mut chars)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?
                } else {
                    char::from_u32(high)?
                }
            }
            other => other,
        };
        out.push(escaped);
    }
    Some(out)
}

fn hex4(chars: &mut std::str::Chars<'_>) -> Option<u32> {
    let mut value = 0;
    for _ in 0..4 {
        value = value * 16 + chars.next()?.to_digit(16)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

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

//! Formatting byte for byte as `tofu fmt` (OpenTofu 1.12) does it.
//!
//! [`format`] takes the text of one native-syntax file (`.tf`, `.tofu`,
//! `.tfvars`, `.tftest.hcl`, `.tofutest.hcl`) and returns it formatted:
//! the file is cut into tokens (`tokens`: tofu-syntax's scanner, strict),
//! `tofu fmt`'s rewrites are applied to them (`rewrite`: labels quoted,
//! interpolation-only values unwrapped, legacy type constraints), and the
//! blanks are laid out again (`layout`: indentation, spacing, alignment). [`format_edits`] gives the same result
//! as minimal edits (`edits`), and [`format_range_edits`] only the edits
//! inside the top-level blocks and attributes that touch a byte range.
//!
//! A file with syntax errors (as [`tofu_syntax::parse`] finds them) is not
//! formatted: it comes back as [`NotFormatted`] with the errors, as
//! `tofu fmt` refuses it. JSON files are never formatted; callers skip them
//! by name ([`is_formatted_file_name`]). No IO, no panics, byte offsets only.

mod edits;
mod layout;
mod quote;
mod rewrite;
mod structure;
#[cfg(test)]
mod tests;
mod tokens;

pub use edits::Edit;
use tofu_syntax::{SyntaxError, TextRange};

/// Why a text was not formatted: its syntax errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFormatted {
    /// The parser's errors (at least one), ranges into the text.
    pub errors: Vec<SyntaxError>,
}

impl std::fmt::Display for NotFormatted {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.errors.first() {
            Some(error) => write!(formatter, "{}", error.summary),
            None => write!(formatter, "the file has syntax errors"),
        }
    }
}

impl std::error::Error for NotFormatted {}

/// Whether `tofu fmt` formats a file with this name: `.tf`, `.tofu`,
/// `.tfvars`, `.tftest.hcl` and `.tofutest.hcl` (JSON variants never).
pub fn is_formatted_file_name(name: &str) -> bool {
    [".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl"]
        .iter()
        .any(|extension| name.ends_with(extension))
}

/// `text` formatted as `tofu fmt` formats it (a leading BOM is dropped, as
/// `tofu fmt` drops it), or its syntax errors.
pub fn format(text: &str) -> Result<String, NotFormatted> {
    Ok(Formatted::new(text)?.laid.text)
}

/// The minimal edits that format `text`, sorted and not overlapping; none
/// when it is formatted already.
pub fn format_edits(text: &str) -> Result<Vec<Edit>, NotFormatted> {
    Ok(Formatted::new(text)?.edits(text))
}

/// The edits of [`format_edits`] that fall inside the top-level blocks and
/// attributes that `range` touches. Each top-level item owns its whole lines
/// and the comments and blank lines before it (the last one also what
/// follows it), so a range over the whole file formats the whole file.
pub fn format_range_edits(text: &str, range: TextRange) -> Result<Vec<Edit>, NotFormatted> {
    let formatted = Formatted::new(text)?;
    let mut spans = Vec::new();
    let mut previous_end = 0;
    for item in &formatted.items {
        let Some(last) = item
            .tokens
            .end
            .checked_sub(1)
            .and_then(|last| formatted.tokens.get(last))
        else {
            continue;
        };
        let (_, line_end) = line_span(
            text,
            formatted.base + last.end(),
            formatted.base + last.end(),
        );
        spans.push((previous_end, line_end.max(previous_end)));
        previous_end = line_end;
    }
    match spans.last_mut() {
        Some(last) => last.1 = text.len(),
        None => spans.push((0, text.len())),
    }
    let (range_start, range_end) = (range.start as usize, range.end as usize);
    spans.retain(|(start, end)| *start <= range_end && range_start <= *end);
    Ok(formatted
        .edits(text)
        .into_iter()
        .filter(|edit| {
            let (start, end) = (edit.range.start as usize, edit.range.end as usize);
            spans
                .iter()
                .any(|(span_start, span_end)| *span_start <= start && end <= *span_end)
        })
        .collect())
}

/// `start..end` widened to whole lines (without the final line break).
fn line_span(text: &str, start: usize, end: usize) -> (usize, usize) {
    let line_start = text
        .get(..start)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |newline| newline + 1);
    let line_end = text
        .get(end..)
        .and_then(|after| after.find('\n'))
        .map_or(text.len(), |newline| end + newline);
    (line_start, line_end)
}

/// One formatting run, kept whole so that edits can be worked out.
struct Formatted<'a> {
    base: usize,
    tokens: Vec<tofu_syntax::scanner::Token>,
    items: Vec<structure::Item>,
    pieces: Vec<rewrite::Piece<'a>>,
    laid: layout::Laid,
}

impl<'a> Formatted<'a> {
    fn new(text: &'a str) -> Result<Formatted<'a>, NotFormatted> {
        let parsed = tofu_syntax::parse("fmt.tf", text);
        if !parsed.errors.is_empty() {
            return Err(NotFormatted {
                errors: parsed.errors,
            });
        }
        let base = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let content = text.get(base..).unwrap_or_default();
        let Some(lexed) = tokens::lex(content) else {
            return Err(NotFormatted {
                errors: vec![SyntaxError {
                    summary: "Invalid syntax".to_owned(),
                    detail: "The file cannot be cut into HCL tokens.".to_owned(),
                    range: TextRange::from_usize(base, base),
                    duplicate_argument: false,
                }],
            });
        };
        let items = structure::items(&lexed.tokens, content);
        let pieces = rewrite::apply(content, &lexed.tokens, &items);
        let laid = layout::lay_out(&pieces, lexed.trailing_blanks);
        Ok(Formatted {
            base,
            tokens: lexed.tokens,
            items,
            pieces,
            laid,
        })
    }

    fn edits(&self, text: &str) -> Vec<Edit> {
        edits::diff(text, self.base, &self.pieces, &self.laid)
    }
}

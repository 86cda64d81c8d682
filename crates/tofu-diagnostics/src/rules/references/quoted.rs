//! `quoted-reference-deprecated`: OpenTofu's compatibility shim for the
//! quoted references and keywords of Terraform 0.11 (`depends_on =
//! ["aws_instance.a"]`, `when = "destroy"`). In native syntax, a string that
//! needs no evaluation where a reference or keyword is expected gets the
//! warning, and its content is read as the traversal it spells, with a quick
//! fix that removes the quotes. JSON strings are the normal spelling there
//! and get no warning; callers read them with
//! [`traversal::parse_traversal`](super::traversal::parse_traversal).

use tofu_syntax::{Code, Diagnostic, Expr, ExprKind, Fix, TextRange};

use super::in_file::InFile;
use super::scan::Reference;
use super::traversal::{parse_traversal, TraversalError};

/// What was expected where the quoted string stands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Expected {
    Reference,
    Keyword,
}

/// The content of a quoted string read as a traversal.
pub(super) struct Unquoted {
    /// `None` when not even a root name could be read.
    pub reference: Option<Reference>,
    /// HCL's parse error, with its range in the file.
    pub error: Option<TraversalError>,
}

/// Reads a native quoted string without interpolation as the traversal it
/// spells, reporting the deprecation; `None` (and nothing reported) for any
/// other expression and in JSON files.
pub(super) fn unquote(
    in_file: &InFile<'_>,
    expr: &Expr,
    expected: Expected,
    out: &mut Vec<Diagnostic>,
) -> Option<Unquoted> {
    if in_file.json {
        return None;
    }
    let ExprKind::String(content) = &expr.kind else {
        return None;
    };
    let (reference, error) = parse_traversal(content);
    // Positions inside the string skip its opening quote (escape sequences
    // are not accounted for, as in HCL).
    let content_start = expr.range.start.saturating_add(1);
    let error = error.map(|error| TraversalError {
        range: inside(in_file.text, expr.range, error.range.shifted(content_start)),
        ..error
    });
    let (summary, noun) = match expected {
        Expected::Reference => ("Quoted references are deprecated", "references"),
        Expected::Keyword => ("Quoted keywords are deprecated", "keywords"),
    };
    let singular = match expected {
        Expected::Reference => "reference",
        Expected::Keyword => "keyword",
    };
    let mut warning = Diagnostic::new(crate::codes::QUOTED_REFERENCE_DEPRECATED, summary, in_file.at(expr.range))
        .with_detail(format!(
            "In this context, {noun} are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted {noun} are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this {singular} to silence this warning."
        ));
    // Only a quoted string (not a heredoc) whose content is a clean traversal
    // is unquoted; escapes are decoded (`"tags[\"Name\"]"` gives
    // `tags["Name"]`).
    let written = expr.range.slice(in_file.text);
    let quoted_string = written.len() >= 2 && written.starts_with('"') && written.ends_with('"');
    if quoted_string && error.is_none() && reference.is_some() {
        let fix = Fix::new("Remove the quotes")
            .with_edit(in_file.id, expr.range, content.trim())
            .safe();
        warning = warning.with_fix(fix);
    }
    out.push(warning);
    Some(Unquoted { reference, error })
}

/// `range` moved inside `outer` and onto character boundaries of `text`
/// (escape sequences make positions inside a string approximate).
fn inside(text: &str, outer: TextRange, range: TextRange) -> TextRange {
    let clamp = |offset: u32| {
        let mut at = offset.clamp(outer.start, outer.end) as usize;
        while at > 0 && !text.is_char_boundary(at) {
            at -= 1;
        }
        tofu_syntax::text::to_u32(at)
    };
    TextRange::new(clamp(range.start), clamp(range.end))
}

/// HCL's parse error of an unquoted string, as a diagnostic with `code`.
pub(super) fn parse_error_diagnostic(
    in_file: &InFile<'_>,
    error: &TraversalError,
    code: Code,
) -> Diagnostic {
    Diagnostic::new(code, error.summary, in_file.at(error.range)).with_detail(error.detail)
}

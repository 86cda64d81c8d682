//! The "expr-start" range of `diagnostics.md` §1: where HCL says an
//! expression starts (`Expression.StartRange`), the range OpenTofu gives many
//! of its diagnostics.

use tofu_syntax::text::to_u32;
use tofu_syntax::{Expr, ExprKind, Operation, Template, TextRange, TraversalStep};

/// HCL's `StartRange` of `expr` in `text`. In JSON, the whole value (an
/// array's or object's opening bracket). In
/// native syntax: a reference, literal or call-free value whole; a quoted
/// string without its quotes (its literal text up to the first template
/// sequence); a lone `"${…}"` whole; a call's name through its `(`; the
/// opening bracket of a constructor, `for` or index; a splat's marker; a unary
/// operator's symbol; a binary operator's or conditional's left operand.
/// Parentheses have no start of their own: their content's counts.
pub fn expr_start(text: &str, expr: &Expr, json: bool) -> TextRange {
    if json {
        // HCL's JSON values start at their opening bracket, or are whole.
        match expr.kind {
            ExprKind::Array(_) | ExprKind::Object(_) => TextRange::new(
                expr.range.start,
                expr.range.start.saturating_add(1).min(expr.range.end),
            ),
            _ => expr.range,
        }
    } else {
        start_range(text, expr.range, &expr.kind)
    }
}

/// [`expr_start`] in native syntax, for an expression of `kind` at `range`
/// (which may include the parentheses the model keeps no node for).
fn start_range(text: &str, range: TextRange, kind: &ExprKind) -> TextRange {
    let source = range.slice(text);
    let first_char = TextRange::new(range.start, range.start.saturating_add(1));
    let n_leading = source.len()
        - source
            .trim_start_matches(|c: char| c == '(' || c.is_whitespace())
            .len();
    let content_start = range.start.saturating_add(to_u32(n_leading));
    if n_leading > 0 && !matches!(kind, ExprKind::Operation(_)) {
        let n_trailing = source.len()
            - source
                .trim_end_matches(|c: char| c == ')' || c.is_whitespace())
                .len();
        let content_end = range.end.saturating_sub(to_u32(n_trailing));
        return start_range(text, TextRange::new(content_start, content_end), kind);
    }
    match kind {
        // A constructor or `for` starts at its bracket.
        ExprKind::Array(_) | ExprKind::Object(_) | ExprKind::For(_) => first_char,
        // hcl-edit folds a minus into the number; HCL starts at the operator.
        ExprKind::Number(_) if source.starts_with('-') => first_char,
        ExprKind::Traversal(traversal) => traversal
            .steps
            .iter()
            .find_map(|step| match step {
                TraversalStep::Splat { range, .. } => Some(*range),
                _ => None,
            })
            .unwrap_or(range),
        ExprKind::Call(call) => {
            let after_name = call.name_range.end as usize;
            let open = text
                .get(after_name..range.end as usize)
                .and_then(|rest| rest.find('('))
                .map_or(call.name_range.end, |at| to_u32(after_name + at + 1));
            TextRange::new(call.name_range.start, open)
        }
        ExprKind::String(_) if source.starts_with('"') && source.len() >= 2 => {
            TextRange::new(range.start.saturating_add(1), range.end.saturating_sub(1))
        }
        ExprKind::Template(Template {
            expressions: parts, ..
        }) if source.starts_with('"') => {
            let inner_start = range.start.saturating_add(1);
            let lone_interpolation =
                parts.len() == 1 && source.starts_with("\"${") && source.ends_with("}\"");
            let literal_end = source
                .find("${")
                .into_iter()
                .chain(source.find("%{"))
                .min()
                .map_or(range.end.saturating_sub(1), |at| {
                    range.start.saturating_add(to_u32(at))
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
        ExprKind::Operation(Operation {
            operands: children, ..
        }) => {
            let content = text
                .get(content_start as usize..range.end as usize)
                .unwrap_or_default();
            if content.starts_with(['[', '{', '!', '-']) {
                return TextRange::new(content_start, content_start.saturating_add(1));
            }
            match children.first() {
                Some(first) if (range.start..=content_start).contains(&first.range.start) => {
                    match after_operand(text, first.range, range.end) {
                        Some(after) => after,
                        None => start_range(text, first.range, &first.kind),
                    }
                }
                _ => range,
            }
        }
        _ => range,
    }
}

/// When the text after an expression's first operand continues it with `.`
/// or `[` (a traversal, index or splat applied to a call, a parenthesised
/// value or a constructor), the start HCL gives that outer expression: the
/// whole of a relative traversal, the `[` of an index, a splat's marker.
fn after_operand(text: &str, operand: TextRange, end: u32) -> Option<TextRange> {
    let rest = text.get(operand.end as usize..end as usize)?;
    let trimmed = rest.trim_start_matches(|c: char| c == ')' || c.is_whitespace());
    let at = operand
        .end
        .saturating_add(to_u32(rest.len() - trimmed.len()));
    if trimmed.starts_with(".*") {
        Some(TextRange::new(at, at.saturating_add(2)))
    } else if trimmed.starts_with('.') {
        Some(TextRange::new(operand.start, end))
    } else if trimmed.starts_with("[*]") {
        Some(TextRange::new(at, at.saturating_add(3)))
    } else if trimmed.starts_with('[') {
        Some(TextRange::new(at, at.saturating_add(1)))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str) -> Vec<&str> {
        let file = tofu_syntax::parse("main.tf", text);
        file.body
            .attributes
            .iter()
            .map(|attr| expr_start(text, &attr.expr, false).slice(text))
            .collect()
    }

    #[test]
    fn starts_as_hcl_reports_them() {
        let text = "a = \"x\"\nb = f (1)\nc = x + y\nd = \"ab${c}\"\ne = \"${c}\"\ng = [1]\nh = !x\ni = (\"all\")\nj = ((a) + b)\nk = \"${c}d\"\n";
        assert_eq!(
            starts(text),
            ["x", "f (", "x", "ab", "\"${c}\"", "[", "!", "all", "a", "c"]
        );
    }

    #[test]
    fn operators_splats_and_indexes_start_where_hcl_says() {
        let text = "a = -1\nb = x[*].y\nc = x.*.y\nd = f(x).y\ne = (x)[0]\nf = f(x)[*]\ng = c ? 1 : 2\nh = [for v in x : v]\ni = x.y[0]\n";
        assert_eq!(
            starts(text),
            ["-", "[*]", ".*", "f(x).y", "[", "[*]", "c", "[", "x.y[0]"]
        );
    }
}

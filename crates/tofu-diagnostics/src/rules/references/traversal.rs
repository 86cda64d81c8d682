//! Static references as HCL reads them where OpenTofu wants a reference, not a
//! value: `hcl.AbsTraversalForExpr` on a native expression, HCL's traversal
//! parser (`hclsyntax.ParseTraversalAbs`) on the content of a string, and the
//! start of an expression as HCL reports it (`StartRange`, the "expr-start"
//! of `diagnostics.md` §1).
//!
//! Only the shapes matter here: what a reference names is judged by the
//! callers. Positions inside a string ignore escape sequences, as HCL's do.

use tofu_syntax::{Expr, ExprKind, TraversalStep};

use super::scan::{IndexKey, Reference, Step};
use tofu_module::expr::traversal::Part;

pub(super) use tofu_module::expr::traversal::TraversalError;

/// What `hclsyntax.ParseTraversalAbs` makes of `text`, as a [`Reference`]
/// (possibly cut short, `None` when not even a root name was found) and the
/// first error, if any.
pub(super) fn parse_traversal(text: &str) -> (Option<Reference>, Option<TraversalError>) {
    let parsed = tofu_module::expr::traversal::parse_traversal(text);
    let mut parts = parsed.steps.into_iter().map(|step| step.part);
    let reference = match parts.next() {
        Some(Part::Name(root)) => Some(Reference {
            root,
            steps: parts
                .map(|part| match part {
                    Part::Name(name) => Step::Attr(name),
                    Part::Index(key) => Step::Index(key),
                })
                .collect(),
        }),
        _ => None,
    };
    (reference, parsed.error)
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
}

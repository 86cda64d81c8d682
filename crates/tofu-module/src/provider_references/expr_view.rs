//! Native expressions read as references: how an expression's ranges map
//! into the file (directly, or from a JSON string's content parsed on its
//! own), its steps when it is a static traversal, and HCL's start range.
//!
//! The syntax model keeps no steps for a traversal whose root is a keyword
//! literal (`null.a`), which HCL reads as a name where it expects a
//! reference; such expressions are read again from their text.

use tofu_syntax::{Expr, ExprKind, TextRange, Traversal, TraversalStep};

use crate::expr::content::StringContent;
use crate::expr::traversal::{parse_traversal, IndexKey, Part};

/// Where an expression sits: an argument value, or a key of a native object
/// constructor (where OpenTofu does not set a dynamic index aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    Value,
    ObjectKey,
}

/// True when the expression refers to something or calls a function, so that
/// OpenTofu cannot evaluate it while loading.
pub fn has_references(expr: &Expr) -> bool {
    let mut found = false;
    expr.walk(&mut |inner| {
        if matches!(inner.kind, ExprKind::Traversal(_) | ExprKind::Call(_)) {
            found = true;
        }
    });
    found
}

/// `true`, `false` and `null` read as traversal roots, as HCL reads them where
/// it expects a reference.
pub fn keyword_literal(expr: &Expr) -> Option<&'static str> {
    match expr.kind {
        ExprKind::Bool(true) => Some("true"),
        ExprKind::Bool(false) => Some("false"),
        ExprKind::Null => Some("null"),
        _ => None,
    }
}

/// One step of a reference with its range in the file.
#[derive(Clone, Debug)]
pub struct RefStep {
    pub part: Part,
    pub range: TextRange,
}

/// The text an expression was parsed from and how its ranges map into the
/// file: the file itself, or a JSON string's content parsed on its own.
pub struct ExprView<'a> {
    pub text: &'a str,
    /// Where the content starts in `text` (JSON only).
    pub offset: u32,
    pub content: Option<&'a StringContent>,
}

impl<'a> ExprView<'a> {
    pub fn file(text: &'a str) -> ExprView<'a> {
        ExprView {
            text,
            offset: 0,
            content: None,
        }
    }

    pub fn to_file(&self, range: TextRange) -> TextRange {
        match self.content {
            None => range,
            Some(content) => content.map(TextRange::new(
                range.start.saturating_sub(self.offset),
                range.end.saturating_sub(self.offset),
            )),
        }
    }

    pub fn is_exact(&self) -> bool {
        self.content.is_none_or(StringContent::is_exact)
    }

    pub fn starts_with(&self, range: TextRange, prefix: &str) -> bool {
        self.text
            .get(range.start as usize..)
            .is_some_and(|rest| rest.starts_with(prefix))
    }

    /// `(aws)`: the model keeps the inner traversal, HCL sees no reference.
    pub fn is_parenthesized(&self, expr: &Expr, traversal: &Traversal) -> bool {
        traversal.root_range.start != expr.range.start
    }

    pub fn is_constant_key(&self, key: &Expr) -> bool {
        matches!(
            key.kind,
            ExprKind::Number(_) | ExprKind::String(_) | ExprKind::Bool(_) | ExprKind::Null
        ) && !self.starts_with(key.range, "(")
    }

    /// The root and `steps` as reference steps, when every index is a
    /// constant and nothing is a splat.
    pub fn static_steps(
        &self,
        traversal: &Traversal,
        steps: &[TraversalStep],
    ) -> Option<Vec<RefStep>> {
        let mut out = vec![RefStep {
            part: Part::Name(traversal.root.clone()),
            range: self.to_file(traversal.root_range),
        }];
        for step in steps {
            out.push(match step {
                TraversalStep::Attr { name, range } => {
                    let with_dot = if range.start > 0
                        && self.starts_with(TextRange::empty(range.start - 1), ".")
                    {
                        TextRange::new(range.start - 1, range.end)
                    } else {
                        *range
                    };
                    RefStep {
                        part: Part::Name(name.clone()),
                        range: self.to_file(with_dot),
                    }
                }
                TraversalStep::Index { key, range } if self.is_constant_key(key) => RefStep {
                    part: Part::Index(IndexKey::Other),
                    range: self.to_file(*range),
                },
                TraversalStep::Index { .. } | TraversalStep::Splat { .. } => return None,
            });
        }
        Some(out)
    }
}

/// `null.a`, `true.x[each.key]`: the model keeps no steps for a traversal
/// whose root is a keyword literal, but HCL reads the keyword as a name.
pub fn starts_with_keyword_literal(expr: &Expr, children: &[Expr]) -> bool {
    children.first().is_some_and(|first| {
        first.range.start == expr.range.start && keyword_literal(first).is_some()
    })
}

/// A traversal from a keyword root, read again from the text.
pub struct KeywordRootTraversal {
    pub steps: Vec<RefStep>,
    pub range: TextRange,
    pub key_set_aside: bool,
}

impl ExprView<'_> {
    /// Reads `null.a[KEY]`-like expressions again from their text; a last
    /// index with a non-constant key is set aside for values.
    pub fn keyword_root_traversal(
        &self,
        expr: &Expr,
        children: &[Expr],
        position: Position,
    ) -> Option<KeywordRootTraversal> {
        let mut end = expr.range.end;
        let mut key_set_aside = false;
        if let (Some(last), true) = (
            children.get(1..).and_then(<[Expr]>::last),
            position == Position::Value,
        ) {
            if !self.is_constant_key(last) {
                let before_key =
                    TextRange::new(expr.range.start, last.range.start).slice(self.text);
                let bracket = before_key.trim_end().strip_suffix('[')?;
                end = expr.range.start + tofu_syntax::text::to_u32(bracket.trim_end().len());
                key_set_aside = true;
            }
        }
        let range = TextRange::new(expr.range.start, end);
        let parsed = parse_traversal(range.slice(self.text));
        if parsed.error.is_some() {
            return None;
        }
        let steps = parsed
            .steps
            .into_iter()
            .map(|step| RefStep {
                part: step.part,
                range: self.to_file(step.range.shifted(range.start)),
            })
            .collect();
        Some(KeywordRootTraversal {
            steps,
            range: self.to_file(range),
            key_set_aside,
        })
    }
}

//! The references in an expression, as HCL's `Variables()` finds them: every
//! variable traversal (`var.x`, `aws_instance.a.id`, `each.key`, `self`),
//! cut at the first step that is not an attribute or a constant index, and
//! without the names a `for` expression or a `%{ for }` directive binds.
//! Provider function calls (`provider::NAME::FUNC(…)`) are collected beside
//! them, as OpenTofu's `lang.ReferencesInExpr` does.
//!
//! The shared model flattens `for` expressions, so native expressions are
//! parsed again from their source text with hcl-edit and walked with their
//! scopes. In JSON, strings are templates (`"${var.x}"`), object keys
//! included, and a string without `${` or `%{` holds no reference. Nothing
//! here reports a diagnostic: a source that does not parse yields `None` (or,
//! for a model expression, the model's own references without scopes).

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::template::{Directive, Element};
use tofu_syntax::{Expr, ExprKind, TraversalStep};

/// One reference: a root name and the steps after it that HCL keeps in the
/// traversal (attributes and constant indexes).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Reference {
    pub root: String,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    Attr(String),
    Index(IndexKey),
}

pub(super) use crate::expr::traversal::IndexKey;

impl Reference {
    /// The name of the attribute right after the root (`index` in `count.index`).
    pub fn first_attr(&self) -> Option<&str> {
        match self.steps.first() {
            Some(Step::Attr(name)) => Some(name),
            _ => None,
        }
    }
}

/// What an expression refers to.
#[derive(Debug, Default)]
pub(super) struct Found {
    pub references: Vec<Reference>,
    /// Full names of provider function calls, e.g. `provider::aws::arn_parse`.
    pub provider_functions: Vec<String>,
}

/// The references of a model expression of a file whose text is `text`.
pub(super) fn in_expr(text: &str, expr: &Expr, json: bool) -> Found {
    if json {
        let mut found = Found::default();
        json_value(text, expr, &mut found);
        return found;
    }
    let source = expr.range.slice(text);
    in_native_source(source).unwrap_or_else(|_| {
        let mut found = Found::default();
        model(expr, &mut found);
        found
    })
}

/// The references of native expression source text (surrounding whitespace
/// allowed), or the parser's message when it does not parse.
pub(super) fn in_native_source(source: &str) -> Result<Found, String> {
    let parsed =
        hcl_edit::parser::parse_expr(source.trim()).map_err(|error| error.message().to_owned())?;
    let mut walker = Walker::default();
    walker.expr(&parsed);
    Ok(walker.found)
}

/// The references of a template (the content of a JSON string); `None` when
/// it does not parse.
fn in_template_source(source: &str) -> Option<Found> {
    let parsed = hcl_edit::parser::parse_template(source).ok()?;
    let mut walker = Walker::default();
    walker.template(parsed.iter());
    Some(walker.found)
}

/// A JSON value: strings are templates, arrays and objects are walked, object
/// keys being templates too.
fn json_value(text: &str, expr: &Expr, found: &mut Found) {
    match &expr.kind {
        ExprKind::Template(_) => json_template(expr.range.slice(text), found),
        ExprKind::Array(items) => items.iter().for_each(|item| json_value(text, item, found)),
        ExprKind::Object(items) => {
            for item in items {
                let key = item.key.range.slice(text);
                if key.contains("${") || key.contains("%{") {
                    json_template(key, found);
                }
                json_value(text, &item.value, found);
            }
        }
        _ => {}
    }
}

fn json_template(literal: &str, found: &mut Found) {
    let Some(content) = json_string_content(literal) else {
        return;
    };
    if let Some(inner) = in_template_source(&content) {
        found.references.extend(inner.references);
        found.provider_functions.extend(inner.provider_functions);
    }
}

/// Decodes a JSON string literal, quotes included; `None` when it is not one.
pub(super) fn json_string_content(literal: &str) -> Option<String> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
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
                    let combined = 0x10000 + ((high - 0xD800) << 10) + low.checked_sub(0xDC00)?;
                    char::from_u32(combined)?
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

/// Walks hcl-edit's tree, keeping the names bound by enclosing `for`s.
#[derive(Default)]
struct Walker {
    bound: Vec<String>,
    found: Found,
}

impl Walker {
    fn expr(&mut self, expr: &Expression) {
        match expr {
            Expression::Null(_)
            | Expression::Bool(_)
            | Expression::Number(_)
            | Expression::String(_) => {}
            Expression::Array(array) => array.iter().for_each(|item| self.expr(item)),
            Expression::Object(object) => {
                for (key, value) in object.iter() {
                    if let ObjectKey::Expression(key) = key {
                        self.expr(key);
                    }
                    self.expr(value.expr());
                }
            }
            Expression::StringTemplate(template) => self.template(template.iter()),
            Expression::HeredocTemplate(heredoc) => self.template(heredoc.template.iter()),
            Expression::Parenthesis(inner) => self.expr(inner.inner()),
            Expression::Variable(name) => self.reference(name.as_str(), Vec::new()),
            Expression::Conditional(conditional) => {
                self.expr(&conditional.cond_expr);
                self.expr(&conditional.true_expr);
                self.expr(&conditional.false_expr);
            }
            Expression::FuncCall(call) => {
                let is_provider_function = call
                    .name
                    .namespace
                    .first()
                    .is_some_and(|namespace| namespace.as_str() == "provider");
                if is_provider_function {
                    let mut name = String::new();
                    for namespace in &call.name.namespace {
                        name.push_str(namespace.as_str());
                        name.push_str("::");
                    }
                    name.push_str(call.name.name.as_str());
                    self.found.provider_functions.push(name);
                }
                call.args.iter().for_each(|arg| self.expr(arg));
            }
            Expression::Traversal(traversal) => {
                let operators: Vec<&TraversalOperator> =
                    traversal.operators.iter().map(|op| op.value()).collect();
                let rest = if let Expression::Variable(root) = &traversal.expr {
                    let mut steps = Vec::new();
                    let mut kept = 0;
                    for operator in &operators {
                        let step = match operator {
                            TraversalOperator::GetAttr(name) => {
                                Step::Attr(name.as_str().to_owned())
                            }
                            TraversalOperator::LegacyIndex(index) => {
                                Step::Index(IndexKey::Number(index.value().to_string()))
                            }
                            TraversalOperator::Index(key) => match constant_key(key) {
                                Some(key) => Step::Index(key),
                                None => break,
                            },
                            TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => {
                                break
                            }
                        };
                        steps.push(step);
                        kept += 1;
                    }
                    self.reference(root.as_str(), steps);
                    operators.get(kept..).unwrap_or_default()
                } else {
                    self.expr(&traversal.expr);
                    operators.as_slice()
                };
                for operator in rest {
                    if let TraversalOperator::Index(key) = operator {
                        self.expr(key);
                    }
                }
            }
            Expression::UnaryOp(operation) => self.expr(&operation.expr),
            Expression::BinaryOp(operation) => {
                self.expr(&operation.lhs_expr);
                self.expr(&operation.rhs_expr);
            }
            Expression::ForExpr(for_expr) => {
                self.expr(&for_expr.intro.collection_expr);
                let n_bound = self.bind(
                    for_expr.intro.key_var.as_ref().map(|var| var.as_str()),
                    for_expr.intro.value_var.as_str(),
                );
                if let Some(key_expr) = &for_expr.key_expr {
                    self.expr(key_expr);
                }
                self.expr(&for_expr.value_expr);
                if let Some(cond) = &for_expr.cond {
                    self.expr(&cond.expr);
                }
                self.unbind(n_bound);
            }
        }
    }

    fn template<'a>(&mut self, elements: impl Iterator<Item = &'a Element>) {
        for element in elements {
            match element {
                Element::Literal(_) => {}
                Element::Interpolation(interpolation) => self.expr(&interpolation.expr),
                Element::Directive(directive) => match directive.as_ref() {
                    Directive::If(if_directive) => {
                        self.expr(&if_directive.if_expr.cond_expr);
                        self.template(if_directive.if_expr.template.iter());
                        if let Some(else_expr) = &if_directive.else_expr {
                            self.template(else_expr.template.iter());
                        }
                    }
                    Directive::For(for_directive) => {
                        let for_expr = &for_directive.for_expr;
                        self.expr(&for_expr.collection_expr);
                        let n_bound = self.bind(
                            for_expr.key_var.as_ref().map(|var| var.as_str()),
                            for_expr.value_var.as_str(),
                        );
                        self.template(for_expr.template.iter());
                        self.unbind(n_bound);
                    }
                },
            }
        }
    }

    fn bind(&mut self, key: Option<&str>, value: &str) -> usize {
        let before = self.bound.len();
        self.bound.extend(key.map(str::to_owned));
        self.bound.push(value.to_owned());
        self.bound.len() - before
    }

    fn unbind(&mut self, n_bound: usize) {
        self.bound
            .truncate(self.bound.len().saturating_sub(n_bound));
    }

    fn reference(&mut self, root: &str, steps: Vec<Step>) {
        if !self.bound.iter().any(|name| name == root) {
            self.found.references.push(Reference {
                root: root.to_owned(),
                steps,
            });
        }
    }
}

/// An index key HCL folds into the traversal: a literal number, string
/// without interpolation, bool or null.
fn constant_key(key: &Expression) -> Option<IndexKey> {
    match key {
        Expression::Number(number) => Some(IndexKey::Number(number.value().to_string())),
        Expression::String(string) => Some(IndexKey::String(string.value().clone())),
        Expression::Bool(_) | Expression::Null(_) => Some(IndexKey::Other),
        _ => None,
    }
}

/// The model's own references, without `for` scopes: the fallback for a
/// native expression that hcl-edit does not parse on its own.
fn model(expr: &Expr, found: &mut Found) {
    match &expr.kind {
        ExprKind::Traversal(traversal) => {
            let mut steps = Vec::new();
            let mut rest = traversal.steps.as_slice();
            while let Some((step, after)) = rest.split_first() {
                let kept = match step {
                    TraversalStep::Attr { name, .. } => Step::Attr(name.clone()),
                    TraversalStep::Index { key, .. } => match &key.kind {
                        ExprKind::Number(number) => Step::Index(IndexKey::Number(number.clone())),
                        ExprKind::String(string) => Step::Index(IndexKey::String(string.clone())),
                        ExprKind::Bool(_) | ExprKind::Null => Step::Index(IndexKey::Other),
                        _ => break,
                    },
                    TraversalStep::Splat { .. } => break,
                };
                steps.push(kept);
                rest = after;
            }
            found.references.push(Reference {
                root: traversal.root.clone(),
                steps,
            });
            for step in rest {
                if let TraversalStep::Index { key, .. } = step {
                    model(key, found);
                }
            }
        }
        ExprKind::Call(call) => {
            if call.name.starts_with("provider::") {
                found.provider_functions.push(call.name.clone());
            }
            call.args.iter().for_each(|arg| model(arg, found));
        }
        ExprKind::Template(children) | ExprKind::Array(children) | ExprKind::Other(children) => {
            children.iter().for_each(|child| model(child, found));
        }
        ExprKind::Object(items) => {
            for item in items {
                if !matches!(&item.key.kind, ExprKind::Traversal(t) if t.steps.is_empty()) {
                    model(&item.key, found);
                }
                model(&item.value, found);
            }
        }
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots(source: &str) -> Vec<String> {
        in_native_source(source)
            .map(|found| found.references.into_iter().map(|r| r.root).collect())
            .unwrap_or_default()
    }

    #[test]
    fn names_bound_by_for_are_not_references() {
        assert_eq!(roots("[for x in var.l : x]"), ["var"]);
        assert_eq!(
            roots("{for k, v in local.m : k => v if v != each.key}"),
            ["local", "each"]
        );
        assert_eq!(
            roots("\"%{ for ip in self.ips }${ip} ${path.module}%{ endfor }\""),
            ["self", "path"]
        );
        assert_eq!(roots("[for x in x : x]"), ["x"]);
    }

    #[test]
    fn traversals_stop_at_computed_indexes_and_splats() {
        let found = in_native_source("a.b[var.k].c + d[*].e + f[0][\"x\"]").unwrap_or_default();
        let rendered: Vec<(String, usize)> = found
            .references
            .iter()
            .map(|r| (r.root.clone(), r.steps.len()))
            .collect();
        assert_eq!(
            rendered,
            [
                ("a".to_owned(), 1),
                ("var".to_owned(), 1),
                ("d".to_owned(), 0),
                ("f".to_owned(), 2)
            ]
        );
    }

    #[test]
    fn calls_are_not_references_but_provider_functions_are_collected() {
        let found = in_native_source("upper(provider::aws::arn_parse(x))").unwrap_or_default();
        assert_eq!(found.provider_functions, ["provider::aws::arn_parse"]);
        assert_eq!(found.references.len(), 1);
        assert!(roots("{ key = 1 }").is_empty());
    }

    #[test]
    fn json_strings_are_templates() {
        assert_eq!(
            json_string_content(r#""a\"b\u00e9\ud83d\ude00""#).as_deref(),
            Some("a\"bé😀")
        );
        let found = in_template_source("x ${var.a} $${not.this}").unwrap_or_default();
        assert_eq!(found.references.len(), 1);
    }
}

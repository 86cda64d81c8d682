//! The one reference walker: the references of an expression as HCL's
//! `Variables()` finds them, for the rules, the static evaluation of module
//! sources and the editor's reference sites.
//!
//! A reference is a variable traversal (`var.x`, `aws_instance.a.id`,
//! `each.key`, `self`) cut at the first step that is neither an attribute
//! nor a constant index; names a `for` expression or a `%{ for }` directive
//! binds are not references inside its scope (the collection is outside it).
//! An object key written as a bare name is a string, not a reference.
//! Provider function calls (`provider::NAME::FUNC(…)`) are collected beside
//! them, as OpenTofu's `lang.ReferencesInExpr` does.
//!
//! In JSON, strings are templates (`"${var.x}"`), object keys included; a
//! string without `${` or `%{` holds no reference. Ranges inside a JSON
//! string map into the file when its content is written without escapes;
//! otherwise they are offsets into the decoded content added to where it
//! starts, as HCL reports them (an escape before a reference shifts it), and
//! the reference is marked inexact.

use tofu_syntax::{Expr, ExprKind, Operation, Template, TextRange, TraversalStep};

use super::traversal::{IndexKey, ParsedStep, Part};

/// One reference: its root and kept steps, with their ranges in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundRef {
    /// The root name first, then the attributes and constant index keys HCL
    /// keeps in the traversal.
    pub steps: Vec<ParsedStep>,
    /// False inside a JSON string with escapes: every range is the string's.
    pub exact: bool,
}

#[cfg(test)]
impl FoundRef {
    pub fn root(&self) -> &str {
        match self.steps.first().map(|step| &step.part) {
            Some(Part::Name(name)) => name,
            _ => "",
        }
    }
}

/// A provider function call found in an expression.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundCall {
    /// The full name, e.g. `provider::aws::arn_parse`.
    pub name: String,
    pub range: TextRange,
}

/// What an expression refers to, in source order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found {
    pub references: Vec<FoundRef>,
    pub provider_functions: Vec<FoundCall>,
}

/// The references of `expr`, written in `text` (in JSON syntax if `json`).
pub fn references(text: &str, expr: &Expr, json: bool) -> Found {
    references_bound(text, expr, json, &[])
}

/// The same, with `bound` names (a `dynamic` block's iterator) not
/// references.
pub fn references_bound(text: &str, expr: &Expr, json: bool, bound: &[String]) -> Found {
    let mut walker = Walker {
        text,
        bound: bound.to_vec(),
        found: Found::default(),
        map: Map::File,
    };
    if json {
        walker.json(expr);
    } else {
        walker.expr(expr);
    }
    walker.found
}

/// How ranges of the expression being walked map into the file.
#[derive(Clone, Copy)]
enum Map {
    File,
    /// A template parsed from a JSON string's content starting at `start`.
    Shifted {
        start: u32,
    },
    /// A template parsed from a JSON string with escapes, whose content
    /// starts at `start`: as HCL does, offsets into the decoded content are
    /// added to `start` (so an escape before a reference shifts its range),
    /// kept within the string `whole`.
    Decoded {
        start: u32,
        whole: TextRange,
    },
}

impl Map {
    fn apply(self, range: TextRange) -> TextRange {
        match self {
            Map::File => range,
            Map::Shifted { start } => range.shifted(start),
            Map::Decoded { start, whole } => {
                let shifted = range.shifted(start);
                let clamp = |offset: u32| offset.clamp(whole.start, whole.end);
                TextRange::new(clamp(shifted.start), clamp(shifted.end))
            }
        }
    }
}

struct Walker<'t> {
    /// The text the walked model's ranges refer to.
    text: &'t str,
    /// Names bound by enclosing `for`s.
    bound: Vec<String>,
    found: Found,
    map: Map,
}

impl Walker<'_> {
    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
            ExprKind::Template(Template {
                expressions: parts, ..
            })
            | ExprKind::Array(parts)
            | ExprKind::Operation(Operation {
                operands: parts, ..
            }) => {
                parts.iter().for_each(|part| self.expr(part));
            }
            ExprKind::Object(items) => {
                for item in items {
                    if !self.is_bare_key(&item.key) {
                        self.expr(&item.key);
                    }
                    self.expr(&item.value);
                }
            }
            ExprKind::Traversal(traversal) => {
                let mut steps = vec![ParsedStep {
                    part: Part::Name(traversal.root.clone()),
                    range: self.map.apply(traversal.root_range),
                }];
                let mut rest = traversal.steps.as_slice();
                while let Some((step, after)) = rest.split_first() {
                    let (part, range) = match step {
                        TraversalStep::Attr { name, range } => (Part::Name(name.clone()), range),
                        TraversalStep::Index { key, range } => match self.constant_key(key) {
                            Some(key) => (Part::Index(key), range),
                            None => break,
                        },
                        TraversalStep::Splat { .. } => break,
                    };
                    steps.push(ParsedStep {
                        part,
                        range: self.map.apply(*range),
                    });
                    rest = after;
                }
                if !self.bound.contains(&traversal.root) {
                    self.found.references.push(FoundRef {
                        steps,
                        exact: !matches!(self.map, Map::Decoded { .. }),
                    });
                }
                for step in rest {
                    if let TraversalStep::Index { key, .. } = step {
                        self.expr(key);
                    }
                }
            }
            ExprKind::Call(call) => {
                if call.name.starts_with("provider::") {
                    self.found.provider_functions.push(FoundCall {
                        name: call.name.clone(),
                        range: self.map.apply(call.name_range),
                    });
                }
                call.args.iter().for_each(|arg| self.expr(arg));
            }
            ExprKind::For(for_expr) => {
                self.expr(&for_expr.collection);
                let n_bound = self.bound.len();
                self.bound
                    .extend(for_expr.names.iter().map(|(name, _)| name.clone()));
                for_expr.body.iter().for_each(|part| self.expr(part));
                self.bound.truncate(n_bound);
            }
        }
    }

    /// An object key written as a bare name (`{ a = 1 }`) is a string; a
    /// parenthesised one (`{ (a) = 1 }`) is an expression.
    fn is_bare_key(&self, key: &Expr) -> bool {
        matches!(&key.kind, ExprKind::Traversal(traversal) if traversal.steps.is_empty())
            && !key.range.slice(self.text).starts_with('(')
    }

    /// An index key HCL folds into the traversal: a literal number, string
    /// without interpolation, bool or null, not in parentheses.
    fn constant_key(&self, key: &Expr) -> Option<IndexKey> {
        if key.range.slice(self.text).starts_with('(') {
            return None;
        }
        match &key.kind {
            ExprKind::Number(number) => Some(IndexKey::Number(number.clone())),
            ExprKind::String(string) => Some(IndexKey::String(string.clone())),
            ExprKind::Bool(_) | ExprKind::Null => Some(IndexKey::Other),
            _ => None,
        }
    }

    /// A JSON value: strings are templates, arrays and objects are walked,
    /// object keys being templates too.
    fn json(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Template(_) => self.json_template(expr.range),
            ExprKind::Array(items) => items.iter().for_each(|item| self.json(item)),
            ExprKind::Object(items) => {
                for item in items {
                    let key = item.key.range.slice(self.text);
                    if key.contains("${") || key.contains("%{") {
                        self.json_template(item.key.range);
                    }
                    self.json(&item.value);
                }
            }
            _ => {}
        }
    }

    /// The references of the JSON string at `range` (quotes included).
    fn json_template(&mut self, range: TextRange) {
        let literal = range.slice(self.text);
        let Some(content) = json_string_content(literal) else {
            return;
        };
        let Ok(template) = tofu_syntax::parse_template(&content) else {
            return;
        };
        let raw = literal
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'));
        let map = if raw == Some(content.as_str()) {
            Map::Shifted {
                start: range.start.saturating_add(1),
            }
        } else {
            Map::Decoded {
                start: range.start.saturating_add(1),
                whole: range,
            }
        };
        let mut inner = Walker {
            text: &content,
            bound: Vec::new(),
            found: Found::default(),
            map,
        };
        inner.expr(&template);
        self.found.references.extend(inner.found.references);
        self.found
            .provider_functions
            .extend(inner.found.provider_functions);
    }
}

pub use super::content::json_string_value as json_string_content;

#[cfg(test)]
mod tests {
    use super::*;

    fn native(source: &str) -> Found {
        let text = format!("x = {source}\n");
        let file = tofu_syntax::parse("main.tf", &text);
        let Some(attr) = file.body.attributes.first() else {
            return Found::default();
        };
        references(&text, &attr.expr, false)
    }

    fn roots(source: &str) -> Vec<String> {
        native(source)
            .references
            .iter()
            .map(|r| r.root().to_owned())
            .collect()
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
        assert_eq!(roots("[for x in [1] : [for y in x : y + z]]"), ["z"]);
    }

    #[test]
    fn traversals_stop_at_computed_indexes_and_splats() {
        let lengths: Vec<(String, usize)> = native("a.b[var.k].c + d[*].e + f[0][\"x\"] + g[(0)]")
            .references
            .iter()
            .map(|r| (r.root().to_owned(), r.steps.len()))
            .collect();
        assert_eq!(
            lengths,
            [
                ("a".to_owned(), 2),
                ("var".to_owned(), 2),
                ("d".to_owned(), 1),
                ("f".to_owned(), 3),
                ("g".to_owned(), 1)
            ]
        );
    }

    #[test]
    fn calls_are_not_references_but_provider_functions_are_collected() {
        let found = native("upper(provider::aws::arn_parse(x))");
        let names: Vec<&str> = found
            .provider_functions
            .iter()
            .map(|call| call.name.as_str())
            .collect();
        assert_eq!(names, ["provider::aws::arn_parse"]);
        assert_eq!(found.references.len(), 1);
        assert!(roots("{ key = 1 }").is_empty());
        assert_eq!(roots("{ (key) = 1 }"), ["key"]);
    }

    #[test]
    fn json_strings_are_templates_with_ranges_in_the_file() {
        assert_eq!(
            json_string_content(r#""a\"b\u00e9\ud83d\ude00""#).as_deref(),
            Some("a\"bé😀")
        );
        let text = r#"{"locals": {"a": "x ${var.a} $${not.this}", "b": "\t${var.b}"}}"#;
        let file = tofu_syntax::parse("main.tf.json", text);
        let locals = &file.body.blocks[0].body.attributes;
        let found = references(text, &locals[0].expr, true);
        assert_eq!(found.references.len(), 1);
        let reference = &found.references[0];
        assert!(reference.exact);
        assert_eq!(reference.steps[1].range.slice(text), "a");
        let escaped = references(text, &locals[1].expr, true);
        assert!(!escaped.references[0].exact);
    }
}

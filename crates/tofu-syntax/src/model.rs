//! The syntax-neutral model of one configuration file: blocks, attributes and
//! expressions with byte ranges, the same for native and JSON syntax.
//!
//! It keeps what loading, merging and the diagnostic rules need and nothing of
//! either syntax's formatting: values are re-read from the source text through
//! their ranges when they are shown. Expressions are a small tree that is enough
//! to find references, literals and list shapes; it is not an evaluator.

use crate::text::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// HCL native syntax (`.tf`, `.tofu`).
    Native,
    /// HCL JSON syntax (`.tf.json`, `.tofu.json`).
    Json,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Body {
    pub attributes: Vec<Attribute>,
    pub blocks: Vec<Block>,
    /// The `{` that opens the body (native) or the body object's `{` (JSON);
    /// `None` for a file's top-level body.
    pub open: Option<TextRange>,
    /// The `}` that closes the body.
    pub close: Option<TextRange>,
}

impl Body {
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|attr| attr.name == name)
    }

    pub fn blocks_of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.blocks.iter().filter(move |block| block.kind == kind)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The block type, e.g. `resource`.
    pub kind: String,
    /// The block type keyword (native) or the property name (JSON).
    pub kind_range: TextRange,
    pub labels: Vec<Label>,
    /// Native: from the keyword to the end of the last label. JSON: the `{` opening
    /// the body object (or the `[` of an array of bodies).
    pub header: TextRange,
    /// The whole block.
    pub range: TextRange,
    pub body: Body,
}

impl Block {
    pub fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index).map(|label| label.value.as_str())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub value: String,
    /// Native: the label, quotes included. JSON: the property name holding it.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub name_range: TextRange,
    /// `name = value` (native) or `"name": value` (JSON).
    pub range: TextRange,
    pub expr: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub range: TextRange,
    pub kind: ExprKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    /// A string without interpolation: a quoted native literal or a JSON string
    /// without `${`/`%{` sequences.
    String(String),
    /// A string with interpolations or directives (native quoted or heredoc, or a
    /// JSON string holding `${`/`%{`): the interpolated expressions, native only.
    Template(Vec<Expr>),
    Array(Vec<Expr>),
    Object(Vec<ObjectItem>),
    /// A reference such as `var.x`, `aws_instance.web.id`, `each.key`, `tags`.
    Traversal(Traversal),
    /// A function call, e.g. `merge(a, b)` or `provider::aws::arn_parse(x)`.
    Call(Call),
    /// A `for` expression or a `%{ for }` template directive, with the scope
    /// of the names it binds.
    For(ForExpr),
    /// Any other construct (operators, conditionals, indexing and traversal
    /// of non-references), with its sub-expressions.
    Other(Vec<Expr>),
}

/// What a `for` builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForKind {
    /// `[for … : VALUE]`: `body` is the value, then the condition if any.
    Tuple,
    /// `{for … : KEY => VALUE}`: `body` is the key, the value, then the
    /// condition if any.
    Object,
    /// `%{ for … }…%{ endfor }` in a template: `body` is its interpolations.
    Directive,
}

/// `[for k, v in coll : …]`, `{for …}` or `%{ for v in coll }…%{ endfor }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ForExpr {
    pub kind: ForKind,
    /// The names it binds (`k` and `v`, or `v`), with their ranges.
    pub names: Vec<(String, TextRange)>,
    /// The collection, evaluated outside the names' scope.
    pub collection: Box<Expr>,
    /// What is evaluated with the names bound: the key, value and condition
    /// of a `for` expression, or the interpolations of a directive's body.
    pub body: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ObjectItem {
    pub key: Expr,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Traversal {
    pub root: String,
    pub root_range: TextRange,
    pub steps: Vec<TraversalStep>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TraversalStep {
    Attr { name: String, range: TextRange },
    Index { key: Box<Expr>, range: TextRange },
    Splat { range: TextRange },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The full name, namespaces joined with `::`.
    pub name: String,
    pub name_range: TextRange,
    pub args: Vec<Expr>,
}

impl Expr {
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::String(value) => Some(value),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, ExprKind::Null)
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            ExprKind::Bool(value) => Some(value),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Expr]> {
        match &self.kind {
            ExprKind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[ObjectItem]> {
        match &self.kind {
            ExprKind::Object(items) => Some(items),
            _ => None,
        }
    }

    /// A bare identifier such as `all` or `destroy` (a traversal without steps).
    pub fn as_keyword(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Traversal(traversal) if traversal.steps.is_empty() => Some(&traversal.root),
            _ => None,
        }
    }

    /// Calls `visit` on this expression and every sub-expression, depth first.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(&'a Expr)) {
        visit(self);
        match &self.kind {
            ExprKind::Template(children)
            | ExprKind::Array(children)
            | ExprKind::Other(children) => {
                children.iter().for_each(|child| child.walk(visit));
            }
            ExprKind::Object(items) => items.iter().for_each(|item| {
                item.key.walk(visit);
                item.value.walk(visit);
            }),
            ExprKind::Traversal(traversal) => {
                for step in &traversal.steps {
                    if let TraversalStep::Index { key, .. } = step {
                        key.walk(visit);
                    }
                }
            }
            ExprKind::Call(call) => call.args.iter().for_each(|arg| arg.walk(visit)),
            ExprKind::For(for_expr) => {
                for_expr.collection.walk(visit);
                for_expr.body.iter().for_each(|part| part.walk(visit));
            }
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
        }
    }
}

/// A syntax error found while parsing one file (file-local; the module layer
/// attaches the file id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub summary: String,
    pub detail: String,
    pub range: TextRange,
    /// `true` for "Attribute redefined" and JSON duplicate properties, which the
    /// catalogue files under `duplicate-argument` rather than `syntax-error`.
    pub duplicate_argument: bool,
}

/// One parsed configuration file.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    pub syntax: Syntax,
    pub body: Body,
    pub errors: Vec<SyntaxError>,
    /// Parts of the file whose blocks could not be recovered after a syntax error.
    /// Rules that reason about absence (an override with no base, duplicates) stay
    /// silent about anything that could be hidden there.
    pub unrecovered: Vec<TextRange>,
}

impl SourceFile {
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }
}

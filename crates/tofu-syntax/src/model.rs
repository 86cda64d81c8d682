//! The syntax-neutral model of one configuration file: blocks, attributes and
//! expressions with byte ranges, the same for native and JSON syntax.
//!
//! It keeps what loading, merging, the diagnostic rules and evaluation need
//! and nothing of either syntax's formatting: values are re-read from the
//! source text through their ranges when they are shown. Expressions keep
//! HCL's structure: operators, conditionals, traversals of computed values
//! and splats ([`Operation`]), templates with their literals, directives and
//! strip markers already applied as HCL's parser applies them ([`Template`]),
//! `for` expressions with their grouping mode. Parentheses leave no node: a
//! parenthesised expression is its inner expression with the parentheses in
//! its range (which is how a `(key)` is told from a bare `key`).
//!
//! Where a construct has sub-expressions they are one list in source order
//! (`Operation::operands`, `Template::expressions`, `ForExpr::body`), and the
//! structure refers to them by position, so that a reader looking for
//! references walks one list and never needs the structure.

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
    /// JSON string holding `${`/`%{`, which is left unparsed: see [`Template`]).
    Template(Template),
    Array(Vec<Expr>),
    Object(Vec<ObjectItem>),
    /// A reference such as `var.x`, `aws_instance.web.id`, `each.key`, `tags`.
    Traversal(Traversal),
    /// A function call, e.g. `merge(a, b)` or `provider::aws::arn_parse(x)`.
    Call(Call),
    /// A `for` expression or a `%{ for }` template directive, with the scope
    /// of the names it binds.
    For(ForExpr),
    /// An operator, a conditional, or attribute, index and splat steps
    /// applied to something other than a name.
    Operation(Operation),
}

/// An operator, a conditional or steps applied to a computed value, with its
/// operands in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    pub kind: OperationKind,
    /// The sub-expressions in source order; [`OperationKind`] says which is which.
    pub operands: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OperationKind {
    /// `-x`, `!x`: one operand.
    Unary(UnaryOperator),
    /// `a + b`, `a && b`, `a == b`, …: the left and right operands.
    Binary(BinaryOperator),
    /// `c ? a : b`: the condition, the true result, the false result.
    Conditional,
    /// Steps applied to a value that is not a name (`f(x)[0].a`, `(a).b`,
    /// `[1, 2][*]`): the first operand is that value, then one operand per
    /// [`RelativeStep::Index`], in order.
    Steps(Vec<RelativeStep>),
    /// An expression nested too deeply for the parser to keep (its brackets
    /// were flattened so the rest of the file could be read): no operands,
    /// and no value anyone can know.
    TooDeep,
    /// A template read on its own that does not parse (a JSON string whose
    /// content is no valid template): HCL's errors parsing it, which
    /// OpenTofu reports where it evaluates the string (HCL's JSON syntax
    /// parses a string when its value is asked for); no operands, an
    /// unknown value.
    SyntaxErrors(Vec<TemplateSyntaxError>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOperator {
    /// `-`
    Negate,
    /// `!`
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOperator {
    Equal,
    NotEqual,
    LessThan,
    LessThanOrEqual,
    GreaterThan,
    GreaterThanOrEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    And,
    Or,
}

impl BinaryOperator {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOperator::Equal => "==",
            BinaryOperator::NotEqual => "!=",
            BinaryOperator::LessThan => "<",
            BinaryOperator::LessThanOrEqual => "<=",
            BinaryOperator::GreaterThan => ">",
            BinaryOperator::GreaterThanOrEqual => ">=",
            BinaryOperator::Add => "+",
            BinaryOperator::Subtract => "-",
            BinaryOperator::Multiply => "*",
            BinaryOperator::Divide => "/",
            BinaryOperator::Modulo => "%",
            BinaryOperator::And => "&&",
            BinaryOperator::Or => "||",
        }
    }
}

/// One step of [`OperationKind::Steps`].
#[derive(Clone, Debug, PartialEq)]
pub enum RelativeStep {
    /// `.name`; the range is the name's.
    Attr { name: String, range: TextRange },
    /// `[key]`, the key being the next operand; the range covers the brackets.
    Index { range: TextRange },
    /// `.0`, HCL's legacy index; the range covers the dot.
    LegacyIndex { index: String, range: TextRange },
    /// `.*` or `[*]`.
    Splat { kind: SplatKind, range: TextRange },
}

/// Which splat: HCL's attribute-only `.*` applies the attribute steps that
/// follow it (and legacy indexes) to each element; the full `[*]` applies
/// every step that follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplatKind {
    /// `.*`
    Attribute,
    /// `[*]`
    Full,
}

/// A template: a native quoted string or heredoc with interpolations or
/// directives, or a template read on its own ([`crate::parse_template`]).
///
/// The parts are what HCL's parser leaves of the text: strip markers (`~`)
/// have trimmed the literals next to them (for a heredoc or a template read
/// on its own, up to the end of the line, as HCL trims one line token), a
/// `<<-` heredoc's indentation is gone, escapes are decoded, and consecutive
/// literals are joined. A literal a marker emptied stays (an empty string),
/// as in HCL: `"${x ~} "` is a string, not `x` itself.
///
/// A JSON string holding `${` or `%{` in a JSON file is left unparsed here
/// (both lists empty): its content is read with [`crate::parse_template`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Template {
    /// Every expression in source order: interpolations, `%{ if }`
    /// conditions (with those of their branches), and each `%{ for }`
    /// directive as one `For` expression of [`ForKind::Directive`].
    pub expressions: Vec<Expr>,
    /// The template's structure; it refers to `expressions` by position.
    pub parts: Vec<TemplatePart>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TemplatePart {
    Literal(String),
    /// `${ … }`: the expression at this position.
    Interpolation {
        expression: usize,
        strip: Strip,
    },
    /// `%{ if … }…%{ else }…%{ endif }`; the branches refer to the same
    /// expression list as the template holding them.
    If {
        condition: usize,
        then: Vec<TemplatePart>,
        otherwise: Option<Vec<TemplatePart>>,
        /// The markers of `%{ if }`, `%{ else }` (when there is one) and `%{ endif }`.
        strip: [Strip; 3],
    },
    /// `%{ for … }…%{ endfor }`: the `For` expression at this position,
    /// whose [`ForExpr::template`] is the body.
    For {
        directive: usize,
        /// The markers of `%{ for }` and `%{ endfor }`.
        strip: [Strip; 2],
    },
}

/// The strip markers of one template sequence: `${~` or `%{~` (`before`:
/// trims the whitespace before it) and `~}` (`after`: trims after it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strip {
    pub before: bool,
    pub after: bool,
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
    /// of a `for` expression, or the expressions of a directive's body (a
    /// [`Template`]'s `expressions`).
    pub body: Vec<Expr>,
    /// `{for … : KEY => VALUE...}`: values with the same key are grouped.
    pub grouping: bool,
    /// A directive's body, referring to `body` by position; empty for a
    /// `for` expression.
    pub template: Vec<TemplatePart>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ObjectItem {
    pub key: Expr,
    pub value: Expr,
    /// A property of an object written in JSON: its name is a template,
    /// and HCL's JSON syntax reports a name it cannot use ("Invalid object
    /// key expression") and a name given twice ("Duplicate object
    /// attribute") where native syntax does not.
    pub json: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Traversal {
    pub root: String,
    pub root_range: TextRange,
    pub steps: Vec<TraversalStep>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TraversalStep {
    /// `.name`; the range is the name's.
    Attr {
        name: String,
        range: TextRange,
    },
    /// `[key]` (the range covers the brackets), or HCL's legacy `.0` (the
    /// range covers the dot and ends with the key: [`TraversalStep::is_legacy_index`]).
    Index {
        key: Box<Expr>,
        range: TextRange,
    },
    Splat {
        range: TextRange,
        kind: SplatKind,
    },
}

impl TraversalStep {
    /// `.0` rather than `[0]`: the step ends where its key ends.
    pub fn is_legacy_index(&self) -> bool {
        matches!(self, TraversalStep::Index { key, range } if key.range.end == range.end)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The full name, namespaces joined with `::`.
    pub name: String,
    pub name_range: TextRange,
    pub args: Vec<Expr>,
    /// `f(a, list...)`: the last argument's elements are the arguments.
    pub expand_final: bool,
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
            ExprKind::Template(Template {
                expressions: children,
                ..
            })
            | ExprKind::Array(children)
            | ExprKind::Operation(Operation {
                operands: children, ..
            }) => {
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

/// One of HCL's errors parsing a template on its own
/// ([`crate::parse_template`]). Some details name the place of a directive
/// ("The if directive at main.tf.json:5,11-23 is missing …"), which only
/// the file's name and lines can say: [`TemplateSyntaxError::detail_with`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateSyntaxError {
    pub summary: String,
    /// The detail, or its part before the place it names.
    pub detail: String,
    pub range: TextRange,
    /// The place the detail names and the detail's text after it.
    pub place: Option<(TextRange, String)>,
}

impl TemplateSyntaxError {
    /// The detail, with the place it names written by `describe` (HCL's
    /// `Range.String()`: `main.tf.json:5,11-23`).
    pub fn detail_with(&self, describe: impl Fn(TextRange) -> String) -> String {
        match &self.place {
            Some((range, rest)) => format!("{}{}{rest}", self.detail, describe(*range)),
            None => self.detail.clone(),
        }
    }
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

//! Colours: what each piece of a file is, for semantic highlighting. Block
//! types, labels (as the declarations they name, or the types they give),
//! argument names, references by what they refer to (input variables, local
//! values, resources, data sources, module calls, and `each`, `count`,
//! `self`, `path`, `terraform`), names a `for` or a `dynamic` block binds,
//! functions, type constraints, strings, heredocs, numbers, keywords and
//! comments.
//!
//! Two sources, laid over each other: the lexer ([`crate::lexer`]) finds
//! what the syntax model does not keep (comments, the literal pieces of
//! strings, heredoc markers and lines, numbers, keywords), and the model
//! says what names are (a block type, an argument, `var.region`). Where the
//! model names something, its kind wins; a reference inside a JSON string
//! cuts the string around it. Native and JSON files alike: a JSON string
//! holding `${` is read as the template OpenTofu reads (skipped when it has
//! escapes, whose offsets would not map one to one). A bare `T.N` is a
//! resource only when the module declares one (as for references and
//! rename), so a file OpenTofu does not load colours none.
//!
//! The output is sorted and never overlaps; ranges are byte offsets and may
//! span lines (a `/* */` comment): cutting them per line is the protocol's
//! business.

use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::{BlockAddress, ResourceMode};
use tofu_syntax::TraversalStep;
use tofu_syntax::{
    Block, Body, Expr, ExprKind, Operation, SourceFile, Syntax, Template, TextRange, Traversal,
};

use crate::lexer::{lex_json, lex_native, LexKind, Lexeme};
use crate::snapshot::Snapshot;

/// What a piece of text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HighlightKind {
    /// `true`, `false`, `null`, and `for`, `in`, `if`, `else`, `endif`,
    /// `endfor` in expressions and template directives.
    Keyword,
    /// A block's type: `resource`, `variable`, `ingress`, `lifecycle`.
    BlockType,
    /// A label that names a type (`"aws_instance"`, a provider's name, a
    /// backend's type, a `dynamic` block's type).
    TypeLabel,
    /// The name a declaration gives: its label, or a local value's name.
    Declaration(NameKind),
    /// An argument's name (`ami = …`).
    Argument,
    /// A key of an object written as a bare name (`{ Name = … }`), or any
    /// key of a JSON object.
    ObjectKey,
    /// A reference, from its root to the name it refers to (`var.region`,
    /// `aws_instance.web`, `data.aws_ami.ubuntu`).
    Reference(NameKind),
    /// `each`, `count`, `self`, `path`, `terraform` and `tofu`.
    BuiltinObject,
    /// An attribute read after a reference (`.id` in `aws_instance.web.id`).
    Property,
    /// A name bound by a `for` expression or directive, or a `dynamic`
    /// block's iterator, where it is bound and where it is read.
    IteratorName,
    Function,
    /// A type in a variable's `type` constraint (`string`, `list`, `object`).
    TypeName,
    /// A literal piece of a string.
    String,
    /// `<<EOT`, `<<-EOT` and the closing `EOT`; a heredoc's lines are
    /// [`HighlightKind::String`].
    HeredocMarker,
    Number,
    Comment,
}

/// What a declaration declares, or a reference refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    Variable,
    Local,
    /// A managed or ephemeral resource.
    Resource,
    DataSource,
    ModuleCall,
    Output,
}

/// One coloured piece of text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    pub kind: HighlightKind,
}

/// Words the lexer finds that are keywords wherever the model does not give
/// them another meaning.
const KEYWORDS: [&str; 9] = [
    "true", "false", "null", "for", "in", "if", "else", "endif", "endfor",
];

impl Snapshot {
    /// The highlights of the file at `path`, sorted; only those that overlap
    /// `within`, when given. `None` for a file no analysis holds.
    pub fn semantic_tokens(
        &self,
        path: &Path,
        within: Option<TextRange>,
    ) -> Option<Vec<Highlight>> {
        let parsed = self.parsed_file(path)?;
        let mut highlights = highlights(parsed.text, &parsed.source, parsed.loaded_module());
        if let Some(within) = within {
            highlights.retain(|highlight| {
                highlight.range.start < within.end && within.start < highlight.range.end
            });
        }
        Some(highlights)
    }
}

/// Every highlight of one file, sorted, none overlapping another.
pub(crate) fn highlights(
    text: &str,
    source: &SourceFile,
    module: Option<&ModuleAnalysis>,
) -> Vec<Highlight> {
    let json = source.syntax == Syntax::Json;
    let lexemes = if json {
        json_lexemes(text)
    } else {
        lex_native(text)
    };
    let mut names = Names {
        text,
        json,
        module,
        scope: Vec::new(),
        shift: 0,
        out: Vec::new(),
    };
    names.body(&source.body, None);
    let named = names.out;
    merge(text, &lexemes, named)
}

/// The lexemes of a JSON file, a string OpenTofu reads as a template (one
/// holding `${` or `%{`, without escapes) cut as the native quoted template
/// it is, so its interpolations are not string.
fn json_lexemes(text: &str) -> Vec<Lexeme> {
    let mut out = Vec::new();
    for lexeme in lex_json(text) {
        let written = lexeme.range.slice(text);
        let template = lexeme.kind == LexKind::String
            && (written.contains("${") || written.contains("%{"))
            && !written.contains('\\');
        if template {
            out.extend(lex_native(written).into_iter().map(|inner| Lexeme {
                range: inner.range.shifted(lexeme.range.start),
                kind: inner.kind,
            }));
        } else {
            out.push(lexeme);
        }
    }
    out
}

/// Where an expression stands, as far as colours go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Context {
    Value,
    /// A variable's `type`: bare names and calls are types.
    TypeConstraint,
}

/// The block that holds a body, and whether it is a top-level block.
#[derive(Clone, Copy)]
struct Owner<'a> {
    block: &'a Block,
    top: bool,
}

/// What the model says the names of a file are.
struct Names<'a> {
    text: &'a str,
    json: bool,
    module: Option<&'a ModuleAnalysis>,
    /// Names bound by the enclosing `for` expressions and `dynamic` blocks.
    scope: Vec<String>,
    /// Added to every range: set while a JSON string is read as a template.
    shift: u32,
    out: Vec<Highlight>,
}

impl<'a> Names<'a> {
    fn push(&mut self, range: TextRange, kind: HighlightKind) {
        self.out.push(Highlight {
            range: range.shifted(self.shift),
            kind,
        });
    }

    fn body(&mut self, body: &'a Body, owner: Option<Owner<'a>>) {
        let owner_kind = owner.map(|owner| (owner.block.kind.as_str(), owner.top));
        for attr in &body.attributes {
            let name_kind = match owner_kind {
                Some(("locals", true)) => HighlightKind::Declaration(NameKind::Local),
                _ => HighlightKind::Argument,
            };
            self.push(attr.name_range, name_kind);
            let context = match owner_kind {
                Some(("variable", true)) if attr.name == "type" => Context::TypeConstraint,
                _ => Context::Value,
            };
            self.expr(&attr.expr, context);
        }
        for block in &body.blocks {
            self.block(block, owner.is_none(), owner_kind.map(|(kind, _)| kind));
        }
    }

    fn block(&mut self, block: &'a Block, top: bool, parent_kind: Option<&str>) {
        self.push(block.kind_range, HighlightKind::BlockType);
        for (index, label) in block.labels.iter().enumerate() {
            let kind = label_kind(&block.kind, index, top || parent_kind == Some("check"));
            self.push(label.range, kind);
        }
        // `dynamic "ingress"` binds `ingress` (or its `iterator`) in `content`.
        let bound = (block.kind == "dynamic")
            .then(|| {
                block
                    .body
                    .attribute("iterator")
                    .and_then(|attr| attr.expr.as_keyword())
                    .or_else(|| block.label(0))
            })
            .flatten();
        if let Some(bound) = bound {
            self.scope.push(bound.to_owned());
        }
        self.body(&block.body, Some(Owner { block, top }));
        if bound.is_some() {
            self.scope.pop();
        }
    }

    fn expr(&mut self, expr: &Expr, context: Context) {
        match &expr.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
            ExprKind::Template(Template {
                expressions: parts, ..
            }) => {
                if self.json {
                    self.json_template(expr);
                } else {
                    for part in parts {
                        self.expr(part, Context::Value);
                    }
                }
            }
            ExprKind::Array(items) => {
                for item in items {
                    self.expr(item, context);
                }
            }
            ExprKind::Object(items) => {
                for item in items {
                    let bare_name =
                        matches!(&item.key.kind, ExprKind::Traversal(t) if t.steps.is_empty());
                    let json_key = self.json
                        && matches!(item.key.kind, ExprKind::String(_) | ExprKind::Template(_));
                    if bare_name || json_key {
                        self.push(item.key.range, HighlightKind::ObjectKey);
                    } else {
                        self.expr(&item.key, Context::Value);
                    }
                    self.expr(&item.value, context);
                }
            }
            ExprKind::Traversal(traversal) => self.traversal(traversal, context),
            ExprKind::Call(call) => {
                let kind = match context {
                    Context::TypeConstraint => HighlightKind::TypeName,
                    Context::Value => HighlightKind::Function,
                };
                self.push(call.name_range, kind);
                for arg in &call.args {
                    self.expr(arg, context);
                }
            }
            ExprKind::For(for_expr) => {
                self.expr(&for_expr.collection, context);
                for (name, range) in &for_expr.names {
                    self.push(*range, HighlightKind::IteratorName);
                    self.scope.push(name.clone());
                }
                for part in &for_expr.body {
                    self.expr(part, context);
                }
                for _ in &for_expr.names {
                    self.scope.pop();
                }
            }
            ExprKind::Operation(Operation {
                operands: children, ..
            }) => {
                for child in children {
                    self.expr(child, context);
                }
            }
        }
    }

    /// A JSON string holding `${` or `%{`: its content read as a template,
    /// ranges mapped back into the file.
    fn json_template(&mut self, expr: &Expr) {
        let written = expr.range.slice(self.text);
        if written.len() < 2 || !written.starts_with('"') || !written.ends_with('"') {
            return;
        }
        if written.contains('\\') {
            return;
        }
        let Some(content) = written.get(1..written.len() - 1) else {
            return;
        };
        let Ok(template) = tofu_syntax::parse_template(content) else {
            return;
        };
        let saved = self.shift;
        self.shift = saved + expr.range.start + 1;
        if let ExprKind::Template(Template {
            expressions: parts, ..
        }) = &template.kind
        {
            // The template's expressions are native syntax.
            let saved_json = std::mem::replace(&mut self.json, false);
            for part in parts {
                self.expr(part, Context::Value);
            }
            self.json = saved_json;
        }
        self.shift = saved;
    }

    fn traversal(&mut self, traversal: &Traversal, context: Context) {
        let root = traversal.root.as_str();
        if context == Context::TypeConstraint && traversal.steps.is_empty() {
            self.push(traversal.root_range, HighlightKind::TypeName);
            return;
        }
        if self.scope.iter().any(|name| name == root) {
            self.push(traversal.root_range, HighlightKind::IteratorName);
            self.steps(&traversal.steps, 0);
            return;
        }
        let attr_name = |index: usize| match traversal.steps.get(index) {
            Some(TraversalStep::Attr { name, range }) => Some((name.as_str(), *range)),
            _ => None,
        };
        let (kind, n_steps) = match root {
            "var" => (HighlightKind::Reference(NameKind::Variable), 1),
            "local" => (HighlightKind::Reference(NameKind::Local), 1),
            "module" => (HighlightKind::Reference(NameKind::ModuleCall), 1),
            "data" => (HighlightKind::Reference(NameKind::DataSource), 2),
            "resource" | "ephemeral" => (HighlightKind::Reference(NameKind::Resource), 2),
            "each" | "count" | "self" | "path" | "terraform" | "tofu" => {
                (HighlightKind::BuiltinObject, 0)
            }
            _ => match attr_name(0) {
                Some((name, _)) if self.declares_resource(root, name) => {
                    (HighlightKind::Reference(NameKind::Resource), 1)
                }
                _ => {
                    self.steps(&traversal.steps, 0);
                    return;
                }
            },
        };
        let mut range = traversal.root_range;
        let mut covered = 0;
        while covered < n_steps {
            let Some((_, step_range)) = attr_name(covered) else {
                break;
            };
            range = range.cover(step_range);
            covered += 1;
        }
        self.push(range, kind);
        self.steps(&traversal.steps, covered);
    }

    /// The steps of a traversal from `from` on: attribute names, and the
    /// expressions of index keys.
    fn steps(&mut self, steps: &[TraversalStep], from: usize) {
        for step in steps.iter().skip(from) {
            match step {
                TraversalStep::Attr { range, .. } => self.push(*range, HighlightKind::Property),
                TraversalStep::Index { key, .. } => self.expr(key, Context::Value),
                TraversalStep::Splat { .. } => {}
            }
        }
    }

    /// True when the module declares the managed resource `type_name.name`.
    fn declares_resource(&self, type_name: &str, name: &str) -> bool {
        self.module.is_some_and(|module| {
            module
                .effective
                .get(&BlockAddress::Resource {
                    mode: ResourceMode::Managed,
                    type_name: type_name.to_owned(),
                    name: name.to_owned(),
                })
                .is_some()
        })
    }
}

/// What the label at `index` of a block of type `kind` is. `declares` is
/// true where the block declares something (at the top level, and a `data`
/// block in a `check`).
fn label_kind(kind: &str, index: usize, declares: bool) -> HighlightKind {
    if !declares {
        return HighlightKind::TypeLabel;
    }
    match (kind, index) {
        ("resource" | "ephemeral", 1) => HighlightKind::Declaration(NameKind::Resource),
        ("data", 1) => HighlightKind::Declaration(NameKind::DataSource),
        ("variable", 0) => HighlightKind::Declaration(NameKind::Variable),
        ("output", 0) => HighlightKind::Declaration(NameKind::Output),
        ("module", 0) => HighlightKind::Declaration(NameKind::ModuleCall),
        _ => HighlightKind::TypeLabel,
    }
}

/// The model's highlights over the lexer's: where the model names a range,
/// the lexemes it covers give way (a string around it is cut); the lexer's
/// words are kept only where they are keywords.
fn merge(text: &str, lexemes: &[Lexeme], mut named: Vec<Highlight>) -> Vec<Highlight> {
    named.retain(|highlight| {
        let range = highlight.range;
        !range.is_empty()
            && (range.end as usize) <= text.len()
            && text.is_char_boundary(range.start as usize)
            && text.is_char_boundary(range.end as usize)
    });
    named.sort_by_key(|highlight| {
        (
            highlight.range.start,
            std::cmp::Reverse(highlight.range.end),
        )
    });
    let mut kept: Vec<Highlight> = Vec::with_capacity(named.len());
    for highlight in named {
        let overlaps = kept
            .last()
            .is_some_and(|last| highlight.range.start < last.range.end);
        if !overlaps {
            kept.push(highlight);
        }
    }
    let mut out = Vec::with_capacity(kept.len() + lexemes.len());
    let mut first_named = 0;
    for lexeme in lexemes {
        let range = lexeme.range;
        while kept
            .get(first_named)
            .is_some_and(|highlight| highlight.range.end <= range.start)
        {
            first_named += 1;
        }
        let covering = kept
            .get(first_named..)
            .unwrap_or_default()
            .iter()
            .take_while(|highlight| highlight.range.start < range.end);
        let kind = match lexeme.kind {
            LexKind::Comment => HighlightKind::Comment,
            LexKind::String | LexKind::HeredocText => HighlightKind::String,
            LexKind::HeredocMarker => HighlightKind::HeredocMarker,
            LexKind::Number => HighlightKind::Number,
            LexKind::Word => {
                let is_keyword = KEYWORDS.contains(&range.slice(text));
                if is_keyword && covering.count() == 0 {
                    out.push(Highlight {
                        range,
                        kind: HighlightKind::Keyword,
                    });
                }
                continue;
            }
        };
        let mut start = range.start;
        for highlight in covering {
            if highlight.range.start > start {
                out.push(Highlight {
                    range: TextRange::new(start, highlight.range.start),
                    kind,
                });
            }
            start = start.max(highlight.range.end);
        }
        if start < range.end {
            out.push(Highlight {
                range: TextRange::new(start, range.end),
                kind,
            });
        }
    }
    out.extend(kept);
    out.sort_by_key(|highlight| highlight.range.start);
    out
}

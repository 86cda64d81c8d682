//! HCL native syntax (`.tf`, `.tofu`) through `hcl-edit`, mapped onto the model.
//!
//! hcl-edit stops at the first syntax error. OpenTofu's parser recovers and keeps
//! the blocks around an error, and so do we, cheaply: after an error the file is
//! cut at lines that look like the start of a top-level block (an identifier in
//! column 1), the part before the broken block and the rest after it are parsed
//! again on their own, and the skipped span is recorded as `unrecovered`. Only the
//! first error of a file is reported: later ones may be artefacts of the cut.
//!
//! A leading UTF-8 BOM is skipped; offsets still count it.

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::{self as hcl, Structure};
use hcl_edit::template::{Directive, Element};
use hcl_edit::Span;

use crate::delimiters;
use crate::duplicate_keys;
use crate::model::*;
use crate::template::{self, Piece};
use crate::text::{to_u32, TextRange, BOM};

/// How many times one file is cut and re-parsed after errors before the rest of
/// it is given up (each attempt re-parses the remainder of the file).
const MAX_RECOVERY_ATTEMPTS: usize = 32;
/// How many earlier cut points are tried when the part before an error does not
/// parse either.
const MAX_PREFIX_ATTEMPTS: usize = 3;

pub(crate) fn parse(text: &str) -> SourceFile {
    let base = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let content = text.get(base..).unwrap_or_default();
    let mut file = SourceFile {
        syntax: Syntax::Native,
        body: Body::default(),
        errors: Vec::new(),
        unrecovered: Vec::new(),
    };
    parse_with_recovery(content, to_u32(base), &mut file, true);
    let repeats_a_key = file
        .errors
        .first()
        .is_some_and(|error| error.summary == DUPLICATE_OBJECT_KEY);
    if repeats_a_key {
        return parse_with_repeated_keys(content, to_u32(base)).unwrap_or(file);
    }
    file
}

/// hcl-edit's refusal of a repeated object key, in the words tofu-lens
/// reports it with when the key cannot be masked.
const DUPLICATE_OBJECT_KEY: &str = "Duplicate object key";

/// The file parsed again with its repeated object keys masked
/// ([`duplicate_keys`]), since HCL accepts them; `None` when they cannot
/// all be masked and restored.
fn parse_with_repeated_keys(content: &str, base: u32) -> Option<SourceFile> {
    let (masked, masks) = duplicate_keys::mask(content)?;
    let mut file = SourceFile {
        syntax: Syntax::Native,
        body: Body::default(),
        errors: Vec::new(),
        unrecovered: Vec::new(),
    };
    parse_with_recovery(&masked, base, &mut file, true);
    duplicate_keys::restore(&mut file.body, &masks, base).then_some(file)
}

/// Bracket groups this deep are flattened when hcl-edit refuses the nesting
/// (it stops at 64 levels, blocks and template sequences included; OpenTofu
/// reads thousands).
const FLATTEN_DEPTH: usize = 40;

fn parse_with_recovery(content: &str, base: u32, file: &mut SourceFile, may_flatten: bool) {
    let mut start = 0usize;
    for _ in 0..MAX_RECOVERY_ATTEMPTS {
        let region = content.get(start..).unwrap_or_default();
        let region_base = base + to_u32(start);
        let error = match hcl_edit::parser::parse_body(region) {
            Ok(body) => {
                append(&mut file.body, convert_body(&body, region, region_base));
                return;
            }
            Err(error) => error,
        };
        if may_flatten && start == 0 && error.to_string().contains("nesting depth") {
            if let Some((flat, groups)) = delimiters::flatten_deep(content, FLATTEN_DEPTH) {
                parse_with_recovery(&flat, base, file, false);
                let groups: Vec<TextRange> = groups.iter().map(|g| g.shifted(base)).collect();
                forget_flattened_values(&mut file.body, &groups);
                return;
            }
        }
        // hcl-edit may report an offset inside a multi-byte character: move it
        // back to the start of that character.
        let mut error_offset = start + error.location().offset().min(region.len());
        while error_offset > start && !content.is_char_boundary(error_offset) {
            error_offset -= 1;
        }
        if file.errors.is_empty() {
            match delimiter_errors(content, error_offset, error.message()) {
                Some(errors) => file.errors.extend(errors.into_iter().map(|mut error| {
                    error.range = error.range.shifted(base);
                    error
                })),
                None => file
                    .errors
                    .push(syntax_error(&error, content, error_offset, base)),
            }
        }
        let cut = recover_prefix(content, start, error_offset, base, file);
        match next_block_start(content, error_offset) {
            Some(next) if next > start => {
                file.unrecovered
                    .push(TextRange::from_usize(cut, next).shifted(base));
                start = next;
            }
            _ => {
                file.unrecovered
                    .push(TextRange::from_usize(cut, content.len()).shifted(base));
                return;
            }
        }
    }
    file.unrecovered
        .push(TextRange::from_usize(start, content.len()).shifted(base));
}

/// Attributes whose value held a flattened group: their model value would
/// be a stand-in, so it becomes [`OperationKind::TooDeep`].
fn forget_flattened_values(body: &mut Body, groups: &[TextRange]) {
    for attr in &mut body.attributes {
        let range = attr.expr.range;
        if groups
            .iter()
            .any(|group| range.start <= group.start && group.end <= range.end)
        {
            attr.expr.kind = ExprKind::Operation(Operation {
                kind: OperationKind::TooDeep,
                operands: Vec::new(),
            });
        }
    }
    for block in &mut body.blocks {
        forget_flattened_values(&mut block.body, groups);
    }
}

/// HCL's errors for an unclosed or mismatched delimiter ([`delimiters`]),
/// when the one the scan finds explains hcl-edit's error at `error_offset`:
/// it lies before it or on its line (hcl-edit often stops at the end of the
/// file, or backs up to the start of an argument), or it is a heredoc and
/// hcl-edit says so.
fn delimiter_errors(content: &str, error_offset: usize, message: &str) -> Option<Vec<SyntaxError>> {
    let problem = delimiters::first_problem(content)?;
    let at = problem.offset();
    let same_line = || {
        let (low, high) = (at.min(error_offset), at.max(error_offset));
        content
            .get(low..high)
            .is_some_and(|between| !between.contains('\n'))
    };
    let explains = match problem {
        delimiters::Problem::UnterminatedHeredoc => message.contains("heredoc"),
        _ => at <= error_offset || same_line(),
    };
    explains.then(|| problem.errors(content))
}

/// Parses the longest part of `content[start..error_offset]` that ends before a
/// top-level block start and parses cleanly; returns where that part ends.
fn recover_prefix(
    content: &str,
    start: usize,
    error_offset: usize,
    base: u32,
    file: &mut SourceFile,
) -> usize {
    let candidates: Vec<usize> = block_starts(content, start)
        .take_while(|&cut| cut <= error_offset)
        .filter(|&cut| cut > start)
        .collect();
    for &cut in candidates.iter().rev().take(MAX_PREFIX_ATTEMPTS) {
        let Some(prefix) = content.get(start..cut) else {
            continue;
        };
        if let Ok(body) = hcl_edit::parser::parse_body(prefix) {
            append(
                &mut file.body,
                convert_body(&body, prefix, base + to_u32(start)),
            );
            return cut;
        }
    }
    start
}

/// Offsets (at or after `from`) of lines that start with an identifier in column 1.
fn block_starts(content: &str, from: usize) -> impl Iterator<Item = usize> + '_ {
    let bytes = content.as_bytes();
    (from..content.len()).filter(move |&i| {
        let at_line_start = i == 0 || bytes.get(i - 1) == Some(&b'\n');
        at_line_start
            && bytes
                .get(i)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    })
}

fn next_block_start(content: &str, after: usize) -> Option<usize> {
    block_starts(content, after.saturating_add(1)).next()
}

fn append(into: &mut Body, from: Body) {
    into.attributes.extend(from.attributes);
    into.blocks.extend(from.blocks);
}

fn syntax_error(
    error: &hcl_edit::parser::Error,
    content: &str,
    offset: usize,
    base: u32,
) -> SyntaxError {
    let message = error.message();
    let duplicate_argument = message.contains("redefined attribute");
    let at = content.get(offset..).and_then(|rest| rest.chars().next());
    let rest_is_blank = content
        .get(offset..)
        .is_none_or(|rest| rest.trim().is_empty());
    let summary = if duplicate_argument {
        "Attribute redefined"
    } else if message.contains("redefined object key") {
        DUPLICATE_OBJECT_KEY
    } else if matches!(at, Some('\r' | '\0'))
        || at.is_some_and(|c| c.is_control() && c != '\n' && c != '\t')
    {
        "Invalid character"
    } else if rest_is_blank {
        "Unclosed configuration block"
    } else if message.contains("escape sequence") {
        "Invalid escape sequence"
    } else if message.contains("expected newline") || message.starts_with("expected newline") {
        if at == Some('}') {
            "Argument or block definition required"
        } else {
            "Missing newline after argument"
        }
    } else if message.contains("unexpected token")
        || message.contains("invalid block body")
        || message.contains("expected identifier")
    {
        "Argument or block definition required"
    } else if message.contains("expression") || message.contains("expected") {
        "Invalid expression"
    } else {
        "Invalid syntax"
    };
    // HCL's details where its summary is certain; else hcl-edit's message.
    let hcl_detail = match summary {
        "Argument or block definition required" => {
            Some("An argument or block definition is required here.")
        }
        "Missing newline after argument" => Some("An argument definition must end with a newline."),
        "Invalid expression" => {
            Some("Expected the start of an expression, but found an invalid expression token.")
        }
        _ => None,
    };
    let detail = if duplicate_argument {
        "The argument is already set in this body; each argument may be set only once.".to_owned()
    } else if let Some(detail) = hcl_detail {
        detail.to_owned()
    } else {
        let mut detail = message.to_owned();
        if let Some(first) = detail.get(..1) {
            let upper = first.to_uppercase();
            detail.replace_range(..1, &upper);
        }
        if !detail.ends_with('.') {
            detail.push('.');
        }
        detail
    };
    // Point at the offending token rather than at a single byte.
    let end = content
        .get(offset..)
        .map(|rest| {
            let token_len = rest
                .char_indices()
                .find(|(_, c)| c.is_whitespace())
                .map(|(i, _)| i)
                .unwrap_or(rest.len());
            offset + token_len.max(rest.chars().next().map_or(0, char::len_utf8))
        })
        .unwrap_or(offset);
    SyntaxError {
        summary: summary.to_owned(),
        detail,
        range: TextRange::from_usize(offset, end).shifted(base),
        duplicate_argument,
    }
}

/// Converts spans of one parsed region: `text` is the region, `base` its offset in
/// the file.
struct Converter<'a> {
    text: &'a str,
    base: u32,
}

/// A template on its own (the content of a JSON string, which OpenTofu
/// reads as one), as a `Template` expression with ranges relative to
/// `source`; when it does not parse, HCL's errors for it
/// ([`template_errors`](crate::template_errors)), empty when they are not
/// known.
pub(crate) fn parse_template(source: &str) -> Result<Expr, Vec<TemplateSyntaxError>> {
    let errors = crate::template_errors::template_errors(source);
    if !errors.is_empty() {
        return Err(errors);
    }
    let template = hcl_edit::parser::parse_template(source).map_err(|_| Vec::new())?;
    let converter = Converter {
        text: source,
        base: 0,
    };
    let mut pieces = Vec::new();
    converter.template_pieces(template.iter(), Literals::Lines, &mut pieces);
    Ok(Expr {
        range: TextRange::from_usize(0, source.len()),
        kind: ExprKind::Template(template::build(pieces, false)),
    })
}

/// How a template's literals are cut into HCL's literal tokens.
#[derive(Clone, Copy)]
enum Literals {
    /// A quoted string: one token per literal, escapes decoded by hcl-edit.
    Quoted,
    /// A template read on its own: one token per line.
    Lines,
    /// A heredoc: one token per line, read from the source text (hcl-edit
    /// has already removed a `<<-` heredoc's indentation its own way).
    HeredocLines,
}

fn convert_body(body: &hcl::Body, text: &str, base: u32) -> Body {
    Converter { text, base }.body(body, None)
}

impl Converter<'_> {
    fn range(&self, span: Option<std::ops::Range<usize>>) -> TextRange {
        let span = span.unwrap_or(0..0);
        TextRange::from_usize(span.start, span.end).shifted(self.base)
    }

    fn local(&self, range: TextRange) -> TextRange {
        TextRange::new(
            range.start.saturating_sub(self.base),
            range.end.saturating_sub(self.base),
        )
    }

    fn body(&self, body: &hcl::Body, block_range: Option<(TextRange, TextRange)>) -> Body {
        let mut out = Body::default();
        if let Some((header, range)) = block_range {
            let local_header = self.local(header);
            let local_range = self.local(range);
            let open = self
                .text
                .get(local_header.end as usize..local_range.end as usize)
                .and_then(|rest| rest.find('{'))
                .map(|i| to_u32(i) + local_header.end);
            out.open = open.map(|at| TextRange::new(at, at + 1).shifted(self.base));
            if local_range.end > 0
                && self
                    .text
                    .get(local_range.end as usize - 1..local_range.end as usize)
                    == Some("}")
            {
                out.close = Some(TextRange::new(range.end - 1, range.end));
            }
        }
        for structure in body.iter() {
            match structure {
                Structure::Attribute(attr) => out.attributes.push(Attribute {
                    name: attr.key.as_str().to_owned(),
                    name_range: self.range(attr.key.span()),
                    range: self.range(attr.span()),
                    expr: self.expr(&attr.value),
                }),
                Structure::Block(block) => out.blocks.push(self.block(block)),
            }
        }
        out
    }

    fn block(&self, block: &hcl::Block) -> Block {
        let kind_range = self.range(block.ident.span());
        let labels: Vec<Label> = block
            .labels
            .iter()
            .map(|label| Label {
                value: label.as_str().to_owned(),
                range: self.range(label.span()),
            })
            .collect();
        let header = labels
            .last()
            .map_or(kind_range, |label| kind_range.cover(label.range));
        let range = self.range(block.span());
        Block {
            kind: block.ident.as_str().to_owned(),
            kind_range,
            labels,
            header,
            range,
            body: self.body(&block.body, Some((header, range))),
        }
    }

    fn expr(&self, expr: &Expression) -> Expr {
        let range = self.range(expr.span());
        let kind = match expr {
            Expression::Null(_) => ExprKind::Null,
            Expression::Bool(value) => ExprKind::Bool(*value.value()),
            Expression::Number(_) => {
                ExprKind::Number(self.local(range).slice(self.text).to_owned())
            }
            Expression::String(value) => ExprKind::String(value.value().clone()),
            Expression::Array(array) => {
                ExprKind::Array(array.iter().map(|e| self.expr(e)).collect())
            }
            Expression::Object(object) => ExprKind::Object(
                object
                    .iter()
                    .map(|(key, value)| ObjectItem {
                        key: match key {
                            ObjectKey::Ident(ident) => Expr {
                                range: self.range(ident.span()),
                                kind: ExprKind::Traversal(Traversal {
                                    root: ident.as_str().to_owned(),
                                    root_range: self.range(ident.span()),
                                    steps: Vec::new(),
                                }),
                            },
                            ObjectKey::Expression(key) => self.expr(key),
                        },
                        value: self.expr(value.expr()),
                        json: false,
                    })
                    .collect(),
            ),
            Expression::StringTemplate(template) => {
                let mut pieces = Vec::new();
                self.template_pieces(template.iter(), Literals::Quoted, &mut pieces);
                ExprKind::Template(template::build(pieces, false))
            }
            Expression::HeredocTemplate(heredoc) => {
                let flush = self.local(range).slice(self.text).starts_with("<<-");
                self.heredoc(&heredoc.template, flush)
            }
            Expression::Parenthesis(inner) => self.expr(inner.inner()).kind,
            Expression::Variable(ident) => ExprKind::Traversal(Traversal {
                root: ident.as_str().to_owned(),
                root_range: self.range(ident.span()),
                steps: Vec::new(),
            }),
            Expression::Traversal(traversal) => self.traversal(traversal, range),
            Expression::FuncCall(call) => {
                let name = &call.name;
                let mut full_name = String::new();
                for namespace in &name.namespace {
                    full_name.push_str(namespace.as_str());
                    full_name.push_str("::");
                }
                full_name.push_str(name.name.as_str());
                let name_start = name
                    .namespace
                    .first()
                    .map_or_else(|| self.range(name.name.span()), |ns| self.range(ns.span()));
                ExprKind::Call(Call {
                    name: full_name,
                    name_range: name_start.cover(self.range(name.name.span())),
                    args: call.args.iter().map(|arg| self.expr(arg)).collect(),
                    expand_final: call.args.expand_final(),
                })
            }
            Expression::Conditional(cond) => ExprKind::Operation(Operation {
                kind: OperationKind::Conditional,
                operands: vec![
                    self.expr(&cond.cond_expr),
                    self.expr(&cond.true_expr),
                    self.expr(&cond.false_expr),
                ],
            }),
            Expression::UnaryOp(op) => ExprKind::Operation(Operation {
                kind: OperationKind::Unary(match op.operator.value() {
                    hcl_edit::expr::UnaryOperator::Neg => UnaryOperator::Negate,
                    hcl_edit::expr::UnaryOperator::Not => UnaryOperator::Not,
                }),
                operands: vec![self.expr(&op.expr)],
            }),
            Expression::BinaryOp(op) => ExprKind::Operation(Operation {
                kind: OperationKind::Binary(binary_operator(*op.operator.value())),
                operands: vec![self.expr(&op.lhs_expr), self.expr(&op.rhs_expr)],
            }),
            Expression::ForExpr(for_expr) => {
                let intro = &for_expr.intro;
                let mut body: Vec<Expr> = for_expr.key_expr.iter().map(|e| self.expr(e)).collect();
                body.push(self.expr(&for_expr.value_expr));
                body.extend(for_expr.cond.as_ref().map(|c| self.expr(&c.expr)));
                ExprKind::For(ForExpr {
                    kind: if for_expr.key_expr.is_some() {
                        ForKind::Object
                    } else {
                        ForKind::Tuple
                    },
                    names: self.for_names(intro.key_var.as_ref(), &intro.value_var),
                    collection: Box::new(self.expr(&intro.collection_expr)),
                    body,
                    grouping: for_expr.key_expr.is_some() && for_expr.grouping,
                    template: Vec::new(),
                })
            }
        };
        Expr { range, kind }
    }

    /// The names a `for` binds, key first.
    fn for_names(
        &self,
        key: Option<&hcl_edit::Decorated<hcl_edit::Ident>>,
        value: &hcl_edit::Decorated<hcl_edit::Ident>,
    ) -> Vec<(String, TextRange)> {
        key.into_iter()
            .chain(std::iter::once(value))
            .map(|name| (name.as_str().to_owned(), self.range(name.span())))
            .collect()
    }

    /// A traversal: a name's ([`Traversal`]), or steps applied to a
    /// computed value ([`OperationKind::Steps`]). HCL's number literals are
    /// never negative: `-1[*]` is `-(1[*])`, the steps applied to the
    /// number and the result negated, where hcl-edit folds the minus into
    /// the number.
    fn traversal(&self, traversal: &hcl_edit::expr::Traversal, range: TextRange) -> ExprKind {
        if let Expression::Number(number) = &traversal.expr {
            if let Some(unsigned) = self.without_folded_minus(self.range(number.span())) {
                let root = Expr {
                    range: unsigned,
                    kind: ExprKind::Number(self.local(unsigned).slice(self.text).to_owned()),
                };
                return ExprKind::Operation(Operation {
                    kind: OperationKind::Unary(UnaryOperator::Negate),
                    operands: vec![Expr {
                        range: TextRange::new(unsigned.start, range.end),
                        kind: self.steps(root, traversal),
                    }],
                });
            }
        }
        let Expression::Variable(root) = &traversal.expr else {
            return self.steps(self.expr(&traversal.expr), traversal);
        };
        let steps = traversal
            .operators
            .iter()
            .map(|operator| {
                let range = self.range(operator.span());
                match operator.value() {
                    TraversalOperator::GetAttr(name) => TraversalStep::Attr {
                        name: name.as_str().to_owned(),
                        range: self.range(name.span()),
                    },
                    TraversalOperator::Index(key) => TraversalStep::Index {
                        key: Box::new(self.expr(key)),
                        range,
                    },
                    TraversalOperator::LegacyIndex(index) => TraversalStep::Index {
                        key: Box::new(Expr {
                            range: self.range(index.span()),
                            kind: ExprKind::Number(index.value().to_string()),
                        }),
                        range,
                    },
                    TraversalOperator::AttrSplat(_) => TraversalStep::Splat {
                        range,
                        kind: SplatKind::Attribute,
                    },
                    TraversalOperator::FullSplat(_) => TraversalStep::Splat {
                        range,
                        kind: SplatKind::Full,
                    },
                }
            })
            .collect();
        ExprKind::Traversal(Traversal {
            root: root.as_str().to_owned(),
            root_range: self.range(root.span()),
            steps,
        })
    }

    /// The range of a number hcl-edit folded a minus into (`-1`, `- 1`,
    /// `-/* c */1`) without that minus and the blanks and inline comments
    /// after it; `None` for a number written without one.
    fn without_folded_minus(&self, number: TextRange) -> Option<TextRange> {
        let mut rest = self.local(number).slice(self.text).strip_prefix('-')?;
        loop {
            let trimmed = rest.trim_start_matches([' ', '\t']);
            match trimmed.strip_prefix("/*") {
                Some(comment) => rest = comment.split_once("*/").map_or("", |(_, after)| after),
                None => {
                    rest = trimmed;
                    break;
                }
            }
        }
        let start = number.end.saturating_sub(to_u32(rest.len()));
        Some(TextRange::new(start, number.end))
    }

    /// Steps applied to a computed value (`root`): an
    /// [`OperationKind::Steps`] whose first operand is `root`.
    fn steps(&self, root: Expr, traversal: &hcl_edit::expr::Traversal) -> ExprKind {
        let mut operands = vec![root];
        let mut steps = Vec::with_capacity(traversal.operators.len());
        for operator in &traversal.operators {
            let range = self.range(operator.span());
            steps.push(match operator.value() {
                TraversalOperator::GetAttr(name) => RelativeStep::Attr {
                    name: name.as_str().to_owned(),
                    range: self.range(name.span()),
                },
                TraversalOperator::Index(key) => {
                    operands.push(self.expr(key));
                    RelativeStep::Index { range }
                }
                TraversalOperator::LegacyIndex(index) => RelativeStep::LegacyIndex {
                    index: index.value().to_string(),
                    range,
                },
                TraversalOperator::AttrSplat(_) => RelativeStep::Splat {
                    kind: SplatKind::Attribute,
                    range,
                },
                TraversalOperator::FullSplat(_) => RelativeStep::Splat {
                    kind: SplatKind::Full,
                    range,
                },
            });
        }
        ExprKind::Operation(Operation {
            kind: OperationKind::Steps(steps),
            operands,
        })
    }

    /// A heredoc: a string when HCL leaves nothing but literal text.
    fn heredoc(&self, heredoc: &hcl_edit::template::Template, flush: bool) -> ExprKind {
        let mut pieces = Vec::new();
        self.template_pieces(heredoc.iter(), Literals::HeredocLines, &mut pieces);
        let template = template::build(pieces, flush);
        match template.parts.as_slice() {
            [] => ExprKind::String(String::new()),
            [TemplatePart::Literal(text)] => ExprKind::String(text.clone()),
            _ => ExprKind::Template(template),
        }
    }

    /// hcl-edit's template elements flattened into HCL's template tokens.
    fn template_pieces<'e>(
        &self,
        elements: impl Iterator<Item = &'e Element>,
        literals: Literals,
        out: &mut Vec<Piece>,
    ) {
        for element in elements {
            match element {
                Element::Literal(text) => match literals {
                    Literals::Quoted => out.push(Piece::Literal(text.value().clone())),
                    Literals::Lines => out.extend(
                        template::line_tokens(text.value())
                            .map(|line| Piece::Literal(line.to_owned())),
                    ),
                    Literals::HeredocLines => {
                        let raw = text.span().and_then(|span| self.text.get(span));
                        let raw = raw.map_or_else(|| text.value().clone(), unescape_markers);
                        out.extend(
                            template::line_tokens(&raw).map(|line| Piece::Literal(line.to_owned())),
                        );
                    }
                },
                Element::Interpolation(interpolation) => out.push(Piece::Interpolation {
                    expr: self.expr(&interpolation.expr),
                    strip: strip(interpolation.strip),
                }),
                Element::Directive(directive) => match directive.as_ref() {
                    Directive::If(if_directive) => {
                        out.push(Piece::If {
                            condition: self.expr(&if_directive.if_expr.cond_expr),
                            strip: strip(if_directive.if_expr.strip),
                        });
                        self.template_pieces(if_directive.if_expr.template.iter(), literals, out);
                        if let Some(else_expr) = &if_directive.else_expr {
                            out.push(Piece::Else {
                                strip: strip(else_expr.strip),
                            });
                            self.template_pieces(else_expr.template.iter(), literals, out);
                        }
                        out.push(Piece::EndIf {
                            strip: strip(if_directive.endif_expr.strip),
                        });
                    }
                    Directive::For(for_directive) => {
                        let for_expr = &for_directive.for_expr;
                        out.push(Piece::For {
                            directive: Expr {
                                range: self.range(for_directive.span()),
                                kind: ExprKind::For(ForExpr {
                                    kind: ForKind::Directive,
                                    names: self
                                        .for_names(for_expr.key_var.as_ref(), &for_expr.value_var),
                                    collection: Box::new(self.expr(&for_expr.collection_expr)),
                                    body: Vec::new(),
                                    grouping: false,
                                    template: Vec::new(),
                                }),
                            },
                            strip: strip(for_expr.strip),
                        });
                        self.template_pieces(for_expr.template.iter(), literals, out);
                        out.push(Piece::EndFor {
                            strip: strip(for_directive.endfor_expr.strip),
                        });
                    }
                },
            }
        }
    }
}

fn strip(strip: hcl_edit::template::Strip) -> Strip {
    Strip {
        before: strip.strip_start(),
        after: strip.strip_end(),
    }
}

/// A heredoc's literal as HCL decodes it: only `$${` and `%%{` are escapes.
fn unescape_markers(raw: &str) -> String {
    raw.replace("$${", "${").replace("%%{", "%{")
}

fn binary_operator(operator: hcl_edit::expr::BinaryOperator) -> BinaryOperator {
    use hcl_edit::expr::BinaryOperator as Hcl;
    match operator {
        Hcl::Eq => BinaryOperator::Equal,
        Hcl::NotEq => BinaryOperator::NotEqual,
        Hcl::LessEq => BinaryOperator::LessThanOrEqual,
        Hcl::GreaterEq => BinaryOperator::GreaterThanOrEqual,
        Hcl::Less => BinaryOperator::LessThan,
        Hcl::Greater => BinaryOperator::GreaterThan,
        Hcl::Plus => BinaryOperator::Add,
        Hcl::Minus => BinaryOperator::Subtract,
        Hcl::Mul => BinaryOperator::Multiply,
        Hcl::Div => BinaryOperator::Divide,
        Hcl::Mod => BinaryOperator::Modulo,
        Hcl::And => BinaryOperator::And,
        Hcl::Or => BinaryOperator::Or,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_labels_and_ranges() {
        let text = "resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n  tags { a = 1 }\n}\n";
        let file = parse(text);
        assert!(file.errors.is_empty(), "{:?}", file.errors);
        let block = &file.body.blocks[0];
        assert_eq!(block.kind, "resource");
        assert_eq!(
            block.header.slice(text),
            "resource \"aws_instance\" \"web\""
        );
        assert_eq!(block.labels[1].range.slice(text), "\"web\"");
        assert_eq!(block.body.open.unwrap().slice(text), "{");
        assert_eq!(block.body.close.unwrap().slice(text), "}");
        let attr = &block.body.attributes[0];
        assert_eq!(attr.range.slice(text), "ami = \"x\"");
        assert_eq!(attr.name_range.slice(text), "ami");
        assert_eq!(attr.expr.range.slice(text), "\"x\"");
        assert_eq!(attr.expr.as_str(), Some("x"));
        assert_eq!(block.body.blocks[0].kind, "tags");
    }

    #[test]
    fn repeated_object_keys_parse_as_written() {
        let text = "m = {\n  aws = 1\n  aws = 2\n  \"aws\" = 3\n  \"aws\" = 4\n  aws.a = 5\n  aws.a = 6\n  n = { b = 1, b = { b = 1, b = 2 } }\n}\nafter = 1\n";
        let file = parse(text);
        assert!(file.errors.is_empty(), "{:?}", file.errors);
        let attr = &file.body.attributes[0];
        let keys: Vec<&str> = attr
            .expr
            .as_object()
            .unwrap()
            .iter()
            .map(|item| item.key.range.slice(text))
            .collect();
        assert_eq!(
            keys,
            ["aws", "aws", "\"aws\"", "\"aws\"", "aws.a", "aws.a", "n"]
        );
        let mut names = Vec::new();
        attr.expr.walk(&mut |expr| match &expr.kind {
            ExprKind::Traversal(traversal) => names.push(traversal.root.clone()),
            ExprKind::String(value) => names.push(value.clone()),
            _ => {}
        });
        assert_eq!(
            names,
            ["aws", "aws", "aws", "aws", "aws", "aws", "n", "b", "b", "b", "b"]
        );
        assert_eq!(file.body.attributes[1].name, "after");
    }

    #[test]
    fn repeated_keys_without_a_name_stay_an_error() {
        let file = parse("m = {\n  \"\" = 1\n  \"\" = 2\n}\n");
        assert_eq!(file.errors.len(), 1);
        assert_eq!(file.errors[0].summary, "Duplicate object key");
    }

    #[test]
    fn bom_is_skipped_and_offsets_keep_it() {
        let text = "\u{feff}variable \"a\" {}\n";
        let file = parse(text);
        assert!(file.errors.is_empty());
        assert_eq!(file.body.blocks[0].kind_range, TextRange::new(3, 11));
    }

    #[test]
    fn blocks_around_an_error_are_recovered() {
        let text = "variable \"a\" {}\n\nresource \"x\" \"y\" {\n  a = = 1\n}\n\noutput \"o\" {\n  value = 1\n}\n";
        let file = parse(text);
        assert_eq!(file.errors.len(), 1);
        let kinds: Vec<&str> = file.body.blocks.iter().map(|b| b.kind.as_str()).collect();
        assert_eq!(kinds, ["variable", "output"]);
        assert_eq!(file.body.blocks[1].header.slice(text), "output \"o\"");
        assert_eq!(file.unrecovered.len(), 1);
        assert!(file.unrecovered[0].slice(text).starts_with("resource"));
    }

    #[test]
    fn error_ranges_stay_on_character_boundaries() {
        for text in [
            "a = \"é\u{1F600}\n",
            "a = é",
            "a = 1\u{1F600}",
            "x { \u{1F600} }",
        ] {
            let file = parse(text);
            for error in &file.errors {
                assert!(
                    text.is_char_boundary(error.range.start as usize),
                    "{text:?}: {:?}",
                    error.range
                );
                assert!(
                    text.is_char_boundary(error.range.end as usize),
                    "{text:?}: {:?}",
                    error.range
                );
            }
        }
    }

    #[test]
    fn redefined_attribute_is_a_duplicate_argument() {
        let file = parse("locals {\n  a = 1\n  a = 2\n}\n");
        assert!(file.errors[0].duplicate_argument);
        assert_eq!(file.errors[0].summary, "Attribute redefined");
    }

    fn value_of(text: &str) -> Expr {
        let file = parse(text);
        assert!(file.errors.is_empty(), "{text}: {:?}", file.errors);
        file.body.attributes[0].expr.clone()
    }

    fn operation(expr: &Expr) -> &Operation {
        match &expr.kind {
            ExprKind::Operation(operation) => operation,
            other => panic!("not an operation: {other:?}"),
        }
    }

    fn template(expr: &Expr) -> &Template {
        match &expr.kind {
            ExprKind::Template(template) => template,
            other => panic!("not a template: {other:?}"),
        }
    }

    fn literals(parts: &[TemplatePart]) -> Vec<&str> {
        parts
            .iter()
            .filter_map(|part| match part {
                TemplatePart::Literal(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_negated_number_with_steps_is_the_negation_of_the_steps() {
        for (text, operand, number) in [
            ("a = -1[*]\n", "1[*]", "1"),
            ("a = - /* c */ 2.5.a\n", "2.5.a", "2.5"),
            ("a = -0[*][0]\n", "0[*][0]", "0"),
        ] {
            let negation = value_of(text);
            assert_eq!(negation.range.slice(text), text[4..].trim_end());
            let negation = operation(&negation);
            assert_eq!(negation.kind, OperationKind::Unary(UnaryOperator::Negate));
            let steps = &negation.operands[0];
            assert_eq!(steps.range.slice(text), operand);
            let root = &operation(steps).operands[0];
            assert_eq!(root.kind, ExprKind::Number(number.to_owned()), "{text}");
            assert_eq!(root.range.slice(text), number);
        }
        // Parenthesised, the number is negative and the steps apply to it;
        // without steps, hcl-edit's folded number stays.
        let parenthesised = value_of("a = (-1)[*]\n");
        assert_eq!(
            operation(&parenthesised).operands[0].kind,
            ExprKind::Number("-1".to_owned())
        );
        assert_eq!(value_of("a = -1\n").kind, ExprKind::Number("-1".to_owned()));
    }

    #[test]
    fn operators_keep_their_kind_and_operands_in_order() {
        let text = "a = !x || 1 + 2 * 3 >= y ? \"p\" : -z\n";
        let conditional = value_of(text);
        let conditional = operation(&conditional);
        assert_eq!(conditional.kind, OperationKind::Conditional);
        assert_eq!(conditional.operands[1].as_str(), Some("p"));
        let or = operation(&conditional.operands[0]);
        assert_eq!(or.kind, OperationKind::Binary(BinaryOperator::Or));
        assert_eq!(
            operation(&or.operands[0]).kind,
            OperationKind::Unary(UnaryOperator::Not)
        );
        let at_least = operation(&or.operands[1]);
        assert_eq!(
            at_least.kind,
            OperationKind::Binary(BinaryOperator::GreaterThanOrEqual)
        );
        let sum = operation(&at_least.operands[0]);
        assert_eq!(sum.kind, OperationKind::Binary(BinaryOperator::Add));
        assert_eq!(
            operation(&sum.operands[1]).kind,
            OperationKind::Binary(BinaryOperator::Multiply)
        );
        assert_eq!(
            operation(&conditional.operands[2]).kind,
            OperationKind::Unary(UnaryOperator::Negate)
        );
    }

    #[test]
    fn steps_on_computed_values_and_splat_kinds() {
        let text = "a = f(x)[k].b.0[*].c\n";
        let expr = value_of(text);
        let steps = operation(&expr);
        let OperationKind::Steps(list) = &steps.kind else {
            panic!("{steps:?}");
        };
        assert_eq!(steps.operands.len(), 2);
        assert!(matches!(steps.operands[0].kind, ExprKind::Call(_)));
        assert_eq!(steps.operands[1].range.slice(text), "k");
        assert!(matches!(&list[0], RelativeStep::Index { range } if range.slice(text) == "[k]"));
        assert!(matches!(&list[1], RelativeStep::Attr { name, .. } if name == "b"));
        assert!(matches!(&list[2], RelativeStep::LegacyIndex { index, .. } if index == "0"));
        assert!(matches!(
            &list[3],
            RelativeStep::Splat {
                kind: SplatKind::Full,
                ..
            }
        ));
        let reference = value_of("a = var.x.*.b[0].1\n");
        let ExprKind::Traversal(traversal) = &reference.kind else {
            panic!("{reference:?}");
        };
        assert!(matches!(
            traversal.steps[1],
            TraversalStep::Splat {
                kind: SplatKind::Attribute,
                ..
            }
        ));
        assert!(!traversal.steps[3].is_legacy_index());
        assert!(traversal.steps[4].is_legacy_index());
    }

    #[test]
    fn parentheses_leave_no_node_but_their_range() {
        let text = "a = { (k) = 1, k = 2 }\n";
        let expr = value_of(text);
        let items = expr.as_object().unwrap();
        assert_eq!(items[0].key.range.slice(text), "(k)");
        assert!(
            matches!(&items[0].key.kind, ExprKind::Traversal(t) if t.root_range.slice(text) == "k")
        );
        assert_eq!(items[1].key.range.slice(text), "k");
    }

    #[test]
    fn templates_keep_literals_directives_and_strip_markers() {
        let text =
            "a = \"x ${~ v ~} y%{ if c }t%{ else }e%{ endif }%{ for i in l }${i},%{ endfor }\"\n";
        let expr = value_of(text);
        let template = template(&expr);
        let names: Vec<&str> = template
            .expressions
            .iter()
            .map(|e| e.range.slice(text))
            .collect();
        assert_eq!(names, ["v", "c", "%{ for i in l }${i},%{ endfor }"]);
        assert_eq!(literals(&template.parts), ["x", "y"]);
        assert!(matches!(
            &template.parts[1],
            TemplatePart::Interpolation {
                expression: 0,
                strip: Strip {
                    before: true,
                    after: true
                }
            }
        ));
        let TemplatePart::If {
            condition: 1,
            then,
            otherwise: Some(otherwise),
            ..
        } = &template.parts[3]
        else {
            panic!("{:?}", template.parts);
        };
        assert_eq!(
            (literals(then), literals(otherwise)),
            (vec!["t"], vec!["e"])
        );
        let ExprKind::For(directive) = &template.expressions[2].kind else {
            panic!();
        };
        assert_eq!(directive.kind, ForKind::Directive);
        assert_eq!(directive.body[0].range.slice(text), "i");
        assert_eq!(literals(&directive.template), [","]);
    }

    #[test]
    fn heredocs_strip_indentation_as_hcl_does() {
        // The blank line with two spaces does not count and stays as it is.
        let text = "a = <<-EOT\n    x\n  \n      y\n    EOT\n";
        assert_eq!(value_of(text).as_str(), Some("x\n  \n  y\n"));
        let text = "a = <<EOT\n%{ if c ~}\n  kept\n%{ endif ~}\nEOT\n";
        let expr = value_of(text);
        let TemplatePart::If { then, .. } = &template(&expr).parts[0] else {
            panic!();
        };
        assert_eq!(literals(then), ["  kept\n"]);
        assert_eq!(value_of("a = <<EOT\n$${x}\nEOT\n").as_str(), Some("${x}\n"));
        // A line whose newline a marker ate is no line start: OpenTofu 1.12.6
        // gives "      foo\n" (the flush sees only the directives' lines).
        let text = "a = <<-EOT\n    %{ if c ~}\n      foo\n    %{ endif ~}\n    EOT\n";
        let expr = value_of(text);
        let TemplatePart::If { then, .. } = &template(&expr).parts[1] else {
            panic!();
        };
        assert_eq!(literals(&template(&expr).parts), ["", ""]);
        assert_eq!(literals(then), ["      foo\n"]);
    }

    #[test]
    fn for_grouping_and_expanded_arguments() {
        let expr = value_of("a = { for k, v in m : v => k... if k != \"\" }\n");
        let ExprKind::For(for_expr) = &expr.kind else {
            panic!();
        };
        assert!(for_expr.grouping);
        assert_eq!(for_expr.body.len(), 3);
        let expr = value_of("a = f(1, l...)\n");
        assert!(matches!(&expr.kind, ExprKind::Call(call) if call.expand_final));
    }

    #[test]
    fn references_and_calls() {
        let text = "a = merge(var.x, local.y[0], provider::p::f(each.key))\n";
        let file = parse(text);
        let mut roots = Vec::new();
        file.body.attributes[0].expr.walk(&mut |e| {
            if let ExprKind::Traversal(t) = &e.kind {
                roots.push(t.root.clone());
            }
            if let ExprKind::Call(c) = &e.kind {
                roots.push(c.name.clone());
            }
        });
        assert_eq!(roots, ["merge", "var", "local", "provider::p::f", "each"]);
    }
}

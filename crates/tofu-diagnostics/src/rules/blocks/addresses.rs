//! Addresses in `moved`, `removed` and `import` blocks (`invalid-address`,
//! `diagnostics.md` §4.20), read as OpenTofu's `addrs` package reads them.
//!
//! An address expression first becomes a list of steps (names and constant
//! index keys): in `moved` and `removed` it must be a static reference (JSON: a
//! string holding one), in `import` a reference whose dynamic index keys are
//! dropped (JSON: a string holding a native expression). `endpoints` then
//! parses the steps as a move endpoint, a remove endpoint or an import target.
//!
//! Ranges inside a JSON string are computed from its decoded content, so they
//! drift after an escape sequence; they never leave the string.

use tofu_syntax::{
    Attribute, Diagnostic, Expr, ExprKind, SourceFile, Syntax, TextRange, TraversalStep,
};

use super::constants::is_literal;
use super::endpoints::{
    parse_import_target, parse_move_endpoint, parse_remove_endpoint, AddressError, AddressStep,
    Endpoint, ImportTarget, IndexKey, StepKind,
};
use super::file_checker::FileChecker;
use tofu_module::types::{json_string, static_value};

const STATIC_REFERENCE_REQUIRED: &str = "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";
/// How an expression is read into steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    /// `hcl.AbsTraversalForExpr`: constant keys only.
    StaticReference,
    /// OpenTofu's import reading: dynamic index keys are dropped.
    ImportTarget,
}

impl FileChecker<'_> {
    /// `from`/`to` of a `moved` block. `None` when an error was reported.
    pub(super) fn move_endpoint(
        &self,
        attr: &Attribute,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Endpoint> {
        let steps = self.static_reference(attr, out)?;
        self.reported(out, parse_move_endpoint(&steps))
    }

    /// `from` of a `removed` block. `None` when an error was reported.
    pub(super) fn remove_endpoint(
        &self,
        attr: &Attribute,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Endpoint> {
        let steps = self.static_reference(attr, out)?;
        self.reported(out, parse_remove_endpoint(&steps))
    }

    /// `to` of an `import` block. `None` when an error was reported.
    pub(super) fn import_target(
        &self,
        attr: &Attribute,
        out: &mut Vec<Diagnostic>,
    ) -> Option<ImportTarget> {
        let expr = &attr.expr;
        let steps = if self.is_json() {
            let content = match json_string(expr, self.text()) {
                Some(content) => content,
                None => {
                    let other = static_value(expr, Syntax::Json, self.text());
                    out.push(
                        Diagnostic::new(
                            crate::codes::INVALID_ADDRESS,
                            "Expected string expression",
                            self.at(expr.range),
                        )
                        .with_detail(format!(
                            "This value must be a string, but got {}.",
                            other.ty().friendly_name()
                        )),
                    );
                    return None;
                }
            };
            let parsed = match EmbeddedExpression::parse(&content) {
                Ok(parsed) => parsed,
                Err(error) => {
                    let range = self.embedded_range(expr, error.range);
                    out.push(
                        Diagnostic::new(
                            crate::codes::INVALID_ADDRESS,
                            error.summary,
                            self.at(range),
                        )
                        .with_detail(error.detail),
                    );
                    return None;
                }
            };
            let inner = parsed.expr()?;
            match address_steps(&parsed.text, inner, Reading::ImportTarget) {
                Some(steps) => self.embedded_steps(expr, steps),
                None => {
                    let range = self.embedded_range(expr, inner.range.shifted_back());
                    self.invalid_import_expression(range, out);
                    return None;
                }
            }
        } else {
            match address_steps(self.text(), expr, Reading::ImportTarget) {
                Some(steps) => steps,
                None => {
                    self.invalid_import_expression(expr.range, out);
                    return None;
                }
            }
        };
        self.reported(out, parse_import_target(&steps))
    }

    fn invalid_import_expression(&self, range: TextRange, out: &mut Vec<Diagnostic>) {
        out.push(
            Diagnostic::new(crate::codes::INVALID_ADDRESS, "Invalid import address expression", self.at(range))
                .with_detail("Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module"),
        );
    }

    /// The steps of a static reference, or HCL's "Invalid expression".
    fn static_reference(
        &self,
        attr: &Attribute,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Vec<AddressStep>> {
        let expr = &attr.expr;
        let steps = if self.is_json() {
            json_string(expr, self.text())
                .and_then(|content| self.json_static_reference(expr, &content))
        } else {
            address_steps(self.text(), expr, Reading::StaticReference)
        };
        if steps.is_none() {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_ADDRESS,
                    "Invalid expression",
                    self.at(expr.range),
                )
                .with_detail(STATIC_REFERENCE_REQUIRED),
            );
        }
        steps
    }

    /// A JSON string read as a traversal (`hclsyntax.ParseTraversalAbs`).
    fn json_static_reference(&self, expr: &Expr, content: &str) -> Option<Vec<AddressStep>> {
        let parsed = EmbeddedExpression::parse(content).ok()?;
        let steps = address_steps(&parsed.text, parsed.expr()?, Reading::StaticReference)?;
        Some(self.embedded_steps(expr, steps))
    }

    /// Moves steps parsed from an embedded expression into the file.
    fn embedded_steps(&self, expr: &Expr, steps: Vec<AddressStep>) -> Vec<AddressStep> {
        steps
            .into_iter()
            .map(|step| AddressStep {
                range: self.embedded_range(expr, step.range.shifted_back()),
                kind: step.kind,
            })
            .collect()
    }

    /// A range inside the content of the JSON string `expr` (offsets from the
    /// content's start) as a range of the file, kept inside the string.
    fn embedded_range(&self, expr: &Expr, range: TextRange) -> TextRange {
        let content_start = expr.range.start.saturating_add(1);
        let content_end = expr.range.end.saturating_sub(1).max(content_start);
        let start = content_start.saturating_add(range.start).min(content_end);
        let end = content_start
            .saturating_add(range.end)
            .clamp(start, content_end);
        TextRange::new(start, end)
    }

    fn reported<T>(&self, out: &mut Vec<Diagnostic>, parsed: Result<T, AddressError>) -> Option<T> {
        match parsed {
            Ok(value) => Some(value),
            Err(error) => {
                out.push(
                    Diagnostic::new(
                        crate::codes::INVALID_ADDRESS,
                        error.summary,
                        self.at(error.range),
                    )
                    .with_detail(error.detail),
                );
                None
            }
        }
    }
}

/// The prefix that makes an embedded expression a one-argument native file.
pub(super) const EMBEDDING_PREFIX: &str = "x = ";

pub(super) trait ShiftedBack {
    /// From a range of the embedding text to a range of the embedded content.
    fn shifted_back(self) -> TextRange;
}

impl ShiftedBack for TextRange {
    fn shifted_back(self) -> TextRange {
        let prefix = tofu_syntax::text::to_u32(EMBEDDING_PREFIX.len());
        TextRange::new(
            self.start.saturating_sub(prefix),
            self.end.saturating_sub(prefix),
        )
    }
}

/// A native expression parsed from the content of a JSON string.
pub(super) struct EmbeddedExpression {
    /// `x = CONTENT`: the text the ranges of `file` refer to.
    pub(super) text: String,
    file: SourceFile,
}

/// Why an embedded expression did not parse; the range is in the content.
pub(super) struct EmbeddedError {
    summary: &'static str,
    detail: String,
    range: TextRange,
}

impl EmbeddedExpression {
    pub(super) fn parse(content: &str) -> Result<EmbeddedExpression, EmbeddedError> {
        let text = format!("{EMBEDDING_PREFIX}{content}\n");
        let file = tofu_syntax::parse("address.tf", &text);
        if let Some(error) = file.errors.first() {
            // Text after a complete expression: HCL's words for it.
            let (summary, detail) = if error.summary == "Missing newline after argument" {
                (
                    "Extra characters after expression",
                    "An expression was successfully parsed, but extra characters were found after it.".to_owned(),
                )
            } else {
                ("Invalid expression", error.detail.clone())
            };
            return Err(EmbeddedError {
                summary,
                detail,
                range: error.range.shifted_back(),
            });
        }
        let whole = TextRange::from_usize(0, content.len());
        if !file.unrecovered.is_empty()
            || file.body.attributes.len() != 1
            || !file.body.blocks.is_empty()
        {
            return Err(EmbeddedError {
                summary: "Invalid expression",
                detail: "Expected one expression.".to_owned(),
                range: whole,
            });
        }
        Ok(EmbeddedExpression { text, file })
    }

    pub(super) fn expr(&self) -> Option<&Expr> {
        self.file.body.attributes.first().map(|attr| &attr.expr)
    }
}

/// The steps of a reference expression in `text`, or `None` when it is not
/// one that `reading` accepts.
pub(super) fn address_steps(text: &str, expr: &Expr, reading: Reading) -> Option<Vec<AddressStep>> {
    let traversal = match &expr.kind {
        // HCL reads the keywords as names when it wants a traversal.
        ExprKind::Null | ExprKind::Bool(_) if reading == Reading::StaticReference => {
            let name = expr.range.slice(text);
            return matches!(name, "null" | "true" | "false").then(|| {
                vec![AddressStep {
                    kind: StepKind::Name(name.to_owned()),
                    range: expr.range,
                }]
            });
        }
        // In parentheses, a reference is an expression like any other.
        ExprKind::Traversal(traversal) if traversal.root_range.start == expr.range.start => {
            traversal
        }
        _ => return None,
    };
    let mut steps = vec![AddressStep {
        kind: StepKind::Name(traversal.root.clone()),
        range: traversal.root_range,
    }];
    for step in &traversal.steps {
        match step {
            TraversalStep::Attr { name, range } => steps.push(AddressStep {
                kind: StepKind::Name(name.clone()),
                range: with_dot(text, *range),
            }),
            TraversalStep::Index { key, range } => match index_key(key) {
                Some(key) => steps.push(AddressStep {
                    kind: StepKind::Index(key),
                    range: *range,
                }),
                None if reading == Reading::ImportTarget => {}
                None => return None,
            },
            TraversalStep::Splat { .. } => return None,
        }
    }
    Some(steps)
}

fn index_key(key: &Expr) -> Option<IndexKey> {
    if !is_literal(key) {
        return None;
    }
    Some(match &key.kind {
        ExprKind::String(_) => IndexKey::String,
        ExprKind::Number(number) => IndexKey::Number(number.clone()),
        _ => IndexKey::Other,
    })
}

/// An attribute name's range widened to its dot, as HCL ranges `.name`.
fn with_dot(text: &str, name: TextRange) -> TextRange {
    let before = text.get(..name.start as usize).unwrap_or_default();
    let trimmed = before.trim_end();
    match trimmed.strip_suffix('.') {
        Some(rest) => TextRange::new(tofu_syntax::text::to_u32(rest.len()), name.end),
        None => name,
    }
}

//! The test file a test-file rule reads, and HCL's reading of its bodies:
//! a body against a schema (`Body.Content`, in native syntax and in JSON,
//! with HCL's "Did you mean" suggestions), a keyword (`hcl.ExprAsKeyword`)
//! and an argument decoded into a string or a bool with no evaluation
//! context (`gohcl.DecodeExpression`). The dispatch over block types is the
//! parent module's.

use tofu_syntax::{Attribute, Block, Body, Diagnostic, ExprKind, FileId, Location, Syntax};
use tofu_syntax::{Expr, TextRange};

use crate::rules::bodies::check_labels;
use tofu_eval::{Type, Value, ValueKind};
use tofu_module::expr::suggest::did_you_mean;
use tofu_module::expr::traversal::{parse_traversal, Part};
use tofu_module::loaded::ModuleFile;
use tofu_module::schema::{BlockSchema, Rest};
use tofu_module::types::{constant_value, static_value};
use tofu_module::version::{Constraints, MALFORMED_DETAIL};

/// One test file of the module, as its rules read it.
#[derive(Clone, Copy)]
pub(super) struct TestFileScope<'a> {
    pub id: FileId,
    pub file: &'a ModuleFile,
}

/// An argument decoded as `gohcl.DecodeExpression` decodes it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Decoded<T> {
    Value(T),
    /// Errors were reported for the argument.
    Failed,
    /// tofu-lens does not compute the value (operators, conditionals, …);
    /// nothing was reported.
    Unchecked,
}

impl<'a> TestFileScope<'a> {
    pub fn json(&self) -> bool {
        self.file.is_json()
    }

    pub fn text(&self) -> &'a str {
        &self.file.text
    }

    pub fn at(&self, range: TextRange) -> Location {
        Location::new(self.id, range)
    }

    /// `tests/a.tftest.hcl:3,1-10`, as HCL writes a range in a detail.
    pub fn describe(&self, range: TextRange) -> String {
        self.file.describe(range)
    }

    /// HCL's `Body.Content` of a block's body against `schema`: every
    /// argument and block type it does not define, nested blocks with the
    /// wrong number of labels, required arguments missing. Returns the
    /// nested blocks that decode, in order.
    pub fn content<'b>(
        &self,
        block: &'b Block,
        schema: &BlockSchema,
        out: &mut Vec<Diagnostic>,
    ) -> Vec<&'b Block> {
        let body = &block.body;
        self.unsupported(body, schema, out);
        let mut decoded = Vec::new();
        for nested in &body.blocks {
            let Some(nested_schema) = schema.nested(&nested.kind) else {
                continue;
            };
            match check_labels(self.id, self.json(), nested, nested_schema.labels) {
                Some(diagnostic) => out.push(diagnostic),
                None => decoded.push(nested),
            }
        }
        for required in schema.required {
            if body.attribute(required).is_some() {
                continue;
            }
            let at = if self.json() {
                body.close.unwrap_or(block.header)
            } else {
                TextRange::empty(body.open.unwrap_or(block.header).start)
            };
            out.push(
                Diagnostic::new(
                    crate::codes::MISSING_REQUIRED_ARGUMENT,
                    "Missing required argument",
                    self.at(at),
                )
                .with_detail(format!(
                    "The argument \"{required}\" is required, but no definition was found."
                )),
            );
        }
        decoded
    }

    /// The arguments and blocks of `body` that `schema` does not define.
    /// A body of entries (`variables`) takes any argument.
    pub fn unsupported(&self, body: &Body, schema: &BlockSchema, out: &mut Vec<Diagnostic>) {
        for attr in &body.attributes {
            if schema.rest != Rest::Entries && !schema.defines_argument(&attr.name) {
                out.push(self.unsupported_argument(attr, body, schema));
            }
        }
        for nested in &body.blocks {
            if schema.nested(&nested.kind).is_none() {
                out.push(self.unsupported_block(nested, schema));
            }
        }
    }

    /// "Unsupported argument" (JSON: "Extraneous JSON object property"),
    /// with HCL's suggestion, which names only arguments `body` does not
    /// set yet.
    pub fn unsupported_argument(
        &self,
        attr: &Attribute,
        body: &Body,
        schema: &BlockSchema,
    ) -> Diagnostic {
        let unset = || {
            schema
                .arguments
                .iter()
                .copied()
                .filter(|name| body.attribute(name).is_none())
        };
        let (summary, detail) = if self.json() {
            (
                "Extraneous JSON object property",
                format!(
                    "No argument or block type is named \"{}\".{}",
                    attr.name,
                    json_suggestion(&attr.name, unset(), schema)
                ),
            )
        } else {
            let suggestion = match did_you_mean(&attr.name, unset()) {
                Some(name) => format!(" Did you mean \"{name}\"?"),
                None if schema.nested(&attr.name).is_some() => {
                    format!(" Did you mean to define a block of type \"{}\"?", attr.name)
                }
                None => String::new(),
            };
            (
                "Unsupported argument",
                format!(
                    "An argument named \"{}\" is not expected here.{suggestion}",
                    attr.name
                ),
            )
        };
        Diagnostic::new(
            crate::codes::UNSUPPORTED_ARGUMENT,
            summary,
            self.at(attr.name_range),
        )
        .with_detail(detail)
    }

    /// "Unsupported block type" (JSON: "Extraneous JSON object property"),
    /// with HCL's suggestion.
    pub fn unsupported_block(&self, block: &Block, schema: &BlockSchema) -> Diagnostic {
        let (summary, detail) = if self.json() {
            (
                "Extraneous JSON object property",
                format!(
                    "No argument or block type is named \"{}\".{}",
                    block.kind,
                    json_suggestion(&block.kind, schema.arguments.iter().copied(), schema)
                ),
            )
        } else {
            let suggestion = match did_you_mean(&block.kind, schema.block_kinds()) {
                Some(kind) => format!(" Did you mean \"{kind}\"?"),
                None if schema.defines_argument(&block.kind) => format!(
                    " Did you mean to define argument \"{}\"? If so, use the equals sign to assign it a value.",
                    block.kind
                ),
                None => String::new(),
            };
            (
                "Unsupported block type",
                format!(
                    "Blocks of type \"{}\" are not expected here.{suggestion}",
                    block.kind
                ),
            )
        };
        Diagnostic::new(
            crate::codes::UNSUPPORTED_BLOCK,
            summary,
            self.at(block.kind_range),
        )
        .with_detail(detail)
    }

    /// HCL's `JustAttributes` on a `variables` block: a nested block is
    /// "Unexpected" (JSON reads every property as an attribute).
    pub fn just_attributes(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        for nested in &block.body.blocks {
            out.push(
                Diagnostic::new(
                    crate::codes::UNSUPPORTED_BLOCK,
                    format!("Unexpected \"{}\" block", nested.kind),
                    self.at(nested.kind_range),
                )
                .with_detail("Blocks are not allowed here."),
            );
        }
    }

    /// A `version` argument decoded as a string and parsed as a version
    /// constraint ("Invalid version constraint" when it is none).
    pub fn version_constraint(&self, version: &Attribute, out: &mut Vec<Diagnostic>) {
        let Decoded::Value(constraint) = self.decode_string(&version.expr, out) else {
            return;
        };
        if Constraints::parse(&constraint).is_err() {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_VERSION_CONSTRAINT,
                    "Invalid version constraint",
                    self.at(version.expr.range),
                )
                .with_detail(MALFORMED_DETAIL),
            );
        }
    }

    /// `hcl.ExprAsKeyword`: the name of a bare one-name traversal (in JSON,
    /// of a string spelling one); `None` for anything else.
    pub fn keyword(&self, expr: &Expr) -> Option<String> {
        match &expr.kind {
            ExprKind::Traversal(traversal) if !self.json() && traversal.steps.is_empty() => {
                let written = expr.range.slice(self.text());
                // A parenthesised name is an expression, not a keyword.
                (!written.starts_with('(')).then(|| traversal.root.clone())
            }
            ExprKind::String(content) if self.json() => {
                let parsed = parse_traversal(content);
                match (parsed.steps.as_slice(), parsed.error) {
                    ([only], None) => match &only.part {
                        Part::Name(name) => Some(name.clone()),
                        Part::Index(_) => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `gohcl.DecodeExpression` into a string.
    pub fn decode_string(&self, expr: &Expr, out: &mut Vec<Diagnostic>) -> Decoded<String> {
        match self.decode(expr, &Type::String, out) {
            Decoded::Value(value) => match value.kind {
                ValueKind::String(text) => Decoded::Value(text),
                _ => Decoded::Unchecked,
            },
            Decoded::Unchecked => Decoded::Unchecked,
            Decoded::Failed => Decoded::Failed,
        }
    }

    /// `gohcl.DecodeExpression` into a bool.
    pub fn decode_bool(&self, expr: &Expr, out: &mut Vec<Diagnostic>) -> Decoded<bool> {
        match self.decode(expr, &Type::Bool, out) {
            Decoded::Value(value) => match value.as_bool() {
                Some(value) => Decoded::Value(value),
                None => Decoded::Unchecked,
            },
            Decoded::Unchecked => Decoded::Unchecked,
            Decoded::Failed => Decoded::Failed,
        }
    }

    /// Evaluates `expr` with no variables and no functions and converts it
    /// to `want`: HCL's evaluation errors, or "Unsuitable value type" on the
    /// expression's start.
    fn decode(&self, expr: &Expr, want: &Type, out: &mut Vec<Diagnostic>) -> Decoded<Value> {
        let value = if self.json() {
            static_value(expr, Syntax::Json, self.text())
        } else {
            match constant_value(expr, self.text()) {
                Ok(value) => value,
                Err(errors) => {
                    out.extend(errors.into_iter().map(|error| {
                        Diagnostic::new(
                            crate::codes::INVALID_CONSTANT_ARGUMENT,
                            error.summary,
                            self.at(error.range),
                        )
                        .with_detail(error.detail)
                    }));
                    return Decoded::Failed;
                }
            }
        };
        let reason = match &value.kind {
            ValueKind::Unknown(_) => return Decoded::Unchecked,
            ValueKind::Null(_) => "null value is not allowed".to_owned(),
            _ => match tofu_eval::convert::convert(&value, want) {
                Ok(converted) => return Decoded::Value(converted),
                Err(error) => error.to_string(),
            },
        };
        let start = tofu_module::expr::start::expr_start(self.text(), expr, self.json());
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_CONSTANT_ARGUMENT,
                "Unsuitable value type",
                self.at(start),
            )
            .with_detail(format!("Unsuitable value: {reason}")),
        );
        Decoded::Failed
    }
}

/// HCL JSON's suggestion: among the arguments and block types of `schema`.
fn json_suggestion(
    name: &str,
    arguments: impl Iterator<Item = &'static str>,
    schema: &BlockSchema,
) -> String {
    let names = arguments.chain(schema.block_kinds());
    did_you_mean(name, names)
        .map(|suggestion| format!(" Did you mean \"{suggestion}\"?"))
        .unwrap_or_default()
}

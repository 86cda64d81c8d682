//! Decoding one body against a provider's block schema, as OpenTofu's
//! `EvaluateBlock` does with HCL's `hcldec` (`configschema.Block.DecoderSpec`
//! and `hclsyntax.Body.Content`): unsupported arguments and block types
//! with HCL's "Did you mean", missing required arguments, too few or too
//! many nested blocks, a second block where one is allowed, labels on
//! nested blocks, and the types of constant values; then each nested block
//! against its own schema, `dynamic` blocks through their `content` once
//! their own body fits `dynblock`'s schema (`for_each`, `iterator`,
//! `labels` only for a type with labels, `content` blocks).
//!
//! What is decoded comes in as [`BodyInput`]: the attributes and nested
//! blocks of a body, each with the file it was written in, and where HCL
//! reports what is missing. Besides diagnostics, decoding says which
//! expressions OpenTofu evaluates ([`Decoded::evaluated`]): only those of
//! arguments and blocks the schema knows (`hcldec.Variables`), so the
//! caller judges only their references.
//!
//! Left out: JSON bodies below the first level (a nested block written as a
//! JSON property is counted, not decoded), the number of blocks a `dynamic`
//! block makes (a type with one is not counted), the types of values that
//! are not constants (`evaluate` converts those once it has evaluated
//! them). An attribute of a list or set of objects may be written as
//! blocks; [`blocktoattr`] says when, and each such block is decoded
//! against its element's schema.

use tofu_schema::{Block as SchemaBlock, Nesting};
use tofu_syntax::{Block, Diagnostic, Expr, FileId, Location, Syntax, TextRange};

use super::blocktoattr;
use crate::rules::bodies::check_labels;
use tofu_module::expr::json::json_has_template;
use tofu_module::expr::suggest::did_you_mean;
use tofu_module::file_text::FileText;
use tofu_module::types::static_value;
use tofu_syntax::go_text::go_quote;

/// Blocks nested deeper than this are not decoded.
const MAX_DEPTH: usize = 32;

/// One argument as written.
#[derive(Clone, Copy)]
pub(crate) struct AttributeInput<'a> {
    pub(crate) name: &'a str,
    pub(crate) name_range: TextRange,
    pub(crate) expr: &'a Expr,
    pub(crate) file: FileId,
    pub(crate) syntax: Syntax,
    /// The file's text the expression's ranges index into.
    pub(crate) text: FileText<'a>,
}

/// One nested block as written.
#[derive(Clone, Copy)]
pub(crate) struct BlockInput<'a> {
    pub(crate) block: &'a Block,
    pub(crate) file: FileId,
    pub(crate) syntax: Syntax,
    pub(crate) text: FileText<'a>,
}

/// A body to decode.
pub(crate) struct BodyInput<'a> {
    pub(crate) attributes: Vec<AttributeInput<'a>>,
    pub(crate) blocks: Vec<BlockInput<'a>>,
    /// HCL's `MissingItemRange`: zero-width at the `{` of a native body,
    /// the closing `}` of a JSON one.
    pub(crate) missing: Location,
    /// For the merged body of a block an override file changes, the names
    /// the base block itself writes (its arguments, those of its escaping
    /// blocks, its nested block types): OpenTofu's `mergeBody` decodes the
    /// base and each override by partial content, so what the schema does
    /// not define is dropped from either, and a required argument must be
    /// in the base (the overrides' schema makes every argument optional).
    pub(crate) merged: Option<Vec<&'a str>>,
}

impl<'a> BodyInput<'a> {
    /// A nested block's own body, as written in one file.
    pub(crate) fn of_block(input: BlockInput<'a>) -> BodyInput<'a> {
        let body = &input.block.body;
        let json = input.syntax == Syntax::Json;
        BodyInput {
            attributes: body
                .attributes
                .iter()
                .map(|attr| AttributeInput {
                    name: &attr.name,
                    name_range: attr.name_range,
                    expr: &attr.expr,
                    file: input.file,
                    syntax: input.syntax,
                    text: input.text,
                })
                .collect(),
            blocks: body
                .blocks
                .iter()
                .map(|block| BlockInput { block, ..input })
                .collect(),
            missing: Location::new(input.file, missing_range(input.block, json)),
            merged: None,
        }
    }
}

/// Where HCL reports what a block's body lacks.
pub(crate) fn missing_range(block: &Block, json: bool) -> TextRange {
    if json {
        block.body.close.unwrap_or(block.header)
    } else {
        let open = block.body.open.unwrap_or(block.header);
        TextRange::empty(open.start)
    }
}

/// What decoding found.
#[derive(Default)]
pub(crate) struct Decoded {
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The expressions OpenTofu evaluates: those of known arguments and of
    /// known nested blocks, at any depth.
    pub(crate) evaluated: Vec<Location>,
    /// What a merged body's lenient decoding drops silently.
    pub(crate) dropped: Vec<Dropped>,
}

/// An argument or nested block the schema does not define, at the top of a
/// merged body, which OpenTofu drops without a word.
pub(crate) struct Dropped {
    pub(crate) name: String,
    /// A block rather than an argument.
    pub(crate) block: bool,
    pub(crate) file: FileId,
    pub(crate) syntax: Syntax,
    /// The argument's name or the block's type keyword.
    pub(crate) name_range: TextRange,
    /// The whole argument or block.
    pub(crate) range: TextRange,
    /// The schema's nearest name, as HCL would suggest it.
    pub(crate) suggestion: Option<String>,
}

/// Writes `main.tf:3,3-8` for a location, as HCL does in details.
pub(crate) type Describe<'d> = &'d dyn Fn(Location) -> String;

/// Decodes `body` against `schema`.
pub(crate) fn decode(
    body: &BodyInput<'_>,
    schema: &SchemaBlock,
    describe: Describe<'_>,
) -> Decoded {
    let mut decoded = Decoded::default();
    decode_body(body, schema, describe, 0, &mut decoded);
    decoded
}

fn decode_body(
    body: &BodyInput<'_>,
    schema: &SchemaBlock,
    describe: Describe<'_>,
    depth: usize,
    out: &mut Decoded,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for attribute in &body.attributes {
        match schema.attributes.get(attribute.name) {
            Some(attribute_schema) => {
                out.evaluated
                    .push(Location::new(attribute.file, attribute.expr.range));
                check_value(attribute, attribute_schema, out);
            }
            None if attribute.syntax == Syntax::Json
                && schema.block_types.get(attribute.name).is_some() =>
            {
                // A nested block written as a JSON property: its
                // expressions are evaluated, but it is not decoded here.
                out.evaluated
                    .push(Location::new(attribute.file, attribute.expr.range));
            }
            None if attribute.syntax == Syntax::Json && attribute.name == "//" => {}
            None if depth == 0 && body.merged.is_some() => out.dropped.push(Dropped {
                name: attribute.name.to_owned(),
                block: false,
                file: attribute.file,
                syntax: attribute.syntax,
                name_range: attribute.name_range,
                range: TextRange::new(attribute.name_range.start, attribute.expr.range.end),
                suggestion: settable_suggestion(attribute, body, schema).map(str::to_owned),
            }),
            None => out
                .diagnostics
                .push(unsupported_argument(attribute, body, schema)),
        }
    }
    for required in schema
        .attributes
        .iter()
        .filter(|(_, attribute)| attribute.required)
        .map(|(name, _)| name)
    {
        let written_as_blocks = body
            .blocks
            .iter()
            .any(|nested| written_type(nested) == Some(required))
            && blocktoattr::element_schema(schema, required).is_some();
        let set = match (&body.merged, depth) {
            (Some(base_names), 0) => base_names.contains(&required),
            _ => body.attributes.iter().any(|attr| attr.name == required),
        };
        if !written_as_blocks && !set {
            out.diagnostics.push(
                Diagnostic::new(
                    crate::codes::MISSING_REQUIRED_ARGUMENT,
                    "Missing required argument",
                    body.missing,
                )
                .with_detail(format!(
                    "The argument {} is required, but no definition was found.",
                    go_quote(required)
                )),
            );
        }
    }
    let mut known: Vec<(&str, Vec<BlockInput<'_>>, bool)> = Vec::new();
    for nested in &body.blocks {
        if let Some(element_schema) = attribute_written_as_block(nested, body, schema) {
            attribute_block(nested, &element_schema, describe, depth, out);
            continue;
        }
        let (kind, dynamic) = match nested.block.kind.as_str() {
            "dynamic" => match nested.block.labels.first() {
                Some(label) if schema.block_types.get(&label.value).is_some() => {
                    (label.value.as_str(), true)
                }
                // `dynblock` names the type it cannot make, on its label.
                Some(label) => {
                    out.diagnostics.push(
                        Diagnostic::new(
                            crate::codes::UNSUPPORTED_BLOCK,
                            "Unsupported block type",
                            Location::new(nested.file, label.range),
                        )
                        .with_detail(format!(
                            "Blocks of type {} are not expected here.",
                            go_quote(&label.value)
                        )),
                    );
                    continue;
                }
                None => ("dynamic", false),
            },
            kind => (kind, false),
        };
        let Some(nested_schema) = schema.block_types.get(kind) else {
            if depth == 0 && body.merged.is_some() {
                out.dropped.push(Dropped {
                    name: kind.to_owned(),
                    block: true,
                    file: nested.file,
                    syntax: nested.syntax,
                    name_range: nested.block.kind_range,
                    range: nested.block.range,
                    suggestion: did_you_mean(kind, schema.block_types.names()).map(str::to_owned),
                });
            } else {
                out.diagnostics.push(unsupported_block(nested, schema));
            }
            continue;
        };
        let labels: &[&str] = if nested_schema.nesting == Nesting::Map {
            &["key"]
        } else {
            &[]
        };
        if dynamic {
            let labelled = nested_schema.nesting == Nesting::Map;
            dynamic_block(nested, &nested_schema.block, labelled, describe, depth, out);
        } else if let Some(problem) = check_labels(
            nested.file,
            nested.syntax == Syntax::Json,
            nested.block,
            labels,
        ) {
            out.diagnostics.push(problem);
            continue;
        } else {
            decode_body(
                &BodyInput::of_block(*nested),
                &nested_schema.block,
                describe,
                depth + 1,
                out,
            );
        }
        match known
            .iter_mut()
            .find(|(known_kind, _, _)| *known_kind == kind)
        {
            Some((_, blocks, any_dynamic)) => {
                *any_dynamic |= dynamic;
                if !dynamic {
                    blocks.push(*nested);
                }
            }
            None => known.push((
                kind,
                if dynamic { Vec::new() } else { vec![*nested] },
                dynamic,
            )),
        }
    }
    for (kind, nested_schema) in schema.block_types.iter() {
        let (blocks, any_dynamic) = known
            .iter()
            .find(|(known_kind, _, _)| *known_kind == kind)
            .map_or((&[][..], false), |(_, blocks, dynamic)| {
                (blocks.as_slice(), *dynamic)
            });
        // A type written as a JSON property, or made by a `dynamic` block,
        // is not counted.
        let as_property = body
            .attributes
            .iter()
            .any(|attr| attr.syntax == Syntax::Json && attr.name == kind);
        if any_dynamic || as_property {
            continue;
        }
        count_blocks(kind, nested_schema, blocks, body, describe, out);
    }
}

/// The type a native block writes: its own, or a `dynamic` block's label.
fn written_type<'b>(nested: &BlockInput<'b>) -> Option<&'b str> {
    if nested.syntax == Syntax::Json {
        return None;
    }
    match nested.block.kind.as_str() {
        "dynamic" => nested
            .block
            .labels
            .first()
            .map(|label| label.value.as_str()),
        kind => Some(kind),
    }
}

/// The schema of one element when `nested` writes an attribute of `schema`
/// as a block (`blocktoattr`): the body does not set it as an argument.
fn attribute_written_as_block(
    nested: &BlockInput<'_>,
    body: &BodyInput<'_>,
    schema: &SchemaBlock,
) -> Option<SchemaBlock> {
    let name = written_type(nested)?;
    if body.attributes.iter().any(|attr| attr.name == name) {
        return None;
    }
    blocktoattr::element_schema(schema, name)
}

/// One block (or `dynamic` block) written for an attribute: no labels,
/// its body decoded against the element's schema; never counted.
fn attribute_block(
    nested: &BlockInput<'_>,
    element_schema: &SchemaBlock,
    describe: Describe<'_>,
    depth: usize,
    out: &mut Decoded,
) {
    if nested.block.kind == "dynamic" {
        dynamic_block(nested, element_schema, false, describe, depth, out);
    } else if let Some(problem) = check_labels(nested.file, false, nested.block, &[]) {
        out.diagnostics.push(problem);
    } else {
        decode_body(
            &BodyInput::of_block(*nested),
            element_schema,
            describe,
            depth + 1,
            out,
        );
    }
}

/// A `dynamic` block of a known type: its `content` decoded against the
/// type's schema; its `for_each`, `labels` and `content` are evaluated.
fn dynamic_block(
    nested: &BlockInput<'_>,
    schema: &SchemaBlock,
    labelled: bool,
    describe: Describe<'_>,
    depth: usize,
    out: &mut Decoded,
) {
    let body = &nested.block.body;
    if nested.syntax == Syntax::Native {
        let problems = dynamic_content_problems(nested, labelled);
        if !problems.is_empty() {
            // `dynblock` makes nothing of a block its schema rejects.
            out.diagnostics.extend(problems);
            return;
        }
    }
    for attribute in &body.attributes {
        if matches!(attribute.name.as_str(), "for_each" | "labels") {
            out.evaluated
                .push(Location::new(nested.file, attribute.expr.range));
        }
    }
    // `dynblock`'s own schema: `content` once, and nothing else.
    let json = nested.syntax == Syntax::Json;
    let contents: Vec<&Block> = body.blocks_of_kind("content").collect();
    match contents.as_slice() {
        [] => out.diagnostics.push(
            Diagnostic::new(
                crate::codes::INVALID_BLOCK_COUNT,
                "Missing dynamic content block",
                Location::new(nested.file, missing_range(nested.block, json)),
            )
            .with_detail("A dynamic block must have a nested block of type \"content\" to describe the body of each generated block."),
        ),
        [_, second, ..] => out.diagnostics.push(
            Diagnostic::new(
                crate::codes::INVALID_BLOCK_COUNT,
                "Extraneous dynamic content block",
                Location::new(nested.file, second.header),
            )
            .with_detail("Only one nested content block is allowed for each dynamic block."),
        ),
        [_] => {}
    }
    for content in contents.into_iter().take(1) {
        decode_body(
            &BodyInput::of_block(BlockInput {
                block: content,
                ..*nested
            }),
            schema,
            describe,
            depth + 1,
            out,
        );
    }
}

/// What HCL says of a native `dynamic` block's body against `dynblock`'s
/// own schema (`for_each` required, `iterator`, `labels` for a type with
/// labels, `content` blocks): unsupported arguments and block types, with
/// HCL's suggestions, and a missing `for_each`.
fn dynamic_content_problems(nested: &BlockInput<'_>, labelled: bool) -> Vec<Diagnostic> {
    let body = &nested.block.body;
    let arguments: &[&str] = if labelled {
        &["for_each", "iterator", "labels"]
    } else {
        &["for_each", "iterator"]
    };
    let mut problems = Vec::new();
    for attribute in &body.attributes {
        let name = attribute.name.as_str();
        if arguments.contains(&name) {
            continue;
        }
        let unset = arguments
            .iter()
            .copied()
            .filter(|argument| body.attribute(argument).is_none());
        let suggestion = match did_you_mean(name, unset) {
            Some(found) => format!(" Did you mean {}?", go_quote(found)),
            None if name == "content" => {
                " Did you mean to define a block of type \"content\"?".to_owned()
            }
            None => String::new(),
        };
        problems.push(
            Diagnostic::new(
                crate::codes::UNSUPPORTED_ARGUMENT,
                "Unsupported argument",
                Location::new(nested.file, attribute.name_range),
            )
            .with_detail(format!(
                "An argument named {} is not expected here.{suggestion}",
                go_quote(name)
            )),
        );
    }
    if body.attribute("for_each").is_none() {
        problems.push(
            Diagnostic::new(
                crate::codes::MISSING_REQUIRED_ARGUMENT,
                "Missing required argument",
                Location::new(nested.file, missing_range(nested.block, false)),
            )
            .with_detail("The argument \"for_each\" is required, but no definition was found."),
        );
    }
    for block in body.blocks.iter().filter(|block| block.kind != "content") {
        let kind = block.kind.as_str();
        let suggestion = match did_you_mean(kind, ["content"]) {
            Some(found) => format!(" Did you mean {}?", go_quote(found)),
            None if arguments.contains(&kind) => format!(
                " Did you mean to define argument {}? If so, use the equals sign to assign it a value.",
                go_quote(kind)
            ),
            None => String::new(),
        };
        problems.push(
            Diagnostic::new(
                crate::codes::UNSUPPORTED_BLOCK,
                "Unsupported block type",
                Location::new(nested.file, block.kind_range),
            )
            .with_detail(format!(
                "Blocks of type {} are not expected here.{suggestion}",
                go_quote(kind)
            )),
        );
    }
    problems
}

/// Too few or too many blocks of one type, or a second where one is allowed.
fn count_blocks(
    kind: &str,
    schema: &tofu_schema::NestedBlock,
    blocks: &[BlockInput<'_>],
    body: &BodyInput<'_>,
    describe: Describe<'_>,
    out: &mut Decoded,
) {
    let n_blocks = blocks.len() as u64;
    match schema.nesting {
        Nesting::Single | Nesting::Group => {
            if let (Some(first), Some(second)) = (blocks.first(), blocks.get(1)) {
                out.diagnostics.push(
                    Diagnostic::new(
                        crate::codes::DUPLICATE_NESTED_BLOCK,
                        format!("Duplicate {kind} block"),
                        Location::new(second.file, second.block.header),
                    )
                    .with_detail(format!(
                        "Only one block of type {} is allowed. Previous definition was at {}.",
                        go_quote(kind),
                        describe(Location::new(first.file, first.block.header))
                    )),
                );
            } else if blocks.is_empty()
                && schema.nesting == Nesting::Single
                && schema.min_items == 1
            {
                out.diagnostics.push(
                    Diagnostic::new(
                        crate::codes::INVALID_BLOCK_COUNT,
                        format!("Missing {kind} block"),
                        body.missing,
                    )
                    .with_detail(format!(
                        "A block of type {} is required here.",
                        go_quote(kind)
                    )),
                );
            }
        }
        Nesting::List | Nesting::Set => {
            if n_blocks < schema.min_items {
                out.diagnostics.push(
                    Diagnostic::new(
                        crate::codes::INVALID_BLOCK_COUNT,
                        format!("Insufficient {kind} blocks"),
                        body.missing,
                    )
                    .with_detail(format!(
                        "At least {} {} blocks are required.",
                        schema.min_items,
                        go_quote(kind)
                    )),
                );
            } else if schema.max_items > 0 && n_blocks > schema.max_items {
                let extra = usize::try_from(schema.max_items)
                    .ok()
                    .and_then(|index| blocks.get(index));
                if let Some(extra) = extra {
                    let json = extra.syntax == Syntax::Json;
                    out.diagnostics.push(
                        Diagnostic::new(
                            crate::codes::INVALID_BLOCK_COUNT,
                            format!("Too many {kind} blocks"),
                            Location::new(extra.file, missing_range(extra.block, json)),
                        )
                        .with_detail(format!(
                            "No more than {} {} blocks are allowed",
                            schema.max_items,
                            go_quote(kind)
                        )),
                    );
                }
            }
        }
        Nesting::Map | Nesting::Invalid => {}
    }
}

/// The name HCL suggests for an argument the schema does not define: an
/// argument the body does not set (in a JSON body, also a block type).
fn argument_suggestion<'s>(
    attribute: &AttributeInput<'_>,
    body: &BodyInput<'_>,
    schema: &'s SchemaBlock,
) -> Option<&'s str> {
    let unset = schema
        .attributes
        .names()
        .filter(|name| !body.attributes.iter().any(|attr| attr.name == *name));
    if attribute.syntax == Syntax::Json {
        did_you_mean(attribute.name, unset.chain(schema.block_types.names()))
    } else {
        did_you_mean(attribute.name, unset)
    }
}

/// The nearest name an ignored argument could be renamed to: one the body
/// does not set and the configuration may (not a read-only attribute), or
/// in a JSON body a block type.
fn settable_suggestion<'s>(
    attribute: &AttributeInput<'_>,
    body: &BodyInput<'_>,
    schema: &'s SchemaBlock,
) -> Option<&'s str> {
    let settable = schema
        .attributes
        .iter()
        .filter(|(_, attribute)| attribute.required || attribute.optional)
        .map(|(name, _)| name)
        .filter(|name| !body.attributes.iter().any(|attr| attr.name == *name));
    if attribute.syntax == Syntax::Json {
        did_you_mean(attribute.name, settable.chain(schema.block_types.names()))
    } else {
        did_you_mean(attribute.name, settable)
    }
}

fn unsupported_argument(
    attribute: &AttributeInput<'_>,
    body: &BodyInput<'_>,
    schema: &SchemaBlock,
) -> Diagnostic {
    let at = Location::new(attribute.file, attribute.name_range);
    if attribute.syntax == Syntax::Json {
        // HCL's JSON body suggests any argument not set and any block type.
        let suggestion = argument_suggestion(attribute, body, schema)
            .map(|name| format!(" Did you mean {}?", go_quote(name)))
            .unwrap_or_default();
        return Diagnostic::new(
            crate::codes::UNSUPPORTED_ARGUMENT,
            "Extraneous JSON object property",
            at,
        )
        .with_detail(format!(
            "No argument or block type is named {}.{suggestion}",
            go_quote(attribute.name)
        ));
    }
    let suggestion = match argument_suggestion(attribute, body, schema) {
        Some(name) => format!(" Did you mean {}?", go_quote(name)),
        None if schema.block_types.get(attribute.name).is_some() => format!(
            " Did you mean to define a block of type {}?",
            go_quote(attribute.name)
        ),
        None => String::new(),
    };
    Diagnostic::new(
        crate::codes::UNSUPPORTED_ARGUMENT,
        "Unsupported argument",
        at,
    )
    .with_detail(format!(
        "An argument named {} is not expected here.{suggestion}",
        go_quote(attribute.name)
    ))
}

fn unsupported_block(nested: &BlockInput<'_>, schema: &SchemaBlock) -> Diagnostic {
    let kind = nested.block.kind.as_str();
    let at = Location::new(nested.file, nested.block.kind_range);
    let suggestion = match did_you_mean(kind, schema.block_types.names()) {
        Some(name) => format!(" Did you mean {}?", go_quote(name)),
        None if schema.attributes.get(kind).is_some() => format!(
            " Did you mean to define argument {}? If so, use the equals sign to assign it a value.",
            go_quote(kind)
        ),
        None => String::new(),
    };
    Diagnostic::new(
        crate::codes::UNSUPPORTED_BLOCK,
        "Unsupported block type",
        at,
    )
    .with_detail(format!(
        "Blocks of type {} are not expected here.{suggestion}",
        go_quote(kind)
    ))
}

/// `Incorrect attribute value type` for a constant that does not convert
/// (a JSON string holding a template is evaluated, not decoded).
fn check_value(attribute: &AttributeInput<'_>, schema: &tofu_schema::Attribute, out: &mut Decoded) {
    if attribute.syntax == Syntax::Json && json_has_template(attribute.expr) {
        return;
    }
    let value = static_value(attribute.expr, attribute.syntax, attribute.text);
    if !value.is_known() {
        return;
    }
    out.diagnostics.extend(incorrect_type(
        attribute.name,
        &value,
        schema,
        Location::new(attribute.file, attribute.expr.range),
    ));
}

/// Whether decoding judges the type of the value written as `expr` (a
/// constant); evaluation judges the others.
pub(super) fn is_constant(expr: &Expr, syntax: Syntax, text: FileText<'_>) -> bool {
    static_value(expr, syntax, text).is_known()
}

/// `Incorrect attribute value type` when `value` does not convert to the
/// attribute's type (`hcldec`'s `AttrSpec`), at the value's range `at`.
pub(super) fn incorrect_type(
    name: &str,
    value: &tofu_eval::Value,
    schema: &tofu_schema::Attribute,
    at: Location,
) -> Option<Diagnostic> {
    let error = tofu_eval::convert::convert(value, &schema.decoder_type()).err()?;
    Some(
        Diagnostic::new(
            crate::codes::INVALID_ARGUMENT_VALUE,
            "Incorrect attribute value type",
            at,
        )
        .with_detail(format!(
            "Inappropriate value for attribute {}: {}.",
            go_quote(name),
            error.message
        )),
    )
}

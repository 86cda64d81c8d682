//! Variable defaults against their type constraints, in each block and after
//! each override is merged (`invalid-variable-default`, `merging.md` §6.1).
//!
//! Step (a) decodes every `variable` block of every loaded file as OpenTofu's
//! `decodeVariableBlock` does — primary and override, duplicates too, files
//! with syntax errors as far as they were recovered: the default must convert
//! to the block's own `type` (`any` for a primary block without one; an
//! override without `type` is not converted here) and must not be null when the
//! block says `nullable = false`. A default that fails to convert is unknown
//! from then on.
//!
//! Step (b) replays OpenTofu's `Variable.merge` for each variable that has
//! overrides: starting from the kept primary declaration, each override in
//! application order replaces `type`, `default` and `nullable` when it sets
//! them, and the merged default is converted again to the merged type. Its
//! errors go on the override header. An override without a base is never
//! merged (merging reports `override-missing-base` for it).
//!
//! Not done here: the type expression's own errors (`invalid-type-constraint`,
//! `quoted-type-constraint`); a type that does not parse simply counts as
//! `any`, as it does for OpenTofu.

use tofu_syntax::{Block, Diagnostic, Expr, FileId, Location, Syntax, TextRange};

use crate::rules::views::IdentityView;
use tofu_eval::{Type, TypeConstraint};
use tofu_module::address::BlockAddress;
use tofu_module::file_text::FileText;
use tofu_module::loaded::{BlockRef, FileRole, FileView, ModuleFile};
use tofu_module::schema::has_valid_labels;
use tofu_module::types::{convert_variable_value, parse_variable_type, static_value};

const SUMMARY: &str = "Invalid default value for variable";
const NULL_NOT_ALLOWED: &str = "A null default value is not valid when nullable=false.";

/// Step (a) on one file as written: every `variable` block decoded alone.
/// Its results depend on the file alone, so they are cached with it.
pub(crate) fn check_file(view: FileView<'_>, out: &mut Vec<Diagnostic>) {
    let Some(source) = view.file.source.as_deref() else {
        return;
    };
    let Some(block_file) = BlockFile::of(view.id, view.file) else {
        return;
    };
    for block in &source.body.blocks {
        if block.kind == "variable" && has_valid_labels(block) {
            decode_variable(&block_file, block, out);
        }
    }
}

/// Step (b) for one merged variable: what each of its overrides makes of
/// the default. It reads the variable's own blocks alone.
pub(crate) fn check_merged(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    let Some(effective) = view.effective() else {
        return;
    };
    if effective.overrides.is_empty() || !matches!(effective.address, BlockAddress::Variable(_)) {
        return;
    }
    let Some(kept) = effective.base else {
        return;
    };
    // What decoding one block reports is step (a)'s, reported per file.
    let decode = |block_ref: BlockRef| {
        let block = view.block(block_ref)?;
        let file = view.file(block_ref.file)?;
        if !file.role().is_loaded() {
            return None;
        }
        let block_file = BlockFile {
            id: block_ref.file,
            syntax: file.syntax()?,
            text: file.text(block.range)?,
            is_override: file.role() == FileRole::Override,
        };
        Some((block, decode_variable(&block_file, block, &mut Vec::new())))
    };
    let Some((base_block, base)) = decode(kept) else {
        return;
    };
    let base_header = Location::new(kept.file, base_block.header);
    let mut merged = MergedVariable::from_base(&base);
    for &override_ref in &effective.overrides {
        let Some((override_block, override_variable)) = decode(override_ref) else {
            continue;
        };
        let header = Location::new(override_ref.file, override_block.header);
        for detail in merged.apply(&override_variable) {
            out.push(
                Diagnostic::new(crate::codes::INVALID_VARIABLE_DEFAULT, SUMMARY, header)
                    .with_detail(detail)
                    .with_related(base_header, "the block this override changes"),
            );
        }
    }
}

/// The file a block is read from.
struct BlockFile<'a> {
    id: FileId,
    syntax: Syntax,
    /// The file's text, or the part holding the block.
    text: FileText<'a>,
    is_override: bool,
}

impl<'a> BlockFile<'a> {
    /// A loaded file that was parsed, known as `id`.
    fn of(id: FileId, file: &'a ModuleFile) -> Option<BlockFile<'a>> {
        if !file.role.is_loaded() {
            return None;
        }
        let source = file.source.as_deref()?;
        Some(BlockFile {
            id,
            syntax: source.syntax,
            text: FileText::whole(&file.text),
            is_override: file.role == FileRole::Override,
        })
    }
}

/// What `nullable` says, when it can be read as a constant bool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Nullability {
    Nullable,
    NotNullable,
    /// Not a constant bool: OpenTofu reports that elsewhere; stay silent.
    Unknown,
}

/// One `variable` block as decoded on its own (step a).
#[derive(Debug)]
struct DecodedVariable {
    /// The type constraint, if the block has one: a primary block without
    /// `type` has `any`, an override without `type` has none.
    constraint: Option<TypeConstraint>,
    /// The default after the in-block conversion (unknown if that failed),
    /// typed as cty types it: the type it was converted to, `any` resolved.
    default: Option<tofu_eval::Value>,
    /// `nullable`, when the block sets it.
    nullable: Option<Nullability>,
}

fn decode_variable(
    file: &BlockFile<'_>,
    block: &Block,
    out: &mut Vec<Diagnostic>,
) -> DecodedVariable {
    let body = &block.body;
    let constraint = match body.attribute("type") {
        Some(attr) => Some(parse_variable_type(&attr.expr, file.syntax, file.text).constraint),
        None if file.is_override => None,
        None => Some(TypeConstraint::any()),
    };
    let nullable = body
        .attribute("nullable")
        .map(|attr| read_nullability(&attr.expr, file));
    let default = body.attribute("default").map(|attr| {
        let value = static_value(&attr.expr, file.syntax, file.text);
        let value = match &constraint {
            Some(constraint) => convert_variable_value(&value, constraint)
                .unwrap_or_else(|error| {
                    out.push(in_block(file.id, attr.expr.range, format!(
                        "This default value is not compatible with the variable's type constraint: {error}."
                    )));
                    tofu_eval::Value::dynamic_unknown()
                }),
            None => value,
        };
        // An absent `nullable` means nullable, in override blocks too.
        if nullable == Some(Nullability::NotNullable) && value.is_null() {
            out.push(in_block(file.id, attr.expr.range, NULL_NOT_ALLOWED.to_owned()));
        }
        value
    });
    DecodedVariable {
        constraint,
        default,
        nullable,
    }
}

fn read_nullability(expr: &Expr, file: &BlockFile<'_>) -> Nullability {
    let value = static_value(expr, file.syntax, file.text);
    match tofu_eval::convert::convert(&value, &Type::Bool).map(|converted| converted.as_bool()) {
        Ok(Some(true)) => Nullability::Nullable,
        Ok(Some(false)) => Nullability::NotNullable,
        _ => Nullability::Unknown,
    }
}

fn in_block(file: FileId, range: TextRange, detail: String) -> Diagnostic {
    Diagnostic::new(
        crate::codes::INVALID_VARIABLE_DEFAULT,
        SUMMARY,
        Location::new(file, range),
    )
    .with_detail(detail)
}

/// The variable as merged so far (step b).
struct MergedVariable {
    constraint: TypeConstraint,
    /// Typed: a later conversion decides on its type first, as cty's does
    /// (a null converted earlier converts only where its type does).
    default: Option<tofu_eval::Value>,
    nullable: Nullability,
}

impl MergedVariable {
    fn from_base(base: &DecodedVariable) -> MergedVariable {
        MergedVariable {
            constraint: base.constraint.clone().unwrap_or_default(),
            default: base.default.clone(),
            nullable: base.nullable.unwrap_or(Nullability::Nullable),
        }
    }

    /// Merges one override and returns the details of the errors OpenTofu
    /// reports on it.
    fn apply(&mut self, variable: &DecodedVariable) -> Vec<String> {
        if let Some(default) = &variable.default {
            self.default = Some(default.clone());
        }
        if let Some(constraint) = &variable.constraint {
            self.constraint = constraint.clone();
        }
        if let Some(nullable) = variable.nullable {
            self.nullable = nullable;
        }
        let mut details = Vec::new();
        let Some(default) = &self.default else {
            return details;
        };
        // cty's own error, without the path OpenTofu leaves out here.
        match tofu_eval::convert::convert(default, &self.constraint.ty) {
            // A failed conversion keeps the unconverted default, so a later
            // override can fail on it again.
            Ok(converted) => self.default = Some(converted),
            Err(error) => {
                let reason = error.message;
                details.push(
                    match (variable.constraint.is_some(), variable.default.is_some()) {
                        (true, false) => format!(
                            "Overriding this variable's type constraint has made its default value invalid: {reason}."
                        ),
                        (false, true) => format!(
                            "The overridden default value for this variable is not compatible with the variable's type constraint: {reason}."
                        ),
                        _ => format!(
                            "This variable's default value is not compatible with its type constraint: {reason}."
                        ),
                    },
                );
            }
        }
        if self.nullable == Nullability::NotNullable
            && self.default.as_ref().is_some_and(tofu_eval::Value::is_null)
        {
            details.push(NULL_NOT_ALLOWED.to_owned());
        }
        details
    }
}

#[cfg(test)]
mod tests;

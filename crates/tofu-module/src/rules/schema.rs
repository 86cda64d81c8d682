//! Checks on blocks as written, before anything is merged: the top-level schema
//! (block types, labels, stray arguments).
//!
//! Further per-block rules of `diagnostics.md` §2.2 and §2.7 belong here too.

use tofu_syntax::{Block, Code, Diagnostic, FileId, Location, TextRange};

use crate::analysis::ModuleAnalysis;
use crate::schema::top_level_labels;

pub(crate) fn check(module: &ModuleAnalysis, out: &mut Vec<Diagnostic>) {
    for (index, file) in module.files.iter().enumerate() {
        let Some(source) = &file.source else { continue };
        let file_id = FileId(tofu_syntax::text::to_u32(index));
        let json = file.is_json();
        for attr in &source.body.attributes {
            let summary = if json {
                "Extraneous JSON object property"
            } else {
                "Unsupported argument"
            };
            out.push(
                Diagnostic::new(
                    Code::UnsupportedArgument,
                    summary,
                    Location::new(file_id, attr.name_range),
                )
                .with_detail(format!(
                    "An argument named \"{}\" is not expected here.",
                    attr.name
                )),
            );
        }
        for block in &source.body.blocks {
            check_top_level_block(file_id, json, block, out);
        }
    }
}

fn check_top_level_block(file: FileId, json: bool, block: &Block, out: &mut Vec<Diagnostic>) {
    if block.kind == "required_providers" {
        out.push(
            Diagnostic::new(
                Code::MisplacedRequiredProviders,
                "Invalid required_providers block",
                Location::new(file, block.kind_range),
            )
            .with_detail(
                "A \"required_providers\" block must be nested inside a \"terraform\" block.",
            ),
        );
        return;
    }
    let Some(label_names) = top_level_labels(&block.kind) else {
        let (summary, detail) = if json {
            (
                "Extraneous JSON object property",
                format!("No argument or block type is named \"{}\".", block.kind),
            )
        } else {
            (
                "Unsupported block type",
                format!("Blocks of type \"{}\" are not expected here.", block.kind),
            )
        };
        out.push(
            Diagnostic::new(
                Code::UnsupportedBlock,
                summary,
                Location::new(file, block.kind_range),
            )
            .with_detail(detail),
        );
        return;
    };
    if let Some(diagnostic) = check_labels(file, json, block, label_names) {
        out.push(diagnostic);
    }
}

/// `invalid-block-labels`: too many or too few labels, with HCL's wording.
pub(crate) fn check_labels(
    file: FileId,
    json: bool,
    block: &Block,
    label_names: &[&str],
) -> Option<Diagnostic> {
    let kind = &block.kind;
    let n_expected = label_names.len();
    let expected_list = label_names.join(", ");
    if let Some(extra) = block.labels.get(n_expected) {
        let detail = if n_expected == 0 {
            format!("No labels are expected for {kind} blocks.")
        } else {
            format!("Only {n_expected} labels ({expected_list}) are expected for {kind} blocks.")
        };
        return Some(
            Diagnostic::new(
                Code::InvalidBlockLabels,
                format!("Extraneous label for {kind}"),
                Location::new(file, extra.range),
            )
            .with_detail(detail),
        );
    }
    let missing = label_names.get(block.labels.len())?;
    let at = block
        .body
        .open
        .unwrap_or(TextRange::new(block.header.end, block.header.end));
    let summary = if json {
        "Missing block label".to_owned()
    } else {
        format!("Missing {missing} for {kind}")
    };
    Some(
        Diagnostic::new(Code::InvalidBlockLabels, summary, Location::new(file, at)).with_detail(
            format!("All {kind} blocks must have {n_expected} labels ({expected_list})."),
        ),
    )
}

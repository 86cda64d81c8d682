//! What override files change, shown inline in the files people read: inlay
//! hints in base files and code lenses on both sides of an override.
//!
//! OpenTofu's own override page warns that a reader of the original files
//! cannot see what was overridden. Inlay hints put the answer there:
//!
//! - after a base attribute an override replaced: `⟵ "t3.large"
//!   (override.tf:3)`, the effective value shortened to one line;
//! - after a base nested block an override replaced (merging.md §3 rule 2):
//!   `⟵ replaced by override.tf:6`;
//! - after a base block header: `overridden by override.tf, dev_override.tf`;
//! - after a base local value an override replaced, as for attributes.
//!
//! Every place in a label is a part with a target, so an editor can jump to
//! it. Code lenses say the same at block level for clients without inlay
//! hints: "2 overrides" on a base header, "overrides main.tf:1" on an
//! override header. Terraform settings (`terraform` blocks) have their own
//! merge rules and are left to hover.

use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::{EffectiveAttribute, FileRole, Origin};
use tofu_syntax::{FileId, TextRange};

use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileRange};
use crate::snapshot::Snapshot;

/// One inlay hint: where it goes and its label, in parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// A byte offset of the file the hints were asked for.
    pub offset: u32,
    pub label: Vec<InlayLabelPart>,
}

/// A part of a hint's label; one with a target can be clicked to jump there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayLabelPart {
    pub text: String,
    pub target: Option<FileRange>,
}

/// A code lens: a title over a block header, and the places it refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLens {
    /// The header it sits on, in the file the lenses were asked for.
    pub range: TextRange,
    pub title: String,
    pub targets: Vec<FileRange>,
}

/// The longest value a hint shows before it is cut with `…`.
const MAX_VALUE_CHARS: usize = 40;

impl Snapshot {
    /// The inlay hints of the file at `path` whose offsets fall in `range`
    /// (the whole file when `None`). Only primary files get hints: they are
    /// where a reader does not see the overrides.
    pub fn inlay_hints(&self, path: &Path, range: Option<TextRange>) -> Vec<InlayHint> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let module = found.module;
        let analysis = &module.analysis;
        if found.file().map(|file| file.role) != Some(FileRole::Primary) {
            return Vec::new();
        }
        let mut hints = Vec::new();
        for effective in &analysis.effective.blocks {
            let Some(base) = effective.base.filter(|base| base.file == found.id) else {
                continue;
            };
            if effective.overrides.is_empty() {
                continue;
            }
            let Some(block) = analysis.block(base) else {
                continue;
            };
            let mut label = vec![part("overridden by ", None)];
            let mut files: Vec<FileId> = Vec::new();
            for override_ref in &effective.overrides {
                if files.contains(&override_ref.file) {
                    continue;
                }
                files.push(override_ref.file);
                if files.len() > 1 {
                    label.push(part(", ", None));
                }
                let header = analysis.block(*override_ref).map(|b| b.header);
                let name = file_name(analysis, override_ref.file);
                label.push(part(
                    &name,
                    header.and_then(|header| file_range(module, override_ref.file, header)),
                ));
            }
            hints.push(InlayHint {
                offset: block.header.end,
                label,
            });
            for attr in &effective.body.attributes {
                hints.extend(replaced_hints(module, found.id, attr));
            }
            for nested in &effective.body.blocks {
                for origin in nested.superseded.iter().filter(|o| o.file == found.id) {
                    hints.push(replaced_by(module, *origin, nested.origin));
                }
            }
        }
        for local in &analysis.effective.locals {
            if local.base.block.file == found.id && !local.overrides.is_empty() {
                hints.extend(replaced_hints(module, found.id, &local.attribute));
            }
        }
        hints.retain(|hint| range.is_none_or(|range| range.contains_inclusive(hint.offset)));
        hints.sort_by_key(|hint| hint.offset);
        hints
    }

    /// Code lenses of the file at `path`: on a base block header, how many
    /// override blocks change it; on an override block header, the base it
    /// changes.
    pub fn code_lenses(&self, path: &Path) -> Vec<CodeLens> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let module = found.module;
        let analysis = &module.analysis;
        let mut lenses = Vec::new();
        for effective in &analysis.effective.blocks {
            let Some(base) = effective.base else { continue };
            let Some(base_block) = analysis.block(base) else {
                continue;
            };
            if base.file == found.id && !effective.overrides.is_empty() {
                let n_overrides = effective.overrides.len();
                let noun = if n_overrides == 1 {
                    "override"
                } else {
                    "overrides"
                };
                lenses.push(CodeLens {
                    range: base_block.header,
                    title: format!("{n_overrides} {noun}"),
                    targets: effective
                        .overrides
                        .iter()
                        .filter_map(|o| {
                            let header = analysis.block(*o)?.header;
                            file_range(module, o.file, header)
                        })
                        .collect(),
                });
            }
            for override_ref in effective.overrides.iter().filter(|o| o.file == found.id) {
                let Some(override_block) = analysis.block(*override_ref) else {
                    continue;
                };
                lenses.push(CodeLens {
                    range: override_block.header,
                    title: format!(
                        "overrides {}",
                        analysis.place(base.file, base_block.header.start)
                    ),
                    targets: file_range(module, base.file, base_block.header)
                        .into_iter()
                        .collect(),
                });
            }
        }
        lenses.sort_by_key(|lens| lens.range.start);
        lenses
    }
}

/// Hints for the base-file places an effective attribute replaced: its value
/// after a replaced attribute, "replaced by" after a replaced nested block (a
/// JSON property standing for blocks).
fn replaced_hints(
    module: &AnalysedModule,
    file: FileId,
    attr: &EffectiveAttribute,
) -> Vec<InlayHint> {
    let analysis = &module.analysis;
    let Some(base_file) = analysis.file(file) else {
        return Vec::new();
    };
    attr.superseded
        .iter()
        .filter(|origin| origin.file == file && origin.file != attr.origin.file)
        .map(|origin| match base_file.attribute_at(origin.range) {
            Some(_) => InlayHint {
                offset: origin.range.end,
                label: vec![
                    part(&format!("⟵ {} ", value_text(analysis, attr)), None),
                    part(
                        &format!(
                            "({})",
                            analysis.place(attr.origin.file, attr.origin.range.start)
                        ),
                        file_range(module, attr.origin.file, attr.origin.range),
                    ),
                ],
            },
            None => replaced_by(module, *origin, attr.origin),
        })
        .collect()
}

/// `⟵ replaced by override.tf:6` after the replaced base item.
fn replaced_by(module: &AnalysedModule, replaced: Origin, by: Origin) -> InlayHint {
    let analysis = &module.analysis;
    InlayHint {
        offset: replaced.range.end,
        label: vec![
            part("⟵ replaced by ", None),
            part(
                &analysis.place(by.file, by.range.start),
                file_range(module, by.file, by.range),
            ),
        ],
    }
}

/// The effective value as written, on one line and at most
/// [`MAX_VALUE_CHARS`] characters.
fn value_text(analysis: &ModuleAnalysis, attr: &EffectiveAttribute) -> String {
    let Some(file) = analysis.file(attr.origin.file) else {
        return String::new();
    };
    crate::diagnostics::one_line(attr.value.slice(&file.text), MAX_VALUE_CHARS)
}

fn file_name(analysis: &ModuleAnalysis, file: FileId) -> String {
    analysis
        .file(file)
        .map_or_else(|| "?".to_owned(), |file| file.name.clone())
}

fn part(text: &str, target: Option<FileRange>) -> InlayLabelPart {
    InlayLabelPart {
        text: text.to_owned(),
        target,
    }
}

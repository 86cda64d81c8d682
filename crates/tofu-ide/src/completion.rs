//! Completion that knows the module and its overrides.
//!
//! - After `var.`, `local.` or `module.`: the module's variables, local values
//!   and module calls (effective, so a variable declared only once shows its
//!   effective default as detail).
//! - At the top level of a native override file: the header of every base
//!   block the file does not override yet (`resource "aws_instance" "web" {`).
//! - Inside a block of an override file: the base block's arguments and nested
//!   block types the override does not set yet, with the base value as detail.
//! - Inside any block: the arguments and nested blocks OpenTofu itself
//!   defines for its type (`count`, `for_each`, `lifecycle`, …) not set yet.
//!
//! Provider schemas are deliberately absent: tofu-ls completes resource
//! arguments from them; this completes what only the module knows.

use std::path::Path;

use tofu_module::schema::top_level;
use tofu_module::{address_of, BlockAddress, EffectiveBlock, FileRole, ModuleAnalysis};
use tofu_syntax::{Block, TextRange};

use crate::analysis::Analysis;

/// One proposal: what to show, what to insert, and the text it replaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    pub insert_text: String,
    /// The partial word before the cursor that the insertion replaces.
    pub replace: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A top-level block header.
    Block,
    /// An argument of a block.
    Argument,
    /// A nested block type.
    NestedBlock,
    Variable,
    Local,
    Module,
}

/// The longest detail shown for a value before it is cut with `…`.
const MAX_DETAIL_CHARS: usize = 60;

impl Analysis {
    /// The completions at byte `offset` of the file at `path`.
    pub fn completions(&self, path: &Path, offset: u32) -> Vec<CompletionItem> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let analysis = found.analysis();
        let Some(file) = found.file() else {
            return Vec::new();
        };
        if !file.role.is_loaded() {
            return Vec::new();
        }
        let text = &file.text;
        let before = text.get(..offset as usize).unwrap_or_default();
        let line_before = before.rsplit('\n').next().unwrap_or_default();
        if let Some(items) = reference_completions(analysis, line_before, offset) {
            return items;
        }
        let word_len = line_before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .map(char::len_utf8)
            .sum::<usize>();
        let before_word = line_before
            .get(..line_before.len() - word_len)
            .unwrap_or_default();
        if !before_word.trim().is_empty() || file.is_json() {
            // Only a word at the start of a line names an argument or a block.
            return Vec::new();
        }
        let replace = TextRange::from_usize(offset as usize - word_len, offset as usize);
        // A half-typed word (`de` where `default = …` will be) is a syntax
        // error that loses its block, so the blocks are read from the text
        // with that word blanked out (same offsets).
        let blanked: String = text
            .char_indices()
            .map(|(i, c)| {
                if replace.contains(tofu_syntax::text::to_u32(i)) && c != '\n' {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        let parsed = tofu_syntax::parse(&file.name, &blanked);
        let enclosing = parsed
            .body
            .blocks
            .iter()
            .find(|block| block.range.contains(offset));
        match enclosing {
            None if file.role == FileRole::Override => {
                override_headers(analysis, found.id, replace)
            }
            None => Vec::new(),
            Some(block) => {
                let inside_body = block.body.open.is_some_and(|open| open.end <= offset)
                    && block.body.close.is_none_or(|close| offset <= close.start);
                let in_nested = block
                    .body
                    .blocks
                    .iter()
                    .any(|nested| nested.range.contains(offset));
                if !inside_body || in_nested {
                    return Vec::new();
                }
                let mut items = Vec::new();
                let base = address_of(block).and_then(|address| analysis.effective.get(&address));
                if let (FileRole::Override, Some(base)) = (file.role, base) {
                    items.extend(base_arguments(analysis, base, block, replace));
                }
                items.extend(meta_argument_items(block, &items, replace));
                items
            }
        }
    }
}

/// `var.`, `local.` and `module.` followed by a partial name.
fn reference_completions(
    analysis: &ModuleAnalysis,
    line_before: &str,
    offset: u32,
) -> Option<Vec<CompletionItem>> {
    let partial_len = line_before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .map(char::len_utf8)
        .sum::<usize>();
    let before_partial = line_before.get(..line_before.len() - partial_len)?;
    let root = ["var.", "local.", "module."]
        .into_iter()
        .find(|root| before_partial.ends_with(root))?;
    let before_root = before_partial.get(..before_partial.len() - root.len())?;
    if before_root
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
    {
        return None;
    }
    let replace = TextRange::from_usize(offset as usize - partial_len, offset as usize);
    // Variables and module calls: their name, and one argument as detail.
    let named_blocks = |kind: CompletionKind, shown: &str| -> Vec<CompletionItem> {
        analysis
            .effective
            .blocks
            .iter()
            .filter_map(|block| {
                let name = match (&block.address, kind) {
                    (BlockAddress::Variable(name), CompletionKind::Variable)
                    | (BlockAddress::Module(name), CompletionKind::Module) => name,
                    _ => return None,
                };
                Some(CompletionItem {
                    label: name.clone(),
                    kind,
                    detail: attribute_value(analysis, block, shown)
                        .map(|value| format!("{shown} = {value}")),
                    insert_text: name.clone(),
                    replace,
                })
            })
            .collect()
    };
    let items = match root {
        "var." => named_blocks(CompletionKind::Variable, "default"),
        "module." => named_blocks(CompletionKind::Module, "source"),
        _ => analysis
            .effective
            .locals
            .iter()
            .map(|local| CompletionItem {
                label: local.name.clone(),
                kind: CompletionKind::Local,
                detail: analysis
                    .file(local.attribute.origin.file)
                    .map(|file| one_line(local.attribute.value.slice(&file.text))),
                insert_text: local.name.clone(),
                replace,
            })
            .collect(),
    };
    Some(items)
}

/// The headers of the base blocks this override file does not override yet.
fn override_headers(
    analysis: &ModuleAnalysis,
    file: tofu_syntax::FileId,
    replace: TextRange,
) -> Vec<CompletionItem> {
    analysis
        .effective
        .blocks
        .iter()
        .filter(|block| block.base.is_some())
        .filter(|block| !block.overrides.iter().any(|o| o.file == file))
        .filter(|block| !matches!(block.address, BlockAddress::Check(_)))
        .map(|block| {
            let labels: String = block
                .labels
                .iter()
                .map(|label| format!(" \"{label}\""))
                .collect();
            let header = format!("{}{labels}", block.kind);
            CompletionItem {
                label: header.clone(),
                kind: CompletionKind::Block,
                detail: block
                    .base
                    .and_then(|base| {
                        Some(analysis.place(base.file, analysis.block(base)?.header.start))
                    })
                    .map(|place| format!("override the block at {place}")),
                insert_text: format!("{header} {{\n}}"),
                replace,
            }
        })
        .collect()
}

/// The base block's arguments and nested block types the override block
/// does not set yet, with the effective value as detail.
fn base_arguments(
    analysis: &ModuleAnalysis,
    base: &EffectiveBlock,
    override_block: &Block,
    replace: TextRange,
) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    for attr in &base.body.attributes {
        if override_block.body.attribute(&attr.name).is_some() {
            continue;
        }
        items.push(CompletionItem {
            label: attr.name.clone(),
            kind: CompletionKind::Argument,
            detail: analysis
                .file(attr.origin.file)
                .map(|file| format!("base: {}", one_line(attr.value.slice(&file.text)))),
            insert_text: format!("{} = ", attr.name),
            replace,
        });
    }
    for nested in &base.body.blocks {
        let kind = nested.merge_kind();
        let present = override_block.body.blocks.iter().any(|b| b.kind == kind)
            || items.iter().any(|item| item.label == kind);
        if present {
            continue;
        }
        items.push(CompletionItem {
            label: kind.to_owned(),
            kind: CompletionKind::NestedBlock,
            detail: Some(format!(
                "base block at {} (an override replaces all of them)",
                analysis.place(nested.origin.file, nested.origin.range.start)
            )),
            insert_text: format!("{kind} {{\n}}"),
            replace,
        });
    }
    items
}

/// The arguments and nested blocks OpenTofu defines for the block's type,
/// minus those already set or already proposed.
fn meta_argument_items(
    block: &Block,
    proposed: &[CompletionItem],
    replace: TextRange,
) -> Vec<CompletionItem> {
    let Some(schema) = top_level(&block.kind) else {
        return Vec::new();
    };
    let taken = |name: &str| {
        block.body.attribute(name).is_some()
            || block.body.blocks.iter().any(|b| b.kind == name)
            || proposed.iter().any(|item| item.label == name)
    };
    let arguments = schema
        .arguments
        .iter()
        .filter(|name| !taken(name))
        .map(|name| CompletionItem {
            label: (*name).to_owned(),
            kind: CompletionKind::Argument,
            detail: Some(format!("{} meta-argument", block.kind)),
            insert_text: format!("{name} = "),
            replace,
        });
    let blocks = schema
        .block_kinds()
        .filter(|name| !taken(name))
        .map(|name| CompletionItem {
            label: (*name).to_owned(),
            kind: CompletionKind::NestedBlock,
            detail: Some(format!("{} block", block.kind)),
            insert_text: format!("{name} {{\n}}"),
            replace,
        });
    arguments.chain(blocks).collect()
}

fn attribute_value(
    analysis: &ModuleAnalysis,
    block: &EffectiveBlock,
    name: &str,
) -> Option<String> {
    let attr = block.body.attribute(name)?;
    let file = analysis.file(attr.origin.file)?;
    Some(one_line(attr.value.slice(&file.text)))
}

fn one_line(text: &str) -> String {
    crate::analysis::one_line(text, MAX_DETAIL_CHARS)
}

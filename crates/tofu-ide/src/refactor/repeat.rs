//! Single ↔ repeated (issue 46, part 4): a managed resource written once
//! becomes `count = 1` or a `for_each` over one key (its name), with the
//! `moved` block from its old address to the instance, and every reference
//! to it indexed (`[0]`, `["web"]`) so validate still accepts them.
//!
//! References that name the whole resource keep it: `depends_on`,
//! `replace_triggered_by`, and the history of `moved` blocks. A reference
//! already followed by an index or a splat is left as it is (`a.b[*]` reads
//! every instance either way). The resource must be written in native
//! syntax in a primary file; its override blocks need no edit, since they
//! merge into the new block as before.

use tofu_module::reference_sites::{reference_sites, RefTarget};
use tofu_module::{address_of, BlockAddress, FileRole, ResourceMode};
use tofu_syntax::{Block, FileId, TextRange};

use super::text::{line_end, line_start};
use super::{RefactorKind, Refactoring};
use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileEdit};
use crate::rename_moves::in_moved_block;

pub(super) fn refactorings(
    module: &AnalysedModule,
    file: FileId,
    block: &Block,
) -> Vec<Refactoring> {
    let Some(address) = address_of(block) else {
        return Vec::new();
    };
    let BlockAddress::Resource {
        mode: ResourceMode::Managed,
        type_name,
        name,
    } = &address
    else {
        return Vec::new();
    };
    let analysis = &module.analysis;
    let Some(source) = analysis.file(file) else {
        return Vec::new();
    };
    let Some(effective) = analysis.effective.get(&address) else {
        return Vec::new();
    };
    if source.role != FileRole::Primary
        || effective.body.attribute("count").is_some()
        || effective.body.attribute("for_each").is_some()
    {
        return Vec::new();
    }
    let state_address = format!("{type_name}.{name}");
    let forms = [
        ("count = 1".to_owned(), "[0]".to_owned()),
        (
            format!("for_each = toset([\"{name}\"])"),
            format!("[\"{name}\"]"),
        ),
    ];
    forms
        .into_iter()
        .map(|(meta, key)| {
            let title = format!("Repeat `{state_address}` with `{meta}`");
            if source.is_json() {
                return Refactoring::refused(
                    title,
                    RefactorKind::Rewrite,
                    "The resource is written in JSON: tofu-lens rewrites native blocks only.",
                );
            }
            match repeated(module, file, block, &address, &meta, &key) {
                Some(edits) => Refactoring::edits(title, RefactorKind::Rewrite, edits),
                None => Refactoring::refused(
                    title,
                    RefactorKind::Rewrite,
                    "The block's body could not be read.",
                ),
            }
        })
        .collect()
}

/// The edits that give `block` the meta-argument `meta` (`count = 1`),
/// index its references with `key` and record the move.
fn repeated(
    module: &AnalysedModule,
    file: FileId,
    block: &Block,
    address: &BlockAddress,
    meta: &str,
    key: &str,
) -> Option<Vec<FileEdit>> {
    let analysis = &module.analysis;
    let source = analysis.file(file)?;
    let text: &str = &source.text;
    let open = block.body.open?;
    let close = block.body.close?;
    let block_line = line_start(text, block.range.start as usize);
    let indent: String = text
        .get(block_line..)?
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let mut edits = Vec::new();
    let open_line_end = line_end(text, open.end as usize);
    if close.start as usize <= open_line_end {
        // `resource "a" "b" {}` on one line: the body gets lines of its own.
        let inside = TextRange::new(open.start, close.end);
        edits.push(FileEdit {
            location: file_range(module, file, inside)?,
            new_text: format!("{{\n{indent}  {meta}\n{indent}}}"),
        });
    } else {
        let next_end = line_end(text, open_line_end);
        let next_line = text.get(open_line_end..next_end).unwrap_or_default();
        let separated = next_line.trim().is_empty() || open_line_end >= close.start as usize;
        let first_is_close = next_line.trim_start().starts_with('}');
        let gap = if separated || first_is_close {
            ""
        } else {
            "\n"
        };
        let at = tofu_syntax::text::to_u32(open_line_end);
        edits.push(FileEdit {
            location: file_range(module, file, TextRange::new(at, at))?,
            new_text: format!("{indent}  {meta}\n{gap}"),
        });
    }
    let target = RefTarget::Resource(address.clone());
    for site in reference_sites(analysis)
        .iter()
        .filter(|site| site.target == target)
    {
        if in_moved_block(analysis, site.file, site.range)
            || names_whole_object(analysis, site.file, site.range)
        {
            continue;
        }
        let site_text = analysis.file(site.file)?.text.clone();
        let after = site_text
            .get(site.name_range.end as usize..)
            .unwrap_or_default();
        if after.starts_with('[') || after.starts_with(".*") {
            continue;
        }
        let at = site.name_range.end;
        edits.push(FileEdit {
            location: file_range(module, site.file, TextRange::new(at, at))?,
            new_text: key.to_owned(),
        });
    }
    let BlockAddress::Resource {
        type_name, name, ..
    } = address
    else {
        return None;
    };
    let statement =
        format!("moved {{\n  from = {type_name}.{name}\n  to   = {type_name}.{name}{key}\n}}\n");
    edits.push(crate::rename_moves::place_statement(
        module,
        &["moved.tf", "moved.tofu"],
        address,
        &statement,
    )?);
    Some(edits)
}

/// Whether `range` of `file` lies in an argument that names whole objects:
/// `depends_on`, or `lifecycle`'s `replace_triggered_by`.
fn names_whole_object(
    analysis: &tofu_diagnostics::ModuleAnalysis,
    file: FileId,
    range: TextRange,
) -> bool {
    let Some(source) = analysis.file(file).and_then(|file| file.source.as_deref()) else {
        return false;
    };
    let inside = |attribute: &tofu_syntax::Attribute| {
        attribute.range.start <= range.start && range.end <= attribute.range.end
    };
    source
        .body
        .blocks
        .iter()
        .filter(|block| block.range.start <= range.start && range.end <= block.range.end)
        .any(|block| {
            block.body.attribute("depends_on").is_some_and(inside)
                || block
                    .body
                    .blocks
                    .iter()
                    .filter(|nested| nested.kind == "lifecycle")
                    .any(|lifecycle| {
                        lifecycle
                            .body
                            .attribute("replace_triggered_by")
                            .is_some_and(inside)
                    })
        })
}

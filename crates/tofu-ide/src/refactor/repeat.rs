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

use tofu_module::reference_sites::RefTarget;
use tofu_module::{address_of, BlockAddress, FileRole, ResourceMode};
use tofu_syntax::{Block, FileId, TextRange};

use super::kinds::{ModuleSites, RefactorKind, Refactoring};
use super::text::{in_whole_object_argument, line_end, line_start, place, rewritten_block};
use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileEdit};
use crate::rename_moves::in_moved_block;
use crate::snapshot::Snapshot;

pub(super) fn refactorings(
    snapshot: &Snapshot,
    module: &AnalysedModule,
    sites: &ModuleSites<'_>,
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
    if source.role != FileRole::Primary || effective.body.attribute("for_each").is_some() {
        return Vec::new();
    }
    if let Some(count) = effective.body.attribute("count") {
        return count_to_for_each(snapshot, module, sites, file, block, &address, count)
            .into_iter()
            .collect();
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
            match repeated(module, sites, file, block, &address, &meta, &key) {
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
    sites: &ModuleSites<'_>,
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
    for site in sites.all().iter().filter(|site| site.target == target) {
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
            new_text: written_in(analysis.file(site.file)?, key),
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

/// `text`, an expression's part, as it is written in `file`: inside a JSON
/// string there (a reference of a JSON file is a template), its quotes
/// and backslashes escaped.
fn written_in(file: &tofu_module::ModuleFile, text: &str) -> String {
    if file.is_json() {
        text.replace('\\', "\\\\").replace('"', "\\\"")
    } else {
        text.to_owned()
    }
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
    source
        .body
        .blocks
        .iter()
        .filter(|block| block.range.start <= range.start && range.end <= block.range.end)
        .any(|block| in_whole_object_argument(block, range.start))
}

/// `count = length(LIST)` becomes `for_each = toset(LIST)` when LIST is a
/// known list of distinct strings: `LIST[count.index]` in the body becomes
/// `each.key`, each reference `a.b[N]` becomes `a.b["KEY"]`, a splat
/// `a.b[*]` becomes `values(a.b)[*]` when the keys are sorted (a map's
/// values come in key order), and each instance gets its `moved` block.
/// Anything else that reads the index or the whole list of instances is a
/// refusal naming where.
fn count_to_for_each(
    snapshot: &Snapshot,
    module: &AnalysedModule,
    sites: &ModuleSites<'_>,
    file: FileId,
    block: &Block,
    address: &BlockAddress,
    count: &tofu_module::EffectiveAttribute,
) -> Option<Refactoring> {
    let BlockAddress::Resource {
        type_name, name, ..
    } = address
    else {
        return None;
    };
    let state_address = format!("{type_name}.{name}");
    let analysis = &module.analysis;
    let source = analysis.file(file)?;
    let text: &str = &source.text;
    let written = block.body.attribute("count");
    let list = written.and_then(|attribute| match &attribute.expr.kind {
        tofu_syntax::ExprKind::Call(call)
            if call.name == "length" && call.args.len() == 1 && !call.expand_final =>
        {
            call.args.first()
        }
        _ => None,
    });
    let list_text = list.map(|list| list.range.slice(text).to_owned());
    let title = format!(
        "Convert `{state_address}` to `for_each = toset({})`",
        list_text.as_deref().unwrap_or("…")
    );
    let refuse = |reason: String| Some(Refactoring::refused(&title, RefactorKind::Rewrite, reason));
    if source.is_json() {
        return refuse(
            "The resource is written in JSON: tofu-lens rewrites native blocks only.".to_owned(),
        );
    }
    let (Some(written), Some(list), Some(list_text)) = (written, list, list_text) else {
        if count.origin.file != file {
            return refuse("`count` is set in an override file.".to_owned());
        }
        return refuse(
            "`for_each` needs keys: write `count = length(LIST)` with a list of distinct strings, whose elements become the keys."
                .to_owned(),
        );
    };
    let files = snapshot.module_files(&module.dir);
    let value = crate::values::expression_value(analysis, &module.dir, &files, file, list);
    let keys: Option<Vec<String>> = value.and_then(|value| match value.kind {
        tofu_eval::ValueKind::List { items, .. } | tofu_eval::ValueKind::Tuple(items) => items
            .iter()
            .map(|item| item.as_str().map(str::to_owned))
            .collect(),
        _ => None,
    });
    let Some(keys) = keys else {
        return refuse(format!(
            "The elements of `{list_text}` are not known as strings before apply: they would be the keys."
        ));
    };
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    if unique.len() != keys.len() {
        return refuse(format!(
            "`{list_text}` holds an element twice: `for_each` keys must be distinct."
        ));
    }
    let sorted = unique == keys;
    let line = |file: FileId, offset: u32| place(analysis, file, offset);
    let quoted = |key: &str| tofu_eval::format_value(&tofu_eval::Value::string(key));
    // The block's own edits, laid out once as `tofu fmt` would.
    let mut in_block = vec![(written.range, format!("for_each = toset({list_text})"))];
    let indexed = format!("{list_text}[count.index]");
    let body = block.range.slice(text);
    let mut from = 0;
    while let Some(found) = body.get(from..).and_then(|rest| rest.find("count.index")) {
        let at = from + found;
        let absolute = block.range.start as usize + at;
        let start = absolute.checked_sub(list_text.len() + 1);
        let whole = start.and_then(|start| text.get(start..absolute + "count.index]".len()));
        if let (Some(start), Some(whole)) = (start, whole.filter(|whole| *whole == indexed)) {
            let range = TextRange::from_usize(start, start + whole.len());
            in_block.push((range, "each.key".to_owned()));
        } else {
            return refuse(format!(
                "`count.index` is read at {} other than as `{indexed}`.",
                line(file, tofu_syntax::text::to_u32(absolute))
            ));
        }
        from = at + "count.index".len();
    }
    let mut edits = vec![FileEdit {
        location: file_range(module, file, block.range)?,
        new_text: rewritten_block(text, block.range, &in_block),
    }];
    let target = RefTarget::Resource(address.clone());
    for site in sites.all().iter().filter(|site| site.target == target) {
        if in_moved_block(analysis, site.file, site.range)
            || names_whole_object(analysis, site.file, site.range)
            || (site.file == file && block.range.contains(site.range.start))
        {
            continue;
        }
        let site_text = analysis.file(site.file)?.text.clone();
        let end = site.name_range.end as usize;
        let after = site_text.get(end..).unwrap_or_default();
        let index: Option<usize> = after
            .strip_prefix('[')
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(index, _)| index.trim().parse().ok());
        let splat = ["[*]", ".*"]
            .into_iter()
            .find(|splat| after.starts_with(splat));
        if let Some(index) = index {
            let Some(key) = keys.get(index) else {
                return refuse(format!(
                    "`{state_address}[{index}]` at {} is past its last instance.",
                    line(site.file, site.range.start)
                ));
            };
            let close = after.find(']').unwrap_or_default();
            let range = TextRange::from_usize(end, end + close + 1);
            edits.push(FileEdit {
                location: file_range(module, site.file, range)?,
                new_text: written_in(analysis.file(site.file)?, &format!("[{}]", quoted(key))),
            });
        } else if let (Some(splat), true) = (splat, sorted) {
            let range = TextRange::from_usize(site.range.start as usize, end + splat.len());
            edits.push(FileEdit {
                location: file_range(module, site.file, range)?,
                new_text: format!("values({})[*]", site.range.slice(&site_text)),
            });
        } else {
            return refuse(format!(
                "`{state_address}` is read at {} as a list of its instances, whose order `for_each` would change.",
                line(site.file, site.range.start)
            ));
        }
    }
    let statements: String = keys
        .iter()
        .enumerate()
        .map(|(index, key)| {
            format!(
                "moved {{\n  from = {state_address}[{index}]\n  to   = {state_address}[{}]\n}}\n",
                quoted(key)
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    if !statements.is_empty() {
        edits.push(crate::rename_moves::place_statement(
            module,
            &["moved.tf", "moved.tofu"],
            address,
            &statements,
        )?);
    }
    Some(Refactoring::edits(title, RefactorKind::Rewrite, edits))
}

//! Move to another file (issue 46, part 2): the selected top-level blocks of
//! a native primary file, with the comment lines above them and what lies
//! between them, go to a new file or to the end of another primary file of
//! the module. The state does not change (a block's address does not name
//! its file), so no `moved` block is written.
//!
//! Existing files are offered most alike first (holding blocks of the same
//! kind and type, then kind), ten at most. Only files OpenTofu reads as
//! primary files are targets: an override file
//! would turn the blocks into overrides, and a `.tf` file hidden by its
//! `.tofu` twin is not read at all. A `terraform` or `language` block keeps
//! its extension (OpenTofu 1.12 reads `required_version` from `.tofu` files
//! only). A new file is named after what it holds (`variables.tf` for
//! variables, `web.tf` for `resource "aws_instance" "web"`), never a name
//! any module file has in another extension, nor an override file's name.

use tofu_module::FileRole;
use tofu_syntax::{Block, FileId, TextRange};

use super::kinds::{RefactorKind, Refactoring};
use super::text::{appended, block_span, removal};
use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileEdit};

const TITLE: &str = "Move to another file";

/// The most existing files offered as targets.
const MAX_TARGETS: usize = 10;

pub(super) fn refactorings(
    module: &AnalysedModule,
    file: FileId,
    blocks: &[&Block],
) -> Vec<Refactoring> {
    let analysis = &module.analysis;
    let (Some(source), Some(first), Some(last)) =
        (analysis.file(file), blocks.first(), blocks.last())
    else {
        return Vec::new();
    };
    if source.is_json() {
        return vec![Refactoring::refused(
            TITLE,
            RefactorKind::Move,
            "The blocks are written in JSON: tofu-lens moves blocks of native files only.",
        )];
    }
    if source.role != FileRole::Primary {
        return vec![Refactoring::refused(
            TITLE,
            RefactorKind::Move,
            "The blocks are in an override file: moving them would change what they override.",
        )];
    }
    if source
        .source
        .as_ref()
        .is_some_and(|parsed| parsed.has_errors())
    {
        return vec![Refactoring::refused(
            TITLE,
            RefactorKind::Move,
            "The file has syntax errors: fix them before moving its blocks.",
        )];
    }
    let text = &source.text;
    let start = block_span(text, first.range).start;
    let end = block_span(text, last.range).end;
    let span = TextRange::new(start, end);
    let moved = span.slice(text);
    let Some(taken) = file_range(module, file, removal(text, span)) else {
        return Vec::new();
    };
    let take = FileEdit {
        location: taken,
        new_text: String::new(),
    };
    let what = match blocks.len() {
        1 => "Move".to_owned(),
        n => format!("Move {n} blocks"),
    };
    let keeps_extension = blocks
        .iter()
        .any(|block| matches!(block.kind.as_str(), "terraform" | "language"));
    let mut refactorings = Vec::new();
    let stem = new_file_stem(module, blocks);
    let extension = if source.is_tofu() { "tofu" } else { "tf" };
    let new_name = format!("{stem}.{extension}");
    refactorings.push(Refactoring {
        title: format!("{what} to new file `{new_name}`"),
        kind: RefactorKind::Move,
        edits: vec![take.clone()],
        new_files: vec![(module.path_of(&new_name), with_newline(moved))],
        refused: None,
    });
    let mut targets: Vec<&tofu_module::ModuleFile> = analysis
        .primary
        .iter()
        .filter(|&&id| id != file)
        .filter_map(|&id| analysis.file(id))
        .filter(|target| target.role == FileRole::Primary && !target.is_json())
        .filter(|target| !keeps_extension || target.is_tofu() == source.is_tofu())
        .collect();
    // The files most like the selection first (a block of the same kind
    // and type, then of the same kind), then by name; a module of a
    // thousand files offers ten.
    let first_kind = first.kind.as_str();
    let first_type = first.labels.first().map(|label| label.value.as_str());
    let likeness = |target: &tofu_module::ModuleFile| {
        let blocks = target
            .source
            .as_deref()
            .map_or(&[][..], |parsed| parsed.body.blocks.as_slice());
        let same_kind = blocks.iter().filter(|block| block.kind == first_kind);
        let mut likeness = 0;
        for block in same_kind {
            likeness = likeness.max(1);
            if block.labels.first().map(|label| label.value.as_str()) == first_type {
                likeness = 2;
            }
        }
        likeness
    };
    targets.sort_by_cached_key(|target| (std::cmp::Reverse(likeness(target)), target.name.clone()));
    targets.truncate(MAX_TARGETS);
    for target in targets {
        let Some(id) = analysis.file_id(&target.name) else {
            continue;
        };
        let end = tofu_syntax::text::to_u32(target.text.len());
        let Some(location) = file_range(module, id, TextRange::new(end, end)) else {
            continue;
        };
        let put = FileEdit {
            location,
            new_text: appended(&target.text, moved),
        };
        refactorings.push(Refactoring::edits(
            format!("{what} to `{}`", target.name),
            RefactorKind::Move,
            vec![take.clone(), put],
        ));
    }
    refactorings
}

fn with_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

/// The name (without extension) of a new file for `blocks`: after the kind
/// of the first block (`variables`, `outputs`) or its name, made free of
/// every name the module's files use and of override files' names.
fn new_file_stem(module: &AnalysedModule, blocks: &[&Block]) -> String {
    let first = blocks.first();
    let by_kind = first.and_then(|block| match block.kind.as_str() {
        "variable" => Some("variables"),
        "output" => Some("outputs"),
        "locals" => Some("locals"),
        "provider" => Some("providers"),
        "terraform" => Some("versions"),
        "moved" => Some("moved"),
        "import" => Some("imports"),
        "removed" => Some("removed"),
        "check" => Some("checks"),
        _ => None,
    });
    let by_name = first
        .and_then(|block| block.labels.last())
        .map(|label| label.value.as_str())
        .filter(|name| tofu_module::names::is_identifier(name));
    let taken = |stem: &str| {
        stem == "override"
            || stem.ends_with("_override")
            || module.analysis.files.iter().any(|file| {
                file.name
                    .strip_prefix(stem)
                    .is_some_and(|rest| matches!(rest, ".tf" | ".tofu" | ".tf.json" | ".tofu.json"))
            })
    };
    let candidates: Vec<&str> = by_kind.into_iter().chain(by_name).collect();
    if let Some(free) = candidates.iter().find(|stem| !taken(stem)) {
        return (*free).to_owned();
    }
    let base = candidates.first().copied().unwrap_or("moved_blocks");
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|stem| !taken(stem))
        .unwrap_or_else(|| base.to_owned())
}

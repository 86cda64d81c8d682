//! Hover: the effective block under the cursor, as `server.md` §Hover asks.
//!
//! The markdown's first fenced code block (```` ```hcl ````) is the effective
//! block after every override, rendered by `tofu_module::show` with a comment on
//! each part that came from an override file. Below it, plain lines say where
//! the block was declared and what each override file changed. A block that has
//! no effective view (an override without a base, a block OpenTofu forbids in
//! override files, a duplicate or dropped declaration) is shown as written,
//! with a line saying what OpenTofu does with it. Files OpenTofu does not read
//! get no hover.
//!
//! Across the module boundary: on an argument of a `module` block, the called
//! module's effective variable (then what became of the argument); on
//! `module.NAME.OUTPUT`, its effective output; each with the place it is
//! declared, relative to the caller. On a name in a `.tfvars` file, the
//! variable it sets. On a built-in function's name, its signature and
//! description (`functions.rs`). On a local value, an input variable or an
//! output (used or declared), its value as `tofu console` prints it
//! (`values.rs`).
//!
//! On an argument or nested block type of a resource body whose provider's
//! schema the analysis has: what the schema says of it (`provider_schema`).

use std::fmt::Write as _;
use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::reference_sites::{RefTarget, ReferenceSite};
use tofu_module::schema::{top_level, Rest};
use tofu_module::show::{
    render_as_written, render_block, render_locals, render_terraform, replaces_blocks, Provenance,
};
use tofu_module::{
    address_of, BlockAddress, BlockFate, BlockRef, DropReason, EffectiveAttribute, EffectiveBlock,
    EffectiveLocal, FileRole, Origin,
};
use tofu_syntax::{Block, TextRange};

use crate::analysed_module::FileInModule;
use crate::diagnostics::one_line;
use crate::locate::site_at;
use crate::locate::{block_at, local_entry_at, on_header, BlockAt};
use crate::module_calls::{relative_path, Interface, Side};
use crate::snapshot::Snapshot;
use crate::test_runs::{run_block, run_module_dir, run_reference_at};
use crate::values::with_value_note;

/// What hover shows: markdown, and the range it is about (the block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    pub markdown: String,
    pub range: TextRange,
}

impl Snapshot {
    /// Hover at byte `offset` of the file at `path`.
    pub fn hover(&self, path: &std::path::Path, offset: u32) -> Option<HoverResult> {
        let found = self.find_file(path)?;
        let function = found
            .file()
            .and_then(|file| crate::functions::function_hover(file, offset));
        if let Some((markdown, range)) = function {
            return Some(HoverResult { markdown, range });
        }
        let provider_function = found.file().and_then(|file| {
            crate::functions::provider_function_hover(file, found.analysis(), offset)
        });
        if let Some((markdown, range)) = provider_function {
            return Some(HoverResult { markdown, range });
        }
        if let Some(hover) = self.run_hover(&found, offset) {
            return Some(hover);
        }
        if let Some(at) = self.interface_at(path, offset) {
            let markdown = match at.side {
                Side::Caller => {
                    let mut markdown = self.interface_hover(&at.interface, &found.module.dir);
                    let note = block_at(&found, offset)
                        .and_then(|block| attribute_note(found.analysis(), &block, offset));
                    if let (Some(markdown), Some(note)) = (&mut markdown, note) {
                        markdown.push_str("\n---\n\n");
                        markdown.push_str(&note);
                    }
                    markdown
                }
                Side::Values => {
                    let name = at.interface.name().to_owned();
                    found
                        .analysis()
                        .effective
                        .get(&BlockAddress::Variable(name))
                        .map(|effective| effective_block_hover(found.analysis(), effective))
                }
                Side::Module => None,
            };
            if let Some(markdown) = markdown {
                return Some(HoverResult {
                    markdown,
                    range: at.name_range,
                });
            }
        }
        let dir = &found.module.dir;
        if let Some(site) = site_at(found.analysis(), found.id, offset) {
            return reference_hover(found.analysis(), &site).map(|hover| HoverResult {
                markdown: with_value_note(
                    hover.markdown,
                    found.analysis(),
                    dir,
                    &self.module_files(dir),
                    &site.target,
                ),
                range: hover.range,
            });
        }
        let at = block_at(&found, offset)?;
        let analysis = found.analysis();
        if let Some((markdown, range)) = crate::provider_schema::hover(analysis, at.block, offset) {
            return Some(HoverResult { markdown, range });
        }
        let mut markdown = match at.block.kind.as_str() {
            "terraform" => terraform_hover(analysis, &at),
            "locals" => locals_hover(analysis, &at),
            _ => match analysis.effective.block_containing(at.block_ref) {
                Some(effective) => effective_block_hover(analysis, effective),
                None => as_written_hover(&found, &at),
            },
        };
        if let Some(note) = attribute_note(analysis, &at, offset) {
            markdown.push_str("\n---\n\n");
            markdown.push_str(&note);
        }
        // A value on a declaration's header (of the block in effect) or on
        // a local value's name.
        let on_effective_header = found
            .file()
            .is_some_and(|file| on_header(at.block, file.is_json(), offset))
            && analysis.effective.block_containing(at.block_ref).is_some();
        let valued = match address_of(at.block) {
            Some(BlockAddress::Variable(name)) if on_effective_header => {
                Some(RefTarget::Variable(name))
            }
            Some(BlockAddress::Output(name)) if on_effective_header => {
                Some(RefTarget::Output(name))
            }
            _ => local_entry_at(&at, offset).map(|(_, attr)| RefTarget::Local(attr.name.clone())),
        };
        if let Some(target) = valued {
            markdown = with_value_note(markdown, analysis, dir, &self.module_files(dir), &target);
        }
        Some(HoverResult {
            markdown,
            range: at.block.range,
        })
    }
}

impl Snapshot {
    /// A called module's effective variable or output, with where it is
    /// declared and changed, relative to the caller's directory `from_dir`.
    /// In a test file, on `run.NAME`: the run block and the module it
    /// applies; on `run.NAME.OUTPUT`: that module's output, as on
    /// `module.NAME.OUTPUT`.
    fn run_hover(&self, found: &FileInModule<'_>, offset: u32) -> Option<HoverResult> {
        let file = found.file().filter(|file| file.role == FileRole::Test)?;
        let source = file.source.as_deref()?;
        let reference = run_reference_at(source, offset)?;
        let dir = run_module_dir(source, &reference.run, &found.module.dir);
        let markdown = match &reference.output {
            Some(output) => self.interface_hover(
                &Interface {
                    dir: dir?,
                    target: RefTarget::Output(output.clone()),
                },
                &found.module.dir,
            )?,
            None => {
                run_block(source, &reference.run)?;
                let mut markdown = code_block(&format!("run \"{}\"", reference.run));
                let _ = write!(markdown, "\nA run of `{}`", file.name);
                match dir {
                    Some(dir) => {
                        let _ = writeln!(
                            markdown,
                            "; it applies the module `{}`.",
                            relative_path(&found.module.dir, &dir)
                        );
                    }
                    None => markdown.push_str("; its module is installed by `tofu test`.\n"),
                }
                markdown
            }
        };
        Some(HoverResult {
            markdown,
            range: reference.range,
        })
    }

    fn interface_hover(&self, interface: &Interface, from_dir: &Path) -> Option<String> {
        let module = self.module(&interface.dir)?;
        let analysis = &module.analysis;
        let (address, what) = match &interface.target {
            RefTarget::Variable(name) => (BlockAddress::Variable(name.clone()), "Variable"),
            RefTarget::Output(name) => (BlockAddress::Output(name.clone()), "Output"),
            _ => return None,
        };
        let effective = analysis.effective.get(&address)?;
        let located = |block: BlockRef| {
            let place = place(analysis, block_origin(analysis, block));
            format!("`{}`", relative_path(from_dir, &module.dir.join(place)))
        };
        let mut out = code_block(&render_block(
            analysis,
            effective,
            Provenance::OverridesOnly,
        ));
        let _ = write!(
            out,
            "\n{what} of the module `{}`",
            relative_path(from_dir, &module.dir)
        );
        if let Some(base) = effective.base {
            let _ = write!(out, ", declared in {}", located(base));
        }
        if !effective.overrides.is_empty() {
            let overrides: Vec<String> = effective.overrides.iter().map(|o| located(*o)).collect();
            let _ = write!(out, "; changed by {}", overrides.join(", "));
        }
        out.push_str(".\n");
        if what == "Variable" && effective.body.attribute("default").is_none() {
            out.push_str("\nRequired: it has no default, so every call must set it.\n");
        }
        Some(out)
    }
}

/// On a reference: the effective declaration it names (with the override
/// files that changed it), as on the declaration itself.
fn reference_hover(analysis: &ModuleAnalysis, site: &ReferenceSite) -> Option<HoverResult> {
    let address = match &site.target {
        RefTarget::Local(name) => {
            let local = analysis.effective.local(name)?;
            let mut markdown =
                code_block(&render_locals(analysis, [local], Provenance::OverridesOnly));
            let _ = write!(
                markdown,
                "\nDefined in `{}`",
                analysis.place(local.base.block.file, local_start(analysis, local.base)?)
            );
            if local.overrides.is_empty() {
                markdown.push_str(".\n");
            } else {
                let _ = writeln!(
                    markdown,
                    "; the value in effect is from `{}`.",
                    place(analysis, local.attribute.origin)
                );
            }
            return Some(HoverResult {
                markdown,
                range: site.range,
            });
        }
        RefTarget::Variable(name) => BlockAddress::Variable(name.clone()),
        RefTarget::Output(name) => BlockAddress::Output(name.clone()),
        RefTarget::ModuleCall(name) => BlockAddress::Module(name.clone()),
        RefTarget::Resource(address) => address.clone(),
    };
    let effective = analysis.effective.get(&address)?;
    Some(HoverResult {
        markdown: effective_block_hover(analysis, effective),
        range: site.range,
    })
}

/// On the name of an argument of a block that has an effective view: what
/// defines the argument when OpenTofu does (a meta-argument, from OpenTofu's
/// schema table), whether it is in effect, and what replaced it or what it
/// replaces.
fn attribute_note(analysis: &ModuleAnalysis, at: &BlockAt<'_>, offset: u32) -> Option<String> {
    let attr = at
        .block
        .body
        .attributes
        .iter()
        .find(|attr| attr.name_range.contains_inclusive(offset))?;
    let effective = analysis.effective.block_containing(at.block_ref)?;
    let here = Origin {
        file: at.block_ref.file,
        range: attr.range,
    };
    let name = &attr.name;
    let kind = &at.block.kind;
    let defined_by = top_level(kind)
        .filter(|schema| schema.defines_argument(name))
        .and_then(|schema| match schema.rest {
            Rest::DefinedBy(owner) => Some(owner),
            Rest::Nothing | Rest::Entries => None,
        });
    let meta = match defined_by {
        Some(owner) => format!(
            "`{name}` is a meta-argument: OpenTofu defines it in every `{kind}` block, and {owner} defines the rest of the body.\n\n"
        ),
        None => String::new(),
    };
    let note = match effective.body.attribute(name) {
        Some(current) if current.origin == here && current.superseded.is_empty() => {
            format!("`{name}` here is in effect: no override changes it.\n")
        }
        Some(current) if current.origin == here => format!(
            "`{name}` here is in effect; it replaces {}.\n",
            places(analysis, &current.superseded)
        ),
        Some(current) if current.superseded.contains(&here) => {
            let value = analysis
                .file(current.origin.file)
                .map(|file| one_line(current.value.slice(&file.text), 60))
                .unwrap_or_default();
            format!(
                "`{name}` here is replaced by `{}`: the effective value is `{value}`.\n",
                place(analysis, current.origin)
            )
        }
        _ => match effective
            .body
            .blocks
            .iter()
            .find(|nested| nested.superseded.contains(&here))
        {
            Some(nested) => format!(
                "`{name}` here is removed: the `{name}` blocks at `{}` replace it.\n",
                place(analysis, nested.origin)
            ),
            None => format!("`{name}` here is not in the effective configuration.\n"),
        },
    };
    Some(meta + &note)
}

fn code_block(code: &str) -> String {
    let mut out = String::from("```hcl\n");
    out.push_str(code);
    if !code.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("```\n");
    out
}

/// `main.tf:3` for an origin.
pub(crate) fn place(analysis: &ModuleAnalysis, origin: Origin) -> String {
    analysis.place(origin.file, origin.range.start)
}

/// Where a local value entry starts.
fn local_start(analysis: &ModuleAnalysis, local: tofu_module::LocalRef) -> Option<u32> {
    let block = analysis.block(local.block)?;
    Some(block.body.attributes.get(local.attr)?.range.start)
}

fn block_origin(analysis: &ModuleAnalysis, block: BlockRef) -> Origin {
    Origin {
        file: block.file,
        range: analysis.block(block).map(|b| b.header).unwrap_or_default(),
    }
}

fn within(analysis: &ModuleAnalysis, origin: Origin, block: BlockRef) -> bool {
    origin.file == block.file
        && analysis
            .block(block)
            .is_some_and(|b| b.range.contains(origin.range.start))
}

fn effective_block_hover(analysis: &ModuleAnalysis, effective: &EffectiveBlock) -> String {
    let mut out = code_block(&render_block(
        analysis,
        effective,
        Provenance::OverridesOnly,
    ));
    out.push('\n');
    match effective.base {
        Some(base) => {
            let _ = writeln!(
                out,
                "Declared in `{}`.",
                place(analysis, block_origin(analysis, base))
            );
        }
        None => {
            out.push_str("No primary file declares this provider configuration: an absent default configuration counts as empty, so the override introduces it.\n");
        }
    }
    if effective.overrides.is_empty() {
        return out;
    }
    out.push_str("\nChanged by:\n");
    for &over in &effective.overrides {
        let changes = override_changes(analysis, effective, over);
        let _ = write!(out, "- `{}`", place(analysis, block_origin(analysis, over)));
        if !changes.is_empty() {
            let _ = write!(out, ": {}", changes.join(", "));
        }
        out.push('\n');
    }
    out
}

/// What one override block did to the effective block, part by part.
fn override_changes(
    analysis: &ModuleAnalysis,
    effective: &EffectiveBlock,
    over: BlockRef,
) -> Vec<String> {
    let Some(block) = analysis.block(over) else {
        return Vec::new();
    };
    let mut changes = Vec::new();
    for attr in &block.body.attributes {
        // A JSON property standing for the blocks it replaced.
        if let Some(merged) = effective.body.attribute(&attr.name).filter(|merged| {
            within(analysis, merged.origin, over) && replaces_blocks(analysis, merged)
        }) {
            changes.push(format!(
                "`{}` blocks (replaces {})",
                attr.name,
                places(analysis, &merged.superseded)
            ));
            continue;
        }
        let text = match effective.body.attribute(&attr.name) {
            Some(merged) => attribute_change(analysis, merged, over),
            None => "not applied".to_owned(),
        };
        changes.push(format!("`{}` ({text})", attr.name));
    }
    let mut kinds: Vec<&str> = Vec::new();
    for nested in &block.body.blocks {
        let kind = match (nested.kind.as_str(), nested.labels.first()) {
            ("dynamic", Some(label)) => label.value.as_str(),
            (kind, _) => kind,
        };
        if kinds.contains(&kind) {
            continue;
        }
        kinds.push(kind);
        let merged: Vec<_> = effective
            .body
            .blocks
            .iter()
            .filter(|b| b.merge_kind() == kind)
            .collect();
        let text = if let Some(mine) = merged.iter().find(|b| within(analysis, b.origin, over)) {
            match mine.superseded.as_slice() {
                [] => "added".to_owned(),
                replaced => format!("replaces {}", places(analysis, replaced)),
            }
        } else if let Some(later) = merged
            .iter()
            .find(|b| b.superseded.iter().any(|o| within(analysis, *o, over)))
        {
            format!("replaced later by `{}`", place(analysis, later.origin))
        } else {
            "not applied".to_owned()
        };
        changes.push(format!("`{kind}` blocks ({text})"));
    }
    changes
}

fn places(analysis: &ModuleAnalysis, origins: &[Origin]) -> String {
    origins
        .iter()
        .map(|origin| format!("`{}`", place(analysis, *origin)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How the effective attribute relates to the definition in block `over`.
fn attribute_change(
    analysis: &ModuleAnalysis,
    merged: &EffectiveAttribute,
    over: BlockRef,
) -> String {
    let chain: Vec<Origin> = merged
        .superseded
        .iter()
        .copied()
        .chain(std::iter::once(merged.origin))
        .collect();
    let Some(position) = chain.iter().position(|o| within(analysis, *o, over)) else {
        return "not applied".to_owned();
    };
    let mut text = match position.checked_sub(1).and_then(|i| chain.get(i)) {
        Some(replaced) => format!("replaces `{}`", place(analysis, *replaced)),
        None => "added".to_owned(),
    };
    if position + 1 < chain.len() {
        let _ = write!(
            text,
            "; replaced later by `{}`",
            place(analysis, merged.origin)
        );
    }
    text
}

fn terraform_hover(analysis: &ModuleAnalysis, at: &BlockAt<'_>) -> String {
    let view = &analysis.effective.terraform;
    if !view.blocks.contains(&at.block_ref) {
        let note = match analysis.fate(at.block_ref) {
            Some(BlockFate::Dropped(reason)) => dropped_note(at, *reason),
            _ => "OpenTofu does not read this block.".to_owned(),
        };
        return as_written_text(analysis, at, Some(note));
    }
    let mut out = code_block(&render_terraform(analysis, Provenance::OverridesOnly));
    out.push_str("\nThe effective settings of every `terraform` block of the module: ");
    out.push_str(&places(
        analysis,
        &view
            .blocks
            .iter()
            .map(|b| block_origin(analysis, *b))
            .collect::<Vec<_>>(),
    ));
    out.push_str(".\n");
    out
}

fn locals_hover(analysis: &ModuleAnalysis, at: &BlockAt<'_>) -> String {
    let mut shown: Vec<EffectiveLocal> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for (index, attr) in at.block.body.attributes.iter().enumerate() {
        if shown.iter().any(|local| local.name == attr.name) {
            continue;
        }
        let origin = Origin {
            file: at.block_ref.file,
            range: attr.range,
        };
        match analysis.effective.local(&attr.name) {
            Some(local) => {
                let attribute = &local.attribute;
                let in_effect =
                    attribute.origin == origin || attribute.superseded.contains(&origin);
                if !in_effect {
                    notes.push(format!(
                        "`{}`: this definition is not in effect; OpenTofu uses the one at `{}`.",
                        attr.name,
                        place(analysis, attribute.origin)
                    ));
                } else if attribute.origin != origin {
                    notes.push(format!(
                        "`{}`: value from `{}`, replacing {}.",
                        attr.name,
                        place(analysis, attribute.origin),
                        places(analysis, &attribute.superseded)
                    ));
                }
                shown.push(local.clone());
            }
            None => {
                if at.role == FileRole::Override {
                    notes.push(format!(
                        "`{}`: OpenTofu rejects this override: no primary file defines a local value named \"{}\".",
                        attr.name, attr.name
                    ));
                }
                let entry = tofu_module::LocalRef {
                    block: at.block_ref,
                    attr: index,
                };
                shown.push(EffectiveLocal::as_written(
                    attr.name.clone(),
                    entry,
                    EffectiveAttribute {
                        name: attr.name.clone(),
                        origin,
                        value: attr.expr.range,
                        superseded: Vec::new(),
                    },
                ));
            }
        }
    }
    let mut out = code_block(&render_locals(analysis, &shown, Provenance::OverridesOnly));
    if !notes.is_empty() {
        out.push('\n');
        for note in notes {
            let _ = writeln!(out, "- {note}");
        }
    }
    out
}

fn as_written_hover(found: &FileInModule<'_>, at: &BlockAt<'_>) -> String {
    let analysis = found.analysis();
    let note = match analysis.fate(at.block_ref) {
        Some(BlockFate::ForbiddenInOverride) => Some(format!(
            "OpenTofu rejects this block: `{}` blocks are not allowed in override files.",
            at.block.kind
        )),
        Some(BlockFate::Dropped(reason)) => Some(dropped_note(at, *reason)),
        Some(BlockFate::NoBase) => address_of(at.block).map(|address| {
            format!(
                "OpenTofu rejects this override: no primary file declares `{address}`, so there is nothing to merge it into."
            )
        }),
        Some(BlockFate::Duplicate { kept }) => Some(format!(
            "OpenTofu reports this duplicate declaration and uses the one at `{}`.",
            place(analysis, block_origin(analysis, *kept))
        )),
        _ => None,
    };
    as_written_text(analysis, at, note)
}

/// Why OpenTofu drops the block, as hover says it.
fn dropped_note(at: &BlockAt<'_>, reason: DropReason) -> String {
    match reason {
        DropReason::WrongLabels => match top_level(&at.block.kind) {
            Some(schema) if schema.labels.is_empty() => format!(
                "OpenTofu rejects this block: `{}` blocks take no labels, so it is dropped.",
                schema.kind
            ),
            Some(schema) => format!(
                "OpenTofu rejects this block: `{}` blocks take {} ({}), so it is dropped.",
                schema.kind,
                match schema.labels.len() {
                    1 => "one label".to_owned(),
                    n => format!("{n} labels"),
                },
                schema.labels.join(", ")
            ),
            None => {
                "OpenTofu rejects this block: its labels are wrong, so it is dropped.".to_owned()
            }
        },
        DropReason::UnknownBlockType => format!(
            "OpenTofu rejects this block: `{}` is not a top-level block type.",
            at.block.kind
        ),
        DropReason::InvalidProviderName => {
            "OpenTofu rejects this block: its provider local name is invalid, so it is dropped."
                .to_owned()
        }
    }
}

fn as_written_text(analysis: &ModuleAnalysis, at: &BlockAt<'_>, note: Option<String>) -> String {
    let block: &Block = at.block;
    let mut out = code_block(&render_as_written(
        analysis,
        at.block_ref.file,
        block,
        Provenance::OverridesOnly,
    ));
    if let Some(note) = note {
        out.push('\n');
        out.push_str(&note);
        out.push('\n');
    }
    out
}

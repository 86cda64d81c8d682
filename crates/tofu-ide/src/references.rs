//! References resolved through overrides: what `var.region`, `local.name`,
//! `module.net`, `data.T.N` or `T.N` under the cursor names, its declaration
//! (and the override blocks that change it), every use of it in the module
//! (and in one file, for highlighting), and renaming it.
//!
//! Uses come from `tofu_module::reference_sites` (native expressions and JSON
//! `${…}` templates). A rename edits the declaration's label (every block of
//! that identity: duplicates and override blocks too) or local value names,
//! and every use; it refuses a name that is not an identifier and one another
//! declaration of the same kind already has. A variable or output is renamed
//! across the module boundary (`boundary`): also in `.tfvars` files and in
//! every caller's arguments and `module.NAME.OUTPUT` uses, from any of those
//! places. A managed resource or module call renamed also gets a `moved`
//! block, and the `moved` blocks naming it keep their addresses
//! (`rename_moves`).

use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::reference_sites::{file_reference_sites, reference_sites, RefTarget};
use tofu_module::{BlockAddress, BlockRef, LocalRef};
use tofu_syntax::{FileId, TextRange};

use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{file_range, FileEdit, FileRange};
use crate::locate::{block_target, name_label, named_at};
use crate::module_calls::InterfaceAt;
use crate::snapshot::Snapshot;
use crate::summary::unquoted;

/// What a rename would change, or why it cannot be done.
pub type RenameResult = Result<Vec<FileEdit>, RenameRefused>;

/// Why a rename cannot be done, with a message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenameRefused {
    /// The new name is not an identifier: the request asks for something
    /// that can never be done, whatever the configuration.
    InvalidName(String),
    /// Nothing to rename under the cursor, or the rename would break the
    /// configuration (a duplicate, a name a caller uses).
    NotPossible(String),
}

impl RenameRefused {
    pub fn message(&self) -> &str {
        match self {
            RenameRefused::InvalidName(message) | RenameRefused::NotPossible(message) => message,
        }
    }
}

impl std::fmt::Display for RenameRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl From<RenameRefused> for String {
    fn from(refused: RenameRefused) -> String {
        refused.to_string()
    }
}

/// How a rename edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenameOptions {
    /// A managed resource or module call renamed gets a `moved` block from
    /// its old address (`rename_moves`); on by default.
    pub write_moved: bool,
}

impl Default for RenameOptions {
    fn default() -> RenameOptions {
        RenameOptions { write_moved: true }
    }
}

/// One place a name occurs in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameOccurrence {
    /// The declaration's label or local value name; a use from its root to
    /// the name (`var.region`).
    pub range: TextRange,
    /// True for the declaration (what writes the name), false for a use.
    pub declaration: bool,
}

impl Snapshot {
    /// The range of the name a rename at `offset` would change, and the name.
    pub fn prepare_rename(
        &self,
        path: &Path,
        offset: u32,
    ) -> Result<(TextRange, String), RenameRefused> {
        let found = self.find_file(path).ok_or_else(not_analysed)?;
        let name_range = match self.interface_at(path, offset) {
            Some(InterfaceAt { name_range, .. }) => name_range,
            None => named_at(found.module, found.id, offset)
                .ok_or_else(|| RenameRefused::NotPossible("Nothing to rename here: put the cursor on a variable, local value, output, module call, resource or data source, or on a reference to one.".to_owned()))?
                .name_range,
        };
        let text = &found
            .file()
            .map(|file| file.text.clone())
            .unwrap_or_default();
        let name = unquoted(name_range.slice(text)).to_owned();
        Ok((name_range, name))
    }

    /// The edits that rename what is under the cursor to `new_name`,
    /// writing a `moved` block for what the state holds.
    pub fn rename(&self, path: &Path, offset: u32, new_name: &str) -> RenameResult {
        self.rename_with(path, offset, new_name, RenameOptions::default())
    }

    /// [`Snapshot::rename`] as `options` say.
    pub fn rename_with(
        &self,
        path: &Path,
        offset: u32,
        new_name: &str,
        options: RenameOptions,
    ) -> RenameResult {
        if self.shared.is_empty() {
            return self.rename_in_dir(path, offset, new_name, options);
        }
        self.rename_through_links(path, offset, new_name, options)
    }

    /// [`Snapshot::rename`] in the directory of `path` alone.
    pub(crate) fn rename_in_dir(
        &self,
        path: &Path,
        offset: u32,
        new_name: &str,
        options: RenameOptions,
    ) -> RenameResult {
        if !tofu_module::names::is_identifier(new_name) {
            return Err(RenameRefused::InvalidName(format!(
                "\"{new_name}\" is not a valid name: a name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."
            )));
        }
        let found = self.find_file(path).ok_or_else(not_analysed)?;
        if let Some(at) = self.interface_at(path, offset) {
            return self.interface_rename(&at.interface, new_name);
        }
        let module = found.module;
        let named = named_at(module, found.id, offset)
            .ok_or_else(|| RenameRefused::NotPossible("Nothing to rename here.".to_owned()))?;
        let analysis = &module.analysis;
        if let Some(existing) = collision(analysis, &named.target, new_name) {
            return Err(RenameRefused::NotPossible(format!(
                "Cannot rename to \"{new_name}\": the module already declares {existing}, so the rename would create a duplicate."
            )));
        }
        let mut edits = Vec::new();
        for (file, range) in declaration_names(analysis, &named.target) {
            edits.extend(name_edit(module, file, range, new_name));
        }
        // What the state holds keeps its `moved` history as it is, and
        // gets a `moved` block of its own (`rename_moves`).
        let keeps_history = crate::rename_moves::keeps_history(&named.target);
        for site in reference_sites(analysis)
            .iter()
            .filter(|site| site.target == named.target)
        {
            if keeps_history && crate::rename_moves::in_moved_block(analysis, site.file, site.range)
            {
                continue;
            }
            edits.extend(name_edit(module, site.file, site.name_range, new_name));
        }
        if options.write_moved {
            edits.extend(crate::rename_moves::moved_edit(
                module,
                &named.target,
                new_name,
            ));
        }
        edits.sort_by(|a, b| {
            (&a.location.path, a.location.range.start)
                .cmp(&(&b.location.path, b.location.range.start))
        });
        edits.dedup_by(|a, b| a.location == b.location);
        Ok(edits)
    }

    /// Where the name under the cursor occurs in this file: the declaration's
    /// name (every block of its identity and every local value entry of
    /// that name written here) and every use, in file order. Empty when the
    /// cursor is on no name.
    pub fn document_highlights(&self, path: &Path, offset: u32) -> Vec<NameOccurrence> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let Some(named) = named_at(found.module, found.id, offset) else {
            return Vec::new();
        };
        let analysis = &found.module.analysis;
        let mut occurrences: Vec<NameOccurrence> = declaration_names(analysis, &named.target)
            .into_iter()
            .filter(|(file, _)| *file == found.id)
            .map(|(_, range)| NameOccurrence {
                range,
                declaration: true,
            })
            .collect();
        occurrences.extend(
            file_reference_sites(analysis, found.id)
                .into_iter()
                .filter(|site| site.target == named.target)
                .map(|site| NameOccurrence {
                    range: site.range,
                    declaration: false,
                }),
        );
        occurrences.sort_by_key(|occurrence| occurrence.range.start);
        occurrences.dedup();
        occurrences
    }
}

fn not_analysed() -> RenameRefused {
    RenameRefused::NotPossible("This file is not part of an analysed module.".to_owned())
}

/// Every place the declaration of `target` names it: the name label of each
/// block with that identity (primary and override files), or each local
/// value entry with that name.
pub(crate) fn declaration_names(
    analysis: &ModuleAnalysis,
    target: &RefTarget,
) -> Vec<(FileId, TextRange)> {
    let mut names = Vec::new();
    for &file in analysis.primary.iter().chain(&analysis.overrides) {
        let Some(source) = analysis.file(file).and_then(|f| f.source.as_ref()) else {
            continue;
        };
        for block in &source.body.blocks {
            match target {
                RefTarget::Local(name) if block.kind == "locals" => {
                    names.extend(
                        block
                            .body
                            .attributes
                            .iter()
                            .filter(|attr| &attr.name == name)
                            .map(|attr| (file, attr.name_range)),
                    );
                }
                RefTarget::Local(_) => {}
                _ => {
                    if block_target(block).as_ref() == Some(target) {
                        names.extend(name_label(block).map(|range| (file, range)));
                    }
                }
            }
        }
    }
    names
}

/// The declarations a definition request on a use of `target` leads to: the
/// one OpenTofu keeps, then the override blocks (or entries) that change it.
pub(crate) fn declaration_targets(analysis: &ModuleAnalysis, target: &RefTarget) -> Declarations {
    match target {
        RefTarget::Local(name) => match analysis.effective.local(name) {
            Some(local) => Declarations::Locals(
                std::iter::once(local.base)
                    .chain(local.overrides.iter().copied())
                    .collect(),
            ),
            None => Declarations::Locals(Vec::new()),
        },
        _ => {
            let address = match target {
                RefTarget::Variable(name) => BlockAddress::Variable(name.clone()),
                RefTarget::Output(name) => BlockAddress::Output(name.clone()),
                RefTarget::ModuleCall(name) => BlockAddress::Module(name.clone()),
                RefTarget::Resource(address) => address.clone(),
                RefTarget::Local(_) => return Declarations::Blocks(Vec::new()),
            };
            match analysis.effective.get(&address) {
                Some(effective) => Declarations::Blocks(
                    effective
                        .base
                        .into_iter()
                        .chain(effective.overrides.iter().copied())
                        .collect(),
                ),
                None => Declarations::Blocks(Vec::new()),
            }
        }
    }
}

/// Declarations of a target: blocks, or local value entries.
pub(crate) enum Declarations {
    Blocks(Vec<BlockRef>),
    Locals(Vec<LocalRef>),
}

/// Another declaration named `new_name` of the same kind as `target`.
pub(crate) fn collision(
    analysis: &ModuleAnalysis,
    target: &RefTarget,
    new_name: &str,
) -> Option<String> {
    match target {
        RefTarget::Local(_) => analysis
            .effective
            .local(new_name)
            .map(|_| format!("local.{new_name}")),
        RefTarget::Variable(_) => analysis
            .effective
            .get(&BlockAddress::Variable(new_name.to_owned()))
            .map(|_| format!("var.{new_name}")),
        RefTarget::ModuleCall(_) => analysis
            .effective
            .get(&BlockAddress::Module(new_name.to_owned()))
            .map(|_| format!("module.{new_name}")),
        RefTarget::Output(_) => analysis
            .effective
            .get(&BlockAddress::Output(new_name.to_owned()))
            .map(|_| format!("output \"{new_name}\"")),
        RefTarget::Resource(BlockAddress::Resource {
            mode, type_name, ..
        }) => {
            let address = BlockAddress::Resource {
                mode: *mode,
                type_name: type_name.clone(),
                name: new_name.to_owned(),
            };
            analysis
                .effective
                .get(&address)
                .map(|_| address.to_string())
        }
        RefTarget::Resource(_) => None,
    }
}

/// An edit replacing the name at `range`; a quoted label keeps its quotes.
pub(crate) fn name_edit(
    module: &AnalysedModule,
    file: FileId,
    range: TextRange,
    new_name: &str,
) -> Option<FileEdit> {
    let location: FileRange = file_range(module, file, range)?;
    let written = range.slice(&location.text);
    let new_text = if written.starts_with('"') {
        format!("\"{new_name}\"")
    } else {
        new_name.to_owned()
    };
    Some(FileEdit { location, new_text })
}

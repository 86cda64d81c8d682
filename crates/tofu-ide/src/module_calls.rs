//! The module tree as editors follow it: which directory a `module` block
//! calls, which directories call a given one, and what a position names
//! across the boundary (a called module's variable through an argument of
//! the caller's `module` block, its output through `module.NAME.OUTPUT`, a
//! variable through a name of a `.tfvars` file).
//!
//! A call's directory is [`tofu_module::calls`]'s to find (a local path
//! joined to the caller's directory, any other source through the caller's
//! `.terraform/modules/modules.json`); the summaries keep each directory's
//! calls as it resolved them. A source that is not a literal string, or a
//! call the manifest does not list, is unknown, and every feature stays in
//! the caller.
//!
//! Features ask [`crate::Snapshot`] for the called or calling modules' full
//! analyses; the protocol layer brings them in first ([`Snapshot::related_dirs`]).

use std::path::{Component, Path, PathBuf};

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::calls::{normalize_path, resolve_call};
use tofu_module::reference_sites::{
    file_reference_sites, reference_sites, RefTarget, ReferenceSite,
};
use tofu_module::schema::MODULE;
use tofu_module::{address_of, BlockAddress, FileRole};
use tofu_syntax::{Attribute, Block, ExprKind, FileId, TextRange};

use crate::analysed_module::dir_and_file_name;
use crate::analysed_module::FileInModule;
use crate::locate::block_at;
use crate::locate::named_among;
use crate::snapshot::Snapshot;
use crate::summary::{ModuleSummary, ResolvedCall};
use crate::test_runs::{run_module_dir, run_reference_at};

/// Where `tofu init` records the directories of the modules it installed,
/// relative to the root module's directory. The analysis host keeps it as an
/// input of that directory ([`crate::Change::DiskFile`] with this path under
/// the directory, or an [`tofu_module::InputFile`] of this name in
/// [`crate::Change::DiskDir`]).
pub use tofu_module::calls::MODULE_MANIFEST;

/// A variable or output of a module directory: what a caller's argument or
/// `module.NAME.OUTPUT`, a use inside the module, its declaration or a
/// `.tfvars` name all stand for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Interface {
    pub dir: PathBuf,
    /// [`RefTarget::Variable`] or [`RefTarget::Output`].
    pub target: RefTarget,
}

impl Interface {
    pub fn name(&self) -> &str {
        match &self.target {
            RefTarget::Variable(name) | RefTarget::Output(name) => name,
            _ => "",
        }
    }
}

/// An interface under the cursor, with the range of the name there.
#[derive(Clone, Debug)]
pub(crate) struct InterfaceAt {
    pub interface: Interface,
    pub name_range: TextRange,
    pub side: Side,
}

/// Where an interface name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// In the module's own configuration: its declaration, or a use.
    Module,
    /// In a `.tfvars` file of the module.
    Values,
    /// In a caller: an argument of its `module` block, or `module.NAME.OUTPUT`.
    Caller,
}

/// The value of an attribute written as a literal string.
fn string_value(attr: &Attribute) -> Option<&str> {
    match &attr.expr.kind {
        ExprKind::String(value) => Some(value),
        _ => None,
    }
}

/// `to` relative to the directory `from`, lexically (`../net/main.tf`), with
/// `/` separators; `to` itself when they share no root.
pub(crate) fn relative_path(from: &Path, to: &Path) -> String {
    let from: Vec<Component<'_>> = from.components().collect();
    let to_parts: Vec<Component<'_>> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return to.display().to_string();
    }
    let ups = from.len().saturating_sub(common);
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_owned(), ups).collect();
    parts.extend(
        to_parts
            .iter()
            .skip(common)
            .map(|part| part.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

/// True for the names OpenTofu reserves for variables (they mean something
/// else in a `module` block): the meta-arguments, and `_`, `lifecycle`,
/// `locals` and `provider` (`rules::bodies`, `reserved-variable-name`).
pub(crate) fn is_reserved_variable_name(name: &str) -> bool {
    MODULE.defines_argument(name) || matches!(name, "_" | "lifecycle" | "locals" | "provider")
}

/// The argument of a top-level `module` block of a loaded file whose name
/// holds `offset`, with the call's name; meta-arguments (`source`, `count`,
/// …) are not inputs and give `None`.
pub(crate) fn call_argument_at<'a>(
    found: &FileInModule<'a>,
    offset: u32,
) -> Option<(String, &'a Attribute)> {
    let at = block_at(found, offset)?;
    let Some(BlockAddress::Module(call)) = address_of(at.block) else {
        return None;
    };
    let attr = at
        .block
        .body
        .attributes
        .iter()
        .find(|attr| attr.name_range.contains_inclusive(offset))?;
    (!MODULE.defines_argument(&attr.name)).then_some((call, attr))
}

/// The top-level attribute of a `.tfvars` file whose name holds `offset`.
pub(crate) fn values_name_at<'a>(found: &FileInModule<'a>, offset: u32) -> Option<&'a Attribute> {
    let file = found.file()?;
    if file.role != FileRole::Values {
        return None;
    }
    file.source
        .as_ref()?
        .body
        .attributes
        .iter()
        .find(|attr| attr.name_range.contains_inclusive(offset))
}

/// Every name a `.tfvars` file of the module gives `variable`, in file order.
pub(crate) fn values_names(analysis: &ModuleAnalysis, variable: &str) -> Vec<(FileId, TextRange)> {
    let mut names = Vec::new();
    for (index, file) in analysis.files.iter().enumerate() {
        if file.role != FileRole::Values {
            continue;
        }
        let Some(source) = &file.source else { continue };
        let id = FileId(tofu_syntax::text::to_u32(index));
        names.extend(
            source
                .body
                .attributes
                .iter()
                .filter(|attr| attr.name == variable)
                .map(|attr| (id, attr.name_range)),
        );
    }
    names
}

/// Where a caller names `target` of the module its call `call` reads: the
/// argument's name in every block of `module.CALL` (primary and override
/// files) for a variable, each `module.CALL.OUTPUT`'s output name for an
/// output. In file order.
pub(crate) fn caller_names(
    caller: &ModuleAnalysis,
    call: &str,
    target: &RefTarget,
) -> Vec<(FileId, TextRange)> {
    match target {
        RefTarget::Variable(variable) => {
            let address = BlockAddress::Module(call.to_owned());
            let mut names = Vec::new();
            for &file in caller.primary.iter().chain(&caller.overrides) {
                let Some(source) = caller.file(file).and_then(|f| f.source.as_ref()) else {
                    continue;
                };
                for block in &source.body.blocks {
                    if address_of(block).as_ref() != Some(&address) {
                        continue;
                    }
                    names.extend(
                        block
                            .body
                            .attributes
                            .iter()
                            .filter(|attr| &attr.name == variable)
                            .map(|attr| (file, attr.name_range)),
                    );
                }
            }
            names.sort_by_key(|(file, range)| (*file, range.start));
            names
        }
        RefTarget::Output(output) => reference_sites(caller)
            .into_iter()
            .filter(|site| matches!(&site.target, RefTarget::ModuleCall(name) if name == call))
            .filter_map(|site| {
                let (read, range) = site.output?;
                (&read == output).then_some((site.file, range))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `module.CALL.OUTPUT` in `file` with `offset` on the output's name: the
/// call, the output and the output name's range.
fn output_use_among(
    sites: &[ReferenceSite],
    file: FileId,
    offset: u32,
) -> Option<(String, String, TextRange)> {
    sites
        .iter()
        .filter(|site| site.file == file)
        .find_map(|site| {
            let RefTarget::ModuleCall(call) = &site.target else {
                return None;
            };
            let (output, range) = site.output.as_ref()?;
            range
                .contains_inclusive(offset)
                .then(|| (call.clone(), output.clone(), *range))
        })
}

impl Snapshot {
    /// The directory a `module` block of `caller_dir` reads, from the block
    /// as written (also one the analysis lost to a syntax error, as while
    /// typing in it): its own `source`, or for a block without one (an
    /// override) the call's.
    pub(crate) fn block_call_dir(&self, caller_dir: &Path, block: &Block) -> Option<PathBuf> {
        let name = block.labels.first()?.value.as_str();
        match block.body.attribute("source").and_then(string_value) {
            Some(source) => {
                let manifest = self.summary(caller_dir).and_then(ModuleSummary::manifest);
                resolve_call(caller_dir, name, source, manifest).dir
            }
            None => self.called_dir(caller_dir, name).map(Path::to_path_buf),
        }
    }

    /// The directory the call `call` of `caller_dir` reads, when known.
    pub(crate) fn called_dir(&self, caller_dir: &Path, call: &str) -> Option<&Path> {
        self.summary(caller_dir)?
            .calls()
            .iter()
            .find(|resolved| resolved.name == call)
            .map(|resolved| resolved.called.as_path())
    }

    /// Every call of the workspace that reads `dir`: the caller's directory
    /// and the call, by directory then call name.
    pub(crate) fn callers_of(&self, dir: &Path) -> Vec<(&Path, &ResolvedCall)> {
        let dir = normalize_path(dir);
        let mut callers: Vec<(&Path, &ResolvedCall)> = self
            .summaries()
            .flat_map(|summary| {
                summary
                    .calls()
                    .iter()
                    .filter(|call| call.called == dir)
                    .map(move |call| (summary.dir.as_path(), call))
            })
            .collect();
        callers.sort_by(|a, b| (a.0, &a.1.name).cmp(&(b.0, &b.1.name)));
        callers
    }

    /// What the cursor names that belongs to a module's interface: a
    /// variable (its declaration, a use, a `.tfvars` name, a caller's
    /// argument) or an output (its declaration, a caller's
    /// `module.NAME.OUTPUT`). A caller's position counts only when its call's
    /// directory is known.
    pub(crate) fn interface_at(&self, path: &Path, offset: u32) -> Option<InterfaceAt> {
        let found = self.find_file(path)?;
        let dir = found.module.dir.clone();
        let own = |target: RefTarget, name_range: TextRange, side: Side| InterfaceAt {
            interface: Interface {
                dir: dir.clone(),
                target,
            },
            name_range,
            side,
        };
        if let Some(attr) = values_name_at(&found, offset) {
            let variable = RefTarget::Variable(attr.name.clone());
            return Some(own(variable, attr.name_range, Side::Values));
        }
        if let Some((call, attr)) = call_argument_at(&found, offset) {
            return Some(InterfaceAt {
                interface: Interface {
                    dir: self.called_dir(&dir, &call)?.to_path_buf(),
                    target: RefTarget::Variable(attr.name.clone()),
                },
                name_range: attr.name_range,
                side: Side::Caller,
            });
        }
        // Only the file's own uses: hover and definition ask on every
        // request, and the whole module's cost as much as its size.
        let sites = file_reference_sites(found.analysis(), found.id);
        if let Some((call, output, range)) = output_use_among(&sites, found.id, offset) {
            return Some(InterfaceAt {
                interface: Interface {
                    dir: self.called_dir(&dir, &call)?.to_path_buf(),
                    target: RefTarget::Output(output),
                },
                name_range: range,
                side: Side::Caller,
            });
        }
        let named = named_among(found.module, found.id, offset, &sites)?;
        matches!(named.target, RefTarget::Variable(_) | RefTarget::Output(_))
            .then(|| own(named.target, named.name_range, Side::Module))
    }

    /// The module directories besides the file's own whose full analyses a
    /// request at `offset` of `path` reads: the called module's, when the
    /// position is in a `module` block or on `module.NAME…`; with
    /// `with_callers` (references, rename), also the module the named
    /// variable or output belongs to and every module that calls it, and the
    /// directories holding a file one of those holds (a symlink; with their
    /// callers). Sorted, without the file's own directory.
    pub fn related_dirs(&self, path: &Path, offset: u32, with_callers: bool) -> Vec<PathBuf> {
        let Some((own_dir, _)) = dir_and_file_name(path) else {
            return Vec::new();
        };
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(found) = self.find_file(path) {
            let called = self
                .call_at(&found, offset)
                .and_then(|call| self.called_dir(&own_dir, &call));
            dirs.extend(called.map(Path::to_path_buf));
            dirs.extend(run_module_at(&found, offset).filter(|dir| *dir != own_dir));
        }
        if with_callers {
            if let Some(at) = self.interface_at(path, offset) {
                dirs.push(at.interface.dir.clone());
                dirs.extend(
                    self.callers_of(&at.interface.dir)
                        .into_iter()
                        .map(|(caller, _)| caller.to_path_buf()),
                );
            }
            if !self.shared.is_empty() {
                let mut sharing: Vec<PathBuf> = std::iter::once(&own_dir)
                    .chain(&dirs)
                    .flat_map(|dir| self.shared.dirs_sharing_with(dir))
                    .collect();
                sharing.sort();
                sharing.dedup();
                for dir in &sharing {
                    dirs.extend(
                        self.callers_of(dir)
                            .into_iter()
                            .map(|(caller, _)| caller.to_path_buf()),
                    );
                }
                dirs.extend(sharing);
            }
        }
        dirs.sort();
        dirs.dedup();
        dirs.retain(|dir| *dir != own_dir);
        dirs
    }

    /// [`Snapshot::related_dirs`] for completion: the called module's
    /// directory, also while a `module` block or `module.NAME.` is being
    /// typed (read from the text, where the analysis may have lost the
    /// block).
    pub fn completion_dirs(&self, path: &Path, offset: u32) -> Vec<PathBuf> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let own_dir = &found.module.dir;
        let called = self
            .call_at(&found, offset)
            .and_then(|call| self.called_dir(own_dir, &call).map(Path::to_path_buf))
            .or_else(|| self.completion_call_dir(&found, offset));
        called.into_iter().filter(|dir| dir != own_dir).collect()
    }

    /// The module call the position is in: inside a top-level `module`
    /// block, or on a `module.NAME` reference.
    fn call_at(&self, found: &FileInModule<'_>, offset: u32) -> Option<String> {
        let sites = file_reference_sites(found.analysis(), found.id);
        if let Some((call, _, _)) = output_use_among(&sites, found.id, offset) {
            return Some(call);
        }
        let on_call = sites
            .iter()
            .find(|site| site.file == found.id && site.range.contains_inclusive(offset));
        if let Some(RefTarget::ModuleCall(call)) = on_call.map(|site| &site.target) {
            return Some(call.clone());
        }
        match address_of(block_at(found, offset)?.block)? {
            BlockAddress::Module(call) => Some(call),
            _ => None,
        }
    }
}

/// In a test file, the directory of the module the run named by a
/// `run.NAME.OUTPUT` at `offset` applies.
fn run_module_at(found: &FileInModule<'_>, offset: u32) -> Option<PathBuf> {
    let file = found.file().filter(|file| file.role == FileRole::Test)?;
    let source = file.source.as_deref()?;
    let reference = run_reference_at(source, offset)?;
    reference.output.as_ref()?;
    run_module_dir(source, &reference.run, &found.module.dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative_path(Path::new("/w/examples/a"), Path::new("/w/main.tf")),
            "../../main.tf"
        );
        assert_eq!(
            relative_path(Path::new("/w"), Path::new("/w/modules/net/x.tf")),
            "modules/net/x.tf"
        );
    }
}

//! What is kept of every analysed module directory, also once its full
//! analysis has been dropped: the diagnostics to publish, the declarations
//! workspace symbols list, and the module calls whose directory is known
//! (local sources, and those `tofu init` recorded), by which references and
//! rename find the callers of a module; and the providers whose schemas
//! it needs, for the server to read.
//!
//! A summary is built with the analysis, off the host (in
//! [`crate::AnalysisJob::run`]), and is small next to the syntax trees and the
//! merged configuration it summarises. That is what lets a host keep full
//! analyses only for the directories someone looks at
//! ([`crate::AnalysisHost::keep_full_analyses`]) and still publish, list
//! symbols and check callers for every directory of a large workspace.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_module::calls::{ModuleCall, ModuleManifest};
use tofu_module::interface::ModuleInterface;
use tofu_module::BlockAddress;
use tofu_module::FileRole;
use tofu_schema::ProviderAddress;
use tofu_syntax::TextRange;

use crate::analysed_module::AnalysedModule;
use crate::diagnostics::{editor_diagnostic, file_ignored, FileDiagnostics, FileRange};
use crate::locate::focus_range;

/// What a symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A top-level block; `block_type` says which.
    Block,
    /// A block nested in another one.
    NestedBlock,
    Attribute,
    /// A local value (workspace symbols).
    Local,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    /// The address: `aws_instance.web`, `variable.region`, `local.name`.
    pub name: String,
    pub kind: SymbolKind,
    pub block_type: String,
    pub location: FileRange,
    /// The module directory, for display.
    pub container: String,
}

/// The summary of one module directory's analysis.
#[derive(Clone, Debug)]
pub struct ModuleSummary {
    pub dir: PathBuf,
    /// The input generation the analysis reflects.
    pub generation: u64,
    /// Every file the analysis saw, with its diagnostics, in file order.
    pub(crate) files: Vec<FileDiagnostics>,
    /// `None` for a directory with open buffers: it keeps its full analysis
    /// (symbols are read from there), and a keystroke need not index its
    /// declarations.
    symbols: Option<Vec<SymbolEntry>>,
    /// The calls whose directory is known, for messages.
    calls: Vec<ResolvedCall>,
    /// The directory's module manifest, as read.
    manifest: Option<Arc<ModuleManifest>>,
    /// What its callers may know of it (variables, outputs); `None` when no
    /// directory called it as it was analysed (a keystroke in a module no
    /// one calls does not compute it).
    pub(crate) interface: Option<Arc<ModuleInterface>>,
    /// Each of its module calls whose `source` is a plain string, with the
    /// directory it reads when known (a local path, or the module
    /// manifest's entry), and each `module` block of its test files' runs
    /// (`ModuleCall::test_run`), sorted.
    pub(crate) module_calls: Vec<ModuleCall>,
    /// The providers whose schema a package gives that the module needs
    /// (`tofu_module::provider_needs::package_addresses`).
    pub(crate) needed_providers: Vec<ProviderAddress>,
    /// The directory could not be read as one (it does not exist, or is no
    /// directory): a call of it is "Unreadable module directory".
    pub(crate) unreadable: bool,
}

/// A declared block or local value, for workspace symbols. The file is an
/// index into [`ModuleSummary::files`].
#[derive(Clone, Debug)]
struct SymbolEntry {
    name: Box<str>,
    kind: SymbolKind,
    block_type: Box<str>,
    file: u32,
    range: TextRange,
}

impl ModuleSummary {
    /// Summarises a finished analysis; `module_calls` are its calls as
    /// [`tofu_module::calls::resolve_calls`] resolved them, with the
    /// directory's `.terraform/modules/modules.json`; `called` says whether
    /// another directory calls it (then its interface is computed).
    pub(crate) fn new(
        module: &AnalysedModule,
        module_calls: Vec<ModuleCall>,
        manifest: Option<Arc<ModuleManifest>>,
        called: bool,
    ) -> ModuleSummary {
        ModuleSummary {
            dir: module.dir.clone(),
            generation: module.generation,
            files: file_diagnostics(module),
            symbols: module
                .buffer_versions
                .is_empty()
                .then(|| symbol_entries(module)),
            calls: resolved_calls(module, &module_calls),
            manifest,
            interface: called.then(|| Arc::new(module.analysis.interface())),
            module_calls,
            needed_providers: tofu_module::provider_needs::package_addresses(&module.analysis),
            unreadable: false,
        }
    }

    /// Every file the analysis saw, with its diagnostics, in file order
    /// (what [`crate::Snapshot::module_diagnostics`] gives).
    pub fn file_diagnostics(&self) -> &[FileDiagnostics] {
        &self.files
    }

    /// The directories its module calls and its test runs' modules name
    /// (local sources, and those the module manifest records): what the
    /// host reads for it.
    pub(crate) fn called_dirs(&self) -> impl Iterator<Item = &Path> {
        self.module_calls
            .iter()
            .filter_map(|call| call.dir.as_deref())
    }

    /// The directories its `module` blocks name: its children, through
    /// which a loop of calls runs.
    pub(crate) fn child_dirs(&self) -> impl Iterator<Item = &Path> {
        self.module_calls
            .iter()
            .filter(|call| !call.test_run)
            .filter_map(|call| call.dir.as_deref())
    }

    /// The directories its test runs' `module` blocks name.
    pub(crate) fn test_run_dirs(&self) -> impl Iterator<Item = &Path> {
        self.module_calls
            .iter()
            .filter(|call| call.test_run)
            .filter_map(|call| call.dir.as_deref())
    }

    /// True when the summary can stand for the directory without its full
    /// analysis (it has the symbol index).
    pub(crate) fn has_symbol_index(&self) -> bool {
        self.symbols.is_some()
    }

    /// The workspace symbols of this module whose name `matches`; `full` is
    /// the module's full analysis, read where the summary has no symbols.
    pub(crate) fn symbols(
        &self,
        full: Option<&AnalysedModule>,
        matches: &impl Fn(&str) -> bool,
        out: &mut Vec<WorkspaceSymbol>,
    ) {
        let computed;
        let entries = match (&self.symbols, full) {
            (Some(entries), _) => entries,
            (None, Some(module)) => {
                computed = symbol_entries(module);
                &computed
            }
            (None, None) => return,
        };
        let container = self.dir.display().to_string();
        for entry in entries.iter().filter(|entry| matches(&entry.name)) {
            let Some(file) = self.files.get(entry.file as usize) else {
                continue;
            };
            out.push(WorkspaceSymbol {
                name: entry.name.to_string(),
                kind: entry.kind,
                block_type: entry.block_type.to_string(),
                location: FileRange {
                    path: file.path.clone(),
                    text: Arc::clone(&file.text),
                    range: entry.range,
                },
                container: container.clone(),
            });
        }
    }

    /// The module calls of this directory whose called directory is known.
    pub(crate) fn calls(&self) -> &[ResolvedCall] {
        &self.calls
    }

    /// The directory's module manifest, if it has one.
    pub(crate) fn manifest(&self) -> Option<&ModuleManifest> {
        self.manifest.as_deref()
    }
}

/// Diagnostics for every file of the module (every file the analysis saw,
/// including files without diagnostics), in file order.
fn file_diagnostics(module: &AnalysedModule) -> Vec<FileDiagnostics> {
    let analysis = &module.analysis;
    let mut out: Vec<FileDiagnostics> = analysis
        .files
        .iter()
        .map(|file| FileDiagnostics {
            path: module.path_of(&file.name),
            version: module.buffer_versions.get(&file.name).copied(),
            text: Arc::clone(&file.text),
            diagnostics: Vec::new(),
        })
        .collect();
    for diagnostic in &analysis.diagnostics {
        let Some(converted) = editor_diagnostic(module, diagnostic) else {
            continue;
        };
        if let Some(slot) = out.get_mut(diagnostic.subject.file.0 as usize) {
            slot.diagnostics.push(converted);
        }
    }
    for (file, slot) in analysis.files.iter().zip(out.iter_mut()) {
        let is_open = module.buffer_versions.contains_key(&file.name);
        if file.role == FileRole::Ignored && is_open {
            slot.diagnostics.push(file_ignored(&file.text));
        }
    }
    out
}

/// Declared blocks (by address, `resource.` left out) and local values.
fn symbol_entries(module: &AnalysedModule) -> Vec<SymbolEntry> {
    let analysis = &module.analysis;
    let mut entries = Vec::new();
    for declared in &analysis.declarations.blocks {
        let (Some(block), Some(file)) = (
            analysis.block(declared.kept),
            analysis.file(declared.kept.file),
        ) else {
            continue;
        };
        let name = declared.address.to_string();
        let name = name.strip_prefix("resource.").unwrap_or(&name);
        entries.push(SymbolEntry {
            name: name.into(),
            kind: SymbolKind::Block,
            block_type: block.kind.as_str().into(),
            file: declared.kept.file.0,
            range: focus_range(block, file.is_json()),
        });
    }
    for declared in &analysis.declarations.locals {
        let Some(attr) = analysis
            .block(declared.kept.block)
            .and_then(|block| block.body.attributes.get(declared.kept.attr))
        else {
            continue;
        };
        entries.push(SymbolEntry {
            name: format!("local.{}", declared.name).into(),
            kind: SymbolKind::Local,
            block_type: "locals".into(),
            file: declared.kept.block.file.0,
            range: attr.name_range,
        });
    }
    entries
}

/// The text of a quoted string as written, without its quotes.
pub(crate) fn unquoted(text: &str) -> &str {
    text.trim()
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or(text.trim())
}

/// A `module` block of a directory whose called directory is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResolvedCall {
    /// The call's name (`module "NAME"`).
    pub name: String,
    /// The called directory, normalised.
    pub called: PathBuf,
    /// `module "net" in /w/root/main.tf`, for messages.
    pub description: String,
}

/// The calls of `module` whose directory is known (of `module_calls`, its
/// calls as resolved), each described by the file holding its `source`.
pub(crate) fn resolved_calls(
    module: &AnalysedModule,
    module_calls: &[ModuleCall],
) -> Vec<ResolvedCall> {
    let analysis = &module.analysis;
    module_calls
        .iter()
        .filter(|call| !call.test_run)
        .filter_map(|call| {
            let called = call.dir.clone()?;
            let block = analysis
                .effective
                .get(&BlockAddress::Module(call.name.clone()))?;
            let source = block.body.attribute("source")?;
            let file = analysis.file(source.origin.file)?;
            Some(ResolvedCall {
                name: call.name.clone(),
                called,
                description: format!(
                    "module \"{}\" in {}",
                    call.name,
                    module.dir.join(&file.name).display()
                ),
            })
        })
        .collect()
}

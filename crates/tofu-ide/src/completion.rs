//! Completion that knows the module and its overrides.
//!
//! - After `var.`, `local.` or `module.`: the module's variables, local values
//!   and module calls (effective, so a variable declared only once shows its
//!   effective default as detail).
//! - Where a new top-level block may start (the start of a line at the top
//!   level of a native file, after blanks or a partial word, outside
//!   strings and comments): the keywords OpenTofu 1.12 accepts there, each
//!   a snippet of the whole block with its labels as placeholders
//!   (`resource "${1:type}" "${2:name}" {…}`); a test file's own blocks
//!   (`run`, `mock_provider`, …) in a test file (`completion_blocks`).
//! - At the top level of a native override file: first the header of every
//!   base block the file does not override yet
//!   (`resource "aws_instance" "web" {`), then the keywords of the blocks
//!   an override file may hold.
//! - Inside a block of an override file: the base block's arguments and nested
//!   block types the override does not set yet, with the base value as detail.
//! - Inside any block: the arguments and nested blocks OpenTofu itself
//!   defines for its type (`count`, `for_each`, `lifecycle`, …) not set yet.
//! - Across the module boundary: inside a `module` block whose directory is
//!   known, the called module's variables the call does not set yet
//!   (required ones first, marked), with their default, type and
//!   description; after `module.NAME.`, the called module's outputs.
//! - Where an expression may stand: OpenTofu's built-in functions, and
//!   after `provider::` the functions of the providers whose schemas the
//!   analysis has (`functions.rs`).
//! - At the start of a line of a `.tfvars` file: the module's variables the
//!   file does not set yet.
//! - In a test file: after `var.`, `local.`, `module.` and `output.`, the
//!   module's variables, local values, module calls and outputs; after
//!   `run.`, the runs of the file before the cursor, and after `run.NAME.`
//!   the outputs of the module that run applies (`test_runs`).
//! - From the providers' schemas, when the analysis has them: resource
//!   types (also in the `"` right after `resource`, `data`, `ephemeral`),
//!   a resource body's arguments and blocks, a resource's attributes
//!   (`provider_schema`), each with its type and flags as detail and the
//!   schema's description as documentation.
//! - In a `module` block's `source` string: the local module directories
//!   near the module and the sources `tofu init` installed; in a
//!   `required_providers` entry's `source`: the providers installed or
//!   cached for the module, which the caller reads
//!   (`completion_sources`).
//!
//! JSON files get no block keywords and no `source` proposals.

use std::path::Path;

use tofu_diagnostics::ModuleAnalysis;
use tofu_module::schema::top_level;
use tofu_module::{address_of, BlockAddress, EffectiveBlock, FileRole, ModuleFile};
use tofu_syntax::{Block, TextRange};

use crate::analysed_module::AnalysedModule;
use crate::completion_blocks::{keywords, new_block_at, TopLevel};
use crate::completion_sources::{
    module_sources, provider_sources, source_string_at, InstalledProvider, SourceProposal,
    SourceString,
};
use crate::snapshot::Snapshot;
use crate::test_runs::{run_module_dir, runs_before};

/// One proposal: what to show, what to insert, and the text it replaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    /// A provider schema's description of the argument, block or resource
    /// type, as the schema gives it (plain text or markdown).
    pub description: Option<String>,
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
    /// A module call, or a test file's run (after `run.`).
    Module,
    /// An output of a called module (after `module.NAME.`), or of the
    /// module itself (after `output.` in a test file).
    Output,
    /// A built-in or provider function; the insert text is a snippet
    /// (`functions.rs`).
    Function,
    /// A provider's functions, `provider::NAME::`, inserted as is.
    FunctionNamespace,
    /// A keyword that starts a top-level block; the insert text is a
    /// snippet of the whole block (`completion_blocks.rs`).
    Keyword,
    /// A local module directory, in a `module` block's `source`.
    Directory,
    /// A module's or provider's source address `tofu init` installed.
    Source,
}

impl CompletionItem {
    /// True when `insert_text` is a snippet (`upper(${1:str})`,
    /// `variable "${1:name}" {…}`).
    pub fn is_snippet(&self) -> bool {
        matches!(
            self.kind,
            CompletionKind::Function | CompletionKind::Keyword
        )
    }

    /// Longer documentation than the detail, as markdown: a function's
    /// description, or the schema's description of what a provider defines
    /// (a provider function's too).
    pub fn documentation(&self) -> Option<String> {
        match (self.kind, &self.description) {
            // A built-in's description is looked up when asked: there are
            // over a hundred of them in every list.
            (CompletionKind::Function, None) => {
                crate::functions::function_description(&self.label).map(str::to_owned)
            }
            _ => self.description.clone(),
        }
    }
}

/// The longest detail shown for a value before it is cut with `…`.
const MAX_DETAIL_CHARS: usize = 60;

impl Snapshot {
    /// The completions at byte `offset` of the file at `path`.
    pub fn completions(&self, path: &Path, offset: u32) -> Vec<CompletionItem> {
        self.completions_with_providers(path, offset, &[])
    }

    /// The module directory whose installed providers a completion at
    /// `offset` of `path` offers: the cursor is in the `source` of a
    /// `required_providers` entry. The caller reads them from the disk
    /// (this crate does no IO) and passes them to
    /// [`Snapshot::completions_with_providers`]; `None` elsewhere, where
    /// nothing need be read.
    pub fn completion_provider_dir(&self, path: &Path, offset: u32) -> Option<std::path::PathBuf> {
        let found = self.find_file(path)?;
        let file = found.file()?;
        match source_string_at(file, offset)? {
            (SourceString::Provider, _) => Some(found.module.dir.clone()),
            (SourceString::Module, _) => None,
        }
    }

    /// [`Snapshot::completions`], with `installed` the provider packages
    /// installed or cached for the module, which the `source` of a
    /// `required_providers` entry offers.
    pub fn completions_with_providers(
        &self,
        path: &Path,
        offset: u32,
        installed: &[InstalledProvider],
    ) -> Vec<CompletionItem> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let analysis = found.analysis();
        let Some(file) = found.file() else {
            return Vec::new();
        };
        if file.role == FileRole::Values {
            return values_completions(analysis, file, offset);
        }
        if let Some((kind, replace)) = source_string_at(file, offset) {
            let proposals = match kind {
                SourceString::Module => module_sources(self, &found.module.dir),
                SourceString::Provider => provider_sources(installed),
            };
            return source_items(proposals, replace);
        }
        if file.role == FileRole::Test {
            let before = file.text.get(..offset as usize).unwrap_or_default();
            let line_before = before.rsplit('\n').next().unwrap_or_default();
            if let Some(items) = self.run_completions(found.module, file, line_before, offset) {
                return items;
            }
            if let Some(items) = reference_completions(analysis, line_before, offset, true) {
                return items;
            }
            return match line_start_place(file, offset) {
                Some((LineStart::TopLevel, replace)) => {
                    keyword_items(TopLevel::Test, replace).collect()
                }
                _ => Vec::new(),
            };
        }
        if !file.role.is_loaded() {
            return Vec::new();
        }
        let dir = &found.module.dir;
        let text = &file.text;
        let before = text.get(..offset as usize).unwrap_or_default();
        let line_before = before.rsplit('\n').next().unwrap_or_default();
        if let Some((call, replace)) = named_step_before(line_before, offset, "module.") {
            let called = self.called_dir(dir, &call);
            return match called.and_then(|called| self.module(called)) {
                Some(child) => output_items(&child.analysis, replace),
                None => Vec::new(),
            };
        }
        if let Some((replace, items)) =
            crate::provider_schema::type_items(analysis, line_before, offset)
        {
            return schema_items(items, replace);
        }
        if let Some(items) = reference_completions(analysis, line_before, offset, false) {
            return items;
        }
        if let Some((replace, items)) =
            crate::provider_schema::attribute_items(analysis, line_before, offset)
        {
            return schema_items(items, replace);
        }
        if let Some(functions) = crate::functions::function_completions(file, analysis, offset) {
            return functions
                .into_iter()
                .map(|function| CompletionItem {
                    label: function.label,
                    kind: if function.namespace {
                        CompletionKind::FunctionNamespace
                    } else {
                        CompletionKind::Function
                    },
                    detail: Some(function.signature),
                    insert_text: function.snippet,
                    description: function.documentation,
                    replace: function.replace,
                })
                .collect();
        }
        let (block, replace) = match line_start_place(file, offset) {
            Some((LineStart::InBlock(block), replace)) => (block, replace),
            Some((LineStart::TopLevel, replace)) => {
                let mut items = Vec::new();
                if file.role == FileRole::Override {
                    items.extend(override_headers(analysis, found.id, replace));
                }
                items.extend(
                    TopLevel::of(file.role)
                        .into_iter()
                        .flat_map(|top| keyword_items(top, replace)),
                );
                return items;
            }
            Some((LineStart::Elsewhere, _)) | None => return Vec::new(),
        };
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
        let address = address_of(&block);
        let base = address
            .as_ref()
            .and_then(|address| analysis.effective.get(address));
        if let (FileRole::Override, Some(base)) = (file.role, base) {
            items.extend(base_arguments(analysis, base, &block, replace));
        }
        if let Some(BlockAddress::Module(_)) = &address {
            let child = self
                .block_call_dir(dir, &block)
                .and_then(|called| self.module(&called));
            if let Some(child) = child {
                items.extend(call_arguments(&child.analysis, base, &block, replace));
            }
        }
        items.extend(schema_items(
            crate::provider_schema::body_items(analysis, &block),
            replace,
        ));
        items.extend(meta_argument_items(&block, &items, replace));
        items
    }

    /// In a test file: after `run.`, the runs of the file before the
    /// cursor; after `run.NAME.`, the outputs of the module that run
    /// applies. `None` elsewhere.
    fn run_completions(
        &self,
        module: &AnalysedModule,
        file: &ModuleFile,
        line_before: &str,
        offset: u32,
    ) -> Option<Vec<CompletionItem>> {
        let source = file.source.as_deref()?;
        if let Some((run, replace)) = named_step_before(line_before, offset, "run.") {
            let dir = run_module_dir(source, &run, &module.dir)?;
            let applied = if dir == module.dir {
                module
            } else {
                self.module(&dir)?
            };
            return Some(output_items(&applied.analysis, replace));
        }
        let replace = root_before(line_before, offset, "run.")?;
        let runs = runs_before(source, offset).into_iter().filter_map(|run| {
            let name = &run.labels.first()?.value;
            Some(CompletionItem {
                label: name.clone(),
                kind: CompletionKind::Module,
                detail: Some("run".to_owned()),
                insert_text: name.clone(),
                description: None,
                replace,
            })
        });
        Some(runs.collect())
    }

    /// The called directory a completion at `offset` of `found` reads: the
    /// call of the `module` block the cursor is in, or of `module.NAME.`
    /// before it (read from the text: while typing, the analysis may have
    /// lost the block).
    pub(crate) fn completion_call_dir(
        &self,
        found: &crate::analysed_module::FileInModule<'_>,
        offset: u32,
    ) -> Option<std::path::PathBuf> {
        let file = found.file()?;
        let dir = &found.module.dir;
        let before = file.text.get(..offset as usize).unwrap_or_default();
        let line_before = before.rsplit('\n').next().unwrap_or_default();
        if file.role == FileRole::Test {
            let (run, _) = named_step_before(line_before, offset, "run.")?;
            return run_module_dir(file.source.as_deref()?, &run, dir);
        }
        if !file.role.is_loaded() {
            return None;
        }
        if let Some((call, _)) = named_step_before(line_before, offset, "module.") {
            return self.called_dir(dir, &call).map(Path::to_path_buf);
        }
        let (block, _) = word_in_block(file, offset)?;
        match address_of(&block)? {
            BlockAddress::Module(_) => self.block_call_dir(dir, &block),
            _ => None,
        }
    }
}

/// Proposals from a provider's schema, replacing `replace`.
fn schema_items(
    items: Vec<crate::provider_schema::SchemaItem>,
    replace: TextRange,
) -> Vec<CompletionItem> {
    items
        .into_iter()
        .map(|item| CompletionItem {
            label: item.label,
            kind: if item.block {
                CompletionKind::NestedBlock
            } else {
                CompletionKind::Argument
            },
            detail: Some(item.detail),
            description: item.description,
            insert_text: item.insert_text,
            replace,
        })
        .collect()
}

/// The length of the word (letters, digits, `_`, `-`) that ends `text`.
fn word_len(text: &str) -> usize {
    text.chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .map(char::len_utf8)
        .sum()
}

/// The range of a partial word at `offset` that stands alone at the start of
/// its line (where an argument or block name goes), in a native file.
fn enclosing_line_start(file: &ModuleFile, offset: u32) -> Option<TextRange> {
    if file.is_json() {
        return None;
    }
    let before = file.text.get(..offset as usize)?;
    let line_before = before.rsplit('\n').next().unwrap_or_default();
    let word = word_len(line_before);
    let before_word = line_before.get(..line_before.len() - word)?;
    if !before_word.trim().is_empty() {
        return None;
    }
    Some(TextRange::from_usize(
        offset as usize - word,
        offset as usize,
    ))
}

/// The file parsed with the partial word at `offset` blanked out (same
/// offsets): a half-typed word (`de` where `default = …` will be) is a
/// syntax error that loses its block.
fn blanked_parse(file: &ModuleFile, replace: TextRange) -> tofu_syntax::SourceFile {
    let blanked: String = file
        .text
        .char_indices()
        .map(|(i, c)| {
            if replace.contains(tofu_syntax::text::to_u32(i)) && c != '\n' {
                ' '
            } else {
                c
            }
        })
        .collect();
    tofu_syntax::parse(&file.name, &blanked)
}

/// Where a partial word at the start of a line stands.
enum LineStart {
    /// In this top-level block.
    InBlock(Block),
    /// Where a new top-level block may start (`completion_blocks`).
    TopLevel,
    /// Neither: in a top-level attribute, a string, a comment, or before
    /// text on the same line.
    Elsewhere,
}

/// Where the partial word at the start of a line before `offset` stands,
/// and the word's range; `None` when the cursor is not after such a word
/// (or a JSON file's).
fn line_start_place(file: &ModuleFile, offset: u32) -> Option<(LineStart, TextRange)> {
    let replace = enclosing_line_start(file, offset)?;
    let parsed = blanked_parse(file, replace);
    if let Some(block) = parsed
        .body
        .blocks
        .iter()
        .find(|block| block.range.contains(offset))
    {
        return Some((LineStart::InBlock(block.clone()), replace));
    }
    let rest = file.text.get(offset as usize..).unwrap_or_default();
    let rest_of_line = rest.split('\n').next().unwrap_or_default();
    let place = if rest_of_line.trim().is_empty() && new_block_at(file, &parsed, offset) {
        LineStart::TopLevel
    } else {
        LineStart::Elsewhere
    };
    Some((place, replace))
}

/// The top-level block around a partial word at the start of a line, and
/// the word's range.
fn word_in_block(file: &ModuleFile, offset: u32) -> Option<(Block, TextRange)> {
    match line_start_place(file, offset)? {
        (LineStart::InBlock(block), replace) => Some((block, replace)),
        _ => None,
    }
}

/// The keywords that start a top-level block in a file of kind `top`, as
/// snippets replacing `replace`.
fn keyword_items(top: TopLevel, replace: TextRange) -> impl Iterator<Item = CompletionItem> {
    keywords(top).map(move |keyword| CompletionItem {
        label: keyword.label.to_owned(),
        kind: CompletionKind::Keyword,
        detail: Some(keyword.detail.to_owned()),
        description: None,
        insert_text: keyword.snippet.to_owned(),
        replace,
    })
}

/// Proposals for a `source` string, replacing `replace`.
fn source_items(proposals: Vec<SourceProposal>, replace: TextRange) -> Vec<CompletionItem> {
    proposals
        .into_iter()
        .map(|proposal| CompletionItem {
            kind: if proposal.directory {
                CompletionKind::Directory
            } else {
                CompletionKind::Source
            },
            insert_text: proposal.label.clone(),
            label: proposal.label,
            detail: Some(proposal.detail),
            description: None,
            replace,
        })
        .collect()
}

/// `ROOT NAME.` (`module.NAME.`, `module.NAME[KEY].`, `run.NAME.`) then a
/// partial name: the name and the partial name's range.
fn named_step_before(line_before: &str, offset: u32, root: &str) -> Option<(String, TextRange)> {
    let partial = word_len(line_before);
    let before_partial = line_before.get(..line_before.len() - partial)?;
    let mut rest = before_partial.strip_suffix('.')?;
    if let Some(before_key) = rest.strip_suffix(']') {
        rest = before_key.get(..before_key.rfind('[')?)?;
    }
    let name_len = word_len(rest);
    let call = rest.get(rest.len() - name_len..)?;
    let before_call = rest.get(..rest.len() - name_len)?.strip_suffix(root)?;
    let starts_reference = !before_call
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-');
    (!call.is_empty() && starts_reference).then(|| {
        (
            call.to_owned(),
            TextRange::from_usize(offset as usize - partial, offset as usize),
        )
    })
}

/// A called module's outputs, with their value and description.
fn output_items(child: &ModuleAnalysis, replace: TextRange) -> Vec<CompletionItem> {
    child
        .effective
        .blocks
        .iter()
        .filter_map(|block| {
            let BlockAddress::Output(name) = &block.address else {
                return None;
            };
            let mut parts = Vec::new();
            parts.extend(attribute_value(child, block, "value").map(|v| format!("value = {v}")));
            parts.extend(description(child, block));
            Some(CompletionItem {
                label: name.clone(),
                kind: CompletionKind::Output,
                detail: (!parts.is_empty()).then(|| parts.join("; ")),
                insert_text: name.clone(),
                description: None,
                replace,
            })
        })
        .collect()
}

/// A called module's variables that neither this `module` block nor the
/// call's effective block (`call`, with what other files set) sets yet:
/// required ones (no default) first, each group in declaration order.
fn call_arguments(
    child: &ModuleAnalysis,
    call: Option<&EffectiveBlock>,
    block: &Block,
    replace: TextRange,
) -> Vec<CompletionItem> {
    let set = |name: &str| {
        block.body.attribute(name).is_some()
            || call.is_some_and(|call| call.body.attribute(name).is_some())
    };
    let mut items: Vec<(bool, CompletionItem)> = child
        .effective
        .blocks
        .iter()
        .filter_map(|variable| {
            let BlockAddress::Variable(name) = &variable.address else {
                return None;
            };
            if set(name) {
                return None;
            }
            let required = variable.body.attribute("default").is_none();
            Some((
                !required,
                CompletionItem {
                    label: name.clone(),
                    kind: CompletionKind::Argument,
                    detail: Some(variable_detail(child, variable)),
                    insert_text: format!("{name} = "),
                    description: None,
                    replace,
                },
            ))
        })
        .collect();
    items.sort_by_key(|(optional, _)| *optional);
    items.into_iter().map(|(_, item)| item).collect()
}

/// At the start of a line of a `.tfvars` file (not inside a value): the
/// module's variables the file does not set yet.
fn values_completions(
    analysis: &ModuleAnalysis,
    file: &ModuleFile,
    offset: u32,
) -> Vec<CompletionItem> {
    let Some(replace) = enclosing_line_start(file, offset) else {
        return Vec::new();
    };
    let parsed = blanked_parse(file, replace);
    let attributes = &parsed.body.attributes;
    if attributes.iter().any(|attr| attr.range.contains(offset)) {
        return Vec::new();
    }
    analysis
        .effective
        .blocks
        .iter()
        .filter_map(|variable| {
            let BlockAddress::Variable(name) = &variable.address else {
                return None;
            };
            if attributes.iter().any(|attr| &attr.name == name) {
                return None;
            }
            Some(CompletionItem {
                label: name.clone(),
                kind: CompletionKind::Variable,
                detail: Some(variable_detail(analysis, variable)),
                insert_text: format!("{name} = "),
                description: None,
                replace,
            })
        })
        .collect()
}

/// How completion describes a variable: `required` or its default, its
/// type, its description (`required; type = string; The VPC's CIDR block.`).
fn variable_detail(analysis: &ModuleAnalysis, variable: &EffectiveBlock) -> String {
    let mut parts = vec![match attribute_value(analysis, variable, "default") {
        Some(default) => format!("default = {default}"),
        None => "required".to_owned(),
    }];
    parts.extend(attribute_value(analysis, variable, "type").map(|t| format!("type = {t}")));
    parts.extend(description(analysis, variable));
    parts.join("; ")
}

/// The longest description shown in a completion's detail.
const MAX_DESCRIPTION_CHARS: usize = 100;

/// A block's `description`: the string's content, or the expression as
/// written, on one line.
fn description(analysis: &ModuleAnalysis, block: &EffectiveBlock) -> Option<String> {
    let attr = block.body.attribute("description")?;
    let file = analysis.file(attr.origin.file)?;
    let text = match file.attribute_at(attr.origin.range).map(|a| &a.expr.kind) {
        Some(tofu_syntax::ExprKind::String(value)) => value.clone(),
        _ => attr.value.slice(&file.text).to_owned(),
    };
    Some(crate::diagnostics::one_line(&text, MAX_DESCRIPTION_CHARS))
}

/// `root` (`var.`, `run.`, …) starting a reference, then a partial name: the
/// partial name's range.
fn root_before(line_before: &str, offset: u32, root: &str) -> Option<TextRange> {
    let partial_len = word_len(line_before);
    let before_partial = line_before.get(..line_before.len() - partial_len)?;
    let before_root = before_partial.strip_suffix(root)?;
    if before_root
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
    {
        return None;
    }
    Some(TextRange::from_usize(
        offset as usize - partial_len,
        offset as usize,
    ))
}

/// `var.`, `local.` and `module.` followed by a partial name.
fn reference_completions(
    analysis: &ModuleAnalysis,
    line_before: &str,
    offset: u32,
    in_test_file: bool,
) -> Option<Vec<CompletionItem>> {
    // A test file's assertions also read the module's outputs.
    let (root, replace) = ["var.", "local.", "module.", "output."]
        .into_iter()
        .filter(|&root| root != "output." || in_test_file)
        .find_map(|root| Some((root, root_before(line_before, offset, root)?)))?;
    // Variables and module calls: their name, and one argument as detail.
    let named_blocks = |kind: CompletionKind, shown: &str| -> Vec<CompletionItem> {
        analysis
            .effective
            .blocks
            .iter()
            .filter_map(|block| {
                let name = match (&block.address, kind) {
                    (BlockAddress::Variable(name), CompletionKind::Variable)
                    | (BlockAddress::Module(name), CompletionKind::Module)
                    | (BlockAddress::Output(name), CompletionKind::Output) => name,
                    _ => return None,
                };
                Some(CompletionItem {
                    label: name.clone(),
                    kind,
                    detail: attribute_value(analysis, block, shown)
                        .map(|value| format!("{shown} = {value}")),
                    insert_text: name.clone(),
                    description: None,
                    replace,
                })
            })
            .collect()
    };
    let items = match root {
        "var." => named_blocks(CompletionKind::Variable, "default"),
        "module." => named_blocks(CompletionKind::Module, "source"),
        "output." => named_blocks(CompletionKind::Output, "value"),
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
                description: None,
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
                description: None,
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
            description: None,
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
            description: None,
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
            description: None,
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
            description: None,
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
    crate::diagnostics::one_line(text, MAX_DETAIL_CHARS)
}

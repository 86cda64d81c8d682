//! Analysing one module directory: files and their roles, parsing through the
//! cache, and the diagnostics of loading. The result is plain data.
//!
//! `analyze` is a pure function of its inputs (plus the cache, which only saves
//! work): no IO, no clock, no state that spans directories.

use std::sync::Arc;

use tofu_syntax::{
    Attribute, Block, Code, Diagnostic, FileId, LineIndex, Location, SourceFile, TextRange,
};

use crate::declarations::Declarations;
use crate::discovery;
use crate::effective::EffectiveModule;
use crate::input::{Config, FileContent, InputFile, ParseCache};
use crate::merge;
use crate::reporting;
use crate::rules;

/// What a file is to its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    Primary,
    Override,
    /// A `.tf`/`.tf.json` file hidden by its `.tofu`/`.tofu.json` twin.
    Shadowed {
        by: FileId,
    },
    /// A configuration extension on a name OpenTofu skips (`.x.tf`, `x.tf~`).
    Ignored,
    /// Not a configuration file (other extension or a test file).
    Other,
}

impl FileRole {
    pub fn is_loaded(self) -> bool {
        matches!(self, FileRole::Primary | FileRole::Override)
    }
}

#[derive(Clone, Debug)]
pub struct ModuleFile {
    pub name: String,
    pub role: FileRole,
    /// The text as given (a lossy decoding for a file that is not UTF-8; empty for
    /// a file that could not be read).
    pub text: Arc<str>,
    pub line_index: Arc<LineIndex>,
    /// The parsed file, for loaded files that could be read.
    pub source: Option<Arc<SourceFile>>,
    /// Why the file could not be read, if it could not.
    pub read_error: Option<String>,
}

impl ModuleFile {
    pub fn is_tofu(&self) -> bool {
        self.name.ends_with(".tofu") || self.name.ends_with(".tofu.json")
    }

    pub fn is_json(&self) -> bool {
        self.name.ends_with(".json")
    }

    /// True when part of the file could not be parsed, so blocks may be missing.
    pub fn is_incomplete(&self) -> bool {
        self.read_error.is_some()
            || self
                .source
                .as_ref()
                .is_some_and(|source| !source.unrecovered.is_empty())
    }

    /// The range to delete to remove `range` cleanly: widened to whole lines
    /// when nothing else shares them (indentation, trailing blanks and the line
    /// break included).
    pub fn removal_range(&self, range: TextRange) -> TextRange {
        let text = self.text.as_bytes();
        let mut start = range.start as usize;
        while start > 0 && matches!(text.get(start - 1), Some(b' ' | b'\t')) {
            start -= 1;
        }
        let at_line_start = start == 0 || text.get(start - 1) == Some(&b'\n');
        let mut end = range.end as usize;
        while matches!(text.get(end), Some(b' ' | b'\t' | b'\r')) {
            end += 1;
        }
        let at_line_end = end >= text.len() || text.get(end) == Some(&b'\n');
        if at_line_start && at_line_end {
            TextRange::from_usize(start, (end + 1).min(text.len()))
        } else {
            range
        }
    }

    /// The attribute written exactly at `range`, at any depth of the file.
    pub fn attribute_at(&self, range: TextRange) -> Option<&Attribute> {
        let mut body = &self.source.as_ref()?.body;
        loop {
            if let Some(attr) = body.attributes.iter().find(|attr| attr.range == range) {
                return Some(attr);
            }
            body = &body
                .blocks
                .iter()
                .find(|block| block.range.start <= range.start && range.end <= block.range.end)?
                .body;
        }
    }

    /// `main.tf:3,1-29` or `main.tf:3,1-5,2`, as HCL writes ranges in details.
    pub fn describe(&self, range: TextRange) -> String {
        let start = self.line_index.line_col(&self.text, range.start);
        let end = self.line_index.line_col(&self.text, range.end);
        if start.line == end.line {
            format!(
                "{}:{},{}-{}",
                self.name, start.line, start.column, end.column
            )
        } else {
            format!(
                "{}:{},{}-{},{}",
                self.name, start.line, start.column, end.line, end.column
            )
        }
    }
}

/// A top-level block (or a `data` block nested in a `check`) of a loaded file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockRef {
    pub file: FileId,
    /// Index in the file's top-level blocks.
    pub index: usize,
    /// Index of a nested block inside it (only for `data` inside `check`).
    pub nested: Option<usize>,
}

#[derive(Debug)]
pub struct ModuleAnalysis {
    /// Every input file, sorted byte-wise by name; a [`FileId`] indexes this list.
    pub files: Vec<ModuleFile>,
    /// Primary files in loading order.
    pub primary: Vec<FileId>,
    /// Override files in loading order.
    pub overrides: Vec<FileId>,
    pub declarations: Declarations,
    pub effective: EffectiveModule,
    /// Sorted by file, then position.
    pub diagnostics: Vec<Diagnostic>,
}

impl ModuleAnalysis {
    pub fn file(&self, id: FileId) -> Option<&ModuleFile> {
        self.files.get(id.0 as usize)
    }

    pub fn file_id(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|file| file.name == name)
            .map(|index| FileId(tofu_syntax::text::to_u32(index)))
    }

    pub fn block(&self, block: BlockRef) -> Option<&Block> {
        let source = self.file(block.file)?.source.as_ref()?;
        let top = source.body.blocks.get(block.index)?;
        match block.nested {
            Some(nested) => top.body.blocks.get(nested),
            None => Some(top),
        }
    }

    /// `main.tf:3` for a byte offset of a file: how provenance comments and
    /// hover name the place a part came from.
    pub fn place(&self, file: FileId, offset: u32) -> String {
        match self.file(file) {
            Some(module_file) => format!(
                "{}:{}",
                module_file.name,
                module_file
                    .line_index
                    .line_col(&module_file.text, offset)
                    .line
            ),
            None => "?".to_owned(),
        }
    }

    /// `main.tf:3,1-29` for a location, as HCL writes ranges in details.
    pub fn describe(&self, location: Location) -> String {
        match (self.file(location.file), location.range) {
            (Some(file), Some(range)) => file.describe(range),
            (Some(file), None) => file.name.clone(),
            (None, _) => String::from("?"),
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Analyses one module directory.
pub fn analyze(inputs: &[InputFile], config: &Config, cache: &mut ParseCache) -> ModuleAnalysis {
    let mut sorted: Vec<&InputFile> = inputs.iter().collect();
    sorted.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    sorted.dedup_by(|a, b| a.name == b.name);
    let names: Vec<&str> = sorted.iter().map(|input| input.name.as_str()).collect();
    let discovered = discovery::discover(&names);
    let id = |index: usize| FileId(tofu_syntax::text::to_u32(index));

    cache.begin();
    let mut diagnostics = Vec::new();
    let mut files = Vec::with_capacity(sorted.len());
    let mut roles = vec![FileRole::Other; sorted.len()];
    for (list, role) in [
        (&discovered.primary, FileRole::Primary),
        (&discovered.overrides, FileRole::Override),
        (&discovered.ignored, FileRole::Ignored),
    ] {
        for &index in list {
            if let Some(slot) = roles.get_mut(index) {
                *slot = role;
            }
        }
    }
    for &(hidden, by) in &discovered.shadowed {
        if let Some(slot) = roles.get_mut(hidden) {
            *slot = FileRole::Shadowed { by: id(by) };
        }
    }
    for (index, input) in sorted.iter().enumerate() {
        let role = roles.get(index).copied().unwrap_or(FileRole::Other);
        let file = load_file(input, role, id(index), cache, &mut diagnostics);
        files.push(file);
    }

    for &(hidden, by) in &discovered.shadowed {
        let (Some(hidden_file), Some(by_file)) = (files.get(hidden), files.get(by)) else {
            continue;
        };
        let whole = TextRange::from_usize(0, hidden_file.text.len());
        diagnostics.push(
            Diagnostic::new(
                Code::FileShadowed,
                format!("File ignored: {} hides it", by_file.name),
                Location::new(id(hidden), whole),
            )
            .with_detail(format!(
                "OpenTofu reads {} instead of this file, which it does not read at all: nothing declared here exists for OpenTofu. Terraform, which does not read .tofu files, still reads this one.",
                by_file.name
            ))
            .with_related(Location::new(id(by), TextRange::empty(0)), "the file that hides it"),
        );
    }

    let primary: Vec<FileId> = discovered.primary.iter().map(|&i| id(i)).collect();
    let overrides: Vec<FileId> = discovered.overrides.iter().map(|&i| id(i)).collect();
    let mut module = ModuleAnalysis {
        files,
        primary,
        overrides,
        declarations: Declarations::default(),
        effective: EffectiveModule::default(),
        diagnostics,
    };
    let mut found = as_written_diagnostics(&module, cache);
    let declarations = Declarations::collect(&module, &mut found);
    module.declarations = declarations;
    module.diagnostics.extend(found);
    let mut found = Vec::new();
    rules::schema::duplicate_imports(&module, &mut found);
    module.diagnostics.extend(found);
    let mut merged = Vec::new();
    module.effective = merge::merge(&module, config, cache, &mut merged);
    module.diagnostics.extend(merged);
    let mut after_merge = Vec::new();
    rules::module_calls::check(&module, &mut after_merge);
    rules::variables::check(&module, &mut after_merge);
    rules::providers::implied_local_names(&module, &mut after_merge);
    module.diagnostics.extend(after_merge);
    let mut version_rules = Vec::new();
    rules::versions::check(&module, &config.parsed_tofu_version(), &mut version_rules);
    module.diagnostics.extend(version_rules);
    let mut diagnostics = std::mem::take(&mut module.diagnostics);
    reporting::apply_suppressions(&module, &mut diagnostics);
    withhold_after_version_incompatibility(&mut diagnostics);
    reporting::apply_severity_overrides(config, &mut diagnostics);
    module.diagnostics = diagnostics;
    sort_diagnostics(&mut module.diagnostics);
    cache.finish();
    module
}

/// The rules that read each file's blocks as written
/// ([`rules::check_as_written`]), run on a one-file view of the module and
/// cached with the parsed file: after an edit only the edited file is checked
/// again. Results are stored with the placeholder id `FileId(0)` and given the
/// file's current id here.
fn as_written_diagnostics(module: &ModuleAnalysis, cache: &mut ParseCache) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (index, file) in module.files.iter().enumerate() {
        if !file.role.is_loaded() || file.source.is_none() {
            continue;
        }
        let id = FileId(tofu_syntax::text::to_u32(index));
        let results = match cache.cached_rules(&file.name, &file.text, file.role) {
            Some(cached) => cached,
            None => {
                let view_id = FileId(0);
                let view = ModuleAnalysis {
                    files: vec![file.clone()],
                    primary: if file.role == FileRole::Primary {
                        vec![view_id]
                    } else {
                        Vec::new()
                    },
                    overrides: if file.role == FileRole::Override {
                        vec![view_id]
                    } else {
                        Vec::new()
                    },
                    declarations: Declarations::default(),
                    effective: EffectiveModule::default(),
                    diagnostics: Vec::new(),
                };
                let mut found = Vec::new();
                rules::check_as_written(&view, &mut found);
                let found = std::sync::Arc::new(found);
                cache.store_rules(
                    &file.name,
                    &file.text,
                    file.role,
                    std::sync::Arc::clone(&found),
                );
                found
            }
        };
        out.extend(results.iter().map(|diagnostic| in_file(diagnostic, id)));
    }
    out
}

/// A copy of a diagnostic computed on a one-file view, with `FileId(0)`
/// replaced by the file's id in the module.
fn in_file(diagnostic: &Diagnostic, id: FileId) -> Diagnostic {
    let mut diagnostic = diagnostic.clone();
    diagnostic.subject.file = id;
    for related in &mut diagnostic.related {
        related.location.file = id;
    }
    if let Some(fix) = &mut diagnostic.fix {
        for edit in &mut fix.edits {
            edit.file = id;
        }
    }
    diagnostic
}

fn load_file(
    input: &InputFile,
    role: FileRole,
    id: FileId,
    cache: &mut ParseCache,
    diagnostics: &mut Vec<Diagnostic>,
) -> ModuleFile {
    let (text, parse_upto, read_error): (Arc<str>, Option<u32>, Option<String>) =
        match &input.content {
            FileContent::Text(text) => (Arc::clone(text), None, None),
            FileContent::InvalidUtf8 {
                text,
                first_bad_byte,
            } => (Arc::clone(text), Some(*first_bad_byte), None),
            FileContent::Unreadable { message } => (Arc::from(""), None, Some(message.clone())),
        };
    let mut file = ModuleFile {
        name: input.name.clone(),
        role,
        line_index: Arc::new(LineIndex::new("")),
        text: Arc::clone(&text),
        source: None,
        read_error: read_error.clone(),
    };
    if !role.is_loaded() || read_error.is_some() || parse_upto.is_some() {
        file.line_index = Arc::new(LineIndex::new(&text));
    }
    if !role.is_loaded() {
        return file;
    }
    if let Some(message) = read_error {
        diagnostics.push(
            Diagnostic::new(
                Code::FileUnreadable,
                "Failed to read file",
                Location::new(id, TextRange::empty(0)),
            )
            .with_detail(format!(
                "The configuration file \"{}\" could not be read: {message}.",
                input.name
            )),
        );
        return file;
    }
    let source = match parse_upto {
        None => {
            let (source, line_index) = cache.get_or_parse(&input.name, &text);
            file.line_index = line_index;
            source
        }
        Some(first_bad_byte) => {
            let at = first_bad_byte as usize;
            diagnostics.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    "Invalid character encoding",
                    Location::new(id, TextRange::empty(tofu_syntax::text::to_u32(at)).widened(&text)),
                )
                .with_detail("All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor."),
            );
            // Parse what precedes the first bad byte; the rest is unrecovered.
            let mut valid_end = at.min(text.len());
            while valid_end > 0 && !text.is_char_boundary(valid_end) {
                valid_end -= 1;
            }
            let valid: Arc<str> = Arc::from(text.get(..valid_end).unwrap_or_default());
            let mut parsed = (*cache.get_or_parse(&input.name, &valid).0).clone();
            parsed.errors.clear();
            parsed
                .unrecovered
                .push(TextRange::from_usize(valid_end, text.len()));
            Arc::new(parsed)
        }
    };
    for error in &source.errors {
        let code = if error.duplicate_argument {
            Code::DuplicateArgument
        } else {
            Code::SyntaxError
        };
        diagnostics.push(
            Diagnostic::new(code, error.summary.clone(), Location::new(id, error.range))
                .with_detail(error.detail.clone()),
        );
    }
    file.source = Some(source);
    file
}

/// `diagnostics.md` §6: when the module is incompatible with the configured
/// OpenTofu version, OpenTofu reports only that. Everything else but the
/// discovery hints is withheld, and each incompatibility says how much was.
fn withhold_after_version_incompatibility(diagnostics: &mut Vec<Diagnostic>) {
    if !diagnostics
        .iter()
        .any(|d| d.code == Code::IncompatibleTofuVersion)
    {
        return;
    }
    let kept = |d: &Diagnostic| {
        matches!(
            d.code,
            Code::IncompatibleTofuVersion | Code::FileShadowed | Code::FileIgnored
        )
    };
    let n_withheld = diagnostics.iter().filter(|d| !kept(d)).count();
    diagnostics.retain(kept);
    if n_withheld == 0 {
        return;
    }
    let noun = if n_withheld == 1 {
        "diagnostic"
    } else {
        "diagnostics"
    };
    let verb = if n_withheld == 1 { "is" } else { "are" };
    for diagnostic in diagnostics
        .iter_mut()
        .filter(|d| d.code == Code::IncompatibleTofuVersion)
    {
        diagnostic.detail.push_str(&format!(
            "\n\n{n_withheld} other {noun} in this module {verb} not shown because OpenTofu stops at the version incompatibility."
        ));
    }
}

pub(crate) fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (
            a.subject.file,
            a.subject.range.map(|r| (r.start, r.end)),
            a.code,
            &a.summary,
        )
            .cmp(&(
                b.subject.file,
                b.subject.range.map(|r| (r.start, r.end)),
                b.code,
                &b.summary,
            ))
    });
}

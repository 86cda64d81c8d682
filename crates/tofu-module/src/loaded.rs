//! Phase 1 of a module's analysis: the files of a module directory, their
//! roles and their parses ([`LoadedModule`]), and the one-file view the
//! as-written rules read ([`FileView`]).
//!
//! The phases are built complete and then only read; each owns the one
//! before it and derefs to it: [`LoadedModule`] here,
//! [`crate::declarations::DeclaredModule`] (what the primary files declare,
//! and what became of each block), [`crate::merge::MergedModule`] (the
//! effective configuration after override merging). Each phase's type lives
//! with the code that builds it, so a module imports only the phases before
//! its own. This module holds data only: loading itself is `analysis`.

use std::sync::Arc;

use tofu_syntax::{Attribute, Block, Body, FileId, LineIndex, Location, SourceFile, TextRange};

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
    /// A variable definitions file (`.tfvars`, `.tfvars.json`): not
    /// configuration, but parsed and checked against the variables.
    Values,
    /// A test file `tofu validate` reads with the module (`*.tftest.hcl`,
    /// `*.tofutest.hcl` and their JSON forms, in the directory or in
    /// `tests/`): parsed and judged on its own (`rules::test_files`),
    /// never merged into the configuration.
    Test,
    /// Not a configuration file (another extension, or a test file
    /// OpenTofu does not read from where it is).
    Other,
}

impl FileRole {
    pub fn is_loaded(self) -> bool {
        matches!(self, FileRole::Primary | FileRole::Override)
    }

    /// True for the files the analysis parses: configuration files it
    /// loads, and the values and test files it judges beside them.
    pub fn is_parsed(self) -> bool {
        matches!(
            self,
            FileRole::Primary | FileRole::Override | FileRole::Values | FileRole::Test
        )
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
    /// Whether the text has a suppression comment's marker (found once per
    /// text, by the file store).
    pub may_suppress: bool,
}

impl ModuleFile {
    pub fn is_tofu(&self) -> bool {
        is_tofu_name(&self.name)
    }

    pub fn is_json(&self) -> bool {
        self.name.ends_with(".json")
    }

    /// The syntax the file is written in.
    pub fn syntax(&self) -> tofu_syntax::Syntax {
        if self.is_json() {
            tofu_syntax::Syntax::Json
        } else {
            tofu_syntax::Syntax::Native
        }
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
        attribute_in(&self.source.as_ref()?.body, range)
    }

    /// The block written exactly at `range` (its whole range), at any depth
    /// of the file.
    pub fn block_at(&self, range: TextRange) -> Option<&Block> {
        let mut body = &self.source.as_ref()?.body;
        loop {
            let holding = holding(&body.blocks, range)?;
            if holding.range == range {
                return Some(holding);
            }
            body = &holding.body;
        }
    }

    /// `main.tf:3,1-29` or `main.tf:3,1-5,2`, as HCL writes ranges in details
    /// (columns in grapheme clusters).
    pub fn describe(&self, range: TextRange) -> String {
        let start = self.line_index.hcl_line_col(&self.text, range.start);
        let end = self.line_index.hcl_line_col(&self.text, range.end);
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

/// True for a `.tofu` or `.tofu.json` file name.
pub fn is_tofu_name(name: &str) -> bool {
    name.ends_with(".tofu") || name.ends_with(".tofu.json")
}

/// The attribute written exactly at `range` in `body`, at any depth. The
/// blocks of a JSON array (`"validation": [{…}, {…}]`) share one range:
/// when the block [`holding`] finds does not have it, every block that
/// holds the range is searched.
fn attribute_in(body: &Body, range: TextRange) -> Option<&Attribute> {
    if let Some(attr) =
        written_at(&body.attributes, range, |attr| attr.range).filter(|attr| attr.range == range)
    {
        return Some(attr);
    }
    let first = holding(&body.blocks, range)?;
    attribute_in(&first.body, range).or_else(|| {
        body.blocks
            .iter()
            .filter(|block| {
                !std::ptr::eq(*block, first)
                    && block.range.start <= range.start
                    && range.end <= block.range.end
            })
            .find_map(|block| attribute_in(&block.body, range))
    })
}

/// The block of `blocks` that holds `range`.
fn holding(blocks: &[Block], range: TextRange) -> Option<&Block> {
    written_at(blocks, range, |block| block.range)
        .filter(|block| block.range.start <= range.start && range.end <= block.range.end)
}

/// The last of `items` (in the order written, so by start) that starts at
/// or before `range`: a binary search, as rules ask for the attribute or
/// block at a range once per attribute and a linear search made that
/// quadratic in the blocks of a file. Items out of order (a parser's
/// recovery) fall back to the linear search.
fn written_at<T>(items: &[T], range: TextRange, range_of: impl Fn(&T) -> TextRange) -> Option<&T> {
    let after = items.partition_point(|item| range_of(item).start <= range.start);
    let found = after.checked_sub(1).and_then(|last| items.get(last));
    let in_order = found.is_some_and(|item| {
        let at = range_of(item);
        at.start <= range.start && range.end <= at.end
    });
    if in_order {
        found
    } else {
        items.iter().find(|item| {
            let at = range_of(item);
            at.start <= range.start && range.end <= at.end
        })
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

/// One loaded file as the as-written rules read it: nothing of the rest of
/// the module is in reach, so their results depend on this file alone and are
/// cached with it. `id` is the id their diagnostics carry.
#[derive(Clone, Copy, Debug)]
pub struct FileView<'a> {
    pub id: FileId,
    pub file: &'a ModuleFile,
}

/// Phase 1: the files of a module directory and their roles.
#[derive(Debug)]
pub struct LoadedModule {
    /// Every input file, sorted byte-wise by name; a [`FileId`] indexes this list.
    pub files: Vec<ModuleFile>,
    /// Primary files in loading order.
    pub primary: Vec<FileId>,
    /// Override files in loading order.
    pub overrides: Vec<FileId>,
}

impl LoadedModule {
    /// How many test files `tofu validate` reads with the module.
    pub fn n_test_files(&self) -> usize {
        self.files
            .iter()
            .filter(|file| file.role == FileRole::Test)
            .count()
    }

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

    /// The top-level blocks of `files` that were parsed, in order, each with
    /// its reference.
    pub fn top_level_blocks<'m>(
        &'m self,
        files: &'m [FileId],
    ) -> impl Iterator<Item = (BlockRef, &'m Block)> + 'm {
        files.iter().flat_map(move |&file| {
            let blocks = self
                .file(file)
                .and_then(|f| f.source.as_ref())
                .map_or(&[][..], |source| source.body.blocks.as_slice());
            blocks.iter().enumerate().map(move |(index, block)| {
                let block_ref = BlockRef {
                    file,
                    index,
                    nested: None,
                };
                (block_ref, block)
            })
        })
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
}

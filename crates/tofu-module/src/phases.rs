//! The phases of a module's analysis and the types each one produces, built
//! complete and then only read:
//!
//! 1. [`LoadedModule`]: every input file with its role (primary, override,
//!    shadowed, ignored) and, for loaded files, its parse. The as-written rules
//!    read one [`ModuleFile`] at a time, which is why their results can be
//!    cached per file.
//! 2. [`DeclaredModule`]: the loaded module plus what its primary files
//!    declare ([`Declarations`]) and what became of each primary block
//!    ([`BlockFate`]).
//! 3. [`MergedModule`]: the declared module plus the effective configuration
//!    after override merging, and the fate of each override block. The rules
//!    that judge the merged result read this.
//!
//! Each phase owns the one before it and derefs to it, so later phases (and
//! `tofu-ide`, through [`crate::ModuleAnalysis`]) read `module.files` or
//! `module.declarations` without knowing which phase produced them; an earlier
//! phase cannot see what a later one computes. This module holds data only:
//! the code of each phase lives in `analysis`, `declarations` and `merge`.

use rustc_hash::FxHashMap as HashMap;
use std::ops::Deref;
use std::sync::Arc;

use tofu_syntax::{Attribute, Block, FileId, LineIndex, Location, SourceFile, TextRange};

use crate::address::BlockAddress;
use crate::declarations::Declarations;
use crate::effective::EffectiveModule;

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
    /// Whether the text has a suppression comment's marker (found once per
    /// text, by the parse cache).
    pub(crate) may_suppress: bool,
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

/// What OpenTofu makes of one top-level block of a loaded file (or of a
/// `data` block nested in a `check`). Hover and the rules read this instead of
/// deciding it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockFate {
    /// A primary block OpenTofu keeps as the declaration of its identity.
    Declared,
    /// A primary block declaring an identity again: OpenTofu reports it and
    /// keeps `kept` (the first one, or the last for variables, outputs and
    /// module calls).
    Duplicate { kept: BlockRef },
    /// A primary block without an identity that OpenTofu accumulates
    /// (`terraform`, `language`, `locals`, `moved`, `import`, `removed`).
    Accumulated,
    /// An override block merged into the effective block of `target`.
    Overrides { target: BlockAddress },
    /// An override block merged into the module's settings or locals
    /// (`terraform`, `locals`).
    MergedInto,
    /// An override block with nothing to override.
    NoBase,
    /// A block type OpenTofu refuses in override files (`language`, `check`,
    /// `moved`, `import`, `removed`).
    ForbiddenInOverride,
    /// Dropped while decoding: nothing of it is declared or merged.
    Dropped(DropReason),
}

/// Why OpenTofu dropped a block while decoding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// Not a top-level block type.
    UnknownBlockType,
    /// The wrong number of labels for its type.
    WrongLabels,
    /// A `provider` block whose local name is invalid or not normalised.
    InvalidProviderName,
}

/// Phase 2: the loaded module and what its primary files declare.
#[derive(Debug)]
pub struct DeclaredModule {
    pub loaded: LoadedModule,
    /// Shared with the analysis before an edit that kept every file's shape.
    pub declarations: Arc<Declarations>,
    /// The fate of every top-level block of the primary files (and of the
    /// `data` block a `check` declares).
    pub primary_fates: Arc<HashMap<BlockRef, BlockFate>>,
}

/// Phase 3: the declared module and its effective configuration.
#[derive(Debug)]
pub struct MergedModule {
    pub declared: DeclaredModule,
    pub effective: EffectiveModule,
    /// The fate of every top-level block of the override files.
    pub override_fates: Arc<HashMap<BlockRef, BlockFate>>,
}

impl MergedModule {
    /// What OpenTofu makes of a block; `None` for a block of a file it does
    /// not load, or one it never reads (a `check`'s second `data` block).
    pub fn fate(&self, block: BlockRef) -> Option<&BlockFate> {
        self.declared
            .primary_fates
            .get(&block)
            .or_else(|| self.override_fates.get(&block))
    }
}

impl Deref for DeclaredModule {
    type Target = LoadedModule;

    fn deref(&self) -> &LoadedModule {
        &self.loaded
    }
}

impl Deref for MergedModule {
    type Target = DeclaredModule;

    fn deref(&self) -> &DeclaredModule {
        &self.declared
    }
}

//! What the caller hands in for one module directory, and the parse cache that
//! makes re-analysis after an edit reparse only the edited file.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use tofu_syntax::{Code, Diagnostic, FileId, LineIndex, Severity, SourceFile};

use crate::effective::EffectiveBody;
use crate::incremental::{Memos, Previous};
use crate::phases::FileRole;

use crate::version::Version;

/// One file of a module directory, as the caller read it (from disk or from an
/// editor buffer).
#[derive(Clone, Debug)]
pub struct InputFile {
    /// The file name within the directory (no path separators).
    pub name: String,
    pub content: FileContent,
}

impl InputFile {
    pub fn text(name: impl Into<String>, text: impl Into<Arc<str>>) -> InputFile {
        InputFile {
            name: name.into(),
            content: FileContent::Text(text.into()),
        }
    }
}

#[derive(Clone, Debug)]
pub enum FileContent {
    Text(Arc<str>),
    /// The bytes are not UTF-8. `text` is a lossy decoding (for display only);
    /// only the part before `first_bad_byte` is parsed.
    InvalidUtf8 {
        text: Arc<str>,
        first_bad_byte: u32,
    },
    /// The file could not be read; the message says why.
    Unreadable {
        message: String,
    },
}

impl FileContent {
    /// Decodes raw bytes as read from disk.
    pub fn from_bytes(bytes: Vec<u8>) -> FileContent {
        match String::from_utf8(bytes) {
            Ok(text) => FileContent::Text(text.into()),
            Err(error) => {
                let first_bad_byte = tofu_syntax::text::to_u32(error.utf8_error().valid_up_to());
                let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
                FileContent::InvalidUtf8 {
                    text: text.into(),
                    first_bad_byte,
                }
            }
        }
    }
}

/// Configuration that changes what the analysis reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The OpenTofu version constraints are checked against (`tofuVersion`).
    pub tofu_version: String,
    /// Per-code severities the user chose (`diagnostics.severity`): `None`
    /// turns the code off. Codes not listed keep the rule's severity.
    pub severity_overrides: Vec<(Code, Option<Severity>)>,
}

pub const DEFAULT_TOFU_VERSION: &str = "1.12.6";

impl Config {
    /// The configured version's core (`MAJOR.MINOR.PATCH`; a prerelease suffix
    /// is dropped, as OpenTofu does), or the default when it does not parse.
    pub fn parsed_tofu_version(&self) -> Version {
        Version::parse(self.tofu_version.trim())
            .or_else(|_| Version::parse(DEFAULT_TOFU_VERSION))
            .map(|version| version.core())
            .unwrap_or(Version {
                components: vec![1, 12, 6],
                prerelease: None,
                metadata: None,
            })
    }

    /// Reads one `diagnostics.severity` entry, as the settings and
    /// `.tofu-lens.toml` give it: a code name and one of `error`, `warning`,
    /// `info`, `hint` or `off`. The error says what is wrong, in a sentence.
    pub fn parse_severity_override(
        code: &str,
        level: &str,
    ) -> Result<(Code, Option<Severity>), String> {
        let Some(parsed_code) = Code::from_name(code) else {
            return Err(format!("\"{code}\" is not a tofu-lens diagnostic code"));
        };
        let severity = match level {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            "hint" => Some(Severity::Hint),
            "off" => None,
            _ => {
                return Err(format!(
                    "the severity of {code} must be \"error\", \"warning\", \"info\", \"hint\" or \"off\", not \"{level}\""
                ))
            }
        };
        Ok((parsed_code, severity))
    }

    /// True when `tofu_version` is usable (callers report it otherwise).
    pub fn tofu_version_is_valid(&self) -> bool {
        Version::parse(self.tofu_version.trim()).is_ok()
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tofu_version: DEFAULT_TOFU_VERSION.to_owned(),
            severity_overrides: Vec::new(),
        }
    }
}

/// Parsed files (and their line indexes) by file name and content. Keep one
/// cache per module directory: each analysis drops the entries it did not
/// use, so the cache holds at most the files of the latest analysis. A file
/// whose text is the same `Arc` as last time is found without comparing
/// text, so a keystroke costs one parse, not one hash of every file.
#[derive(Debug, Default)]
pub struct ParseCache {
    entries: HashMap<String, CacheEntry>,
    generation: u64,
    /// How many files were actually parsed (not found in the cache) so far.
    pub n_parsed: u64,
    /// How many analyses reused the one before them (`incremental`) so far.
    pub n_incremental: u64,
    /// How many analyses after an edit that changed a file's shape reused
    /// what the edit did not touch (`incremental`) so far.
    pub n_reshaped: u64,
    /// How many identities were merged so far (all of them in a whole
    /// analysis, those an edit touched in an incremental one).
    pub n_merged: u64,
    /// What the last analysis leaves for the next (`incremental`).
    /// Boxed: a workspace keeps an empty cache for each of thousands of
    /// directories.
    previous: Option<Box<Previous>>,
}

#[derive(Debug)]
struct CacheEntry {
    text: Arc<str>,
    source: Arc<SourceFile>,
    line_index: Arc<LineIndex>,
    last_used: u64,
    /// The diagnostics of the rules that read this file alone, for the role
    /// they were computed in (file ids are the placeholder `FileId(0)`).
    rules: Option<(FileRole, Arc<Vec<Diagnostic>>)>,
    /// The as-written effective body of each top-level block, for the file id
    /// they were computed with (origins carry it).
    bodies: Option<(FileId, Arc<Vec<Arc<EffectiveBody>>>)>,
    /// Whether the text has a suppression comment, found once per text.
    may_suppress: bool,
}

impl ParseCache {
    pub fn new() -> ParseCache {
        ParseCache::default()
    }

    pub(crate) fn begin(&mut self) {
        self.generation += 1;
    }

    pub(crate) fn get_or_parse(
        &mut self,
        name: &str,
        text: &Arc<str>,
    ) -> (Arc<SourceFile>, Arc<LineIndex>, bool) {
        let generation = self.generation;
        if let Some(entry) = self.entries.get_mut(name) {
            if Arc::ptr_eq(&entry.text, text) || *entry.text == **text {
                entry.last_used = generation;
                entry.text = Arc::clone(text);
                return (
                    Arc::clone(&entry.source),
                    Arc::clone(&entry.line_index),
                    entry.may_suppress,
                );
            }
        }
        self.n_parsed += 1;
        let source = Arc::new(tofu_syntax::parse(name, text));
        let line_index = Arc::new(LineIndex::new(text));
        let may_suppress = crate::reporting::may_suppress(text);
        self.entries.insert(
            name.to_owned(),
            CacheEntry {
                text: Arc::clone(text),
                source: Arc::clone(&source),
                line_index: Arc::clone(&line_index),
                last_used: generation,
                rules: None,
                bodies: None,
                may_suppress,
            },
        );
        (source, line_index, may_suppress)
    }

    /// The entry for `name` if it holds exactly `text` (the same allocation:
    /// [`get_or_parse`](Self::get_or_parse) ran first in this analysis).
    fn entry_for(&mut self, name: &str, text: &Arc<str>) -> Option<&mut CacheEntry> {
        self.entries
            .get_mut(name)
            .filter(|entry| Arc::ptr_eq(&entry.text, text))
    }

    pub(crate) fn cached_rules(
        &mut self,
        name: &str,
        text: &Arc<str>,
        role: FileRole,
    ) -> Option<Arc<Vec<Diagnostic>>> {
        let (cached_role, rules) = self.entry_for(name, text)?.rules.as_ref()?;
        (*cached_role == role).then(|| Arc::clone(rules))
    }

    pub(crate) fn store_rules(
        &mut self,
        name: &str,
        text: &Arc<str>,
        role: FileRole,
        rules: Arc<Vec<Diagnostic>>,
    ) {
        if let Some(entry) = self.entry_for(name, text) {
            entry.rules = Some((role, rules));
        }
    }

    /// The as-written effective bodies of the top-level blocks of a parsed file,
    /// built once per file content and id.
    pub(crate) fn block_bodies(
        &mut self,
        name: &str,
        text: &Arc<str>,
        file: FileId,
        source: &SourceFile,
    ) -> Arc<Vec<Arc<EffectiveBody>>> {
        let build = || {
            Arc::new(
                source
                    .body
                    .blocks
                    .iter()
                    .map(|block| Arc::new(EffectiveBody::as_written(file, &block.body)))
                    .collect::<Vec<_>>(),
            )
        };
        let Some(entry) = self.entry_for(name, text) else {
            return build();
        };
        if let Some((cached_file, bodies)) = &entry.bodies {
            if *cached_file == file {
                return Arc::clone(bodies);
            }
        }
        let bodies = build();
        entry.bodies = Some((file, Arc::clone(&bodies)));
        bodies
    }

    pub(crate) fn take_previous(&mut self) -> Option<Previous> {
        self.previous.take().map(|previous| *previous)
    }

    pub(crate) fn store_previous(&mut self, previous: Previous) {
        self.previous = Some(Box::new(previous));
    }

    pub(crate) fn store_memos(&mut self, memos: Memos) {
        if let Some(previous) = &mut self.previous {
            previous.set_memos(memos);
        }
    }

    pub(crate) fn finish(&mut self) {
        let generation = self.generation;
        self.entries
            .retain(|_, entry| entry.last_used == generation);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

//! The per-file store: each file's parse, line index and what was computed
//! from that file alone (the as-written rules' diagnostics, the as-written
//! effective bodies of its blocks, whether it has a suppression comment),
//! by file name and content. Loading and merging take from it, so
//! re-analysing after an edit parses and checks only the edited file.
//!
//! It knows nothing of what the last analysis built from the files together:
//! that is `incremental`'s. Each analysis drops the entries it did not use,
//! so the store holds at most the files of the latest analysis. A file whose
//! text is the same `Arc` as last time is found without comparing text, so a
//! keystroke costs one parse, not one hash of every file.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use tofu_syntax::{Diagnostic, FileId, LineIndex, SourceFile};

use crate::effective::EffectiveBody;
use crate::loaded::FileRole;

/// The marker of a suppression comment (`# tofu-lens-ignore: CODE`), after
/// `#` or `//` and optional spaces; `tofu-diagnostics` reads the comments,
/// the store only notes which files have one.
pub const SUPPRESSION_MARKER: &str = "tofu-lens-ignore:";

/// True when `text` may hold a suppression comment (it has the marker).
pub fn may_suppress(text: &str) -> bool {
    text.contains(SUPPRESSION_MARKER)
}

#[derive(Debug, Default)]
pub struct FileStore {
    entries: HashMap<String, Entry>,
    generation: u64,
    /// How many files were actually parsed (not found in the store) so far.
    pub n_parsed: u64,
}

#[derive(Debug)]
struct Entry {
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

/// A parsed file as the store gives it out.
pub struct Parsed {
    pub source: Arc<SourceFile>,
    pub line_index: Arc<LineIndex>,
    pub may_suppress: bool,
}

impl FileStore {
    /// Starts an analysis: entries not used from here to
    /// [`finish`](Self::finish) are dropped then.
    pub fn begin(&mut self) {
        self.generation += 1;
    }

    pub fn get_or_parse(&mut self, name: &str, text: &Arc<str>) -> Parsed {
        let generation = self.generation;
        if let Some(entry) = self.entries.get_mut(name) {
            if Arc::ptr_eq(&entry.text, text) || *entry.text == **text {
                entry.last_used = generation;
                entry.text = Arc::clone(text);
                return Parsed {
                    source: Arc::clone(&entry.source),
                    line_index: Arc::clone(&entry.line_index),
                    may_suppress: entry.may_suppress,
                };
            }
        }
        self.n_parsed += 1;
        let source = Arc::new(tofu_syntax::parse(name, text));
        let line_index = Arc::new(LineIndex::new(text));
        let may_suppress = may_suppress(text);
        self.entries.insert(
            name.to_owned(),
            Entry {
                text: Arc::clone(text),
                source: Arc::clone(&source),
                line_index: Arc::clone(&line_index),
                last_used: generation,
                rules: None,
                bodies: None,
                may_suppress,
            },
        );
        Parsed {
            source,
            line_index,
            may_suppress,
        }
    }

    /// The entry for `name` if it holds exactly `text` (the same allocation:
    /// [`get_or_parse`](Self::get_or_parse) ran first in this analysis).
    fn entry_for(&mut self, name: &str, text: &Arc<str>) -> Option<&mut Entry> {
        self.entries
            .get_mut(name)
            .filter(|entry| Arc::ptr_eq(&entry.text, text))
    }

    /// What the as-written rules found in this file in this role, computed
    /// by `check` the first time.
    pub fn as_written_rules(
        &mut self,
        name: &str,
        text: &Arc<str>,
        role: FileRole,
        check: impl FnOnce() -> Vec<Diagnostic>,
    ) -> Arc<Vec<Diagnostic>> {
        if let Some(entry) = self.entry_for(name, text) {
            if let Some((cached_role, rules)) = &entry.rules {
                if *cached_role == role {
                    return Arc::clone(rules);
                }
            }
        }
        let found = Arc::new(check());
        if let Some(entry) = self.entry_for(name, text) {
            entry.rules = Some((role, Arc::clone(&found)));
        }
        found
    }

    /// The as-written effective bodies of the top-level blocks of a parsed file,
    /// built once per file content and id.
    pub fn block_bodies(
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

    /// Ends an analysis: drops the entries it did not use.
    pub fn finish(&mut self) {
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

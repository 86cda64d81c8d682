//! Document symbols (one per top-level block, with attributes and nested
//! blocks as children) and workspace symbols (every declared block and local
//! value of every module, by address).
//!
//! A file OpenTofu does not read (hidden by a `.tofu` twin, skipped by name)
//! still gets document symbols, parsed on the spot: the outline is about the
//! text in the editor, not about what OpenTofu loads.

use std::path::Path;
use std::sync::Arc;

use tofu_syntax::{Block, Body, TextRange};

use crate::locate::focus_range;
use crate::snapshot::Snapshot;
use crate::summary::{SymbolKind, WorkspaceSymbol};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSymbol {
    /// `resource "aws_instance" "web"`, `lifecycle`, `ami`.
    pub name: String,
    pub kind: SymbolKind,
    /// The block type (`resource`, `variable`, …) for blocks; empty for attributes.
    pub block_type: String,
    pub range: TextRange,
    pub selection_range: TextRange,
    pub children: Vec<DocumentSymbol>,
}

/// The most workspace symbols one query returns.
const MAX_WORKSPACE_SYMBOLS: usize = 256;

/// `resource "aws_instance" "web"`.
fn block_title(block: &Block) -> String {
    let mut title = block.kind.clone();
    for label in &block.labels {
        title.push_str(" \"");
        title.push_str(&label.value);
        title.push('"');
    }
    title
}

fn body_symbols(body: &Body, is_json: bool) -> Vec<DocumentSymbol> {
    let mut symbols: Vec<DocumentSymbol> = body
        .attributes
        .iter()
        .map(|attr| DocumentSymbol {
            name: attr.name.clone(),
            kind: SymbolKind::Attribute,
            block_type: String::new(),
            range: attr.range,
            selection_range: attr.name_range,
            children: Vec::new(),
        })
        .collect();
    symbols.extend(body.blocks.iter().map(|block| DocumentSymbol {
        name: block_title(block),
        kind: SymbolKind::NestedBlock,
        block_type: block.kind.clone(),
        range: block.range.cover(focus_range(block, is_json)),
        selection_range: focus_range(block, is_json),
        children: body_symbols(&block.body, is_json),
    }));
    symbols.sort_by_key(|symbol| (symbol.range.start, symbol.range.end));
    symbols
}

impl Snapshot {
    /// The outline of the file at `path`.
    pub fn document_symbols(&self, path: &Path) -> Vec<DocumentSymbol> {
        let Some(found) = self.find_file(path) else {
            return Vec::new();
        };
        let Some(file) = found.file() else {
            return Vec::new();
        };
        let is_json = file.is_json();
        let source = match &file.source {
            Some(source) => Arc::clone(source),
            None if tofu_module::discovery::has_config_extension(&file.name) => {
                Arc::new(tofu_syntax::parse(&file.name, &file.text))
            }
            None => return Vec::new(),
        };
        source
            .body
            .blocks
            .iter()
            .map(|block| DocumentSymbol {
                name: block_title(block),
                kind: SymbolKind::Block,
                block_type: block.kind.clone(),
                range: block.range.cover(focus_range(block, is_json)),
                selection_range: focus_range(block, is_json),
                children: body_symbols(&block.body, is_json),
            })
            .collect()
    }

    /// Declared blocks and local values of every module whose address contains
    /// `query` (case-insensitively; an empty query matches everything), sorted
    /// by address then path, at most 256.
    pub fn workspace_symbols(&self, query: &str) -> Vec<WorkspaceSymbol> {
        let query = query.to_lowercase();
        let matches = |name: &str| query.is_empty() || name.to_lowercase().contains(&query);
        let mut symbols = Vec::new();
        for summary in self.summaries() {
            summary.symbols(self.module(&summary.dir), &matches, &mut symbols);
        }
        symbols.sort_by(|a, b| {
            (&a.name, &a.location.path, a.location.range.start).cmp(&(
                &b.name,
                &b.location.path,
                b.location.range.start,
            ))
        });
        symbols.truncate(MAX_WORKSPACE_SYMBOLS);
        symbols
    }
}

//! Turning tofu-ide's plain data into protocol types.
//!
//! Every byte range is converted against the text it came with
//! ([`tofu_ide::FileRange`]), through one [`LineMap`] per file and request;
//! URIs come from the session (the client's own spelling for open documents).
//! The message of a diagnostic is its summary, then its detail on the
//! following lines (`server.md` §Diagnostics).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_ide::{
    CodeAction as IdeCodeAction, EditorDiagnostic, FileEdit, FileRange, NavigationTarget,
    RefactorKind, Refactoring, SymbolKind as IdeSymbolKind,
};
use tofu_syntax::Severity;
use tower_lsp_server::ls_types::{
    self as lsp, CodeActionDisabled, CodeActionKind, CreateFile, CreateFileOptions,
    DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, DocumentChangeOperation,
    DocumentChanges, Location, NumberOrString, OneOf, OptionalVersionedTextDocumentIdentifier,
    Position, Range, ResourceOp, SymbolKind, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use crate::position::{LineMap, PositionEncoding};
use crate::session::Session;

pub const SOURCE: &str = "tofu-lens";

/// `refactor.move` (LSP 3.18; the protocol crate names only 3.17's kinds).
pub const REFACTOR_MOVE: CodeActionKind = CodeActionKind::new("refactor.move");

/// Converts ranges of many files for one request or publication, building
/// each file's line map once. It owns what it needs from the session (the
/// encoding, the open documents' URIs and versions, what the client
/// supports), so the
/// conversion runs after the session lock is released.
pub struct Converter {
    encoding: PositionEncoding,
    create_files: bool,
    disabled_code_actions: bool,
    /// Each open document's URI (the client's own spelling) and version.
    open_documents: HashMap<PathBuf, (Uri, i32)>,
    maps: HashMap<PathBuf, LineMap>,
}

impl Converter {
    /// Takes what it needs from the session: call it with the lock held
    /// only for this statement (`Converter::new(&shared.session())`).
    pub fn new(session: &Session) -> Converter {
        Converter {
            encoding: session.encoding(),
            create_files: session.support().create_files,
            disabled_code_actions: session.support().disabled_code_actions,
            open_documents: session
                .documents()
                .map(|(path, document)| (path.clone(), (document.uri.clone(), document.version)))
                .collect(),
            maps: HashMap::new(),
        }
    }

    /// The URI of `path`: the client's own for an open document.
    pub fn uri_for(&self, path: &Path) -> Option<Uri> {
        match self.open_documents.get(path) {
            Some((uri, _)) => Some(uri.clone()),
            None => crate::uri::from_path(path),
        }
    }

    fn map(&mut self, path: &Path, text: &Arc<str>) -> &LineMap {
        self.maps
            .entry(path.to_path_buf())
            .or_insert_with(|| LineMap::new(Arc::clone(text), self.encoding))
    }

    pub fn range(&mut self, location: &FileRange) -> Range {
        self.map(&location.path, &location.text)
            .range(location.range)
    }

    pub fn location(&mut self, location: &FileRange) -> Option<Location> {
        let uri = self.uri_for(&location.path)?;
        Some(Location::new(uri, self.range(location)))
    }

    pub fn diagnostic(
        &mut self,
        path: &Path,
        text: &Arc<str>,
        diagnostic: &EditorDiagnostic,
    ) -> lsp::Diagnostic {
        let range = self.map(path, text).range(diagnostic.range);
        let related: Vec<DiagnosticRelatedInformation> = diagnostic
            .related
            .iter()
            .filter_map(|related| {
                Some(DiagnosticRelatedInformation {
                    location: self.location(&related.location)?,
                    message: related.message.clone(),
                })
            })
            .collect();
        let mut message = diagnostic.summary.clone();
        if !diagnostic.detail.is_empty() {
            message.push('\n');
            message.push_str(&diagnostic.detail);
        }
        lsp::Diagnostic {
            range,
            severity: Some(severity(diagnostic.severity)),
            code: Some(NumberOrString::String(diagnostic.code.as_str().to_owned())),
            code_description: None,
            source: Some(SOURCE.to_owned()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            tags: diagnostic
                .unnecessary
                .then(|| vec![DiagnosticTag::UNNECESSARY]),
            data: None,
        }
    }

    pub fn locations(&mut self, targets: &[NavigationTarget]) -> Vec<Location> {
        targets
            .iter()
            .filter_map(|target| self.location(&target.focus))
            .collect()
    }

    /// Text edits of existing files, grouped by document.
    pub fn workspace_edit(&mut self, edits: &[FileEdit]) -> Option<WorkspaceEdit> {
        let mut changes: HashMap<lsp::Uri, Vec<TextEdit>> = HashMap::new();
        for edit in edits {
            let uri = self.uri_for(&edit.location.path)?;
            let range = self.range(&edit.location);
            changes
                .entry(uri)
                .or_default()
                .push(TextEdit::new(range, edit.new_text.clone()));
        }
        Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        })
    }

    /// A quick fix; `None` when it creates files and the client cannot.
    pub fn code_action(
        &mut self,
        action: &IdeCodeAction,
        path: &Path,
        text: &Arc<str>,
    ) -> Option<lsp::CodeAction> {
        let diagnostic = self.diagnostic(path, text, &action.diagnostic);
        let edit = self.file_edits(&action.edits, &action.new_files)?;
        Some(lsp::CodeAction {
            title: action.title.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostic]),
            edit: Some(edit),
            is_preferred: Some(action.is_preferred),
            ..lsp::CodeAction::default()
        })
    }
}

impl Converter {
    /// "Go to the value": a quick fix without an edit, whose command shows
    /// where the value is given.
    pub fn go_to_value(
        &mut self,
        source: &tofu_ide::GoToValue,
        path: &Path,
        text: &Arc<str>,
    ) -> Option<lsp::CodeAction> {
        let diagnostic = self.diagnostic(path, text, &source.diagnostic);
        let target = self.location(&source.target)?;
        let range = serde_json::to_value(target.range).ok()?;
        Some(lsp::CodeAction {
            title: source.title.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostic]),
            command: Some(lsp::Command {
                title: source.title.clone(),
                command: crate::commands::SHOW_VALUE.to_owned(),
                arguments: Some(vec![
                    serde_json::Value::String(target.uri.as_str().to_owned()),
                    range,
                ]),
            }),
            ..lsp::CodeAction::default()
        })
    }

    /// A refactoring; `None` when it creates files and the client cannot,
    /// or it is refused and the client shows no disabled actions.
    pub fn refactoring(&mut self, refactoring: &Refactoring) -> Option<lsp::CodeAction> {
        let kind = match refactoring.kind {
            RefactorKind::Move => REFACTOR_MOVE,
            RefactorKind::Rewrite => CodeActionKind::REFACTOR_REWRITE,
            RefactorKind::Extract => CodeActionKind::REFACTOR_EXTRACT,
        };
        if let Some(reason) = &refactoring.refused {
            if !self.disabled_code_actions {
                return None;
            }
            return Some(lsp::CodeAction {
                title: refactoring.title.clone(),
                kind: Some(kind),
                disabled: Some(CodeActionDisabled {
                    reason: reason.clone(),
                }),
                ..lsp::CodeAction::default()
            });
        }
        let edit = self.file_edits(&refactoring.edits, &refactoring.new_files)?;
        Some(lsp::CodeAction {
            title: refactoring.title.clone(),
            kind: Some(kind),
            edit: Some(edit),
            ..lsp::CodeAction::default()
        })
    }

    /// `edits` and the files `new_files` creates as one workspace edit:
    /// plain changes when nothing is created; `None` when files are to be
    /// created and the client cannot.
    fn file_edits(
        &mut self,
        edits: &[FileEdit],
        new_files: &[(PathBuf, String)],
    ) -> Option<WorkspaceEdit> {
        if new_files.is_empty() {
            return self.workspace_edit(edits);
        }
        if !self.create_files {
            return None;
        }
        let mut operations = Vec::new();
        for (new_path, new_text) in new_files {
            let uri = self.uri_for(new_path)?;
            // A file that appeared since the analysis makes the whole edit
            // fail rather than be written over or edited at its start; and
            // the client creates the file (with its directories) instead of
            // only opening a buffer for it (Neovim does that when told to
            // ignore an existing file).
            operations.push(DocumentChangeOperation::Op(ResourceOp::Create(
                CreateFile {
                    uri: uri.clone(),
                    options: Some(CreateFileOptions {
                        overwrite: Some(false),
                        ignore_if_exists: Some(false),
                    }),
                    annotation_id: None,
                },
            )));
            operations.push(DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
                edits: vec![OneOf::Left(TextEdit::new(
                    Range::new(Position::new(0, 0), Position::new(0, 0)),
                    new_text.clone(),
                ))],
            }));
        }
        for edit in edits {
            let uri = self.uri_for(&edit.location.path)?;
            let version = self
                .open_documents
                .get(&edit.location.path)
                .map(|(_, version)| *version);
            let range = self.range(&edit.location);
            operations.push(DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
                edits: vec![OneOf::Left(TextEdit::new(range, edit.new_text.clone()))],
            }));
        }
        Some(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Operations(operations)),
            ..WorkspaceEdit::default()
        })
    }
}

pub fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

/// The symbol kind an editor shows for a block type or an attribute.
pub fn symbol_kind(kind: IdeSymbolKind, block_type: &str) -> SymbolKind {
    match kind {
        IdeSymbolKind::Attribute => SymbolKind::FIELD,
        IdeSymbolKind::Local => SymbolKind::CONSTANT,
        IdeSymbolKind::NestedBlock => SymbolKind::OBJECT,
        IdeSymbolKind::Block => match block_type {
            "resource" | "data" | "ephemeral" => SymbolKind::STRUCT,
            "variable" => SymbolKind::VARIABLE,
            "output" => SymbolKind::PROPERTY,
            "module" => SymbolKind::MODULE,
            "provider" => SymbolKind::INTERFACE,
            "locals" => SymbolKind::NAMESPACE,
            "terraform" | "language" => SymbolKind::PACKAGE,
            "check" => SymbolKind::EVENT,
            _ => SymbolKind::OBJECT,
        },
    }
}

/// Document symbols, nested, converted with one line map.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be set; it is always `None`.
pub fn document_symbols(
    symbols: &[tofu_ide::DocumentSymbol],
    map: &LineMap,
) -> Vec<lsp::DocumentSymbol> {
    symbols
        .iter()
        .map(|symbol| lsp::DocumentSymbol {
            name: symbol.name.clone(),
            detail: None,
            kind: symbol_kind(symbol.kind, &symbol.block_type),
            tags: None,
            deprecated: None,
            range: map.range(symbol.range),
            selection_range: map.range(symbol.selection_range),
            children: (!symbol.children.is_empty())
                .then(|| document_symbols(&symbol.children, map)),
        })
        .collect()
}

#[allow(deprecated)] // `SymbolInformation::deprecated` must be set; it is always `None`.
pub fn workspace_symbol(
    converter: &mut Converter,
    symbol: &tofu_ide::WorkspaceSymbol,
) -> Option<lsp::SymbolInformation> {
    Some(lsp::SymbolInformation {
        name: symbol.name.clone(),
        kind: symbol_kind(symbol.kind, &symbol.block_type),
        tags: None,
        deprecated: None,
        location: converter.location(&symbol.location)?,
        container_name: Some(symbol.container.clone()),
    })
}

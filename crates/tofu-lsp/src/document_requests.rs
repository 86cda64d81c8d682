//! Requests about one document: `documentHighlight` (the name under the
//! cursor, its declaration written, its uses read), `documentLink` (module
//! sources), `foldingRange` and `selectionRange`. The engine gives byte
//! ranges; this module turns them into lines and positions, and lists a
//! called module directory the engine has not read to find the file a link
//! opens (the engine says which file that is).

use std::path::PathBuf;
use std::sync::Arc;

use tofu_ide::{first_configuration_file, FoldKind, LinkTarget};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::requests::{guarded, line_map, prepare};
use crate::server::Shared;
use crate::uri;

pub async fn document_highlight(
    shared: &Arc<Shared>,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    let position = params.text_document_position_params;
    let Some((path, analysis, encoding)) = prepare(shared, &position.text_document.uri).await
    else {
        return Ok(None);
    };
    guarded("documentHighlight", || {
        let map = line_map(&analysis, &path, encoding)?;
        let offset = map.offset(position.position)?;
        let occurrences = analysis.document_highlights(&path, offset);
        if occurrences.is_empty() {
            return None;
        }
        Some(
            occurrences
                .iter()
                .map(|occurrence| DocumentHighlight {
                    range: map.range(occurrence.range),
                    kind: Some(if occurrence.declaration {
                        DocumentHighlightKind::WRITE
                    } else {
                        DocumentHighlightKind::READ
                    }),
                })
                .collect(),
        )
    })
}

pub async fn document_link(
    shared: &Arc<Shared>,
    params: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    let found = guarded("documentLink", || {
        let map = line_map(&analysis, &path, encoding)?;
        let links: Vec<(Range, LinkTarget)> = analysis
            .document_links(&path)
            .into_iter()
            .map(|link| (map.range(link.range), link.target))
            .collect();
        Some(links)
    })?;
    let Some(found) = found else {
        return Ok(None);
    };
    let mut links = Vec::with_capacity(found.len());
    for (range, target) in found {
        let target = match target {
            LinkTarget::File(file) => uri::from_path(&file),
            LinkTarget::ModuleDir(dir) => first_file_on_disk(dir)
                .await
                .and_then(|file| uri::from_path(&file)),
            LinkTarget::Url(url) => url.parse::<Uri>().ok(),
        };
        if let Some(target) = target {
            links.push(DocumentLink {
                range,
                target: Some(target),
                tooltip: None,
                data: None,
            });
        }
    }
    Ok(Some(links))
}

/// The first configuration file of a directory the host has not read, from
/// the disk (off the async threads); `None` when it holds none.
async fn first_file_on_disk(dir: PathBuf) -> Option<PathBuf> {
    tokio::task::spawn_blocking(move || {
        let names: Vec<String> = std::fs::read_dir(&dir)
            .ok()?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .collect();
        let first = first_configuration_file(names.iter().map(String::as_str))?;
        Some(dir.join(first))
    })
    .await
    .ok()
    .flatten()
}

pub async fn folding_range(
    shared: &Arc<Shared>,
    params: FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    guarded("foldingRange", || {
        let map = line_map(&analysis, &path, encoding)?;
        let folds = analysis.folding_ranges(&path)?;
        Some(
            folds
                .iter()
                .filter_map(|fold| {
                    let start_line = map.position(fold.range.start).line;
                    let mut end_line = map.position(fold.range.end).line;
                    // A client folds whole lines: text after the range on its
                    // last line (`} # note`, `]), x]`) stays visible.
                    if !map.rest_of_line_is_blank(fold.range.end) {
                        end_line = end_line.saturating_sub(1);
                    }
                    (end_line > start_line).then_some(FoldingRange {
                        start_line,
                        start_character: None,
                        end_line,
                        end_character: None,
                        kind: Some(match fold.kind {
                            FoldKind::Region => FoldingRangeKind::Region,
                            FoldKind::Comment => FoldingRangeKind::Comment,
                        }),
                        collapsed_text: None,
                    })
                })
                .collect(),
        )
    })
}

pub async fn selection_range(
    shared: &Arc<Shared>,
    params: SelectionRangeParams,
) -> Result<Option<Vec<SelectionRange>>> {
    let Some((path, analysis, encoding)) = prepare(shared, &params.text_document.uri).await else {
        return Ok(None);
    };
    guarded("selectionRange", || {
        let map = line_map(&analysis, &path, encoding)?;
        let ranges = params
            .positions
            .iter()
            .map(|position| {
                let nested = map
                    .offset(*position)
                    .and_then(|offset| analysis.selection_ranges(&path, offset))
                    .unwrap_or_default();
                // Outermost first, each the parent of the next.
                let mut selection: Option<SelectionRange> = None;
                for range in nested.iter().rev() {
                    selection = Some(SelectionRange {
                        range: map.range(*range),
                        parent: selection.map(Box::new),
                    });
                }
                selection.unwrap_or(SelectionRange {
                    range: Range::new(*position, *position),
                    parent: None,
                })
            })
            .collect();
        Some(ranges)
    })
}

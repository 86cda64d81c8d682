//! `textDocument/documentLink`: module sources as links, to a file, to a
//! called module's first configuration file, or to a URL. For a called
//! directory the engine has not read, the directory is listed (off the async
//! threads) to find that file; the engine says which one it is.

use std::path::PathBuf;
use std::sync::Arc;

use tofu_ide::{first_configuration_file, LinkTarget};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentLink, DocumentLinkParams, Range, Uri};

use crate::panic_guard::guarded;
use crate::prepare::prepare_document;
use crate::shared::Shared;
use crate::uri;

pub async fn handle(
    shared: &Arc<Shared>,
    params: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>> {
    let name = "documentLink";
    let Some(document) = prepare_document(shared, name, &params.text_document.uri).await? else {
        return Ok(None);
    };
    let found: Vec<(Range, LinkTarget)> = guarded(name, || {
        document
            .analysis
            .document_links(&document.path)
            .into_iter()
            .map(|link| (document.line_map.range(link.range), link.target))
            .collect()
    })?;
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

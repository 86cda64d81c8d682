//! `textDocument/hover`: the engine's markdown for what is under the cursor
//! (an effective block, a reference's declaration, a called module's
//! variable or output), with the range it is about. A value shown on hover
//! may read files (`file`, `templatefile`, `fileset`, …): they are read from
//! the disk, as OpenTofu reads them, inside the document's workspace folder
//! only (`tofu_vfs::DirectoryFiles::within`), on a blocking thread.

use std::path::Path;
use std::sync::Arc;

use tofu_module::ModuleFiles;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;

pub async fn handle(shared: &Arc<Shared>, params: HoverParams) -> Result<Option<Hover>> {
    let position = params.text_document_position_params;
    let Some(at) = prepare_position(shared, "hover", &position, RelatedModules::Called).await?
    else {
        return Ok(None);
    };
    let dir = at.path.parent().unwrap_or(Path::new("")).to_path_buf();
    let root = shared.session().confinement_root(&dir);
    let answer = tokio::task::spawn_blocking(move || {
        let files = tofu_vfs::DirectoryFiles::within(&dir, &root);
        let analysis = at
            .analysis
            .with_module_files(&dir, ModuleFiles::new(Arc::new(files)));
        guarded("hover", || {
            let hover = analysis.hover(&at.path, at.offset)?;
            Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: hover.markdown,
                }),
                range: Some(at.line_map.range(hover.range)),
            })
        })
    })
    .await;
    answer.unwrap_or_else(|error| {
        Err(Error {
            code: ErrorCode::InternalError,
            message: format!("tofu-lens: hover failed: {error}").into(),
            data: None,
        })
    })
}

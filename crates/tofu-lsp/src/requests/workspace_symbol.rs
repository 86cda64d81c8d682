//! `workspace/symbol`: the declarations of every module directory the
//! server holds whose name matches the query, from their summaries (no
//! directory is analysed for it).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{WorkspaceSymbolParams, WorkspaceSymbolResponse};

use crate::panic_guard::guarded;
use crate::shared::Shared;
use crate::to_proto::{self, Converter};

pub async fn handle(
    shared: &Arc<Shared>,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    let analysis = shared.session().host().snapshot();
    guarded("workspace/symbol", || {
        let symbols = analysis.workspace_symbols(&params.query);
        let mut converter = Converter::new(&shared.session());
        let symbols = symbols
            .iter()
            .filter_map(|symbol| to_proto::workspace_symbol(&mut converter, symbol))
            .collect();
        Some(WorkspaceSymbolResponse::Flat(symbols))
    })
}

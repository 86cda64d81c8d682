//! `textDocument/rename`: the engine's edits renaming a declaration and
//! every use, in its module and in the modules that call it, or its reason
//! to refuse, as an error the client shows.

use std::sync::Arc;

use tofu_ide::RenameRefused;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{RenameParams, WorkspaceEdit};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;
use crate::to_proto::Converter;

pub async fn handle(shared: &Arc<Shared>, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let position = params.text_document_position;
    let Some(at) = prepare_position(
        shared,
        "rename",
        &position,
        RelatedModules::InterfaceAndCallers,
    )
    .await?
    else {
        return Ok(None);
    };
    let options = tofu_ide::RenameOptions {
        write_moved: shared.session().settings().rename_writes_moved,
    };
    let renamed = guarded("rename", || {
        at.analysis
            .rename_with(&at.path, at.offset, &params.new_name, options)
    })?;
    match renamed {
        Err(message) => Err(refused(message)),
        Ok(edits) => {
            // The session is locked only to build the converter.
            let mut converter = Converter::new(&shared.session());
            Ok(converter.workspace_edit(&edits))
        }
    }
}

/// LSP's `RequestFailed`: the request was valid, but the server cannot do it.
const REQUEST_FAILED: i64 = -32803;

/// A rename the engine refuses, as an error the client shows: a new name
/// that is not an identifier is an invalid parameter; anything else (nothing
/// to rename there, a duplicate, a caller's name) a request that failed.
pub fn refused(refusal: RenameRefused) -> Error {
    let code = match refusal {
        RenameRefused::InvalidName(_) => ErrorCode::InvalidParams,
        RenameRefused::NotPossible(_) => ErrorCode::ServerError(REQUEST_FAILED),
    };
    Error {
        code,
        message: refusal.to_string().into(),
        data: None,
    }
}

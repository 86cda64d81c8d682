//! `workspace/executeCommand`: the server's own commands.
//!
//! `tofuLens.toggleVarFile FILE_URI`: adds a values file to the files
//! plan's checks read in its module directory (as `tofu plan -var-file`
//! would), or takes it out when it is in; the code lens on a values file
//! offers it, and clients without lenses can run it by name. The choice
//! holds for the session, over the `varFiles` setting for that directory.
//!
//! `tofuLens.showValue FILE_URI RANGE`: asks the client to show that
//! place (`window/showDocument`, the range selected); the quick fix "Go to
//! the value of var.NAME" of a failed validation runs it.

use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{ExecuteCommandParams, Range, ShowDocumentParams, Uri};

use crate::commands::{SHOW_VALUE, TOGGLE_VAR_FILE};
use crate::configuration::refresh_given_values;
use crate::shared::Shared;
use crate::uri;

pub async fn handle(shared: &Arc<Shared>, params: ExecuteCommandParams) -> Result<Option<Value>> {
    if params.command == SHOW_VALUE {
        return show_value(shared, params).await;
    }
    if params.command != TOGGLE_VAR_FILE {
        return Err(Error::invalid_params(format!(
            "unknown command {:?}",
            params.command
        )));
    }
    let path = params
        .arguments
        .first()
        .and_then(Value::as_str)
        .and_then(|text| text.parse::<Uri>().ok())
        .and_then(|document| uri::to_path(&document));
    let Some(path) = path else {
        return Err(Error::invalid_params(
            "tofuLens.toggleVarFile takes the URI of a values file",
        ));
    };
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return Err(Error::invalid_params("not a file"));
    };
    if !tofu_module::discovery::is_values_file(name) {
        return Err(Error::invalid_params(format!(
            "{name} is not a values file (.tfvars, .tfvars.json)"
        )));
    }
    let files = {
        let mut session = shared.session();
        session.toggle_var_file(dir, name);
        session.var_files_of(dir)
    };
    refresh_given_values(shared).await;
    // The lenses' titles say whether a file is read: asked again, off
    // this request (a client without the request answers an error).
    let client = shared.client.clone();
    tokio::spawn(async move {
        client.code_lens_refresh().await.ok();
    });
    Ok(Some(serde_json::json!({ "varFiles": files })))
}

/// `tofuLens.showValue`: the client is asked to show the place, selected.
async fn show_value(shared: &Arc<Shared>, params: ExecuteCommandParams) -> Result<Option<Value>> {
    let uri = params
        .arguments
        .first()
        .and_then(Value::as_str)
        .and_then(|text| text.parse::<Uri>().ok());
    let range = params
        .arguments
        .get(1)
        .and_then(|range| serde_json::from_value::<Range>(range.clone()).ok());
    let (Some(uri), Some(range)) = (uri, range) else {
        return Err(Error::invalid_params(
            "tofuLens.showValue takes a file URI and a range",
        ));
    };
    // Asked off this request: the client answers it after this one.
    let client = shared.client.clone();
    tokio::spawn(async move {
        let params = ShowDocumentParams {
            uri,
            external: None,
            take_focus: Some(true),
            selection: Some(range),
        };
        if let Err(error) = client.show_document(params).await {
            tracing::debug!("window/showDocument: {error}");
        }
    });
    Ok(None)
}

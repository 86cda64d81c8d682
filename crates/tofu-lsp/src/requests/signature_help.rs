//! `textDocument/signatureHelp`: the signature of the built-in or
//! provider function (from its provider's schema) whose call holds the
//! cursor, with the parameter the cursor is on
//! (triggered by `(` and `,`). Parameters are labelled by their text in the
//! signature's label, so no offsets inside the label need converting.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp,
    SignatureHelpParams, SignatureInformation,
};

use crate::panic_guard::guarded;
use crate::prepare::{prepare_position, RelatedModules};
use crate::shared::Shared;

pub async fn handle(
    shared: &Arc<Shared>,
    params: SignatureHelpParams,
) -> Result<Option<SignatureHelp>> {
    let position = params.text_document_position_params;
    let Some(at) =
        prepare_position(shared, "signatureHelp", &position, RelatedModules::None).await?
    else {
        return Ok(None);
    };
    guarded("signatureHelp", || {
        let help = at.analysis.signature_help(&at.path, at.offset)?;
        let parameters = help
            .parameters
            .into_iter()
            .map(|parameter| ParameterInformation {
                label: ParameterLabel::Simple(parameter.label),
                documentation: parameter.documentation.map(markdown),
            })
            .collect();
        Some(SignatureHelp {
            signatures: vec![SignatureInformation {
                label: help.label,
                documentation: Some(markdown(help.documentation)),
                parameters: Some(parameters),
                active_parameter: help.active_parameter,
            }],
            active_signature: Some(0),
            active_parameter: help.active_parameter,
        })
    })
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

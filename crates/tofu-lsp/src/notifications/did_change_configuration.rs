//! `workspace/didChangeConfiguration`: new settings, pulled again from
//! clients that support `workspace/configuration` (the notification's own
//! payload is then ignored), read from the payload otherwise.

use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::ls_types::DidChangeConfigurationParams;

use crate::configuration::{apply_settings, pull_configuration};
use crate::settings::Settings;
use crate::shared::Shared;

pub async fn handle(shared: &Arc<Shared>, params: DidChangeConfigurationParams) {
    let pulls = shared.session().support().configuration;
    if pulls {
        pull_configuration(shared).await;
        return;
    }
    let settings = match &params.settings {
        Value::Object(object) => object.get("tofuLens").unwrap_or(&params.settings),
        other => other,
    };
    let defaults = shared.session().settings_defaults().clone();
    if let Some((settings, problems)) = Settings::from_json(settings, &defaults) {
        apply_settings(shared, settings, problems).await;
    }
}

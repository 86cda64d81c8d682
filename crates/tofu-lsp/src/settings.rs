//! The `tofuLens` settings (`server.md` §Settings): parsed from
//! `initializationOptions`, `workspace/didChangeConfiguration` and
//! `workspace/configuration` answers.
//!
//! Parsing never fails: a value of the wrong type (or an unusable
//! `tofuVersion`) falls back to its default and comes back as a problem for
//! the server to show once. Unknown keys are ignored. A missing or `null`
//! settings object means "keep what you have", which callers decide.

use serde_json::Value;
use tofu_module::{Config, DEFAULT_TOFU_VERSION};

use crate::glob::ExcludeGlobs;

/// Which module directories get diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticsScope {
    /// Every module directory found in the workspace folders.
    Workspace,
    /// Only directories with an open document.
    Open,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub scope: DiagnosticsScope,
    pub tofu_version: String,
    pub exclude: ExcludeGlobs,
}

pub const DEFAULT_EXCLUDE: &str = ".terraform/**";

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scope: DiagnosticsScope::Workspace,
            tofu_version: DEFAULT_TOFU_VERSION.to_owned(),
            exclude: ExcludeGlobs::new(vec![DEFAULT_EXCLUDE.to_owned()]),
        }
    }
}

impl Settings {
    pub fn engine_config(&self) -> Config {
        Config {
            tofu_version: self.tofu_version.clone(),
        }
    }

    /// Parses a settings object. `None` for `null` or a non-object (keep the
    /// current settings); otherwise the settings and the problems found.
    /// `{"tofuLens": {…}}` is unwrapped.
    pub fn from_json(value: &Value) -> Option<(Settings, Vec<String>)> {
        let object = value.as_object()?;
        if let Some(inner) = object.get("tofuLens").filter(|inner| inner.is_object()) {
            return Settings::from_json(inner);
        }
        let mut settings = Settings::default();
        let mut problems = Vec::new();
        match object.get("tofuVersion") {
            None | Some(Value::Null) => {}
            Some(Value::String(version)) => {
                let config = Config {
                    tofu_version: version.clone(),
                };
                if config.tofu_version_is_valid() {
                    settings.tofu_version = version.clone();
                } else {
                    problems.push(format!(
                        "tofu-lens: setting tofuVersion: \"{version}\" is not a version; using {DEFAULT_TOFU_VERSION}."
                    ));
                }
            }
            Some(other) => problems.push(wrong_type(
                "tofuVersion",
                "a string",
                other,
                DEFAULT_TOFU_VERSION,
            )),
        }
        match object.get("diagnostics") {
            None | Some(Value::Null) => {}
            Some(Value::Object(diagnostics)) => match diagnostics.get("scope") {
                None | Some(Value::Null) => {}
                Some(Value::String(scope)) if scope == "workspace" => {}
                Some(Value::String(scope)) if scope == "open" => {
                    settings.scope = DiagnosticsScope::Open;
                }
                Some(other) => problems.push(wrong_type(
                    "diagnostics.scope",
                    "\"workspace\" or \"open\"",
                    other,
                    "\"workspace\"",
                )),
            },
            Some(other) => problems.push(wrong_type(
                "diagnostics",
                "an object",
                other,
                "the defaults",
            )),
        }
        match object.get("exclude") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                let globs = items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect();
                settings.exclude = ExcludeGlobs::new(globs);
            }
            Some(other) => problems.push(wrong_type(
                "exclude",
                "a list of strings",
                other,
                &format!("[\"{DEFAULT_EXCLUDE}\"]"),
            )),
        }
        Some((settings, problems))
    }
}

fn wrong_type(key: &str, expected: &str, found: &Value, default: &str) -> String {
    format!("tofu-lens: setting {key} must be {expected}, not {found}; using {default}.")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_parse_with_defaults_and_problems() {
        let (settings, problems) = Settings::from_json(&json!({
            "tofuLens": {"tofuVersion": "1.11.2", "diagnostics": {"scope": "open"}, "exclude": [], "other": 1}
        }))
        .unwrap();
        assert!(problems.is_empty());
        assert_eq!(settings.scope, DiagnosticsScope::Open);
        assert_eq!(settings.tofu_version, "1.11.2");
        assert!(!settings.exclude.is_excluded(".terraform/x.tf"));

        let (settings, problems) = Settings::from_json(&json!({
            "tofuVersion": 12, "diagnostics": {"scope": "everywhere"}, "exclude": "x"
        }))
        .unwrap();
        assert_eq!(settings, Settings::default());
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("tofuVersion must be a string, not 12"));

        let (_, problems) = Settings::from_json(&json!({"tofuVersion": "banana"})).unwrap();
        assert_eq!(problems.len(), 1);
        assert_eq!(Settings::from_json(&Value::Null), None);
    }
}

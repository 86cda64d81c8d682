//! The `tofuLens` settings (`server.md` §Settings): parsed from
//! `initializationOptions`, `workspace/didChangeConfiguration` and
//! `workspace/configuration` answers.
//!
//! Parsing never fails: a value of the wrong type (or an unusable
//! `tofuVersion`) falls back to its default and comes back as a problem for
//! the server to show once. Unknown keys are ignored. A missing or `null`
//! settings object means "keep what you have", which callers decide.
//!
//! The defaults are those of the workspace's `.tofu-lens.toml`, if it has
//! one ([`Settings::from_project`]); what the editor sends wins over them,
//! key by key (per code for `diagnostics.severity`).

use std::path::PathBuf;

use serde_json::Value;
use tofu_module::{Config, DEFAULT_TOFU_VERSION};
use tofu_syntax::{Code, Severity};

use tofu_vfs::{ExcludeGlobs, ProjectConfig};

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
    /// `diagnostics.severity`: per-code severities, `None` for `off`.
    pub severity_overrides: Vec<(Code, Option<Severity>)>,
    /// `schemas.runProviders`: start an installed provider whose schema
    /// the schema cache lacks (false: the cache and `schemas.files` only).
    pub run_providers: bool,
    /// `schemas.fetchProviders`: fetch (and verify, as `tofu init` does)
    /// the providers nothing installed, in the background. Off by default:
    /// the VS Code extension turns it on in a trusted workspace only; in
    /// other editors it is the user's statement that the workspace is
    /// trusted.
    pub fetch_providers: bool,
    /// `schemas.files`: `tofu providers schema -json` documents, read
    /// before any installed package; a relative path is joined to the
    /// workspace folder (to the `.tofu-lens.toml`'s directory when it
    /// comes from there).
    pub schema_files: Vec<PathBuf>,
    /// `varFiles`: per module directory (relative to the workspace
    /// folder, or absolute), the values files plan's checks read as
    /// `tofu plan -var-file` would, in order (relative to that directory).
    pub var_files: Vec<(String, Vec<String>)>,
    /// `rename.writeMoved`: renaming a managed resource or a module call
    /// also writes a `moved` block (default true).
    pub rename_writes_moved: bool,
}

pub const DEFAULT_EXCLUDE: &str = ".terraform/**";

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scope: DiagnosticsScope::Workspace,
            tofu_version: DEFAULT_TOFU_VERSION.to_owned(),
            exclude: ExcludeGlobs::new(vec![DEFAULT_EXCLUDE.to_owned()]),
            severity_overrides: Vec::new(),
            run_providers: true,
            fetch_providers: false,
            schema_files: Vec::new(),
            var_files: Vec::new(),
            rename_writes_moved: true,
        }
    }
}

impl Settings {
    pub fn engine_config(&self) -> Config {
        Config {
            tofu_version: self.tofu_version.clone(),
            severity_overrides: self.severity_overrides.clone(),
            ..Config::default()
        }
    }

    /// The defaults a `.tofu-lens.toml` gives: its values over the built-in
    /// ones. (Its `exclude` globs are taken as relative to the workspace
    /// folder, which is where the file normally sits.)
    pub fn from_project(project: &ProjectConfig) -> Settings {
        let mut settings = Settings::default();
        if let Some(version) = &project.tofu_version {
            settings.tofu_version.clone_from(version);
        }
        if let Some(globs) = project.exclude_globs() {
            settings.exclude = globs;
        }
        settings
            .severity_overrides
            .clone_from(&project.severity_overrides);
        if let Some(run_providers) = project.run_providers {
            settings.run_providers = run_providers;
        }
        if project.schema_files.is_some() {
            settings.schema_files = project.schema_files();
        }
        settings
    }

    /// Parses a settings object over `defaults` (what `.tofu-lens.toml`
    /// gives, or [`Settings::default`]). `None` for `null` or a non-object
    /// (keep the current settings); otherwise the settings and the problems
    /// found. `{"tofuLens": {…}}` is unwrapped.
    pub fn from_json(value: &Value, defaults: &Settings) -> Option<(Settings, Vec<String>)> {
        let object = value.as_object()?;
        if let Some(inner) = object.get("tofuLens").filter(|inner| inner.is_object()) {
            return Settings::from_json(inner, defaults);
        }
        let mut settings = defaults.clone();
        let mut problems = Vec::new();
        match object.get("tofuVersion") {
            None | Some(Value::Null) => {}
            Some(Value::String(version)) => {
                let config = Config {
                    tofu_version: version.clone(),
                    ..Config::default()
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
            Some(Value::Object(diagnostics)) => {
                match diagnostics.get("scope") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(scope)) if scope == "workspace" => {
                        settings.scope = DiagnosticsScope::Workspace;
                    }
                    Some(Value::String(scope)) if scope == "open" => {
                        settings.scope = DiagnosticsScope::Open;
                    }
                    Some(other) => problems.push(wrong_type(
                        "diagnostics.scope",
                        "\"workspace\" or \"open\"",
                        other,
                        "\"workspace\"",
                    )),
                }
                read_severity(diagnostics.get("severity"), &mut settings, &mut problems);
            }
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
        read_schemas(object.get("schemas"), &mut settings, &mut problems);
        read_var_files(object.get("varFiles"), &mut settings, &mut problems);
        read_rename(object.get("rename"), &mut settings, &mut problems);
        Some((settings, problems))
    }
}

/// `schemas`: `{"runProviders": bool, "fetchProviders": bool, "files":
/// [string]}`, each key over the defaults.
fn read_schemas(value: Option<&Value>, settings: &mut Settings, problems: &mut Vec<String>) {
    let schemas = match value {
        None | Some(Value::Null) => return,
        Some(Value::Object(schemas)) => schemas,
        Some(other) => {
            problems.push(wrong_type("schemas", "an object", other, "the defaults"));
            return;
        }
    };
    match schemas.get("runProviders") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(run)) => settings.run_providers = *run,
        Some(other) => problems.push(wrong_type(
            "schemas.runProviders",
            "true or false",
            other,
            "true",
        )),
    }
    match schemas.get("fetchProviders") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(fetch)) => settings.fetch_providers = *fetch,
        Some(other) => problems.push(wrong_type(
            "schemas.fetchProviders",
            "true or false",
            other,
            "false",
        )),
    }
    match schemas.get("files") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            settings.schema_files = items
                .iter()
                .filter_map(Value::as_str)
                .map(PathBuf::from)
                .collect();
        }
        Some(other) => problems.push(wrong_type(
            "schemas.files",
            "a list of strings",
            other,
            "[]",
        )),
    }
}

/// `rename`: `{"writeMoved": bool}`, over the defaults.
fn read_rename(value: Option<&Value>, settings: &mut Settings, problems: &mut Vec<String>) {
    let rename = match value {
        None | Some(Value::Null) => return,
        Some(Value::Object(rename)) => rename,
        Some(other) => {
            problems.push(wrong_type("rename", "an object", other, "the defaults"));
            return;
        }
    };
    match rename.get("writeMoved") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(write)) => settings.rename_writes_moved = *write,
        Some(other) => problems.push(wrong_type(
            "rename.writeMoved",
            "true or false",
            other,
            "true",
        )),
    }
}

/// `varFiles`: `{"DIR": ["FILE", …]}`, replacing the defaults' as a whole.
fn read_var_files(value: Option<&Value>, settings: &mut Settings, problems: &mut Vec<String>) {
    let dirs = match value {
        None | Some(Value::Null) => return,
        Some(Value::Object(dirs)) => dirs,
        Some(other) => {
            problems.push(wrong_type("varFiles", "an object", other, "{}"));
            return;
        }
    };
    let mut var_files = Vec::new();
    for (dir, files) in dirs {
        match files {
            Value::Array(items) if items.iter().all(Value::is_string) => {
                let files = items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect();
                var_files.push((dir.clone(), files));
            }
            other => problems.push(wrong_type(
                &format!("varFiles.{dir}"),
                "a list of strings",
                other,
                "[]",
            )),
        }
    }
    var_files.sort();
    settings.var_files = var_files;
}

/// `diagnostics.severity`: `{CODE: "error"|"warning"|"info"|"hint"|"off"}`,
/// each code replacing what the defaults say of it.
fn read_severity(value: Option<&Value>, settings: &mut Settings, problems: &mut Vec<String>) {
    let levels = match value {
        None | Some(Value::Null) => return,
        Some(Value::Object(levels)) => levels,
        Some(other) => {
            problems.push(wrong_type(
                "diagnostics.severity",
                "an object",
                other,
                "the defaults",
            ));
            return;
        }
    };
    for (code, level) in levels {
        let parsed = match level {
            Value::String(level) => tofu_diagnostics::parse_severity_override(code, level),
            other => Err(format!(
                "the severity of {code} must be a string, not {other}"
            )),
        };
        match parsed {
            Ok((code, severity)) => {
                settings
                    .severity_overrides
                    .retain(|(other, _)| *other != code);
                settings.severity_overrides.push((code, severity));
            }
            Err(message) => problems.push(format!(
                "tofu-lens: setting diagnostics.severity: {message}; ignored."
            )),
        }
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
        let defaults = Settings::default();
        let (settings, problems) = Settings::from_json(&json!({
            "tofuLens": {"tofuVersion": "1.11.2", "diagnostics": {"scope": "open"}, "exclude": [], "other": 1}
        }), &defaults)
        .unwrap();
        assert!(problems.is_empty());
        assert_eq!(settings.scope, DiagnosticsScope::Open);
        assert_eq!(settings.tofu_version, "1.11.2");
        assert!(!settings.exclude.is_excluded(".terraform/x.tf"));

        let (settings, problems) = Settings::from_json(
            &json!({
                "tofuVersion": 12, "diagnostics": {"scope": "everywhere"}, "exclude": "x"
            }),
            &defaults,
        )
        .unwrap();
        assert_eq!(settings, Settings::default());
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("tofuVersion must be a string, not 12"));

        let (settings, problems) =
            Settings::from_json(&json!({"rename": {"writeMoved": false}}), &defaults).unwrap();
        assert!(problems.is_empty() && !settings.rename_writes_moved);
        let (settings, problems) =
            Settings::from_json(&json!({"rename": {"writeMoved": "no"}}), &defaults).unwrap();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(settings.rename_writes_moved);

        let (_, problems) =
            Settings::from_json(&json!({"tofuVersion": "banana"}), &defaults).unwrap();
        assert_eq!(problems.len(), 1);
        assert_eq!(Settings::from_json(&Value::Null, &defaults), None);
    }

    #[test]
    fn the_editor_wins_over_the_project_file_key_by_key() {
        let project = ProjectConfig::parse(
            std::path::Path::new("/w/.tofu-lens.toml"),
            "tofuVersion = \"1.10.0\"\n[diagnostics.severity]\nfile-shadowed = \"off\"\nduplicate-block = \"warning\"\n",
        );
        let defaults = Settings::from_project(&project);
        assert_eq!(defaults.tofu_version, "1.10.0");
        let (settings, problems) = Settings::from_json(
            &json!({"diagnostics": {"severity": {"duplicate-block": "hint", "nope": "off", "file-ignored": 3}}}),
            &defaults,
        )
        .unwrap();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(settings.tofu_version, "1.10.0");
        assert_eq!(
            settings.severity_overrides,
            [
                (tofu_diagnostics::codes::FILE_SHADOWED, None),
                (
                    tofu_diagnostics::codes::DUPLICATE_BLOCK,
                    Some(Severity::Hint)
                ),
            ]
        );
        assert_eq!(settings.engine_config().severity_overrides.len(), 2);
    }

    #[test]
    fn schemas_settings_come_from_the_project_file_and_the_editor_wins() {
        let project = ProjectConfig::parse(
            std::path::Path::new("/w/.tofu-lens.toml"),
            "[schemas]\nrunProviders = false\nfiles = [\"s/aws.json\"]\n",
        );
        let defaults = Settings::from_project(&project);
        assert!(!defaults.run_providers);
        assert_eq!(defaults.schema_files, [PathBuf::from("/w/s/aws.json")]);
        assert!(Settings::default().run_providers);
        let (settings, problems) = Settings::from_json(
            &json!({"schemas": {"runProviders": true, "files": ["b.json"]}}),
            &defaults,
        )
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert!(settings.run_providers);
        assert_eq!(settings.schema_files, [PathBuf::from("b.json")]);
        let (settings, problems) = Settings::from_json(
            &json!({"schemas": {"runProviders": "no", "files": [1]}}),
            &defaults,
        )
        .unwrap();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("schemas.runProviders must be true or false"));
        assert_eq!(settings, defaults);
        let (settings, _) = Settings::from_json(
            &json!({"schemas": {"runProviders": false}}),
            &Settings::default(),
        )
        .unwrap();
        assert!(!settings.run_providers);
    }
}

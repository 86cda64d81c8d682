//! `.tofu-lens.toml`: the settings a repository keeps for everyone who checks
//! it, read by `tofu-lens check` and by the language server.
//!
//! ```toml
//! tofuVersion = "1.12.6"
//! exclude = ["legacy/**"]
//!
//! [diagnostics.severity]
//! required-version-ignored = "off"
//! provider-version-deprecated = "error"
//!
//! [schemas]
//! files = ["schemas/aws.json"]   # `tofu providers schema -json` output
//! runProviders = false           # never start a provider to read its schema
//! ```
//!
//! `schemas.files` are relative to the file's directory; they give the
//! schemas of providers that cannot be run here. `schemas.runProviders`
//! (default true) says whether provider packages `tofu init` installed may
//! be started (after their lock-file hash check) to read their schemas and
//! validate configuration; off, only cached schemas and these files are
//! used.
//!
//! The file that applies to a module directory is the nearest one found by
//! walking up from it. The keys are those of the language server's settings
//! (which, in an editor, win over the file). Unknown keys and values of the
//! wrong type are problems the caller reports; the rest of the file still
//! applies, and a file that is not TOML at all applies nothing.

use std::path::{Path, PathBuf};

use tofu_module::Config;
use tofu_syntax::{Code, Severity};

use crate::ExcludeGlobs;

/// The file name looked for in each directory.
pub const PROJECT_CONFIG_FILE: &str = ".tofu-lens.toml";

/// What a `.tofu-lens.toml` sets; `None` and empty lists mean "not set".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProjectConfig {
    /// The file it was read from.
    pub path: PathBuf,
    pub tofu_version: Option<String>,
    /// Globs relative to the file's directory (see [`ExcludeGlobs`]).
    pub exclude: Option<Vec<String>>,
    pub severity_overrides: Vec<(Code, Option<Severity>)>,
    /// `schemas.files` as written (see [`ProjectConfig::schema_files`]).
    pub schema_files: Option<Vec<String>>,
    /// `schemas.runProviders`.
    pub run_providers: Option<bool>,
    /// What was wrong in the file, each a sentence naming the file.
    pub problems: Vec<String>,
}

/// The nearest `.tofu-lens.toml` at or above `dir`, read and parsed.
/// `None` when there is none (an unreadable one is a problem of the result).
pub fn find_project_config(dir: &Path) -> Option<ProjectConfig> {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let path = absolute
        .ancestors()
        .map(|ancestor| ancestor.join(PROJECT_CONFIG_FILE))
        .find(|candidate| candidate.is_file())?;
    Some(match std::fs::read_to_string(&path) {
        Ok(text) => ProjectConfig::parse(&path, &text),
        Err(error) => ProjectConfig {
            problems: vec![format!("{}: cannot be read: {error}", path.display())],
            path,
            ..ProjectConfig::default()
        },
    })
}

impl ProjectConfig {
    /// Parses the text of the file at `path`.
    pub fn parse(path: &Path, text: &str) -> ProjectConfig {
        let mut config = ProjectConfig {
            path: path.to_path_buf(),
            ..ProjectConfig::default()
        };
        let shown = path.display().to_string();
        let table = match text.parse::<toml::Table>() {
            Ok(table) => table,
            Err(error) => {
                let message = error.message().trim_end_matches('.').to_owned();
                config.problems.push(format!(
                    "{shown}: not valid TOML: {message}; the file is ignored."
                ));
                return config;
            }
        };
        for (key, value) in &table {
            match (key.as_str(), value) {
                ("tofuVersion", toml::Value::String(version)) => {
                    let candidate = Config {
                        tofu_version: version.clone(),
                        ..Config::default()
                    };
                    if candidate.tofu_version_is_valid() {
                        config.tofu_version = Some(version.clone());
                    } else {
                        config
                            .problems
                            .push(format!("{shown}: tofuVersion \"{version}\" is not a version."));
                    }
                }
                ("exclude", toml::Value::Array(items)) => {
                    let globs: Vec<String> = items
                        .iter()
                        .filter_map(|item| item.as_str().map(str::to_owned))
                        .collect();
                    if globs.len() == items.len() {
                        config.exclude = Some(globs);
                    } else {
                        config
                            .problems
                            .push(format!("{shown}: exclude must be a list of strings."));
                    }
                }
                ("diagnostics", toml::Value::Table(diagnostics)) => {
                    config.read_diagnostics(&shown, diagnostics);
                }
                ("schemas", toml::Value::Table(schemas)) => config.read_schemas(&shown, schemas),
                ("tofuVersion", _) => config
                    .problems
                    .push(format!("{shown}: tofuVersion must be a string.")),
                ("exclude", _) => config
                    .problems
                    .push(format!("{shown}: exclude must be a list of strings.")),
                ("diagnostics", _) => config
                    .problems
                    .push(format!("{shown}: diagnostics must be a table.")),
                ("schemas", _) => config
                    .problems
                    .push(format!("{shown}: schemas must be a table.")),
                (other, _) => config.problems.push(format!(
                    "{shown}: unknown key \"{other}\" (known: tofuVersion, exclude, diagnostics.severity, schemas)."
                )),
            }
        }
        config
    }

    fn read_diagnostics(&mut self, shown: &str, diagnostics: &toml::Table) {
        for (key, value) in diagnostics {
            let toml::Value::Table(levels) = value else {
                self.problems
                    .push(format!("{shown}: diagnostics.{key} is not a known table (known: diagnostics.severity)."));
                continue;
            };
            if key != "severity" {
                self.problems
                    .push(format!("{shown}: diagnostics.{key} is not a known table (known: diagnostics.severity)."));
                continue;
            }
            for (code, level) in levels {
                let Some(level) = level.as_str() else {
                    self.problems.push(format!(
                        "{shown}: diagnostics.severity.{code} must be a string."
                    ));
                    continue;
                };
                match tofu_diagnostics::parse_severity_override(code, level) {
                    Ok(entry) => self.severity_overrides.push(entry),
                    Err(message) => self
                        .problems
                        .push(format!("{shown}: diagnostics.severity: {message}.")),
                }
            }
        }
    }

    fn read_schemas(&mut self, shown: &str, schemas: &toml::Table) {
        for (key, value) in schemas {
            match (key.as_str(), value) {
                ("files", toml::Value::Array(items)) => {
                    let files: Vec<String> = items
                        .iter()
                        .filter_map(|item| item.as_str().map(str::to_owned))
                        .collect();
                    if files.len() == items.len() {
                        self.schema_files = Some(files);
                    } else {
                        self.problems
                            .push(format!("{shown}: schemas.files must be a list of strings."));
                    }
                }
                ("runProviders", toml::Value::Boolean(run)) => self.run_providers = Some(*run),
                ("files", _) => self
                    .problems
                    .push(format!("{shown}: schemas.files must be a list of strings.")),
                ("runProviders", _) => self
                    .problems
                    .push(format!("{shown}: schemas.runProviders must be true or false.")),
                (other, _) => self.problems.push(format!(
                    "{shown}: unknown key \"schemas.{other}\" (known: schemas.files, schemas.runProviders)."
                )),
            }
        }
    }

    /// The `schemas.files`, each joined to the file's directory.
    pub fn schema_files(&self) -> Vec<PathBuf> {
        self.schema_files
            .iter()
            .flatten()
            .map(|file| self.root().join(file))
            .collect()
    }

    /// The engine configuration this file gives, starting from `base` (the
    /// command line's or the defaults): the file's values replace the base's.
    pub fn apply_to(&self, base: &Config) -> Config {
        let mut config = base.clone();
        if let Some(version) = &self.tofu_version {
            config.tofu_version.clone_from(version);
        }
        for (code, severity) in &self.severity_overrides {
            config.severity_overrides.retain(|(other, _)| other != code);
            config.severity_overrides.push((*code, *severity));
        }
        config
    }

    /// The `exclude` globs, if the file sets them.
    pub fn exclude_globs(&self) -> Option<ExcludeGlobs> {
        self.exclude.clone().map(ExcludeGlobs::new)
    }

    /// The directory the file sits in, which `exclude` globs are relative to.
    pub fn root(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn a_full_file_parses() {
        let config = ProjectConfig::parse(
            Path::new("/repo/.tofu-lens.toml"),
            "tofuVersion = \"1.11.2\"\nexclude = [\"legacy/**\"]\n\n[diagnostics.severity]\nrequired-version-ignored = \"off\"\nprovider-version-deprecated = \"error\"\n",
        );
        assert!(config.problems.is_empty(), "{:?}", config.problems);
        assert_eq!(config.tofu_version.as_deref(), Some("1.11.2"));
        assert_eq!(config.exclude, Some(vec!["legacy/**".to_owned()]));
        assert_eq!(
            config.severity_overrides,
            [
                (
                    tofu_diagnostics::codes::PROVIDER_VERSION_DEPRECATED,
                    Some(Severity::Error)
                ),
                (tofu_diagnostics::codes::REQUIRED_VERSION_IGNORED, None),
            ]
        );
        let engine = config.apply_to(&Config::default());
        assert_eq!(engine.tofu_version, "1.11.2");
        assert_eq!(engine.severity_overrides.len(), 2);
        assert_eq!(config.root(), Path::new("/repo"));
    }

    #[test]
    fn problems_name_the_file_and_the_rest_still_applies() {
        let config = ProjectConfig::parse(
            Path::new("x/.tofu-lens.toml"),
            "tofuVersion = 12\nexclud = []\n[diagnostics.severity]\nno-such-code = \"off\"\nduplicate-block = \"loud\"\nfile-shadowed = \"off\"\n",
        );
        assert_eq!(
            config.severity_overrides,
            [(tofu_diagnostics::codes::FILE_SHADOWED, None)]
        );
        assert_eq!(config.problems.len(), 4, "{:?}", config.problems);
        assert!(config
            .problems
            .iter()
            .all(|p| p.starts_with("x/.tofu-lens.toml: ")));
        assert!(config.problems.iter().any(|p| p.contains("\"loud\"")));

        let broken = ProjectConfig::parse(Path::new("y/.tofu-lens.toml"), "tofuVersion = ");
        assert_eq!(broken.problems.len(), 1);
        assert!(broken.problems[0].contains("not valid TOML"));
    }

    #[test]
    fn the_schemas_section_names_files_and_turns_running_off() {
        let config = ProjectConfig::parse(
            Path::new("/repo/.tofu-lens.toml"),
            "[schemas]\nfiles = [\"schemas/aws.json\", \"/abs/openstack.json\"]\nrunProviders = false\n",
        );
        assert!(config.problems.is_empty(), "{:?}", config.problems);
        assert_eq!(config.run_providers, Some(false));
        assert_eq!(
            config.schema_files(),
            [
                PathBuf::from("/repo/schemas/aws.json"),
                PathBuf::from("/abs/openstack.json")
            ]
        );
        assert_eq!(
            ProjectConfig::parse(Path::new("/repo/.tofu-lens.toml"), "").schema_files(),
            Vec::<PathBuf>::new()
        );

        let wrong = ProjectConfig::parse(Path::new("x/.tofu-lens.toml"), "schemas = 1\n");
        assert_eq!(
            wrong.problems,
            ["x/.tofu-lens.toml: schemas must be a table."]
        );
        let wrong = ProjectConfig::parse(
            Path::new("x/.tofu-lens.toml"),
            "[schemas]\nfiles = \"a.json\"\nrunProviders = \"no\"\nfile = []\n",
        );
        assert_eq!(
            wrong.problems,
            [
                "x/.tofu-lens.toml: unknown key \"schemas.file\" (known: schemas.files, schemas.runProviders).",
                "x/.tofu-lens.toml: schemas.files must be a list of strings.",
                "x/.tofu-lens.toml: schemas.runProviders must be true or false.",
            ]
        );
        assert_eq!(wrong.run_providers, None);
        assert_eq!(wrong.schema_files, None);
    }

    #[test]
    fn the_nearest_file_walking_up_applies() {
        let root = tempfile::tempdir().unwrap();
        let module = root.path().join("a/b");
        std::fs::create_dir_all(&module).unwrap();
        assert_eq!(find_project_config(&module), None);
        std::fs::write(
            root.path().join(PROJECT_CONFIG_FILE),
            "tofuVersion = \"1.10.0\"",
        )
        .unwrap();
        std::fs::write(
            root.path().join("a").join(PROJECT_CONFIG_FILE),
            "tofuVersion = \"1.11.0\"",
        )
        .unwrap();
        let found = find_project_config(&module).unwrap();
        assert_eq!(found.tofu_version.as_deref(), Some("1.11.0"));
        assert_eq!(found.path, root.path().join("a").join(PROJECT_CONFIG_FILE));
    }
}

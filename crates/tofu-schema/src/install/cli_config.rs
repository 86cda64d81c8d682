//! What OpenTofu's CLI configuration file (`.tofurc`, `.terraformrc`, or
//! the file `TF_CLI_CONFIG_FILE` names) says about where providers are:
//! `plugin_cache_dir`, the methods of a `provider_installation` block
//! (`filesystem_mirror`, `network_mirror`, `direct`, each with its
//! `include`/`exclude` patterns), the `host` blocks that name a host's
//! services without discovery, and the `credentials` blocks' tokens. The
//! caller finds and reads the files (environment variables are read only
//! by the binary) and passes their text here.
//!
//! Reading installed packages searches every filesystem mirror (a package
//! found there must still match the lock file); fetching
//! (`tofu-fetch`) follows the methods and their patterns in order, as
//! `tofu init` does. Left out: `dev_overrides`, `credentials_helper` and
//! the OCI mirror methods.

use std::collections::BTreeMap;

use tofu_syntax::{Block, ExprKind};

use crate::address::{ProviderAddress, DEFAULT_REGISTRY_HOST};

/// Where the CLI configuration says packages are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CliConfigDirs {
    pub plugin_cache_dir: Option<String>,
    pub filesystem_mirrors: Vec<String>,
    /// The file has a `provider_installation` block: then only its
    /// methods apply, and OpenTofu's implied mirror directories do not.
    pub provider_installation: bool,
    /// The `provider_installation` methods, in the order written.
    pub methods: Vec<InstallationMethod>,
    /// `host "NAME" { services = { … } }`: each host's services, which
    /// take the place of its `/.well-known/terraform.json`.
    pub hosts: BTreeMap<String, BTreeMap<String, String>>,
    /// `credentials "NAME" { token = "…" }`.
    pub credentials: BTreeMap<String, String>,
}

/// One method of a `provider_installation` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstallationMethod {
    pub kind: MethodKind,
    /// `include` patterns (`HOST/NAMESPACE/TYPE`, `*` for a whole part);
    /// none: every provider.
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MethodKind {
    Direct,
    FilesystemMirror { path: String },
    NetworkMirror { url: String },
}

impl InstallationMethod {
    /// Whether this method may install `address`: an `include` pattern
    /// matches it (or there is none) and no `exclude` pattern does.
    pub fn applies_to(&self, address: &ProviderAddress) -> bool {
        let matches = |pattern: &String| pattern_matches(pattern, address);
        (self.include.is_empty() || self.include.iter().any(matches))
            && !self.exclude.iter().any(matches)
    }
}

/// `HOST/NAMESPACE/TYPE` or `NAMESPACE/TYPE` (on the default registry),
/// each part a name or `*`, compared without case.
fn pattern_matches(pattern: &str, address: &ProviderAddress) -> bool {
    let parts: Vec<&str> = pattern.split('/').collect();
    let (host, namespace, type_name) = match parts.as_slice() {
        [namespace, type_name] => (DEFAULT_REGISTRY_HOST, *namespace, *type_name),
        [host, namespace, type_name] => (*host, *namespace, *type_name),
        _ => return false,
    };
    let part = |pattern: &str, name: &str| pattern == "*" || pattern.eq_ignore_ascii_case(name);
    part(host, &address.hostname)
        && part(namespace, &address.namespace)
        && part(type_name, &address.type_name)
}

/// Reads the directories from a CLI configuration file's text.
pub fn parse_cli_config(text: &str) -> CliConfigDirs {
    let file = tofu_syntax::parse(".tofurc", text);
    let mut dirs = CliConfigDirs {
        plugin_cache_dir: file
            .body
            .attribute("plugin_cache_dir")
            .and_then(|attribute| literal_string(&attribute.expr.kind)),
        filesystem_mirrors: Vec::new(),
        provider_installation: false,
        methods: Vec::new(),
        hosts: BTreeMap::new(),
        credentials: BTreeMap::new(),
    };
    for installation in blocks_named(&file.body.blocks, "provider_installation") {
        dirs.provider_installation = true;
        for method in &installation.body.blocks {
            let string = |name: &str| {
                method
                    .body
                    .attribute(name)
                    .and_then(|attribute| literal_string(&attribute.expr.kind))
            };
            let kind = match method.kind.as_str() {
                "direct" => MethodKind::Direct,
                "filesystem_mirror" => {
                    let Some(path) = string("path") else { continue };
                    dirs.filesystem_mirrors.push(path.clone());
                    MethodKind::FilesystemMirror { path }
                }
                "network_mirror" => {
                    let Some(url) = string("url") else { continue };
                    MethodKind::NetworkMirror { url }
                }
                _ => continue,
            };
            let strings = |name: &str| {
                method
                    .body
                    .attribute(name)
                    .map(|attribute| literal_strings(&attribute.expr.kind))
                    .unwrap_or_default()
            };
            dirs.methods.push(InstallationMethod {
                kind,
                include: strings("include"),
                exclude: strings("exclude"),
            });
        }
    }
    for host in blocks_named(&file.body.blocks, "host") {
        let [name] = host.labels.as_slice() else {
            continue;
        };
        let Some(ExprKind::Object(items)) = host
            .body
            .attribute("services")
            .map(|attribute| &attribute.expr.kind)
        else {
            continue;
        };
        let services = items
            .iter()
            .filter_map(|item| {
                let key = match &item.key.kind {
                    ExprKind::String(key) => key.clone(),
                    ExprKind::Traversal(key) if key.steps.is_empty() => key.root.clone(),
                    _ => return None,
                };
                Some((key, literal_string(&item.value.kind)?))
            })
            .collect();
        dirs.hosts.insert(name.value.to_ascii_lowercase(), services);
    }
    for credentials in blocks_named(&file.body.blocks, "credentials") {
        let [name] = credentials.labels.as_slice() else {
            continue;
        };
        if let Some(token) = credentials
            .body
            .attribute("token")
            .and_then(|attribute| literal_string(&attribute.expr.kind))
        {
            dirs.credentials
                .insert(name.value.to_ascii_lowercase(), token);
        }
    }
    dirs
}

fn literal_strings(kind: &ExprKind) -> Vec<String> {
    match kind {
        ExprKind::Array(items) => items
            .iter()
            .filter_map(|item| literal_string(&item.kind))
            .collect(),
        _ => Vec::new(),
    }
}

fn blocks_named<'a>(blocks: &'a [Block], kind: &'a str) -> impl Iterator<Item = &'a Block> {
    blocks.iter().filter(move |block| block.kind == kind)
}

fn literal_string(kind: &ExprKind) -> Option<String> {
    match kind {
        ExprKind::String(text) => Some(text.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_and_mirrors_are_read() {
        let dirs = parse_cli_config(
            r#"
plugin_cache_dir = "/home/me/.terraform.d/plugin-cache"
provider_installation {
  filesystem_mirror {
    path    = "/usr/share/terraform/providers"
    include = ["example.com/*/*"]
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}
"#,
        );
        assert_eq!(
            dirs.plugin_cache_dir.as_deref(),
            Some("/home/me/.terraform.d/plugin-cache")
        );
        assert_eq!(dirs.filesystem_mirrors, ["/usr/share/terraform/providers"]);
        assert!(dirs.provider_installation);
        assert_eq!(parse_cli_config(""), CliConfigDirs::default());
        assert_eq!(
            dirs.methods,
            [
                InstallationMethod {
                    kind: MethodKind::FilesystemMirror {
                        path: "/usr/share/terraform/providers".to_owned()
                    },
                    include: vec!["example.com/*/*".to_owned()],
                    exclude: Vec::new(),
                },
                InstallationMethod {
                    kind: MethodKind::Direct,
                    include: Vec::new(),
                    exclude: vec!["example.com/*/*".to_owned()],
                },
            ]
        );
        let direct_only = parse_cli_config("provider_installation {\n  direct {}\n}\n");
        assert!(direct_only.provider_installation);
        assert!(direct_only.filesystem_mirrors.is_empty());
    }

    #[test]
    fn hosts_credentials_and_network_mirrors_are_read() {
        let config = parse_cli_config(
            r#"
host "Registry.Example.com" {
  services = {
    "providers.v1" = "https://127.0.0.1:8443/v1/providers/"
    other          = "https://example.com/x/"
  }
}
credentials "registry.example.com" {
  token = "secret"
}
provider_installation {
  network_mirror {
    url     = "https://mirror.example.com/providers/"
    include = ["registry.opentofu.org/hashicorp/*"]
  }
  direct {}
}
"#,
        );
        let services = &config.hosts["registry.example.com"];
        assert_eq!(
            services["providers.v1"],
            "https://127.0.0.1:8443/v1/providers/"
        );
        assert_eq!(services["other"], "https://example.com/x/");
        assert_eq!(config.credentials["registry.example.com"], "secret");
        let [mirror, direct] = config.methods.as_slice() else {
            panic!("two methods: {:?}", config.methods)
        };
        assert_eq!(
            mirror.kind,
            MethodKind::NetworkMirror {
                url: "https://mirror.example.com/providers/".to_owned()
            }
        );
        let time = ProviderAddress::parse("hashicorp/time").unwrap();
        let other = ProviderAddress::parse("example.com/acme/thing").unwrap();
        assert!(mirror.applies_to(&time));
        assert!(!mirror.applies_to(&other));
        assert!(direct.applies_to(&other));
        let excluded = InstallationMethod {
            kind: MethodKind::Direct,
            include: Vec::new(),
            exclude: vec!["hashicorp/*".to_owned()],
        };
        assert!(!excluded.applies_to(&time));
        assert!(excluded.applies_to(&other));
    }
}

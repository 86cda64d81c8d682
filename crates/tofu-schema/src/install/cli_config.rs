//! What OpenTofu's CLI configuration file (`.tofurc`, `.terraformrc`, or
//! the file `TF_CLI_CONFIG_FILE` names) says about where providers are:
//! `plugin_cache_dir`, and the `filesystem_mirror` directories of a
//! `provider_installation` block. The caller finds and reads the file
//! (environment variables are read only by the binary) and passes its
//! text here.
//!
//! Left out: `network_mirror` and `direct` (they download, tofu-lens never
//! does), the `include`/`exclude` patterns of a mirror (every mirror is
//! searched; a package found there must still match the lock file), and
//! `dev_overrides`.

use tofu_syntax::{Block, ExprKind};

/// Where the CLI configuration says packages are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CliConfigDirs {
    pub plugin_cache_dir: Option<String>,
    pub filesystem_mirrors: Vec<String>,
    /// The file has a `provider_installation` block: then only its
    /// methods apply, and OpenTofu's implied mirror directories do not.
    pub provider_installation: bool,
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
    };
    for installation in blocks_named(&file.body.blocks, "provider_installation") {
        dirs.provider_installation = true;
        for mirror in blocks_named(&installation.body.blocks, "filesystem_mirror") {
            if let Some(path) = mirror
                .body
                .attribute("path")
                .and_then(|attribute| literal_string(&attribute.expr.kind))
            {
                dirs.filesystem_mirrors.push(path);
            }
        }
    }
    dirs
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
        let direct_only = parse_cli_config("provider_installation {\n  direct {}\n}\n");
        assert!(direct_only.provider_installation);
        assert!(direct_only.filesystem_mirrors.is_empty());
    }
}

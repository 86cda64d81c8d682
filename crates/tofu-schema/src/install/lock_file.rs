//! `.terraform.lock.hcl`: which version of each provider a root module
//! selected, and the hashes its packages must match. Parsed with
//! tofu-syntax, as OpenTofu reads the file as HCL.
//!
//! Only what tofu-lens needs is kept: per `provider "ADDRESS"` block its
//! `version`, `constraints` (as written) and `hashes`. A block this reader
//! cannot use (no address label, an address that does not parse, no
//! literal version) is skipped, not an error: the lock file is the user's
//! to fix with `tofu init`, and a provider without a usable entry is simply
//! not locked.

use crate::address::ProviderAddress;
use tofu_syntax::ExprKind;

/// One provider's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockedProvider {
    pub address: ProviderAddress,
    pub version: String,
    /// The version constraints as `tofu init` recorded them, if any.
    pub constraints: Option<String>,
    /// `h1:…` and `zh:…` hashes any matching package may have.
    pub hashes: Vec<String>,
}

/// Every usable provider entry of a lock file's text, in file order.
pub fn parse_lock_file(text: &str) -> Vec<LockedProvider> {
    let file = tofu_syntax::parse(".terraform.lock.hcl", text);
    let mut providers = Vec::new();
    for block in &file.body.blocks {
        if block.kind != "provider" {
            continue;
        }
        let [label] = block.labels.as_slice() else {
            continue;
        };
        let Some(address) = ProviderAddress::parse(&label.value) else {
            continue;
        };
        let string = |name: &str| match block
            .body
            .attribute(name)
            .map(|attribute| &attribute.expr.kind)
        {
            Some(ExprKind::String(text)) => Some(text.clone()),
            _ => None,
        };
        let Some(version) = string("version") else {
            continue;
        };
        let hashes = match block
            .body
            .attribute("hashes")
            .map(|attribute| &attribute.expr.kind)
        {
            Some(ExprKind::Array(items)) => items
                .iter()
                .filter_map(|item| match &item.kind {
                    ExprKind::String(hash) => Some(hash.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        providers.push(LockedProvider {
            address,
            version,
            constraints: string("constraints"),
            hashes,
        });
    }
    providers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_as_tofu_init_writes_them() {
        let text = r#"# This file is maintained automatically by "tofu init".
provider "registry.opentofu.org/hashicorp/time" {
  version     = "0.14.2"
  constraints = "0.14.2"
  hashes = [
    "h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=",
    "zh:0011",
  ]
}

provider "registry.opentofu.org/hashicorp/null" {
  version = "3.2.0"
}

provider "no version" {
}
"#;
        let providers = parse_lock_file(text);
        assert_eq!(providers.len(), 2);
        assert_eq!(
            providers[0].address.to_string(),
            "registry.opentofu.org/hashicorp/time"
        );
        assert_eq!(providers[0].version, "0.14.2");
        assert_eq!(providers[0].constraints.as_deref(), Some("0.14.2"));
        assert_eq!(
            providers[0].hashes,
            ["h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=", "zh:0011"]
        );
        assert_eq!(providers[1].constraints, None);
        assert!(providers[1].hashes.is_empty());
        assert!(parse_lock_file("provider {").is_empty());
    }
}

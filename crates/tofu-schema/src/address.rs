//! A provider's source address, `HOSTNAME/NAMESPACE/TYPE`, as OpenTofu
//! writes it in lock files, schema output and the install directories.
//!
//! Parsing accepts the full form and the short `NAMESPACE/TYPE` form (on
//! the default registry) and folds names to lower case, as OpenTofu
//! compares them case-insensitively. Left out: the validation of each
//! part's character set (a bad name simply never matches an installed
//! package) and punycode hostnames.

use std::fmt;

/// The registry OpenTofu assumes when a source names no host.
pub const DEFAULT_REGISTRY_HOST: &str = "registry.opentofu.org";

/// `registry.opentofu.org/hashicorp/time`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProviderAddress {
    pub hostname: String,
    pub namespace: String,
    pub type_name: String,
}

impl ProviderAddress {
    /// Reads `HOST/NAMESPACE/TYPE` or `NAMESPACE/TYPE`.
    pub fn parse(text: &str) -> Option<ProviderAddress> {
        let parts: Vec<&str> = text.split('/').collect();
        let (hostname, namespace, type_name) = match parts.as_slice() {
            [namespace, type_name] => (DEFAULT_REGISTRY_HOST, *namespace, *type_name),
            [hostname, namespace, type_name] => (*hostname, *namespace, *type_name),
            _ => return None,
        };
        if [hostname, namespace, type_name]
            .iter()
            .any(|part| part.is_empty() || part.contains(char::is_whitespace))
        {
            return None;
        }
        Some(ProviderAddress {
            hostname: hostname.to_ascii_lowercase(),
            namespace: namespace.to_ascii_lowercase(),
            type_name: type_name.to_ascii_lowercase(),
        })
    }
}

impl fmt::Display for ProviderAddress {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{}/{}/{}",
            self.hostname, self.namespace, self.type_name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_and_short_forms_read_the_same() {
        let full = ProviderAddress::parse("registry.opentofu.org/HashiCorp/time").unwrap();
        assert_eq!(full, ProviderAddress::parse("hashicorp/time").unwrap());
        assert_eq!(full.to_string(), "registry.opentofu.org/hashicorp/time");
        assert_eq!(ProviderAddress::parse("time"), None);
        assert_eq!(ProviderAddress::parse("a//b"), None);
        assert_eq!(ProviderAddress::parse("a/b/c/d"), None);
    }
}

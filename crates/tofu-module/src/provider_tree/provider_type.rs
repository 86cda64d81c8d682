//! [`ProviderType`]: a provider's source address as OpenTofu compares and
//! prints it (`hashicorp/time`, `registry.opentofu.org/hashicorp/time`).

use std::fmt;

use crate::names::{normalized_hostname, normalized_provider_part, source_address_error};

pub const DEFAULT_REGISTRY_HOST: &str = "registry.opentofu.org";

/// A provider's address (OpenTofu's `addrs.Provider`): hostname, namespace
/// and type, normalised so that equal addresses compare equal.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProviderType {
    pub hostname: String,
    pub namespace: String,
    pub type_name: String,
}

impl ProviderType {
    /// `registry.opentofu.org/hashicorp/NAME` (`addrs.NewDefaultProvider`).
    pub fn default_for(name: &str) -> ProviderType {
        ProviderType {
            hostname: DEFAULT_REGISTRY_HOST.to_owned(),
            namespace: "hashicorp".to_owned(),
            type_name: normalized_provider_part(name),
        }
    }

    /// The provider a bare local name implies
    /// (`addrs.ImpliedProviderForUnqualifiedType`): the built-in one for
    /// `terraform`, the default one otherwise.
    pub fn implied(name: &str) -> ProviderType {
        if name == "terraform" {
            ProviderType {
                hostname: "terraform.io".to_owned(),
                namespace: "builtin".to_owned(),
                type_name: "terraform".to_owned(),
            }
        } else {
            ProviderType::default_for(name)
        }
    }

    /// A `required_providers` `source` (`addrs.ParseProviderSourceString`);
    /// `None` when it is invalid (loading reports that).
    pub fn from_source(source: &str) -> Option<ProviderType> {
        if source_address_error(source).is_some() {
            return None;
        }
        let parts: Vec<&str> = source.split('/').collect();
        let (hostname, namespace, type_name) = match parts.as_slice() {
            [type_name] => (DEFAULT_REGISTRY_HOST.to_owned(), "hashicorp", *type_name),
            [namespace, type_name] => (DEFAULT_REGISTRY_HOST.to_owned(), *namespace, *type_name),
            [hostname, namespace, type_name] => {
                (normalized_hostname(hostname).ok()?, *namespace, *type_name)
            }
            _ => return None,
        };
        let namespace = if namespace == "-" {
            namespace.to_owned()
        } else {
            normalized_provider_part(namespace)
        };
        Some(ProviderType {
            hostname,
            namespace,
            type_name: normalized_provider_part(type_name),
        })
    }

    /// `hashicorp/time`, the hostname left out when it is the default
    /// registry's (`ForDisplay`).
    pub fn for_display(&self) -> String {
        if self.hostname == DEFAULT_REGISTRY_HOST {
            format!("{}/{}", self.namespace, self.type_name)
        } else {
            self.to_string()
        }
    }

    /// Under the default registry's `hashicorp` namespace
    /// (`addrs.IsDefaultProvider`).
    pub fn is_default(&self) -> bool {
        self.hostname == DEFAULT_REGISTRY_HOST && self.namespace == "hashicorp"
    }
}

/// The full address, `registry.opentofu.org/hashicorp/time` (`String`).
impl fmt::Display for ProviderType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.hostname, self.namespace, self.type_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_types_parse_and_print_as_opentofu_does() {
        let time = ProviderType::from_source("hashicorp/time");
        assert_eq!(time, Some(ProviderType::default_for("time")));
        assert_eq!(ProviderType::from_source("time"), time);
        assert_eq!(
            ProviderType::from_source("Registry.OpenTofu.org/HashiCorp/Time"),
            time
        );
        let openstack = ProviderType::from_source("terraform-provider-openstack/openstack");
        assert_eq!(
            openstack.as_ref().map(ProviderType::for_display).as_deref(),
            Some("terraform-provider-openstack/openstack")
        );
        assert!(!openstack.is_some_and(|o| o.is_default()));
        let elsewhere = ProviderType::from_source("example.com:443/acme/thing");
        assert_eq!(
            elsewhere.as_ref().map(ProviderType::for_display).as_deref(),
            Some("example.com/acme/thing")
        );
        assert_eq!(
            ProviderType::default_for("null").to_string(),
            "registry.opentofu.org/hashicorp/null"
        );
        assert_eq!(
            ProviderType::implied("terraform").for_display(),
            "terraform.io/builtin/terraform"
        );
        assert_eq!(ProviderType::from_source("a/b/c/d"), None);
    }
}

//! Provider configurations across the module tree (issue 35,
//! `spec/diagnostics.md` §7): what OpenTofu's `provider_validation.go`
//! reads of a module, and what a caller may know of the providers of a
//! module it calls.
//!
//! - [`ProviderType`]: a provider's source address as OpenTofu compares
//!   and prints it (`hashicorp/time`, `registry.opentofu.org/hashicorp/time`).
//! - `facts`: one merged module's `required_providers` entries, provider
//!   configurations (empty or not, with `for_each` or not), module calls
//!   (with the providers they pass and what repeats them) and resources
//!   (with the provider they name), read through the view a rule is given
//!   or from the merged module whole.
//! - [`ProviderSummary`]: the part of a module's interface a caller's
//!   checks read, including what lies further down its tree (modules with
//!   their own configurations reached through calls that do not repeat,
//!   and whether one below failed to load), so a caller is judged again
//!   only when that changes.
//!
//! What OpenTofu decides from Go's random map order (which of two
//! `required_providers` entries of one type is "previously required",
//! which local name to suggest) is decided here by source order; the
//! checks themselves are in `rules::provider_tree`.

pub(crate) mod facts;
mod summary;

use std::fmt;

pub use summary::{
    InheritedProvider, LegacyModule, ProviderConfiguration, ProviderSummary, RequiredProvider,
    SummaryPlace,
};

use crate::calls::local_source;
use crate::names::{normalized_hostname, normalized_provider_part, source_address_error};

const DEFAULT_REGISTRY_HOST: &str = "registry.opentofu.org";

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

/// `NAME` or `NAME.ALIAS`, as OpenTofu keys provider configurations
/// (`providerName`).
pub(crate) fn provider_key(name: &str, alias: Option<&str>) -> String {
    match alias {
        Some(alias) if !alias.is_empty() => format!("{name}.{alias}"),
        _ => name.to_owned(),
    }
}

/// A module `source` as OpenTofu prints a parsed one: a local path cleaned
/// (`./` kept in front unless it climbs, `./modules/net`, `../x`), a
/// registry address with its hostname; anything else as written.
pub(crate) fn source_for_display(source: &str) -> String {
    if let Some(relative) = local_source(source) {
        return if relative.starts_with("../") {
            relative
        } else {
            format!("./{relative}")
        };
    }
    let is_registry_part = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let package = source.split("//").next().unwrap_or(source);
    let parts: Vec<&str> = package.split('/').collect();
    if source.contains("::") || source.contains('?') {
        return source.to_owned();
    }
    match parts.as_slice() {
        [namespace, name, system]
            if [namespace, name, system]
                .iter()
                .all(|part| is_registry_part(part)) =>
        {
            format!("{DEFAULT_REGISTRY_HOST}/{source}")
        }
        _ => source.to_owned(),
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

    #[test]
    fn sources_print_as_parsed() {
        assert_eq!(source_for_display("./mod"), "./mod");
        assert_eq!(source_for_display("./a/../b"), "./b");
        assert_eq!(source_for_display("../x"), "../x");
        assert_eq!(source_for_display("./"), "./.");
        assert_eq!(source_for_display("../"), "./..");
        assert_eq!(
            source_for_display("hashicorp/consul/aws"),
            "registry.opentofu.org/hashicorp/consul/aws"
        );
        assert_eq!(
            source_for_display("git::https://example.com/x.git"),
            "git::https://example.com/x.git"
        );
    }
}

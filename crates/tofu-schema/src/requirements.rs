//! Which providers a module needs, as OpenTofu resolves them
//! (`configs.Module.ImpliedProviderForUnqualifiedType`,
//! `Config.addProviderRequirements`): every `required_providers` entry;
//! and for each resource, data source, ephemeral resource and `provider`
//! block, the provider its local name stands for: the entry of that name
//! in `required_providers`, else `hashicorp/NAME` on the default registry
//! (`terraform` is OpenTofu's built-in provider). A resource's local name
//! is its `provider` argument's first part, else its type up to the first
//! `_`.
//!
//! The input is plain data (names and strings as written), so whoever
//! reads a module (the `schemas` command, later the rules) gives it what
//! the module says; no module model here. Left out: `import` blocks,
//! `check` blocks' nested data sources, provider functions
//! (`provider::NAME::…`) and test files.

use std::collections::HashSet;

use crate::address::{ProviderAddress, DEFAULT_REGISTRY_HOST};

/// One `required_providers` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequiredProvider {
    pub local_name: String,
    /// `source` as written, if the entry has one.
    pub source: Option<String>,
    /// `version` as written (or the whole entry, when it is only a version).
    pub version: Option<String>,
}

/// Something in the module that uses a provider by its local name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderUse {
    pub local_name: String,
    /// What uses it, as OpenTofu names it (`time_sleep.wait`,
    /// `data.http.x`, `provider.aws`).
    pub user: String,
    /// A `provider` block's own (deprecated) `version` argument.
    pub version: Option<String>,
}

/// One provider the module needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeededProvider {
    pub address: ProviderAddress,
    /// The local names it goes by, sorted.
    pub local_names: Vec<String>,
    /// Version constraints as written, in module order.
    pub version_constraints: Vec<String>,
    /// `required_providers` (when it has an entry), then each user.
    pub needed_by: Vec<String>,
}

impl NeededProvider {
    /// OpenTofu's built-in provider (`terraform.io/builtin/terraform`):
    /// its schema is OpenTofu's own, never a package's.
    pub fn is_built_in(&self) -> bool {
        is_built_in(&self.address)
    }
}

/// True for `terraform.io/builtin/…` addresses.
pub fn is_built_in(address: &ProviderAddress) -> bool {
    address.hostname == "terraform.io" && address.namespace == "builtin"
}

/// A resource type's implied local name: up to its first `_`.
pub fn implied_local_name(resource_type: &str) -> &str {
    resource_type
        .split_once('_')
        .map_or(resource_type, |(prefix, _)| prefix)
}

/// The provider a local name stands for when `required_providers` does
/// not name it (`addrs.ImpliedProviderForUnqualifiedType`).
pub fn implied_provider(local_name: &str) -> ProviderAddress {
    let lower = local_name.to_ascii_lowercase();
    if lower == "terraform" {
        return ProviderAddress {
            hostname: "terraform.io".to_owned(),
            namespace: "builtin".to_owned(),
            type_name: lower,
        };
    }
    ProviderAddress {
        hostname: DEFAULT_REGISTRY_HOST.to_owned(),
        namespace: "hashicorp".to_owned(),
        type_name: lower,
    }
}

/// A `source` as OpenTofu reads it: `HOST/NS/TYPE`, `NS/TYPE`, or a bare
/// `TYPE` (in `hashicorp`); `None` when it does not parse.
pub fn parse_source(source: &str) -> Option<ProviderAddress> {
    if !source.contains('/') {
        let name = source.trim();
        return (!name.is_empty() && !name.contains(char::is_whitespace))
            .then(|| implied_provider(name))
            .filter(|address| !is_built_in(address));
    }
    ProviderAddress::parse(source)
}

/// The providers `required` and `uses` need, sorted by address.
pub fn needed_providers(
    required: &[RequiredProvider],
    uses: &[ProviderUse],
) -> Vec<NeededProvider> {
    let resolve = |local_name: &str| {
        required
            .iter()
            .find(|entry| entry.local_name == local_name)
            .map_or_else(|| implied_provider(local_name), address_of_entry)
    };
    let mut needed: Vec<NeededProvider> = Vec::new();
    let mut entry_for = |address: ProviderAddress| -> usize {
        match needed.iter().position(|need| need.address == address) {
            Some(index) => index,
            None => {
                needed.push(NeededProvider {
                    address,
                    local_names: Vec::new(),
                    version_constraints: Vec::new(),
                    needed_by: Vec::new(),
                });
                needed.len() - 1
            }
        }
    };
    let mut records: Vec<(usize, &str, Option<&str>, String)> = Vec::new();
    for entry in required {
        let index = entry_for(address_of_entry(entry));
        records.push((
            index,
            &entry.local_name,
            entry.version.as_deref(),
            "required_providers".to_owned(),
        ));
    }
    for provider_use in uses {
        let index = entry_for(resolve(&provider_use.local_name));
        records.push((
            index,
            &provider_use.local_name,
            provider_use.version.as_deref(),
            provider_use.user.clone(),
        ));
    }
    // Each user once per provider, in order: a set beside the list, since a
    // module of a thousand resources has a thousand users.
    let mut seen_users: HashSet<(usize, String)> = HashSet::new();
    for (index, local_name, version, user) in records {
        let Some(need) = needed.get_mut(index) else {
            continue;
        };
        if !need.local_names.iter().any(|name| name == local_name) {
            need.local_names.push(local_name.to_owned());
        }
        if let Some(version) = version {
            need.version_constraints.push(version.to_owned());
        }
        if seen_users.insert((index, user.clone())) {
            need.needed_by.push(user);
        }
    }
    for need in &mut needed {
        need.local_names.sort();
    }
    needed.sort_by(|left, right| left.address.cmp(&right.address));
    needed
}

fn address_of_entry(entry: &RequiredProvider) -> ProviderAddress {
    entry
        .source
        .as_deref()
        .and_then(parse_source)
        .unwrap_or_else(|| implied_provider(&entry.local_name))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn use_of(local_name: &str, user: &str) -> ProviderUse {
        ProviderUse {
            local_name: local_name.to_owned(),
            user: user.to_owned(),
            version: None,
        }
    }

    #[test]
    fn local_names_resolve_through_required_providers_else_to_hashicorp() {
        let required = [
            RequiredProvider {
                local_name: "clock".to_owned(),
                source: Some("hashicorp/time".to_owned()),
                version: Some("~> 0.14".to_owned()),
            },
            RequiredProvider {
                local_name: "os".to_owned(),
                source: Some("terraform-provider-openstack/openstack".to_owned()),
                version: None,
            },
        ];
        let uses = [
            // Implied local name `time`: not the `clock` entry, so hashicorp/time too.
            use_of("time", "time_sleep.wait"),
            use_of("clock", "time_static.now"),
            use_of("openstack", "openstack_networking_network_v2.x"),
            use_of("os", "provider.os"),
            use_of("terraform", "terraform_data.x"),
        ];
        let needed = needed_providers(&required, &uses);
        // Address, local names, version constraints, needed by.
        type Summary = (String, Vec<String>, Vec<String>, Vec<String>);
        let summary: Vec<Summary> = needed
            .iter()
            .map(|need| {
                (
                    need.address.to_string(),
                    need.local_names.clone(),
                    need.version_constraints.clone(),
                    need.needed_by.clone(),
                )
            })
            .collect();
        let strings = |items: &[&str]| {
            items
                .iter()
                .map(|item| item.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            summary,
            [
                (
                    "registry.opentofu.org/hashicorp/openstack".to_owned(),
                    strings(&["openstack"]),
                    strings(&[]),
                    strings(&["openstack_networking_network_v2.x"]),
                ),
                (
                    "registry.opentofu.org/hashicorp/time".to_owned(),
                    strings(&["clock", "time"]),
                    strings(&["~> 0.14"]),
                    strings(&["required_providers", "time_sleep.wait", "time_static.now"]),
                ),
                (
                    "registry.opentofu.org/terraform-provider-openstack/openstack".to_owned(),
                    strings(&["os"]),
                    strings(&[]),
                    strings(&["required_providers", "provider.os"]),
                ),
                (
                    "terraform.io/builtin/terraform".to_owned(),
                    strings(&["terraform"]),
                    strings(&[]),
                    strings(&["terraform_data.x"]),
                ),
            ]
        );
        assert!(needed[3].is_built_in());
        assert!(!needed[0].is_built_in());
    }

    #[test]
    fn sources_read_as_opentofu_reads_them() {
        assert_eq!(
            parse_source("aws").unwrap().to_string(),
            "registry.opentofu.org/hashicorp/aws"
        );
        assert_eq!(
            parse_source("example.com/Acme/Thing").unwrap().to_string(),
            "example.com/acme/thing"
        );
        assert_eq!(parse_source("a/b/c/d"), None);
        assert_eq!(parse_source(""), None);
        assert_eq!(implied_local_name("aws_instance"), "aws");
        assert_eq!(implied_local_name("null"), "null");
    }
}

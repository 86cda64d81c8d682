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

pub mod facts;
mod provider_type;
pub mod summarize;
pub mod summary;

pub use provider_type::ProviderType;

pub use summary::{
    InheritedProvider, LegacyModule, ProviderConfiguration, ProviderNode, ProviderSummary,
    RequiredProvider, SummaryPlace,
};

use crate::module_source::local_source;
use provider_type::DEFAULT_REGISTRY_HOST;

/// `NAME` or `NAME.ALIAS`, as OpenTofu keys provider configurations
/// (`providerName`).
pub fn provider_key(name: &str, alias: Option<&str>) -> String {
    match alias {
        Some(alias) if !alias.is_empty() => format!("{name}.{alias}"),
        _ => name.to_owned(),
    }
}

/// A module `source` as OpenTofu prints a parsed one: a local path cleaned
/// (`./` kept in front unless it climbs, `./modules/net`, `../x`), a
/// registry address with its hostname; anything else as written.
pub fn source_for_display(source: &str) -> String {
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

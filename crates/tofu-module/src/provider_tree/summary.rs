//! [`ProviderSummary`]: what a caller's provider checks may know of a
//! module it calls (built by `super::summarize`).

use super::provider_type::ProviderType;
use crate::declaration_place::DeclarationPlace;

/// What a caller may know of the providers of a module it calls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProviderSummary {
    /// Its `required_providers` entries, in source order.
    pub required: Vec<RequiredProvider>,
    /// Its provider configurations, in order of first declaration.
    pub configurations: Vec<ProviderConfiguration>,
    /// The local names its own calls pass on unaliased, which it requires
    /// but does not configure: its caller should pass them (one entry per
    /// `providers` entry).
    pub inherited: Vec<InheritedProvider>,
    /// The modules of its tree that configure providers of their own and
    /// are reached from it through calls without `count`, `for_each`,
    /// `enabled` or `depends_on`: itself (an empty path) and those below.
    pub legacy: Vec<LegacyModule>,
    /// The provider configurations its calls' `providers` entries name
    /// that only its caller can give it (it has no `provider` block of that
    /// provider and alias): OpenTofu's graph looks each up in the module,
    /// where only a block or its caller's `providers` puts one.
    pub passed_on: Vec<ProviderNode>,
    /// Its `backend` block.
    pub backend: Option<SummaryPlace>,
    /// Its first `import` block.
    pub import: Option<SummaryPlace>,
    /// A module below it (not itself) failed to load or has an `import`
    /// block: OpenTofu stops building the configuration before it
    /// validates providers.
    pub tree_failed: bool,
}

/// A `required_providers` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequiredProvider {
    pub name: String,
    pub provider: ProviderType,
    /// Its `configuration_aliases` as keys (`NAME.ALIAS`).
    pub alias_keys: Vec<String>,
}

/// A provider configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderConfiguration {
    /// `NAME` or `NAME.ALIAS`.
    pub key: String,
    pub name: String,
    /// It sets something: an empty block is a proxy of its caller's.
    pub configured: bool,
    pub place: SummaryPlace,
}

/// A local name a module's call passes on from the module's caller.
#[derive(Clone, Debug, PartialEq)]
pub struct InheritedProvider {
    pub name: String,
    /// Where the call passes it on.
    pub place: SummaryPlace,
}

/// A module that configures its own providers.
#[derive(Clone, Debug, PartialEq)]
pub struct LegacyModule {
    /// The calls leading to it from the summarised module (empty for the
    /// module itself).
    pub path: Vec<String>,
    /// The `source` of the last of those calls, as OpenTofu prints it
    /// (`None` for the module itself: its caller knows it).
    pub source: Option<String>,
    /// Its first provider configuration that configures something.
    pub place: SummaryPlace,
}

/// A place in the summarised module or below it: how HCL writes it in a
/// detail (relative to the summarised module's directory), and the file
/// and range, for a caller's related location. Two places are the same to
/// a caller when they are written the same (see `InterfaceVariable`).
#[derive(Clone, Debug)]
pub struct SummaryPlace {
    pub declared_at: String,
    pub place: Option<DeclarationPlace>,
}

/// A provider configuration as OpenTofu's graph names it in a module
/// (`addrs.AbsProviderConfig` less the module path): the provider and the
/// alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderNode {
    pub provider: ProviderType,
    pub alias: Option<String>,
}

impl ProviderNode {
    /// `provider["registry.opentofu.org/hashicorp/time"].ALIAS` under
    /// `module` (`module.a.module.b`, empty for the root), as
    /// `AbsProviderConfig.String` prints it.
    pub fn address_in(&self, module: &str) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !module.is_empty() {
            parts.push(module.to_owned());
        }
        parts.push(format!("provider[\"{}\"]", self.provider));
        parts.extend(self.alias.iter().filter(|a| !a.is_empty()).cloned());
        parts.join(".")
    }
}

impl ProviderSummary {
    /// The provider the module means by local name `name` in a provider
    /// block or a `providers` entry (`Module.ProviderForLocalConfig`): its
    /// `required_providers` entry's, or the one the name implies.
    pub fn local_type(&self, name: &str) -> ProviderType {
        self.required
            .iter()
            .find(|required| required.name == name)
            .map_or_else(|| ProviderType::implied(name), |r| r.provider.clone())
    }
}

impl PartialEq for SummaryPlace {
    fn eq(&self, other: &SummaryPlace) -> bool {
        self.declared_at == other.declared_at
    }
}

impl SummaryPlace {
    /// The same place seen from the directory that calls the summarised
    /// one through `dir` (the call's directory relative to it).
    pub(super) fn below(&self, dir: &str) -> SummaryPlace {
        let prefix = |name: &str| match dir {
            "." | "" => name.to_owned(),
            _ => format!("{dir}/{name}"),
        };
        SummaryPlace {
            declared_at: prefix(&self.declared_at),
            place: self.place.as_ref().map(|place| DeclarationPlace {
                file: prefix(&place.file),
                ..place.clone()
            }),
        }
    }
}

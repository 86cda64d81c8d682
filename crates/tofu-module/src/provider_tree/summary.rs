//! [`ProviderSummary`]: what a caller's provider checks may know of a
//! module it calls, built from the module's facts and the summaries of the
//! modules it calls in turn (`ModuleInterface::of`).

use std::sync::Arc;

use tofu_syntax::Location;

use super::facts::ModuleFacts;
use super::{source_for_display, ProviderType};
use crate::calls::{local_source, CalledModules};
use crate::interface::DeclarationPlace;
use crate::merge::MergedModule;

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

impl PartialEq for SummaryPlace {
    fn eq(&self, other: &SummaryPlace) -> bool {
        self.declared_at == other.declared_at
    }
}

impl SummaryPlace {
    fn of(module: &MergedModule, location: Location) -> SummaryPlace {
        let place = location.range.and_then(|range| {
            let file = module.file(location.file)?;
            Some(DeclarationPlace {
                file: file.name.clone(),
                text: Arc::clone(&file.text),
                header: range,
            })
        });
        SummaryPlace {
            declared_at: module.describe(location),
            place,
        }
    }

    /// The same place seen from the directory that calls the summarised
    /// one through `dir` (the call's directory relative to it).
    fn below(&self, dir: &str) -> SummaryPlace {
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

impl ProviderSummary {
    /// The summary of a merged module, analysed in the tree `tree`.
    pub(crate) fn of(module: &MergedModule, tree: &CalledModules) -> ProviderSummary {
        let facts = ModuleFacts::read(&module);
        let place = |location: Location| SummaryPlace::of(module, location);
        let mut summary = ProviderSummary {
            required: facts
                .required
                .iter()
                .map(|required| RequiredProvider {
                    name: required.name.clone(),
                    provider: required.provider.clone(),
                    alias_keys: required.alias_keys.clone(),
                })
                .collect(),
            configurations: facts
                .configurations
                .iter()
                .map(|configuration| ProviderConfiguration {
                    key: configuration.key(),
                    name: configuration.name.clone(),
                    configured: configuration.configured,
                    place: place(configuration.header),
                })
                .collect(),
            backend: facts.backend.map(place),
            import: facts.first_import.map(place),
            ..ProviderSummary::default()
        };
        for call in &facts.calls {
            for passed in &call.passed {
                let parent = &passed.in_parent;
                if parent.alias.is_some() {
                    continue;
                }
                let configured = facts
                    .configuration(&parent.name)
                    .is_some_and(|configuration| configuration.configured);
                if !configured && facts.required(&parent.name).is_some() {
                    summary.inherited.push(InheritedProvider {
                        name: parent.name.clone(),
                        place: place(parent.name_at),
                    });
                }
            }
        }
        if let Some(own) = facts
            .configurations
            .iter()
            .find(|configuration| configuration.configured)
        {
            summary.legacy.push(LegacyModule {
                path: Vec::new(),
                source: None,
                place: place(own.header),
            });
        }
        for call in &facts.calls {
            let Some(source) = &call.source else {
                continue;
            };
            if tree.loops.contains(source) {
                continue;
            }
            let Some(child) = tree.children.get(source) else {
                continue;
            };
            summary.tree_failed |=
                child.incomplete || child.providers.tree_failed || child.providers.import.is_some();
            if call.repetition.is_some() {
                continue;
            }
            let dir = local_source(source).or_else(|| tree.installed.get(source).cloned());
            summary
                .legacy
                .extend(child.providers.legacy.iter().map(|legacy| {
                    let mut path = vec![call.name.clone()];
                    path.extend(legacy.path.iter().cloned());
                    LegacyModule {
                        path,
                        source: Some(
                            legacy
                                .source
                                .clone()
                                .unwrap_or_else(|| source_for_display(source)),
                        ),
                        place: match &dir {
                            Some(dir) => legacy.place.below(dir),
                            None => SummaryPlace {
                                place: None,
                                ..legacy.place.clone()
                            },
                        },
                    }
                }));
        }
        summary
    }
}

//! Builds a module's [`ProviderSummary`] from its facts and the summaries
//! of the modules it calls in turn (`crate::ModuleAnalysis::interface`).

use std::sync::Arc;

use tofu_syntax::Location;

use super::facts::ModuleFacts;
use super::source_for_display;
use super::summary::{
    InheritedProvider, LegacyModule, ProviderConfiguration, ProviderNode, ProviderSummary,
    RequiredProvider, SummaryPlace,
};
use crate::calls::CalledModules;
use crate::declaration_place::DeclarationPlace;
use crate::merge::MergedModule;
use crate::module_source::local_source;

/// The summary of a merged module, analysed in the tree `tree`.
pub fn summarize(module: &MergedModule, tree: &CalledModules) -> ProviderSummary {
    let facts = ModuleFacts::read_without_resources(&module);
    let place = |location: Location| place_of(module, location);
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
            // A local directory that does not load stops `tofu init`
            // before it validates providers.
            summary.tree_failed |= local_source(source).is_some();
            continue;
        };
        summary.tree_failed |=
            child.incomplete || child.providers.tree_failed || child.providers.import.is_some();
        for passed in &call.passed {
            let node = ProviderNode {
                provider: child.providers.local_type(&passed.in_child.name),
                alias: passed.in_parent.alias.clone(),
            };
            if !facts.configures_node(&node.provider, node.alias.as_deref())
                && !summary.passed_on.contains(&node)
            {
                summary.passed_on.push(node);
            }
        }
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

/// A place in `module`, for its summary.
fn place_of(module: &MergedModule, location: Location) -> SummaryPlace {
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

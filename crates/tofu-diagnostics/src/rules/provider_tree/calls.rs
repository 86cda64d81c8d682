//! The checks of `validateProviderConfigs` on one child module, against
//! the call that reaches it (`module.NAME`, called from "the root
//! module"): `legacy-module-repetition`, `provider-override`,
//! `missing-provider-configuration` (an error for a
//! `configuration_aliases` entry nothing configures or passes, a warning
//! for a configuration the child passes on that its caller does not pass
//! it), `undefined-provider-reference` and `provider-type-mismatch` for
//! each `providers` entry, and `redundant-empty-provider`.
//!
//! The child is known by its [`ProviderSummary`]; each diagnostic is on
//! the call, as OpenTofu puts it, or (a redundant empty block, which
//! OpenTofu puts in the child) on the call's header, the child's block
//! related.

use std::collections::BTreeMap;

use tofu_syntax::{Diagnostic, Severity};

use super::child::{diagnostic, Child, KnownNames};
use tofu_module::provider_tree::facts::{ModuleFacts, Passed};
use tofu_module::provider_tree::{source_for_display, ProviderSummary, ProviderType, SummaryPlace};
use tofu_syntax::go_text::go_quote;

/// Every check of the child of `child.call`, for the module of `facts`.
pub(super) fn check(
    facts: &ModuleFacts,
    known: &KnownNames,
    child: &Child<'_, '_>,
    out: &mut Vec<Diagnostic>,
) {
    let providers = &child.interface.providers;
    let call = child.call;
    let module = child.path();
    legacy_modules(child, out);
    let configured = |key: &str| {
        providers
            .configurations
            .iter()
            .any(|configuration| configuration.configured && configuration.key == key)
    };
    let passed_in = |key: &str| {
        call.passed
            .iter()
            .find(|passed| passed.in_child.key() == key)
    };
    for configuration in providers.configurations.iter().filter(|c| c.configured) {
        let Some(passed) = passed_in(&configuration.key) else {
            continue;
        };
        let mut diagnostic = diagnostic(
            crate::codes::PROVIDER_OVERRIDE,
            "Cannot override provider configuration",
            passed.in_child.name_at,
            format!(
                "The configuration of {module} has its own local configuration for {}, and so it cannot accept an overridden configuration provided by the root module.",
                configuration.key
            ),
        );
        if let Some(related) = child.related(
            &configuration.place,
            "the called module's own configuration",
        ) {
            diagnostic = diagnostic.with_related_outside(related);
        }
        out.push(diagnostic);
    }
    for (key, provider) in configuration_aliases(providers) {
        if configured(&key) || passed_in(&key).is_some() {
            continue;
        }
        out.push(diagnostic(
            crate::codes::MISSING_PROVIDER_CONFIGURATION,
            "Missing required provider configuration",
            call.header,
            format!(
                "The child module requires an additional configuration for provider {}, with the local name {}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for {key} in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.",
                provider.for_display(),
                go_quote(&key),
            ),
        ));
    }
    for passed in &call.passed {
        passed_configuration(facts, known, providers, &module, passed, out);
    }
    for inherited in &providers.inherited {
        if passed_in(&inherited.name).is_some() {
            continue;
        }
        let mut diagnostic = diagnostic(
            crate::codes::MISSING_PROVIDER_CONFIGURATION,
            "Missing required provider configuration",
            call.header,
            format!(
                "The configuration for {module} expects to inherit a configuration for provider {} with local name {}, but the root module doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for {} to the \"providers\" argument in the module {} block.",
                ProviderType::default_for(&inherited.name).for_display(),
                go_quote(&inherited.name),
                go_quote(&inherited.name),
                go_quote(&call.name),
            ),
        )
        .with_severity(Severity::Warning);
        if let Some(related) =
            child.related(&inherited.place, "the called module passes it on here")
        {
            diagnostic = diagnostic.with_related_outside(related);
        }
        out.push(diagnostic);
    }
    redundant_empty_blocks(providers, child, &module, out);
}

/// The modules of the child's tree with their own provider configurations,
/// when the call repeats (or depends on something).
fn legacy_modules(child: &Child<'_, '_>, out: &mut Vec<Diagnostic>) {
    let Some(at) = child.call.repetition else {
        return;
    };
    for legacy in &child.interface.providers.legacy {
        let mut path = child.path();
        for name in &legacy.path {
            path.push_str(&format!(".module.{name}"));
        }
        let source = legacy.source.clone().unwrap_or_else(|| {
            source_for_display(child.call.source.as_deref().unwrap_or_default())
        });
        let mut diagnostic = diagnostic(
            crate::codes::LEGACY_MODULE_REPETITION,
            "Module is incompatible with count, for_each, enabled and depends_on",
            at,
            format!(
                "The module at {path} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module {}, consider updating this module to instead expect provider configurations to be passed by its caller.",
                go_quote(&source)
            ),
        );
        if let Some(related) = child.related(
            &legacy.place,
            &format!("the provider configuration of {path}"),
        ) {
            diagnostic = diagnostic.with_related_outside(related);
        }
        out.push(diagnostic);
    }
}

/// The child's `configuration_aliases` entries by key, with their
/// provider.
fn configuration_aliases(providers: &ProviderSummary) -> BTreeMap<String, ProviderType> {
    let mut aliases = BTreeMap::new();
    for required in &providers.required {
        for key in &required.alias_keys {
            aliases.insert(key.clone(), required.provider.clone());
        }
    }
    aliases
}

/// The provider OpenTofu gives a child's local name in a `providers`
/// entry (`resolveProviderTypes`): every child of the caller writes the
/// provider it knows a name as (required, or the default one of a name it
/// configures) into the entries of that name of *every* call of the
/// caller, so a name the child does not know takes a sibling's provider,
/// and only a name no child knows is the default one. Where children know
/// a name as different providers, the last in Go's random map order wins;
/// this takes the child's own, or the first sibling's.
fn child_type(known: &KnownNames, providers: &ProviderSummary, name: &str) -> ProviderType {
    let own = providers
        .required
        .iter()
        .find(|required| required.name == name)
        .map(|required| required.provider.clone())
        .or_else(|| {
            let configures = providers.configurations.iter().any(|c| c.name == name);
            configures.then(|| ProviderType::default_for(name))
        });
    own.or_else(|| known.get(name).and_then(|types| types.first().cloned()))
        .unwrap_or_else(|| ProviderType::default_for(name))
}

/// One `providers` entry: the child declares the name, and the
/// configuration passed is of the provider it declares.
fn passed_configuration(
    facts: &ModuleFacts,
    known: &KnownNames,
    providers: &ProviderSummary,
    module: &str,
    passed: &Passed,
    out: &mut Vec<Diagnostic>,
) {
    let key = passed.in_child.key();
    let required = |name: &str| providers.required.iter().find(|r| r.name == name);
    let local = required(&key).map(|r| r.provider.clone());
    let alias = configuration_aliases(providers).remove(&key);
    let empty = providers
        .configurations
        .iter()
        .any(|configuration| !configuration.configured && configuration.key == key);
    let mut provider = child_type(known, providers, &passed.in_child.name);
    if let Some(local) = &local {
        provider = local.clone();
    }
    if let Some(alias) = &alias {
        provider = alias.clone();
    }
    if local.is_none() && alias.is_none() && !empty {
        let diagnostic = if provider.is_default() {
            diagnostic(
                crate::codes::UNDEFINED_PROVIDER_REFERENCE,
                "Reference to undefined provider",
                passed.in_child.name_at,
                format!(
                    "There is no explicit declaration for local provider name {} in {module}, so OpenTofu is assuming you mean to pass a configuration for {}.\n\nIf you also control the child module, add a required_providers entry named {} with the source address {}.",
                    go_quote(&key),
                    go_quote(&provider.for_display()),
                    go_quote(&key),
                    go_quote(&provider.for_display()),
                ),
            )
        } else {
            diagnostic(
                crate::codes::UNDEFINED_PROVIDER_REFERENCE,
                "Reference to undefined provider",
                passed.in_child.name_at,
                format!(
                    "The child module does not declare any provider requirement with the local name {}.\n\nIf you also control the child module, you can add a required_providers entry named {} with the source address {} to accept this provider configuration.",
                    go_quote(&key),
                    go_quote(&key),
                    go_quote(&provider.for_display()),
                ),
            )
            .with_severity(Severity::Error)
        };
        out.push(diagnostic);
    }
    // The caller's provider for what it passes; OpenTofu then looks the
    // child's name up in the caller's own requirements, and takes that
    // provider when there is one.
    let parent = facts.required(&key).map_or_else(
        || facts.provider_of(&passed.in_parent.name),
        |r| r.provider.clone(),
    );
    if provider == parent {
        return;
    }
    let other_name = providers
        .required
        .iter()
        .find(|required| required.provider == parent)
        .map(|required| required.name.clone());
    let diagnostic = match other_name {
        Some(other_name) => diagnostic(
            crate::codes::PROVIDER_TYPE_MISMATCH,
            "Provider type mismatch",
            passed.in_child.name_at,
            format!(
                "The assigned configuration is for provider {}, but local name {} in the root module represents {}.\n\nTo pass this configuration to the child module, use the local name {} instead.",
                go_quote(&provider.for_display()),
                go_quote(&passed.in_child.name),
                go_quote(&parent.for_display()),
                go_quote(&other_name),
            ),
        ),
        None => diagnostic(
            crate::codes::PROVIDER_TYPE_MISMATCH,
            "Provider type mismatch",
            passed.in_parent.name_at,
            format!(
                "The local name {} in the root module represents provider {}, but {} in {module} represents {}.\n\nEach provider has its own distinct configuration schema and provider types, so this module's {} can be assigned only a configuration for {}, which is not required by {module}.",
                go_quote(&passed.in_parent.key()),
                go_quote(&parent.for_display()),
                go_quote(&key),
                go_quote(&provider.for_display()),
                go_quote(&key),
                provider.for_display(),
            ),
        ),
    };
    out.push(diagnostic);
}

/// The child's empty provider blocks, one warning per local name, with the
/// `required_providers` entry that replaces them.
fn redundant_empty_blocks(
    providers: &ProviderSummary,
    child: &Child<'_, '_>,
    module: &str,
    out: &mut Vec<Diagnostic>,
) {
    // By local name: the keys, and the places.
    let mut by_name: BTreeMap<&str, Vec<(&str, &SummaryPlace)>> = BTreeMap::new();
    for configuration in providers.configurations.iter().filter(|c| !c.configured) {
        by_name
            .entry(configuration.name.as_str())
            .or_default()
            .push((configuration.key.as_str(), &configuration.place));
    }
    for (name, mut configurations) in by_name {
        configurations.sort_by(|a, b| a.0.cmp(b.0));
        // OpenTofu takes the provider of the first configuration it visits
        // (in Go's map order); here, the first by key.
        let provider = configurations
            .first()
            .and_then(|(key, _)| providers.required.iter().find(|r| r.name == *key))
            .map_or_else(|| ProviderType::default_for(name), |r| r.provider.clone());
        let n_aliases = configurations
            .iter()
            .filter(|(key, _)| *key != name)
            .count();
        let mut detail = format!(
            "Earlier versions of OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider {} blocks and then adding or updating an entry like the following to the required_providers block of {module}:\n",
            go_quote(name),
        );
        detail.push_str(&format!("    {name} = {{\n"));
        detail.push_str(&format!(
            "      source = {}\n",
            go_quote(&provider.for_display())
        ));
        if n_aliases > 0 {
            detail.push_str("      configuration_aliases = [\n");
            for (key, _) in &configurations {
                detail.push_str(&format!("        {key},\n"));
            }
            detail.push_str("      ]\n");
        }
        detail.push_str("    }");
        // The place that sorts first as HCL writes it.
        let Some((_, place)) = configurations
            .iter()
            .min_by(|a, b| a.1.declared_at.cmp(&b.1.declared_at))
        else {
            continue;
        };
        let mut diagnostic = diagnostic(
            crate::codes::REDUNDANT_EMPTY_PROVIDER,
            "Redundant empty provider block",
            child.call.header,
            detail,
        );
        if let Some(related) = child.related(place, "the empty provider block") {
            diagnostic = diagnostic.with_related_outside(related);
        }
        out.push(diagnostic);
    }
}

//! The checks of `validateProviderConfigs` on the module itself, as the
//! root of its tree ("the root module"): `duplicate-required-provider`,
//! `invalid-provider-instance` (instance keys of `provider` and
//! `providers` references against the configurations' `for_each`),
//! `provider-for-each-matches`, and `undefined-provider-reference` for a
//! configuration a call passes on that the module neither requires nor
//! configures.

use std::collections::HashMap;

use tofu_syntax::{Diagnostic, Location};

use super::child::diagnostic;
use super::iteration::{same_for_each, WrittenForEach};
use tofu_module::address::ResourceMode;
use tofu_module::effective::Origin;
use tofu_module::provider_tree::facts::{ModuleFacts, Reference};
use tofu_module::provider_tree::ProviderType;
use tofu_syntax::go_text::go_quote;

/// The checks on the module itself; `written` reads a `for_each`.
pub(super) fn check(
    facts: &ModuleFacts,
    written: &dyn Fn(Origin) -> Option<WrittenForEach>,
    out: &mut Vec<Diagnostic>,
) {
    duplicate_requirements(facts, out);
    implied_requirements(facts, out);
    let configured: Vec<String> = facts
        .configurations
        .iter()
        .filter(|configuration| configuration.configured)
        .map(|configuration| configuration.key())
        .collect();
    let instanced: HashMap<String, Origin> = facts
        .configurations
        .iter()
        .filter_map(|configuration| Some((configuration.key(), configuration.for_each?)))
        .collect();
    for call in &facts.calls {
        for passed in &call.passed {
            if let Some(key_at) = passed.in_child.key_at {
                out.push(diagnostic(
                    crate::codes::INVALID_PROVIDER_INSTANCE,
                    "Invalid module provider configuration",
                    key_at,
                    "Instance keys are not allowed on the left side of a provider configuration assignment.".to_owned(),
                ));
            }
            let parent = &passed.in_parent;
            let key = parent.key();
            let instance = instanced.get(&key).copied();
            out.extend(instance_validation(
                parent,
                "module",
                instance.is_some(),
                configured.contains(&key),
            ));
            if parent.key_at.is_some() {
                out.extend(same_for_each(
                    call.for_each.and_then(written),
                    instance.and_then(written),
                    "module",
                    &format!("-target=module.{}", call.name),
                ));
            }
        }
    }
    for resource in &facts.resources {
        let Some(reference) = &resource.provider else {
            continue;
        };
        let key = reference.key();
        let instance = instanced.get(&key).copied();
        out.extend(instance_validation(
            reference,
            "resource",
            instance.is_some(),
            configured.contains(&key),
        ));
        if reference.key_at.is_some() && resource.mode == ResourceMode::Managed {
            out.extend(same_for_each(
                resource.for_each.and_then(written),
                instance.and_then(written),
                "resource",
                &format!("-target={}.{}", resource.type_name, resource.name),
            ));
        }
    }
    for call in &facts.calls {
        for passed in &call.passed {
            let parent = &passed.in_parent;
            if parent.alias.is_some() {
                continue;
            }
            let name = &parent.name;
            if configured.contains(name) || facts.required(name).is_some() {
                continue;
            }
            let provider = ProviderType::default_for(name).for_display();
            out.push(diagnostic(
                crate::codes::UNDEFINED_PROVIDER_REFERENCE,
                "Reference to undefined provider",
                parent.name_at,
                format!(
                    "There is no explicit declaration for local provider name {} in the root module, so OpenTofu is assuming you mean to pass a configuration for provider {}.\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named {} with source = {}, or a different source address if appropriate.",
                    go_quote(name),
                    go_quote(&provider),
                    go_quote(name),
                    go_quote(&provider),
                ),
            ));
        }
    }
}

/// Two `required_providers` entries of one provider, or an entry of a
/// default provider under another name than the configuration block of
/// that provider's type. (OpenTofu walks the entries in Go's map order,
/// which decides which of two entries is "previously required"; here it
/// is source order.)
fn duplicate_requirements(facts: &ModuleFacts, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(&str, &ProviderType)> = Vec::new();
    for required in &facts.required {
        let provider = &required.provider;
        if let Some((previous, _)) = seen.iter().find(|(_, seen)| *seen == provider) {
            out.push(diagnostic(
                crate::codes::DUPLICATE_REQUIRED_PROVIDER,
                "Duplicate required provider",
                required.value,
                format!(
                    "Provider {} with the local name {} was previously required as {}. A provider can only be required once within required_providers.",
                    provider.for_display(),
                    go_quote(&required.name),
                    go_quote(previous),
                ),
            ));
        } else if provider.is_default() {
            let implied = &provider.type_name;
            let configured_as_type = facts
                .configurations
                .iter()
                .any(|configuration| configuration.name == *implied);
            if configured_as_type && required.name != *implied {
                out.push(diagnostic(
                    crate::codes::DUPLICATE_REQUIRED_PROVIDER,
                    "Duplicate required provider",
                    required.value,
                    format!(
                        "Provider {} with the local name {} was implicitly required via a configuration block as {}. The provider configuration block name must match the name used in required_providers.",
                        provider.for_display(),
                        go_quote(&required.name),
                        go_quote(implied),
                    ),
                ));
            }
        }
        seen.push((&required.name, provider));
    }
}

/// A resource without `provider` whose type implies a provider that
/// `required_providers` lists under another local name.
fn implied_requirements(facts: &ModuleFacts, out: &mut Vec<Diagnostic>) {
    for resource in facts.resources.iter().filter(|r| r.provider.is_none()) {
        let Some((provider, listed)) = facts.listed_elsewhere(&resource.type_name) else {
            continue;
        };
        let address = match resource.mode {
            ResourceMode::Managed => format!("{}.{}", resource.type_name, resource.name),
            mode => format!(
                "{}.{}.{}",
                mode.keyword(),
                resource.type_name,
                resource.name
            ),
        };
        for required in listed {
            out.push(diagnostic(
                crate::codes::DUPLICATE_REQUIRED_PROVIDER,
                "Duplicate required provider",
                resource.header,
                format!(
                    "Provider {} was implicitly required via resource {}, but listed in required_providers as {}. Either the local name in required_providers must match the resource name, or the {} provider must be assigned within the resource block.",
                    go_quote(&provider.to_string()),
                    go_quote(&address),
                    go_quote(&required.name),
                    go_quote(&required.name),
                ),
            ));
        }
    }
}

/// `ProviderConfigRef.InstanceValidation`: an instance key where the
/// configuration has no `for_each`, or none where it has.
fn instance_validation(
    reference: &Reference,
    block_type: &str,
    instanced: bool,
    configured: bool,
) -> Option<Diagnostic> {
    let summary = format!("Invalid {block_type} provider configuration");
    let (at, detail): (Location, String) = match (reference.key_at, &reference.alias) {
        (Some(key_at), None) => (
            key_at,
            "An instance key can be specified only for a provider configuration which has an alias and uses for_each.".to_owned(),
        ),
        (Some(_), Some(alias)) if !instanced && !configured => (
            reference.name_at,
            format!(
                "This module doesn't declare a provider {} block with alias = {}, which is required for use with for_each.",
                go_quote(&reference.name),
                go_quote(alias)
            ),
        ),
        (Some(key_at), Some(_)) if !instanced => (
            key_at,
            "An instance key can be specified only for a provider configuration that uses for_each.".to_owned(),
        ),
        (None, _) if instanced => (
            reference.name_at,
            "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.".to_owned(),
        ),
        _ => return None,
    };
    Some(diagnostic(
        crate::codes::INVALID_PROVIDER_INSTANCE,
        &summary,
        at,
        detail,
    ))
}

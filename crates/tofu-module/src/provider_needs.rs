//! Which providers a module directory needs, from its analysis' effective
//! `terraform` block and blocks, with `tofu_schema::requirements`
//! resolving the local names: what `tofu-lens schemas` lists, and the
//! schemas `check` and the language server read for the directory.

use crate::address::{BlockAddress, ResourceMode};
use crate::effective::EffectiveAttribute;
use crate::merge::MergedModule;
use crate::provider_uses::provider_reference;
use rustc_hash::FxHashSet as HashSet;
use tofu_schema::requirements::{
    implied_local_name, needed_providers, NeededProvider, ProviderUse, RequiredProvider,
};
use tofu_schema::ProviderAddress;
use tofu_syntax::{Expr, ExprKind, ObjectItem};

/// The providers whose schema a package gives (OpenTofu's built-in
/// `terraform` provider left out).
///
/// The language server asks after every analysis (each keystroke), so
/// this reads each resource's provider local name and no more: a module
/// of a thousand resources names a handful of providers, and who needs
/// each is not asked.
pub fn package_addresses(analysis: &MergedModule) -> Vec<ProviderAddress> {
    needs(analysis, false)
        .into_iter()
        .filter(|need| !need.is_built_in())
        .map(|need| need.address)
        .collect()
}

/// The providers a module needs, from its effective configuration.
pub fn module_needs(analysis: &MergedModule) -> Vec<NeededProvider> {
    needs(analysis, true)
}

/// [`module_needs`]; without `users`, each resource's local name once and
/// no `needed_by` (which providers are needed is the same).
fn needs(analysis: &MergedModule, users: bool) -> Vec<NeededProvider> {
    let written = |attribute: &EffectiveAttribute| -> Option<&Expr> {
        let file = analysis.file(attribute.origin.file)?;
        Some(&file.attribute_at(attribute.origin.range)?.expr)
    };
    let required: Vec<RequiredProvider> = analysis
        .effective
        .terraform
        .required_providers
        .iter()
        .map(|entry| {
            let (source, version) = match written(entry).map(|expr| &expr.kind) {
                Some(ExprKind::Object(items)) => (
                    object_string(items, "source"),
                    object_string(items, "version"),
                ),
                Some(ExprKind::String(version)) => (None, Some(version.clone())),
                _ => (None, None),
            };
            RequiredProvider {
                local_name: entry.name.clone(),
                source,
                version,
            }
        })
        .collect();
    let mut uses = Vec::new();
    let mut seen: HashSet<&str> = HashSet::default();
    let mut last: Option<&str> = None;
    for block in &analysis.effective.blocks {
        match &block.address {
            BlockAddress::Resource {
                mode,
                type_name,
                name,
            } => {
                let local_name = block
                    .body
                    .attribute("provider")
                    .and_then(&written)
                    .and_then(provider_reference)
                    .map(|(local_name, _)| local_name)
                    .unwrap_or_else(|| implied_local_name(type_name));
                if !users {
                    // Neighbours mostly share a provider: no hashing then.
                    if last == Some(local_name) {
                        continue;
                    }
                    last = Some(local_name);
                    if seen.insert(local_name) {
                        uses.push(ProviderUse {
                            local_name: local_name.to_owned(),
                            user: String::new(),
                            version: None,
                        });
                    }
                    continue;
                }
                let local_name = local_name.to_owned();
                let user = match mode {
                    ResourceMode::Managed => format!("{type_name}.{name}"),
                    ResourceMode::Data => format!("data.{type_name}.{name}"),
                    ResourceMode::Ephemeral => format!("ephemeral.{type_name}.{name}"),
                };
                uses.push(ProviderUse {
                    local_name,
                    user,
                    version: None,
                });
            }
            BlockAddress::Provider { name, .. } => uses.push(ProviderUse {
                local_name: name.clone(),
                user: block.address.to_string(),
                version: block
                    .body
                    .attribute("version")
                    .and_then(&written)
                    .and_then(|expr| expr.as_str().map(str::to_owned)),
            }),
            _ => {}
        }
    }
    needed_providers(&required, &uses)
}

/// The string value of `key` in an object constructor.
fn object_string(items: &[ObjectItem], key: &str) -> Option<String> {
    items.iter().find_map(|item| {
        let named = match &item.key.kind {
            ExprKind::Traversal(traversal) => traversal.steps.is_empty() && traversal.root == key,
            ExprKind::String(text) => text == key,
            _ => false,
        };
        named
            .then(|| item.value.as_str().map(str::to_owned))
            .flatten()
    })
}

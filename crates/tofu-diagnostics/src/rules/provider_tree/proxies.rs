//! `missing-provider`: the error OpenTofu's `validate` gives while it
//! builds its graph (`ProviderConfigTransformer.addProxyProviders`), with
//! no place, when a `providers` entry names a configuration the calling
//! module does not have. The graph looks the configuration up by the
//! provider the *child* means by its name and the alias the caller wrote:
//! in the root, a `required_providers` entry (and its
//! `configuration_aliases`) or a `provider` block gives one; in a module
//! below, only a `provider` block or its own caller's `providers`.
//!
//! So each module judges its own entries as the root, and its children's
//! [`ProviderSummary::passed_on`] against what its calls pass them: a child
//! that passes on the built-in `terraform` provider its caller does not
//! pass fails as `module.NAME.provider["terraform.io/builtin/terraform"]`.
//! OpenTofu stops at the first it meets (in Go's random map order);
//! tofu-lens reports each, on the `providers` entry or on the call.

use tofu_syntax::Diagnostic;

use super::child::Child;
use tofu_module::provider_tree::facts::ModuleFacts;
use tofu_module::provider_tree::{ProviderNode, ProviderSummary};

/// The checks of the calls of the module of `facts`, as the root.
pub(super) fn check(facts: &ModuleFacts, children: &[Child<'_, '_>], out: &mut Vec<Diagnostic>) {
    let mut reported: Vec<String> = Vec::new();
    let mut report = |summary: String, at, out: &mut Vec<Diagnostic>| {
        if reported.contains(&summary) {
            return;
        }
        out.push(Diagnostic::new(
            crate::codes::MISSING_PROVIDER,
            summary.clone(),
            at,
        ));
        reported.push(summary);
    };
    for child in children {
        let providers: &ProviderSummary = &child.interface.providers;
        for passed in &child.call.passed {
            let node = ProviderNode {
                provider: providers.local_type(&passed.in_child.name),
                alias: passed.in_parent.alias.clone(),
            };
            if !root_has(facts, &node) {
                report(
                    format!("missing provider {}", node.address_in("")),
                    passed.in_parent.name_at,
                    out,
                );
            }
        }
        for needed in &providers.passed_on {
            let given = child.call.passed.iter().any(|passed| {
                providers.local_type(&passed.in_child.name) == needed.provider
                    && passed.in_child.alias.as_deref().filter(|a| !a.is_empty())
                        == needed.alias.as_deref().filter(|a| !a.is_empty())
            });
            if !given {
                report(
                    format!("missing provider {}", needed.address_in(&child.path())),
                    child.call.header,
                    out,
                );
            }
        }
    }
}

/// Whether the root module's graph has the configuration `node`: a
/// `required_providers` entry of its provider gives the unaliased one and,
/// in `validate`, one for each of its `configuration_aliases`; a `provider`
/// block gives its own.
fn root_has(facts: &ModuleFacts, node: &ProviderNode) -> bool {
    let alias = node.alias.as_deref().filter(|a| !a.is_empty());
    let required = facts.required.iter().any(|required| {
        required.provider == node.provider
            && match alias {
                None => true,
                Some(alias) => required
                    .alias_keys
                    .iter()
                    .any(|key| key.split_once('.').is_some_and(|(_, a)| a == alias)),
            }
    });
    required || facts.configures_node(&node.provider, alias)
}

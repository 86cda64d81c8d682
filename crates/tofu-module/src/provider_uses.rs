//! Which of a module's provider configurations something uses.
//!
//! `tofu validate` prunes the provider configurations nothing depends on
//! before it walks the graph (`PruneProviderTransformer`,
//! `internal/tofu/transform_provider.go`), so their bodies are never
//! validated: a misspelt argument in an unused `provider` block is silent,
//! for the schema's checks and for the provider's own validator alike.
//! What depends on a configuration `NAME` or `NAME.ALIAS`, checked with
//! OpenTofu 1.12.6 (`docs/oracle.md`):
//! - a resource, data source or ephemeral resource of the module whose
//!   `provider` argument names it, or, without one, whose type's prefix is
//!   `NAME` (the unaliased configuration);
//! - a module call whose `providers` map passes it;
//! - the unaliased configuration of every local name, through a module
//!   call that does not pass that name itself: the called modules inherit
//!   it. Whether a module below uses it is not known here, so it counts as
//!   used (OpenTofu prunes it when none does);
//! - `provider::NAME::FUNCTION` calls use the unaliased configuration too;
//!   they are not read here (they would make every expression part of what
//!   the module's names depend on), so a configuration that only such calls
//!   use counts as unused: its mistakes are missed, never invented.
//!
//! A `providers` map that is not an object of references counts as using
//! everything (OpenTofu reports it).

use rustc_hash::FxHashSet as HashSet;

use tofu_syntax::{Expr, ExprKind, TraversalStep};

use crate::provider_tree::provider_key;

/// A `provider` argument or a `providers` value: the local name and the
/// alias it names (`aws.east` and `aws.east[each.key]`: `("aws",
/// Some("east"))`; the quoted form OpenTofu still reads with a warning
/// too).
pub fn provider_reference(expr: &Expr) -> Option<(&str, Option<&str>)> {
    match &expr.kind {
        ExprKind::Traversal(traversal) => {
            let alias = match traversal.steps.first() {
                Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
                _ => None,
            };
            Some((traversal.root.as_str(), alias))
        }
        ExprKind::String(text) => {
            let mut parts = text.splitn(2, '.');
            let name = parts.next().filter(|name| !name.is_empty())?;
            Some((name, parts.next()))
        }
        _ => None,
    }
}

/// What a module call's `providers` argument passes on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassedProviders {
    /// The configurations its values name, as keys (`NAME`, `NAME.ALIAS`).
    pub configurations: Vec<String>,
    /// The local names its keys pass unaliased (those the called module
    /// does not inherit).
    pub unaliased_names: Vec<String>,
    /// Some entry is not a reference (or the argument not an object).
    pub unreadable: bool,
}

impl PassedProviders {
    /// An argument that cannot be read (counts as passing everything).
    pub fn unreadable() -> PassedProviders {
        PassedProviders {
            unreadable: true,
            ..PassedProviders::default()
        }
    }

    /// What the `providers` argument `expr` passes.
    pub fn of(expr: &Expr) -> PassedProviders {
        let mut passed = PassedProviders::default();
        let Some(items) = expr.as_object() else {
            passed.unreadable = true;
            return passed;
        };
        for item in items {
            match (
                provider_reference(&item.key),
                provider_reference(&item.value),
            ) {
                (Some((key_name, key_alias)), Some((name, alias))) => {
                    if key_alias.is_none() {
                        passed.unaliased_names.push(key_name.to_owned());
                    }
                    passed.configurations.push(provider_key(name, alias));
                }
                _ => passed.unreadable = true,
            }
        }
        passed
    }
}

/// The configurations a module's blocks use (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderUses {
    keys: HashSet<String>,
    /// A module call without a `providers` argument: every unaliased
    /// configuration may be inherited.
    inherited_all: bool,
    /// Each call with a `providers` argument: the local names it passes
    /// unaliased (it inherits the unaliased configurations of the others).
    calls_passing: Vec<Vec<String>>,
    /// A `providers` map that could not be read.
    unreadable: bool,
}

impl ProviderUses {
    /// A resource, data source or ephemeral resource using `NAME[.ALIAS]`.
    pub fn add_resource(&mut self, name: &str, alias: Option<&str>) {
        self.keys.insert(provider_key(name, alias));
    }

    /// A module call, with what its `providers` argument passes (`None`:
    /// it has none).
    ///
    /// Every unaliased configuration of a name the map does not pass as
    /// `NAME = ...` is inherited by the called module; since which names
    /// the call leaves to inheritance depends on the module's
    /// configurations, a call records the names it passes and the rest is
    /// answered in [`ProviderUses::uses`].
    pub fn add_call(&mut self, passed: Option<&PassedProviders>) {
        match passed {
            None => self.inherited_all = true,
            Some(passed) => {
                self.unreadable |= passed.unreadable;
                self.keys.extend(passed.configurations.iter().cloned());
                self.calls_passing.push(passed.unaliased_names.clone());
            }
        }
    }

    /// Whether OpenTofu keeps configuration `NAME[.ALIAS]` in its graph:
    /// something uses it.
    pub fn keeps(&self, name: &str, alias: Option<&str>) -> bool {
        if self.unreadable || self.keys.contains(&provider_key(name, alias)) {
            return true;
        }
        let unaliased = alias.is_none_or(str::is_empty);
        unaliased
            && (self.inherited_all
                || self
                    .calls_passing
                    .iter()
                    .any(|passed| !passed.iter().any(|passed_name| passed_name == name)))
    }
}

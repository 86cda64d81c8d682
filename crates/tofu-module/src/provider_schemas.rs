//! The provider schemas a module's analysis is given, and which provider a
//! local name stands for.
//!
//! The schemas are an input, like the module tree ([`crate::calls`]): the
//! engine never reads them itself. Whoever analyses a directory (`check`,
//! the language server) finds which providers it needs
//! (`tofu_schema::requirements::needed_providers`), reads their schemas where
//! it can (`tofu_schema::read_provider_schema`) and hands them in as
//! [`ProviderSchemas`]; a provider without a schema there is judged as
//! without schemas (`diagnostics.md` §7: meta-arguments only).
//!
//! A local name stands for the provider its `required_providers` entry
//! names, else for `hashicorp/NAME` on the default registry, as
//! `tofu_schema::requirements` resolves them. Which entries a
//! module has is part of the shapes of its files (`shape::BlockShape`), so
//! resolving a name reads no block: [`ProviderNames`] is built with the
//! other names (`declared_names`).

use std::collections::BTreeMap;
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;
use tofu_schema::requirements::{implied_local_name, implied_provider};
use tofu_schema::{ProviderAddress, ProviderSchema};

use crate::address::BlockAddress;
use crate::merge::MergedModule;
use crate::provider_uses::provider_reference;

/// The schemas of a module's providers, by provider address, and why a
/// schema is not at hand for a provider `tofu init` installed something
/// for (issue 47, part 6).
#[derive(Clone, Debug, Default)]
pub struct ProviderSchemas {
    by_address: BTreeMap<ProviderAddress, Arc<ProviderSchema>>,
    unavailable: BTreeMap<ProviderAddress, UnavailableSchema>,
    /// The providers whose schema comes from tofu-lens's schema cache for
    /// the version a lock file pins, nothing being installed (issue 47,
    /// part 4), with that version.
    from_cache: BTreeMap<ProviderAddress, String>,
    /// The providers whose schema comes from a package tofu-lens fetched
    /// and verified itself (issue 47), with its version.
    fetched: BTreeMap<ProviderAddress, String>,
}

/// Why the schema of a provider that `tofu init` installed (its root has
/// a `.terraform` directory) is not at hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnavailableSchema {
    /// The installed package of the locked `version` matches none of the
    /// lock file's hashes: `tofu validate` fails on it, and it is never run.
    LockMismatch { version: String },
    /// Any other reason (not installed, another platform's package, a
    /// provider that failed to start), in words.
    Other(String),
}

impl ProviderSchemas {
    pub fn new() -> ProviderSchemas {
        ProviderSchemas::default()
    }

    /// Adds (or replaces) the schema of `address`.
    pub fn insert(&mut self, address: ProviderAddress, schema: Arc<ProviderSchema>) {
        self.by_address.insert(address, schema);
    }

    pub fn get(&self, address: &ProviderAddress) -> Option<&Arc<ProviderSchema>> {
        self.by_address.get(address)
    }

    /// Neither a schema nor why one is missing.
    pub fn is_empty(&self) -> bool {
        self.by_address.is_empty() && self.unavailable.is_empty()
    }

    pub fn len(&self) -> usize {
        self.by_address.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&ProviderAddress, &Arc<ProviderSchema>)> {
        self.by_address.iter()
    }

    /// Records why the schema of `address` is not at hand.
    pub fn set_unavailable(&mut self, address: ProviderAddress, why: UnavailableSchema) {
        self.unavailable.insert(address, why);
    }

    /// Notes that the schema of `address` is the cached one of `version`
    /// (nothing installed gives it).
    pub fn set_from_cache(&mut self, address: ProviderAddress, version: String) {
        self.from_cache.insert(address, version);
    }

    /// The version whose cached schema stands for `address`, when nothing
    /// installed gives it.
    pub fn from_cache(&self, address: &ProviderAddress) -> Option<&str> {
        self.from_cache.get(address).map(String::as_str)
    }

    /// Every provider whose schema comes from the cache, with its version.
    pub fn all_from_cache(&self) -> impl Iterator<Item = (&ProviderAddress, &String)> {
        self.from_cache.iter()
    }

    /// Notes that the schema of `address` is read from the package of
    /// `version` tofu-lens fetched (nothing installed gives it).
    pub fn set_fetched(&mut self, address: ProviderAddress, version: String) {
        self.fetched.insert(address, version);
    }

    /// The version of the fetched package whose schema stands for
    /// `address`.
    pub fn fetched(&self, address: &ProviderAddress) -> Option<&str> {
        self.fetched.get(address).map(String::as_str)
    }

    /// Every provider whose schema comes from a fetched package.
    pub fn all_fetched(&self) -> impl Iterator<Item = (&ProviderAddress, &String)> {
        self.fetched.iter()
    }

    /// The providers whose schema is not at hand although something was
    /// installed for them, with why.
    pub fn unavailable(&self) -> impl Iterator<Item = (&ProviderAddress, &UnavailableSchema)> {
        self.unavailable.iter()
    }

    /// The addresses whose schema differs between `self` and `other`
    /// (added, removed or replaced by a different schema).
    pub fn changed(&self, other: &ProviderSchemas) -> Vec<ProviderAddress> {
        let mut changed: Vec<ProviderAddress> = Vec::new();
        for (address, schema) in &self.by_address {
            if other
                .by_address
                .get(address)
                .is_none_or(|new| !same_schema(schema, new))
            {
                changed.push(address.clone());
            }
        }
        for address in other.by_address.keys() {
            if !self.by_address.contains_key(address) {
                changed.push(address.clone());
            }
        }
        for (address, why) in &self.unavailable {
            if other.unavailable.get(address) != Some(why) && !changed.contains(address) {
                changed.push(address.clone());
            }
        }
        for address in other.unavailable.keys() {
            if !self.unavailable.contains_key(address) && !changed.contains(address) {
                changed.push(address.clone());
            }
        }
        changed
    }
}

/// The same schema: one shared value, or two equal ones.
fn same_schema(a: &Arc<ProviderSchema>, b: &Arc<ProviderSchema>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

impl PartialEq for ProviderSchemas {
    fn eq(&self, other: &ProviderSchemas) -> bool {
        self.unavailable == other.unavailable
            && self.by_address.len() == other.by_address.len()
            && self
                .by_address
                .iter()
                .zip(&other.by_address)
                .all(|((a, a_schema), (b, b_schema))| a == b && same_schema(a_schema, b_schema))
    }
}

/// The resources (managed, data, ephemeral) whose provider configuration is
/// `provider` (`provider "NAME"`, with its alias): those whose `provider`
/// argument names it, or, for a configuration without alias, that name it
/// by their type's prefix.
pub fn users_of(module: &MergedModule, provider: &BlockAddress) -> Vec<BlockAddress> {
    let BlockAddress::Provider { name, alias } = provider else {
        return Vec::new();
    };
    module
        .effective
        .blocks
        .iter()
        .filter(|block| {
            let BlockAddress::Resource { type_name, .. } = &block.address else {
                return false;
            };
            let (local_name, used_alias) = match block.body.attribute("provider") {
                Some(attribute) => {
                    let Some((local_name, used_alias)) = module
                        .file(attribute.origin.file)
                        .and_then(|file| file.attribute_at(attribute.origin.range))
                        .and_then(|written| provider_reference(&written.expr))
                    else {
                        return false;
                    };
                    (local_name, used_alias)
                }
                None => (implied_local_name(type_name), None),
            };
            local_name == name && used_alias == alias.as_deref()
        })
        .map(|block| block.address.clone())
        .collect()
}

/// Which provider each local name stands for, and the schemas given.
#[derive(Debug, Default, PartialEq)]
pub struct ProviderNames {
    /// The `required_providers` entries with a readable `source`, by local
    /// name (the first entry of a name in the primary files, replaced by
    /// override files' entries, as OpenTofu merges them). An entry without
    /// a source (or whose source does not parse) leaves the name implied.
    pub required: HashMap<String, ProviderAddress>,
    pub schemas: ProviderSchemas,
}

impl ProviderNames {
    /// The provider `local_name` stands for.
    pub fn address(&self, local_name: &str) -> ProviderAddress {
        self.required
            .get(local_name)
            .cloned()
            .unwrap_or_else(|| implied_provider(local_name))
    }

    /// The provider `local_name` stands for and its schema, if given.
    pub fn schema(&self, local_name: &str) -> (ProviderAddress, Option<&ProviderSchema>) {
        let address = self.address(local_name);
        let schema = self.schemas.get(&address).map(|schema| &**schema);
        (address, schema)
    }

    /// The provider function `name` (`provider::NAME::FUNCTION`, as
    /// written) from the schema of the provider NAME stands for.
    pub fn function(&self, name: &str) -> Option<tofu_eval::ProviderFunction> {
        let (local_name, function) = provider_function_name(name)?;
        let (address, schema) = self.schema(local_name);
        provider_function(&address, schema?, function)
    }

    /// The local names whose provider changed from `self` to `new`, and
    /// the providers whose schema changed.
    pub fn changes(&self, new: &ProviderNames) -> (Vec<String>, Vec<ProviderAddress>) {
        let mut names: Vec<String> = Vec::new();
        for (name, address) in &self.required {
            if new.required.get(name) != Some(address) {
                names.push(name.clone());
            }
        }
        for name in new.required.keys() {
            if !self.required.contains_key(name) {
                names.push(name.clone());
            }
        }
        (names, self.schemas.changed(&new.schemas))
    }
}

/// `provider::NAME::FUNCTION` or `provider::NAME::ALIAS::FUNCTION`: the
/// provider's local name and the function's name.
pub fn provider_function_name(name: &str) -> Option<(&str, &str)> {
    let parts: Vec<&str> = name.split("::").collect();
    match parts.as_slice() {
        ["provider", local_name, function] | ["provider", local_name, _, function] => {
            Some((local_name, function))
        }
        _ => None,
    }
}

/// Function `function` of `address`'s `schema`, as the evaluator calls it
/// (`tofu_eval::ProviderFunction`).
pub fn provider_function(
    address: &ProviderAddress,
    schema: &ProviderSchema,
    function: &str,
) -> Option<tofu_eval::ProviderFunction> {
    let spec = schema.functions.get(function)?;
    let parameter = |parameter: &tofu_schema::FunctionParameter| tofu_eval::ProviderParameter {
        name: parameter.name.to_string(),
        ty: parameter.ty.clone(),
        allow_null: parameter.allow_null_value,
        allow_unknown: parameter.allow_unknown_values,
    };
    Some(tofu_eval::ProviderFunction {
        provider: address.to_string(),
        function: function.to_owned(),
        parameters: spec.parameters.iter().map(parameter).collect(),
        variadic: spec.variadic_parameter.as_deref().map(parameter),
        return_type: spec.return_type.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_schema_is_a_changed_address() {
        let time = implied_provider("time");
        let mut before = ProviderSchemas::new();
        before.insert(time.clone(), Arc::new(ProviderSchema::default()));
        let same = before.clone();
        assert!(before.changed(&same).is_empty());
        assert_eq!(before, same);
        let mut other = ProviderSchema::default();
        other.provider.version = 2;
        let mut after = ProviderSchemas::new();
        after.insert(time.clone(), Arc::new(other));
        assert_eq!(before.changed(&after), vec![time.clone()]);
        assert_eq!(before.changed(&ProviderSchemas::new()), vec![time]);
    }
}

//! What a rule on one identity may know of the module's other declarations:
//! which names exist (variables, local values, module calls, resources of
//! each mode), whether a resource or module call repeats with `count` or
//! `for_each`, which `check` a data source is scoped to, which provider
//! local name a resource uses, and which provider each local name stands
//! for, with the schemas the analysis was given (`provider_schemas`).
//!
//! All of it follows from the shapes of the files, and is read through them
//! (`shape::BlockShape`: block kinds, labels, local names, whether a block
//! sets `count` or `for_each`, a module call's `source`), so it is built
//! once per shape and shared while every edit keeps its shape. After an edit that changes a shape, [`DeclaredNames::changes`]
//! says which names changed, and only the identities that asked about one
//! of them are judged again (`rules::views::NameReads`).

use std::sync::Arc;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use tofu_module::address::BlockAddress;
use tofu_module::calls::CalledModules;
use tofu_module::declarations::DeclaredModule;
use tofu_module::interface::ModuleInterface;
use tofu_module::merge::OverridePlan;
use tofu_module::module_files::ModuleFiles;
use tofu_module::provider_schemas::{ProviderNames, ProviderSchemas};
use tofu_module::provider_uses::{PassedProviders, ProviderUses};
use tofu_module::shape::{BlockShape, Repetition};
use tofu_schema::requirements::{implied_local_name, parse_source};
use tofu_schema::ProviderAddress;

/// A declared resource or module call, as other identities may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DeclaredObject {
    pub(crate) repetition: Repetition,
    /// The `check` block a data source is nested in.
    pub(crate) check: Option<String>,
    /// A resource's provider local name: its `provider` argument's, else
    /// its type's prefix (empty for a module call).
    pub(crate) provider: String,
    /// Whether one of a resource's blocks sets `provider` (in any form).
    pub(crate) provider_argument: bool,
}

/// The names the module declares.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct DeclaredNames {
    pub(crate) variables: Vec<String>,
    pub(crate) locals: Vec<String>,
    /// The same names, to look one up (a module with hundreds of names reads
    /// them from every reference).
    variable_set: HashSet<String>,
    local_set: HashSet<String>,
    /// Sorted (OpenTofu suggests module names in sorted order).
    pub(crate) modules: Vec<String>,
    pub(crate) objects: HashMap<BlockAddress, DeclaredObject>,
    /// What each module call's directory declares, when the tree knows it.
    pub(crate) children: HashMap<String, Arc<ModuleInterface>>,
    /// The directory of each module call `tofu init` installed, relative to
    /// this one (a local call's is its source).
    pub(crate) installed: HashMap<String, String>,
    /// Module calls whose source leads back up the tree.
    pub(crate) loops: HashSet<String>,
    /// Module calls whose local source names no readable directory.
    pub(crate) unreadable: HashSet<String>,
    /// What the modules of test files' runs declare, by `source` as
    /// written, when the tree knows it.
    pub(crate) test_modules: HashMap<String, Arc<ModuleInterface>>,
    /// Which provider each local name stands for, and their schemas.
    pub(crate) providers: ProviderNames,
    /// "Did you mean" answers given so far, by list and missing name: a
    /// misspelt name read in 500 places is compared with every declared name
    /// once, not 500 times. Names never change under it (a new set of names
    /// is a new `DeclaredNames`).
    pub(crate) suggestions: SuggestionCache,
    /// What functions read files through (the same for every name: a new
    /// one is a whole analysis).
    pub(crate) module_files: ModuleFiles,
    /// Every local name of a `required_providers` entry, with a source or
    /// without (what `provider::NAME::FUNC` may name).
    pub(crate) required_provider_names: HashSet<String>,
    /// Which provider configurations the module's blocks use.
    pub(crate) provider_uses: ProviderUses,
}

/// Which list of names a suggestion is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum NameList {
    Variables,
    Locals,
    Modules,
}

/// See [`DeclaredNames::suggestions`]; equal to any other (a cache).
#[derive(Debug, Default)]
pub(crate) struct SuggestionCache(std::sync::Mutex<HashMap<(NameList, String), Option<String>>>);

impl PartialEq for SuggestionCache {
    fn eq(&self, _: &SuggestionCache) -> bool {
        true
    }
}

impl DeclaredNames {
    /// The declared name of `list` closest to `given`, as
    /// [`tofu_module::expr::suggest::did_you_mean`] picks it (memoized).
    pub(crate) fn suggest(&self, list: NameList, given: &str) -> Option<String> {
        let key = (list, given.to_owned());
        if let Ok(cache) = self.suggestions.0.lock() {
            if let Some(found) = cache.get(&key) {
                return found.clone();
            }
        }
        let names = match list {
            NameList::Variables => &self.variables,
            NameList::Locals => &self.locals,
            NameList::Modules => &self.modules,
        };
        let found =
            tofu_module::expr::suggest::did_you_mean(given, names.iter().map(String::as_str))
                .map(str::to_owned);
        if let Ok(mut cache) = self.suggestions.0.lock() {
            cache.insert(key, found.clone());
        }
        found
    }
}

impl DeclaredNames {
    /// The names `module` declares, with the repetition its blocks (primary
    /// and override) give each resource and module call.
    pub(crate) fn of(
        module: &DeclaredModule,
        plan: &OverridePlan,
        tree: &CalledModules,
        schemas: &ProviderSchemas,
        module_files: &ModuleFiles,
    ) -> DeclaredNames {
        let mut names = DeclaredNames {
            module_files: module_files.clone(),
            required_provider_names: required_provider_names(module),
            providers: ProviderNames {
                required: required_providers(module),
                schemas: schemas.clone(),
            },
            test_modules: tree
                .test_modules
                .iter()
                .map(|(source, interface)| (source.clone(), Arc::clone(interface)))
                .collect(),
            ..DeclaredNames::default()
        };
        for declared in &module.declarations.blocks {
            let address = &declared.address;
            match address {
                BlockAddress::Variable(name) => names.variables.push(name.clone()),
                BlockAddress::Module(name) => names.modules.push(name.clone()),
                _ => {}
            }
            if !matches!(
                address,
                BlockAddress::Resource { .. } | BlockAddress::Module(_)
            ) {
                continue;
            }
            let blocks =
                std::iter::once(declared.kept).chain(plan.overrides_of(address).iter().copied());
            let mut repetition = Repetition::Single;
            let mut source = None;
            let mut provider_argument = false;
            let mut alias: Option<String> = None;
            let mut passed: Option<PassedProviders> = None;
            let mut provider = match address {
                BlockAddress::Resource { type_name, .. } => {
                    implied_local_name(type_name).to_owned()
                }
                _ => String::new(),
            };
            for block in blocks.filter_map(|block_ref| module.block(block_ref)) {
                let shape = BlockShape::of(block);
                if let Some(repeated) = shape.repetition() {
                    repetition = repeated;
                }
                if let Some(written) = shape.module_source() {
                    source = written.map(str::to_owned);
                }
                if let Some((local_name, written_alias)) = shape.provider_reference() {
                    local_name.clone_into(&mut provider);
                    alias = written_alias.map(str::to_owned);
                }
                if let Some(written) = shape.passed_providers() {
                    passed = Some(written.clone());
                }
                provider_argument |= shape.sets_provider();
            }
            match address {
                BlockAddress::Module(_) => names.provider_uses.add_call(passed.as_ref()),
                _ => names
                    .provider_uses
                    .add_resource(&provider, alias.as_deref()),
            }
            if let (BlockAddress::Module(name), Some(source)) = (address, &source) {
                if let Some(child) = tree.children.get(source) {
                    names.children.insert(name.clone(), Arc::clone(child));
                }
                if let Some(dir) = tree.installed.get(source) {
                    names.installed.insert(name.clone(), dir.clone());
                }
                if tree.loops.contains(source) {
                    names.loops.insert(name.clone());
                }
                if tree.unreadable.contains(source) {
                    names.unreadable.insert(name.clone());
                }
            }
            let check = declared.kept.nested.and_then(|_| {
                let check = module.block(tofu_module::loaded::BlockRef {
                    nested: None,
                    ..declared.kept
                })?;
                Some(check.labels.first()?.value.clone())
            });
            names.objects.insert(
                address.clone(),
                DeclaredObject {
                    repetition,
                    check,
                    provider,
                    provider_argument,
                },
            );
        }
        names.locals = module
            .declarations
            .locals
            .iter()
            .map(|local| local.name.clone())
            .collect();
        names.modules.sort();
        names.variable_set = names.variables.iter().cloned().collect();
        names.local_set = names.locals.iter().cloned().collect();
        names
    }

    pub(crate) fn has_variable(&self, name: &str) -> bool {
        self.variable_set.contains(name)
    }

    pub(crate) fn has_local(&self, name: &str) -> bool {
        self.local_set.contains(name)
    }

    /// Module call names are sorted.
    pub(crate) fn has_module(&self, name: &str) -> bool {
        self.modules
            .binary_search_by(|declared| declared.as_str().cmp(name))
            .is_ok()
    }

    /// What changed from `self` to `new`.
    pub(crate) fn changes(&self, new: &DeclaredNames) -> NameChanges {
        let symmetric = |old: &[String], new: &[String]| -> HashSet<String> {
            let old_set: HashSet<&String> = old.iter().collect();
            let new_set: HashSet<&String> = new.iter().collect();
            old_set
                .symmetric_difference(&new_set)
                .map(|name| (*name).clone())
                .collect()
        };
        let mut modules = symmetric(&self.modules, &new.modules);
        for (name, child) in &self.children {
            if new
                .children
                .get(name)
                .is_none_or(|other| !Arc::ptr_eq(child, other) && child != other)
            {
                modules.insert(name.clone());
            }
        }
        for name in new.children.keys() {
            if !self.children.contains_key(name) {
                modules.insert(name.clone());
            }
        }
        modules.extend(self.loops.symmetric_difference(&new.loops).cloned());
        modules.extend(
            self.unreadable
                .symmetric_difference(&new.unreadable)
                .cloned(),
        );
        for (name, dir) in &self.installed {
            if new.installed.get(name) != Some(dir) {
                modules.insert(name.clone());
            }
        }
        for name in new.installed.keys() {
            if !self.installed.contains_key(name) {
                modules.insert(name.clone());
            }
        }
        let mut objects = HashSet::default();
        for (address, declared) in &self.objects {
            if new.objects.get(address) != Some(declared) {
                objects.insert(address.clone());
            }
        }
        for address in new.objects.keys() {
            if !self.objects.contains_key(address) {
                objects.insert(address.clone());
            }
        }
        let (mut provider_names, providers) = self.providers.changes(&new.providers);
        provider_names.extend(
            self.required_provider_names
                .symmetric_difference(&new.required_provider_names)
                .cloned(),
        );
        NameChanges {
            variables: symmetric(&self.variables, &new.variables),
            locals: symmetric(&self.locals, &new.locals),
            modules,
            objects,
            provider_names: provider_names.into_iter().collect(),
            providers: providers.into_iter().collect(),
            provider_uses: self.provider_uses != new.provider_uses,
        }
    }
}

/// The module's `required_providers` entries with a readable source, by
/// local name: the first of a name in the primary files, then each
/// override file's entries in place of those (OpenTofu reports a second
/// entry of a name in the primary files, and keeps the first).
pub(crate) fn required_providers(module: &DeclaredModule) -> HashMap<String, ProviderAddress> {
    let mut required: HashMap<String, ProviderAddress> = HashMap::default();
    let mut seen: HashSet<String> = HashSet::default();
    for (files, overriding) in [(&module.primary, false), (&module.overrides, true)] {
        for &file_id in files {
            let Some(source) = module.file(file_id).and_then(|file| file.source.as_deref()) else {
                continue;
            };
            for block in source.body.blocks_of_kind("terraform") {
                for &(local_name, written) in BlockShape::of(block).required_providers() {
                    if !overriding && !seen.insert(local_name.to_owned()) {
                        continue;
                    }
                    match written.and_then(parse_source) {
                        Some(address) => {
                            required.insert(local_name.to_owned(), address);
                        }
                        None => {
                            required.remove(local_name);
                        }
                    }
                }
            }
        }
    }
    required
}

/// Every local name a `required_providers` entry of the module declares
/// (primary and override files), whatever its source.
fn required_provider_names(module: &DeclaredModule) -> HashSet<String> {
    let mut names: HashSet<String> = HashSet::default();
    for &file_id in module.primary.iter().chain(&module.overrides) {
        let Some(source) = module.file(file_id).and_then(|file| file.source.as_deref()) else {
            continue;
        };
        for block in source.body.blocks_of_kind("terraform") {
            for &(local_name, _) in BlockShape::of(block).required_providers() {
                names.insert(local_name.to_owned());
            }
        }
    }
    names
}

/// The names whose declaration changed between two shapes.
#[derive(Debug, Default)]
pub(crate) struct NameChanges {
    pub(crate) variables: HashSet<String>,
    pub(crate) locals: HashSet<String>,
    pub(crate) modules: HashSet<String>,
    pub(crate) objects: HashSet<BlockAddress>,
    /// Local names that stand for another provider now.
    pub(crate) provider_names: HashSet<String>,
    /// Providers whose schema was given, taken away or replaced.
    pub(crate) providers: HashSet<ProviderAddress>,
    /// Which provider configurations the blocks use changed.
    pub(crate) provider_uses: bool,
}

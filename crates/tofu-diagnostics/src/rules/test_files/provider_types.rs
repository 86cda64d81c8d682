//! "Provider type mismatch" between a test file's providers and the
//! module under test (OpenTofu's `resolveProviderTypesForTests` and
//! `validateProviderConfigsForTests`, while the configuration is built, so
//! `tofu init` stops on it too).
//!
//! OpenTofu gives each `provider` block of a test file a provider type
//! from the first run that uses its name: a run with `providers` takes the
//! type the module means by the entry's key, a run without takes the
//! module's types by name (its `required_providers` entries and provider
//! blocks); a name no run claims keeps its default type. Then each run
//! against the module is checked: an entry whose configuration was given
//! another type by an earlier run is on the entry's value; without
//! `providers`, a test provider block whose type differs from the
//! module's requirement or provider block of its name is on the block.
//!
//! A run with a `module` block runs another module (its
//! `ConfigUnderTest`): the types by name come from that module's
//! `required_providers` entries and provider blocks, read from the module
//! tree (`tofu_module::calls::CalledModules::test_modules`); nothing is
//! checked on such a run itself (OpenTofu validates that module as a root,
//! which reports nothing of the test file's providers). A file with a run
//! whose module the tree does not give (not a local path, a directory
//! that cannot be read, one that leads back here, or one that did not
//! load) is not judged: its types could come from that module.

use std::collections::BTreeMap;

use tofu_syntax::{Block, Diagnostic, Location};

use super::in_test_file::TestFileScope;
use crate::rules::views::ModuleView;
use tofu_module::provider_tree::facts::{passed_providers, ModuleFacts, Passed};
use tofu_module::provider_tree::summary::ProviderSummary;
use tofu_module::provider_tree::{provider_key, ProviderType};
use tofu_syntax::go_text::go_quote;

/// A `provider` block of the test file.
struct TestProvider {
    name: String,
    key: String,
    header: Location,
}

/// A run, with its `providers` entries and, for a run of another module,
/// the types that module's names stand for.
struct Run {
    passed: Vec<Passed>,
    module: Option<ProviderTypes>,
}

/// A module's local names with the provider each stands for
/// (`resolveProviderTypes`): its `required_providers` entries, and the
/// default provider of a name only a provider block gives.
struct ProviderTypes(BTreeMap<String, ProviderType>);

impl ProviderTypes {
    fn of<'n>(
        required: impl Iterator<Item = (&'n str, &'n ProviderType)>,
        configured: impl Iterator<Item = &'n str>,
    ) -> ProviderTypes {
        let mut types: BTreeMap<String, ProviderType> = required
            .map(|(name, provider)| (name.to_owned(), provider.clone()))
            .collect();
        for name in configured {
            types
                .entry(name.to_owned())
                .or_insert_with(|| ProviderType::default_for(name));
        }
        ProviderTypes(types)
    }

    fn of_module(facts: &ModuleFacts) -> ProviderTypes {
        ProviderTypes::of(
            facts
                .required
                .iter()
                .map(|r| (r.name.as_str(), &r.provider)),
            facts.configurations.iter().map(|c| c.name.as_str()),
        )
    }

    fn of_summary(summary: &ProviderSummary) -> ProviderTypes {
        ProviderTypes::of(
            summary
                .required
                .iter()
                .map(|r| (r.name.as_str(), &r.provider)),
            summary.configurations.iter().map(|c| c.name.as_str()),
        )
    }

    fn get(&self, name: &str) -> Option<&ProviderType> {
        self.0.get(name)
    }
}

/// The checks of one test file against the module of `facts`; the
/// modules of runs with a `module` block come from `view`'s tree.
pub(super) fn file(
    view: &ModuleView<'_>,
    scope: &TestFileScope<'_>,
    facts: &ModuleFacts,
    out: &mut Vec<Diagnostic>,
) {
    let Some(source) = &scope.file.source else {
        return;
    };
    let mut providers: Vec<TestProvider> = Vec::new();
    for block in source.body.blocks_of_kind("provider") {
        let Some(name) = block.label(0) else {
            continue;
        };
        let key = provider_key(name, alias_of(block).as_deref());
        if providers.iter().any(|provider| provider.key == key) {
            continue;
        }
        providers.push(TestProvider {
            name: name.to_owned(),
            key,
            header: scope.at(block.header),
        });
    }
    let mut runs: Vec<Run> = Vec::new();
    for run in source.body.blocks_of_kind("run") {
        let module = match run.body.blocks_of_kind("module").next() {
            None => None,
            Some(block) => {
                let called = block
                    .body
                    .attribute("source")
                    .and_then(|attribute| attribute.expr.as_str())
                    .and_then(|written| view.test_module(written));
                // A module that failed to load, or whose tree did, stops
                // OpenTofu before it resolves any type.
                match called {
                    Some(called) if !called.incomplete && !called.providers.tree_failed => {
                        Some(ProviderTypes::of_summary(&called.providers))
                    }
                    _ => return,
                }
            }
        };
        let passed = run
            .body
            .attribute("providers")
            .map(|attribute| passed_providers(scope.id, scope.file, &attribute.expr))
            .unwrap_or_default();
        runs.push(Run { passed, module });
    }
    let root_types = ProviderTypes::of_module(facts);
    let has_test_provider = |name: &str| providers.iter().any(|p| p.name == name);
    // `resolveProviderTypesForTests`.
    let mut matched: BTreeMap<String, ProviderType> = BTreeMap::new();
    // Each run's entries with (parent type, child type).
    let mut typed: Vec<Vec<(ProviderType, ProviderType)>> = Vec::new();
    for run in &runs {
        let types = run.module.as_ref().unwrap_or(&root_types);
        let mut entries = Vec::new();
        if run.passed.is_empty() {
            for (name, provider) in &types.0 {
                if matched.contains_key(name) || !has_test_provider(name) {
                    continue;
                }
                matched.insert(name.clone(), provider.clone());
            }
        }
        for passed in &run.passed {
            let child = types
                .get(&passed.in_child.name)
                .cloned()
                .unwrap_or_else(|| ProviderType::default_for(&passed.in_child.name));
            let parent_name = &passed.in_parent.name;
            let parent = match matched.get(parent_name) {
                Some(provider) => provider.clone(),
                None => {
                    if has_test_provider(parent_name) {
                        matched.insert(parent_name.clone(), child.clone());
                    }
                    child.clone()
                }
            };
            entries.push((parent, child));
        }
        typed.push(entries);
    }
    let type_of = |provider: &TestProvider| {
        matched
            .get(&provider.name)
            .cloned()
            .unwrap_or_else(|| ProviderType::default_for(&provider.name))
    };
    let test_provider = |key: &str| providers.iter().find(|p| p.key == key);
    let file_name = &scope.file.name;
    let mismatch = |at: Location, detail: String| {
        Diagnostic::new(
            crate::codes::PROVIDER_TYPE_MISMATCH,
            "Provider type mismatch",
            at,
        )
        .with_detail(detail)
    };
    let same_name = |key: &str, provider: &ProviderType, root_name: &str, root: &ProviderType| {
        format!(
            "The provider {} in {file_name} represents provider {}, but {} in the root module represents {}.\n\nThis means the provider definition for {} within {file_name}, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types.",
            go_quote(key), go_quote(&provider.to_string()), go_quote(root_name), go_quote(&root.to_string()), go_quote(key)
        )
    };
    // `validateProviderConfigsForTests`: the runs against the module under
    // test.
    for (run, entries) in runs.iter().zip(&typed) {
        if run.module.is_some() {
            continue;
        }
        if !run.passed.is_empty() {
            for (passed, (parent, child)) in run.passed.iter().zip(entries) {
                if parent == child {
                    continue;
                }
                let parent_name = &passed.in_parent.name;
                out.push(mismatch(
                    passed.in_parent.name_at,
                    format!(
                        "The local name {} in {file_name} represents provider {}, but {} in the root module represents {}.\n\nThis means the provider definition for {} within {file_name}, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types.",
                        go_quote(parent_name), go_quote(&parent.to_string()), go_quote(&passed.in_child.name), go_quote(&child.to_string()), go_quote(parent_name)
                    ),
                ));
            }
            continue;
        }
        for required in &facts.required {
            let keys = std::iter::once(required.name.clone()).chain(required.alias_keys.clone());
            for key in keys {
                let Some(provider) = test_provider(&key) else {
                    continue;
                };
                let provider_type = type_of(provider);
                if provider_type != required.provider {
                    out.push(mismatch(
                        provider.header,
                        same_name(&provider.key, &provider_type, &key, &required.provider),
                    ));
                }
            }
        }
        for configuration in &facts.configurations {
            let key = configuration.key();
            let Some(provider) = test_provider(&key) else {
                continue;
            };
            let root = facts.required(&configuration.name).map_or_else(
                || ProviderType::default_for(&configuration.name),
                |r| r.provider.clone(),
            );
            let provider_type = type_of(provider);
            if provider_type != root {
                out.push(mismatch(
                    provider.header,
                    format!(
                        "The provider {} in {file_name} represents provider {}, but {} in the root module represents {}.\n\nThis means the provider definition for {} within {file_name} has been referenced by multiple run blocks and assigned to different provider types.",
                        go_quote(&provider.key), go_quote(&provider_type.to_string()), go_quote(&key), go_quote(&root.to_string()), go_quote(&provider.key)
                    ),
                ));
            }
        }
    }
}

/// A test provider block's `alias`, when it is a plain string.
fn alias_of(block: &Block) -> Option<String> {
    let attribute = block.body.attribute("alias")?;
    attribute.expr.as_str().map(str::to_owned)
}

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
//! A run with a `module` block is the configuration of another module,
//! which this directory's analysis does not read: a file with one is not
//! judged (its types could come from that module).

use std::collections::BTreeMap;

use tofu_syntax::{Block, Diagnostic, Location};

use super::in_test_file::TestFileScope;
use tofu_module::provider_tree::facts::{passed_providers, ModuleFacts, Passed};
use tofu_module::provider_tree::{provider_key, ProviderType};
use tofu_syntax::go_text::go_quote;

/// A `provider` block of the test file.
struct TestProvider {
    name: String,
    key: String,
    header: Location,
}

/// A run against the module under test, with its `providers` entries.
struct MainRun {
    passed: Vec<Passed>,
}

/// The checks of one test file against the module of `facts`.
pub(super) fn file(scope: &TestFileScope<'_>, facts: &ModuleFacts, out: &mut Vec<Diagnostic>) {
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
    let mut runs: Vec<MainRun> = Vec::new();
    for run in source.body.blocks_of_kind("run") {
        if run.body.blocks_of_kind("module").next().is_some() {
            return;
        }
        let passed = run
            .body
            .attribute("providers")
            .map(|attribute| passed_providers(scope.id, scope.file, &attribute.expr))
            .unwrap_or_default();
        runs.push(MainRun { passed });
    }
    // `resolveProviderTypes`: the module's names, by required_providers
    // entry, else (a provider block) the default provider of the name.
    let module_type = |name: &str| -> Option<ProviderType> {
        facts
            .required(name)
            .map(|r| r.provider.clone())
            .or_else(|| {
                facts
                    .configurations
                    .iter()
                    .any(|c| c.name == name)
                    .then(|| ProviderType::default_for(name))
            })
    };
    let mut module_names: Vec<String> = facts.required.iter().map(|r| r.name.clone()).collect();
    for configuration in &facts.configurations {
        if !module_names.contains(&configuration.name) {
            module_names.push(configuration.name.clone());
        }
    }
    let has_test_provider = |name: &str| providers.iter().any(|p| p.name == name);
    // `resolveProviderTypesForTests`.
    let mut matched: BTreeMap<String, ProviderType> = BTreeMap::new();
    // Each run's entries with (parent type, child type).
    let mut typed: Vec<Vec<(ProviderType, ProviderType)>> = Vec::new();
    for run in &runs {
        let mut entries = Vec::new();
        if run.passed.is_empty() {
            for name in &module_names {
                if matched.contains_key(name) || !has_test_provider(name) {
                    continue;
                }
                if let Some(provider) = module_type(name) {
                    matched.insert(name.clone(), provider);
                }
            }
        }
        for passed in &run.passed {
            let child = module_type(&passed.in_child.name)
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
    for (run, entries) in runs.iter().zip(&typed) {
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

//! The references of a provider configuration are judged with its
//! provider's schema, and what judging them asked about is recorded: an
//! edit in another file that declares (or removes) the variable a
//! configuration reads judges it again on the incremental road.

// A test's helpers may fail loudly on the fixture schema they read.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use tofu_diagnostics::{analyze_in_tree, AnalysisCache, ModuleAnalysis};
use tofu_module::calls::CalledModules;
use tofu_module::provider_schemas::ProviderSchemas;
use tofu_module::{Config, InputFile};
use tofu_schema::decode_providers_schema_json;

const VERSIONS: &str = "terraform {\n  required_providers {\n    openstack = {\n      source = \"terraform-provider-openstack/openstack\"\n    }\n  }\n}\n";

const MAIN: &str = "provider \"openstack\" {\n  region = var.region\n}\n\nresource \"openstack_compute_keypair_v2\" \"k\" {\n  name = \"k\"\n}\n";

/// The schemas of the provider-schema fixtures (hashicorp/time and
/// terraform-provider-openstack/openstack).
fn fixture_schemas() -> ProviderSchemas {
    let text = include_str!("../../../tests/fixtures/provider-schemas/schemas.json");
    let mut schemas = ProviderSchemas::new();
    for (address, schema) in decode_providers_schema_json(text).unwrap() {
        schemas.insert(address, Arc::new(schema));
    }
    schemas
}

fn analysed(
    variables: &str,
    schemas: &ProviderSchemas,
    cache: &mut AnalysisCache,
) -> ModuleAnalysis {
    let files = [
        InputFile::text("versions.tf", VERSIONS),
        InputFile::text("main.tf", MAIN),
        InputFile::text("variables.tf", variables),
    ];
    analyze_in_tree(
        &files,
        &Config::default(),
        &CalledModules::default(),
        schemas,
        cache,
    )
}

fn summaries(analysis: &ModuleAnalysis) -> Vec<String> {
    analysis
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.summary.clone())
        .collect()
}

#[test]
fn declaring_the_variable_a_provider_configuration_reads_clears_the_error() {
    let schemas = fixture_schemas();
    let undeclared = vec!["Reference to undeclared input variable".to_owned()];
    let mut cache = AnalysisCache::new();
    assert_eq!(summaries(&analysed("", &schemas, &mut cache)), undeclared);
    let declared = "variable \"region\" {}\n";
    assert_eq!(
        summaries(&analysed(declared, &schemas, &mut cache)),
        Vec::<String>::new()
    );
    assert_eq!(summaries(&analysed("", &schemas, &mut cache)), undeclared);
}

#[test]
fn without_the_providers_schema_nothing_of_its_configuration_is_judged() {
    let analysis = analysed("", &ProviderSchemas::default(), &mut AnalysisCache::new());
    assert_eq!(summaries(&analysis), Vec::<String>::new());
}

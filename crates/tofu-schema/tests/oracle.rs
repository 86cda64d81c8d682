//! The acceptance test against OpenTofu: the schema tofu-lens reads by
//! starting the real providers equals what `tofu providers schema -json`
//! printed for them, as JSON values (every type, attribute, block and
//! flag), apart from the keys tofu-lens adds for what OpenTofu drops.
//!
//! It runs when `TOFU_LENS_PROVIDER_ORACLE` names the oracle directory
//! (`plugins/` laid out for `tofu init -plugin-dir`, `schema-time.json`,
//! `schema-openstack.json`; see /work/oracle/README.txt for how it is
//! built) and otherwise passes after saying why it did nothing.

// Helpers of a test: a failed unwrap is a failing test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use tofu_schema::plugin::{ProviderClient, Timeouts};
use tofu_schema::{
    encode_providers_schema_json, ByName, DescriptionKind, Function, FunctionParameter,
    ProviderAddress, ProviderSchema,
};

fn oracle_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("TOFU_LENS_PROVIDER_ORACLE")?);
    dir.join("plugins").is_dir().then_some(dir)
}

/// Clears what OpenTofu's output leaves out (so the encoder writes no
/// extra keys for it).
fn without_what_opentofu_drops(mut schema: ProviderSchema) -> ProviderSchema {
    schema.provider_meta = None;
    let functions: Vec<(Box<str>, Function)> = schema
        .functions
        .iter()
        .map(|(name, function)| {
            let mut function = function.clone();
            function.description.kind = DescriptionKind::Plain;
            function.deprecation_message = Box::default();
            let clear = |parameter: &mut FunctionParameter| {
                parameter.allow_unknown_values = false;
                parameter.description.kind = DescriptionKind::Plain;
            };
            function.parameters.iter_mut().for_each(clear);
            function
                .variadic_parameter
                .iter_mut()
                .for_each(|parameter| clear(parameter));
            (Box::from(name), function)
        })
        .collect();
    schema.functions = ByName::from_unsorted(functions);
    schema
}

fn check_provider(oracle: &Path, address: &str, version: &str, schema_file: &str) {
    let address = ProviderAddress::parse(address).unwrap();
    let executable = oracle
        .join("plugins")
        .join(&address.hostname)
        .join(&address.namespace)
        .join(&address.type_name)
        .join(version)
        .join("linux_amd64")
        .join(format!(
            "terraform-provider-{}_v{version}",
            address.type_name
        ));
    let mut client = ProviderClient::start(&executable, None, Timeouts::default()).unwrap();
    let schema = without_what_opentofu_drops(client.read_schema().unwrap());
    client.shutdown();
    let ours = encode_providers_schema_json(&[(&address, &schema)]);
    let theirs = std::fs::read_to_string(oracle.join(schema_file)).unwrap();
    let parse = |text| {
        jsonc_parser::parse_to_value(text, &Default::default())
            .unwrap()
            .unwrap()
    };
    assert!(
        parse(&ours) == parse(&theirs),
        "{address}: the schema differs from {schema_file}; run scripts/compare_schemas.py for where"
    );
}

#[test]
fn schemas_read_from_the_real_providers_equal_opentofus() {
    let Some(oracle) = oracle_dir() else {
        eprintln!("TOFU_LENS_PROVIDER_ORACLE does not name the oracle directory: nothing compared");
        return;
    };
    check_provider(&oracle, "hashicorp/time", "0.14.2", "schema-time.json");
    check_provider(
        &oracle,
        "terraform-provider-openstack/openstack",
        "3.4.0",
        "schema-openstack.json",
    );
}

#[test]
fn package_hashes_equal_the_lock_files_that_tofu_init_wrote() {
    let Some(oracle) = oracle_dir() else {
        eprintln!("TOFU_LENS_PROVIDER_ORACLE does not name the oracle directory: nothing compared");
        return;
    };
    for (lock_file, package) in [
        (
            "locks/m1-time.terraform.lock.hcl",
            "plugins/registry.opentofu.org/hashicorp/time/0.14.2/linux_amd64",
        ),
        (
            "locks/m2-openstack.terraform.lock.hcl",
            "plugins/registry.opentofu.org/terraform-provider-openstack/openstack/3.4.0/linux_amd64",
        ),
    ] {
        let text = std::fs::read_to_string(oracle.join(lock_file)).unwrap();
        let locked = tofu_schema::install::parse_lock_file(&text);
        let hash = tofu_schema::install::package_hash_v1(&oracle.join(package)).unwrap();
        assert_eq!(locked[0].hashes, [hash], "{lock_file}");
    }
}

#[test]
fn a_schema_read_once_comes_from_the_cache_after() {
    let Some(oracle) = oracle_dir() else {
        eprintln!("TOFU_LENS_PROVIDER_ORACLE does not name the oracle directory: nothing compared");
        return;
    };
    use tofu_schema::install::{parse_lock_file, Platform, SearchDirs};
    use tofu_schema::{read_provider_schema, SchemaCache, SchemaOrigin, SchemaRequest};
    let lock = std::fs::read_to_string(oracle.join("locks/m1-time.terraform.lock.hcl")).unwrap();
    let locked = parse_lock_file(&lock).remove(0);
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = SchemaCache::new(cache_dir.path());
    let search = SearchDirs {
        plugin_cache_dir: Some(oracle.join("plugins")),
        ..SearchDirs::default()
    };
    let request = SchemaRequest {
        address: &locked.address,
        search: &search,
        platform: &Platform::parse("linux_amd64").unwrap(),
        locked: Some(&locked),
        accepts: &|_| true,
        cache: Some(&cache),
        run_providers: true,
        socket_dir: Some(cache_dir.path()),
        timeouts: Timeouts::default(),
    };
    let first = read_provider_schema(&request).unwrap();
    assert_eq!(first.origin, SchemaOrigin::Provider);
    assert!(first.cache_store_error.is_none());
    let second = read_provider_schema(&request).unwrap();
    assert_eq!(second.origin, SchemaOrigin::Cache);
    assert_eq!(second.schema, first.schema);
    // With running turned off, the cache still answers.
    let offline = SchemaRequest {
        run_providers: false,
        ..request
    };
    assert_eq!(
        read_provider_schema(&offline).unwrap().origin,
        SchemaOrigin::Cache
    );
    // A corrupt entry is read again from the provider and replaced.
    let entry = cache.entry_path(&tofu_schema::CacheKey {
        address: locked.address.clone(),
        version: first.package.version.clone(),
        package_hash: first.package_hash.clone(),
    });
    std::fs::write(&entry, "{").unwrap();
    let request = SchemaRequest {
        run_providers: true,
        ..offline
    };
    assert_eq!(
        read_provider_schema(&request).unwrap().origin,
        SchemaOrigin::Provider
    );
    assert_eq!(
        read_provider_schema(&request).unwrap().origin,
        SchemaOrigin::Cache
    );
}

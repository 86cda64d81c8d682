//! The real hashicorp/time provider (v0.14.2, protocol 6, plugin
//! framework) judging configurations tofu-lens writes: known values,
//! unknown ones (as `tofu validate` has them for variables), written as
//! msgpack for the schema the provider itself gave.
//!
//! The provider comes from a directory laid out as `tofu init
//! -plugin-dir` expects: `TOFU_LENS_PROVIDER_PLUGINS` (CI builds it there,
//! `.ci/run`), else `TOFU_LENS_PROVIDER_ORACLE/plugins`. With neither set
//! each test says so and passes; with one set and no provider in it, it
//! fails.

// Helpers of a test: a failed unwrap is a failing test, and a skipped test
// says why on stderr.
#![allow(clippy::unwrap_used, clippy::print_stderr)]

use std::path::PathBuf;

use tofu_eval::{Type, Value};
use tofu_schema::install::Platform;
use tofu_schema::plugin::messages::{AttributePathStep, DiagnosticSeverity};
use tofu_schema::plugin::{DynamicValue, ProviderClient, ProviderDiagnostic, Timeouts};
use tofu_schema::ProviderSchema;

mod common;

/// The time provider's executable, when a plugin directory is named.
fn time_provider() -> Option<PathBuf> {
    let plugins = common::plugins_dir()?;
    let executable = plugins
        .join("registry.opentofu.org/hashicorp/time/0.14.2")
        .join(Platform::current().dir_name())
        .join("terraform-provider-time_v0.14.2");
    assert!(
        executable.is_file(),
        "{} is not there: the plugin directory lacks hashicorp/time 0.14.2",
        executable.display()
    );
    Some(executable)
}

struct TimeProvider {
    client: ProviderClient,
    schema: ProviderSchema,
}

impl TimeProvider {
    fn start() -> Option<TimeProvider> {
        let Some(executable) = time_provider() else {
            eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
            return None;
        };
        let mut client = ProviderClient::start(&executable, None, Timeouts::default()).unwrap();
        let schema = client.read_schema().unwrap();
        Some(TimeProvider { client, schema })
    }

    /// `ValidateResourceConfig` on `attributes` (the rest null).
    fn validate(
        &mut self,
        type_name: &str,
        attributes: Vec<(&str, Value)>,
    ) -> Vec<ProviderDiagnostic> {
        let block = &self.schema.resource_types.get(type_name).unwrap().block;
        let object = Value::object(
            attributes
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect(),
        );
        let config = DynamicValue::from_config(&object, block).unwrap();
        self.client
            .validate_resource_config(type_name, &config)
            .unwrap()
    }
}

fn string(text: &str) -> Value {
    Value::string(text)
}

fn summaries(diagnostics: &[ProviderDiagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|diagnostic| format!("{:?} {}", diagnostic.severity, diagnostic.summary))
        .collect()
}

#[test]
fn a_known_value_the_providers_validator_refuses_is_reported_on_its_attribute() {
    let Some(mut provider) = TimeProvider::start() else {
        return;
    };
    let diagnostics = provider.validate("time_sleep", vec![("create_duration", string("10x"))]);
    assert_eq!(
        summaries(&diagnostics),
        ["Error Invalid Attribute Value Match"]
    );
    assert!(
        diagnostics[0]
            .detail
            .starts_with("Attribute create_duration must be a number immediately followed by ms"),
        "{}",
        diagnostics[0].detail
    );
    assert_eq!(
        diagnostics[0].attribute,
        [AttributePathStep::AttributeName("create_duration".into())]
    );
    assert!(provider
        .validate("time_sleep", vec![("create_duration", string("30s"))])
        .is_empty());
    provider.client.shutdown();
}

#[test]
fn unknown_values_pass_the_validators_that_known_ones_fail() {
    let Some(mut provider) = TimeProvider::start() else {
        return;
    };
    // As `tofu validate` has a variable: unknown, so not judged.
    let unknown = provider.validate(
        "time_sleep",
        vec![
            ("create_duration", Value::unknown(Type::String)),
            ("triggers", Value::unknown(Type::map(Type::String))),
        ],
    );
    assert_eq!(summaries(&unknown), Vec::<String>::new());
    // Refined unknowns (not null) are read as well.
    let refined = provider.validate(
        "time_static",
        vec![("rfc3339", Value::unknown_not_null(Type::String))],
    );
    assert_eq!(summaries(&refined), Vec::<String>::new());
    let known = provider.validate("time_static", vec![("rfc3339", string("yesterday"))]);
    assert_eq!(summaries(&known).len(), 1, "{known:?}");
    assert_eq!(known[0].severity, DiagnosticSeverity::Error);
    provider.client.shutdown();
}

#[test]
fn an_unknown_argument_counts_as_set_where_a_null_one_does_not() {
    let Some(mut provider) = TimeProvider::start() else {
        return;
    };
    let missing = "Error Missing Attribute Configuration";
    assert_eq!(
        summaries(&provider.validate("time_rotating", vec![])),
        [missing]
    );
    let null = Value::null(Type::Number);
    assert_eq!(
        summaries(&provider.validate("time_rotating", vec![("rotation_days", null)])),
        [missing]
    );
    let unknown = Value::unknown(Type::Number);
    assert!(provider
        .validate("time_rotating", vec![("rotation_days", unknown)])
        .is_empty());
    let negative = provider.validate("time_rotating", vec![("rotation_days", Value::int(-1))]);
    assert_eq!(negative.len(), 1);
    assert_eq!(
        negative[0].detail,
        "Attribute rotation_days value must be at least 1, got: -1"
    );
    provider.client.shutdown();
}

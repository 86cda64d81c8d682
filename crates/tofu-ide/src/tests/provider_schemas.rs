//! Completion and hover from a provider's schema: the schemas of
//! hashicorp/time 0.14.2 and terraform-provider-openstack 3.4.0 as
//! `tofu providers schema -json` wrote them (the fixtures' shared file).

use std::path::Path;
use std::sync::Arc;

use tofu_module::ProviderSchemas;

fn schemas() -> ProviderSchemas {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/provider-schemas/schemas.json");
    let text = std::fs::read_to_string(path).unwrap();
    let mut schemas = ProviderSchemas::new();
    for (address, schema) in tofu_schema::decode_providers_schema_json(&text).unwrap() {
        schemas.insert(address, Arc::new(schema));
    }
    schemas
}

const VERSIONS: &str = "//- versions.tf\nterraform {\n  required_providers {\n    openstack = {\n      source = \"terraform-provider-openstack/openstack\"\n    }\n  }\n}\n";

fn complete(text: &str) -> Vec<String> {
    super::complete_with_schemas(text, &schemas())
}

fn hover(text: &str) -> String {
    super::hover_with_schemas(text, &schemas())
}

#[test]
fn resource_types_complete_by_the_module_s_local_names() {
    // Every type of the mode; the editor filters by what is typed.
    let found = complete(&format!("{VERSIONS}//- main.tf\nresource \"time_s$0\n"));
    let time: Vec<&str> = found
        .iter()
        .filter(|item| item.starts_with("time_"))
        .map(|item| item.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        time,
        ["time_offset", "time_rotating", "time_sleep", "time_static"]
    );
    // openstack's 108, time's 4 and the built-in provider's terraform_data
    // (known without a plugin).
    assert_eq!(found.len(), 108 + 4 + 1);
    assert!(
        found.iter().any(|item| item.starts_with("terraform_data ")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|item| item.starts_with("time_sleep [time_s] ")),
        "{found:?}"
    );
    // openstack's data sources, through its required_providers entry.
    let data = complete(&format!(
        "{VERSIONS}//- main.tf\ndata \"openstack_compute_f$0\n"
    ));
    assert!(
        data.iter()
            .any(|item| item.starts_with("openstack_compute_flavor_v2 [openstack_compute_f]")),
        "{data:?}"
    );
    assert!(!data.iter().any(|item| item.starts_with("time_")));
}

/// Right after the `resource` keyword's snippet, or a `resource "` typed
/// by hand, the type label completes: from its opening quote, with or
/// without the rest of the header after the cursor.
#[test]
fn the_type_label_completes_right_after_the_keyword() {
    let types = |text: &str| -> Vec<String> {
        complete(&format!("{VERSIONS}{text}"))
            .into_iter()
            .filter(|item| item.starts_with("time_"))
            .map(|item| item.rsplit_once(']').unwrap().0.to_owned() + "]")
            .collect()
    };
    let all = [
        "time_offset []",
        "time_rotating []",
        "time_sleep []",
        "time_static []",
    ];
    assert_eq!(types("//- main.tf\nresource \"$0"), all);
    assert_eq!(types("//- main.tf\nresource \"$0\""), all);
    // The snippet as inserted, its first placeholder being typed over.
    assert_eq!(
        types("//- main.tf\nvariable \"a\" {}\n\nresource \"$0\" \"name\" {\n  \n}\n"),
        all
    );
    // Every type, replacing what is typed (the editor filters).
    assert_eq!(
        types("//- main.tf\nresource \"time_s$0\" \"name\" {\n  \n}\n"),
        all.map(|item| item.replace("[]", "[time_s]"))
    );
    // Data sources and ephemeral resources the same way (time has none:
    // openstack's data sources stand for them).
    let data = complete(&format!(
        "{VERSIONS}//- main.tf\ndata \"$0\" \"name\" {{\n}}\n"
    ));
    assert!(
        data.iter()
            .any(|item| item.starts_with("openstack_compute_flavor_v2 [] ")),
        "{data:?}"
    );
}

#[test]
fn a_resource_body_completes_its_arguments_and_blocks_required_first() {
    let found = complete(&format!(
        "{VERSIONS}//- main.tf\nresource \"openstack_compute_keypair_v2\" \"k\" {{\n  region = \"r\"\n  $0\n}}\n"
    ));
    assert_eq!(
        found.iter().take(4).map(String::as_str).collect::<Vec<_>>(),
        [
            "name [] string, required",
            "public_key [] string, optional, computed",
            "user_id [] string, optional, computed",
            "value_specs [] map of string, optional",
        ]
    );
    // Set already: not offered; meta-arguments still are.
    assert!(!found.iter().any(|item| item.starts_with("region ")));
    assert!(found.iter().any(|item| item.starts_with("count ")));
    // A repeatable block is offered even when written; a block's required
    // arguments come with it.
    let instance = complete(&format!(
        "{VERSIONS}//- main.tf\nresource \"openstack_compute_instance_v2\" \"i\" {{\n  network {{\n  }}\n  $0\n}}\n"
    ));
    assert!(instance.iter().any(|item| item == "network [] block, list"));
    assert!(instance
        .iter()
        .any(|item| item == "vendor_options [] block, set, at most 1"));
}

#[test]
fn a_completion_from_the_schema_carries_its_description() {
    let (snapshot, path, offset) = super::fixture_with_schemas(
        "//- main.tf\nresource \"time_rotating\" \"r\" {\n  rot$0\n}\n",
        &schemas(),
    );
    let documentation = |label: &str| {
        snapshot
            .completions(&path, offset)
            .into_iter()
            .find(|item| item.label == label)
            .and_then(|item| item.documentation())
    };
    assert_eq!(
        documentation("rotation_days").as_deref(),
        Some(
            "Number of days to add to the base timestamp to configure the rotation timestamp. \
             When the current time has passed the rotation timestamp, the resource will trigger \
             recreation. At least one of the 'rotation_' arguments must be configured."
        )
    );
    // The meta-arguments OpenTofu defines have none.
    assert_eq!(documentation("count"), None);
    // A resource type's description, complete (its detail is the first line).
    let (types, path, offset) =
        super::fixture_with_schemas("//- main.tf\nresource \"time_r$0\n", &schemas());
    let rotating = types
        .completions(&path, offset)
        .into_iter()
        .find(|item| item.label == "time_rotating")
        .unwrap();
    assert!(
        rotating
            .documentation()
            .unwrap()
            .starts_with("Manages a rotating time resource"),
        "{rotating:?}"
    );
}

#[test]
fn a_resource_reference_completes_the_type_s_attributes() {
    let found = complete(
        "//- main.tf\nresource \"time_static\" \"now\" {\n}\noutput \"y\" {\n  value = time_static.now.ye$0\n}\n",
    );
    assert!(
        found.contains(&"year [ye] number, computed".to_owned()),
        "{found:?}"
    );
    assert_eq!(found.len(), 10, "{found:?}");
    // Not declared: nothing.
    assert!(
        complete("//- main.tf\noutput \"y\" {\n  value = time_static.other.$0\n}\n").is_empty()
    );
}

#[test]
fn hover_on_an_argument_shows_the_schema_s_description_type_and_flags() {
    let markdown = hover(
        "//- main.tf\nresource \"time_sleep\" \"wait\" {\n  create_dur$0ation = \"30s\"\n}\n",
    );
    assert!(
        markdown.starts_with("**create_duration** `string` (optional)\n\n"),
        "{markdown}"
    );
    let nested = hover(&format!(
        "{VERSIONS}//- main.tf\nresource \"openstack_compute_instance_v2\" \"i\" {{\n  name = \"x\"\n  block_device {{\n    source_t$0ype = \"image\"\n  }}\n}}\n"
    ));
    assert!(
        nested.starts_with("**source_type** `string` (required)"),
        "{nested}"
    );
    let block = hover(&format!(
        "{VERSIONS}//- main.tf\nresource \"openstack_compute_instance_v2\" \"i\" {{\n  name = \"x\"\n  time$0outs {{\n  }}\n}}\n"
    ));
    assert!(block.starts_with("**timeouts** (block, single)"), "{block}");
    // Without the schema, the effective block as before.
    let (snapshot, path, offset) = super::fixture(
        "//- main.tf\nresource \"time_sleep\" \"wait\" {\n  create_dur$0ation = \"30s\"\n}\n",
    );
    let plain = snapshot.hover(&path, offset).unwrap().markdown;
    assert!(plain.starts_with("```hcl"), "{plain}");
}

/// A schema tofu-lens's cache gave for the version the lock file pins
/// (nothing installed) says so, with the version, under the argument.
#[test]
fn hover_says_which_version_a_cached_schema_is() {
    let text =
        "//- main.tf\nresource \"time_sleep\" \"wait\" {\n  create_dur$0ation = \"30s\"\n}\n";
    let installed = hover(text);
    assert!(!installed.contains("cache"), "{installed}");
    let mut cached = schemas();
    let time = tofu_schema::ProviderAddress::parse("hashicorp/time").unwrap();
    cached.set_from_cache(time, "0.14.2".to_owned());
    let markdown = super::hover_with_schemas(text, &cached);
    assert!(
        markdown.starts_with("**create_duration** `string` (optional)"),
        "{markdown}"
    );
    assert!(
        markdown.ends_with("Schema of `registry.opentofu.org/hashicorp/time` 0.14.2 from tofu-lens's cache: the version the lock file pins, not installed here."),
        "{markdown}"
    );
}

/// In a block an override file changes, OpenTofu drops an argument the
/// schema does not define without a word; the warning's quick fix renames
/// it to the nearest argument the block may still set, or removes the line.
#[test]
fn an_ignored_argument_of_an_overridden_block_is_renamed_or_removed() {
    let text = format!(
        "{VERSIONS}//- main.tf\nresource \"time_rotating\" \"r\" {{\n  rotation_days = 1\n  colour        = \"blue\"\n}}\n//- override.tf\nresource \"time_rotating\" \"r\" {{\n  $0rotation_hourz = 2\n}}\n"
    );
    let (snapshot, path, offset) = super::fixture_with_schemas(&text, &schemas());
    let actions = snapshot.code_actions(&path, tofu_syntax::TextRange::empty(offset));
    let found: Vec<(&str, &str)> = actions
        .iter()
        .flat_map(|action| {
            action
                .edits
                .iter()
                .map(|edit| (action.title.as_str(), edit.new_text.as_str()))
        })
        .collect();
    assert_eq!(
        found,
        [("Rename to \"rotation_hours\"", "rotation_hours")],
        "{actions:?}"
    );
    assert_eq!(
        actions[0].diagnostic.code.as_str(),
        "override-argument-ignored"
    );
    // In the base's part, `colour` has no near name: the line goes.
    let main = tofu_module::calls::normalize_path(&Path::new(super::DIR).join("main.tf"));
    let main_text = text.split("//- main.tf\n").nth(1).unwrap();
    let colour = u32::try_from(main_text.find("colour").unwrap()).unwrap();
    let actions = snapshot.code_actions(&main, tofu_syntax::TextRange::empty(colour));
    let titles: Vec<&str> = actions.iter().map(|action| action.title.as_str()).collect();
    assert_eq!(titles, ["Remove the ignored argument \"colour\""]);
    let edit = &actions[0].edits[0];
    assert_eq!(edit.new_text, "");
    assert_eq!(
        edit.location.range.slice(main_text),
        "  colour        = \"blue\"\n"
    );
}

#[test]
fn hover_on_a_provider_function_shows_its_signature_and_the_provider_s_docs() {
    let found = hover(
        "//- main.tf\nlocals {\n  t = provider::time::rfc3$0339_parse(\"2024-01-01T00:00:00Z\")\n}\n",
    );
    assert!(
        found.starts_with("```hcl\nprovider::time::rfc3339_parse(timestamp string) object({"),
        "{found}"
    );
    assert!(
        found.contains("\nParse an RFC3339 timestamp string into an object\n"),
        "{found}"
    );
    assert!(
        found.contains("\n- `timestamp string`: RFC3339 timestamp string to parse\n"),
        "{found}"
    );
    // A function the schema does not have: no function hover (the
    // block's own hover answers).
    let other = hover("//- main.tf\nlocals {\n  t = provider::time::nos$0uch(1)\n}\n");
    assert!(!other.starts_with("```hcl\nprovider::"), "{other}");
}

/// The function completions at the cursor with `schemas`:
/// `label [replaced] insert`.
fn functions_offered_with(text: &str, schemas: &ProviderSchemas) -> Vec<String> {
    let (snapshot, path, offset) = super::fixture_with_schemas(text, schemas);
    let file_text = snapshot.file_text(&path).unwrap();
    snapshot
        .completions(&path, offset)
        .iter()
        .filter(|item| {
            matches!(
                item.kind,
                crate::CompletionKind::Function | crate::CompletionKind::FunctionNamespace
            )
        })
        .map(|item| {
            format!(
                "{} [{}] {}",
                item.label,
                item.replace.slice(&file_text),
                item.insert_text
            )
        })
        .collect()
}

fn functions_offered(text: &str) -> Vec<String> {
    functions_offered_with(text, &schemas())
}

/// `main.tf` with a local value `x = VALUE`, after `VERSIONS` (openstack,
/// whose schema has no functions, is required; time is implied).
fn local_value(value: &str) -> String {
    format!("{VERSIONS}//- main.tf\nlocals {{\n  x = {value}\n}}\n")
}

#[test]
fn provider_colons_complete_the_providers_that_have_functions() {
    // time has functions, and so does OpenTofu's built-in terraform
    // provider (`encode_tfvars`, …); openstack (required, with a schema)
    // has none.
    assert_eq!(
        functions_offered(&local_value("provider::$0")),
        [
            "provider::terraform:: [provider::] provider::terraform::",
            "provider::time:: [provider::] provider::time::"
        ]
    );
    // Part of the local name, or one colon typed so far.
    assert_eq!(
        functions_offered(&local_value("provider::ti$0")),
        [
            "provider::terraform:: [provider::ti] provider::terraform::",
            "provider::time:: [provider::ti] provider::time::"
        ]
    );
    assert_eq!(
        functions_offered(&local_value("provider:$0"))[1],
        "provider::time:: [provider:] provider::time::"
    );
    // A partial `provider` offers the namespaces among the built-ins, as a
    // partial `core` offers `core::` names; nothing typed offers neither.
    let partial = functions_offered(&local_value("prov$0"));
    assert!(
        partial.contains(&"provider::time:: [prov] provider::time::".to_owned()),
        "{partial:?}"
    );
    assert!(partial.iter().any(|item| item.starts_with("upper ")));
    let nothing = functions_offered(&local_value("$0"));
    assert!(!nothing.iter().any(|item| item.starts_with("provider::")));
}

#[test]
fn a_provider_s_colons_complete_its_functions_as_snippets() {
    assert_eq!(
        functions_offered(&local_value("provider::time::$0")),
        [
            "provider::time::duration_parse [provider::time::] provider::time::duration_parse(${1:duration})",
            "provider::time::rfc3339_parse [provider::time::] provider::time::rfc3339_parse(${1:timestamp})",
            "provider::time::unix_timestamp_parse [provider::time::] provider::time::unix_timestamp_parse(${1:unix_timestamp})",
        ]
    );
    // A partial function name is replaced with the whole name; the other
    // functions stay for the editor to filter.
    let partial = functions_offered(&local_value("upper(provider::time::rfc$0"));
    assert!(
        partial.contains(
            &"provider::time::rfc3339_parse [provider::time::rfc] provider::time::rfc3339_parse(${1:timestamp})"
                .to_owned()
        ),
        "{partial:?}"
    );
    assert_eq!(partial.len(), 3);
    // Through a provider configuration's alias.
    assert!(functions_offered(&local_value("provider::time::ali::$0"))
        .iter()
        .any(|item| item.starts_with(
            "provider::time::ali::rfc3339_parse [provider::time::ali::] provider::time::ali::rfc3339_parse("
        )));
}

#[test]
fn a_provider_function_completion_carries_its_signature_and_docs() {
    let (snapshot, path, offset) = super::fixture_with_schemas(
        "//- main.tf\nlocals {\n  x = provider::time::rfc$0\n}\n",
        &schemas(),
    );
    let items = snapshot.completions(&path, offset);
    let rfc3339 = items
        .iter()
        .find(|item| item.label == "provider::time::rfc3339_parse")
        .unwrap();
    assert!(rfc3339.is_snippet());
    assert!(
        rfc3339
            .detail
            .as_deref()
            .unwrap()
            .starts_with("provider::time::rfc3339_parse(timestamp string) object({"),
        "{rfc3339:?}"
    );
    let documentation = rfc3339.documentation().unwrap();
    assert!(
        documentation.starts_with("Parse an RFC3339 timestamp string into an object\n\nGiven an RFC3339 timestamp string, will parse"),
        "{documentation}"
    );
}

#[test]
fn provider_functions_are_not_offered_in_literals_json_or_without_a_schema() {
    for value in [
        "\"provider::$0",
        "\"provider::time::$0\"",
        "1 # provider::time::$0",
        "1 /* provider::$0 */",
        "<<EOT\n  provider::time::$0\nEOT",
        "var.provider::$0",
    ] {
        assert!(functions_offered(&local_value(value)).is_empty(), "{value}");
    }
    // Where an argument's name goes.
    assert!(functions_offered("//- main.tf\nlocals {\n  provider::$0\n}\n").is_empty());
    // JSON expressions live in strings.
    assert!(functions_offered(
        "//- main.tf.json\n{\"locals\": {\"x\": \"${provider::time::$0\"}}\n"
    )
    .is_empty());
    // Without the provider's schema: nothing to offer, and not the
    // built-ins either (a provider function is being typed). The built-in
    // terraform provider is always known.
    let none = ProviderSchemas::new();
    assert_eq!(
        functions_offered_with(&local_value("provider::$0"), &none),
        ["provider::terraform:: [provider::] provider::terraform::"]
    );
    assert!(functions_offered_with(&local_value("provider::time::$0"), &none).is_empty());
    assert!(functions_offered_with(&local_value("provider::time::rf$0"), &none).is_empty());
    // A provider whose schema has no functions, or that the module has no
    // schema for.
    assert!(functions_offered(&local_value("provider::openstack::$0")).is_empty());
    assert!(functions_offered(&local_value("provider::nosuch::$0")).is_empty());
}

/// `label | active parameter | its documentation` of the signature help at
/// the cursor, with `schemas`.
fn signature_with(text: &str, schemas: &ProviderSchemas) -> String {
    let (snapshot, path, offset) = super::fixture_with_schemas(text, schemas);
    match snapshot.signature_help(&path, offset) {
        None => "none".to_owned(),
        Some(help) => {
            let active = help
                .active_parameter
                .and_then(|index| help.parameters.get(index as usize));
            format!(
                "{} | {} | {}",
                help.label,
                active.map_or("-", |parameter| parameter.label.as_str()),
                active
                    .and_then(|parameter| parameter.documentation.as_deref())
                    .unwrap_or("-")
            )
        }
    }
}

/// A provider `hashicorp/strings` whose one function takes a separator
/// and any number of strings.
fn variadic_schemas() -> ProviderSchemas {
    let text = r#"{"format_version": "1.0", "provider_schemas": {
        "registry.opentofu.org/hashicorp/strings": {
            "provider": {"version": 0, "block": {}},
            "functions": {"join": {
                "summary": "Join strings",
                "description": "Joins its strings with the separator.",
                "parameters": [{"name": "separator", "type": "string", "description": "Put between the strings"}],
                "variadic_parameter": {"name": "strings", "type": "string", "description": "The strings"},
                "return_type": "string"
            }}
        }
    }}"#;
    let mut schemas = ProviderSchemas::new();
    for (address, schema) in tofu_schema::decode_providers_schema_json(text).unwrap() {
        schemas.insert(address, Arc::new(schema));
    }
    schemas
}

#[test]
fn signature_help_inside_a_provider_function_call() {
    let main = |value: &str| format!("//- main.tf\nlocals {{\n  x = {value}\n}}\n");
    let signature = |value: &str| signature_with(&main(value), &schemas());
    let rfc3339 = signature("provider::time::rfc3339_parse($0");
    assert!(
        rfc3339.starts_with("provider::time::rfc3339_parse(timestamp string) object({"),
        "{rfc3339}"
    );
    assert!(
        rfc3339.ends_with(" | timestamp string | RFC3339 timestamp string to parse"),
        "{rfc3339}"
    );
    // Past its one parameter none is active; the innermost call answers.
    assert!(signature("provider::time::rfc3339_parse(\"a\", $0").contains(" | - | -"));
    assert!(signature("provider::time::rfc3339_parse(lower($0")
        .starts_with("lower(str string) string | str string"));
    assert_eq!(
        signature("upper(provider::time::rfc3339_parse(\"a\"), $0"),
        "upper(str string) string | - | -"
    );
    // Through an alias, and with spaces before the parenthesis.
    assert!(signature("provider::time::ali::unix_timestamp_parse ($0")
        .starts_with("provider::time::ali::unix_timestamp_parse(unix_timestamp number) object({"));
    // A function or provider the schemas do not have, inside a string, or
    // without any schema.
    assert_eq!(signature("provider::time::nosuch($0"), "none");
    assert_eq!(signature("provider::openstack::nosuch($0"), "none");
    assert_eq!(signature("\"provider::time::rfc3339_parse($0"), "none");
    assert_eq!(
        signature_with(
            &main("provider::time::rfc3339_parse($0"),
            &ProviderSchemas::new()
        ),
        "none"
    );
}

#[test]
fn a_provider_function_s_variadic_parameter_stays_active() {
    let signature = |value: &str| {
        signature_with(
            &format!("//- main.tf\nlocals {{\n  x = {value}\n}}\n"),
            &variadic_schemas(),
        )
    };
    let label = "provider::strings::join(separator string, strings... string) string";
    assert_eq!(
        signature("provider::strings::join($0"),
        format!("{label} | separator string | Put between the strings")
    );
    for value in [
        "provider::strings::join(\",\", $0",
        "provider::strings::join(\",\", \"a\", [1, 2], $0",
    ] {
        assert_eq!(
            signature(value),
            format!("{label} | strings... string | The strings"),
            "{value}"
        );
    }
    // Its snippet holds the fixed parameters, as a built-in's does.
    assert_eq!(
        functions_offered_with(
            "//- main.tf\nlocals {\n  x = provider::strings::$0\n}\n",
            &variadic_schemas()
        ),
        ["provider::strings::join [provider::strings::] provider::strings::join(${1:separator})"]
    );
}

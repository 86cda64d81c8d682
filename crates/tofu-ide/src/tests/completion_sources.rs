//! Completion in `source` strings: a module call's local directories and
//! the sources `tofu init` installed; a `required_providers` entry's
//! installed providers.

use std::path::Path;

use super::{complete, fixture, DIR};
use crate::{CompletionKind, InstalledProvider};

/// A module calling nothing yet, with module directories near it: two
/// children (one nested), a sibling, one two levels up, one too deep, and
/// what the workspace walk never offers (hidden, `.terraform`).
const NEAR: &str = r#"
//- modules/net/main.tf
variable "cidr" {}
//- modules/net/subnets/main.tf
variable "count" {}
//- modules/net/subnets/a/b/main.tf
variable "deep" {}
//- modules/values-only/dev.tfvars
x = 1
//- ../shared/main.tf
variable "x" {}
//- ../shared/variables.tofu
variable "y" {}
//- ../../common/main.tf
variable "z" {}
//- .hidden/main.tf
variable "h" {}
//- .terraform/modules/vpc/main.tf
variable "v" {}
//- .terraform/modules/modules.json
{"Modules":[
  {"Key":"","Source":"","Dir":"."},
  {"Key":"vpc","Source":"registry.opentofu.org/terraform-aws-modules/vpc/aws","Version":"5.1.0","Dir":".terraform/modules/vpc"},
  {"Key":"vpc.endpoints","Source":"./modules/vpc-endpoints","Dir":".terraform/modules/vpc/modules/vpc-endpoints"},
  {"Key":"dns","Source":"git::https://example.com/dns.git?ref=v1","Dir":".terraform/modules/dns"}
]}
"#;

#[test]
fn a_module_source_offers_the_directories_near_and_what_tofu_init_installed() {
    let expected = [
        "./modules/net [] local module, 1 configuration file",
        "./modules/net/subnets [] local module, 1 configuration file",
        "../shared [] local module, 2 configuration files",
        "../../common [] local module, 1 configuration file",
        "terraform-aws-modules/vpc/aws [] installed by tofu init for module.vpc, version 5.1.0",
        "git::https://example.com/dns.git?ref=v1 [] installed by tofu init for module.dns",
    ];
    let text = format!("{NEAR}//- main.tf\nmodule \"net\" {{\n  source = \"$0\"\n}}\n");
    assert_eq!(complete(&text), expected);
    // What is typed is replaced, the string not closed yet (the block is
    // still found), and the call's other arguments set.
    let text = format!(
        "{NEAR}//- main.tf\nmodule \"net\" {{\n  source = \"./mo$0\n  cidr   = \"10.0.0.0/16\"\n}}\n"
    );
    let found = complete(&text);
    assert_eq!(
        found[0],
        "./modules/net [./mo] local module, 1 configuration file"
    );
    assert_eq!(found.len(), expected.len());
    // Local directories are folders; installed sources are addresses.
    let (analysis, path, offset) = fixture(&text);
    let kinds: Vec<CompletionKind> = analysis
        .completions(&path, offset)
        .iter()
        .map(|item| item.kind)
        .collect();
    assert_eq!(kinds[0], CompletionKind::Directory);
    assert_eq!(kinds[4], CompletionKind::Source);
    // A one-line block, and an override file changing the source.
    let text = format!("{NEAR}//- main.tf\nmodule \"net\" {{ source = \"../$0\" }}\n");
    assert_eq!(complete(&text).len(), expected.len());
    let text = format!(
        "{NEAR}//- main.tf\nmodule \"net\" {{\n  source = \"./modules/net\"\n}}\n//- override.tf\nmodule \"net\" {{\n  source = \"$0\"\n}}\n"
    );
    assert_eq!(complete(&text).len(), expected.len());
}

#[test]
fn only_a_module_s_source_offers_directories() {
    for text in [
        // Another argument of the call.
        "//- main.tf\nmodule \"net\" {\n  source  = \"./x\"\n  version = \"$0\"\n}\n",
        // An argument named `source` elsewhere.
        "//- main.tf\nresource \"a\" \"b\" {\n  source = \"$0\"\n}\n",
        "//- main.tf\nlocals {\n  source = \"$0\"\n}\n",
        // Not the string: after it, or an interpolation in it.
        "//- main.tf\nmodule \"net\" {\n  source = \"./x\" $0\n}\n",
        "//- main.tf\nmodule \"net\" {\n  source = \"${$0\"\n}\n",
    ] {
        let text = format!("{NEAR}{text}");
        assert!(
            complete(&text)
                .iter()
                .all(|item| !item.starts_with("./modules/net ")),
            "{text}"
        );
    }
    // A module in a JSON file: none.
    let json =
        format!("{NEAR}//- main.tf.json\n{{\"module\": {{\"net\": {{\"source\": \"$0\"}}}}}}\n");
    assert!(complete(&json).is_empty());
}

#[test]
fn a_test_run_s_module_source_offers_directories_too() {
    let text = format!(
        "{NEAR}//- main.tf\nvariable \"a\" {{}}\n//- main.tftest.hcl\nrun \"net\" {{\n  module {{\n    source = \"./$0\"\n  }}\n}}\n"
    );
    assert_eq!(
        complete(&text).first().map(String::as_str),
        Some("./modules/net [./] local module, 1 configuration file")
    );
}

const REQUIRED: &str = "//- versions.tf\nterraform {\n  required_providers {\n    time = {\n      source = \"$0\"\n    }\n  }\n}\n";

fn installed() -> Vec<InstalledProvider> {
    [
        ("hashicorp/time", "0.13.1"),
        ("hashicorp/time", "0.14.2"),
        ("registry.terraform.io/hashicorp/null", "3.2.4"),
        ("terraform-provider-openstack/openstack", "3.4.0"),
    ]
    .into_iter()
    .map(|(address, version)| InstalledProvider {
        address: tofu_schema::ProviderAddress::parse(address).unwrap(),
        version: version.to_owned(),
    })
    .collect()
}

#[test]
fn a_required_provider_s_source_offers_the_installed_providers() {
    let (analysis, path, offset) = fixture(REQUIRED);
    // The caller reads them only when asked.
    assert_eq!(
        analysis.completion_provider_dir(&path, offset).as_deref(),
        Some(Path::new(DIR))
    );
    let shown = |text: &str| -> Vec<String> {
        let (analysis, path, offset) = fixture(text);
        let file_text = analysis.file_text(&path).unwrap();
        analysis
            .completions_with_providers(&path, offset, &installed())
            .iter()
            .map(|item| {
                format!(
                    "{} [{}] {}",
                    item.label,
                    item.replace.slice(&file_text),
                    item.detail.as_deref().unwrap_or("-")
                )
            })
            .collect()
    };
    assert_eq!(
        shown(REQUIRED),
        [
            "hashicorp/time [] installed: 0.14.2, 0.13.1",
            "registry.terraform.io/hashicorp/null [] installed: 3.2.4",
            "terraform-provider-openstack/openstack [] installed: 3.4.0",
        ]
    );
    // One line, partly typed, the string not closed.
    let inline = "//- versions.tf\nterraform {\n  required_providers {\n    time = { source = \"hashi$0 }\n  }\n}\n";
    assert_eq!(
        shown(inline).first().map(String::as_str),
        Some("hashicorp/time [hashi] installed: 0.14.2, 0.13.1")
    );
    // Without what is installed, nothing (the plain entry point).
    assert!(analysis.completions(&path, offset).is_empty());
}

#[test]
fn only_a_required_provider_s_source_asks_for_installed_providers() {
    for text in [
        // The entry's version.
        "//- versions.tf\nterraform {\n  required_providers {\n    time = {\n      version = \"$0\"\n    }\n  }\n}\n",
        // A `source` outside required_providers.
        "//- versions.tf\nterraform {\n  backend \"s3\" {\n    source = \"$0\"\n  }\n}\n",
        // A module's source.
        "//- main.tf\nmodule \"m\" {\n  source = \"$0\"\n}\n",
    ] {
        let (analysis, path, offset) = fixture(text);
        assert_eq!(analysis.completion_provider_dir(&path, offset), None, "{text}");
        assert!(
            analysis
                .completions_with_providers(&path, offset, &installed())
                .iter()
                .all(|item| item.label != "hashicorp/time"),
            "{text}"
        );
    }
}

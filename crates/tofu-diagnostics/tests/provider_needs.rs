//! The providers a module needs, as `tofu_module::provider_needs` reads them from an analysed module.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use tofu_diagnostics::{analyze, AnalysisCache};
use tofu_module::provider_needs::*;
use tofu_module::{Config, InputFile};

/// The addresses alone (read per keystroke) are those of the full needs.
#[test]
fn package_addresses_are_the_needs_addresses() {
    let files = [
        InputFile::text(
            "versions.tf",
            "terraform {\n  required_providers {\n    cloud = {\n      source = \"hashicorp/aws\"\n    }\n  }\n}\n",
        ),
        InputFile::text(
            "main.tf",
            "resource \"google_x\" \"a\" {}\nresource \"aws_x\" \"b\" {\n  provider = cloud.west\n}\nresource \"google_x\" \"c\" {}\ndata \"random_x\" \"d\" {}\nprovider \"terraform\" {}\nresource \"terraform_data\" \"e\" {}\n",
        ),
    ];
    let analysis = analyze(&files, &Config::default(), &mut AnalysisCache::new());
    let full: Vec<String> = module_needs(&analysis)
        .into_iter()
        .filter(|need| !need.is_built_in())
        .map(|need| need.address.to_string())
        .collect();
    let addresses: Vec<String> = package_addresses(&analysis)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(addresses, full);
    assert_eq!(
        addresses,
        [
            "registry.opentofu.org/hashicorp/aws",
            "registry.opentofu.org/hashicorp/google",
            "registry.opentofu.org/hashicorp/random",
        ]
    );
}

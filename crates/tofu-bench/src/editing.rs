//! The editing features of issue 17 against a hover, in process on
//! tofu-ide's analysis: inlay hints for a whole 1,000-line base file, and
//! completion after `var.` in the 1,000-file synthetic module (a thousand
//! variables to offer), each measured with a hover on the same analysis;
//! and completion where a new top-level block starts (issue 46), in a
//! primary file and in an override file (every base block's header).

use std::path::{Path, PathBuf};

use tofu_ide::{AnalysisHost, Change, Snapshot};
use tofu_module::{Config, InputFile, ProviderSchemas};

/// The synthetic module plus `big.tf`, a base file of just over 1,000 lines
/// (53 resources), every other one changed by `big_override.tf`.
pub fn module_with_big_file(mut module: Vec<InputFile>) -> Vec<InputFile> {
    let mut big = String::new();
    let mut changes = String::new();
    for k in 0..53 {
        big.push_str(&format!(
            "resource \"aws_instance\" \"big_{k}\" {{\n  ami           = \"ami-{k:08}\"\n  instance_type = \"t3.micro\"\n  count         = 1\n  monitoring    = true\n\n  ebs_block_device {{\n    device_name = \"/dev/sdb\"\n    volume_size = {k}\n  }}\n\n  root_block_device {{\n    volume_size = 8\n  }}\n\n  tags = {{\n    Name = \"big-{k}\"\n  }}\n}}\n"
        ));
        if k % 2 == 0 {
            changes.push_str(&format!(
                "resource \"aws_instance\" \"big_{k}\" {{\n  instance_type = \"t3.large\"\n  ebs_block_device {{\n    device_name = \"/dev/sdz\"\n  }}\n}}\n\n"
            ));
        }
    }
    module.push(InputFile::text("big.tf".to_owned(), big));
    module.push(InputFile::text("big_override.tf".to_owned(), changes));
    module
}

/// The analysis of `files` as the module `/bench/module`.
pub fn analysis(files: Vec<InputFile>) -> (PathBuf, Snapshot) {
    analysis_with_schemas(files, ProviderSchemas::default())
}

/// [`analysis`] with the providers' schemas `schemas`.
pub fn analysis_with_schemas(
    files: Vec<InputFile>,
    schemas: ProviderSchemas,
) -> (PathBuf, Snapshot) {
    let dir = PathBuf::from("/bench/module");
    let mut host = AnalysisHost::new(Config::default());
    host.apply_change(Change::DiskDir {
        dir: dir.clone(),
        files,
    });
    host.set_schemas(&dir, schemas);
    host.analyze_now(&dir);
    (dir, host.snapshot())
}

/// The schemas of hashicorp/time 0.14.2 and terraform-provider-openstack
/// 3.4.0 the fixtures share (`tofu providers schema -json`); `None` when
/// the file is not there (the binary run outside its checkout).
pub fn fixture_schemas() -> Option<ProviderSchemas> {
    let text = fixture_schemas_text()?;
    let mut schemas = ProviderSchemas::default();
    for (address, schema) in tofu_schema::decode_providers_schema_json(&text).ok()? {
        schemas.insert(address, std::sync::Arc::new(schema));
    }
    Some(schemas)
}

/// The fixtures' `tofu providers schema -json` document (hashicorp/time
/// 0.14.2 and terraform-provider-openstack 3.4.0).
pub fn fixture_schemas_text() -> Option<String> {
    std::fs::read_to_string(fixture_schemas_path()).ok()
}

/// Where the fixtures' `schemas.json` is.
pub fn fixture_schemas_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/provider-schemas/schemas.json")
}

/// The synthetic module plus `compute.tf`: an openstack instance (the
/// provider's largest resource schema) with an empty line in its body.
pub fn module_with_resource(mut module: Vec<InputFile>) -> Vec<InputFile> {
    module.push(InputFile::text(
        "compute.tf".to_owned(),
        "terraform {\n  required_providers {\n    openstack = {\n      source = \"terraform-provider-openstack/openstack\"\n    }\n  }\n}\n\nresource \"openstack_compute_instance_v2\" \"web\" {\n  name = \"web\"\n  \n}\n".to_owned(),
    ));
    module
}

/// Where to complete in `compute.tf`: the empty line of the body.
pub fn body_completion_offset(text: &str) -> u32 {
    offset_of(text, "\"web\"\n  \n") + 9
}

/// Where to hover: the header of a resource an override changes.
pub fn hover_offset(text: &str) -> u32 {
    offset_of(text, "resource \"aws_instance\" \"big_24\"") + 1
}

/// Where to complete: right after a `var.` in `f0001.tf`.
pub fn completion_offset(text: &str) -> u32 {
    offset_of(text, "var.") + 4
}

/// Where a new top-level block may start: the empty line at the end of a
/// file (after its last block's `}` and line break).
pub fn top_level_offset(text: &str) -> u32 {
    u32::try_from(text.len()).unwrap_or(0)
}

fn offset_of(text: &str, needle: &str) -> u32 {
    text.find(needle)
        .and_then(|at| u32::try_from(at).ok())
        .unwrap_or(0)
}

pub fn file_text(analysis: &Snapshot, path: &Path) -> String {
    analysis
        .file_text(path)
        .map(|text| text.to_string())
        .unwrap_or_default()
}

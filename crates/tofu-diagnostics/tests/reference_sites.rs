//! Where each reference of a module is, as `tofu_module::reference_sites` finds it in an analysed module (native and JSON files, overrides).

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use tofu_diagnostics::{analyze, AnalysisCache};
use tofu_module::reference_sites::*;
use tofu_module::{Config, InputFile};

fn sites(files: &[(&str, &str)]) -> Vec<String> {
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    let module = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
    let all = reference_sites(&module);
    // One file's sites are the module's sites in that file.
    for file in module.primary.iter().chain(&module.overrides) {
        let mine: Vec<_> = all
            .iter()
            .filter(|site| site.file == *file)
            .cloned()
            .collect();
        assert_eq!(file_reference_sites(&module, *file), mine);
    }
    all.iter()
        .map(|site| {
            let file = module.file(site.file).unwrap();
            let output = site
                .output
                .as_ref()
                .map(|(name, range)| {
                    assert_eq!(range.slice(&file.text), name);
                    format!(" output {name}")
                })
                .unwrap_or_default();
            format!(
                "{} {:?} [{}] [{}]{output}",
                file.name,
                site.target,
                site.range.slice(&file.text),
                site.name_range.slice(&file.text)
            )
        })
        .collect()
}

#[test]
fn references_in_native_and_json_files() {
    let found = sites(&[
        (
            "main.tf",
            r#"variable "region" {}
locals {
  name = "web-${var.region}"
  ids  = [for i in aws_instance.web : i.id]
  one  = module.app["a"].first_id
}
resource "aws_instance" "web" {
  count = length(module.net.ids) + each.key
  tags  = { Name = local.name, Zone = data.aws_az.a.name }
  provider = aws.west
}
data "aws_az" "a" {}
"#,
        ),
        (
            "out.tf.json",
            r#"{"output": {"x": {"value": "${var.region}-${local.name}", "plain": "var.region", "esc": "\"${var.region}\""}}}"#,
        ),
    ]);
    assert_eq!(
        found,
        [
            "main.tf Variable(\"region\") [var.region] [region]",
            "main.tf Resource(Resource { mode: Managed, type_name: \"aws_instance\", name: \"web\" }) [aws_instance.web] [web]",
            "main.tf ModuleCall(\"app\") [module.app] [app] output first_id",
            "main.tf ModuleCall(\"net\") [module.net] [net] output ids",
            "main.tf Local(\"name\") [local.name] [name]",
            "main.tf Resource(Resource { mode: Data, type_name: \"aws_az\", name: \"a\" }) [data.aws_az.a] [a]",
            "out.tf.json Variable(\"region\") [var.region] [region]",
            "out.tf.json Local(\"name\") [local.name] [name]",
        ]
        .map(str::to_owned)
    );
}

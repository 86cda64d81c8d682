//! Features across the module boundary and in `.tfvars` files: a root module
//! and two examples calling a local child (native and JSON callers, override
//! files on both sides), rendered with paths relative to the root module.

use std::path::{Path, PathBuf};

use super::{complete, fixture, hover, with_cursor, DIR};
use crate::{FileEdit, NavigationTarget, Snapshot};

const TREE: &str = r#"
//- main.tf
module "net" {
  source = "./modules/net"
  cidr   = "10.0.0.0/16"
}
output "vpc" {
  value = module.net.vpc_id
}
//- override.tf
module "net" {
  cidr = "10.1.0.0/16"
}
//- modules/net/variables.tf
variable "cidr" {
  type        = string
  description = "The VPC's CIDR block."
}
variable "name" {
  type    = string
  default = "main"
}
variable "tags" {
  type    = map(string)
  default = {}
}
//- modules/net/outputs.tf
output "vpc_id" {
  value       = aws_vpc.this.id
  description = "The VPC's ID."
}
//- modules/net/main.tf
resource "aws_vpc" "this" {
  cidr_block = var.cidr
  tags       = merge(var.tags, { Name = var.name })
}
//- modules/net/override.tf
variable "name" {
  default = "net"
}
//- examples/simple/main.tf
module "net" {
  source = "../../modules/net"
  cidr   = "10.2.0.0/16"
  name   = "simple"
  extra  = 1
}
output "id" {
  value = module.net.vpc_id
}
//- examples/json/main.tf.json
{"module": {"net": {"source": "../../modules/net", "cidr": "10.3.0.0/16"}},
 "output": {"id": {"value": "${module.net.vpc_id}"}}}
"#;

/// `path:line text` of a place, the path relative to the root module.
fn place(path: &Path, text: &str, start: u32, shown: &str) -> String {
    let line = text[..start as usize].matches('\n').count() + 1;
    let relative = path.strip_prefix(DIR).unwrap_or(path);
    format!("{}:{line} {shown}", relative.display())
}

fn render_targets(targets: &[NavigationTarget]) -> Vec<String> {
    targets
        .iter()
        .map(|target| {
            let focus = &target.focus;
            place(
                &focus.path,
                &focus.text,
                focus.range.start,
                focus.range.slice(&focus.text),
            )
        })
        .collect()
}

fn render_edits(edits: &[FileEdit]) -> Vec<String> {
    edits
        .iter()
        .map(|edit| {
            let location = &edit.location;
            let old = location.range.slice(&location.text);
            let shown = format!("{old} -> {}", edit.new_text);
            place(&location.path, &location.text, location.range.start, &shown)
        })
        .collect()
}

fn definition(text: &str) -> Vec<String> {
    let (analysis, path, offset) = fixture(text);
    render_targets(&analysis.goto_definition(&path, offset))
}

fn references(text: &str) -> Vec<String> {
    let (analysis, path, offset) = fixture(text);
    render_targets(&analysis.references(&path, offset, true))
}

fn rename(text: &str, new_name: &str) -> Result<Vec<String>, String> {
    let (analysis, path, offset) = fixture(text);
    analysis
        .rename(&path, offset, new_name)
        .map(|edits| render_edits(&edits))
        .map_err(String::from)
}

#[test]
fn definition_goes_from_an_argument_to_the_called_modules_variable() {
    assert_eq!(
        definition(&with_cursor(TREE, "main.tf", "cidr")),
        ["modules/net/variables.tf:1 variable \"cidr\""]
    );
    // From a caller's override file, and from a JSON caller.
    assert_eq!(
        definition(&with_cursor(TREE, "override.tf", "cidr")),
        ["modules/net/variables.tf:1 variable \"cidr\""]
    );
    assert_eq!(
        definition(&with_cursor(TREE, "examples/json/main.tf.json", "cidr")),
        ["modules/net/variables.tf:1 variable \"cidr\""]
    );
    // A variable the child overrides: its declaration, then the override.
    assert_eq!(
        definition(&with_cursor(TREE, "examples/simple/main.tf", "name")),
        [
            "modules/net/variables.tf:5 variable \"name\"",
            "modules/net/override.tf:1 variable \"name\""
        ]
    );
    // Meta-arguments and undeclared arguments lead nowhere.
    assert!(definition(&with_cursor(TREE, "examples/simple/main.tf", "source")).is_empty());
    assert!(definition(&with_cursor(TREE, "examples/simple/main.tf", "extra")).is_empty());
}

#[test]
fn definition_goes_from_module_output_to_the_called_modules_output() {
    assert_eq!(
        definition(&with_cursor(TREE, "main.tf", "vpc_id")),
        ["modules/net/outputs.tf:1 output \"vpc_id\""]
    );
    assert_eq!(
        definition(&with_cursor(TREE, "examples/json/main.tf.json", "vpc_id")),
        ["modules/net/outputs.tf:1 output \"vpc_id\""]
    );
    // On `module.net`, still the module block.
    assert_eq!(
        definition(&with_cursor(TREE, "main.tf", "net.vpc_id")),
        ["main.tf:1 module \"net\"", "override.tf:1 module \"net\""]
    );
}

#[test]
fn hover_on_an_argument_shows_the_called_modules_variable() {
    let markdown = hover(&with_cursor(TREE, "examples/simple/main.tf", "name"));
    assert_eq!(
        markdown,
        r#"```hcl
variable "name" {
  type    = string
  default = "net"  # override.tf:2
}
```

Variable of the module `../../modules/net`, declared in `../../modules/net/variables.tf:5`; changed by `../../modules/net/override.tf:1`.

---

`name` here is in effect: no override changes it.
"#
    );
    let markdown = hover(&with_cursor(TREE, "main.tf", "cidr"));
    assert!(
        markdown.starts_with(
            "```hcl\nvariable \"cidr\" {\n  type        = string\n  description = \"The VPC's CIDR block.\"\n}\n```\n\nVariable of the module `modules/net`, declared in `modules/net/variables.tf:1`.\n\nRequired: it has no default, so every call must set it.\n\n---\n\n`cidr` here is replaced by `override.tf:2`"
        ),
        "{markdown}"
    );
}

#[test]
fn hover_on_module_output_shows_the_called_modules_output() {
    assert_eq!(
        hover(&with_cursor(TREE, "main.tf", "vpc_id")),
        r#"```hcl
output "vpc_id" {
  value       = aws_vpc.this.id
  description = "The VPC's ID."
}
```

Output of the module `modules/net`, declared in `modules/net/outputs.tf:1`.
"#
    );
}

#[test]
fn references_of_a_variable_include_every_callers_arguments() {
    let expected = [
        "modules/net/variables.tf:1 variable \"cidr\"",
        "modules/net/main.tf:2 var.cidr",
        "main.tf:3 cidr",
        "override.tf:2 cidr",
        "examples/json/main.tf.json:1 \"cidr\"",
        "examples/simple/main.tf:3 cidr",
    ];
    assert_eq!(
        references(&with_cursor(TREE, "modules/net/variables.tf", "cidr")),
        expected
    );
    // The same from a caller's argument and from a use in the module.
    assert_eq!(
        references(&with_cursor(TREE, "examples/simple/main.tf", "cidr")),
        expected
    );
    assert_eq!(
        references(&with_cursor(TREE, "modules/net/main.tf", "var.cidr")),
        expected
    );
}

#[test]
fn references_of_an_output_include_every_callers_uses() {
    assert_eq!(
        references(&with_cursor(TREE, "modules/net/outputs.tf", "vpc_id")),
        [
            "modules/net/outputs.tf:1 output \"vpc_id\"",
            "main.tf:6 vpc_id",
            "examples/json/main.tf.json:2 vpc_id",
            "examples/simple/main.tf:8 vpc_id",
        ]
    );
}

#[test]
fn rename_of_a_variable_renames_every_callers_arguments() {
    let expected = [
        "examples/json/main.tf.json:1 \"cidr\" -> \"cidr_block\"",
        "examples/simple/main.tf:3 cidr -> cidr_block",
        "main.tf:3 cidr -> cidr_block",
        "modules/net/main.tf:2 cidr -> cidr_block",
        "modules/net/variables.tf:1 \"cidr\" -> \"cidr_block\"",
        "override.tf:2 cidr -> cidr_block",
    ];
    let from_child = with_cursor(TREE, "modules/net/variables.tf", "cidr");
    assert_eq!(rename(&from_child, "cidr_block").unwrap(), expected);
    let from_caller = with_cursor(TREE, "examples/simple/main.tf", "cidr");
    assert_eq!(rename(&from_caller, "cidr_block").unwrap(), expected);
    let (analysis, path, offset) = fixture(&from_caller);
    assert_eq!(
        analysis.prepare_rename(&path, offset).map(|(_, name)| name),
        Ok("cidr".to_owned())
    );
    // A module call renamed: its block, its use, and a `moved` block.
    let call = rename(&with_cursor(TREE, "main.tf", "net.vpc_id"), "network").unwrap();
    assert_eq!(call.len(), 4, "{call:?}");
    assert!(
        call.iter()
            .any(|edit| edit.contains("from = module.net\n  to   = module.network")),
        "{call:?}"
    );
    assert_eq!(
        rename(
            &with_cursor(TREE, "modules/net/override.tf", "name"),
            "label"
        )
        .unwrap(),
        [
            "examples/simple/main.tf:4 name -> label",
            "modules/net/main.tf:3 name -> label",
            "modules/net/override.tf:1 \"name\" -> \"label\"",
            "modules/net/variables.tf:5 \"name\" -> \"label\"",
        ]
    );
}

#[test]
fn rename_of_an_output_renames_every_callers_uses() {
    let expected = [
        "examples/json/main.tf.json:2 vpc_id -> id",
        "examples/simple/main.tf:8 vpc_id -> id",
        "main.tf:6 vpc_id -> id",
        "modules/net/outputs.tf:1 \"vpc_id\" -> \"id\"",
    ];
    assert_eq!(
        rename(&with_cursor(TREE, "modules/net/outputs.tf", "vpc_id"), "id").unwrap(),
        expected
    );
    assert_eq!(
        rename(&with_cursor(TREE, "main.tf", "vpc_id"), "id").unwrap(),
        expected
    );
}

#[test]
fn rename_refuses_names_a_call_already_sets_or_opentofu_reserves() {
    let tags = with_cursor(TREE, "modules/net/variables.tf", "tags");
    let refused = rename(&tags, "extra").unwrap_err();
    assert!(
        refused.contains("module \"net\" in /ws/mod/examples/simple/main.tf already sets an argument of that name"),
        "{refused}"
    );
    let refused = rename(&tags, "count").unwrap_err();
    assert!(
        refused.contains("OpenTofu reserves this variable name"),
        "{refused}"
    );
    let refused = rename(&tags, "name").unwrap_err();
    assert!(refused.contains("already declares var.name"), "{refused}");
    // An argument the called module does not declare is not renamed in
    // every caller.
    let extra = with_cursor(TREE, "examples/simple/main.tf", "extra");
    let refused = rename(&extra, "more").unwrap_err();
    assert!(
        refused.contains("/ws/mod/modules/net declares no variable \"extra\""),
        "{refused}"
    );
}

#[test]
fn completion_in_a_module_block_offers_the_called_modules_variables() {
    let text = format!(
        "{TREE}//- calls.tf\nmodule \"other\" {{\n  source = \"./modules/net\"\n  $0\n}}\n"
    );
    assert_eq!(
        complete(&text),
        [
            "cidr [] required; type = string; The VPC's CIDR block.",
            "name [] default = \"net\"; type = string",
            "tags [] default = {}; type = map(string)",
            "version [] module meta-argument",
            "count [] module meta-argument",
            "for_each [] module meta-argument",
            "providers [] module meta-argument",
            "depends_on [] module meta-argument",
            "lifecycle [] module block",
        ]
    );
    // A half-typed name in a block the caller already sets `cidr` in (here
    // and in its override file): the rest.
    let text = TREE.replace(
        "  cidr   = \"10.0.0.0/16\"\n",
        "  cidr   = \"10.0.0.0/16\"\n  ta$0\n",
    );
    let offered = complete(&text);
    assert_eq!(
        offered[..2],
        [
            "name [ta] default = \"net\"; type = string",
            "tags [ta] default = {}; type = map(string)",
        ]
    );
}

#[test]
fn completion_after_module_name_offers_the_called_modules_outputs() {
    let text = TREE.replace(
        "module.net.vpc_id\n}\n//- override.tf",
        "module.net.v$0\n}\n//- override.tf",
    );
    assert_eq!(
        complete(&text),
        ["vpc_id [v] value = aws_vpc.this.id; The VPC's ID."]
    );
    let text = format!("{TREE}//- more.tf\nlocals {{\n  x = module.net[0].$0\n}}\n");
    assert_eq!(
        complete(&text),
        ["vpc_id [] value = aws_vpc.this.id; The VPC's ID."]
    );
    // An unknown call offers nothing.
    let text = format!("{TREE}//- more.tf\nlocals {{\n  x = module.nope.$0\n}}\n");
    assert!(complete(&text).is_empty());
}

#[test]
fn related_dirs_name_what_a_request_reads_across_the_boundary() {
    let dirs = |text: &str, with_callers: bool| -> Vec<String> {
        let (analysis, path, offset) = fixture(text);
        analysis
            .related_dirs(&path, offset, with_callers)
            .iter()
            .map(|dir| dir.strip_prefix("/ws").unwrap().display().to_string())
            .collect()
    };
    assert_eq!(
        dirs(&with_cursor(TREE, "main.tf", "vpc_id"), false),
        ["mod/modules/net"]
    );
    assert_eq!(
        dirs(&with_cursor(TREE, "main.tf", "source"), false),
        ["mod/modules/net"]
    );
    assert!(dirs(
        &with_cursor(TREE, "modules/net/variables.tf", "cidr"),
        false
    )
    .is_empty());
    assert_eq!(
        dirs(&with_cursor(TREE, "modules/net/variables.tf", "cidr"), true),
        ["mod", "mod/examples/json", "mod/examples/simple"]
    );
    assert_eq!(
        dirs(&with_cursor(TREE, "examples/simple/main.tf", "cidr"), true),
        ["mod", "mod/examples/json", "mod/modules/net"]
    );
    // While typing, the block is lost to a syntax error: completion reads
    // the call from the text.
    let completing = |text: &str| -> Vec<String> {
        let (analysis, path, offset) = fixture(text);
        analysis
            .completion_dirs(&path, offset)
            .iter()
            .map(|dir| dir.strip_prefix("/ws").unwrap().display().to_string())
            .collect()
    };
    let typing = format!(
        "{TREE}//- calls.tf\nmodule \"other\" {{\n  source = \"./modules/net\"\n  ci$0\n}}\n"
    );
    assert!(dirs(&typing, false).is_empty());
    assert_eq!(completing(&typing), ["mod/modules/net"]);
    let typing = format!("{TREE}//- more.tf\nlocals {{\n  x = module.net.$0\n}}\n");
    assert_eq!(completing(&typing), ["mod/modules/net"]);
    assert!(completing(&with_cursor(TREE, "main.tf", "output")).is_empty());
}

/// A registry call after `tofu init`: the manifest gives its directory,
/// which the host does not hold (it is under `.terraform`); the request
/// analyses it on its own and adds it.
#[test]
fn a_registry_call_is_followed_through_the_module_manifest() {
    let text = r#"
//- main.tf
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.1.0"
  cidr    = "10.0.0.0/16"
}
module "other" {
  source = "terraform-aws-modules/other/aws"
  cidr   = "10.0.0.0/16"
}
//- .terraform/modules/modules.json
{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"registry.opentofu.org/terraform-aws-modules/vpc/aws","Version":"5.1.0","Dir":".terraform/modules/vpc"}]}
"#;
    let (analysis, path, _) = fixture(text);
    let offset = |needle: &str| {
        let text = analysis.file_text(&path).unwrap();
        text.find(needle).unwrap() as u32
    };
    let vpc_dir = PathBuf::from(DIR).join(".terraform/modules/vpc");
    assert_eq!(
        analysis.related_dirs(&path, offset("cidr"), false),
        std::slice::from_ref(&vpc_dir)
    );
    // Calls the manifest does not list stay unknown.
    assert!(analysis
        .related_dirs(&path, offset("other/aws"), false)
        .is_empty());
    let child = crate::analyze_detached(
        vpc_dir,
        &[tofu_module::InputFile::text(
            "variables.tf",
            "variable \"cidr\" {\n  type = string\n}\n",
        )],
        &tofu_module::Config::default(),
    );
    let analysis: Snapshot = analysis.with_modules([child]);
    assert_eq!(
        render_targets(&analysis.goto_definition(&path, offset("cidr"))),
        [".terraform/modules/vpc/variables.tf:1 variable \"cidr\""]
    );
    let refused = analysis.rename(&path, offset("cidr"), "block").unwrap_err();
    assert!(
        refused.message().contains("is not part of the workspace"),
        "{refused}"
    );
}

const VALUES: &str = r#"
//- variables.tf
variable "region" {
  type        = string
  description = "Where to deploy."
}
variable "size" {
  type    = number
  default = 1
}
variable "tags" {
  default = {}
}
output "where" {
  value = var.region
}
//- terraform.tfvars
region = "eu-west-1"
//- prod.auto.tfvars.json
{"region": "us-east-1", "size": 3}
"#;

#[test]
fn tfvars_names_lead_to_their_variables() {
    assert_eq!(
        definition(&with_cursor(VALUES, "terraform.tfvars", "region")),
        ["variables.tf:1 variable \"region\""]
    );
    assert_eq!(
        definition(&with_cursor(VALUES, "prod.auto.tfvars.json", "size")),
        ["variables.tf:5 variable \"size\""]
    );
    assert_eq!(
        hover(&with_cursor(VALUES, "terraform.tfvars", "region")),
        r#"```hcl
variable "region" {
  type        = string
  description = "Where to deploy."
}
```

Declared in `variables.tf:1`.
"#
    );
    // A value for no variable, and a value, have nothing to show.
    assert_eq!(
        hover(&with_cursor(VALUES, "terraform.tfvars", "eu-west")),
        "null"
    );
}

#[test]
fn tfvars_names_are_references_and_are_renamed() {
    assert_eq!(
        references(&with_cursor(VALUES, "variables.tf", "region")),
        [
            "variables.tf:1 variable \"region\"",
            "variables.tf:13 var.region",
            "prod.auto.tfvars.json:1 \"region\"",
            "terraform.tfvars:1 region",
        ]
    );
    assert_eq!(
        rename(
            &with_cursor(VALUES, "terraform.tfvars", "region"),
            "location"
        )
        .unwrap(),
        [
            "prod.auto.tfvars.json:1 \"region\" -> \"location\"",
            "terraform.tfvars:1 region -> location",
            "variables.tf:1 \"region\" -> \"location\"",
            "variables.tf:13 region -> location",
        ]
    );
}

#[test]
fn completion_in_a_tfvars_file_offers_the_variables_not_set_yet() {
    let text = format!("{VALUES}//- dev.tfvars\nsize = 2\n$0\n");
    assert_eq!(
        complete(&text),
        [
            "region [] required; type = string; Where to deploy.",
            "tags [] default = {}",
        ]
    );
    let text = format!("{VALUES}//- dev.tfvars\nsi$0\n");
    assert_eq!(complete(&text).len(), 3);
    // Not after `=`, nor inside a value.
    assert!(complete(&format!("{VALUES}//- dev.tfvars\nsize = $0\n")).is_empty());
    assert!(complete(&format!("{VALUES}//- dev.tfvars\ntags = {{\n  $0\n}}\n")).is_empty());
}

#[test]
fn tfvars_diagnostics_are_published_with_the_module() {
    let text = format!("{VALUES}//- dev.tfvars\nsize = \"big\"\nzone = \"a\"\n");
    let (analysis, _, _) = fixture(&text);
    let dev = analysis
        .file_diagnostics(&PathBuf::from(DIR).join("dev.tfvars"))
        .unwrap();
    let codes: Vec<&str> = dev.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["invalid-variable-value", "undeclared-value"]);
}

/// OpenTofu puts "Invalid value for input variable" on the called module's
/// variable; tofu-lens puts it on the argument and relates the variable, in
/// the child's file, whichever directory is analysed first.
#[test]
fn an_invalid_argument_relates_the_called_modules_variable() {
    let (analysis, _, _) = fixture(
        r#"
//- examples/simple/main.tf
module "net" {
  source = "../../modules/net"
  cidr   = ["10.0.0.0/16"]
}
//- modules/net/variables.tf
# The network's inputs.
variable "cidr" {
  type = string
}
"#,
    );
    let path = Path::new(DIR).join("examples/simple/main.tf");
    let published = analysis.file_diagnostics(&path).unwrap();
    let related: Vec<String> = published
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.code == tofu_diagnostics::codes::INVALID_VARIABLE_VALUE)
        .flat_map(|diagnostic| &diagnostic.related)
        .map(|related| {
            let at = &related.location;
            let shown = &at.text[at.range.start as usize..at.range.end as usize];
            format!(
                "{} ({})",
                place(&at.path, &at.text, at.range.start, shown),
                related.message
            )
        })
        .collect();
    assert_eq!(
        related,
        [r#"modules/net/variables.tf:2 variable "cidr" (module.net.var.cidr is declared here)"#]
    );
}

//! Refactorings (issue 46, parts 2, 4 and 5): each test applies the edit
//! a refactoring returns to the fixture's files and shows every file it
//! touched as it then reads, or the refusal's reason.

use std::collections::BTreeMap;
use std::path::PathBuf;

use tofu_syntax::TextRange;

use super::{fixture, DIR};
use crate::Refactoring;

/// The titles offered at the fixture's cursor, a refused one with its
/// reason after ` -- `.
fn titles(text: &str) -> Vec<String> {
    let (snapshot, path, offset) = fixture(text);
    snapshot
        .refactorings(&path, TextRange::new(offset, offset))
        .into_iter()
        .map(|refactoring| match refactoring.refused {
            Some(reason) => format!("{} -- {reason}", refactoring.title),
            None => refactoring.title,
        })
        .collect()
}

/// The files the refactoring titled `title` touches, as they read after
/// its edits (new files too), each under a `//- name` header.
fn applied(text: &str, title: &str) -> String {
    applied_to_range(text, title, None)
}

fn applied_to_range(text: &str, title: &str, until: Option<&str>) -> String {
    let (snapshot, path, offset) = fixture(text);
    let end = until.map_or(offset, |needle| {
        let file = snapshot.file_text(&path).unwrap();
        (offset as usize + file[offset as usize..].find(needle).unwrap()) as u32
    });
    let refactorings = snapshot.refactorings(&path, TextRange::new(offset, end));
    let Some(refactoring) = refactorings.iter().find(|r| r.title == title) else {
        panic!(
            "no {title:?} among {:?}",
            refactorings.iter().map(|r| &r.title).collect::<Vec<_>>()
        );
    };
    render(&snapshot, refactoring)
}

/// The reasons the extraction is refused for the `len` bytes selected
/// from the cursor of `text`.
fn extraction_refusals(text: &str, len: u32) -> Vec<String> {
    let (snapshot, path, offset) = fixture(text);
    snapshot
        .refactorings(&path, TextRange::new(offset, offset + len))
        .into_iter()
        .filter(|r| r.title.starts_with("Extract"))
        .filter_map(|r| r.refused)
        .collect()
}

fn render(snapshot: &crate::Snapshot, refactoring: &Refactoring) -> String {
    assert_eq!(refactoring.refused, None);
    let mut files: BTreeMap<PathBuf, String> = BTreeMap::new();
    for (path, text) in &refactoring.new_files {
        assert!(snapshot.file_text(path).is_none(), "{path:?} exists");
        files.insert(path.clone(), text.clone());
    }
    let mut by_file: BTreeMap<PathBuf, Vec<(TextRange, String)>> = BTreeMap::new();
    for edit in &refactoring.edits {
        by_file
            .entry(edit.location.path.clone())
            .or_default()
            .push((edit.location.range, edit.new_text.clone()));
    }
    for (path, mut edits) in by_file {
        let mut text = snapshot.file_text(&path).unwrap().to_string();
        edits.sort_by_key(|(range, _)| std::cmp::Reverse((range.start, range.end)));
        for (range, new_text) in edits {
            text.replace_range(range.start as usize..range.end as usize, &new_text);
        }
        files.insert(path, text);
    }
    files
        .into_iter()
        .map(|(path, text)| {
            let name = path.strip_prefix(DIR).unwrap().display().to_string();
            format!("//- {name}\n{text}")
        })
        .collect()
}

const MODULE: &str = r#"
//- main.tf
# The web server.
resource "terraform_data" "web" {
  input = "web"
}

resource "terraform_data" "db" {
  input = terraform_data.web.id
}

output "web" {
  value = terraform_data.web.output
}
//- variables.tf
variable "name" {
  type = string
}
//- override.tf
resource "terraform_data" "web" {
  input = "changed"
}
"#;

#[test]
fn blocks_move_to_a_new_file_or_another_with_their_comments() {
    let at_web = super::with_cursor(MODULE, "main.tf", "\"web\" {");
    assert_eq!(
        titles(&at_web)[..2],
        ["Move to new file `web.tf`", "Move to `variables.tf`",]
    );
    assert_eq!(
        applied(&at_web, "Move to new file `web.tf`"),
        r#"//- main.tf
resource "terraform_data" "db" {
  input = terraform_data.web.id
}

output "web" {
  value = terraform_data.web.output
}
//- web.tf
# The web server.
resource "terraform_data" "web" {
  input = "web"
}
"#
    );
    // Two blocks, to the end of an existing file, a blank line between.
    let at_db = super::with_cursor(MODULE, "main.tf", "resource \"terraform_data\" \"db\"");
    assert_eq!(
        applied_to_range(&at_db, "Move 2 blocks to `variables.tf`", Some(".output")),
        r#"//- main.tf
# The web server.
resource "terraform_data" "web" {
  input = "web"
}
//- variables.tf
variable "name" {
  type = string
}

resource "terraform_data" "db" {
  input = terraform_data.web.id
}

output "web" {
  value = terraform_data.web.output
}
"#
    );
    // Variables go to `variables.tf`; when that is taken, to a file
    // named after the variable.
    let at_variable = super::with_cursor(MODULE, "variables.tf", "variable");
    assert_eq!(titles(&at_variable)[0], "Move to new file `name.tf`");
}

#[test]
fn moving_refuses_override_and_json_files_and_keeps_extensions_apart() {
    let at_override = super::with_cursor(MODULE, "override.tf", "resource");
    assert_eq!(
        titles(&at_override),
        [
            "Move to another file -- The blocks are in an override file: moving them would change what they override.",
            "Extract into a module -- The blocks are in an override file.",
        ]
    );
    let json =
        "//- main.tf.json\n{\"resource\": {\"terraform_data\": {\"a\": $0{}}}}\n//- other.tf\n";
    assert!(titles(json)[0].starts_with("Move to another file -- The blocks are written in JSON"));
    // A `terraform` block stays in files of its extension; an override
    // name is never chosen for a new file.
    let versions = r#"
//- versions.tofu
$0terraform {
  required_version = ">= 1.12"
}
//- main.tf
//- other.tofu
"#;
    assert_eq!(
        titles(versions),
        ["Move to new file `versions-2.tofu`", "Move to `other.tofu`"]
    );
    let named_override = "//- main.tf\nresource \"a\" \"x_override\" {$0}\n";
    assert_eq!(
        titles(named_override)[0],
        "Move to new file `x_override-2.tf`"
    );
}

#[test]
fn a_resource_is_removed_with_its_objects_kept() {
    let text = r#"
//- main.tf
resource "terraform_data" "a" {
  count = 2
}

resource "terraform_data" "b" {
  input = "b"
}
//- override.tf
resource "terraform_data" "a" {
  input = "x"
}
"#;
    let at_a = super::with_cursor(text, "main.tf", "\"a\" {");
    assert_eq!(
        applied(
            &at_a,
            "Remove `terraform_data.a` from the configuration, keep its objects"
        ),
        r#"//- main.tf
removed {
  from = terraform_data.a

  lifecycle {
    destroy = false
  }
}

resource "terraform_data" "b" {
  input = "b"
}
//- override.tf
"#
    );
    assert_eq!(
        applied(
            &at_a,
            "Generate an `import` block for `terraform_data.a[0]`"
        ),
        r#"//- main.tf
resource "terraform_data" "a" {
  count = 2
}

import {
  to = terraform_data.a[0]
  id = ""
}

resource "terraform_data" "b" {
  input = "b"
}
"#
    );
}

#[test]
fn removal_is_refused_while_something_refers_to_it() {
    let at_web = super::with_cursor(MODULE, "main.tf", "\"web\" {");
    let refused: Vec<String> = titles(&at_web)
        .into_iter()
        .filter(|title| title.starts_with("Remove"))
        .collect();
    assert_eq!(
        refused,
        ["Remove `terraform_data.web` from the configuration, keep its objects -- `terraform_data.web` is still referred to at main.tf:7: remove the references first."]
    );
    let for_each = r#"
//- main.tf
resource "terraform_data" "a" {
  for_each = toset(["y", "x"])
}
//- imports.tf
"#;
    let at_a = super::with_cursor(for_each, "main.tf", "\"a\" {");
    assert_eq!(
        applied(
            &at_a,
            "Generate an `import` block for `terraform_data.a[\"x\"]`"
        ),
        "//- imports.tf\nimport {\n  to = terraform_data.a[\"x\"]\n  id = \"\"\n}\n"
    );
}

#[test]
fn a_single_resource_becomes_repeated_with_its_references_indexed() {
    let at_web = super::with_cursor(MODULE, "main.tf", "\"web\" {");
    assert_eq!(
        applied(&at_web, "Repeat `terraform_data.web` with `count = 1`"),
        r#"//- main.tf
# The web server.
resource "terraform_data" "web" {
  count = 1

  input = "web"
}

moved {
  from = terraform_data.web
  to   = terraform_data.web[0]
}

resource "terraform_data" "db" {
  input = terraform_data.web[0].id
}

output "web" {
  value = terraform_data.web[0].output
}
"#
    );
    let whole = r#"
//- main.tf
resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  depends_on = [terraform_data.a]
  input      = [terraform_data.a[*].id]
}
//- moved.tf
moved {
  from = terraform_data.old
  to   = terraform_data.a
}
"#;
    let at_a = super::with_cursor(whole, "main.tf", "\"a\" {");
    assert_eq!(
        applied(
            &at_a,
            "Repeat `terraform_data.a` with `for_each = toset([\"a\"])`"
        ),
        r#"//- main.tf
resource "terraform_data" "a" {
  for_each = toset(["a"])
}
resource "terraform_data" "b" {
  depends_on = [terraform_data.a]
  input      = [terraform_data.a[*].id]
}
//- moved.tf
moved {
  from = terraform_data.old
  to   = terraform_data.a
}

moved {
  from = terraform_data.a
  to   = terraform_data.a["a"]
}
"#
    );
    // Already repeated: nothing to repeat.
    let counted = "//- main.tf\nresource \"a\" \"b\" {\n  count = 2$0\n}\n";
    assert!(titles(counted)
        .iter()
        .all(|title| !title.starts_with("Repeat")));
}

#[test]
fn a_called_modules_import_block_goes_in_its_root_caller() {
    let text = r#"
//- main.tf
module "app" {
  source = "./modules/child"
  count  = 2
}
//- modules/child/main.tf
resource "terraform_data" "one" {}
"#;
    let at_one = super::with_cursor(text, "modules/child/main.tf", "\"one\"");
    assert_eq!(
        applied(
            &at_one,
            "Generate an `import` block for `module.app[0].terraform_data.one`"
        ),
        r#"//- main.tf
module "app" {
  source = "./modules/child"
  count  = 2
}

import {
  to = module.app[0].terraform_data.one
  id = ""
}
"#
    );
    // Called twice: no root module to write it in.
    let twice =
        format!("{text}//- other/main.tf\nmodule \"b\" {{\n  source = \"../modules/child\"\n}}\n");
    let at_one = super::with_cursor(&twice, "modules/child/main.tf", "\"one\"");
    assert!(titles(&at_one).contains(
        &"Generate an `import` block for `terraform_data.one` -- OpenTofu reads `import` blocks in the root module only, and this module is called from 2 places.".to_owned()
    ), "{:?}", titles(&at_one));
}

const FLEET: &str = r#"
//- main.tf
locals {
  names = ["a", "b", "c"]
}

resource "terraform_data" "fleet" {
  count = length(local.names)
  input = "${local.names[count.index]}-x"
}

output "first" {
  value = terraform_data.fleet[1].id
}

output "all" {
  value = terraform_data.fleet[*].id
}
"#;

#[test]
fn count_over_a_known_list_becomes_for_each_over_its_elements() {
    let at_fleet = super::with_cursor(FLEET, "main.tf", "\"fleet\" {");
    assert_eq!(
        applied(
            &at_fleet,
            "Convert `terraform_data.fleet` to `for_each = toset(local.names)`"
        ),
        r#"//- main.tf
locals {
  names = ["a", "b", "c"]
}

resource "terraform_data" "fleet" {
  for_each = toset(local.names)
  input    = "${each.key}-x"
}

moved {
  from = terraform_data.fleet[0]
  to   = terraform_data.fleet["a"]
}

moved {
  from = terraform_data.fleet[1]
  to   = terraform_data.fleet["b"]
}

moved {
  from = terraform_data.fleet[2]
  to   = terraform_data.fleet["c"]
}

output "first" {
  value = terraform_data.fleet["b"].id
}

output "all" {
  value = values(terraform_data.fleet)[*].id
}
"#
    );
}

#[test]
fn count_is_not_converted_where_the_keys_or_the_order_would_be_a_guess() {
    let refusal = |text: &str| {
        let at = super::with_cursor(text, "main.tf", "\"fleet\" {");
        titles(&at)
            .into_iter()
            .find(|title| title.starts_with("Convert"))
            .unwrap()
    };
    // Unsorted: the splat's order would change.
    let unsorted = FLEET.replace(r#"["a", "b", "c"]"#, r#"["b", "a", "c"]"#);
    assert!(
        refusal(&unsorted).ends_with("`terraform_data.fleet` is read at main.tf:15 as a list of its instances, whose order `for_each` would change."),
        "{}",
        refusal(&unsorted)
    );
    let literal = FLEET.replace("length(local.names)", "3");
    assert!(
        refusal(&literal).contains("`for_each` needs keys"),
        "{}",
        refusal(&literal)
    );
    let index = FLEET.replace("local.names[count.index]", "count.index");
    assert!(
        refusal(&index).ends_with(
            "`count.index` is read at main.tf:7 other than as `local.names[count.index]`."
        ),
        "{}",
        refusal(&index)
    );
    let twice = FLEET.replace(r#"["a", "b", "c"]"#, r#"["a", "a"]"#);
    assert!(
        refusal(&twice).contains("holds an element twice"),
        "{}",
        refusal(&twice)
    );
    let unknown = FLEET.replace(r#"["a", "b", "c"]"#, "terraform_data.other[*].id");
    assert!(
        refusal(&unknown).contains("are not known"),
        "{}",
        refusal(&unknown)
    );
}

const EXTRACTABLE: &str = r#"
//- main.tf
variable "env" {
  type = string
}

resource "terraform_data" "base" {
  input = var.env
}

# The web tier.
resource "terraform_data" "web" {
  count = 2
  input = "${terraform_data.base.output}-${var.env}-${count.index}"
}

data "terraform_data" "lookup" {
  input = terraform_data.web[0].id
}

output "web_ids" {
  value = terraform_data.web[*].id
}

resource "terraform_data" "after" {
  depends_on = [terraform_data.web]
  input      = data.terraform_data.lookup.output
}
//- versions.tf
terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}
"#;

#[test]
fn resources_are_extracted_into_a_module_with_their_inputs_and_outputs() {
    let at_web = super::with_cursor(
        EXTRACTABLE,
        "main.tf",
        "resource \"terraform_data\" \"web\"",
    );
    assert_eq!(
        applied_to_range(
            &at_web,
            "Extract into module `modules/web`",
            Some("web[0].id")
        ),
        r#"//- main.tf
variable "env" {
  type = string
}

resource "terraform_data" "base" {
  input = var.env
}

module "web" {
  source = "./modules/web"

  base = terraform_data.base
  env  = var.env
}

moved {
  from = terraform_data.web
  to   = module.web.terraform_data.web
}

output "web_ids" {
  value = module.web.web[*].id
}

resource "terraform_data" "after" {
  depends_on = [module.web]
  input      = module.web.lookup.output
}
//- modules/web/main.tf
# The web tier.
resource "terraform_data" "web" {
  count = 2
  input = "${var.base.output}-${var.env}-${count.index}"
}

data "terraform_data" "lookup" {
  input = terraform_data.web[0].id
}
//- modules/web/outputs.tf
output "web" {
  value = terraform_data.web
}

output "lookup" {
  value = data.terraform_data.lookup
}
//- modules/web/variables.tf
variable "base" {}

variable "env" {
  type = string
}
//- modules/web/versions.tf
terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}
"#
    );
}

const WITH_LOCALS: &str = r#"
//- main.tf
variable "token" {
  type      = string
  sensitive = true
}

variable "env" {
  type = string
}

# Names of the tier.
locals {
  prefix = "web-${var.env}"
  secret = "${var.token}-${local.prefix}"
}

resource "terraform_data" "web" {
  input = local.prefix
}

output "prefix" {
  value = local.prefix
}

output "secret" {
  value     = local.secret
  sensitive = true
}
"#;

/// A `locals` block goes with the resources: what it reads from outside
/// becomes variables, what is read of it from outside outputs of the local
/// values' names (sensitive where the value is), and no `moved` block is
/// written for it.
#[test]
fn local_values_are_extracted_with_the_resources() {
    let at_locals = super::with_cursor(WITH_LOCALS, "main.tf", "# Names of the tier.");
    assert_eq!(
        applied_to_range(
            &at_locals,
            "Extract into module `modules/web`",
            Some("\n}\n\noutput \"prefix\"")
        ),
        r#"//- main.tf
variable "token" {
  type      = string
  sensitive = true
}

variable "env" {
  type = string
}

module "web" {
  source = "./modules/web"

  env   = var.env
  token = var.token
}

moved {
  from = terraform_data.web
  to   = module.web.terraform_data.web
}

output "prefix" {
  value = module.web.prefix
}

output "secret" {
  value     = module.web.secret
  sensitive = true
}
//- modules/web/main.tf
# Names of the tier.
locals {
  prefix = "web-${var.env}"
  secret = "${var.token}-${local.prefix}"
}

resource "terraform_data" "web" {
  input = local.prefix
}
//- modules/web/outputs.tf
output "prefix" {
  value = local.prefix
}

output "secret" {
  value     = local.secret
  sensitive = true
}
//- modules/web/variables.tf
variable "env" {
  type = string
}

variable "token" {
  type = string
}
"#
    );
}

/// A configuration named by its alias is passed by the call, and the
/// child's resources name its default; two configurations of one provider
/// are refused.
#[test]
fn a_provider_configuration_named_by_an_alias_is_passed_to_the_new_module() {
    let text = r#"
//- main.tf
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

resource "aws_instance" "web" {
  provider = aws.west
  ami      = "ami-1"
}
//- versions.tf
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
"#;
    let at_web = super::with_cursor(text, "main.tf", "resource \"aws_instance\"");
    assert_eq!(
        applied_to_range(&at_web, "Extract into module `modules/web`", None),
        r#"//- main.tf
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

module "web" {
  source = "./modules/web"
  providers = {
    aws = aws.west
  }
}

moved {
  from = aws_instance.web
  to   = module.web.aws_instance.web
}
//- modules/web/main.tf
resource "aws_instance" "web" {
  provider = aws
  ami      = "ami-1"
}
//- modules/web/versions.tf
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
"#
    );
    let two = "//- main.tf\nresource \"aws_instance\" \"a\" {\n  provider = aws.west\n}\nresource \"aws_instance\" \"b\" {}\n";
    let refused = extraction_refusals(&super::with_cursor(two, "main.tf", "resource"), 60);
    assert_eq!(
        refused,
        ["The resources name `aws.west` and the default configuration of `aws`: the new module would need `configuration_aliases`."]
    );
}

#[test]
fn extraction_is_refused_where_the_new_module_would_read_differently() {
    let refusal = |text: &str, file: &str, at: &str| {
        let text = super::with_cursor(text, file, at);
        titles(&text)
            .into_iter()
            .find(|title| title.starts_with("Extract"))
            .unwrap()
    };
    let path = "//- main.tf\nresource \"terraform_data\" \"a\" {\n  input = path.module\n}\n";
    assert_eq!(
        refusal(path, "main.tf", "resource"),
        "Extract into a module -- main.tf:2 reads `path.*`, which would name the new module's directory."
    );
    let overridden = "//- main.tf\nresource \"terraform_data\" \"a\" {}\n//- override.tf\nresource \"terraform_data\" \"a\" {\n  input = 1\n}\n";
    assert!(refusal(overridden, "main.tf", "resource")
        .contains("is changed by an override file (override.tf)"));
    let local_overridden = "//- main.tf\nlocals {\n  n = 1\n}\nresource \"terraform_data\" \"a\" {\n  input = local.n\n}\n//- override.tf\nlocals {\n  n = 2\n}\n";
    let refused = extraction_refusals(
        &super::with_cursor(local_overridden, "main.tf", "locals"),
        40,
    );
    assert_eq!(
        refused,
        ["`local.n` is changed by an override file (override.tf): extract it by hand."]
    );
    let depends = "//- main.tf\nresource \"terraform_data\" \"b\" {}\nresource \"terraform_data\" \"a\" {\n  depends_on = [terraform_data.b]\n}\n";
    assert!(
        refusal(depends, "main.tf", "resource \"terraform_data\" \"a\"")
            .contains("in `depends_on` or `replace_triggered_by`, outside the selection")
    );
    // A variable alone is not extracted: no action at all.
    let variable = "//- main.tf\nvariable \"a\" {}\n";
    assert!(titles(&super::with_cursor(variable, "main.tf", "variable"))
        .iter()
        .all(|t| !t.starts_with("Extract")));
}

#[test]
fn the_files_most_like_the_selection_are_offered_first_ten_at_most() {
    let mut text = String::from("//- main.tf\nvariable \"a\" {}\n");
    for n in 0..12 {
        text.push_str(&format!("//- f{n:02}.tf\nlocals {{}}\n"));
    }
    text.push_str("//- zz_vars.tf\nvariable \"b\" {}\n");
    let at_a = super::with_cursor(&text, "main.tf", "variable");
    let titles = titles(&at_a);
    let moves: Vec<&String> = titles
        .iter()
        .filter(|t| t.starts_with("Move to `"))
        .collect();
    assert_eq!(moves.len(), 10);
    assert_eq!(moves[0], "Move to `zz_vars.tf`");
    assert_eq!(moves[1], "Move to `f00.tf`");
}

#[test]
fn a_key_written_into_a_json_reference_is_escaped() {
    // Found by the proof (seed 7): `["db"]` inserted into a JSON template
    // ended its string.
    let text = r#"
//- main.tf
resource "terraform_data" "db" {}
//- main.tf.json
{"output": {"id": {"value": "${terraform_data.db.id}"}}}
"#;
    let at_db = super::with_cursor(text, "main.tf", "\"db\" {");
    let applied = applied(
        &at_db,
        "Repeat `terraform_data.db` with `for_each = toset([\"db\"])`",
    );
    assert!(
        applied.contains(r#"{"output": {"id": {"value": "${terraform_data.db[\"db\"].id}"}}}"#),
        "{applied}"
    );
}

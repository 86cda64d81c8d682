//! Values on hover: a local value, an input variable (its default, or what
//! a `.tfvars` file OpenTofu loads sets) and an output, as `tofu console`
//! prints them. The values of the locals and variables were printed by
//! OpenTofu 1.12.6's `tofu console -var required=r` in a copy of
//! [`MODULE`] without `loop_a`/`loop_b` (`aws_instance.web.id` reported
//! as an undeclared resource, then printed unknown); an output shows the
//! value of its expression. Ours, not OpenTofu's: a variable nobody sets
//! is unknown (OpenTofu would ask for it), and so is a local that reaches
//! itself (OpenTofu reports the cycle).

use super::{hover, with_cursor};

const MODULE: &str = r#"
//- main.tf
variable "region" {
  type    = string
  default = "eu-west-1"
}
variable "size" {
  type    = number
  default = 1
}
variable "zones" {
  type    = list(string)
  default = ["a", "b"]
}
variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
variable "required" {
  type = string
}
locals {
  name   = "web-${var.region}"
  sum    = 0.1 + 0.2
  tags   = { Name = local.name, Size = var.size * 2 }
  zones  = [for z in var.zones : upper(z)]
  secret = "x${var.password}"
  lines  = "a\nb\n"
  id     = aws_instance.web.id
  here   = path.module
  ws     = terraform.workspace
  loop_a = local.loop_b
  loop_b = local.loop_a
}
output "name" {
  value = local.name
}
output "secret" {
  value     = local.secret
  sensitive = true
}
//- uses.tf
output "uses" {
  value = [local.name, local.sum, local.tags, local.zones, local.secret, local.lines, local.id, local.here, local.ws, var.size, var.region, var.password, var.zones, var.required, local.loop_a]
}
//- terraform.tfvars
size = "3"
//- a.auto.tfvars
region = "us-east-1"
//- b.auto.tfvars
region = "ap-south-1"
//- dev.tfvars
region = "not-loaded-by-itself"
"#;

/// The value paragraph of the hover on `needle` in `file`: its heading
/// line and the value.
fn value_at(file: &str, needle: &str) -> String {
    let markdown = hover(&with_cursor(MODULE, file, needle));
    let Some((_, note)) = markdown.rsplit_once("---\n\n") else {
        return format!("no value in:\n{markdown}");
    };
    note.replace("```hcl\n", "").replace("\n```\n", "")
}

const LOCAL: &str = "Value, as `tofu console` prints it:\n\n";

#[test]
fn hover_on_a_local_value_shows_its_value() {
    let at = |name: &str| value_at("uses.tf", &format!("{name},"));
    assert_eq!(at("local.name"), format!("{LOCAL}\"web-ap-south-1\""));
    assert_eq!(at("local.sum"), format!("{LOCAL}0.3"));
    assert_eq!(
        at("local.tags"),
        format!("{LOCAL}{{\n  \"Name\" = \"web-ap-south-1\"\n  \"Size\" = 6\n}}")
    );
    assert_eq!(
        at("local.zones"),
        format!("{LOCAL}[\n  \"A\",\n  \"B\",\n]")
    );
    assert_eq!(at("local.secret"), format!("{LOCAL}(sensitive value)"));
    assert_eq!(at("local.lines"), format!("{LOCAL}<<EOT\na\nb\n\nEOT"));
    assert_eq!(at("local.id"), format!("{LOCAL}(known after apply)"));
    assert_eq!(at("local.here"), format!("{LOCAL}\".\""));
    assert_eq!(at("local.ws"), format!("{LOCAL}\"default\""));
    // A local that reaches itself has no value to show, and hover still answers.
    assert_eq!(
        value_at("uses.tf", "local.loop_a]"),
        format!("{LOCAL}(known after apply)")
    );
    // On the definition's name too.
    assert_eq!(value_at("main.tf", "sum    ="), format!("{LOCAL}0.3"));
}

#[test]
fn hover_on_a_variable_shows_the_value_opentofu_would_use() {
    let at = |name: &str| value_at("uses.tf", &format!("{name},"));
    assert_eq!(
        at("var.size"),
        "Value (set in `terraform.tfvars`), as `tofu console` prints it:\n\n3"
    );
    // The last `*.auto.tfvars` by name wins; `dev.tfvars` is read only when asked for.
    assert_eq!(
        at("var.region"),
        "Value (set in `b.auto.tfvars`), as `tofu console` prints it:\n\n\"ap-south-1\""
    );
    assert_eq!(
        at("var.password"),
        "Value (its default), as `tofu console` prints it:\n\n(sensitive value)"
    );
    assert_eq!(
        at("var.zones"),
        "Value (its default), as `tofu console` prints it:\n\ntolist([\n  \"a\",\n  \"b\",\n])"
    );
    assert_eq!(
        at("var.required"),
        "Value (no default, no `.tfvars` file sets it), as `tofu console` prints it:\n\n(known after apply)"
    );
    // On the declaration.
    assert_eq!(
        value_at("main.tf", "\"size\" {"),
        "Value (set in `terraform.tfvars`), as `tofu console` prints it:\n\n3"
    );
}

#[test]
fn hover_on_an_output_shows_its_value() {
    assert_eq!(
        value_at("main.tf", "\"name\" {"),
        format!("{LOCAL}\"web-ap-south-1\"")
    );
    assert_eq!(
        value_at("main.tf", "\"secret\" {"),
        format!("{LOCAL}(sensitive value)")
    );
}

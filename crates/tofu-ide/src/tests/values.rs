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

/// A module whose locals read files, as in `/tmp` with `motd.txt`
/// (`hello` and a line break) and `greet.tpl` (`Hi ${name}!`) beside it;
/// the values were printed by OpenTofu 1.12.6's `tofu console` there.
const READS_FILES: &str = r#"
//- main.tf
locals {
  motd     = file("${path.module}/motd.txt")
  has_motd = fileexists("motd.txt")
  greeting = templatefile("greet.tpl", { name = "web" })
  texts    = fileset(path.module, "*.txt")
}
"#;

/// The module directory's files as the language server hands them in (it
/// reads the disk).
struct FilesOnDisk;

impl tofu_eval::Environment for FilesOnDisk {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, tofu_eval::FileError> {
        match path.trim_start_matches("./") {
            "motd.txt" => Ok(b"hello\n".to_vec()),
            "greet.tpl" => Ok(b"Hi ${name}!".to_vec()),
            _ => Err(tofu_eval::FileError::NotFound),
        }
    }

    fn file_exists(&self, path: &str) -> Result<bool, tofu_eval::FileError> {
        Ok(matches!(path, "motd.txt" | "greet.tpl"))
    }

    fn read_dir(&self, _path: &str) -> Result<Vec<tofu_eval::DirEntry>, tofu_eval::FileError> {
        Ok(["motd.txt", "greet.tpl", "main.tf"]
            .map(|name| tofu_eval::DirEntry {
                name: name.to_owned(),
                kind: tofu_eval::EntryKind::File,
            })
            .to_vec())
    }
}

/// The value paragraph of the hover on local `name`'s definition, with
/// the snapshot given `files`.
fn file_value(name: &str, files: Option<tofu_module::ModuleFiles>) -> String {
    let (snapshot, path, offset) =
        super::fixture(&with_cursor(READS_FILES, "main.tf", &format!("{name} ")));
    let snapshot = match files {
        Some(files) => snapshot.with_module_files(std::path::Path::new(super::DIR), files),
        None => snapshot,
    };
    let markdown = snapshot.hover(&path, offset).unwrap().markdown;
    let (_, note) = markdown.rsplit_once("---\n\n").unwrap();
    note.replace(LOCAL, "")
        .replace("```hcl\n", "")
        .replace("\n```\n", "")
}

#[test]
fn hover_on_a_local_reads_the_files_its_functions_read() {
    let on_disk = || {
        Some(tofu_module::ModuleFiles::new(std::sync::Arc::new(
            FilesOnDisk,
        )))
    };
    assert_eq!(file_value("motd", on_disk()), "<<EOT\nhello\n\nEOT");
    assert_eq!(file_value("has_motd", on_disk()), "true");
    assert_eq!(file_value("greeting", on_disk()), "\"Hi web!\"");
    assert_eq!(
        file_value("texts", on_disk()),
        "toset([\n  \"motd.txt\",\n])"
    );
    // Given no files, the same values are unknown.
    assert_eq!(file_value("motd", None), "(known after apply)");
    assert_eq!(file_value("greeting", None), "(known after apply)");
}

/// What differs on every run (`uuid`, `timestamp`, `bcrypt`) shows as
/// unknown on hover, as `tofu validate` sees it; only `tofu-lens console`
/// computes it, as `tofu console` does.
#[test]
fn hover_leaves_what_differs_per_run_unknown() {
    const PER_RUN: &str = r#"
//- main.tf
locals {
  id   = uuid()
  now  = timestamp()
  hash = bcrypt("x")
}
output "all" {
  value = [local.id, local.now, local.hash]
}
"#;
    for needle in ["local.id,", "local.now,", "local.hash]"] {
        let markdown = hover(&with_cursor(PER_RUN, "main.tf", needle));
        assert!(
            markdown.ends_with(&format!("{LOCAL}```hcl\n(known after apply)\n```\n")),
            "{needle}: {markdown}"
        );
    }
}

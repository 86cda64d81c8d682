//! Semantic highlighting: each highlight rendered as `kind text`, in order.

use super::fixture;
use crate::{HighlightKind, NameKind};

/// The highlights of the file holding `$0` (or `main.tf`), one line each.
fn highlights(text: &str) -> Vec<String> {
    let (analysis, path, _) = fixture(text);
    let file_text = analysis.file_text(&path).unwrap();
    analysis
        .semantic_tokens(&path, None)
        .unwrap()
        .iter()
        .map(|highlight| {
            let kind = match highlight.kind {
                HighlightKind::Declaration(name) => format!("Declaration({})", name_kind(name)),
                HighlightKind::Reference(name) => format!("Reference({})", name_kind(name)),
                kind => format!("{kind:?}"),
            };
            format!("{kind} {}", highlight.range.slice(&file_text))
        })
        .collect()
}

fn name_kind(kind: NameKind) -> &'static str {
    match kind {
        NameKind::Variable => "var",
        NameKind::Local => "local",
        NameKind::Resource => "resource",
        NameKind::DataSource => "data",
        NameKind::ModuleCall => "module",
        NameKind::Output => "output",
    }
}

#[test]
fn blocks_labels_arguments_and_literals() {
    let text = r#"
//- main.tf
# The web server.
resource "aws_instance" "web" {
  ami   = "ami-1"
  count = 2 // two
  tags = {
    Name = "web-${count.index}"
  }
  lifecycle {
    create_before_destroy = true
  }
}
"#;
    assert_eq!(
        highlights(text),
        [
            "Comment # The web server.",
            "BlockType resource",
            "TypeLabel \"aws_instance\"",
            "Declaration(resource) \"web\"",
            "Argument ami",
            "String \"ami-1\"",
            "Argument count",
            "Number 2",
            "Comment // two",
            "Argument tags",
            "ObjectKey Name",
            "String \"web-",
            "BuiltinObject count",
            "Property index",
            "String \"",
            "BlockType lifecycle",
            "Argument create_before_destroy",
            "Keyword true",
        ]
    );
}

#[test]
fn references_by_kind_functions_and_iterators() {
    let text = r#"
//- main.tf
variable "names" {
  type = list(object({ id = string }))
}
locals {
  upper = [for n in var.names : upper(n.id) if n != null]
}
data "aws_ami" "ubuntu" {}
module "net" {
  source = "./net"
}
resource "aws_instance" "web" {
  ami       = data.aws_ami.ubuntu.id
  subnet_id = module.net.subnet_ids[0]
  user_data = local.upper
  dynamic "ebs_block_device" {
    for_each = toset(var.names)
    content {
      device_name = ebs_block_device.value
    }
  }
}
output "ip" {
  value = aws_instance.web.private_ip
}
"#;
    assert_eq!(
        highlights(text),
        [
            "BlockType variable",
            "Declaration(var) \"names\"",
            "Argument type",
            "TypeName list",
            "TypeName object",
            "ObjectKey id",
            "TypeName string",
            "BlockType locals",
            "Declaration(local) upper",
            "Keyword for",
            "IteratorName n",
            "Keyword in",
            "Reference(var) var.names",
            "Function upper",
            "IteratorName n",
            "Property id",
            "Keyword if",
            "IteratorName n",
            "Keyword null",
            "BlockType data",
            "TypeLabel \"aws_ami\"",
            "Declaration(data) \"ubuntu\"",
            "BlockType module",
            "Declaration(module) \"net\"",
            "Argument source",
            "String \"./net\"",
            "BlockType resource",
            "TypeLabel \"aws_instance\"",
            "Declaration(resource) \"web\"",
            "Argument ami",
            "Reference(data) data.aws_ami.ubuntu",
            "Property id",
            "Argument subnet_id",
            "Reference(module) module.net",
            "Property subnet_ids",
            "Number 0",
            "Argument user_data",
            "Reference(local) local.upper",
            "BlockType dynamic",
            "TypeLabel \"ebs_block_device\"",
            "Argument for_each",
            "Function toset",
            "Reference(var) var.names",
            "BlockType content",
            "Argument device_name",
            "IteratorName ebs_block_device",
            "Property value",
            "BlockType output",
            "Declaration(output) \"ip\"",
            "Argument value",
            "Reference(resource) aws_instance.web",
            "Property private_ip",
        ]
    );
}

#[test]
fn heredocs_and_template_directives() {
    let text = r#"
//- main.tf
locals {
  script = <<-EOT
    echo ${var.greeting}
    %{ for s in var.servers ~}
    ${s}
    %{ endfor ~}
  EOT
}
"#;
    assert_eq!(
        highlights(text),
        [
            "BlockType locals",
            "Declaration(local) script",
            "HeredocMarker <<-EOT",
            "String     echo ",
            "Reference(var) var.greeting",
            "String     ",
            "Keyword for",
            "IteratorName s",
            "Keyword in",
            "Reference(var) var.servers",
            "String     ",
            "IteratorName s",
            "String     ",
            "Keyword endfor",
            "HeredocMarker EOT",
        ]
    );
}

#[test]
fn json_keys_values_and_templates() {
    let text = r#"
//- main.tf.json
{
  "variable": {"region": {"default": "eu-west-1"}},
  "resource": {"aws_instance": {"web": {
    "count": 2,
    "tags": {"Name": "web ${var.region}", "On": true}
  }}},
  "locals": {"x": "${aws_instance.web[0].id}"}
}$0
"#;
    assert_eq!(
        highlights(text),
        [
            "BlockType \"variable\"",
            "Declaration(var) \"region\"",
            "Argument \"default\"",
            "String \"eu-west-1\"",
            "BlockType \"resource\"",
            "TypeLabel \"aws_instance\"",
            "Declaration(resource) \"web\"",
            "Argument \"count\"",
            "Number 2",
            "Argument \"tags\"",
            "ObjectKey \"Name\"",
            "String \"web ",
            "Reference(var) var.region",
            "String \"",
            "ObjectKey \"On\"",
            "Keyword true",
            "BlockType \"locals\"",
            "Declaration(local) \"x\"",
            "String \"",
            "Reference(resource) aws_instance.web",
            "Number 0",
            "Property id",
            "String \"",
        ]
    );
}

/// A bare `T.N` is a resource only when the module declares it; a file
/// OpenTofu does not load still gets its colours.
#[test]
fn undeclared_names_and_unloaded_files() {
    let text = r#"
//- main.tf
resource "aws_instance" "web" {
  provider = aws.west
  ami      = aws_instance.web.ami
}
//- .backup.tf
$0variable "a" {
  default = aws_instance.web.id
}
"#;
    assert_eq!(
        highlights(text),
        [
            "BlockType variable",
            "Declaration(var) \"a\"",
            "Argument default",
            "Property web",
            "Property id",
        ]
    );
    let (analysis, path, _) = super::fixture(&text.replace("$0", ""));
    let main = analysis.semantic_tokens(&path, None).unwrap();
    let text_of_main = analysis.file_text(&path).unwrap();
    let kinds: Vec<String> = main
        .iter()
        .map(|h| format!("{:?} {}", h.kind, h.range.slice(&text_of_main)))
        .collect();
    assert!(kinds.contains(&"Property west".to_owned()), "{kinds:?}");
    assert!(
        kinds.contains(&"Reference(Resource) aws_instance.web".to_owned()),
        "{kinds:?}"
    );
}

//! Folding, selection ranges, highlights of a name and links on module
//! sources, rendered as `line-line kind` or the text each range covers.

use std::path::Path;
use std::sync::Arc;

use tofu_module::Config;

use super::{fixture, with_cursor, DIR};
use crate::{AnalysisHost, Change, FoldKind, LinkTarget};

/// `first-last kind` (1-based lines) of each folding range.
fn folds(text: &str) -> Vec<String> {
    let (analysis, path, _) = fixture(text);
    let file_text = analysis.file_text(&path).unwrap();
    let line = |offset: u32| file_text[..offset as usize].matches('\n').count() + 1;
    analysis
        .folding_ranges(&path)
        .unwrap()
        .iter()
        .map(|fold| {
            let kind = match fold.kind {
                FoldKind::Region => "region",
                FoldKind::Comment => "comment",
            };
            format!("{}-{} {kind}", line(fold.range.start), line(fold.range.end))
        })
        .collect()
}

#[test]
fn blocks_objects_heredocs_and_comment_runs_fold() {
    let text = r#"
//- main.tf
# One line alone.

# Two lines
# of comment.
resource "aws_instance" "web" {
  tags = {
    Name = "web"
  }
  user_data = <<EOT
echo hi
EOT
  ami = "ami-1" # trailing
  # a comment line after a trailing comment is alone
  lifecycle { create_before_destroy = true }
}
/* a block
   comment */
"#;
    assert_eq!(
        folds(text),
        [
            "3-4 comment",
            "5-15 region",
            "6-8 region",
            "9-11 region",
            "16-17 comment",
        ]
    );
}

#[test]
fn json_objects_fold() {
    let text = "//- main.tf.json\n{\n  \"variable\": {\n    \"a\": {\"default\": [\n      1\n    ]}\n  }\n}$0\n";
    assert_eq!(
        folds(text),
        ["1-7 region", "2-6 region", "3-5 region", "3-5 region"]
    );
}

/// The text of each range a selection grows through, innermost first.
fn selections(text: &str) -> Vec<String> {
    let (analysis, path, offset) = fixture(text);
    let file_text = analysis.file_text(&path).unwrap();
    analysis
        .selection_ranges(&path, offset)
        .unwrap()
        .iter()
        .map(|range| range.slice(&file_text).to_owned())
        .collect()
}

#[test]
fn a_selection_grows_from_the_token_to_the_file() {
    let text = r#"
//- main.tf
variable "x" {}
resource "aws_instance" "web" {
  tags = {
    Name = upper(aws_instance.w$0eb.id)
  }
}
"#;
    let expected = [
        "web",
        "aws_instance.web",
        "aws_instance.web.id",
        "upper(aws_instance.web.id)",
        "Name = upper(aws_instance.web.id)",
        "{\n    Name = upper(aws_instance.web.id)\n  }",
        "tags = {\n    Name = upper(aws_instance.web.id)\n  }",
        "{\n  tags = {\n    Name = upper(aws_instance.web.id)\n  }\n}",
        "resource \"aws_instance\" \"web\" {\n  tags = {\n    Name = upper(aws_instance.web.id)\n  }\n}",
    ];
    let selected = selections(text);
    assert_eq!(selected[..expected.len()], expected, "{selected:#?}");
    assert_eq!(selected.len(), expected.len() + 1);
    assert!(selected
        .last()
        .unwrap()
        .starts_with("variable \"x\" {}\nresource"));
}

/// `text [write|read]` of each occurrence of the name under the cursor.
fn occurrences(text: &str) -> Vec<String> {
    let (analysis, path, offset) = fixture(text);
    let file_text = analysis.file_text(&path).unwrap();
    analysis
        .document_highlights(&path, offset)
        .iter()
        .map(|occurrence| {
            let access = if occurrence.declaration {
                "write"
            } else {
                "read"
            };
            format!("{} {access}", occurrence.range.slice(&file_text))
        })
        .collect()
}

const NAMES: &str = r#"
//- main.tf
variable "region" {}
locals {
  zone = "${var.region}a"
}
output "zone" {
  value = [local.zone, var.region]
}
//- override.tf
variable "region" {
  default = "eu-west-1"
}
output "zone" {
  value = var.region
}
"#;

#[test]
fn highlights_are_the_declaration_and_the_uses_in_this_file() {
    assert_eq!(
        occurrences(&with_cursor(NAMES, "main.tf", "region}a")),
        ["\"region\" write", "var.region read", "var.region read"]
    );
    assert_eq!(
        occurrences(&with_cursor(NAMES, "override.tf", "region\" {")),
        ["\"region\" write", "var.region read"]
    );
    assert_eq!(
        occurrences(&with_cursor(NAMES, "main.tf", "zone =")),
        ["zone write", "local.zone read"]
    );
    assert!(occurrences(&with_cursor(NAMES, "main.tf", "value")).is_empty());
}

/// The links of `file` in a fixture whose every directory is analysed, as
/// `TEXT -> file|dir|url TARGET`.
fn rendered_links(text: &str, file: &str) -> Vec<String> {
    let mut host = AnalysisHost::new(Config::default());
    let mut dirs = vec![Path::new(DIR).to_path_buf()];
    for part in text.split("//- ").filter(|part| !part.trim().is_empty()) {
        let (name, body) = part.split_once('\n').unwrap();
        let path = Path::new(DIR).join(name.trim());
        dirs.push(path.parent().unwrap().to_path_buf());
        host.apply_change(Change::BufferChanged {
            path,
            text: Arc::from(body),
            version: 1,
        });
    }
    for dir in dirs {
        host.analyze_now(&dir);
    }
    let analysis = host.snapshot();
    let path = Path::new(DIR).join(file);
    let file_text = analysis.file_text(&path).unwrap();
    analysis
        .document_links(&path)
        .iter()
        .map(|link| {
            let target = match &link.target {
                LinkTarget::File(file) => format!("file {}", file.display()),
                LinkTarget::ModuleDir(dir) => format!("dir {}", dir.display()),
                LinkTarget::Url(url) => format!("url {url}"),
            };
            format!("{} -> {target}", link.range.slice(&file_text))
        })
        .collect()
}

#[test]
fn a_test_runs_module_source_links_from_the_module_directory() {
    // OpenTofu reads a run's module source from the module directory
    // (`configs/config_build.go`: the root is the parent), tests/ included.
    let text = r#"
//- main.tf
variable "a" {}
//- tests/a.tftest.hcl
run "setup" {
  module {
    source = "./setup"
  }
}
run "registry" {
  module {
    source  = "terraform-aws-modules/vpc/aws"
    version = "5.0.0"
  }
}
//- setup/main.tf
output "id" {
  value = 1
}
"#;
    let dir = Path::new(DIR);
    assert_eq!(
        rendered_links(text, "tests/a.tftest.hcl"),
        [
            format!("./setup -> file {}", dir.join("setup/main.tf").display()),
            "terraform-aws-modules/vpc/aws -> url https://search.opentofu.org/module/terraform-aws-modules/vpc/aws".to_owned(),
        ]
    );
}

#[test]
fn module_sources_link_to_files_and_registry_pages() {
    let text = r#"
//- main.tf
module "net" {
  source = "./net"
}
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.0.0"
}
module "elsewhere" {
  source = "../shared"
}
module "git" {
  source = "git::https://example.com/x.git"
}
//- net/variables.tf
variable "a" {}
//- net/main.tofu
variable "b" {}
"#;
    let links = rendered_links(text, "main.tf");
    let dir = Path::new(DIR);
    assert_eq!(
        links,
        [
            format!("./net -> file {}", dir.join("net/main.tofu").display()),
            "terraform-aws-modules/vpc/aws -> url https://search.opentofu.org/module/terraform-aws-modules/vpc/aws".to_owned(),
            format!("../shared -> dir {}", dir.parent().unwrap().join("shared").display()),
        ]
    );
}

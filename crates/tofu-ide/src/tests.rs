//! Feature tests through one fixture helper: a module written as one string
//! with `//- name` headers, the cursor marked `$0`, and expectations rendered
//! as the user sees them (markdown, `file:line` places, symbol outlines).
//! A header may name a file in another directory, relative to the module
//! (`//- modules/net/main.tf`, `//- ../root/main.tf`): every directory is
//! analysed, so features across the module boundary are tested the same way.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu_module::Config;
use tofu_syntax::TextRange;

use crate::{AnalysisHost, Change, FileRange, NavigationTarget, Snapshot};

mod completion_blocks;
mod completion_sources;
mod functions;
mod highlights;
mod module_tree;
mod provider_schemas;
mod refactorings;
mod structure;
mod values;

pub(crate) const DIR: &str = "/ws/mod";

/// Builds the module; returns the analysis, the file holding `$0` and the offset.
pub(crate) fn fixture(text: &str) -> (Snapshot, PathBuf, u32) {
    fixture_with_schemas(text, &tofu_module::ProviderSchemas::default())
}

/// [`fixture`], every directory given `schemas`.
pub(crate) fn fixture_with_schemas(
    text: &str,
    schemas: &tofu_module::ProviderSchemas,
) -> (Snapshot, PathBuf, u32) {
    let mut host = AnalysisHost::new(Config::default());
    let mut cursor = None;
    for part in text.split("//- ").filter(|part| !part.trim().is_empty()) {
        let (name, body) = part.split_once('\n').unwrap();
        let path = tofu_module::calls::normalize_path(&Path::new(DIR).join(name.trim()));
        let body = match body.find("$0") {
            Some(at) => {
                cursor = Some((path.clone(), at as u32));
                body.replacen("$0", "", 1)
            }
            None => body.to_owned(),
        };
        // A module manifest is read from disk, never from a buffer.
        let change = if path.ends_with(crate::MODULE_MANIFEST) {
            Change::DiskFile {
                path,
                content: tofu_module::FileContent::Text(Arc::from(body)),
            }
        } else {
            Change::BufferChanged {
                path,
                text: Arc::from(body),
                version: 1,
            }
        };
        host.apply_change(change);
    }
    let dirs: Vec<PathBuf> = host.module_dirs().map(Path::to_path_buf).collect();
    for dir in &dirs {
        host.set_schemas(dir, schemas.clone());
    }
    for dir in dirs {
        host.analyze_now_with_callers(&dir);
    }
    let (path, offset) = cursor.unwrap_or_else(|| (Path::new(DIR).join("main.tf"), 0));
    (host.snapshot(), path, offset)
}

pub(crate) fn hover(text: &str) -> String {
    hover_with_schemas(text, &tofu_module::ProviderSchemas::default())
}

/// [`hover`] with the providers' schemas `schemas`.
pub(crate) fn hover_with_schemas(text: &str, schemas: &tofu_module::ProviderSchemas) -> String {
    let (analysis, path, offset) = fixture_with_schemas(text, schemas);
    analysis
        .hover(&path, offset)
        .map(|hover| hover.markdown)
        .unwrap_or_else(|| "null".to_owned())
}

/// `name:line` of each target's focus, and the focused text.
fn render_targets(targets: &[NavigationTarget]) -> Vec<String> {
    targets
        .iter()
        .map(|target| {
            let focus = &target.focus;
            let line = focus.text[..focus.range.start as usize]
                .matches('\n')
                .count()
                + 1;
            format!(
                "{}:{line} {}",
                focus.path.file_name().unwrap().to_string_lossy(),
                focus.range.slice(&focus.text)
            )
        })
        .collect()
}

const OVERRIDDEN: &str = r#"
//- main.tf
resource "aws_instance" "web" {
  ami           = "ami-1"
  instance_type = "t3.micro"
  ebs_block_device {
    device_name = "/dev/sdb"
  }
}
locals {
  name = "demo"
  zone = "a"
}
//- override.tf
resource "aws_instance" "web" {
  instance_type = "t3.large"
  ebs_block_device {
    device_name = "/dev/sdc"
  }
}
locals {
  name = "prod"
}
//- z_override.tf.json
{"resource": {"aws_instance": {"web": {"ami": "ami-2"}}}}
"#;

pub(crate) fn with_cursor(fixture: &str, file: &str, needle: &str) -> String {
    let header = format!("//- {file}\n");
    let start = fixture.find(&header).unwrap() + header.len();
    let at = start + fixture[start..].find(needle).unwrap();
    format!("{}$0{}", &fixture[..at], &fixture[at..])
}

#[test]
fn hover_shows_the_effective_block_with_override_provenance() {
    let text = with_cursor(OVERRIDDEN, "main.tf", "ami");
    assert_eq!(
        hover(&text),
        r#"```hcl
resource "aws_instance" "web" {
  ami           = "ami-2"     # z_override.tf.json:1
  instance_type = "t3.large"  # override.tf:2
  ebs_block_device {          # override.tf:3
    device_name = "/dev/sdc"
  }
}
```

Declared in `main.tf:1`.

Changed by:
- `override.tf:1`: `instance_type` (replaces `main.tf:3`), `ebs_block_device` blocks (replaces `main.tf:4`)
- `z_override.tf.json:1`: `ami` (replaces `main.tf:2`)

---

`ami` here is replaced by `z_override.tf.json:1`: the effective value is `"ami-2"`.
"#
    );
    // The same block hover from the override block (off an argument's name,
    // so without the note on one argument).
    let from_override = hover(&with_cursor(OVERRIDDEN, "override.tf", "t3.large"));
    assert_eq!(
        Some(from_override.as_str()),
        hover(&text).split("\n---\n").next()
    );
}

/// A JSON override's array of objects over native `ingress` blocks: hover
/// shows the blocks OpenTofu makes of it, in HCL, not a JSON value.
#[test]
fn hover_shows_a_json_property_that_replaced_blocks_as_those_blocks() {
    let text = r#"
//- main.tf
resource "aws_security_group" "web" {
  name = "web"
  ingress {
    from_port = 80
  }
  ingress {
    from_port = 443
  }
}
//- override.tf.json
{
  "resource": {"aws_security_group": {"web": {
    "ingress": [
      {"from_port": 22, "cidr_blocks": ["10.0.0.0/8"]},
      {"from_port": 8080}
    ]
  }}}
}
"#;
    assert_eq!(
        hover(&with_cursor(text, "main.tf", "name")),
        r#"```hcl
resource "aws_security_group" "web" {
  name = "web"
  ingress {  # override.tf.json:4
    from_port   = 22
    cidr_blocks = ["10.0.0.0/8"]
  }
  ingress {  # override.tf.json:5
    from_port = 8080
  }
}
```

Declared in `main.tf:1`.

Changed by:
- `override.tf.json:2`: `ingress` blocks (replaces `main.tf:3`, `main.tf:6`)

---

`name` here is in effect: no override changes it.
"#
    );
}

#[test]
fn hover_on_locals_shows_each_effective_value() {
    let text = with_cursor(OVERRIDDEN, "main.tf", "zone");
    assert_eq!(
        hover(&text),
        r#"```hcl
locals {
  name = "prod"  # override.tf:8
  zone = "a"
}
```

- `name`: value from `override.tf:8`, replacing `main.tf:9`.

---

Value, as `tofu console` prints it:

```hcl
"a"
```
"#
    );
}

#[test]
fn hover_on_an_override_without_base_says_opentofu_rejects_it() {
    let text = r#"
//- main.tf
variable "region" {}
//- override.tf
output "missing" {
  $0value = 1
}
moved {
  from = a.b
  to   = a.c
}
"#;
    assert_eq!(
        hover(text),
        "```hcl\noutput \"missing\" {\n  value = 1  # override.tf:2\n}\n```\n\nOpenTofu rejects this override: no primary file declares `output.missing`, so there is nothing to merge it into.\n"
    );
    let moved = text.replace("$0", "").replace("moved {", "mo$0ved {");
    assert!(hover(&moved).ends_with(
        "OpenTofu rejects this block: `moved` blocks are not allowed in override files.\n"
    ));
}

/// The line under an as-written block says what OpenTofu does with it, read
/// from the block's fate in the analysis.
#[test]
fn hover_says_the_fate_of_blocks_without_an_effective_view() {
    let text = r#"
//- main.tf
variable "region" {}
variable "region" {
  default = "x"
}
resource "aws_instance" {}
bogus "x" {}
provider "my_test" {}
terraform "labelled" {}
//- override.tf
provider "my_test" {
  region = "x"
}
"#;
    let note = |file: &str, needle: &str| {
        let markdown = hover(&with_cursor(text, file, needle));
        markdown.lines().last().unwrap_or_default().to_owned()
    };
    assert_eq!(
        note("main.tf", "variable \"region\" {}"),
        "OpenTofu reports this duplicate declaration and uses the one at `main.tf:2`."
    );
    assert_eq!(
        note("main.tf", "resource"),
        "OpenTofu rejects this block: `resource` blocks take 2 labels (type, name), so it is dropped."
    );
    assert_eq!(
        note("main.tf", "bogus"),
        "OpenTofu rejects this block: `bogus` is not a top-level block type."
    );
    assert_eq!(
        note("main.tf", "provider"),
        "OpenTofu rejects this block: its provider local name is invalid, so it is dropped."
    );
    assert_eq!(
        note("override.tf", "provider"),
        "OpenTofu rejects this block: its provider local name is invalid, so it is dropped."
    );
    assert_eq!(
        note("main.tf", "terraform"),
        "OpenTofu rejects this block: `terraform` blocks take no labels, so it is dropped."
    );
}

#[test]
fn hover_is_null_outside_blocks_and_in_files_opentofu_does_not_read() {
    let outside = "//- main.tf\nvariable \"a\" {}\n$0\n# comment\n";
    assert_eq!(hover(outside), "null");
    let shadowed = "//- main.tf\nvariable \"a\" {$0}\n//- main.tofu\nvariable \"b\" {}\n";
    assert_eq!(hover(shadowed), "null");
    let ignored = "//- .main.tf\nvariable \"a\" {$0}\n//- b.tf\nvariable \"b\" {}\n";
    assert_eq!(hover(ignored), "null");
}

#[test]
fn hover_on_terraform_shows_the_synthesized_view() {
    let text = r#"
//- main.tf
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
//- override.tf
terra$0form {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
"#;
    let markdown = hover(text);
    assert!(
        markdown.starts_with("```hcl\nterraform {\n  required_providers {\n"),
        "{markdown}"
    );
    assert!(markdown.contains("# override.tf:3"), "{markdown}");
    assert!(
        markdown.ends_with("of the module: `main.tf:1`, `override.tf:1`.\n"),
        "{markdown}"
    );
}

#[test]
fn definition_goes_from_override_to_base_and_back() {
    let (analysis, path, offset) = fixture(&with_cursor(OVERRIDDEN, "override.tf", "\"web\""));
    assert_eq!(
        render_targets(&analysis.goto_definition(&path, offset)),
        ["main.tf:1 resource \"aws_instance\" \"web\""]
    );
    let (analysis, path, offset) = fixture(&with_cursor(OVERRIDDEN, "main.tf", "resource"));
    assert_eq!(
        render_targets(&analysis.goto_definition(&path, offset)),
        [
            "override.tf:1 resource \"aws_instance\" \"web\"",
            "z_override.tf.json:1 \"web\""
        ]
    );
    // Inside the body (not on the header) there is nothing to go to.
    let (analysis, path, offset) = fixture(&with_cursor(OVERRIDDEN, "main.tf", "\"ami-1\""));
    assert!(analysis.goto_definition(&path, offset).is_empty());
}

#[test]
fn definition_and_references_work_per_local_entry() {
    let (analysis, path, offset) =
        fixture(&with_cursor(OVERRIDDEN, "override.tf", "name = \"prod\""));
    assert_eq!(
        render_targets(&analysis.goto_definition(&path, offset)),
        ["main.tf:9 name"]
    );
    let (analysis, path, offset) = fixture(&with_cursor(OVERRIDDEN, "main.tf", "name = \"demo\""));
    assert_eq!(
        render_targets(&analysis.goto_definition(&path, offset)),
        ["override.tf:8 name"]
    );
    assert_eq!(
        render_targets(&analysis.references(&path, offset, true)),
        ["main.tf:9 name", "override.tf:8 name"]
    );
    assert_eq!(
        render_targets(&analysis.references(&path, offset, false)),
        ["override.tf:8 name"]
    );
}

#[test]
fn references_match_providers_by_alias() {
    let text = r#"
//- main.tf
provider "aws" {
  region = "a"
}
provider "aws" {
  alias = "west"
}
//- override.tf
pro$0vider "aws" {
  alias  = "west"
  region = "b"
}
provider "aws" {
  region = "c"
}
"#;
    let (analysis, path, offset) = fixture(text);
    assert_eq!(
        render_targets(&analysis.references(&path, offset, true)),
        [
            "main.tf:4 provider \"aws\"",
            "override.tf:1 provider \"aws\""
        ]
    );
}

#[test]
fn document_symbols_outline_blocks_attributes_and_nested_blocks() {
    let (analysis, _, _) = fixture(OVERRIDDEN);
    let symbols = analysis.document_symbols(&Path::new(DIR).join("main.tf"));
    let outline: Vec<String> = symbols
        .iter()
        .map(|symbol| {
            let children: Vec<&str> = symbol.children.iter().map(|c| c.name.as_str()).collect();
            format!("{} [{}]", symbol.name, children.join(", "))
        })
        .collect();
    assert_eq!(
        outline,
        [
            "resource \"aws_instance\" \"web\" [ami, instance_type, ebs_block_device]",
            "locals [name, zone]"
        ]
    );
}

#[test]
fn workspace_symbols_find_declarations_by_address() {
    let (analysis, _, _) = fixture(OVERRIDDEN);
    let names: Vec<String> = analysis
        .workspace_symbols("")
        .into_iter()
        .map(|symbol| symbol.name)
        .collect();
    assert_eq!(names, ["aws_instance.web", "local.name", "local.zone"]);
    let web: Vec<String> = analysis
        .workspace_symbols("WEB")
        .into_iter()
        .map(|symbol| symbol.name)
        .collect();
    assert_eq!(web, ["aws_instance.web"]);
}

#[test]
fn module_diagnostics_cover_every_file_and_flag_ignored_open_files() {
    let text =
        "//- main.tf\nvariable \"a\" {}\nvariable \"a\" {}\n//- .backup.tf\nx\n//- main.tofu\n";
    let (analysis, _, _) = fixture(text);
    let files = analysis.module_diagnostics(Path::new(DIR));
    let rendered: Vec<String> = files
        .iter()
        .map(|file| {
            let codes: Vec<&str> = file.diagnostics.iter().map(|d| d.code.as_str()).collect();
            format!(
                "{} v{} [{}]",
                file.path.file_name().unwrap().to_string_lossy(),
                file.version.unwrap(),
                codes.join(", ")
            )
        })
        .collect();
    assert_eq!(
        rendered,
        [
            ".backup.tf v1 [file-ignored]",
            "main.tf v1 [file-shadowed]",
            "main.tofu v1 []"
        ]
    );
    let ignored = &files[0].diagnostics[0];
    assert!(ignored.unnecessary);
    assert_eq!(ignored.range, TextRange::new(0, 2));
}

/// `line:col label` per hint, each part with a target as `[text -> file:line]`.
fn render_hints(analysis: &Snapshot, file: &str) -> Vec<String> {
    let path = Path::new(DIR).join(file);
    let text = analysis.file_text(&path).unwrap();
    let line_col = |target: &FileRange| {
        let line = target.text[..target.range.start as usize]
            .matches('\n')
            .count()
            + 1;
        format!(
            "{}:{line}",
            target.path.file_name().unwrap().to_string_lossy()
        )
    };
    analysis
        .inlay_hints(&path, None)
        .iter()
        .map(|hint| {
            let before = &text[..hint.offset as usize];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            let label: String = hint
                .label
                .iter()
                .map(|part| match &part.target {
                    Some(target) => format!("[{} -> {}]", part.text, line_col(target)),
                    None => part.text.clone(),
                })
                .collect();
            format!("{line}:{column} {label}")
        })
        .collect()
}

#[test]
fn inlay_hints_show_what_overrides_change_in_the_base_file() {
    let (analysis, _, _) = fixture(OVERRIDDEN);
    assert_eq!(
        render_hints(&analysis, "main.tf"),
        [
            "1:30 overridden by [override.tf -> override.tf:1], [z_override.tf.json -> z_override.tf.json:1]",
            "2:26 ⟵ \"ami-2\" [(z_override.tf.json:1) -> z_override.tf.json:1]",
            "3:29 ⟵ \"t3.large\" [(override.tf:2) -> override.tf:2]",
            "4:19 ⟵ replaced by [override.tf:3 -> override.tf:3]",
            "9:16 ⟵ \"prod\" [(override.tf:8) -> override.tf:8]",
        ]
    );
    // Override files and files without overridden blocks get none.
    assert!(render_hints(&analysis, "override.tf").is_empty());
    let (plain, _, _) = fixture("//- main.tf\nvariable \"a\" {}\n");
    assert!(render_hints(&plain, "main.tf").is_empty());
}

#[test]
fn inlay_hint_values_are_one_line_and_short() {
    let text = r#"
//- main.tf
variable "tags" {
  default = {}
}
//- override.tf
variable "tags" {
  default = {
    Name        = "a very long name that goes on"
    Environment = "production"
  }
}
"#;
    let (analysis, _, _) = fixture(text);
    assert_eq!(
        render_hints(&analysis, "main.tf"),
        [
            "1:16 overridden by [override.tf -> override.tf:1]",
            "2:15 ⟵ { Name = \"a very long name that goes on… [(override.tf:2) -> override.tf:2]",
        ]
    );
}

#[test]
fn code_lenses_count_overrides_and_name_the_base() {
    let (analysis, _, _) = fixture(OVERRIDDEN);
    let lenses = |file: &str| -> Vec<String> {
        analysis
            .code_lenses(&Path::new(DIR).join(file))
            .iter()
            .map(|lens| format!("{} ({} targets)", lens.title, lens.targets.len()))
            .collect()
    };
    assert_eq!(lenses("main.tf"), ["2 overrides (2 targets)"]);
    assert_eq!(lenses("override.tf"), ["overrides main.tf:1 (1 targets)"]);
    assert_eq!(
        lenses("z_override.tf.json"),
        ["overrides main.tf:1 (1 targets)"]
    );
}

/// `label (detail)` of each completion at the cursor, and the text replaced.
pub(crate) fn complete(text: &str) -> Vec<String> {
    complete_with_schemas(text, &tofu_module::ProviderSchemas::default())
}

/// [`complete`] with the providers' schemas `schemas`.
pub(crate) fn complete_with_schemas(
    text: &str,
    schemas: &tofu_module::ProviderSchemas,
) -> Vec<String> {
    let (analysis, path, offset) = fixture_with_schemas(text, schemas);
    let file_text = analysis.file_text(&path).unwrap();
    analysis
        .completions(&path, offset)
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
}

const COMPLETION_BASE: &str = r#"
//- main.tf
variable "region" {
  default = "eu-west-1"
}
locals {
  name = "web-${var.region}"
}
module "net" {
  source = "./net"
}
resource "aws_instance" "web" {
  ami           = "ami-1"
  instance_type = "t3.micro"
  ebs_block_device {
    device_name = "/dev/sdb"
  }
}
"#;

#[test]
fn completion_of_references_after_the_dot() {
    let text =
        format!("{COMPLETION_BASE}//- outputs.tf\noutput \"x\" {{\n  value = var.re$0\n}}\n");
    assert_eq!(complete(&text), ["region [re] default = \"eu-west-1\""]);
    let text = format!(
        "{COMPLETION_BASE}//- outputs.tf\noutput \"x\" {{\n  value = \"${{local.$0}}\"\n}}\n"
    );
    assert_eq!(complete(&text), ["name [] \"web-${var.region}\""]);
    let text =
        format!("{COMPLETION_BASE}//- outputs.tf\noutput \"x\" {{\n  value = module.$0\n}}\n");
    assert_eq!(complete(&text), ["net [] source = \"./net\""]);
    // Not a reference root: `avar.` or `x.var.`.
    let text =
        format!("{COMPLETION_BASE}//- outputs.tf\noutput \"x\" {{\n  value = x.var.$0\n}}\n");
    assert!(complete(&text).is_empty());
}

#[test]
fn completion_in_an_override_file_offers_base_headers_and_base_arguments() {
    let text = format!(
        "{COMPLETION_BASE}//- override.tf\nvariable \"region\" {{\n  default = \"us-east-1\"\n}}\nres$0\n"
    );
    // The headers of the base blocks not overridden yet, then the keywords
    // of the blocks an override file may hold.
    let found = complete(&text);
    assert_eq!(
        found[..3],
        [
            "module \"net\" [res] override the block at main.tf:7",
            "resource \"aws_instance\" \"web\" [res] override the block at main.tf:10",
            "terraform [res] settings: required providers, backend, encryption",
        ]
    );
    assert_eq!(found.len(), 2 + 9, "{found:#?}");
    let text = format!(
        "{COMPLETION_BASE}//- override.tf\nresource \"aws_instance\" \"web\" {{\n  instance_type = \"t3.large\"\n  $0\n}}\n"
    );
    assert_eq!(
        complete(&text),
        [
            "ami [] base: \"ami-1\"",
            "ebs_block_device [] base block at main.tf:13 (an override replaces all of them)",
            "count [] resource meta-argument",
            "for_each [] resource meta-argument",
            "provider [] resource meta-argument",
            "depends_on [] resource meta-argument",
            "lifecycle [] resource block",
            "provisioner [] resource block",
            "connection [] resource block",
        ]
    );
}

#[test]
fn completion_in_a_primary_block_offers_meta_arguments_not_yet_set() {
    let text = "//- main.tf\nvariable \"a\" {\n  type = string\n  de$0\n}\n";
    assert_eq!(
        complete(text),
        [
            "default [de] variable meta-argument",
            "description [de] variable meta-argument",
            "sensitive [de] variable meta-argument",
            "nullable [de] variable meta-argument",
            "ephemeral [de] variable meta-argument",
            // The checker accepts `const`; completion reads the same table.
            "const [de] variable meta-argument",
            "deprecated [de] variable meta-argument",
            "validation [de] variable block",
        ]
    );
    // Every block type OpenTofu defines is in that table, `moved` too.
    assert_eq!(
        complete("//- main.tf\nmoved {\n  from = a.b\n  $0\n}\n"),
        ["to [] moved meta-argument"]
    );
    // After `=` there is nothing to offer here.
    assert!(complete("//- main.tf\nvariable \"a\" {\n  type = $0\n}\n").is_empty());
}

/// The last paragraph of a hover on an argument's name says what became of
/// that argument.
#[test]
fn hover_on_an_argument_says_whether_it_is_in_effect() {
    let note = |file: &str, needle: &str| {
        let markdown = hover(&with_cursor(OVERRIDDEN, file, needle));
        markdown
            .rsplit("---\n\n")
            .next()
            .unwrap_or_default()
            .trim_end()
            .to_owned()
    };
    assert_eq!(
        note("main.tf", "instance_type"),
        "`instance_type` here is replaced by `override.tf:2`: the effective value is `\"t3.large\"`."
    );
    assert_eq!(
        note("override.tf", "instance_type"),
        "`instance_type` here is in effect; it replaces `main.tf:3`."
    );
    // OpenTofu's schema table says who defines an argument.
    let counted = "//- main.tf\nresource \"aws_instance\" \"web\" {\n  count = 2\n}\n";
    let markdown = hover(&with_cursor(counted, "main.tf", "count"));
    assert!(
        markdown.contains("`count` is a meta-argument: OpenTofu defines it in every `resource` block, and the provider defines the rest of the body."),
        "{markdown}"
    );
    let plain = "//- main.tf\nvariable \"a\" {\n  type = string\n}\n";
    let markdown = hover(&with_cursor(plain, "main.tf", "type"));
    assert!(
        markdown.ends_with("`type` here is in effect: no override changes it.\n"),
        "{markdown}"
    );
    let json_base = r#"
//- main.tf.json
{"resource": {"aws_instance": {"web": {"ebs_block_device": {"device_name": "/dev/sdb"}}}}}
//- override.tf
resource "aws_instance" "web" {
  ebs_block_device {
    device_name = "/dev/sdc"
  }
}
"#;
    let markdown = hover(&with_cursor(json_base, "main.tf.json", "ebs_block_device"));
    assert!(
        markdown.ends_with("`ebs_block_device` here is removed: the `ebs_block_device` blocks at `override.tf:2` replace it.\n"),
        "{markdown}"
    );
}

const REFERENCING: &str = r#"
//- main.tf
variable "region" {
  default = "eu-west-1"
}
locals {
  name = "web-${var.region}"
}
resource "aws_instance" "web" {
  tags = { Name = local.name, Region = var.region }
}
output "ip" {
  value = aws_instance.web.private_ip
}
//- override.tf
variable "region" {
  default = "us-east-1"
}
locals {
  name = "prod"
}
//- extra.tf.json
{"output": {"where": {"value": "${var.region}"}}}
"#;

#[test]
fn definition_and_references_from_a_use() {
    let text = with_cursor(REFERENCING, "main.tf", "region }");
    let (analysis, path, offset) = fixture(&text);
    assert_eq!(
        render_targets(&analysis.goto_definition(&path, offset)),
        [
            "main.tf:1 variable \"region\"",
            "override.tf:1 variable \"region\""
        ]
    );
    assert_eq!(
        render_targets(&analysis.references(&path, offset, true)),
        [
            "main.tf:1 variable \"region\"",
            "override.tf:1 variable \"region\"",
            "extra.tf.json:1 var.region",
            "main.tf:5 var.region",
            "main.tf:8 var.region",
        ]
    );
    // Without the declaration, the kept one is left out; overrides stay.
    assert_eq!(
        render_targets(&analysis.references(&path, offset, false))[0],
        "override.tf:1 variable \"region\""
    );
    // From the declaration's header, the same uses.
    let header = with_cursor(REFERENCING, "main.tf", "variable");
    let (analysis, path, offset) = fixture(&header);
    assert_eq!(analysis.references(&path, offset, true).len(), 5);
}

#[test]
fn hover_on_a_use_shows_the_effective_declaration() {
    let markdown = hover(&with_cursor(REFERENCING, "main.tf", "var.region }"));
    assert!(
        markdown.starts_with(
            "```hcl\nvariable \"region\" {\n  default = \"us-east-1\"  # override.tf:2\n"
        ),
        "{markdown}"
    );
    let markdown = hover(&with_cursor(REFERENCING, "main.tf", "local.name"));
    assert!(markdown.contains("name = \"prod\""), "{markdown}");
    assert!(
        markdown.ends_with(
            "Defined in `main.tf:5`; the value in effect is from `override.tf:5`.\n\n---\n\n\
             Value, as `tofu console` prints it:\n\n```hcl\n\"prod\"\n```\n"
        ),
        "{markdown}"
    );
}

/// `file:line old -> new` of each edit.
fn rename(text: &str, new_name: &str) -> Result<Vec<String>, crate::RenameRefused> {
    let (analysis, path, offset) = fixture(text);
    analysis.rename(&path, offset, new_name).map(|edits| {
        edits
            .iter()
            .map(|edit| {
                let start = edit.location.range.start as usize;
                let line = edit.location.text[..start].matches('\n').count() + 1;
                format!(
                    "{}:{line} {} -> {}",
                    edit.location.path.file_name().unwrap().to_string_lossy(),
                    edit.location.range.slice(&edit.location.text),
                    edit.new_text
                )
            })
            .collect()
    })
}

#[test]
fn rename_changes_declarations_overrides_and_every_use() {
    let text = with_cursor(REFERENCING, "main.tf", "region }");
    let (analysis, path, offset) = fixture(&text);
    assert_eq!(
        analysis.prepare_rename(&path, offset).map(|(_, name)| name),
        Ok("region".to_owned())
    );
    assert_eq!(
        rename(&text, "zone").unwrap(),
        [
            "extra.tf.json:1 region -> zone",
            "main.tf:1 \"region\" -> \"zone\"",
            "main.tf:5 region -> zone",
            "main.tf:8 region -> zone",
            "override.tf:1 \"region\" -> \"zone\"",
        ]
    );
    let local = with_cursor(REFERENCING, "main.tf", "name = \"web");
    assert_eq!(
        rename(&local, "label").unwrap(),
        [
            "main.tf:5 name -> label",
            "main.tf:8 name -> label",
            "override.tf:5 name -> label",
        ]
    );
    let refused = rename(&text, "9lives").unwrap_err();
    assert!(
        matches!(&refused, crate::RenameRefused::InvalidName(message) if message.starts_with("\"9lives\" is not a valid name: ")),
        "{refused:?}"
    );
    let resource = with_cursor(REFERENCING, "main.tf", "web.private_ip");
    assert_eq!(
        rename(&resource, "app").unwrap(),
        [
            "main.tf:7 \"web\" -> \"app\"",
            "main.tf:9  -> \n\nmoved {\n  from = aws_instance.web\n  to   = aws_instance.app\n}",
            "main.tf:11 web -> app"
        ]
    );
}

const MOVES: &str = r#"
//- main.tf
resource "terraform_data" "b" {
  input = "x"
}
data "terraform_data" "d" {
}
output "o" {
  value = [terraform_data.b.output, data.terraform_data.d]
}
//- moved.tf
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
"#;

#[test]
fn renaming_what_the_state_holds_writes_moved_and_keeps_the_history() {
    // b was a; renamed to c, the history chains a -> b -> c in moved.tf.
    let edits = rename(&with_cursor(MOVES, "main.tf", "b\" {"), "c").unwrap();
    assert_eq!(
        edits,
        [
            "main.tf:1 \"b\" -> \"c\"",
            "main.tf:7 b -> c",
            "moved.tf:5  -> \nmoved {\n  from = terraform_data.b\n  to   = terraform_data.c\n}\n",
        ]
    );
    // Renamed back to a: the step a -> b is undone, not closed into a cycle.
    let back = rename(&with_cursor(MOVES, "main.tf", "b\" {"), "a").unwrap();
    assert_eq!(
        back,
        [
            "main.tf:1 \"b\" -> \"a\"",
            "main.tf:7 b -> a",
            "moved.tf:1 moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n -> ",
        ]
    );
    // A data source holds nothing in the state: no moved block.
    let data = rename(&with_cursor(MOVES, "main.tf", "d\" {"), "e").unwrap();
    assert!(data.iter().all(|edit| !edit.contains("moved")), "{data:?}");
}

#[test]
fn a_resource_written_in_json_gets_its_moved_block_in_a_native_file() {
    let text = r#"
//- main.tf.json
{"resource": {"terraform_data": {"b": {}}}}
//- outputs.tf
output "o" {
  value = terraform_data.b.id
}
"#;
    let edits = rename(&with_cursor(text, "main.tf.json", "b\""), "c").unwrap();
    assert_eq!(
        edits,
        [
            "main.tf.json:1 \"b\" -> \"c\"",
            "outputs.tf:2 b -> c",
            "outputs.tf:4  -> \nmoved {\n  from = terraform_data.b\n  to   = terraform_data.c\n}\n",
        ]
    );
}

#[test]
fn rename_refuses_duplicates() {
    let text = r#"
//- main.tf
variable "a" {}
variable "b" {}
output "o" {
  value = var.a
}
"#;
    let at_a = with_cursor(text, "main.tf", "a\" {}");
    assert!(rename(&at_a, "b")
        .unwrap_err()
        .message()
        .contains("already declares var.b"));
}

#[test]
fn test_files_of_tests_are_diagnosed_with_the_module_above() {
    // OpenTofu 1.12.6, `tofu validate`: "Unsupported argument" for `bogus`
    // in both files; the tests/ file is read with the module above it.
    let text = r#"
//- main.tf
variable "region" {}
//- main.tftest.hcl
run "here" {
  bogus = 1
}
//- tests/a.tftest.hcl
run "there" {
  bogus = 1
}
"#;
    let (analysis, _, _) = fixture(text);
    for name in ["main.tftest.hcl", "tests/a.tftest.hcl"] {
        let path = Path::new(DIR).join(name);
        let file = analysis.file_diagnostics(&path).unwrap();
        let summaries: Vec<&str> = file
            .diagnostics
            .iter()
            .map(|diagnostic| diagnostic.summary.as_str())
            .collect();
        assert_eq!(summaries, ["Unsupported argument"], "{name}");
    }
    assert!(!analysis.holds_dir(&Path::new(DIR).join("tests")));
}

const TEST_FILE_MODULE: &str = r#"
//- main.tf
variable "region" {
  default = "x"
}
output "out" {
  value = var.region
}
//- tests/a.tftest.hcl
run "one" {
  assert {
    condition     = var.region == output.out
    error_message = "x"
  }
}
"#;

#[test]
fn definition_and_hover_from_a_test_file_reach_the_module() {
    let on_variable = with_cursor(TEST_FILE_MODULE, "tests/a.tftest.hcl", "region ==");
    let on_output = with_cursor(TEST_FILE_MODULE, "tests/a.tftest.hcl", "out\n");
    let definition = |text: &str| {
        let (analysis, path, offset) = fixture(text);
        render_targets(&analysis.goto_definition(&path, offset))
    };
    assert_eq!(definition(&on_variable), ["main.tf:1 variable \"region\""]);
    assert_eq!(definition(&on_output), ["main.tf:4 output \"out\""]);
    assert!(hover(&on_variable).starts_with("```hcl\nvariable \"region\" {"));
    assert!(hover(&on_output).starts_with("```hcl\noutput \"out\" {"));
    // And the variable's uses include the test file's.
    let (analysis, path, offset) = fixture(&with_cursor(TEST_FILE_MODULE, "main.tf", "region\" {"));
    let uses = render_targets(&analysis.references(&path, offset, false));
    assert!(
        uses.contains(&"a.tftest.hcl:3 var.region".to_owned()),
        "{uses:?}"
    );
}

const TEST_FILE_WITH_RUNS: &str = r#"
//- main.tf
output "out" {
  value = 1
}
//- setup/main.tf
output "id" {
  value = "x"
}
//- tests/a.tftest.hcl
run "setup" {
  module {
    source = "./setup"
  }
}
run "plain" {}
run "one" {
  assert {
    condition     = CURSOR
    error_message = "x"
  }
}
run "later" {}
"#;

#[test]
fn completion_after_run_names_earlier_runs_and_the_outputs_they_apply() {
    let typed = |cursor: &str| TEST_FILE_WITH_RUNS.replace("CURSOR", cursor);
    // Runs before the cursor's, not the later one.
    assert_eq!(complete(&typed("run.$0")), ["setup [] run", "plain [] run"]);
    // The setup run applies ./setup (read from the module directory).
    assert_eq!(complete(&typed("run.setup.i$0")), ["id [i] value = \"x\""]);
    // A run without a module block applies the module under test.
    assert_eq!(complete(&typed("run.plain.$0")), ["out [] value = 1"]);
    assert!(complete(&typed("run.unknown.$0")).is_empty());
}

#[test]
fn definition_on_run_references_reaches_the_run_and_the_module_it_applies() {
    let at = |cursor: &str, needle: &str| {
        let text = TEST_FILE_WITH_RUNS.replace("CURSOR", cursor);
        let text = with_cursor(&text, "tests/a.tftest.hcl", needle);
        let (analysis, path, offset) = fixture(&text);
        let mut dirs = analysis.related_dirs(&path, offset, false);
        dirs.sort();
        (
            render_targets(&analysis.goto_definition(&path, offset)),
            dirs,
        )
    };
    let setup_dir = Path::new(DIR).join("setup");
    assert_eq!(
        at("run.setup.id == run.plain.out", "setup.id"),
        (vec!["a.tftest.hcl:1 run \"setup\"".to_owned()], vec![])
    );
    assert_eq!(
        at("run.setup.id == run.plain.out", "id =="),
        (vec!["main.tf:1 output \"id\"".to_owned()], vec![setup_dir])
    );
    assert_eq!(
        at("run.setup.id == run.plain.out", "out\n"),
        (vec!["main.tf:1 output \"out\"".to_owned()], vec![])
    );
}

#[test]
fn hover_on_run_references_shows_the_run_and_the_output_it_applies() {
    let at = |needle: &str| {
        let text = TEST_FILE_WITH_RUNS.replace("CURSOR", "run.setup.id == run.plain.out");
        hover(&with_cursor(&text, "tests/a.tftest.hcl", needle))
    };
    assert_eq!(
        at("setup.id"),
        "```hcl\nrun \"setup\"\n```\n\nA run of `tests/a.tftest.hcl`; it applies the module `setup`.\n"
    );
    assert_eq!(
        at("id =="),
        "```hcl\noutput \"id\" {\n  value = \"x\"\n}\n```\n\nOutput of the module `setup`, declared in `setup/main.tf:1`.\n"
    );
    let plain = at("out\n");
    assert!(plain.contains("output \"out\""), "{plain}");
}

#[test]
fn completion_in_a_test_file_names_the_modules_variables_and_outputs() {
    let typed = TEST_FILE_MODULE.replace(
        "error_message = \"x\"",
        "error_message = \"x\"\n    condition = output.o$0 != var.",
    );
    assert_eq!(complete(&typed), ["out [o] value = var.region"]);
    let typed = TEST_FILE_MODULE.replace(
        "error_message = \"x\"",
        "error_message = \"x\"\n    condition = var.$0",
    );
    assert_eq!(complete(&typed), ["region [] default = \"x\""]);
}

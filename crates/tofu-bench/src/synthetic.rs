//! A synthetic module generated from a seed: variables, resources, module
//! calls, locals, outputs, about 10 % override files and some JSON files, so
//! the keystroke benchmark has a large module that exercises every merge path.
//! It is a valid module, as real ones mostly are: since the reference rules
//! (2026-11-26), each output indexes the counted resource it reads, which
//! OpenTofu requires (900 outputs reported "Missing resource instance key"
//! before).
//!
//! [`declarations_module`] is a plainer one, for cases that compare module
//! sizes: each file declares a variable, a local value that reads it, a
//! `terraform_data` that reads the local and an output that reads the
//! resource, and one override file changes the first variable.
//!
//! [`with_references`] makes the variant the reference cases type into: the
//! same files, plus a `number` variable whose default a keystroke makes
//! invalid (`flip`, in [`FLIP_FILE`]) and a local value (`shared`, in
//! [`SHARED_FILE`]) that 500 resources of other files read, so renaming it
//! leaves 500 references undeclared.

use tofu_module::{FileContent, InputFile};

/// The text of an input file (what was read of it, for a file that is not
/// UTF-8; nothing for one that could not be read).
pub fn text_of(file: &InputFile) -> &str {
    match &file.content {
        FileContent::Text(text) => text,
        FileContent::InvalidUtf8 { text, .. } => text,
        FileContent::Unreadable { .. } => "",
    }
}

/// A small deterministic generator (xorshift), so the module is the same on
/// every machine without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

pub fn module(n_files: usize, seed: u64) -> Vec<InputFile> {
    let mut rng = Rng(seed.max(1));
    let mut files = Vec::with_capacity(n_files);
    let n_overrides = n_files / 10;
    let n_primary = n_files - n_overrides;
    for i in 0..n_primary {
        let mut text = String::new();
        if i % 20 == 19 {
            let json = format!(
                "{{\n  \"variable\": {{\"json_{i}\": {{\"type\": \"string\", \"default\": \"v{i}\"}}}},\n  \"resource\": {{\"aws_s3_bucket\": {{\"json_{i}\": {{\"bucket\": \"b-{i}\", \"tags\": {{\"n\": \"{i}\"}}}}}}}}\n}}\n"
            );
            files.push(InputFile::text(format!("f{i:04}.tf.json"), json));
            continue;
        }
        text.push_str(&format!(
            "variable \"var_{i}\" {{\n  type        = string\n  default     = \"value-{i}\"\n  description = \"Variable number {i}\"\n}}\n\n"
        ));
        text.push_str(&format!(
            "locals {{\n  local_{i} = \"${{var.var_{i}}}-{}\"\n}}\n\n",
            rng.below(1000)
        ));
        for r in 0..3 {
            text.push_str(&format!(
                "resource \"aws_instance\" \"r_{i}_{r}\" {{\n  ami           = \"ami-{:08x}\"\n  instance_type = var.var_{i}\n  count         = {}\n\n  ebs_block_device {{\n    device_name = \"/dev/sd{}\"\n    volume_size = {}\n  }}\n\n  lifecycle {{\n    ignore_changes = [tags]\n  }}\n\n  tags = {{\n    Name = local.local_{i}\n  }}\n}}\n\n",
                rng.next() & 0xffff_ffff,
                rng.below(3),
                (b'b' + (r as u8)) as char,
                10 + rng.below(100)
            ));
        }
        if i % 5 == 0 {
            text.push_str(&format!(
                "module \"m_{i}\" {{\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"~> 5.{}\"\n  name    = local.local_{i}\n}}\n\n",
                rng.below(9)
            ));
        }
        text.push_str(&format!(
            "output \"out_{i}\" {{\n  value = aws_instance.r_{i}_0[0].id\n}}\n"
        ));
        files.push(InputFile::text(format!("f{i:04}.tf"), text));
    }
    for o in 0..n_overrides {
        let target = (rng.below(n_primary as u64) as usize) / 20 * 20;
        let text = format!(
            "resource \"aws_instance\" \"r_{target}_1\" {{\n  instance_type = \"t3.large\"\n  ebs_block_device {{\n    device_name = \"/dev/sdz\"\n  }}\n}}\n\nvariable \"var_{target}\" {{\n  default = \"overridden-{o}\"\n}}\n\nlocals {{\n  local_{target} = \"over-{o}\"\n}}\n"
        );
        files.push(InputFile::text(format!("o{o:03}_override.tf"), text));
    }
    files
}

/// The file of the variant that declares `variable "flip"`.
pub const FLIP_FILE: &str = "f0001.tf";
/// The flip variable's default as the variant has it: a string that converts
/// to the `number` the variable wants. One keystroke (`1` → `x`) makes it
/// `"x"`, which does not (`invalid-variable-default`).
pub const FLIP_VALID: &str = "default = \"1\"";
pub const FLIP_INVALID: &str = "default = \"x\"";
/// The file of the variant that declares `local.shared`.
pub const SHARED_FILE: &str = "f0002.tf";
/// The local value's name, and the name one keystroke renames it to.
pub const SHARED_NAME: &str = "shared";
pub const SHARED_RENAMED: &str = "shares";

/// `files` (a [`module`]) with `variable "flip"` added to [`FLIP_FILE`],
/// `locals { shared = … }` to [`SHARED_FILE`], and a `Shared =
/// local.shared` tag in the first resource of the first `uses` other HCL
/// primary files. Returns the files and the names of those that read
/// `local.shared`. The module stays valid: nothing new is reported but the
/// unused-declaration hint nothing needs.
pub fn with_references(mut files: Vec<InputFile>, uses: usize) -> (Vec<InputFile>, Vec<String>) {
    let mut readers = Vec::new();
    for file in &mut files {
        let tofu_module::FileContent::Text(text) = &file.content else {
            continue;
        };
        let mut text = text.to_string();
        if file.name == FLIP_FILE {
            text.push_str(&format!(
                "\nvariable \"flip\" {{\n  type    = number\n  {FLIP_VALID}\n}}\n"
            ));
        }
        if file.name == SHARED_FILE {
            text.push_str(&format!(
                "\nlocals {{\n  {SHARED_NAME} = \"shared-value\"\n}}\n"
            ));
        } else if readers.len() < uses
            && !file.name.ends_with(".json")
            && !file.name.contains("_override")
        {
            let tagged = text.replacen(
                "    Name = local.local_",
                &format!("    Shared = local.{SHARED_NAME}\n    Name = local.local_"),
                1,
            );
            if tagged != text {
                readers.push(file.name.clone());
                text = tagged;
            }
        }
        file.content = tofu_module::FileContent::Text(text.into());
    }
    (files, readers)
}

/// How many local values [`with_chain`] chains.
pub const CHAIN_LENGTH: usize = 10;
/// The head of the chain as [`with_chain`] writes it in the first file;
/// keystrokes go after it, inside the string.
pub const CHAIN_HEAD: &str = "chain_0 = \"head";
/// The reference to the chain's tail that `terraform_data.chain_end` reads
/// (hover shows the tail's value there).
pub const CHAIN_TAIL_REFERENCE: &str = "local.chain_9\n";

/// `files` (a [`module`]) with a chain of [`CHAIN_LENGTH`] local values over
/// as many native primary files, the first first: `chain_0 = "head"`, then
/// each `chain_K = "${local.chain_(K-1)}-K"`, and `terraform_data.chain_end`
/// reading the last, in the chain's last file. A keystroke in the head
/// changes the value of every link (issue 44: keystroke → publish when the
/// edit is at the head of a 10-local chain). Returns the files and the
/// names of the first and the last file of the chain.
pub fn with_chain(mut files: Vec<InputFile>) -> (Vec<InputFile>, String, String) {
    let mut links = Vec::new();
    for file in &mut files {
        if links.len() == CHAIN_LENGTH {
            break;
        }
        let tofu_module::FileContent::Text(text) = &file.content else {
            continue;
        };
        if file.name.ends_with(".json") || file.name.contains("override") {
            continue;
        }
        let k = links.len();
        let mut text = text.to_string();
        if k == 0 {
            text.push_str(&format!("\nlocals {{\n  {CHAIN_HEAD}\"\n}}\n"));
        } else {
            text.push_str(&format!(
                "\nlocals {{\n  chain_{k} = \"${{local.chain_{}}}-{k}\"\n}}\n",
                k - 1
            ));
        }
        if k + 1 == CHAIN_LENGTH {
            text.push_str(&format!(
                "\nresource \"terraform_data\" \"chain_end\" {{\n  input = {CHAIN_TAIL_REFERENCE}}}\n"
            ));
        }
        file.content = tofu_module::FileContent::Text(text.into());
        links.push(file.name.clone());
    }
    let first = links.first().cloned().unwrap_or_default();
    let last = links.last().cloned().unwrap_or_default();
    (files, first, last)
}

/// The values file [`with_values_file`] adds, and where its keystrokes go:
/// inside the string value of `plan_value`.
pub const VALUES_FILE: &str = "terraform.tfvars";
pub const VALUES_TYPED_AFTER: &str = "plan_value = \"a";

/// `files` made a directory `tofu plan` is run in: a `terraform.tfvars`
/// giving `plan_value`, declared in `plan.tf` with a validation, read by a
/// local value, a resource's precondition and a `check` assertion, so that
/// a keystroke in the values file re-judges what plan reports.
pub fn with_values_file(mut files: Vec<InputFile>) -> Vec<InputFile> {
    files.push(InputFile::text(
        "plan.tf".to_owned(),
        "variable \"plan_value\" {\n  type    = string\n  default = \"x\"\n  validation {\n    condition     = length(var.plan_value) < 1000\n    error_message = \"plan_value is too long.\"\n  }\n}\n\nlocals {\n  planned = upper(var.plan_value)\n}\n\nresource \"terraform_data\" \"planned\" {\n  input = local.planned\n  lifecycle {\n    precondition {\n      condition     = local.planned != \"\"\n      error_message = \"planned is empty.\"\n    }\n  }\n}\n\ncheck \"planned\" {\n  assert {\n    condition     = startswith(local.planned, \"A\")\n    error_message = \"planned starts with A.\"\n  }\n}\n".to_owned(),
    ));
    files.push(InputFile::text(
        VALUES_FILE.to_owned(),
        "plan_value = \"a\"\n".to_owned(),
    ));
    files
}

/// The file [`declarations_module`]'s requests are made in, and where: the
/// `var.v1` its local value reads (on `v1`, past `var.`).
pub const DECLARATIONS_FILE: &str = "f0001.tf";
pub const DECLARATIONS_REFERENCE: &str = "var.v1\n";

/// A module of `n_files` files `fNNNN.tf`, each declaring `variable "vN"`,
/// `locals { lN = var.vN }`, `resource "terraform_data" "dN"` (input
/// `local.lN`) and `output "oN"` (`terraform_data.dN.output`), plus
/// `override.tf`, which gives `v0` another default.
pub fn declarations_module(n_files: usize) -> Vec<InputFile> {
    let mut files: Vec<InputFile> = (0..n_files)
        .map(|i| {
            InputFile::text(
                format!("f{i:04}.tf"),
                format!(
                    "variable \"v{i}\" {{\n  type    = string\n  default = \"x{i}\"\n}}\n\n\
                     locals {{\n  l{i} = var.v{i}\n}}\n\n\
                     resource \"terraform_data\" \"d{i}\" {{\n  input = local.l{i}\n}}\n\n\
                     output \"o{i}\" {{\n  value = terraform_data.d{i}.output\n}}\n"
                ),
            )
        })
        .collect();
    files.push(InputFile::text(
        "override.tf".to_owned(),
        "variable \"v0\" {\n  default = \"overridden\"\n}\n".to_owned(),
    ));
    files
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_variant_is_valid_and_each_keystroke_changes_what_is_reported() {
        let (files, readers) = with_references(module(1_000, 42), 500);
        assert_eq!(files.len(), 1_000);
        assert_eq!(readers.len(), 500);
        assert!(!readers.iter().any(|name| name == SHARED_FILE));
        let config = tofu_module::Config::default();
        let codes = |files: &[InputFile]| {
            let analysis = tofu_diagnostics::analyze(
                files,
                &config,
                &mut tofu_diagnostics::AnalysisCache::new(),
            );
            let mut codes: Vec<(String, String)> = analysis
                .diagnostics
                .iter()
                .filter(|d| d.severity == tofu_syntax::Severity::Error)
                .map(|d| {
                    let file = analysis
                        .file(d.subject.file)
                        .map(|f| f.name.clone())
                        .unwrap_or_default();
                    (file, d.code.as_str().to_owned())
                })
                .collect();
            codes.sort();
            codes
        };
        assert_eq!(codes(&files), vec![]);

        let mut flipped = files.clone();
        replace_in(&mut flipped, FLIP_FILE, FLIP_VALID, FLIP_INVALID);
        assert_eq!(
            codes(&flipped),
            vec![(FLIP_FILE.to_owned(), "invalid-variable-default".to_owned())]
        );

        let mut renamed = files.clone();
        replace_in(
            &mut renamed,
            SHARED_FILE,
            &format!("{SHARED_NAME} ="),
            &format!("{SHARED_RENAMED} ="),
        );
        let undeclared = codes(&renamed);
        assert_eq!(undeclared.len(), 500);
        assert!(undeclared
            .iter()
            .all(|(file, code)| code == "undeclared-reference" && readers.contains(file)));
    }

    fn replace_in(files: &mut [InputFile], name: &str, from: &str, to: &str) {
        let file = files.iter_mut().find(|file| file.name == name).unwrap();
        let tofu_module::FileContent::Text(text) = &file.content else {
            panic!("{name} is not text");
        };
        assert!(text.contains(from));
        file.content = tofu_module::FileContent::Text(text.replacen(from, to, 1).into());
    }

    #[test]
    fn the_declarations_module_is_valid_and_holds_the_reference() {
        let files = declarations_module(50);
        assert_eq!(files.len(), 51);
        let config = tofu_module::Config::default();
        let analysis =
            tofu_diagnostics::analyze(&files, &config, &mut tofu_diagnostics::AnalysisCache::new());
        let errors: Vec<String> = analysis
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == tofu_syntax::Severity::Error)
            .map(|diagnostic| diagnostic.summary.clone())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let file = files
            .iter()
            .find(|file| file.name == DECLARATIONS_FILE)
            .unwrap();
        assert!(text_of(file).contains(DECLARATIONS_REFERENCE));
    }
}

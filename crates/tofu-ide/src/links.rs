//! Document links on module sources: a `module` block's `source` (or that
//! of a test file's `run` block's `module` block) that is a local path leads to the called module directory's first configuration
//! file (by name, as OpenTofu sorts them); a module registry address
//! (`NAMESPACE/NAME/SYSTEM`, with an optional `registry.opentofu.org/` or
//! `registry.terraform.io/` host and `//subdirectory`) leads to its page on
//! that registry's site. Other sources (Git, HTTP, S3, a private registry)
//! get no link.
//!
//! No IO: a called directory the host has not analysed (outside the
//! workspace, say) is given as a directory, and the caller lists it and asks
//! [`first_configuration_file`] which file to open.

use std::path::{Path, PathBuf};

use tofu_module::discovery::{classify, FileClass};
use tofu_syntax::{Attribute, ExprKind, TextRange};

use crate::snapshot::Snapshot;
use tofu_module::calls::normalize_path;
use tofu_module::module_source::local_source;

/// A link from a range of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentLink {
    /// The source's text, without its quotes.
    pub range: TextRange,
    pub target: LinkTarget,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkTarget {
    /// A configuration file of a called module.
    File(PathBuf),
    /// A called module directory the host has not read: the caller picks
    /// its first configuration file ([`first_configuration_file`]).
    ModuleDir(PathBuf),
    /// A web page.
    Url(String),
}

/// The OpenTofu Registry's site, where `registry.opentofu.org` modules are.
const OPENTOFU_MODULE_PAGES: &str = "https://search.opentofu.org/module";
/// The Terraform Registry's module pages, for `registry.terraform.io/…`.
const TERRAFORM_MODULE_PAGES: &str = "https://registry.terraform.io/modules";

impl Snapshot {
    /// The links of the file at `path`, in file order.
    pub fn document_links(&self, path: &Path) -> Vec<DocumentLink> {
        let Some(parsed) = self.parsed_file(path) else {
            return Vec::new();
        };
        let dir = &parsed.found.module.dir;
        let body = &parsed.source.body;
        // A test file's `run` blocks call modules too (`module { source }`),
        // and OpenTofu reads their local paths from the module directory,
        // the tests/ subdirectory's files included.
        let run_modules = body
            .blocks_of_kind("run")
            .flat_map(|run| run.body.blocks_of_kind("module"));
        let mut sources: Vec<&Attribute> = body
            .blocks_of_kind("module")
            .chain(run_modules)
            .filter_map(|block| block.body.attribute("source"))
            .collect();
        sources.sort_by_key(|source| source.expr.range.start);
        sources
            .into_iter()
            .filter_map(|source| self.source_link(dir, source, parsed.text))
            .collect()
    }

    /// The link of a module call's `source` argument, read in `dir`.
    fn source_link(&self, dir: &Path, source: &Attribute, text: &str) -> Option<DocumentLink> {
        let ExprKind::String(value) = &source.expr.kind else {
            return None;
        };
        let written = source.expr.range;
        let quoted = written.slice(text).starts_with('"') && written.len() >= 2;
        let range = if quoted {
            TextRange::new(written.start + 1, written.end - 1)
        } else {
            written
        };
        let target = if let Some(relative) = local_source(value) {
            let called = normalize_path(&dir.join(relative));
            let first = self.file_names(&called).and_then(|names| {
                first_configuration_file(names.iter().map(String::as_str)).map(str::to_owned)
            });
            match first {
                Some(name) => LinkTarget::File(called.join(name)),
                None => LinkTarget::ModuleDir(called),
            }
        } else {
            LinkTarget::Url(registry_page(value)?)
        };
        Some(DocumentLink { range, target })
    }
}

/// The first of `names`, in OpenTofu's order (by bytes), that is a
/// configuration file OpenTofu reads by name (`.tf`, `.tofu`, `.tf.json`,
/// `.tofu.json`, not skipped).
pub fn first_configuration_file<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names
        .into_iter()
        .filter(|name| matches!(classify(name), FileClass::Config { .. }))
        .min_by(|a, b| a.as_bytes().cmp(b.as_bytes()))
}

/// The registry page of a module registry address, as OpenTofu parses one
/// (`registry-address`'s `ParseModuleSource`): three parts
/// `NAMESPACE/NAME/SYSTEM`, or four with a hostname first, and an optional
/// `//subdirectory`. `None` for anything else, and for hosts without a
/// known site.
pub fn registry_page(source: &str) -> Option<String> {
    let package = match source.find("//") {
        Some(at) => source.get(..at)?,
        None => source,
    };
    let parts: Vec<&str> = package.split('/').collect();
    let (host, namespace, name, system) = match parts.as_slice() {
        [namespace, name, system] => (None, *namespace, *name, *system),
        [host, namespace, name, system] => {
            (Some(host.to_ascii_lowercase()), *namespace, *name, *system)
        }
        _ => return None,
    };
    let valid = is_registry_name(namespace) && is_registry_name(name) && is_target_system(system);
    if !valid {
        return None;
    }
    let pages = match host.as_deref() {
        None | Some("registry.opentofu.org") => OPENTOFU_MODULE_PAGES,
        Some("registry.terraform.io") => TERRAFORM_MODULE_PAGES,
        Some(_) => return None,
    };
    Some(format!("{pages}/{namespace}/{name}/{system}"))
}

/// A namespace or module name: 1 to 64 ASCII letters, digits, `-` and `_`,
/// starting and ending with a letter or digit.
fn is_registry_name(part: &str) -> bool {
    let bytes = part.as_bytes();
    let inner_ok = bytes
        .iter()
        .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_'));
    let ends_ok = bytes.first().is_some_and(u8::is_ascii_alphanumeric)
        && bytes.last().is_some_and(u8::is_ascii_alphanumeric);
    (1..=64).contains(&bytes.len()) && inner_ok && ends_ok
}

/// A target system: 1 to 64 lowercase ASCII letters and digits.
fn is_target_system(part: &str) -> bool {
    (1..=64).contains(&part.len())
        && part
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_addresses_lead_to_their_registry_pages() {
        let opentofu =
            Some("https://search.opentofu.org/module/terraform-aws-modules/vpc/aws".to_owned());
        assert_eq!(registry_page("terraform-aws-modules/vpc/aws"), opentofu);
        assert_eq!(
            registry_page("registry.opentofu.org/terraform-aws-modules/vpc/aws"),
            opentofu
        );
        assert_eq!(
            registry_page("terraform-aws-modules/vpc/aws//modules/vpc-endpoints"),
            opentofu
        );
        assert_eq!(
            registry_page("Registry.Terraform.io/hashicorp/consul/aws"),
            Some("https://registry.terraform.io/modules/hashicorp/consul/aws".to_owned())
        );
        for other in [
            "app.terraform.io/example-corp/k8s-cluster/azurerm",
            "github.com/hashicorp/example",
            "git::https://example.com/vpc.git",
            "hashicorp/consul/AWS",
            "-bad/name/aws",
            "s3::https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip",
            "./local",
        ] {
            assert_eq!(registry_page(other), None, "{other}");
        }
    }

    #[test]
    fn the_first_configuration_file_is_by_name_and_read_by_opentofu() {
        let names = [
            "variables.tf",
            ".hidden.tf",
            "README.md",
            "main.tofu",
            "b.tf.json",
        ];
        assert_eq!(first_configuration_file(names), Some("b.tf.json"));
        assert_eq!(first_configuration_file(["notes.txt"]), None);
    }
}

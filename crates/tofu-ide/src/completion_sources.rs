//! Completion inside a `source` string: where a module comes from, and
//! where a provider comes from.
//!
//! - `module "…" { source = "|" }` (and a test file's
//!   `run { module { source = "|" } }`): the local module directories near
//!   the module, as relative paths (`./modules/net`, `../shared`), and the
//!   sources `tofu init` recorded in the module's
//!   `.terraform/modules/modules.json`. The directories are the module
//!   directories the host knows (the workspace walk of `tofu-vfs` found
//!   them: each holds a configuration file, and `.terraform`, `.git`,
//!   `node_modules` and hidden directories were skipped), at most
//!   [`MAX_LEVELS_UP`] levels up and [`MAX_LEVELS_DOWN`] down; never the
//!   module itself or a directory above it. No IO: a directory outside the
//!   workspace is not offered.
//! - `terraform { required_providers { NAME = { source = "|" } } }`: the
//!   providers installed or cached for the module
//!   ([`InstalledProvider`], which the caller reads from the disk when
//!   [`crate::Snapshot::completion_provider_dir`] asks for them), as
//!   `hashicorp/time` (the default registry's host left out), with their
//!   versions as detail.
//!
//! The proposal replaces what is typed between the opening quote and the
//! cursor.

use std::path::{Component, Path};

use tofu_module::discovery::{has_config_extension, is_ignored_name};
use tofu_module::module_source::local_source;
use tofu_module::{FileRole, ModuleFile};
use tofu_schema::address::DEFAULT_REGISTRY_HOST;
use tofu_schema::install::discovery::compare_versions;
use tofu_schema::ProviderAddress;
use tofu_syntax::{Block, TextRange};

use crate::snapshot::Snapshot;

/// How many `..` a proposed local source may start with.
pub(crate) const MAX_LEVELS_UP: usize = 2;
/// How many directories a proposed local source may name after its `..`.
pub(crate) const MAX_LEVELS_DOWN: usize = 3;

/// A provider package installed or cached where the module's providers
/// are looked up: a root's `.terraform/providers`, the plugin cache, a
/// mirror, the schema cache.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct InstalledProvider {
    pub address: ProviderAddress,
    pub version: String,
}

/// Which `source` string the cursor is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SourceString {
    /// A `module` block's (or a test run's `module` block's).
    Module,
    /// A `required_providers` entry's.
    Provider,
}

/// One proposal for a `source` string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SourceProposal {
    pub label: String,
    pub detail: String,
    /// A local directory, not an address.
    pub directory: bool,
}

/// The `source` string the cursor at `offset` of `file` is in, and the
/// range of what is typed in it before the cursor; `None` elsewhere.
pub(crate) fn source_string_at(
    file: &ModuleFile,
    offset: u32,
) -> Option<(SourceString, TextRange)> {
    if file.is_json() {
        return None;
    }
    let text = &file.text;
    let before = text.get(..offset as usize)?;
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let line_before = before.get(line_start..)?;
    let quote = line_before.rfind('"')?;
    let typed = line_before.get(quote + 1..)?;
    if typed.contains("${") || typed.contains('\\') {
        return None;
    }
    let assigned = line_before.get(..quote)?.trim_end().strip_suffix('=')?;
    let name = assigned.trim_end().strip_suffix("source")?;
    if name
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let quote_at = line_start + quote;
    let parsed = without_string(file, quote_at, offset as usize);
    let blocks = &parsed.body.blocks;
    let block = blocks.iter().find(|block| block.range.contains(offset))?;
    let in_source = |block: &Block| {
        block
            .body
            .attribute("source")
            // The string is a number now, which ends at the cursor.
            .is_some_and(|attr| attr.range.contains_inclusive(offset))
    };
    let nested = |block: &Block, kind: &str| -> Option<Block> {
        block
            .body
            .blocks
            .iter()
            .find(|nested| nested.kind == kind && nested.range.contains(offset))
            .cloned()
    };
    let kind = match (file.role, block.kind.as_str()) {
        (FileRole::Primary | FileRole::Override, "module") if in_source(block) => {
            SourceString::Module
        }
        (FileRole::Test, "run") if nested(block, "module").is_some_and(|m| in_source(&m)) => {
            SourceString::Module
        }
        (FileRole::Primary | FileRole::Override, "terraform") => {
            let required = nested(block, "required_providers")?;
            if !required
                .body
                .attributes
                .iter()
                .any(|entry| entry.range.contains(offset))
            {
                return None;
            }
            SourceString::Provider
        }
        _ => return None,
    };
    let replace = TextRange::from_usize(quote_at + 1, offset as usize);
    Some((kind, replace))
}

/// `file` parsed with the string that opens at `quote_at` (up to its
/// closing quote on the same line, or up to the cursor when it has none)
/// replaced by blanks and a number, keeping every offset: while it is
/// typed, the string is often not closed yet, and loses its block.
fn without_string(file: &ModuleFile, quote_at: usize, cursor: usize) -> tofu_syntax::SourceFile {
    let text = &file.text;
    let rest = text.get(cursor..).unwrap_or_default();
    let line_rest = rest.split('\n').next().unwrap_or_default();
    let end = cursor + line_rest.find('"').map_or(0, |at| at + 1);
    // Blanks, then the number ending where the string did: the attribute
    // then ends there too.
    let mut changed = String::with_capacity(text.len());
    changed.push_str(text.get(..quote_at).unwrap_or_default());
    changed.extend(std::iter::repeat_n(' ', end.saturating_sub(quote_at + 1)));
    changed.push('0');
    changed.push_str(text.get(end..).unwrap_or_default());
    tofu_syntax::parse(&file.name, &changed)
}

/// The local module directories near `dir`, then the sources its module
/// manifest records, without repeats.
pub(crate) fn module_sources(snapshot: &Snapshot, dir: &Path) -> Vec<SourceProposal> {
    let mut local: Vec<(usize, SourceProposal)> = snapshot
        .summaries()
        .filter_map(|summary| {
            let (levels_up, label) = relative_source(dir, &summary.dir)?;
            let n_files = summary
                .file_diagnostics()
                .iter()
                .filter_map(|file| file.path.file_name()?.to_str())
                .filter(|name| has_config_extension(name) && !is_ignored_name(name))
                .count();
            (n_files > 0).then(|| {
                let plural = if n_files == 1 { "" } else { "s" };
                (
                    levels_up,
                    SourceProposal {
                        label,
                        detail: format!("local module, {n_files} configuration file{plural}"),
                        directory: true,
                    },
                )
            })
        })
        .collect();
    local.sort_by(|(left_up, left), (right_up, right)| {
        left_up
            .cmp(right_up)
            .then_with(|| left.label.cmp(&right.label))
    });
    let mut proposals: Vec<SourceProposal> =
        local.into_iter().map(|(_, proposal)| proposal).collect();
    let manifest = snapshot.summary(dir).and_then(|summary| summary.manifest());
    for entry in manifest.iter().flat_map(|manifest| manifest.entries()) {
        // A nested call's local source is relative to its caller, not here.
        let nested = entry.key.contains('.');
        if entry.source.is_empty() || (nested && local_source(&entry.source).is_some()) {
            continue;
        }
        let label = entry
            .source
            .strip_prefix(DEFAULT_REGISTRY_HOST)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(&entry.source)
            .to_owned();
        if proposals.iter().any(|proposal| proposal.label == label) {
            continue;
        }
        let call = format!("module.{}", entry.key.replace('.', ".module."));
        let detail = match &entry.version {
            Some(version) => format!("installed by tofu init for {call}, version {version}"),
            None => format!("installed by tofu init for {call}"),
        };
        proposals.push(SourceProposal {
            label,
            detail,
            directory: false,
        });
    }
    proposals
}

/// How `to` is written as a local source from `from` (`./modules/net`,
/// `../shared`) and how many levels up it goes, when it lies within the
/// bounds, is neither `from` nor above it, and no directory on the way
/// down is hidden (`.terraform`, `.git`) or `node_modules`.
fn relative_source(from: &Path, to: &Path) -> Option<(usize, String)> {
    let (levels_up, down) = from
        .ancestors()
        .take(MAX_LEVELS_UP + 1)
        .enumerate()
        .find_map(|(levels_up, ancestor)| Some((levels_up, to.strip_prefix(ancestor).ok()?)))?;
    let mut parts = Vec::new();
    for component in down.components() {
        let Component::Normal(name) = component else {
            return None;
        };
        let name = name.to_str()?;
        if name.starts_with('.') || name == "node_modules" {
            return None;
        }
        parts.push(name);
    }
    if parts.is_empty() || parts.len() > MAX_LEVELS_DOWN {
        return None;
    }
    let up = if levels_up == 0 {
        "./".to_owned()
    } else {
        "../".repeat(levels_up)
    };
    Some((levels_up, format!("{up}{}", parts.join("/"))))
}

/// Each provider of `installed` once, as a `required_providers` source
/// writes it, with its versions (newest first) as detail; sorted.
pub(crate) fn provider_sources(installed: &[InstalledProvider]) -> Vec<SourceProposal> {
    let mut sorted: Vec<&InstalledProvider> = installed.iter().collect();
    sorted.sort_by(|left, right| {
        left.address
            .cmp(&right.address)
            .then_with(|| compare_versions(&right.version, &left.version))
    });
    sorted.dedup();
    let mut proposals: Vec<SourceProposal> = Vec::new();
    let mut current: Option<&ProviderAddress> = None;
    for provider in sorted {
        if current == Some(&provider.address) {
            if let Some(last) = proposals.last_mut() {
                last.detail.push_str(", ");
                last.detail.push_str(&provider.version);
            }
            continue;
        }
        current = Some(&provider.address);
        let address = &provider.address;
        let label = if address.hostname == DEFAULT_REGISTRY_HOST {
            format!("{}/{}", address.namespace, address.type_name)
        } else {
            address.to_string()
        };
        proposals.push(SourceProposal {
            label,
            detail: format!("installed: {}", provider.version),
            directory: false,
        });
    }
    proposals.sort_by(|left, right| left.label.cmp(&right.label));
    proposals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_source_is_relative_and_bounded() {
        let from = Path::new("/ws/stacks/prod");
        let source = |to: &str| relative_source(from, Path::new(to)).map(|(_, label)| label);
        assert_eq!(
            source("/ws/stacks/prod/modules/net").as_deref(),
            Some("./modules/net")
        );
        assert_eq!(source("/ws/stacks/dev").as_deref(), Some("../dev"));
        assert_eq!(
            source("/ws/modules/a/b").as_deref(),
            Some("../../modules/a/b")
        );
        // Too far up, too far down, itself, above it, hidden on the way.
        assert_eq!(source("/elsewhere/x"), None);
        assert_eq!(source("/ws/modules/a/b/c"), None);
        assert_eq!(source("/ws/stacks/prod"), None);
        assert_eq!(source("/ws/stacks"), None);
        assert_eq!(source("/ws/stacks/prod/.terraform/modules/vpc"), None);
        assert_eq!(source("/ws/stacks/prod/.git/x"), None);
        assert_eq!(source("/ws/stacks/prod/node_modules/x"), None);
    }

    #[test]
    fn installed_providers_are_listed_once_with_their_versions() {
        let installed = |address: &str, version: &str| InstalledProvider {
            address: ProviderAddress::parse(address).unwrap(),
            version: version.to_owned(),
        };
        let found = provider_sources(&[
            installed("hashicorp/time", "0.9.1"),
            installed("example.com/acme/widget", "1.0.0"),
            installed("hashicorp/time", "0.14.2"),
            installed("hashicorp/time", "0.9.1"),
        ]);
        let shown: Vec<(&str, &str)> = found
            .iter()
            .map(|proposal| (proposal.label.as_str(), proposal.detail.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                ("example.com/acme/widget", "installed: 1.0.0"),
                ("hashicorp/time", "installed: 0.14.2, 0.9.1"),
            ]
        );
    }
}

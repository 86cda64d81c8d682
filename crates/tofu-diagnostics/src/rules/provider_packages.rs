//! Why a provider's schema could not be used (issue 47, part 6), where
//! `tofu init` installed something for the module: the schema source
//! (`tofu_vfs::schemas`) records it in the analysis's `ProviderSchemas`.
//!
//! - `provider-package-mismatch` (error): the installed package of the
//!   locked version matches none of the lock file's hashes, so it is never
//!   run. `tofu validate` fails on it, in these words and without a place;
//!   tofu-lens puts it on the provider's `required_providers` entry, else
//!   on the first block that uses the provider.
//! - `provider-schema-unavailable` (information): any other reason (not
//!   installed for this platform, another version than the lock file's, a
//!   provider that failed to start), once per provider at the same place,
//!   so that a body nothing judges is never silent.
//!
//! A module nothing was installed for (no `.terraform` among its roots)
//! gets neither: its schemas were never there to use.

use tofu_syntax::{Diagnostic, Location, TextRange};

use crate::rules::views::ModuleView;
use tofu_module::address::BlockAddress;
use tofu_module::UnavailableSchema;
use tofu_schema::ProviderAddress;

/// The `provider-packages` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let names = view.provider_names();
    for (address, why) in names.schemas.unavailable() {
        let Some(at) = place(view, address) else {
            continue;
        };
        out.push(match why {
            UnavailableSchema::LockMismatch { version } => Diagnostic::new(
                crate::codes::PROVIDER_PACKAGE_MISMATCH,
                format!(
                    "failed to read provider configuration schema for {address}: failed to instantiate provider \"{address}\" to obtain schema: the cached package for {address} {version} (in .terraform/providers) does not match any of the checksums recorded in the dependency lock file, run tofu init to ensure all providers are correctly installed"
                ),
                at,
            ),
            UnavailableSchema::Other(reason) => Diagnostic::new(
                crate::codes::PROVIDER_SCHEMA_UNAVAILABLE,
                format!("No schema for provider {address}"),
                at,
            )
            .with_detail(format!(
                "The provider's schema could not be read: {reason}. The arguments of its resources, data sources and configurations are not checked against it."
            )),
        });
    }
}

/// Where a diagnostic about provider `address` goes: the name of its
/// `required_providers` entry, else the header of the first resource, data
/// source, ephemeral resource or provider configuration using it.
fn place(view: &ModuleView<'_>, address: &ProviderAddress) -> Option<Location> {
    let names = view.provider_names();
    let terraform = view.terraform();
    let entry = terraform
        .required_providers
        .iter()
        .find(|entry| names.required.get(&entry.name) == Some(address));
    if let Some(entry) = entry {
        let start = entry.origin.range.start;
        let end = start + tofu_syntax::text::to_u32(entry.name.len());
        return Some(Location::new(
            entry.origin.file,
            TextRange::new(start, end.min(entry.origin.range.end)),
        ));
    }
    let blocks = view.effective_blocks(|block| {
        matches!(
            block,
            BlockAddress::Resource { .. } | BlockAddress::Provider { .. }
        )
    });
    let using = blocks.into_iter().find(|block| {
        let local_name = match &block.address {
            BlockAddress::Provider { name, .. } => Some(name.as_str()),
            resource => view
                .declared(resource)
                .map(|declared| declared.provider.as_str()),
        };
        local_name.is_some_and(|local_name| names.address(local_name) == *address)
    })?;
    let base = using.base?;
    Some(Location::new(base.file, view.block(base)?.header))
}

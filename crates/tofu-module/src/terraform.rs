//! `terraform` blocks are not objects: each setting has its own rule
//! (`merging.md` §6.9). This module builds the synthesized effective view and
//! reports the duplicates among primary-file settings (`diagnostics.md` §2.3).
//!
//! - `required_version` is never merged: every one is listed, `.tofu` ones as
//!   checked, `.tf` ones as ignored.
//! - `required_providers`: the first block of the primary files is kept; override
//!   entries replace whole entries by name.
//! - `backend`/`cloud`: whole blocks; per override file, exactly one of a kind is
//!   applied, a second one of a kind is `duplicate-backend`, `cloud` wins.
//! - `encryption`: deep-merged by block type and labels.
//! - `provider_meta`: read from primary files only.

use tofu_syntax::{Block, Code, Diagnostic, FileId, Location};

use crate::declarations::DeclaredModule;
use crate::effective::*;
use crate::loaded::BlockRef;

pub fn collect_primary(module: &DeclaredModule, out: &mut Vec<Diagnostic>) -> EffectiveTerraform {
    let mut view = EffectiveTerraform::default();
    let mut first_required_providers: Option<Location> = None;
    let mut first_backend: Option<Location> = None;
    let mut first_cloud: Option<Location> = None;
    let mut first_encryption: Option<Location> = None;
    let mut reported_backend_and_cloud = false;
    for &block_ref in &module.declarations.terraform {
        let Some(block) = module.block(block_ref) else {
            continue;
        };
        let Some(file) = module.file(block_ref.file) else {
            continue;
        };
        let file_id = block_ref.file;
        view.blocks.push(block_ref);
        if let Some(attr) = block.body.attribute("required_version") {
            view.required_versions.push(RequiredVersion {
                attribute: EffectiveAttribute::as_written(file_id, attr),
                checked: file.is_tofu(),
            });
        }
        for nested in &block.body.blocks {
            let here = Location::new(file_id, nested.header);
            match nested.kind.as_str() {
                "required_providers" => match first_required_providers {
                    None => {
                        first_required_providers = Some(here);
                        view.required_providers = nested
                            .body
                            .attributes
                            .iter()
                            .map(|attr| EffectiveAttribute::as_written(file_id, attr))
                            .collect();
                    }
                    Some(first) => out.push(duplicate(
                        module,
                        crate::codes::DUPLICATE_BLOCK,
                        "Duplicate required providers configuration",
                        "A module may have only one required providers configuration. The required providers were previously configured at",
                        "",
                        here,
                        first,
                    )),
                },
                // A backend has one label (its type), a cloud block none.
                "backend" | "cloud"
                    if nested.labels.len() == usize::from(nested.kind == "backend") =>
                {
                    let (first, summary, detail_prefix) = if nested.kind == "backend" {
                        (
                            &mut first_backend,
                            "Duplicate backend configuration",
                            "A module may have only one backend configuration. The backend was previously configured at",
                        )
                    } else {
                        (
                            &mut first_cloud,
                            "Duplicate cloud configurations",
                            "A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at",
                        )
                    };
                    match *first {
                        None => *first = Some(here),
                        Some(earlier) => out.push(duplicate(
                            module,
                            crate::codes::DUPLICATE_BACKEND,
                            summary,
                            detail_prefix,
                            "",
                            here,
                            earlier,
                        )),
                    }
                    if view.backend.is_none() {
                        view.backend = Some(EffectiveNestedBlock::as_written(file_id, nested));
                    }
                }
                "encryption" => match first_encryption {
                    None => {
                        first_encryption = Some(here);
                        view.encryption = Some(EffectiveNestedBlock::as_written(file_id, nested));
                    }
                    Some(first) => out.push(duplicate(
                        module,
                        crate::codes::DUPLICATE_BLOCK,
                        "Duplicate encryption configuration",
                        "A module may have only one encryption configuration. Encryption was previously configured at",
                        "",
                        here,
                        first,
                    )),
                },
                "provider_meta" if nested.labels.len() == 1 => {
                    let label = nested.label(0).unwrap_or_default();
                    let earlier = view
                        .provider_meta
                        .iter()
                        .position(|meta| meta.labels.first().map(String::as_str) == Some(label));
                    if let Some(index) = earlier {
                        if let Some(previous) = view.provider_meta.get(index) {
                            let first = Location::new(previous.origin.file, previous.origin.range);
                            out.push(duplicate(
                                module,
                                crate::codes::DUPLICATE_BLOCK,
                                "Duplicate provider_meta block",
                                &format!("A provider_meta block for provider \"{label}\" was already declared at"),
                                "Providers may only have one provider_meta block per module.",
                                here,
                                first,
                            ));
                        }
                        view.provider_meta.remove(index);
                    }
                    view.provider_meta.push(EffectiveNestedBlock::as_written(file_id, nested));
                }
                _ => {}
            }
        }
        if let (Some(backend), Some(cloud), false) =
            (first_backend, first_cloud, reported_backend_and_cloud)
        {
            reported_backend_and_cloud = true;
            out.push(
                Diagnostic::new(
                    crate::codes::DUPLICATE_BACKEND,
                    "Both a backend and a cloud configuration are present",
                    backend,
                )
                .with_detail(format!(
                    "A module may declare either one 'cloud' block configuring a cloud backend OR one 'backend' block configuring a state backend. A cloud backend is configured at {}; a backend is configured at {}. Remove the backend block to configure a cloud backend.",
                    module.describe(cloud),
                    module.describe(backend)
                ))
                .with_related(cloud, "the cloud block"),
            );
        }
    }
    view
}

fn duplicate(
    module: &DeclaredModule,
    code: Code,
    summary: &str,
    detail_prefix: &str,
    detail_suffix: &str,
    here: Location,
    first: Location,
) -> Diagnostic {
    let mut detail = format!("{detail_prefix} {}.", module.describe(first));
    if !detail_suffix.is_empty() {
        detail.push(' ');
        detail.push_str(detail_suffix);
    }
    Diagnostic::new(code, summary, here)
        .with_detail(detail)
        .with_related(first, "first declared here")
}

/// Applies the `terraform` blocks of one override file.
pub fn apply_override_file(
    module: &DeclaredModule,
    file_id: FileId,
    blocks: &[(BlockRef, &Block)],
    view: &mut EffectiveTerraform,
    out: &mut Vec<Diagnostic>,
) {
    let Some(file) = module.file(file_id) else {
        return;
    };
    let mut backends: Vec<&Block> = Vec::new();
    let mut clouds: Vec<&Block> = Vec::new();
    let mut encryptions: Vec<&Block> = Vec::new();
    for &(block_ref, block) in blocks {
        view.blocks.push(block_ref);
        if let Some(attr) = block.body.attribute("required_version") {
            view.required_versions.push(RequiredVersion {
                attribute: EffectiveAttribute::as_written(file_id, attr),
                checked: file.is_tofu(),
            });
        }
        for nested in &block.body.blocks {
            match nested.kind.as_str() {
                "required_providers" => {
                    for entry in &nested.body.attributes {
                        let mut body = EffectiveBody {
                            attributes: std::mem::take(&mut view.required_providers),
                            blocks: Vec::new(),
                        };
                        body.replace_attribute(EffectiveAttribute::as_written(file_id, entry));
                        view.required_providers = body.attributes;
                    }
                }
                "backend" if nested.labels.len() == 1 => backends.push(nested),
                "cloud" if nested.labels.is_empty() => clouds.push(nested),
                "encryption" => encryptions.push(nested),
                "provider_meta" => out.push(
                    Diagnostic::new(
                        crate::codes::OVERRIDE_INEFFECTIVE,
                        "provider_meta in an override file has no effect",
                        Location::new(file_id, nested.header),
                    )
                    .with_detail("OpenTofu reads provider_meta blocks only from primary files."),
                ),
                _ => {}
            }
        }
    }
    // Backends are applied first, then clouds, so a cloud block wins.
    for (kind_blocks, summary, detail_prefix) in [
        (
            &backends,
            "Duplicate backend configuration",
            "Each override file may have only one backend configuration. A backend was previously configured at",
        ),
        (
            &clouds,
            "Duplicate cloud configurations",
            "A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at",
        ),
    ] {
        match kind_blocks.as_slice() {
            [] => {}
            [only] => {
                let mut winner = EffectiveNestedBlock::as_written(file_id, only);
                if let Some(previous) = view.backend.take() {
                    winner.superseded = previous.superseded;
                    winner.superseded.push(previous.origin);
                }
                view.backend = Some(winner);
            }
            [first, second, ..] => {
                let first_location = Location::new(file_id, first.header);
                out.push(duplicate(
                    module,
                    crate::codes::DUPLICATE_BACKEND,
                    summary,
                    detail_prefix,
                    "",
                    Location::new(file_id, second.header),
                    first_location,
                ));
            }
        }
    }
    for (i, encryption) in encryptions.iter().enumerate() {
        if i > 0 {
            let first = encryptions
                .first()
                .map_or(Location::new(file_id, encryption.header), |b| {
                    Location::new(file_id, b.header)
                });
            out.push(duplicate(
                module,
                crate::codes::DUPLICATE_BLOCK,
                "Duplicate encryption configuration",
                "Each override file may have only one encryption configuration. Encryption was previously configured at",
                "",
                Location::new(file_id, encryption.header),
                first,
            ));
            continue;
        }
        let incoming = EffectiveNestedBlock::as_written(file_id, encryption);
        match view.encryption.as_mut() {
            Some(base) => deep_merge(&mut base.body, incoming.body),
            None => view.encryption = Some(incoming),
        }
    }
}

/// Encryption's deep merge: nested blocks matched by type and labels are merged
/// recursively, unmatched ones added; attributes replaced, except that
/// `enforced` cannot be switched off by an override.
fn deep_merge(base: &mut EffectiveBody, incoming: EffectiveBody) {
    for attr in incoming.attributes {
        if attr.name == "enforced" && base.attribute("enforced").is_some() {
            // "enforced" = base OR override: keep the base unless the override
            // turns it on, which a later check cannot tell without values.
            continue;
        }
        base.replace_attribute(attr);
    }
    for block in incoming.blocks {
        let position = base
            .blocks
            .iter()
            .position(|existing| existing.kind == block.kind && existing.labels == block.labels);
        match position.and_then(|i| base.blocks.get_mut(i)) {
            Some(existing) => deep_merge(&mut existing.body, block.body),
            None => base.blocks.push(block),
        }
    }
}

//! The schema of OpenTofu's built-in provider, `terraform.io/builtin/terraform`
//! (`terraform_data`, the `terraform_remote_state` data source): it is part
//! of OpenTofu, so `tofu validate` knows it without `tofu init` or any plugin.
//!
//! `builtin_terraform.json` is what OpenTofu 1.12.6's `tofu providers schema
//! -json` prints for it (in a module using `terraform_data`), kept as data:
//! regenerate it from a newer release the same way.
//!
//! It is decoded once per process, on first use, and shared: it is a
//! constant of the program (the text is compiled in), not state, and
//! decoding it for every module directory cost `check` about 2 % of its
//! time on cloudposse.

use std::sync::{Arc, OnceLock};

use crate::address::ProviderAddress;
use crate::json_decode::decode_providers_schema_json;
use crate::model::ProviderSchema;
use crate::requirements::is_built_in;

const BUILTIN_TERRAFORM: &str = include_str!("builtin_terraform.json");

/// The schema of the built-in provider at `address`, when there is one.
pub fn builtin_schema(address: &ProviderAddress) -> Option<Arc<ProviderSchema>> {
    static DECODED: OnceLock<Vec<(ProviderAddress, Arc<ProviderSchema>)>> = OnceLock::new();
    if !is_built_in(address) {
        return None;
    }
    DECODED
        .get_or_init(|| {
            decode_providers_schema_json(BUILTIN_TERRAFORM)
                .map(|schemas| {
                    schemas
                        .into_iter()
                        .map(|(found, schema)| (found, Arc::new(schema)))
                        .collect()
                })
                .unwrap_or_default()
        })
        .iter()
        .find_map(|(found, schema)| (found == address).then(|| Arc::clone(schema)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::requirements::implied_provider;

    #[test]
    fn the_terraform_provider_is_built_in_and_no_other() {
        let schema = builtin_schema(&implied_provider("terraform")).unwrap();
        let data = &schema.resource_types.get("terraform_data").unwrap().block;
        assert!(data.attributes.get("input").unwrap().optional);
        assert!(data.attributes.get("output").unwrap().computed);
        let remote = &schema
            .data_sources
            .get("terraform_remote_state")
            .unwrap()
            .block;
        assert!(remote.attributes.get("backend").unwrap().required);
        assert!(builtin_schema(&implied_provider("time")).is_none());
    }
}

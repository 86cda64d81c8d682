//! The provider network mirror protocol: `BASE/HOST/NAMESPACE/TYPE/index.json`
//! lists the versions, `…/VERSION.json` each platform's archive URL and
//! hashes. Only `https` mirrors, as OpenTofu requires.

use std::collections::BTreeMap;

use serde::Deserialize;
use tofu_schema::ProviderAddress;

use crate::network::{FetchError, Network};
use crate::url::resolve;

const METADATA_LIMIT: u64 = 4 * 1024 * 1024;

fn provider_url(base: &str, address: &ProviderAddress, file: &str) -> String {
    let base = if base.ends_with('/') {
        base.to_owned()
    } else {
        format!("{base}/")
    };
    resolve(
        &base,
        &format!(
            "{}/{}/{}/{file}",
            address.hostname, address.namespace, address.type_name
        ),
    )
}

/// The versions the mirror has of `address`.
pub fn versions(
    network: &Network<'_>,
    base: &str,
    address: &ProviderAddress,
) -> Result<Vec<String>, FetchError> {
    #[derive(Deserialize)]
    struct Body {
        versions: BTreeMap<String, serde_json::Value>,
    }
    let url = provider_url(base, address, "index.json");
    let fetched = network.get(&url, &mirror_host(base), METADATA_LIMIT)?;
    match fetched.status {
        200 => {}
        404 => {
            return Err(FetchError::NotFound(format!(
                "the mirror at {base} does not have provider {address}"
            )))
        }
        401 | 403 => {
            return Err(FetchError::Unauthorized(format!(
                "invalid credentials for {url}"
            )))
        }
        status => {
            return Err(FetchError::Query(format!(
                "could not query the mirror for {address}: server returned unsuccessful status {status}"
            )))
        }
    }
    let body: Body = serde_json::from_slice(&fetched.body).map_err(|error| {
        FetchError::Query(format!(
            "could not query the mirror for {address}: invalid response content from mirror server: {error}"
        ))
    })?;
    Ok(body.versions.into_keys().collect())
}

/// The archive URL of `version` for this platform and its hashes.
pub fn archive(
    network: &Network<'_>,
    base: &str,
    address: &ProviderAddress,
    version: &str,
) -> Result<(String, Vec<String>), FetchError> {
    #[derive(Deserialize)]
    struct Body {
        archives: BTreeMap<String, Archive>,
    }
    #[derive(Deserialize)]
    struct Archive {
        url: String,
        #[serde(default)]
        hashes: Vec<String>,
    }
    let url = provider_url(base, address, &format!("{version}.json"));
    let fetched = network.get(&url, &mirror_host(base), METADATA_LIMIT)?;
    match fetched.status {
        200 => {}
        404 => {
            return Err(FetchError::NotFound(format!(
                "provider mirror does not have archive index for previously-reported {address} version {version}"
            )))
        }
        status => {
            return Err(FetchError::Query(format!(
                "could not query the mirror for {address}: server returned unsuccessful status {status}"
            )))
        }
    }
    let mut body: Body = serde_json::from_slice(&fetched.body).map_err(|error| {
        FetchError::Query(format!(
            "could not query the mirror for {address}: invalid response content from mirror server: {error}"
        ))
    })?;
    let platform = network.config.platform.dir_name();
    let Some(found) = body.archives.remove(&platform) else {
        return Err(FetchError::NotFound(format!(
            "provider {address} {version} is not available for {platform}"
        )));
    };
    Ok((resolve(&fetched.url, &found.url), found.hashes))
}

/// The host of a mirror URL, for its credentials.
pub fn mirror_host(base: &str) -> String {
    base.split_once("://")
        .map_or(base, |(_, rest)| rest)
        .split(['/', '?'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

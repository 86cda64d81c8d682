//! The provider registry protocol as `tofu init` speaks it: service
//! discovery (`https://HOST/.well-known/terraform.json`, its
//! `providers.v1`, or a CLI configuration `host` block instead), the
//! versions list and a version's download metadata for one platform,
//! then the `SHA256SUMS` document and its signature.

use std::collections::BTreeMap;

use serde::Deserialize;
use tofu_schema::ProviderAddress;

use crate::network::{FetchError, Network};
use crate::url::{resolve, scheme};

/// The most a metadata document may be.
const METADATA_LIMIT: u64 = 4 * 1024 * 1024;

/// The protocol majors OpenTofu 1.12 speaks with providers.
const SUPPORTED_PROTOCOLS: [&str; 2] = ["5", "6"];

/// The `providers.v1` base URL of `host`.
pub fn providers_base(network: &Network<'_>, host: &str) -> Result<String, FetchError> {
    if let Some(services) = network.config.hosts.get(host) {
        let Some(base) = services.get("providers.v1") else {
            return Err(FetchError::Discovery(format!(
                "host {host} does not provide a provider registry (its host block names no providers.v1)"
            )));
        };
        return Ok(with_slash(base));
    }
    let url = format!("https://{host}/.well-known/terraform.json");
    let fetched = network
        .http
        .get(&url, None, METADATA_LIMIT)
        .map_err(|why| FetchError::Unreachable(format!("failed to discover {host}: {why}")))?;
    if fetched.status != 200 {
        return Err(FetchError::Discovery(format!(
            "failed to discover {host}: {} from {url}",
            fetched.status
        )));
    }
    let services: BTreeMap<String, serde_json::Value> = serde_json::from_slice(&fetched.body)
        .map_err(|error| {
            FetchError::Discovery(format!(
                "{host}: the discovery document is invalid: {error}"
            ))
        })?;
    let Some(base) = services
        .get("providers.v1")
        .and_then(|value| value.as_str())
    else {
        return Err(FetchError::Discovery(format!(
            "host {host} does not provide a provider registry"
        )));
    };
    Ok(with_slash(&resolve(&fetched.url, base)))
}

fn with_slash(base: &str) -> String {
    if base.ends_with('/') {
        base.to_owned()
    } else {
        format!("{base}/")
    }
}

/// The versions the registry has of `address`, with their protocols.
pub fn versions(
    network: &Network<'_>,
    base: &str,
    address: &ProviderAddress,
) -> Result<Vec<(String, Vec<String>)>, FetchError> {
    #[derive(Deserialize)]
    struct Body {
        #[serde(default)]
        versions: Vec<Entry>,
    }
    #[derive(Deserialize)]
    struct Entry {
        version: String,
        #[serde(default)]
        protocols: Vec<String>,
    }
    let url = resolve(
        base,
        &format!("{}/{}/versions", address.namespace, address.type_name),
    );
    let fetched = network.get(&url, &address.hostname, METADATA_LIMIT)?;
    match fetched.status {
        200 => {}
        404 => {
            return Err(FetchError::NotFound(format!(
                "provider registry {} does not have a provider named {address}",
                address.hostname
            )))
        }
        401 | 403 => return Err(unauthorized(network, &address.hostname)),
        status => {
            return Err(FetchError::Query(format!(
                "could not query provider registry for {address}: {status} from {url}"
            )))
        }
    }
    let body: Body = serde_json::from_slice(&fetched.body).map_err(|error| {
        FetchError::Query(format!(
            "could not query provider registry for {address}: {error}"
        ))
    })?;
    Ok(body
        .versions
        .into_iter()
        .map(|entry| (entry.version, entry.protocols))
        .collect())
}

/// Whether a version's protocols include one OpenTofu speaks (no list:
/// assumed so, as OpenTofu assumes).
pub fn protocols_supported(protocols: &[String]) -> bool {
    protocols.is_empty()
        || protocols.iter().any(|protocol| {
            let major = protocol.split('.').next().unwrap_or(protocol);
            SUPPORTED_PROTOCOLS.contains(&major)
        })
}

/// A version's download metadata for one platform, its URLs resolved.
#[derive(Clone, Debug, Default)]
pub struct PackageMeta {
    pub filename: String,
    pub download_url: String,
    pub shasums_url: String,
    pub shasums_signature_url: String,
    pub shasum: String,
    pub keys: Vec<String>,
    /// The `packages` object's entry for this platform (hashes, size), and
    /// whether there was such an object.
    pub package: Option<(Vec<String>, i64)>,
    pub has_packages: bool,
}

pub fn package_meta(
    network: &Network<'_>,
    base: &str,
    address: &ProviderAddress,
    version: &str,
) -> Result<PackageMeta, FetchError> {
    #[derive(Deserialize, Default)]
    struct Body {
        #[serde(default)]
        protocols: Vec<String>,
        #[serde(default)]
        os: String,
        #[serde(default)]
        arch: String,
        #[serde(default)]
        filename: String,
        #[serde(default)]
        download_url: String,
        #[serde(default)]
        shasum: String,
        #[serde(default)]
        shasums_url: String,
        #[serde(default)]
        shasums_signature_url: String,
        #[serde(default)]
        signing_keys: Keys,
        packages: Option<BTreeMap<String, Package>>,
    }
    #[derive(Deserialize, Default)]
    struct Keys {
        #[serde(default)]
        gpg_public_keys: Vec<Key>,
    }
    #[derive(Deserialize)]
    struct Key {
        ascii_armor: String,
    }
    #[derive(Deserialize)]
    struct Package {
        #[serde(default)]
        hashes: Vec<String>,
        #[serde(default)]
        package_size: i64,
    }
    let platform = &network.config.platform;
    let url = resolve(
        base,
        &format!(
            "{}/{}/{version}/download/{}/{}",
            address.namespace, address.type_name, platform.os, platform.arch
        ),
    );
    let fetched = network.get(&url, &address.hostname, METADATA_LIMIT)?;
    match fetched.status {
        200 => {}
        404 => {
            return Err(FetchError::NotFound(format!(
                "provider {address} {version} is not available for {}",
                platform.dir_name()
            )))
        }
        401 | 403 => return Err(unauthorized(network, &address.hostname)),
        status => {
            return Err(FetchError::Query(format!(
                "could not query provider registry for {address}: {status} from {url}"
            )))
        }
    }
    let body: Body = serde_json::from_slice(&fetched.body).map_err(|error| {
        FetchError::Query(format!(
            "could not query provider registry for {address}: {error}"
        ))
    })?;
    if !protocols_supported(&body.protocols) {
        return Err(FetchError::Query(format!(
            "provider {address} {version} is not supported by this version of OpenTofu (protocols {})",
            body.protocols.join(", ")
        )));
    }
    if body.os != platform.os || body.arch != platform.arch {
        return Err(FetchError::Query(format!(
            "registry response to request for {} archive has incorrect target {}_{}",
            platform.dir_name(),
            body.os,
            body.arch
        )));
    }
    if body.shasum.len() != 64 || !body.shasum.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(FetchError::Query(format!(
            "registry response includes invalid SHA256 hash \"{}\"",
            body.shasum
        )));
    }
    let absolute = |what: &str, reference: &str| -> Result<String, FetchError> {
        let resolved = resolve(&fetched.url, reference);
        match scheme(&resolved).as_deref() {
            Some("http" | "https") => Ok(resolved),
            _ => Err(FetchError::Query(format!(
                "registry response includes invalid {what} URL: must use http or https scheme"
            ))),
        }
    };
    let has_packages = body.packages.is_some();
    let package = body
        .packages
        .unwrap_or_default()
        .remove(&platform.dir_name())
        .map(|package| (package.hashes, package.package_size));
    Ok(PackageMeta {
        download_url: absolute("download", &body.download_url)?,
        shasums_url: absolute("SHASUMS", &body.shasums_url)?,
        shasums_signature_url: absolute("SHASUMS signature", &body.shasums_signature_url)?,
        filename: body.filename,
        shasum: body.shasum.to_ascii_lowercase(),
        keys: body
            .signing_keys
            .gpg_public_keys
            .into_iter()
            .map(|key| key.ascii_armor)
            .collect(),
        package,
        has_packages,
    })
}

/// A file the metadata names (the checksums, their signature).
pub fn file(
    network: &Network<'_>,
    url: &str,
    host: &str,
    what: &str,
) -> Result<Vec<u8>, FetchError> {
    let fetched = network.get(url, host, METADATA_LIMIT)?;
    if fetched.status != 200 {
        return Err(FetchError::Query(format!(
            "failed to retrieve {what}: {} returned from {url}",
            fetched.status
        )));
    }
    Ok(fetched.body)
}

fn unauthorized(network: &Network<'_>, host: &str) -> FetchError {
    if network.token(host).is_some() {
        FetchError::Unauthorized(format!(
            "host {host} rejected the given authentication credentials"
        ))
    } else {
        FetchError::Unauthorized(format!(
            "host {host} requires authentication credentials (a credentials block or TF_TOKEN_ variable)"
        ))
    }
}

//! Verifying a downloaded package as `tofu init` does before it installs
//! it (OpenTofu's `getproviders` package authentication), in the same
//! order and with the same words:
//!
//! - a registry's package: the `SHA256SUMS` document must list the
//!   package's file name with the registry's `shasum`; the archive's
//!   SHA-256 must be that `shasum`; the document's detached OpenPGP
//!   signature must verify with one of the signing keys the registry
//!   gave (required whenever it gave any, and for every registry but
//!   OpenTofu's own, where `OPENTOFU_ENFORCE_GPG_VALIDATION=true` requires
//!   it too); when the registry lists per-platform `packages`, their size
//!   and `zh:` hash must agree;
//! - a network mirror's package: its SHA-256 (`zh:`) or its contents'
//!   `h1:` must be one of the hashes the mirror lists, when it lists any;
//! - then the lock file's hashes, where it has an entry: the package
//!   must match one of them;
//! - and the archive must unpack safely (`tofu_schema::install::check_zip`).
//!
//! Each failure is one [`VerifyError`] naming the hash or the key that
//! failed. Nothing here touches the disk but a temporary copy for the
//! `h1:` hash.

use std::fmt;

use pgp::composed::{Deserializable, DetachedSignature, SignedPublicKey};
use pgp::types::KeyDetails;
use sha2::{Digest, Sha256};

/// Why a package was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The `SHA256SUMS` document does not list the package's file.
    NotInChecksums { filename: String },
    /// It lists another hash for it than the registry's `shasum`.
    ChecksumListMismatch { listed: String, expected: String },
    /// The archive's SHA-256 is not the registry's `shasum`.
    ArchiveChecksum { actual: String, expected: String },
    /// The registry's per-platform `packages` disagree with the archive.
    RegistryPackage(String),
    /// No signing key verifies the document's signature (or a key or the
    /// signature could not be read).
    Signature(String),
    /// The mirror's hashes do not include the package's.
    MirrorHash { expected: Vec<String> },
    /// The lock file's hashes do not include the package's.
    LockMismatch { version: String },
    /// The archive would not unpack safely.
    Archive(String),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::NotInChecksums { filename } => {
                write!(formatter, "checksum list has no SHA-256 hash for \"{filename}\"")
            }
            VerifyError::ChecksumListMismatch { listed, expected } => write!(
                formatter,
                "checksum list has unexpected SHA-256 hash {listed} (expected {expected})"
            ),
            VerifyError::ArchiveChecksum { actual, expected } => write!(
                formatter,
                "archive has incorrect checksum zh:{actual} (expected zh:{expected})"
            ),
            VerifyError::RegistryPackage(message) => formatter.write_str(message),
            VerifyError::Signature(why) => write!(
                formatter,
                "the provider is not signed with a valid signing key; please contact the provider author ({why})"
            ),
            VerifyError::MirrorHash { expected } => match expected.as_slice() {
                [one] => write!(
                    formatter,
                    "provider package doesn't match the expected checksum \"{one}\""
                ),
                _ => formatter
                    .write_str("provider package doesn't match the any of the expected checksums"),
            },
            VerifyError::LockMismatch { version } => write!(
                formatter,
                "the package for version {version} doesn't match any of the checksums previously recorded in the dependency lock file"
            ),
            VerifyError::Archive(why) => write!(formatter, "the package is not a safe archive: {why}"),
        }
    }
}

/// What a registry said of one package.
#[derive(Clone, Debug, Default)]
pub struct RegistryClaims<'a> {
    pub filename: &'a str,
    /// Lower-case hex SHA-256 of the archive.
    pub shasum: &'a str,
    pub checksums: &'a [u8],
    pub signature: &'a [u8],
    /// ASCII-armoured public keys.
    pub keys: &'a [String],
    /// Whether a signature is required when no key was given.
    pub enforce_signature: bool,
    /// The `packages` entry of this platform: its hashes and size.
    pub package: Option<(&'a [String], i64)>,
    /// Whether the response had a `packages` object at all.
    pub has_packages: bool,
}

/// What verification established: the hashes to record (as `tofu init`
/// records them in a lock file: the package's `h1:` and every `zh:` of a
/// signed checksum list, or of the mirror) and the key that signed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    pub hashes: Vec<String>,
    pub signed_by: Option<String>,
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    use fmt::Write;
    bytes.iter().fold(String::new(), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// Verifies a registry's package `archive` against `claims`.
pub fn verify_registry_package(
    archive: &[u8],
    claims: &RegistryClaims<'_>,
) -> Result<Verified, VerifyError> {
    let actual = sha256_hex(archive);
    if claims.has_packages {
        registry_package(archive, claims)?;
    }
    let listed = checksum_for(claims.checksums, claims.filename).ok_or_else(|| {
        VerifyError::NotInChecksums {
            filename: claims.filename.to_owned(),
        }
    })?;
    if !listed.eq_ignore_ascii_case(claims.shasum) {
        return Err(VerifyError::ChecksumListMismatch {
            listed,
            expected: claims.shasum.to_owned(),
        });
    }
    if !actual.eq_ignore_ascii_case(claims.shasum) {
        return Err(VerifyError::ArchiveChecksum {
            actual,
            expected: claims.shasum.to_owned(),
        });
    }
    let signed_by = if claims.keys.is_empty() && !claims.enforce_signature {
        tracing::warn!(
            filename = claims.filename,
            "no signing keys from the registry: the signature is not checked (as OpenTofu does for its own registry)"
        );
        None
    } else {
        Some(verify_signature(
            claims.checksums,
            claims.signature,
            claims.keys,
        )?)
    };
    let mut hashes: Vec<String> = all_checksums(claims.checksums)
        .into_iter()
        .map(|sum| format!("zh:{sum}"))
        .collect();
    if !hashes.iter().any(|hash| hash == &format!("zh:{actual}")) {
        hashes.push(format!("zh:{actual}"));
    }
    Ok(Verified { hashes, signed_by })
}

fn registry_package(archive: &[u8], claims: &RegistryClaims<'_>) -> Result<(), VerifyError> {
    let Some((hashes, size)) = claims.package else {
        return Err(VerifyError::RegistryPackage(
            "registry response missing package with this platform".to_owned(),
        ));
    };
    if size <= 0 {
        return Err(VerifyError::RegistryPackage(format!(
            "registry response has invalid package size {size}"
        )));
    }
    let received = i64::try_from(archive.len()).unwrap_or(i64::MAX);
    if received != size {
        return Err(VerifyError::RegistryPackage(format!(
            "registry response indicates a package of size {size}, but received a package of size {received}"
        )));
    }
    let mut reported = false;
    for hash in hashes {
        if let Some(value) = hash.strip_prefix("zh:") {
            if !value.eq_ignore_ascii_case(claims.shasum) {
                return Err(VerifyError::RegistryPackage(format!(
                    "registry response expected sha256sum is \"{}\", which does not match the platform's value of \"{value}\"",
                    claims.shasum
                )));
            }
            reported = true;
        }
    }
    if !reported {
        return Err(VerifyError::RegistryPackage(
            "registry response does not contain matching sha256sum package entry and is invalid"
                .to_owned(),
        ));
    }
    Ok(())
}

/// The hash a `SHA256SUMS` document lists for `filename`.
fn checksum_for(document: &[u8], filename: &str) -> Option<String> {
    let text = String::from_utf8_lossy(document);
    text.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let sum = fields.next()?;
        (fields.next()? == filename).then(|| sum.to_ascii_lowercase())
    })
}

/// Every hash of a `SHA256SUMS` document (none when it does not look like
/// one, as OpenTofu decides).
fn all_checksums(document: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(document);
    let mut sums = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] => continue,
            [_] => return Vec::new(),
            [sum, ..] if sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit()) => {
                sums.push(sum.to_ascii_lowercase());
            }
            _ => return Vec::new(),
        }
    }
    sums
}

/// The key id (16 upper-case hex digits) of the first of `keys` that
/// verifies `signature` (binary or armoured) over `document`, with its
/// primary key or one of its subkeys.
pub fn verify_signature(
    document: &[u8],
    signature: &[u8],
    keys: &[String],
) -> Result<String, VerifyError> {
    let signature = read_signature(signature)
        .map_err(|error| VerifyError::Signature(format!("error reading the signature: {error}")))?;
    for armour in keys {
        let (key, _) = SignedPublicKey::from_string(armour).map_err(|error| {
            VerifyError::Signature(format!("error decoding signing key: {error}"))
        })?;
        let key_id = hex(key.primary_key.legacy_key_id().as_ref()).to_ascii_uppercase();
        if signature.verify(&key.primary_key, document).is_ok() {
            return Ok(key_id);
        }
        for subkey in &key.public_subkeys {
            if subkey.verify_bindings(&key.primary_key).is_ok()
                && signature.verify(&subkey.key, document).is_ok()
            {
                return Ok(key_id);
            }
        }
    }
    Err(VerifyError::Signature(
        "authentication signature from unknown issuer".to_owned(),
    ))
}

fn read_signature(bytes: &[u8]) -> Result<DetachedSignature, pgp::errors::Error> {
    if bytes.starts_with(b"-----BEGIN") {
        DetachedSignature::from_armor_single(bytes).map(|(signature, _)| signature)
    } else {
        DetachedSignature::from_bytes(bytes)
    }
}

/// Verifies a network mirror's package: its `zh:` (or its contents'
/// `h1:`, given by `h1`) must be among `expected` when there are any.
pub fn verify_mirror_package(
    archive: &[u8],
    expected: &[String],
    h1: &dyn Fn() -> Option<String>,
) -> Result<Verified, VerifyError> {
    let zh = format!("zh:{}", sha256_hex(archive));
    if expected.is_empty() {
        return Ok(Verified {
            hashes: vec![zh],
            signed_by: None,
        });
    }
    let matches = expected.iter().any(|hash| hash.eq_ignore_ascii_case(&zh))
        || h1().is_some_and(|h1| expected.contains(&h1));
    if matches {
        Ok(Verified {
            hashes: expected.to_vec(),
            signed_by: None,
        })
    } else {
        Err(VerifyError::MirrorHash {
            expected: expected.to_vec(),
        })
    }
}

/// Whether the package (its `zh:` and `h1:`) matches one of a lock file
/// entry's hashes; an entry without hashes accepts any.
pub fn matches_lock(locked_hashes: &[String], zh: &str, h1: Option<&str>) -> bool {
    locked_hashes.is_empty()
        || locked_hashes
            .iter()
            .any(|hash| hash == zh || Some(hash.as_str()) == h1)
}

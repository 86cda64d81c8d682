//! The hash functions (`md5`, `sha1`, `sha256`, `sha512`, `base64sha256`,
//! `base64sha512`) from RustCrypto's crates, `uuidv5` (deterministic), and
//! the functions whose result differs on every run (`uuid`, `bcrypt`):
//! computed from the random bytes of the environment's [`PerRun`] where it
//! has one (the console), else unknown, as `tofu validate` sees them
//! (`bcrypt`'s argument errors are reported either way). `rsadecrypt`
//! lives in `rsa_decrypt.rs`.
//!
//! [`PerRun`]: super::environment::PerRun

use md5::Digest;

use super::encoding::base64_encode;
use super::implementation::{Arguments, FunctionError, Implementation};
use super::rsa_decrypt::Decrypted;
use crate::types::Type;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let simple = Implementation::simple;
    Some(match name {
        "md5" => simple(|args| Ok(hex_of(&md5::Md5::digest(input(args))))),
        "sha1" => simple(|args| Ok(hex_of(&sha1::Sha1::digest(input(args))))),
        "sha256" => simple(|args| Ok(hex_of(&sha2::Sha256::digest(input(args))))),
        "sha512" => simple(|args| Ok(hex_of(&sha2::Sha512::digest(input(args))))),
        "base64sha256" => simple(|args| {
            Ok(Value::string(base64_encode(&sha2::Sha256::digest(input(
                args,
            )))))
        }),
        "base64sha512" => simple(|args| {
            Ok(Value::string(base64_encode(&sha2::Sha512::digest(input(
                args,
            )))))
        }),
        "uuid" => simple(uuid),
        "bcrypt" => simple(bcrypt),
        "rsadecrypt" => simple(rsadecrypt),
        "uuidv5" => simple(uuidv5),
        _ => return None,
    })
}

/// hashicorp/go-uuid's `GenerateUUID`, which OpenTofu's `uuid` calls: 16
/// random bytes in hexadecimal, grouped 8-4-4-4-12. It sets no version or
/// variant bits (not a version 4 UUID).
fn uuid(args: &Arguments) -> Result<Value, FunctionError> {
    let mut bytes = [0u8; 16];
    match args.environment.per_run() {
        Some(per_run) if per_run.fill_random(&mut bytes) => Ok(Value::string(uuid_text(&bytes))),
        _ => Ok(Value::unknown(Type::String)),
    }
}

/// x/crypto's `bcrypt.DefaultCost`, also used for a cost below `MinCost` (4).
const BCRYPT_DEFAULT_COST: i64 = 10;

/// OpenTofu's `BcryptFunc`: the cost read as a Go `int`, a third argument
/// refused, then x/crypto's `GenerateFromPassword`: the password length
/// checked, a cost below 4 replaced by the default, one above 31 refused,
/// a random 16-byte salt, and the hash in its `$2a$` form (the `bcrypt`
/// crate computes it; x/crypto appends a NUL to the password and uses at
/// most 72 bytes of it, as that crate does).
fn bcrypt(args: &Arguments) -> Result<Value, FunctionError> {
    let cost = match args.values.get(1) {
        Some(cost) => super::implementation::whole_number(cost)?,
        None => 10,
    };
    if args.values.len() > 2 {
        return Err(FunctionError::call(
            "bcrypt() takes no more than two arguments",
        ));
    }
    if input(args).len() > 72 {
        return Err(FunctionError::call(
            "error occurred generating password bcrypt: password length exceeds 72 bytes",
        ));
    }
    let cost = if cost < 4 { BCRYPT_DEFAULT_COST } else { cost };
    if cost > 31 {
        return Err(FunctionError::call(format!(
            "error occurred generating password crypto/bcrypt: cost {cost} is outside allowed inclusive range 4..31"
        )));
    }
    let mut salt = [0u8; 16];
    let salted = args
        .environment
        .per_run()
        .is_some_and(|per_run| per_run.fill_random(&mut salt));
    let hashed = u32::try_from(cost)
        .ok()
        .filter(|_| salted)
        .and_then(|cost| ::bcrypt::hash_with_salt(input(args), cost, salt).ok());
    Ok(match hashed {
        Some(parts) => Value::string(parts.format_for_version(::bcrypt::Version::TwoA)),
        None => Value::unknown(Type::String),
    })
}

/// OpenTofu's `RsaDecryptFunc` ([`super::rsa_decrypt`]).
fn rsadecrypt(args: &Arguments) -> Result<Value, FunctionError> {
    let ciphertext = super::implementation::text(args, 0);
    let key = super::implementation::text(args, 1);
    match super::rsa_decrypt::rsadecrypt(&ciphertext, &key) {
        Decrypted::Text(text) => Ok(Value::string(text)),
        Decrypted::Error(error) => Err(error),
        Decrypted::Unknown => Ok(Value::unknown(Type::String)),
    }
}

fn input(args: &Arguments) -> Vec<u8> {
    super::implementation::text(args, 0).into_bytes()
}

pub(super) fn hex_of(bytes: &[u8]) -> Value {
    Value::string(hex(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn uuidv5(args: &Arguments) -> Result<Value, FunctionError> {
    let namespace_text = super::implementation::text(args, 0);
    let namespace: [u8; 16] = match namespace_text.as_str() {
        "dns" => parse_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
        "url" => parse_uuid("6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
        "oid" => parse_uuid("6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
        "x500" => parse_uuid("6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
        other => parse_uuid(other),
    }
    .ok_or_else(|| {
        FunctionError::call(format!(
            "uuidv5() doesn't support namespace {namespace_text} (invalid UUID length: {})",
            namespace_text.len()
        ))
    })?;
    let mut hasher = sha1::Sha1::new();
    hasher.update(namespace);
    hasher.update(super::implementation::text(args, 1).as_bytes());
    let digest = hasher.finalize();
    let mut bytes: Vec<u8> = digest.iter().take(16).copied().collect();
    if let Some(version) = bytes.get_mut(6) {
        *version = (*version & 0x0f) | 0x50;
    }
    if let Some(variant) = bytes.get_mut(8) {
        *variant = (*variant & 0x3f) | 0x80;
    }
    Ok(Value::string(uuid_text(&bytes)))
}

/// 16 bytes as a UUID's text: hexadecimal, grouped 8-4-4-4-12.
fn uuid_text(bytes: &[u8]) -> String {
    let text = hex(bytes);
    let part = |range: std::ops::Range<usize>| text.get(range).unwrap_or_default().to_owned();
    format!(
        "{}-{}-{}-{}-{}",
        part(0..8),
        part(8..12),
        part(12..16),
        part(16..20),
        part(20..32)
    )
}

/// A UUID in its canonical form (also braced or `urn:uuid:`-prefixed).
fn parse_uuid(text: &str) -> Option<[u8; 16]> {
    let text = text.strip_prefix("urn:uuid:").unwrap_or(text);
    let text = text
        .strip_prefix('{')
        .and_then(|inner| inner.strip_suffix('}'))
        .unwrap_or(text);
    let digits: String = if text.len() == 36 {
        let dashes = [8, 13, 18, 23];
        if !dashes
            .iter()
            .all(|&at| text.as_bytes().get(at) == Some(&b'-'))
        {
            return None;
        }
        text.chars().filter(|c| *c != '-').collect()
    } else if text.len() == 32 {
        text.to_owned()
    } else {
        return None;
    };
    let mut bytes = [0u8; 16];
    for (index, slot) in bytes.iter_mut().enumerate() {
        let pair = digits.get(index * 2..index * 2 + 2)?;
        *slot = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(bytes)
}

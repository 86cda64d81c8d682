//! The hash functions (`md5`, `sha1`, `sha256`, `sha512`, `base64sha256`,
//! `base64sha512`) from RustCrypto's crates, `uuidv5` (deterministic), and
//! the functions whose result differs on every run (`uuid`, `bcrypt`),
//! which are unknown, as `tofu validate` sees them.

use md5::Digest;

use super::encoding::base64_encode;
use super::{Arguments, FunctionError, Implementation};
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
        "uuid" | "bcrypt" => simple(|_| Ok(Value::unknown(Type::String))),
        "uuidv5" => simple(uuidv5),
        _ => return None,
    })
}

fn input(args: &Arguments) -> Vec<u8> {
    super::text(args, 0).into_bytes()
}

pub(super) fn hex_of(bytes: &[u8]) -> Value {
    Value::string(hex(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn uuidv5(args: &Arguments) -> Result<Value, FunctionError> {
    let namespace_text = super::text(args, 0);
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
    hasher.update(super::text(args, 1).as_bytes());
    let digest = hasher.finalize();
    let mut bytes: Vec<u8> = digest.iter().take(16).copied().collect();
    if let Some(version) = bytes.get_mut(6) {
        *version = (*version & 0x0f) | 0x50;
    }
    if let Some(variant) = bytes.get_mut(8) {
        *variant = (*variant & 0x3f) | 0x80;
    }
    let text = hex(&bytes);
    let part = |range: std::ops::Range<usize>| text.get(range).unwrap_or_default().to_owned();
    Ok(Value::string(format!(
        "{}-{}-{}-{}-{}",
        part(0..8),
        part(8..12),
        part(12..16),
        part(16..20),
        part(20..32)
    )))
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

//! `rsadecrypt` as OpenTofu computes it: the ciphertext read as base64, the
//! private key found as x/crypto's `ssh.ParseRawPrivateKey` finds it (the
//! first PEM block as Go's `pem.Decode` reads one; a block whose headers
//! say it is encrypted wants a passphrase; `RSA PRIVATE KEY` is PKCS #1,
//! `PRIVATE KEY` PKCS #8, `OPENSSH PRIVATE KEY` OpenSSH's own format), then
//! Go's `rsa.DecryptPKCS1v15`: a key under 1024 bits refused, the
//! ciphertext exactly as long as the modulus and below it, raised to the
//! private exponent, and the PKCS #1 v1.5 padding taken off.
//!
//! Written by hand on num-bigint (already tofu-eval's) rather than with the
//! `rsa` crate, which would add about fifteen crates (its own big integers,
//! the PKCS and DER crates, RNG traits) for one function, and whose
//! decryption carries an open timing advisory (RUSTSEC-2023-0071); here
//! nothing is secret beyond what the user typed into their configuration.
//!
//! What Go words with details this cannot match gives no answer (unknown):
//! a key that is not RSA (OpenTofu prints the key's Go value, pointers
//! included), DER that Go's `encoding/asn1` refuses in ways other than
//! those below, a key Go's `Validate` refuses, a plaintext that is not
//! UTF-8.

use num_bigint::BigUint;

use super::encoding::base64_decode;
use super::implementation::FunctionError;

/// What `rsadecrypt` gives: the plaintext, an error as OpenTofu words it,
/// or no answer.
pub(super) enum Decrypted {
    Text(String),
    Error(FunctionError),
    Unknown,
}

/// The private key's parts that decryption needs.
struct PrivateKey {
    modulus: BigUint,
    private_exponent: BigUint,
}

/// What reading the key gave.
enum KeyRead {
    Rsa(PrivateKey),
    /// The message after `invalid private key: ` or the ASN.1 words.
    Error(String),
    Unknown,
}

pub(super) fn rsadecrypt(ciphertext: &str, key: &str) -> Decrypted {
    let Ok(ciphertext_bytes) = base64_decode(ciphertext) else {
        return Decrypted::Error(FunctionError::argument(
            0,
            format!(
                "failed to decode input {}: cipher text must be base64-encoded",
                tofu_syntax::go_text::go_quote(ciphertext)
            ),
        ));
    };
    let key = match read_private_key(key.as_bytes()) {
        KeyRead::Rsa(key) => key,
        KeyRead::Error(message) => return Decrypted::Error(FunctionError::argument(1, message)),
        KeyRead::Unknown => return Decrypted::Unknown,
    };
    let failed =
        |why: &str| Decrypted::Error(FunctionError::call(format!("failed to decrypt: {why}")));
    let bits = key.modulus.bits();
    if bits < 1024 {
        return failed(&format!(
            "crypto/rsa: {bits}-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)"
        ));
    }
    const DECRYPTION_ERROR: &str = "crypto/rsa: decryption error";
    let size = usize::try_from(bits.div_ceil(8)).unwrap_or(usize::MAX);
    if ciphertext_bytes.len() != size {
        return failed(DECRYPTION_ERROR);
    }
    let c = BigUint::from_bytes_be(&ciphertext_bytes);
    if c >= key.modulus {
        return failed(DECRYPTION_ERROR);
    }
    let m = c.modpow(&key.private_exponent, &key.modulus).to_bytes_be();
    let mut encoded = vec![0u8; size.saturating_sub(m.len())];
    encoded.extend(m);
    match unpad(&encoded) {
        Some(message) => match String::from_utf8(message.to_vec()) {
            Ok(text) => Decrypted::Text(text),
            Err(_) => Decrypted::Unknown,
        },
        None => failed(DECRYPTION_ERROR),
    }
}

/// PKCS #1 v1.5 encryption padding: `00 02`, at least eight non-zero
/// bytes, `00`, the message.
fn unpad(encoded: &[u8]) -> Option<&[u8]> {
    let rest = encoded.strip_prefix(&[0, 2])?;
    let zero = rest.iter().position(|&byte| byte == 0)?;
    if zero < 8 {
        return None;
    }
    rest.get(zero + 1..)
}

/// `ssh.ParseRawPrivateKey`, for RSA keys.
fn read_private_key(pem: &[u8]) -> KeyRead {
    let Some(block) = pem_decode(pem) else {
        return KeyRead::Error("invalid private key: ssh: no key found".to_owned());
    };
    if block.encrypted {
        return KeyRead::Error(
            "invalid private key: ssh: this private key is passphrase protected".to_owned(),
        );
    }
    match block.kind.as_slice() {
        b"RSA PRIVATE KEY" => pkcs1(&block.bytes),
        b"PRIVATE KEY" => pkcs8(&block.bytes),
        b"OPENSSH PRIVATE KEY" => openssh(&block.bytes),
        b"EC PRIVATE KEY" | b"DSA PRIVATE KEY" => KeyRead::Unknown,
        other => KeyRead::Error(format!(
            "invalid private key: ssh: unsupported key type {}",
            tofu_syntax::go_text::go_quote(&String::from_utf8_lossy(other))
        )),
    }
}

/// A PEM block: its type, whether a `Proc-Type` header says `ENCRYPTED`,
/// and its bytes.
struct PemBlock {
    kind: Vec<u8>,
    encrypted: bool,
    bytes: Vec<u8>,
}

/// Go's `pem.Decode`: the first block that reads whole.
fn pem_decode(data: &[u8]) -> Option<PemBlock> {
    const BEGIN: &[u8] = b"\n-----BEGIN ";
    const BEGIN_AT_START: &[u8] = b"-----BEGIN ";
    const END: &[u8] = b"\n-----END ";
    const END_AT_START: &[u8] = b"-----END ";
    const DASHES: &[u8] = b"-----";
    let mut rest = data;
    loop {
        rest = if let Some(after) = rest.strip_prefix(BEGIN_AT_START) {
            after
        } else {
            let at = find(rest, BEGIN)?;
            rest.get(at + BEGIN.len()..)?
        };
        let (type_line, after_type) = get_line(rest);
        rest = after_type;
        let Some(kind) = type_line.strip_suffix(DASHES) else {
            continue;
        };
        let mut headers = Vec::new();
        let mut body = rest;
        loop {
            if body.is_empty() {
                return None;
            }
            let (line, next) = get_line(body);
            let Some(colon) = line.iter().position(|&byte| byte == b':') else {
                break;
            };
            let (key, value) = line.split_at(colon);
            headers.push((
                key.trim_ascii().to_vec(),
                value.get(1..)?.trim_ascii().to_vec(),
            ));
            body = next;
        }
        let (end_index, trailer_index) = if headers.is_empty() && body.starts_with(END_AT_START) {
            (0, END_AT_START.len())
        } else {
            match find(body, END) {
                Some(at) => (at, at + END.len()),
                None => continue,
            }
        };
        let trailer = body.get(trailer_index..).unwrap_or_default();
        let trailer_len = kind.len() + DASHES.len();
        let (Some(end_line), Some(after_end)) =
            (trailer.get(..trailer_len), trailer.get(trailer_len..))
        else {
            continue;
        };
        if !end_line.starts_with(kind)
            || !end_line.ends_with(DASHES)
            || !get_line(after_end).0.is_empty()
        {
            continue;
        }
        let encoded: String = body
            .get(..end_index)
            .unwrap_or_default()
            .iter()
            .filter(|&&byte| byte != b' ' && byte != b'\t')
            .map(|&byte| char::from(byte))
            .collect();
        let Ok(bytes) = base64_decode(&encoded) else {
            continue;
        };
        // Go keeps the last value of a repeated header.
        let proc_type = headers.iter().rev().find(|(key, _)| key == b"Proc-Type");
        return Some(PemBlock {
            kind: kind.to_vec(),
            encrypted: proc_type.is_some_and(|(_, value)| find(value, b"ENCRYPTED").is_some()),
            bytes,
        });
    }
}

/// Go's `pem` `getLine`: up to the next `\n`, trailing spaces, tabs and
/// `\r` off; and what follows it.
fn get_line(data: &[u8]) -> (&[u8], &[u8]) {
    let (line, rest) = match data.iter().position(|&byte| byte == b'\n') {
        Some(at) => (
            data.get(..at).unwrap_or_default(),
            data.get(at + 1..).unwrap_or_default(),
        ),
        None => (data, &[][..]),
    };
    let mut line = line;
    while let [before @ .., b' ' | b'\t' | b'\r'] = line {
        line = before;
    }
    (line, rest)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// The ASN.1 words `rsadecrypt` gives for DER Go's `encoding/asn1`
/// refuses, where this knows them.
fn asn1_error(message: &str) -> KeyRead {
    KeyRead::Error(format!(
        "invalid ASN1 data in the given private key: {message}"
    ))
}

/// `x509.ParsePKCS1PrivateKey`: `SEQUENCE { version, n, e, d, p, q, … }`.
fn pkcs1(der: &[u8]) -> KeyRead {
    let Some((fields, rest)) = der_element(der, 0x30) else {
        return KeyRead::Unknown;
    };
    if !rest.is_empty() {
        return asn1_error("trailing data");
    }
    let mut integers = Vec::new();
    let mut remaining = fields;
    while integers.len() < 6 {
        if remaining.is_empty() {
            return asn1_error("sequence truncated");
        }
        let Some((integer, after)) = der_element(remaining, 0x02) else {
            return KeyRead::Unknown;
        };
        integers.push(integer);
        remaining = after;
    }
    let [version, n, _e, d, p, q] = integers.as_slice() else {
        return KeyRead::Unknown;
    };
    let is_positive = |integer: &[u8]| {
        integer.first().is_some_and(|&byte| byte < 0x80) && integer.iter().any(|&byte| byte != 0)
    };
    if version.len() != 1 || version.first().is_none_or(|&v| v > 1) {
        return KeyRead::Unknown;
    }
    if ![n, d, p, q].iter().all(|integer| is_positive(integer)) {
        return KeyRead::Unknown;
    }
    KeyRead::Rsa(PrivateKey {
        modulus: BigUint::from_bytes_be(n),
        private_exponent: BigUint::from_bytes_be(d),
    })
}

/// `x509.ParsePKCS8PrivateKey`: `SEQUENCE { version, SEQUENCE { OID, … },
/// OCTET STRING }`, for the rsaEncryption OID.
fn pkcs8(der: &[u8]) -> KeyRead {
    const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
    let Some((fields, rest)) = der_element(der, 0x30) else {
        return KeyRead::Unknown;
    };
    if !rest.is_empty() {
        return asn1_error("trailing data");
    }
    if fields.is_empty() {
        return asn1_error("sequence truncated");
    }
    let Some((_version, fields)) = der_element(fields, 0x02) else {
        return KeyRead::Unknown;
    };
    let Some((algorithm, fields)) = der_element(fields, 0x30) else {
        return KeyRead::Unknown;
    };
    let Some((oid, _)) = der_element(algorithm, 0x06) else {
        return KeyRead::Unknown;
    };
    if oid != RSA_ENCRYPTION {
        return KeyRead::Unknown;
    }
    match der_element(fields, 0x04) {
        Some((key, _)) => match pkcs1(key) {
            KeyRead::Rsa(key) => KeyRead::Rsa(key),
            _ => KeyRead::Unknown,
        },
        None => KeyRead::Unknown,
    }
}

/// One DER element of the given tag at the start of `der`: its contents
/// and what follows.
fn der_element(der: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    let (&found, rest) = der.split_first()?;
    if found != tag {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n_bytes = usize::from(first & 0x7f);
        if n_bytes == 0 || n_bytes > 4 {
            return None;
        }
        let (length_bytes, rest) = (rest.get(..n_bytes)?, rest.get(n_bytes..)?);
        let length = length_bytes
            .iter()
            .fold(0usize, |length, &byte| (length << 8) | usize::from(byte));
        (length, rest)
    };
    Some((rest.get(..length)?, rest.get(length..)?))
}

/// x/crypto's `parseOpenSSHPrivateKey` for an unencrypted file holding one
/// `ssh-rsa` key.
fn openssh(bytes: &[u8]) -> KeyRead {
    const MAGIC: &[u8] = b"openssh-key-v1\0";
    let Some(rest) = bytes.strip_prefix(MAGIC) else {
        return KeyRead::Unknown;
    };
    let mut reader = SshReader(rest);
    let (Some(cipher), Some(kdf), Some(_kdf_options)) =
        (reader.string(), reader.string(), reader.string())
    else {
        return KeyRead::Unknown;
    };
    if cipher != b"none" || kdf != b"none" {
        return KeyRead::Error(
            "invalid private key: ssh: this private key is passphrase protected".to_owned(),
        );
    }
    let (Some(1), Some(_public), Some(private)) = (reader.u32(), reader.string(), reader.string())
    else {
        return KeyRead::Unknown;
    };
    let mut private = SshReader(private);
    let (Some(check1), Some(check2), Some(key_type)) =
        (private.u32(), private.u32(), private.string())
    else {
        return KeyRead::Unknown;
    };
    if check1 != check2 || key_type != b"ssh-rsa" {
        return KeyRead::Unknown;
    }
    let (Some(n), Some(_e), Some(d)) = (private.string(), private.string(), private.string())
    else {
        return KeyRead::Unknown;
    };
    KeyRead::Rsa(PrivateKey {
        modulus: BigUint::from_bytes_be(n),
        private_exponent: BigUint::from_bytes_be(d),
    })
}

/// SSH's wire format: big-endian `uint32`s and length-prefixed strings.
struct SshReader<'a>(&'a [u8]);

impl<'a> SshReader<'a> {
    fn u32(&mut self) -> Option<u32> {
        let (bytes, rest) = (self.0.get(..4)?, self.0.get(4..)?);
        self.0 = rest;
        Some(u32::from_be_bytes(bytes.try_into().ok()?))
    }

    fn string(&mut self) -> Option<&'a [u8]> {
        let length = usize::try_from(self.u32()?).ok()?;
        let (string, rest) = (self.0.get(..length)?, self.0.get(length..)?);
        self.0 = rest;
        Some(string)
    }
}

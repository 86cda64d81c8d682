//! A provider registry and network mirror for tests: a real HTTPS server
//! on loopback (a test CA's certificate, `data/ca.pem`), serving what a
//! test puts at each path, with faults on request (a status, a delay, a
//! body cut short); provider packages zipped here and their checksums
//! signed with a test OpenPGP key (`data/signing.key.asc`).
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use pgp::composed::{Deserializable, DetachedSignature, SignedSecretKey};
use pgp::crypto::hash::HashAlgorithm;
use pgp::types::Password;
use rand::SeedableRng;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

pub fn data(name: &str) -> PathBuf {
    // From tofu-fetch's tests and from those that include this file by
    // path (tofu-lens's) alike.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tofu-fetch/tests/data")
        .join(name)
}

/// What the server answers at a path.
#[derive(Clone, Debug)]
pub enum Reply {
    Ok(Vec<u8>),
    Status(u16),
    /// After a delay.
    Slow(Duration, Vec<u8>),
    /// The full length announced, the first bytes sent, then closed.
    Cut(Vec<u8>, usize),
}

#[derive(Clone, Default)]
struct Shared {
    replies: HashMap<String, Reply>,
    /// Each request: its path and its Authorization header.
    requests: Vec<(String, Option<String>)>,
}

pub struct TestServer {
    pub base: String,
    pub port: u16,
    shared: Arc<Mutex<Shared>>,
}

impl TestServer {
    pub fn start() -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(data("server.pem"))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let key = PrivateKeyDer::from_pem_file(data("server.key")).unwrap();
        // ring, as the client (ureq) uses; rustls now prefers aws-lc-rs,
        // which needs cmake and a C toolchain more.
        #[allow(deprecated)]
        let provider = rustls::crypto::ring::default_provider();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(provider))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        let config = Arc::new(config);
        let shared = Arc::new(Mutex::new(Shared::default()));
        let serving = Arc::clone(&shared);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let config = Arc::clone(&config);
                let shared = Arc::clone(&serving);
                thread::spawn(move || serve(stream, config, shared));
            }
        });
        TestServer {
            base: format!("https://127.0.0.1:{port}"),
            port,
            shared,
        }
    }

    pub fn put(&self, path: &str, reply: Reply) {
        self.shared
            .lock()
            .unwrap()
            .replies
            .insert(path.to_owned(), reply);
    }

    pub fn put_json(&self, path: &str, value: serde_json::Value) {
        self.put(path, Reply::Ok(serde_json::to_vec(&value).unwrap()));
    }

    /// The paths asked for, in order.
    pub fn requests(&self) -> Vec<(String, Option<String>)> {
        self.shared.lock().unwrap().requests.clone()
    }
}

fn serve(stream: TcpStream, config: Arc<rustls::ServerConfig>, shared: Arc<Mutex<Shared>>) {
    let Ok(connection) = rustls::ServerConnection::new(config) else {
        return;
    };
    let mut tls = rustls::StreamOwned::new(connection, stream);
    let mut reader = BufReader::new(&mut tls);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut authorization = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("authorization") {
                authorization = Some(value.trim().to_owned());
            }
        }
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_owned();
    let reply = {
        let mut shared = shared.lock().unwrap();
        shared.requests.push((path.clone(), authorization));
        shared.replies.get(&path).cloned()
    };
    let (status, body, send) = match reply {
        None => (404, b"not found".to_vec(), None),
        Some(Reply::Ok(body)) => (200, body, None),
        Some(Reply::Status(status)) => (status, b"failed".to_vec(), None),
        Some(Reply::Slow(delay, body)) => {
            thread::sleep(delay);
            (200, body, None)
        }
        Some(Reply::Cut(body, send)) => (200, body, Some(send)),
    };
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = tls.write_all(head.as_bytes());
    let sent = send.unwrap_or(body.len()).min(body.len());
    let _ = tls.write_all(&body[..sent]);
    let _ = tls.flush();
    if send.is_none() {
        tls.conn.send_close_notify();
        let _ = tls.flush();
    }
    let _ = tls.sock.shutdown(std::net::Shutdown::Both);
}

/// A zip archive of `entries` (stored, with CRCs), as a provider release
/// zips its one executable.
pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, content) in entries {
        let offset = u32::try_from(out.len()).unwrap();
        let crc = crc32(content);
        let size = u32::try_from(content.len()).unwrap();
        let name_length = u16::try_from(name.len()).unwrap();
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend([20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.extend(crc.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend(name_length.to_le_bytes());
        out.extend([0, 0]);
        out.extend(name.as_bytes());
        out.extend(*content);
        central.extend(0x0201_4b50u32.to_le_bytes());
        out_central(&mut central, crc, size, name_length, offset, name);
    }
    let central_offset = u32::try_from(out.len()).unwrap();
    let central_size = u32::try_from(central.len()).unwrap();
    let count = u16::try_from(entries.len()).unwrap();
    out.extend(central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0, 0, 0, 0]);
    out.extend(count.to_le_bytes());
    out.extend(count.to_le_bytes());
    out.extend(central_size.to_le_bytes());
    out.extend(central_offset.to_le_bytes());
    out.extend([0, 0]);
    out
}

fn out_central(
    central: &mut Vec<u8>,
    crc: u32,
    size: u32,
    name_length: u16,
    offset: u32,
    name: &str,
) {
    central.extend([0x14, 0x03, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    central.extend(crc.to_le_bytes());
    central.extend(size.to_le_bytes());
    central.extend(size.to_le_bytes());
    central.extend(name_length.to_le_bytes());
    central.extend([0, 0, 0, 0, 0, 0, 0, 0]);
    // Unix mode 0755 in the high half of the external attributes.
    central.extend((0o100_755u32 << 16).to_le_bytes());
    central.extend(offset.to_le_bytes());
    central.extend(name.as_bytes());
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A binary detached signature of `document` by the test key `name`
/// (`signing` or `other`).
pub fn sign(name: &str, document: &[u8]) -> Vec<u8> {
    let text = std::fs::read_to_string(data(&format!("{name}.key.asc"))).unwrap();
    let (key, _) = SignedSecretKey::from_string(&text).unwrap();
    let rng = rand::rngs::StdRng::seed_from_u64(47);
    let signature = DetachedSignature::sign_binary_data(
        rng,
        &key.primary_key,
        &Password::empty(),
        HashAlgorithm::Sha256,
        document,
    )
    .unwrap();
    let mut out = Vec::new();
    pgp::ser::Serialize::to_writer(&signature, &mut out).unwrap();
    out
}

pub fn public_key(name: &str) -> String {
    std::fs::read_to_string(data(&format!("{name}.pub.asc"))).unwrap()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    tofu_fetch::verify::sha256_hex(bytes)
}

/// One release as a registry serves it.
pub struct Release<'a> {
    pub namespace: &'a str,
    pub type_name: &'a str,
    pub version: &'a str,
    pub archive: Vec<u8>,
    /// Who signs the checksums, and whose key the registry gives.
    pub signer: &'a str,
    pub advertised_key: &'a str,
    /// The shasum the registry claims (`None`: the archive's).
    pub claimed_shasum: Option<String>,
}

impl Release<'_> {
    pub fn new<'a>(type_name: &'a str, version: &'a str, archive: Vec<u8>) -> Release<'a> {
        Release {
            namespace: "hashicorp",
            type_name,
            version,
            archive,
            signer: "signing",
            advertised_key: "signing",
            claimed_shasum: None,
        }
    }

    pub fn filename(&self) -> String {
        format!(
            "terraform-provider-{}_{}_{}.zip",
            self.type_name,
            self.version,
            platform().dir_name()
        )
    }
}

/// This machine's platform, which the registry serves.
pub fn platform() -> tofu_schema::install::Platform {
    tofu_schema::install::Platform::current()
}

/// Serves `releases` as a registry at `/v1/providers/` (with discovery),
/// for this platform, listing `versions` (all the releases' when empty).
pub fn serve_registry(server: &TestServer, releases: &[Release<'_>], extra_versions: &[&str]) {
    server.put_json(
        "/.well-known/terraform.json",
        serde_json::json!({"providers.v1": "/v1/providers/"}),
    );
    let mut by_provider: HashMap<(String, String), Vec<String>> = HashMap::new();
    for release in releases {
        by_provider
            .entry((release.namespace.to_owned(), release.type_name.to_owned()))
            .or_default()
            .push(release.version.to_owned());
        let prefix = format!(
            "/v1/providers/{}/{}/{}",
            release.namespace, release.type_name, release.version
        );
        let filename = release.filename();
        let sums_name = format!(
            "terraform-provider-{}_{}_SHA256SUMS",
            release.type_name, release.version
        );
        let actual = sha256_hex(&release.archive);
        let sums = format!(
            "{}  {filename}\n{}  terraform-provider-{}_{}_darwin_arm64.zip\n",
            actual,
            sha256_hex(b"another platform"),
            release.type_name,
            release.version
        );
        server.put(
            &format!("/files/{filename}"),
            Reply::Ok(release.archive.clone()),
        );
        server.put(
            &format!("/files/{sums_name}"),
            Reply::Ok(sums.clone().into_bytes()),
        );
        server.put(
            &format!("/files/{sums_name}.sig"),
            Reply::Ok(sign(release.signer, sums.as_bytes())),
        );
        let platform = platform();
        server.put_json(
            &format!("{prefix}/download/{}/{}", platform.os, platform.arch),
            serde_json::json!({
                "protocols": ["5.0"],
                "os": platform.os,
                "arch": platform.arch,
                "filename": filename,
                "download_url": format!("/files/{filename}"),
                "shasums_url": format!("/files/{sums_name}"),
                "shasums_signature_url": format!("/files/{sums_name}.sig"),
                "shasum": release.claimed_shasum.clone().unwrap_or(actual),
                "signing_keys": {"gpg_public_keys": [
                    {"key_id": "X", "ascii_armor": public_key(release.advertised_key)}
                ]},
            }),
        );
    }
    for ((namespace, type_name), mut versions) in by_provider {
        versions.extend(extra_versions.iter().map(|v| (*v).to_owned()));
        let listed: Vec<serde_json::Value> = versions
            .iter()
            .map(|version| {
                serde_json::json!({"version": version, "protocols": ["5.0"],
                    "platforms": [{"os": platform().os, "arch": platform().arch}]})
            })
            .collect();
        server.put_json(
            &format!("/v1/providers/{namespace}/{type_name}/versions"),
            serde_json::json!({ "versions": listed }),
        );
    }
}

/// Reads the body of `stream` fully (for a plain HTTP probe).
pub fn read_all(mut stream: impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    out
}

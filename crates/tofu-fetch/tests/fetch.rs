//! Fetching against a real HTTPS registry and network mirror on loopback
//! (`support`): what is verified and kept, how the version is chosen, and
//! each fault giving one clear error with nothing kept.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use support::{data, serve_registry, sha256_hex, zip, Release, Reply, TestServer};
use tofu_fetch::verify::VerifyError;
use tofu_fetch::{
    FetchConfig, FetchError, Fetcher, PackageStore, TrustedRoots, VersionChoice, DEFAULT_MAX_BYTES,
};
use tofu_schema::install::{InstallationMethod, LockedProvider, MethodKind, Platform};
use tofu_schema::ProviderAddress;

fn config(server: &TestServer) -> FetchConfig {
    let mut config = FetchConfig::new(Platform::current());
    config.hosts.insert(
        "registry.opentofu.org".to_owned(),
        BTreeMap::from([(
            "providers.v1".to_owned(),
            format!("{}/v1/providers/", server.base),
        )]),
    );
    config.http.roots = TrustedRoots::PemFiles(vec![data("ca.pem")]);
    config.http.retry_wait = Duration::from_millis(10);
    config.http.request_timeout = Duration::from_secs(5);
    config
}

fn fetcher(server: &TestServer, store: &Path) -> Fetcher {
    Fetcher::new(config(server), PackageStore::new(store, DEFAULT_MAX_BYTES))
}

fn time() -> ProviderAddress {
    ProviderAddress::parse("hashicorp/time").unwrap()
}

fn package(text: &str) -> Vec<u8> {
    zip(&[("terraform-provider-time_v0.14.2", text.as_bytes())])
}

fn exact(version: &str) -> VersionChoice {
    VersionChoice::Exact(version.to_owned())
}

/// Every file kept under `store` (staging files included).
fn kept(store: &Path) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path.display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(store, &mut out);
    out
}

fn fetch(
    fetcher: &Fetcher,
    choice: &VersionChoice,
) -> Result<tofu_fetch::FetchedPackage, FetchError> {
    fetcher.fetch(&time(), choice, None, &|_| true)
}

#[test]
fn a_registry_package_is_verified_recorded_and_fetched_once() {
    let server = TestServer::start();
    let archive = package("the provider");
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", archive.clone())],
        &[],
    );
    let store = tempfile::tempdir().unwrap();
    let fetcher = fetcher(&server, store.path());
    let found = fetch(&fetcher, &exact("0.14.2")).unwrap();
    assert_eq!(found.version(), "0.14.2");
    assert_eq!(
        found.archive,
        store
            .path()
            .join("registry.opentofu.org/hashicorp/time")
            .join(format!(
                "terraform-provider-time_0.14.2_{}.zip",
                Platform::current().dir_name()
            ))
    );
    assert_eq!(std::fs::read(&found.archive).unwrap(), archive);
    // What tofu init locks: the package's h1:, then every zh: of the
    // signed checksums.
    // h1: as tofu init hashes the unpacked package: the one file's
    // SHA-256 and name, hashed again.
    let unpacked = tempfile::tempdir().unwrap();
    tofu_schema::install::unpack_zip(&found.archive, &unpacked.path().join("p")).unwrap();
    let h1 = tofu_schema::install::package_hash_v1(&unpacked.path().join("p")).unwrap();
    assert_eq!(found.record.hashes[0], h1);
    assert!(found
        .record
        .hashes
        .contains(&format!("zh:{}", sha256_hex(&archive))));
    assert!(found
        .record
        .hashes
        .contains(&format!("zh:{}", sha256_hex(b"another platform"))));
    assert_eq!(found.record.signed_by.as_deref(), Some("0C070991F0CF3A60"));
    let asked = server.requests().len();
    // A second fetcher (another workspace) finds it in the cache.
    let again = fetch(&self::fetcher(&server, store.path()), &exact("0.14.2")).unwrap();
    assert_eq!(again, found);
    assert_eq!(server.requests().len(), asked, "nothing asked again");
    // And the package matches a lock file with those hashes.
    let locked = LockedProvider {
        address: time(),
        version: "0.14.2".to_owned(),
        constraints: None,
        hashes: vec![h1],
    };
    assert!(fetcher
        .cached(&time(), &exact("0.14.2"), Some(&locked))
        .is_some());
}

#[test]
fn the_newest_version_the_constraints_accept_is_chosen() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[
            Release::new("time", "0.13.1", package("old")),
            Release::new("time", "0.14.2", package("chosen")),
            Release::new("time", "1.0.0", package("too new")),
        ],
        &["0.14.3-beta1"],
    );
    let store = tempfile::tempdir().unwrap();
    let fetcher = fetcher(&server, store.path());
    let constraints = VersionChoice::Constraints(vec!["~> 0.13".to_owned(), "< 1.0.0".to_owned()]);
    let found = fetch(&fetcher, &constraints).unwrap();
    assert_eq!(found.version(), "0.14.2");
    // Offline, the cache gives the newest it has that they accept.
    assert_eq!(
        fetcher
            .cached(&time(), &constraints, None)
            .map(|found| found.record.version),
        Some("0.14.2".to_owned())
    );
    let none = fetch(
        &fetcher,
        &VersionChoice::Constraints(vec![">= 2.0".to_owned()]),
    )
    .unwrap_err();
    assert!(matches!(none, FetchError::NoVersion(_)), "{none:?}");
    assert!(none.to_string().contains(">= 2.0"), "{none}");
}

#[test]
fn discovery_finds_the_registry_of_a_host_without_a_host_block() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", package("p"))],
        &[],
    );
    let store = tempfile::tempdir().unwrap();
    let mut config = config(&server);
    config.hosts.clear();
    let fetcher = Fetcher::new(config, PackageStore::new(store.path(), DEFAULT_MAX_BYTES));
    let address =
        ProviderAddress::parse(&format!("localhost:{}/hashicorp/time", server.port)).unwrap();
    let found = fetcher
        .fetch(&address, &exact("0.14.2"), None, &|_| true)
        .unwrap();
    assert_eq!(found.version(), "0.14.2");
    assert!(server
        .requests()
        .iter()
        .any(|(path, _)| path == "/.well-known/terraform.json"));
}

#[test]
fn credentials_go_to_the_registry_as_a_bearer_token() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", package("p"))],
        &[],
    );
    server.put("/v1/providers/hashicorp/time/versions", Reply::Status(401));
    let store = tempfile::tempdir().unwrap();
    let without = fetch(
        &fetcher(&server, store.path()),
        &VersionChoice::Constraints(Vec::new()),
    )
    .unwrap_err();
    assert!(
        matches!(without, FetchError::Unauthorized(_)),
        "{without:?}"
    );
    assert!(
        without.to_string().contains("requires authentication"),
        "{without}"
    );
    let mut config = config(&server);
    config
        .credentials
        .insert("registry.opentofu.org".to_owned(), "s3cret".to_owned());
    let fetcher = Fetcher::new(config, PackageStore::new(store.path(), DEFAULT_MAX_BYTES));
    fetch(&fetcher, &exact("0.14.2")).unwrap();
    let metadata = server
        .requests()
        .into_iter()
        .find(|(path, _)| *path == download_path())
        .unwrap();
    assert_eq!(metadata.1.as_deref(), Some("Bearer s3cret"));
}

#[test]
fn a_network_mirror_package_must_match_the_mirror_hashes() {
    let server = TestServer::start();
    let archive = package("mirrored");
    let zh = format!("zh:{}", sha256_hex(&archive));
    server.put("/files/time.zip", Reply::Ok(archive.clone()));
    server.put_json(
        "/mirror/registry.opentofu.org/hashicorp/time/index.json",
        serde_json::json!({"versions": {"0.14.2": {}, "0.14.1": {}}}),
    );
    server.put_json(
        "/mirror/registry.opentofu.org/hashicorp/time/0.14.2.json",
        serde_json::json!({"archives": {Platform::current().dir_name(): {"url": "../../../../files/time.zip", "hashes": [zh]}}}),
    );
    let store = tempfile::tempdir().unwrap();
    let mut config = config(&server);
    config.methods = vec![InstallationMethod {
        kind: MethodKind::NetworkMirror {
            url: format!("{}/mirror/", server.base),
        },
        include: Vec::new(),
        exclude: Vec::new(),
    }];
    let fetcher = Fetcher::new(
        config.clone(),
        PackageStore::new(store.path(), DEFAULT_MAX_BYTES),
    );
    let found = fetch(&fetcher, &VersionChoice::Constraints(Vec::new())).unwrap();
    assert_eq!(found.version(), "0.14.2");
    assert!(found.record.hashes.contains(&zh));
    assert_eq!(found.record.signed_by, None);

    // The same mirror with another hash: refused, nothing kept.
    server.put_json(
        "/mirror/registry.opentofu.org/hashicorp/time/0.14.2.json",
        serde_json::json!({"archives": {Platform::current().dir_name(): {"url": "/files/time.zip", "hashes": ["zh:0000"]}}}),
    );
    let other_store = tempfile::tempdir().unwrap();
    let fetcher = Fetcher::new(
        config,
        PackageStore::new(other_store.path(), DEFAULT_MAX_BYTES),
    );
    let error = fetch(&fetcher, &exact("0.14.2")).unwrap_err();
    assert!(
        matches!(error, FetchError::Verify(VerifyError::MirrorHash { .. })),
        "{error:?}"
    );
    assert!(error.to_string().contains("zh:0000"), "{error}");
    assert!(kept(other_store.path()).is_empty());
}

/// One fault: the error it gives (its variant checked by `is`, its words
/// by `says`) and nothing kept.
fn fault(setup: &dyn Fn(&TestServer, Vec<u8>), is: &dyn Fn(&FetchError) -> bool, says: &str) {
    let server = TestServer::start();
    let archive = package("p");
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", archive.clone())],
        &[],
    );
    setup(&server, archive);
    let store = tempfile::tempdir().unwrap();
    let error = fetch(&fetcher(&server, store.path()), &exact("0.14.2")).unwrap_err();
    assert!(is(&error), "unexpected error: {error:?}");
    assert!(
        error.to_string().contains(says),
        "{error} does not say {says:?}"
    );
    assert_eq!(
        kept(store.path()),
        Vec::<String>::new(),
        "nothing kept after {error}"
    );
}

fn download_path() -> String {
    let platform = Platform::current();
    format!(
        "/v1/providers/hashicorp/time/0.14.2/download/{}/{}",
        platform.os, platform.arch
    )
}

fn file_path() -> String {
    format!(
        "/files/terraform-provider-time_0.14.2_{}.zip",
        Platform::current().dir_name()
    )
}
const SUMS: &str = "/files/terraform-provider-time_0.14.2_SHA256SUMS";

#[test]
fn a_server_that_is_down_is_unreachable() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = TestServer::start();
    let store = tempfile::tempdir().unwrap();
    let mut config = config(&server);
    config.hosts.clear();
    let fetcher = Fetcher::new(config, PackageStore::new(store.path(), DEFAULT_MAX_BYTES));
    let address = ProviderAddress::parse(&format!("localhost:{port}/hashicorp/time")).unwrap();
    let error = fetcher
        .fetch(&address, &exact("0.14.2"), None, &|_| true)
        .unwrap_err();
    assert!(matches!(error, FetchError::Unreachable(_)), "{error:?}");
    assert!(error.to_string().contains("failed to discover"), "{error}");
    assert!(kept(store.path()).is_empty());
}

#[test]
fn a_missing_version_is_not_found() {
    fault(
        &|server, _| server.put(&download_path(), Reply::Status(404)),
        &|error| matches!(error, FetchError::NotFound(_)),
        "is not available for",
    );
}

#[test]
fn a_server_error_is_retried_then_reported() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", package("p"))],
        &[],
    );
    server.put(&download_path(), Reply::Status(500));
    let store = tempfile::tempdir().unwrap();
    let error = fetch(&fetcher(&server, store.path()), &exact("0.14.2")).unwrap_err();
    assert!(matches!(error, FetchError::Query(_)), "{error:?}");
    assert!(error.to_string().contains("500"), "{error}");
    let tries = server
        .requests()
        .iter()
        .filter(|(path, _)| *path == download_path())
        .count();
    assert_eq!(
        tries, 2,
        "one retry, as TF_REGISTRY_DISCOVERY_RETRY's default"
    );
    assert!(kept(store.path()).is_empty());
}

#[test]
fn a_slow_server_times_out() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", package("p"))],
        &[],
    );
    server.put(
        &download_path(),
        Reply::Slow(Duration::from_secs(3), b"{}".to_vec()),
    );
    let store = tempfile::tempdir().unwrap();
    let mut config = config(&server);
    config.http.request_timeout = Duration::from_millis(300);
    config.http.retries = 0;
    let fetcher = Fetcher::new(config, PackageStore::new(store.path(), DEFAULT_MAX_BYTES));
    let error = fetch(&fetcher, &exact("0.14.2")).unwrap_err();
    assert!(matches!(error, FetchError::Unreachable(_)), "{error:?}");
    assert!(error.to_string().contains("timed out"), "{error}");
    assert!(kept(store.path()).is_empty());
}

#[test]
fn a_download_cut_short_is_not_kept() {
    fault(
        &|server, archive| server.put(&file_path(), Reply::Cut(archive.clone(), archive.len() / 2)),
        &|error| matches!(error, FetchError::Download(_)),
        "failed to download the package",
    );
}

#[test]
fn a_truncated_zip_with_matching_checksums_is_not_a_safe_archive() {
    fault(
        &|server, archive| {
            let truncated = archive[..archive.len() - 10].to_vec();
            serve_registry(server, &[Release::new("time", "0.14.2", truncated)], &[]);
        },
        &|error| matches!(error, FetchError::Verify(VerifyError::Archive(_))),
        "not a safe archive",
    );
}

#[test]
fn a_wrong_shasum_fails_the_checksum_list() {
    fault(
        &|server, archive| {
            let mut release = Release::new("time", "0.14.2", archive);
            release.claimed_shasum = Some("ab".repeat(32));
            serve_registry(server, &[release], &[]);
        },
        &|error| {
            matches!(
                error,
                FetchError::Verify(VerifyError::ChecksumListMismatch { .. })
            )
        },
        "checksum list has unexpected SHA-256 hash",
    );
}

#[test]
fn an_archive_that_is_not_the_one_checksummed_fails() {
    fault(
        &|server, _| server.put(&file_path(), Reply::Ok(package("tampered"))),
        &|error| {
            matches!(
                error,
                FetchError::Verify(VerifyError::ArchiveChecksum { .. })
            )
        },
        "archive has incorrect checksum",
    );
}

#[test]
fn a_bad_signature_fails() {
    fault(
        &|server, _| {
            server.put(
                &format!("{SUMS}.sig"),
                Reply::Ok(support::sign("signing", b"another document")),
            )
        },
        &|error| matches!(error, FetchError::Verify(VerifyError::Signature(_))),
        "not signed with a valid signing key",
    );
}

#[test]
fn a_signature_by_an_unknown_key_fails() {
    fault(
        &|server, archive| {
            let mut release = Release::new("time", "0.14.2", archive);
            release.signer = "other";
            serve_registry(server, &[release], &[]);
        },
        &|error| matches!(error, FetchError::Verify(VerifyError::Signature(_))),
        "unknown issuer",
    );
}

#[test]
fn a_package_the_lock_file_does_not_know_fails() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", package("p"))],
        &[],
    );
    let store = tempfile::tempdir().unwrap();
    let locked = LockedProvider {
        address: time(),
        version: "0.14.2".to_owned(),
        constraints: None,
        hashes: vec![format!("zh:{}", "00".repeat(32))],
    };
    let error = fetcher(&server, store.path())
        .fetch(&time(), &exact("0.14.2"), Some(&locked), &|_| true)
        .unwrap_err();
    assert!(
        matches!(error, FetchError::Verify(VerifyError::LockMismatch { .. })),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("dependency lock file"),
        "{error}"
    );
    assert!(kept(store.path()).is_empty());
}

#[test]
fn an_archive_with_a_path_out_is_refused() {
    fault(
        &|server, _| {
            let evil = zip(&[("../../escape", b"x")]);
            serve_registry(server, &[Release::new("time", "0.14.2", evil)], &[]);
        },
        &|error| matches!(error, FetchError::Verify(VerifyError::Archive(_))),
        "leaves the package directory",
    );
}

#[test]
fn an_archive_with_a_huge_entry_is_refused() {
    fault(
        &|server, _| {
            let mut huge = zip(&[("terraform-provider-time_v0.14.2", b"x")]);
            // The central directory says 3 GiB: refused before inflating.
            let central = huge
                .windows(4)
                .position(|window| window == 0x0201_4b50u32.to_le_bytes())
                .unwrap();
            huge[central + 24..central + 28].copy_from_slice(&0xC000_0000u32.to_le_bytes());
            serve_registry(server, &[Release::new("time", "0.14.2", huge)], &[]);
        },
        &|error| matches!(error, FetchError::Verify(VerifyError::Archive(_))),
        "more than 1 GiB",
    );
}

#[test]
fn a_cancelled_download_keeps_nothing_and_the_next_ask_fetches_again() {
    let server = TestServer::start();
    let archive = zip(&[("terraform-provider-time_v0.14.2", &[7u8; 300_000])]);
    serve_registry(&server, &[Release::new("time", "0.14.2", archive)], &[]);
    let store = tempfile::tempdir().unwrap();
    let fetcher = fetcher(&server, store.path());
    let seen = std::sync::Mutex::new(Vec::new());
    let error = fetcher
        .fetch(&time(), &exact("0.14.2"), None, &|progress| {
            seen.lock().unwrap().push(progress.clone());
            !matches!(progress, tofu_fetch::Progress::Downloading { .. })
        })
        .unwrap_err();
    assert_eq!(error, FetchError::Cancelled);
    assert!(kept(store.path()).is_empty());
    let seen = seen.into_inner().unwrap();
    assert!(
        matches!(
            seen.last(),
            Some(tofu_fetch::Progress::Downloading { total: Some(total), .. }) if *total > 300_000
        ),
        "{seen:?}"
    );
    // Not remembered: asked again, it is fetched.
    let found = fetch(&fetcher, &exact("0.14.2")).unwrap();
    assert_eq!(found.version(), "0.14.2");
}

#[test]
fn the_cache_evicts_the_least_recently_used_package_past_its_size() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[
            Release::new("time", "0.14.1", package("older")),
            Release::new("time", "0.14.2", package("newer")),
        ],
        &[],
    );
    let store = tempfile::tempdir().unwrap();
    // Room for one package: the one just kept stays, the other goes.
    let fetcher = Fetcher::new(config(&server), PackageStore::new(store.path(), 1));
    let first = fetch(&fetcher, &exact("0.14.1")).unwrap();
    assert!(first.archive.is_file());
    let second = fetch(&fetcher, &exact("0.14.2")).unwrap();
    assert!(second.archive.is_file());
    assert!(!first.archive.exists(), "the older package is evicted");
    assert!(!first.archive.with_extension("json").exists());
    assert_eq!(
        fetcher
            .store()
            .versions(&time(), &Platform::current().dir_name()),
        ["0.14.2"]
    );
}

#[test]
fn a_failure_is_answered_from_memory_for_a_while_then_tried_again_when_forgotten() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", package("p"))],
        &[],
    );
    server.put(&download_path(), Reply::Status(404));
    let store = tempfile::tempdir().unwrap();
    let fetcher = fetcher(&server, store.path());
    let first = fetch(&fetcher, &exact("0.14.2")).unwrap_err();
    let asked = server.requests().len();
    // Hundreds of modules asking for the same package ask the registry once.
    for _ in 0..3 {
        assert_eq!(fetch(&fetcher, &exact("0.14.2")).unwrap_err(), first);
    }
    assert_eq!(server.requests().len(), asked);
    fetcher.forget_failures();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", package("p"))],
        &[],
    );
    assert_eq!(
        fetch(&fetcher, &exact("0.14.2")).unwrap().version(),
        "0.14.2"
    );
}

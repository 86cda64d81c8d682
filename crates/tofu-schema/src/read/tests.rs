//! A mirror's packed package, matched by its `zh:` hash, is unpacked into
//! the cache directory and run from there; without a cache it is refused.

use std::fs;
use std::time::Duration;

use super::*;
use crate::install::unpack::test_zip::{zip, Entry};

#[test]
fn a_packed_package_is_unpacked_into_the_cache_and_run() {
    let root = tempfile::tempdir().unwrap();
    let mirror = root.path().join("mirror");
    let provider_dir = mirror.join("registry.opentofu.org/acme/fake");
    fs::create_dir_all(&provider_dir).unwrap();
    let ran_marker = root.path().join("ran");
    let script = format!(
        "#!/bin/sh\ntouch '{}'\necho 'not a handshake'\n",
        ran_marker.display()
    );
    let archive = provider_dir.join("terraform-provider-fake_1.0.0_linux_amd64.zip");
    fs::write(
        &archive,
        zip(&[Entry {
            name: "terraform-provider-fake_v1.0.0",
            content: script.as_bytes(),
            mode: 0o100755,
            deflate: true,
        }]),
    )
    .unwrap();
    let address = ProviderAddress::parse("acme/fake").unwrap();
    let locked = LockedProvider {
        address: address.clone(),
        version: "1.0.0".to_owned(),
        constraints: None,
        hashes: vec![package_hash_zip(&archive).unwrap()],
    };
    let search = SearchDirs {
        mirror_dirs: vec![mirror],
        ..SearchDirs::default()
    };
    let cache = SchemaCache::new(root.path().join("cache"));
    let platform = Platform::parse("linux_amd64").unwrap();
    let mut request = SchemaRequest {
        address: &address,
        search: &search,
        platform: &platform,
        locked: Some(&locked),
        accepts: &|_| true,
        cache: None,
        run_providers: true,
        socket_dir: None,
        timeouts: Timeouts {
            handshake: Duration::from_secs(5),
            ..Timeouts::default()
        },
    };
    let error = read_provider_schema(&request).unwrap_err();
    assert!(
        matches!(error, SchemaReadError::PackedPackage { .. }),
        "{error:?}"
    );
    assert!(!ran_marker.exists());
    request.cache = Some(&cache);
    let error = read_provider_schema(&request).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("the provider printed \"not a handshake\""),
        "{error}"
    );
    assert!(ran_marker.exists(), "the unpacked provider ran");
    let unpacked = root
        .path()
        .join("cache/unpacked/registry.opentofu.org/acme/fake/1.0.0");
    assert_eq!(fs::read_dir(unpacked).unwrap().count(), 1);
}

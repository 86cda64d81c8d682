//! Discovery and selection on package trees laid out in a temporary
//! directory as `tofu init`, the plugin cache and mirrors lay them out.

use super::*;

fn address() -> ProviderAddress {
    ProviderAddress::parse("hashicorp/time").unwrap()
}

fn linux() -> Platform {
    Platform::parse("linux_amd64").unwrap()
}

fn unpacked(base: &Path, version: &str, platform: &str) -> PathBuf {
    let dir = base
        .join("registry.opentofu.org/hashicorp/time")
        .join(version)
        .join(platform);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(format!("terraform-provider-time_v{version}")), "").unwrap();
    dir
}

fn locked(version: &str) -> LockedProvider {
    LockedProvider {
        address: address(),
        version: version.to_owned(),
        constraints: None,
        hashes: Vec::new(),
    }
}

#[test]
fn every_layout_is_found_in_order_of_preference() {
    let root = tempfile::tempdir().unwrap();
    let init_dir = root.path().join("module/.terraform/providers");
    let cache = root.path().join("cache");
    let mirror = root.path().join("mirror");
    unpacked(&init_dir, "0.14.2", "linux_amd64");
    unpacked(&cache, "0.14.2", "linux_amd64");
    unpacked(&cache, "0.13.0", "darwin_arm64");
    let packed_dir = mirror.join("registry.opentofu.org/hashicorp/time");
    fs::create_dir_all(&packed_dir).unwrap();
    fs::write(
        packed_dir.join("terraform-provider-time_0.15.0_linux_amd64.zip"),
        "",
    )
    .unwrap();
    fs::write(packed_dir.join("README"), "").unwrap();
    let dirs = SearchDirs {
        init_dirs: vec![init_dir.clone()],
        plugin_cache_dir: Some(cache),
        mirror_dirs: vec![mirror],
    };
    let found = find_installed(&dirs, &address());
    let summary: Vec<(PackageSource, &str, &str, bool)> = found
        .iter()
        .map(|package| {
            let packed = matches!(package.location, PackageLocation::Archive(_));
            (
                package.source,
                package.version.as_str(),
                package.platform.as_str(),
                packed,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (PackageSource::InitDirectory, "0.14.2", "linux_amd64", false),
            (PackageSource::PluginCache, "0.13.0", "darwin_arm64", false),
            (PackageSource::PluginCache, "0.14.2", "linux_amd64", false),
            (PackageSource::Mirror, "0.15.0", "linux_amd64", true),
        ]
    );
    // Listed without naming the provider: the same packages, and those of
    // every other provider.
    let other = init_dir.join("example.com/acme/widget/1.0.0/linux_amd64");
    fs::create_dir_all(&other).unwrap();
    let listed: Vec<(String, PackageSource, String)> = list_installed(&dirs)
        .iter()
        .map(|package| {
            (
                package.address.to_string(),
                package.source,
                package.version.clone(),
            )
        })
        .collect();
    let listed: Vec<(&str, PackageSource, &str)> = listed
        .iter()
        .map(|(address, source, version)| (address.as_str(), *source, version.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                "example.com/acme/widget",
                PackageSource::InitDirectory,
                "1.0.0"
            ),
            (
                "registry.opentofu.org/hashicorp/time",
                PackageSource::InitDirectory,
                "0.14.2"
            ),
            (
                "registry.opentofu.org/hashicorp/time",
                PackageSource::PluginCache,
                "0.13.0"
            ),
            (
                "registry.opentofu.org/hashicorp/time",
                PackageSource::PluginCache,
                "0.14.2"
            ),
            (
                "registry.opentofu.org/hashicorp/time",
                PackageSource::Mirror,
                "0.15.0"
            ),
        ]
    );
    // The lock file wins, and the root's own install among equals.
    let chosen = select_package(&found, &linux(), Some(&locked("0.14.2")), &|_| true).unwrap();
    assert_eq!(chosen.source, PackageSource::InitDirectory);
    // Without a lock: the highest accepted.
    let chosen = select_package(&found, &linux(), None, &|_| true).unwrap();
    assert_eq!(chosen.version, "0.15.0");
    let chosen = select_package(&found, &linux(), None, &|version| {
        version.starts_with("0.14")
    })
    .unwrap();
    assert_eq!(chosen.version, "0.14.2");
}

#[test]
fn selection_says_why_nothing_fits() {
    let root = tempfile::tempdir().unwrap();
    unpacked(root.path(), "1.0.0", "darwin_arm64");
    let dirs = SearchDirs {
        init_dirs: vec![root.path().to_path_buf()],
        ..SearchDirs::default()
    };
    let found = find_installed(&dirs, &address());
    assert_eq!(
        select_package(&found, &linux(), None, &|_| true),
        Err(SelectionError::OtherPlatformsOnly {
            platforms: vec!["darwin_arm64".to_owned()]
        })
    );
    unpacked(root.path(), "1.0.0", "linux_amd64");
    let found = find_installed(&dirs, &address());
    assert_eq!(
        select_package(&found, &linux(), Some(&locked("2.0.0")), &|_| true),
        Err(SelectionError::LockedVersionNotInstalled {
            locked: "2.0.0".to_owned(),
            installed: vec!["1.0.0".to_owned()]
        })
    );
    assert_eq!(
        select_package(&found, &linux(), None, &|_| false),
        Err(SelectionError::NoVersionAccepted {
            installed: vec!["1.0.0".to_owned()]
        })
    );
    assert_eq!(
        select_package(&[], &linux(), None, &|_| true),
        Err(SelectionError::NotInstalled)
    );
}

#[test]
fn the_executable_is_found_as_opentofu_finds_it() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("CHANGELOG.md"), "").unwrap();
    fs::write(dir.path().join("terraform-provider-timex"), "").unwrap();
    assert_eq!(find_executable(dir.path(), "time"), None);
    fs::write(dir.path().join("terraform-provider-time_v0.14.2"), "").unwrap();
    fs::write(dir.path().join("terraform-provider-time"), "").unwrap();
    assert_eq!(
        find_executable(dir.path(), "time"),
        Some(dir.path().join("terraform-provider-time"))
    );
}

#[test]
fn versions_order_as_semantic_versions() {
    let mut versions = vec![
        "1.10.0",
        "1.9.0",
        "1.10.0-beta.2",
        "1.10.0-beta.10",
        "1.10.0-alpha",
        "0.1",
    ];
    versions.sort_by(|left, right| compare_versions(left, right));
    assert_eq!(
        versions,
        [
            "0.1",
            "1.9.0",
            "1.10.0-alpha",
            "1.10.0-beta.2",
            "1.10.0-beta.10",
            "1.10.0"
        ]
    );
    assert_eq!(compare_versions("1.0", "1.0.0"), Ordering::Equal);
    assert_eq!(Platform::parse("linux"), None);
    assert!(Platform::current().dir_name().contains('_'));
}

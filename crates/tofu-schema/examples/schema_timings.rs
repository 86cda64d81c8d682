//! Times reading openstack's schema the three ways that matter, in one
//! run, interleaved: cold (hash the package, run the provider, store in an
//! empty cache), from the cache (hash the package, load the entry), and
//! `tofu providers schema -json` on the same install; prints medians and
//! the ratios against tofu.
//!
//! `schema_timings ORACLE_DIR CHECK_DIR TOFU [RUNS]`: ORACLE_DIR holds
//! `plugins/` and `locks/m2-openstack.terraform.lock.hcl`, CHECK_DIR is a
//! module `tofu init` initialized with openstack from those plugins.

// A measuring tool: its output is the point.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use tofu_schema::install::{
    package_hash_v1, parse_lock_file, LockedProvider, Platform, SearchDirs,
};
use tofu_schema::plugin::Timeouts;
use tofu_schema::{read_provider_schema, SchemaCache, SchemaOrigin, SchemaRequest};

fn median(mut durations: Vec<Duration>) -> Duration {
    durations.sort();
    durations
        .get(durations.len() / 2)
        .copied()
        .unwrap_or_default()
}

fn accept_any(_: &str) -> bool {
    true
}

fn openstack_request<'a>(
    locked: &'a LockedProvider,
    search: &'a SearchDirs,
    platform: &'a Platform,
    cache: &'a SchemaCache,
) -> SchemaRequest<'a> {
    SchemaRequest {
        address: &locked.address,
        search,
        platform,
        locked: Some(locked),
        accepts: &accept_any,
        cache: Some(cache),
        run_providers: true,
        socket_dir: None,
        timeouts: Timeouts::default(),
    }
}

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let (oracle, check_dir, tofu) = match arguments.as_slice() {
        [oracle, check_dir, tofu, ..] => (
            PathBuf::from(oracle),
            PathBuf::from(check_dir),
            PathBuf::from(tofu),
        ),
        _ => {
            eprintln!("usage: schema_timings ORACLE_DIR CHECK_DIR TOFU [RUNS]");
            std::process::exit(2);
        }
    };
    let runs: usize = arguments
        .get(3)
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(9);
    let lock = std::fs::read_to_string(oracle.join("locks/m2-openstack.terraform.lock.hcl"))
        .unwrap_or_default();
    let Some(locked) = parse_lock_file(&lock).into_iter().next() else {
        eprintln!("no lock entry for openstack under {}", oracle.display());
        std::process::exit(2);
    };
    let search = SearchDirs {
        init_dirs: vec![check_dir.join(".terraform/providers")],
        ..SearchDirs::default()
    };
    let platform = Platform::current();
    let warm_dir = std::env::temp_dir().join(format!("tofu-lens-timings-{}", std::process::id()));
    let warm_cache = SchemaCache::new(&warm_dir);
    if let Err(error) =
        read_provider_schema(&openstack_request(&locked, &search, &platform, &warm_cache))
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    let (mut cold, mut cached, mut tofu_times, mut hashing) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs {
        let cold_dir = warm_dir.join(format!("cold-{run}"));
        let cold_cache = SchemaCache::new(&cold_dir);
        let start = Instant::now();
        let loaded =
            read_provider_schema(&openstack_request(&locked, &search, &platform, &cold_cache));
        cold.push(start.elapsed());
        assert!(matches!(
            loaded.map(|loaded| loaded.origin),
            Ok(SchemaOrigin::Provider)
        ));

        let start = Instant::now();
        let loaded =
            read_provider_schema(&openstack_request(&locked, &search, &platform, &warm_cache));
        cached.push(start.elapsed());
        assert!(matches!(
            loaded.map(|loaded| loaded.origin),
            Ok(SchemaOrigin::Cache)
        ));

        let package = check_dir.join(
            ".terraform/providers/registry.opentofu.org/terraform-provider-openstack/openstack/3.4.0/linux_amd64",
        );
        let start = Instant::now();
        let _ = package_hash_v1(&package);
        hashing.push(start.elapsed());

        let start = Instant::now();
        let status = Command::new(&tofu)
            .args(["providers", "schema", "-json"])
            .current_dir(&check_dir)
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .stdout(std::process::Stdio::null())
            .status();
        tofu_times.push(start.elapsed());
        assert!(status.is_ok_and(|status| status.success()));
    }
    let _ = std::fs::remove_dir_all(&warm_dir);
    let (cold, cached, tofu_time, hashing) = (
        median(cold),
        median(cached),
        median(tofu_times),
        median(hashing),
    );
    println!("openstack 3.4.0, {runs} runs, medians:");
    println!("  tofu providers schema -json: {tofu_time:?}");
    println!(
        "  cold read (hash, run, store): {cold:?} = {:.2}x tofu",
        cold.as_secs_f64() / tofu_time.as_secs_f64()
    );
    println!(
        "  from the cache (hash, load):  {cached:?} = {:.3}x tofu",
        cached.as_secs_f64() / tofu_time.as_secs_f64()
    );
    println!("  of which hashing the package: {hashing:?}");
}

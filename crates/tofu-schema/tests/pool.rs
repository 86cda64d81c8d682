//! The provider pool with real processes: the time provider kept running
//! and reused, started again after it is killed from outside, and reaped
//! when the pool goes; a provider that exits at once given up on with its
//! reason. Only checked packages run (`runnable_provider`).
//!
//! The time provider comes from `TOFU_LENS_PROVIDER_PLUGINS` (else
//! `TOFU_LENS_PROVIDER_ORACLE/plugins`), as in `tests/time_provider.rs`;
//! without either those tests say so and pass.

// Helpers of a test: a failed unwrap is a failing test, and a skipped test
// says why on stderr.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use tofu_eval::{Type, Value};
use tofu_schema::install::{package_hash_v1, LockedProvider, Platform, SearchDirs};
use tofu_schema::plugin::{DynamicValue, Timeouts};
use tofu_schema::pool::FailureKind;
use tofu_schema::{
    runnable_provider, PoolError, PoolSettings, ProviderAddress, ProviderPool, RunnableProvider,
    SchemaRequest,
};

mod common;

/// The package of `address` `version` under `plugins`, checked against a
/// lock entry made from its own hash (as `tofu init` writes it).
fn runnable(plugins: &Path, address: &str, version: &str) -> RunnableProvider {
    let address = ProviderAddress::parse(address).unwrap();
    let platform = Platform::current();
    let package = plugins
        .join(&address.hostname)
        .join(&address.namespace)
        .join(&address.type_name)
        .join(version)
        .join(platform.dir_name());
    let locked = LockedProvider {
        address: address.clone(),
        version: version.to_owned(),
        constraints: None,
        hashes: vec![package_hash_v1(&package).unwrap()],
    };
    let search = SearchDirs {
        init_dirs: vec![plugins.to_path_buf()],
        ..SearchDirs::default()
    };
    runnable_provider(&SchemaRequest {
        address: &address,
        search: &search,
        platform: &platform,
        locked: Some(&locked),
        accepts: &|_| true,
        cache: None,
        run_providers: true,
        socket_dir: None,
        timeouts: Timeouts::default(),
    })
    .unwrap()
}

fn process_exists(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

fn later() -> Instant {
    Instant::now() + Duration::from_secs(60)
}

#[test]
fn the_time_provider_is_kept_reused_restarted_after_a_kill_and_reaped() {
    let Some(plugins) = common::plugins_dir() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let time = runnable(&plugins, "hashicorp/time", "0.14.2");
    let pool = ProviderPool::new(PoolSettings::default());
    let workspace = Path::new("/workspace/one");
    let block = {
        let schema = pool
            .call_provider(workspace, &time, later(), |client| client.read_schema())
            .unwrap();
        schema
            .resource_types
            .get("time_sleep")
            .unwrap()
            .block
            .clone()
    };
    let validate = |duration: Value| {
        let config = DynamicValue::from_config(
            &Value::object([("create_duration".to_owned(), duration)].into()),
            &block,
        )
        .unwrap();
        pool.call_provider(workspace, &time, later(), |client| {
            client.validate_resource_config("time_sleep", &config)
        })
    };
    assert_eq!(validate(Value::string("10x")).unwrap().len(), 1);
    assert!(validate(Value::unknown(Type::String)).unwrap().is_empty());
    let running = pool.running();
    assert_eq!(running.len(), 1, "{running:?}");
    let first = running[0].process_id.unwrap();
    assert!(process_exists(first));

    // Killed from outside: the next call finds it gone, starts another and
    // gets its answer.
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &first.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(validate(Value::string("10x")).unwrap().len(), 1);
    let second = pool.running()[0].process_id.unwrap();
    assert_ne!(first, second);
    assert!(!process_exists(first), "the killed one is reaped");

    // Another workspace: its own process.
    pool.call_provider(Path::new("/workspace/two"), &time, later(), |client| {
        client.read_schema().map(|_| ())
    })
    .unwrap();
    let pids: Vec<u32> = pool
        .running()
        .iter()
        .filter_map(|running| running.process_id)
        .collect();
    assert_eq!(pids.len(), 2);
    drop(pool);
    for pid in pids {
        assert!(!process_exists(pid), "process {pid} outlived the pool");
    }
}

#[test]
fn a_provider_that_exits_at_once_is_given_up_on_and_leaves_no_process() {
    let root = tempfile::tempdir().unwrap();
    let package = root
        .path()
        .join("registry.opentofu.org/acme/fake/1.0.0")
        .join(Platform::current().dir_name());
    fs::create_dir_all(&package).unwrap();
    let executable = package.join("terraform-provider-fake_v1.0.0");
    let pid_file = root.path().join("pid");
    fs::write(
        &executable,
        format!(
            "#!/bin/sh\necho $$ >> '{}'\necho 'panic: no config' >&2\nexit 2\n",
            pid_file.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&executable, fs::Permissions::from_mode(0o755)).unwrap();
    let fake = runnable(root.path(), "acme/fake", "1.0.0");
    let pool = ProviderPool::new(PoolSettings::default());
    for _ in 0..2 {
        let refused = pool.call_provider(root.path(), &fake, later(), |client| {
            client.read_schema().map(|_| ())
        });
        let Err(PoolError::GaveUp(gave_up)) = refused else {
            panic!("{refused:?}")
        };
        assert_eq!(gave_up.reason, FailureKind::DidNotStart);
        assert!(
            gave_up.message.contains("exited before its handshake")
                && gave_up.message.contains("panic: no config"),
            "{}",
            gave_up.message
        );
    }
    let pids = fs::read_to_string(&pid_file).unwrap();
    assert_eq!(pids.lines().count(), 1, "started once, not again");
    for pid in pids.lines() {
        assert!(!process_exists(pid.trim().parse().unwrap()));
    }
}

//! Providers that misbehave, as small shell scripts installed where `tofu
//! init` puts packages: each fault gives one clear error, and no process
//! is left behind (each script records its pid, which must be gone, not
//! even a zombie, once the read returns).

// Helpers of a test: a failed unwrap is a failing test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tofu_schema::install::{package_hash_v1, LockedProvider, Platform, SearchDirs};
use tofu_schema::plugin::{ClientError, PluginError, Timeouts};
use tofu_schema::read::{read_provider_schema, SchemaReadError, SchemaRequest};
use tofu_schema::{MissingReason, ProviderAddress};

struct Fake {
    root: tempfile::TempDir,
    address: ProviderAddress,
}

impl Fake {
    /// Installs `script` as `acme/fake` 1.0.0 for `platform`.
    fn install(script: &str, platform: &str) -> Fake {
        let root = tempfile::tempdir().unwrap();
        let package = root
            .path()
            .join(".terraform/providers/registry.opentofu.org/acme/fake/1.0.0")
            .join(platform);
        fs::create_dir_all(&package).unwrap();
        let executable = package.join("terraform-provider-fake_v1.0.0");
        let pid_file = root.path().join("pid");
        let script = format!("#!/bin/sh\necho $$ > '{}'\n{script}\n", pid_file.display());
        fs::write(&executable, script).unwrap();
        fs::set_permissions(&executable, fs::Permissions::from_mode(0o755)).unwrap();
        Fake {
            root,
            address: ProviderAddress::parse("acme/fake").unwrap(),
        }
    }

    fn package_dir(&self) -> PathBuf {
        self.root
            .path()
            .join(".terraform/providers/registry.opentofu.org/acme/fake/1.0.0/linux_amd64")
    }

    fn locked_with(&self, hashes: Vec<String>) -> LockedProvider {
        LockedProvider {
            address: self.address.clone(),
            version: "1.0.0".to_owned(),
            constraints: None,
            hashes,
        }
    }

    /// The lock entry `tofu init` would write for the installed package.
    fn locked(&self) -> LockedProvider {
        self.locked_with(vec![package_hash_v1(&self.package_dir()).unwrap()])
    }

    fn read(&self, locked: &LockedProvider) -> SchemaReadError {
        self.read_with(locked, true)
    }

    /// [`Fake::read`], with providers allowed to run or not.
    fn read_with(&self, locked: &LockedProvider, run_providers: bool) -> SchemaReadError {
        let search = SearchDirs {
            init_dirs: vec![self.root.path().join(".terraform/providers")],
            ..SearchDirs::default()
        };
        let request = SchemaRequest {
            address: &self.address,
            search: &search,
            platform: &Platform::parse("linux_amd64").unwrap(),
            locked: Some(locked),
            accepts: &|_| true,
            cache: None,
            run_providers,
            socket_dir: None,
            timeouts: Timeouts {
                handshake: Duration::from_millis(500),
                call: Duration::from_millis(500),
                shutdown: Duration::from_millis(200),
            },
        };
        read_provider_schema(&request).unwrap_err()
    }

    /// The pid the script recorded, if it ran.
    fn pid(&self) -> Option<String> {
        fs::read_to_string(self.root.path().join("pid"))
            .ok()
            .map(|pid| pid.trim().to_owned())
    }

    fn assert_no_process_left(&self) {
        let pid = self.pid().expect("the fake provider ran");
        assert!(
            !Path::new("/proc").join(&pid).exists(),
            "process {pid} is still there"
        );
    }
}

#[test]
fn a_provider_that_exits_at_once_says_so_with_its_stderr() {
    let fake = Fake::install("echo 'could not load plugin' >&2\nexit 3", "linux_amd64");
    let error = fake.read(&fake.locked());
    assert!(
        matches!(
            error,
            SchemaReadError::Provider(ClientError::Plugin(PluginError::ExitedEarly { .. }))
        ),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains("exited before its handshake"), "{message}");
    assert!(message.contains("exit status: 3"), "{message}");
    assert!(message.contains("could not load plugin"), "{message}");
    assert_eq!(error.reason(), MissingReason::Crashed);
    fake.assert_no_process_left();
}

#[test]
fn a_provider_that_hangs_in_the_handshake_is_killed() {
    let fake = Fake::install("exec sleep 60", "linux_amd64");
    let error = fake.read(&fake.locked());
    assert!(
        matches!(
            error,
            SchemaReadError::Provider(ClientError::Plugin(PluginError::HandshakeTimedOut { .. }))
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "the provider printed no handshake in time"
    );
    assert_eq!(error.reason(), MissingReason::TimedOut);
    fake.assert_no_process_left();
}

#[test]
fn a_provider_that_prints_garbage_is_killed() {
    let fake = Fake::install("echo 'Hello, world'\nexec sleep 60", "linux_amd64");
    let error = fake.read(&fake.locked());
    assert_eq!(
        error.to_string(),
        "the provider printed \"Hello, world\" instead of a plugin handshake (fewer than five fields)"
    );
    assert_eq!(error.reason(), MissingReason::BadHandshake);
    fake.assert_no_process_left();
}

#[test]
fn a_handshake_naming_no_socket_fails_to_connect_and_is_killed() {
    let fake = Fake::install(
        "echo '1|6|unix|/nonexistent/plugin.sock|grpc|'\nexec sleep 60",
        "linux_amd64",
    );
    let error = fake.read(&fake.locked());
    let message = error.to_string();
    assert!(
        message.starts_with("connecting failed: could not connect to /nonexistent/plugin.sock"),
        "{message}"
    );
    assert_eq!(error.reason(), MissingReason::Crashed);
    fake.assert_no_process_left();
}

#[test]
fn a_provider_that_never_answers_a_call_times_out_and_is_killed() {
    // The socket exists and accepts connections, but nobody answers.
    let socket_dir = tempfile::tempdir().unwrap();
    let socket = socket_dir.path().join("plugin.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let fake = Fake::install(
        &format!("echo '1|5|unix|{}|grpc|'\nexec sleep 60", socket.display()),
        "linux_amd64",
    );
    let error = fake.read(&fake.locked());
    assert_eq!(error.to_string(), "GetSchema failed: timed out");
    assert_eq!(error.reason(), MissingReason::TimedOut);
    fake.assert_no_process_left();
}

#[test]
fn a_provider_for_another_platform_is_not_run() {
    let fake = Fake::install("exec sleep 60", "darwin_arm64");
    let error = fake.read(&fake.locked_with(Vec::new()));
    assert_eq!(
        error.to_string(),
        "installed only for another platform (darwin_arm64)"
    );
    assert_eq!(error.reason(), MissingReason::OtherPlatform);
    assert_eq!(fake.pid(), None);
}

#[test]
fn an_executable_for_another_architecture_cannot_start() {
    let fake = Fake::install("", "linux_amd64");
    let executable = fake.package_dir().join("terraform-provider-fake_v1.0.0");
    // An ELF header for another machine: the kernel refuses to execute it.
    let mut elf =
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00".to_vec();
    elf.resize(64, 0);
    fs::write(&executable, elf).unwrap();
    let error = fake.read(&fake.locked());
    assert!(
        matches!(
            error,
            SchemaReadError::Provider(ClientError::Plugin(PluginError::Spawn { .. }))
        ),
        "{error:?}"
    );
    assert!(error.to_string().starts_with("could not run "), "{error}");
    assert_eq!(error.reason(), MissingReason::CouldNotRun);
}

#[test]
fn a_package_that_fails_its_hash_is_not_run() {
    let fake = Fake::install("exec sleep 60", "linux_amd64");
    let locked = fake.locked_with(vec![
        "h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=".to_owned(),
        "zh:0011".to_owned(),
    ]);
    let error = fake.read(&locked);
    let computed = package_hash_v1(&fake.package_dir()).unwrap();
    assert_eq!(
        error.to_string(),
        format!(
            "{} does not match the lock file (its hash is {computed}; the lock file has \
             h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=), so it was not run",
            fake.package_dir().display()
        )
    );
    assert_eq!(fake.pid(), None, "the provider must not have run");
    assert_eq!(error.reason(), MissingReason::HashMismatch);
}

#[test]
fn a_provider_missing_from_the_lock_file_is_not_run() {
    let fake = Fake::install("exec sleep 60", "linux_amd64");
    let search = SearchDirs {
        init_dirs: vec![fake.root.path().join(".terraform/providers")],
        ..SearchDirs::default()
    };
    let request = SchemaRequest {
        address: &fake.address,
        search: &search,
        platform: &Platform::parse("linux_amd64").unwrap(),
        locked: None,
        accepts: &|_| true,
        cache: None,
        run_providers: true,
        socket_dir: None,
        timeouts: Timeouts::default(),
    };
    let error = read_provider_schema(&request).unwrap_err();
    assert!(matches!(error, SchemaReadError::NotLocked), "{error:?}");
    assert_eq!(error.reason(), MissingReason::NotLocked);
    assert_eq!(fake.pid(), None);
}

/// A package the lock file does not vouch for is reported as such even
/// when running providers is turned off (issue 47, part 6): `tofu
/// validate` fails on it whatever tofu-lens may run.
#[test]
fn a_package_that_fails_its_hash_is_reported_with_running_turned_off() {
    let fake = Fake::install("exec sleep 60", "linux_amd64");
    let mismatching = fake.locked_with(vec![
        "h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=".to_owned()
    ]);
    let matching = fake.locked();
    let read = |locked: &LockedProvider| fake.read_with(locked, false);
    assert_eq!(read(&mismatching).reason(), MissingReason::HashMismatch);
    assert_eq!(read(&matching).reason(), MissingReason::RunningOff);
    assert_eq!(fake.pid(), None, "nothing ran");
}

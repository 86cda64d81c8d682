//! `tofu-lens schemas` as a user runs it, on module trees written into a
//! temporary directory: which providers each module needs, the root that
//! installs them (itself, its callers, the nearest directory above), where
//! each schema comes from and why any is missing. Fake providers are
//! shell scripts installed where `tofu init` puts packages, with lock
//! files made from their own hashes; each records its pid, which must be
//! gone afterwards.
//!
//! The real hashicorp/time provider runs when `TOFU_LENS_PROVIDER_PLUGINS`
//! (CI builds it, `.ci/run`) or `TOFU_LENS_PROVIDER_ORACLE` names a plugin
//! directory; otherwise that test says so and passes. Every run has its
//! own HOME (so its own schema cache) and no other environment.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tofu_schema::install::{package_hash_v1, Platform};

/// A tree to run `schemas` in, with its own HOME.
struct Tree {
    root: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            root: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.path(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// `schemas ARGS` in the tree's directory, with only PATH and HOME set.
    fn schemas(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
            .arg("schemas")
            .args(args)
            .current_dir(self.root.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .output()
            .unwrap()
    }

    /// `check ARGS` in the tree's directory, with only PATH and HOME set.
    fn check(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
            .arg("check")
            .args(args)
            .current_dir(self.root.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .output()
            .unwrap()
    }

    /// `console ARGS` in the tree's directory with `input` on stdin, with
    /// only PATH and HOME set.
    fn console(&self, args: &[&str], input: &str) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
            .arg("console")
            .args(args)
            .current_dir(self.root.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    }

    /// Installs `script` as provider `acme/NAME` 1.0.0 under `root`'s
    /// `.terraform`, for `platform` (default: this one); the package dir.
    fn install_fake(
        &self,
        root: &str,
        name: &str,
        platform: Option<&str>,
        script: &str,
    ) -> PathBuf {
        let platform = platform.map_or_else(|| Platform::current().dir_name(), str::to_owned);
        let package = self
            .path(root)
            .join(".terraform/providers/registry.opentofu.org/acme")
            .join(name)
            .join("1.0.0")
            .join(platform);
        fs::create_dir_all(&package).unwrap();
        let executable = package.join(format!("terraform-provider-{name}_v1.0.0"));
        let pid_file = self.pid_file(name);
        fs::write(
            &executable,
            format!("#!/bin/sh\necho $$ >> '{}'\n{script}\n", pid_file.display()),
        )
        .unwrap();
        fs::set_permissions(&executable, fs::Permissions::from_mode(0o755)).unwrap();
        package
    }

    fn pid_file(&self, name: &str) -> PathBuf {
        self.home.path().join(format!("{name}.pids"))
    }

    /// The pids the fake provider `name` recorded (empty: it never ran).
    fn pids(&self, name: &str) -> Vec<String> {
        fs::read_to_string(self.pid_file(name))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    fn assert_no_process_left(&self, name: &str) {
        let pids = self.pids(name);
        assert!(!pids.is_empty(), "{name} never ran");
        for pid in pids {
            assert!(
                !Path::new("/proc").join(&pid).exists(),
                "{name}'s process {pid} is still there"
            );
        }
    }

    /// `root`'s `.terraform.lock.hcl` with these (address, version, hashes).
    fn lock(&self, root: &str, entries: &[(&str, &str, Vec<String>)]) {
        let mut text = String::from("# This file is maintained automatically by \"tofu init\".\n");
        for (address, version, hashes) in entries {
            text.push_str(&format!(
                "\nprovider \"{address}\" {{\n  version = \"{version}\"\n  hashes = [\n"
            ));
            for hash in hashes {
                text.push_str(&format!("    \"{hash}\",\n"));
            }
            text.push_str("  ]\n}\n");
        }
        self.write(&format!("{root}/.terraform.lock.hcl"), &text);
    }
}

impl Tree {
    /// [`Tree::install_fake`] for this platform, and `root`'s lock file
    /// vouching for it (its own hash, as `tofu init` writes it).
    fn install_locked_fake(&self, root: &str, name: &str, script: &str) -> PathBuf {
        let package = self.install_fake(root, name, None, script);
        let address = format!("registry.opentofu.org/acme/{name}");
        self.lock(
            root,
            &[(&address, "1.0.0", vec![package_hash_v1(&package).unwrap()])],
        );
        package
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A module using `acme/NAME` for each name.
fn module_using(names: &[&str]) -> String {
    let mut text = String::from("terraform {\n  required_providers {\n");
    for name in names {
        text.push_str(&format!(
            "    {name} = {{\n      source = \"acme/{name}\"\n    }}\n"
        ));
    }
    text.push_str("  }\n}\n");
    text
}

#[test]
fn a_provider_that_exits_at_once_is_reported_crashed_and_leaves_no_process() {
    let tree = Tree::new();
    tree.write("stack/main.tf", &module_using(&["fake"]));
    tree.install_locked_fake("stack", "fake", "echo 'plugin failed to load' >&2\nexit 3");
    let output = tree.schemas(&[]);
    assert_eq!(
        stdout(&output),
        "./stack (its own .terraform)\n  registry.opentofu.org/acme/fake: missing (crashed in ./stack): \
         the provider exited before its handshake (exit status: 3); its stderr: plugin failed to load\n"
    );
    assert_eq!(output.status.code(), Some(1));
    tree.assert_no_process_left("fake");
}

#[test]
fn a_package_that_fails_its_hash_is_not_run() {
    let tree = Tree::new();
    tree.write("stack/main.tf", &module_using(&["fake"]));
    let package = tree.install_fake("stack", "fake", None, "exec sleep 60");
    tree.lock(
        "stack",
        &[(
            "registry.opentofu.org/acme/fake",
            "1.0.0",
            vec!["h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=".to_owned()],
        )],
    );
    let output = tree.schemas(&[]);
    let computed = package_hash_v1(&package).unwrap();
    assert_eq!(
        stdout(&output),
        format!(
            "./stack (its own .terraform)\n  registry.opentofu.org/acme/fake: missing (hash-mismatch in ./stack): \
             ./stack/.terraform/providers/registry.opentofu.org/acme/fake/1.0.0/{} does not match the lock file \
             (its hash is {computed}; the lock file has h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4=), so it was not run\n",
            Platform::current().dir_name()
        )
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        tree.pids("fake").is_empty(),
        "the provider must not have run"
    );
}

#[test]
fn not_installed_another_platform_and_not_locked_each_say_so() {
    let tree = Tree::new();
    tree.write(
        "stack/main.tf",
        &module_using(&["absent", "mac", "unlocked"]),
    );
    tree.install_fake("stack", "mac", Some("darwin_arm64"), "exec sleep 60");
    tree.install_fake("stack", "unlocked", None, "exec sleep 60");
    tree.lock("stack", &[]);
    let output = tree.schemas(&[]);
    assert_eq!(
        stdout(&output),
        "./stack (its own .terraform)\n\
         \x20 registry.opentofu.org/acme/absent: missing (not-installed in ./stack): not installed: run tofu init\n\
         \x20 registry.opentofu.org/acme/mac: missing (other-platform in ./stack): installed only for another platform (darwin_arm64)\n\
         \x20 registry.opentofu.org/acme/unlocked: missing (not-locked in ./stack): not in the lock file (.terraform.lock.hcl), so not run: run tofu init\n"
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(tree.pids("mac").is_empty() && tree.pids("unlocked").is_empty());
}

#[test]
fn a_provider_that_hangs_times_out_and_is_killed() {
    let tree = Tree::new();
    tree.write("stack/main.tf", &module_using(&["slow"]));
    tree.install_locked_fake("stack", "slow", "exec sleep 60");
    let output = tree.schemas(&["--timeout", "1"]);
    assert_eq!(
        stdout(&output),
        "./stack (its own .terraform)\n  registry.opentofu.org/acme/slow: missing (timed-out in ./stack): \
         the provider printed no handshake in time\n"
    );
    tree.assert_no_process_left("slow");
}

#[test]
fn with_running_turned_off_a_schemas_file_answers_and_nothing_runs() {
    let tree = Tree::new();
    tree.write(
        ".tofu-lens.toml",
        "[schemas]\nfiles = [\"schemas/time.json\"]\nrunProviders = false\n",
    );
    tree.write(
        "schemas/time.json",
        include_str!("../../tofu-schema/test_data/schema-time.json"),
    );
    tree.write(
        "stack/main.tf",
        "resource \"time_sleep\" \"wait\" {\n  create_duration = \"30s\"\n}\n\nprovider \"fake\" {}\n\nterraform {\n  required_providers {\n    fake = {\n      source = \"acme/fake\"\n    }\n  }\n}\n",
    );
    tree.install_locked_fake("stack", "fake", "exec sleep 60");
    let output = tree.schemas(&[]);
    assert_eq!(
        stdout(&output),
        "./stack (its own .terraform)\n\
         \x20 registry.opentofu.org/acme/fake: missing (running-off in ./stack): running providers is turned off, and no schema is cached\n\
         \x20 registry.opentofu.org/hashicorp/time: from the schemas file schemas/time.json\n"
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(tree.pids("fake").is_empty(), "running was turned off");

    let json = tree.schemas(&["--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let providers = &report["modules"][0]["providers"];
    assert_eq!(providers[0]["status"], "missing");
    assert_eq!(providers[0]["reason"], "running-off");
    assert_eq!(providers[0]["root"], "./stack");
    assert_eq!(
        providers[0]["needed_by"],
        serde_json::json!(["required_providers", "provider.fake"])
    );
    assert_eq!(providers[1]["status"], "found");
    assert_eq!(providers[1]["origin"], "schemas-file");
    assert_eq!(providers[1]["schemas_file"], "schemas/time.json");
    assert_eq!(providers[1]["local_names"], serde_json::json!(["time"]));
    assert_eq!(report["modules"][0]["roots_from"], "itself");
    assert_eq!(json.status.code(), Some(1));
}

#[test]
fn a_called_module_is_installed_by_its_callers_else_by_the_directory_above() {
    let tree = Tree::new();
    let calls = "module \"net\" {\n  source = \"../../modules/net\"\n}\n";
    tree.write("stacks/prod/main.tf", calls);
    tree.write("stacks/dev/main.tf", calls);
    tree.write("stacks/prod/.terraform/providers/.keep", "");
    tree.write(
        "modules/net/main.tf",
        "resource \"null_resource\" \"x\" {}\n",
    );
    tree.write("other/.terraform/providers/.keep", "");
    tree.write("other/sub/main.tf", "resource \"null_resource\" \"y\" {}\n");
    tree.write("loose/main.tf", "output \"x\" {\n  value = 1\n}\n");
    let output = tree.schemas(&[]);
    assert_eq!(
        stdout(&output),
        "./loose (no .terraform here, in a caller or above)\n\
         \x20 no providers\n\
         ./modules/net (installed by its callers ./stacks/prod)\n\
         \x20 registry.opentofu.org/hashicorp/null: missing (not-installed in ./stacks/prod): not installed: run tofu init\n\
         ./other/sub (installed by ./other above it)\n\
         \x20 registry.opentofu.org/hashicorp/null: missing (not-installed in ./other): not installed: run tofu init\n\
         ./stacks/dev (no .terraform here, in a caller or above)\n\
         \x20 no providers\n\
         ./stacks/prod (its own .terraform)\n\
         \x20 no providers\n"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn a_path_that_does_not_exist_is_a_usage_error() {
    let tree = Tree::new();
    let output = tree.schemas(&["nowhere"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "tofu-lens schemas: nowhere: no such file or directory\n"
    );
    let empty = tree.schemas(&[]);
    assert_eq!(empty.status.code(), Some(0));
    assert_eq!(stdout(&empty), "");
}

/// The real time provider's package directory, when a plugin directory is named.
fn time_package() -> Option<PathBuf> {
    let plugins = match std::env::var_os("TOFU_LENS_PROVIDER_PLUGINS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("TOFU_LENS_PROVIDER_ORACLE")?).join("plugins"),
    };
    let package = plugins
        .join("registry.opentofu.org/hashicorp/time/0.14.2")
        .join(Platform::current().dir_name());
    assert!(package.is_dir(), "{} is not there", package.display());
    Some(package)
}

/// Installs the real time provider's `package` in `root` only, laid out
/// as `tofu init` does, with its lock file.
fn install_time(tree: &Tree, root: &str, package: &Path) {
    let installed = tree.path(&format!(
        "{root}/.terraform/providers/registry.opentofu.org/hashicorp/time/0.14.2"
    ));
    fs::create_dir_all(&installed).unwrap();
    std::os::unix::fs::symlink(package, installed.join(Platform::current().dir_name())).unwrap();
    tree.lock(
        root,
        &[(
            "registry.opentofu.org/hashicorp/time",
            "0.14.2",
            vec![package_hash_v1(package).unwrap()],
        )],
    );
}

#[test]
fn the_real_time_provider_is_read_once_for_its_root_and_the_module_it_calls() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let tree = Tree::new();
    tree.write(
        "stacks/prod/main.tf",
        "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nmodule \"timer\" {\n  source = \"../../modules/timer\"\n}\n",
    );
    tree.write(
        "modules/timer/main.tf",
        "resource \"time_sleep\" \"wait\" {\n  create_duration = \"30s\"\n}\n",
    );
    install_time(&tree, "stacks/prod", &package);
    let installed_shown = format!(
        "./stacks/prod/.terraform/providers/registry.opentofu.org/hashicorp/time/0.14.2/{}",
        Platform::current().dir_name()
    );
    let first = tree.schemas(&[]);
    assert_eq!(
        stdout(&first),
        format!(
            "./modules/timer (installed by its callers ./stacks/prod)\n\
             \x20 registry.opentofu.org/hashicorp/time 0.14.2: read from the provider {installed_shown}\n\
             ./stacks/prod (its own .terraform)\n\
             \x20 registry.opentofu.org/hashicorp/time 0.14.2: from the schema cache, for {installed_shown}\n"
        ),
        "{}",
        stderr(&first)
    );
    assert_eq!(first.status.code(), Some(0));
    // A second run starts nothing: the schema is in the cache.
    let second = tree.schemas(&["--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&second.stdout).unwrap();
    for module in report["modules"].as_array().unwrap() {
        let provider = &module["providers"][0];
        assert_eq!(provider["origin"], "cache", "{module}");
        assert_eq!(provider["version"], "0.14.2");
        assert_eq!(provider["root"], "./stacks/prod");
        assert!(provider["package_hash"]
            .as_str()
            .unwrap()
            .starts_with("h1:"));
    }
    assert!(tree
        .home
        .path()
        .join(".cache/tofu-lens/schemas/registry.opentofu.org/hashicorp/time/0.14.2")
        .is_dir());
}

#[test]
fn check_judges_a_called_module_with_the_provider_installed_in_its_root() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let tree = Tree::new();
    tree.write(
        "stacks/prod/main.tf",
        "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nmodule \"timer\" {\n  source = \"../../modules/timer\"\n}\n",
    );
    tree.write(
        "modules/timer/main.tf",
        "resource \"time_sleep\" \"wait\" {\n  create_duraton = \"30s\"\n}\n",
    );
    install_time(&tree, "stacks/prod", &package);
    // Recorded from OpenTofu 1.12.6 `tofu validate -json` in stacks/prod:
    // modules/timer/main.tf, line 2, column 3.
    let expected = ["./modules/timer/main.tf:2:3 unsupported-argument Unsupported argument"];
    // Not allowed to start it, with an empty cache: judged without a schema.
    let without = tree.check(&["--no-providers", "--format", "json"]);
    assert_eq!(
        found(&without),
        Vec::<String>::new(),
        "{}",
        stderr(&without)
    );
    assert_eq!(without.status.code(), Some(0));
    let with = tree.check(&["--format", "json"]);
    assert_eq!(found(&with), expected, "{}", stderr(&with));
    assert_eq!(with.status.code(), Some(1));
    // Now in the cache: no provider needs to start.
    let cached = tree.check(&["--no-providers", "--format", "json"]);
    assert_eq!(found(&cached), expected, "{}", stderr(&cached));
}

/// `FILE:LINE:COLUMN CODE SUMMARY` of each diagnostic `check --format json` printed.
fn found(output: &Output) -> Vec<String> {
    let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    printed
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| {
            format!(
                "{}:{}:{} {} {}",
                text(diagnostic, "/file"),
                diagnostic.pointer("/range/start/line").unwrap(),
                diagnostic.pointer("/range/start/column").unwrap(),
                text(diagnostic, "/code"),
                text(diagnostic, "/summary")
            )
        })
        .collect()
}

fn text<'a>(value: &'a serde_json::Value, pointer: &str) -> &'a str {
    value
        .pointer(pointer)
        .and_then(|found| found.as_str())
        .unwrap()
}

/// A module using hashicorp/time with values only its validators reject,
/// and, in `ok.tf`, the near misses that must stay silent: valid
/// durations and timestamps, unknown values (an input variable,
/// `count.index`, `each.key`), an absent optional argument.
const TIME_VALIDATED: &str = "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nvariable \"d\" {\n  type = string\n}\n\nresource \"time_sleep\" \"bad\" {\n  create_duration = \"10x\"\n}\n\nresource \"time_offset\" \"bad\" {\n  base_rfc3339 = \"yesterday\"\n  offset_days  = 1\n}\n\nresource \"time_rotating\" \"bad\" {\n  rfc3339       = \"2020-13-01T00:00:00Z\"\n  rotation_days = -1\n}\n";
const TIME_NEAR_MISS: &str = "resource \"time_sleep\" \"unknown\" {\n  create_duration = var.d\n}\n\nresource \"time_sleep\" \"counted\" {\n  count           = 2\n  create_duration = \"${count.index}q\"\n}\n\nresource \"time_sleep\" \"each\" {\n  for_each        = toset([\"1s\"])\n  create_duration = each.key\n}\n\nresource \"time_sleep\" \"good\" {\n  create_duration = \"30s\"\n}\n\nresource \"time_static\" \"good\" {\n  rfc3339 = \"2020-01-01T00:00:00Z\"\n}\n\nresource \"time_rotating\" \"good\" {\n  rotation_days = 1\n}\n";

#[test]
fn check_reports_what_the_time_providers_validators_say_as_tofu_validate_does() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let tree = Tree::new();
    tree.write("stack/main.tf", TIME_VALIDATED);
    tree.write("stack/ok.tf", TIME_NEAR_MISS);
    // A child whose provider is installed only in its caller, the root.
    tree.write(
        "stack/timer/main.tf",
        "resource \"time_sleep\" \"child\" {\n  destroy_duration = \"5 minutes\"\n}\n",
    );
    tree.write(
        "stack/calls.tf",
        "module \"timer\" {\n  source = \"./timer\"\n}\n",
    );
    install_time(&tree, "stack", &package);
    // Recorded from OpenTofu 1.12.6 `tofu validate -json` in stack (init
    // -plugin-dir, TF_CLI_CONFIG_FILE=/dev/null): these places and
    // summaries; the child's as `tofu validate` reports it in timer/.
    let expected = [
        "./stack/main.tf:15:21 provider-validation Invalid Attribute Value Match",
        "./stack/main.tf:19:18 provider-validation Invalid RFC3339 String Value",
        "./stack/main.tf:24:19 provider-validation Invalid RFC3339 String Value",
        "./stack/main.tf:25:19 provider-validation Invalid Attribute Value",
        "./stack/timer/main.tf:2:22 provider-validation Invalid Attribute Value Match",
    ];
    let with = tree.check(&["--format", "json"]);
    assert_eq!(found(&with), expected, "{}", stderr(&with));
    assert_eq!(with.status.code(), Some(1));
    // Not allowed to run providers: the schema comes from the cache, the
    // validators are not called.
    let without = tree.check(&["--no-providers", "--format", "json"]);
    assert_eq!(
        found(&without),
        Vec::<String>::new(),
        "{}",
        stderr(&without)
    );
}

/// Local values reach the validators as validate's walk knows them: a
/// chain of two, a template over another local value; a local value that
/// failed is not sent (its error is reported where it fails); one built
/// from an input variable is unknown, which validators let pass.
const TIME_FROM_LOCALS: &str = "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nresource \"time_sleep\" \"from_local\" {\n  create_duration = local.duration\n}\n\nresource \"time_rotating\" \"from_chain\" {\n  rotation_days = local.days\n}\n\nresource \"time_static\" \"good\" {\n  rfc3339 = local.stamp\n}\n\nresource \"time_static\" \"failed\" {\n  rfc3339 = local.broken\n}\n\nresource \"time_sleep\" \"unknown\" {\n  create_duration = local.from_variable\n}\n";
const TIME_LOCALS: &str = "variable \"d\" {\n  type = string\n}\n\nlocals {\n  duration      = \"${local.n} minutes\"\n  n             = 5\n  days          = [local.head][0]\n  head          = 0\n  stamp         = \"2020-01-01T00:00:00Z\"\n  broken        = [\"a\"][3]\n  from_variable = \"${var.d}x\"\n}\n";

#[test]
fn local_values_reach_the_time_providers_validators_as_in_tofu_validate() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let tree = Tree::new();
    tree.write("stack/main.tf", TIME_FROM_LOCALS);
    tree.write("stack/locals.tf", TIME_LOCALS);
    install_time(&tree, "stack", &package);
    // Recorded from OpenTofu 1.12.6 `tofu validate -json` in stack (init
    // -plugin-dir, TF_CLI_CONFIG_FILE=/dev/null).
    let expected = [
        "./stack/locals.tf:11:24 invalid-expression-value Invalid index",
        "./stack/main.tf:11:21 provider-validation Invalid Attribute Value Match",
        "./stack/main.tf:15:19 provider-validation Invalid Attribute Value",
    ];
    let with = tree.check(&["--format", "json"]);
    assert_eq!(found(&with), expected, "{}", stderr(&with));
}

/// Provider functions called with known arguments, in a root and in the
/// module it calls (whose provider is installed only in the root): the
/// values the provider rejects (`CallFunction`), beside near misses it
/// accepts, and an attribute the result does not have.
#[test]
fn check_calls_the_time_providers_functions_as_tofu_validate_does() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let tree = Tree::new();
    tree.write("stack/main.tf", "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nlocals {\n  bad  = provider::time::rfc3339_parse(\"yesterday\")\n  good = provider::time::rfc3339_parse(\"2024-01-01T00:00:00Z\").year\n}\n\noutput \"bad\" {\n  value = provider::time::duration_parse(\"10x\").hours\n}\n\noutput \"good\" {\n  value = provider::time::duration_parse(\"90m\").minutes + local.good\n}\n\nresource \"time_static\" \"bad\" {\n  rfc3339 = provider::time::unix_timestamp_parse(1700000000).rfc3339_text\n}\n\nmodule \"timer\" {\n  source = \"./timer\"\n}\n");
    tree.write("stack/timer/main.tf", "terraform {\n  required_providers {\n    time = {\n      source = \"hashicorp/time\"\n    }\n  }\n}\n\nlocals {\n  bad  = provider::time::rfc3339_parse(\"2024-02-30T00:00:00Z\")\n  good = provider::time::rfc3339_parse(\"2024-02-29T00:00:00Z\").weekday_name\n}\n");
    install_time(&tree, "stack", &package);
    // Recorded from OpenTofu 1.12.6 `tofu validate -json` in stack (init
    // -plugin-dir, TF_CLI_CONFIG_FILE=/dev/null).
    let expected = [
        "./stack/main.tf:11:41 invalid-function-call Invalid function argument",
        "./stack/main.tf:16:43 invalid-function-call Invalid function argument",
        "./stack/main.tf:24:61 invalid-expression-value Unsupported attribute",
        "./stack/timer/main.tf:10:41 invalid-function-call Invalid function argument",
    ];
    let with = tree.check(&["--format", "json"]);
    assert_eq!(found(&with), expected, "{}", stderr(&with));
    let printed: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    assert_eq!(
        printed[0]["detail"],
        "Invalid value for \"timestamp\" parameter: Error parsing RFC3339 timestamp: \"yesterday\" is not a valid RFC3339 timestamp."
    );
    // Without the provider, its signatures alone (from the schema cache).
    let without = tree.check(&["--no-providers", "--format", "json"]);
    assert_eq!(
        found(&without),
        ["./stack/main.tf:24:61 invalid-expression-value Unsupported attribute"],
        "{}",
        stderr(&without)
    );
}

/// The same module written in JSON: values read as HCL's JSON syntax
/// evaluates them (a template is evaluated, `${var.d}` is unknown and
/// not judged), diagnostics placed on the JSON values, and a missing
/// argument on the body's closing `}`; a JSON local value read by a
/// native body.
const TIME_VALIDATED_JSON: &str = r#"{
  "terraform": {
    "required_providers": {
      "time": {"source": "hashicorp/time", "version": "0.14.2"}
    }
  },
  "variable": {"d": {"type": "string"}},
  "resource": {
    "time_sleep": {
      "bad": {"create_duration": "10x"},
      "tpl": {"create_duration": "${\"1\"}0x"},
      "unknown": {"create_duration": "${var.d}"},
      "good": {"create_duration": "${\"1\"}0s"}
    },
    "time_offset": {
      "bad": {"base_rfc3339": "yesterday", "offset_days": 1}
    },
    "time_rotating": {
      "bad": {"rfc3339": "2020-13-01T00:00:00Z", "rotation_days": -1},
      "none": {"triggers": {"a": "b"}}
    }
  }
}
"#;

#[test]
fn check_sends_json_bodies_to_the_time_providers_validators_as_tofu_validate_does() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let tree = Tree::new();
    tree.write("stack/main.tf.json", TIME_VALIDATED_JSON);
    // A local value written in JSON reaches a native body's validator.
    tree.write(
        "stack/locals.tf.json",
        "{\"locals\": {\"duration\": \"${local.n}x\", \"n\": 5}}\n",
    );
    tree.write(
        "stack/native.tf",
        "resource \"time_sleep\" \"from_json_local\" {\n  create_duration = local.duration\n}\n",
    );
    install_time(&tree, "stack", &package);
    // Recorded from OpenTofu 1.12.6 `tofu validate -json` in stack (init
    // -plugin-dir, TF_CLI_CONFIG_FILE=/dev/null).
    let expected = [
        "./stack/main.tf.json:10:34 provider-validation Invalid Attribute Value Match",
        "./stack/main.tf.json:11:34 provider-validation Invalid Attribute Value Match",
        "./stack/main.tf.json:16:31 provider-validation Invalid RFC3339 String Value",
        "./stack/main.tf.json:19:26 provider-validation Invalid RFC3339 String Value",
        "./stack/main.tf.json:19:67 provider-validation Invalid Attribute Value",
        "./stack/main.tf.json:20:38 provider-validation Missing Attribute Configuration",
        "./stack/native.tf:2:21 provider-validation Invalid Attribute Value Match",
    ];
    let with = tree.check(&["--format", "json"]);
    assert_eq!(found(&with), expected, "{}", stderr(&with));
}

/// The console calls a provider function a local value calls, where the
/// provider is installed, as `tofu console` does after `tofu init`
/// (OpenTofu 1.12.6's console printed the same `"July"` and the same
/// provider error); `--no-providers` leaves it unknown.
#[test]
fn the_console_calls_the_real_time_provider_s_functions() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let tree = Tree::new();
    tree.write(
        "root/main.tf",
        "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nlocals {\n  parsed = provider::time::rfc3339_parse(\"2023-07-25T23:43:16Z\")\n}\n",
    );
    install_time(&tree, "root", &package);
    let called = tree.console(&["root"], "local.parsed.month_name\n");
    assert_eq!(stdout(&called), "\"July\"\n", "{}", stderr(&called));
    assert_eq!(called.status.code(), Some(0));
    let unknown = tree.console(&["root", "--no-providers"], "local.parsed.month_name\n");
    assert_eq!(
        stdout(&unknown),
        "(known after apply)\n",
        "{}",
        stderr(&unknown)
    );

    // The provider's own error, in the module's problems the console
    // prints first.
    tree.write(
        "root/bad.tf",
        "locals {\n  bad = provider::time::rfc3339_parse(\"bad\")\n}\n",
    );
    let failed = tree.console(&["root"], "local.parsed.year\n");
    assert!(
        stderr(&failed).contains("\"bad\" is not a valid RFC3339 timestamp."),
        "{}",
        stderr(&failed)
    );
    assert!(stdout(&failed).ends_with("2023\n"), "{}", stdout(&failed));
}

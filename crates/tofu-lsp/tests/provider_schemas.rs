//! Provider schemas in the language server, end to end, with the real
//! hashicorp/time provider: a workspace whose root module `stacks/prod`
//! has it installed as `tofu init` lays it out (a link to the package and
//! a lock file with its hash), and calls `modules/timer`, which has no
//! `.terraform` of its own. The schema is read in the background after
//! the first analysis, with `$/progress`; the diagnostics it brings were
//! recorded from OpenTofu 1.12.6 `tofu validate -json` in `stacks/prod`:
//!
//! ```text
//! main.tf 15:3            Unsupported argument: An argument named "rotation_dayz" is not expected here. Did you mean "rotation_days"?
//! ../../modules/timer/main.tf 2:3   (the same)
//! ```
//!
//! `a_provider_installed_while_the_server_runs_brings_its_schema` starts
//! the server before the install, then lays the package and the lock file
//! out as `tofu init` does and reports them as an editor's file watcher
//! does: the same diagnostics appear without a restart.
//!
//! The provider comes from `TOFU_LENS_PROVIDER_PLUGINS` (CI builds it,
//! `.ci/run`; locally `/work/oracle/plugins`), else
//! `TOFU_LENS_PROVIDER_ORACLE`'s `plugins/`; without either the tests say
//! so and pass without running it. Each server gets a schema cache of its
//! own in a temporary directory: a provider that runs stores its schema
//! there, so a cache without it after a session shows that none ran.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stderr
)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{capabilities, codes, test_options, uri, TestClient};
use serde_json::{json, Value};
use tofu_schema::install::{package_hash_v1, Platform};
use tofu_schema::ProviderEnvironment;

const PROD: &str = "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nmodule \"timer\" {\n  source = \"../../modules/timer\"\n}\n\nresource \"time_rotating\" \"r\" {\n  rotation_dayz = 1\n}\n";
const TIMER: &str = "resource \"time_rotating\" \"c\" {\n  rotation_dayz = 1\n}\n";
const UNSUPPORTED: &str =
    "An argument named \"rotation_dayz\" is not expected here. Did you mean \"rotation_days\"?";

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

/// The workspace (see the module doc) and an empty schema cache.
struct Workspace {
    _temp: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
}

impl Workspace {
    fn new(package: &Path) -> Workspace {
        let workspace = Workspace::without_install();
        workspace.install(package);
        workspace
    }

    /// The workspace before `tofu init`: no `.terraform`, no lock file.
    fn without_install() -> Workspace {
        let temp = tempfile::tempdir().unwrap();
        let base = temp.path().canonicalize().unwrap();
        let root = base.join("workspace");
        let cache = base.join("cache");
        fs::create_dir_all(&cache).unwrap();
        for (name, text) in [
            ("stacks/prod/main.tf", PROD),
            ("modules/timer/main.tf", TIMER),
        ] {
            let path = root.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        Workspace {
            _temp: temp,
            root,
            cache,
        }
    }

    /// Installs the time provider in `stacks/prod` as `tofu init
    /// -plugin-dir` does (a link to the package, a lock file with its
    /// hash); returns the paths written, as a file watcher reports them.
    fn install(&self, package: &Path) -> Vec<PathBuf> {
        let installed = self
            .root
            .join("stacks/prod/.terraform/providers/registry.opentofu.org/hashicorp/time/0.14.2");
        fs::create_dir_all(&installed).unwrap();
        let link = installed.join(Platform::current().dir_name());
        std::os::unix::fs::symlink(package, &link).unwrap();
        let hash = package_hash_v1(package).unwrap();
        let lock_file = self.root.join("stacks/prod/.terraform.lock.hcl");
        fs::write(
            &lock_file,
            format!("provider \"registry.opentofu.org/hashicorp/time\" {{\n  version = \"0.14.2\"\n  hashes = [\n    \"{hash}\",\n  ]\n}}\n"),
        )
        .unwrap();
        vec![link, lock_file]
    }

    fn prod(&self) -> PathBuf {
        self.root.join("stacks/prod/main.tf")
    }

    fn timer(&self) -> PathBuf {
        self.root.join("modules/timer/main.tf")
    }

    /// Starts a server on the workspace with this schema cache, providers
    /// allowed to run or not.
    async fn start(&self, run_providers: bool) -> TestClient {
        let options = tofu_lsp::ServerOptions {
            provider_environment: Some(ProviderEnvironment {
                schema_cache_dir: Some(self.cache.clone()),
                ..ProviderEnvironment::bare(Platform::current())
            }),
            ..test_options()
        };
        let settings = json!({
            "diagnostics": {"severity": {"unused-declaration": "off"}},
            "schemas": {"runProviders": run_providers}
        });
        TestClient::start_with_options(&self.root, capabilities(), settings, Value::Null, options)
            .await
    }

    /// True when the provider ran: its schema is in the cache (which also
    /// keeps package hashes, computed without running anything).
    fn schema_cached(&self) -> bool {
        self.cache
            .join("registry.opentofu.org/hashicorp/time/0.14.2")
            .is_dir()
    }
}

/// Waits until the schemas of `stacks/prod` were read (the progress
/// ends naming it) and returns the end's message.
async fn prod_schemas_read(client: &mut TestClient) -> String {
    let end = client
        .wait_for("$/progress", |params| {
            params["token"]
                .as_str()
                .is_some_and(|token| token.starts_with("tofu-lens/schemas/"))
                && params["value"]["kind"] == "end"
                && params["value"]["message"]
                    .as_str()
                    .is_some_and(|message| message.starts_with("prod:"))
        })
        .await;
    end["value"]["message"].as_str().unwrap().to_owned()
}

/// Waits for diagnostics of `path` with "Unsupported argument" and returns
/// the range's start of each, as `line:character`.
async fn unsupported_arguments(client: &mut TestClient, path: &Path) -> Vec<String> {
    let params = client
        .wait_for_diagnostics(path, |params| {
            codes(params)
                .iter()
                .any(|code| code == "unsupported-argument")
        })
        .await;
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| {
            assert!(
                diagnostic["message"]
                    .as_str()
                    .unwrap()
                    .contains(UNSUPPORTED),
                "{diagnostic}"
            );
            let start = &diagnostic["range"]["start"];
            format!("{}:{}", start["line"], start["character"])
        })
        .collect()
}

/// The diagnostics OpenTofu reports once the schema is read: in the root,
/// and in the child installed only in its caller's `.terraform`.
async fn root_and_child_report_the_misspelt_argument(
    client: &mut TestClient,
    workspace: &Workspace,
) {
    assert_eq!(
        unsupported_arguments(client, &workspace.prod()).await,
        ["14:2"]
    );
    assert_eq!(
        unsupported_arguments(client, &workspace.timer()).await,
        ["1:2"]
    );
}

/// The labels completion offers at the end of `resource "time_` in a
/// new file of `stacks/prod`.
async fn resource_type_completion(client: &mut TestClient, workspace: &Workspace) -> Vec<String> {
    let typing = workspace.root.join("stacks/prod/typing.tf");
    client.open(&typing, 1, "resource \"time_\n");
    let items = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri(&typing)}, "position": {"line": 0, "character": 15}}),
        )
        .await;
    items
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["label"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_schema_read_for_a_root_judges_it_and_the_module_it_calls() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let workspace = Workspace::new(&package);
    let mut client = workspace.start(true).await;
    root_and_child_report_the_misspelt_argument(&mut client, &workspace).await;
    assert_eq!(
        prod_schemas_read(&mut client).await,
        "prod: 1 of 1 provider schemas"
    );
    let reports: Vec<Value> = client.drain("$/progress");
    assert!(
        reports.iter().any(|params| params["value"]["message"]
            .as_str()
            .is_some_and(|message| message == "registry.opentofu.org/hashicorp/time")),
        "{reports:?}"
    );
    let labels = resource_type_completion(&mut client, &workspace).await;
    assert!(
        labels.iter().any(|label| label == "time_rotating"),
        "{labels:?}"
    );
    assert!(workspace.schema_cached());
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn run_providers_false_starts_none_and_still_reads_the_schema_cache() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let workspace = Workspace::new(&package);
    // Not allowed to run it, with an empty cache: no schema.
    let mut client = workspace.start(false).await;
    assert_eq!(
        prod_schemas_read(&mut client).await,
        "prod: 0 of 1 provider schemas"
    );
    client.open(&workspace.prod(), 1, PROD);
    let published = client
        .wait_for_diagnostics(&workspace.prod(), |params| params["version"] == 1)
        .await;
    assert_eq!(codes(&published), Vec::<String>::new());
    let labels = resource_type_completion(&mut client, &workspace).await;
    assert!(
        !labels.iter().any(|label| label.starts_with("time_")),
        "{labels:?}"
    );
    assert!(!workspace.schema_cached(), "a provider ran");
    client.shutdown().await;

    // Allowed: it runs once, and its schema is cached.
    let mut client = workspace.start(true).await;
    assert_eq!(
        unsupported_arguments(&mut client, &workspace.prod()).await,
        ["14:2"]
    );
    client.shutdown().await;
    assert!(workspace.schema_cached());

    // Not allowed again: the cache still gives the schema.
    let mut client = workspace.start(false).await;
    assert_eq!(
        unsupported_arguments(&mut client, &workspace.prod()).await,
        ["14:2"]
    );
    client.shutdown().await;
}

/// `stacks/prod/main.tf` with a duration only the provider's validator
/// rejects, and near misses that must stay silent (a valid duration, one
/// from an input variable). OpenTofu 1.12.6 `tofu validate -json` reports
/// "Invalid Attribute Value Match" at main.tf 20:21 (LSP 19:20), the
/// quoted "10x".
const VALIDATED: &str = "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nmodule \"timer\" {\n  source = \"../../modules/timer\"\n}\n\nvariable \"d\" {\n  type    = string\n  default = \"1s\"\n}\n\nresource \"time_sleep\" \"bad\" {\n  create_duration = \"10x\"\n}\n\nresource \"time_sleep\" \"good\" {\n  create_duration  = \"30s\"\n  destroy_duration = var.d\n}\n";

/// Waits for diagnostics of `path` (of document version `version`) with
/// `provider-validation` present or absent; the starts of those present.
async fn provider_validations(
    client: &mut TestClient,
    path: &Path,
    version: i32,
    present: bool,
) -> Vec<String> {
    let params = client
        .wait_for_diagnostics(path, |params| {
            params["version"] == version
                && codes(params)
                    .iter()
                    .any(|code| code == "provider-validation")
                    == present
        })
        .await;
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|diagnostic| diagnostic["code"] == "provider-validation")
        .map(|diagnostic| {
            let start = &diagnostic["range"]["start"];
            format!(
                "{}:{} {}",
                start["line"],
                start["character"],
                diagnostic["message"]
                    .as_str()
                    .unwrap()
                    .lines()
                    .next()
                    .unwrap()
            )
        })
        .collect()
}

/// The processes whose command line names a file under `root`: the
/// providers installed there, started by this test's server.
fn providers_running_from(root: &Path) -> Vec<u32> {
    let root = root.to_string_lossy().into_owned();
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let cmdline = fs::read(entry.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(&root)
                .then_some(pid)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_providers_validators_are_published_kept_running_and_reaped_on_shutdown() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let workspace = Workspace::new(&package);
    let mut client = workspace.start(true).await;
    client.open(&workspace.prod(), 1, VALIDATED);
    let expected = ["19:20 Invalid Attribute Value Match"];
    assert_eq!(
        provider_validations(&mut client, &workspace.prod(), 1, true).await,
        expected
    );
    // A pull answers with the validators' diagnostics too.
    let pulled = client
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri(&workspace.prod())}}),
        )
        .await;
    let pulled_codes: Vec<&str> = pulled["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|diagnostic| diagnostic["code"].as_str())
        .collect();
    assert_eq!(pulled_codes, ["provider-validation"], "{pulled}");
    // One process for the workspace, kept between rounds.
    let running = providers_running_from(&workspace.root);
    assert_eq!(running.len(), 1, "{running:?}");
    // Fixed: gone with the edit.
    client.change(&workspace.prod(), 2, [19, 21, 19, 24], "10s");
    assert_eq!(
        provider_validations(&mut client, &workspace.prod(), 2, false).await,
        Vec::<String>::new()
    );
    // Broken again: reported again, by the same process.
    client.change(&workspace.prod(), 3, [19, 21, 19, 24], "10x");
    assert_eq!(
        provider_validations(&mut client, &workspace.prod(), 3, true).await,
        expected
    );
    assert_eq!(providers_running_from(&workspace.root), running);
    // Killed from outside (a crash): the next round starts it again.
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &running[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    client.change(&workspace.prod(), 4, [19, 21, 19, 24], "11x");
    assert_eq!(
        provider_validations(&mut client, &workspace.prod(), 4, true).await,
        expected
    );
    let running = providers_running_from(&workspace.root);
    assert_eq!(running.len(), 1, "{running:?}");
    client.shutdown().await;
    for pid in running {
        assert!(
            !Path::new("/proc").join(pid.to_string()).exists(),
            "the provider {pid} outlived the server's shutdown"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_installed_while_the_server_runs_brings_its_schema() {
    let Some(package) = time_package() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run");
        return;
    };
    let workspace = Workspace::without_install();
    let mut client = workspace.start(true).await;
    // Nothing installed: nothing is left to read, so the schemas are
    // settled while indexing, without a progress of their own
    // (`provider_schemas::at_hand`).
    client
        .wait_for("$/progress", |params| {
            params["token"]
                .as_str()
                .is_some_and(|token| token.starts_with("tofu-lens/indexing/"))
                && params["value"]["kind"] == "end"
        })
        .await;
    // The client was asked to watch what `tofu init` writes.
    let globs: Vec<String> = client
        .registrations
        .iter()
        .flat_map(|params| params["registrations"].as_array().unwrap().clone())
        .filter(|registration| registration["method"] == "workspace/didChangeWatchedFiles")
        .flat_map(|registration| {
            registration["registerOptions"]["watchers"]
                .as_array()
                .unwrap()
                .clone()
        })
        .filter_map(|watcher| watcher["globPattern"].as_str().map(str::to_owned))
        .collect();
    for glob in ["**/.terraform.lock.hcl", "**/.terraform/providers/**"] {
        assert!(globs.iter().any(|watched| watched == glob), "{globs:?}");
    }
    // `tofu init` in a terminal: the package and the lock file appear, and
    // the editor reports them.
    let written = workspace.install(&package);
    let changes: Vec<Value> = written
        .iter()
        .map(|path| json!({"uri": uri(path), "type": 1}))
        .collect();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": changes }),
    );
    root_and_child_report_the_misspelt_argument(&mut client, &workspace).await;
    assert!(workspace.schema_cached());
    client.shutdown().await;
}

/// A package that does not match the lock file is never run, and the
/// server says so where `tofu validate` fails (issue 47, part 6): on the
/// `required_providers` entry of `stacks/prod`, in OpenTofu's words. No
/// real provider is needed: the package is a file that never runs.
#[tokio::test(flavor = "multi_thread")]
async fn a_package_that_does_not_match_the_lock_file_is_reported() {
    let workspace = Workspace::without_install();
    let fake = workspace.cache.parent().unwrap().join("fake-package");
    fs::create_dir_all(&fake).unwrap();
    fs::write(
        fake.join("terraform-provider-time_v0.14.2"),
        "#!/bin/sh\nexit 1\n",
    )
    .unwrap();
    let [_, lock_file] = <[PathBuf; 2]>::try_from(workspace.install(&fake)).unwrap();
    let locked = fs::read_to_string(&lock_file).unwrap();
    let hash = package_hash_v1(&fake).unwrap();
    fs::write(
        &lock_file,
        locked.replace(&hash, "h1:08eov2Ls9iQ/g6nDlwjVk+fGB6Wo7X4CvmgitYg3LP4="),
    )
    .unwrap();
    let mut client = workspace.start(true).await;
    let params = client
        .wait_for_diagnostics(&workspace.prod(), |params| {
            codes(params)
                .iter()
                .any(|code| code == "provider-package-mismatch")
        })
        .await;
    let mismatch = params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|diagnostic| diagnostic["code"] == "provider-package-mismatch")
        .unwrap();
    assert_eq!(
        mismatch["range"]["start"],
        json!({"line": 2, "character": 4})
    );
    assert!(
        mismatch["message"].as_str().unwrap().ends_with(
            "the cached package for registry.opentofu.org/hashicorp/time 0.14.2 (in .terraform/providers) does not match any of the checksums recorded in the dependency lock file, run tofu init to ensure all providers are correctly installed"
        ),
        "{mismatch}"
    );
    assert!(!workspace.schema_cached(), "nothing ran");
}

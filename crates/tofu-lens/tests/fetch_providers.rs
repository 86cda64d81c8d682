//! `check --fetch-providers` on a module nothing was installed for: the
//! real hashicorp/time provider, zipped and served by a test HTTPS
//! registry (tofu-fetch's `tests/support`, a test CA trusted through
//! `SSL_CERT_FILE` as OpenTofu trusts one), found through a CLI
//! configuration `host` block, fetched, verified, run for its schema;
//! then used from the cache with the registry gone; and a fault said once.
//! The language server does the same in the background where
//! `schemas.fetchProviders` is on, with a cancellable `$/progress`, and
//! nothing where it is off.
//!
//! The provider comes from `TOFU_LENS_PROVIDER_PLUGINS` (CI builds it);
//! without it the tests say so and pass having done nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

#[path = "../../tofu-fetch/tests/support/mod.rs"]
mod support;

#[path = "../../tofu-lsp/tests/common/mod.rs"]
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{data, serve_registry, zip, Release, TestServer};
use tofu_schema::install::Platform;

fn time_executable() -> Option<PathBuf> {
    let plugins = PathBuf::from(std::env::var_os("TOFU_LENS_PROVIDER_PLUGINS")?);
    let executable = plugins
        .join("registry.opentofu.org/hashicorp/time/0.14.2")
        .join(Platform::current().dir_name())
        .join("terraform-provider-time_v0.14.2");
    assert!(
        executable.is_file(),
        "{} is not there",
        executable.display()
    );
    Some(executable)
}

/// A home with a CLI configuration sending registry.opentofu.org to
/// `registry` (a base URL), and a cache.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new(registry: &str) -> Home {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("tofurc"),
            format!(
                "host \"registry.opentofu.org\" {{\n  services = {{\n    \"providers.v1\" = \"{registry}/v1/providers/\"\n  }}\n}}\n"
            ),
        )
        .unwrap();
        Home { dir }
    }

    fn check(&self, module: &Path, extra: &[&str]) -> Output {
        self.run("check", module, extra)
    }

    /// `tofu-lens schemas --format json`, its report.
    fn schemas(&self, module: &Path, extra: &[&str]) -> serde_json::Value {
        let mut args = vec!["--format", "json"];
        args.extend(extra);
        let output = self.run("schemas", module, &args);
        serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|error| panic!("{error}: {}", String::from_utf8_lossy(&output.stderr)))
    }

    fn run(&self, command: &str, module: &Path, extra: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_tofu-lens"))
            .arg(command)
            .args(extra)
            .arg(module)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.path())
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"))
            .env("TF_CLI_CONFIG_FILE", self.dir.path().join("tofurc"))
            .env("SSL_CERT_FILE", data("ca.pem"))
            .output()
            .unwrap()
    }
}

fn module(dir: &Path, lock: Option<&str>) -> PathBuf {
    let module = dir.join("module");
    fs::create_dir_all(&module).unwrap();
    fs::write(
        module.join("main.tf"),
        "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"~> 0.14\"\n    }\n  }\n}\n\nresource \"time_static\" \"t\" {\n  triggers = {}\n  bogus    = 1\n}\n\nresource \"time_sleep\" \"s\" {\n  create_duration = \"10x\"\n}\n",
    )
    .unwrap();
    if let Some(lock) = lock {
        fs::write(module.join(".terraform.lock.hcl"), lock).unwrap();
    }
    module
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_fetched_provider_judges_the_module_and_stays_in_the_cache() {
    let Some(executable) = time_executable() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: nothing was fetched");
        return;
    };
    let binary = fs::read(&executable).unwrap();
    let archive = zip(&[("terraform-provider-time_v0.14.2", &binary)]);
    let server = TestServer::start();
    serve_registry(
        &server,
        &[
            Release::new("time", "0.14.2", archive),
            Release::new("time", "1.0.0", zip(&[("x", b"never fetched")])),
        ],
        &[],
    );
    let home = Home::new(&server.base);
    let work = tempfile::tempdir().unwrap();
    let module = module(work.path(), None);

    // Without the flag nothing goes over the network: no schema.
    let (out, _) = text(&home.check(&module, &[]));
    assert!(!out.contains("Unsupported argument"), "{out}");
    assert!(server.requests().is_empty(), "{:?}", server.requests());

    let fetched = home.check(&module, &["--fetch-providers"]);
    let (out, err) = text(&fetched);
    assert!(
        out.contains("Unsupported argument") && out.contains("\"bogus\""),
        "stdout: {out}\nstderr: {err}"
    );
    assert_eq!(fetched.status.code(), Some(1));
    // The fetched provider's own validators run too, as validate calls them.
    assert!(out.contains("10x"), "stdout: {out}\nstderr: {err}");
    // The newest version `~> 0.14` accepts, not 1.0.0.
    let package = home
        .dir
        .path()
        .join("cache/tofu-lens/packages/registry.opentofu.org/hashicorp/time")
        .join(format!(
            "terraform-provider-time_0.14.2_{}.zip",
            Platform::current().dir_name()
        ));
    assert!(package.is_file(), "{}", package.display());
    assert!(
        !module.join(".terraform").exists(),
        "the module is never written to"
    );
    assert!(!module.join(".terraform.lock.hcl").exists());

    // The registry gone: the cache still gives it, without the flag.
    let gone = Home::new("https://127.0.0.1:9");
    fs::rename(home.dir.path().join("cache"), gone.dir.path().join("cache")).unwrap();
    let (out, err) = text(&gone.check(&module, &[]));
    assert!(
        out.contains("Unsupported argument"),
        "stdout: {out}\nstderr: {err}"
    );
}

#[test]
fn a_package_that_fails_verification_is_said_once_and_never_run() {
    let server = TestServer::start();
    let mut release = Release::new(
        "time",
        "0.14.2",
        zip(&[("terraform-provider-time_v0.14.2", b"#!/bin/sh\nexit 1\n")]),
    );
    release.signer = "other";
    serve_registry(&server, &[release], &[]);
    let home = Home::new(&server.base);
    let work = tempfile::tempdir().unwrap();
    let module = module(work.path(), None);
    let (out, err) = text(&home.check(&module, &["--fetch-providers"]));
    assert_eq!(
        err.matches("could not fetch registry.opentofu.org/hashicorp/time")
            .count(),
        1,
        "{err}"
    );
    assert!(err.contains("unknown issuer"), "{err}");
    assert!(
        out.contains("No schema for provider registry.opentofu.org/hashicorp/time"),
        "{out}"
    );
    assert!(!out.contains("Unsupported argument"), "{out}");
    let packages = home.dir.path().join("cache/tofu-lens/packages");
    let kept: Vec<_> = walk(&packages);
    assert!(kept.is_empty(), "{kept:?}");
    // `schemas --fetch-providers` gives the reason.
    let report = home.schemas(&module, &["--fetch-providers"]);
    let provider = &report["modules"][0]["providers"][0];
    assert_eq!(provider["status"], "missing", "{report}");
    assert_eq!(provider["reason"], "fetch-failed", "{report}");
    assert!(
        provider["message"]
            .as_str()
            .is_some_and(|message| message.contains("unknown issuer")),
        "{report}"
    );
}

#[test]
fn the_lock_files_version_and_hashes_are_what_is_fetched() {
    let server = TestServer::start();
    let archive = zip(&[("terraform-provider-time_v0.14.1", b"not run")]);
    serve_registry(
        &server,
        &[
            Release::new("time", "0.14.1", archive),
            Release::new("time", "0.14.2", zip(&[("y", b"newer")])),
        ],
        &[],
    );
    let home = Home::new(&server.base);
    let work = tempfile::tempdir().unwrap();
    // The lock file pins 0.14.1 with a hash the package does not have.
    let module = module(
        work.path(),
        Some(&format!(
            "provider \"registry.opentofu.org/hashicorp/time\" {{\n  version = \"0.14.1\"\n  hashes = [\n    \"zh:{}\",\n  ]\n}}\n",
            "00".repeat(32)
        )),
    );
    let (_, err) = text(&home.check(&module, &["--fetch-providers"]));
    assert!(err.contains("hashicorp/time 0.14.1"), "{err}");
    assert!(err.contains("dependency lock file"), "{err}");
    let asked: Vec<String> = server
        .requests()
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert!(
        asked.iter().all(|path| !path.contains("0.14.2")),
        "{asked:?}"
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.path().is_dir() {
            out.extend(walk(&entry.path()));
        } else {
            out.push(entry.path());
        }
    }
    out
}

/// A server on `root` whose fetches go to `server` (trusting the test CA
/// directly), caches under `home`, with `fetchProviders` as given.
async fn lsp(root: &Path, home: &Path, server: &TestServer, fetch: bool) -> common::TestClient {
    let settings = serde_json::json!({
        "diagnostics": {"severity": {"unused-declaration": "off"}},
        "schemas": {"fetchProviders": fetch}
    });
    lsp_with(root, home, server, settings, serde_json::Value::Null).await
}

/// [`lsp`] with the settings given at start, and what the client answers
/// when the server pulls them (`workspace/configuration`).
async fn lsp_with(
    root: &Path,
    home: &Path,
    server: &TestServer,
    settings: serde_json::Value,
    configuration: serde_json::Value,
) -> common::TestClient {
    let mut config = tofu_fetch::FetchConfig::new(Platform::current());
    config.hosts.insert(
        "registry.opentofu.org".to_owned(),
        std::collections::BTreeMap::from([(
            "providers.v1".to_owned(),
            format!("{}/v1/providers/", server.base),
        )]),
    );
    config.http.roots = tofu_fetch::TrustedRoots::PemFiles(vec![data("ca.pem")]);
    let options = tofu_lsp::ServerOptions {
        provider_environment: Some(tofu_schema::ProviderEnvironment {
            schema_cache_dir: Some(home.join("schemas")),
            fetched_dir: Some(home.join("packages")),
            ..tofu_schema::ProviderEnvironment::bare(Platform::current())
        }),
        fetch_config: Some(config),
        ..common::test_options()
    };
    common::TestClient::start_with_options(
        root,
        common::capabilities(),
        settings,
        configuration,
        options,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_fetches_in_the_background_where_the_setting_is_on() {
    let Some(executable) = time_executable() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: nothing was fetched");
        return;
    };
    let binary = fs::read(&executable).unwrap();
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new(
            "time",
            "0.14.2",
            zip(&[("terraform-provider-time_v0.14.2", &binary)]),
        )],
        &[],
    );
    let work = tempfile::tempdir().unwrap();
    let module = module(work.path(), None);
    let home = tempfile::tempdir().unwrap();
    let mut client = lsp(&module, home.path(), &server, true).await;
    let end = client
        .wait_for("$/progress", |params| {
            params["token"]
                .as_str()
                .is_some_and(|token| token.starts_with("tofu-lens/fetch/"))
                && params["value"]["kind"] == "end"
        })
        .await;
    assert_eq!(
        end["value"]["message"],
        "registry.opentofu.org/hashicorp/time 0.14.2: fetched and verified"
    );
    let main = module.join("main.tf");
    let published = client
        .wait_for_diagnostics(&main, |params| {
            common::codes(params)
                .iter()
                .any(|code| code == "unsupported-argument")
        })
        .await;
    assert!(published.to_string().contains("bogus"), "{published}");
    // Hover on an argument says where its schema came from.
    let text = fs::read_to_string(&main).unwrap();
    let line = text
        .lines()
        .position(|line| line.contains("triggers"))
        .unwrap();
    client.open(&main, 1, &text);
    let hover = client
        .request(
            "textDocument/hover",
            serde_json::json!({
                "textDocument": {"uri": common::uri(&main)},
                "position": {"line": line, "character": 4}
            }),
        )
        .await;
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        markdown.contains(
            "Schema of `registry.opentofu.org/hashicorp/time` 0.14.2, fetched and verified by tofu-lens"
        ),
        "{hover}"
    );
    client.shutdown().await;
    assert!(!module.join(".terraform").exists());

    // With the setting off, a new server still uses what the cache holds,
    // and asks nothing of the registry.
    let asked = server.requests().len();
    let mut offline = lsp(&module, home.path(), &server, false).await;
    let published = offline
        .wait_for_diagnostics(&main, |params| {
            common::codes(params)
                .iter()
                .any(|code| code == "unsupported-argument")
        })
        .await;
    assert!(published.to_string().contains("bogus"), "{published}");
    offline.shutdown().await;
    assert_eq!(server.requests().len(), asked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_fetches_nothing_where_the_setting_is_off() {
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new("time", "0.14.2", zip(&[("x", b"p")]))],
        &[],
    );
    let work = tempfile::tempdir().unwrap();
    let module = module(work.path(), None);
    let home = tempfile::tempdir().unwrap();
    let mut client = lsp(&module, home.path(), &server, false).await;
    client.settled_publications().await;
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    assert!(client
        .drain("$/progress")
        .iter()
        .all(|params| !params["token"]
            .as_str()
            .unwrap_or_default()
            .starts_with("tofu-lens/fetch/")));
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turning_the_setting_on_while_the_server_runs_fetches() {
    let Some(executable) = time_executable() else {
        eprintln!("TOFU_LENS_PROVIDER_PLUGINS is not set: nothing was fetched");
        return;
    };
    let binary = fs::read(&executable).unwrap();
    let server = TestServer::start();
    serve_registry(
        &server,
        &[Release::new(
            "time",
            "0.14.2",
            zip(&[("terraform-provider-time_v0.14.2", &binary)]),
        )],
        &[],
    );
    let work = tempfile::tempdir().unwrap();
    let module = module(work.path(), None);
    let home = tempfile::tempdir().unwrap();
    // Off when it starts; what the client answers when the server pulls
    // the settings again says on.
    let mut client = lsp_with(
        &module,
        home.path(),
        &server,
        serde_json::json!({"schemas": {"fetchProviders": false}}),
        serde_json::json!({"schemas": {"fetchProviders": true}}),
    )
    .await;
    client.settled_publications().await;
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    client.notify(
        "workspace/didChangeConfiguration",
        serde_json::json!({"settings": null}),
    );
    let main = module.join("main.tf");
    let published = client
        .wait_for_diagnostics(&main, |params| {
            common::codes(params)
                .iter()
                .any(|code| code == "unsupported-argument")
        })
        .await;
    assert!(published.to_string().contains("bogus"), "{published}");
    client.shutdown().await;
}

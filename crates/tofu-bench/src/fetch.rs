//! `fetch-first-completion`: how long a fresh module with nothing
//! installed waits for completion from its provider's schema (issue 47).
//! tofu-fetch's test registry (its example program) serves the real
//! hashicorp/time provider over HTTPS on loopback; the server runs with
//! `schemas.fetchProviders` on and a CLI configuration pointing at it. Each
//! run opens `rotation.tf` (a `time_rotating` body holding `rot`) and asks
//! for completion there every 10 ms until `rotation_days` is offered.
//!
//! - `fetch-first-completion-cold`: an empty cache: the package is
//!   fetched, verified, unpacked and run for its schema;
//! - `fetch-first-completion-cached`: a new server on the cache the cold
//!   run filled (the package and its schema kept);
//! - `fetch-download`, the baseline measured in the same run: the same
//!   package's bytes downloaded from the same registry through the same
//!   HTTP client, nothing else; the goal is cold − download ≤ 2 s, and
//!   cached ≤ 50 ms.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::lsp::{file_uri, Client, Result};
use crate::sample::Sample;

const MODULE: &str = "terraform {\n  required_providers {\n    time = {\n      source  = \"hashicorp/time\"\n      version = \"0.14.2\"\n    }\n  }\n}\n\nresource \"time_rotating\" \"r\" {\n  rot\n}\n";
/// Where completion is asked: after `rot` (line 11, 0-based 10).
const LINE: u64 = 10;
const CHARACTER: u64 = 5;

/// The test registry, killed when dropped.
struct Registry {
    child: Child,
    base: String,
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn registry_program() -> Result<PathBuf> {
    if let Some(program) = std::env::var_os("TOFU_LENS_TEST_REGISTRY") {
        return Ok(PathBuf::from(program));
    }
    for profile in ["release", "debug"] {
        let program = repo()
            .join("target")
            .join(profile)
            .join("examples/test_registry");
        if program.is_file() {
            return Ok(program);
        }
    }
    Err("no test registry program: cargo build -p tofu-fetch --examples (or set TOFU_LENS_TEST_REGISTRY)".to_owned())
}

fn start_registry(time_executable: &Path) -> Result<Registry> {
    let mut child = Command::new(registry_program()?)
        .arg("--release")
        .arg(format!("time=0.14.2:{}", time_executable.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot start the test registry: {error}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut base = String::new();
    BufReader::new(stdout)
        .read_line(&mut base)
        .map_err(|error| format!("the test registry: {error}"))?;
    let base = base.trim().to_owned();
    if !base.starts_with("https://") {
        let _ = child.kill();
        return Err(format!("the test registry did not start: {base:?}"));
    }
    Ok(Registry { child, base })
}

/// The cold, cached and download samples, `runs` each.
pub fn first_completion_cases(
    binary: &Path,
    runs: usize,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) {
    match measure(binary, runs) {
        Ok(found) => samples.extend(found),
        Err(error) => skipped.push(format!("fetch-first-completion: {error}")),
    }
}

fn measure(binary: &Path, runs: usize) -> Result<Vec<Sample>> {
    let plugins = std::env::var_os("TOFU_LENS_PROVIDER_PLUGINS")
        .ok_or("TOFU_LENS_PROVIDER_PLUGINS names no provider directory")?;
    let platform = tofu_schema::install::Platform::current().dir_name();
    let executable = Path::new(&plugins)
        .join("registry.opentofu.org/hashicorp/time/0.14.2")
        .join(&platform)
        .join("terraform-provider-time_v0.14.2");
    if !executable.is_file() {
        return Err(format!("{} is not there", executable.display()));
    }
    let registry = start_registry(&executable)?;
    let scratch = std::env::temp_dir().join(format!("tofu-bench-fetch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|error| error.to_string())?;
    let rc = scratch.join("tofurc");
    std::fs::write(
        &rc,
        format!(
            "host \"registry.opentofu.org\" {{\n  services = {{\n    \"providers.v1\" = \"{}/v1/providers/\"\n  }}\n}}\n",
            registry.base
        ),
    )
    .map_err(|error| error.to_string())?;
    let ca = repo().join("crates/tofu-fetch/tests/data/ca.pem");
    let mut cold = Vec::new();
    let mut cached = Vec::new();
    let mut download = Vec::new();
    for run in 0..runs {
        let cache = scratch.join(format!("cache-{run}"));
        let module = scratch.join(format!("module-{run}"));
        std::fs::create_dir_all(&module).map_err(|error| error.to_string())?;
        std::fs::write(module.join("rotation.tf"), MODULE).map_err(|error| error.to_string())?;
        let env: [(&str, &Path); 3] = [
            ("XDG_CACHE_HOME", &cache),
            ("TF_CLI_CONFIG_FILE", &rc),
            ("SSL_CERT_FILE", &ca),
        ];
        cold.push(first_completion(binary, &module, &env)?);
        cached.push(first_completion(binary, &module, &env)?);
        download.push(download_once(&registry.base, &ca, &platform)?);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(vec![
        Sample {
            name: "fetch-first-completion-cold",
            input: "rotation.tf of a module with nothing installed, empty cache: didOpen → \
                    completion offers rotation_days (hashicorp/time 0.14.2 fetched from a test \
                    registry on loopback, verified, run)"
                .to_owned(),
            times: cold,
        },
        Sample {
            name: "fetch-first-completion-cached",
            input: "the same, a new server on the cache the cold run filled".to_owned(),
            times: cached,
        },
        Sample {
            name: "fetch-download",
            input: "the package's bytes alone, from the same registry, through tofu-fetch's HTTP client"
                .to_owned(),
            times: download,
        },
    ])
}

/// didOpen → the first completion at `rot` that offers `rotation_days`.
fn first_completion(binary: &Path, module: &Path, env: &[(&str, &Path)]) -> Result<Duration> {
    let mut client = Client::spawn_with_env(binary, "info", env)?;
    client.initialize_with(module, json!({"schemas": {"fetchProviders": true}}))?;
    let uri = file_uri(&module.join("rotation.tf"));
    let started = Instant::now();
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "opentofu", "version": 1, "text": MODULE}}),
    )?;
    let deadline = started + Duration::from_secs(120);
    loop {
        let result = client.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": LINE, "character": CHARACTER}}),
            Duration::from_secs(30),
        )?;
        if offers(&result, "rotation_days") {
            let elapsed = started.elapsed();
            client.shutdown();
            return Ok(elapsed);
        }
        if Instant::now() > deadline {
            client.shutdown();
            return Err("no rotation_days offered within 120 s".to_owned());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn offers(result: &Value, label: &str) -> bool {
    let items = result
        .get("items")
        .and_then(Value::as_array)
        .or_else(|| result.as_array());
    items.is_some_and(|items| {
        items
            .iter()
            .any(|item| item.get("label").and_then(Value::as_str) == Some(label))
    })
}

/// The package's bytes, downloaded once.
fn download_once(base: &str, ca: &Path, platform: &str) -> Result<Duration> {
    let http = tofu_fetch::http::Http::new(tofu_fetch::HttpSettings {
        roots: tofu_fetch::TrustedRoots::PemFiles(vec![ca.to_path_buf()]),
        ..tofu_fetch::HttpSettings::default()
    })?;
    let url = format!("{base}/files/terraform-provider-time_0.14.2_{platform}.zip");
    let started = Instant::now();
    let fetched = http.download(
        &url,
        None,
        tofu_fetch::DEFAULT_MAX_PACKAGE_BYTES,
        &|_, _| true,
    )?;
    let elapsed = started.elapsed();
    if fetched.status != 200 || fetched.body.is_empty() {
        return Err(format!("{url}: {}", fetched.status));
    }
    Ok(elapsed)
}

//! The peer: HashiCorp's HCL parser compiled to WASM (npm `@cdktf/hcl2json`),
//! parsing the same files in one Node process, timed in the same run.
//!
//! The package lives in `crates/tofu-bench/peer/` (`package.json` and the
//! committed `package-lock.json`); `npm ci` installs it there the first time.
//! Without Node, npm or the registry, the peer is skipped, and only its ratio
//! goes missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::lsp::Result;
use crate::serve::TempDir;

/// The peer's timed passes over the files, and what it ran on.
pub struct PeerRun {
    pub times: Vec<Duration>,
    /// The untimed first pass (WASM start-up and JIT warm-up included).
    pub first_pass: Duration,
    pub n_errors: u64,
    /// `@cdktf/hcl2json VERSION, node VERSION`.
    pub label: String,
}

fn peer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peer")
}

/// Installs the peer if needed (`npm ci`), then has it parse `files`: one
/// warm-up pass and `runs` timed ones.
pub fn hcl2json(files: &[PathBuf], runs: usize) -> Result<PeerRun> {
    let dir = peer_dir();
    let package = dir.join("node_modules/@cdktf/hcl2json/package.json");
    if !package.is_file() {
        eprintln!(
            "tofu-bench: installing the peer (npm ci in {})",
            dir.display()
        );
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .status()
            .map_err(|error| format!("cannot run npm: {error}"))?;
        if !status.success() || !package.is_file() {
            return Err(format!("npm ci failed ({status})"));
        }
    }
    let version = std::fs::read_to_string(&package)
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .and_then(|json| json.get("version")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned());
    let node_version = Command::new("node")
        .arg("--version")
        .output()
        .map_err(|error| format!("cannot run node: {error}"))?;
    let node_version = String::from_utf8_lossy(&node_version.stdout)
        .trim()
        .to_owned();

    let temp = TempDir::new("peer")?;
    let list = temp.path().join("files.json");
    let paths: Vec<String> = files
        .iter()
        .map(|path| {
            std::path::absolute(path)
                .unwrap_or_else(|_| path.clone())
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    std::fs::write(&list, Value::from(paths).to_string())
        .map_err(|error| format!("cannot write {}: {error}", list.display()))?;
    let output = Command::new("node")
        .arg(dir.join("hcl2json-parse.js"))
        .arg(&list)
        .arg(runs.to_string())
        .current_dir(&dir)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run node: {error}"))?;
    if !output.status.success() {
        return Err(format!("hcl2json-parse.js failed ({})", output.status));
    }
    let report: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("hcl2json-parse.js printed no report: {error}"))?;
    let millis = |value: &Value| value.as_f64().map(|ms| Duration::from_secs_f64(ms / 1e3));
    let times: Vec<Duration> = report
        .get("times_ms")
        .and_then(Value::as_array)
        .map(|times| times.iter().filter_map(millis).collect())
        .unwrap_or_default();
    if times.is_empty() {
        return Err("hcl2json-parse.js reported no times".to_owned());
    }
    Ok(PeerRun {
        times,
        first_pass: report.get("warmup_ms").and_then(millis).unwrap_or_default(),
        n_errors: report.get("errors").and_then(Value::as_u64).unwrap_or(0),
        label: format!("@cdktf/hcl2json {version}, node {node_version}"),
    })
}

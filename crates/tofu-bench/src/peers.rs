//! `--peers DIR`: the other language servers for OpenTofu and Terraform,
//! side by side with tofu-lens, through the same LSP client. DIR holds
//! `tofu-ls` and `terraform-ls` binaries built outside this repository; a
//! peer that is missing is skipped with a line saying so.
//!
//! The workspace is a temporary folder holding a copy of the cloudposse tree
//! and of `examples/overrides`. For each server: the time from its start to
//! the first diagnostics of `overrides/main.tf` once opened, its peak RSS
//! (`VmHWM`) after that with the server quiet for two seconds, the median
//! latency of a hover on `resource "aws_instance" "web"` (which
//! `override.tf` changes), whether that hover shows the overridden
//! `instance_type`, and how many diagnostics it publishes for the example's
//! files (tofu-lens reports the duplicates in `network.tf` and the shadowed
//! `versions.tf`; a server that publishes nothing for a file it finds no
//! problem in shows `none`). `TOFU_BENCH_PEER_LOG=1` prints the end of each
//! server's log.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::lsp::{file_uri, Client, Result};
use crate::serve::{self, TempDir};

pub struct PeerRun {
    pub name: String,
    pub first_diagnostics: Option<Duration>,
    pub peak_rss: Option<u64>,
    pub hover_median: Option<Duration>,
    pub hover_shows_override: bool,
    /// Diagnostics published per file of the example, by file name.
    pub diagnostics: BTreeMap<String, usize>,
}

/// A workspace with the corpus tree and the overrides example.
pub fn workspace(corpus: &Path, example: &Path) -> Result<TempDir> {
    let dir = TempDir::new("peers")?;
    serve::copy_tree(corpus, &dir.path().join("corpus"), false)?;
    serve::copy_tree(example, &dir.path().join("overrides"), false)?;
    Ok(dir)
}

/// The servers to run: tofu-lens, then each peer found in `dir`.
pub fn servers(tofu_lens: &Path, dir: &Path) -> (Vec<(String, PathBuf)>, Vec<String>) {
    let mut servers = vec![("tofu-lens".to_owned(), tofu_lens.to_path_buf())];
    let mut missing = Vec::new();
    for name in ["tofu-ls", "terraform-ls"] {
        let binary = dir.join(name);
        if binary.is_file() {
            servers.push((name.to_owned(), binary));
        } else {
            missing.push(format!("peer {name}: no binary at {}", binary.display()));
        }
    }
    (servers, missing)
}

pub fn run(name: &str, binary: &Path, workspace: &Path) -> Result<PeerRun> {
    let workspace = workspace
        .canonicalize()
        .map_err(|error| format!("{}: {error}", workspace.display()))?;
    let example = workspace.join("overrides");
    let main = example.join("main.tf");
    let main_uri = file_uri(&main);
    let start = Instant::now();
    let mut client = Client::spawn(binary, "info")?;
    client.initialize(&workspace)?;
    for file in ["main.tf", "override.tf", "network.tf"] {
        let path = example.join(file);
        let text = std::fs::read_to_string(&path)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": file_uri(&path), "languageId": language_id(name),
                                    "version": 1, "text": text}}),
        )?;
    }
    let mut diagnostics: BTreeMap<String, usize> = BTreeMap::new();
    let mut first_diagnostics = None;
    let deadline = start + Duration::from_secs(30);
    // Until main.tf is published, then until two quiet seconds.
    let mut quiet_until = deadline;
    while let Some(message) = client.next_notification(quiet_until.min(deadline))? {
        if message.get("method").and_then(Value::as_str) != Some("textDocument/publishDiagnostics")
        {
            continue;
        }
        let params = message.get("params").unwrap_or(&Value::Null);
        let uri = params
            .get("uri")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(file) = uri
            .strip_prefix(&file_uri(&example))
            .map(|f| f.trim_start_matches('/'))
        {
            let n = params
                .get("diagnostics")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            diagnostics.insert(file.to_owned(), n);
        }
        if uri == main_uri && first_diagnostics.is_none() {
            first_diagnostics = Some(start.elapsed());
        }
        if first_diagnostics.is_some() {
            quiet_until = Instant::now() + Duration::from_secs(2);
        }
    }
    let peak_rss = std::fs::read_to_string(format!("/proc/{}/status", client.pid()))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
            let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kilobytes * 1024)
        });
    let hover_params = json!({"textDocument": {"uri": main_uri},
                              "position": {"line": 0, "character": 10}});
    let mut times = Vec::new();
    let mut hover_shows_override = false;
    for _ in 0..21 {
        let asked = Instant::now();
        let Ok(hover) = client.request(
            "textDocument/hover",
            hover_params.clone(),
            Duration::from_secs(10),
        ) else {
            break;
        };
        times.push(asked.elapsed());
        hover_shows_override |= hover.to_string().contains("t3.large");
    }
    times.sort();
    let hover_median = times.get(times.len() / 2).copied();
    let log = client.shutdown();
    if std::env::var_os("TOFU_BENCH_PEER_LOG").is_some() {
        for line in log.iter().rev().take(40).rev() {
            eprintln!("{name}: {line}");
        }
    }
    Ok(PeerRun {
        name: name.to_owned(),
        first_diagnostics,
        peak_rss,
        hover_median,
        hover_shows_override,
        diagnostics,
    })
}

/// The language id each server serves `.tf` files under.
fn language_id(server: &str) -> &'static str {
    if server == "tofu-ls" {
        "opentofu"
    } else {
        "terraform"
    }
}

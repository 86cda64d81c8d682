//! The cases measured through the real server, `tofu-lens serve`, over stdio:
//! `lsp-keystroke` (didChange → publishDiagnostics on the synthetic module)
//! and `memory` (peak RSS after indexing a tree, with the time indexing took).
//!
//! The server binary is the one next to the bench binary. When the bench runs
//! under `cargo run`, it first has cargo build that binary with the same
//! profile and target directory, so what is measured is the current source.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;
use tofu_module::InputFile;

use crate::lsp::{file_uri, Client, Result};

/// The `tofu-lens` binary beside the running bench, built first when cargo
/// runs the bench.
pub fn server_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe().map_err(|error| format!("current_exe: {error}"))?;
    let exe_dir = exe.parent().ok_or("the bench binary has no directory")?;
    let binary = exe_dir.join(format!("tofu-lens{}", std::env::consts::EXE_SUFFIX));
    if let Some(cargo) = std::env::var_os("CARGO") {
        build_server(Path::new(&cargo), exe_dir)?;
    }
    if !binary.is_file() {
        return Err(format!(
            "{} is missing: build it with `cargo build --release -p tofu-lens` \
             (running the bench with `cargo run` does this itself)",
            binary.display()
        ));
    }
    Ok(binary)
}

/// `cargo build -p tofu-lens` into the bench's own target directory and
/// profile (`<target>/<profile dir>/tofu-bench`); a no-op when up to date.
fn build_server(cargo: &Path, exe_dir: &Path) -> Result<()> {
    let profile = match exe_dir.file_name().and_then(|name| name.to_str()) {
        Some("debug") => "dev",
        Some(name) => name,
        None => "release",
    };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml");
    let mut command = Command::new(cargo);
    command
        .args(["build", "--quiet", "-p", "tofu-lens", "--profile", profile])
        .arg("--manifest-path")
        .arg(&manifest);
    if let Some(target_dir) = exe_dir.parent() {
        command.arg("--target-dir").arg(target_dir);
    }
    eprintln!("tofu-bench: building tofu-lens ({profile} profile) for the server cases");
    let status = command
        .status()
        .map_err(|error| format!("cannot run cargo: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo build -p tofu-lens failed ({status})"))
    }
}

/// A directory under the system temp dir, removed when dropped.
pub struct TempDir(PathBuf);

/// Copies the tree `from` to `to` (hard links when `link`, falling back to
/// copies); returns how many configuration files it holds.
pub fn copy_tree(from: &Path, to: &Path, link: bool) -> Result<usize> {
    std::fs::create_dir_all(to).map_err(|error| format!("{}: {error}", to.display()))?;
    let mut files = 0;
    let entries =
        std::fs::read_dir(from).map_err(|error| format!("{}: {error}", from.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            files += copy_tree(&path, &target, link)?;
        } else if path.is_file() {
            let linked = link && std::fs::hard_link(&path, &target).is_ok();
            if !linked {
                std::fs::copy(&path, &target)
                    .map_err(|error| format!("{}: {error}", path.display()))?;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            if tofu_module::discovery::has_config_extension(&name) {
                files += 1;
            }
        }
    }
    Ok(files)
}

impl TempDir {
    pub fn new(label: &str) -> Result<TempDir> {
        let path = std::env::temp_dir().join(format!("tofu-bench-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .map_err(|error| format!("cannot create {}: {error}", path.display()))?;
        Ok(TempDir(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What `lsp-keystroke` measured.
pub struct Keystrokes {
    /// From writing each didChange to reading the publication of its version.
    pub latencies: Vec<Duration>,
    /// The server's own time for each analysis after a keystroke, from its
    /// debug log (`analysed DIR in TIME`); empty when the log says nothing.
    pub server_times: Vec<Duration>,
}

/// The file `lsp-keystroke` types into, and where: inside the description
/// string of its first variable, so every keystroke leaves the module valid.
const TYPED_FILE: &str = "f0001.tf";
const TYPED_LINE: u32 = 3;
const TYPED_COLUMN: u32 = 17; // after `  description = "`

/// Writes `module` to a temp dir, starts the server on it, waits for the
/// initial indexing, opens one file, then sends `n_keystrokes` one-character
/// didChange edits, each time waiting for the diagnostics of that version.
pub fn lsp_keystroke(
    binary: &Path,
    module: &[InputFile],
    n_keystrokes: usize,
) -> Result<Keystrokes> {
    let temp = TempDir::new("keystroke")?;
    let dir = temp.path().join("module");
    std::fs::create_dir_all(&dir).map_err(|error| error.to_string())?;
    for file in module {
        std::fs::write(dir.join(&file.name), crate::text_of(file))
            .map_err(|error| format!("cannot write {}: {error}", file.name))?;
    }
    let typed = module
        .iter()
        .find(|file| file.name == TYPED_FILE)
        .ok_or("the synthetic module has no f0001.tf")?;
    let mut client = Client::spawn(binary, "info,tofu_lsp::scheduler=debug")?;
    client.initialize(&dir)?;
    client.wait_indexed(Duration::from_secs(120))?;

    let uri = file_uri(&dir.join(TYPED_FILE));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {
            "uri": uri, "languageId": "opentofu", "version": 1, "text": crate::text_of(typed)
        }}),
    )?;
    client.wait_for_publication(&uri, 1, Duration::from_secs(30))?;

    let mut latencies = Vec::with_capacity(n_keystrokes);
    for keystroke in 0..n_keystrokes {
        let version = i64::try_from(keystroke).unwrap_or(i64::MAX - 2) + 2;
        let column = TYPED_COLUMN + u32::try_from(keystroke).unwrap_or(0);
        let letter = char::from(b'a' + u8::try_from(keystroke % 26).unwrap_or(0));
        let position = json!({"line": TYPED_LINE, "character": column});
        let params = json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": position, "end": position}, "text": letter.to_string()}]
        });
        let start = Instant::now();
        client.notify("textDocument/didChange", params)?;
        client.wait_for_publication(&uri, version, Duration::from_secs(30))?;
        latencies.push(start.elapsed());
    }
    let log = client.shutdown();
    let analysed: Vec<Duration> = log.iter().filter_map(|line| analysis_time(line)).collect();
    // The last analyses are the keystrokes' (before them: indexing, the open).
    let server_times = analysed
        .get(analysed.len().saturating_sub(n_keystrokes)..)
        .unwrap_or_default()
        .to_vec();
    Ok(Keystrokes {
        latencies,
        server_times,
    })
}

/// What `memory` measured on one run.
pub struct Indexed {
    /// Peak resident set size (`VmHWM`), in bytes.
    pub peak_rss: u64,
    /// From spawning the server to the last initial publication.
    pub index_time: Duration,
    /// How many files the initial indexing published: those with problems.
    pub n_published: usize,
}

/// Starts the server with `folder` as its workspace, waits until the initial
/// indexing is published, and reads the server's peak RSS.
pub fn memory(binary: &Path, folder: &Path) -> Result<Indexed> {
    let folder = folder
        .canonicalize()
        .map_err(|error| format!("{}: {error}", folder.display()))?;
    let start = Instant::now();
    let mut client = Client::spawn(binary, "info")?;
    client.initialize(&folder)?;
    let (n_published, indexed) = client.wait_indexed(Duration::from_secs(300))?;
    let index_time = indexed.saturating_duration_since(start);
    let status = std::fs::read_to_string(format!("/proc/{}/status", client.pid()))
        .map_err(|error| format!("cannot read the server's /proc status: {error}"))?;
    let peak_rss = proc_status_bytes(&status, "VmHWM").ok_or("no VmHWM in /proc status")?;
    client.shutdown();
    Ok(Indexed {
        peak_rss,
        index_time,
        n_published,
    })
}

/// A `kB` field of `/proc/PID/status`, in bytes.
fn proc_status_bytes(status: &str, field: &str) -> Option<u64> {
    let line = status
        .lines()
        .find(|line| line.split(':').next() == Some(field))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

/// The duration of an `analysed DIR in TIME` log line (`TIME` as Rust's
/// `Debug` prints a `Duration`: `812.5µs`, `7.25ms`, `1.2s`).
fn analysis_time(line: &str) -> Option<Duration> {
    let (_, rest) = line.split_once(" analysed ")?;
    let (_, time) = rest.rsplit_once(" in ")?;
    let time = time.trim();
    let split = time.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = time.split_at(split);
    let number: f64 = number.parse().ok()?;
    let seconds = match unit {
        "s" => number,
        "ms" => number / 1e3,
        "µs" | "us" => number / 1e6,
        "ns" => number / 1e9,
        _ => return None,
    };
    Some(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analysis_times_are_read_from_the_log() {
        let line =
            "2026-01-01T00:00:00.000000Z DEBUG tofu_lsp::scheduler: analysed /tmp/a in b in 7.5ms";
        assert_eq!(analysis_time(line), Some(Duration::from_micros(7500)));
        assert_eq!(
            analysis_time("DEBUG x: analysed /d in 812µs"),
            Some(Duration::from_micros(812))
        );
        assert_eq!(analysis_time("INFO x: indexing 3 module directories"), None);
    }

    #[test]
    fn peak_rss_is_read_in_bytes() {
        let status = "Name:\ttofu-lens\nVmPeak:\t  200 kB\nVmHWM:\t   5120 kB\n";
        assert_eq!(proc_status_bytes(status, "VmHWM"), Some(5120 * 1024));
        assert_eq!(proc_status_bytes(status, "VmRSS"), None);
    }
}

//! The cases measured through the real server, `tofu-lens serve`, over stdio:
//! `lsp-keystroke` (didChange → publishDiagnostics on the synthetic module),
//! on the reference variant of that module `lsp-flip` (a keystroke that adds
//! or removes an error), `lsp-rename-local` (a keystroke that undeclares 500
//! references, or declares them again) and `lsp-hover` (hover on a
//! reference), and `memory` (peak RSS after indexing a tree, with the time
//! indexing took).
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

/// Where `lsp-keystroke-local` types in [`TYPED_FILE`]: after this text,
/// inside the literal part of `local.local_1`'s template, so every
/// keystroke changes the local's value (and what evaluates it) and leaves
/// the module valid.
const LOCAL_VALUE_PREFIX: &str = "local_1 = \"${var.var_1}-";

/// A server on a module written to a temp dir, past its initial indexing.
/// The client is dropped (the server killed if still running) before the
/// directory is removed.
pub struct ModuleServer {
    pub client: Client,
    pub dir: PathBuf,
    _temp: TempDir,
}

impl ModuleServer {
    /// Writes `module` to a temp dir, starts the server on it with
    /// `TOFU_LENS_LOG=log_spec`, and waits for the initial indexing.
    pub fn start(
        binary: &Path,
        module: &[InputFile],
        label: &str,
        log_spec: &str,
    ) -> Result<ModuleServer> {
        ModuleServer::start_with(binary, module, label, log_spec, None)
    }

    /// [`ModuleServer::start`], with `install` run on the module directory
    /// first, when given (providers laid out as `tofu init` does), and a
    /// schema cache of the server's own in the temp dir.
    pub fn start_with(
        binary: &Path,
        module: &[InputFile],
        label: &str,
        log_spec: &str,
        install: Option<&Install<'_>>,
    ) -> Result<ModuleServer> {
        let temp = TempDir::new(label)?;
        let dir = temp.path().join("module");
        std::fs::create_dir_all(&dir).map_err(|error| error.to_string())?;
        for file in module {
            std::fs::write(dir.join(&file.name), crate::synthetic::text_of(file))
                .map_err(|error| format!("cannot write {}: {error}", file.name))?;
        }
        if let Some(install) = install {
            install(&dir)?;
        }
        let cache = temp.path().join("cache");
        let mut client = Client::spawn_with_env(binary, log_spec, &[("XDG_CACHE_HOME", &cache)])?;
        client.initialize(&dir)?;
        client.wait_indexed(Duration::from_secs(120))?;
        Ok(ModuleServer {
            client,
            dir,
            _temp: temp,
        })
    }

    /// Opens `name` of `module` (version 1) and waits for its diagnostics,
    /// as an editor opening a file does; returns its URI and text.
    pub fn open(&mut self, module: &[InputFile], name: &str) -> Result<(String, String)> {
        self.open_published(module, name)
            .map(|(uri, text, _published)| (uri, text))
    }

    /// [`ModuleServer::open`], also returning the publication's `params`.
    pub fn open_published(
        &mut self,
        module: &[InputFile],
        name: &str,
    ) -> Result<(String, String, serde_json::Value)> {
        let file = module
            .iter()
            .find(|file| file.name == name)
            .ok_or_else(|| format!("the module has no {name}"))?;
        let text = crate::synthetic::text_of(file).to_owned();
        let uri = file_uri(&self.dir.join(name));
        self.client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": uri, "languageId": "opentofu", "version": 1, "text": text
            }}),
        )?;
        let published = self
            .client
            .wait_for_publication(&uri, 1, Duration::from_secs(30))?;
        Ok((uri, text, published))
    }

    /// Shuts the server down; the analysis times of its last `n` analyses,
    /// from its debug log (`analysed DIR in TIME`).
    pub fn finish(self, n: usize) -> Vec<Duration> {
        let log = self.client.shutdown();
        let analysed: Vec<Duration> = log.iter().filter_map(|line| analysis_time(line)).collect();
        analysed
            .get(analysed.len().saturating_sub(n)..)
            .unwrap_or_default()
            .to_vec()
    }
}

/// The log the keystroke cases ask of the server: the scheduler's analysis
/// times.
const SCHEDULER_LOG: &str = "info,tofu_lsp::scheduler=debug";

/// The LSP position (line, UTF-16 character) of byte `offset` of `text`.
fn position(text: &str, offset: usize) -> serde_json::Value {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let character = before
        .get(line_start..)
        .map_or(0, |rest| rest.encode_utf16().count());
    json!({"line": line, "character": character})
}

/// A didChange replacing byte range `at..at + old_len` of `text` by `new`.
fn change(
    uri: &str,
    version: i64,
    text: &str,
    at: usize,
    old_len: usize,
    new: &str,
) -> serde_json::Value {
    json!({
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{
            "range": {"start": position(text, at), "end": position(text, at + old_len)},
            "text": new
        }]
    })
}

/// Whether a publication's `params` hold a diagnostic with `code`.
fn has_code(params: &serde_json::Value, code: &str) -> bool {
    params
        .get("diagnostics")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|diagnostics| {
            diagnostics.iter().any(|diagnostic| {
                diagnostic.get("code").and_then(serde_json::Value::as_str) == Some(code)
            })
        })
}

/// Starts the server on `module`, waits for the initial indexing, opens one
/// file, then sends `n_keystrokes` one-character didChange edits, each time
/// waiting for the diagnostics of that version.
pub fn lsp_keystroke(
    binary: &Path,
    module: &[InputFile],
    n_keystrokes: usize,
) -> Result<Keystrokes> {
    let server = ModuleServer::start(binary, module, "keystroke", SCHEDULER_LOG)?;
    type_keystrokes(
        server,
        module,
        TYPED_FILE,
        n_keystrokes,
        (TYPED_LINE, TYPED_COLUMN),
    )
}

/// `lsp-keystroke-local`: the keystrokes of `lsp-keystroke`, typed into
/// the value of a local instead of a description (issue 33: a keystroke
/// that changes a local's value keeps keystroke → publish p50 ≤ 3 ms).
pub fn lsp_keystroke_local(
    binary: &Path,
    module: &[InputFile],
    n_keystrokes: usize,
) -> Result<Keystrokes> {
    let position = typed_after(module, TYPED_FILE, LOCAL_VALUE_PREFIX)?;
    let server = ModuleServer::start(binary, module, "keystroke-local", SCHEDULER_LOG)?;
    type_keystrokes(server, module, TYPED_FILE, n_keystrokes, position)
}

/// `lsp-keystroke-chain`: keystrokes typed into the head of a chain of ten
/// local values over ten files (`synthetic::with_chain`), each changing
/// every link's value.
pub fn lsp_keystroke_chain(
    binary: &Path,
    module: &[InputFile],
    head_file: &str,
    n_keystrokes: usize,
) -> Result<Keystrokes> {
    let position = typed_after(module, head_file, crate::synthetic::CHAIN_HEAD)?;
    let server = ModuleServer::start(binary, module, "keystroke-chain", SCHEDULER_LOG)?;
    type_keystrokes(server, module, head_file, n_keystrokes, position)
}

/// `lsp-keystroke-tfvars`: keystrokes typed into a value of the module's
/// `terraform.tfvars` (`synthetic::with_values_file`), each timed from
/// the didChange to the publication of its version for that file.
pub fn lsp_keystroke_tfvars(
    binary: &Path,
    module: &[InputFile],
    n_keystrokes: usize,
) -> Result<Keystrokes> {
    use crate::synthetic::{VALUES_FILE, VALUES_TYPED_AFTER};
    let position = typed_after(module, VALUES_FILE, VALUES_TYPED_AFTER)?;
    let server = ModuleServer::start(binary, module, "keystroke-tfvars", SCHEDULER_LOG)?;
    type_keystrokes(server, module, VALUES_FILE, n_keystrokes, position)
}

/// The (line, column) just after `prefix` in `name` (ASCII before it).
fn typed_after(module: &[InputFile], name: &str, prefix: &str) -> Result<(u32, u32)> {
    let text = module
        .iter()
        .find(|file| file.name == name)
        .map(crate::synthetic::text_of)
        .ok_or_else(|| format!("the module has no {name}"))?;
    let at = text
        .find(prefix)
        .map(|at| at + prefix.len())
        .ok_or_else(|| format!("{name} has no {prefix}"))?;
    let before = text.get(..at).unwrap_or_default();
    let line = before.matches('\n').count();
    let column = before.len() - before.rfind('\n').map_or(0, |newline| newline + 1);
    Ok((
        u32::try_from(line).unwrap_or(0),
        u32::try_from(column).unwrap_or(0),
    ))
}

/// Lays providers out in a module directory, as `tofu init` does.
pub type Install<'a> = dyn Fn(&Path) -> Result<()> + 'a;

/// The `lsp-keystroke` keystrokes on a module holding `schema_file` (a
/// resource with an argument its provider does not define), with its
/// provider laid out by `install` (`lsp-keystroke-schemas`) or not
/// (`lsp-keystroke-no-schemas`). With it, the keystrokes start once the
/// schema is read: when the opened file's publication reports the argument.
pub fn lsp_keystroke_schemas(
    binary: &Path,
    module: &[InputFile],
    n_keystrokes: usize,
    schema_file: &str,
    install: Option<&Install<'_>>,
) -> Result<Keystrokes> {
    let label = if install.is_some() {
        "keystroke-schemas"
    } else {
        "keystroke-no-schemas"
    };
    let mut server = ModuleServer::start_with(binary, module, label, SCHEDULER_LOG, install)?;
    let (uri, _, mut published) = server.open_published(module, schema_file)?;
    // The schema may have been read while the directory was indexed (then
    // the first publication has the error) or after it.
    let deadline = Instant::now() + Duration::from_secs(120);
    while install.is_some() && !has_code(&published, "unsupported-argument") {
        let left = deadline.saturating_duration_since(Instant::now());
        published = server.client.wait_for_publication(&uri, 1, left)?;
    }
    type_keystrokes(
        server,
        module,
        TYPED_FILE,
        n_keystrokes,
        (TYPED_LINE, TYPED_COLUMN),
    )
}

/// Opens `typed_file` and types `n_keystrokes` letters into it from
/// `(line, column)` on (ASCII, so UTF-16 columns are bytes), each timed
/// from the didChange to the publication of its version.
fn type_keystrokes(
    mut server: ModuleServer,
    module: &[InputFile],
    typed_file: &str,
    n_keystrokes: usize,
    (typed_line, typed_column): (u32, u32),
) -> Result<Keystrokes> {
    let (uri, _) = server.open(module, typed_file)?;
    let mut latencies = Vec::with_capacity(n_keystrokes);
    for keystroke in 0..n_keystrokes {
        let version = i64::try_from(keystroke).unwrap_or(i64::MAX - 2) + 2;
        let column = typed_column + u32::try_from(keystroke).unwrap_or(0);
        let letter = char::from(b'a' + u8::try_from(keystroke % 26).unwrap_or(0));
        let position = json!({"line": typed_line, "character": column});
        let params = json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": position, "end": position}, "text": letter.to_string()}]
        });
        let start = Instant::now();
        server.client.notify("textDocument/didChange", params)?;
        server
            .client
            .wait_for_publication(&uri, version, Duration::from_secs(30))?;
        latencies.push(start.elapsed());
    }
    // The last analyses are the keystrokes' (before them: indexing, the open).
    let server_times = server.finish(n_keystrokes);
    Ok(Keystrokes {
        latencies,
        server_times,
    })
}

/// `lsp-flip`: keystrokes in the default of `variable "flip"` (`type =
/// number`) of the reference variant (`synthetic::with_references`), turning
/// `"1"` into `"x"` and back, so that every keystroke adds or removes an
/// `invalid-variable-default` error: each is timed from writing the
/// didChange to reading the publication of its version, which must carry
/// the error exactly when the default is `"x"`.
pub fn lsp_flip(binary: &Path, module: &[InputFile], n_keystrokes: usize) -> Result<Keystrokes> {
    use crate::synthetic::{FLIP_FILE, FLIP_VALID};
    let mut server = ModuleServer::start(binary, module, "flip", SCHEDULER_LOG)?;
    let (uri, text) = server.open(module, FLIP_FILE)?;
    let at = text
        .find(FLIP_VALID)
        .map(|at| at + FLIP_VALID.len() - 2)
        .ok_or("the flip file has no flip variable")?;
    let mut latencies = Vec::with_capacity(n_keystrokes);
    for keystroke in 0..n_keystrokes {
        let version = i64::try_from(keystroke).unwrap_or(i64::MAX - 2) + 2;
        let invalid = keystroke % 2 == 0;
        let params = change(&uri, version, &text, at, 1, if invalid { "x" } else { "1" });
        let start = Instant::now();
        server.client.notify("textDocument/didChange", params)?;
        let published =
            server
                .client
                .wait_for_publication(&uri, version, Duration::from_secs(30))?;
        latencies.push(start.elapsed());
        if has_code(&published, "invalid-variable-default") != invalid {
            return Err(format!(
                "keystroke {keystroke}: invalid-variable-default {} in the publication",
                if invalid { "missing" } else { "still" }
            ));
        }
    }
    let server_times = server.finish(n_keystrokes);
    Ok(Keystrokes {
        latencies,
        server_times,
    })
}

/// What `lsp-rename-local` measured.
pub struct Renames {
    /// From writing the didChange to reading the edited document's
    /// publication (open documents are published first).
    pub to_document: Vec<Duration>,
    /// From writing it to reading the last of the publications of the files
    /// whose references the rename undeclared or declared again.
    pub to_all: Vec<Duration>,
    pub server_times: Vec<Duration>,
}

/// `lsp-rename-local`: keystrokes that rename `local.shared` of the
/// reference variant to `local.shares` and back, so that the 500 files that
/// read it gain or lose an `undeclared-reference` error each time.
pub fn lsp_rename_local(
    binary: &Path,
    module: &[InputFile],
    readers: &[String],
    n_keystrokes: usize,
) -> Result<Renames> {
    use crate::synthetic::{SHARED_FILE, SHARED_NAME};
    let mut server = ModuleServer::start(binary, module, "rename", SCHEDULER_LOG)?;
    let (uri, text) = server.open(module, SHARED_FILE)?;
    let at = text
        .find(&format!("  {SHARED_NAME} ="))
        .map(|at| at + 2 + SHARED_NAME.len() - 1)
        .ok_or("the shared file has no shared local")?;
    let reader_uris: std::collections::HashSet<String> = readers
        .iter()
        .map(|name| file_uri(&server.dir.join(name)))
        .collect();
    let mut renames = Renames {
        to_document: Vec::with_capacity(n_keystrokes),
        to_all: Vec::with_capacity(n_keystrokes),
        server_times: Vec::new(),
    };
    for keystroke in 0..n_keystrokes {
        let version = i64::try_from(keystroke).unwrap_or(i64::MAX - 2) + 2;
        let renamed = keystroke % 2 == 0;
        let params = change(&uri, version, &text, at, 1, if renamed { "s" } else { "d" });
        let start = Instant::now();
        server.client.notify("textDocument/didChange", params)?;
        let deadline = start + Duration::from_secs(60);
        let mut document = None;
        let mut seen = std::collections::HashSet::new();
        while document.is_none() || seen.len() < reader_uris.len() {
            let Some(message) = server.client.next_notification(deadline)? else {
                return Err(format!(
                    "keystroke {keystroke}: {} of {} files published within a minute",
                    seen.len(),
                    reader_uris.len()
                ));
            };
            if message.get("method").and_then(serde_json::Value::as_str)
                != Some("textDocument/publishDiagnostics")
            {
                continue;
            }
            let params = message.get("params").cloned().unwrap_or_default();
            let published = params
                .get("uri")
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default();
            if published == uri
                && params.get("version").and_then(serde_json::Value::as_i64) == Some(version)
            {
                document = Some(start.elapsed());
            } else if reader_uris.contains(published) {
                if has_code(&params, "undeclared-reference") != renamed {
                    return Err(format!(
                        "keystroke {keystroke}: {published} published {} undeclared-reference",
                        if renamed { "without" } else { "with" }
                    ));
                }
                seen.insert(published.to_owned());
            }
        }
        renames.to_all.push(start.elapsed());
        renames.to_document.extend(document);
    }
    renames.server_times = server.finish(n_keystrokes);
    Ok(renames)
}

/// `lsp-hover`: `n` hover requests at byte `offset` of `name` (opened
/// first, as an editor does), each timed from writing the request to reading
/// its answer, which must not be empty.
pub fn lsp_hover(
    binary: &Path,
    module: &[InputFile],
    name: &str,
    offset: usize,
    n: usize,
) -> Result<Vec<Duration>> {
    lsp_position_requests(binary, module, name, offset, "textDocument/hover", n)
}

/// `n` requests `method` at byte `offset` of `name` (opened first, as an
/// editor does) on a server started on `module`, each timed from writing the
/// request to reading its answer, which must not be empty.
pub fn lsp_position_requests(
    binary: &Path,
    module: &[InputFile],
    name: &str,
    offset: usize,
    method: &str,
    n: usize,
) -> Result<Vec<Duration>> {
    let label = method.rsplit('/').next().unwrap_or(method);
    let mut server = ModuleServer::start(binary, module, label, "info")?;
    let (uri, text) = server.open(module, name)?;
    let params = json!({"textDocument": {"uri": uri}, "position": position(&text, offset)});
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        let answer = server
            .client
            .request(method, params.clone(), Duration::from_secs(10))?;
        times.push(start.elapsed());
        if answer.is_null() {
            return Err(format!("no {label} at {name}:{offset}"));
        }
    }
    server.finish(0);
    Ok(times)
}

/// What `memory` measured on one run.
pub struct Indexed {
    /// Peak resident set size (`VmHWM`), in bytes.
    pub peak_rss: u64,
    /// From spawning the server to the last initial publication.
    pub index_time: Duration,
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

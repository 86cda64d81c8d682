//! A minimal LSP client over a child process's stdio, enough to drive
//! `tofu-lens serve` the way an editor does: `Content-Length` framing,
//! JSON-RPC requests and notifications, and a reply to every request the
//! server sends (progress tokens, registrations) so it never waits on us.
//!
//! A thread reads stdout into a channel of messages; another keeps the
//! server's stderr (its log), so neither pipe can fill up and stall the
//! server. Every wait has a deadline: a bench that hangs measures nothing.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub type Result<T> = std::result::Result<T, String>;

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Notifications received while waiting for something else.
    backlog: VecDeque<Value>,
    next_id: i64,
    log: Arc<Mutex<Vec<String>>>,
    log_reader: Option<JoinHandle<()>>,
}

impl Client {
    /// Starts `binary serve` with `TOFU_LENS_LOG` set to `log_spec`.
    pub fn spawn(binary: &Path, log_spec: &str) -> Result<Client> {
        Client::spawn_with_env(binary, log_spec, &[])
    }

    /// [`Client::spawn`] with more environment variables (a schema cache
    /// of the bench's own: `XDG_CACHE_HOME`).
    pub fn spawn_with_env(binary: &Path, log_spec: &str, env: &[(&str, &Path)]) -> Result<Client> {
        let mut child = Command::new(binary)
            .arg("serve")
            .env("TOFU_LENS_LOG", log_spec)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot start {} serve: {error}", binary.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let log = Arc::new(Mutex::new(Vec::new()));
        let log_lines = Arc::clone(&log);
        let log_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(|line| line.ok()) {
                if let Ok(mut lines) = log_lines.lock() {
                    lines.push(line);
                }
            }
        });
        Ok(Client {
            child,
            stdin,
            messages,
            backlog: VecDeque::new(),
            next_id: 1,
            log,
            log_reader: Some(log_reader),
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one framed message in one `write`: `write!` on the unbuffered
    /// pipe made four (header, length, blank line, body), each of which could
    /// wake the server's reader before the message was whole.
    fn send(&mut self, message: &Value) -> Result<()> {
        let body = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.stdin
            .write_all(framed.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|error| format!("cannot write to the server: {error}"))
    }

    pub fn notify(&mut self, method: &str, params: Value) -> Result<()> {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    /// Sends a request and waits for its response (its `result`).
    pub fn request(&mut self, method: &str, params: Value, timeout: Duration) -> Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let deadline = Instant::now() + timeout;
        loop {
            let message = self.receive(deadline)?;
            if message.get("method").is_some() {
                self.backlog.push_back(message);
            } else if message.get("id") == Some(&json!(id)) {
                return match message.get("error") {
                    Some(error) => Err(format!("{method} failed: {error}")),
                    None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
                };
            }
        }
    }

    /// The next message from the server, answering its requests on the way
    /// (with `null`, which is what progress creation and registration expect).
    fn receive(&mut self, deadline: Instant) -> Result<Value> {
        loop {
            let timeout = deadline.saturating_duration_since(Instant::now());
            let message = match self.messages.recv_timeout(timeout) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => return Err("timed out".to_owned()),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "the server exited; its log ends:\n{}",
                        self.log_tail()
                    ))
                }
            };
            match (message.get("id"), message.get("method")) {
                (Some(id), Some(_)) => {
                    let id = id.clone();
                    self.send(&json!({"jsonrpc": "2.0", "id": id, "result": null}))?;
                }
                _ => return Ok(message),
            }
        }
    }

    /// The next notification, or `None` once `deadline` passes.
    pub fn next_notification(&mut self, deadline: Instant) -> Result<Option<Value>> {
        if let Some(message) = self.backlog.pop_front() {
            return Ok(Some(message));
        }
        loop {
            match self.receive(deadline) {
                Ok(message) if message.get("method").is_some() => return Ok(Some(message)),
                Ok(_) => {} // a response nobody waits for
                Err(error) if error == "timed out" => return Ok(None),
                Err(error) => return Err(error),
            }
        }
    }

    /// Waits for the publication of `uri`'s diagnostics at `version`;
    /// returns its `params` (`uri`, `version`, `diagnostics`).
    pub fn wait_for_publication(
        &mut self,
        uri: &str,
        version: i64,
        timeout: Duration,
    ) -> Result<Value> {
        let deadline = Instant::now() + timeout;
        while let Some(message) = self.next_notification(deadline)? {
            if message.get("method").and_then(Value::as_str)
                != Some("textDocument/publishDiagnostics")
            {
                continue;
            }
            let params = message.get("params").unwrap_or(&Value::Null);
            if params.get("uri").and_then(Value::as_str) == Some(uri)
                && params.get("version").and_then(Value::as_i64) == Some(version)
            {
                return Ok(params.clone());
            }
        }
        Err(format!(
            "no diagnostics for {uri} version {version} within {timeout:?}"
        ))
    }

    /// `initialize` on one workspace folder, then `initialized`. The client
    /// accepts progress and versioned diagnostics, and registers no file
    /// watching (so the server watches the folder itself, as under Neovim).
    pub fn initialize(&mut self, folder: &Path) -> Result<()> {
        self.initialize_with(folder, Value::Null)
    }

    /// [`Client::initialize`] with the server's settings as
    /// `initializationOptions`.
    pub fn initialize_with(&mut self, folder: &Path, settings: Value) -> Result<()> {
        let uri = file_uri(folder);
        let params = json!({
            "processId": std::process::id(),
            "rootUri": uri,
            "workspaceFolders": [{"uri": uri, "name": "bench"}],
            "initializationOptions": settings,
            "capabilities": {
                "window": {"workDoneProgress": true},
                "textDocument": {
                    "synchronization": {"didSave": true},
                    "publishDiagnostics": {"versionSupport": true, "relatedInformation": true}
                }
            }
        });
        self.request("initialize", params, Duration::from_secs(30))?;
        self.notify("initialized", json!({}))
    }

    /// Waits until the initial indexing is over: its progress has ended
    /// (the scan analyses every directory, ends its progress, then
    /// publishes) and no diagnostics arrived for a second. Only files with
    /// problems are published, so their number is not known in advance.
    /// Returns the number of files published and when the last publication
    /// (or the end of progress, if none came after it) arrived.
    pub fn wait_indexed(&mut self, timeout: Duration) -> Result<(usize, Instant)> {
        let deadline = Instant::now() + timeout;
        let mut published = std::collections::HashSet::new();
        let mut progress_ended = false;
        let mut last_event = Instant::now();
        let quiet = Duration::from_secs(1);
        loop {
            let wait_until = if progress_ended {
                (last_event + quiet).min(deadline)
            } else {
                deadline
            };
            let Some(message) = self.next_notification(wait_until)? else {
                if progress_ended {
                    return Ok((published.len(), last_event));
                }
                return Err(format!(
                    "indexing did not end within {timeout:?} ({} files published)",
                    published.len()
                ));
            };
            let params = message.get("params").unwrap_or(&Value::Null);
            match message.get("method").and_then(Value::as_str) {
                Some("textDocument/publishDiagnostics") => {
                    if let Some(uri) = params.get("uri").and_then(Value::as_str) {
                        published.insert(uri.to_owned());
                    }
                    last_event = Instant::now();
                }
                Some("$/progress") => {
                    let kind = params.pointer("/value/kind").and_then(Value::as_str);
                    if kind == Some("end") {
                        progress_ended = true;
                        last_event = Instant::now();
                    }
                }
                _ => {}
            }
        }
    }

    /// `shutdown` and `exit`, then waits for the process (killing it after
    /// five seconds). Returns the server's log.
    pub fn shutdown(mut self) -> Vec<String> {
        let _ = self.request("shutdown", Value::Null, Duration::from_secs(5));
        let _ = self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(reader) = self.log_reader.take() {
            let _ = reader.join();
        }
        self.log
            .lock()
            .map(|lines| lines.clone())
            .unwrap_or_default()
    }

    fn log_tail(&self) -> String {
        let lines = self
            .log
            .lock()
            .map(|lines| lines.clone())
            .unwrap_or_default();
        let start = lines.len().saturating_sub(10);
        lines.get(start..).unwrap_or_default().join("\n")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One framed message, or `None` at the end of the stream or on bad framing.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A `file://` URI for an absolute path, percent-encoding what is not
/// unreserved (RFC 3986) or a separator.
pub fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn framing_reads_back_what_is_written() {
        let mut stream = Vec::new();
        for body in [r#"{"a":1}"#, r#"{"b":"é"}"#] {
            write!(stream, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        }
        let mut reader = std::io::Cursor::new(stream);
        assert_eq!(read_message(&mut reader), Some(json!({"a": 1})));
        assert_eq!(read_message(&mut reader), Some(json!({"b": "é"})));
        assert_eq!(read_message(&mut reader), None);
    }

    #[test]
    fn uris_encode_what_paths_may_hold() {
        assert_eq!(
            file_uri(Path::new("/tmp/a b/ü.tf")),
            "file:///tmp/a%20b/%C3%BC.tf"
        );
    }
}

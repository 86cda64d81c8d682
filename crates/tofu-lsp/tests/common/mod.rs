//! An in-process LSP client for end-to-end tests: it runs the real
//! tower-lsp-server stack over `tokio::io::duplex`, frames messages, answers
//! the server's own requests (configuration, registration, progress), and
//! waits for named notifications with a timeout — never a sleep.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// How long any wait may take before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(20);

pub struct TestClient {
    outgoing: mpsc::UnboundedSender<Value>,
    incoming: mpsc::UnboundedReceiver<Value>,
    buffered: VecDeque<Value>,
    next_id: i64,
    /// Methods of the requests the server sent us, in order.
    pub server_requests: Vec<String>,
    /// The params of each `client/registerCapability` the server sent.
    pub registrations: Vec<Value>,
    /// The `initialize` result.
    pub initialize_result: Value,
}

fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

pub fn uri(path: &Path) -> String {
    tower_lsp_server::ls_types::Uri::from_file_path(path)
        .unwrap()
        .as_str()
        .to_owned()
}

/// Capabilities of a capable client: UTF-16, dynamic watcher registration
/// (so no file-system watcher of the server's own), configuration pulls,
/// progress, related information, completion snippets.
pub fn capabilities() -> Value {
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {
            "synchronization": {"didSave": true},
            "completion": {"completionItem": {"snippetSupport": true}},
            "publishDiagnostics": {"relatedInformation": true, "versionSupport": true,
                                   "tagSupport": {"valueSet": [1, 2]}},
            "hover": {"contentFormat": ["markdown"]},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": true}
        },
        "workspace": {
            "workspaceFolders": true,
            "configuration": true,
            "didChangeWatchedFiles": {"dynamicRegistration": true},
            "workspaceEdit": {"documentChanges": true, "resourceOperations": ["create"]}
        },
        "window": {"workDoneProgress": true}
    })
}

/// The options tests run the server with: a short debounce, the test hooks.
pub fn test_options() -> tofu_lsp::ServerOptions {
    tofu_lsp::ServerOptions {
        debounce: Duration::from_millis(5),
        test_hooks: true,
        // No full analysis kept for directories without open documents:
        // every test also checks that publishing, workspace features and
        // requests on closed files work from summaries and analyses on demand.
        full_analyses_kept: 0,
        ..tofu_lsp::ServerOptions::default()
    }
}

impl TestClient {
    /// Starts a server on `root` and completes `initialize`/`initialized`.
    /// `configuration` is what the client answers to `workspace/configuration`.
    pub async fn start(
        root: &Path,
        capabilities: Value,
        init_options: Value,
        configuration: Value,
    ) -> TestClient {
        TestClient::start_with_options(
            root,
            capabilities,
            init_options,
            configuration,
            test_options(),
        )
        .await
    }

    /// [`TestClient::start`] with server options of the test's choosing.
    pub async fn start_with_options(
        root: &Path,
        capabilities: Value,
        init_options: Value,
        configuration: Value,
        options: tofu_lsp::ServerOptions,
    ) -> TestClient {
        TestClient::start_as(
            root,
            capabilities,
            init_options,
            configuration,
            options,
            Value::Null,
        )
        .await
    }

    /// [`TestClient::start_with_options`] for a client that names itself
    /// (`clientInfo`).
    pub async fn start_as(
        root: &Path,
        capabilities: Value,
        init_options: Value,
        configuration: Value,
        options: tofu_lsp::ServerOptions,
        client_info: Value,
    ) -> TestClient {
        // These tests are about the protocol: without settings of their own,
        // the unused-declaration hints on the variables they declare would
        // only add noise (the rule has its fixtures).
        let init_options = if init_options == json!({}) {
            json!({"diagnostics": {"severity": {"unused-declaration": "off"}}})
        } else {
            init_options
        };
        let (client_side, server_side) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_side);
        let (client_read, mut client_write) = tokio::io::split(client_side);
        let (service, socket) = tofu_lsp::service(options);
        tokio::spawn(
            tower_lsp_server::Server::new(server_read, server_write, socket).serve(service),
        );

        let (outgoing, mut to_server) = mpsc::unbounded_channel::<Value>();
        tokio::spawn(async move {
            while let Some(message) = to_server.recv().await {
                if client_write.write_all(&frame(&message)).await.is_err() {
                    break;
                }
            }
        });
        let (to_test, incoming) = mpsc::unbounded_channel::<Value>();
        let answers = outgoing.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(client_read);
            loop {
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length: ") {
                        length = value.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).await.is_err() {
                    return;
                }
                let message: Value = serde_json::from_slice(&body).unwrap();
                if message.get("id").is_some() && message.get("method").is_some() {
                    let result = match message["method"].as_str() {
                        Some("workspace/configuration") => json!([configuration.clone()]),
                        _ => Value::Null,
                    };
                    let _ = answers
                        .send(json!({"jsonrpc": "2.0", "id": message["id"], "result": result}));
                }
                if to_test.send(message).is_err() {
                    return;
                }
            }
        });
        let mut client = TestClient {
            outgoing,
            incoming,
            buffered: VecDeque::new(),
            next_id: 0,
            server_requests: Vec::new(),
            registrations: Vec::new(),
            initialize_result: Value::Null,
        };
        let folder = json!([{"uri": uri(root), "name": "root"}]);
        client.initialize_result = client
            .request(
                "initialize",
                json!({"processId": null, "rootUri": uri(root), "workspaceFolders": folder,
                       "capabilities": capabilities, "initializationOptions": init_options,
                       "clientInfo": client_info}),
            )
            .await;
        client.notify("initialized", json!({}));
        client
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.outgoing
            .send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .unwrap();
    }

    /// Sends a request and returns its `result`, or the whole response when it
    /// is an error.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.outgoing
            .send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .unwrap();
        loop {
            let message = self.next_message().await;
            if message.get("method").is_none() && message["id"] == id {
                return match message.get("error") {
                    Some(_) => message,
                    None => message["result"].clone(),
                };
            }
            self.buffered.push_back(message);
        }
    }

    async fn next_message(&mut self) -> Value {
        let message = tokio::time::timeout(TIMEOUT, self.incoming.recv())
            .await
            .expect("timed out waiting for a message from the server")
            .expect("the server closed the connection");
        if message.get("id").is_some() {
            if let Some(method) = message["method"].as_str() {
                self.server_requests.push(method.to_owned());
                if method == "client/registerCapability" {
                    self.registrations.push(message["params"].clone());
                }
            }
        }
        message
    }

    /// Waits for a notification `method` whose params satisfy `accept`;
    /// earlier notifications that do not match stay available.
    pub async fn wait_for(&mut self, method: &str, accept: impl Fn(&Value) -> bool) -> Value {
        if let Some(index) = self
            .buffered
            .iter()
            .position(|m| m["method"] == method && accept(&m["params"]))
        {
            return self.buffered.remove(index).unwrap()["params"].clone();
        }
        loop {
            let message = self.next_message().await;
            if message["method"] == method && accept(&message["params"]) {
                return message["params"].clone();
            }
            self.buffered.push_back(message);
        }
    }

    /// Waits for diagnostics published for `path` that satisfy `accept`.
    pub async fn wait_for_diagnostics(
        &mut self,
        path: &Path,
        accept: impl Fn(&Value) -> bool,
    ) -> Value {
        let uri = uri(path);
        self.wait_for("textDocument/publishDiagnostics", |params| {
            params["uri"] == uri.as_str() && accept(params)
        })
        .await
    }

    /// Every `publishDiagnostics` the server sent, in order, once it has
    /// nothing left to do: `tofuLens/settled` (a test hook) answers then,
    /// with how many it sent, since its answer may overtake the last of
    /// them.
    pub async fn settled_publications(&mut self) -> Vec<Value> {
        let settled = self.request("tofuLens/settled", Value::Null).await;
        let sent = settled["publications"]
            .as_u64()
            .expect("tofuLens/settled answers with a count") as usize;
        let mut received = self.drain("textDocument/publishDiagnostics");
        while received.len() < sent {
            received.push(
                self.wait_for("textDocument/publishDiagnostics", |_| true)
                    .await,
            );
        }
        received
    }

    /// Every buffered notification `method`, removed from the buffer.
    pub fn drain(&mut self, method: &str) -> Vec<Value> {
        let (matching, rest): (Vec<Value>, Vec<Value>) =
            self.buffered.drain(..).partition(|m| m["method"] == method);
        self.buffered = rest.into();
        matching.into_iter().map(|m| m["params"].clone()).collect()
    }

    pub fn open(&self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "opentofu", "version": version, "text": text}}),
        );
    }

    /// One incremental change `[l1, c1, l2, c2] -> text`.
    pub fn change(&self, path: &Path, version: i32, range: [u32; 4], text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": version},
                   "contentChanges": [{"range": {"start": {"line": range[0], "character": range[1]},
                                                 "end": {"line": range[2], "character": range[3]}},
                                       "text": text}]}),
        );
    }

    pub async fn shutdown(mut self) {
        let result = self.request("shutdown", Value::Null).await;
        assert!(result.is_null(), "{result}");
        self.notify("exit", Value::Null);
    }
}

/// The codes of a publication, in order.
pub fn codes(params: &Value) -> Vec<String> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

/// Copies a directory tree (files only) into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The repository's `examples/overrides`, copied into a fresh directory.
pub fn overrides_example() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/overrides");
    copy_tree(&example, &root);
    (temp, root)
}

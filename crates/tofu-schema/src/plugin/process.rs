//! Starting a provider executable as OpenTofu's go-plugin client does, and
//! ending it: the environment (the magic cookie, the protocol versions on
//! offer), the handshake line on its stdout
//! (`CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT`), the connection to the Unix
//! socket it names, and at the end the controller's `Shutdown`, a wait,
//! then kill and reap.
//!
//! No automatic mTLS: go-plugin servers speak cleartext unless the client
//! sends `PLUGIN_CLIENT_CERT` (OpenTofu itself can run without it,
//! `TF_DISABLE_PLUGIN_TLS`). Stdout is drained after the handshake and
//! stderr kept (its last 64 KiB) for messages, so a chatty provider never
//! blocks on a full pipe. Every step has a deadline, and dropping a
//! [`ProviderProcess`] kills and reaps the child: no process outlives it.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::grpc::{GrpcChannel, GrpcError};
use super::messages::ProtocolVersion;

/// go-plugin's handshake cookie for OpenTofu's providers.
const MAGIC_COOKIE_KEY: &str = "TF_PLUGIN_MAGIC_COOKIE";
const MAGIC_COOKIE_VALUE: &str = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/// How much of stderr is kept for messages.
const STDERR_KEPT: usize = 64 * 1024;
/// How long a handshake line may be before it is garbage.
const HANDSHAKE_LINE_LIMIT: usize = 4096;

/// How long each step may take.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// From start to the handshake line.
    pub handshake: Duration,
    /// Each call.
    pub call: Duration,
    /// From asking the provider to shut down to killing it.
    pub shutdown: Duration,
}

impl Default for Timeouts {
    /// go-plugin waits a minute for the handshake; a provider that needs
    /// more than ten seconds to start or answer is treated as hung.
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            call: Duration::from_secs(30),
            shutdown: Duration::from_secs(2),
        }
    }
}

/// Why a provider could not be started or talked to.
#[derive(Debug)]
pub enum PluginError {
    /// The executable could not be run at all (missing, not executable,
    /// for another platform).
    Spawn {
        executable: PathBuf,
        error: io::Error,
    },
    /// It exited before the handshake.
    ExitedEarly {
        status: Option<ExitStatus>,
        stderr: String,
    },
    /// No handshake line in time.
    HandshakeTimedOut { stderr: String },
    /// The first line on stdout was not a handshake.
    BadHandshake {
        line: String,
        reason: String,
        stderr: String,
    },
    /// Connecting to or calling the provider failed.
    Call {
        method: String,
        error: GrpcError,
        stderr: String,
    },
}

impl fmt::Display for PluginError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PluginError::Spawn { executable, error } => {
                write!(formatter, "could not run {}: {error}", executable.display())
            }
            PluginError::ExitedEarly { status, stderr } => {
                match status {
                    Some(status) => write!(
                        formatter,
                        "the provider exited before its handshake ({status})"
                    )?,
                    None => write!(
                        formatter,
                        "the provider closed its output before its handshake"
                    )?,
                }
                write_stderr(formatter, stderr)
            }
            PluginError::HandshakeTimedOut { stderr } => {
                write!(formatter, "the provider printed no handshake in time")?;
                write_stderr(formatter, stderr)
            }
            PluginError::BadHandshake {
                line,
                reason,
                stderr,
            } => {
                write!(
                    formatter,
                    "the provider printed {line:?} instead of a plugin handshake ({reason})"
                )?;
                write_stderr(formatter, stderr)
            }
            PluginError::Call {
                method,
                error,
                stderr,
            } => {
                write!(formatter, "{method} failed: {error}")?;
                write_stderr(formatter, stderr)
            }
        }
    }
}

fn write_stderr(formatter: &mut fmt::Formatter<'_>, stderr: &str) -> fmt::Result {
    let trimmed = stderr.trim();
    if trimmed.is_empty() {
        Ok(())
    } else {
        write!(formatter, "; its stderr: {trimmed}")
    }
}

impl std::error::Error for PluginError {}

/// What the handshake line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    pub protocol: ProtocolVersion,
    pub socket: PathBuf,
}

/// Reads `CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT[|MUX]`.
pub fn parse_handshake(line: &str) -> Result<Handshake, String> {
    let parts: Vec<&str> = line.trim_end().split('|').collect();
    let [core, app, network, address, protocol, rest @ ..] = parts.as_slice() else {
        return Err("fewer than five fields".to_owned());
    };
    if *core != "1" {
        return Err(format!("core protocol {core}, not 1"));
    }
    let protocol_version = match *app {
        "5" => ProtocolVersion::Five,
        "6" => ProtocolVersion::Six,
        other => return Err(format!("plugin protocol {other}, not 5 or 6")),
    };
    if *protocol != "grpc" {
        return Err(format!("RPC protocol {protocol}, not grpc"));
    }
    if *network != "unix" {
        return Err(format!(
            "network {network}; only Unix sockets are supported"
        ));
    }
    if rest.first().is_some_and(|cert| !cert.is_empty()) {
        return Err("a TLS certificate, though none was asked for".to_owned());
    }
    Ok(Handshake {
        protocol: protocol_version,
        socket: PathBuf::from(address),
    })
}

/// A running provider with a gRPC channel to it.
pub struct ProviderProcess {
    child: Child,
    channel: GrpcChannel,
    pub protocol: ProtocolVersion,
    stderr: Arc<Mutex<Vec<u8>>>,
    timeouts: Timeouts,
}

impl ProviderProcess {
    /// Starts `executable`, waits for its handshake and connects.
    /// `socket_dir` (go-plugin's `PLUGIN_UNIX_SOCKET_DIR`) is where the
    /// provider puts its socket; `None` leaves it to the provider.
    pub fn start(
        executable: &Path,
        socket_dir: Option<&Path>,
        timeouts: Timeouts,
    ) -> Result<ProviderProcess, PluginError> {
        let mut command = Command::new(executable);
        command
            .env(MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE)
            .env("PLUGIN_PROTOCOL_VERSIONS", "5,6")
            .env("PLUGIN_MIN_PORT", "10000")
            .env("PLUGIN_MAX_PORT", "25000")
            .env_remove("PLUGIN_CLIENT_CERT")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(socket_dir) = socket_dir {
            command.env("PLUGIN_UNIX_SOCKET_DIR", socket_dir);
        }
        let mut child = command.spawn().map_err(|error| PluginError::Spawn {
            executable: executable.to_path_buf(),
            error,
        })?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (stderr_closed_sender, stderr_closed) = mpsc::channel::<()>();
        if let Some(pipe) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            thread::spawn(move || {
                keep_tail(pipe, &kept);
                drop(stderr_closed_sender);
            });
        }
        let (line_sender, line_receiver) = mpsc::channel();
        if let Some(pipe) = child.stdout.take() {
            thread::spawn(move || read_handshake_then_drain(pipe, &line_sender));
        }
        let mut started = StartingChild {
            child: Some(child),
            stderr: Arc::clone(&stderr),
        };
        let deadline = Instant::now() + timeouts.handshake;
        let line = match line_receiver.recv_timeout(timeouts.handshake) {
            Ok(Some(line)) => line,
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = started.wait_for_exit(deadline);
                // Let the reader take in the last of stderr before quoting it.
                let _ =
                    stderr_closed.recv_timeout(deadline.saturating_duration_since(Instant::now()));
                return Err(PluginError::ExitedEarly {
                    status,
                    stderr: started.stderr_text(),
                });
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(PluginError::HandshakeTimedOut {
                    stderr: started.stderr_text(),
                })
            }
        };
        let handshake = parse_handshake(&line).map_err(|reason| PluginError::BadHandshake {
            line: line.trim_end().to_owned(),
            reason,
            stderr: started.stderr_text(),
        })?;
        let call_deadline = Instant::now() + timeouts.call;
        let channel = UnixStream::connect(&handshake.socket)
            .map_err(|error| {
                GrpcError::Malformed(format!(
                    "could not connect to {}: {error}",
                    handshake.socket.display()
                ))
            })
            .and_then(|socket| GrpcChannel::connect(socket, call_deadline))
            .map_err(|error| PluginError::Call {
                method: "connecting".to_owned(),
                error,
                stderr: started.stderr_text(),
            })?;
        let Some(child) = started.child.take() else {
            return Err(PluginError::ExitedEarly {
                status: None,
                stderr: started.stderr_text(),
            });
        };
        Ok(ProviderProcess {
            child,
            channel,
            protocol: handshake.protocol,
            stderr,
            timeouts,
        })
    }

    /// Calls `/PACKAGE.Provider/METHOD` (the package of its protocol).
    pub fn call_provider(&mut self, method: &str, request: &[u8]) -> Result<Vec<u8>, PluginError> {
        let path = format!("/{}.Provider/{method}", self.protocol.package());
        self.call(&path, method, request)
    }

    fn call(&mut self, path: &str, method: &str, request: &[u8]) -> Result<Vec<u8>, PluginError> {
        let deadline = Instant::now() + self.timeouts.call;
        self.channel
            .call(path, request, deadline)
            .map_err(|error| PluginError::Call {
                method: method.to_owned(),
                error,
                stderr: stderr_text(&self.stderr),
            })
    }

    /// What the provider wrote to stderr so far (its last 64 KiB).
    pub fn stderr(&self) -> String {
        stderr_text(&self.stderr)
    }

    /// The provider's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Asks the provider to exit (go-plugin's controller `Shutdown`), waits
    /// for it, and kills it if it does not; always reaps it.
    pub fn shutdown(mut self) {
        let deadline = Instant::now() + self.timeouts.shutdown;
        let _ = self
            .channel
            .call("/plugin.GRPCController/Shutdown", &[], deadline);
        if wait_until(&mut self.child, deadline).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        // Drop finds it reaped: try_wait returns its status at once.
    }
}

impl Drop for ProviderProcess {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A child between spawn and a successful connection: dropping it kills
/// and reaps it.
struct StartingChild {
    child: Option<Child>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl StartingChild {
    fn wait_for_exit(&mut self, deadline: Instant) -> Option<ExitStatus> {
        self.child
            .as_mut()
            .and_then(|child| wait_until(child, deadline))
    }

    fn stderr_text(&self) -> String {
        stderr_text(&self.stderr)
    }
}

impl Drop for StartingChild {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            if !matches!(child.try_wait(), Ok(Some(_))) {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// Waits for the child to exit until `deadline`; `None` if it did not.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            _ => return None,
        }
    }
}

fn stderr_text(stderr: &Mutex<Vec<u8>>) -> String {
    match stderr.lock() {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(poisoned) => String::from_utf8_lossy(&poisoned.into_inner()).into_owned(),
    }
}

/// Keeps the last [`STDERR_KEPT`] bytes of `pipe` until it closes.
fn keep_tail(mut pipe: impl Read, kept: &Mutex<Vec<u8>>) {
    let mut buffer = [0u8; 8192];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(count) => {
                let Ok(mut bytes) = kept.lock() else { return };
                bytes.extend_from_slice(buffer.get(..count).unwrap_or_default());
                let excess = bytes.len().saturating_sub(STDERR_KEPT);
                bytes.drain(..excess);
            }
        }
    }
}

/// Sends the first line of stdout (or `None` at end of output), then reads
/// the rest away.
fn read_handshake_then_drain(pipe: impl Read, line_sender: &mpsc::Sender<Option<String>>) {
    let mut reader = BufReader::new(pipe);
    let mut line = Vec::new();
    let first = match reader
        .by_ref()
        .take(HANDSHAKE_LINE_LIMIT as u64)
        .read_until(b'\n', &mut line)
    {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&line).into_owned()),
    };
    let _ = line_sender.send(first);
    let _ = io::copy(&mut reader, &mut io::sink());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_lines_read_as_go_plugin_writes_them() {
        assert_eq!(
            parse_handshake("1|6|unix|/tmp/plugin123|grpc|\n"),
            Ok(Handshake {
                protocol: ProtocolVersion::Six,
                socket: PathBuf::from("/tmp/plugin123")
            })
        );
        assert!(parse_handshake("1|5|unix|/tmp/p|grpc||true").is_ok());
        for line in [
            "hello",
            "2|5|unix|/tmp/p|grpc|",
            "1|4|unix|/tmp/p|grpc|",
            "1|5|tcp|127.0.0.1:1234|grpc|",
            "1|5|unix|/tmp/p|netrpc|",
            "1|5|unix|/tmp/p|grpc|MIIB",
        ] {
            assert!(parse_handshake(line).is_err(), "{line}");
        }
    }
}

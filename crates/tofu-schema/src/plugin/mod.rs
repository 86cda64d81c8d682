//! Reading a schema by starting the provider, as OpenTofu does: the
//! go-plugin handshake and process lifetime ([`process`]), gRPC
//! ([`grpc`]) over a small blocking HTTP/2 client ([`http2`]) on the
//! provider's Unix socket, the protocol's messages ([`messages`] on
//! [`protobuf`]) for protocol 5 and 6, and the RPCs ([`client`]).
//!
//! Blocking, with threads only to read the provider's output pipes: no
//! async runtime, so the crate stays free of tokio (ARCHITECTURE.md: only
//! tofu-lsp and tofu-lens depend on it); a server calls it from a blocking
//! task.

pub mod client;
pub mod grpc;
pub mod http2;
pub mod messages;
pub mod process;
pub mod protobuf;

pub use client::{ClientError, DynamicValue, FunctionAnswer, ProviderClient};
pub use messages::{ProtocolVersion, ProviderDiagnostic};
pub use process::{PluginError, Timeouts};

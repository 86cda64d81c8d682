//! A minimal HTTP/2 client, enough for gRPC unary calls to a provider on a
//! Unix socket: HPACK ([`hpack`], its tables in `hpack_tables`) and one
//! blocking connection ([`connection`]).
//!
//! Written here rather than taken from `h2` because `h2` is async on
//! tokio, and tokio must stay out of the engine crates (only tofu-lsp and
//! tofu-lens depend on it); a provider is one peer, Go's gRPC server, and
//! a schema read is a handful of sequential calls, so a blocking client
//! with deadlines is all that is needed.

pub mod connection;
pub mod hpack;
mod hpack_tables;

pub use connection::{Http2Connection, Http2Error, Response};

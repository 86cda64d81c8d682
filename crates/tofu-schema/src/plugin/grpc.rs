//! gRPC unary calls over one HTTP/2 connection (the gRPC over HTTP/2
//! specification): the request headers, the length-prefixed message, and
//! the status from the trailers (or a trailers-only response).
//!
//! Compression is never asked for, so a compressed message is an error;
//! `grpc-message` is percent-decoded for the error text. One call at a
//! time, each with its own deadline.

use std::fmt;
use std::os::unix::net::UnixStream;
use std::time::Instant;

use super::http2::{Http2Connection, Http2Error, Response};

/// gRPC's status code for a method the server does not implement.
pub const STATUS_UNIMPLEMENTED: u32 = 12;

/// The largest response message read (OpenTofu allows 64 MiB for schemas;
/// go-plugin's client takes up to 2 GiB).
const MAX_MESSAGE: usize = 256 * 1024 * 1024;

/// Why a call failed.
#[derive(Debug)]
pub enum GrpcError {
    /// The connection failed or timed out.
    Transport(Http2Error),
    /// The server answered with a non-OK status.
    Status { code: u32, message: String },
    /// The response was not a gRPC response.
    Malformed(String),
}

impl From<Http2Error> for GrpcError {
    fn from(error: Http2Error) -> GrpcError {
        GrpcError::Transport(error)
    }
}

impl fmt::Display for GrpcError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrpcError::Transport(Http2Error::TimedOut) => formatter.write_str("timed out"),
            GrpcError::Transport(Http2Error::Io(error)) => write!(formatter, "{error}"),
            GrpcError::Transport(Http2Error::Protocol(message)) | GrpcError::Malformed(message) => {
                formatter.write_str(message)
            }
            GrpcError::Transport(Http2Error::StreamReset(code)) => {
                write!(
                    formatter,
                    "the provider reset the call (HTTP/2 error {code})"
                )
            }
            GrpcError::Transport(Http2Error::GoAway(code, debug)) => {
                write!(
                    formatter,
                    "the provider closed the connection (HTTP/2 error {code}) {debug}"
                )
            }
            GrpcError::Status { code, message } => {
                write!(formatter, "gRPC status {code}: {message}")
            }
        }
    }
}

/// A gRPC client on one connection.
pub struct GrpcChannel {
    connection: Http2Connection,
}

impl GrpcChannel {
    pub fn connect(socket: UnixStream, deadline: Instant) -> Result<GrpcChannel, GrpcError> {
        Ok(GrpcChannel {
            connection: Http2Connection::start(socket, deadline)?,
        })
    }

    /// Calls `path` (`/package.Service/Method`) with one request message
    /// and returns the response message.
    pub fn call(
        &mut self,
        path: &str,
        request: &[u8],
        deadline: Instant,
    ) -> Result<Vec<u8>, GrpcError> {
        let length = u32::try_from(request.len())
            .map_err(|_| GrpcError::Malformed("a request over 4 GiB".to_owned()))?;
        let mut body = Vec::with_capacity(request.len() + 5);
        body.push(0);
        body.extend_from_slice(&length.to_be_bytes());
        body.extend_from_slice(request);
        let headers = [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", "localhost"),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
            ("user-agent", "tofu-lens"),
        ];
        let response = self
            .connection
            .request(&headers, &body, MAX_MESSAGE + 5, deadline)?;
        read_unary_response(&response)
    }
}

fn read_unary_response(response: &Response) -> Result<Vec<u8>, GrpcError> {
    let status = response.field(":status");
    if status != Some(b"200") {
        return Err(GrpcError::Malformed(format!(
            "HTTP status {} instead of 200",
            String::from_utf8_lossy(status.unwrap_or(b"(none)"))
        )));
    }
    let code = response
        .field("grpc-status")
        .and_then(|value| std::str::from_utf8(value).ok())
        .and_then(|value| value.parse::<u32>().ok())
        .ok_or_else(|| GrpcError::Malformed("a response without grpc-status".to_owned()))?;
    if code != 0 {
        let message = response
            .field("grpc-message")
            .map(percent_decode)
            .unwrap_or_default();
        return Err(GrpcError::Status { code, message });
    }
    let Some((&compressed, rest)) = response.body.split_first() else {
        return Err(GrpcError::Malformed(
            "an OK response without a message".to_owned(),
        ));
    };
    if compressed != 0 {
        return Err(GrpcError::Malformed(
            "a compressed message, never asked for".to_owned(),
        ));
    }
    let length = rest
        .get(..4)
        .and_then(|bytes| <[u8; 4]>::try_from(bytes).ok())
        .map(u32::from_be_bytes)
        .and_then(|length| usize::try_from(length).ok())
        .ok_or_else(|| GrpcError::Malformed("a truncated message prefix".to_owned()))?;
    rest.get(4..4 + length)
        .map(<[u8]>::to_vec)
        .ok_or_else(|| GrpcError::Malformed("a message shorter than its prefix".to_owned()))
}

/// `grpc-message` is percent-encoded UTF-8.
fn percent_decode(value: &[u8]) -> String {
    let mut out = Vec::with_capacity(value.len());
    let mut rest = value;
    while let Some((&byte, tail)) = rest.split_first() {
        let hex = tail
            .get(..2)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (byte, hex) {
            (b'%', Some(decoded)) => {
                out.push(decoded);
                rest = tail.get(2..).unwrap_or_default();
            }
            _ => {
                out.push(byte);
                rest = tail;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(headers: &[(&str, &str)], body: &[u8], trailers: &[(&str, &str)]) -> Response {
        let fields = |list: &[(&str, &str)]| {
            list.iter()
                .map(|(name, value)| (name.as_bytes().to_vec(), value.as_bytes().to_vec()))
                .collect()
        };
        Response {
            headers: fields(headers),
            body: body.to_vec(),
            trailers: fields(trailers),
        }
    }

    #[test]
    fn an_ok_response_gives_its_message() {
        let ok = response(
            &[(":status", "200")],
            b"\x00\x00\x00\x00\x03abc",
            &[("grpc-status", "0")],
        );
        assert_eq!(read_unary_response(&ok).unwrap(), b"abc");
    }

    #[test]
    fn statuses_and_malformed_responses_are_errors() {
        let unimplemented = response(
            &[
                (":status", "200"),
                ("grpc-status", "12"),
                ("grpc-message", "unknown%20method%"),
            ],
            b"",
            &[],
        );
        match read_unary_response(&unimplemented) {
            Err(GrpcError::Status { code, message }) => {
                assert_eq!(
                    (code, message.as_str()),
                    (STATUS_UNIMPLEMENTED, "unknown method%")
                );
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            response(&[(":status", "404")], b"", &[]),
            response(&[(":status", "200")], b"\x00\x00\x00\x00\x01a", &[]),
            response(
                &[(":status", "200")],
                b"\x01\x00\x00\x00\x01a",
                &[("grpc-status", "0")],
            ),
            response(
                &[(":status", "200")],
                b"\x00\x00\x00\x00\x09a",
                &[("grpc-status", "0")],
            ),
            response(&[(":status", "200")], b"\x00\x00", &[("grpc-status", "0")]),
        ] {
            assert!(read_unary_response(&bad).is_err());
        }
    }
}

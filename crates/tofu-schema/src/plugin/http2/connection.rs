//! One HTTP/2 client connection over cleartext (h2c with prior knowledge,
//! RFC 9113), the subset a gRPC unary call needs: the preface and
//! settings, one request stream at a time (HEADERS, DATA), its response
//! (HEADERS, CONTINUATION, DATA, trailers), flow control both ways, PING
//! answered, GOAWAY and RST_STREAM reported.
//!
//! It is blocking and owns its socket: a caller makes one [`request`] at a
//! time, with a deadline that bounds every read and write of it. Left out
//! on purpose: concurrent streams, server push (disabled in our settings),
//! priorities (ignored), and TLS (go-plugin serves cleartext unless the
//! client sends a certificate). Invariant: no input from the peer makes
//! it panic or allocate beyond the frame size it announced and the body
//! limit the caller gives.
//!
//! [`request`]: Http2Connection::request

use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::time::Instant;

use super::hpack::{encode_headers, HeaderField, HpackDecoder};

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

const FRAME_DATA: u8 = 0x0;
const FRAME_HEADERS: u8 = 0x1;
const FRAME_RST_STREAM: u8 = 0x3;
const FRAME_SETTINGS: u8 = 0x4;
const FRAME_PUSH_PROMISE: u8 = 0x5;
const FRAME_PING: u8 = 0x6;
const FRAME_GOAWAY: u8 = 0x7;
const FRAME_WINDOW_UPDATE: u8 = 0x8;
const FRAME_CONTINUATION: u8 = 0x9;

const FLAG_END_STREAM: u8 = 0x1;
const FLAG_ACK: u8 = 0x1;
const FLAG_END_HEADERS: u8 = 0x4;
const FLAG_PADDED: u8 = 0x8;
const FLAG_PRIORITY: u8 = 0x20;

const SETTING_ENABLE_PUSH: u16 = 0x2;
const SETTING_INITIAL_WINDOW_SIZE: u16 = 0x4;
const SETTING_MAX_FRAME_SIZE: u16 = 0x5;

/// The largest frame payload we accept (the protocol's default; we do not
/// announce a larger one).
const OUR_MAX_FRAME_SIZE: usize = 16_384;
/// Our receive window, per stream and for the connection: large enough
/// that a schema never waits on a window update.
const OUR_WINDOW: u32 = 16 * 1024 * 1024;
/// The window every HTTP/2 connection starts with.
const DEFAULT_WINDOW: u32 = 65_535;
const OUR_HEADER_TABLE_SIZE: usize = 4_096;

/// What went wrong on the connection.
#[derive(Debug)]
pub enum Http2Error {
    Io(io::Error),
    /// The deadline passed while waiting for the peer.
    TimedOut,
    /// The peer broke the protocol or closed the connection.
    Protocol(String),
    /// The peer reset our stream (RST_STREAM) with this error code.
    StreamReset(u32),
    /// The peer is going away (GOAWAY) with this error code and debug text.
    GoAway(u32, String),
}

impl From<io::Error> for Http2Error {
    fn from(error: io::Error) -> Http2Error {
        match error.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Http2Error::TimedOut,
            _ => Http2Error::Io(error),
        }
    }
}

/// A response: its header fields, body and trailer fields.
#[derive(Debug, Default)]
pub struct Response {
    pub headers: Vec<HeaderField>,
    pub body: Vec<u8>,
    pub trailers: Vec<HeaderField>,
}

impl Response {
    /// The first value of `name` in the trailers, else in the headers.
    pub fn field(&self, name: &str) -> Option<&[u8]> {
        self.trailers
            .iter()
            .chain(self.headers.iter())
            .find(|(field, _)| field.as_slice() == name.as_bytes())
            .map(|(_, value)| value.as_slice())
    }
}

struct Frame {
    kind: u8,
    flags: u8,
    stream_id: u32,
    payload: Vec<u8>,
}

/// A client connection.
pub struct Http2Connection {
    socket: UnixStream,
    decoder: HpackDecoder,
    next_stream_id: u32,
    peer_max_frame_size: usize,
    peer_initial_window: i64,
    connection_send_window: i64,
    /// Bytes received on the connection since our last WINDOW_UPDATE for it.
    connection_unacknowledged: u32,
}

impl Http2Connection {
    /// Sends the preface and our settings over `socket`; the server's
    /// settings are read with the first response.
    pub fn start(socket: UnixStream, deadline: Instant) -> Result<Http2Connection, Http2Error> {
        let mut connection = Http2Connection {
            socket,
            decoder: HpackDecoder::new(OUR_HEADER_TABLE_SIZE),
            next_stream_id: 1,
            peer_max_frame_size: OUR_MAX_FRAME_SIZE,
            peer_initial_window: i64::from(DEFAULT_WINDOW),
            connection_send_window: i64::from(DEFAULT_WINDOW),
            connection_unacknowledged: 0,
        };
        let mut settings = Vec::new();
        for (identifier, value) in [
            (SETTING_ENABLE_PUSH, 0),
            (SETTING_INITIAL_WINDOW_SIZE, OUR_WINDOW),
        ] {
            settings.extend_from_slice(&identifier.to_be_bytes());
            settings.extend_from_slice(&value.to_be_bytes());
        }
        let mut opening = PREFACE.to_vec();
        push_frame(&mut opening, FRAME_SETTINGS, 0, 0, &settings);
        push_frame(
            &mut opening,
            FRAME_WINDOW_UPDATE,
            0,
            0,
            &(OUR_WINDOW - DEFAULT_WINDOW).to_be_bytes(),
        );
        connection.write_all(&opening, deadline)?;
        Ok(connection)
    }

    /// Sends one request (`headers` already holding the pseudo-headers)
    /// with `body`, and reads its whole response. A body longer than
    /// `max_body` is refused.
    pub fn request(
        &mut self,
        headers: &[(&str, &str)],
        body: &[u8],
        max_body: usize,
        deadline: Instant,
    ) -> Result<Response, Http2Error> {
        let stream_id = self.next_stream_id;
        self.next_stream_id = self
            .next_stream_id
            .checked_add(2)
            .filter(|next| *next < 1 << 31)
            .ok_or_else(|| Http2Error::Protocol("stream identifiers exhausted".to_owned()))?;
        let block = encode_headers(headers);
        if block.len() > self.peer_max_frame_size {
            return Err(Http2Error::Protocol("request headers too large".to_owned()));
        }
        let mut out = Vec::new();
        let end_stream = if body.is_empty() { FLAG_END_STREAM } else { 0 };
        push_frame(
            &mut out,
            FRAME_HEADERS,
            FLAG_END_HEADERS | end_stream,
            stream_id,
            &block,
        );
        self.write_all(&out, deadline)?;
        let mut response = Response::default();
        let mut state = StreamState {
            id: stream_id,
            send_window: self.peer_initial_window,
            unacknowledged: 0,
            headers_done: false,
            closed: false,
        };
        self.send_body(&mut state, &mut response, body, max_body, deadline)?;
        while !state.closed {
            let frame = self.read_frame(deadline)?;
            self.handle_frame(frame, &mut state, &mut response, max_body, deadline)?;
        }
        Ok(response)
    }

    fn send_body(
        &mut self,
        state: &mut StreamState,
        response: &mut Response,
        mut body: &[u8],
        max_body: usize,
        deadline: Instant,
    ) -> Result<(), Http2Error> {
        while !body.is_empty() {
            let window = state.send_window.min(self.connection_send_window);
            let allowed = usize::try_from(window)
                .unwrap_or(0)
                .min(self.peer_max_frame_size);
            if allowed == 0 {
                // Wait for a WINDOW_UPDATE (handling whatever else comes).
                let frame = self.read_frame(deadline)?;
                self.handle_frame(frame, state, response, max_body, deadline)?;
                if state.closed {
                    return Ok(());
                }
                continue;
            }
            let (chunk, rest) = body.split_at(allowed.min(body.len()));
            let flags = if rest.is_empty() { FLAG_END_STREAM } else { 0 };
            let mut out = Vec::with_capacity(chunk.len() + 9);
            push_frame(&mut out, FRAME_DATA, flags, state.id, chunk);
            self.write_all(&out, deadline)?;
            let sent = i64::try_from(chunk.len()).unwrap_or(i64::MAX);
            state.send_window -= sent;
            self.connection_send_window -= sent;
            body = rest;
        }
        Ok(())
    }

    fn handle_frame(
        &mut self,
        frame: Frame,
        state: &mut StreamState,
        response: &mut Response,
        max_body: usize,
        deadline: Instant,
    ) -> Result<(), Http2Error> {
        match frame.kind {
            FRAME_SETTINGS => self.handle_settings(&frame, state, deadline),
            FRAME_PING if frame.flags & FLAG_ACK == 0 => {
                let mut out = Vec::new();
                push_frame(&mut out, FRAME_PING, FLAG_ACK, 0, &frame.payload);
                self.write_all(&out, deadline)
            }
            FRAME_GOAWAY => {
                let code = read_u32(frame.payload.get(4..8)).unwrap_or(0);
                let debug = String::from_utf8_lossy(frame.payload.get(8..).unwrap_or_default());
                Err(Http2Error::GoAway(code, debug.into_owned()))
            }
            FRAME_WINDOW_UPDATE => {
                let increment =
                    i64::from(read_u32(frame.payload.get(0..4)).unwrap_or(0) & 0x7fff_ffff);
                if frame.stream_id == 0 {
                    self.connection_send_window += increment;
                } else if frame.stream_id == state.id {
                    state.send_window += increment;
                }
                Ok(())
            }
            FRAME_RST_STREAM if frame.stream_id == state.id => Err(Http2Error::StreamReset(
                read_u32(frame.payload.get(0..4)).unwrap_or(0),
            )),
            FRAME_PUSH_PROMISE => Err(Http2Error::Protocol(
                "a push promise, though push is disabled".to_owned(),
            )),
            FRAME_HEADERS if frame.stream_id == state.id => {
                let end_stream = frame.flags & FLAG_END_STREAM != 0;
                let block = self.read_header_block(frame, deadline)?;
                let fields = self.decoder.decode(&block).map_err(|error| {
                    Http2Error::Protocol(format!("bad header block: {}", error.message))
                })?;
                if state.headers_done {
                    response.trailers = fields;
                } else {
                    response.headers = fields;
                    state.headers_done = true;
                }
                state.closed |= end_stream;
                Ok(())
            }
            FRAME_HEADERS => {
                // Another stream's headers must still go through the decoder
                // to keep its table in step.
                let block = self.read_header_block(frame, deadline)?;
                self.decoder.decode(&block).map(|_| ()).map_err(|error| {
                    Http2Error::Protocol(format!("bad header block: {}", error.message))
                })
            }
            FRAME_DATA => {
                let received = u32::try_from(frame.payload.len()).unwrap_or(u32::MAX);
                self.acknowledge(received, state, frame.stream_id == state.id, deadline)?;
                if frame.stream_id != state.id {
                    return Ok(());
                }
                let content = strip_padding(&frame)?;
                if response.body.len() + content.len() > max_body {
                    return Err(Http2Error::Protocol(format!(
                        "a response body larger than {max_body} bytes"
                    )));
                }
                response.body.extend_from_slice(content);
                state.closed |= frame.flags & FLAG_END_STREAM != 0;
                Ok(())
            }
            FRAME_CONTINUATION => Err(Http2Error::Protocol(
                "a CONTINUATION out of place".to_owned(),
            )),
            // PING acknowledgements, PRIORITY, other streams' resets and
            // unknown frame types are ignored, as RFC 9113 §4.1 requires.
            _ => Ok(()),
        }
    }

    fn handle_settings(
        &mut self,
        frame: &Frame,
        state: &mut StreamState,
        deadline: Instant,
    ) -> Result<(), Http2Error> {
        if frame.flags & FLAG_ACK != 0 {
            return Ok(());
        }
        if !frame.payload.len().is_multiple_of(6) {
            return Err(Http2Error::Protocol(
                "a SETTINGS frame of odd length".to_owned(),
            ));
        }
        for setting in frame.payload.chunks_exact(6) {
            let identifier = u16::from_be_bytes([
                setting.first().copied().unwrap_or(0),
                setting.get(1).copied().unwrap_or(0),
            ]);
            let value = read_u32(setting.get(2..6)).unwrap_or(0);
            match identifier {
                SETTING_INITIAL_WINDOW_SIZE => {
                    let delta = i64::from(value) - self.peer_initial_window;
                    self.peer_initial_window = i64::from(value);
                    state.send_window += delta;
                }
                SETTING_MAX_FRAME_SIZE => {
                    self.peer_max_frame_size = usize::try_from(value)
                        .unwrap_or(OUR_MAX_FRAME_SIZE)
                        .clamp(OUR_MAX_FRAME_SIZE, 16_777_215);
                }
                // The peer's table size (SETTINGS_HEADER_TABLE_SIZE) limits
                // its decoder, which our encoder never fills; nothing else
                // concerns a client.
                _ => {}
            }
        }
        let mut out = Vec::new();
        push_frame(&mut out, FRAME_SETTINGS, FLAG_ACK, 0, &[]);
        self.write_all(&out, deadline)
    }

    /// Gives back flow-control credit once half a window was used.
    fn acknowledge(
        &mut self,
        received: u32,
        state: &mut StreamState,
        ours: bool,
        deadline: Instant,
    ) -> Result<(), Http2Error> {
        let mut out = Vec::new();
        self.connection_unacknowledged = self.connection_unacknowledged.saturating_add(received);
        if self.connection_unacknowledged >= OUR_WINDOW / 2 {
            push_frame(
                &mut out,
                FRAME_WINDOW_UPDATE,
                0,
                0,
                &self.connection_unacknowledged.to_be_bytes(),
            );
            self.connection_unacknowledged = 0;
        }
        if ours {
            state.unacknowledged = state.unacknowledged.saturating_add(received);
            if state.unacknowledged >= OUR_WINDOW / 2 && !state.closed {
                push_frame(
                    &mut out,
                    FRAME_WINDOW_UPDATE,
                    0,
                    state.id,
                    &state.unacknowledged.to_be_bytes(),
                );
                state.unacknowledged = 0;
            }
        }
        if out.is_empty() {
            Ok(())
        } else {
            self.write_all(&out, deadline)
        }
    }

    /// A HEADERS frame's block with the CONTINUATIONs that complete it.
    fn read_header_block(
        &mut self,
        frame: Frame,
        deadline: Instant,
    ) -> Result<Vec<u8>, Http2Error> {
        let mut block = strip_padding(&frame)?.to_vec();
        if frame.flags & FLAG_PRIORITY != 0 {
            block = block
                .get(5..)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| Http2Error::Protocol("a short HEADERS frame".to_owned()))?;
        }
        let mut end_headers = frame.flags & FLAG_END_HEADERS != 0;
        while !end_headers {
            let next = self.read_frame(deadline)?;
            if next.kind != FRAME_CONTINUATION || next.stream_id != frame.stream_id {
                return Err(Http2Error::Protocol(
                    "a header block without its CONTINUATION".to_owned(),
                ));
            }
            if block.len() + next.payload.len() > 1024 * 1024 {
                return Err(Http2Error::Protocol("a header block over 1 MiB".to_owned()));
            }
            block.extend_from_slice(&next.payload);
            end_headers = next.flags & FLAG_END_HEADERS != 0;
        }
        Ok(block)
    }

    fn read_frame(&mut self, deadline: Instant) -> Result<Frame, Http2Error> {
        let mut header = [0u8; 9];
        self.read_exact(&mut header, deadline)?;
        let [l0, l1, l2, kind, flags, s0, s1, s2, s3] = header;
        let length = usize::from(l0) << 16 | usize::from(l1) << 8 | usize::from(l2);
        if length > OUR_MAX_FRAME_SIZE {
            return Err(Http2Error::Protocol(format!(
                "a frame of {length} bytes, over the maximum"
            )));
        }
        let mut payload = vec![0u8; length];
        self.read_exact(&mut payload, deadline)?;
        Ok(Frame {
            kind,
            flags,
            stream_id: u32::from_be_bytes([s0, s1, s2, s3]) & 0x7fff_ffff,
            payload,
        })
    }

    fn read_exact(&mut self, buffer: &mut [u8], deadline: Instant) -> Result<(), Http2Error> {
        let mut filled = 0;
        while let Some(rest) = buffer.get_mut(filled..).filter(|rest| !rest.is_empty()) {
            self.socket.set_read_timeout(Some(remaining(deadline)?))?;
            match self.socket.read(rest) {
                Ok(0) => return Err(Http2Error::Protocol("the connection closed".to_owned())),
                Ok(count) => filled += count,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error.into()),
            }
        }
        Ok(())
    }

    fn write_all(&mut self, bytes: &[u8], deadline: Instant) -> Result<(), Http2Error> {
        self.socket.set_write_timeout(Some(remaining(deadline)?))?;
        self.socket.write_all(bytes)?;
        Ok(())
    }
}

struct StreamState {
    id: u32,
    send_window: i64,
    unacknowledged: u32,
    headers_done: bool,
    closed: bool,
}

fn remaining(deadline: Instant) -> Result<std::time::Duration, Http2Error> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(Http2Error::TimedOut)
    } else {
        Ok(left)
    }
}

fn push_frame(out: &mut Vec<u8>, kind: u8, flags: u8, stream_id: u32, payload: &[u8]) {
    let length = u32::try_from(payload.len()).unwrap_or(0).to_be_bytes();
    out.extend_from_slice(length.get(1..).unwrap_or_default());
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&stream_id.to_be_bytes());
    out.extend_from_slice(payload);
}

/// A DATA or HEADERS payload without its padding.
fn strip_padding(frame: &Frame) -> Result<&[u8], Http2Error> {
    if frame.flags & FLAG_PADDED == 0 {
        return Ok(&frame.payload);
    }
    let (&pad_length, rest) = frame
        .payload
        .split_first()
        .ok_or_else(|| Http2Error::Protocol("a padded frame without its pad length".to_owned()))?;
    let end = rest
        .len()
        .checked_sub(usize::from(pad_length))
        .ok_or_else(|| Http2Error::Protocol("padding longer than its frame".to_owned()))?;
    Ok(rest.get(..end).unwrap_or_default())
}

fn read_u32(bytes: Option<&[u8]>) -> Option<u32> {
    let bytes: [u8; 4] = bytes?.try_into().ok()?;
    Some(u32::from_be_bytes(bytes))
}

#[cfg(test)]
mod tests;

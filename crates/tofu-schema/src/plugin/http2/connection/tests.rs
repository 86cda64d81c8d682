//! The connection against a scripted peer on a socket pair: settings and
//! pings answered, a body split over padded frames, trailers, a body
//! larger than the default window, resets, GOAWAY and a silent peer.

use std::thread;
use std::time::Duration;

use super::*;

fn deadline() -> Instant {
    Instant::now() + Duration::from_secs(10)
}

/// The scripted server side.
struct Peer {
    socket: UnixStream,
}

impl Peer {
    fn read_frame(&mut self) -> Frame {
        let mut header = [0u8; 9];
        self.socket.read_exact(&mut header).unwrap();
        let length =
            usize::from(header[0]) << 16 | usize::from(header[1]) << 8 | usize::from(header[2]);
        let mut payload = vec![0; length];
        self.socket.read_exact(&mut payload).unwrap();
        Frame {
            kind: header[3],
            flags: header[4],
            stream_id: u32::from_be_bytes([header[5], header[6], header[7], header[8]]),
            payload,
        }
    }

    fn send(&mut self, kind: u8, flags: u8, stream_id: u32, payload: &[u8]) {
        let mut out = Vec::new();
        push_frame(&mut out, kind, flags, stream_id, payload);
        self.socket.write_all(&out).unwrap();
    }

    /// Reads the preface, settings and window update, then the request's
    /// HEADERS and DATA frames until END_STREAM; returns the body.
    fn accept_request(&mut self, first: bool) -> (u32, Vec<u8>) {
        if first {
            let mut preface = [0u8; 24];
            self.socket.read_exact(&mut preface).unwrap();
            assert_eq!(&preface, PREFACE);
        }
        let mut body = Vec::new();
        loop {
            let frame = self.read_frame();
            match frame.kind {
                FRAME_HEADERS if frame.flags & FLAG_END_STREAM != 0 => {
                    return (frame.stream_id, body);
                }
                FRAME_DATA => {
                    body.extend_from_slice(&frame.payload);
                    if frame.flags & FLAG_END_STREAM != 0 {
                        return (frame.stream_id, body);
                    }
                }
                _ => {}
            }
        }
    }
}

fn connect() -> (Http2Connection, Peer) {
    let (client, server) = UnixStream::pair().unwrap();
    (
        Http2Connection::start(client, deadline()).unwrap(),
        Peer { socket: server },
    )
}

#[test]
fn a_response_over_padded_frames_with_trailers_reads_whole() {
    let (mut connection, mut peer) = connect();
    let server = thread::spawn(move || {
        let (stream_id, body) = peer.accept_request(true);
        assert_eq!(body, b"request body");
        peer.send(FRAME_SETTINGS, 0, 0, &[0, 5, 0, 0, 0x40, 0]);
        peer.send(FRAME_PING, 0, 0, b"12345678");
        let headers = encode_headers(&[(":status", "200"), ("content-type", "application/grpc")]);
        let (first, second) = headers.split_at(5);
        peer.send(FRAME_HEADERS, 0, stream_id, first);
        peer.send(FRAME_CONTINUATION, FLAG_END_HEADERS, stream_id, second);
        peer.send(FRAME_DATA, FLAG_PADDED, stream_id, b"\x03helloXXX");
        peer.send(FRAME_DATA, 0, stream_id, b" world");
        peer.send(
            FRAME_HEADERS,
            FLAG_END_HEADERS | FLAG_END_STREAM,
            stream_id,
            &encode_headers(&[("grpc-status", "0")]),
        );
        // The client acknowledged the settings and answered the ping.
        let mut saw_settings_ack = false;
        let mut saw_ping_ack = false;
        while !(saw_settings_ack && saw_ping_ack) {
            let frame = peer.read_frame();
            saw_settings_ack |= frame.kind == FRAME_SETTINGS && frame.flags & FLAG_ACK != 0;
            saw_ping_ack |= frame.kind == FRAME_PING
                && frame.flags & FLAG_ACK != 0
                && frame.payload == b"12345678";
        }
    });
    let response = connection
        .request(
            &[(":method", "POST"), (":path", "/x")],
            b"request body",
            1 << 20,
            deadline(),
        )
        .unwrap();
    assert_eq!(response.body, b"hello world");
    assert_eq!(response.field("grpc-status"), Some(&b"0"[..]));
    assert_eq!(
        response.field("content-type"),
        Some(&b"application/grpc"[..])
    );
    server.join().unwrap();
}

#[test]
fn a_request_larger_than_the_window_waits_for_updates() {
    let (mut connection, mut peer) = connect();
    let body = vec![7u8; 200_000];
    let expected = body.clone();
    let server = thread::spawn(move || {
        let mut preface = [0u8; 24];
        peer.socket.read_exact(&mut preface).unwrap();
        let mut received = Vec::new();
        let stream_id = loop {
            let frame = peer.read_frame();
            if frame.kind == FRAME_DATA {
                let stream_id = frame.stream_id;
                received.extend_from_slice(&frame.payload);
                let increment = u32::try_from(frame.payload.len()).unwrap().to_be_bytes();
                peer.send(FRAME_WINDOW_UPDATE, 0, 0, &increment);
                peer.send(FRAME_WINDOW_UPDATE, 0, stream_id, &increment);
                if frame.flags & FLAG_END_STREAM != 0 {
                    break stream_id;
                }
            }
        };
        assert_eq!(received, expected);
        peer.send(
            FRAME_HEADERS,
            FLAG_END_HEADERS | FLAG_END_STREAM,
            stream_id,
            &encode_headers(&[(":status", "200")]),
        );
    });
    let response = connection
        .request(&[(":method", "POST")], &body, 1 << 20, deadline())
        .unwrap();
    assert_eq!(response.field(":status"), Some(&b"200"[..]));
    server.join().unwrap();
}

#[test]
fn resets_goaway_limits_and_silence_are_errors() {
    let (mut connection, mut peer) = connect();
    let server = thread::spawn(move || {
        let (stream_id, _) = peer.accept_request(true);
        peer.send(FRAME_RST_STREAM, 0, stream_id, &7u32.to_be_bytes());
        let (stream_id, _) = peer.accept_request(false);
        peer.send(
            FRAME_HEADERS,
            FLAG_END_HEADERS,
            stream_id,
            &encode_headers(&[(":status", "200")]),
        );
        peer.send(FRAME_DATA, 0, stream_id, &[0; 100]);
        let _ = peer.accept_request(false);
        let mut goaway = 1u32.to_be_bytes().to_vec();
        goaway.extend_from_slice(&2u32.to_be_bytes());
        goaway.extend_from_slice(b"bye");
        peer.send(FRAME_GOAWAY, 0, 0, &goaway);
        peer
    });
    assert!(matches!(
        connection.request(&[], &[], 1 << 20, deadline()),
        Err(Http2Error::StreamReset(7))
    ));
    assert!(matches!(
        connection.request(&[], &[], 10, deadline()),
        Err(Http2Error::Protocol(_))
    ));
    match connection.request(&[], &[], 1 << 20, deadline()) {
        Err(Http2Error::GoAway(2, debug)) => assert_eq!(debug, "bye"),
        other => panic!("expected GOAWAY, got {other:?}"),
    }
    let _peer = server.join().unwrap();
    let short = Instant::now() + Duration::from_millis(50);
    assert!(matches!(
        connection.request(&[], &[], 1 << 20, short),
        Err(Http2Error::TimedOut)
    ));
}

#[test]
fn a_closed_peer_and_a_bad_frame_are_errors() {
    let (mut connection, mut peer) = connect();
    let server = thread::spawn(move || {
        let (stream_id, _) = peer.accept_request(true);
        // A frame longer than the maximum we accept.
        let mut out = vec![0x01, 0x00, 0x00, FRAME_DATA, 0];
        out.extend_from_slice(&stream_id.to_be_bytes());
        peer.socket.write_all(&out).unwrap();
    });
    assert!(matches!(
        connection.request(&[], &[], 1 << 20, deadline()),
        Err(Http2Error::Protocol(_))
    ));
    server.join().unwrap();
    let (mut connection, peer) = connect();
    drop(peer);
    assert!(connection.request(&[], &[], 1 << 20, deadline()).is_err());
}

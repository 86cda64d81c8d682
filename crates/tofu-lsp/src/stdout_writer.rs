//! Standard output for the LSP transport, written by a thread of its own.
//!
//! `tokio::io::stdout()` hands every write to the blocking pool (one task
//! and one thread wake-up per write), and the transport's one-slot channel
//! makes whoever publishes wait for that: while a workspace is indexed, a
//! publication per file each cost two thread hand-offs. [`StdoutWriter`]
//! instead collects what the transport writes and, on flush, passes it to a
//! writer thread that writes whatever has gathered in one go. The queue is
//! bounded ([`QUEUE`] flushes): a client that stops reading makes the
//! transport wait, as a full pipe would, rather than the server grow.

use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::AsyncWrite;
use tokio_util::sync::PollSender;

/// How many flushed messages may wait for the writer thread.
const QUEUE: usize = 256;

/// The transport's end: an [`AsyncWrite`] that never blocks a thread.
pub struct StdoutWriter {
    /// Written since the last flush.
    pending: Vec<u8>,
    sender: PollSender<Vec<u8>>,
}

/// The writer thread, to wait for once the transport is done (so that the
/// last response reaches the client before the process exits).
pub struct WriterThread(std::thread::JoinHandle<()>);

impl WriterThread {
    /// Waits until everything flushed has been written (or writing failed).
    pub fn join(self) {
        if self.0.join().is_err() {
            tracing::error!("the stdout writer panicked");
        }
    }
}

/// The writer for the transport and its thread, which writes to `out`.
pub fn spawn(
    out: impl std::io::Write + Send + 'static,
) -> std::io::Result<(StdoutWriter, WriterThread)> {
    let (sender, receiver) = tokio::sync::mpsc::channel(QUEUE);
    let thread = std::thread::Builder::new()
        .name("tofu-lens stdout".into())
        .spawn(move || write_all_of(receiver, out))?;
    let writer = StdoutWriter {
        pending: Vec::new(),
        sender: PollSender::new(sender),
    };
    Ok((writer, WriterThread(thread)))
}

/// Writes what arrives until the transport drops its end, gathering what
/// waits into one write. A failed write ends the thread: the transport then
/// sees a broken pipe on its next flush.
fn write_all_of(mut receiver: tokio::sync::mpsc::Receiver<Vec<u8>>, mut out: impl std::io::Write) {
    while let Some(mut chunk) = receiver.blocking_recv() {
        while let Ok(more) = receiver.try_recv() {
            chunk.extend_from_slice(&more);
        }
        if let Err(error) = out.write_all(&chunk).and_then(|()| out.flush()) {
            tracing::error!("cannot write to stdout: {error}");
            return;
        }
    }
}

fn closed() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::BrokenPipe,
        "the stdout writer has stopped",
    )
}

impl AsyncWrite for StdoutWriter {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        if this.sender.is_closed() {
            return Poll::Ready(Err(closed()));
        }
        this.pending.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if this.pending.is_empty() {
            return Poll::Ready(Ok(()));
        }
        if ready!(this.sender.poll_reserve(cx)).is_err() {
            return Poll::Ready(Err(closed()));
        }
        let chunk = std::mem::take(&mut this.pending);
        if this.sender.send_item(chunk).is_err() {
            return Poll::Ready(Err(closed()));
        }
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.as_mut().poll_flush(cx))?;
        self.get_mut().sender.close();
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use tokio::io::AsyncWriteExt as _;

    /// A `Write` whose bytes the test reads afterwards.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    struct Failing;

    impl std::io::Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn everything_flushed_is_written_in_order_by_the_time_the_thread_ends() {
        let out = Shared::default();
        let (mut writer, thread) = spawn(out.clone()).unwrap();
        for i in 0..1000 {
            writer.write_all(format!("{i};").as_bytes()).await.unwrap();
            writer.flush().await.unwrap();
        }
        writer.write_all(b"unflushed").await.unwrap();
        writer.shutdown().await.unwrap();
        drop(writer);
        thread.join();
        let written = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let expected: String = (0..1000).map(|i| format!("{i};")).collect();
        assert_eq!(written, format!("{expected}unflushed"));
    }

    #[tokio::test]
    async fn a_failed_write_reaches_the_transport_as_a_broken_pipe() {
        let (mut writer, thread) = spawn(Failing).unwrap();
        writer.write_all(b"lost").await.unwrap();
        // The first flush hands the bytes over; the thread fails and ends.
        let _ = writer.flush().await;
        thread.join();
        let again = match writer.write_all(b"again").await {
            Ok(()) => writer.flush().await,
            Err(error) => Err(error),
        };
        let error = again.expect_err("the writer thread is gone");
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe);
    }
}

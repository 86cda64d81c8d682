//! The pool's rules on a fake provider that records its starts, calls and
//! stops: started on first use and reused, one call at a time, stopped
//! when idle, restarted once after a crash or a hang, given up on after
//! that, and everything stopped when the pool goes. `tests/pool.rs` runs
//! the real time provider and a crashing script through it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::*;
use crate::plugin::grpc::GrpcError;
use crate::plugin::http2::Http2Error;
use crate::plugin::PluginError;

/// What the fakes did, shared by all of them.
#[derive(Default)]
struct Record {
    started: AtomicU32,
    alive: AtomicUsize,
    stopped: Mutex<Vec<u32>>,
}

struct FakeProvider {
    id: u32,
    record: Arc<Record>,
}

impl PooledProvider for FakeProvider {
    fn process_id(&self) -> Option<u32> {
        Some(self.id)
    }

    fn shut_down(self) {
        lock(&self.record.stopped).push(self.id);
    }
}

impl Drop for FakeProvider {
    fn drop(&mut self) {
        self.record.alive.fetch_sub(1, Ordering::SeqCst);
    }
}

fn starter(record: &Arc<Record>) -> impl Fn() -> Result<FakeProvider, ClientError> + '_ {
    move || {
        let id = record.started.fetch_add(1, Ordering::SeqCst) + 1;
        record.alive.fetch_add(1, Ordering::SeqCst);
        Ok(FakeProvider {
            id,
            record: Arc::clone(record),
        })
    }
}

fn key(workspace: &str) -> PoolKey {
    PoolKey {
        workspace_root: PathBuf::from(workspace),
        address: ProviderAddress::parse("hashicorp/time").unwrap(),
        version: "0.14.2".to_owned(),
        package_hash: "h1:abc".to_owned(),
    }
}

fn settings() -> PoolSettings {
    PoolSettings {
        idle_timeout: Duration::from_secs(60),
        ..PoolSettings::default()
    }
}

fn later() -> Instant {
    Instant::now() + Duration::from_secs(30)
}

fn transport_error(error: Http2Error) -> ClientError {
    ClientError::Plugin(PluginError::Call {
        method: "ValidateResourceConfig".to_owned(),
        error: GrpcError::Transport(error),
        stderr: String::new(),
    })
}

fn crash() -> ClientError {
    transport_error(Http2Error::Protocol("the connection closed".to_owned()))
}

fn hang() -> ClientError {
    transport_error(Http2Error::TimedOut)
}

fn id_of(provider: &mut FakeProvider) -> Result<u32, ClientError> {
    Ok(provider.id)
}

#[test]
fn a_provider_starts_on_first_use_and_serves_every_later_call() {
    let record = Arc::new(Record::default());
    let pool = ProviderPool::without_idle_stopper(settings());
    let start = starter(&record);
    assert_eq!(pool.call(&key("/a"), &start, later(), id_of).unwrap(), 1);
    assert_eq!(pool.call(&key("/a"), &start, later(), id_of).unwrap(), 1);
    // Another workspace gets its own process.
    assert_eq!(pool.call(&key("/b"), &start, later(), id_of).unwrap(), 2);
    assert_eq!(
        pool.running()
            .iter()
            .map(|running| (running.key.workspace_root.clone(), running.process_id))
            .collect::<Vec<_>>(),
        [
            (PathBuf::from("/a"), Some(1)),
            (PathBuf::from("/b"), Some(2))
        ]
    );
    // An error answer leaves it running.
    let answered = pool.call(&key("/a"), &start, later(), |_| {
        Err::<(), _>(ClientError::Diagnostics {
            method: "ValidateResourceConfig",
            diagnostics: Vec::new(),
        })
    });
    assert!(matches!(answered, Err(PoolError::Call(_))));
    assert_eq!(pool.call(&key("/a"), &start, later(), id_of).unwrap(), 1);
    assert_eq!(record.started.load(Ordering::SeqCst), 2);
}

#[test]
fn calls_to_one_provider_run_one_at_a_time() {
    let record = Arc::new(Record::default());
    let pool = ProviderPool::without_idle_stopper(settings());
    let inside = AtomicUsize::new(0);
    let order = Mutex::new(Vec::new());
    let (entered_sender, entered) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let released = Mutex::new(released);
    std::thread::scope(|scope| {
        let first = scope.spawn(|| {
            pool.call(&key("/a"), starter(&record), later(), |_| {
                assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                entered_sender.send(()).unwrap();
                lock(&released).recv().unwrap();
                lock(&order).push("first");
                inside.fetch_sub(1, Ordering::SeqCst);
                Ok(())
            })
        });
        entered.recv().unwrap();
        // A caller whose deadline has passed does not wait.
        let impatient = pool.call(&key("/a"), starter(&record), Instant::now(), |_| Ok(()));
        let second = scope.spawn(|| {
            pool.call(&key("/a"), starter(&record), later(), |_| {
                assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                lock(&order).push("second");
                inside.fetch_sub(1, Ordering::SeqCst);
                Ok(())
            })
        });
        // Released before anything is asserted, so a failure cannot hang.
        release.send(()).unwrap();
        assert!(matches!(impatient, Err(PoolError::Busy)), "{impatient:?}");
        first.join().unwrap().unwrap();
        second.join().unwrap().unwrap();
    });
    assert_eq!(*lock(&order), ["first", "second"]);
    assert_eq!(record.started.load(Ordering::SeqCst), 1);
}

#[test]
fn an_idle_provider_is_stopped_and_the_next_call_starts_another() {
    let record = Arc::new(Record::default());
    let pool = ProviderPool::without_idle_stopper(settings());
    let start = starter(&record);
    pool.call(&key("/a"), &start, later(), id_of).unwrap();
    assert_eq!(pool.stop_idle(Instant::now() + Duration::from_secs(30)), 0);
    assert_eq!(pool.stop_idle(Instant::now() + Duration::from_secs(61)), 1);
    assert_eq!(*lock(&record.stopped), [1]);
    assert_eq!(record.alive.load(Ordering::SeqCst), 0);
    assert!(pool.running().is_empty());
    assert_eq!(pool.call(&key("/a"), &start, later(), id_of).unwrap(), 2);
}

#[test]
fn the_pools_own_thread_stops_idle_providers() {
    let record = Arc::new(Record::default());
    let pool = ProviderPool::new(PoolSettings {
        idle_timeout: Duration::from_millis(20),
        ..settings()
    });
    pool.call(&key("/a"), starter(&record), later(), id_of)
        .unwrap();
    // Waits for the event, with a bound; asserts nothing about time.
    let give_up_at = Instant::now() + Duration::from_secs(20);
    while !pool.running().is_empty() && Instant::now() < give_up_at {
        std::thread::yield_now();
    }
    assert!(pool.running().is_empty());
    assert_eq!(*lock(&record.stopped), [1]);
}

#[test]
fn a_crashed_provider_is_restarted_once_and_the_call_retried() {
    let record = Arc::new(Record::default());
    let pool = ProviderPool::without_idle_stopper(settings());
    let start = starter(&record);
    let retried = pool.call(&key("/a"), &start, later(), |provider| {
        if provider.id == 1 {
            Err(crash())
        } else {
            Ok(provider.id)
        }
    });
    assert_eq!(retried.unwrap(), 2);
    assert_eq!(
        record.alive.load(Ordering::SeqCst),
        1,
        "the crashed one is gone"
    );
    // A second crash: the pool gives up on this key.
    let crashed = pool.call(&key("/a"), &start, later(), |_| Err::<u32, _>(crash()));
    assert!(matches!(crashed, Err(PoolError::Call(_))), "{crashed:?}");
    let refused = pool.call(&key("/a"), &start, later(), id_of);
    let Err(PoolError::GaveUp(gave_up)) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(gave_up.reason, FailureKind::Crashed);
    assert_eq!(pool.gave_up(&key("/a")), Some(gave_up));
    assert_eq!(record.started.load(Ordering::SeqCst), 2);
    assert_eq!(record.alive.load(Ordering::SeqCst), 0);
    // Forgotten (say, after tofu init installed it again): started afresh.
    pool.forget(&key("/a"));
    assert_eq!(pool.call(&key("/a"), &start, later(), id_of).unwrap(), 3);
}

#[test]
fn a_hung_provider_is_killed_and_started_again_by_the_next_call() {
    let record = Arc::new(Record::default());
    let pool = ProviderPool::without_idle_stopper(settings());
    let start = starter(&record);
    let hung = pool.call(&key("/a"), &start, later(), |_| Err::<u32, _>(hang()));
    assert!(
        matches!(&hung, Err(PoolError::Call(error)) if error.is_timeout()),
        "{hung:?}"
    );
    assert_eq!(record.alive.load(Ordering::SeqCst), 0);
    assert_eq!(
        record.started.load(Ordering::SeqCst),
        1,
        "not retried at once"
    );
    assert_eq!(pool.call(&key("/a"), &start, later(), id_of).unwrap(), 2);
    let _ = pool.call(&key("/a"), &start, later(), |_| Err::<u32, _>(hang()));
    let refused = pool.call(&key("/a"), &start, later(), id_of);
    assert!(
        matches!(&refused, Err(PoolError::GaveUp(gave_up)) if gave_up.reason == FailureKind::TimedOut),
        "{refused:?}"
    );
}

#[test]
fn a_provider_that_does_not_start_is_not_started_again() {
    let pool: ProviderPool<FakeProvider> = ProviderPool::without_idle_stopper(settings());
    let attempts = AtomicU32::new(0);
    let failing_start = || {
        attempts.fetch_add(1, Ordering::SeqCst);
        Err(ClientError::Plugin(PluginError::HandshakeTimedOut {
            stderr: String::new(),
        }))
    };
    for _ in 0..3 {
        let refused = pool.call(&key("/a"), failing_start, later(), id_of);
        let Err(PoolError::GaveUp(gave_up)) = refused else {
            panic!("{refused:?}")
        };
        assert_eq!(gave_up.reason, FailureKind::DidNotStart);
        assert_eq!(gave_up.message, "the provider printed no handshake in time");
    }
    assert_eq!(attempts.load(Ordering::SeqCst), 1);
}

#[test]
fn dropping_the_pool_stops_every_provider() {
    let record = Arc::new(Record::default());
    let pool = ProviderPool::new(settings());
    let start = starter(&record);
    for workspace in ["/a", "/b", "/c"] {
        pool.call(&key(workspace), &start, later(), id_of).unwrap();
    }
    pool.shut_down();
    assert!(matches!(
        pool.call(&key("/a"), &start, later(), id_of),
        Err(PoolError::ShutDown)
    ));
    drop(pool);
    let mut stopped = lock(&record.stopped).clone();
    stopped.sort_unstable();
    assert_eq!(stopped, [1, 2, 3]);
    assert_eq!(record.alive.load(Ordering::SeqCst), 0);
}

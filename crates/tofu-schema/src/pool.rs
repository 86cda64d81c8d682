//! One running provider per provider and workspace, for the calls a
//! language server makes while the user types (`ValidateResourceConfig`
//! and the other `Validate*` calls).
//!
//! A [`ProviderPool`] keys providers by [`PoolKey`] (workspace root,
//! provider address, version, package hash). The first call for a key
//! starts the provider; later calls reuse it, one at a time (a call waits
//! for the one in flight, until its deadline). A provider left unused for
//! the idle timeout is stopped (by the pool's own thread, or
//! [`ProviderPool::stop_idle`]). A provider that crashes (its connection
//! breaks) is started again once and the call retried; one that hangs (a
//! call times out) is killed and started again on the next call. A second
//! crash or hang, or a provider that does not start at all, makes the pool
//! give up on that key: later calls fail at once with the reason, until
//! [`ProviderPool::forget`]. Dropping the pool (or
//! [`ProviderPool::shut_down`]) stops and reaps every provider.
//!
//! Blocking, with no async runtime: a server calls it from a blocking task
//! (`tokio::task::spawn_blocking`). Debouncing is the caller's. What runs
//! is a [`RunnableProvider`], which only [`crate::read::runnable_provider`]
//! makes: a package checked against the lock file, as for reading a schema.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::address::ProviderAddress;
use crate::plugin::{ClientError, ProviderClient, Timeouts};
use crate::read::RunnableProvider;

/// How often a provider is started again after it crashed or hung.
const RESTARTS: u32 = 1;

/// Which provider process a call goes to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PoolKey {
    /// The workspace (folder) the provider serves: workspaces do not share
    /// processes, so one workspace's provider never sees another's calls.
    pub workspace_root: PathBuf,
    pub address: ProviderAddress,
    pub version: String,
    pub package_hash: String,
}

/// How the pool runs providers.
#[derive(Clone, Debug)]
pub struct PoolSettings {
    /// A provider unused this long is stopped.
    pub idle_timeout: Duration,
    /// The handshake, each call, and the shutdown.
    pub timeouts: Timeouts,
    /// Where providers put their sockets; `None` leaves it to them.
    pub socket_dir: Option<PathBuf>,
}

impl Default for PoolSettings {
    fn default() -> PoolSettings {
        PoolSettings {
            idle_timeout: Duration::from_secs(300),
            timeouts: Timeouts::default(),
            socket_dir: None,
        }
    }
}

/// Why a pooled call did not happen or failed.
#[derive(Debug)]
pub enum PoolError {
    /// Other calls kept the provider busy until the deadline.
    Busy,
    /// The pool is shutting down.
    ShutDown,
    /// The call failed: an error answer, or the provider crashed or hung
    /// (then it was stopped, and is started again by the next call).
    Call(ClientError),
    /// The provider did not start, or crashed or hung again after its
    /// restart: it is not started again for this key.
    GaveUp(GaveUp),
}

/// Why the pool gave up on a provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GaveUp {
    pub reason: FailureKind,
    /// The last error, as its message.
    pub message: String,
}

/// What went wrong with a provider the pool gave up on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// It could not be started (see the message).
    DidNotStart,
    /// Its connection broke (it exited or crashed), again after a restart.
    Crashed,
    /// It stopped answering, again after a restart.
    TimedOut,
}

impl fmt::Display for PoolError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Busy => formatter.write_str("the provider was busy until the deadline"),
            PoolError::ShutDown => formatter.write_str("the provider pool is shutting down"),
            PoolError::Call(error) => write!(formatter, "{error}"),
            PoolError::GaveUp(gave_up) => {
                let what = match gave_up.reason {
                    FailureKind::DidNotStart => "did not start",
                    FailureKind::Crashed => "crashed again after a restart",
                    FailureKind::TimedOut => "stopped answering again after a restart",
                };
                write!(formatter, "the provider {what}: {}", gave_up.message)
            }
        }
    }
}

impl std::error::Error for PoolError {}

/// A started provider the pool can keep, and stop.
pub trait PooledProvider: Send + 'static {
    /// Its process id, for status and tests.
    fn process_id(&self) -> Option<u32>;
    /// Stops it and reaps its process.
    fn shut_down(self);
}

impl PooledProvider for ProviderClient {
    fn process_id(&self) -> Option<u32> {
        Some(ProviderClient::process_id(self))
    }

    fn shut_down(self) {
        self.shutdown();
    }
}

/// A provider the pool is running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunningProvider {
    pub key: PoolKey,
    pub process_id: Option<u32>,
    /// A call is in flight.
    pub busy: bool,
}

/// Providers kept running, one per [`PoolKey`] (see the module doc).
pub struct ProviderPool<P: PooledProvider = ProviderClient> {
    shared: Arc<Shared<P>>,
    idle_stopper: Option<JoinHandle<()>>,
}

struct Shared<P> {
    settings: PoolSettings,
    state: Mutex<PoolState<P>>,
    /// Wakes the idle stopper when the pool shuts down.
    shutting_down: Condvar,
}

struct PoolState<P> {
    slots: HashMap<PoolKey, Arc<Slot<P>>>,
    shut_down: bool,
}

/// One key's provider: at most one call at a time holds it.
struct Slot<P> {
    state: Mutex<SlotState<P>>,
    freed: Condvar,
}

struct SlotState<P> {
    /// `None` before the first start, after a stop, and while a call holds it.
    provider: Option<P>,
    process_id: Option<u32>,
    busy: bool,
    last_used: Instant,
    restarts: u32,
    gave_up: Option<GaveUp>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding a lock leaves plain data behind; carry on.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ProviderPool<ProviderClient> {
    /// Calls `request` on `provider`'s process for `workspace_root`,
    /// starting it if none runs. `deadline` is how long to wait for a call
    /// in flight on the same process to end; the call itself is bounded by
    /// the settings' call timeout.
    pub fn call_provider<T>(
        &self,
        workspace_root: &Path,
        provider: &RunnableProvider,
        deadline: Instant,
        request: impl FnMut(&mut ProviderClient) -> Result<T, ClientError>,
    ) -> Result<T, PoolError> {
        let key = PoolKey {
            workspace_root: workspace_root.to_path_buf(),
            address: provider.address().clone(),
            version: provider.version().to_owned(),
            package_hash: provider.package_hash().to_owned(),
        };
        let settings = &self.shared.settings;
        let start = || {
            ProviderClient::start(
                provider.executable(),
                settings.socket_dir.as_deref(),
                settings.timeouts,
            )
        };
        self.call(&key, start, deadline, request)
    }
}

impl<P: PooledProvider> ProviderPool<P> {
    /// A pool with a thread that stops idle providers.
    pub fn new(settings: PoolSettings) -> ProviderPool<P> {
        let mut pool = ProviderPool::without_idle_stopper(settings);
        let shared = Arc::clone(&pool.shared);
        pool.idle_stopper = std::thread::Builder::new()
            .name("tofu-schema idle providers".to_owned())
            .spawn(move || stop_idle_until_shut_down(&shared))
            .ok();
        pool
    }

    /// A pool whose idle providers are stopped only by
    /// [`ProviderPool::stop_idle`].
    pub fn without_idle_stopper(settings: PoolSettings) -> ProviderPool<P> {
        ProviderPool {
            shared: Arc::new(Shared {
                settings,
                state: Mutex::new(PoolState {
                    slots: HashMap::new(),
                    shut_down: false,
                }),
                shutting_down: Condvar::new(),
            }),
            idle_stopper: None,
        }
    }

    /// Runs `request` on the provider for `key`, started by `start` when
    /// none runs (see the module doc for waiting, restarts and giving up).
    pub(crate) fn call<T>(
        &self,
        key: &PoolKey,
        start: impl Fn() -> Result<P, ClientError>,
        deadline: Instant,
        mut request: impl FnMut(&mut P) -> Result<T, ClientError>,
    ) -> Result<T, PoolError> {
        let slot = {
            let mut state = lock(&self.shared.state);
            if state.shut_down {
                return Err(PoolError::ShutDown);
            }
            Arc::clone(state.slots.entry(key.clone()).or_insert_with(|| {
                Arc::new(Slot {
                    state: Mutex::new(SlotState {
                        provider: None,
                        process_id: None,
                        busy: false,
                        last_used: Instant::now(),
                        restarts: 0,
                        gave_up: None,
                    }),
                    freed: Condvar::new(),
                })
            }))
        };
        let mut held = Held::take(&slot, deadline)?;
        loop {
            let mut provider = match held.provider.take() {
                Some(provider) => provider,
                None => match start() {
                    Ok(provider) => {
                        held.process_id = provider.process_id();
                        provider
                    }
                    Err(error) => {
                        return Err(held.give_up(FailureKind::DidNotStart, &error));
                    }
                },
            };
            match request(&mut provider) {
                Ok(answer) => {
                    held.put_back(provider, self.is_shut_down());
                    return Ok(answer);
                }
                Err(error) if !error.ends_process() => {
                    held.put_back(provider, self.is_shut_down());
                    return Err(PoolError::Call(error));
                }
                Err(error) => {
                    // Dropping it kills and reaps what is left of it.
                    drop(provider);
                    held.process_id = None;
                    let reason = if error.is_timeout() {
                        FailureKind::TimedOut
                    } else {
                        FailureKind::Crashed
                    };
                    if held.restarts >= RESTARTS {
                        held.give_up(reason, &error);
                        return Err(PoolError::Call(error));
                    }
                    held.restarts += 1;
                    if reason == FailureKind::TimedOut || self.is_shut_down() {
                        // The caller waited long enough: the next call starts it.
                        return Err(PoolError::Call(error));
                    }
                    // Crashed: start it again and retry this call once.
                }
            }
        }
    }

    fn is_shut_down(&self) -> bool {
        lock(&self.shared.state).shut_down
    }

    /// Stops the providers unused since `now` minus the idle timeout (and
    /// forgets their keys); how many were stopped.
    pub fn stop_idle(&self, now: Instant) -> usize {
        stop_idle(&self.shared, now)
    }

    /// Forgets a key the pool gave up on (or stops its provider), so the
    /// next call starts it afresh; for when its package was installed
    /// again.
    pub fn forget(&self, key: &PoolKey) {
        let slot = lock(&self.shared.state).slots.remove(key);
        if let Some(provider) = slot.and_then(|slot| lock(&slot.state).provider.take()) {
            provider.shut_down();
        }
    }

    /// The providers running now, sorted by key.
    pub fn running(&self) -> Vec<RunningProvider> {
        let slots: Vec<(PoolKey, Arc<Slot<P>>)> = lock(&self.shared.state)
            .slots
            .iter()
            .map(|(key, slot)| (key.clone(), Arc::clone(slot)))
            .collect();
        let mut running: Vec<RunningProvider> = slots
            .into_iter()
            .filter_map(|(key, slot)| {
                let state = lock(&slot.state);
                (state.provider.is_some() || state.busy).then(|| RunningProvider {
                    key,
                    process_id: state.process_id,
                    busy: state.busy,
                })
            })
            .collect();
        running.sort_by(|left, right| {
            (
                &left.key.workspace_root,
                &left.key.address,
                &left.key.version,
            )
                .cmp(&(
                    &right.key.workspace_root,
                    &right.key.address,
                    &right.key.version,
                ))
        });
        running
    }

    /// Why the pool gave up on `key`, if it did.
    pub fn gave_up(&self, key: &PoolKey) -> Option<GaveUp> {
        let slot = lock(&self.shared.state).slots.get(key).cloned()?;
        let state = lock(&slot.state);
        state.gave_up.clone()
    }

    /// Stops and reaps every provider; calls in flight stop theirs when
    /// they end, and later calls fail with [`PoolError::ShutDown`].
    pub fn shut_down(&self) {
        let slots: Vec<Arc<Slot<P>>> = {
            let mut state = lock(&self.shared.state);
            state.shut_down = true;
            self.shared.shutting_down.notify_all();
            state.slots.drain().map(|(_, slot)| slot).collect()
        };
        for slot in slots {
            let provider = lock(&slot.state).provider.take();
            if let Some(provider) = provider {
                provider.shut_down();
            }
        }
    }
}

impl<P: PooledProvider> Drop for ProviderPool<P> {
    fn drop(&mut self) {
        self.shut_down();
        if let Some(stopper) = self.idle_stopper.take() {
            let _ = stopper.join();
        }
    }
}

/// A slot held by one call: its provider taken out, the slot marked busy
/// until this is dropped (also on a panic), which wakes the next caller.
struct Held<'a, P: PooledProvider> {
    slot: &'a Slot<P>,
    provider: Option<P>,
    process_id: Option<u32>,
    restarts: u32,
    gave_up: Option<GaveUp>,
}

impl<'a, P: PooledProvider> Held<'a, P> {
    /// Waits until the slot is free (or `deadline`), then holds it.
    fn take(slot: &'a Slot<P>, deadline: Instant) -> Result<Held<'a, P>, PoolError> {
        let mut state = lock(&slot.state);
        while state.busy {
            let now = Instant::now();
            if now >= deadline {
                return Err(PoolError::Busy);
            }
            state = slot
                .freed
                .wait_timeout(state, deadline - now)
                .map(|(state, _)| state)
                .unwrap_or_else(|poisoned| poisoned.into_inner().0);
        }
        if let Some(gave_up) = &state.gave_up {
            return Err(PoolError::GaveUp(gave_up.clone()));
        }
        state.busy = true;
        Ok(Held {
            slot,
            provider: state.provider.take(),
            process_id: state.process_id,
            restarts: state.restarts,
            gave_up: None,
        })
    }

    fn put_back(&mut self, provider: P, shut_down: bool) {
        if shut_down {
            provider.shut_down();
            self.process_id = None;
        } else {
            self.provider = Some(provider);
        }
    }

    fn give_up(&mut self, reason: FailureKind, error: &ClientError) -> PoolError {
        let gave_up = GaveUp {
            reason,
            message: error.to_string(),
        };
        self.gave_up = Some(gave_up.clone());
        PoolError::GaveUp(gave_up)
    }
}

impl<P: PooledProvider> Drop for Held<'_, P> {
    fn drop(&mut self) {
        let mut state = lock(&self.slot.state);
        state.provider = self.provider.take();
        state.process_id = if state.provider.is_some() {
            self.process_id
        } else {
            None
        };
        state.restarts = self.restarts;
        if self.gave_up.is_some() {
            state.gave_up = self.gave_up.take();
        }
        state.busy = false;
        state.last_used = Instant::now();
        self.slot.freed.notify_one();
    }
}

fn stop_idle<P: PooledProvider>(shared: &Shared<P>, now: Instant) -> usize {
    let idle_timeout = shared.settings.idle_timeout;
    let mut stopped = Vec::new();
    {
        let mut state = lock(&shared.state);
        // A slot only the pool holds cannot be taken meanwhile: callers
        // clone it under this lock.
        state.slots.retain(|_, slot| {
            if Arc::strong_count(slot) > 1 {
                return true;
            }
            let mut slot_state = lock(&slot.state);
            let idle = !slot_state.busy
                && slot_state.gave_up.is_none()
                && now.saturating_duration_since(slot_state.last_used) >= idle_timeout;
            if !idle {
                return true;
            }
            if let Some(provider) = slot_state.provider.take() {
                stopped.push(provider);
            }
            false
        });
    }
    let count = stopped.len();
    for provider in stopped {
        provider.shut_down();
    }
    count
}

/// The idle stopper's thread: looks every half idle timeout until the
/// pool shuts down.
fn stop_idle_until_shut_down<P: PooledProvider>(shared: &Shared<P>) {
    let period = (shared.settings.idle_timeout / 2).max(Duration::from_millis(10));
    let mut state = lock(&shared.state);
    while !state.shut_down {
        state = shared
            .shutting_down
            .wait_timeout(state, period)
            .map(|(state, _)| state)
            .unwrap_or_else(|poisoned| poisoned.into_inner().0);
        if state.shut_down {
            return;
        }
        drop(state);
        stop_idle(shared, Instant::now());
        state = lock(&shared.state);
    }
}

#[cfg(test)]
mod tests;

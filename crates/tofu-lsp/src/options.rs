//! How the server behaves beyond what the client configures: the options
//! the binary and the tests pass in, and their defaults.
//!
//! Options are fixed for the life of a server; settings the client may
//! change live are in `settings.rs`.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How the server behaves beyond what the client configures.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// How long a directory waits after a change before it is analysed, so a
    /// burst of keystrokes costs one analysis.
    pub debounce: Duration,
    /// A directory whose last analysis took less than this does not wait
    /// for [`ServerOptions::debounce`]: a keystroke in a small directory is
    /// published at once, and only expensive directories wait for a burst of
    /// keystrokes to end.
    pub cheap_analysis: Duration,
    /// Enables the test requests: `tofuLens/panic`, which panics inside a
    /// request handler (for tests of the panic guard), and
    /// `tofuLens/settled`, answered once no background work is under way.
    pub test_hooks: bool,
    /// When set, a changed path is looked at on disk only once the gate is
    /// open: a test holds the disk back to see what the server does
    /// meanwhile (`None` otherwise).
    pub disk_gate: Option<DiskGate>,
    /// How many directories a walk of one workspace folder (or of a directory
    /// created in it) may visit. A folder such as `/` or a home directory
    /// stops there, with a message; what was found is still analysed.
    pub max_walk_dirs: usize,
    /// How many module directories without open documents keep their full
    /// analysis (syntax trees, merged configuration, analysis cache), the most
    /// recently used; every other directory keeps its diagnostics, symbols
    /// and module calls only, and is analysed again when a request needs
    /// more. Bounds the server's memory on a large workspace.
    pub full_analyses_kept: usize,
    /// Where installed provider packages, the plugin cache, mirrors and the
    /// schema cache are: the binary builds it as `check` and `tofu-lens
    /// schemas` do (one schema cache for all three). `None`: no package is
    /// read, only the `schemas.files` settings.
    pub provider_environment: Option<tofu_schema::ProviderEnvironment>,
    /// How long a provider may take to start and to answer.
    pub provider_timeouts: tofu_schema::plugin::Timeouts,
    /// How to fetch providers nothing installed (registries, mirrors,
    /// credentials: the CLI configuration, as the binary reads it), into
    /// the environment's `fetched_dir`; used only where the
    /// `schemas.fetchProviders` setting is on. `None`: never fetched.
    pub fetch_config: Option<tofu_fetch::FetchConfig>,
}

/// The default of [`ServerOptions::max_walk_dirs`]: more directories than a
/// large monorepo has once `.git`, `.terraform`, `node_modules` and hidden
/// directories are skipped, and a walk that takes about a second.
pub const MAX_WALK_DIRS: usize = 20_000;

/// The default of [`ServerOptions::full_analyses_kept`]: enough for the
/// modules a person moves between (a root module and the modules it calls),
/// few enough that a monorepo costs its summaries, not its syntax trees.
pub const FULL_ANALYSES_KEPT: usize = 16;

/// The default of [`ServerOptions::cheap_analysis`]: well under a
/// keystroke's interval, and above what a module of a few dozen files costs.
pub const CHEAP_ANALYSIS: Duration = Duration::from_millis(5);

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            debounce: Duration::from_millis(30),
            cheap_analysis: CHEAP_ANALYSIS,
            test_hooks: false,
            disk_gate: None,
            max_walk_dirs: MAX_WALK_DIRS,
            full_analyses_kept: FULL_ANALYSES_KEPT,
            provider_environment: None,
            provider_timeouts: tofu_schema::plugin::Timeouts::default(),
            fetch_config: None,
        }
    }
}

/// The longest [`DiskGate::pass`] waits.
const GATE_LIMIT: Duration = Duration::from_secs(60);

/// A gate in front of the disk, for tests: closed until [`DiskGate::open`].
#[derive(Clone, Debug, Default)]
pub struct DiskGate {
    opened: Arc<(Mutex<bool>, Condvar)>,
}

impl DiskGate {
    /// Lets every waiting and later look at the disk through.
    pub fn open(&self) {
        let (opened, changed) = &*self.opened;
        *opened
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = true;
        changed.notify_all();
    }

    /// Waits until the gate is open, or a minute at most: a server that
    /// waits on the gate where it must not then fails its test by the
    /// client's timeout instead of hanging it.
    pub(crate) fn pass(&self) {
        let (opened, changed) = &*self.opened;
        let is_open = opened
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = changed.wait_timeout_while(is_open, GATE_LIMIT, |is_open| !*is_open);
    }
}

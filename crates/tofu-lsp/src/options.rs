//! How the server behaves beyond what the client configures: the options
//! the binary and the tests pass in, and their defaults.
//!
//! Options are fixed for the life of a server; settings the client may
//! change live are in `settings.rs`.

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
    /// Enables the `tofuLens/panic` request, which panics inside a request
    /// handler (for tests of the panic guard).
    pub test_hooks: bool,
    /// A pause before each changed path is looked at on disk: simulates a
    /// slow disk in tests (zero otherwise).
    pub disk_delay: Duration,
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
            disk_delay: Duration::ZERO,
            max_walk_dirs: MAX_WALK_DIRS,
            full_analyses_kept: FULL_ANALYSES_KEPT,
        }
    }
}

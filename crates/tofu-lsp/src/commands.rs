//! The names of the server's own commands (`workspace/executeCommand`),
//! in a module of their own: the requests that offer them (code lenses,
//! code actions) and the one that runs them all name them.

/// Adds a values file to the files plan's checks read in its directory,
/// or takes it out (`requests::execute_command`).
pub const TOGGLE_VAR_FILE: &str = "tofuLens.toggleVarFile";

/// Asks the client to show where a value is given.
pub const SHOW_VALUE: &str = "tofuLens.showValue";

/// Every command the server runs.
pub const COMMANDS: [&str; 2] = [TOGGLE_VAR_FILE, SHOW_VALUE];

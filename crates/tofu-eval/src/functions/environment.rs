//! What functions read from outside the value world: files relative to the
//! module directory (`file`, `fileexists`, `filebase64`, the file hashes,
//! `templatefile`), the directories `fileset` walks, and, only where
//! OpenTofu has them (its console, not `validate`), the clock and random
//! bytes ([`PerRun`]: `timestamp`, `uuid`, `bcrypt`). The caller implements
//! [`Environment`]; this crate does no IO and reads no clock. [`NoFiles`] is
//! an environment where nothing can be read, so those functions give
//! unknown values.

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Nothing at that path.
    NotFound,
    /// A directory where a file was expected.
    IsDirectory,
    /// The environment cannot read files (an editor without disk access,
    /// a test): the function's result is unknown.
    Unavailable,
    /// Any other failure, in OpenTofu's words.
    Other(String),
}

/// What a directory entry is, without following links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Directory,
    /// A link or anything else: matched by name, never walked into.
    Other,
}

/// One entry of a listed directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub kind: EntryKind,
}

/// Files as the module directory holds them. `path` is as written in the
/// call; the environment resolves it against the module directory.
pub trait Environment {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError>;

    /// Whether a regular file exists at `path` (a directory is an error).
    fn file_exists(&self, path: &str) -> Result<bool, FileError>;

    /// The entries of the directory at `path`, as `fileset` walks them:
    /// `NotFound` when there is none, `IsDirectory`… never; `Unavailable`
    /// (the default) makes `fileset` unknown.
    fn read_dir(&self, _path: &str) -> Result<Vec<DirEntry>, FileError> {
        Err(FileError::Unavailable)
    }

    /// `tofu console` offers the `type` function.
    fn console_mode(&self) -> bool {
        false
    }

    /// The directory OpenTofu runs in (`abspath`); `None` when unknown,
    /// which makes the result unknown.
    fn working_directory(&self) -> Option<String> {
        None
    }

    /// The user's home directory (`pathexpand`); `None` when unknown.
    fn home_directory(&self) -> Option<String> {
        None
    }

    /// The clock and random bytes, which `tofu console` has; `None` (the
    /// default, as at validate time) leaves `timestamp`, `uuid` and
    /// `bcrypt` unknown.
    fn per_run(&self) -> Option<&dyn PerRun> {
        None
    }

    /// Calls provider function `function` (the plugin protocol's
    /// `CallFunction`) with wholly known, unmarked arguments of its
    /// parameters' types: its result, or its error (the argument it
    /// blames and its text). `None` (the default) when no provider can
    /// run here, which leaves the result unknown.
    fn call_provider_function(
        &self,
        _function: &super::provider::ProviderFunction,
        _arguments: &[crate::value::Value],
    ) -> Option<Result<crate::value::Value, super::function_error::FunctionError>> {
        None
    }
}

/// What differs on every run of OpenTofu, given by the one caller that has
/// it (the console).
pub trait PerRun {
    /// Now, in nanoseconds since the Unix epoch.
    fn now_unix_nanos(&self) -> i128;

    /// Fills `bytes` from the operating system's random source (Go's
    /// `crypto/rand`); `false` when there is none, which leaves the
    /// function's result unknown.
    fn fill_random(&self, bytes: &mut [u8]) -> bool;
}

/// An environment without files.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl Environment for NoFiles {
    fn read_file(&self, _path: &str) -> Result<Vec<u8>, FileError> {
        Err(FileError::Unavailable)
    }

    fn file_exists(&self, _path: &str) -> Result<bool, FileError> {
        Err(FileError::Unavailable)
    }
}

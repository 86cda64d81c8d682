//! What reading and writing share: the errors, the path into the value
//! they name, and cty's numbers for refined unknowns.

use std::fmt;

/// Why a value could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MsgpackError {
    /// Where in the value, as OpenTofu prints a path (`.rule[0].port`);
    /// empty for the value itself.
    pub path: String,
    pub message: String,
}

impl fmt::Display for MsgpackError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            formatter.write_str(&self.message)
        } else {
            write!(formatter, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for MsgpackError {}

/// One step of a path into a value.
#[derive(Clone, Debug)]
pub(super) enum PathStep {
    Attribute(String),
    Index(usize),
    Key(String),
}

/// The path to the part being written or read, for errors.
#[derive(Default)]
pub(super) struct ValuePath {
    steps: Vec<PathStep>,
}

impl ValuePath {
    pub(super) fn error(&self, message: impl Into<String>) -> MsgpackError {
        let mut path = String::new();
        for step in &self.steps {
            match step {
                PathStep::Attribute(name) => {
                    path.push('.');
                    path.push_str(name);
                }
                PathStep::Index(index) => path.push_str(&format!("[{index}]")),
                PathStep::Key(key) => path.push_str(&format!("[{key:?}]")),
            }
        }
        MsgpackError {
            path,
            message: message.into(),
        }
    }

    /// Runs `inner` with `step` on the path.
    pub(super) fn within<T>(
        &mut self,
        step: PathStep,
        inner: impl FnOnce(&mut ValuePath) -> T,
    ) -> T {
        self.steps.push(step);
        let result = inner(self);
        self.steps.pop();
        result
    }
}

/// The extension type of an unknown value with refinements.
pub(super) const REFINED_UNKNOWN_EXTENSION: u8 = 0x0c;
/// The refinement keys.
pub(super) const REFINEMENT_NULLNESS: i64 = 1;
pub(super) const REFINEMENT_STRING_PREFIX: i64 = 2;
pub(super) const REFINEMENT_NUMBER_LOWER: i64 = 3;
pub(super) const REFINEMENT_NUMBER_UPPER: i64 = 4;
pub(super) const REFINEMENT_LENGTH_LOWER: i64 = 5;
pub(super) const REFINEMENT_LENGTH_UPPER: i64 = 6;

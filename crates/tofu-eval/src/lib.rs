//! OpenTofu's values and what computes them: the value model (null,
//! unknown, primitive, collection and structural values with their marks),
//! type constraints and the conversions between types, the built-in
//! functions, and the evaluation of expressions of the syntax model.
//!
//! It reads expressions of `tofu-syntax`'s model and knows nothing of
//! modules, overrides, providers or editors: whoever evaluates gives the
//! values of the names an expression refers to (an evaluation scope), and
//! what a function reads from disk (`file`, `templatefile`, …) comes
//! through the same scope, as do the clock and random bytes where the
//! caller has them (the console). No IO, no clock, no global state.

pub mod defaults;
pub mod functions;
pub mod number;
pub mod printer;
pub mod types;
pub mod value;

pub use defaults::{apply_defaults, Defaults, DefaultsStep, TypeConstraint};
pub use eval::{evaluate, EvalDiagnostic, Evaluation, Reference, Referenced, Scope};
pub use functions::{
    call_function, CallError, DirEntry, EntryKind, Environment, ErrorSubject, FileError,
    FunctionError, NoFiles, PerRun, ProviderFunction, ProviderParameter,
};
pub use number::Number;
pub use printer::format_value;
pub use types::{ObjectType, Type};
pub mod console;
pub mod convert;
pub mod eval;
pub use value::{Marks, Refinements, Tristate, Unknown, Value, ValueKind};

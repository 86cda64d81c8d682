//! What a function's implementation is made of, shared by every family:
//! what each parameter accepts ([`Accepts`]), the implementation itself
//! ([`Implementation`]), the arguments it runs with and how it reads them,
//! and the errors a function and a call give.

use super::environment::Environment;
pub use super::function_error::FunctionError;
use crate::number::Number;
use crate::types::Type;
use crate::value::{Marks, Value};

/// What a parameter accepts besides known, unmarked, non-null values of
/// its type (cty's `Parameter` flags).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Accepts {
    pub null: bool,
    pub unknown: bool,
    pub dynamic: bool,
    pub marked: bool,
}

pub(crate) const PLAIN: Accepts = Accepts {
    null: false,
    unknown: false,
    dynamic: false,
    marked: false,
};

pub(crate) const ANYTHING: Accepts = Accepts {
    null: true,
    unknown: true,
    dynamic: true,
    marked: true,
};

/// cty's `Type` function: the result type from the arguments.
pub(crate) type ResultType = fn(&[Value]) -> Result<Type, FunctionError>;

/// How a function behaves beyond its signature.
#[derive(Clone, Copy)]
pub(crate) struct Implementation {
    /// Per positional parameter; missing entries are [`PLAIN`].
    pub parameters: &'static [Accepts],
    pub variadic: Accepts,
    /// The result type from the arguments (cty's `Type`); `None` when it is
    /// the signature's return type.
    pub result_type: Option<ResultType>,
    pub run: fn(&Arguments) -> Result<Value, FunctionError>,
}

impl Implementation {
    /// A function whose parameters take only known, unmarked, non-null
    /// values of their types, with the signature's result type.
    pub fn simple(run: fn(&Arguments) -> Result<Value, FunctionError>) -> Implementation {
        Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: None,
            run,
        }
    }
}

/// The arguments a function runs with.
pub(crate) struct Arguments<'a> {
    pub values: &'a [Value],
    pub result_type: Type,
    pub environment: &'a dyn Environment,
}

impl Arguments<'_> {
    /// The argument at `index`; a dynamic null past the end (arity is
    /// checked before any function runs).
    pub fn get(&self, index: usize) -> Value {
        self.values
            .get(index)
            .cloned()
            .unwrap_or_else(Value::dynamic_null)
    }
}

/// Where OpenTofu puts an error about a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorSubject {
    /// The function's name (unknown function).
    Name,
    /// The closing parenthesis (not enough arguments).
    CloseParen,
    /// The argument at this index (too many, or an invalid one).
    Argument(usize),
    /// The whole call (an error of the function).
    Call,
}

/// An error OpenTofu reports for a call, in its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    pub summary: String,
    pub detail: String,
    pub subject: ErrorSubject,
}

/// The string argument at `index` (empty when it is not a string, which
/// conversion to the parameter's type rules out).
pub(crate) fn text(args: &Arguments, index: usize) -> String {
    args.get(index).as_str().unwrap_or_default().to_owned()
}

/// OpenTofu's `redactIfSensitiveOrEphemeral` for a string in a message:
/// Go-quoted, or what its marks say in its place.
pub(crate) fn redacted(text: &str, marks: Marks) -> String {
    match (marks.ephemeral, marks.sensitive) {
        (true, true) => "(ephemeral sensitive value)".to_owned(),
        (true, false) => "(ephemeral value)".to_owned(),
        (false, true) => "(sensitive value)".to_owned(),
        (false, false) => tofu_syntax::go_text::go_quote(text),
    }
}

/// The number an argument holds (zero when it is not one, which conversion
/// to the parameter's type rules out).
pub(crate) fn number(value: &Value) -> Number {
    value.as_number().cloned().unwrap_or_else(Number::zero)
}

/// gocty's conversion to a Go `int`: a whole number in range, else its
/// error (reported as the call's).
pub(crate) fn whole_number(value: &Value) -> Result<i64, FunctionError> {
    number(value).to_i64_exact().ok_or_else(|| {
        FunctionError::call(format!(
            "value must be a whole number, between {} and {}",
            i64::MIN,
            i64::MAX
        ))
    })
}

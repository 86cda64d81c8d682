//! A function's own error, as cty's `function.ArgError` or a plain error
//! carries it: the argument it blames, if any, and its text. Built-in
//! functions and providers' functions (`CallFunction`) give it alike.

/// A function's own error: about one argument (`argument`) or the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionError {
    pub argument: Option<usize>,
    pub message: String,
}

impl FunctionError {
    pub fn call(message: impl Into<String>) -> FunctionError {
        FunctionError {
            argument: None,
            message: message.into(),
        }
    }

    pub fn argument(index: usize, message: impl Into<String>) -> FunctionError {
        FunctionError {
            argument: Some(index),
            message: message.into(),
        }
    }

    /// A Go panic in the function, as cty's `PanicError` words it: the
    /// panic's value, then the stack of the goroutine, whose frames (with
    /// their heap addresses, different on every run) are left out.
    pub fn go_panic(value: &str) -> FunctionError {
        FunctionError::call(format!(
            "panic in function implementation: {value}\ngoroutine 1 [running]:\n"
        ))
    }
}

//! OpenTofu's built-in functions and calling them as HCL does.
//!
//! [`call_function`] takes a function name (`upper` or `core::upper`) and
//! the values of its arguments and gives the result or the error OpenTofu
//! reports, with its summary, detail and the part of the call it points at
//! ([`ErrorSubject`]). The steps are HCL's `FunctionCallExpr.Value` and
//! cty's `Function.Call`: look the name up (with "Did you mean"), check the
//! number of arguments, convert each argument to its parameter's type,
//! refuse nulls where a parameter does not take them, return an unknown
//! result when an argument is unknown (unless the function looks inside
//! unknown values), take marks off the arguments and put them on the
//! result, and only then run the function.
//!
//! The signatures come from OpenTofu's metadata (`signatures.rs`, generated);
//! what the metadata does not say (which parameters take unknown, marked or
//! dynamically typed values, how the result type follows from the
//! arguments) is in the family modules beside this one, one per kind of
//! function. Reading files, the clock and random bytes go through an
//! [`Environment`] the caller gives; nothing here touches the disk or the
//! clock.

mod collection;
mod conversion;
mod deflate;
mod deflate_block;
mod encoding;
mod environment;
mod filesystem;
mod format;
mod function_error;
mod glob;
mod go_case;
mod go_math;
mod gunzip;
mod gzip;
mod hash;
mod huffman;
mod iana_index;
mod implementation;
mod json_decode;
mod network;
mod numeric;
mod provider;
mod regex;
mod registry;
mod rsa_decrypt;
mod sensitivity;
pub mod signature;
#[rustfmt::skip]
mod signatures;
mod string;
pub mod suggest;
mod text_encoding;
mod time;
mod try_can;
mod yaml;
mod yaml_decode;
mod yaml_emitter;
mod yaml_parser;
mod yaml_resolve;
mod yaml_scanner;

use crate::convert::convert;
use crate::types::Type;
use crate::value::{Marks, Value};
use tofu_syntax::go_text::go_quote;

pub use environment::{DirEntry, EntryKind, Environment, FileError, NoFiles, PerRun};
pub(crate) use filesystem::file_text;
pub(crate) use implementation::{Accepts, Arguments, Implementation, PLAIN};
pub use implementation::{CallError, ErrorSubject, FunctionError};
pub use provider::{ProviderFunction, ProviderParameter};
pub use registry::signature;
pub use signature::{Parameter, Signature};
pub use signatures::SIGNATURES;

/// Calls a built-in function as OpenTofu does (see the module doc).
pub fn call_function(
    name: &str,
    arguments: &[Value],
    environment: &dyn Environment,
) -> Result<Value, Vec<CallError>> {
    let function = lookup(name, true).map_err(|error| vec![error])?;
    if let Some(error) = function.arity_error(arguments.len()) {
        return Err(vec![error]);
    }
    let mut converted = Vec::with_capacity(arguments.len());
    let mut conversion_errors = Vec::new();
    for (index, argument) in arguments.iter().enumerate() {
        match function.convert_argument(index, argument) {
            Ok(value) => converted.push(value),
            Err(error) => conversion_errors.push(error),
        }
    }
    if !conversion_errors.is_empty() {
        return Err(conversion_errors);
    }
    function
        .call_converted(converted, environment)
        .map_err(|error| vec![error])
}

/// A built-in function found by name, ready to be called step by step as
/// HCL calls it: arity first, then each argument converted, then the call.
#[derive(Clone, Copy)]
pub struct Function<'n> {
    /// The name as written (`core::upper` stays so in messages).
    pub name: &'n str,
    pub signature: &'static Signature,
    implementation: Implementation,
}

/// The function `name` (`upper` or `core::upper`), or "Call to unknown
/// function", with HCL's suggestion when `suggests` (see
/// `Scope::suggests_function_names`).
pub(crate) fn lookup(name: &str, suggests: bool) -> Result<Function<'_>, CallError> {
    let plain_name = name.strip_prefix("core::").unwrap_or(name);
    if plain_name.contains("::") {
        return Err(suggest::unknown_function(name, suggests));
    }
    match (signature(plain_name), registry::implementation(plain_name)) {
        (Some(signature), Some(implementation)) => Ok(Function {
            name,
            signature,
            implementation,
        }),
        _ => Err(match removed_function(plain_name) {
            Some(why) => CallError {
                summary: "Error in function call".to_owned(),
                detail: format!("Call to function {} failed: {why}.", go_quote(name)),
                subject: ErrorSubject::Call,
            },
            None => suggest::unknown_function(name, suggests),
        }),
    }
}

/// `list` and `map`: OpenTofu still has them, as functions that always fail
/// (`funcs.ListFunc`, `funcs.MapFunc`), with this reason.
fn removed_function(name: &str) -> Option<&'static str> {
    match name {
        "list" => Some("the \"list\" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tolist([ ... ]) syntax to write a literal list"),
        "map" => Some("the \"map\" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tomap({ ... }) syntax to write a literal map"),
        _ => None,
    }
}

impl Function<'_> {
    fn parameter_at(&self, index: usize) -> Option<Parameter> {
        self.signature
            .parameters
            .get(index)
            .copied()
            .or(self.signature.variadic)
    }

    /// "Not enough function arguments" or "Too many function arguments".
    pub fn arity_error(&self, n_arguments: usize) -> Option<CallError> {
        let names: Vec<&str> = self.signature.parameters.iter().map(|p| p.name).collect();
        arity_error(
            self.name,
            &names,
            self.signature.variadic.is_some(),
            n_arguments,
        )
    }

    /// The argument at `index` converted to its parameter's type, or
    /// "Invalid function argument".
    pub fn convert_argument(&self, index: usize, argument: &Value) -> Result<Value, CallError> {
        let Some(parameter) = self.parameter_at(index) else {
            return Ok(argument.clone());
        };
        convert(argument, &parameter.parameter_type())
            .map_err(|error| argument_error(parameter.name, index, &error.message))
    }

    /// Runs the function on converted arguments (cty's `Function.Call`).
    pub fn call_converted(
        &self,
        converted: Vec<Value>,
        environment: &dyn Environment,
    ) -> Result<Value, CallError> {
        let n_arguments = converted.len();
        run(self.signature, &self.implementation, converted, environment)
            .map_err(|error| self.call_error(error, n_arguments))
    }

    /// A function's own error as HCL reports it: "Invalid function
    /// argument" about one of the `n_arguments` arguments, else "Error in
    /// function call".
    pub fn call_error(&self, error: FunctionError, n_arguments: usize) -> CallError {
        let parameter = error
            .argument
            .and_then(|index| self.parameter_at(index))
            .map(|parameter| parameter.name);
        call_error(self.name, parameter, error, n_arguments)
    }
}

/// HCL's arity check of a call to `name` (as written) whose parameters are
/// named `parameters`: "Not enough function arguments" (pointing at the
/// closing parenthesis) or "Too many function arguments" (at the first
/// extra argument).
pub(crate) fn arity_error(
    name: &str,
    parameters: &[&str],
    variadic: bool,
    n_arguments: usize,
) -> Option<CallError> {
    if let Some(missing) = parameters.get(n_arguments) {
        let qualifier = if variadic { " at least" } else { "" };
        return Some(CallError {
            summary: "Not enough function arguments".to_owned(),
            detail: format!(
                "Function {} expects{qualifier} {} argument(s). Missing value for {}.",
                go_quote(name),
                parameters.len(),
                go_quote(missing)
            ),
            subject: ErrorSubject::CloseParen,
        });
    }
    if !variadic && n_arguments > parameters.len() {
        return Some(CallError {
            summary: "Too many function arguments".to_owned(),
            detail: format!(
                "Function {} expects only {} argument(s).",
                go_quote(name),
                parameters.len()
            ),
            subject: ErrorSubject::Argument(parameters.len()),
        });
    }
    None
}

/// "Invalid function argument" about the argument at `index`, taken by
/// `parameter`.
pub(crate) fn argument_error(parameter: &str, index: usize, message: &str) -> CallError {
    CallError {
        summary: "Invalid function argument".to_owned(),
        detail: format!(
            "Invalid value for {} parameter: {message}.",
            go_quote(parameter)
        ),
        subject: ErrorSubject::Argument(index),
    }
}

/// A function's own error as HCL reports it: "Invalid function argument"
/// about one of the `n_arguments` arguments (its parameter named), else
/// "Error in function call".
pub(crate) fn call_error(
    name: &str,
    parameter: Option<&str>,
    error: FunctionError,
    n_arguments: usize,
) -> CallError {
    match (error.argument, parameter) {
        (Some(index), Some(parameter)) => {
            let mut found = argument_error(parameter, index, &error.message);
            if index >= n_arguments {
                found.subject = ErrorSubject::Call;
            }
            found
        }
        _ => CallError {
            summary: "Error in function call".to_owned(),
            detail: format!(
                "Call to function {} failed: {}.",
                go_quote(name),
                error.message
            ),
            subject: ErrorSubject::Call,
        },
    }
}

/// cty's `Function.Call` on converted arguments.
fn run(
    signature: &Signature,
    implementation: &Implementation,
    arguments: Vec<Value>,
    environment: &dyn Environment,
) -> Result<Value, FunctionError> {
    let n_parameters = signature.parameters.len();
    let accepts_at = |index: usize| {
        if index < n_parameters {
            implementation
                .parameters
                .get(index)
                .copied()
                .unwrap_or(PLAIN)
        } else {
            implementation.variadic
        }
    };
    // cty's returnTypeForValues: nulls, then dynamic types, then the type.
    let mut for_type = arguments.clone();
    for (index, argument) in arguments.iter().enumerate() {
        let accepts = accepts_at(index);
        if !accepts.marked {
            if let Some(slot) = for_type.get_mut(index) {
                *slot = argument.clone().unmark_deep().0;
            }
        }
        if argument.is_null() && !accepts.null {
            return Err(FunctionError::argument(index, "argument must not be null"));
        }
        if argument.ty() == Type::Dynamic && !accepts.dynamic {
            let marks = collect_marks(&arguments, &accepts_at);
            return Ok(Value::dynamic_unknown().with_marks(marks));
        }
    }
    let result_type = match implementation.result_type {
        Some(result_type) => result_type(&for_type)?,
        None => signature.result_type(),
    };
    let mut marks = Marks::default();
    let mut unmarked = Vec::with_capacity(arguments.len());
    let mut any_unknown = false;
    for (index, argument) in arguments.into_iter().enumerate() {
        let accepts = accepts_at(index);
        let argument = if accepts.marked {
            argument
        } else {
            let (argument, argument_marks) = argument.unmark_deep();
            marks = marks.union(argument_marks);
            argument
        };
        if !argument.is_known() && !accepts.unknown {
            any_unknown = true;
        }
        unmarked.push(argument);
    }
    if any_unknown {
        return Ok(Value::unknown(result_type).with_marks(marks));
    }
    let result = (implementation.run)(&Arguments {
        values: &unmarked,
        result_type,
        environment,
    })?;
    Ok(result.with_marks(marks))
}

fn collect_marks(arguments: &[Value], accepts_at: &dyn Fn(usize) -> Accepts) -> Marks {
    arguments
        .iter()
        .enumerate()
        .filter(|(index, _)| !accepts_at(*index).marked)
        .fold(Marks::default(), |marks, (_, argument)| {
            marks.union(argument.deep_marks())
        })
}

#[cfg(test)]
mod tests;

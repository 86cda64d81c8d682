//! One line of `tofu console`: the expression read as native syntax,
//! evaluated, and printed as the console prints a value, or as its errors
//! (`Error: SUMMARY`, a blank line, the detail; several errors separated
//! by a blank line). `tofu-lens console` and the differential against the
//! real console share it.

use crate::eval::{evaluate, EvalError};
use crate::functions::Environment;
use crate::printer::format_value;

/// What the console prints for `line`.
pub fn console_line(line: &str, environment: &dyn Environment) -> String {
    let source = format!("x = {line}\n");
    let file = tofu_syntax::parse("console.tf", &source);
    let Some(attribute) = file.body.attributes.first().filter(|_| !file.has_errors()) else {
        return "Error: (syntax not read by tofu-eval yet)".to_owned();
    };
    match evaluate(&attribute.expr, environment) {
        Ok(value) => format_value(&value),
        Err(EvalError::Call { errors, .. }) => errors
            .iter()
            .map(|error| format!("Error: {}\n\n{}", error.summary, error.detail))
            .collect::<Vec<_>>()
            .join("\n\n"),
        Err(EvalError::Unsupported { .. }) => {
            "Error: (expression not evaluated by tofu-eval yet)".to_owned()
        }
    }
}

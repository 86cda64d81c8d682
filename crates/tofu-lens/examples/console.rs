//! `tofu console` for the differential (`scripts/generate_console.py`):
//! reads expressions from stdin as `tofu console` reads a pipe (one a line,
//! or over lines while a bracket is open or a line ends in `\`) and prints
//! each value as `tofu console` does, or its errors as `tofu console`
//! prints them on stderr (with the line of the input), going on after an
//! error with the bracket count started afresh (the real `tofu-lens
//! console` stops at the first, as OpenTofu's does, which a batch of
//! thousands cannot use; the differential starts OpenTofu's again after
//! it). Its functions read what `tofu-lens console` gives them
//! ([`ConsoleDirectory`]): files relative to the working directory, the
//! clock and random bytes.

#![allow(clippy::print_stdout)]

use std::io::{BufRead, Write};

use tofu_eval::console::bracket_state::{BracketState, Read};
use tofu_eval::console::{handle, Handled, NoModule};
use tofu_lens::console::{plain_diagnostic, ConsoleDirectory};

fn main() {
    let environment = ConsoleDirectory::new(".".into());
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut state = BracketState::new();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let Read::Run(input) = state.read_line(&line) else {
            continue;
        };
        let printed = match handle(&input, &environment, &NoModule) {
            Handled::Print(printed) => printed,
            Handled::Exit => String::new(),
            Handled::Errors(errors) => {
                state = BracketState::new();
                errors
                    .iter()
                    .map(|error| plain_diagnostic(&input, error))
                    .collect()
            }
        };
        let _ = writeln!(out, "{printed}");
    }
}

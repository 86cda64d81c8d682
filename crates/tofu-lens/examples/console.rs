//! `tofu console` for the differential (`scripts/generate_console.py`):
//! reads one expression per line from stdin and prints its value as `tofu
//! console` does, or its errors as `Error: SUMMARY`, a blank line and the
//! detail, going on after an error (the real `tofu-lens console` stops at
//! the first, as OpenTofu's does, which a batch of thousands cannot use).
//! Its functions read what `tofu-lens console` gives them
//! ([`ConsoleDirectory`]): files relative to the working directory, the
//! clock and random bytes.

#![allow(clippy::print_stdout)]

use std::io::{BufRead, Write};

use tofu_eval::console::console_line;
use tofu_lens::console::ConsoleDirectory;

fn main() {
    let environment = ConsoleDirectory::new(".".into());
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let _ = writeln!(out, "{}", console_line(&line, &environment));
    }
}

//! Development aid: formats stdin to stdout (exit 2 on syntax errors), so the
//! engine can be compared with `tofu fmt -` without building the binary.

#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used)]

use std::io::{Read, Write};

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    match tofu_fmt::format(&text) {
        Ok(formatted) => std::io::stdout().write_all(formatted.as_bytes()).unwrap(),
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    }
}

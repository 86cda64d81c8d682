//! Measures what a loaded schema costs in memory against the size of its
//! `tofu providers schema -json` text: decodes the file given as the first
//! argument 200 times, keeps every copy, and divides the growth of the
//! resident set (`VmRSS`) by the number of copies, so allocator overhead
//! is counted. Also prints the median decode time.
//!
//! `cargo run --release -p tofu-schema --example schema_memory -- FILE`

// A measuring tool: its output is the point.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::time::Instant;

const COPIES: usize = 200;

fn resident_bytes() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: schema_memory FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{path}: {error}");
            std::process::exit(2);
        }
    };
    // Warm up the allocator and the page cache once.
    drop(tofu_schema::decode_providers_schema_json(&text));
    let before = resident_bytes().unwrap_or(0);
    let mut kept = Vec::with_capacity(COPIES);
    let mut durations = Vec::with_capacity(COPIES);
    for _ in 0..COPIES {
        let start = Instant::now();
        match tofu_schema::decode_providers_schema_json(&text) {
            Ok(providers) => kept.push(providers),
            Err(error) => {
                eprintln!("{path}: {error}");
                std::process::exit(1);
            }
        }
        durations.push(start.elapsed());
    }
    let after = resident_bytes().unwrap_or(0);
    durations.sort();
    let per_copy = after.saturating_sub(before) / COPIES;
    println!("json bytes: {}", text.len());
    println!(
        "memory per loaded copy: {per_copy} bytes ({:.2}x the JSON)",
        per_copy as f64 / text.len() as f64
    );
    println!(
        "decode median: {:?}",
        durations.get(COPIES / 2).copied().unwrap_or_default()
    );
    println!("copies kept: {}", kept.len());
}

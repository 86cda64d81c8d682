//! `tofu-bench-heap SCHEMA_JSON`: the heap a decoded `tofu providers schema
//! -json` document keeps, counted by a global allocator that wraps the
//! system's with counters, printed as `JSON_BYTES HEAP_BYTES ALLOCATIONS`.
//!
//! It is a binary of its own so that the counting allocator (an atomic
//! update on every allocation and free) is not the allocator of the
//! `tofu-bench` binary, whose timings it slowed by several per cent
//! (`check-cold` spent 8 % of its samples in it). `tofu-bench` starts it for
//! its `schema-memory` case.

// A command-line tool: its answer and its errors are its output.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static ALLOCATOR: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: tofu-bench-heap SCHEMA_JSON");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{}: {error}", std::path::Path::new(&path).display());
            return ExitCode::FAILURE;
        }
    };
    // Once before counting: whatever the decoder sets up on first use.
    drop(tofu_schema::decode_providers_schema_json(&text));
    let region = Region::new(ALLOCATOR);
    let decoded = match tofu_schema::decode_providers_schema_json(&text) {
        Ok(decoded) => decoded,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let change = region.change();
    drop(decoded);
    let held = i128::try_from(change.bytes_allocated).unwrap_or(0)
        - i128::try_from(change.bytes_deallocated).unwrap_or(0)
        + i128::try_from(change.bytes_reallocated).unwrap_or(0);
    let n_held = i128::try_from(change.allocations).unwrap_or(0)
        - i128::try_from(change.deallocations).unwrap_or(0);
    println!("{} {held} {n_held}", text.len());
    ExitCode::SUCCESS
}

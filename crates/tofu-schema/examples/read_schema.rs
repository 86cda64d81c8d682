//! Starts a provider executable, reads its schema over the plugin protocol
//! and prints it in the shape of `tofu providers schema -json`, for
//! `scripts/compare_schemas.py` and for timing a cold read.
//!
//! `read_schema ADDRESS EXECUTABLE` (ADDRESS as `HOST/NAMESPACE/TYPE`).

// A command-line tool: its output is the point.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::time::Instant;

use tofu_schema::plugin::{ProviderClient, Timeouts};
use tofu_schema::{encode_providers_schema_json, ProviderAddress};

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [address, executable] = arguments.as_slice() else {
        eprintln!("usage: read_schema HOST/NAMESPACE/TYPE EXECUTABLE");
        std::process::exit(2);
    };
    let Some(address) = ProviderAddress::parse(address) else {
        eprintln!("{address}: not a provider address");
        std::process::exit(2);
    };
    let start = Instant::now();
    let schema = ProviderClient::start(Path::new(executable), None, Timeouts::default()).and_then(
        |mut client| {
            let schema = client.read_schema();
            client.shutdown();
            schema
        },
    );
    match schema {
        Ok(schema) => {
            eprintln!("read in {:?}", start.elapsed());
            println!("{}", encode_providers_schema_json(&[(&address, &schema)]));
        }
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    }
}

//! The test registry of tofu-fetch's tests as a program, for the
//! differential against `tofu init` (`scripts/fetch_differential.py`) and
//! for trying the server by hand: an HTTPS provider registry on loopback
//! (certificate: `tests/data/server.pem`, signed by the test CA
//! `tests/data/ca.pem`), with service discovery, serving each
//! `--release TYPE=VERSION:EXECUTABLE` zipped as a provider release is,
//! its checksums signed with the test OpenPGP key.
//!
//!     cargo run -p tofu-fetch --example test_registry -- \
//!         --release time=0.14.2:/path/to/terraform-provider-time
//!
//! Prints the base URL (`https://127.0.0.1:PORT`) on its first line, then
//! serves until killed. Point `tofu` and `tofu-lens` at it with a CLI
//! configuration `host "registry.opentofu.org"` block whose
//! `providers.v1` is `BASE/v1/providers/`, and `SSL_CERT_FILE` set to the
//! test CA.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr
)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::Write;

fn main() {
    let mut releases: Vec<(String, String, Vec<u8>)> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--release" => {
                let spec = args.next().expect("--release TYPE=VERSION:EXECUTABLE");
                let (type_name, rest) = spec.split_once('=').expect("TYPE=VERSION:EXECUTABLE");
                let (version, executable) = rest.split_once(':').expect("VERSION:EXECUTABLE");
                let binary = std::fs::read(executable)
                    .unwrap_or_else(|error| panic!("{executable}: {error}"));
                let name = format!("terraform-provider-{type_name}_v{version}");
                releases.push((
                    type_name.to_owned(),
                    version.to_owned(),
                    support::zip(&[(&name, &binary)]),
                ));
            }
            other => {
                eprintln!("test_registry: unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let server = support::TestServer::start();
    let served: Vec<support::Release<'_>> = releases
        .iter()
        .map(|(type_name, version, archive)| {
            support::Release::new(type_name, version, archive.clone())
        })
        .collect();
    support::serve_registry(&server, &served, &[]);
    println!("{}", server.base);
    std::io::stdout().flush().unwrap();
    loop {
        std::thread::park();
    }
}

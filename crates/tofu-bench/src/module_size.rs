//! Requests whose cost must not grow with the module (issue 32): hover and
//! definition on a `var.` reference, over stdio, in
//! [`crate::synthetic::declarations_module`] at 50, 200 and 1,000 files.
//! Each size gets a server of its own; the requests are made in the same
//! file at the same place, so the sizes differ only in how many other files
//! the module has. The targets compare the 1,000-file module with the
//! 50-file one: flat means a ratio near 1.
//!
//! [`VALUE_CASE`] hovers `local.l1` in the 1,000-file module: the hover
//! shows the local's value (`var.v1`'s default, evaluated), the cost of
//! values on hover (issue 33: p50 ≤ 1 ms).

use std::path::Path;

use crate::sample::Sample;
use crate::serve::lsp_position_requests;
use crate::synthetic::{declarations_module, text_of, DECLARATIONS_FILE, DECLARATIONS_REFERENCE};

/// The module sizes, with the names of their hover and definition cases.
pub const SIZES: [(usize, &str, &str); 3] = [
    (50, "lsp-hover-50", "lsp-definition-50"),
    (200, "lsp-hover-200", "lsp-definition-200"),
    (1_000, "lsp-hover-1000", "lsp-definition-1000"),
];

/// Hover on a local value, whose hover evaluates it, in the 1,000-file
/// module.
pub const VALUE_CASE: &str = "lsp-hover-value-1000";

/// The text hovered for [`VALUE_CASE`]: `terraform_data.d1`'s input.
const VALUE_REFERENCE: &str = "local.l1\n";

/// Every case of this module, for `--only`.
pub const CASE: &str = "lsp-module-size";

/// Hover and definition at each size, `runs` requests each; a size whose
/// server fails is reported in `skipped`.
pub fn cases(binary: &Path, runs: usize, samples: &mut Vec<Sample>, skipped: &mut Vec<String>) {
    for (n_files, hover, definition) in SIZES {
        let module = declarations_module(n_files);
        let Some(offset) = module
            .iter()
            .find(|file| file.name == DECLARATIONS_FILE)
            .and_then(|file| text_of(file).find(DECLARATIONS_REFERENCE))
            .map(|at| at + "var.".len())
        else {
            skipped.push(format!(
                "{hover}: the module has no {DECLARATIONS_REFERENCE:?}"
            ));
            continue;
        };
        let input = |what: &str| {
            format!(
                "{what} on `var.v1` in {DECLARATIONS_FILE} of a module of {n_files} files \
                 (a variable, a local, a terraform_data and an output each, one override \
                 file), request → response over stdio"
            )
        };
        for (name, method, what) in [
            (hover, "textDocument/hover", "hover"),
            (definition, "textDocument/definition", "definition"),
        ] {
            match lsp_position_requests(binary, &module, DECLARATIONS_FILE, offset, method, runs) {
                Ok(times) => samples.push(Sample {
                    name,
                    input: input(what),
                    times,
                }),
                Err(error) => skipped.push(format!("{name}: {error}")),
            }
        }
        if n_files == 1_000 {
            value_hover(binary, &module, runs, samples, skipped);
        }
    }
}

/// [`VALUE_CASE`] in `module`.
fn value_hover(
    binary: &Path,
    module: &[tofu_module::InputFile],
    runs: usize,
    samples: &mut Vec<Sample>,
    skipped: &mut Vec<String>,
) {
    let Some(offset) = module
        .iter()
        .find(|file| file.name == DECLARATIONS_FILE)
        .and_then(|file| text_of(file).find(VALUE_REFERENCE))
        .map(|at| at + "local.".len())
    else {
        skipped.push(format!(
            "{VALUE_CASE}: the module has no {VALUE_REFERENCE:?}"
        ));
        return;
    };
    let method = "textDocument/hover";
    match lsp_position_requests(binary, module, DECLARATIONS_FILE, offset, method, runs) {
        Ok(times) => samples.push(Sample {
            name: VALUE_CASE,
            input: format!(
                "hover on `local.l1` in {DECLARATIONS_FILE} of a module of 1000 files (its \
                 value, `var.v1`'s default, is evaluated and shown), request → response over stdio"
            ),
            times,
        }),
        Err(error) => skipped.push(format!("{VALUE_CASE}: {error}")),
    }
}

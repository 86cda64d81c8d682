//! The diagnostic rules that are not part of loading or merging proper, one
//! module per family of codes. Each module exposes `check(module, …, out)` and
//! reads the analysis without changing it.
//!
//! Order matters only for the version rule: `incompatible-tofu-version`
//! withholds every other diagnostic of the directory (`diagnostics.md` §6),
//! which `analysis` applies after all rules ran.

pub(crate) mod blocks;
pub(crate) mod module_calls;
pub(crate) mod providers;
pub(crate) mod references;
pub(crate) mod schema;
pub(crate) mod types;
pub(crate) mod variables;
pub(crate) mod versions;

/// The rules that read one file's blocks as written, in the order they must
/// run (`blocks` reads what the earlier ones reported inside a block). They
/// see nothing but the one file, so the analysis caches their results with it.
pub(crate) fn check_as_written(
    file: crate::phases::FileView<'_>,
    out: &mut Vec<tofu_syntax::Diagnostic>,
) {
    schema::check(file, out);
    providers::check(file, out);
    references::check(file, out);
    blocks::check(file, out);
    types::check(file, out);
    variables::check_file(file, out);
}

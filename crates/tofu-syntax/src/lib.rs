//! One OpenTofu configuration file in, one syntax-neutral block model out.
//!
//! [`parse`] picks the syntax by file name (`*.json` is HCL JSON, anything else HCL
//! native), never fails, and returns whatever it could recover next to the syntax
//! errors. This crate also owns the shared vocabulary of the engine: byte ranges,
//! the line index, diagnostics and their codes; the one HCL token
//! [`scanner`], which whatever reads native syntax as text builds on (the
//! formatter, colours and folding, and this crate's delimiter recovery);
//! and Go's quoting of text as OpenTofu prints it ([`go_text`]).
//!
//! It knows nothing of modules, overrides or editors, and does no IO.

mod delimiters;
pub mod diagnostic;
mod duplicate_keys;
pub mod go_text;
mod json;
pub mod model;
mod native;
pub mod scanner;
mod template;
mod template_errors;
pub mod text;

pub use diagnostic::{
    Code, Diagnostic, FileId, Fix, Location, NewFile, Related, RelatedOutside, Severity, TextEdit,
};
pub use model::*;
pub use text::{LineCol, LineIndex, TextRange};

/// Parses a template on its own (e.g. a JSON string's content, which
/// OpenTofu reads as a template); ranges are relative to `source`. When it
/// does not parse: HCL's syntax errors for it, as `hclsyntax.ParseTemplate`
/// reports them (empty when tofu-lens does not know them).
pub fn parse_template(source: &str) -> Result<Expr, Vec<TemplateSyntaxError>> {
    native::parse_template(source)
}

/// Parses one configuration file. `name` decides the syntax: a name ending in
/// `.json` is JSON syntax, anything else native syntax (`loading.md` §6). In
/// a variable definitions file in JSON (`.tfvars.json`) every property is an
/// attribute; in a test file in JSON (`.tftest.json`, `.tofutest.json`) the
/// blocks are those of OpenTofu's test file schema.
pub fn parse(name: &str, text: &str) -> SourceFile {
    if name.ends_with(".tfvars.json") {
        json::parse_values(text)
    } else if name.ends_with(".tftest.json") || name.ends_with(".tofutest.json") {
        json::parse_test(text)
    } else if name.ends_with(".json") {
        json::parse(text)
    } else {
        native::parse(text)
    }
}

//! What a function's signature says (generated from OpenTofu's metadata in
//! `signatures.rs`): names, parameter types, which parameter takes the
//! rest of the arguments, the return type, descriptions for editors.

use crate::types::Type;

#[derive(Clone, Copy, Debug)]
pub struct Signature {
    pub name: &'static str,
    pub description: &'static str,
    /// The return type in OpenTofu's type syntax (`list(string)`).
    pub return_type: &'static str,
    pub parameters: &'static [Parameter],
    /// The parameter that takes every argument after `parameters`.
    pub variadic: Option<Parameter>,
}

#[derive(Clone, Copy, Debug)]
pub struct Parameter {
    pub name: &'static str,
    /// The type in OpenTofu's type syntax; `dynamic` takes any value.
    pub ty: &'static str,
    pub nullable: bool,
    pub description: &'static str,
}

impl Parameter {
    pub fn parameter_type(&self) -> Type {
        parse_type_text(self.ty)
    }
}

impl Signature {
    pub fn result_type(&self) -> Type {
        parse_type_text(self.return_type)
    }
}

/// The few type texts the metadata uses: primitives, `dynamic` and
/// collections of them. Anything else reads as `dynamic`.
pub fn parse_type_text(text: &str) -> Type {
    match text {
        "string" => Type::String,
        "number" => Type::Number,
        "bool" => Type::Bool,
        _ => {
            let collection = |prefix: &str| {
                text.strip_prefix(prefix)
                    .and_then(|rest| rest.strip_suffix(')'))
                    .map(parse_type_text)
            };
            if let Some(element) = collection("list(") {
                Type::list(element)
            } else if let Some(element) = collection("set(") {
                Type::set(element)
            } else if let Some(element) = collection("map(") {
                Type::map(element)
            } else {
                Type::Dynamic
            }
        }
    }
}

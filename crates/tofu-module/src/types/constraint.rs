//! How OpenTofu writes a type constraint (tofu-eval's [`Type`], `any` for
//! `dynamic`) in its type syntax; parsing one is the parent module's,
//! converting values to one `convert`'s.

use std::fmt::Write as _;

use tofu_eval::Type;

/// Types nested deeper than this are not parsed (they count as `any`).
pub const MAX_TYPE_DEPTH: usize = 64;

/// The constraint in OpenTofu's type syntax, e.g. `map(list(string))`,
/// `object({a = string, b = optional(number)})`: attributes in name order,
/// defaults not shown.
pub fn constraint_text(ty: &Type) -> String {
    let mut out = String::new();
    write_constraint(ty, &mut out);
    out
}

fn write_constraint(ty: &Type, out: &mut String) {
    match ty {
        Type::String => out.push_str("string"),
        Type::Number => out.push_str("number"),
        Type::Bool => out.push_str("bool"),
        Type::Dynamic => out.push_str("any"),
        Type::List(element) | Type::Set(element) | Type::Map(element) => {
            out.push_str(match ty {
                Type::List(_) => "list(",
                Type::Set(_) => "set(",
                _ => "map(",
            });
            write_constraint(element, out);
            out.push(')');
        }
        Type::Tuple(elements) => {
            out.push_str("tuple([");
            for (index, element) in elements.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_constraint(element, out);
            }
            out.push_str("])");
        }
        Type::Object(object) => {
            out.push_str("object({");
            for (index, (name, attribute)) in object.attributes().iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{name} = ");
                if object.is_optional(name) {
                    out.push_str("optional(");
                    write_constraint(attribute, out);
                    out.push(')');
                } else {
                    write_constraint(attribute, out);
                }
            }
            out.push_str("})");
        }
    }
}

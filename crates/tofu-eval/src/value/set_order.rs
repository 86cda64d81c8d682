//! The order of a set's elements, as cty's `setRules.Less` gives it:
//! known before unknown, non-null before null, strings by their bytes,
//! numbers by value, `false` before `true`, and anything else by its "hash
//! bytes" (a textual encoding of the value, see [`hash_bytes`]). Ties keep
//! the order the elements were added in.

use std::cmp::Ordering;

use super::{Value, ValueKind};
use crate::go_text::go_quote;
use crate::types::Type;

pub(super) fn sort(element: &Type, items: &mut [Value]) {
    items.sort_by(|a, b| compare(element, a, b));
}

fn compare(element: &Type, a: &Value, b: &Value) -> Ordering {
    if less(element, a, b) {
        Ordering::Less
    } else if less(element, b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

fn less(element: &Type, a: &Value, b: &Value) -> bool {
    if a.raw_equals(b) {
        return false;
    }
    if b.is_null() && !a.is_null() {
        return true;
    }
    if a.is_null() {
        return false;
    }
    if a.is_known() && !b.is_known() {
        return true;
    }
    if !a.is_known() {
        return false;
    }
    match (element, &a.kind, &b.kind) {
        (Type::String, ValueKind::String(a), ValueKind::String(b)) => a < b,
        (Type::Bool, ValueKind::Bool(a), ValueKind::Bool(b)) => *b || !*a,
        (Type::Number, ValueKind::Number(a), ValueKind::Number(b)) => {
            a.cmp_value(b) == Ordering::Less
        }
        _ => hash_bytes(a) < hash_bytes(b),
    }
}

/// cty's `appendSetHashBytes`: `?` unknown, `~` null, numbers as `%.10g`,
/// `T`/`F`, strings Go-quoted, `[…;]` lists and sets, `{k:v;}` maps, `<…;>`
/// objects (attributes by name) and tuples.
pub fn hash_bytes(value: &Value) -> String {
    let mut out = String::new();
    append_hash_bytes(value, &mut out);
    out
}

fn append_hash_bytes(value: &Value, out: &mut String) {
    match &value.kind {
        ValueKind::Unknown(_) => out.push('?'),
        ValueKind::Null(_) => out.push('~'),
        ValueKind::Number(number) => out.push_str(&number.text('g', 10)),
        ValueKind::Bool(true) => out.push('T'),
        ValueKind::Bool(false) => out.push('F'),
        ValueKind::String(text) => out.push_str(&go_quote(text)),
        ValueKind::Map { entries, .. } => {
            out.push('{');
            for (key, item) in entries {
                out.push_str(&go_quote(key));
                out.push(':');
                append_hash_bytes(item, out);
                out.push(';');
            }
            out.push('}');
        }
        ValueKind::List { items, .. } | ValueKind::Set { items, .. } => {
            out.push('[');
            for item in items {
                append_hash_bytes(item, out);
                out.push(';');
            }
            out.push(']');
        }
        ValueKind::Object(entries) => {
            out.push('<');
            for item in entries.values() {
                append_hash_bytes(item, out);
                out.push(';');
            }
            out.push('>');
        }
        ValueKind::Tuple(items) => {
            out.push('<');
            for item in items {
                append_hash_bytes(item, out);
                out.push(';');
            }
            out.push('>');
        }
    }
}

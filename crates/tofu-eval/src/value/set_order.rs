//! cty's sets: [`Value::set`] merges equal elements, and their order is
//! the one cty's `setRules.Less` gives:
//! known before unknown, non-null before null, strings by their bytes,
//! numbers by value, `false` before `true`, and anything else by its "hash
//! bytes" (a textual encoding of the value, see [`hash_bytes`]). Ties keep
//! the order the elements were added in.

use std::cmp::Ordering;

use super::{Marks, Tristate, Value, ValueKind};
use crate::types::Type;
use tofu_syntax::go_text::go_quote;

impl Value {
    /// A set of `items`: equal elements merged, marks hoisted to the set,
    /// in cty's order.
    pub fn set(element: Type, items: Vec<Value>) -> Value {
        let mut marks = Marks::default();
        let mut unique: Vec<Value> = Vec::with_capacity(items.len());
        for item in items {
            let (item, item_marks) = item.unmark_deep();
            marks = marks.union(item_marks);
            if item.is_known()
                && unique
                    .iter()
                    .any(|kept| kept.equals(&item) == Tristate::True)
            {
                continue;
            }
            unique.push(item);
        }
        sort(&element, &mut unique);
        Value {
            kind: ValueKind::Set {
                element,
                items: unique,
            },
            marks,
        }
    }
}

fn sort(element: &Type, items: &mut [Value]) {
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

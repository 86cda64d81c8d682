//! Marks as functions: `sensitive`, `nonsensitive`, `issensitive` and
//! `ephemeralasnull`. They take any value, unknown, null and marked ones
//! included, and return it with its marks changed.

use super::implementation::{
    Arguments, FunctionError, Implementation, ResultType, ANYTHING, PLAIN,
};
use crate::types::Type;
use crate::value::{Marks, Value, ValueKind};

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let marking = |result_type: Option<ResultType>,
                   run: fn(&Arguments) -> Result<Value, FunctionError>| {
        Implementation {
            parameters: &[ANYTHING],
            variadic: PLAIN,
            result_type,
            run,
        }
    };
    let same_type: ResultType = |args| Ok(args.first().map(Value::ty).unwrap_or(Type::Dynamic));
    Some(match name {
        "sensitive" => marking(Some(same_type), |args| Ok(args.get(0).mark_sensitive())),
        "nonsensitive" => marking(Some(same_type), |args| {
            let (value, marks) = args.get(0).unmark();
            Ok(value.with_marks(Marks {
                sensitive: false,
                ..marks
            }))
        }),
        "issensitive" => marking(None, |args| {
            let value = args.get(0);
            if !value.is_known() {
                return Ok(Value::unknown(Type::Bool));
            }
            Ok(Value::bool(value.is_sensitive()))
        }),
        "ephemeralasnull" => marking(Some(same_type), |args| Ok(ephemeral_as_null(args.get(0)))),
        _ => return None,
    })
}

/// Every ephemeral part of the value becomes a null of its type.
fn ephemeral_as_null(value: Value) -> Value {
    let marks = Marks {
        ephemeral: false,
        ..value.marks
    };
    if value.marks.ephemeral && value.is_known() && !value.is_null() {
        return Value::null(value.ty()).with_marks(marks);
    }
    let kind = match value.kind {
        ValueKind::List { element, items } => ValueKind::List {
            element,
            items: items.into_iter().map(ephemeral_as_null).collect(),
        },
        ValueKind::Tuple(items) => {
            ValueKind::Tuple(items.into_iter().map(ephemeral_as_null).collect())
        }
        ValueKind::Map { element, entries } => ValueKind::Map {
            element,
            entries: entries
                .into_iter()
                .map(|(key, item)| (key, ephemeral_as_null(item)))
                .collect(),
        },
        ValueKind::Object(entries) => ValueKind::Object(
            entries
                .into_iter()
                .map(|(key, item)| (key, ephemeral_as_null(item)))
                .collect(),
        ),
        other => other,
    };
    Value { kind, marks }
}

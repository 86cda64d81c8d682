//! The collection functions: reading (`length`, `element`, `index`,
//! `lookup`, `keys`, `values`, `contains`, `one`), building (`concat`,
//! `flatten`, `merge`, `zipmap`, `chunklist`, `slice`, `reverse`, `range`,
//! `transpose`, `matchkeys`, `compact`, `distinct`), choosing (`coalesce`,
//! `coalescelist`), testing (`alltrue`, `anytrue`) and the set algebra
//! (`setunion`, `setintersection`, `setsubtract`, `setproduct`).
//!
//! Result types follow cty's `Type` functions where they matter to the
//! printed value (a tuple stays a tuple, a list of unified elements is a
//! list); unknown arguments give unknown results of the signature's type.

use std::collections::BTreeMap;

use unicode_segmentation::UnicodeSegmentation;

use super::implementation::number;
use super::implementation::{Accepts, Arguments, FunctionError, Implementation, ANYTHING, PLAIN};
use crate::convert::{convert, unify};
use crate::number::Number;
use crate::types::Type;
use crate::value::{Marks, Tristate, Value, ValueKind};

const MARKED: Accepts = Accepts {
    marked: true,
    ..PLAIN
};

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let simple = Implementation::simple;
    Some(match name {
        "length" => Implementation {
            parameters: &[Accepts {
                null: false,
                unknown: true,
                dynamic: true,
                marked: true,
            }],
            variadic: PLAIN,
            result_type: Some(|args| {
                let ty = args.first().map(Value::ty).unwrap_or(Type::Dynamic);
                match ty {
                    Type::Dynamic | Type::String => Ok(Type::Number),
                    ty if ty.is_collection() || ty.is_tuple() || ty.is_object() => Ok(Type::Number),
                    _ => Err(FunctionError::call(
                        "argument must be a string, a collection type, or a structural type",
                    )),
                }
            }),
            run: length,
        },
        "element" => Implementation {
            parameters: &[MARKED],
            variadic: PLAIN,
            result_type: None,
            run: element,
        },
        "index" => simple(index),
        "lookup" => Implementation {
            parameters: &[MARKED, MARKED],
            variadic: ANYTHING,
            result_type: None,
            run: lookup,
        },
        // cty keeps only the argument's own marks: nested ones are on
        // values, never on keys.
        "keys" => Implementation {
            parameters: &[Accepts {
                unknown: true,
                dynamic: true,
                marked: true,
                ..PLAIN
            }],
            variadic: PLAIN,
            result_type: None,
            run: keys,
        },
        // cty lets these take marked values and keeps their elements'
        // marks; an argument's own marks mark the result.
        "values" => Implementation {
            parameters: &[MARKED],
            ..simple(|args| keeping_element_marks(args, values))
        },
        "contains" => simple(contains),
        "one" => simple(one),
        "concat" => Implementation {
            variadic: MARKED,
            ..simple(|args| keeping_element_marks(args, concat))
        },
        "flatten" => simple(flatten),
        "merge" => Implementation {
            parameters: &[],
            // cty's MergeFunc allows marks: a marked map marks the result,
            // a marked element stays marked in it, alone.
            variadic: Accepts {
                null: true,
                dynamic: true,
                marked: true,
                ..PLAIN
            },
            result_type: None,
            run: |args| keeping_element_marks(args, merge),
        },
        "zipmap" => simple(zipmap),
        "chunklist" => Implementation {
            parameters: &[MARKED, MARKED],
            variadic: PLAIN,
            result_type: None,
            run: chunklist,
        },
        "slice" => Implementation {
            parameters: &[MARKED, PLAIN, PLAIN],
            ..simple(|args| keeping_element_marks(args, slice))
        },
        "reverse" => Implementation {
            parameters: &[MARKED],
            ..simple(|args| keeping_element_marks(args, reverse))
        },
        "range" => simple(range),
        "transpose" => simple(transpose),
        "matchkeys" => simple(matchkeys),
        "compact" => simple(compact),
        "distinct" => simple(distinct),
        "coalesce" => Implementation {
            parameters: &[],
            variadic: Accepts {
                null: true,
                dynamic: true,
                ..PLAIN
            },
            result_type: None,
            run: coalesce,
        },
        "coalescelist" => Implementation {
            parameters: &[],
            variadic: Accepts {
                null: true,
                dynamic: true,
                ..PLAIN
            },
            result_type: None,
            run: coalescelist,
        },
        "alltrue" => simple(|args| all_or_any(args, true)),
        "anytrue" => simple(|args| all_or_any(args, false)),
        "setunion" | "setintersection" | "setsubtract" => Implementation {
            parameters: &[],
            variadic: PLAIN,
            result_type: None,
            run: match name {
                "setunion" => setunion,
                "setintersection" => setintersection,
                _ => setsubtract,
            },
        },
        "setproduct" => simple(setproduct),
        _ => return None,
    })
}

fn int_value(n: usize) -> Value {
    Value::int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn length(args: &Arguments) -> Result<Value, FunctionError> {
    let value = args.get(0);
    let marks = value.marks;
    let result = match &value.kind {
        ValueKind::String(text) => int_value(text.graphemes(true).count()),
        ValueKind::Tuple(_) | ValueKind::Object(_) => int_value(value.length().unwrap_or(0)),
        _ if matches!(value.ty(), Type::Tuple(_) | Type::Object(_)) => {
            let n = match value.ty() {
                Type::Tuple(elements) => elements.len(),
                Type::Object(object) => object.len(),
                _ => 0,
            };
            if value.is_null() {
                return Err(FunctionError::argument(0, "argument must not be null"));
            }
            int_value(n)
        }
        ValueKind::Unknown(_) => Value::unknown(Type::Number),
        _ => match value.length() {
            Some(n) => int_value(n),
            None => Value::unknown(Type::Number),
        },
    };
    Ok(result.with_marks(marks))
}

fn element(args: &Arguments) -> Result<Value, FunctionError> {
    let (list, marks) = args.get(0).unmark();
    let ty = list.ty();
    if !(ty.is_list() || ty.is_tuple()) {
        return Err(FunctionError::call(format!(
            "cannot read elements from {}",
            ty.friendly_name()
        )));
    }
    let index = number(&args.get(1)).to_i64_exact().ok_or_else(|| {
        FunctionError::call(format!(
            "invalid index: value must be a whole number, between {} and {}",
            i64::MIN,
            i64::MAX
        ))
    })?;
    let Some(items) = list.items() else {
        return Ok(Value::unknown(
            ty.element().cloned().unwrap_or(Type::Dynamic),
        ));
    };
    if items.is_empty() {
        return Err(FunctionError::call(
            "cannot use element function with an empty list",
        ));
    }
    let n_items = i64::try_from(items.len()).unwrap_or(1);
    let position = usize::try_from(index.rem_euclid(n_items)).unwrap_or(0);
    Ok(items
        .get(position)
        .cloned()
        .unwrap_or_else(Value::dynamic_unknown)
        .with_marks(marks))
}

fn index(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    let wanted = args.get(1);
    let Some(items) = list.items().filter(|_| !list.ty().is_set()) else {
        return Err(FunctionError::call("argument must be a list or tuple"));
    };
    if !list.is_known() {
        return Ok(Value::unknown(Type::Number));
    }
    if items.is_empty() {
        return Err(FunctionError::call("cannot search an empty list"));
    }
    for (position, item) in items.iter().enumerate() {
        match item.equals(&wanted) {
            Tristate::True => return Ok(int_value(position)),
            Tristate::Unknown => return Ok(Value::unknown(Type::Number)),
            Tristate::False => {}
        }
    }
    Err(FunctionError::call("item not found"))
}

fn lookup(args: &Arguments) -> Result<Value, FunctionError> {
    if args.values.len() > 3 {
        return Err(FunctionError::call(format!(
            "lookup() takes two or three arguments, got {}",
            args.values.len()
        )));
    }
    let (map, map_marks) = args.get(0).unmark();
    let (key, key_marks) = args.get(1).unmark();
    let marks = map_marks.union(key_marks);
    let key = key.as_str().unwrap_or_default().to_owned();
    let default = args.values.get(2);
    let ty = map.ty();
    if !(ty.is_map() || ty.is_object()) {
        return Err(FunctionError::argument(
            0,
            "lookup() requires a map as the first argument",
        ));
    }
    if let (Type::Object(object), None) = (&ty, default) {
        if !object.has_attribute(&key) {
            return Err(FunctionError::argument(
                0,
                format!(
                    "the given object has no attribute {}",
                    tofu_syntax::go_text::go_quote(&key)
                ),
            ));
        }
    }
    let result_type = match (&ty, default) {
        (Type::Map(element), Some(default)) => {
            if !crate::convert::conversion_exists(&default.ty(), element, true) {
                return Err(FunctionError::argument(
                    2,
                    "the default value must have the same type as the map elements",
                ));
            }
            (**element).clone()
        }
        (Type::Map(element), None) => (**element).clone(),
        (Type::Object(object), _) => match object.attribute(&key) {
            Some(attribute) => attribute.clone(),
            None => default.map(Value::ty).unwrap_or(Type::Dynamic),
        },
        _ => Type::Dynamic,
    };
    if !map.is_known() {
        return Ok(Value::unknown(result_type).with_marks(marks));
    }
    if let Some(found) = map.entries().and_then(|entries| entries.get(&key)) {
        return Ok(found.clone().with_marks(marks));
    }
    match default {
        Some(default) => {
            let converted = convert(default, &result_type)
                .map_err(|error| FunctionError::call(error.message))?;
            Ok(converted.with_marks(marks))
        }
        None => Err(FunctionError::call(format!(
            "lookup failed to find key {}",
            tofu_syntax::go_text::go_quote(&key)
        ))),
    }
}

fn keys(args: &Arguments) -> Result<Value, FunctionError> {
    let (value, marks) = args.get(0).unmark();
    keys_of(&value).map(|keys| keys.with_marks(marks))
}

fn keys_of(value: &Value) -> Result<Value, FunctionError> {
    let ty = value.ty();
    match &ty {
        Type::Map(_) => {}
        Type::Object(object) => {
            if !value.is_known() {
                return Ok(Value::unknown(Type::tuple(vec![
                    Type::String;
                    object.len()
                ])));
            }
            let names: Vec<Value> = object.names().map(Value::string).collect();
            return Ok(Value::tuple(names));
        }
        Type::Dynamic => return Ok(Value::dynamic_unknown()),
        _ => {
            return Err(FunctionError::argument(0, "must have map or object type"));
        }
    }
    let Some(entries) = value.entries() else {
        return Ok(Value::unknown(Type::list(Type::String)));
    };
    Ok(Value::list(
        Type::String,
        entries.keys().map(Value::string).collect(),
    ))
}

fn values(args: &Arguments) -> Result<Value, FunctionError> {
    let value = args.get(0);
    match (&value.kind, value.ty()) {
        (ValueKind::Map { element, entries }, _) => Ok(Value::list(
            element.clone(),
            entries.values().cloned().collect(),
        )),
        (ValueKind::Object(entries), _) => Ok(Value::tuple(entries.values().cloned().collect())),
        (_, Type::Map(element)) => Ok(Value::unknown(Type::list(*element))),
        (_, Type::Object(object)) => Ok(Value::unknown(Type::tuple(object.types().cloned()))),
        _ => Err(FunctionError::call(
            "values() requires a map as the first argument",
        )),
    }
}

fn contains(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    let wanted = args.get(1);
    let Some(items) = list.items() else {
        return Err(FunctionError::call("argument must be list, tuple, or set"));
    };
    let mut result = Tristate::False;
    for item in items {
        match item.equals(&wanted) {
            Tristate::True => return Ok(Value::bool(true)),
            Tristate::Unknown => result = Tristate::Unknown,
            Tristate::False => {}
        }
    }
    Ok(match result {
        Tristate::Unknown => Value::unknown(Type::Bool),
        _ => Value::bool(false),
    })
}

fn one(args: &Arguments) -> Result<Value, FunctionError> {
    let value = args.get(0);
    let wrong = || {
        FunctionError::argument(
            0,
            "must be a list, set, or tuple value with either zero or one elements",
        )
    };
    let Some(items) = value.items() else {
        return Err(wrong());
    };
    match items {
        [] => Ok(Value::null(match value.ty() {
            Type::List(element) | Type::Set(element) => *element,
            _ => Type::Dynamic,
        })),
        [only] => Ok(only.clone()),
        _ => Err(wrong()),
    }
}

fn sequence_items(value: &Value) -> Option<&[Value]> {
    if value.ty().is_list() || value.ty().is_tuple() || value.ty().is_set() {
        value.items()
    } else {
        None
    }
}

fn concat(args: &Arguments) -> Result<Value, FunctionError> {
    if args.values.is_empty() {
        return Err(FunctionError::call("at least one argument is required"));
    }
    let mut all_lists = true;
    for (position, value) in args.values.iter().enumerate() {
        let ty = value.ty();
        if !(ty.is_list() || ty.is_tuple()) {
            return Err(FunctionError::argument(
                position,
                format!(
                    "all arguments must be lists or tuples; got {}",
                    ty.friendly_name()
                ),
            ));
        }
        all_lists &= ty.is_list();
    }
    let mut items = Vec::new();
    for value in args.values {
        items.extend(sequence_items(value).unwrap_or_default().iter().cloned());
    }
    if all_lists {
        let element_types: Vec<Type> = args
            .values
            .iter()
            .filter_map(|value| value.ty().element().cloned())
            .collect();
        let Some(element) = unify(&element_types, false) else {
            return Err(FunctionError::call(
                "all arguments must have the same element type",
            ));
        };
        let converted = items
            .iter()
            .map(|item| convert(item, &element).unwrap_or_else(|_| item.clone()))
            .collect();
        return Ok(Value::list(element, converted));
    }
    Ok(Value::tuple(items))
}

fn flatten(args: &Arguments) -> Result<Value, FunctionError> {
    let value = args.get(0);
    let ty = value.ty();
    if !(ty.is_list() || ty.is_set() || ty.is_tuple()) {
        return Err(FunctionError::call(
            "can only flatten lists, sets and tuples",
        ));
    }
    if !value.is_wholly_known() {
        return Ok(Value::dynamic_unknown());
    }
    let mut flat = Vec::new();
    flatten_into(&value, &mut flat);
    Ok(Value::tuple(flat))
}

fn flatten_into(value: &Value, flat: &mut Vec<Value>) {
    for item in sequence_items(value).unwrap_or_default() {
        let ty = item.ty();
        if (ty.is_list() || ty.is_set() || ty.is_tuple()) && !item.is_null() {
            flatten_into(item, flat);
        } else {
            flat.push(item.clone());
        }
    }
}

/// `run` on the arguments without their own marks (their elements keep
/// theirs), the result marked with them: cty's functions that allow
/// marked collections (`concat`, `merge`, `values`, `slice`, `reverse`).
fn keeping_element_marks(
    args: &Arguments,
    run: fn(&Arguments) -> Result<Value, FunctionError>,
) -> Result<Value, FunctionError> {
    if !args.values.iter().any(Value::is_marked) {
        return run(args);
    }
    let mut marks = Marks::default();
    let values: Vec<Value> = args
        .values
        .iter()
        .map(|value| {
            let (value, value_marks) = value.clone().unmark();
            marks = marks.union(value_marks);
            value
        })
        .collect();
    let unmarked = Arguments {
        values: &values,
        result_type: args.result_type.clone(),
        environment: args.environment,
    };
    run(&unmarked).map(|result| result.with_marks(marks))
}

fn merge(args: &Arguments) -> Result<Value, FunctionError> {
    let values = args.values;
    let mut all_maps = true;
    for value in values {
        let ty = value.ty();
        if !(ty.is_map() || ty.is_object() || ty.is_dynamic()) {
            return Err(FunctionError::call(format!(
                "arguments must be maps or objects, got {}",
                go_debug_quote(&ty.friendly_name())
            )));
        }
        all_maps &= ty.is_map() || value.is_null();
    }
    let mut merged: BTreeMap<String, Value> = BTreeMap::new();
    for value in values {
        if let Some(entries) = value.entries() {
            for (key, item) in entries {
                merged.insert(key.clone(), item.clone());
            }
        }
    }
    let n_maps = values.iter().filter(|value| value.ty().is_map()).count();
    if all_maps && n_maps > 0 {
        let types: Vec<Type> = values
            .iter()
            .filter_map(|value| value.ty().element().cloned())
            .collect();
        if let Some(element) = unify(&types, false) {
            let converted = merged
                .into_iter()
                .map(|(key, item)| {
                    let item = convert(&item, &element).unwrap_or(item);
                    (key, item)
                })
                .collect();
            return Ok(Value::map(element, converted));
        }
    }
    Ok(Value::object(merged))
}

fn go_debug_quote(text: &str) -> String {
    tofu_syntax::go_text::go_quote(text)
}

fn zipmap(args: &Arguments) -> Result<Value, FunctionError> {
    let keys = args.get(0);
    let values = args.get(1);
    let key_items = keys.items().unwrap_or_default();
    let Some(value_items) = sequence_items(&values).filter(|_| !values.ty().is_set()) else {
        return Err(FunctionError::call(
            "values argument must be a list or tuple value",
        ));
    };
    if key_items.len() != value_items.len() {
        return Err(FunctionError::call(format!(
            "number of keys ({}) does not match number of values ({})",
            key_items.len(),
            value_items.len()
        )));
    }
    let mut entries = BTreeMap::new();
    for (position, (key, item)) in key_items.iter().zip(value_items).enumerate() {
        let Some(key) = key.as_str() else {
            return Err(FunctionError::call(format!(
                "keys list has null value at index {position}"
            )));
        };
        entries.insert(key.to_owned(), item.clone());
    }
    match values.ty() {
        Type::List(element) => Ok(Value::map(*element, entries)),
        _ => Ok(Value::object(entries)),
    }
}

/// cty's `ChunklistFunc`: the marks of the list and the size go on the
/// result, the elements keep their own.
fn chunklist(args: &Arguments) -> Result<Value, FunctionError> {
    let (list, list_marks) = args.get(0).unmark();
    let (size, size_marks) = args.get(1).unmark();
    let marks = list_marks.union(size_marks);
    chunks(&list, &size).map(|chunks| chunks.with_marks(marks))
}

fn chunks(list: &Value, size: &Value) -> Result<Value, FunctionError> {
    let size = number(size).to_i64_exact().ok_or_else(|| {
        FunctionError::call(format!(
            "invalid size: value must be a whole number, between {} and {}",
            i64::MIN,
            i64::MAX
        ))
    })?;
    if size < 0 {
        return Err(FunctionError::call("the size argument must be positive"));
    }
    let element = list.ty().element().cloned().unwrap_or(Type::Dynamic);
    let items = list.items().unwrap_or_default();
    if items.is_empty() {
        return Ok(Value::list(Type::list(element), Vec::new()));
    }
    if size == 0 {
        return Ok(Value::list(
            Type::list(element.clone()),
            vec![Value::list(element, items.to_vec())],
        ));
    }
    let chunks = items
        .chunks(usize::try_from(size).unwrap_or(usize::MAX))
        .map(|chunk| Value::list(element.clone(), chunk.to_vec()))
        .collect();
    Ok(Value::list(Type::list(element), chunks))
}

fn slice(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    let ty = list.ty();
    if ty.is_set() {
        return Err(FunctionError::argument(0, "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important"));
    }
    if !(ty.is_list() || ty.is_tuple()) {
        return Err(FunctionError::argument(0, "must be a list or tuple value"));
    }
    let items = list.items().unwrap_or_default();
    let n_items = i64::try_from(items.len()).unwrap_or(i64::MAX);
    let start = number(&args.get(1)).to_i64_exact().ok_or_else(|| {
        FunctionError::argument(
            1,
            format!(
                "invalid start index: value must be a whole number, between {} and {}",
                i64::MIN,
                i64::MAX
            ),
        )
    })?;
    if start < 0 {
        return Err(FunctionError::argument(
            1,
            "start index must not be less than zero",
        ));
    }
    if start > n_items {
        return Err(FunctionError::argument(
            1,
            "start index must not be greater than the length of the list",
        ));
    }
    let end = number(&args.get(2)).to_i64_exact().ok_or_else(|| {
        FunctionError::argument(
            2,
            format!(
                "invalid end index: value must be a whole number, between {} and {}",
                i64::MIN,
                i64::MAX
            ),
        )
    })?;
    if end < 0 {
        return Err(FunctionError::argument(
            2,
            "end index must not be less than zero",
        ));
    }
    if end > n_items {
        return Err(FunctionError::argument(
            2,
            "end index must not be greater than the length of the list",
        ));
    }
    if start > end {
        return Err(FunctionError::argument(
            1,
            "start index must not be greater than end index",
        ));
    }
    let taken = items
        .get(usize::try_from(start).unwrap_or(0)..usize::try_from(end).unwrap_or(0))
        .unwrap_or_default()
        .to_vec();
    match ty {
        Type::List(element) => Ok(Value::list(*element, taken)),
        _ => Ok(Value::tuple(taken)),
    }
}

fn reverse(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    let ty = list.ty();
    // Sets are taken as lists, as a list parameter would convert them.
    let Some(items) = sequence_items(&list) else {
        return Err(FunctionError::argument(
            0,
            format!(
                "can only reverse list or tuple values, not {}",
                ty.friendly_name()
            ),
        ));
    };
    let reversed: Vec<Value> = items.iter().rev().cloned().collect();
    match ty {
        Type::List(element) | Type::Set(element) => Ok(Value::list(*element, reversed)),
        _ => Ok(Value::tuple(reversed)),
    }
}

fn range(args: &Arguments) -> Result<Value, FunctionError> {
    let numbers: Vec<Number> = args.values.iter().map(number).collect();
    let (start, end, step) = match numbers.as_slice() {
        [end] => {
            let step = if end.is_negative() {
                Number::from_i64(-1)
            } else {
                Number::from_i64(1)
            };
            (Number::zero(), end.clone(), step)
        }
        [start, end] => {
            let step = if end.cmp_value(start) == std::cmp::Ordering::Less {
                Number::from_i64(-1)
            } else {
                Number::from_i64(1)
            };
            (start.clone(), end.clone(), step)
        }
        [start, end, step] => (start.clone(), end.clone(), step.clone()),
        _ => {
            return Err(FunctionError::call(
                "must have one, two, or three arguments",
            ))
        }
    };
    // cty's "step must not be zero" compares two values by identity and
    // never fires: a zero step counts up until the 1,024-value limit
    // (recorded from OpenTofu 1.12.6).
    let descending = step.is_negative();
    if descending && end.cmp_value(&start) == std::cmp::Ordering::Greater {
        return Err(FunctionError::argument(
            1,
            "end must be less than start when step is negative",
        ));
    }
    if !descending && end.cmp_value(&start) == std::cmp::Ordering::Less {
        return Err(FunctionError::argument(
            1,
            "end must be greater than start when step is positive",
        ));
    }
    let mut items = Vec::new();
    let mut current = start;
    loop {
        let before_end = if descending {
            current.cmp_value(&end) == std::cmp::Ordering::Greater
        } else {
            current.cmp_value(&end) == std::cmp::Ordering::Less
        };
        if !before_end {
            break;
        }
        if items.len() >= 1024 {
            return Err(FunctionError::call("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step"));
        }
        items.push(Value::number(current.clone()));
        current = current.add(&step);
    }
    Ok(Value::list(Type::Number, items))
}

fn transpose(args: &Arguments) -> Result<Value, FunctionError> {
    let map = args.get(0);
    let mut transposed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (key, list) in map.entries().cloned().unwrap_or_default() {
        let Some(items) = list.items() else {
            return Err(FunctionError::argument(
                0,
                format!(
                    "cannot use null list for [{}]",
                    tofu_syntax::go_text::go_quote(&key)
                ),
            ));
        };
        for (position, item) in items.iter().enumerate() {
            let Some(text) = item.as_str() else {
                return Err(FunctionError::argument(
                    0,
                    format!(
                        "cannot use null string for [{}][{position}]",
                        tofu_syntax::go_text::go_quote(&key)
                    ),
                ));
            };
            transposed
                .entry(text.to_owned())
                .or_default()
                .push(key.clone());
        }
    }
    let entries = transposed
        .into_iter()
        .map(|(key, names)| {
            (
                key,
                Value::list(Type::String, names.into_iter().map(Value::string).collect()),
            )
        })
        .collect();
    Ok(Value::map(Type::list(Type::String), entries))
}

fn matchkeys(args: &Arguments) -> Result<Value, FunctionError> {
    let values = args.get(0);
    let keys = args.get(1);
    let searchset = args.get(2);
    let element = values.ty().element().cloned().unwrap_or(Type::Dynamic);
    let (Some(value_items), Some(key_items), Some(search_items)) =
        (values.items(), keys.items(), searchset.items())
    else {
        return Ok(Value::unknown(Type::list(element)));
    };
    let key_type = keys.ty().element().cloned().unwrap_or(Type::Dynamic);
    let search_type = searchset.ty().element().cloned().unwrap_or(Type::Dynamic);
    if unify(&[key_type, search_type], false).is_none() {
        return Err(FunctionError::call(
            "keys and searchset must be of the same type",
        ));
    }
    if value_items.len() != key_items.len() {
        return Err(FunctionError::call(
            "length of keys and values should be equal",
        ));
    }
    let mut matched = Vec::new();
    for (value, key) in value_items.iter().zip(key_items) {
        for search in search_items {
            let key_converted = convert(key, &Type::String).ok();
            let search_converted = convert(search, &Type::String).ok();
            let equal = match (key_converted, search_converted) {
                (Some(a), Some(b)) => a.equals(&b) == Tristate::True,
                _ => key.equals(search) == Tristate::True,
            };
            if equal {
                matched.push(value.clone());
                break;
            }
        }
    }
    Ok(Value::list(element, matched))
}

fn compact(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    if !list.is_wholly_known() {
        return Ok(Value::unknown(Type::list(Type::String)));
    }
    let kept = list
        .items()
        .unwrap_or_default()
        .iter()
        .filter(|item| item.as_str().is_some_and(|text| !text.is_empty()))
        .cloned()
        .collect();
    Ok(Value::list(Type::String, kept))
}

fn distinct(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    if !list.is_wholly_known() {
        return Ok(Value::unknown(list.ty()));
    }
    let mut kept: Vec<Value> = Vec::new();
    for item in list.items().unwrap_or_default() {
        if !kept.iter().any(|seen| seen.equals(item) == Tristate::True) {
            kept.push(item.clone());
        }
    }
    Ok(Value::list(
        list.ty().element().cloned().unwrap_or(Type::Dynamic),
        kept,
    ))
}

fn coalesce(args: &Arguments) -> Result<Value, FunctionError> {
    let types: Vec<Type> = args.values.iter().map(Value::ty).collect();
    let Some(unified) = unify(&types, true) else {
        return Err(FunctionError::call("all arguments must have the same type"));
    };
    for value in args.values {
        let converted =
            convert(value, &unified).map_err(|error| FunctionError::call(error.message))?;
        if !converted.is_known() {
            return Ok(Value::unknown(unified));
        }
        if converted.is_null() || converted.as_str() == Some("") {
            continue;
        }
        return Ok(converted);
    }
    Err(FunctionError::call(
        "no non-null, non-empty-string arguments",
    ))
}

fn coalescelist(args: &Arguments) -> Result<Value, FunctionError> {
    if args.values.is_empty() {
        return Err(FunctionError::call("at least one argument is required"));
    }
    // cty's order: an unknown argument makes the result unknown before a
    // later argument's type is looked at; a null has no list type.
    for value in args.values {
        if !value.is_known() {
            return Ok(Value::dynamic_unknown());
        }
        let ty = value.ty();
        if !(ty.is_list() || ty.is_tuple()) {
            return Err(FunctionError::call(
                "coalescelist arguments must be lists or tuples",
            ));
        }
    }
    for value in args.values {
        if !value.is_known() {
            return Ok(Value::dynamic_unknown());
        }
        if value.length().unwrap_or(0) > 0 {
            return Ok(value.clone());
        }
    }
    Err(FunctionError::call("no non-null arguments"))
}

fn all_or_any(args: &Arguments, all: bool) -> Result<Value, FunctionError> {
    let list = args.get(0);
    let mut unknown = false;
    for item in list.items().unwrap_or_default() {
        match (&item.kind, all) {
            (ValueKind::Unknown(_), _) => unknown = true,
            (ValueKind::Bool(false), true) | (ValueKind::Null(_), true) => {
                return Ok(Value::bool(false))
            }
            (ValueKind::Bool(true), false) => return Ok(Value::bool(true)),
            _ => {}
        }
    }
    if unknown {
        return Ok(Value::unknown(Type::Bool));
    }
    Ok(Value::bool(all))
}

/// The element type shared by the set arguments, or cty's error.
fn set_element_type(args: &Arguments) -> Result<Type, FunctionError> {
    // cty leaves out empty arguments of element type `dynamic` (`[]`).
    let types: Vec<Type> = args
        .values
        .iter()
        .map(|value| value.ty().element().cloned().unwrap_or(Type::Dynamic))
        .zip(args.values)
        .filter(|(ty, value)| !(*ty == Type::Dynamic && value.length() == Some(0)))
        .map(|(ty, _)| ty)
        .collect();
    if types.is_empty() {
        return Ok(Type::Dynamic);
    }
    unify(&types, true)
        .ok_or_else(|| FunctionError::call("given sets must all have compatible element types"))
}

fn set_items(value: &Value, element: &Type) -> Vec<Value> {
    value
        .items()
        .unwrap_or_default()
        .iter()
        .map(|item| convert(item, element).unwrap_or_else(|_| item.clone()))
        .collect()
}

fn setunion(args: &Arguments) -> Result<Value, FunctionError> {
    let element = set_element_type(args)?;
    let mut items = Vec::new();
    for value in args.values {
        items.extend(set_items(value, &element));
    }
    Ok(Value::set(element, items))
}

fn setintersection(args: &Arguments) -> Result<Value, FunctionError> {
    let element = set_element_type(args)?;
    let mut sets = args.values.iter().map(|value| set_items(value, &element));
    let mut kept = sets.next().unwrap_or_default();
    for other in sets {
        kept.retain(|item| other.iter().any(|o| o.equals(item) == Tristate::True));
    }
    Ok(Value::set(element, kept))
}

fn setsubtract(args: &Arguments) -> Result<Value, FunctionError> {
    let element = set_element_type(args)?;
    let mut kept = set_items(&args.get(0), &element);
    let removed = set_items(&args.get(1), &element);
    kept.retain(|item| !removed.iter().any(|r| r.equals(item) == Tristate::True));
    Ok(Value::set(element, kept))
}

fn setproduct(args: &Arguments) -> Result<Value, FunctionError> {
    if args.values.len() < 2 {
        return Err(FunctionError::call("at least two arguments are required"));
    }
    // cty: the product is a list only when every argument is a list or a
    // tuple; a tuple's elements unify unsafely (`UnifyUnsafe`), and each
    // element is converted to its argument's element type.
    let mut any_set = false;
    let mut element_types = Vec::new();
    for (position, value) in args.values.iter().enumerate() {
        let ty = value.ty();
        match &ty {
            Type::Set(element) => {
                any_set = true;
                element_types.push((**element).clone());
            }
            Type::List(element) => {
                element_types.push((**element).clone());
            }
            Type::Tuple(elements) => {
                let Some(unified) = unify(elements, true).or(if elements.is_empty() {
                    Some(Type::Dynamic)
                } else {
                    None
                }) else {
                    return Err(FunctionError::argument(
                        position,
                        "all elements must be of the same type",
                    ));
                };
                element_types.push(unified);
            }
            _ => {
                return Err(FunctionError::argument(
                    position,
                    "a set or a list is required",
                ))
            }
        }
    }
    let mut products: Vec<Vec<Value>> = vec![Vec::new()];
    for (value, element_type) in args.values.iter().zip(&element_types) {
        let items: Vec<Value> = value
            .items()
            .unwrap_or_default()
            .iter()
            .map(|item| convert(item, element_type).unwrap_or_else(|_| item.clone()))
            .collect();
        let mut next = Vec::new();
        for product in &products {
            for item in &items {
                let mut extended = product.clone();
                extended.push(item.clone());
                next.push(extended);
            }
        }
        products = next;
    }
    let tuple_type = Type::tuple(element_types);
    let rows: Vec<Value> = products.into_iter().map(Value::tuple).collect();
    if any_set {
        Ok(Value::set(tuple_type, rows))
    } else {
        Ok(Value::list(tuple_type, rows))
    }
}

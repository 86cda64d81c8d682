//! cty's `MismatchMessage`: why no conversion exists from one type to
//! another, in the words OpenTofu prints ("number required", "attribute
//! \"a\" is required", "element 0: bool required").

use super::conversion_exists;
use crate::types::Type;
use tofu_syntax::go_text::go_quote;

/// cty's `MismatchMessage(got, want)`.
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    match (got, want) {
        (Type::Object(_), Type::Object(_)) => objects(got, want),
        (Type::Tuple(_), Type::List(element)) if **element == Type::Dynamic => {
            "all list elements must have the same type".to_owned()
        }
        (Type::Tuple(_), Type::Set(element)) if **element == Type::Dynamic => {
            "all set elements must have the same type".to_owned()
        }
        (Type::Object(_), Type::Map(element)) if **element == Type::Dynamic => {
            "all map elements must have the same type".to_owned()
        }
        (Type::Tuple(_) | Type::Object(_), _) if want.is_collection() => {
            collections_from_structural(got, want)
        }
        _ if got.is_collection() && want.is_collection() => collections_from_collections(got, want),
        _ if !likely_to_confuse(got, want) => format!(
            "{} required, but have {}",
            want.friendly_name(),
            got.friendly_name()
        ),
        _ => format!("{} required", want.friendly_name_for_constraint()),
    }
}

fn objects(got: &Type, want: &Type) -> String {
    let (Type::Object(got), Type::Object(want)) = (got, want) else {
        return format!("{} required", want.friendly_name_for_constraint());
    };
    let mut missing: Vec<&str> = Vec::new();
    let mut unsafe_mismatch: Option<String> = None;
    let mut safe_mismatch: Option<String> = None;
    // cty walks a Go map here (random order); this takes names in order.
    for (name, wanted) in want.attributes() {
        let Some(have) = got.attribute(name) else {
            if !want.is_optional(name) {
                missing.push(name);
            }
            continue;
        };
        if have == wanted || unsafe_mismatch.is_some() {
            continue;
        }
        if !conversion_exists(have, wanted, true) {
            unsafe_mismatch = Some(format!(
                "attribute {}: {}",
                go_quote(name),
                mismatch_message(have, wanted)
            ));
        }
        if safe_mismatch.is_none() && !conversion_exists(have, wanted, false) {
            safe_mismatch = Some(format!(
                "attribute {}: {}",
                go_quote(name),
                mismatch_message(have, wanted)
            ));
        }
    }
    match missing.as_slice() {
        [] => unsafe_mismatch
            .or(safe_mismatch)
            .unwrap_or_else(|| "incorrect object attributes".to_owned()),
        [one] => format!("attribute {} is required", go_quote(one)),
        [first, second] => format!(
            "attributes {} and {} are required",
            go_quote(first),
            go_quote(second)
        ),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|name| go_quote(name)).collect();
            format!(
                "attributes {}, and {} are required",
                init.join(", "),
                go_quote(last)
            )
        }
    }
}

fn collections_from_structural(got: &Type, want: &Type) -> String {
    let required = || format!("{} required", want.friendly_name_for_constraint());
    let Some(wanted) = want.element() else {
        return required();
    };
    match (got, want) {
        (Type::Tuple(elements), Type::List(_) | Type::Set(_)) => {
            for (index, element) in elements.iter().enumerate() {
                if element == wanted || conversion_exists(element, wanted, true) {
                    continue;
                }
                return format!("element {index}: {}", mismatch_message(element, wanted));
            }
            format!(
                "all elements must be {}",
                wanted.friendly_name_for_constraint()
            )
        }
        (Type::Object(object), Type::Map(_)) => {
            for (name, attribute) in object.attributes() {
                if attribute == wanted || conversion_exists(attribute, wanted, true) {
                    continue;
                }
                return format!(
                    "element {}: {}",
                    go_quote(name),
                    mismatch_message(attribute, wanted)
                );
            }
            format!(
                "all elements must be {}",
                wanted.friendly_name_for_constraint()
            )
        }
        _ => required(),
    }
}

fn collections_from_collections(got: &Type, want: &Type) -> String {
    let required = || format!("{} required", want.friendly_name_for_constraint());
    let noun = match (got, want) {
        (Type::List(_) | Type::Set(_), Type::List(_)) => "list element type",
        (Type::List(_) | Type::Set(_), Type::Set(_)) => "set element type",
        (Type::Map(_), Type::Map(_)) => "map element type",
        _ => return required(),
    };
    let (Some(have), Some(wanted)) = (got.element(), want.element()) else {
        return required();
    };
    format!("incorrect {noun}: {}", mismatch_message(have, wanted))
}

/// cty's `typesAreLikelyToCauseConfusion`.
fn likely_to_confuse(got: &Type, want: &Type) -> bool {
    if got.is_primitive() != want.is_primitive() {
        return false;
    }
    if *want == Type::String {
        return false;
    }
    if matches!(
        (got, want),
        (Type::Number, Type::Bool) | (Type::Bool, Type::Number)
    ) {
        return false;
    }
    if let (Some(have), Some(wanted)) = (got.element(), want.element()) {
        if !have.has_dynamic() && wanted.has_dynamic() {
            return false;
        }
    }
    !(got.is_tuple() && want.is_object())
}

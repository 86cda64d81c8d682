//! Attribute, index and splat steps: HCL's `hcl.GetAttr` and `hcl.Index`
//! (with their wording, including the length check whose comparison is
//! inverted, so an index past the end gets the generic detail), and
//! `SplatExpr`.
//!
//! A chain of steps comes from a reference (`var.x.y[0][*].z`, after the
//! part the scope resolved) or from an expression that is not a name
//! (`f(x)[k].a`); both are read into [`Step`]s. As in HCL's parser, a full
//! splat `[*]` applies every step after it to each element, and an
//! attribute-only splat `.*` the attribute and legacy index steps right
//! after it; the steps after those apply to the splat's result. The
//! splat's source is everything before it: when that had errors, the
//! splat gives an unknown value and no errors of its own.

use num_bigint::BigInt;
use num_traits::Signed;
use tofu_syntax::{Expr, ExprKind, RelativeStep, SplatKind, TextRange, TraversalStep};

use super::{number_literal, Diagnostics, EvalDiagnostic, Evaluator};
use crate::convert::convert;
use crate::types::Type;
use crate::value::{Value, ValueKind};
use tofu_syntax::go_text::go_quote;

/// One step, whichever form it came from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step<'a> {
    /// `.name`; the range is the name's.
    Attr {
        name: &'a str,
        range: TextRange,
    },
    /// `[key]`; the range covers the brackets.
    Index {
        key: &'a Expr,
        range: TextRange,
    },
    /// `.0`.
    LegacyIndex {
        index: &'a str,
        range: TextRange,
    },
    Splat {
        kind: SplatKind,
        range: TextRange,
    },
}

impl Step<'_> {
    fn range(&self) -> TextRange {
        match self {
            Step::Attr { range, .. }
            | Step::Index { range, .. }
            | Step::LegacyIndex { range, .. }
            | Step::Splat { range, .. } => *range,
        }
    }
}

/// The steps of a reference.
pub(crate) fn absolute(steps: &[TraversalStep]) -> Vec<Step<'_>> {
    steps
        .iter()
        .map(|step| match step {
            TraversalStep::Attr { name, range } => Step::Attr {
                name,
                range: *range,
            },
            TraversalStep::Index { key, range } => match &key.kind {
                ExprKind::Number(index) if step.is_legacy_index() => Step::LegacyIndex {
                    index,
                    range: *range,
                },
                _ => Step::Index { key, range: *range },
            },
            TraversalStep::Splat { range, kind } => Step::Splat {
                kind: *kind,
                range: *range,
            },
        })
        .collect()
}

/// The steps of an expression that is not a name; `keys` are the index
/// keys in order. (The model always has one key per index step.)
pub(crate) fn relative<'a>(steps: &'a [RelativeStep], keys: &'a [Expr]) -> Vec<Step<'a>> {
    let mut keys = keys.iter();
    let mut out = Vec::with_capacity(steps.len());
    for step in steps {
        out.push(match step {
            RelativeStep::Attr { name, range } => Step::Attr {
                name,
                range: *range,
            },
            RelativeStep::Index { range } => {
                let Some(key) = keys.next() else { break };
                Step::Index { key, range: *range }
            }
            RelativeStep::LegacyIndex { index, range } => Step::LegacyIndex {
                index,
                range: *range,
            },
            RelativeStep::Splat { kind, range } => Step::Splat {
                kind: *kind,
                range: *range,
            },
        });
    }
    out
}

impl Evaluator<'_> {
    /// Applies the steps after an expression (`x[0].a`, `x[*].id`) to its
    /// value; the keys are the computed indexes' expressions.
    pub(super) fn apply_relative_steps(
        &mut self,
        value: Value,
        steps: &[RelativeStep],
        keys: &[Expr],
        had_errors: bool,
        start: u32,
    ) -> (Value, Diagnostics) {
        apply(self, value, &relative(steps, keys), had_errors, start)
    }

    /// Applies the steps of a scope traversal after those its root's
    /// reference took.
    pub(super) fn apply_absolute_steps(
        &mut self,
        value: Value,
        steps: &[TraversalStep],
        start: u32,
    ) -> (Value, Diagnostics) {
        apply(self, value, &absolute(steps), false, start)
    }
}

/// Applies `steps` to `value`; `had_errors` when computing `value` failed
/// (a splat then gives up), `start` where the chain starts in the file.
pub(crate) fn apply(
    evaluator: &mut Evaluator<'_>,
    value: Value,
    steps: &[Step<'_>],
    had_errors: bool,
    start: u32,
) -> (Value, Diagnostics) {
    let mut diagnostics = Vec::new();
    let mut current = value;
    let mut failed = had_errors;
    // HCL stops a run of literal steps (one traversal) at its first error;
    // a computed index starts a new expression.
    let mut run_failed = false;
    let mut position = 0;
    while let Some(step) = steps.get(position) {
        position += 1;
        let literal = match step {
            Step::Attr { .. } | Step::LegacyIndex { .. } => true,
            Step::Index { key, .. } => super::is_literal_key(key),
            Step::Splat { .. } => false,
        };
        if literal && run_failed {
            continue;
        }
        if !literal {
            run_failed = false;
        }
        let (next, step_diagnostics) = match step {
            Step::Attr { name, range } => get_attr(&current, name, attribute_subject(*range)),
            Step::LegacyIndex { index: text, range } => {
                index(&current, &number_literal(text), *range)
            }
            Step::Index { key, range } => {
                let (key, key_diagnostics) = evaluator.value(key);
                failed |= !key_diagnostics.is_empty();
                diagnostics.extend(key_diagnostics);
                index(&current, &key, *range)
            }
            Step::Splat { kind, range } => {
                let rest = steps.get(position..).unwrap_or_default();
                let n_each = match kind {
                    SplatKind::Full => rest.len(),
                    SplatKind::Attribute => rest
                        .iter()
                        .take_while(|step| {
                            matches!(step, Step::Attr { .. } | Step::LegacyIndex { .. })
                        })
                        .count(),
                };
                let each = rest.get(..n_each).unwrap_or_default();
                position += n_each;
                let source = Splat {
                    failed,
                    range: TextRange::new(start, range.start),
                    marker: *range,
                };
                splat(evaluator, current, each, &source)
            }
        };
        // The steps after a splat apply to its result: a new traversal.
        run_failed = match step {
            Step::Splat { .. } => false,
            _ => run_failed || !step_diagnostics.is_empty(),
        };
        failed |= !step_diagnostics.is_empty();
        diagnostics.extend(step_diagnostics);
        current = next;
    }
    (current, diagnostics)
}

/// HCL's attribute step starts at the dot just before the name.
fn attribute_subject(name: TextRange) -> TextRange {
    TextRange::new(name.start.saturating_sub(1), name.end)
}

/// `hcl.GetAttr`.
pub(crate) fn get_attr(value: &Value, name: &str, subject: TextRange) -> (Value, Diagnostics) {
    let error = |summary: &str, detail: String| {
        (
            Value::dynamic_unknown(),
            vec![EvalDiagnostic::new(summary, detail, subject)],
        )
    };
    if value.is_null() {
        return error(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.".to_owned(),
        );
    }
    const UNSUPPORTED: &str = "Unsupported attribute";
    let marks = value.marks;
    match value.ty() {
        Type::Object(object) => {
            let Some(attribute_type) = object.attribute(name) else {
                return error(
                    UNSUPPORTED,
                    format!(
                        "This object does not have an attribute named {}.",
                        go_quote(name)
                    ),
                );
            };
            let attribute = match &value.kind {
                ValueKind::Object(attributes) => attributes.get(name).cloned(),
                _ => None,
            };
            let attribute = attribute.unwrap_or_else(|| Value::unknown(attribute_type.clone()));
            (attribute.with_marks(marks), Vec::new())
        }
        Type::Map(element) => {
            let ValueKind::Map { entries, .. } = &value.kind else {
                return (Value::unknown(*element).with_marks(marks), Vec::new());
            };
            match entries.get(name) {
                Some(entry) => (entry.clone().with_marks(marks), Vec::new()),
                None => error(
                    "Missing map element",
                    format!(
                        "This map does not have an element with the key {}.",
                        go_quote(name)
                    ),
                ),
            }
        }
        Type::Dynamic => (Value::dynamic_unknown().with_marks(marks), Vec::new()),
        Type::List(element) if element.is_object() => {
            let has_it = matches!(&*element, Type::Object(object) if object.has_attribute(name));
            if has_it {
                error(
                    UNSUPPORTED,
                    format!(
                        "Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?",
                        go_quote(name)
                    ),
                )
            } else {
                error(
                    UNSUPPORTED,
                    "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?".to_owned(),
                )
            }
        }
        Type::Set(element) if element.is_object() => error(
            UNSUPPORTED,
            "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?".to_owned(),
        ),
        ty if ty.is_primitive() => error(
            UNSUPPORTED,
            format!(
                "Can't access attributes on a primitive-typed value ({}).",
                ty.friendly_name()
            ),
        ),
        _ => error(
            UNSUPPORTED,
            "This value does not have any attributes.".to_owned(),
        ),
    }
}

/// `hcl.Index`.
pub(crate) fn index(collection: &Value, key: &Value, subject: TextRange) -> (Value, Diagnostics) {
    const INVALID: &str = "Invalid index";
    const NOT_AN_ELEMENT: &str =
        "The given key does not identify an element in this collection value";
    let error = |summary: &str, detail: String| {
        (
            Value::dynamic_unknown(),
            vec![EvalDiagnostic::new(summary, detail, subject)],
        )
    };
    if collection.is_null() {
        return error(
            "Attempt to index null value",
            "This value is null, so it does not have any indices.".to_owned(),
        );
    }
    if key.is_null() {
        return error(
            INVALID,
            "Can't use a null value as an indexing key.".to_owned(),
        );
    }
    let ty = collection.ty();
    let key_ty = key.ty();
    if ty == Type::Dynamic || key_ty == Type::Dynamic {
        return (
            Value::dynamic_unknown().with_marks(collection.marks),
            Vec::new(),
        );
    }
    match &ty {
        Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
            let wanted = if ty.is_map() {
                Type::String
            } else {
                Type::Number
            };
            let key = match convert(key, &wanted) {
                Ok(key) => key,
                Err(conversion) => {
                    return error(INVALID, format!("{NOT_AN_ELEMENT}: {}.", conversion.message));
                }
            };
            let (plain_key, key_marks) = key.clone().unmark();
            // cty's `HasIndex` reads a tuple's length from its type, so an
            // index past an unknown tuple's end is still an error.
            if let (Type::Tuple(elements), Some(number)) = (&ty, plain_key.as_number()) {
                let inside = number.is_integer()
                    && !number.is_negative()
                    && number
                        .to_i64_exact()
                        .and_then(|index| usize::try_from(index).ok())
                        .is_some_and(|index| index < elements.len());
                if !inside && !collection.is_known() {
                    return match index_problem(elements.len(), number, collection.is_marked()) {
                        Some(detail) => error(INVALID, format!("{NOT_AN_ELEMENT}: {detail}.")),
                        None => error(INVALID, format!("{NOT_AN_ELEMENT}.")),
                    };
                }
            }
            if !collection.is_known() || !plain_key.is_known() {
                let unknown = match &ty {
                    Type::List(element) | Type::Map(element) => Value::unknown((**element).clone()),
                    _ => Value::dynamic_unknown(),
                };
                return (unknown.with_marks(collection.marks), Vec::new());
            }
            match element_at(collection, &plain_key) {
                Some(element) => (
                    element.with_marks(collection.marks).with_marks(key_marks),
                    Vec::new(),
                ),
                None => {
                    if let Some(detail) = sequence_index_problem(collection, &plain_key) {
                        return error(INVALID, format!("{NOT_AN_ELEMENT}: {detail}."));
                    }
                    error(INVALID, format!("{NOT_AN_ELEMENT}."))
                }
            }
        }
        Type::Object(object) => {
            let was_number = key_ty == Type::Number;
            let key = match convert(key, &Type::String) {
                Ok(key) => key,
                Err(conversion) => {
                    return error(INVALID, format!("{NOT_AN_ELEMENT}: {}.", conversion.message));
                }
            };
            if !collection.is_known() || !key.is_known() {
                return (
                    Value::dynamic_unknown().with_marks(collection.marks),
                    Vec::new(),
                );
            }
            let name = key.as_str().unwrap_or_default();
            if !object.has_attribute(name) {
                let suggestion = if was_number {
                    " An object only supports looking up attributes by name, not by numeric index."
                } else {
                    ""
                };
                return error(INVALID, format!("{NOT_AN_ELEMENT}.{suggestion}"));
            }
            get_attr(collection, name, subject)
        }
        Type::Set(_) => error(
            INVALID,
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".to_owned(),
        ),
        _ => error(INVALID, "This value does not have any indices.".to_owned()),
    }
}

/// The element of a known list, tuple or map at a known key of the right
/// type, if there is one.
fn element_at(collection: &Value, key: &Value) -> Option<Value> {
    match &collection.kind {
        ValueKind::Map { entries, .. } => entries.get(key.as_str()?).cloned(),
        ValueKind::List { items, .. } | ValueKind::Tuple(items) => {
            let number = key.as_number()?;
            if !number.is_integer() || number.is_negative() {
                return None;
            }
            let position = usize::try_from(number.to_i64_exact()?).ok()?;
            items.get(position).cloned()
        }
        _ => None,
    }
}

/// HCL's extra detail for a sequence index with no element: fractional,
/// negative, or (its comparison being inverted) exactly the length.
fn sequence_index_problem(collection: &Value, key: &Value) -> Option<&'static str> {
    let items = collection.items()?;
    index_problem(items.len(), key.as_number()?, collection.is_marked())
}

fn index_problem(
    length: usize,
    number: &crate::number::Number,
    marked: bool,
) -> Option<&'static str> {
    if !number.is_integer() {
        return Some("indexing a sequence requires a whole number, but the given index has a fractional part");
    }
    if number.is_negative() && !number.is_zero() {
        return Some("a negative number is not a valid index for a sequence");
    }
    if marked {
        return None;
    }
    let whole = number.truncate()?;
    let past_end: BigInt = whole - BigInt::from(length);
    if past_end.is_positive() {
        return None;
    }
    if length == 0 {
        return Some("the collection has no elements");
    }
    Some("the given index is greater than or equal to the length of the collection")
}

/// Where a splat's source lies and whether computing it failed.
struct Splat {
    failed: bool,
    /// The source expression (the chain before the marker).
    range: TextRange,
    /// `[*]` or `.*`.
    marker: TextRange,
}

/// HCL's `SplatExpr.Value`: `each` applied to every element of `value`.
fn splat(
    evaluator: &mut Evaluator<'_>,
    value: Value,
    each: &[Step<'_>],
    source: &Splat,
) -> (Value, Diagnostics) {
    if source.failed {
        return (Value::dynamic_unknown(), Vec::new());
    }
    let source_ty = value.ty();
    let auto_upgrade = !(source_ty.is_tuple() || source_ty.is_list() || source_ty.is_set());
    if value.is_null() {
        if auto_upgrade {
            return (Value::tuple(Vec::new()).with_marks(value.marks), Vec::new());
        }
        return (
            Value::dynamic_unknown(),
            vec![EvalDiagnostic::new(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                source.range,
            )
            .in_context(source.range.cover(source.marker))],
        );
    }
    if source_ty == Type::Dynamic {
        return (Value::dynamic_unknown().with_marks(value.marks), Vec::new());
    }
    let each_start = source.marker.start;
    let mut upgraded_unknown = false;
    let value = if auto_upgrade {
        if let ValueKind::Unknown(unknown) = &value.kind {
            upgraded_unknown = !unknown.not_null;
        }
        let marks = value.marks;
        Value::tuple(vec![value]).with_marks(marks)
    } else {
        value
    };
    let value_ty = value.ty();
    if !value.is_known() {
        let (ty, diagnostics) = result_type(evaluator, &value_ty, each, each_start);
        let result = if ty == Type::Dynamic {
            Value::unknown(ty)
        } else {
            Value::unknown_not_null(ty)
        };
        return (result.with_marks(value.marks), diagnostics);
    }
    let (value, marks) = value.unmark();
    let mut diagnostics = Vec::new();
    let mut all_known = true;
    let mut results = Vec::new();
    for item in value.items().unwrap_or_default() {
        let (result, item_diagnostics) = apply(evaluator, item.clone(), each, false, each_start);
        all_known &= item_diagnostics.is_empty();
        diagnostics.extend(item_diagnostics);
        results.push(result);
    }
    if upgraded_unknown {
        return (Value::dynamic_unknown().with_marks(marks), diagnostics);
    }
    if !all_known {
        let (ty, _) = result_type(evaluator, &value_ty, each, each_start);
        return (Value::unknown(ty).with_marks(marks), diagnostics);
    }
    if !(value_ty.is_list() || value_ty.is_set()) {
        return (Value::tuple(results).with_marks(marks), diagnostics);
    }
    let Some(first) = results.first() else {
        let (ty, type_diagnostics) = result_type(evaluator, &value_ty, each, each_start);
        diagnostics.extend(type_diagnostics);
        let element = ty.element().cloned().unwrap_or(Type::Dynamic);
        return (
            Value::list(element, Vec::new()).with_marks(marks),
            diagnostics,
        );
    };
    let element = first.ty();
    if results.iter().any(|result| result.ty() != element) {
        let each_range = match (each.first(), each.last()) {
            (Some(first), Some(last)) => first.range().cover(last.range()),
            _ => source.marker,
        };
        diagnostics.push(
            EvalDiagnostic::new(
                "Invalid nested splat expressions",
                "The second level of splat expression produced elements of different types, so it isn't possible to construct a valid list to represent the top-level result.\n\nConsider using a for expression instead, to produce a tuple-typed result which can therefore have non-homogenous element types.",
                each_range,
            )
            .in_context(source.range.cover(each_range)),
        );
        return (Value::dynamic_unknown(), diagnostics);
    }
    (Value::list(element, results).with_marks(marks), diagnostics)
}

/// The splat's result type, from `each` applied to unknown elements.
fn result_type(
    evaluator: &mut Evaluator<'_>,
    source_ty: &Type,
    each: &[Step<'_>],
    each_start: u32,
) -> (Type, Diagnostics) {
    let mut diagnostics = Vec::new();
    let mut type_of = |element: &Type, diagnostics: &mut Diagnostics| {
        let (value, item_diagnostics) = apply(
            evaluator,
            Value::unknown(element.clone()),
            each,
            false,
            each_start,
        );
        diagnostics.extend(item_diagnostics);
        value.ty()
    };
    let ty = match source_ty {
        Type::List(element) | Type::Set(element) => Type::list(type_of(element, &mut diagnostics)),
        Type::Tuple(elements) => Type::Tuple(
            elements
                .iter()
                .map(|element| type_of(element, &mut diagnostics))
                .collect(),
        ),
        _ => Type::Dynamic,
    };
    (ty, diagnostics)
}

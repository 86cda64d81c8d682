//! `for` expressions: HCL's `ForExpr.Value`, for `[for …]` (a tuple),
//! `{for …}` (an object, grouped with `...`) and the tuple a `%{ for }`
//! directive joins.
//!
//! As in HCL: the collection must not be null and must be iterable; the
//! condition is first evaluated once with both names unknown (to check its
//! type), then per element; an element whose condition or key is unknown
//! makes the whole result unknown; a key produced twice without `...` is
//! "Duplicate object key". Sets give each element as its own key, lists and
//! tuples their index, maps and objects their keys in order.

use std::collections::BTreeMap;

use tofu_syntax::{Expr, ForExpr, ForKind, TextRange};

use super::{Diagnostics, EvalDiagnostic, Evaluator};
use crate::convert::convert;
use crate::types::Type;
use crate::value::{Marks, Value, ValueKind};
use tofu_syntax::go_text::go_quote;

impl Evaluator<'_> {
    pub(super) fn for_expr(&mut self, expr: &Expr, for_expr: &ForExpr) -> (Value, Diagnostics) {
        let range = expr.range;
        let (collection, mut diagnostics) = self.value(&for_expr.collection);
        if collection.is_null() {
            diagnostics.push(
                EvalDiagnostic::new(
                    "Iteration over null value",
                    "A null value cannot be used as the collection in a 'for' expression.",
                    for_expr.collection.range,
                )
                .in_context(range),
            );
            return (Value::dynamic_unknown(), diagnostics);
        }
        if collection.ty() == Type::Dynamic {
            return (Value::dynamic_unknown(), diagnostics);
        }
        let (collection, collection_marks) = collection.unmark();
        let marks = collection_marks;
        let collection_type = collection.ty();
        if !(collection_type.is_collection()
            || collection_type.is_tuple()
            || collection_type.is_object())
        {
            diagnostics.push(
                EvalDiagnostic::new(
                    "Iteration over non-iterable value",
                    format!(
                        "A value of type {} cannot be used as the collection in a 'for' expression.",
                        collection_type.friendly_name()
                    ),
                    for_expr.collection.range,
                )
                .in_context(range),
            );
            return (Value::dynamic_unknown(), diagnostics);
        }
        let parts = Parts::of(for_expr);
        let names = Names::of(for_expr);
        let mut condition_marks = Marks::default();
        if let Some(condition) = parts.condition {
            let bindings = names.bind(Value::dynamic_unknown(), Value::dynamic_unknown());
            let (result, condition_diagnostics) =
                self.with_bindings(bindings, |evaluator| evaluator.value(condition));
            let condition_failed = !condition_diagnostics.is_empty();
            diagnostics.extend(condition_diagnostics);
            if result.is_null() {
                diagnostics.push(
                    EvalDiagnostic::new(
                        "Condition is null",
                        "The value of the 'if' clause must not be null.",
                        condition.range,
                    )
                    .in_context(range),
                );
                return (Value::dynamic_unknown(), diagnostics);
            }
            condition_marks = result.marks;
            if let Err(error) = convert(&result, &Type::Bool) {
                diagnostics.push(invalid_condition(condition, range, &error.message));
                return (Value::dynamic_unknown(), diagnostics);
            }
            if condition_failed {
                return (Value::dynamic_unknown(), diagnostics);
            }
        }
        if !collection.is_known() {
            return (
                Value::dynamic_unknown().with_marks(marks.union(condition_marks)),
                diagnostics,
            );
        }
        let elements = elements(&collection);
        let mut run = Run {
            range,
            marks,
            known: true,
            diagnostics,
        };
        let result = match parts.key {
            Some(key) => {
                self.object_for(&mut run, &names, &parts, key, for_expr.grouping, elements)
            }
            None => self.tuple_for(&mut run, &names, &parts, elements),
        };
        let Run {
            marks,
            known,
            diagnostics,
            ..
        } = run;
        if !known {
            return (Value::dynamic_unknown().with_marks(marks), diagnostics);
        }
        (result.with_marks(marks), diagnostics)
    }

    fn tuple_for(
        &mut self,
        run: &mut Run,
        names: &Names<'_>,
        parts: &Parts<'_>,
        elements: Vec<(Value, Value)>,
    ) -> Value {
        let mut values = Vec::new();
        for (key, value) in elements {
            let bindings = names.bind(key, value);
            let produced = self.with_bindings(bindings, |evaluator| {
                if let Some(condition) = parts.condition {
                    let (include, condition_diagnostics) = evaluator.value(condition);
                    run.diagnostics.extend(condition_diagnostics);
                    if include.is_null() {
                        run.null_condition(condition);
                        return None;
                    }
                    run.marks = run.marks.union(include.marks);
                    if !include.is_known() {
                        run.known = false;
                        return None;
                    }
                    match convert(&include, &Type::Bool) {
                        Ok(include) if include.as_bool() == Some(false) => return None,
                        Ok(_) => {}
                        Err(error) => {
                            run.invalid_condition(condition, &error.message);
                            return None;
                        }
                    }
                }
                let (value, value_diagnostics) = evaluator.body_value(parts, run.range);
                run.diagnostics.extend(value_diagnostics);
                Some(value)
            });
            values.extend(produced);
        }
        Value::tuple(values)
    }

    fn object_for(
        &mut self,
        run: &mut Run,
        names: &Names<'_>,
        parts: &Parts<'_>,
        key_expr: &Expr,
        grouping: bool,
        elements: Vec<(Value, Value)>,
    ) -> Value {
        let mut values: BTreeMap<String, Value> = BTreeMap::new();
        let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for (key, value) in elements {
            let bindings = names.bind(key, value);
            self.with_bindings(bindings, |evaluator| {
                if let Some(condition) = parts.condition {
                    let (include, condition_diagnostics) = evaluator.value(condition);
                    run.diagnostics.extend(condition_diagnostics);
                    if include.is_null() {
                        run.null_condition(condition);
                        return;
                    }
                    run.marks = run.marks.union(include.marks);
                    let include = match convert(&include, &Type::Bool) {
                        Ok(include) => include,
                        Err(error) => {
                            run.invalid_condition(condition, &error.message);
                            return;
                        }
                    };
                    if !include.is_known() {
                        run.known = false;
                        return;
                    }
                    if include.as_bool() == Some(false) {
                        return;
                    }
                }
                let (key, key_diagnostics) = evaluator.value(key_expr);
                run.diagnostics.extend(key_diagnostics);
                if key.is_null() {
                    if run.known {
                        run.diagnostics.push(
                            EvalDiagnostic::new(
                                "Invalid object key",
                                "Key expression in 'for' expression must not produce a null value.",
                                key_expr.range,
                            )
                            .in_context(run.range),
                        );
                    }
                    run.known = false;
                    return;
                }
                run.marks = run.marks.union(key.marks);
                if !key.is_known() {
                    run.known = false;
                    return;
                }
                let key = match convert(&key, &Type::String) {
                    Ok(key) => key,
                    Err(error) => {
                        if run.known {
                            run.diagnostics.push(
                                EvalDiagnostic::new(
                                    "Invalid object key",
                                    format!(
                                        "The key expression produced an invalid result: {}.",
                                        error.message
                                    ),
                                    key_expr.range,
                                )
                                .in_context(run.range),
                            );
                        }
                        run.known = false;
                        return;
                    }
                };
                let name = key.as_str().unwrap_or_default().to_owned();
                let (value, value_diagnostics) = evaluator.body_value(parts, run.range);
                run.diagnostics.extend(value_diagnostics);
                if grouping {
                    groups.entry(name).or_default().push(value);
                    return;
                }
                match values.entry(name) {
                    std::collections::btree_map::Entry::Vacant(slot) => {
                        slot.insert(value);
                    }
                    std::collections::btree_map::Entry::Occupied(slot) => {
                        run.diagnostics.push(
                            EvalDiagnostic::new(
                                "Duplicate object key",
                                format!(
                                    "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                                    go_quote(slot.key())
                                ),
                                key_expr.range,
                            )
                            .in_context(run.range),
                        );
                    }
                }
            });
        }
        if grouping {
            values = groups
                .into_iter()
                .map(|(name, group)| (name, Value::tuple(group)))
                .collect();
        }
        Value::object(values)
    }

    /// The value of one element: the value expression, or a directive's
    /// body template.
    fn body_value(&mut self, parts: &Parts<'_>, range: TextRange) -> (Value, Diagnostics) {
        match parts.value {
            Body::Expression(Some(value)) => self.value(value),
            Body::Expression(None) => (Value::dynamic_unknown(), Vec::new()),
            Body::Template(for_expr) => {
                self.template_parts(range, &for_expr.template, &for_expr.body)
            }
        }
    }
}

/// What a `for` evaluates per element.
struct Parts<'a> {
    key: Option<&'a Expr>,
    value: Body<'a>,
    condition: Option<&'a Expr>,
}

enum Body<'a> {
    Expression(Option<&'a Expr>),
    /// A directive's body.
    Template(&'a ForExpr),
}

impl<'a> Parts<'a> {
    fn of(for_expr: &'a ForExpr) -> Parts<'a> {
        let body = &for_expr.body;
        match for_expr.kind {
            ForKind::Tuple => Parts {
                key: None,
                value: Body::Expression(body.first()),
                condition: body.get(1),
            },
            ForKind::Object => Parts {
                key: body.first(),
                value: Body::Expression(body.get(1)),
                condition: body.get(2),
            },
            ForKind::Directive => Parts {
                key: None,
                value: Body::Template(for_expr),
                condition: None,
            },
        }
    }
}

/// The names a `for` binds: the key's (if written) and the value's.
struct Names<'a> {
    key: Option<&'a str>,
    value: Option<&'a str>,
}

impl<'a> Names<'a> {
    fn of(for_expr: &'a ForExpr) -> Names<'a> {
        match for_expr.names.as_slice() {
            [(key, _), (value, _)] => Names {
                key: Some(key),
                value: Some(value),
            },
            [(value, _)] => Names {
                key: None,
                value: Some(value),
            },
            _ => Names {
                key: None,
                value: None,
            },
        }
    }

    fn bind(&self, key: Value, value: Value) -> Vec<(String, Value)> {
        let mut bindings = Vec::with_capacity(2);
        if let Some(name) = self.key {
            bindings.push((name.to_owned(), key));
        }
        if let Some(name) = self.value {
            bindings.push((name.to_owned(), value));
        }
        bindings
    }
}

/// The state of one evaluation of a `for` across its elements.
struct Run {
    range: TextRange,
    marks: Marks,
    known: bool,
    diagnostics: Diagnostics,
}

impl Run {
    fn null_condition(&mut self, condition: &Expr) {
        if self.known {
            self.diagnostics.push(
                EvalDiagnostic::new(
                    "Invalid 'for' condition",
                    "The value of the 'if' clause must not be null.",
                    condition.range,
                )
                .in_context(self.range),
            );
        }
        self.known = false;
    }

    fn invalid_condition(&mut self, condition: &Expr, message: &str) {
        if self.known {
            self.diagnostics
                .push(invalid_condition(condition, self.range, message));
        }
        self.known = false;
    }
}

fn invalid_condition(condition: &Expr, range: TextRange, message: &str) -> EvalDiagnostic {
    EvalDiagnostic::new(
        "Invalid 'for' condition",
        format!("The 'if' clause value is invalid: {message}."),
        condition.range,
    )
    .in_context(range)
}

/// cty's element iterator: (key, value) pairs.
fn elements(collection: &Value) -> Vec<(Value, Value)> {
    match &collection.kind {
        ValueKind::Set { items, .. } => items
            .iter()
            .map(|item| (item.clone(), item.clone()))
            .collect(),
        _ => collection
            .children()
            .into_iter()
            .map(|(key, value)| (key, value.clone()))
            .collect(),
    }
}

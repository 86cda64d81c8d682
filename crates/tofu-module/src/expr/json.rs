//! A value written in a JSON file as the expression HCL's JSON syntax
//! evaluates (`json.expression.Value` with an evaluation context), in the
//! model the evaluator reads: every string is a template (`"${upper(x)}"`,
//! `"%{ if c }…%{ endif }"`, `$${` and `%%{` escapes), object keys
//! included; numbers, bools and `null` are literals, arrays are tuples and
//! objects are objects.
//!
//! Ranges follow HCL: the value keeps the JSON value's own range (a
//! string's includes its quotes, so a conversion error covers the whole
//! string), and what a template holds is placed at its offset into the
//! string's decoded content, counted from just after the opening quote
//! (so an escape before it shifts it, as in OpenTofu), never past the
//! string. A string whose content does not parse as a template is an
//! [`OperationKind::SyntaxErrors`] holding HCL's errors for it, placed
//! the same way, which the evaluator reports (as OpenTofu does when it
//! evaluates the string); where those errors are not known, an expression
//! of unknown value.

use tofu_syntax::{
    Expr, ExprKind, ObjectItem, Operation, OperationKind, RelativeStep, Template, TextRange,
    TraversalStep,
};

use super::content::json_string_value;
use crate::file_text::FileText;

/// The expression HCL evaluates for `expr`, a value written in the JSON
/// file `text`.
pub fn json_expression<'t>(text: impl Into<FileText<'t>>, expr: &Expr) -> Expr {
    converted(text.into(), expr)
}

fn converted(text: FileText<'_>, expr: &Expr) -> Expr {
    match &expr.kind {
        ExprKind::Template(_) => template(text, expr.range),
        ExprKind::Array(items) => Expr {
            range: expr.range,
            kind: ExprKind::Array(items.iter().map(|item| converted(text, item)).collect()),
        },
        ExprKind::Object(items) => Expr {
            range: expr.range,
            kind: ExprKind::Object(
                items
                    .iter()
                    .map(|item| ObjectItem {
                        key: key(text, &item.key),
                        value: converted(text, &item.value),
                        json: item.json,
                    })
                    .collect(),
            ),
        },
        _ => expr.clone(),
    }
}

/// Whether a value written in JSON holds a template (a string with `${`
/// or `%{`, an object's property name among them), whose value only
/// evaluation knows; any other value is a constant.
pub fn json_has_template(expr: &Expr) -> bool {
    let mut found = false;
    expr.walk(&mut |part| {
        found |= match &part.kind {
            ExprKind::Template(_) => true,
            ExprKind::String(name) => name.contains("${") || name.contains("%{"),
            _ => false,
        };
    });
    found
}

/// A property name in an object value: a template too.
fn key(text: FileText<'_>, key: &Expr) -> Expr {
    match &key.kind {
        ExprKind::String(name) if name.contains("${") || name.contains("%{") => {
            template(text, key.range)
        }
        _ => key.clone(),
    }
}

/// The JSON string at `range` (quotes included) read as a template.
fn template(text: FileText<'_>, range: TextRange) -> Expr {
    let unknown = Expr {
        range,
        kind: ExprKind::Operation(Operation {
            kind: OperationKind::TooDeep,
            operands: Vec::new(),
        }),
    };
    let Some(content) = json_string_value(text.slice(range)) else {
        return unknown;
    };
    let parsed = tofu_syntax::parse_template(&content);
    let start = range.start.saturating_add(1);
    let place = |inner: TextRange| {
        let at = |offset: u32| {
            let mut offset = offset.saturating_add(start).clamp(range.start, range.end);
            while offset > range.start && text.get(offset as usize, offset as usize).is_none() {
                offset -= 1;
            }
            offset
        };
        TextRange::new(at(inner.start), at(inner.end))
    };
    match parsed {
        Ok(mut parsed) => {
            place_ranges(&mut parsed, &place);
            parsed.range = range;
            parsed
        }
        Err(errors) if errors.is_empty() => unknown,
        Err(mut errors) => {
            for error in &mut errors {
                error.range = place(error.range);
                if let Some((named, _)) = &mut error.place {
                    *named = place(*named);
                }
            }
            Expr {
                range,
                kind: ExprKind::Operation(Operation {
                    kind: OperationKind::SyntaxErrors(errors),
                    operands: Vec::new(),
                }),
            }
        }
    }
}

/// Moves every range of `expr` through `place`.
fn place_ranges(expr: &mut Expr, place: &dyn Fn(TextRange) -> TextRange) {
    expr.range = place(expr.range);
    match &mut expr.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
        ExprKind::Template(Template {
            expressions: children,
            ..
        })
        | ExprKind::Array(children) => {
            children
                .iter_mut()
                .for_each(|child| place_ranges(child, place));
        }
        ExprKind::Operation(operation) => {
            if let OperationKind::Steps(steps) = &mut operation.kind {
                for step in steps {
                    match step {
                        RelativeStep::Attr { range, .. }
                        | RelativeStep::Index { range }
                        | RelativeStep::LegacyIndex { range, .. }
                        | RelativeStep::Splat { range, .. } => *range = place(*range),
                    }
                }
            }
            operation
                .operands
                .iter_mut()
                .for_each(|operand| place_ranges(operand, place));
        }
        ExprKind::Object(items) => {
            for item in items {
                place_ranges(&mut item.key, place);
                place_ranges(&mut item.value, place);
            }
        }
        ExprKind::Traversal(traversal) => {
            traversal.root_range = place(traversal.root_range);
            for step in &mut traversal.steps {
                match step {
                    TraversalStep::Attr { range, .. } | TraversalStep::Splat { range, .. } => {
                        *range = place(*range);
                    }
                    TraversalStep::Index { key, range } => {
                        *range = place(*range);
                        place_ranges(key, place);
                    }
                }
            }
        }
        ExprKind::Call(call) => {
            call.name_range = place(call.name_range);
            call.args
                .iter_mut()
                .for_each(|arg| place_ranges(arg, place));
        }
        ExprKind::For(for_expr) => {
            for (_, range) in &mut for_expr.names {
                *range = place(*range);
            }
            place_ranges(&mut for_expr.collection, place);
            for_expr
                .body
                .iter_mut()
                .for_each(|part| place_ranges(part, place));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The converted value of the local value `x` in a JSON file.
    fn local(json: &str) -> (String, Expr) {
        let text = format!("{{\"locals\": {{\"x\": {json}}}}}");
        let file = tofu_syntax::parse("main.tf.json", &text);
        let expr = json_expression(text.as_str(), &file.body.blocks[0].body.attributes[0].expr);
        (text, expr)
    }

    #[test]
    fn a_string_with_an_interpolation_is_a_template_placed_in_the_file() {
        let (text, expr) = local(r#""a-${upper(var.x)}""#);
        assert_eq!(expr.range.slice(&text), r#""a-${upper(var.x)}""#);
        let ExprKind::Template(template) = &expr.kind else {
            panic!("{expr:?}")
        };
        let ExprKind::Call(call) = &template.expressions[0].kind else {
            panic!("{template:?}")
        };
        assert_eq!(call.name_range.slice(&text), "upper");
        assert_eq!(call.args[0].range.slice(&text), "var.x");
    }

    #[test]
    fn an_escape_shifts_what_follows_by_its_decoded_length() {
        // `\"` is one byte decoded: `f` is placed one byte early, as HCL does.
        let (text, expr) = local(r#""\"${f()}""#);
        let ExprKind::Template(template) = &expr.kind else {
            panic!("{expr:?}")
        };
        let ExprKind::Call(call) = &template.expressions[0].kind else {
            panic!("{template:?}")
        };
        assert_eq!(call.name_range.slice(&text), "{");
    }

    #[test]
    fn keys_are_templates_literals_stay_and_bad_templates_hold_their_errors() {
        let (text, expr) = local(r#"{"${var.k}": [1, "b", null, "${"]}"#);
        let ExprKind::Object(items) = &expr.kind else {
            panic!("{expr:?}")
        };
        assert!(matches!(items[0].key.kind, ExprKind::Template(_)));
        assert_eq!(items[0].key.range.slice(&text), r#""${var.k}""#);
        let ExprKind::Array(values) = &items[0].value.kind else {
            panic!("{items:?}")
        };
        assert!(matches!(values[0].kind, ExprKind::Number(_)));
        assert_eq!(values[1].as_str(), Some("b"));
        assert!(values[2].is_null());
        let ExprKind::Operation(Operation {
            kind: OperationKind::SyntaxErrors(errors),
            ..
        }) = &values[3].kind
        else {
            panic!("{values:?}")
        };
        assert_eq!(values[3].range.slice(&text), r#""${""#);
        assert_eq!(errors[0].summary, "Missing expression");
        // At the end of the content: on the closing quote.
        assert_eq!(errors[0].range.slice(&text), "");
        assert_eq!(
            text.get(errors[0].range.start as usize..).unwrap().get(..2),
            Some("\"]")
        );
    }

    #[test]
    fn errors_of_a_bad_template_are_placed_in_the_file() {
        let (text, expr) = local(r#""%{ if true }x""#);
        let ExprKind::Operation(Operation {
            kind: OperationKind::SyntaxErrors(errors),
            ..
        }) = &expr.kind
        else {
            panic!("{expr:?}")
        };
        let detail = errors[0].detail_with(|range| range.slice(&text).to_owned());
        assert_eq!(
            detail,
            "The if directive at %{ if true } is missing its corresponding endif directive."
        );
    }

    #[test]
    fn templates_are_found_in_values_and_property_names() {
        let has = |json: &str| {
            let text = format!("{{\"locals\": {{\"x\": {json}}}}}");
            let file = tofu_syntax::parse("main.tf.json", &text);
            json_has_template(&file.body.blocks[0].body.attributes[0].expr)
        };
        assert!(has(r#"[1, {"a": "${x}"}]"#));
        assert!(has(r#"{"%{ if x }a%{ endif }": 1}"#));
        assert!(has(r#""$${x}""#));
        assert!(!has(r#"{"a": ["b", 1, null, true]}"#));
    }

    #[test]
    fn escaped_sequences_are_literal_text() {
        let (_, expr) = local(r#""$${upper()} %%{ if x }""#);
        let ExprKind::Template(template) = &expr.kind else {
            panic!("{expr:?}")
        };
        assert!(template.expressions.is_empty(), "{template:?}");
    }
}

//! Templates: HCL's `TemplateExpr` (the parts joined into one string),
//! `TemplateWrapExpr` (a template that is one interpolation and nothing
//! else is that expression's value, of any type), a `%{ if }` directive
//! as a conditional of two templates, and a `%{ for }` directive as
//! `TemplateJoinExpr` over a tuple `for`.
//!
//! The model's literals already have HCL's strip markers and heredoc
//! indentation applied. A JSON string in a JSON file is not parsed by the
//! model; its value is unknown here (the caller parses its content with
//! `tofu_syntax::parse_template`).

use tofu_syntax::{Expr, ExprKind, Template, TemplatePart, TextRange};

use super::operations::{choose, Branches};
use super::{Diagnostics, EvalDiagnostic, Evaluator};
use crate::convert::convert;
use crate::types::Type;
use crate::value::{Marks, Value};

impl Evaluator<'_> {
    pub(super) fn template(&mut self, expr: &Expr, template: &Template) -> (Value, Diagnostics) {
        match template.parts.as_slice() {
            [] => (Value::unknown(Type::String), Vec::new()),
            [TemplatePart::Interpolation { expression, .. }] => {
                match template.expressions.get(*expression) {
                    Some(inner) => self.value(inner),
                    None => (Value::dynamic_unknown(), Vec::new()),
                }
            }
            parts => self.template_parts(expr.range, parts, &template.expressions),
        }
    }

    /// HCL's `TemplateExpr.Value` over `parts`, whose positions refer to
    /// `expressions`.
    pub(super) fn template_parts(
        &mut self,
        range: TextRange,
        parts: &[TemplatePart],
        expressions: &[Expr],
    ) -> (Value, Diagnostics) {
        let mut text = String::new();
        let mut diagnostics = Vec::new();
        let mut known = true;
        let mut marks = Marks::default();
        for part in parts {
            let (value, part_diagnostics, part_range) = match part {
                TemplatePart::Literal(literal) => (Value::string(literal), Vec::new(), range),
                TemplatePart::Interpolation { expression, .. } => {
                    let Some(inner) = expressions.get(*expression) else {
                        continue;
                    };
                    let (value, inner_diagnostics) = self.value(inner);
                    (value, inner_diagnostics, inner.range)
                }
                TemplatePart::If {
                    condition,
                    then,
                    otherwise,
                    ..
                } => {
                    let (value, if_diagnostics) = self.if_directive(
                        range,
                        *condition,
                        then,
                        otherwise.as_deref(),
                        expressions,
                    );
                    (value, if_diagnostics, range)
                }
                TemplatePart::For { directive, .. } => {
                    let Some(directive) = expressions.get(*directive) else {
                        continue;
                    };
                    let (value, for_diagnostics) = self.for_directive(directive);
                    (value, for_diagnostics, directive.range)
                }
            };
            diagnostics.extend(part_diagnostics);
            if value.is_null() {
                diagnostics.push(
                    EvalDiagnostic::new(
                        "Invalid template interpolation value",
                        "The expression result is null. Cannot include a null value in a string template.",
                        part_range,
                    )
                    .in_context(range),
                );
                continue;
            }
            let (value, part_marks) = value.unmark();
            marks = marks.union(part_marks);
            if !value.is_known() {
                known = false;
                continue;
            }
            match convert(&value, &Type::String) {
                Ok(converted) => {
                    if known && diagnostics.is_empty() {
                        text.push_str(converted.as_str().unwrap_or_default());
                    }
                }
                Err(error) => diagnostics.push(
                    EvalDiagnostic::new(
                        "Invalid template interpolation value",
                        format!(
                            "Cannot include the given value in a string template: {}.",
                            error.message
                        ),
                        part_range,
                    )
                    .in_context(range),
                ),
            }
        }
        let result = if known {
            Value::string(text)
        } else {
            Value::unknown_not_null(Type::String)
        };
        (result.with_marks(marks), diagnostics)
    }

    /// `%{ if }`: a conditional of two templates (an absent branch is "").
    fn if_directive(
        &mut self,
        range: TextRange,
        condition: usize,
        then: &[TemplatePart],
        otherwise: Option<&[TemplatePart]>,
        expressions: &[Expr],
    ) -> (Value, Diagnostics) {
        let (true_value, true_diagnostics) = self.template_parts(range, then, expressions);
        let (false_value, false_diagnostics) =
            self.template_parts(range, otherwise.unwrap_or_default(), expressions);
        let Some(condition) = expressions.get(condition) else {
            return (Value::unknown(Type::String), Vec::new());
        };
        let evaluated_condition = self.value(condition);
        let branches = Branches {
            true_value,
            true_diagnostics,
            true_range: range,
            false_value,
            false_diagnostics,
            false_range: range,
        };
        choose(range, condition.range, evaluated_condition, branches)
    }

    /// `%{ for }`: HCL's `TemplateJoinExpr` of the tuple the body makes.
    fn for_directive(&mut self, directive: &Expr) -> (Value, Diagnostics) {
        let ExprKind::For(for_expr) = &directive.kind else {
            return (Value::unknown(Type::String), Vec::new());
        };
        let (tuple, mut diagnostics) = self.for_expr(directive, for_expr);
        if tuple.is_null() || tuple.ty() == Type::Dynamic || !tuple.is_known() {
            return (Value::unknown(Type::String), diagnostics);
        }
        let (tuple, marks) = tuple.unmark();
        let mut all_marks = marks;
        let mut text = String::new();
        for element in tuple.items().unwrap_or_default() {
            if element.is_null() {
                diagnostics.push(EvalDiagnostic::new(
                    "Invalid template interpolation value",
                    "An iteration result is null. Cannot include a null value in a string template.",
                    directive.range,
                ));
                continue;
            }
            if element.ty() == Type::Dynamic {
                return (Value::unknown(Type::String).with_marks(marks), diagnostics);
            }
            let converted = match convert(element, &Type::String) {
                Ok(converted) => converted,
                Err(error) => {
                    diagnostics.push(EvalDiagnostic::new(
                        "Invalid template interpolation value",
                        format!(
                            "Cannot include one of the interpolation results into the string template: {}.",
                            error.message
                        ),
                        directive.range,
                    ));
                    continue;
                }
            };
            if !element.is_known() {
                return (Value::unknown(Type::String).with_marks(marks), diagnostics);
            }
            let (converted, converted_marks) = converted.unmark();
            all_marks = all_marks.union(converted_marks);
            text.push_str(converted.as_str().unwrap_or_default());
        }
        (Value::string(text).with_marks(all_marks), diagnostics)
    }
}

//! Type constraints as OpenTofu reads a variable's `type` (`diagnostics.md`
//! §4.14), constant values as it reads a `default` (§4.15), and conversion of
//! one to the other (`merging.md` §6.1).
//!
//! Types, values and defaults are tofu-eval's ([`tofu_eval::Type`],
//! [`tofu_eval::Value`], [`tofu_eval::TypeConstraint`]); what is here is how
//! OpenTofu reads them from a configuration.
//!
//! [`parse_type_constraint`] is HCL's `typeexpr.TypeConstraintWithDefaults` on
//! the syntax-neutral expression model: it returns the type with its defaults
//! or every error HCL would report, each as data (summary, detail, range) so that a rule can turn
//! them into diagnostics. [`parse_variable_type`] adds OpenTofu's own layer on
//! top (the legacy quoted form, the `list`/`map` shorthands, JSON strings), and
//! falls back to `any` whenever the type does not parse, as OpenTofu does.
//!
//! A JSON `type` string is parsed by handing `t = CONTENT` to the native
//! adapter of `tofu-syntax` and walking the resulting expression: the type
//! grammar (and the constant defaults inside `optional(…)`) then runs on one
//! expression model for both syntaxes, without a second converter from
//! hcl-edit's tree and without a new dependency. Ranges inside a JSON string are
//! mapped back byte for byte from the string's first content byte (HCL itself
//! maps them from the opening quote); escapes make them drift, and they are
//! clamped to the string; an error on the type as a whole covers the whole
//! string, quotes included, as in HCL.
//!
//! Two native forms that the syntax model flattens are told apart from the
//! source text, because HCL's grammar treats them differently: parentheses
//! (`(string)` is no type) and a string that is one interpolation and nothing
//! else (`"${string}"` is no quoted type either, just no type).
//!
//! Deliberately left out: exact types (`any` is always allowed here, since only
//! type *constraints* are parsed), and anything that needs evaluation beyond
//! literals. Recursion is bounded: a type nested deeper than [`MAX_TYPE_DEPTH`]
//! is taken as `any`.

mod constraint;
mod convert;
mod value;

#[cfg(test)]
mod tests;

use tofu_eval::{Defaults, DefaultsStep, ObjectType, Type, TypeConstraint};
use tofu_syntax::{Call, Expr, ExprKind, Syntax, Template, TextRange};

use crate::file_text::FileText;
pub use constraint::{constraint_text, MAX_TYPE_DEPTH};
pub use convert::{convert_variable_value, ConversionError};
pub use value::{
    constant_value, declared_true, object_key, static_value, ValueError, MAX_VALUE_DEPTH,
};

const INVALID_TYPE: &str = "Invalid type specification";

/// One error of a type expression, as HCL reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    /// "Invalid type specification", or for a bad `optional` default HCL's
    /// evaluation summary or "Invalid default value for optional attribute".
    pub summary: String,
    pub detail: String,
    pub range: TextRange,
}

impl TypeError {
    fn invalid(detail: impl Into<String>, range: TextRange) -> TypeError {
        TypeError {
            summary: INVALID_TYPE.to_owned(),
            detail: detail.into(),
            range,
        }
    }
}

/// What OpenTofu makes of a variable's `type` argument.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableType {
    /// The constraint used for conversions: `any` whenever `problem` is set.
    pub constraint: TypeConstraint,
    pub problem: Option<VariableTypeProblem>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum VariableTypeProblem {
    /// The legacy native form `type = "string"` (`quoted-type-constraint`).
    /// OpenTofu rejects it and uses `any`, even for `"string"`, `"list"` and
    /// `"map"`. `written` is the string's value, `None` for a template.
    Quoted { written: Option<String> },
    /// The type does not parse (`invalid-type-constraint`); never empty.
    Invalid(Vec<TypeError>),
}

/// Reads a variable's `type` expression as OpenTofu's `decodeVariableType`
/// does. `text` is the whole file the expression's ranges index into.
pub fn parse_variable_type<'t>(
    expr: &Expr,
    syntax: Syntax,
    text: impl Into<FileText<'t>>,
) -> VariableType {
    let text = text.into();
    let parsed = match syntax {
        Syntax::Native => {
            if let Some(written) = quoted_string(expr, text) {
                return VariableType {
                    constraint: TypeConstraint::any(),
                    problem: Some(VariableTypeProblem::Quoted { written }),
                };
            }
            parse_with_shorthands(expr, text)
        }
        Syntax::Json => match json_string(expr, text) {
            Some(content) => {
                let content_range = TextRange::new(
                    expr.range.start.saturating_add(1),
                    expr.range.end.saturating_sub(1).max(expr.range.start),
                );
                parse_string_with_shorthands(&content, content_range, expr.range)
            }
            // A JSON number, array, object, bool or null is no type expression.
            None => match expr.kind {
                ExprKind::Null => Err(vec![TypeError::invalid(
                    "The keyword \"null\" is not a valid type specification.",
                    expr.range,
                )]),
                _ => Err(vec![TypeError::invalid(NOT_A_TYPE, expr.range)]),
            },
        },
    };
    match parsed {
        Ok(constraint) => VariableType {
            constraint,
            problem: None,
        },
        Err(errors) => VariableType {
            constraint: TypeConstraint::any(),
            problem: Some(VariableTypeProblem::Invalid(errors)),
        },
    }
}

/// HCL's `TypeConstraintWithDefaults` on a native expression: `any` and
/// `optional(T, DEFAULT)` allowed, no OpenTofu shorthands. `text` is the source
/// the expression's ranges index into.
pub fn parse_type_constraint<'t>(
    expr: &Expr,
    text: impl Into<FileText<'t>>,
) -> Result<TypeConstraint, Vec<TypeError>> {
    let text = text.into();
    let mut parser = TypeParser {
        text,
        errors: Vec::new(),
    };
    let constraint = parser.constraint(expr, 0);
    if parser.errors.is_empty() {
        Ok(constraint)
    } else {
        Err(parser.errors)
    }
}

/// A type expression held in a string (JSON syntax). `content_range` is where
/// the string's content lies in the file; error ranges are mapped into it.
pub fn parse_type_constraint_string(
    content: &str,
    content_range: TextRange,
) -> Result<TypeConstraint, Vec<TypeError>> {
    parse_json_type(content, content_range, content_range)
}

/// [`parse_type_constraint_string`] for a JSON string whose whole range,
/// quotes included, is `string_range`: an error HCL reports on the type
/// expression as a whole (an unknown keyword, no type at all) covers the
/// string, as HCL's own range for the JSON expression does.
fn parse_json_type(
    content: &str,
    content_range: TextRange,
    string_range: TextRange,
) -> Result<TypeConstraint, Vec<TypeError>> {
    let (expr, synthetic) = match synthetic_expr(content) {
        Some(parsed) => parsed,
        None => {
            return Err(vec![TypeError::invalid(NOT_A_TYPE, string_range)]);
        }
    };
    parse_type_constraint(&expr, &synthetic).map_err(|errors| {
        let (whole, inner): (Vec<TypeError>, Vec<TypeError>) = errors
            .into_iter()
            .partition(|error| error.range == expr.range);
        let mut mapped: Vec<TypeError> = whole
            .into_iter()
            .map(|error| TypeError {
                range: string_range,
                ..error
            })
            .collect();
        mapped.extend(remap_errors(inner, content_range));
        mapped
    })
}

const NOT_A_TYPE: &str = "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).";

/// The prefix that turns a type string into a one-attribute native file.
const SYNTHETIC_PREFIX: &str = "t = ";

/// Parses `content` as one native expression. `None` when it is not exactly
/// one expression.
fn synthetic_expr(content: &str) -> Option<(Expr, String)> {
    let synthetic = format!("{SYNTHETIC_PREFIX}{content}\n");
    let file = tofu_syntax::parse("type.tf", &synthetic);
    if file.has_errors() || !file.unrecovered.is_empty() || !file.body.blocks.is_empty() {
        return None;
    }
    let [attribute] = file.body.attributes.as_slice() else {
        return None;
    };
    Some((attribute.expr.clone(), synthetic))
}

fn remap_errors(errors: Vec<TypeError>, content_range: TextRange) -> Vec<TypeError> {
    let prefix = tofu_syntax::text::to_u32(SYNTHETIC_PREFIX.len());
    let map = |offset: u32| {
        content_range
            .start
            .saturating_add(offset.saturating_sub(prefix))
            .min(content_range.end)
    };
    errors
        .into_iter()
        .map(|error| TypeError {
            range: TextRange::new(map(error.range.start), map(error.range.end)),
            ..error
        })
        .collect()
}

/// OpenTofu's shorthands first (`list` = `list(any)`, `map` = `map(any)`, top
/// level only), then HCL's grammar.
fn parse_with_shorthands(
    expr: &Expr,
    text: FileText<'_>,
) -> Result<TypeConstraint, Vec<TypeError>> {
    if is_parenthesized(expr, text) {
        return parse_type_constraint(expr, text);
    }
    match keyword(expr) {
        Some("list") => Ok(TypeConstraint::of(Type::list(Type::Dynamic))),
        Some("map") => Ok(TypeConstraint::of(Type::map(Type::Dynamic))),
        _ => parse_type_constraint(expr, text),
    }
}

fn parse_string_with_shorthands(
    content: &str,
    content_range: TextRange,
    string_range: TextRange,
) -> Result<TypeConstraint, Vec<TypeError>> {
    match content {
        "list" => Ok(TypeConstraint::of(Type::list(Type::Dynamic))),
        "map" => Ok(TypeConstraint::of(Type::map(Type::Dynamic))),
        _ => parse_json_type(content, content_range, string_range),
    }
}

/// A native quoted string or heredoc (HCL's `TemplateExpr`): `Some(value)` for
/// a literal, `Some(None)` for one with interpolations. A string that is one
/// interpolation and nothing else (`"${string}"`) is HCL's `TemplateWrapExpr`
/// instead: no quoted type for OpenTofu, and no type at all.
fn quoted_string(expr: &Expr, text: FileText<'_>) -> Option<Option<String>> {
    match &expr.kind {
        ExprKind::String(value) => Some(Some(value.clone())),
        ExprKind::Template(Template {
            expressions: parts, ..
        }) if is_template_wrap(expr, parts, text) => None,
        ExprKind::Template(_) => Some(None),
        _ => None,
    }
}

/// `"${EXPR}"`: a quoted template whose only part is one interpolation, with
/// no literal text around it (HCL's "passthru" template).
fn is_template_wrap(expr: &Expr, parts: &[Expr], text: FileText<'_>) -> bool {
    let [part] = parts else { return false };
    let (Some(before), Some(after)) = (
        text.get(expr.range.start as usize, part.range.start as usize),
        text.get(part.range.end as usize, expr.range.end as usize),
    ) else {
        return false;
    };
    let Some(opening) = before.strip_prefix("\"${") else {
        return false;
    };
    let opening = opening.strip_prefix('~').unwrap_or(opening);
    let Some(closing) = after.trim_start().strip_suffix("}\"") else {
        return false;
    };
    opening.trim().is_empty() && matches!(closing, "" | "~")
}

/// Written in parentheses. The native adapter drops the parentheses from the
/// model, but HCL keeps them as a `ParenthesesExpr`, which is neither a
/// keyword, nor a call, nor a list or map constructor to the type grammar
/// (nor a constructor to OpenTofu's lint of defaults).
pub fn is_parenthesized<'t>(expr: &Expr, text: impl Into<FileText<'t>>) -> bool {
    text.into().byte_at(expr.range.start as usize) == Some(b'(')
}

/// The content of a JSON string value, decoded, including one holding `${`
/// (as written: not normalised).
pub fn json_string<'t>(expr: &Expr, text: impl Into<FileText<'t>>) -> Option<String> {
    let text = text.into();
    match &expr.kind {
        ExprKind::String(value) => Some(value.clone()),
        ExprKind::Template(_) => value::decode_json_string(text.slice(expr.range)),
        _ => None,
    }
}

/// HCL's `ExprAsKeyword`: a bare name, or `null`/`true`/`false` (which HCL
/// turns back into names).
fn keyword(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Traversal(traversal) if traversal.steps.is_empty() => Some(&traversal.root),
        ExprKind::Null => Some("null"),
        ExprKind::Bool(true) => Some("true"),
        ExprKind::Bool(false) => Some("false"),
        _ => None,
    }
}

/// An object constructor key that is an attribute name: a bare identifier,
/// not parenthesized, not quoted.
fn attribute_name(key: &Expr) -> Option<&str> {
    match &key.kind {
        ExprKind::Traversal(traversal)
            if traversal.steps.is_empty() && traversal.root_range == key.range =>
        {
            Some(&traversal.root)
        }
        ExprKind::Null | ExprKind::Bool(_) => keyword(key),
        _ => None,
    }
}

struct TypeParser<'a> {
    text: FileText<'a>,
    errors: Vec<TypeError>,
}

impl TypeParser<'_> {
    /// HCL's `getType`: a type, or `any` after pushing errors.
    fn constraint(&mut self, expr: &Expr, depth: usize) -> TypeConstraint {
        if depth > MAX_TYPE_DEPTH {
            return TypeConstraint::any();
        }
        if is_parenthesized(expr, self.text) {
            return self.fail(NOT_A_TYPE, expr.range);
        }
        if let Some(word) = keyword(expr) {
            return match word {
                "bool" => TypeConstraint::of(Type::Bool),
                "string" => TypeConstraint::of(Type::String),
                "number" => TypeConstraint::of(Type::Number),
                "any" => TypeConstraint::any(),
                "list" | "map" | "set" => self.fail(
                    format!("The {word} type constructor requires one argument specifying the element type."),
                    expr.range,
                ),
                "object" => self.fail(OBJECT_ARGUMENT, expr.range),
                "tuple" => self.fail(TUPLE_ARGUMENT, expr.range),
                // A bare `optional` is just an unknown keyword to HCL.
                other => self.fail(
                    format!("The keyword \"{other}\" is not a valid type specification."),
                    expr.range,
                ),
            };
        }
        let ExprKind::Call(call) = &expr.kind else {
            return self.fail(NOT_A_TYPE, expr.range);
        };
        let args_range = self.args_range(expr, call);
        let name = call.name.as_str();
        match name {
            "bool" | "string" | "number" => {
                return self.fail(
                    format!("Primitive type keyword \"{name}\" does not expect arguments."),
                    args_range,
                );
            }
            "any" => {
                return self.fail(
                    "Type constraint keyword \"any\" does not expect arguments.",
                    args_range,
                );
            }
            _ => {}
        }
        let single_argument = match call.args.as_slice() {
            [argument] => Some(argument),
            _ => None,
        };
        let Some(argument) = single_argument else {
            let subject = match (call.args.get(1), call.args.last()) {
                (Some(second), Some(last)) => second.range.cover(last.range),
                _ => args_range,
            };
            return match name {
                "list" | "set" | "map" => self.fail(
                    format!("The {name} type constructor requires one argument specifying the element type."),
                    subject,
                ),
                "object" => self.fail(OBJECT_ARGUMENT, subject),
                "tuple" => self.fail(TUPLE_ARGUMENT, subject),
                _ => self.other_call(expr, call),
            };
        };
        match name {
            "list" | "set" | "map" => {
                let element = self.constraint(argument, depth + 1);
                let ty = match name {
                    "list" => Type::list(element.ty),
                    "set" => Type::set(element.ty),
                    _ => Type::map(element.ty),
                };
                let mut defaults = Defaults::default();
                defaults.set_child(DefaultsStep::Element, element.defaults);
                TypeConstraint { ty, defaults }
            }
            "object" => self.object(argument, depth),
            "tuple" => {
                let elements = match &argument.kind {
                    ExprKind::Array(elements) if !is_parenthesized(argument, self.text) => {
                        Some(elements)
                    }
                    _ => None,
                };
                let Some(elements) = elements else {
                    return self.fail(
                        "Tuple type constructor requires a list of element types.",
                        argument.range,
                    );
                };
                let mut types = Vec::with_capacity(elements.len());
                let mut defaults = Defaults::default();
                for (index, element) in elements.iter().enumerate() {
                    let element = self.constraint(element, depth + 1);
                    types.push(element.ty);
                    defaults.set_child(DefaultsStep::Index(index), element.defaults);
                }
                TypeConstraint {
                    ty: Type::tuple(types),
                    defaults,
                }
            }
            _ => self.other_call(expr, call),
        }
    }

    /// `optional(…)` outside an object attribute, or an unknown constructor.
    fn other_call(&mut self, expr: &Expr, call: &Call) -> TypeConstraint {
        if call.name == "optional" {
            self.fail(OPTIONAL_MISPLACED, call.name_range)
        } else {
            self.fail(
                format!("Keyword \"{}\" is not a valid type constructor.", call.name),
                expr.range,
            )
        }
    }

    fn object(&mut self, argument: &Expr, depth: usize) -> TypeConstraint {
        let items = match &argument.kind {
            ExprKind::Object(items) if !is_parenthesized(argument, self.text) => Some(items),
            _ => None,
        };
        let Some(items) = items else {
            return self.fail(
                "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
                argument.range,
            );
        };
        let mut attributes: Vec<(&str, Type)> = Vec::new();
        let mut optional_names: Vec<&str> = Vec::new();
        let mut defaults = Defaults::default();
        for item in items {
            let Some(name) = attribute_name(&item.key) else {
                self.fail(
                    "Object constructor map keys must be attribute names.",
                    item.key.range,
                );
                continue;
            };
            if attributes.iter().any(|(attribute, _)| *attribute == name) {
                self.fail(
                    "Object constructor map keys must be unique.",
                    item.key.range,
                );
                continue;
            }
            let mut type_expr = &item.value;
            let mut optional = false;
            let mut default_expr = None;
            if let ExprKind::Call(call) = &item.value.kind {
                if call.name == "optional" && !is_parenthesized(&item.value, self.text) {
                    let args_range = self.args_range(&item.value, call);
                    let Some(first) = call.args.first() else {
                        self.fail(
                            "Optional attribute modifier requires the attribute type as its argument.",
                            args_range,
                        );
                        continue;
                    };
                    match call.args.get(1..).unwrap_or_default() {
                        [] => optional = true,
                        [default] => match value::constant_value(default, self.text) {
                            Ok(value) => {
                                optional = true;
                                default_expr = Some((default, value));
                            }
                            Err(errors) => {
                                self.errors
                                    .extend(errors.into_iter().map(|error| TypeError {
                                        summary: error.summary,
                                        detail: error.detail,
                                        range: error.range,
                                    }))
                            }
                        },
                        _ => {
                            self.fail(
                                "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
                                args_range,
                            );
                        }
                    }
                    type_expr = first;
                }
            }
            let attribute = self.constraint(type_expr, depth + 1);
            if let Some((expr, value)) = default_expr {
                match tofu_eval::convert::convert(&value, &attribute.ty) {
                    Ok(converted) => defaults.set_value(name, converted),
                    Err(error) => self.errors.push(TypeError {
                        summary: "Invalid default value for optional attribute".to_owned(),
                        detail: format!(
                            "This default value is not compatible with the attribute's type constraint: {}.",
                            error.message
                        ),
                        range: expr.range,
                    }),
                }
            }
            defaults.set_child(DefaultsStep::Attribute(name.to_owned()), attribute.defaults);
            if optional {
                optional_names.push(name);
            }
            attributes.push((name, attribute.ty));
        }
        TypeConstraint {
            ty: Type::Object(Box::new(
                ObjectType::new(attributes).with_optional(optional_names),
            )),
            defaults,
        }
    }

    /// From the call's `(` to its `)`, as HCL's `ArgsRange`.
    fn args_range(&self, expr: &Expr, call: &Call) -> TextRange {
        let after_name = call.name_range.end;
        let open = self
            .text
            .get(after_name as usize, expr.range.end as usize)
            .and_then(|rest| rest.find('('))
            .map_or(after_name, |at| {
                after_name.saturating_add(tofu_syntax::text::to_u32(at))
            });
        TextRange::new(open, expr.range.end.max(open))
    }

    fn fail(&mut self, detail: impl Into<String>, range: TextRange) -> TypeConstraint {
        self.errors.push(TypeError::invalid(detail, range));
        TypeConstraint::any()
    }
}

const OBJECT_ARGUMENT: &str =
    "The object type constructor requires one argument specifying the attribute types and values as a map.";
const TUPLE_ARGUMENT: &str =
    "The tuple type constructor requires one argument specifying the element types as a list.";
const OPTIONAL_MISPLACED: &str =
    "Keyword \"optional\" is valid only as a modifier for object type attributes.";

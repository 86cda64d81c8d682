//! A variable's `type` as written, and what its default sets that the type
//! drops: `quoted-type-constraint`, `invalid-type-constraint` (`diagnostics.md`
//! §2.7, §4.14) and `ignored-object-attribute` (§4.16).
//!
//! Every `variable` block of every loaded file is read as OpenTofu's
//! `decodeVariableBlock` reads it: primary and override files alike, duplicates
//! and overrides without a base too, files with syntax errors as far as they
//! were recovered; a block with the wrong number of labels not at all (HCL
//! drops it before decoding). The type goes through
//! [`parse_variable_type`], the one type parser, which `invalid-variable-default`
//! uses as well; this module only turns its verdict into diagnostics, and then
//! walks a native-syntax default along a type that parsed, as OpenTofu's
//! `lint.DiscardedObjectConstructorAttrs` does, for object constructor keys that
//! conversion would silently drop.
//!
//! Deliberately left out: whether the default converts to the type
//! (`invalid-variable-default`, `rules::variables`), the default's own
//! evaluation errors (`invalid-constant-argument`), and JSON defaults, which
//! OpenTofu's lint never walks (it looks only at native constructor
//! expressions). The walk follows the type, so it is as deep as the type at
//! most, and types nested deeper than [`MAX_TYPE_DEPTH`] are `any`.

use tofu_syntax::{
    Block, Diagnostic, Expr, ExprKind, FileId, Fix, ForKind, Location, ObjectItem, Syntax,
    TextRange,
};

use tofu_eval::{ObjectType, Type};
use tofu_module::expr::suggest::did_you_mean_by;
use tofu_module::loaded::FileView;
use tofu_module::schema::has_valid_labels;
use tofu_module::types::{
    constant_value, constraint_text, is_parenthesized, object_key, parse_type_constraint_string,
    parse_variable_type, static_value, TypeError, VariableTypeProblem, MAX_TYPE_DEPTH,
};
use tofu_syntax::go_text::go_quote;

const QUOTED_SUMMARY: &str = "Invalid quoted type constraints";
const LEGACY_SUMMARY: &str = "Invalid legacy variable type hint";
const LEGACY_DETAIL: &str = "To provide a full type expression, remove the surrounding quotes and give the type expression directly.";
const QUOTED_DETAIL_START: &str = "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around";
const IGNORED_SUMMARY: &str = "Object attribute is ignored";

pub(crate) fn check(view: FileView<'_>, out: &mut Vec<Diagnostic>) {
    let file = view.file;
    if !file.role.is_loaded() {
        return;
    }
    let Some(source) = &file.source else { return };
    let block_file = BlockFile {
        id: view.id,
        syntax: source.syntax,
        text: &file.text,
    };
    for block in &source.body.blocks {
        if block.kind == "variable" && has_valid_labels(block) {
            check_variable(&block_file, block, out);
        }
    }
}

/// The file a block is read from.
struct BlockFile<'a> {
    id: FileId,
    syntax: Syntax,
    text: &'a str,
}

fn check_variable(file: &BlockFile<'_>, block: &Block, out: &mut Vec<Diagnostic>) {
    let Some(type_attr) = block.body.attribute("type") else {
        return;
    };
    let parsed = parse_variable_type(&type_attr.expr, file.syntax, file.text);
    match parsed.problem {
        Some(VariableTypeProblem::Quoted { written }) => {
            quoted_type(file, block, &type_attr.expr, written.as_deref(), out);
        }
        Some(VariableTypeProblem::Invalid(errors)) => {
            out.extend(errors.into_iter().map(|error| invalid_type(file.id, error)));
        }
        None => {
            // OpenTofu lints the default whether or not it converts, but only
            // a native one, and only along a type that parsed.
            if file.syntax != Syntax::Native {
                return;
            }
            if let Some(default) = block.body.attribute("default") {
                let mut walk = DefaultWalk {
                    file,
                    path: Vec::new(),
                    out,
                };
                walk.expr(&default.expr, &parsed.constraint.ty, 0);
            }
        }
    }
}

fn invalid_type(file: FileId, error: TypeError) -> Diagnostic {
    Diagnostic::new(
        crate::codes::INVALID_TYPE_CONSTRAINT,
        error.summary,
        Location::new(file, error.range),
    )
    .with_detail(error.detail)
}

/// `type = "…"` in native syntax: OpenTofu evaluates the string, rejects it
/// and uses `any`. `written` is the string's value, `None` for a template.
fn quoted_type(
    file: &BlockFile<'_>,
    block: &Block,
    expr: &Expr,
    written: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
    let subject = Location::new(file.id, expr.range);
    let Some(written) = written else {
        // HCL evaluates the template first: a reference or a call in it is
        // that error instead. Any value it may have is not one tofu-lens
        // computes; OpenTofu rejects every value, so the legacy hint stands
        // for all of them.
        match constant_value(expr, file.text) {
            Err(errors) => out.extend(errors.into_iter().map(|error| {
                Diagnostic::new(
                    crate::codes::QUOTED_TYPE_CONSTRAINT,
                    error.summary,
                    Location::new(file.id, error.range),
                )
                .with_detail(error.detail)
            })),
            Ok(_) => out.push(
                Diagnostic::new(
                    crate::codes::QUOTED_TYPE_CONSTRAINT,
                    LEGACY_SUMMARY,
                    subject,
                )
                .with_detail(LEGACY_DETAIL),
            ),
        }
        return;
    };
    let default = block
        .body
        .attribute("default")
        .map(|attr| static_value(&attr.expr, file.syntax, file.text));
    let converts = |ty: &Type| {
        default
            .as_ref()
            .is_none_or(|value| tofu_eval::convert::convert(value, ty).is_ok())
    };
    let diagnostic = match written {
        "string" => {
            // Exactly what OpenTofu's detail says to do, and what OpenTofu
            // already assumes for `"string"` (it reads `-var` values for it
            // literally, as for `string`): applied unasked, unless the
            // default would then fail to convert.
            let mut fix = Fix::new("Remove the quotes around \"string\"")
                .with_edit(file.id, expr.range, "string");
            if converts(&Type::String) {
                fix = fix.safe();
            }
            Diagnostic::new(
                crate::codes::QUOTED_TYPE_CONSTRAINT,
                QUOTED_SUMMARY,
                subject,
            )
            .with_detail(format!("{QUOTED_DETAIL_START} \"string\"."))
            .with_fix(fix)
        }
        "list" | "map" => {
            // OpenTofu suggests string elements; the unquoted keyword would
            // mean `any` elements. Neither is certain, so the fix is only
            // offered: OpenTofu's suggestion, or `any` elements when only
            // those fit the default.
            let element = |inner| match written {
                "list" => Type::list(inner),
                _ => Type::map(inner),
            };
            let suggested = element(Type::String);
            let replacement = if !converts(&suggested) && converts(&element(Type::Dynamic)) {
                constraint_text(&element(Type::Dynamic))
            } else {
                constraint_text(&suggested)
            };
            Diagnostic::new(crate::codes::QUOTED_TYPE_CONSTRAINT, QUOTED_SUMMARY, subject)
                .with_detail(format!(
                    "{QUOTED_DETAIL_START} \"{written}\" and write {written}(string) instead to explicitly indicate that the {written} elements are strings."
                ))
                .with_fix(
                    Fix::new(format!("Write {replacement} instead of \"{written}\""))
                        .with_edit(file.id, expr.range, replacement),
                )
        }
        other => {
            let mut diagnostic = Diagnostic::new(
                crate::codes::QUOTED_TYPE_CONSTRAINT,
                LEGACY_SUMMARY,
                subject,
            )
            .with_detail(LEGACY_DETAIL);
            // Only offered: OpenTofu takes the type as `any` today.
            let unquoted = other.trim();
            if parse_type_constraint_string(unquoted, TextRange::empty(0)).is_ok() {
                diagnostic = diagnostic.with_fix(
                    Fix::new("Remove the quotes around the type")
                        .with_edit(file.id, expr.range, unquoted),
                );
            }
            diagnostic
        }
    };
    out.push(diagnostic);
}

/// One step of the path OpenTofu prints for a nested object type.
#[derive(Clone, Debug)]
enum PathStep {
    /// `.name`
    Attribute(String),
    /// `["key"]`
    Key(String),
    /// `[0]`
    Index(usize),
    /// Every element of a `for` expression: cty's unknown index, printed as
    /// `[(not yet known)]`.
    EveryElement,
}

/// Walks a default expression along the type it is converted to
/// (`lint.DiscardedObjectConstructorAttrs`).
struct DefaultWalk<'a, 'f> {
    file: &'a BlockFile<'f>,
    path: Vec<PathStep>,
    out: &'a mut Vec<Diagnostic>,
}

impl DefaultWalk<'_, '_> {
    fn expr(&mut self, expr: &Expr, ty: &Type, depth: usize) {
        // HCL keeps parentheses as an expression of their own, which is no
        // constructor: the lint does not look inside.
        if depth > MAX_TYPE_DEPTH || is_parenthesized(expr, self.file.text) {
            return;
        }
        match (ty, &expr.kind) {
            (Type::Object(object), ExprKind::Object(items)) => {
                for item in items {
                    let Some(name) = object_key(&item.key, self.file.text) else {
                        continue;
                    };
                    match object.attribute(&name) {
                        Some(attribute) => {
                            self.nested(PathStep::Attribute(name), &item.value, attribute, depth)
                        }
                        None => self.ignored(&item.key, &name, object, items),
                    }
                }
            }
            (Type::Map(element), ExprKind::Object(items)) => {
                for item in items {
                    if let Some(name) = object_key(&item.key, self.file.text) {
                        self.nested(PathStep::Key(name), &item.value, element, depth);
                    }
                }
            }
            (Type::List(element) | Type::Set(element), ExprKind::Array(items)) => {
                for (index, item) in items.iter().enumerate() {
                    self.nested(PathStep::Index(index), item, element, depth);
                }
            }
            (Type::Tuple(elements), ExprKind::Array(items)) if elements.len() == items.len() => {
                for (index, (item, element)) in items.iter().zip(elements).enumerate() {
                    self.nested(PathStep::Index(index), item, element, depth);
                }
            }
            // `[for …]` makes a list or set, `{for …}` a map; each value is
            // converted to the element type.
            (Type::Map(element), ExprKind::For(for_expr)) if for_expr.kind == ForKind::Object => {
                if let Some(value) = for_expr.body.get(1) {
                    self.nested(PathStep::EveryElement, value, element, depth);
                }
            }
            (Type::List(element) | Type::Set(element), ExprKind::For(for_expr))
                if for_expr.kind == ForKind::Tuple =>
            {
                if let Some(value) = for_expr.body.first() {
                    self.nested(PathStep::EveryElement, value, element, depth);
                }
            }
            _ => {}
        }
    }

    fn nested(&mut self, step: PathStep, expr: &Expr, ty: &Type, depth: usize) {
        self.path.push(step);
        self.expr(expr, ty, depth + 1);
        self.path.pop();
    }

    fn ignored(&mut self, key: &Expr, name: &str, object: &ObjectType, items: &[ObjectItem]) {
        let noun = if self.path.is_empty() {
            "The object type for this variable".to_owned()
        } else {
            format!("The object type for {}", format_path(&self.path))
        };
        let mut detail = format!(
            "{noun} does not include an attribute named {}, so this definition is unused.",
            go_quote(name)
        );
        let suggestion = did_you_mean_by(name, object.names(), |attribute| *attribute);
        if let Some(other) = suggestion {
            detail.push_str(&format!(
                " Did you mean to set attribute {} instead?",
                go_quote(other)
            ));
        }
        let mut diagnostic = Diagnostic::new(
            crate::codes::IGNORED_OBJECT_ATTRIBUTE,
            IGNORED_SUMMARY,
            Location::new(self.file.id, key.range),
        )
        .with_detail(detail);
        if let Some(fix) = suggestion.and_then(|other| self.rename(key, other, items)) {
            diagnostic = diagnostic.with_fix(fix);
        }
        self.out.push(diagnostic);
    }

    /// Renaming the key to the suggested attribute, unless the object already
    /// sets that one (the rename would then be a duplicate key). Only offered:
    /// the suggestion is a guess.
    fn rename(&self, key: &Expr, other: &str, items: &[ObjectItem]) -> Option<Fix> {
        let already_set = items
            .iter()
            .any(|item| object_key(&item.key, self.file.text).as_deref() == Some(other));
        if already_set {
            return None;
        }
        let new_text = match &key.kind {
            ExprKind::Traversal(traversal)
                if traversal.steps.is_empty() && traversal.root_range == key.range =>
            {
                other.to_owned()
            }
            ExprKind::String(_) => format!("\"{other}\""),
            _ => return None,
        };
        Some(
            Fix::new(format!("Set attribute \"{other}\" instead")).with_edit(
                self.file.id,
                key.range,
                new_text,
            ),
        )
    }
}

/// `tfdiags.FormatCtyPath`: `.b`, `["key"]`, `[0]`, `[(not yet known)]`.
fn format_path(path: &[PathStep]) -> String {
    let mut formatted = String::new();
    for step in path {
        match step {
            PathStep::Attribute(name) => {
                formatted.push('.');
                formatted.push_str(name);
            }
            PathStep::Key(key) => {
                formatted.push('[');
                formatted.push_str(&go_quote(key));
                formatted.push(']');
            }
            PathStep::Index(index) => formatted.push_str(&format!("[{index}]")),
            PathStep::EveryElement => formatted.push_str("[(not yet known)]"),
        }
    }
    formatted
}

#[cfg(test)]
mod tests;

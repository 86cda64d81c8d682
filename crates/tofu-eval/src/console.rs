//! One line of `tofu console` in a directory without configuration: the
//! expression read as native syntax, its references checked first (as
//! OpenTofu checks them before evaluating), evaluated, and printed as the
//! console prints a value, or as its errors (`Error: SUMMARY`, a blank
//! line, the detail; several errors separated by a blank line).
//!
//! The references such a console knows are `path.module`, `path.root`
//! (`.`) and `terraform.workspace` (`default`); input variables, locals,
//! `count`, `each` and `self` give OpenTofu's errors, and anything else is
//! reported as a reference to an undeclared resource or an invalid
//! reference, as OpenTofu words them for a module that declares nothing.
//! A module's console (with its variables and locals) is the caller's
//! [`Scope`]; `tofu-lens console` and the differential against the real
//! console share this one.

pub mod bracket_state;

use tofu_syntax::scanner::{ScanMode, Scanner, TokenKind};
use tofu_syntax::text::to_u32;
use tofu_syntax::{
    Call, Expr, ExprKind, Operation, OperationKind, RelativeStep, SplatKind, TextRange,
    TraversalStep,
};

use crate::eval::{evaluate, EvalDiagnostic, Reference, Referenced, Scope};
use crate::functions::Environment;
use crate::printer::format_value;
use crate::types::Type;
use crate::value::Value;
use tofu_syntax::go_text::go_quote;

/// What the console prints for `line`: the value, or its errors as
/// `Error: SUMMARY`, a blank line and the detail.
pub fn console_line(line: &str, environment: &dyn Environment) -> String {
    match console_value(line, environment, &NoModule) {
        Ok(printed) => printed,
        Err(errors) => print_errors(&errors),
    }
}

/// What the console does with one input ([`bracket_state::Read::Run`]):
/// OpenTofu's `repl.Session.Handle`.
#[derive(Debug)]
pub enum Handled {
    /// Print this (an empty input prints an empty line).
    Print(String),
    /// `exit`: the session ends.
    Exit,
    /// The input's errors, in the order the console prints them.
    Errors(Vec<EvalDiagnostic>),
}

/// Handles one input of the console in `module`: nothing, `exit`, `help`
/// or an expression.
pub fn handle(input: &str, environment: &dyn Environment, module: &dyn ConsoleModule) -> Handled {
    match input.trim() {
        "" => Handled::Print(String::new()),
        "exit" => Handled::Exit,
        "help" => Handled::Print(HELP.to_owned()),
        _ => match console_value(input, environment, module) {
            Ok(printed) => Handled::Print(printed),
            Err(errors) => Handled::Errors(errors),
        },
    }
}

/// What `help` prints.
const HELP: &str = "The OpenTofu console allows you to experiment with OpenTofu interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: \"aws_instance.foo.id\" would evaluate
to the ID of \"aws_instance.foo\" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type \"exit\" and hit <enter>, or use Control-C or
Control-D.";

/// The input variables and local values of the module a console runs in.
pub trait ConsoleModule {
    /// The value of `var.NAME` or `local.NAME` (`root` is `var` or
    /// `local`), or `None` when the module declares no such name.
    fn value(&self, root: &str, name: &str) -> Option<Value>;

    /// The declared name of that kind closest to `name`, for "Did you mean".
    fn suggest(&self, root: &str, name: &str) -> Option<String>;
}

/// A directory without configuration.
pub struct NoModule;

impl ConsoleModule for NoModule {
    fn value(&self, _root: &str, _name: &str) -> Option<Value> {
        None
    }

    fn suggest(&self, _root: &str, _name: &str) -> Option<String> {
        None
    }
}

/// What the console prints for `line` in `module`: the printed value, or
/// the errors in the order the console prints them.
pub fn console_value(
    line: &str,
    environment: &dyn Environment,
    module: &dyn ConsoleModule,
) -> Result<String, Vec<EvalDiagnostic>> {
    let source = format!("{PREFIX}{}\n", as_one_expression(line));
    let file = tofu_syntax::parse("console.tf", &source);
    if let Some(error) = file.errors.first() {
        return Err(vec![EvalDiagnostic::new(
            error.summary.clone(),
            error.detail.clone(),
            error.range,
        )]);
    }
    let Some(attribute) = file.body.attributes.first() else {
        return Err(vec![EvalDiagnostic::new(
            "Missing expression",
            "Expected the start of an expression, but found the end of the file.",
            TextRange::empty(to_u32(source.len())),
        )]);
    };
    if let Some(marker) = nested_attribute_splat(&attribute.expr) {
        return Err(vec![EvalDiagnostic::new(
            "Nested splat expression not allowed",
            "A splat expression (*) cannot be used inside another attribute-only splat expression.",
            marker,
        )]);
    }
    let environment = ConsoleEnvironment(environment);
    let scope = ConsoleScope {
        environment: &environment,
        line,
        module,
    };
    let mut reference_errors = Vec::new();
    references(&attribute.expr, &mut Vec::new(), &mut |reference| {
        if let Err(errors) = scope.reference(&reference) {
            reference_errors.extend(errors);
        }
    });
    attribute.expr.walk(&mut |expr| {
        if let ExprKind::Call(call) = &expr.kind {
            reference_errors.extend(provider_function_error(call));
        }
    });
    if !reference_errors.is_empty() {
        return Err(sorted(reference_errors));
    }
    if let Some(typed) = type_function(&attribute.expr, &scope) {
        return typed;
    }
    if contains_type_call(&attribute.expr) {
        return Err(vec![type_misuse()]);
    }
    let evaluation = evaluate(&attribute.expr, &scope);
    if evaluation.diagnostics.is_empty() {
        Ok(format_value(&evaluation.value))
    } else {
        Err(sorted(evaluation.diagnostics))
    }
}

/// The console-only `type(VALUE)` (or `core::type`): the console prints
/// the argument's type (OpenTofu's `typeString`) when the whole input is
/// such a call, or what gives its value on unchanged: a template of that one
/// interpolation, or a `try` whose first argument it is and succeeds.
/// `type(type(V))` is `type`. Used anywhere else, OpenTofu's value of a type
/// would be refused as [`type_misuse`]; the errors OpenTofu would meet
/// first on that value (converting it, indexing it) are not reproduced.
fn type_function(
    expr: &Expr,
    scope: &ConsoleScope<'_>,
) -> Option<Result<String, Vec<EvalDiagnostic>>> {
    match &expr.kind {
        ExprKind::Template(template) => match template.parts.as_slice() {
            [tofu_syntax::TemplatePart::Interpolation { expression, .. }] => {
                type_function(template.expressions.get(*expression)?, scope)
            }
            _ => None,
        },
        ExprKind::Call(call) if call.name == "try" || call.name == "core::try" => {
            let first = call.args.first()?;
            let typed = type_function(first, scope)?;
            typed.is_ok().then_some(typed)
        }
        ExprKind::Call(call) if is_type_call(call) => Some(match call.args.as_slice() {
            [] => Err(vec![EvalDiagnostic::new(
                "Not enough function arguments",
                format!(
                    "Function {} expects 1 argument(s). Missing value for \"value\".",
                    go_quote(&call.name)
                ),
                expr.range,
            )]),
            [argument] => match &argument.kind {
                ExprKind::Call(inner) if is_type_call(inner) && inner.args.len() == 1 => {
                    type_function(argument, scope)?.map(|_| "type".to_owned())
                }
                _ if contains_type_call(argument) => Err(vec![type_misuse()]),
                _ => {
                    let evaluation = evaluate(argument, scope);
                    if evaluation.diagnostics.is_empty() {
                        let mut printed = String::new();
                        write_type(&evaluation.value.ty(), &mut printed, 0);
                        Ok(printed)
                    } else {
                        Err(sorted(evaluation.diagnostics))
                    }
                }
            },
            _ => Err(vec![EvalDiagnostic::new(
                "Too many function arguments",
                format!(
                    "Function {} expects only 1 argument(s).",
                    go_quote(&call.name)
                ),
                expr.range,
            )]),
        }),
        _ => None,
    }
}

fn is_type_call(call: &Call) -> bool {
    (call.name == "type" || call.name == "core::type") && !call.expand_final
}

fn contains_type_call(expr: &Expr) -> bool {
    let mut found = false;
    expr.walk(&mut |expr| {
        found |= matches!(&expr.kind, ExprKind::Call(call) if is_type_call(call));
    });
    found
}

/// What the console says when the value of `type()` is used inside an
/// expression. OpenTofu gives it no place in the input ([`has_source`]).
fn type_misuse() -> EvalDiagnostic {
    EvalDiagnostic::new(
        TYPE_MISUSE,
        "The console-only \"type\" function cannot be used as part of an expression.",
        TextRange::empty(0),
    )
}

const TYPE_MISUSE: &str = "Invalid use of type function";

/// Whether OpenTofu prints the error with its place in the input (`on
/// <console-input> line N`): all but the misuse of `type()`, which it
/// reports without one.
pub fn has_source(error: &EvalDiagnostic) -> bool {
    error.summary != TYPE_MISUSE
}

/// OpenTofu's `writeType`: structural types over several lines, indented
/// by four spaces a level.
fn write_type(ty: &Type, out: &mut String, indent: usize) {
    let spaces = |level: usize| "    ".repeat(level);
    match ty {
        Type::Object(object) if object.is_empty() => out.push_str("object({})"),
        Type::Object(object) => {
            out.push_str("object({\n");
            for (name, attribute) in object.attributes() {
                out.push_str(&spaces(indent + 1));
                out.push_str(name);
                out.push_str(": ");
                write_type(attribute, out, indent + 1);
                out.push_str(",\n");
            }
            out.push_str(&spaces(indent));
            out.push_str("})");
        }
        Type::Tuple(elements) if elements.is_empty() => out.push_str("tuple([])"),
        Type::Tuple(elements) => {
            out.push_str("tuple([\n");
            for element in elements {
                out.push_str(&spaces(indent + 1));
                write_type(element, out, indent + 1);
                out.push_str(",\n");
            }
            out.push_str(&spaces(indent));
            out.push_str("])");
        }
        Type::List(element) | Type::Set(element) | Type::Map(element) => {
            out.push_str(match ty {
                Type::List(_) => "list(",
                Type::Set(_) => "set(",
                _ => "map(",
            });
            let structural = element.is_object() || element.is_tuple();
            if structural {
                out.push('\n');
                out.push_str(&spaces(indent + 1));
                write_type(element, out, indent + 1);
                out.push_str(",\n");
                out.push_str(&spaces(indent));
            } else {
                write_type(element, out, indent);
            }
            out.push(')');
        }
        primitive => out.push_str(&primitive.friendly_name()),
    }
}

/// The line is parsed as the value of an attribute.
const PREFIX: &str = "x = ";

/// HCL's parser refuses a `.*` inside an attribute-only splat (`a.*.b.*`:
/// the second follows the first through attribute steps only), which
/// hcl-edit reads: the range of the first such `*`.
fn nested_attribute_splat(expr: &Expr) -> Option<TextRange> {
    let mut found = None;
    expr.walk(&mut |expr| {
        let shapes: Vec<StepShape> = match &expr.kind {
            ExprKind::Traversal(traversal) => traversal
                .steps
                .iter()
                .map(|step| match step {
                    TraversalStep::Attr { .. } => StepShape::Attribute,
                    TraversalStep::Splat {
                        kind: SplatKind::Attribute,
                        range,
                    } => StepShape::AttributeSplat(*range),
                    _ => StepShape::Other,
                })
                .collect(),
            ExprKind::Operation(Operation {
                kind: OperationKind::Steps(steps),
                ..
            }) => steps
                .iter()
                .map(|step| match step {
                    RelativeStep::Attr { .. } | RelativeStep::LegacyIndex { .. } => {
                        StepShape::Attribute
                    }
                    RelativeStep::Splat {
                        kind: SplatKind::Attribute,
                        range,
                    } => StepShape::AttributeSplat(*range),
                    _ => StepShape::Other,
                })
                .collect(),
            _ => return,
        };
        let mut in_attribute_splat = false;
        for shape in shapes {
            match shape {
                StepShape::AttributeSplat(range) if in_attribute_splat => {
                    let star = TextRange::new(range.end.saturating_sub(1), range.end);
                    found = found.or(Some(star));
                    return;
                }
                StepShape::AttributeSplat(_) => in_attribute_splat = true,
                StepShape::Attribute => {}
                StepShape::Other => in_attribute_splat = false,
            }
        }
    });
    found
}

/// What [`nested_attribute_splat`] tells steps apart by.
enum StepShape {
    /// `.name` (or `.0`), which an attribute-only splat takes in.
    Attribute,
    /// `.*`, with its range.
    AttributeSplat(TextRange),
    /// Anything else, which ends an attribute-only splat.
    Other,
}

/// The errors in the order the console prints them: by where their subject
/// starts, then ends (OpenTofu's `tfdiags` sort, stable).
fn sorted(mut errors: Vec<EvalDiagnostic>) -> Vec<EvalDiagnostic> {
    errors.sort_by_key(|error| (error.subject.start, error.subject.end));
    errors
}

/// The errors as `Error: SUMMARY`, a blank line and the detail.
fn print_errors(errors: &[EvalDiagnostic]) -> String {
    errors
        .iter()
        .map(|error| format!("Error: {}\n\n{}", error.summary, error.detail))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The caller's files, with the console's own functions.
struct ConsoleEnvironment<'a>(&'a dyn Environment);

impl Environment for ConsoleEnvironment<'_> {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, crate::functions::FileError> {
        self.0.read_file(path)
    }

    fn file_exists(&self, path: &str) -> Result<bool, crate::functions::FileError> {
        self.0.file_exists(path)
    }

    fn read_dir(
        &self,
        path: &str,
    ) -> Result<Vec<crate::functions::DirEntry>, crate::functions::FileError> {
        self.0.read_dir(path)
    }

    fn console_mode(&self) -> bool {
        true
    }

    fn working_directory(&self) -> Option<String> {
        self.0.working_directory()
    }

    fn home_directory(&self) -> Option<String> {
        self.0.home_directory()
    }

    fn per_run(&self) -> Option<&dyn crate::functions::PerRun> {
        self.0.per_run()
    }
}

/// The console of a directory without configuration.
struct ConsoleScope<'a> {
    environment: &'a dyn Environment,
    line: &'a str,
    module: &'a dyn ConsoleModule,
}

impl Scope for ConsoleScope<'_> {
    fn reference(&self, reference: &Reference<'_>) -> Result<Referenced, Vec<EvalDiagnostic>> {
        let first_attribute = match reference.steps.first() {
            Some(TraversalStep::Attr { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let whole = reference
            .steps
            .first()
            .map_or(reference.root_range, |step| {
                reference.root_range.cover(step_range(step))
            });
        let error =
            |summary: &str, detail: String| Err(vec![EvalDiagnostic::new(summary, detail, whole)]);
        let known = |value: &str| {
            Ok(Referenced {
                value: Value::string(value),
                n_steps: 1,
            })
        };
        if let (root @ ("var" | "local"), Some(name)) = (reference.root, first_attribute) {
            if let Some(value) = self.module.value(root, name) {
                return Ok(Referenced { value, n_steps: 1 });
            }
        }
        let suggestion = |root: &str, name: &str| {
            self.module
                .suggest(root, name)
                .map(|found| format!(" Did you mean {}?", go_quote(&found)))
                .unwrap_or_default()
        };
        match (reference.root, first_attribute) {
            ("path", Some("module" | "root")) => known("."),
            ("terraform", Some("workspace")) => known("default"),
            ("var", Some(name)) => error(
                "Reference to undeclared input variable",
                match self.module.suggest("var", name) {
                    Some(found) => format!(
                        "An input variable with the name {} has not been declared. Did you mean {}?",
                        go_quote(name),
                        go_quote(&found)
                    ),
                    None => format!(
                        "An input variable with the name {} has not been declared. This variable can be declared with a variable {} {{}} block.",
                        go_quote(name),
                        go_quote(name)
                    ),
                },
            ),
            ("local", Some(name)) => error(
                "Reference to undeclared local value",
                format!(
                    "A local value with the name {} has not been declared.{}",
                    go_quote(name),
                    suggestion("local", name)
                ),
            ),
            ("count", _) => error(
                "Reference to \"count\" in non-counted context",
                "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.".to_owned(),
            ),
            ("each", _) => error(
                "Reference to \"each\" in context without for_each",
                "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.".to_owned(),
            ),
            ("self", _) => error(
                "Invalid \"self\" reference",
                "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.".to_owned(),
            ),
            (resource_type, Some(name)) => error(
                "Reference to undeclared resource",
                format!(
                    "There is no managed resource {} {} definition in the root module.",
                    go_quote(resource_type),
                    go_quote(name)
                ),
            ),
            _ => error(
                "Invalid reference",
                "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.".to_owned(),
            ),
        }
    }

    fn environment(&self) -> &dyn Environment {
        self.environment
    }

    /// HCL's `<console-input>:LINE,COLUMN-COLUMN` (or
    /// `LINE,COLUMN-LINE,COLUMN` across lines), columns counted in
    /// characters from 1.
    fn describe_range(&self, range: TextRange) -> String {
        let (start_line, start_column) = input_position(self.line, range.start);
        let (end_line, end_column) = input_position(self.line, range.end);
        if start_line == end_line {
            format!("<console-input>:{start_line},{start_column}-{end_column}")
        } else {
            format!("<console-input>:{start_line},{start_column}-{end_line},{end_column}")
        }
    }
}

/// The line (from 1) of the console's input an error is on, as `on
/// <console-input> line N` names it.
pub fn input_line(input: &str, error: &EvalDiagnostic) -> usize {
    input_position(input, error.subject.start).0
}

/// The line and column (both from 1, the column in characters) in `input`
/// of `offset`, an offset in the parsed source (after [`PREFIX`]).
fn input_position(input: &str, offset: u32) -> (usize, usize) {
    let at = (offset as usize)
        .saturating_sub(PREFIX.len())
        .min(input.len());
    let before = input.get(..at).unwrap_or(input);
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let line = before.matches('\n').count() + 1;
    let column = before
        .get(line_start..)
        .map_or(0, |text| text.chars().count())
        + 1;
    (line, column)
}

/// The console's input as HCL's `ParseExpression` reads it, for a parser
/// of configuration files: an expression on its own ignores line breaks
/// outside its brackets, where an attribute would end at them; those line
/// breaks, and comments there, become spaces (the byte offsets stay).
/// Inside brackets both read line breaks alike (an object's separate its
/// items).
fn as_one_expression(input: &str) -> String {
    let mut depth = 0i64;
    let mut blanks = Vec::new();
    for token in Scanner::new(input, ScanMode::Forgiving) {
        match token.kind {
            TokenKind::OBrace
            | TokenKind::OBrack
            | TokenKind::OParen
            | TokenKind::TemplateInterp
            | TokenKind::TemplateControl => depth += 1,
            TokenKind::CBrace
            | TokenKind::CBrack
            | TokenKind::CParen
            | TokenKind::TemplateSeqEnd => depth -= 1,
            TokenKind::Newline | TokenKind::Comment if depth <= 0 => blanks.push(token.range),
            _ => {}
        }
    }
    if blanks.is_empty() {
        return input.to_owned();
    }
    let mut bytes = input.as_bytes().to_vec();
    for range in blanks {
        if let Some(blank) = bytes.get_mut(range.start as usize..range.end as usize) {
            blank.fill(b' ');
        }
    }
    // Only whole tokens became spaces, so the text is still UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|_| input.to_owned())
}

/// What the console says about a provider's function: no provider is
/// configured, and OpenTofu reports that as a bug of its own.
fn provider_function_error(call: &Call) -> Option<EvalDiagnostic> {
    let rest = call.name.strip_prefix("provider::")?;
    let n_parts = rest.split("::").count();
    Some(if n_parts == 2 || n_parts == 3 {
        EvalDiagnostic::new(
            "BUG: Uninitialized function provider",
            format!(
                "Provider function {} has not been tracked properly",
                go_quote(&call.name)
            ),
            call.name_range,
        )
    } else {
        EvalDiagnostic::new(
            "Unable to parse provider function",
            format!(
                "invalid provider function {}: expected provider::<name>::<function> or provider::<name>::<alias>::<function>",
                go_quote(&call.name)
            ),
            call.name_range,
        )
    })
}

fn step_range(step: &TraversalStep) -> TextRange {
    match step {
        TraversalStep::Attr { range, .. }
        | TraversalStep::Index { range, .. }
        | TraversalStep::Splat { range, .. } => *range,
    }
}

/// Every reference of `expr` in source order, as HCL's `Variables` finds
/// them: not the names an enclosing `for` binds, not bare object keys.
pub(crate) fn references<'e>(
    expr: &'e Expr,
    bound: &mut Vec<&'e str>,
    found: &mut dyn FnMut(Reference<'e>),
) {
    match &expr.kind {
        ExprKind::Traversal(traversal) => {
            if !bound.contains(&traversal.root.as_str()) {
                let n_static = crate::eval::static_length(&traversal.steps);
                found(Reference {
                    root: &traversal.root,
                    root_range: traversal.root_range,
                    steps: traversal.steps.get(..n_static).unwrap_or_default(),
                });
            }
            for step in &traversal.steps {
                if let TraversalStep::Index { key, .. } = step {
                    references(key, bound, found);
                }
            }
        }
        ExprKind::Object(items) => {
            for item in items {
                let bare = matches!(&item.key.kind, ExprKind::Traversal(traversal)
                    if traversal.steps.is_empty() && traversal.root_range == item.key.range);
                if !bare {
                    references(&item.key, bound, found);
                }
                references(&item.value, bound, found);
            }
        }
        ExprKind::For(for_expr) => {
            references(&for_expr.collection, bound, found);
            let n_before = bound.len();
            bound.extend(for_expr.names.iter().map(|(name, _)| name.as_str()));
            for part in &for_expr.body {
                references(part, bound, found);
            }
            bound.truncate(n_before);
        }
        ExprKind::Template(template) => {
            for part in &template.expressions {
                references(part, bound, found);
            }
        }
        ExprKind::Array(items) => {
            for item in items {
                references(item, bound, found);
            }
        }
        ExprKind::Operation(operation) => {
            for operand in &operation.operands {
                references(operand, bound, found);
            }
        }
        ExprKind::Call(call) => {
            for argument in &call.args {
                references(argument, bound, found);
            }
        }
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
    }
}

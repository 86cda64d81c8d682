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
    let source = format!("{PREFIX}{line}\n");
    let file = tofu_syntax::parse("console.tf", &source);
    let Some(attribute) = file.body.attributes.first().filter(|_| !file.has_errors()) else {
        return Err(vec![EvalDiagnostic::new(
            "(syntax not read by tofu-eval yet)",
            "",
            TextRange::empty(0),
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
    let evaluation = evaluate(&attribute.expr, &scope);
    if evaluation.diagnostics.is_empty() {
        Ok(format_value(&evaluation.value))
    } else {
        Err(sorted(evaluation.diagnostics))
    }
}

/// The console-only `type(VALUE)`: the console prints the argument's type
/// (OpenTofu's `typeString`). Only the whole line being one such call is
/// read; anywhere else the name is unknown here (OpenTofu says "Invalid
/// use of type function").
fn type_function(
    expr: &Expr,
    scope: &ConsoleScope<'_>,
) -> Option<Result<String, Vec<EvalDiagnostic>>> {
    let ExprKind::Call(call) = &expr.kind else {
        return None;
    };
    if call.name != "type" || call.expand_final {
        return None;
    }
    let [argument] = call.args.as_slice() else {
        return None;
    };
    let evaluation = evaluate(argument, scope);
    if !evaluation.diagnostics.is_empty() {
        return Some(Err(sorted(evaluation.diagnostics)));
    }
    let mut printed = String::new();
    write_type(&evaluation.value.ty(), &mut printed, 0);
    Some(Ok(printed))
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

    /// HCL's `<console-input>:LINE,COLUMN-COLUMN`, columns counted in
    /// characters from 1.
    fn describe_range(&self, range: TextRange) -> String {
        let offset = |at: u32| (at as usize).saturating_sub(PREFIX.len());
        let column = |at: usize| {
            self.line
                .get(..at.min(self.line.len()))
                .map_or(at, |before| before.chars().count())
                + 1
        };
        format!(
            "<console-input>:1,{}-{}",
            column(offset(range.start)),
            column(offset(range.end))
        )
    }
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

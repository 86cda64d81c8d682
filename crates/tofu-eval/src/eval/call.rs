//! Function calls: HCL's `FunctionCallExpr.Value`. The name is looked up
//! first, a final `...` argument is expanded, the number of arguments is
//! checked, and only then are the arguments evaluated and converted, each
//! error reported; the function runs when there was none.
//!
//! A `provider::` function is the scope's (`functions::provider`): its
//! signature checked as a built-in's, its call made through the
//! environment.
//!
//! `try` and `can` take their arguments unevaluated (cty's expression
//! closures, `ext/tryfunc`): here they evaluate them and catch the errors,
//! `try`'s message listing them with their ranges as the scope names them.

use tofu_syntax::{Call, Expr, ExprKind, OperationKind, TemplatePart, TextRange};

use super::{Diagnostics, EvalDiagnostic, Evaluator, MAX_TEMPLATE_DEPTH};
use crate::convert::convert;
use crate::functions::{
    argument_error, arity_error, call_error, lookup, CallError, ErrorSubject, FunctionError,
    ProviderFunction,
};
use crate::types::Type;
use crate::value::{Marks, Value};

/// An argument as the function sees it.
enum Argument<'a> {
    Written(&'a Expr),
    /// An element of the expanded final argument (its range is that
    /// argument's).
    Expanded(Value, TextRange),
}

impl Argument<'_> {
    /// Where an error about the argument points: HCL's `StartRange` of the
    /// argument's expression.
    fn range(&self) -> TextRange {
        match self {
            Argument::Written(expr) => start_range(expr),
            Argument::Expanded(_, range) => *range,
        }
    }
}

/// HCL's `Expression.StartRange`: the inside of a quoted literal (just past
/// it for an empty one, as HCL's empty template gives), the opening bracket
/// of a tuple or object, a call's name and parenthesis, the start of an
/// operator's first operand or of a template's first interpolation, and
/// otherwise the whole expression. Recorded from OpenTofu 1.12.6's
/// "Invalid function argument" subjects.
fn start_range(expr: &Expr) -> TextRange {
    let range = expr.range;
    let first_byte = TextRange::new(range.start, range.start.saturating_add(1).min(range.end));
    match &expr.kind {
        ExprKind::String(text) if text.is_empty() => {
            TextRange::new(range.end, range.end.saturating_add(1))
        }
        ExprKind::String(_) if range.len() >= 2 => {
            TextRange::new(range.start.saturating_add(1), range.end.saturating_sub(1))
        }
        ExprKind::Array(_) | ExprKind::Object(_) => first_byte,
        ExprKind::Call(call) => TextRange::new(
            call.name_range.start,
            call.name_range.end.saturating_add(1).min(range.end),
        ),
        ExprKind::Operation(operation)
            if matches!(
                operation.kind,
                OperationKind::Binary(_) | OperationKind::Conditional
            ) =>
        {
            operation.operands.first().map_or(range, start_range)
        }
        ExprKind::Template(template) => match template.parts.first() {
            Some(TemplatePart::Interpolation { expression, .. }) => template
                .expressions
                .get(*expression)
                .map_or(range, start_range),
            _ => range,
        },
        _ => range,
    }
}

impl Evaluator<'_> {
    pub(super) fn call(&mut self, expr: &Expr, call: &Call) -> (Value, Diagnostics) {
        if call.name.starts_with("provider::") {
            return self.provider_function(expr, call);
        }
        let plain_name = call.name.strip_prefix("core::").unwrap_or(&call.name);
        if plain_name == "plantimestamp" && self.scope.environment().console_mode() {
            // The console has no plan: OpenTofu leaves the function out.
            let detail = if call.name.starts_with("core::") {
                "There is no builtin (core::) function named \"plantimestamp\".".to_owned()
            } else {
                "There is no function named \"plantimestamp\".".to_owned()
            };
            let error = CallError {
                summary: "Call to unknown function".to_owned(),
                detail,
                subject: ErrorSubject::Name,
            };
            return (
                Value::dynamic_unknown(),
                vec![self.call_diagnostic(expr, call, &[], error)],
            );
        }
        let function = match lookup(&call.name, self.scope.suggests_function_names()) {
            Ok(function) => function,
            Err(error) => {
                return (
                    Value::dynamic_unknown(),
                    vec![self.call_diagnostic(expr, call, &[], error)],
                )
            }
        };
        let mut diagnostics = Vec::new();
        let mut arguments: Vec<Argument<'_>> = call.args.iter().map(Argument::Written).collect();
        if call.expand_final {
            let Some(Argument::Written(last)) = arguments.pop() else {
                return (Value::dynamic_unknown(), diagnostics);
            };
            match self.expand(expr, last) {
                Ok(expanded) => arguments.extend(expanded),
                Err(expand_diagnostics) => return (Value::dynamic_unknown(), expand_diagnostics),
            }
        }
        if let Some(error) = function.arity_error(arguments.len()) {
            diagnostics.push(self.call_diagnostic(expr, call, &arguments, error));
            return (Value::dynamic_unknown(), diagnostics);
        }
        if matches!(plain_name, "try" | "can") {
            return self.try_or_can(expr, call, plain_name, &arguments);
        }
        if matches!(plain_name, "templatestring" | "templatefile") {
            return self.template_function(expr, call, &function, &arguments);
        }
        let converted =
            self.converted_arguments(expr, call, &function, &arguments, &mut diagnostics);
        if !diagnostics.is_empty() {
            return (Value::dynamic_unknown(), diagnostics);
        }
        match function.call_converted(converted, self.scope.environment()) {
            Ok(value) => (value, diagnostics),
            Err(error) => {
                diagnostics.push(self.call_diagnostic(expr, call, &arguments, error));
                (Value::dynamic_unknown(), diagnostics)
            }
        }
    }

    /// A provider's function. Without a signature (no schema, or a
    /// function the schema does not declare: OpenTofu's validate-time
    /// placeholder) any arguments give an unknown result, their own errors
    /// reported. With one, HCL's steps as for a built-in function
    /// (arity, each argument converted, then cty's call: nulls refused,
    /// an unknown argument makes the result unknown of the return type),
    /// and the call itself goes through the environment (see
    /// `functions::provider`). Whether the module may call it is the
    /// caller's business (it reports that before evaluating, as OpenTofu
    /// does).
    fn provider_function(&mut self, expr: &Expr, call: &Call) -> (Value, Diagnostics) {
        let Some(function) = self.scope.provider_function(&call.name) else {
            let mut diagnostics = Vec::new();
            for argument in &call.args {
                let (_, argument_diagnostics) = self.value(argument);
                diagnostics.extend(argument_diagnostics);
            }
            return (Value::dynamic_unknown(), diagnostics);
        };
        let mut diagnostics = Vec::new();
        let mut arguments: Vec<Argument<'_>> = call.args.iter().map(Argument::Written).collect();
        if call.expand_final {
            let Some(Argument::Written(last)) = arguments.pop() else {
                return (Value::dynamic_unknown(), diagnostics);
            };
            match self.expand(expr, last) {
                Ok(expanded) => arguments.extend(expanded),
                Err(expand_diagnostics) => return (Value::dynamic_unknown(), expand_diagnostics),
            }
        }
        let names: Vec<&str> = function
            .parameters
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        if let Some(error) = arity_error(
            &call.name,
            &names,
            function.variadic.is_some(),
            arguments.len(),
        ) {
            diagnostics.push(self.call_diagnostic(expr, call, &arguments, error));
            return (Value::dynamic_unknown(), diagnostics);
        }
        let mut converted = Vec::with_capacity(arguments.len());
        for (index, argument) in arguments.iter().enumerate() {
            let value = self.argument_value(argument, &mut diagnostics);
            let Some(parameter) = function.parameter_at(index) else {
                converted.push(value);
                continue;
            };
            match convert(&value, &parameter.ty) {
                Ok(value) => converted.push(value),
                Err(error) => {
                    let error = argument_error(&parameter.name, index, &error.message);
                    diagnostics.push(self.call_diagnostic(expr, call, &arguments, error));
                    converted.push(value);
                }
            }
        }
        if !diagnostics.is_empty() {
            return (Value::dynamic_unknown(), diagnostics);
        }
        match self.run_provider_function(&function, converted) {
            Ok(value) => (value, diagnostics),
            Err(error) => {
                let parameter = error
                    .argument
                    .and_then(|index| function.parameter_at(index))
                    .map(|parameter| parameter.name.as_str());
                let n_arguments = arguments.len();
                let error = call_error(&call.name, parameter, error, n_arguments);
                diagnostics.push(self.call_diagnostic(expr, call, &arguments, error));
                (Value::dynamic_unknown(), diagnostics)
            }
        }
    }

    /// cty's `Function.Call` of a provider function on converted arguments
    /// (`AllowMarked` and `AllowDynamicType` false for every parameter),
    /// with the gRPC client's rule that an argument not wholly known is
    /// not sent.
    fn run_provider_function(
        &self,
        function: &ProviderFunction,
        arguments: Vec<Value>,
    ) -> Result<Value, FunctionError> {
        let mut marks = Marks::default();
        for (index, argument) in arguments.iter().enumerate() {
            let allow_null = function
                .parameter_at(index)
                .is_some_and(|parameter| parameter.allow_null);
            if argument.is_null() && !allow_null {
                return Err(FunctionError::argument(index, "argument must not be null"));
            }
            if argument.ty() == Type::Dynamic {
                let marks = arguments.iter().fold(Marks::default(), |marks, argument| {
                    marks.union(argument.deep_marks())
                });
                return Ok(Value::dynamic_unknown().with_marks(marks));
            }
        }
        let mut unmarked = Vec::with_capacity(arguments.len());
        let mut any_unknown = false;
        for (index, argument) in arguments.into_iter().enumerate() {
            let (argument, argument_marks) = argument.unmark_deep();
            marks = marks.union(argument_marks);
            let allow_unknown = function
                .parameter_at(index)
                .is_some_and(|parameter| parameter.allow_unknown);
            if !argument.is_wholly_known() && !allow_unknown {
                any_unknown = true;
            }
            unmarked.push(argument);
        }
        let unknown = || Value::unknown(function.return_type.clone()).with_marks(marks);
        if any_unknown || unmarked.iter().any(|argument| !argument.is_wholly_known()) {
            return Ok(unknown());
        }
        match self
            .scope
            .environment()
            .call_provider_function(function, &unmarked)
        {
            None => Ok(unknown()),
            Some(Ok(value)) => Ok(value.with_marks(marks)),
            Some(Err(error)) => Err(error),
        }
    }

    /// Each argument evaluated and converted to its parameter's type, its
    /// errors (evaluation, then conversion) added in order; an argument
    /// that does not convert stays as it was.
    /// An argument's value: a written one evaluated (its errors into
    /// `diagnostics`), an expanded element as it is.
    fn argument_value(&mut self, argument: &Argument<'_>, diagnostics: &mut Diagnostics) -> Value {
        match argument {
            Argument::Written(argument) => {
                let (value, argument_diagnostics) = self.value(argument);
                diagnostics.extend(argument_diagnostics);
                value
            }
            Argument::Expanded(value, _) => value.clone(),
        }
    }

    fn converted_arguments(
        &mut self,
        expr: &Expr,
        call: &Call,
        function: &crate::functions::Function<'_>,
        arguments: &[Argument<'_>],
        diagnostics: &mut Diagnostics,
    ) -> Vec<Value> {
        let mut converted = Vec::with_capacity(arguments.len());
        for (index, argument) in arguments.iter().enumerate() {
            let value = self.argument_value(argument, diagnostics);
            match function.convert_argument(index, &value) {
                Ok(value) => converted.push(value),
                Err(error) => {
                    diagnostics.push(self.call_diagnostic(expr, call, arguments, error));
                    converted.push(value);
                }
            }
        }
        converted
    }

    /// `f(a, list...)`: the elements of the last argument.
    fn expand<'a>(
        &mut self,
        expr: &Expr,
        last: &'a Expr,
    ) -> Result<Vec<Argument<'a>>, Diagnostics> {
        let (value, diagnostics) = self.value(last);
        if !diagnostics.is_empty() {
            return Err(diagnostics);
        }
        let ty = value.ty();
        let invalid = |detail: &str| {
            Err(vec![EvalDiagnostic::new(
                "Invalid expanding argument value",
                detail,
                last.range,
            )
            .in_context(expr.range)])
        };
        let sequence = ty == Type::Dynamic || ty.is_tuple() || ty.is_list() || ty.is_set();
        if !sequence {
            return invalid(
                "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
            );
        }
        if value.is_null() {
            return invalid("The expanding argument (indicated by ...) must not be null.");
        }
        if ty == Type::Dynamic || !value.is_known() {
            return Err(Vec::new());
        }
        let (value, marks) = value.unmark();
        Ok(value
            .items()
            .unwrap_or_default()
            .iter()
            .map(|item| Argument::Expanded(item.clone().with_marks(marks), last.range))
            .collect())
    }

    /// `try` and `can`, whose arguments are evaluated here.
    fn try_or_can(
        &mut self,
        expr: &Expr,
        call: &Call,
        name: &str,
        arguments: &[Argument<'_>],
    ) -> (Value, Diagnostics) {
        let mut caught = Vec::new();
        for argument in arguments {
            let (value, argument_diagnostics) = match argument {
                Argument::Written(argument) => self.value(argument),
                Argument::Expanded(value, _) => (value.clone(), Vec::new()),
            };
            if name == "can" {
                let result = if !argument_diagnostics.is_empty() {
                    Value::bool(false)
                } else if !value.is_wholly_known() {
                    Value::unknown(Type::Bool)
                } else {
                    Value::bool(true)
                };
                return (result, Vec::new());
            }
            if argument_diagnostics.is_empty() {
                if !value.is_wholly_known() {
                    return (Value::dynamic_unknown(), Vec::new());
                }
                return (value, Vec::new());
            }
            caught.extend(argument_diagnostics);
        }
        let message = if arguments.is_empty() {
            "at least one argument is required".to_owned()
        } else {
            let mut message = "no expression succeeded:\n".to_owned();
            for diagnostic in &caught {
                message.push_str(&format!(
                    "- {} (at {})\n  {}\n",
                    diagnostic.summary,
                    self.scope.describe_range(diagnostic.subject),
                    diagnostic.detail
                ));
            }
            message.push_str("\nAt least one expression must produce a successful result");
            message
        };
        let error = CallError {
            summary: "Error in function call".to_owned(),
            detail: format!(
                "Call to function {} failed: {message}.",
                tofu_syntax::go_text::go_quote(&call.name)
            ),
            subject: ErrorSubject::Call,
        };
        (
            Value::dynamic_unknown(),
            vec![self.call_diagnostic(expr, call, arguments, error)],
        )
    }

    /// `templatestring(data, vars)` and `templatefile(path, vars)`: the
    /// template (the string, or the file read as `file` reads it) rendered
    /// with only `vars` in scope (OpenTofu's `renderTemplate`): vars must be
    /// a map or object of identifiers, every name the template reads must
    /// be one of them (for a file, the message says where it is read), and
    /// the template's own errors are rolled into one "Error in function
    /// call" as HCL prints a list of diagnostics. Templates nested deeper
    /// than [`MAX_TEMPLATE_DEPTH`] are unknown (a file that renders itself),
    /// where OpenTofu stops after 1,024 levels with an error.
    fn template_function(
        &mut self,
        expr: &Expr,
        call: &Call,
        function: &crate::functions::Function<'_>,
        arguments: &[Argument<'_>],
    ) -> (Value, Diagnostics) {
        let mut diagnostics = Vec::new();
        let values = self.converted_arguments(expr, call, function, arguments, &mut diagnostics);
        let [source, vars] = values.as_slice() else {
            return (Value::dynamic_unknown(), diagnostics);
        };
        if !diagnostics.is_empty() {
            return (Value::dynamic_unknown(), diagnostics);
        }
        let parameters = function.signature.parameters.iter().map(|p| p.name);
        for (index, (value, parameter)) in [source, vars].into_iter().zip(parameters).enumerate() {
            if value.is_null() {
                let error = CallError {
                    summary: "Invalid function argument".to_owned(),
                    detail: format!(
                        "Invalid value for {} parameter: argument must not be null.",
                        tofu_syntax::go_text::go_quote(parameter)
                    ),
                    subject: ErrorSubject::Argument(index),
                };
                diagnostics.push(self.call_diagnostic(expr, call, arguments, error));
                return (Value::dynamic_unknown(), diagnostics);
            }
        }
        if !source.is_known() || !vars.is_known() || self.template_depth >= MAX_TEMPLATE_DEPTH {
            return (Value::dynamic_unknown(), diagnostics);
        }
        let (source, marks) = source.clone().unmark();
        let source = source.as_str().unwrap_or_default();
        let fail = |evaluator: &Self, error: CallError| {
            (
                Value::dynamic_unknown(),
                vec![evaluator.call_diagnostic(expr, call, arguments, error)],
            )
        };
        let call_error = |message: String| CallError {
            summary: "Error in function call".to_owned(),
            detail: format!(
                "Call to function {} failed: {message}.",
                tofu_syntax::go_text::go_quote(&call.name)
            ),
            subject: ErrorSubject::Call,
        };
        let vars_error = |message: String| CallError {
            summary: "Invalid function argument".to_owned(),
            detail: format!("Invalid value for \"vars\" parameter: {message}."),
            subject: ErrorSubject::Argument(1),
        };
        // Where the template comes from: its name in messages (`None` for
        // templatestring's string) and its text.
        let (file_name, content) = if function.signature.name == "templatefile" {
            match crate::functions::file_text(self.scope.environment(), source, marks) {
                Ok(Some(content)) => (Some(source), content),
                Ok(None) => return (Value::dynamic_unknown(), diagnostics),
                Err(error) => return fail(self, function.call_error(error, arguments.len())),
            }
        } else {
            (None, source.to_owned())
        };
        let Ok(template) = tofu_syntax::parse_template(&content) else {
            return fail(
                self,
                call_error("the template could not be read".to_owned()),
            );
        };
        let Some(entries) = vars
            .entries()
            .filter(|_| vars.ty().is_map() || vars.ty().is_object())
        else {
            return fail(
                self,
                vars_error("invalid vars value: must be a map".to_owned()),
            );
        };
        if let Some(name) = entries.keys().find(|name| !is_identifier(name)) {
            return fail(
                self,
                vars_error(format!(
                    "invalid template variable name {}: must start with a letter, followed by zero or more letters, digits, and underscores",
                    tofu_syntax::go_text::go_quote(name)
                )),
            );
        }
        let mut missing = None;
        crate::console::references(&template, &mut Vec::new(), &mut |reference| {
            if missing.is_none() && !entries.contains_key(reference.root) {
                missing = Some((reference.root.to_owned(), reference.root_range));
            }
        });
        if let Some((name, range)) = missing {
            let referenced = match file_name {
                Some(file_name) => format!(
                    ", referenced at {}",
                    template_range_text(file_name, &content, range)
                ),
                None => String::new(),
            };
            return fail(
                self,
                vars_error(format!(
                    "vars map does not contain key {}{referenced}",
                    tofu_syntax::go_text::go_quote(&name)
                )),
            );
        }
        let bindings: Vec<(String, Value)> = entries
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let mut inner = Evaluator::new(self.scope);
        inner.depth = self.depth;
        inner.template_depth = self.template_depth + 1;
        let (value, template_diagnostics) =
            inner.with_bindings(bindings, |evaluator| evaluator.value(&template));
        let Some(first) = template_diagnostics.first() else {
            return (value.with_marks(marks), Vec::new());
        };
        let mut message = format!(
            "{}: {}; {}",
            template_range_text(file_name.unwrap_or("NoFileNeeded"), &content, first.subject),
            first.summary,
            first.detail
        );
        if template_diagnostics.len() > 1 {
            message.push_str(&format!(
                ", and {} other diagnostic(s)",
                template_diagnostics.len() - 1
            ));
        }
        fail(self, call_error(message))
    }

    /// A function's error placed where HCL places it.
    fn call_diagnostic(
        &self,
        expr: &Expr,
        call: &Call,
        arguments: &[Argument<'_>],
        error: CallError,
    ) -> EvalDiagnostic {
        let name_and_paren = TextRange::new(
            call.name_range.start,
            call.name_range.end.saturating_add(1).min(expr.range.end),
        );
        let subject = match error.subject {
            ErrorSubject::Name => call.name_range,
            ErrorSubject::CloseParen => {
                TextRange::new(expr.range.end.saturating_sub(1), expr.range.end)
            }
            ErrorSubject::Argument(index) => {
                arguments.get(index).map_or(name_and_paren, Argument::range)
            }
            ErrorSubject::Call => name_and_paren,
        };
        EvalDiagnostic::new(error.summary, error.detail, subject).in_context(expr.range)
    }
}

/// HCL's `ValidIdentifier`: a letter or `_`, then letters, digits, `_`, `-`.
fn is_identifier(name: &str) -> bool {
    let mut characters = name.chars();
    characters
        .next()
        .is_some_and(|first| first.is_alphabetic() || first == '_')
        && characters.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// HCL's `Range.String()` of a range in a template (`file_name` is the path
/// given to templatefile, or templatestring's `NoFileNeeded`).
fn template_range_text(file_name: &str, content: &str, range: TextRange) -> String {
    let position = |offset: u32| {
        let before = content.get(..offset as usize).unwrap_or(content);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |at| at + 1);
        let column = before
            .get(line_start..)
            .map_or(0, |text| text.chars().count())
            + 1;
        (line, column)
    };
    let (start_line, start_column) = position(range.start);
    let (end_line, end_column) = position(range.end);
    if start_line == end_line {
        format!("{file_name}:{start_line},{start_column}-{end_column}")
    } else {
        format!("{file_name}:{start_line},{start_column}-{end_line},{end_column}")
    }
}

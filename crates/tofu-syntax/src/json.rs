//! HCL JSON syntax (`.tf.json`, `.tofu.json`) through `jsonc-parser`, mapped onto
//! the same model as native syntax.
//!
//! JSON has no blocks, so which properties are blocks and how many label levels
//! they have comes from the block types OpenTofu itself defines (the top level,
//! `terraform`, `lifecycle`, `provisioner`, …). Anything else, including the bodies
//! that providers define, is read as attributes; merging works by name, so that is
//! enough for it. The parser runs in strict mode (no comments, no trailing commas),
//! as HCL's JSON scanner does; a leading BOM is an error, as in HCL.

use jsonc_parser::ast::{Array, Object, ObjectProp, ObjectPropName, Value};
use jsonc_parser::errors::ParseErrorKind;
use jsonc_parser::{CollectOptions, ParseOptions};

use crate::model::*;
use crate::text::{TextRange, BOM};

pub(crate) fn parse(text: &str) -> SourceFile {
    parse_in(text, Context::Top)
}

/// A variable definitions file (`.tfvars.json`): every property of the root
/// object is an attribute (HCL's `JustAttributes`).
pub(crate) fn parse_values(text: &str) -> SourceFile {
    parse_in(text, Context::Attributes)
}

/// A test file in JSON (`.tftest.json`, `.tofutest.json`): the block types
/// of OpenTofu's test file schema.
pub(crate) fn parse_test(text: &str) -> SourceFile {
    parse_in(text, Context::TestTop)
}

fn parse_in(text: &str, top: Context<'static>) -> SourceFile {
    let mut file = SourceFile {
        syntax: Syntax::Json,
        body: Body::default(),
        errors: Vec::new(),
        unrecovered: Vec::new(),
    };
    let whole = TextRange::from_usize(0, text.len());
    if text.starts_with(BOM) {
        file.errors.push(error(
            "Invalid start of value",
            "A JSON value must start with a brace, a bracket, a number, a string, true, false or null. HCL's JSON syntax does not accept a byte order mark: save the file as UTF-8 without BOM.",
            TextRange::from_usize(0, BOM.len()),
        ));
        file.unrecovered.push(whole);
        return file;
    }
    if text.trim().is_empty() {
        // HCL's words: the missing value, then that the root is no object.
        let end = TextRange::from_usize(text.len(), text.len());
        file.errors.push(error(
            "Missing value",
            "The JSON data ends prematurely.",
            end,
        ));
        file.errors.push(error(ROOT_SUMMARY, ROOT_DETAIL, end));
        return file;
    }
    let options = ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let parsed = match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options) {
        Ok(parsed) => parsed,
        Err(parse_error) => {
            let range = parse_error.range();
            let error_range = TextRange::from_usize(range.start, range.end);
            let word = text.get(range.start..range.end).unwrap_or_default();
            let (summary, detail) = match parse_error.kind() {
                ParseErrorKind::MultipleRootJsonValues => (
                    "Extraneous data after value",
                    "Extra characters appear after the JSON value.".to_owned(),
                ),
                ParseErrorKind::UnexpectedWord | ParseErrorKind::UnexpectedToken
                    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphabetic()) =>
                {
                    (
                        "Invalid JSON keyword",
                        format!("\"{word}\" is not a valid JSON keyword."),
                    )
                }
                ParseErrorKind::ExpectedObjectValue => (
                    "Missing attribute value",
                    format!("{}.", parse_error.kind()),
                ),
                ParseErrorKind::UnterminatedObject | ParseErrorKind::UnterminatedArray => {
                    ("Missing value", format!("{}.", parse_error.kind()))
                }
                ParseErrorKind::ExpectedColonAfterObjectKey => (
                    "Missing property value colon",
                    format!("{}.", parse_error.kind()),
                ),
                ParseErrorKind::ExpectedComma => (
                    "Missing property separator",
                    format!("{}.", parse_error.kind()),
                ),
                ParseErrorKind::TrailingCommasNotAllowed => (
                    "Trailing comma in object",
                    format!("{}.", parse_error.kind()),
                ),
                ParseErrorKind::String(_) => ("Invalid string", format!("{}.", parse_error.kind())),
                _ => ("Invalid start of value", format!("{}.", parse_error.kind())),
            };
            file.errors.push(error(summary, &detail, error_range));
            // Where the root value itself cannot be read, HCL also says the
            // root is no object.
            let root_start = text.len() - text.trim_start().len();
            if range.start == root_start {
                file.errors
                    .push(error(ROOT_SUMMARY, ROOT_DETAIL, error_range));
            }
            file.unrecovered.push(whole);
            return file;
        }
    };
    let Some(root) = parsed.value else {
        file.errors.push(error(
            "Missing value",
            "A configuration file in JSON syntax must hold an object.",
            TextRange::from_usize(text.len(), text.len()),
        ));
        return file;
    };
    let mut reader = Reader { errors: Vec::new() };
    match &root {
        Value::Object(object) => reader.body_into(object, top, &mut file.body),
        Value::Array(array) => {
            for element in &array.elements {
                match element {
                    Value::Object(object) => reader.body_into(object, top, &mut file.body),
                    other => reader.errors.push(root_must_be_object(other)),
                }
            }
        }
        other => reader.errors.push(root_must_be_object(other)),
    }
    file.errors.extend(reader.errors);
    file
}

const ROOT_SUMMARY: &str = "Root value must be object";
const ROOT_DETAIL: &str = "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.";

fn root_must_be_object(value: &Value<'_>) -> SyntaxError {
    error(ROOT_SUMMARY, ROOT_DETAIL, value_range(value))
}

fn error(summary: &str, detail: &str, range: TextRange) -> SyntaxError {
    SyntaxError {
        summary: summary.to_owned(),
        detail: detail.to_owned(),
        range,
        duplicate_argument: false,
    }
}

/// Which block types a body may hold, named after the block that holds it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context<'a> {
    Top,
    /// The top level of a test file.
    TestTop,
    Inside(&'a str),
    /// Every property is an attribute.
    Attributes,
}

/// The number of labels of nested block `name` in `context`, or `None` when
/// `name` is an attribute there.
fn block_labels(context: Context<'_>, name: &str) -> Option<usize> {
    if context == Context::Attributes {
        return None;
    }
    if context == Context::TestTop {
        return match name {
            "run" | "provider" | "mock_provider" => Some(1),
            "variables" | "override_resource" | "override_data" | "override_module" => Some(0),
            _ => None,
        };
    }
    let Context::Inside(parent) = context else {
        return Some(match name {
            "resource" | "data" | "ephemeral" => 2,
            "provider" | "variable" | "output" | "module" | "check" => 1,
            _ => 0,
        });
    };
    let labels = match (parent, name) {
        ("terraform", "backend" | "provider_meta") => 1,
        ("terraform", "cloud" | "required_providers" | "encryption") => 0,
        ("language", "compatible_with") => 0,
        ("variable", "validation") => 0,
        ("output", "precondition" | "postcondition") => 0,
        ("resource" | "data" | "ephemeral", "provisioner" | "dynamic") => 1,
        ("resource" | "data" | "ephemeral", "lifecycle" | "connection" | "_") => 0,
        ("module" | "provider" | "provisioner", "_") => 0,
        ("module", "lifecycle") => 0,
        ("lifecycle", "precondition" | "postcondition") => 0,
        ("provisioner", "connection") => 0,
        ("dynamic", "content") => 0,
        ("check", "data") => 2,
        ("check", "assert") => 0,
        ("removed", "lifecycle") => 0,
        ("removed", "provisioner") => 1,
        ("encryption", "key_provider" | "method") => 2,
        ("encryption", "state" | "plan" | "remote_state_data_sources") => 0,
        ("state" | "plan" | "default" | "remote_state_data_source" | "fallback", "fallback") => 0,
        ("remote_state_data_sources", "default") => 0,
        ("remote_state_data_sources", "remote_state_data_source") => 1,
        ("cloud", "workspaces") => 0,
        // Test files (`tofu validate` reads them beside the module).
        (
            "run",
            "plan_options" | "assert" | "variables" | "module" | "override_resource"
            | "override_data" | "override_module",
        ) => 0,
        ("mock_provider", "mock_resource" | "mock_data") => 1,
        ("mock_provider", "override_resource" | "override_data") => 0,
        _ => return None,
    };
    Some(labels)
}

struct Reader {
    errors: Vec<SyntaxError>,
}

impl Reader {
    fn body_into<'a>(&mut self, object: &'a Object<'a>, context: Context<'a>, body: &mut Body) {
        for prop in &object.properties {
            let name = prop.name.as_str();
            if name == "//" {
                continue;
            }
            match block_labels(context, name) {
                Some(n_labels) => {
                    let kind = Label {
                        value: name.to_owned(),
                        range: name_range(&prop.name),
                    };
                    self.blocks(prop, &kind, &prop.value, n_labels, &mut Vec::new(), body);
                }
                None => {
                    if let Some(first) = body.attributes.iter().find(|a| a.name == name) {
                        let summary = if context == Context::Inside("locals") {
                            "Duplicate attribute definition"
                        } else {
                            "Duplicate argument"
                        };
                        let mut duplicate = error(
                            summary,
                            &format!(
                                "The argument \"{name}\" was already set at byte {}. Each argument may be set only once.",
                                first.name_range.start
                            ),
                            name_range(&prop.name),
                        );
                        duplicate.duplicate_argument = true;
                        self.errors.push(duplicate);
                        continue;
                    }
                    body.attributes.push(Attribute {
                        name: name.to_owned(),
                        name_range: name_range(&prop.name),
                        range: TextRange::from_usize(prop.range.start, prop.range.end),
                        expr: expr(&prop.value),
                    });
                }
            }
        }
    }

    /// Walks the label levels of a block property, then reads each body.
    fn blocks<'a>(
        &mut self,
        prop: &'a ObjectProp<'a>,
        kind: &Label,
        value: &'a Value<'a>,
        n_labels_left: usize,
        labels: &mut Vec<Label>,
        out: &mut Body,
    ) {
        let kind_name: &'a str = prop.name.as_str();
        match value {
            Value::Object(object) if n_labels_left > 0 => {
                for label_prop in &object.properties {
                    labels.push(Label {
                        value: label_prop.name.as_str().to_owned(),
                        range: name_range(&label_prop.name),
                    });
                    self.blocks(
                        prop,
                        kind,
                        &label_prop.value,
                        n_labels_left - 1,
                        labels,
                        out,
                    );
                    labels.pop();
                }
            }
            Value::Array(Array { elements, range }) => {
                for element in elements {
                    let header_override = (n_labels_left == 0)
                        .then(|| TextRange::from_usize(range.start, range.start + 1));
                    self.block_body(
                        kind,
                        kind_name,
                        element,
                        n_labels_left,
                        labels,
                        header_override,
                        out,
                    );
                }
            }
            Value::NullKeyword(_) => {}
            _ => self.block_body(kind, kind_name, value, n_labels_left, labels, None, out),
        }
    }

    #[allow(clippy::too_many_arguments)] // One call site; the arguments are the walk's state.
    fn block_body<'a>(
        &mut self,
        kind: &Label,
        kind_name: &'a str,
        value: &'a Value<'a>,
        n_labels_left: usize,
        labels: &mut Vec<Label>,
        header_override: Option<TextRange>,
        out: &mut Body,
    ) {
        if n_labels_left > 0 {
            if let Value::Object(_) | Value::Array(_) = value {
                let mut nested = Body::default();
                // An array at a label level: each element holds more label levels.
                if let Value::Array(array) = value {
                    for element in &array.elements {
                        if let Value::Object(object) = element {
                            for label_prop in &object.properties {
                                labels.push(Label {
                                    value: label_prop.name.as_str().to_owned(),
                                    range: name_range(&label_prop.name),
                                });
                                self.block_body(
                                    kind,
                                    kind_name,
                                    &label_prop.value,
                                    n_labels_left - 1,
                                    labels,
                                    None,
                                    &mut nested,
                                );
                                labels.pop();
                            }
                        }
                    }
                }
                out.blocks.extend(nested.blocks);
                return;
            }
        }
        let range = value_range(value);
        let mut body = Body::default();
        match value {
            Value::Object(object) => {
                body.open = Some(TextRange::from_usize(
                    object.range.start,
                    object.range.start + 1,
                ));
                body.close = Some(TextRange::from_usize(
                    object.range.end.saturating_sub(1),
                    object.range.end,
                ));
                self.body_into(object, Context::Inside(kind_name), &mut body);
            }
            Value::NullKeyword(_) => return,
            _ => {
                self.errors.push(error(
                    "Incorrect JSON value type",
                    &format!("A JSON object is required here, to define the body of a \"{kind_name}\" block."),
                    range,
                ));
                return;
            }
        }
        let start = labels.last().map_or(kind.range, |label| label.range);
        out.blocks.push(Block {
            kind: kind.value.clone(),
            kind_range: kind.range,
            labels: labels.clone(),
            header: header_override.unwrap_or(TextRange::new(range.start, range.start + 1)),
            range: start.cover(range),
            body,
        });
    }
}

fn name_range(name: &ObjectPropName<'_>) -> TextRange {
    let range = match name {
        ObjectPropName::String(lit) => lit.range,
        ObjectPropName::Word(word) => word.range,
    };
    TextRange::from_usize(range.start, range.end)
}

fn value_range(value: &Value<'_>) -> TextRange {
    let range = match value {
        Value::StringLit(lit) => lit.range,
        Value::NumberLit(lit) => lit.range,
        Value::BooleanLit(lit) => lit.range,
        Value::Object(object) => object.range,
        Value::Array(array) => array.range,
        Value::NullKeyword(null) => null.range,
    };
    TextRange::from_usize(range.start, range.end)
}

fn expr(value: &Value<'_>) -> Expr {
    let range = value_range(value);
    let kind = match value {
        Value::StringLit(lit) => {
            if lit.value.contains("${") || lit.value.contains("%{") {
                ExprKind::Template(Template::default())
            } else {
                ExprKind::String(lit.value.to_string())
            }
        }
        Value::NumberLit(lit) => ExprKind::Number(lit.value.to_owned()),
        Value::BooleanLit(lit) => ExprKind::Bool(lit.value),
        Value::NullKeyword(_) => ExprKind::Null,
        Value::Array(array) => ExprKind::Array(array.elements.iter().map(expr).collect()),
        Value::Object(object) => ExprKind::Object(
            object
                .properties
                .iter()
                .map(|prop| ObjectItem {
                    key: Expr {
                        range: name_range(&prop.name),
                        kind: ExprKind::String(prop.name.as_str().to_owned()),
                    },
                    value: expr(&prop.value),
                    json: true,
                })
                .collect(),
        ),
    };
    Expr { range, kind }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_files_have_the_blocks_of_the_test_schema() {
        let text = r#"{"run": {"one": {"command": "plan", "assert": {"condition": "${var.x}"}, "variables": {"x": 1}}}, "mock_provider": {"aws": {"mock_resource": {"aws_s3_bucket": {"defaults": {}}}}}, "variables": {"y": 2}}"#;
        let file = parse_test(text);
        assert!(file.errors.is_empty(), "{:?}", file.errors);
        let kinds: Vec<(&str, usize)> = file
            .body
            .blocks
            .iter()
            .map(|block| (block.kind.as_str(), block.labels.len()))
            .collect();
        assert_eq!(kinds, [("run", 1), ("mock_provider", 1), ("variables", 0)]);
        let run = &file.body.blocks[0];
        assert!(run.body.attribute("command").is_some());
        let nested: Vec<&str> = run.body.blocks.iter().map(|b| b.kind.as_str()).collect();
        assert_eq!(nested, ["assert", "variables"]);
        assert_eq!(
            file.body.blocks[1].body.blocks[0].label(0),
            Some("aws_s3_bucket")
        );
    }

    #[test]
    fn resources_with_labels_and_nested_blocks() {
        let text = r#"{"resource": {"aws_instance": {"web": {"ami": "x", "lifecycle": {"prevent_destroy": true}, "tags": {"a": "b"}}}}}"#;
        let file = parse(text);
        assert!(file.errors.is_empty(), "{:?}", file.errors);
        let block = &file.body.blocks[0];
        assert_eq!(block.kind, "resource");
        assert_eq!(block.label(0), Some("aws_instance"));
        assert_eq!(block.label(1), Some("web"));
        assert_eq!(block.header.slice(text), "{");
        assert_eq!(block.labels[1].range.slice(text), "\"web\"");
        assert_eq!(
            block.body.attribute("ami").unwrap().expr.as_str(),
            Some("x")
        );
        assert_eq!(block.body.blocks[0].kind, "lifecycle");
        assert!(block.body.attribute("tags").is_some());
    }

    #[test]
    fn arrays_of_bodies_and_comments() {
        let text = r#"{"//": "note", "variable": {"a": [{"default": 1}, {"default": 2}]}, "locals": [{"x": 1}, {"y": "${var.a}"}]}"#;
        let file = parse(text);
        assert!(file.errors.is_empty());
        let kinds: Vec<_> = file.body.blocks.iter().map(|b| b.kind.as_str()).collect();
        assert_eq!(kinds, ["variable", "variable", "locals", "locals"]);
        assert_eq!(file.body.blocks[0].header.slice(text), "[");
        assert!(matches!(
            file.body.blocks[3].body.attributes[0].expr.kind,
            ExprKind::Template(_)
        ));
    }

    #[test]
    fn errors_for_bom_empty_and_non_object_roots() {
        assert_eq!(
            parse("\u{feff}{}").errors[0].summary,
            "Invalid start of value"
        );
        assert_eq!(parse("").errors[0].summary, "Missing value");
        assert_eq!(parse("[1]").errors[0].summary, "Root value must be object");
        assert_eq!(
            parse("{} {}").errors[0].summary,
            "Extraneous data after value"
        );
        let duplicate = parse(r#"{"locals": {"a": 1, "a": 2}}"#);
        assert_eq!(
            duplicate.errors[0].summary,
            "Duplicate attribute definition"
        );
    }
}

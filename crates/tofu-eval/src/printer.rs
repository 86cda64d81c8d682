//! A value as `tofu console` prints it (OpenTofu's `repl.FormatValue`):
//! OpenTofu syntax with the conversion functions that give the exact type
//! (`tolist([…])`, `toset([…])`, `tomap({…})`, `tostring(null)`), strings
//! Go-quoted, strings of several lines as heredocs, numbers in their
//! shortest form, unknown values as `(known after apply)` and marked ones
//! as `(sensitive value)` / `(ephemeral value)`.

use crate::types::Type;
use crate::value::{Value, ValueKind};
use tofu_syntax::go_text::go_quote;

/// The text `tofu console` prints for `value`.
pub fn format_value(value: &Value) -> String {
    format_at(value, 0)
}

fn format_at(value: &Value, indent: usize) -> String {
    if !value.is_known() {
        return "(known after apply)".to_owned();
    }
    if value.marks.sensitive {
        return "(sensitive value)".to_owned();
    }
    if value.marks.ephemeral {
        return "(ephemeral value)".to_owned();
    }
    match &value.kind {
        ValueKind::Null(ty) => format_null(ty),
        ValueKind::Unknown(_) => "(known after apply)".to_owned(),
        ValueKind::String(text) => format_multiline(text, indent).unwrap_or_else(|| go_quote(text)),
        ValueKind::Number(number) => number.text('f', -1),
        ValueKind::Bool(true) => "true".to_owned(),
        ValueKind::Bool(false) => "false".to_owned(),
        ValueKind::Object(entries) => format_mapping(entries.iter(), indent),
        ValueKind::Tuple(items) => format_sequence(items, indent),
        ValueKind::List { items, .. } => format!("tolist({})", format_sequence(items, indent)),
        ValueKind::Set { items, .. } => format!("toset({})", format_sequence(items, indent)),
        ValueKind::Map { entries, .. } => {
            format!("tomap({})", format_mapping(entries.iter(), indent))
        }
    }
}

fn format_null(ty: &Type) -> String {
    match ty {
        Type::Dynamic => "null".to_owned(),
        Type::String => "tostring(null)".to_owned(),
        Type::Number => "tonumber(null)".to_owned(),
        Type::Bool => "tobool(null)".to_owned(),
        Type::List(element) => format!("tolist(null) /* of {} */", element.friendly_name()),
        Type::Set(element) => format!("toset(null) /* of {} */", element.friendly_name()),
        Type::Map(element) => format!("tomap(null) /* of {} */", element.friendly_name()),
        other => format!("null /* {} */", other.friendly_name()),
    }
}

/// A string of two lines or more as a heredoc, `<<-` when indented, its
/// delimiter `EOT` lengthened with `_` while a line equals it.
fn format_multiline(text: &str, indent: usize) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    if lines.len() < 2 {
        return None;
    }
    let operator = if indent > 0 { "<<-" } else { "<<" };
    let mut delimiter = "EOT".to_owned();
    while lines.iter().any(|line| line.trim() == delimiter) {
        delimiter.push('_');
    }
    let padding = " ".repeat(indent);
    let mut out = format!("{operator}{delimiter}");
    for line in lines {
        out.push('\n');
        out.push_str(&padding);
        out.push_str(line);
    }
    out.push('\n');
    out.push_str(&padding);
    out.push_str(&delimiter);
    Some(out)
}

fn format_mapping<'v>(
    entries: impl Iterator<Item = (&'v String, &'v Value)>,
    indent: usize,
) -> String {
    let inner = indent + 2;
    let padding = " ".repeat(inner);
    let mut out = String::from("{");
    let mut count = 0;
    for (key, item) in entries {
        count += 1;
        out.push('\n');
        out.push_str(&padding);
        out.push_str(&format_at(&Value::string(key), inner));
        out.push_str(" = ");
        out.push_str(&format_at(item, inner));
    }
    if count > 0 {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push('}');
    out
}

fn format_sequence(items: &[Value], indent: usize) -> String {
    let inner = indent + 2;
    let padding = " ".repeat(inner);
    let mut out = String::from("[");
    for item in items {
        out.push('\n');
        out.push_str(&padding);
        out.push_str(&format_at(item, inner));
        out.push(',');
    }
    if !items.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push(']');
    out
}

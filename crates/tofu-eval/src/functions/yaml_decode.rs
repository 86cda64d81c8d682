//! `yamldecode`: a YAML document to a cty value as go-cty-yaml builds it
//! from libyaml's events (`yaml_parser.rs`).
//!
//! The text must hold exactly one document (empty text is "missing start
//! of document"; a second one is "unexpected extra content after value").
//! Mappings become objects (keys are strings: numbers and booleans are
//! written as text, null keys and non-scalar keys are errors; `<<` merges
//! a mapping or a sequence of mappings), sequences become tuples, scalars
//! are resolved by `yaml_resolve.rs`, aliases repeat their anchor's value
//! (an alias inside its own anchor is an error: cty values are finite).
//!
//! go-cty-yaml reads the document twice, once for the type and once for
//! the value, and converts the value to the type; the two differ only for
//! untagged block scalars, which the type reading takes as strings and the
//! value reading resolves (`|-` then `5` is the string `"5"`, `.nan` an
//! error). Both readings are done here, in the same order, so the same
//! error comes first.
//!
//! Documents nested deeper than 256 collections are not covered (unknown).
//!
//! Errors carry go-cty-yaml's position prefix, `on line N, column M: `,
//! with its quirks: the line counts from 0 and a position on line 0 is not
//! shown; a scanner error shows the line after the problem and column 1.

use std::collections::{BTreeMap, HashMap};

use crate::types::Type;
use crate::value::{Value, ValueKind};
use tofu_syntax::go_text::go_quote;

use super::yaml_parser::{Event, EventKind, Node, Parser, Scalar};
use super::yaml_resolve::{resolve_scalar, MAP_TAG, MERGE_TAG, SEQ_TAG};
use super::yaml_scanner::{Mark, Problem, ProblemKind, ScanError};

/// What reading a document gave.
#[derive(Debug)]
pub(super) enum Decoded {
    Value(Value),
    /// go-cty-yaml's error message, position included.
    Error(String),
    /// A document this reader does not cover (see `yaml_scanner.rs`).
    NotCovered,
}

pub(super) fn yaml_decode(text: &str) -> Decoded {
    let text = if text.is_empty() { "\n" } else { text };
    for reading in [Reading::Type, Reading::Value] {
        let result = Decoder {
            parser: Parser::new(text),
            reading,
            anchors_pending: HashMap::new(),
            anchors: HashMap::new(),
            depth: 0,
        }
        .document();
        match result {
            Ok(value) if reading == Reading::Value => return Decoded::Value(value),
            Ok(_) => {}
            Err(DecodeError::Message(message)) => return Decoded::Error(message),
            Err(DecodeError::NotCovered) => return Decoded::NotCovered,
        }
    }
    Decoded::NotCovered
}

/// go-cty-yaml's two passes: `ImpliedType`, then `Unmarshal`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Type,
    Value,
}

enum DecodeError {
    Message(String),
    NotCovered,
}

impl From<ScanError> for DecodeError {
    fn from(error: ScanError) -> DecodeError {
        match error {
            ScanError::Problem(problem) => DecodeError::Message(problem_message(&problem)),
            ScanError::NotCovered => DecodeError::NotCovered,
        }
    }
}

type Decode<T> = Result<T, DecodeError>;

/// go-cty-yaml's `parserError`: the problem with the problem's position
/// (a scanner's one line further, column 1), else the context's, when
/// their line is not 0.
fn problem_message(problem: &Problem) -> String {
    let position = if problem.problem_mark.line != 0 {
        Some(match problem.kind {
            ProblemKind::Scanner => (problem.problem_mark.line + 1, 1),
            ProblemKind::Reader | ProblemKind::Parser => {
                (problem.problem_mark.line, problem.problem_mark.column + 1)
            }
        })
    } else if problem.context_mark.line != 0 {
        Some((problem.context_mark.line, problem.context_mark.column + 1))
    } else {
        None
    };
    match position {
        Some((line, column)) => format!("on line {line}, column {column}: {}", problem.problem),
        None => problem.problem.to_owned(),
    }
}

/// go-cty-yaml's `parseEventErrorf`: the event's position unless on line 0.
fn at_event(mark: Mark, message: impl Into<String>) -> DecodeError {
    let message = message.into();
    if mark.line == 0 {
        return DecodeError::Message(message);
    }
    DecodeError::Message(format!(
        "on line {}, column {}: {message}",
        mark.line,
        mark.column + 1
    ))
}

struct Decoder {
    parser: Parser,
    reading: Reading,
    /// Anchors whose node is being read, with how many times each is open.
    anchors_pending: HashMap<String, usize>,
    anchors: HashMap<String, Value>,
    /// How many collections the current node is in.
    depth: usize,
}

/// The deepest nesting read; deeper documents are not covered (the reader
/// recurses, and go-cty-yaml, on Go's growable stacks, has no limit).
const MAX_DEPTH: usize = 256;

impl Decoder {
    fn next_event(&mut self) -> Decode<Event> {
        self.parser.parse()?.ok_or(DecodeError::NotCovered)
    }

    fn document(mut self) -> Decode<Value> {
        let stream_start = self.next_event()?;
        if stream_start.kind != EventKind::StreamStart {
            return Err(DecodeError::NotCovered);
        }
        let document_start = self.next_event()?;
        if document_start.kind != EventKind::DocumentStart {
            return Err(at_event(
                document_start.start_mark,
                "missing start of document",
            ));
        }
        let first = self.next_event()?;
        let value = self.node(first)?;
        let document_end = self.next_event()?;
        if document_end.kind != EventKind::DocumentEnd {
            return Err(DecodeError::NotCovered);
        }
        let stream_end = self.next_event()?;
        if stream_end.kind != EventKind::StreamEnd {
            return Err(at_event(
                stream_end.start_mark,
                "unexpected extra content after value",
            ));
        }
        Ok(value)
    }

    fn node(&mut self, event: Event) -> Decode<Value> {
        let mark = event.start_mark;
        match event.kind {
            EventKind::Scalar(scalar) => self.scalar(scalar, mark),
            EventKind::Alias(name) => self.alias(&name, mark),
            EventKind::MappingStart(node) => {
                self.collection(&node, mark, (MAP_TAG, "mapping"), Decoder::mapping)
            }
            EventKind::SequenceStart(node) => {
                self.collection(&node, mark, (SEQ_TAG, "sequence"), Decoder::sequence)
            }
            EventKind::DocumentStart => Err(at_event(mark, "only a single document is allowed")),
            EventKind::StreamEnd => Err(at_event(mark, "expecting value but found end of stream")),
            EventKind::MappingEnd => {
                Err(at_event(mark, "expecting value but found end of mapping"))
            }
            EventKind::SequenceEnd => {
                Err(at_event(mark, "expecting value but found end of sequence"))
            }
            EventKind::StreamStart | EventKind::DocumentEnd => Err(DecodeError::NotCovered),
        }
    }

    fn scalar(&mut self, scalar: Scalar, mark: Mark) -> Decode<Value> {
        self.begin_anchor(&scalar.node.anchor);
        let untagged_not_plain = scalar.node.tag.is_empty() && !scalar.implicit;
        let value = if untagged_not_plain && self.reading == Reading::Type {
            Value::string(&scalar.value)
        } else {
            let value = resolve_scalar(&scalar.node.tag, &scalar.value, scalar.style)
                .map_err(|message| at_event(mark, message))?;
            if untagged_not_plain {
                // The value reading converts to the type reading's string.
                as_string(value)
            } else {
                value
            }
        };
        self.complete_anchor(&scalar.node.anchor, &value);
        Ok(value)
    }

    fn alias(&mut self, name: &str, mark: Mark) -> Decode<Value> {
        if self.anchors_pending.contains_key(name) {
            return Err(at_event(
                mark,
                format!(
                    "cannot refer to anchor {} from inside its own definition",
                    go_quote(name)
                ),
            ));
        }
        match self.anchors.get(name) {
            Some(value) => Ok(value.clone()),
            None => Err(at_event(
                mark,
                format!("reference to undefined anchor {}", go_quote(name)),
            )),
        }
    }

    fn begin_anchor(&mut self, name: &str) {
        if !name.is_empty() {
            *self.anchors_pending.entry(name.to_owned()).or_insert(0) += 1;
        }
    }

    fn complete_anchor(&mut self, name: &str, value: &Value) {
        if name.is_empty() {
            return;
        }
        if let Some(count) = self.anchors_pending.get_mut(name) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.anchors_pending.remove(name);
            }
        }
        self.anchors.insert(name.to_owned(), value.clone());
    }

    /// A mapping or sequence: its tag checked (`tag`: the one it may have,
    /// `kind`: its name in the error), its content read one level deeper,
    /// its anchor set.
    fn collection(
        &mut self,
        node: &Node,
        mark: Mark,
        (tag, kind): (&str, &str),
        read: fn(&mut Decoder) -> Decode<Value>,
    ) -> Decode<Value> {
        if !node.tag.is_empty() && node.tag != tag {
            return Err(at_event(
                mark,
                format!("can't interpret {kind} as {}", node.tag),
            ));
        }
        self.begin_anchor(&node.anchor);
        let value = self.nested(read)?;
        self.complete_anchor(&node.anchor, &value);
        Ok(value)
    }

    /// A collection's content, one level deeper.
    fn nested(&mut self, read: fn(&mut Decoder) -> Decode<Value>) -> Decode<Value> {
        if self.depth >= MAX_DEPTH {
            return Err(DecodeError::NotCovered);
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn sequence(&mut self) -> Decode<Value> {
        let mut items = Vec::new();
        loop {
            let event = self.next_event()?;
            if event.kind == EventKind::SequenceEnd {
                return Ok(Value::tuple(items));
            }
            items.push(self.node(event)?);
        }
    }

    fn mapping(&mut self) -> Decode<Value> {
        let mut attributes = BTreeMap::new();
        loop {
            let key_event = self.next_event()?;
            let mark = key_event.start_mark;
            let EventKind::Scalar(key) = key_event.kind else {
                if key_event.kind == EventKind::MappingEnd {
                    return Ok(Value::object(attributes));
                }
                return Err(at_event(mark, "only strings are allowed as mapping keys"));
            };
            if (key.node.tag.is_empty() && key.value == "<<") || key.node.tag == MERGE_TAG {
                let event = self.next_event()?;
                let merged = self.node(event)?;
                merge_into(&mut attributes, &merged, mark)?;
                continue;
            }
            let key_value = resolve_scalar(&key.node.tag, &key.value, key.style)
                .map_err(DecodeError::Message)?;
            let Some(name) = as_string(key_value).as_str().map(str::to_owned) else {
                return Err(at_event(mark, "mapping key cannot be null"));
            };
            let event = self.next_event()?;
            let value = self.node(event)?;
            attributes.insert(name, value);
        }
    }
}

/// `<<`: a mapping's attributes, or those of each mapping of a sequence,
/// copied in (later ones win).
fn merge_into(attributes: &mut BTreeMap<String, Value>, merged: &Value, mark: Mark) -> Decode<()> {
    match &merged.kind {
        ValueKind::Object(entries) | ValueKind::Map { entries, .. } => {
            attributes.extend(
                entries
                    .iter()
                    .map(|(name, value)| (name.clone(), value.clone())),
            );
            Ok(())
        }
        ValueKind::Tuple(items) | ValueKind::List { items, .. } => {
            for item in items {
                let (ValueKind::Object(entries) | ValueKind::Map { entries, .. }) = &item.kind
                else {
                    return Err(at_event(
                        mark,
                        format!(
                            "cannot merge {} (from sequence) into mapping",
                            item.ty().friendly_name()
                        ),
                    ));
                };
                attributes.extend(
                    entries
                        .iter()
                        .map(|(name, value)| (name.clone(), value.clone())),
                );
            }
            Ok(())
        }
        _ => Err(at_event(
            mark,
            format!("cannot merge {} into mapping", merged.ty().friendly_name()),
        )),
    }
}

/// cty's conversion of a resolved scalar to a string: numbers in their
/// shortest decimal form, booleans as words, null as a string null.
fn as_string(value: Value) -> Value {
    match &value.kind {
        ValueKind::Number(number) => Value::string(number.text('f', -1)),
        ValueKind::Bool(flag) => Value::string(if *flag { "true" } else { "false" }),
        ValueKind::Null(_) => Value::null(Type::String),
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        match yaml_decode(text) {
            Decoded::Error(message) => message,
            other => format!("not an error: {other:?}"),
        }
    }

    #[test]
    fn positions_count_lines_from_zero_and_hide_line_zero() {
        assert_eq!(error(""), "on line 1, column 1: missing start of document");
        assert_eq!(
            error("%41%20b+c"),
            "found unexpected non-alphabetical character"
        );
        assert_eq!(
            error("a: 1\n---\nb: 2"),
            "on line 1, column 1: unexpected extra content after value"
        );
    }

    #[test]
    fn deep_nesting_is_not_covered_rather_than_overflowing_the_stack() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(matches!(yaml_decode(&deep), Decoded::NotCovered));
        let shallow = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(yaml_decode(&shallow), Decoded::Value(_)));
    }

    #[test]
    fn block_scalars_are_strings_even_when_they_read_as_numbers() {
        let Decoded::Value(value) = yaml_decode("|-\n  5") else {
            panic!("not a value");
        };
        assert_eq!(value.as_str(), Some("5"));
    }

    #[test]
    fn a_quoted_merge_key_merges_too() {
        assert_eq!(
            format!("{:?}", yaml_decode("a: &x {b: 1}\nc:\n  \"<<\": *x\n")),
            format!("{:?}", yaml_decode("a: {b: 1}\nc: {b: 1}\n"))
        );
    }
}

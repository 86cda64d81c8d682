//! `yamlencode`'s text: a value written as go-cty-yaml writes it with its
//! port of libyaml's emitter, byte for byte.
//!
//! go-cty-yaml sends the emitter one event per value: null, booleans and
//! numbers (`big.Float`'s shortest `'f'` text) as plain scalars, strings
//! double-quoted (or as a literal block when they hold a `\n`), lists, sets
//! and tuples as block sequences, maps and objects as block mappings in key
//! order; no tags, no anchors. Only the parts of the emitter those events
//! reach are here, with its state kept as libyaml keeps it (the column, the
//! indentation stack, the `whitespace`/`indention`/`open_ended` flags), so
//! that the choices it makes fall out the same way: empty collections in
//! flow style (`[]`, `{}`), sequences in a mapping not indented, a
//! multi-line or longer than 128 bytes key written as a complex key (`? `),
//! a literal block that cannot hold its text (trailing space, a space
//! before a line break, characters that need escapes) written
//! double-quoted instead, double-quoted text folded at the first space past
//! column 80, and `...` closing a document whose root scalar is plain.
//!
//! Invariant: an unknown value anywhere gives no text (`None`); the caller
//! has made sure of that already, as go-cty-yaml does. So does a value
//! nested deeper than 256 collections, which the caller leaves unknown.

use crate::value::{Value, ValueKind};

/// The emitter's preferred indentation step (libyaml's `best_indent`).
const BEST_INDENT: usize = 2;
/// The column past which double-quoted text is folded (`best_width`).
const BEST_WIDTH: usize = 80;
/// The longest key, in bytes, written as a simple key (`key: value`).
const MAX_SIMPLE_KEY_LENGTH: usize = 128;

/// The YAML document go-cty-yaml writes for a wholly known value.
pub(super) fn yaml_encode(value: &Value) -> Option<String> {
    let mut emitter = Emitter {
        out: String::new(),
        indent: None,
        indents: Vec::new(),
        column: 0,
        whitespace: true,
        indention: true,
        open_ended: false,
        depth: 0,
    };
    emitter.emit_node(
        value,
        NodeContext {
            root: true,
            mapping: false,
            simple_key: false,
        },
    )?;
    // DOCUMENT-END (implicit), then STREAM-END.
    emitter.write_indent();
    if emitter.open_ended {
        emitter.write_indicator("...", true, false, false);
        emitter.write_indent();
    }
    Some(emitter.out)
}

/// Where a node stands (libyaml's `root_context`, `mapping_context`,
/// `simple_key_context`).
#[derive(Clone, Copy)]
struct NodeContext {
    root: bool,
    mapping: bool,
    simple_key: bool,
}

const IN_MAPPING: NodeContext = NodeContext {
    root: false,
    mapping: true,
    simple_key: false,
};

const IN_SEQUENCE: NodeContext = NodeContext {
    root: false,
    mapping: false,
    simple_key: false,
};

struct Emitter {
    out: String,
    /// The current indentation; `None` before the root node (libyaml's -1).
    indent: Option<usize>,
    indents: Vec<Option<usize>>,
    /// In characters, not bytes.
    column: usize,
    /// The last character written was a blank or an indicator that counts
    /// as one.
    whitespace: bool,
    /// Only indentation has been written on the current line.
    indention: bool,
    /// The document needs `...` to end it.
    open_ended: bool,
    /// How many collections the current node is in.
    depth: usize,
}

/// The deepest nesting written; deeper values give no text (the emitter
/// recurses; go-cty-yaml has no limit).
const MAX_DEPTH: usize = 256;

/// The styles go-cty-yaml asks for strings, or the emitter falls back to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ScalarStyle {
    DoubleQuoted,
    Literal,
}

impl Emitter {
    fn emit_node(&mut self, value: &Value, context: NodeContext) -> Option<()> {
        match &value.kind {
            ValueKind::Unknown(_) => return None,
            ValueKind::Null(_) => self.emit_plain_scalar("null", context),
            ValueKind::Bool(flag) => {
                self.emit_plain_scalar(if *flag { "true" } else { "false" }, context);
            }
            ValueKind::Number(number) => self.emit_plain_scalar(&number.text('f', -1), context),
            ValueKind::String(text) => self.emit_string(text, context),
            ValueKind::List { items, .. }
            | ValueKind::Set { items, .. }
            | ValueKind::Tuple(items) => {
                self.nested(|emitter| emitter.emit_sequence(items, context))?;
            }
            ValueKind::Map { entries, .. } | ValueKind::Object(entries) => {
                self.nested(|emitter| emitter.emit_mapping(entries))?;
            }
        }
        Some(())
    }

    /// A collection, one level deeper.
    fn nested(&mut self, emit: impl FnOnce(&mut Emitter) -> Option<()>) -> Option<()> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let emitted = emit(self);
        self.depth -= 1;
        emitted
    }

    fn emit_sequence(&mut self, items: &[Value], context: NodeContext) -> Option<()> {
        if items.is_empty() {
            self.write_empty_flow_collection("[", "]");
            return Some(());
        }
        self.increase_indent(false, context.mapping && !self.indention);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.emit_node(item, IN_SEQUENCE)?;
        }
        self.decrease_indent();
        Some(())
    }

    fn emit_mapping(&mut self, entries: &std::collections::BTreeMap<String, Value>) -> Option<()> {
        if entries.is_empty() {
            self.write_empty_flow_collection("{", "}");
            return Some(());
        }
        self.increase_indent(false, false);
        for (key, value) in entries {
            self.write_indent();
            let analysis = analyze(key);
            if !analysis.multiline && key.len() <= MAX_SIMPLE_KEY_LENGTH {
                self.emit_string(
                    key,
                    NodeContext {
                        root: false,
                        mapping: true,
                        simple_key: true,
                    },
                );
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.emit_string(key, IN_MAPPING);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.emit_node(value, IN_MAPPING)?;
        }
        self.decrease_indent();
        Some(())
    }

    /// An empty sequence or mapping: the emitter's flow style, entered and
    /// left at once.
    fn write_empty_flow_collection(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.decrease_indent();
        self.write_indicator(close, false, false, false);
    }

    fn emit_plain_scalar(&mut self, text: &str, context: NodeContext) {
        self.increase_indent(true, false);
        if !self.whitespace {
            self.put(' ');
        }
        // Numbers, booleans and null hold neither spaces nor line breaks,
        // so libyaml's plain writer copies them as they are.
        for character in text.chars() {
            self.put(character);
        }
        self.whitespace = false;
        self.indention = false;
        if context.root {
            self.open_ended = true;
        }
        self.decrease_indent();
    }

    fn emit_string(&mut self, text: &str, context: NodeContext) {
        let analysis = analyze(text);
        let mut style = if text.contains('\n') {
            ScalarStyle::Literal
        } else {
            ScalarStyle::DoubleQuoted
        };
        if context.simple_key && analysis.multiline {
            style = ScalarStyle::DoubleQuoted;
        }
        if style == ScalarStyle::Literal && (!analysis.block_allowed || context.simple_key) {
            style = ScalarStyle::DoubleQuoted;
        }
        self.increase_indent(true, false);
        match style {
            ScalarStyle::Literal => self.write_literal(text),
            ScalarStyle::DoubleQuoted => {
                self.write_double_quoted(text, !context.simple_key);
            }
        }
        self.decrease_indent();
    }

    fn write_double_quoted(&mut self, text: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let starts_with_bom = text.starts_with('\u{feff}');
        let mut spaces = false;
        let mut characters = text.char_indices().peekable();
        while let Some((index, character)) = characters.next() {
            if !is_printable(character)
                || starts_with_bom
                || is_break(character)
                || character == '"'
                || character == '\\'
            {
                self.write_escape(character);
                spaces = false;
            } else if character == ' ' {
                let is_last = index + 1 >= text.len();
                if allow_breaks && !spaces && self.column > BEST_WIDTH && index > 0 && !is_last {
                    self.write_indent();
                    if characters.peek().map(|(_, next)| *next) == Some(' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(' ');
                }
                spaces = true;
            } else {
                self.put(character);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_escape(&mut self, character: char) {
        self.put('\\');
        let short = match character {
            '\0' => Some('0'),
            '\u{7}' => Some('a'),
            '\u{8}' => Some('b'),
            '\t' => Some('t'),
            '\n' => Some('n'),
            '\u{b}' => Some('v'),
            '\u{c}' => Some('f'),
            '\r' => Some('r'),
            '\u{1b}' => Some('e'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            '\u{85}' => Some('N'),
            '\u{a0}' => Some('_'),
            '\u{2028}' => Some('L'),
            '\u{2029}' => Some('P'),
            _ => None,
        };
        if let Some(short) = short {
            self.put(short);
            return;
        }
        let code = u32::from(character);
        let (letter, n_digits) = match code {
            0..=0xff => ('x', 2),
            0x100..=0xffff => ('u', 4),
            _ => ('U', 8),
        };
        self.put(letter);
        for character in format!("{code:0n_digits$X}").chars() {
            self.put(character);
        }
    }

    fn write_literal(&mut self, text: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_scalar_hints(text);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for character in text.chars() {
            if is_break(character) {
                if character == '\n' {
                    self.put_break();
                } else {
                    self.out.push(character);
                    self.column = 0;
                }
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(character);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// The indentation indicator (when the text starts with a space or a
    /// line break) and the chomping indicator: `-` without a final line
    /// break, `+` with more than one (or only one), none with exactly one.
    fn write_block_scalar_hints(&mut self, text: &str) {
        let mut from_end = text.chars().rev();
        if text.starts_with(' ') || text.chars().next().is_some_and(is_break) {
            self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
        }
        let last = from_end.next();
        let before_last = from_end.next();
        let chomping = match (last, before_last) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(before_last)) if is_break(before_last) => Some("+"),
            _ => None,
        };
        // libyaml marks a `+` block open-ended here, but writing the
        // indicator clears the mark again: no `...` follows it.
        if let Some(chomping) = chomping {
            self.write_indicator(chomping, false, false, false);
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        self.indent = match self.indent {
            None if flow => Some(BEST_INDENT),
            None => Some(0),
            Some(indent) if !indentless => Some(indent + BEST_INDENT),
            Some(indent) => Some(indent),
        };
    }

    fn decrease_indent(&mut self) {
        self.indent = self.indents.pop().flatten();
    }

    fn write_indent(&mut self) {
        let indent = self.indent.unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for character in indicator.chars() {
            self.put(character);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    fn put(&mut self, character: char) {
        self.out.push(character);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }
}

/// What libyaml's `yaml_emitter_analyze_scalar` finds in a string, as far
/// as the double-quoted and literal styles care.
struct ScalarAnalysis {
    multiline: bool,
    block_allowed: bool,
}

fn analyze(text: &str) -> ScalarAnalysis {
    if text.is_empty() {
        return ScalarAnalysis {
            multiline: false,
            block_allowed: false,
        };
    }
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut trailing_space = false;
    let mut space_break = false;
    let mut previous_space = false;
    for character in text.chars() {
        if !is_printable(character) {
            special_characters = true;
        }
        if character == ' ' {
            trailing_space = true;
            previous_space = true;
        } else {
            trailing_space = false;
            if is_break(character) {
                line_breaks = true;
                if previous_space {
                    space_break = true;
                }
            }
            previous_space = false;
        }
    }
    ScalarAnalysis {
        multiline: line_breaks,
        block_allowed: !(trailing_space || space_break || special_characters),
    }
}

/// libyaml's `is_printable`: tab and other controls, C1 controls, the BOM,
/// U+FFFE/U+FFFF, surrogates and everything past the Basic Multilingual
/// Plane are not.
fn is_printable(character: char) -> bool {
    matches!(u32::from(character),
        0x0a
        | 0x20..=0x7e
        | 0xa0..=0xd7ff
        | 0xe000..=0xfefe
        | 0xff00..=0xfffd)
}

/// libyaml's line breaks: CR, LF, NEL, LS and PS.
fn is_break(character: char) -> bool {
    matches!(character, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;
    use std::collections::BTreeMap;

    fn encode(value: &Value) -> String {
        yaml_encode(value).unwrap_or_default()
    }

    #[test]
    fn root_plain_scalars_end_the_document_and_strings_do_not() {
        assert_eq!(encode(&Value::int(1)), "1\n...\n");
        assert_eq!(encode(&Value::dynamic_null()), "null\n...\n");
        assert_eq!(encode(&Value::string("a")), "\"a\"\n");
        assert_eq!(
            encode(&Value::number(
                Number::parse("-2.25").unwrap_or_else(Number::zero)
            )),
            "-2.25\n...\n"
        );
    }

    #[test]
    fn keys_too_long_or_multi_line_are_complex_keys() {
        let mut entries = BTreeMap::new();
        entries.insert("b\nc".to_owned(), Value::int(1));
        entries.insert("a".to_owned(), Value::string("x\ny"));
        assert_eq!(
            encode(&Value::object(entries)),
            "\"a\": |-\n  x\n  y\n? |-\n  b\n  c\n: 1\n"
        );
    }

    #[test]
    fn values_nested_too_deep_give_no_text() {
        let mut deep = Value::tuple(Vec::new());
        for _ in 0..300 {
            deep = Value::tuple(vec![deep]);
        }
        assert_eq!(yaml_encode(&deep), None);
        let mut shallow = Value::tuple(Vec::new());
        for _ in 0..200 {
            shallow = Value::tuple(vec![shallow]);
        }
        assert!(yaml_encode(&shallow).is_some());
    }

    #[test]
    fn a_byte_order_mark_first_escapes_every_character() {
        assert_eq!(
            encode(&Value::string("\u{feff}ab")),
            "\"\\uFEFF\\x61\\x62\"\n"
        );
    }
}

//! `yamldecode`'s events: libyaml's parser as go-cty-yaml ports it, state
//! for state, on the tokens of `yaml_scanner.rs`.
//!
//! Each call to [`Parser::parse`] gives the next event (stream and document
//! starts and ends, scalars with their tag, anchor and style, aliases,
//! sequence and mapping starts and ends) with the mark where it starts, or
//! the first error, as libyaml reports it. `%YAML` directives are checked
//! (only 1.1, once); tags are resolved with the default handles only (`!`
//! and `!!` for `tag:yaml.org,2002:`), since documents with `%TAG`
//! directives are not covered.

use super::yaml_scanner::{
    Mark, Problem, ProblemKind, ScalarStyle, ScanError, Scanner, Token, TokenKind,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum EventKind {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(String),
    Scalar(Scalar),
    SequenceStart(Node),
    SequenceEnd,
    MappingStart(Node),
    MappingEnd,
}

/// What a collection start carries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Node {
    pub anchor: String,
    /// The resolved tag; empty when there is none.
    pub tag: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Scalar {
    pub node: Node,
    pub value: String,
    pub style: ScalarStyle,
    /// libyaml's `plain_implicit`: a plain scalar without a tag (or with
    /// the tag `!`).
    pub implicit: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Event {
    pub kind: EventKind,
    pub start_mark: Mark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

const DEFAULT_TAG_PREFIX: &str = "tag:yaml.org,2002:";

pub(super) struct Parser {
    scanner: Scanner,
    state: State,
    states: Vec<State>,
    marks: Vec<Mark>,
}

type Parse<T> = Result<T, ScanError>;

fn parser_error(problem: &'static str, problem_mark: Mark, context_mark: Mark) -> ScanError {
    ScanError::Problem(Problem {
        kind: ProblemKind::Parser,
        problem,
        problem_mark,
        context_mark,
    })
}

impl Parser {
    pub fn new(text: &str) -> Parser {
        Parser {
            scanner: Scanner::new(text),
            state: State::StreamStart,
            states: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// The next event; `None` after the end of the stream.
    pub fn parse(&mut self) -> Parse<Option<Event>> {
        if self.scanner.stream_end_produced() || self.state == State::End {
            return Ok(None);
        }
        self.state_machine().map(Some)
    }

    fn peek(&mut self) -> Parse<Token> {
        self.scanner.peek().cloned()
    }

    fn skip(&mut self) {
        self.scanner.skip_token();
    }

    /// The collection's start token, its mark kept for errors inside.
    fn enter_collection(&mut self) -> Parse<()> {
        let token = self.peek()?;
        self.marks.push(token.start_mark);
        self.skip();
        Ok(())
    }

    /// After a block indicator (`-`, `?`, `:`): the node that follows, or
    /// an empty scalar at the indicator's end when the next token `ends`
    /// the entry; `next` is the state after either.
    fn block_node_or_empty(
        &mut self,
        indicator: &Token,
        ends: fn(&TokenKind) -> bool,
        next: State,
        indentless_sequence: bool,
    ) -> Parse<Event> {
        self.skip();
        let token = self.peek()?;
        if ends(&token.kind) {
            self.state = next;
            return Ok(empty_scalar(indicator.end_mark));
        }
        self.states.push(next);
        self.parse_node(true, indentless_sequence)
    }

    /// A block collection's end at its block end token, else `problem`
    /// (with the collection's start for context).
    fn end_block_collection(
        &mut self,
        token: &Token,
        end: EventKind,
        problem: &'static str,
    ) -> Parse<Event> {
        let context_mark = self.marks.pop().unwrap_or_default();
        if token.kind != TokenKind::BlockEnd {
            return Err(parser_error(problem, token.start_mark, context_mark));
        }
        self.pop_state();
        self.skip();
        Ok(event(end, token.start_mark))
    }

    /// The `,` between two entries of a flow collection, skipped: the
    /// token after it. Anything else is `problem` (with the collection's
    /// start for context).
    fn flow_entry_separator(&mut self, token: &Token, problem: &'static str) -> Parse<Token> {
        if token.kind != TokenKind::FlowEntry {
            let context_mark = self.marks.pop().unwrap_or_default();
            return Err(parser_error(problem, token.start_mark, context_mark));
        }
        self.skip();
        self.peek()
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(State::End);
    }

    fn state_machine(&mut self) -> Parse<Event> {
        match self.state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_document_start(true),
            State::DocumentStart => self.parse_document_start(false),
            State::DocumentContent => self.parse_document_content(),
            State::DocumentEnd => self.parse_document_end(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => self.parse_block_sequence_entry(true),
            State::BlockSequenceEntry => self.parse_block_sequence_entry(false),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => self.parse_block_mapping_key(true),
            State::BlockMappingKey => self.parse_block_mapping_key(false),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => self.parse_flow_sequence_entry(true),
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => self.parse_flow_sequence_entry_mapping_end(),
            State::FlowMappingFirstKey => self.parse_flow_mapping_key(true),
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(false),
            State::FlowMappingEmptyValue => self.parse_flow_mapping_value(true),
            State::End => Err(ScanError::NotCovered),
        }
    }

    fn parse_stream_start(&mut self) -> Parse<Event> {
        let token = self.peek()?;
        if token.kind != TokenKind::StreamStart {
            return Err(parser_error(
                "did not find expected <stream-start>",
                token.start_mark,
                Mark::default(),
            ));
        }
        self.state = State::ImplicitDocumentStart;
        self.skip();
        Ok(event(EventKind::StreamStart, token.start_mark))
    }

    fn parse_document_start(&mut self, implicit: bool) -> Parse<Event> {
        let mut token = self.peek()?;
        if !implicit {
            while token.kind == TokenKind::DocumentEnd {
                self.skip();
                token = self.peek()?;
            }
        }
        if implicit
            && !matches!(
                token.kind,
                TokenKind::VersionDirective { .. }
                    | TokenKind::DocumentStart
                    | TokenKind::StreamEnd
            )
        {
            self.states.push(State::DocumentEnd);
            self.state = State::BlockNode;
            return Ok(event(EventKind::DocumentStart, token.start_mark));
        }
        if token.kind == TokenKind::StreamEnd {
            self.state = State::End;
            self.skip();
            return Ok(event(EventKind::StreamEnd, token.start_mark));
        }
        let start_mark = token.start_mark;
        let mut has_version = false;
        while let TokenKind::VersionDirective { major, minor } = token.kind {
            if has_version {
                return Err(parser_error(
                    "found duplicate %YAML directive",
                    token.start_mark,
                    Mark::default(),
                ));
            }
            if major != 1 || minor != 1 {
                return Err(parser_error(
                    "found incompatible YAML document",
                    token.start_mark,
                    Mark::default(),
                ));
            }
            has_version = true;
            self.skip();
            token = self.peek()?;
        }
        if token.kind != TokenKind::DocumentStart {
            return Err(parser_error(
                "did not find expected <document start>",
                token.start_mark,
                Mark::default(),
            ));
        }
        self.states.push(State::DocumentEnd);
        self.state = State::DocumentContent;
        self.skip();
        Ok(event(EventKind::DocumentStart, start_mark))
    }

    fn parse_document_content(&mut self) -> Parse<Event> {
        let token = self.peek()?;
        if matches!(
            token.kind,
            TokenKind::VersionDirective { .. }
                | TokenKind::DocumentStart
                | TokenKind::DocumentEnd
                | TokenKind::StreamEnd
        ) {
            self.pop_state();
            return Ok(empty_scalar(token.start_mark));
        }
        self.parse_node(true, false)
    }

    fn parse_document_end(&mut self) -> Parse<Event> {
        let token = self.peek()?;
        if token.kind == TokenKind::DocumentEnd {
            self.skip();
        }
        self.state = State::DocumentStart;
        Ok(event(EventKind::DocumentEnd, token.start_mark))
    }

    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Parse<Event> {
        let mut token = self.peek()?;
        if let TokenKind::Alias(name) = token.kind {
            self.pop_state();
            self.skip();
            return Ok(event(EventKind::Alias(name), token.start_mark));
        }
        let mut start_mark = token.start_mark;
        let mut tag_mark = Mark::default();
        let mut anchor = String::new();
        let mut tag_parts: Option<(String, String)> = None;
        if let TokenKind::Anchor(name) = &token.kind {
            anchor = name.clone();
            self.skip();
            token = self.peek()?;
            if let TokenKind::Tag { handle, suffix } = &token.kind {
                tag_parts = Some((handle.clone(), suffix.clone()));
                tag_mark = token.start_mark;
                self.skip();
                token = self.peek()?;
            }
        } else if let TokenKind::Tag { handle, suffix } = &token.kind {
            tag_parts = Some((handle.clone(), suffix.clone()));
            start_mark = token.start_mark;
            tag_mark = token.start_mark;
            self.skip();
            token = self.peek()?;
            if let TokenKind::Anchor(name) = &token.kind {
                anchor = name.clone();
                self.skip();
                token = self.peek()?;
            }
        }
        let tag = match tag_parts {
            None => String::new(),
            Some((handle, suffix)) if handle.is_empty() => suffix,
            Some((handle, suffix)) => match handle.as_str() {
                "!" => format!("!{suffix}"),
                "!!" => format!("{DEFAULT_TAG_PREFIX}{suffix}"),
                _ => {
                    return Err(parser_error(
                        "found undefined tag handle",
                        tag_mark,
                        start_mark,
                    ))
                }
            },
        };
        let node = Node { anchor, tag };
        if indentless_sequence && token.kind == TokenKind::BlockEntry {
            self.state = State::IndentlessSequenceEntry;
            return Ok(event(EventKind::SequenceStart(node), start_mark));
        }
        if let TokenKind::Scalar { value, style } = token.kind {
            let implicit = (node.tag.is_empty() && style == ScalarStyle::Plain) || node.tag == "!";
            self.pop_state();
            self.skip();
            return Ok(event(
                EventKind::Scalar(Scalar {
                    node,
                    value,
                    style,
                    implicit,
                }),
                start_mark,
            ));
        }
        match token.kind {
            TokenKind::FlowSequenceStart => {
                self.state = State::FlowSequenceFirstEntry;
                return Ok(event(EventKind::SequenceStart(node), start_mark));
            }
            TokenKind::FlowMappingStart => {
                self.state = State::FlowMappingFirstKey;
                return Ok(event(EventKind::MappingStart(node), start_mark));
            }
            TokenKind::BlockSequenceStart if block => {
                self.state = State::BlockSequenceFirstEntry;
                return Ok(event(EventKind::SequenceStart(node), start_mark));
            }
            TokenKind::BlockMappingStart if block => {
                self.state = State::BlockMappingFirstKey;
                return Ok(event(EventKind::MappingStart(node), start_mark));
            }
            _ => {}
        }
        if !node.anchor.is_empty() || !node.tag.is_empty() {
            self.pop_state();
            let implicit = node.tag.is_empty();
            return Ok(event(
                EventKind::Scalar(Scalar {
                    node,
                    value: String::new(),
                    style: ScalarStyle::Plain,
                    implicit,
                }),
                start_mark,
            ));
        }
        Err(parser_error(
            "did not find expected node content",
            token.start_mark,
            start_mark,
        ))
    }

    fn parse_block_sequence_entry(&mut self, first: bool) -> Parse<Event> {
        if first {
            self.enter_collection()?;
        }
        let token = self.peek()?;
        if token.kind == TokenKind::BlockEntry {
            return self.block_node_or_empty(
                &token,
                |kind| matches!(kind, TokenKind::BlockEntry | TokenKind::BlockEnd),
                State::BlockSequenceEntry,
                false,
            );
        }
        self.end_block_collection(
            &token,
            EventKind::SequenceEnd,
            "did not find expected '-' indicator",
        )
    }

    fn parse_indentless_sequence_entry(&mut self) -> Parse<Event> {
        let token = self.peek()?;
        if token.kind == TokenKind::BlockEntry {
            return self.block_node_or_empty(
                &token,
                |kind| {
                    matches!(
                        kind,
                        TokenKind::BlockEntry
                            | TokenKind::Key
                            | TokenKind::Value
                            | TokenKind::BlockEnd
                    )
                },
                State::IndentlessSequenceEntry,
                false,
            );
        }
        self.pop_state();
        Ok(event(EventKind::SequenceEnd, token.start_mark))
    }

    fn parse_block_mapping_key(&mut self, first: bool) -> Parse<Event> {
        if first {
            self.enter_collection()?;
        }
        let token = self.peek()?;
        if token.kind == TokenKind::Key {
            return self.block_node_or_empty(
                &token,
                ends_block_mapping_part,
                State::BlockMappingValue,
                true,
            );
        }
        self.end_block_collection(&token, EventKind::MappingEnd, "did not find expected key")
    }

    fn parse_block_mapping_value(&mut self) -> Parse<Event> {
        let token = self.peek()?;
        if token.kind == TokenKind::Value {
            return self.block_node_or_empty(
                &token,
                ends_block_mapping_part,
                State::BlockMappingKey,
                true,
            );
        }
        self.state = State::BlockMappingKey;
        Ok(empty_scalar(token.start_mark))
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Parse<Event> {
        if first {
            self.enter_collection()?;
        }
        let mut token = self.peek()?;
        if token.kind != TokenKind::FlowSequenceEnd {
            if !first {
                token = self.flow_entry_separator(&token, "did not find expected ',' or ']'")?;
            }
            if token.kind == TokenKind::Key {
                self.state = State::FlowSequenceEntryMappingKey;
                self.skip();
                return Ok(event(
                    EventKind::MappingStart(Node::default()),
                    token.start_mark,
                ));
            }
            if token.kind != TokenKind::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.pop_state();
        self.marks.pop();
        self.skip();
        Ok(event(EventKind::SequenceEnd, token.start_mark))
    }

    fn parse_flow_sequence_entry_mapping_key(&mut self) -> Parse<Event> {
        let token = self.peek()?;
        if !matches!(
            token.kind,
            TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
        ) {
            self.states.push(State::FlowSequenceEntryMappingValue);
            return self.parse_node(false, false);
        }
        let mark = token.end_mark;
        self.skip();
        self.state = State::FlowSequenceEntryMappingValue;
        Ok(empty_scalar(mark))
    }

    fn parse_flow_sequence_entry_mapping_value(&mut self) -> Parse<Event> {
        let mut token = self.peek()?;
        if token.kind == TokenKind::Value {
            self.skip();
            token = self.peek()?;
            if !matches!(
                token.kind,
                TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
            ) {
                self.states.push(State::FlowSequenceEntryMappingEnd);
                return self.parse_node(false, false);
            }
        }
        self.state = State::FlowSequenceEntryMappingEnd;
        Ok(empty_scalar(token.start_mark))
    }

    fn parse_flow_sequence_entry_mapping_end(&mut self) -> Parse<Event> {
        let token = self.peek()?;
        self.state = State::FlowSequenceEntry;
        Ok(event(EventKind::MappingEnd, token.start_mark))
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Parse<Event> {
        if first {
            self.enter_collection()?;
        }
        let mut token = self.peek()?;
        if token.kind != TokenKind::FlowMappingEnd {
            if !first {
                token = self.flow_entry_separator(&token, "did not find expected ',' or '}'")?;
            }
            if token.kind == TokenKind::Key {
                self.skip();
                token = self.peek()?;
                if !matches!(
                    token.kind,
                    TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowMappingEnd
                ) {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowMappingValue;
                return Ok(empty_scalar(token.start_mark));
            }
            if token.kind != TokenKind::FlowMappingEnd {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.pop_state();
        self.marks.pop();
        self.skip();
        Ok(event(EventKind::MappingEnd, token.start_mark))
    }

    fn parse_flow_mapping_value(&mut self, empty: bool) -> Parse<Event> {
        let mut token = self.peek()?;
        if empty {
            self.state = State::FlowMappingKey;
            return Ok(empty_scalar(token.start_mark));
        }
        if token.kind == TokenKind::Value {
            self.skip();
            token = self.peek()?;
            if !matches!(token.kind, TokenKind::FlowEntry | TokenKind::FlowMappingEnd) {
                self.states.push(State::FlowMappingKey);
                return self.parse_node(false, false);
            }
        }
        self.state = State::FlowMappingKey;
        Ok(empty_scalar(token.start_mark))
    }
}

/// What ends a block mapping's key or value: the next key, a value, the
/// mapping's end.
fn ends_block_mapping_part(kind: &TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
    )
}

fn event(kind: EventKind, start_mark: Mark) -> Event {
    Event { kind, start_mark }
}

/// The null a missing node stands for (libyaml's empty plain scalar).
fn empty_scalar(mark: Mark) -> Event {
    event(
        EventKind::Scalar(Scalar {
            node: Node::default(),
            value: String::new(),
            style: ScalarStyle::Plain,
            implicit: true,
        }),
        mark,
    )
}

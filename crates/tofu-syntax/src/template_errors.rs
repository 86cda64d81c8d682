//! HCL's syntax errors for a template read on its own (the content of a
//! JSON string, which OpenTofu parses with `hclsyntax.ParseTemplate` when
//! it evaluates the string), found the way HCL's parser finds them.
//!
//! hcl-edit only says that such a template does not parse, and where it
//! gave up. This module reads the [`scanner`](crate::scanner)'s tokens of
//! the template (`Scanner::template`, HCL's `scanTemplate` mode) the way
//! `hclsyntax` parses them, and keeps nothing but the errors: the
//! lexer's (`checkInvalidTokens`: unsupported operators, invalid
//! characters, multi-line strings), then the parser's, in HCL's order,
//! with HCL's summary, detail and subject. It follows HCL's recovery:
//! after the first error of an expression most later ones are not
//! reported (`p.recovery`), but the directives' balance (`templateParser`:
//! `%{ if }` without `%{ endif }`, a stray `%{ else }`) and a few others
//! always are, so one string may give several errors.
//!
//! It runs on every template read on its own, before hcl-edit, which
//! accepts some that HCL refuses (`a.0.1`, `a.*.*`, a line break in a
//! quoted string); where it finds nothing but hcl-edit refuses the
//! template (hcl-edit stricter than HCL, or nesting deeper than
//! [`MAX_DEPTH`]) the caller knows no error to report.
//!
//! Left out: a quoted string broken by a line break inside `${ }` ends
//! there for the scanner, where HCL's string goes on to the next quote
//! (the errors for the break are the same; later ones may differ). (HCL's
//! checks for `**` and tabs never fire: its scanner makes no such token.)

use crate::go_text::go_quote;
use crate::model::TemplateSyntaxError;
use crate::scanner::{ScanMode, ScanProblem, Scanner, TokenKind};
use crate::text::TextRange;

/// Expressions nested deeper than this are not followed: the template's
/// errors are then unknown (HCL recurses as deep as it must).
const MAX_DEPTH: usize = 200;

/// HCL's errors for `source`, a template read on its own (ranges relative
/// to it); empty when none are found.
pub(crate) fn template_errors(source: &str) -> Vec<TemplateSyntaxError> {
    // HCL's scanner reads a `/*` that never ends as `/` and `*`; the
    // scanner, as a comment to the end. Each such `*` is masked by a
    // character the scanner does not know, read back as a `*`.
    let mut text = std::borrow::Cow::Borrowed(source);
    let mut masked = Vec::new();
    let (tokens, mut errors) = loop {
        match lex(&text, &masked) {
            Lexed::Tokens(tokens, errors) => break (tokens, errors),
            Lexed::UnterminatedComment(star) if masked.len() < 16 => {
                let mut bytes = text.into_owned().into_bytes();
                if let Some(byte) = bytes.get_mut(star) {
                    *byte = MASK;
                }
                let Ok(next) = String::from_utf8(bytes) else {
                    return Vec::new();
                };
                text = std::borrow::Cow::Owned(next);
                masked.push(star);
            }
            Lexed::UnterminatedComment(_) => return Vec::new(),
        }
    };
    let mut parser = Parser {
        text: &text,
        tokens,
        next: 0,
        newlines: vec![true],
        recovery: false,
        depth: 0,
        too_deep: false,
        errors: Vec::new(),
    };
    let parts = parser.template_parts(Kind::Eof);
    parser.template_tree(&parts);
    if parser.too_deep {
        return Vec::new();
    }
    errors.extend(parser.errors);
    errors
}

/// A token as HCL's parser sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Token(TokenKind),
    /// A line break that ends a quoted string (HCL's `TokenQuotedNewline`).
    QuotedNewline,
    Eof,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    range: TextRange,
}

fn error(summary: &str, detail: &str, range: TextRange) -> TemplateSyntaxError {
    TemplateSyntaxError {
        summary: summary.to_owned(),
        detail: detail.to_owned(),
        range,
        place: None,
    }
}

/// What stands for the `*` of a `/*` that never ends.
const MASK: u8 = 0x01;

enum Lexed {
    /// The template's tokens with an end-of-file token last, and the
    /// lexer's errors (`checkInvalidTokens`).
    Tokens(Vec<Tok>, Vec<TemplateSyntaxError>),
    /// A `/*` that never ends, whose `*` is at this offset.
    UnterminatedComment(usize),
}

/// The tokens of `source`, in which the offsets `masked` hold a `*`.
fn lex(source: &str, masked: &[usize]) -> Lexed {
    let mut scanner = Scanner::template(source, ScanMode::Forgiving);
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut n_problems_seen = 0;
    let mut string_broken = false;
    let mut told_bitwise = 0;
    let mut told_backtick = 0;
    let mut told_apostrophe = 0;
    let mut told_semicolon = false;
    loop {
        let token = scanner.next();
        for problem in scanner.problems().iter().skip(n_problems_seen) {
            match problem {
                ScanProblem::UnterminatedString { string } => {
                    string_broken |= (string.end as usize) < source.len();
                }
                ScanProblem::UnterminatedComment { comment } => {
                    return Lexed::UnterminatedComment(comment.start as usize + 1);
                }
                _ => {}
            }
        }
        n_problems_seen = scanner.problems().len();
        let Some(token) = token else { break };
        let mut kind = Kind::Token(token.kind);
        if token.kind == TokenKind::Newline && std::mem::take(&mut string_broken) {
            kind = Kind::QuotedNewline;
            errors.push(error(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                token.range,
            ));
        }
        if token.kind == TokenKind::Invalid && masked.contains(&token.start()) {
            kind = Kind::Token(TokenKind::Star);
        } else if token.kind == TokenKind::Invalid {
            let text = token.text(source);
            let suggestion = match text {
                "&" => Some(" Did you mean boolean AND (\"&&\")?"),
                "|" => Some(" Did you mean boolean OR (\"||\")?"),
                "~" => Some(" Did you mean boolean NOT (\"!\")?"),
                "^" => Some(""),
                _ => None,
            };
            match (text, suggestion) {
                (_, Some(suggestion)) => {
                    if told_bitwise < 4 {
                        errors.push(error(
                            "Unsupported operator",
                            &format!("Bitwise operators are not supported.{suggestion}"),
                            token.range,
                        ));
                        told_bitwise += 1;
                    }
                }
                ("`", _) => {
                    if told_backtick % 2 == 0 {
                        errors.push(error("Invalid character", "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".", token.range));
                    }
                    if told_backtick <= 2 {
                        told_backtick += 1;
                    }
                }
                ("'", _) => {
                    if told_apostrophe % 2 == 0 {
                        errors.push(error(
                            "Invalid character",
                            "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                            token.range,
                        ));
                    }
                    if told_apostrophe <= 2 {
                        told_apostrophe += 1;
                    }
                }
                (";", _) => {
                    if !told_semicolon {
                        errors.push(error("Invalid character", "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.", token.range));
                        told_semicolon = true;
                    }
                }
                ("\u{201c}" | "\u{201d}", _) => errors.push(error("Invalid character", "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".", token.range)),
                // `<<` that opens no heredoc is HCL's TokenInvalid too.
                _ => errors.push(error(
                    "Invalid character",
                    "This character is not used within the language.",
                    token.range,
                )),
            }
        }
        tokens.push(Tok {
            kind,
            range: token.range,
        });
    }
    tokens.push(Tok {
        kind: Kind::Eof,
        range: TextRange::from_usize(source.len(), source.len()),
    });
    Lexed::Tokens(join_numbers(source, tokens), errors)
}

/// HCL's scanner reads a number as a digit, then any digits, dots and
/// exponents (`1.5.3` is one token, which then fails to parse); the
/// scanner stops at the first fraction. Tokens that HCL's number covers
/// whole become part of it.
fn join_numbers(source: &str, tokens: Vec<Tok>) -> Vec<Tok> {
    let bytes = source.as_bytes();
    let mut joined: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut covered_to = 0usize;
    for tok in tokens {
        if (tok.range.end as usize) <= covered_to && tok.kind != Kind::Eof {
            continue;
        }
        let mut tok = tok;
        if tok.kind == Kind::Token(TokenKind::NumberLit) {
            // `digit (digit | "." | [eE][+-]?digit)*`, not ending in a dot.
            let mut at = tok.range.start as usize + 1;
            let mut end = at;
            loop {
                match bytes.get(at) {
                    Some(b'.') => at += 1,
                    Some(byte) if byte.is_ascii_digit() => {
                        at += 1;
                        end = at;
                    }
                    Some(b'e' | b'E') => {
                        let sign = usize::from(matches!(bytes.get(at + 1), Some(b'+' | b'-')));
                        if bytes.get(at + 1 + sign).is_some_and(u8::is_ascii_digit) {
                            at += 2 + sign;
                            end = at;
                        } else {
                            break;
                        }
                    }
                    _ => break,
                }
            }
            // Only where HCL's number ends at a token's end.
            if end > tok.range.end as usize && covered_by_whole_tokens(bytes, end) {
                tok.range = TextRange::from_usize(tok.range.start as usize, end);
                covered_to = end;
            }
        }
        joined.push(tok);
    }
    joined
}

/// Whether a number ending at `end` leaves no identifier cut in two.
fn covered_by_whole_tokens(bytes: &[u8], end: usize) -> bool {
    !bytes
        .get(end)
        .is_some_and(|byte| byte.is_ascii_alphanumeric() || *byte == b'_' || *byte == b'-')
}

/// Whether `number` is one cty can parse: digits, an optional fraction,
/// an optional exponent.
fn valid_number(number: &str) -> bool {
    let digits = |text: &str| text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = number.get(digits(number)..).unwrap_or_default();
    let rest = match rest.strip_prefix('.') {
        Some(fraction) => fraction.get(digits(fraction)..).unwrap_or_default(),
        None => rest,
    };
    let rest = match rest.strip_prefix(['e', 'E']) {
        Some(exponent) => {
            let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            match digits(exponent) {
                0 => return false,
                n => exponent.get(n..).unwrap_or_default(),
            }
        }
        None => rest,
    };
    rest.is_empty()
}

/// What an expression's parse gave: its range and whether it reported an
/// error (HCL's `diags.HasErrors()`).
#[derive(Clone, Copy)]
struct Parsed {
    range: TextRange,
    failed: bool,
}

/// One of HCL's template tokens (`templateToken`), for the directives'
/// balance.
#[derive(Clone, Copy, Debug)]
enum Part {
    Other,
    If(TextRange),
    For(TextRange),
    Else(TextRange),
    EndIf(TextRange),
    EndFor(TextRange),
    End(TextRange),
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Tok>,
    /// The index of the next token to read.
    next: usize,
    /// HCL's `IncludeNewlinesStack`.
    newlines: Vec<bool>,
    /// HCL's `p.recovery`: set by the first error of most kinds, it
    /// silences most later ones.
    recovery: bool,
    depth: usize,
    /// Nesting past [`MAX_DEPTH`] was met: the errors are unknown.
    too_deep: bool,
    errors: Vec<TemplateSyntaxError>,
}

const BINARY_LEVELS: [&[TokenKind]; 6] = [
    &[TokenKind::Or],
    &[TokenKind::And],
    &[TokenKind::EqualOp, TokenKind::NotEqual],
    &[
        TokenKind::GreaterThan,
        TokenKind::GreaterThanEq,
        TokenKind::LessThan,
        TokenKind::LessThanEq,
    ],
    &[TokenKind::Plus, TokenKind::Minus],
    &[TokenKind::Star, TokenKind::Slash, TokenKind::Percent],
];

fn between(a: TextRange, b: TextRange) -> TextRange {
    TextRange::new(a.start.min(b.start), a.end.max(b.end))
}

impl Parser<'_> {
    // --- the peeker -----------------------------------------------------

    fn eof(&self) -> Tok {
        self.tokens.last().copied().unwrap_or(Tok {
            kind: Kind::Eof,
            range: TextRange::default(),
        })
    }

    /// HCL's `peeker.nextToken`: comments skipped (a line comment is a
    /// line break where line breaks count), line breaks skipped where they
    /// do not count.
    fn next_token(&self) -> (Tok, usize) {
        let newlines = self.newlines.last().copied().unwrap_or(true);
        let mut index = self.next;
        while let Some(&tok) = self.tokens.get(index) {
            match tok.kind {
                Kind::Token(TokenKind::Comment) => {
                    if newlines && tok.range.slice(self.text).ends_with('\n') {
                        let fake = Tok {
                            kind: Kind::Token(TokenKind::Newline),
                            range: tok.range,
                        };
                        return (fake, index + 1);
                    }
                }
                Kind::Token(TokenKind::Newline) if !newlines => {}
                Kind::Eof => return (tok, index),
                _ => return (tok, index + 1),
            }
            index += 1;
        }
        (self.eof(), self.tokens.len().saturating_sub(1))
    }

    fn peek(&self) -> Tok {
        self.next_token().0
    }

    fn read(&mut self) -> Tok {
        let (tok, next) = self.next_token();
        self.next = next;
        tok
    }

    fn peek_is(&self, kind: TokenKind) -> bool {
        self.peek().kind == Kind::Token(kind)
    }

    /// Whether the next token is the keyword `word` (an identifier).
    fn peek_keyword(&self, word: &str) -> bool {
        let tok = self.peek();
        tok.kind == Kind::Token(TokenKind::Ident) && tok.range.slice(self.text) == word
    }

    fn push_newlines(&mut self, include: bool) {
        self.newlines.push(include);
    }

    fn pop_newlines(&mut self) {
        self.newlines.pop();
    }

    fn report(&mut self, summary: &str, detail: &str, range: TextRange) {
        self.errors.push(error(summary, detail, range));
    }

    /// Reports unless in recovery.
    fn report_first(&mut self, summary: &str, detail: &str, range: TextRange) {
        if !self.recovery {
            self.report(summary, detail, range);
        }
    }

    /// HCL's `recover`: reads up to the `end` that closes the current
    /// bracket (or the end of the file) and returns it.
    fn recover(&mut self, end: Kind) -> Tok {
        let start = opposite(end);
        self.recovery = true;
        let mut nest = 0usize;
        loop {
            let tok = self.read();
            let mut kind = tok.kind;
            if end == Kind::Token(TokenKind::TemplateSeqEnd)
                && kind == Kind::Token(TokenKind::TemplateControl)
            {
                kind = Kind::Token(TokenKind::TemplateInterp);
            }
            if kind == Kind::Eof {
                return tok;
            }
            if Some(kind) == start {
                nest += 1;
            } else if kind == end {
                if nest == 0 {
                    return tok;
                }
                nest -= 1;
            }
        }
    }

    /// HCL's `recoverOver`: past the next `start` bracket's group.
    fn recover_over(&mut self, start: TokenKind) {
        loop {
            let tok = self.read();
            if tok.kind == Kind::Token(start) || tok.kind == Kind::Eof {
                break;
            }
        }
        if let Some(end) = opposite(Kind::Token(start)) {
            self.recover(end);
        }
    }

    // --- templates ------------------------------------------------------

    /// HCL's `parseTemplateParts` up to `end`, then its `templateParser`
    /// over them.
    fn template(&mut self, end: Kind) {
        let parts = self.template_parts(end);
        self.template_tree(&parts);
    }

    /// HCL's `parseTemplateParts`: the template tokens up to `end`, with
    /// the errors of the sequences.
    fn template_parts(&mut self, end: Kind) -> Vec<Part> {
        let mut parts = Vec::new();
        let start_range = self.peek().range;
        let end_range;
        loop {
            let next = self.read();
            if next.kind == end {
                end_range = next.range;
                break;
            }
            match next.kind {
                Kind::Token(TokenKind::StringLit) => parts.push(Part::Other),
                Kind::Token(TokenKind::QuotedLit) => {
                    self.escapes(next.range);
                    parts.push(Part::Other);
                }
                Kind::Token(TokenKind::TemplateInterp) => {
                    self.push_newlines(false);
                    self.expression();
                    let close = self.peek();
                    if close.kind == Kind::Token(TokenKind::TemplateSeqEnd) {
                        self.read();
                    } else {
                        if !self.recovery {
                            self.unclosed_interpolation(close, end, start_range);
                        }
                        self.recover(Kind::Token(TokenKind::TemplateSeqEnd));
                    }
                    self.pop_newlines();
                    parts.push(Part::Other);
                }
                Kind::Token(TokenKind::TemplateControl) => {
                    self.push_newlines(false);
                    if let Some(part) = self.directive(next.range) {
                        parts.push(part);
                    }
                    self.pop_newlines();
                }
                _ => {
                    self.report_first(
                        "Unterminated template string",
                        "No closing marker was found for the string.",
                        next.range,
                    );
                    end_range = self.recover(end).range;
                    break;
                }
            }
        }
        parts.push(Part::End(end_range));
        parts
    }

    /// The error for a `${ … }` whose expression is not followed by its
    /// closing brace.
    fn unclosed_interpolation(&mut self, close: Tok, end: Kind, start_range: TextRange) {
        let extra = "Extra characters after interpolation expression";
        match close.kind {
            Kind::Eof => self.report(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                start_range,
            ),
            Kind::Token(TokenKind::Colon) => self.report(
                extra,
                "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                close.range,
            ),
            Kind::Token(TokenKind::CQuote | TokenKind::OQuote)
                if end == Kind::Token(TokenKind::CQuote) =>
            {
                self.report(
                    "Unclosed template interpolation sequence",
                    "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                    start_range,
                );
            }
            _ => self.report(
                extra,
                "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                close.range,
            ),
        }
    }

    /// A `%{ … }` directive after its `%{` (at `open`): its template token,
    /// `None` when it is not one.
    fn directive(&mut self, open: TextRange) -> Option<Part> {
        let keyword = self.peek();
        if keyword.kind != Kind::Token(TokenKind::Ident) {
            self.report_first(
                "Invalid template directive",
                "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                keyword.range,
            );
            self.recover(Kind::Token(TokenKind::TemplateSeqEnd));
            return None;
        }
        self.read();
        let word = keyword.range.slice(self.text);
        let part = match word {
            "if" => {
                self.expression();
                Part::If(between(open, self.peek().range))
            }
            "else" => Part::Else(between(open, self.peek().range)),
            "endif" => Part::EndIf(between(open, self.peek().range)),
            "endfor" => Part::EndFor(between(open, self.peek().range)),
            "for" => {
                let invalid = |parser: &mut Self, detail: &str| {
                    let at = parser.peek().range;
                    parser.report_first("Invalid 'for' directive", detail, at);
                    parser.recover(Kind::Token(TokenKind::TemplateSeqEnd));
                };
                if !self.peek_is(TokenKind::Ident) {
                    invalid(self, "For directive requires variable name after 'for'.");
                    return None;
                }
                self.read();
                if self.peek_is(TokenKind::Comma) {
                    self.read();
                    if !self.peek_is(TokenKind::Ident) {
                        invalid(
                            self,
                            "For directive requires value variable name after comma.",
                        );
                        return None;
                    }
                    self.read();
                }
                if !self.peek_keyword("in") {
                    invalid(self, "For directive requires 'in' keyword after names.");
                    return None;
                }
                self.read();
                self.expression();
                Part::For(between(open, self.peek().range))
            }
            _ => {
                if !self.recovery {
                    let suggestion = ["if", "for", "else", "endif", "endfor"]
                        .into_iter()
                        .find(|candidate| levenshtein(word, candidate) < 3)
                        .map(|candidate| format!(" Did you mean {}?", go_quote(candidate)))
                        .unwrap_or_default();
                    self.report(
                        "Invalid template control keyword",
                        &format!(
                            "{} is not a valid template control keyword.{suggestion}",
                            go_quote(word)
                        ),
                        keyword.range,
                    );
                }
                self.recover(Kind::Token(TokenKind::TemplateSeqEnd));
                return None;
            }
        };
        let close = self.peek();
        if close.kind == Kind::Token(TokenKind::TemplateSeqEnd) {
            self.read();
        } else {
            self.report_first(
                &format!("Extra characters in {word} marker"),
                "Expected a closing brace to end the sequence, but found extra characters.",
                close.range,
            );
            self.recover(Kind::Token(TokenKind::TemplateSeqEnd));
        }
        Some(part)
    }

    /// HCL's `templateParser.parseRoot`: the directives' balance. Its
    /// errors are reported in recovery too.
    fn template_tree(&mut self, parts: &[Part]) {
        let mut at = 0;
        while let Some(part) = parts.get(at) {
            if let Part::End(_) = part {
                break;
            }
            self.template_part(parts, &mut at);
        }
    }

    fn template_part(&mut self, parts: &[Part], at: &mut usize) {
        let Some(&part) = parts.get(*at) else {
            *at = parts.len();
            return;
        };
        let unbalanced = "The control directives within this template are unbalanced.";
        match part {
            Part::Other => *at += 1,
            Part::If(open) => self.template_if(parts, at, open),
            Part::For(open) => self.template_for(parts, at, open),
            Part::Else(range) => {
                *at += 1;
                self.report("Unexpected else directive", unbalanced, range);
            }
            Part::EndIf(range) => {
                *at += 1;
                self.report("Unexpected endif directive", unbalanced, range);
            }
            Part::EndFor(range) => {
                *at += 1;
                self.report("Unexpected endfor directive", unbalanced, range);
            }
            Part::End(range) => {
                *at = parts.len();
                self.report("Unexpected end of template", unbalanced, range);
            }
        }
    }

    fn report_at(
        &mut self,
        summary: &str,
        before: &str,
        place: TextRange,
        after: &str,
        range: TextRange,
    ) {
        self.errors.push(TemplateSyntaxError {
            summary: summary.to_owned(),
            detail: before.to_owned(),
            range,
            place: Some((place, after.to_owned())),
        });
    }

    /// HCL's `parseIf`, after its `%{ if }` at `open`.
    fn template_if(&mut self, parts: &[Part], at: &mut usize, open: TextRange) {
        *at += 1;
        let mut in_else = false;
        loop {
            match parts.get(*at).copied() {
                None | Some(Part::End(_)) => {
                    let end = match parts.get(*at) {
                        Some(Part::End(range)) => *range,
                        _ => TextRange::default(),
                    };
                    self.report_at(
                        "Unexpected end of template",
                        "The if directive at ",
                        open,
                        " is missing its corresponding endif directive.",
                        end,
                    );
                    return;
                }
                Some(Part::Else(range)) => {
                    *at += 1;
                    if !in_else {
                        in_else = true;
                        continue;
                    }
                    self.report_at(
                        "Unexpected else directive",
                        "Already in the else clause for the if started at ",
                        open,
                        ".",
                        range,
                    );
                    return;
                }
                Some(Part::EndIf(_)) => {
                    *at += 1;
                    return;
                }
                Some(Part::EndFor(range)) => {
                    *at += 1;
                    self.report_at(
                        "Unexpected endfor directive",
                        "Expecting an endif directive for the if started at ",
                        open,
                        ".",
                        range,
                    );
                    return;
                }
                Some(_) => self.template_part(parts, at),
            }
        }
    }

    /// HCL's `parseFor`, after its `%{ for }` at `open`.
    fn template_for(&mut self, parts: &[Part], at: &mut usize, open: TextRange) {
        *at += 1;
        loop {
            match parts.get(*at).copied() {
                None | Some(Part::End(_)) => {
                    let end = match parts.get(*at) {
                        Some(Part::End(range)) => *range,
                        _ => TextRange::default(),
                    };
                    self.report_at(
                        "Unexpected end of template",
                        "The for directive at ",
                        open,
                        " is missing its corresponding endfor directive.",
                        end,
                    );
                    return;
                }
                Some(Part::Else(range)) => {
                    *at += 1;
                    self.report(
                        "Unexpected else directive",
                        "An else clause is not expected for a for directive.",
                        range,
                    );
                    return;
                }
                Some(Part::EndFor(_)) => {
                    *at += 1;
                    return;
                }
                Some(Part::EndIf(range)) => {
                    *at += 1;
                    self.report_at(
                        "Unexpected endif directive",
                        "Expecting an endfor directive corresponding to the for directive at ",
                        open,
                        ".",
                        range,
                    );
                    return;
                }
                Some(_) => self.template_part(parts, at),
            }
        }
    }

    /// `ParseStringLiteralToken`'s errors for the escapes of a quoted
    /// string's literal at `range`.
    fn escapes(&mut self, range: TextRange) {
        let literal = range.slice(self.text);
        let base = range.start as usize;
        let mut chars = literal.char_indices().peekable();
        while let Some((index, c)) = chars.next() {
            if c != '\\' {
                continue;
            }
            let invalid = |parser: &mut Self, detail: &str, len: usize| {
                let start = base + index;
                parser.report(
                    "Invalid escape sequence",
                    detail,
                    TextRange::from_usize(start, (start + len).min(base + literal.len())),
                );
            };
            let Some((_, selector)) = chars.next() else {
                invalid(
                    self,
                    "Backslash must be followed by an escape sequence selector character.",
                    1,
                );
                break;
            };
            match selector {
                'n' | 'r' | 't' | '"' | '\\' => {}
                'u' | 'U' => {
                    let wanted = if selector == 'u' { 4 } else { 8 };
                    let mut hex = String::new();
                    while hex.len() < wanted {
                        match chars.peek() {
                            Some((_, digit)) if digit.is_ascii_hexdigit() => {
                                hex.push(*digit);
                                chars.next();
                            }
                            _ => break,
                        }
                    }
                    if hex.len() < wanted {
                        let detail = if selector == 'u' {
                            "The \\u escape sequence must be followed by four hexadecimal digits."
                        } else {
                            "The \\U escape sequence must be followed by eight hexadecimal digits."
                        };
                        invalid(self, detail, 2 + hex.len());
                    } else if u32::from_str_radix(&hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .is_none()
                    {
                        let number = u32::from_str_radix(&hex, 16).unwrap_or_default();
                        invalid(
                            self,
                            &format!("Cannot encode character U+{number:04x} in UTF-8."),
                            2 + hex.len(),
                        );
                    }
                }
                other => invalid(
                    self,
                    &format!(
                        "The symbol {} is not a valid escape sequence selector.",
                        go_quote(&other.to_string())
                    ),
                    1 + other.len_utf8(),
                ),
            }
        }
    }

    // --- expressions ----------------------------------------------------

    /// HCL's `ParseExpression` (`parseTernaryConditional`).
    fn expression(&mut self) -> Parsed {
        let start = self.peek().range;
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            self.recovery = true;
            return Parsed {
                range: start,
                failed: true,
            };
        }
        self.depth += 1;
        let parsed = self.conditional(start);
        self.depth -= 1;
        parsed
    }

    fn conditional(&mut self, start: TextRange) -> Parsed {
        let before = self.errors.len();
        let condition = self.binary(0);
        if self.recovery && condition.failed {
            return condition;
        }
        if !self.peek_is(TokenKind::Question) {
            return condition;
        }
        self.read();
        let when_true = self.expression();
        if self.recovery && when_true.failed {
            return self.parsed(condition.range, before);
        }
        let colon = self.peek();
        if colon.kind != Kind::Token(TokenKind::Colon) {
            self.report(
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                colon.range,
            );
            return self.parsed(condition.range, before);
        }
        self.read();
        let when_false = self.expression();
        self.parsed(between(start, when_false.range), before)
    }

    fn parsed(&self, range: TextRange, before: usize) -> Parsed {
        Parsed {
            range,
            failed: self.errors.len() > before,
        }
    }

    /// HCL's `parseBinaryOps` from precedence `level` down.
    fn binary(&mut self, level: usize) -> Parsed {
        let Some(operators) = BINARY_LEVELS.get(level) else {
            return self.with_traversals();
        };
        let before = self.errors.len();
        let lhs = self.binary(level + 1);
        if self.recovery && lhs.failed {
            return lhs;
        }
        let mut range = lhs.range;
        while let Kind::Token(kind) = self.peek().kind {
            if !operators.contains(&kind) {
                break;
            }
            self.read();
            let rhs = self.binary(level + 1);
            range = between(range, rhs.range);
            if self.recovery && rhs.failed {
                return self.parsed(range, before);
            }
        }
        self.parsed(range, before)
    }

    fn with_traversals(&mut self) -> Parsed {
        let before = self.errors.len();
        let term = self.term();
        let range = self.traversals(term.range);
        self.parsed(range, before)
    }

    /// HCL's `parseExpressionTraversals`: attribute, index and splat steps.
    fn traversals(&mut self, from: TextRange) -> TextRange {
        let mut range = from;
        loop {
            let next = self.peek();
            match next.kind {
                Kind::Token(TokenKind::Dot) => {
                    self.read();
                    let attribute = self.peek();
                    match attribute.kind {
                        Kind::Token(TokenKind::Ident) => {
                            self.read();
                            range = between(range, attribute.range);
                        }
                        Kind::Token(TokenKind::NumberLit) => {
                            self.read();
                            self.legacy_index(attribute, attribute.range, false);
                            range = between(range, attribute.range);
                        }
                        Kind::Token(TokenKind::Star) => {
                            let marker = self.read();
                            range = between(range, marker.range);
                            if !self.attribute_splat(marker) {
                                continue;
                            }
                        }
                        _ => {
                            self.report(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                attribute.range,
                            );
                            self.recovery = true;
                        }
                    }
                }
                Kind::Token(TokenKind::OBrack) => {
                    self.read();
                    if self.peek_is(TokenKind::Star) {
                        self.read();
                        let mut close = self.read();
                        if close.kind != Kind::Token(TokenKind::CBrack) && !self.recovery {
                            // HCL's subject points at `close`, which the
                            // recovery then replaces: the `]` found, or
                            // the end of the file.
                            close = self.recover(Kind::Token(TokenKind::CBrack));
                            self.report(
                                "Missing close bracket on splat index",
                                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                                close.range,
                            );
                        }
                        let rest = self.traversals(close.range);
                        range = between(range, rest);
                    } else {
                        self.push_newlines(false);
                        let key = self.expression();
                        let close = if self.recovery && key.failed {
                            self.recover(Kind::Token(TokenKind::CBrack))
                        } else {
                            let close = self.read();
                            if close.kind != Kind::Token(TokenKind::CBrack) && !self.recovery {
                                // As for the splat: the subject is where
                                // the recovery stops.
                                let close = self.recover(Kind::Token(TokenKind::CBrack));
                                self.report(
                                    "Missing close bracket on index",
                                    "The index operator must end with a closing bracket (\"]\").",
                                    close.range,
                                );
                                close
                            } else {
                                close
                            }
                        };
                        self.pop_newlines();
                        range = between(range, close.range);
                    }
                }
                _ => return range,
            }
        }
    }

    /// `.0.1`: "Invalid legacy index syntax" (two indexes read as one
    /// number), with the subject HCL gives (`subject`).
    fn legacy_index(&mut self, number: Tok, subject: TextRange, in_splat: bool) {
        let text = number.range.slice(self.text);
        let Some((first, second)) = text.split_once('.') else {
            self.number(number.range);
            return;
        };
        {
            let syntax = if in_splat {
                "the proper index syntax with a full splat expression [*] instead"
            } else {
                "the proper index syntax instead"
            };
            self.report(
                "Invalid legacy index syntax",
                &format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use {syntax}, like [{first}][{second}]."),
                subject,
            );
        }
    }

    /// HCL's `numberLitValue`: "Invalid number literal" for a number
    /// cty cannot parse.
    fn number(&mut self, range: TextRange) {
        if !valid_number(range.slice(self.text)) {
            self.report(
                "Invalid number literal",
                "Failed to recognize the value of this number literal.",
                range,
            );
        }
    }

    /// The steps after `.*` (at `marker`); false when a step is no name
    /// (HCL then goes on with the traversal loop).
    fn attribute_splat(&mut self, marker: Tok) -> bool {
        while self.peek_is(TokenKind::Dot) {
            self.read();
            let next = self.peek();
            if next.kind == Kind::Token(TokenKind::NumberLit) {
                self.read();
                self.legacy_index(next, marker.range, true);
                continue;
            }
            if next.kind != Kind::Token(TokenKind::Ident) {
                if next.kind == Kind::Token(TokenKind::Star) {
                    self.report_first(
                        "Nested splat expression not allowed",
                        "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                        next.range,
                    );
                } else {
                    self.report_first(
                        "Invalid attribute name",
                        "An attribute name is required after a dot.",
                        marker.range,
                    );
                }
                self.recovery = true;
                return false;
            }
            self.read();
        }
        true
    }

    /// HCL's `parseExpressionTerm`.
    fn term(&mut self) -> Parsed {
        let before = self.errors.len();
        let start = self.peek();
        let Kind::Token(kind) = start.kind else {
            return self.missing_term(start);
        };
        match kind {
            TokenKind::OParen => {
                self.read();
                self.push_newlines(false);
                let inner = self.expression();
                if inner.failed {
                    self.recover(Kind::Token(TokenKind::CParen));
                    self.pop_newlines();
                    return self.parsed(between(start.range, inner.range), before);
                }
                let close = self.peek();
                if close.kind != Kind::Token(TokenKind::CParen) {
                    self.report(
                        "Unbalanced parentheses",
                        "Expected a closing parenthesis to terminate the expression.",
                        close.range,
                    );
                    self.recovery = true;
                }
                let close = self.read();
                self.pop_newlines();
                self.parsed(between(start.range, close.range), before)
            }
            TokenKind::NumberLit => {
                self.read();
                self.number(start.range);
                self.parsed(start.range, before)
            }
            TokenKind::Ident => {
                self.read();
                if self.peek_is(TokenKind::OParen) || self.peek_is(TokenKind::DoubleColon) {
                    return self.function_call(start.range, before);
                }
                self.parsed(start.range, before)
            }
            TokenKind::OQuote | TokenKind::OHeredoc => {
                self.read();
                let closer = if kind == TokenKind::OQuote {
                    TokenKind::CQuote
                } else {
                    TokenKind::CHeredoc
                };
                self.template(Kind::Token(closer));
                let end = self
                    .tokens
                    .get(self.next.saturating_sub(1))
                    .map_or(start.range, |tok| tok.range);
                self.parsed(between(start.range, end), before)
            }
            TokenKind::Minus | TokenKind::Bang => {
                self.read();
                let operand = self.with_traversals();
                self.parsed(between(start.range, operand.range), before)
            }
            TokenKind::OBrack => self.tuple(),
            TokenKind::OBrace => self.object(),
            _ => self.missing_term(start),
        }
    }

    /// No expression starts at `start`.
    fn missing_term(&mut self, start: Tok) -> Parsed {
        let before = self.errors.len();
        if start.kind == Kind::Eof {
            self.report_first(
                "Missing expression",
                "Expected the start of an expression, but found the end of the file.",
                start.range,
            );
        } else {
            self.report_first(
                "Invalid expression",
                "Expected the start of an expression, but found an invalid expression token.",
                start.range,
            );
        }
        self.recovery = true;
        self.parsed(start.range, before)
    }

    /// HCL's `finishParsingFunctionCall`, after the name at `name`.
    fn function_call(&mut self, name: TextRange, before: usize) -> Parsed {
        let mut open = self.read();
        while open.kind == Kind::Token(TokenKind::DoubleColon) {
            let next = self.read();
            if next.kind != Kind::Token(TokenKind::Ident) {
                self.report(
                    "Missing function name",
                    "Function scope resolution symbol :: must be followed by a function name in this scope.",
                    next.range,
                );
                self.recover_over(TokenKind::OParen);
                return self.parsed(between(name, next.range), before);
            }
            open = self.read();
        }
        if open.kind != Kind::Token(TokenKind::OParen) {
            self.report(
                "Missing open parenthesis",
                "Function selector must be followed by an open parenthesis to begin the function call.",
                open.range,
            );
            self.recover_over(TokenKind::OParen);
            return self.parsed(between(name, open.range), before);
        }
        self.push_newlines(false);
        let mut close = open.range;
        loop {
            if self.peek_is(TokenKind::CParen) {
                close = self.read().range;
                break;
            }
            let argument = self.expression();
            if self.recovery && argument.failed {
                close = self.recover(Kind::Token(TokenKind::CParen)).range;
                break;
            }
            let separator = self.read();
            match separator.kind {
                Kind::Token(TokenKind::CParen) => {
                    close = separator.range;
                    break;
                }
                Kind::Token(TokenKind::Ellipsis) => {
                    if self.peek_is(TokenKind::CParen) {
                        close = self.read().range;
                    } else {
                        self.report_first(
                            "Missing closing parenthesis",
                            "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                            separator.range,
                        );
                        close = self.recover(Kind::Token(TokenKind::CParen)).range;
                    }
                    break;
                }
                Kind::Token(TokenKind::Comma) => {
                    if self.peek_is(TokenKind::CParen) {
                        close = self.read().range;
                        break;
                    }
                }
                Kind::Eof => {
                    self.report(
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                        between(name, open.range),
                    );
                    self.recover(Kind::Token(TokenKind::CParen));
                    break;
                }
                _ => {
                    self.report(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        separator.range,
                    );
                    close = self.recover(Kind::Token(TokenKind::CParen)).range;
                    break;
                }
            }
        }
        self.pop_newlines();
        self.parsed(between(name, close), before)
    }

    /// HCL's `parseTupleCons`.
    fn tuple(&mut self) -> Parsed {
        let before = self.errors.len();
        let open = self.read();
        self.push_newlines(false);
        if self.peek_keyword("for") {
            let parsed = self.for_expression(open, before);
            self.pop_newlines();
            return parsed;
        }
        let close = loop {
            if self.peek_is(TokenKind::CBrack) {
                break self.read();
            }
            let item = self.expression();
            if self.recovery && item.failed {
                break self.recover(Kind::Token(TokenKind::CBrack));
            }
            let next = self.peek();
            match next.kind {
                Kind::Token(TokenKind::CBrack) => break self.read(),
                Kind::Token(TokenKind::Comma) => {
                    self.read();
                }
                Kind::Eof => {
                    self.report_first(
                        "Unterminated tuple constructor expression",
                        "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                        open.range,
                    );
                    break self.recover(Kind::Token(TokenKind::CBrack));
                }
                _ => {
                    self.report_first(
                        "Missing item separator",
                        "Expected a comma to mark the beginning of the next item.",
                        next.range,
                    );
                    break self.recover(Kind::Token(TokenKind::CBrack));
                }
            }
        };
        self.pop_newlines();
        self.parsed(between(open.range, close.range), before)
    }

    /// HCL's `parseObjectCons`.
    fn object(&mut self) -> Parsed {
        let before = self.errors.len();
        let open = self.read();
        self.push_newlines(false);
        let is_for = self.peek_keyword("for");
        self.pop_newlines();
        if is_for {
            self.push_newlines(false);
            let parsed = self.for_expression(open, before);
            self.pop_newlines();
            return parsed;
        }
        self.push_newlines(true);
        let unterminated = "Unterminated object constructor expression";
        let unterminated_detail = "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.";
        let close = loop {
            let next = self.peek();
            match next.kind {
                Kind::Token(TokenKind::Newline) => {
                    self.read();
                    continue;
                }
                Kind::Token(TokenKind::CBrace) => break self.read(),
                _ => {}
            }
            let key = self.expression();
            if self.recovery && key.failed {
                break self.recover(Kind::Token(TokenKind::CBrace));
            }
            let next = self.peek();
            if !matches!(next.kind, Kind::Token(TokenKind::Equal | TokenKind::Colon)) {
                match next.kind {
                    Kind::Token(TokenKind::Newline | TokenKind::Comma) => self.report_first(
                        "Missing attribute value",
                        "Expected an attribute value, introduced by an equals sign (\"=\").",
                        next.range,
                    ),
                    Kind::Token(TokenKind::Ident) => self.report_first(
                        "Missing key/value separator",
                        "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                        next.range,
                    ),
                    Kind::Eof => self.report_first(unterminated, unterminated_detail, open.range),
                    _ => self.report_first(
                        "Missing key/value separator",
                        "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                        next.range,
                    ),
                }
                break self.recover(Kind::Token(TokenKind::CBrace));
            }
            self.read();
            let value = self.expression();
            if self.recovery && value.failed {
                break self.recover(Kind::Token(TokenKind::CBrace));
            }
            let next = self.peek();
            match next.kind {
                Kind::Token(TokenKind::CBrace) => break self.read(),
                Kind::Token(TokenKind::Comma | TokenKind::Newline) => {
                    self.read();
                }
                Kind::Eof => {
                    self.report_first(unterminated, unterminated_detail, open.range);
                    break self.recover(Kind::Token(TokenKind::CBrace));
                }
                _ => {
                    self.report_first(
                        "Missing attribute separator",
                        "Expected a newline or comma to mark the beginning of the next attribute.",
                        next.range,
                    );
                    break self.recover(Kind::Token(TokenKind::CBrace));
                }
            }
        };
        self.pop_newlines();
        self.parsed(between(open.range, close.range), before)
    }

    /// HCL's `finishParsingForExpr`, at the `for` after `open`.
    fn for_expression(&mut self, open: Tok, before: usize) -> Parsed {
        self.push_newlines(false);
        let parsed = self.for_expression_inner(open, before);
        self.pop_newlines();
        parsed
    }

    fn for_expression_inner(&mut self, open: Tok, before: usize) -> Parsed {
        self.read();
        let (close_kind, makes_object) = if open.kind == Kind::Token(TokenKind::OBrace) {
            (Kind::Token(TokenKind::CBrace), true)
        } else {
            (Kind::Token(TokenKind::CBrack), false)
        };
        let summary = "Invalid 'for' expression";
        let give_up = |parser: &mut Self, detail: Option<&str>| {
            if let Some(detail) = detail {
                let at = parser.peek().range;
                parser.report_first(summary, detail, at);
            }
            let close = parser.recover(close_kind);
            parser.parsed(between(open.range, close.range), before)
        };
        if !self.peek_is(TokenKind::Ident) {
            return give_up(
                self,
                Some("For expression requires variable name after 'for'."),
            );
        }
        self.read();
        if self.peek_is(TokenKind::Comma) {
            self.read();
            if !self.peek_is(TokenKind::Ident) {
                return give_up(
                    self,
                    Some("For expression requires value variable name after comma."),
                );
            }
            self.read();
        }
        if !self.peek_keyword("in") {
            return give_up(
                self,
                Some("For expression requires the 'in' keyword after its name declarations."),
            );
        }
        self.read();
        let collection = self.expression();
        if self.recovery && collection.failed {
            return give_up(self, None);
        }
        if !self.peek_is(TokenKind::Colon) {
            return give_up(
                self,
                Some("For expression requires a colon after the collection expression."),
            );
        }
        self.read();
        let mut value = self.expression();
        let mut key = None;
        if self.peek_is(TokenKind::FatArrow) {
            self.read();
            key = Some(value);
            value = self.expression();
        }
        if self.recovery && (value.failed || key.is_some_and(|key| key.failed)) {
            return give_up(self, None);
        }
        let ellipsis = self.peek_is(TokenKind::Ellipsis).then(|| self.read());
        if self.peek_keyword("if") {
            self.read();
            let condition = self.expression();
            if self.recovery && condition.failed {
                return give_up(self, None);
            }
        }
        let close = if self.peek().kind == close_kind {
            self.read()
        } else {
            let at = self.peek().range;
            self.report_first(
                summary,
                "Extra characters after the end of the 'for' expression.",
                at,
            );
            self.recover(close_kind)
        };
        if makes_object {
            if key.is_none() {
                self.report(
                    summary,
                    "Key expression is required when building an object.",
                    value.range,
                );
            }
        } else {
            if let Some(key) = key {
                self.report(
                    summary,
                    "Key expression is not valid when building a tuple.",
                    key.range,
                );
            }
            if let Some(ellipsis) = ellipsis {
                self.report(
                    summary,
                    "Grouping ellipsis (...) cannot be used when building a tuple.",
                    ellipsis.range,
                );
            }
        }
        self.parsed(between(open.range, close.range), before)
    }
}

/// HCL's `oppositeBracket` for the closers `recover` looks for.
fn opposite(end: Kind) -> Option<Kind> {
    let open = match end {
        Kind::Token(TokenKind::CBrace) => TokenKind::OBrace,
        Kind::Token(TokenKind::CBrack) => TokenKind::OBrack,
        Kind::Token(TokenKind::CParen) => TokenKind::OParen,
        Kind::Token(TokenKind::CQuote) => TokenKind::OQuote,
        Kind::Token(TokenKind::CHeredoc) => TokenKind::OHeredoc,
        Kind::Token(TokenKind::OBrace) => TokenKind::CBrace,
        Kind::Token(TokenKind::OBrack) => TokenKind::CBrack,
        Kind::Token(TokenKind::OParen) => TokenKind::CParen,
        Kind::Token(TokenKind::TemplateSeqEnd) => TokenKind::TemplateInterp,
        _ => return None,
    };
    Some(Kind::Token(open))
}

/// The Levenshtein distance of `a` and `b` in characters (HCL's
/// `nameSuggestion` suggests a keyword closer than 3).
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        let mut previous = i + 1;
        let mut next_row = Vec::with_capacity(row.len());
        next_row.push(previous);
        for (j, cb) in b.iter().enumerate() {
            let above = row.get(j + 1).copied().unwrap_or(usize::MAX);
            let cost = usize::from(ca != *cb);
            let value = (diagonal + cost).min(above + 1).min(previous + 1);
            diagonal = above;
            previous = value;
            next_row.push(value);
        }
        row = next_row;
    }
    row.last().copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    /// Each error as `summary @start..end: detail`, the place a detail
    /// names written `<start..end>`.
    fn errors(source: &str) -> Vec<String> {
        template_errors(source)
            .iter()
            .map(|error| {
                let detail = error.detail_with(|range| format!("<{}..{}>", range.start, range.end));
                format!(
                    "{} @{}..{}: {detail}",
                    error.summary, error.range.start, error.range.end
                )
            })
            .collect()
    }

    const UNBALANCED: &str = "The control directives within this template are unbalanced.";

    /// What OpenTofu 1.12.6 reported for each template as a JSON string's
    /// content (`tofu validate -json`, columns less the string's start).
    #[test]
    fn errors_are_hcls_for_each_kind_of_mistake() {
        let extra = "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".";
        let invalid =
            "Invalid expression @{}: Expected the start of an expression, but found an invalid expression token.";
        let unclosed = "Unclosed template interpolation sequence @0..2: There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.";
        let cases: Vec<(&str, Vec<String>)> = vec![
            ("${foo", vec![unclosed.to_owned()]),
            // HCL's subject is the template's first token, here "x ".
            ("x ${foo", vec![unclosed.to_owned()]),
            ("x ${local.a + } y", vec![invalid.replace("{}", "14..15")]),
            ("${}", vec![invalid.replace("{}", "2..3")]),
            (
                "%{ if true }x",
                vec!["Unexpected end of template @13..13: The if directive at <0..12> is missing its corresponding endif directive.".to_owned()],
            ),
            (
                "%{ endif }",
                vec![format!("Unexpected endif directive @0..10: {UNBALANCED}")],
            ),
            (
                "%{ for x in [1] }x",
                vec!["Unexpected end of template @18..18: The for directive at <0..17> is missing its corresponding endfor directive.".to_owned()],
            ),
            (
                "${ \"abc }",
                vec!["Unterminated template string @9..9: No closing marker was found for the string.".to_owned()],
            ),
            (
                "%{ if true }a%{ else }b%{ else }c%{ endif }",
                vec![
                    "Unexpected else directive @23..32: Already in the else clause for the if started at <0..12>.".to_owned(),
                    format!("Unexpected endif directive @33..43: {UNBALANCED}"),
                ],
            ),
            (
                "%{ for x in [1] }a%{ else }b%{ endfor }",
                vec![
                    "Unexpected else directive @18..27: An else clause is not expected for a for directive.".to_owned(),
                    format!("Unexpected endfor directive @28..39: {UNBALANCED}"),
                ],
            ),
            (
                "%{ if true }a%{ endfor }",
                vec!["Unexpected endfor directive @13..24: Expecting an endif directive for the if started at <0..12>.".to_owned()],
            ),
            (
                "%{ foo }",
                vec!["Invalid template control keyword @3..6: \"foo\" is not a valid template control keyword. Did you mean \"for\"?".to_owned()],
            ),
            (
                "%{ if true",
                vec![
                    "Extra characters in if marker @10..10: Expected a closing brace to end the sequence, but found extra characters.".to_owned(),
                    "Unexpected end of template @10..10: The if directive at <0..10> is missing its corresponding endif directive.".to_owned(),
                ],
            ),
            (
                "${ a b }",
                vec![format!("Extra characters after interpolation expression @5..6: {extra}")],
            ),
            (
                "${ a: b }",
                vec!["Extra characters after interpolation expression @4..5: Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".".to_owned()],
            ),
            (
                "%{ }",
                vec!["Invalid template directive @3..4: A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.".to_owned()],
            ),
            (
                "%{ for }%{ endfor }",
                vec![
                    "Invalid 'for' directive @7..8: For directive requires variable name after 'for'.".to_owned(),
                    format!("Unexpected endfor directive @8..19: {UNBALANCED}"),
                ],
            ),
            (
                "%{ for x y }%{ endfor }",
                vec![
                    "Invalid 'for' directive @9..10: For directive requires 'in' keyword after names.".to_owned(),
                    format!("Unexpected endfor directive @12..23: {UNBALANCED}"),
                ],
            ),
            (
                "%{ if true x }%{ endif }",
                vec!["Extra characters in if marker @11..12: Expected a closing brace to end the sequence, but found extra characters.".to_owned()],
            ),
            (
                "${ [1, 2 }",
                vec!["Missing item separator @9..10: Expected a comma to mark the beginning of the next item.".to_owned()],
            ),
            (
                "${ upper(\"a\" }",
                vec!["Missing argument separator @13..14: A comma is required to separate each function argument from the next.".to_owned()],
            ),
            (
                "${ a. }",
                vec!["Invalid attribute name @6..7: An attribute name is required after a dot.".to_owned()],
            ),
            (
                "${ 1 ^ 2 }",
                vec![
                    "Unsupported operator @5..6: Bitwise operators are not supported.".to_owned(),
                    format!("Extra characters after interpolation expression @5..6: {extra}"),
                ],
            ),
            (
                "x %{ else } y",
                vec![format!("Unexpected else directive @2..11: {UNBALANCED}")],
            ),
            (
                "${ a + } %{ endif }",
                vec![
                    invalid.replace("{}", "7..8"),
                    format!("Unexpected endif directive @9..19: {UNBALANCED}"),
                ],
            ),
        ];
        for (source, expected) in cases {
            assert_eq!(errors(source), expected, "{source:?}");
        }
    }

    /// Cases where hcl-edit and the scanner read the text otherwise than
    /// HCL: what `hclsyntax.ParseTemplate` of the opentofu/hcl fork
    /// OpenTofu 1.12.6 builds with reported.
    #[test]
    fn errors_follow_hcls_scanner_and_parser_where_others_differ() {
        let cases: &[(&str, &[&str])] = &[
            // hcl-edit accepts these.
            (
                "${ a.0.1 }",
                &["Invalid legacy index syntax @5..8: When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [0][1]."],
            ),
            (
                "${ a.*.* }",
                &["Nested splat expression not allowed @7..8: A splat expression (*) cannot be used inside another attribute-only splat expression."],
            ),
            (
                "${ \"abc\ndef\" }",
                &[
                    "Invalid multi-line string @7..8: Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                    "Unterminated template string @7..8: No closing marker was found for the string.",
                ],
            ),
            // The subject of a missing `]` is where the recovery stops.
            (
                "${ a[1 }",
                &["Missing close bracket on index @8..8: The index operator must end with a closing bracket (\"]\")."],
            ),
            // A `/*` that never ends is `/` and `*` to HCL.
            (
                "${ a + b /* c }",
                &["Invalid expression @10..11: Expected the start of an expression, but found an invalid expression token."],
            ),
            // HCL's numbers take every digit, dot and exponent.
            (
                "${ 1.5.3 }",
                &["Invalid number literal @3..8: Failed to recognize the value of this number literal."],
            ),
            ("${ 1.e5 } ${ 1.5.a }", &[]),
            (
                "${ \"a\\qb\" }",
                &["Invalid escape sequence @5..7: The symbol \"q\" is not a valid escape sequence selector."],
            ),
            (
                "${ a & b }",
                &[
                    "Unsupported operator @5..6: Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?",
                    "Extra characters after interpolation expression @5..6: Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                ],
            ),
        ];
        for (source, expected) in cases {
            assert_eq!(errors(source), *expected, "{source:?}");
        }
    }

    #[test]
    fn valid_templates_give_no_errors() {
        for source in [
            "plain",
            "$${x} %%{ if }",
            "a ${upper(\"b\")} %{ if c }d%{ else }e%{ endif }",
            "%{ for k, v in m ~}${k}=${v}\n%{~ endfor }",
            "${ {a = 1, b = [for x in l : x if x]}[\"a\"] }",
            "${ { for k, v in m : k => v... } }",
            "${ a.b[0].*.c[*].d }",
            "${ f(x...) } ${ provider::p::f(1,) } ${ !a && -b > 1 ? c : d }",
            "${ {\n a = 1\n b = 2 # c\n} }",
        ] {
            assert_eq!(errors(source), Vec::<String>::new(), "{source:?}");
        }
    }

    #[test]
    fn deep_nesting_gives_up_without_recursing_forever() {
        let source = format!("${{{}", "(".repeat(100_000));
        assert_eq!(errors(&source), Vec::<String>::new());
    }

    #[test]
    fn suggestions_are_levenshtein_closer_than_three() {
        assert_eq!(levenshtein("foo", "for"), 1);
        assert_eq!(levenshtein("", "endif"), 5);
        assert_eq!(levenshtein("endfro", "endfor"), 2);
        assert_eq!(levenshtein("els", "else"), 1);
    }
}

//! The shape of one file, for folding and for expanding a selection.
//!
//! Folding: every block and every object or list written over several lines
//! (regions), every heredoc (a region from its `<<EOT` to its closing
//! marker), every `/* */` comment over several lines and every run of two
//! or more lines holding only a `#` or `//` comment (comments). Selection:
//! from the token under the cursor outwards, through each expression that
//! holds it, its argument, the block body, the block, and so on up to the
//! whole file.
//!
//! Both read the syntax model and the lexer, never the module analysis, so
//! they work in any file the host holds, loaded by OpenTofu or not. Ranges
//! are byte offsets; which lines they cover is the protocol's business.

use std::path::Path;

use tofu_syntax::{
    Body, Expr, ExprKind, Operation, SourceFile, Syntax, Template, TextRange, TraversalStep,
};

use crate::lexer::{lex_json, lex_native, LexKind, Lexeme};
use crate::snapshot::Snapshot;

/// A range an editor can fold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoldingRange {
    pub range: TextRange,
    pub kind: FoldKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    /// A block, an object or list, or a heredoc.
    Region,
    Comment,
}

impl Snapshot {
    /// The folding ranges of the file at `path`, sorted by start; each
    /// covers more than one line.
    pub fn folding_ranges(&self, path: &Path) -> Option<Vec<FoldingRange>> {
        let parsed = self.parsed_file(path)?;
        let text = parsed.text;
        let mut folds = Vec::new();
        let lexemes = lexemes(text, &parsed.source);
        match parsed.source.syntax {
            // JSON nests its blocks in objects the model does not keep
            // (`"variable": {"a": {…}}`): every bracket pair folds.
            Syntax::Json => json_bracket_folds(text, &lexemes, &mut folds),
            Syntax::Native => body_folds(&parsed.source.body, &mut folds),
        }
        lexeme_folds(text, &lexemes, &mut folds);
        folds.retain(|fold| fold.range.slice(text).contains('\n'));
        folds.sort_by_key(|fold| (fold.range.start, std::cmp::Reverse(fold.range.end)));
        folds.dedup_by_key(|fold| fold.range);
        Some(folds)
    }

    /// The ranges a selection grows through from `offset` of the file at
    /// `path`, innermost first, each holding the one before; the last is
    /// the whole file.
    pub fn selection_ranges(&self, path: &Path, offset: u32) -> Option<Vec<TextRange>> {
        let parsed = self.parsed_file(path)?;
        let text = parsed.text;
        let mut ranges = vec![TextRange::from_usize(0, text.len())];
        body_selection(&parsed.source.body, offset, &mut ranges);
        let token = lexemes(text, &parsed.source)
            .into_iter()
            .filter(|lexeme| lexeme.range.contains_inclusive(offset))
            .min_by_key(|lexeme| lexeme.range.len());
        ranges.extend(token.map(|lexeme| lexeme.range));
        ranges.retain(|range| range.contains_inclusive(offset));
        ranges.sort_by_key(|range| (range.len(), std::cmp::Reverse(range.start)));
        let mut nested: Vec<TextRange> = Vec::with_capacity(ranges.len());
        for range in ranges {
            let holds_last = nested
                .last()
                .is_none_or(|last| range.start <= last.start && last.end <= range.end);
            if holds_last && nested.last() != Some(&range) {
                nested.push(range);
            }
        }
        Some(nested)
    }
}

fn lexemes(text: &str, source: &SourceFile) -> Vec<Lexeme> {
    match source.syntax {
        Syntax::Json => lex_json(text),
        Syntax::Native => lex_native(text),
    }
}

fn body_folds(body: &Body, folds: &mut Vec<FoldingRange>) {
    let region = |range| FoldingRange {
        range,
        kind: FoldKind::Region,
    };
    for attr in &body.attributes {
        attr.expr.walk(&mut |expr| {
            if matches!(expr.kind, ExprKind::Object(_) | ExprKind::Array(_)) {
                folds.push(region(expr.range));
            }
        });
    }
    for block in &body.blocks {
        folds.push(region(block.range));
        body_folds(&block.body, folds);
    }
}

/// Every `{…}` and `[…]` of a JSON text, strings skipped.
fn json_bracket_folds(text: &str, lexemes: &[Lexeme], folds: &mut Vec<FoldingRange>) {
    let mut strings = lexemes
        .iter()
        .filter(|lexeme| lexeme.kind == LexKind::String)
        .map(|lexeme| lexeme.range)
        .peekable();
    let mut open: Vec<usize> = Vec::new();
    let mut at = 0usize;
    let bytes = text.as_bytes();
    while let Some(&byte) = bytes.get(at) {
        if let Some(string) = strings.peek().copied() {
            if string.start as usize == at {
                at = (string.end as usize).max(at + 1);
                strings.next();
                continue;
            }
        }
        match byte {
            b'{' | b'[' => open.push(at),
            b'}' | b']' => {
                if let Some(start) = open.pop() {
                    folds.push(FoldingRange {
                        range: TextRange::from_usize(start, at + 1),
                        kind: FoldKind::Region,
                    });
                }
            }
            _ => {}
        }
        at += 1;
    }
}

/// Heredocs, `/* */` comments and runs of line comments.
fn lexeme_folds(text: &str, lexemes: &[Lexeme], folds: &mut Vec<FoldingRange>) {
    let mut open_heredocs: Vec<u32> = Vec::new();
    // The run of whole-line comments being read: where it starts and ends,
    // and how many lines it has.
    let mut run: Option<(TextRange, usize)> = None;
    let end_run = |run: &mut Option<(TextRange, usize)>, folds: &mut Vec<FoldingRange>| {
        if let Some((range, n_lines)) = run.take() {
            if n_lines >= 2 {
                folds.push(FoldingRange {
                    range,
                    kind: FoldKind::Comment,
                });
            }
        }
    };
    for lexeme in lexemes {
        let range = lexeme.range;
        match lexeme.kind {
            LexKind::HeredocMarker if range.slice(text).starts_with("<<") => {
                open_heredocs.push(range.start);
            }
            LexKind::HeredocMarker => {
                if let Some(start) = open_heredocs.pop() {
                    folds.push(FoldingRange {
                        range: TextRange::new(start, range.end),
                        kind: FoldKind::Region,
                    });
                }
            }
            LexKind::Comment if range.slice(text).starts_with("/*") => {
                end_run(&mut run, folds);
                folds.push(FoldingRange {
                    range,
                    kind: FoldKind::Comment,
                });
            }
            LexKind::Comment if starts_line(text, range.start) => {
                let follows = run.is_some_and(|(previous, _)| {
                    let between = TextRange::new(previous.end, range.start).slice(text);
                    between.trim_matches([' ', '\t', '\r']) == "\n"
                });
                match (&mut run, follows) {
                    (Some((previous, n_lines)), true) => {
                        *previous = previous.cover(range);
                        *n_lines += 1;
                    }
                    _ => {
                        end_run(&mut run, folds);
                        run = Some((range, 1));
                    }
                }
            }
            _ => end_run(&mut run, folds),
        }
    }
    end_run(&mut run, folds);
}

/// True when only blanks come before `offset` on its line.
fn starts_line(text: &str, offset: u32) -> bool {
    let before = text.get(..offset as usize).unwrap_or_default();
    let line = before.rsplit('\n').next().unwrap_or_default();
    line.chars().all(|c| c == ' ' || c == '\t')
}

/// The block, body, argument and expression ranges around `offset`.
fn body_selection(body: &Body, offset: u32, ranges: &mut Vec<TextRange>) {
    for attr in &body.attributes {
        if !attr.range.contains_inclusive(offset) {
            continue;
        }
        ranges.push(attr.range);
        ranges.push(attr.name_range);
        expr_selection(&attr.expr, offset, ranges);
    }
    for block in &body.blocks {
        if !block.range.contains_inclusive(offset) {
            continue;
        }
        ranges.push(block.range);
        ranges.push(block.header);
        ranges.push(block.kind_range);
        ranges.extend(block.labels.iter().map(|label| label.range));
        if let (Some(open), Some(close)) = (block.body.open, block.body.close) {
            ranges.push(open.cover(close));
        }
        body_selection(&block.body, offset, ranges);
    }
}

/// `expr` and every expression inside it that holds `offset`; for a
/// traversal, each prefix (`aws_instance.web` in `aws_instance.web.id`).
fn expr_selection(expr: &Expr, offset: u32, ranges: &mut Vec<TextRange>) {
    if !expr.range.contains_inclusive(offset) {
        return;
    }
    ranges.push(expr.range);
    match &expr.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
        ExprKind::Template(Template {
            expressions: parts, ..
        })
        | ExprKind::Array(parts)
        | ExprKind::Operation(Operation {
            operands: parts, ..
        }) => {
            for part in parts {
                expr_selection(part, offset, ranges);
            }
        }
        ExprKind::Object(items) => {
            for item in items {
                ranges.push(item.key.range.cover(item.value.range));
                expr_selection(&item.key, offset, ranges);
                expr_selection(&item.value, offset, ranges);
            }
        }
        ExprKind::Traversal(traversal) => {
            let mut prefix = traversal.root_range;
            ranges.push(prefix);
            for step in &traversal.steps {
                let step_range = match step {
                    TraversalStep::Attr { range, .. }
                    | TraversalStep::Index { range, .. }
                    | TraversalStep::Splat { range, .. } => *range,
                };
                prefix = prefix.cover(step_range);
                ranges.push(prefix);
                ranges.push(step_range);
                if let TraversalStep::Index { key, .. } = step {
                    expr_selection(key, offset, ranges);
                }
            }
        }
        ExprKind::Call(call) => {
            ranges.push(call.name_range);
            for arg in &call.args {
                expr_selection(arg, offset, ranges);
            }
        }
        ExprKind::For(for_expr) => {
            ranges.extend(for_expr.names.iter().map(|(_, range)| *range));
            expr_selection(&for_expr.collection, offset, ranges);
            for part in &for_expr.body {
                expr_selection(part, offset, ranges);
            }
        }
    }
}

//! Where the blanks go: the layout `tofu fmt` gives a token stream, worked
//! out line by line.
//!
//! A line is the tokens up to a line break (a `#`/`//` comment ends its line
//! too); a heredoc's body belongs to the line that opens it, so it is never
//! indented or split. Each line is cut into up to three cells: the *lead*,
//! the *assignment* (from the first `=` after the line's first token to the
//! end, when the brackets from there to the end balance) and a trailing
//! comment. Then:
//!
//! - **indentation**: two spaces per open bracket level. A line whose
//!   brackets open more than they close is indented at the current level and
//!   opens one level (remembering how many brackets it opened); a line that
//!   closes more than it opens first closes levels, then is indented; a line
//!   that balances stays at the current level. Counting stops at a heredoc.
//! - **spacing**: one space between tokens of a cell, except where
//!   [`space_between`] says none;
//! - **alignment**: in a run of consecutive lines with an assignment, the
//!   `=` signs line up one space after the longest lead; in a run of lines
//!   with a trailing comment, the comments line up one space after the
//!   longest line. Widths count grapheme clusters.
//!
//! Blanks inside tokens (literal text, heredoc bodies, comments) are never
//! touched, nor are the blanks at the very end of a file without a final
//! line break (kept as that many spaces).

use unicode_segmentation::UnicodeSegmentation;

use tofu_syntax::scanner::TokenKind;

use crate::rewrite::Piece;
use crate::tokens::bracket_change;

/// The formatted text and, for each piece, where its text starts in it.
pub(crate) struct Laid {
    pub(crate) text: String,
    pub(crate) starts: Vec<usize>,
}

struct Line {
    /// Pieces `start..end`; the assignment cell starts at `assign` and the
    /// comment cell at `comment`, when the line has them.
    start: usize,
    end: usize,
    assign: Option<usize>,
    comment: Option<usize>,
}

pub(crate) fn lay_out(pieces: &[Piece<'_>], trailing_blanks: usize) -> Laid {
    let lines = split_lines(pieces);
    let mut spaces = vec![0usize; pieces.len()];
    indent(pieces, &lines, &mut spaces);
    for line in &lines {
        let lead_end = line.assign.or(line.comment).unwrap_or(line.end);
        space_cell(pieces, line.start, lead_end, &mut spaces);
        if let Some(assign) = line.assign {
            space_cell(
                pieces,
                assign,
                line.comment.unwrap_or(line.end),
                &mut spaces,
            );
        }
    }
    align(
        pieces,
        &lines,
        &mut spaces,
        |line| line.assign,
        |line| (line.start, line.assign.unwrap_or(line.start)),
    );
    align(
        pieces,
        &lines,
        &mut spaces,
        |line| line.comment,
        |line| (line.start, line.comment.unwrap_or(line.start)),
    );
    let capacity = pieces
        .iter()
        .map(|piece| piece.text.len() + 1)
        .sum::<usize>();
    let mut text = String::with_capacity(capacity + trailing_blanks);
    let mut starts = Vec::with_capacity(pieces.len());
    for (piece, count) in pieces.iter().zip(&spaces) {
        push_spaces(&mut text, *count);
        starts.push(text.len());
        text.push_str(&piece.text);
    }
    push_spaces(&mut text, trailing_blanks);
    Laid { text, starts }
}

fn push_spaces(text: &mut String, count: usize) {
    text.extend(std::iter::repeat_n(' ', count));
}

fn ends_line(piece: &Piece<'_>) -> bool {
    piece.kind == TokenKind::Newline
        || (piece.kind == TokenKind::Comment && piece.text.ends_with('\n'))
}

fn kind(pieces: &[Piece<'_>], index: usize) -> Option<TokenKind> {
    pieces.get(index).map(|piece| piece.kind)
}

/// Net bracket change of pieces `from..to`, stopping at a heredoc.
fn net_brackets(pieces: &[Piece<'_>], from: usize, to: usize) -> i64 {
    let mut net = 0;
    for piece in pieces.get(from..to).unwrap_or_default() {
        net += bracket_change(piece.kind);
        if piece.kind == TokenKind::OHeredoc {
            break;
        }
    }
    net
}

fn split_lines(pieces: &[Piece<'_>]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (index, piece) in pieces.iter().enumerate() {
        if ends_line(piece) {
            lines.push(cells(pieces, start, index + 1));
            start = index + 1;
        }
    }
    if start < pieces.len() {
        lines.push(cells(pieces, start, pieces.len()));
    }
    lines
}

fn cells(pieces: &[Piece<'_>], start: usize, end: usize) -> Line {
    let mut lead_end = end;
    let mut comment = None;
    if end - start > 1 && kind(pieces, end - 1) == Some(TokenKind::Comment) {
        comment = Some(end - 1);
        lead_end = end - 1;
    }
    let assign = (start + 1..lead_end)
        .find(|index| kind(pieces, *index) == Some(TokenKind::Equal))
        .filter(|equals| net_brackets(pieces, *equals, lead_end) == 0);
    Line {
        start,
        end,
        assign,
        comment,
    }
}

fn indent(pieces: &[Piece<'_>], lines: &[Line], spaces: &mut [usize]) {
    let mut levels: Vec<i64> = Vec::new();
    for line in lines {
        if line.start >= line.end {
            continue;
        }
        if kind(pieces, line.start) == Some(TokenKind::Newline) {
            continue;
        }
        let net = net_brackets(pieces, line.start, line.end);
        let at_level = if net > 0 {
            let level = levels.len();
            levels.push(net);
            level
        } else {
            let mut closing = -net;
            while closing > 0 {
                let Some(top) = levels.last_mut() else {
                    break;
                };
                if *top <= closing {
                    closing -= *top;
                    levels.pop();
                } else {
                    *top -= closing;
                    closing = 0;
                }
            }
            levels.len()
        };
        if let Some(slot) = spaces.get_mut(line.start) {
            *slot = 2 * at_level;
        }
    }
}

/// Spaces between the pieces `start..end` of one cell.
fn space_cell(pieces: &[Piece<'_>], start: usize, end: usize, spaces: &mut [usize]) {
    for index in start + 1..end {
        let before = if index >= start + 2 {
            kind(pieces, index - 2)
        } else {
            None
        };
        let (Some(subject), Some(after)) = (kind(pieces, index - 1), kind(pieces, index)) else {
            continue;
        };
        if let Some(slot) = spaces.get_mut(index) {
            *slot = usize::from(space_between(before, subject, after));
        }
    }
}

/// Whether `tofu fmt` puts a space between `subject` and `after` (`before`
/// is the token before `subject` in the same cell, if any).
fn space_between(before: Option<TokenKind>, subject: TokenKind, after: TokenKind) -> bool {
    use TokenKind::*;
    match (subject, after) {
        (_, Newline) => false,
        (Ident, OParen) => false,
        (DoubleColon, _) | (_, DoubleColon) => false,
        (Dot, _) | (_, Dot) => false,
        (_, Comma | Ellipsis) => false,
        (Comma, _) => true,
        (OQuote | OHeredoc | QuotedLit | StringLit, _) => false,
        (_, CQuote | CHeredoc | QuotedLit | StringLit | TemplateInterp | TemplateControl) => false,
        (Bang, _) => false,
        (OBrace, CBrace) => false,
        (OBrace, _) | (_, CBrace) => true,
        (subject, _) if bracket_change(subject) > 0 => false,
        (_, after) if bracket_change(after) < 0 => false,
        (Minus, _) => !matches!(
            before,
            None | Some(
                OParen
                    | OBrace
                    | OBrack
                    | Equal
                    | Colon
                    | Comma
                    | Question
                    | Plus
                    | Star
                    | Slash
                    | Percent
                    | Minus
                    | EqualOp
                    | NotEqual
                    | GreaterThan
                    | GreaterThanEq
                    | LessThan
                    | LessThanEq
                    | And
                    | Or
                    | Bang
            )
        ),
        (Ident | NumberLit | CBrack | CParen | CBrace, OBrack) => false,
        _ => true,
    }
}

fn width(pieces: &[Piece<'_>], spaces: &[usize], from: usize, to: usize) -> usize {
    (from..to)
        .map(|index| {
            let text_width = pieces
                .get(index)
                .map_or(0, |piece| piece.text.graphemes(true).count());
            spaces.get(index).copied().unwrap_or(0) + text_width
        })
        .sum()
}

/// Lines up the cell `cell(line)` over runs of consecutive lines that have
/// it: its first piece goes one space after the widest `span(line)`.
fn align(
    pieces: &[Piece<'_>],
    lines: &[Line],
    spaces: &mut [usize],
    cell: impl Fn(&Line) -> Option<usize>,
    span: impl Fn(&Line) -> (usize, usize),
) {
    let mut run_start = 0;
    while run_start < lines.len() {
        let run_end = run_start
            + lines
                .get(run_start..)
                .unwrap_or_default()
                .iter()
                .take_while(|line| cell(line).is_some())
                .count();
        if run_end == run_start {
            run_start += 1;
            continue;
        }
        let run = lines.get(run_start..run_end).unwrap_or_default();
        let widths: Vec<usize> = run
            .iter()
            .map(|line| {
                let (from, to) = span(line);
                width(pieces, spaces, from, to)
            })
            .collect();
        let widest = widths.iter().copied().max().unwrap_or(0);
        for (line, line_width) in run.iter().zip(widths) {
            if let Some(slot) = cell(line).and_then(|first| spaces.get_mut(first)) {
                *slot = widest - line_width + 1;
            }
        }
        run_start = run_end;
    }
}

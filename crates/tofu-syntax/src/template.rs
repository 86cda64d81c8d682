//! HCL's reading of a template's pieces into the model's [`Template`]:
//! strip markers, `<<-` indentation, joined literals and the directive tree.
//!
//! HCL's parser does this on a flat sequence of template tokens
//! (`parseTemplateParts`, `flushHeredocTemplateParts`,
//! `meldConsecutiveStringLiterals`, then `templateParser` in
//! `hclsyntax/parser_template.go`), and some of its results only make sense
//! on that sequence: a `~` trims the one literal token next to it, and in a
//! heredoc (or a template read on its own) every line is a token of its own,
//! so `~}` trims up to the end of its line and no further. The native
//! converter flattens hcl-edit's tree into [`Piece`]s with literals cut as
//! HCL's scanner cuts them ([`line_tokens`]); [`build`] does the rest the
//! way HCL does. No parsing of source text here.

use unicode_segmentation::UnicodeSegmentation;

use crate::model::{Expr, ExprKind, Strip, Template, TemplatePart};

/// One of HCL's template tokens.
#[derive(Debug)]
pub(crate) enum Piece {
    /// A literal token, escapes decoded.
    Literal(String),
    Interpolation {
        expr: Expr,
        strip: Strip,
    },
    If {
        condition: Expr,
        strip: Strip,
    },
    Else {
        strip: Strip,
    },
    EndIf {
        strip: Strip,
    },
    /// `%{ for … }`: a `For` expression of kind `Directive` whose body and
    /// template [`build`] fills.
    For {
        directive: Expr,
        strip: Strip,
    },
    EndFor {
        strip: Strip,
    },
}

impl Piece {
    fn strip(&self) -> Strip {
        match self {
            Piece::Literal(_) => Strip::default(),
            Piece::Interpolation { strip, .. }
            | Piece::If { strip, .. }
            | Piece::Else { strip }
            | Piece::EndIf { strip }
            | Piece::For { strip, .. }
            | Piece::EndFor { strip } => *strip,
        }
    }
}

/// `text` cut into HCL's line tokens: each ends after a `\n` but the last.
pub(crate) fn line_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n')
}

/// The template HCL's parser makes of `pieces`; `flush` for a `<<-` heredoc.
pub(crate) fn build(pieces: Vec<Piece>, flush: bool) -> Template {
    let mut pieces = apply_strip_markers(pieces);
    if flush {
        flush_indentation(&mut pieces);
    }
    let pieces = join_literals(pieces);
    let mut template = Template::default();
    let mut reader = pieces.into_iter();
    template.parts = read_parts(&mut reader, &mut template.expressions).0;
    template
}

/// HCL's `parseTemplateParts`: `${~`/`%{~` trims the end of the literal token
/// just before it, `~}` the start of the one just after it.
fn apply_strip_markers(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    let mut trim_next = false;
    let mut previous_is_literal = false;
    for piece in pieces {
        let trim_this = std::mem::take(&mut trim_next);
        let can_trim_previous = std::mem::take(&mut previous_is_literal);
        match piece {
            Piece::Literal(text) => {
                let text = if trim_this {
                    text.trim_start().to_owned()
                } else {
                    text
                };
                out.push(Piece::Literal(text));
                previous_is_literal = true;
            }
            marker => {
                let strip = marker.strip();
                if strip.before && can_trim_previous {
                    if let Some(Piece::Literal(previous)) = out.last_mut() {
                        let kept = previous.trim_end().len();
                        previous.truncate(kept);
                    }
                }
                trim_next = strip.after;
                out.push(marker);
            }
        }
    }
    out
}

/// HCL's `flushHeredocTemplateParts`: the fewest leading whitespace
/// characters (grapheme clusters) of any line that starts with a literal and
/// is not blank are removed from every line; a line that starts with an
/// interpolation or a directive leaves every line as it is. A line is known
/// to start only after a literal token that ends with a newline, so a line
/// whose newline a strip marker ate joins the next one.
fn flush_indentation(pieces: &mut [Piece]) {
    let mut fewest = usize::MAX;
    let mut at_line_start = true;
    let mut adjust = Vec::new();
    for (index, piece) in pieces.iter().enumerate() {
        if at_line_start {
            at_line_start = false;
            let mut spaces = 0;
            if let Piece::Literal(text) = piece {
                let rest = text.trim_start();
                if rest.is_empty() && text.ends_with('\n') {
                    spaces = usize::MAX;
                } else {
                    let leading = text.get(..text.len() - rest.len()).unwrap_or_default();
                    spaces = grapheme_count(leading);
                    adjust.push(index);
                }
            }
            fewest = fewest.min(spaces);
        }
        if let Piece::Literal(text) = piece {
            if text.ends_with('\n') {
                at_line_start = true;
            }
        }
    }
    for index in adjust {
        if let Some(Piece::Literal(text)) = pieces.get_mut(index) {
            let cut = grapheme_prefix_len(text, fewest);
            text.replace_range(..cut, "");
        }
    }
}

/// How many grapheme clusters `text` has; plain ASCII without `\r` (the
/// common indentation) has one per byte, and skips the segmenter.
fn grapheme_count(text: &str) -> usize {
    if text.bytes().all(|byte| byte.is_ascii() && byte != b'\r') {
        text.len()
    } else {
        text.graphemes(true).count()
    }
}

/// The length in bytes of the first `count` grapheme clusters of `text`.
/// Where those bytes and the one after them are ASCII without `\r`, each
/// byte is a cluster (a combining mark after them would join the last).
fn grapheme_prefix_len(text: &str, count: usize) -> usize {
    let plain = text
        .bytes()
        .take(count.saturating_add(1))
        .all(|byte| byte.is_ascii() && byte != b'\r');
    if plain {
        count.min(text.len())
    } else {
        text.graphemes(true).take(count).map(str::len).sum()
    }
}

/// HCL's `meldConsecutiveStringLiterals`.
fn join_literals(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        if let (Piece::Literal(text), Some(Piece::Literal(previous))) = (&piece, out.last_mut()) {
            previous.push_str(text);
            continue;
        }
        out.push(piece);
    }
    out
}

/// What ended a run of parts.
enum Closer {
    Else(Strip),
    EndIf(Strip),
    EndFor(Strip),
    /// The end of the template (or an unbalanced marker, which hcl-edit
    /// does not produce).
    End,
}

/// HCL's `templateParser`: parts up to the next `else`, `endif` or `endfor`,
/// with their expressions appended to `expressions`.
fn read_parts(
    reader: &mut std::vec::IntoIter<Piece>,
    expressions: &mut Vec<Expr>,
) -> (Vec<TemplatePart>, Closer) {
    let mut parts = Vec::new();
    while let Some(piece) = reader.next() {
        match piece {
            Piece::Literal(text) => parts.push(TemplatePart::Literal(text)),
            Piece::Interpolation { expr, strip } => {
                parts.push(TemplatePart::Interpolation {
                    expression: expressions.len(),
                    strip,
                });
                expressions.push(expr);
            }
            Piece::If { condition, strip } => {
                let condition_index = expressions.len();
                expressions.push(condition);
                let (then, closer) = read_parts(reader, expressions);
                let (otherwise, else_strip, endif_strip) = match closer {
                    Closer::Else(else_strip) => {
                        let (otherwise, closer) = read_parts(reader, expressions);
                        let endif_strip = match closer {
                            Closer::EndIf(endif_strip) => endif_strip,
                            _ => Strip::default(),
                        };
                        (Some(otherwise), else_strip, endif_strip)
                    }
                    Closer::EndIf(endif_strip) => (None, Strip::default(), endif_strip),
                    Closer::EndFor(_) | Closer::End => (None, Strip::default(), Strip::default()),
                };
                parts.push(TemplatePart::If {
                    condition: condition_index,
                    then,
                    otherwise,
                    strip: [strip, else_strip, endif_strip],
                });
            }
            Piece::For { directive, strip } => {
                let mut directive = directive;
                let mut body = Vec::new();
                let (template, closer) = read_parts(reader, &mut body);
                let endfor_strip = match closer {
                    Closer::EndFor(endfor_strip) => endfor_strip,
                    _ => Strip::default(),
                };
                if let ExprKind::For(for_expr) = &mut directive.kind {
                    for_expr.body = body;
                    for_expr.template = template;
                }
                parts.push(TemplatePart::For {
                    directive: expressions.len(),
                    strip: [strip, endfor_strip],
                });
                expressions.push(directive);
            }
            Piece::Else { strip } => return (parts, Closer::Else(strip)),
            Piece::EndIf { strip } => return (parts, Closer::EndIf(strip)),
            Piece::EndFor { strip } => return (parts, Closer::EndFor(strip)),
        }
    }
    (parts, Closer::End)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::TextRange;

    #[test]
    fn indentation_counts_grapheme_clusters_with_or_without_the_fast_path() {
        assert_eq!(grapheme_count("    "), 4);
        assert_eq!(grapheme_count("\u{3000}\u{3000}"), 2);
        assert_eq!(grapheme_count(" \r\n"), 2);
        assert_eq!(grapheme_prefix_len("  x", 2), 2);
        // A combining mark joins the space before it: one cluster, 3 bytes.
        assert_eq!(grapheme_prefix_len(" \u{301}x", 1), 3);
        assert_eq!(grapheme_prefix_len("\u{3000}x", 1), 3);
        assert_eq!(grapheme_prefix_len("ab", 5), 2);
    }

    fn literal(text: &str) -> Piece {
        Piece::Literal(text.to_owned())
    }

    fn interpolation(before: bool, after: bool) -> Piece {
        Piece::Interpolation {
            expr: Expr {
                range: TextRange::default(),
                kind: ExprKind::Null,
            },
            strip: Strip { before, after },
        }
    }

    fn literals(template: &Template) -> Vec<&str> {
        template
            .parts
            .iter()
            .filter_map(|part| match part {
                TemplatePart::Literal(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn strip_markers_trim_the_token_next_to_them() {
        let template = build(
            vec![
                literal("a \n"),
                literal("  "),
                interpolation(true, true),
                literal(" \n"),
                literal("  b\n"),
            ],
            false,
        );
        // The line before the marker keeps its newline; the line after it
        // keeps its indentation: each line is one token.
        assert_eq!(literals(&template), ["a \n", "  b\n"]);
    }

    #[test]
    fn a_marker_right_after_a_newline_trims_that_line() {
        let template = build(vec![literal("a \n"), interpolation(true, false)], false);
        assert_eq!(literals(&template), ["a"]);
    }

    #[test]
    fn flush_counts_non_blank_lines_only() {
        let template = build(
            vec![literal("    a\n"), literal("  \n"), literal("    b\n")],
            true,
        );
        assert_eq!(literals(&template), ["a\n  \nb\n"]);
    }

    #[test]
    fn a_line_starting_with_an_interpolation_stops_the_flush() {
        let template = build(
            vec![literal("  a\n"), interpolation(false, false), literal("\n")],
            true,
        );
        assert_eq!(literals(&template), ["  a\n", "\n"]);
    }

    #[test]
    fn an_emptied_literal_stays() {
        let template = build(vec![interpolation(false, true), literal(" ")], false);
        assert_eq!(template.parts.len(), 2);
        assert_eq!(literals(&template), [""]);
    }
}

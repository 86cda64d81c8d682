//! After hcl-edit rejects a file: which delimiter is left open, found the way
//! HCL's scanner sees the text, so the error can be reported where and as
//! OpenTofu reports it (`Unclosed configuration block` on the opening brace,
//! `Unterminated template string`, `Missing item separator`, …) rather than
//! where hcl-edit gave up (often the end of the file).
//!
//! It reads the forgiving [`scanner`](crate::scanner)'s tokens and problems:
//! the three bracket pairs outside template sequences (comments, strings and
//! heredocs never hold a bracket token), strings that reach their line break,
//! template sequences and heredocs the text ends inside. A string broken
//! inside a `${ }` or `%{ }`, or the end of the text there, is reported as
//! the outermost sequence left unclosed. It runs only on files that failed
//! to parse, and reports the first problem it meets; anything it does not
//! recognise leaves hcl-edit's error in place.

use crate::model::SyntaxError;
use crate::scanner::{ScanMode, ScanProblem, Scanner, Token, TokenKind};
use crate::text::TextRange;

/// A delimiter problem, with HCL's wording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// A quoted string reaches the end of its line; `newline` is that line
    /// break's offset.
    UnterminatedString { newline: usize },
    /// A `${` or `%{` inside a quoted string is not closed on its line.
    UnclosedInterpolation { open: usize },
    /// A heredoc without its closing marker.
    UnterminatedHeredoc,
    /// `[` closed by something else; `close` is where.
    MissingItemSeparator { close: usize },
    /// `(` closed by something else.
    MissingArgumentSeparator { close: usize },
    /// The file ends with `{` still open: the outermost one.
    UnclosedBlock { open: usize },
}

impl Problem {
    /// Where the problem is, to compare with where hcl-edit stopped.
    pub(crate) fn offset(&self) -> usize {
        match self {
            Problem::UnterminatedString { newline } => *newline,
            Problem::UnclosedInterpolation { open } | Problem::UnclosedBlock { open } => *open,
            Problem::MissingItemSeparator { close }
            | Problem::MissingArgumentSeparator { close } => *close,
            Problem::UnterminatedHeredoc => usize::MAX,
        }
    }

    /// HCL's errors for the problem, in `content` (ranges relative to it).
    pub(crate) fn errors(&self, content: &str) -> Vec<SyntaxError> {
        let one = |at: usize| TextRange::from_usize(at, (at + 1).min(content.len()));
        let error = |summary: &str, detail: &str, range: TextRange| SyntaxError {
            summary: summary.to_owned(),
            detail: detail.to_owned(),
            range,
            duplicate_argument: false,
        };
        match self {
            Problem::UnterminatedString { newline } => vec![
                error(
                    "Invalid multi-line string",
                    "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                    one(*newline),
                ),
                error(
                    "Unterminated template string",
                    "No closing marker was found for the string.",
                    one(*newline),
                ),
            ],
            Problem::UnclosedInterpolation { open } => vec![error(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                TextRange::from_usize(*open, (*open + 2).min(content.len())),
            )],
            Problem::UnterminatedHeredoc => vec![error(
                "Unterminated template string",
                "No closing marker was found for the string.",
                TextRange::from_usize(content.len(), content.len()),
            )],
            Problem::MissingItemSeparator { close } => vec![error(
                "Missing item separator",
                "Expected a comma to mark the beginning of the next item.",
                one(*close),
            )],
            Problem::MissingArgumentSeparator { close } => vec![error(
                "Missing argument separator",
                "A comma is required to separate each function argument from the next.",
                one(*close),
            )],
            Problem::UnclosedBlock { open } => vec![error(
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                one(*open),
            )],
        }
    }
}

/// The first delimiter problem of `content`, if the scan finds one.
pub(crate) fn first_problem(content: &str) -> Option<Problem> {
    let mut walk = DelimiterWalk::new(content, None);
    walk.run().err()
}

/// `content` with every bracket group that opens at depth `max_depth` or
/// deeper replaced by `0` and spaces (line breaks kept, so every offset
/// stays where it was), and the replaced ranges. For text nested deeper than
/// hcl-edit accepts (64 levels) that OpenTofu reads fine. `None` when the
/// scan finds a problem or nothing that deep.
pub(crate) fn flatten_deep(content: &str, max_depth: usize) -> Option<(String, Vec<TextRange>)> {
    let mut walk = DelimiterWalk::new(content, Some(max_depth));
    walk.run().ok()?;
    let (_, groups) = walk.deep_groups?;
    if groups.is_empty() {
        return None;
    }
    let mut bytes = content.as_bytes().to_vec();
    for group in &groups {
        for (index, byte) in bytes
            .iter_mut()
            .enumerate()
            .take(group.end as usize)
            .skip(group.start as usize)
        {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = if index == group.start as usize {
                    b'0'
                } else {
                    b' '
                };
            }
        }
    }
    // Only ASCII replaced whole characters' bytes: still UTF-8.
    Some((String::from_utf8(bytes).ok()?, groups))
}

/// Whether the walk goes on after a token or a scan problem.
enum Flow {
    Continue,
    /// Text the walk does not understand (an object brace closed by `]`, a
    /// comment opened inside `${ }` that never ends): no problem of its own
    /// to report.
    Stop,
}

struct DelimiterWalk<'a> {
    content: &'a str,
    /// Open brackets outside template sequences: the token and its offset.
    brackets: Vec<(TokenKind, usize)>,
    /// Where the template sequences around the scan opened, outermost first.
    sequences: Vec<usize>,
    /// For [`flatten_deep`]: the depth from which groups are collected, and
    /// the outermost groups opened at that depth or deeper.
    deep_groups: Option<(usize, Vec<TextRange>)>,
}

impl<'a> DelimiterWalk<'a> {
    fn new(content: &'a str, max_depth: Option<usize>) -> DelimiterWalk<'a> {
        DelimiterWalk {
            content,
            brackets: Vec::new(),
            sequences: Vec::new(),
            deep_groups: max_depth.map(|depth| (depth, Vec::new())),
        }
    }

    /// Up to the end of the text, or the first problem (`Err`).
    fn run(&mut self) -> Result<(), Problem> {
        let mut scanner = Scanner::new(self.content, ScanMode::Forgiving);
        let mut n_problems_seen = 0;
        loop {
            let token = scanner.next();
            // A problem is recorded before the token after it.
            for problem in scanner.problems().iter().skip(n_problems_seen) {
                if let Flow::Stop = self.scan_problem(*problem)? {
                    return Ok(());
                }
            }
            n_problems_seen = scanner.problems().len();
            let Some(token) = token else { break };
            if let Flow::Stop = self.token(token)? {
                return Ok(());
            }
        }
        match self
            .brackets
            .iter()
            .find(|(open, _)| *open == TokenKind::OBrace)
        {
            Some(&(_, open)) => Err(Problem::UnclosedBlock { open }),
            None => Ok(()),
        }
    }

    fn token(&mut self, token: Token) -> Result<Flow, Problem> {
        match token.kind {
            TokenKind::TemplateInterp | TokenKind::TemplateControl => {
                self.sequences.push(token.start());
            }
            TokenKind::TemplateSeqEnd => {
                self.sequences.pop();
            }
            _ if !self.sequences.is_empty() => {}
            TokenKind::OBrace | TokenKind::OBrack | TokenKind::OParen => {
                self.brackets.push((token.kind, token.start()));
            }
            TokenKind::CBrace | TokenKind::CBrack | TokenKind::CParen => {
                let close = token.start();
                if let Some((open, opened_at)) = self.brackets.pop() {
                    match (open, token.kind) {
                        (TokenKind::OBrace, TokenKind::CBrace)
                        | (TokenKind::OBrack, TokenKind::CBrack)
                        | (TokenKind::OParen, TokenKind::CParen) => {
                            self.closed_group(opened_at, close);
                        }
                        (TokenKind::OBrack, _) => {
                            return Err(Problem::MissingItemSeparator { close })
                        }
                        (TokenKind::OParen, _) => {
                            return Err(Problem::MissingArgumentSeparator { close })
                        }
                        _ => return Ok(Flow::Stop),
                    }
                }
            }
            _ => {}
        }
        Ok(Flow::Continue)
    }

    /// A bracket group opened at `opened_at` just closed at `close`:
    /// collected when it is an outermost group at the flattening depth.
    fn closed_group(&mut self, opened_at: usize, close: usize) {
        let depth = self.brackets.len();
        if let Some((max_depth, groups)) = &mut self.deep_groups {
            if depth == *max_depth {
                groups.push(TextRange::from_usize(opened_at, close + 1));
            }
        }
    }

    fn scan_problem(&self, problem: ScanProblem) -> Result<Flow, Problem> {
        let unclosed_sequence = self
            .sequences
            .first()
            .map(|&open| Problem::UnclosedInterpolation { open });
        match problem {
            ScanProblem::UnterminatedString { string } => {
                Err(unclosed_sequence.unwrap_or_else(|| {
                    // HCL's error stands on the `\n` of a `\r\n`.
                    let end = string.end as usize;
                    let bytes = self.content.as_bytes();
                    let crlf = bytes.get(end) == Some(&b'\r') && bytes.get(end + 1) == Some(&b'\n');
                    Problem::UnterminatedString {
                        newline: end + usize::from(crlf),
                    }
                }))
            }
            ScanProblem::UnclosedTemplateSequence { open } => {
                Err(unclosed_sequence.unwrap_or(Problem::UnclosedInterpolation {
                    open: open.start as usize,
                }))
            }
            ScanProblem::UnterminatedHeredoc { .. } => {
                Err(unclosed_sequence.unwrap_or(Problem::UnterminatedHeredoc))
            }
            // A `/*` inside `${ }` that never ends takes the rest of the
            // text, and what it leaves open is its doing: OpenTofu reports
            // the expression, as hcl-edit does.
            ScanProblem::UnterminatedComment { .. } if unclosed_sequence.is_some() => {
                Ok(Flow::Stop)
            }
            ScanProblem::InvalidCharacter { .. }
            | ScanProblem::InvalidHeredocOpener { .. }
            | ScanProblem::UnterminatedComment { .. } => Ok(Flow::Continue),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_found_where_hcl_reports_them() {
        let cases: &[(&str, Option<Problem>)] = &[
            ("a {\n  b = 1\n}\n", None),
            ("v {}\nr \"x\" {\n  a = \"x\"\n", Some(Problem::UnclosedBlock { open: 11 })),
            ("l {\n  a = {\n    b = 1\n}\n", Some(Problem::UnclosedBlock { open: 2 })),
            ("l {\n  a = [1, 2\n}\n", Some(Problem::MissingItemSeparator { close: 16 })),
            ("l {\n  a = max(1, 2\n}\n", Some(Problem::MissingArgumentSeparator { close: 19 })),
            ("l {\n  a = \"abc\n}\n", Some(Problem::UnterminatedString { newline: 14 })),
            ("l {\n  a = \"${var.x\"\n}\n", Some(Problem::UnclosedInterpolation { open: 11 })),
            ("l {\n  a = <<EOT\nhello\n}\n", Some(Problem::UnterminatedHeredoc)),
            // HCL's error stands on the `\n` of a `\r\n`, and on a lone `\r`.
            ("l {\r\n  a = \"abc\r\n}\r\n", Some(Problem::UnterminatedString { newline: 16 })),
            ("l {\n  a = \"ab\rc\"\n}\n", Some(Problem::UnterminatedString { newline: 13 })),
            // `$${` is a literal `${`; a string broken inside `${ }` leaves
            // the sequence unclosed.
            ("l {\n  a = \"$${x\"\n}\n", None),
            ("l {\n  a = \"${ \"abc\n  }\"\n}\n", Some(Problem::UnclosedInterpolation { open: 11 })),
            // A `/*` in `${ }` that never ends leaves hcl-edit's error; one
            // outside leaves the block open.
            ("l {\n  a = \"${b/*}\"\n}\n", None),
            ("l {\n  a = 1 /*\n}\n", Some(Problem::UnclosedBlock { open: 2 })),
            // Delimiters in comments, strings and heredocs do not count.
            ("# {\n// [\n/* ( */\nl {\n  a = \"{[(\\\"\"\n  b = <<-EOT\n  }\n  EOT\n  c = \"${ {a = \"}\"} }\"\n}\n", None),
        ];
        for (text, expected) in cases {
            assert_eq!(&first_problem(text), expected, "{text:?}");
        }
    }

    #[test]
    fn deep_groups_are_flattened_in_place() {
        let text = "l {\n  a = [[[1,\n \"]\"]], 2]\n  b = [3]\n}\n";
        let (flat, groups) = flatten_deep(text, 3).unwrap();
        assert_eq!(flat, "l {\n  a = [[0  \n     ], 2]\n  b = [3]\n}\n");
        assert_eq!(groups, [TextRange::from_usize(12, 21)]);
        assert_eq!(flat.len(), text.len());
        assert_eq!(flatten_deep("l {\n  b = [3]\n}\n", 3), None);
        // 100,000 levels: no recursion anywhere.
        let deep = format!(
            "l {{\n  a = {}1{}\n}}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let (flat, groups) = flatten_deep(&deep, 40).unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(flat.len(), deep.len());
    }
}

//! After hcl-edit rejects a file: which delimiter is left open, found the way
//! HCL's scanner sees the text, so the error can be reported where and as
//! OpenTofu reports it (`Unclosed configuration block` on the opening brace,
//! `Unterminated template string`, `Missing item separator`, …) rather than
//! where hcl-edit gave up (often the end of the file).
//!
//! The scan knows comments (`#`, `//`, `/* */`), quoted strings with escapes
//! and `${ }`/`%{ }` sequences (which may hold strings of their own), heredocs
//! (`<<EOT`, `<<-EOT`) and the three bracket pairs. It runs only on files that
//! failed to parse, and reports the first problem it meets; anything it does
//! not recognise leaves hcl-edit's error in place.

use crate::model::SyntaxError;
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
    let mut scanner = Scanner {
        bytes: content.as_bytes(),
        at: 0,
        stack: Vec::new(),
        deep_groups: None,
    };
    scanner.body().err()
}

/// `content` with every bracket group that opens at depth `max_depth` or
/// deeper replaced by `0` and spaces (line breaks kept, so every offset
/// stays where it was), and the replaced ranges. For text nested deeper than
/// hcl-edit accepts (64 levels) that OpenTofu reads fine. `None` when the
/// scan finds a problem or nothing that deep.
pub(crate) fn flatten_deep(content: &str, max_depth: usize) -> Option<(String, Vec<TextRange>)> {
    let mut scanner = Scanner {
        bytes: content.as_bytes(),
        at: 0,
        stack: Vec::new(),
        deep_groups: Some((max_depth, Vec::new())),
    };
    scanner.body().ok()?;
    let (_, groups) = scanner.deep_groups?;
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

/// `Err` stops the scan at the first problem.
type Scan = Result<(), Problem>;

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Open brackets outside strings: the byte and its offset.
    stack: Vec<(u8, usize)>,
    /// For [`flatten_deep`]: the depth from which groups are collected, and
    /// the outermost groups opened at that depth or deeper.
    deep_groups: Option<(usize, Vec<TextRange>)>,
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.at + ahead).copied()
    }

    /// Outside strings, up to the end of the text.
    fn body(&mut self) -> Scan {
        while let Some(byte) = self.peek(0) {
            match byte {
                b'#' => self.skip_line(),
                b'/' if self.peek(1) == Some(b'/') => self.skip_line(),
                b'/' if self.peek(1) == Some(b'*') => self.skip_block_comment(),
                b'"' => {
                    self.at += 1;
                    self.quoted()?;
                }
                b'<' if self.peek(1) == Some(b'<') => self.heredoc()?,
                b'{' | b'[' | b'(' => {
                    self.stack.push((byte, self.at));
                    self.at += 1;
                }
                b'}' | b']' | b')' => {
                    if let Some((open, opened_at)) = self.stack.pop() {
                        match (open, byte) {
                            (b'{', b'}') | (b'[', b']') | (b'(', b')') => {
                                self.closed_group(opened_at);
                            }
                            (b'[', _) => {
                                return Err(Problem::MissingItemSeparator { close: self.at })
                            }
                            (b'(', _) => {
                                return Err(Problem::MissingArgumentSeparator { close: self.at })
                            }
                            // An object brace closed by `]` or `)`: not one of ours.
                            _ => return Ok(()),
                        }
                    }
                    self.at += 1;
                }
                _ => self.at += 1,
            }
        }
        match self.stack.iter().find(|(open, _)| *open == b'{') {
            Some(&(_, open)) => Err(Problem::UnclosedBlock { open }),
            None => Ok(()),
        }
    }

    /// A bracket group opened at `opened_at` just closed (at `self.at`):
    /// collected when it is an outermost group at the flattening depth.
    fn closed_group(&mut self, opened_at: usize) {
        let depth = self.stack.len();
        if let Some((max_depth, groups)) = &mut self.deep_groups {
            if depth == *max_depth {
                groups.push(TextRange::from_usize(opened_at, self.at + 1));
            }
        }
    }

    /// Inside a quoted string, after its opening quote; ends after the
    /// closing quote.
    fn quoted(&mut self) -> Scan {
        loop {
            match self.peek(0) {
                None | Some(b'\n') => {
                    return Err(Problem::UnterminatedString {
                        newline: self.at.min(self.bytes.len()),
                    })
                }
                Some(b'"') => {
                    self.at += 1;
                    return Ok(());
                }
                Some(b'\\') => self.at += 2,
                Some(b'$' | b'%') if self.peek(1) == Some(b'{') => {
                    let open = self.at;
                    self.at += 2;
                    self.interpolation(open)?;
                }
                Some(_) => self.at += 1,
            }
        }
    }

    /// Inside `${` or `%{` (opened at `open`), up to its closing brace. A
    /// string in it that does not end, or the end of the text, leaves the
    /// sequence unclosed.
    fn interpolation(&mut self, open: usize) -> Scan {
        let mut depth = 0usize;
        loop {
            match self.peek(0) {
                None => return Err(Problem::UnclosedInterpolation { open }),
                Some(b'"') => {
                    self.at += 1;
                    if self.quoted().is_err() {
                        return Err(Problem::UnclosedInterpolation { open });
                    }
                }
                Some(b'{') => {
                    depth += 1;
                    self.at += 1;
                }
                Some(b'}') if depth == 0 => {
                    self.at += 1;
                    return Ok(());
                }
                Some(b'}') => {
                    depth -= 1;
                    self.at += 1;
                }
                Some(_) => self.at += 1,
            }
        }
    }

    /// `<<EOT` or `<<-EOT` and its lines, up to the line holding only the
    /// marker. Not a heredoc (no identifier after `<<`): skipped.
    fn heredoc(&mut self) -> Scan {
        let start = self.at + 2 + usize::from(self.peek(2) == Some(b'-'));
        let marker_len = self
            .bytes
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'-')
            .count();
        let Some(marker) = self
            .bytes
            .get(start..start + marker_len)
            .filter(|m| !m.is_empty())
        else {
            self.at += 2;
            return Ok(());
        };
        self.at = start + marker_len;
        self.skip_line();
        while self.at < self.bytes.len() {
            let line_end = self
                .bytes
                .get(self.at..)
                .unwrap_or_default()
                .iter()
                .position(|b| *b == b'\n')
                .map_or(self.bytes.len(), |n| self.at + n);
            let line = self.bytes.get(self.at..line_end).unwrap_or_default();
            self.at = (line_end + 1).min(self.bytes.len());
            if line.trim_ascii() == marker {
                return Ok(());
            }
        }
        Err(Problem::UnterminatedHeredoc)
    }

    /// To the end of the line (the line break stays).
    fn skip_line(&mut self) {
        while self.peek(0).is_some_and(|b| b != b'\n') {
            self.at += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        self.at += 2;
        while self.at < self.bytes.len() {
            if self.peek(0) == Some(b'*') && self.peek(1) == Some(b'/') {
                self.at += 2;
                return;
            }
            self.at += 1;
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

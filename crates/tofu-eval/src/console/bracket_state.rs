//! When `tofu console` runs what it has read: OpenTofu's
//! `consoleBracketState` (`internal/command/console_state.go`). Each line,
//! trimmed of white space, is cut into HCL tokens on its own, and the
//! console counts the braces, brackets and parentheses it opens and closes;
//! a line ending in one `\` (not `\\`) holds the input open for one more
//! line, the `\` dropped. While the count is above zero the lines are kept;
//! at zero or below (more closed than opened) the kept lines, joined by line
//! breaks, are run and forgotten. The counts themselves are never reset: a
//! line that closed more than it opened leaves them below zero for the rest
//! of the session, as in OpenTofu. Nothing else holds a line open: a heredoc
//! or a quoted string left open on a line runs as it is.

use tofu_syntax::scanner::{ScanMode, Scanner, TokenKind};

/// The console's counts of open delimiters and the lines kept while any is
/// open.
#[derive(Debug, Default)]
pub struct BracketState {
    open_new_line: i64,
    brace: i64,
    bracket: i64,
    parentheses: i64,
    buffer: Vec<String>,
}

/// What the console does after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// Something is open: wait for the next line. The number is how many
    /// (the interactive prompt shows one `.` for each).
    Open(i64),
    /// Run this input (the lines read since the last run, joined by line
    /// breaks; empty when there were none).
    Run(String),
}

impl BracketState {
    pub fn new() -> BracketState {
        BracketState::default()
    }

    /// Reads one line as the console reads it (the caller has already cut
    /// off its line break).
    pub fn read_line(&mut self, line: &str) -> Read {
        let line = line.trim();
        self.open_new_line = i64::from(line.ends_with('\\') && !line.ends_with("\\\\"));
        let line = line.strip_suffix('\\').unwrap_or(line);
        if !line.is_empty() {
            self.buffer.push(line.to_owned());
            for token in Scanner::new(line, ScanMode::Forgiving) {
                match token.kind {
                    TokenKind::OBrace => self.brace += 1,
                    TokenKind::CBrace => self.brace -= 1,
                    TokenKind::OBrack => self.bracket += 1,
                    TokenKind::CBrack => self.bracket -= 1,
                    TokenKind::OParen => self.parentheses += 1,
                    TokenKind::CParen => self.parentheses -= 1,
                    _ => {}
                }
            }
        }
        match self.open_state() {
            open if open > 0 => Read::Open(open),
            _ => Read::Run(std::mem::take(&mut self.buffer).join("\n")),
        }
    }

    /// OpenTofu's `commandInOpenState`: -1 when any count is below zero,
    /// else the sum of the counts.
    fn open_state(&self) -> i64 {
        if self.brace < 0 || self.bracket < 0 || self.parentheses < 0 {
            return -1;
        }
        self.open_new_line + self.brace + self.bracket + self.parentheses
    }
}

#[cfg(test)]
mod tests {
    use super::{BracketState, Read};

    fn reads(lines: &[&str]) -> Vec<Read> {
        let mut state = BracketState::new();
        lines.iter().map(|line| state.read_line(line)).collect()
    }

    #[test]
    fn brackets_hold_the_input_open_until_they_close() {
        assert_eq!(
            reads(&["[", " 1, ", "{a = (", "2)}]"]),
            [
                Read::Open(1),
                Read::Open(1),
                Read::Open(3),
                Read::Run("[\n1,\n{a = (\n2)}]".to_owned())
            ]
        );
    }

    #[test]
    fn a_trailing_backslash_holds_one_line() {
        assert_eq!(
            reads(&["1 + \\", "2", "\"a\\\\\""]),
            [
                Read::Open(1),
                Read::Run("1 + \n2".to_owned()),
                Read::Run("\"a\\\\\"".to_owned())
            ]
        );
    }

    #[test]
    fn delimiters_in_strings_and_comments_do_not_count() {
        assert_eq!(
            reads(&["\"[\" # (", "[ // {"]),
            [Read::Run("\"[\" # (".to_owned()), Read::Open(1)]
        );
    }

    #[test]
    fn closing_more_than_opened_runs_and_stays_below_zero() {
        assert_eq!(
            reads(&[")", "(", "("]),
            [
                Read::Run(")".to_owned()),
                Read::Run("(".to_owned()),
                Read::Open(1)
            ]
        );
    }

    #[test]
    fn an_empty_line_runs_nothing() {
        assert_eq!(reads(&["  "]), [Read::Run(String::new())]);
    }
}

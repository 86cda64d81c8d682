//! `fileset`'s glob, with the semantics of the doublestar library
//! OpenTofu uses (`FilepathGlob`): the pattern is cleaned and split into a
//! base directory (up to the last `/` before the first `*`, `?`, `[` or
//! `{`) and a pattern below it; `*` and `?` stay within one path segment,
//! `**` as a whole segment spans any number of them (`a/**` also matches
//! `a`), `[…]` is a class (`!` or `^` negates, `a-z` ranges), `{x,y}` are
//! alternatives, `\` escapes. A malformed pattern is "syntax error in
//! pattern". Matches are then kept when they are regular files, relative
//! to the `path` argument.
//!
//! Directories are listed through the caller's [`Environment`]; a
//! directory the environment cannot list, or a walk over more than
//! [`MAX_ENTRIES`] entries, makes the result unknown (`None`).

use super::environment::{EntryKind, Environment, FileError};
use super::implementation::{redacted, FunctionError};
use crate::value::Marks;
use tofu_syntax::go_text::path_clean;

/// The most directory entries one call may look at.
const MAX_ENTRIES: usize = 20_000;

/// The most patterns `{…}` alternatives may expand to.
const MAX_ALTERNATIVES: usize = 1_024;

/// `fileset(path, pattern)`: the regular files matching, relative to
/// `path`, or `None` when the directories cannot be read here.
pub(super) fn fileset(
    environment: &dyn Environment,
    path: &str,
    pattern: &str,
    marks: Marks,
) -> Result<Option<Vec<String>>, FunctionError> {
    let path = path_clean(path);
    let full = path_clean(&format!("{path}/{pattern}"));
    let bad_pattern = || {
        FunctionError::call(format!(
            "failed to glob pattern {}: syntax error in pattern",
            redacted(&full, marks)
        ))
    };
    let (base, below) = split_pattern(&full);
    let candidates = if matches!(below.as_str(), "" | "." | "..") {
        if !is_valid_pattern(&full) {
            return Err(bad_pattern());
        }
        vec![unescape_meta(&full)]
    } else {
        if !is_valid_pattern(&below) {
            return Err(bad_pattern());
        }
        let Some(patterns) = expand_alternatives(&below) else {
            return Ok(None);
        };
        let max_depth = if below.contains("**") {
            usize::MAX
        } else {
            below.matches('/').count() + 1
        };
        let Some(entries) = walk(environment, &base, max_depth) else {
            return Ok(None);
        };
        entries
            .into_iter()
            .filter(|entry| patterns.iter().any(|pattern| matches(pattern, entry)))
            .map(|entry| join(&base, &entry))
            .collect()
    };
    let mut files = Vec::new();
    for candidate in candidates {
        match environment.file_exists(&candidate) {
            Ok(true) => files.push(relative(&path, &candidate)),
            Ok(false) | Err(FileError::IsDirectory) => {}
            Err(_) => return Ok(None),
        }
    }
    Ok(Some(files))
}

/// doublestar's `SplitPattern`: the directory before the first meta
/// character (unescaped) and the pattern after it.
fn split_pattern(pattern: &str) -> (String, String) {
    let bytes = pattern.as_bytes();
    let mut split = None;
    let mut index = 0;
    while let Some(byte) = bytes.get(index) {
        match byte {
            b'\\' => index += 1,
            b'/' => split = Some(index),
            b'*' | b'?' | b'[' | b'{' => break,
            _ => {}
        }
        index += 1;
    }
    match split {
        Some(0) => (
            "/".to_owned(),
            pattern.get(1..).unwrap_or_default().to_owned(),
        ),
        Some(at) => (
            unescape_meta(pattern.get(..at).unwrap_or_default()),
            pattern.get(at + 1..).unwrap_or_default().to_owned(),
        ),
        None => (".".to_owned(), pattern.to_owned()),
    }
}

/// `\*`, `\?`, `\[`, `\]`, `\{` and `\}` without their backslash.
fn unescape_meta(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next @ ('*' | '?' | '[' | ']' | '{' | '}')) = chars.peek().copied() {
                out.push(next);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// doublestar's `ValidatePattern`: escapes complete, classes closed and
/// not empty, braces balanced.
fn is_valid_pattern(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    let mut depth = 0usize;
    let mut index = 0;
    while let Some(byte) = bytes.get(index) {
        match byte {
            b'\\' => {
                index += 1;
                if index >= bytes.len() {
                    return false;
                }
            }
            b'[' => {
                index += 1;
                if matches!(bytes.get(index), Some(b'^' | b'!')) {
                    index += 1;
                }
                if matches!(bytes.get(index), None | Some(b']')) {
                    return false;
                }
                loop {
                    match bytes.get(index) {
                        None => return false,
                        Some(b'\\') => index += 2,
                        Some(b']') => break,
                        Some(_) => index += 1,
                    }
                }
            }
            b'{' => depth += 1,
            b'}' => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
            }
            _ => {}
        }
        index += 1;
    }
    depth == 0
}

/// The brace-free patterns `{…}` alternatives stand for (`None` past
/// [`MAX_ALTERNATIVES`]).
fn expand_alternatives(pattern: &str) -> Option<Vec<String>> {
    let mut done = Vec::new();
    let mut pending = vec![pattern.to_owned()];
    while let Some(pattern) = pending.pop() {
        let Some((open, close)) = first_alternatives(&pattern) else {
            done.push(pattern);
            continue;
        };
        let prefix = pattern.get(..open).unwrap_or_default();
        let inside = pattern.get(open + 1..close).unwrap_or_default();
        let suffix = pattern.get(close + 1..).unwrap_or_default();
        for alternative in split_alternatives(inside) {
            pending.push(format!("{prefix}{alternative}{suffix}"));
        }
        if done.len() + pending.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(done)
}

/// The byte offsets of the first unescaped `{` and its matching `}`.
fn first_alternatives(pattern: &str) -> Option<(usize, usize)> {
    let bytes = pattern.as_bytes();
    let mut open = None;
    let mut depth = 0usize;
    let mut index = 0;
    while let Some(byte) = bytes.get(index) {
        match byte {
            b'\\' => index += 1,
            b'{' => {
                if open.is_none() {
                    open = Some(index);
                }
                depth += 1;
            }
            b'}' if open.is_some() => {
                depth -= 1;
                if depth == 0 {
                    return open.map(|open| (open, index));
                }
            }
            _ => {}
        }
        index += 1;
    }
    None
}

/// The alternatives of a `{…}`'s inside, split at its own commas.
fn split_alternatives(inside: &str) -> Vec<&str> {
    let bytes = inside.as_bytes();
    let mut parts = Vec::new();
    let (mut start, mut depth, mut index) = (0, 0usize, 0);
    while let Some(byte) = bytes.get(index) {
        match byte {
            b'\\' => index += 1,
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                parts.push(inside.get(start..index).unwrap_or_default());
                start = index + 1;
            }
            _ => {}
        }
        index += 1;
    }
    parts.push(inside.get(start..).unwrap_or_default());
    parts
}

/// Every entry below `base` (relative, `/`-separated), at most
/// `max_depth` segments deep, without walking into links; `None` when a
/// directory cannot be listed here or there are too many entries. A
/// `base` that is not a directory has none.
fn walk(environment: &dyn Environment, base: &str, max_depth: usize) -> Option<Vec<String>> {
    let mut found = Vec::new();
    let mut pending = vec![(String::new(), 1usize)];
    let mut seen = 0usize;
    while let Some((relative_dir, depth)) = pending.pop() {
        let dir = join(base, &relative_dir);
        let entries = match environment.read_dir(&dir) {
            Ok(entries) => entries,
            Err(FileError::NotFound | FileError::IsDirectory) => continue,
            Err(FileError::Unavailable | FileError::Other(_)) => return None,
        };
        seen += entries.len();
        if seen > MAX_ENTRIES {
            return None;
        }
        for entry in entries {
            let relative = if relative_dir.is_empty() {
                entry.name
            } else {
                format!("{relative_dir}/{}", entry.name)
            };
            if entry.kind == EntryKind::Directory && depth < max_depth {
                pending.push((relative.clone(), depth + 1));
            }
            found.push(relative);
        }
    }
    Some(found)
}

fn join(base: &str, relative: &str) -> String {
    match (base, relative) {
        (_, "") => base.to_owned(),
        (".", _) => relative.to_owned(),
        ("/", _) => format!("/{relative}"),
        _ => format!("{base}/{relative}"),
    }
}

/// Go's `filepath.Rel` for two clean paths, lexically.
fn relative(from: &str, to: &str) -> String {
    if from == "." {
        return to.to_owned();
    }
    let from_parts: Vec<&str> = from.split('/').collect();
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_parts
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from_parts.len().saturating_sub(common);
    let mut parts: Vec<&str> = std::iter::repeat_n("..", ups).collect();
    parts.extend(to_parts.iter().skip(common));
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

/// Whether the brace-free `pattern` matches the whole of `name`.
fn matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    let mut memo = vec![None; (pattern.len() + 1) * (name.len() + 1) * 2];
    Matcher {
        pattern: &pattern,
        name: &name,
        memo: &mut memo,
    }
    .at(0, 0, true)
}

struct Matcher<'a> {
    pattern: &'a [char],
    name: &'a [char],
    /// Results by (pattern index, name index, at a segment's start).
    memo: &'a mut Vec<Option<bool>>,
}

impl Matcher<'_> {
    fn at(&mut self, p: usize, n: usize, segment_start: bool) -> bool {
        let key = (p * (self.name.len() + 1) + n) * 2 + usize::from(segment_start);
        if let Some(Some(known)) = self.memo.get(key) {
            return *known;
        }
        let result = self.step(p, n, segment_start);
        if let Some(slot) = self.memo.get_mut(key) {
            *slot = Some(result);
        }
        result
    }

    fn step(&mut self, p: usize, n: usize, segment_start: bool) -> bool {
        let Some(&name_char) = self.name.get(n) else {
            let rest: String = self.pattern.get(p..).unwrap_or_default().iter().collect();
            return matches!(rest.as_str(), "" | "*" | "**" | "/**" | "**/" | "/**/");
        };
        let Some(&pattern_char) = self.pattern.get(p) else {
            return false;
        };
        match pattern_char {
            '*' => {
                let double = self.pattern.get(p + 1) == Some(&'*');
                if double && segment_start {
                    match self.pattern.get(p + 2) {
                        None => return true,
                        Some('/') => {
                            // Zero or more whole segments.
                            if self.at(p + 3, n, true) {
                                return true;
                            }
                            let separators: Vec<usize> = (n..self.name.len())
                                .filter(|index| self.name.get(*index) == Some(&'/'))
                                .collect();
                            return separators
                                .into_iter()
                                .any(|separator| self.at(p + 3, separator + 1, true));
                        }
                        Some(_) => {}
                    }
                }
                let next = if double { p + 2 } else { p + 1 };
                let mut end = n;
                loop {
                    if self.at(next, end, false) {
                        return true;
                    }
                    match self.name.get(end) {
                        Some('/') | None => return false,
                        Some(_) => end += 1,
                    }
                }
            }
            '?' => name_char != '/' && self.at(p + 1, n + 1, false),
            '[' => match self.class(p + 1, name_char) {
                Some((true, after)) => self.at(after, n + 1, false),
                _ => false,
            },
            '\\' => match self.pattern.get(p + 1) {
                Some(&escaped) if escaped == name_char => self.at(p + 2, n + 1, escaped == '/'),
                _ => false,
            },
            literal => literal == name_char && self.at(p + 1, n + 1, literal == '/'),
        }
    }

    /// A class starting after its `[`: whether `c` is in it, and where the
    /// pattern goes on (`None` when it is malformed).
    fn class(&self, start: usize, c: char) -> Option<(bool, usize)> {
        let mut index = start;
        let negated = matches!(self.pattern.get(index), Some('!' | '^'));
        if negated {
            index += 1;
        }
        let mut found = false;
        let mut first = true;
        loop {
            let mut low = *self.pattern.get(index)?;
            if low == ']' && !first {
                return Some((found != negated, index + 1));
            }
            first = false;
            if low == '\\' {
                index += 1;
                low = *self.pattern.get(index)?;
            }
            index += 1;
            let mut high = low;
            if self.pattern.get(index) == Some(&'-')
                && !matches!(self.pattern.get(index + 1), None | Some(']'))
            {
                index += 1;
                high = *self.pattern.get(index)?;
                if high == '\\' {
                    index += 1;
                    high = *self.pattern.get(index)?;
                }
                index += 1;
            }
            if low <= c && c <= high {
                found = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_as_doublestar_matches() {
        let yes = [
            ("*.txt", "a.txt"),
            ("*.txt", ".hidden.txt"),
            ("**/*.txt", "a.txt"),
            ("**/*.txt", "x/y/a.txt"),
            ("x/**", "x"),
            ("x/**", "x/y/z"),
            ("**", "x/y"),
            ("a?c", "abc"),
            ("[a-c]x", "bx"),
            ("[!a-c]x", "dx"),
            ("[^a]x", "bx"),
            ("\\*", "*"),
            ("a**", "abc"),
            ("**.txt", "a.txt"),
        ];
        for (pattern, name) in yes {
            assert!(matches(pattern, name), "{pattern} should match {name}");
        }
        let no = [
            ("*.txt", "x/a.txt"),
            ("a?c", "a/c"),
            ("[a-c]x", "dx"),
            ("[!a-c]x", "ax"),
            ("**/*", ""),
            ("x/*", "x"),
        ];
        for (pattern, name) in no {
            assert!(!matches(pattern, name), "{pattern} should not match {name}");
        }
    }

    #[test]
    fn alternatives_expand_and_bad_patterns_are_found() {
        assert_eq!(
            expand_alternatives("{a,b{c,d}}.tf").map(|mut all| {
                all.sort();
                all
            }),
            Some(vec![
                "a.tf".to_owned(),
                "bc.tf".to_owned(),
                "bd.tf".to_owned()
            ])
        );
        for bad in ["[", "[]", "a{", "}", "x\\", "[a"] {
            assert!(!is_valid_pattern(bad), "{bad}");
        }
        for good in ["[a]", "{a,b}", "\\[", "*"] {
            assert!(is_valid_pattern(good), "{good}");
        }
    }

    #[test]
    fn patterns_split_where_doublestar_splits() {
        assert_eq!(
            split_pattern("a/b/*.tf"),
            ("a/b".to_owned(), "*.tf".to_owned())
        );
        assert_eq!(split_pattern("/x*"), ("/".to_owned(), "x*".to_owned()));
        assert_eq!(split_pattern("x*"), (".".to_owned(), "x*".to_owned()));
        assert_eq!(split_pattern("a/b.tf"), ("a".to_owned(), "b.tf".to_owned()));
        assert_eq!(relative("a/b", "a/b/c/d"), "c/d");
        assert_eq!(relative(".", "c"), "c");
        assert_eq!(relative("a/b", "a/c"), "../c");
    }
}

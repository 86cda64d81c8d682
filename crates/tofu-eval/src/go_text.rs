//! Go's formatting of strings where OpenTofu's output shows them: `%q` and
//! `strconv.Quote` (the console prints strings this way), with Go's notion
//! of a printable character (`unicode.IsPrint`: letters, marks, numbers,
//! punctuation, symbols and the ASCII space) taken from the Unicode
//! general categories; and `path.Clean`, which OpenTofu applies to the
//! paths it prints and compares.

use unicode_general_category::{get_general_category, GeneralCategory as Category};

/// Go's `strconv.Quote`.
pub fn go_quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\u{07}' => quoted.push_str("\\a"),
            '\u{08}' => quoted.push_str("\\b"),
            '\u{0c}' => quoted.push_str("\\f"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            '\u{0b}' => quoted.push_str("\\v"),
            c if is_go_printable(c) => quoted.push(c),
            c if u32::from(c) < 0x20 || u32::from(c) == 0x7f => {
                quoted.push_str(&format!("\\x{:02x}", u32::from(c)));
            }
            c if u32::from(c) > 0xffff => quoted.push_str(&format!("\\U{:08x}", u32::from(c))),
            c => quoted.push_str(&format!("\\u{:04x}", u32::from(c))),
        }
    }
    quoted.push('"');
    quoted
}

/// Go's `unicode.IsPrint`.
pub fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !matches!(
        get_general_category(c),
        Category::Control
            | Category::Format
            | Category::Surrogate
            | Category::PrivateUse
            | Category::Unassigned
            | Category::SpaceSeparator
            | Category::LineSeparator
            | Category::ParagraphSeparator
    )
}

/// Go's `path.Clean`: the shortest equivalent slash path, purely
/// lexically (`a/../b` is `b`, `..` stays at a relative root, `/..` is `/`).
pub fn path_clean(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|last| *last != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::go_quote;

    #[test]
    fn quotes_as_go_does() {
        // Expected values are what Go's strconv.Quote returns for each input.
        let cases = [
            ("aws", r#""aws""#),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("\n\r\t", r#""\n\r\t""#),
            ("\u{07}\u{08}\u{0c}\u{0b}", r#""\a\b\f\v""#),
            ("\u{00}\u{1f}\u{7f}", r#""\x00\x1f\x7f""#),
            (
                "\u{85}\u{a0}\u{2028}\u{feff}",
                r#""\u0085\u00a0\u2028\ufeff""#,
            ),
            ("é ü 日本", r#""é ü 日本""#),
            ("\u{e0001}", r#""\U000e0001""#),
        ];
        for (input, expected) in cases {
            assert_eq!(go_quote(input), expected, "{input:?}");
        }
    }
}

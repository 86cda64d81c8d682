//! Go's formatting of strings, for the names OpenTofu's messages quote with
//! `%q` (`strconv.Quote`): one implementation, so every message escapes the
//! same way.
//!
//! Go escapes what it does not consider printable. Rust's standard library has
//! no Unicode category tables, so "printable" here is approximated: control
//! characters, whitespace other than the ASCII space, and the common invisible
//! format characters are escaped; everything else is kept as written.

/// Go's `%q`: `text` in double quotes, with `"` and `\` escaped, the C escapes
/// Go uses (`\a \b \f \n \r \t \v`), `\xNN` for other ASCII controls and
/// `\uNNNN` (`\UNNNNNNNN` above the BMP) for other characters Go does not
/// print.
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
            c if u32::from(c) < 0x20 || u32::from(c) == 0x7f => {
                quoted.push_str(&format!("\\x{:02x}", u32::from(c)));
            }
            c if !is_go_printable(c) && u32::from(c) > 0xffff => {
                quoted.push_str(&format!("\\U{:08x}", u32::from(c)));
            }
            c if !is_go_printable(c) => quoted.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// An approximation of Go's `strconv.IsPrint` (see the module doc).
fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    let invisible_format = matches!(
        u32::from(c),
        0xad | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2064 | 0xfeff | 0xe0000..=0xe007f
    );
    !(c.is_control() || c.is_whitespace() || invisible_format)
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

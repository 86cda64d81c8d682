//! Block labels as `tofu fmt` writes them back: the label's value, in
//! Unicode normalization form C (as HCL reads string literals), quoted with
//! `\n`, `\r`, `\t`, `\"` and `\\` escapes and `\uXXXX` (`\UXXXXXXXX` past
//! the Basic Multilingual Plane) for characters Go does not print
//! (`unicode.IsPrint`, tofu-syntax's `go_text::is_go_printable`).
//!
//! A quoted label that HCL's scanner cuts into more than one literal piece
//! (any `$` or `%` in it, unless it is the whole label) is dropped by
//! `tofu fmt`; [`label_is_kept`] says which are kept.

use tofu_syntax::go_text::is_go_printable;
use unicode_normalization::UnicodeNormalization;

/// Whether `tofu fmt` keeps a quoted label with this raw content (between
/// the quotes, escapes as written).
pub(crate) fn label_is_kept(raw: &str) -> bool {
    raw == "$" || raw == "%" || !raw.contains(['$', '%'])
}

/// The label `raw` (an identifier, or a quoted label's content as written)
/// quoted the way `tofu fmt` writes it.
pub(crate) fn requote(raw: &str, quoted: bool) -> String {
    let value = if quoted {
        unescape(raw)
    } else {
        raw.to_owned()
    };
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for ch in value.nfc() {
        match ch {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ch if is_go_printable(ch) => out.push(ch),
            ch if u32::from(ch) <= 0xFFFF => out.push_str(&format!("\\u{:04x}", u32::from(ch))),
            ch => out.push_str(&format!("\\U{:08x}", u32::from(ch))),
        }
    }
    out.push('"');
    out
}

/// The value of a quoted literal: HCL's escapes resolved; anything that is
/// not a valid escape is kept as written (such files do not parse).
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some(kind @ ('u' | 'U')) => {
                let width = if kind == 'u' { 4 } else { 8 };
                let digits: String = chars.by_ref().take(width).collect();
                match u32::from_str_radix(&digits, 16)
                    .ok()
                    .and_then(char::from_u32)
                {
                    Some(decoded) if digits.len() == width => out.push(decoded),
                    _ => {
                        out.push('\\');
                        out.push(kind);
                        out.push_str(&digits);
                    }
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_requoted_like_tofu_fmt() {
        assert_eq!(requote("foo", false), "\"foo\"");
        assert_eq!(requote("a\\\"b", true), "\"a\\\"b\"");
        assert_eq!(requote("\\u00e9", true), "\"é\"");
        assert_eq!(requote("e\\u0301", true), "\"é\"");
        assert_eq!(
            requote("\\u00A0\\u200b\\u0001\\u007f", true),
            "\"\\u00a0\\u200b\\u0001\\u007f\""
        );
        assert_eq!(requote("\\U0001F600", true), "\"😀\"");
        assert!(label_is_kept("$"));
        assert!(!label_is_kept("a$"));
        assert!(!label_is_kept("100%"));
    }
}

//! The string functions: case, trimming, splitting and joining, searching,
//! `substr` and `strrev` by grapheme cluster (as cty counts characters),
//! `replace` with `/regex/` patterns, `regex` and `regexall`.
//!
//! Case mapping is Go's: one character maps to one character (`ß` stays
//! `ß` in `upper`), which is the simple mapping Rust gives when it gives a
//! single character.

use unicode_segmentation::UnicodeSegmentation;

use super::implementation::{text, Accepts, Arguments, FunctionError, Implementation, PLAIN};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// The most spaces tofu-eval puts after each newline; past it the result
/// is unknown (Go builds them while it has the memory).
const MAX_INDENT: i64 = 1 << 24;

/// Go's `maxAlloc` on linux/amd64 (`1 << heapAddrBits`, 48 bits): asking
/// `makeslice` for more bytes panics with "len out of range".
const GO_MAX_ALLOCATION: i64 = 1 << 48;

const DYNAMIC: Accepts = Accepts {
    null: false,
    unknown: false,
    dynamic: true,
    marked: false,
};

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let simple = Implementation::simple;
    let dynamic = |run: fn(&Arguments) -> Result<Value, FunctionError>| Implementation {
        parameters: &[DYNAMIC, DYNAMIC, DYNAMIC],
        variadic: PLAIN,
        result_type: None,
        run,
    };
    Some(match name {
        "upper" => dynamic(|args| Ok(Value::string(map_chars(&text(args, 0), to_upper)))),
        "lower" => dynamic(|args| Ok(Value::string(map_chars(&text(args, 0), to_lower)))),
        "strrev" => dynamic(|args| {
            let reversed: String = text(args, 0).graphemes(true).rev().collect();
            Ok(Value::string(reversed))
        }),
        "substr" => dynamic(substr),
        "join" => simple(join),
        "sort" => Implementation {
            parameters: &[Accepts {
                unknown: true,
                ..PLAIN
            }],
            variadic: PLAIN,
            result_type: None,
            run: sort,
        },
        "split" => simple(|args| {
            let separator = text(args, 0);
            let whole = text(args, 1);
            let parts: Vec<Value> = go_split(&whole, &separator)
                .into_iter()
                .map(Value::string)
                .collect();
            Ok(Value::list(Type::String, parts))
        }),
        "chomp" => simple(|args| {
            let mut text = text(args, 0);
            while text.ends_with('\n') || text.ends_with('\r') {
                if text.ends_with("\r\n") {
                    text.truncate(text.len() - 2);
                } else {
                    text.pop();
                }
            }
            Ok(Value::string(text))
        }),
        "indent" => simple(indent),
        "title" => simple(|args| Ok(Value::string(title(&text(args, 0))))),
        "trimspace" => simple(|args| Ok(Value::string(text(args, 0).trim()))),
        "trim" => simple(|args| {
            let cutset: Vec<char> = text(args, 1).chars().collect();
            Ok(Value::string(
                text(args, 0).trim_matches(|c| cutset.contains(&c)),
            ))
        }),
        "trimprefix" => simple(|args| {
            let whole = text(args, 0);
            let prefix = text(args, 1);
            Ok(Value::string(whole.strip_prefix(&prefix).unwrap_or(&whole)))
        }),
        "trimsuffix" => simple(|args| {
            let whole = text(args, 0);
            let suffix = text(args, 1);
            Ok(Value::string(whole.strip_suffix(&suffix).unwrap_or(&whole)))
        }),
        "startswith" => Implementation {
            parameters: &[Accepts {
                unknown: true,
                ..PLAIN
            }],
            variadic: PLAIN,
            result_type: None,
            run: |args| {
                let prefix = text(args, 1);
                let whole = args.get(0);
                match whole.as_str() {
                    Some(whole) => Ok(Value::bool(whole.starts_with(&prefix))),
                    None if prefix.is_empty() => Ok(Value::bool(true)),
                    None => Ok(Value::unknown(Type::Bool)),
                }
            },
        },
        "endswith" => simple(|args| Ok(Value::bool(text(args, 0).ends_with(&text(args, 1))))),
        "strcontains" => simple(|args| Ok(Value::bool(text(args, 0).contains(&text(args, 1))))),
        "replace" => simple(replace),
        _ => return None,
    })
}

fn map_chars(text: &str, map: fn(char) -> char) -> String {
    text.chars().map(map).collect()
}

/// Go's case mappings of `c` (lower, upper, title), from Go's own tables
/// ([`super::go_case`]); `None` when all three leave it as it is.
fn go_case(c: char) -> Option<(char, char, char)> {
    let cases = super::go_case::CASES;
    let found = cases
        .binary_search_by_key(&u32::from(c), |&(code, ..)| code)
        .ok()
        .and_then(|at| cases.get(at))?;
    let (_, lower, upper, title) = *found;
    let mapped = |code: u32| char::from_u32(code).unwrap_or(c);
    Some((mapped(lower), mapped(upper), mapped(title)))
}

/// Go's `unicode.ToUpper`: the simple mapping, one character to one.
pub(super) fn to_upper(c: char) -> char {
    go_case(c).map_or(c, |(_, upper, _)| upper)
}

/// Go's `unicode.ToLower`: the simple mapping, one character to one.
pub(super) fn to_lower(c: char) -> char {
    go_case(c).map_or(c, |(lower, ..)| lower)
}

/// Go's `unicode.ToTitle`: the simple mapping, one character to one.
fn to_title(c: char) -> char {
    go_case(c).map_or(c, |(.., title)| title)
}

/// cty's `indent`: `strings.Repeat(" ", spaces)`, which Go builds before it
/// looks at the string: a negative count panics, and so does one past what
/// Go can allocate (in `makeslice`).
fn indent(args: &Arguments) -> Result<Value, FunctionError> {
    let spaces = super::implementation::whole_number(&args.get(0))?;
    if spaces < 0 {
        return Err(FunctionError::go_panic("strings: negative Repeat count"));
    }
    if spaces > GO_MAX_ALLOCATION {
        return Err(FunctionError::go_panic(
            "runtime error: makeslice: len out of range",
        ));
    }
    let string = text(args, 1);
    if !string.contains('\n') {
        return Ok(Value::string(string));
    }
    if spaces > MAX_INDENT {
        return Ok(Value::unknown(Type::String));
    }
    let padding = " ".repeat(usize::try_from(spaces).unwrap_or(0));
    Ok(Value::string(string.replace('\n', &format!("\n{padding}"))))
}

/// Go's `strings.Title`: the first letter of each word in title case; a
/// word starts after a separator (ASCII other than letters, digits and
/// `_`; beyond ASCII, white space).
fn title(text: &str) -> String {
    let is_separator = |c: char| {
        if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else {
            c.is_whitespace()
        }
    };
    let mut previous = ' ';
    text.chars()
        .map(|c| {
            let mapped = if is_separator(previous) {
                to_title(c)
            } else {
                c
            };
            previous = c;
            mapped
        })
        .collect()
}

/// Go's `strings.Split`: an empty separator splits after each UTF-8
/// sequence.
fn go_split(whole: &str, separator: &str) -> Vec<String> {
    if separator.is_empty() {
        return whole.chars().map(String::from).collect();
    }
    whole.split(separator).map(str::to_owned).collect()
}

fn substr(args: &Arguments) -> Result<Value, FunctionError> {
    let whole = text(args, 0);
    let offset = super::implementation::whole_number(&args.get(1))?;
    let length = super::implementation::whole_number(&args.get(2))?;
    let clusters: Vec<&str> = whole.graphemes(true).collect();
    let n_clusters = i64::try_from(clusters.len()).unwrap_or(i64::MAX);
    let mut offset = offset;
    if offset < 0 {
        offset += n_clusters;
    } else if length == 0 {
        return Ok(Value::string(""));
    }
    // cty walks clusters from `offset`; an offset past the end is empty.
    if offset > 0 && offset >= n_clusters {
        return Ok(Value::string(""));
    }
    let start = usize::try_from(offset.max(0)).unwrap_or(0);
    let rest = clusters.get(start..).unwrap_or_default();
    let taken: String = if length < 0 {
        rest.concat()
    } else if length == 0 {
        // Only with a negative offset: cty's loop never meets a zero length.
        rest.concat()
    } else {
        let n_taken = usize::try_from(length)
            .unwrap_or(usize::MAX)
            .min(rest.len());
        rest.get(..n_taken).unwrap_or_default().concat()
    };
    Ok(Value::string(taken))
}

fn join(args: &Arguments) -> Result<Value, FunctionError> {
    let separator = text(args, 0);
    let lists = args.values.get(1..).unwrap_or_default();
    if lists.is_empty() {
        return Err(FunctionError::call("at least one list is required"));
    }
    if lists.iter().any(|list| !list.is_wholly_known()) {
        return Ok(Value::unknown(Type::String));
    }
    let mut parts = Vec::new();
    for (list_index, list) in lists.iter().enumerate() {
        for (element_index, element) in list.items().unwrap_or_default().iter().enumerate() {
            match element.as_str() {
                Some(part) => parts.push(part.to_owned()),
                None if lists.len() > 1 => {
                    return Err(FunctionError::argument(
                        list_index + 1,
                        format!(
                            "element {element_index} of list {} is null; cannot concatenate null values",
                            list_index + 1
                        ),
                    ))
                }
                None => {
                    return Err(FunctionError::argument(
                        list_index + 1,
                        format!("element {element_index} is null; cannot concatenate null values"),
                    ))
                }
            }
        }
    }
    Ok(Value::string(parts.join(&separator)))
}

fn sort(args: &Arguments) -> Result<Value, FunctionError> {
    let list = args.get(0);
    if !list.is_wholly_known() {
        return Ok(Value::unknown(Type::list(Type::String)));
    }
    let mut texts = Vec::new();
    for (index, element) in list.items().unwrap_or_default().iter().enumerate() {
        match element.as_str() {
            Some(part) => texts.push(part.to_owned()),
            None => {
                return Err(FunctionError::call(format!(
                    "given list element {} is null; a null string cannot be sorted",
                    Number::from_u64(u64::try_from(index).unwrap_or(0)).text('g', 10)
                )))
            }
        }
    }
    texts.sort();
    Ok(Value::list(
        Type::String,
        texts.into_iter().map(Value::string).collect(),
    ))
}

fn replace(args: &Arguments) -> Result<Value, FunctionError> {
    let whole = text(args, 0);
    let search = text(args, 1);
    let replacement = text(args, 2);
    if search.len() > 1 && search.starts_with('/') && search.ends_with('/') {
        let pattern = search.get(1..search.len() - 1).unwrap_or_default();
        let expression = super::regex::compile(pattern).map_err(FunctionError::call)?;
        return Ok(Value::string(
            expression.replace_all(&whole, replacement.as_str()),
        ));
    }
    Ok(Value::string(whole.replace(&search, &replacement)))
}

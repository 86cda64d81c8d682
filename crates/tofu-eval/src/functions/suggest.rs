//! "Call to unknown function", with HCL's suggestion: a known name within
//! an edit distance of 3 (`didyoumean.NameSuggestion`), and OpenTofu's
//! words for a `core::` name and for a namespace it does not know.
//! (`provider::` functions are not looked up here.)

use super::implementation::{CallError, ErrorSubject};
use super::signatures::SIGNATURES;
use tofu_syntax::go_text::go_quote;

/// The error for `name`, which names no function; with a suggestion when
/// `suggests` (namespaced names never get one: OpenTofu rewrites those
/// errors whatever the context).
pub(super) fn unknown_function(name: &str, suggests: bool) -> CallError {
    let subject = ErrorSubject::Name;
    if let Some(separator) = name.rfind("::") {
        let short = name.get(separator + 2..).unwrap_or_default();
        // OpenTofu rewrites HCL's namespace errors (`enhanceFunctionDiag`).
        if name.starts_with("core::") {
            return CallError {
                summary: "Call to unknown function".to_owned(),
                detail: format!(
                    "There is no builtin (core::) function named {}.",
                    go_quote(short)
                ),
                subject,
            };
        }
        return CallError {
            summary: "Unknown function namespace".to_owned(),
            detail: format!(
                "Function {} does not exist within a valid namespace (provider,core)",
                go_quote(name)
            ),
            subject,
        };
    }
    let suggestion = suggestion(name)
        .filter(|_| suggests)
        .map(|found| format!(" Did you mean {}?", go_quote(found)))
        .unwrap_or_default();
    CallError {
        summary: "Call to unknown function".to_owned(),
        detail: format!("There is no function named {}.{suggestion}", go_quote(name)),
        subject,
    }
}

/// The closest known name within distance 3 (HCL takes the first such name
/// of a Go map, in random order; this takes the closest, then the first by
/// name).
fn suggestion(given: &str) -> Option<&'static str> {
    nearest_name(given, SIGNATURES.iter().map(|signature| signature.name))
}

/// HCL's `didyoumean.NameSuggestion`: the closest of `names` within an
/// edit distance of 3 (the closest, then the first by name, where HCL
/// takes the first it meets).
pub fn nearest_name<'n>(given: &str, names: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    names
        .map(|name| (levenshtein(given, name), name))
        .filter(|(distance, _)| *distance < 3)
        .min()
        .map(|(_, name)| name)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b_chars: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b_chars.len()).collect();
    for (i, a_char) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, b_char) in b_chars.iter().enumerate() {
            let substitution =
                previous.get(j).copied().unwrap_or(0) + usize::from(a_char != *b_char);
            let insertion = current.get(j).copied().unwrap_or(0) + 1;
            let deletion = previous.get(j + 1).copied().unwrap_or(0) + 1;
            current.push(substitution.min(insertion).min(deletion));
        }
        previous = current;
    }
    previous.last().copied().unwrap_or(0)
}

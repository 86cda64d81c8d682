//! `provider-for-each-matches`: a resource or module call that uses the
//! instances of a provider configuration with the same `for_each` as the
//! configuration's (OpenTofu's `providerIterationIdenticalWarning`).
//!
//! OpenTofu compares the two expressions' syntax trees, parentheses and
//! spacing aside, on a best-effort basis (splats, for instance, are never
//! the same). Here they are compared as sequences of tokens, comments and
//! spacing aside, without a pair of parentheses around the whole: the
//! same for every expression OpenTofu compares, except that numbers are
//! compared as written (`1` and `1.0` differ) and a splat is never the
//! same.

use tofu_syntax::{Diagnostic, Location};

use super::child::diagnostic;

/// A `for_each` value as written.
pub(super) struct WrittenForEach {
    pub(super) at: Location,
    pub(super) text: String,
    pub(super) has_references: bool,
}

/// The warning for a `block_type` (`resource` or `module`) whose
/// `for_each` (`source`) is the provider configuration's (`instance`);
/// `target` is the `-target=…` option of the suggested destroy.
pub(super) fn same_for_each(
    source: Option<WrittenForEach>,
    instance: Option<WrittenForEach>,
    block_type: &str,
    target: &str,
) -> Option<Diagnostic> {
    let (source, instance) = (source?, instance?);
    if !source.has_references || !instance.has_references {
        return None;
    }
    let (a, b) = (tokens(&source.text)?, tokens(&instance.text)?);
    if unwrapped(&a) != unwrapped(&b) {
        return None;
    }
    Some(diagnostic(
        crate::codes::PROVIDER_FOR_EACH_MATCHES,
        &format!("Provider configuration for_each matches {block_type}"),
        source.at,
        format!(
            "This provider configuration uses the same for_each expression as a {block_type}, which means that subsequent removal of elements from this collection would cause a planning error.\n\nOpenTofu relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. Refer to the OpenTofu documentation for specific suggestions.\n\nTo destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    tofu apply -destroy {target}"
        ),
    ))
}

/// The tokens without one pair of parentheses around them all.
fn unwrapped(tokens: &[String]) -> &[String] {
    let mut tokens = tokens;
    while let (Some(first), Some(last)) = (tokens.first(), tokens.last()) {
        if first != "(" || last != ")" || closing_paren(tokens) != Some(tokens.len() - 1) {
            break;
        }
        tokens = tokens.get(1..tokens.len() - 1).unwrap_or_default();
    }
    tokens
}

/// Where the parenthesis opening `tokens` closes.
fn closing_paren(tokens: &[String]) -> Option<usize> {
    let mut depth = 0usize;
    for (index, token) in tokens.iter().enumerate() {
        match token.as_str() {
            "(" => depth += 1,
            ")" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(index);
                }
            }
            _ => {}
        }
    }
    None
}

/// HCL's tokens of an expression, roughly: names, numbers, quoted strings
/// and single punctuation characters, spacing and comments left out;
/// `None` for a splat, which OpenTofu never finds the same.
fn tokens(text: &str) -> Option<Vec<String>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut at = 0;
    let char_at = |index: usize| chars.get(index).copied();
    while let Some(c) = char_at(at) {
        if c.is_whitespace() {
            at += 1;
        } else if c == '#' || (c == '/' && char_at(at + 1) == Some('/')) {
            while char_at(at).is_some_and(|c| c != '\n') {
                at += 1;
            }
        } else if c == '/' && char_at(at + 1) == Some('*') {
            at += 2;
            while char_at(at).is_some()
                && !(char_at(at) == Some('*') && char_at(at + 1) == Some('/'))
            {
                at += 1;
            }
            at += 2;
        } else if c == '"' {
            let start = at;
            at += 1;
            while let Some(c) = char_at(at) {
                at += 1;
                if c == '\\' {
                    at += 1;
                } else if c == '"' {
                    break;
                }
            }
            out.push(chars.get(start..at.min(chars.len()))?.iter().collect());
        } else if c.is_alphanumeric() || c == '_' {
            let start = at;
            while char_at(at).is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
                at += 1;
            }
            out.push(chars.get(start..at)?.iter().collect());
        } else {
            if c == '*' && matches!(out.last().map(String::as_str), Some("[" | ".")) {
                return None;
            }
            out.push(c.to_string());
            at += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        match (tokens(a), tokens(b)) {
            (Some(a), Some(b)) => unwrapped(&a) == unwrapped(&b),
            _ => false,
        }
    }

    #[test]
    fn expressions_compare_as_opentofu_compares_them() {
        assert!(same("var.regions", "var.regions"));
        assert!(same("(var.regions)", "var.regions"));
        assert!(same("toset( var.a )", "toset(var.a) # why"));
        assert!(same(
            "{ for k, v in var.m : k => v }",
            "{for k,v in var.m: k=>v}"
        ));
        assert!(!same("var.a", "var.b"));
        assert!(!same("(a) + (b)", "a) + (b"));
        assert!(!same("var.a[*].b", "var.a[*].b"));
        assert!(!same("toset(var.a)", "tolist(var.a)"));
    }
}

//! The names OpenTofu accepts: HCL identifiers, provider local names
//! (`diagnostics.md` §4.11) and provider source addresses (§4.13), as
//! OpenTofu's `registry-address` library judges them. Declarations read it to
//! decide which `provider` blocks OpenTofu keeps; the rules, to report.
//!
//! A provider name part is one DNS label under IDNA's lookup rules. For ASCII
//! that means letters, digits and `-`, no leading or trailing `-`, and case
//! folded to lowercase. Names with other characters are reported only for the
//! rules that do not depend on the IDNA tables (empty, `.`, `--`); hostnames
//! likewise only for what ASCII rules decide.

use tofu_syntax::go_text::go_quote;

/// An HCL identifier: a letter or `_`, then letters, digits, `_` or `-`.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// True when OpenTofu keeps a `provider` block of this local name: one with
/// an invalid or non-normalised local name is dropped (no declaration, no
/// base, no duplicate).
pub fn is_kept_provider_name(name: &str) -> bool {
    local_name_problem(name).is_none()
}

/// Why a provider name part is invalid: the REASON of OpenTofu's details.
pub fn provider_part_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("must have at least one character");
    }
    if name.contains('.') {
        return Some("dots are not allowed");
    }
    if name.contains("--") {
        return Some("cannot use multiple consecutive dashes");
    }
    if name.is_ascii() && !is_ascii_dns_label(name) {
        return Some(
            "must contain only letters, digits, and dashes, and may not use leading or trailing dashes",
        );
    }
    None
}

/// The normalised form of a valid name part: lowercase. Only ASCII letters
/// are folded; other characters are left as written.
pub fn normalized_provider_part(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// What is wrong with a provider local name (§4.11).
pub enum LocalNameProblem {
    Invalid(&'static str),
    NotNormalized(String),
}

/// `None` when `name` is a valid, normalised local name.
pub fn local_name_problem(name: &str) -> Option<LocalNameProblem> {
    if let Some(reason) = provider_part_problem(name) {
        return Some(LocalNameProblem::Invalid(reason));
    }
    let normalized = normalized_provider_part(name);
    (normalized != name).then_some(LocalNameProblem::NotNormalized(normalized))
}

/// The detail OpenTofu gives for a local name problem.
pub fn local_name_detail(name: &str, problem: &LocalNameProblem) -> String {
    match problem {
        LocalNameProblem::Invalid(reason) => {
            format!("{name} is an invalid provider local name: {reason}")
        }
        LocalNameProblem::NotNormalized(normalized) => format!(
            "Provider names must be normalized. Replace \"{name}\" with \"{normalized}\" to fix this error."
        ),
    }
}

/// An error of a provider source address: summary and detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    pub summary: &'static str,
    pub detail: String,
}

const DEFAULT_REGISTRY_HOST: &str = "registry.opentofu.org";

/// Checks a `required_providers` `source` (§4.13), in OpenTofu's order.
pub fn source_address_error(source: &str) -> Option<SourceError> {
    let parts: Vec<&str> = source.split('/').collect();
    if parts.len() > 3 || parts.iter().any(|part| part.is_empty()) {
        return Some(SourceError {
            summary: "Invalid provider source string",
            detail: r#"The "source" attribute must be in the format "[hostname/][namespace/]name""#
                .to_owned(),
        });
    }
    let (hostname, namespace, given_type) = match parts.as_slice() {
        [given_type] => (None, None, *given_type),
        [namespace, given_type] => (None, Some(*namespace), *given_type),
        [hostname, namespace, given_type] => (Some(*hostname), Some(*namespace), *given_type),
        _ => return None,
    };
    if let Some(reason) = provider_part_problem(given_type) {
        return Some(SourceError {
            summary: "Invalid provider type",
            detail: format!(
                "Invalid provider type {} in source {}: {reason}\"",
                go_quote(given_type),
                go_quote(source)
            ),
        });
    }
    let provider_type = normalized_provider_part(given_type);
    // A bare type is complete: its namespace is looked up later.
    let namespace = namespace?;
    if namespace != "-" {
        if let Some(reason) = provider_part_problem(namespace) {
            return Some(SourceError {
                summary: "Invalid provider namespace",
                detail: format!(
                    "Invalid provider namespace {} in source {}: {reason}\"",
                    go_quote(namespace),
                    go_quote(source)
                ),
            });
        }
    }
    let namespace = if namespace == "-" {
        namespace.to_owned()
    } else {
        normalized_provider_part(namespace)
    };
    let hostname = match hostname {
        Some(given) => match normalized_hostname(given) {
            Ok(hostname) => hostname,
            Err(reason) => {
                return Some(SourceError {
                    summary: "Invalid provider source hostname",
                    detail: format!(
                        "Invalid provider source hostname namespace {} in source {}: {reason}\"",
                        go_quote(given),
                        go_quote(source)
                    ),
                })
            }
        },
        None => DEFAULT_REGISTRY_HOST.to_owned(),
    };
    if namespace == "-" && hostname != DEFAULT_REGISTRY_HOST {
        return Some(SourceError {
            summary: "Invalid provider namespace",
            detail: format!(
                "The legacy provider namespace \"-\" can be used only with hostname {DEFAULT_REGISTRY_HOST}."
            ),
        });
    }
    type_prefix_error(&hostname, &namespace, &provider_type)
}

/// The `terraform-`/`opentofu-` prefix rules of a provider type.
fn type_prefix_error(hostname: &str, namespace: &str, provider_type: &str) -> Option<SourceError> {
    let (redundant, user_error, kind) = if provider_type.starts_with("terraform-") {
        ("terraform-", "terraform-provider-", "Terraform")
    } else if provider_type.starts_with("opentofu-") {
        ("opentofu-", "opentofu-provider-", "OpenTofu")
    } else {
        return None;
    };
    let for_display = |provider_type: &str| {
        if hostname == DEFAULT_REGISTRY_HOST {
            format!("{namespace}/{provider_type}")
        } else {
            format!("{hostname}/{namespace}/{provider_type}")
        }
    };
    if let Some(suggested) = provider_type.strip_prefix(user_error) {
        if provider_part_problem(suggested).is_none() {
            let usage = if kind == "Terraform" {
                "often used in the names of version control repositories for Terraform providers"
            } else {
                "sometimes used in the names of version control repositories for OpenTofu providers"
            };
            return Some(SourceError {
                summary: "Invalid provider type",
                detail: format!(
                    "Provider source {} has a type with the prefix {}, which isn't valid. Although that prefix is {usage}, provider source strings should not include it.\n\nDid you mean {}?",
                    go_quote(&for_display(provider_type)),
                    go_quote(user_error),
                    go_quote(&for_display(suggested)),
                ),
            });
        }
    }
    let article = if kind == "Terraform" { "a" } else { "an" };
    Some(SourceError {
        summary: "Invalid provider type",
        detail: format!(
            "Provider source {} has a type with the prefix {}, which isn't allowed because it would be redundant to name {article} {kind} provider with that prefix. If you are the author of this provider, rename it to not include the prefix.",
            go_quote(&format!("{hostname}/{namespace}/{provider_type}")),
            go_quote(redundant),
        ),
    })
}

/// OpenTofu's `svchost.ForComparison`, for what ASCII rules decide: an
/// optional `:port` (`:443` is dropped), non-empty labels, no punycode, and
/// ASCII labels of letters, digits and inner dashes, folded to lowercase.
pub fn normalized_hostname(given: &str) -> Result<String, String> {
    let (host, port) = match given.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (given, None),
    };
    let port_suffix = match port {
        None => String::new(),
        Some(port) => match port.parse::<i64>() {
            Err(_) if host.eq_ignore_ascii_case("http") || host.eq_ignore_ascii_case("https") => {
                return Err(
                    "need just a hostname and optional port number, not a full URL".to_owned(),
                )
            }
            Err(_) => return Err("port portion contains non-digit characters".to_owned()),
            Ok(443) => String::new(),
            Ok(number) if number > 65535 => {
                return Err("port number is greater than 65535".to_owned())
            }
            Ok(number) => format!(":{number}"),
        },
    };
    if host.is_empty() {
        return Err("empty string is not a valid hostname".to_owned());
    }
    let labels: Vec<&str> = host.strip_suffix('.').unwrap_or(host).split('.').collect();
    for label in &labels {
        if label.is_empty() {
            return Err("hostname contains empty label (two consecutive periods)".to_owned());
        }
        if label.len() >= 4
            && label
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
        {
            return Err(format!(
                "hostname label {} specified in punycode format; service hostnames must be given in unicode",
                go_quote(label)
            ));
        }
        if let Some(bad) = label
            .chars()
            .find(|c| c.is_ascii() && !(c.is_ascii_alphanumeric() || *c == '-'))
        {
            return Err(format!("idna: disallowed rune U+{:04X}", u32::from(bad)));
        }
        if label.starts_with('-') || label.ends_with('-') {
            return Err(format!("idna: invalid label {}", go_quote(label)));
        }
    }
    Ok(format!("{}{port_suffix}", host.to_ascii_lowercase()))
}

/// One ASCII DNS label: letters, digits and `-`, not at either end.
fn is_ascii_dns_label(name: &str) -> bool {
    !name.starts_with('-')
        && !name.ends_with('-')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        for name in ["a", "_x", "a-b", "é1", "web_1"] {
            assert!(is_identifier(name), "{name}");
        }
        for name in ["", "1a", "-a", "a.b", "a b", "a/b"] {
            assert!(!is_identifier(name), "{name}");
        }
    }

    #[test]
    fn local_names() {
        for valid in ["aws", "google-beta", "a1", "null", "é"] {
            assert_eq!(provider_part_problem(valid), None, "{valid}");
        }
        assert_eq!(
            provider_part_problem(""),
            Some("must have at least one character")
        );
        assert_eq!(provider_part_problem("a.b"), Some("dots are not allowed"));
        assert_eq!(
            provider_part_problem("a--b"),
            Some("cannot use multiple consecutive dashes")
        );
        for invalid in ["my_test", "-a", "a-", "a b", "crash_es"] {
            assert!(provider_part_problem(invalid).is_some(), "{invalid}");
        }
        assert!(matches!(
            local_name_problem("TEST"),
            Some(LocalNameProblem::NotNormalized(name)) if name == "test"
        ));
        assert!(local_name_problem("test").is_none());
    }

    #[test]
    fn source_addresses() {
        for valid in [
            "hashicorp/aws",
            "aws",
            "registry.opentofu.org/hashicorp/aws",
            "example.com:8443/corp/thing",
            "-/aws",
            "registry.opentofu.org/-/aws",
            "HashiCorp/AWS",
            "terraform-provider-foo",
        ] {
            assert_eq!(source_address_error(valid), None, "{valid}");
        }
        let summary = |source: &str| source_address_error(source).map(|error| error.summary);
        assert_eq!(summary("a/b/c/d"), Some("Invalid provider source string"));
        assert_eq!(summary("a//b"), Some("Invalid provider source string"));
        assert_eq!(summary(""), Some("Invalid provider source string"));
        assert_eq!(summary("hashicorp/a_b"), Some("Invalid provider type"));
        assert_eq!(
            summary("hashi_corp/aws"),
            Some("Invalid provider namespace")
        );
        assert_eq!(
            summary("bad_host/corp/aws"),
            Some("Invalid provider source hostname")
        );
        assert_eq!(
            summary("example.com:x/corp/aws"),
            Some("Invalid provider source hostname")
        );
        assert_eq!(
            summary("example.com/-/aws"),
            Some("Invalid provider namespace")
        );
        assert_eq!(summary("foo/terraform-foo"), Some("Invalid provider type"));
        let detail = source_address_error("foo/terraform-provider-foo")
            .map(|error| error.detail)
            .unwrap_or_default();
        assert!(detail.ends_with("Did you mean \"foo/foo\"?"), "{detail}");
        let detail = source_address_error("foo/terraform-foo")
            .map(|error| error.detail)
            .unwrap_or_default();
        assert!(
            detail.starts_with("Provider source \"registry.opentofu.org/foo/terraform-foo\""),
            "{detail}"
        );
    }

    #[test]
    fn sources_are_quoted_as_go_quotes_them() {
        // What `tofu init` (OpenTofu 1.12.6) says of this source: Go's %q
        // escapes the format character U+2066 as `\u2066`.
        let detail = source_address_error("x\u{2066}y/a.b").map(|error| error.detail);
        assert_eq!(
            detail.as_deref(),
            Some(
                "Invalid provider type \"a.b\" in source \"x\\u2066y/a.b\": dots are not allowed\""
            )
        );
    }
}

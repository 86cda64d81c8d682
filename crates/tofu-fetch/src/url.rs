//! Resolving a URL reference against the URL of the response that gave
//! it, as Go's `url.URL.ResolveReference` does for the references
//! registries and mirrors give (absolute, scheme-relative, host-relative
//! and path-relative; `.` and `..` segments of a relative path removed).

/// `reference` resolved against `base`.
pub fn resolve(base: &str, reference: &str) -> String {
    if has_scheme(reference) {
        return reference.to_owned();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    if let Some(authority_relative) = reference.strip_prefix("//") {
        return format!("{scheme}://{authority_relative}");
    }
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let joined = if reference.starts_with('/') {
        reference.to_owned()
    } else if reference.is_empty() {
        path.to_owned()
    } else {
        let dir = path.rfind('/').map_or("/", |end| &path[..=end]);
        format!("{dir}{reference}")
    };
    format!("{scheme}://{authority}{}", remove_dot_segments(&joined))
}

fn has_scheme(reference: &str) -> bool {
    reference.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

fn remove_dot_segments(path: &str) -> String {
    let (path, query) = match path.find(['?', '#']) {
        Some(at) => path.split_at(at),
        None => (path, ""),
    };
    let mut segments: Vec<&str> = Vec::new();
    let ends_in_dir = path.ends_with("/.") || path.ends_with("/..");
    for segment in path.split('/').skip(1) {
        match segment {
            "." => {}
            ".." => {
                segments.pop();
            }
            other => segments.push(other),
        }
    }
    let mut out = String::from("/");
    out.push_str(&segments.join("/"));
    if ends_in_dir && !out.ends_with('/') {
        out.push('/');
    }
    out.push_str(query);
    out
}

/// The scheme of `url`, lower case (`https`).
pub fn scheme(url: &str) -> Option<String> {
    has_scheme(url).then(|| {
        url.split_once("://")
            .map(|(scheme, _)| scheme.to_ascii_lowercase())
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_as_go_resolves_them() {
        let base =
            "https://registry.example.com/v1/providers/hashicorp/time/0.14.2/download/linux/amd64";
        assert_eq!(
            resolve(base, "https://cdn.example/x.zip"),
            "https://cdn.example/x.zip"
        );
        assert_eq!(
            resolve(base, "//cdn.example/x.zip"),
            "https://cdn.example/x.zip"
        );
        assert_eq!(
            resolve(base, "/files/x.zip"),
            "https://registry.example.com/files/x.zip"
        );
        assert_eq!(
            resolve(base, "x.zip"),
            "https://registry.example.com/v1/providers/hashicorp/time/0.14.2/download/linux/x.zip"
        );
        assert_eq!(
            resolve("https://h:8443/a/b/", "../c/d.json"),
            "https://h:8443/a/c/d.json"
        );
        assert_eq!(resolve("https://h/a/b?q=1", "c"), "https://h/a/c");
        assert_eq!(scheme("HTTPS://x"), Some("https".to_owned()));
        assert_eq!(scheme("file.zip"), None);
    }
}

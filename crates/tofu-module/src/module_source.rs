//! A module call's `source` as OpenTofu reads it before anything is
//! installed: whether it is a local path (`./x`, `../x`, `.\x`, `..\x`, its
//! `moduleSourceLocalPrefixes`), and which directory it names relative to
//! the caller, `.` and `..` resolved lexically as OpenTofu's `filepath.Join`
//! resolves them. Text only: nothing is read or resolved on disk. The
//! module tree (`calls`) and the provider tree both build on it.

/// The prefixes that make a source a local path (OpenTofu's
/// `moduleSourceLocalPrefixes`).
const LOCAL_PREFIXES: [&str; 4] = ["./", "../", ".\\", "..\\"];

/// True for a `source` OpenTofu treats as a local path.
pub fn is_local_source(source: &str) -> bool {
    LOCAL_PREFIXES
        .iter()
        .any(|prefix| source.starts_with(prefix))
}

/// The directory a local `source` names, relative to the caller's
/// directory, with `/` separators and `.` and `..` resolved as far as they
/// go (`./a/../b` is `b`, `../x` stays `../x`, `./` is `.`); `None` for a
/// source that is not a local path.
pub fn local_source(source: &str) -> Option<String> {
    if !is_local_source(source) {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in source.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if matches!(parts.last(), Some(last) if *last != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    Some(if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_sources_resolve_relative_to_the_caller() {
        assert_eq!(local_source("./child").as_deref(), Some("child"));
        assert_eq!(local_source("./a/../b/").as_deref(), Some("b"));
        assert_eq!(local_source("../..").as_deref(), Some("../.."));
        assert_eq!(local_source("./").as_deref(), Some("."));
        assert_eq!(local_source(".\\net").as_deref(), Some("net"));
        assert_eq!(
            local_source("..\\modules\\net").as_deref(),
            Some("../modules/net")
        );
        assert_eq!(local_source("hashicorp/consul/aws"), None);
        assert_eq!(local_source("git::https://x/y.git"), None);
        assert_eq!(local_source(".terraform/x"), None);
    }
}

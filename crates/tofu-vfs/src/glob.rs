//! The `exclude` setting: globs of paths never analysed.
//!
//! A glob is matched against a path relative to its workspace folder, with `/`
//! between components, and also against every trailing part of it that starts
//! at a directory boundary, so `.terraform/**` excludes
//! `modules/vpc/.terraform/x/main.tf` too. A glob that starts with `/` is
//! anchored at the workspace folder. `*` matches within one component, `**`
//! across components, `?` one character; everything else matches itself.
//! (Small enough not to warrant a glob crate and its regex engine.)

/// The compiled `exclude` setting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExcludeGlobs {
    globs: Vec<String>,
}

impl ExcludeGlobs {
    pub fn new(globs: Vec<String>) -> ExcludeGlobs {
        ExcludeGlobs { globs }
    }

    /// True when the `/`-separated `relative` path is excluded.
    pub fn is_excluded(&self, relative: &str) -> bool {
        self.globs.iter().any(|glob| {
            let pattern: Vec<char> = glob.chars().collect();
            if let Some(anchored) = glob.strip_prefix('/') {
                let pattern: Vec<char> = anchored.chars().collect();
                return matches(&pattern, &relative.chars().collect::<Vec<_>>());
            }
            let mut rest = relative;
            loop {
                if matches(&pattern, &rest.chars().collect::<Vec<_>>()) {
                    return true;
                }
                match rest.split_once('/') {
                    Some((_, tail)) => rest = tail,
                    None => return false,
                }
            }
        })
    }
}

/// Glob matching with backtracking over `*` and `**`.
fn matches(pattern: &[char], text: &[char]) -> bool {
    let tail = |from: usize| text.get(from..).unwrap_or_default();
    match pattern {
        [] => text.is_empty(),
        // `**/` matches zero or more whole components.
        ['*', '*', '/', rest @ ..] => {
            matches(rest, text)
                || text
                    .iter()
                    .enumerate()
                    .any(|(index, c)| *c == '/' && matches(rest, tail(index + 1)))
        }
        ['*', '*', rest @ ..] => (0..=text.len()).any(|from| matches(rest, tail(from))),
        ['*', rest @ ..] => {
            let component_end = text.iter().position(|c| *c == '/').unwrap_or(text.len());
            (0..=component_end).any(|from| matches(rest, tail(from)))
        }
        ['?', rest @ ..] => text.first().is_some_and(|c| *c != '/') && matches(rest, tail(1)),
        [expected, rest @ ..] => text.first() == Some(expected) && matches(rest, tail(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_relative_paths_at_any_depth_unless_anchored() {
        let globs = ExcludeGlobs::new(vec![
            ".terraform/**".to_owned(),
            "/legacy/*.tf".to_owned(),
            "**/generated_?.tf.json".to_owned(),
        ]);
        assert!(globs.is_excluded(".terraform/modules/x/main.tf"));
        assert!(globs.is_excluded("modules/vpc/.terraform/x/main.tf"));
        assert!(globs.is_excluded("legacy/main.tf"));
        assert!(!globs.is_excluded("legacy/sub/main.tf"));
        assert!(!globs.is_excluded("new/legacy/main.tf"));
        assert!(globs.is_excluded("generated_a.tf.json"));
        assert!(globs.is_excluded("a/b/generated_b.tf.json"));
        assert!(!globs.is_excluded("a/generated_ab.tf.json"));
        assert!(!globs.is_excluded("main.tf"));
        assert!(!ExcludeGlobs::default().is_excluded("main.tf"));
    }
}

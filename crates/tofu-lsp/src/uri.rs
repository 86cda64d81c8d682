//! Converting between document URIs and file paths, in one place.
//!
//! Only `file:` URIs name files tofu-lens can analyse; anything else
//! (`untitled:`, `git:`) is not a path and the server leaves it alone. When a
//! document is open, the server answers with the URI the client used for it,
//! so the client recognises its own spelling; other paths get a fresh URI.

use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::Uri;

/// The file path of a `file:` URI.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let scheme = uri.scheme().as_str();
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    uri.to_file_path().map(|path| path.into_owned())
}

/// A `file:` URI for an absolute path.
pub fn from_path(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::str::FromStr;

    #[test]
    fn file_uris_round_trip_and_others_are_not_paths() {
        let path = Path::new("/work/a b/main.tf");
        let uri = from_path(path).unwrap();
        assert_eq!(uri.as_str(), "file:///work/a%20b/main.tf");
        assert_eq!(to_path(&uri).unwrap(), path);
        assert_eq!(
            to_path(&Uri::from_str("untitled:Untitled-1").unwrap()),
            None
        );
    }
}

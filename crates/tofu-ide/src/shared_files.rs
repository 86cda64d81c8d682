//! Files that several module directories hold: public modules share files
//! by symlink (a `v4/` directory whose `main.tf` links to `../main.tf`, a
//! test fixture whose `variables.tf` links to the root's). Each path is
//! analysed in the directory it is in, as OpenTofu reads it there; this
//! index says which paths are one real file, so that an edit through one
//! path reaches every directory holding the file, and a rename or the
//! references of a name declared in a shared file reach every such
//! directory with each real file named once: by its path in the directory
//! the request came from when that directory holds it (the path the editor
//! has open there, where the user works), else by its real path.
//!
//! The index is data the caller gives ([`crate::AnalysisHost::set_links`]):
//! the protocol layer reads the symlinks on disk; this crate does no IO.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which paths are one real file.
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedFiles {
    /// A link's path → the real file's path.
    real_of: BTreeMap<PathBuf, PathBuf>,
    /// A real file's path → the links to it.
    links_to: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
}

impl SharedFiles {
    pub(crate) fn is_empty(&self) -> bool {
        self.real_of.is_empty()
    }

    /// Records the links of the directory `dir`: each `(file name, real
    /// path)` is a file of `dir` that is a link to the real path; links of
    /// `dir` not listed are forgotten. Returns whether anything changed.
    pub(crate) fn set_dir_links(
        &mut self,
        dir: &Path,
        links: impl IntoIterator<Item = (String, PathBuf)>,
    ) -> bool {
        let new: BTreeMap<PathBuf, PathBuf> = links
            .into_iter()
            .map(|(name, real)| (dir.join(name), real))
            .filter(|(path, real)| path != real)
            .collect();
        let old: Vec<PathBuf> = self
            .real_of
            .keys()
            .filter(|path| path.parent() == Some(dir))
            .cloned()
            .collect();
        let unchanged = old.len() == new.len()
            && new
                .iter()
                .all(|(path, real)| self.real_of.get(path) == Some(real));
        if unchanged {
            return false;
        }
        for path in old {
            self.forget(&path);
        }
        for (path, real) in new {
            self.links_to
                .entry(real.clone())
                .or_default()
                .insert(path.clone());
            self.real_of.insert(path, real);
        }
        true
    }

    fn forget(&mut self, path: &Path) {
        let Some(real) = self.real_of.remove(path) else {
            return;
        };
        if let Some(links) = self.links_to.get_mut(&real) {
            links.remove(path);
            if links.is_empty() {
                self.links_to.remove(&real);
            }
        }
    }

    /// The real file `path` is (itself when it is no link).
    pub(crate) fn real_path<'a>(&'a self, path: &'a Path) -> &'a Path {
        self.real_of.get(path).map_or(path, PathBuf::as_path)
    }

    /// The path by which `dir` holds the file at `path`, when it holds it;
    /// else the real file's path. Answers name each real file once, by the
    /// path in the directory the request came from where it has one.
    pub(crate) fn path_seen_from(&self, path: &Path, dir: &Path) -> PathBuf {
        let real = self.real_path(path);
        std::iter::once(real)
            .chain(
                self.links_to
                    .get(real)
                    .into_iter()
                    .flatten()
                    .map(PathBuf::as_path),
            )
            .find(|candidate| candidate.parent() == Some(dir))
            .unwrap_or(real)
            .to_path_buf()
    }

    /// Every other path of the file at `path`: the real file, then every
    /// link to it in path order, `path` left out.
    pub(crate) fn other_paths(&self, path: &Path) -> Vec<PathBuf> {
        let real = self.real_path(path);
        let Some(links) = self.links_to.get(real) else {
            return Vec::new();
        };
        std::iter::once(real)
            .chain(links.iter().map(PathBuf::as_path))
            .filter(|other| *other != path)
            .map(Path::to_path_buf)
            .collect()
    }

    /// The directories holding a file that `dir` holds too, `dir` left out.
    pub(crate) fn dirs_sharing_with(&self, dir: &Path) -> BTreeSet<PathBuf> {
        let mut dirs = BTreeSet::new();
        let in_dir = |path: &&PathBuf| path.parent() == Some(dir);
        let reals: BTreeSet<&PathBuf> = self
            .real_of
            .iter()
            .filter(|(path, _)| in_dir(path))
            .map(|(_, real)| real)
            .chain(self.links_to.keys().filter(in_dir))
            .collect();
        for real in reals {
            for path in self.other_paths(real).iter().chain([real]) {
                if let Some(parent) = path.parent().filter(|parent| *parent != dir) {
                    dirs.insert(parent.to_path_buf());
                }
            }
        }
        dirs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(pairs: &[(&str, &str)]) -> Vec<(String, PathBuf)> {
        pairs
            .iter()
            .map(|(name, real)| (name.to_string(), PathBuf::from(real)))
            .collect()
    }

    #[test]
    fn links_are_indexed_both_ways_and_replaced_per_directory() {
        let mut shared = SharedFiles::default();
        assert!(shared.set_dir_links(
            Path::new("/w/v4"),
            links(&[
                ("main.tf", "/w/main.tf"),
                ("variables.tf", "/w/variables.tf")
            ])
        ));
        assert!(shared.set_dir_links(
            Path::new("/w/fixture"),
            links(&[("variables.tf", "/w/variables.tf")])
        ));
        assert!(!shared.set_dir_links(
            Path::new("/w/fixture"),
            links(&[("variables.tf", "/w/variables.tf")])
        ));
        assert_eq!(
            shared.other_paths(Path::new("/w/fixture/variables.tf")),
            [
                PathBuf::from("/w/variables.tf"),
                PathBuf::from("/w/v4/variables.tf")
            ]
        );
        assert_eq!(
            shared.real_path(Path::new("/w/v4/main.tf")),
            Path::new("/w/main.tf")
        );
        assert_eq!(
            shared.dirs_sharing_with(Path::new("/w")),
            [PathBuf::from("/w/fixture"), PathBuf::from("/w/v4")]
                .into_iter()
                .collect()
        );
        assert_eq!(
            shared.dirs_sharing_with(Path::new("/w/fixture")),
            [PathBuf::from("/w"), PathBuf::from("/w/v4")]
                .into_iter()
                .collect()
        );
        // v4 stops linking variables.tf.
        assert!(shared.set_dir_links(Path::new("/w/v4"), links(&[("main.tf", "/w/main.tf")])));
        assert_eq!(
            shared.other_paths(Path::new("/w/variables.tf")),
            [PathBuf::from("/w/fixture/variables.tf")]
        );
        assert!(shared.other_paths(Path::new("/w/outputs.tf")).is_empty());
        // Seen from v4, the root's main.tf is v4's; from elsewhere, the real one.
        assert_eq!(
            shared.path_seen_from(Path::new("/w/main.tf"), Path::new("/w/v4")),
            Path::new("/w/v4/main.tf")
        );
        assert_eq!(
            shared.path_seen_from(Path::new("/w/v4/main.tf"), Path::new("/w/fixture")),
            Path::new("/w/main.tf")
        );
        assert_eq!(
            shared.path_seen_from(Path::new("/w/v4/main.tf"), Path::new("/w")),
            Path::new("/w/main.tf")
        );
    }
}

//! References and rename through every path of a shared file
//! ([`crate::shared_files`]): a name declared or used in a file that
//! several directories hold is looked up in each of them, since each
//! directory reads the file as its own. The request is asked again at the
//! same place through every other path of each shared file its answer
//! touches, until no directory is new; the answers are joined with each
//! real file named once: by its path in the requesting document's
//! directory when that directory holds it, else by its real path.
//!
//! A rename is refused, with the reason, when a directory holding the file
//! cannot be renamed in (its analysis is missing, or the name is taken
//! there), rather than done in part.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::analysed_module::dir_and_file_name;
use crate::diagnostics::{FileEdit, FileRange};
use crate::navigation::NavigationTarget;
use crate::references::{RenameRefused, RenameResult};
use crate::snapshot::Snapshot;

/// How many directories one request follows links into, at most.
const MAX_LINKED_DIRS: usize = 64;

impl Snapshot {
    /// [`Snapshot::references`] in every directory holding a file of the
    /// answer.
    pub(crate) fn references_through_links(
        &self,
        path: &Path,
        offset: u32,
        include_declaration: bool,
    ) -> Vec<NavigationTarget> {
        let mut targets = Vec::new();
        let mut places = vec![(path.to_path_buf(), offset)];
        let mut dirs: BTreeSet<PathBuf> = dir_and_file_name(path)
            .map(|(dir, _)| dir)
            .into_iter()
            .collect();
        while let Some((at, offset)) = places.pop() {
            // Every place the name is written there, declarations included,
            // leads on; the answer keeps what was asked for.
            let anchors = self.references_in_dir(&at, offset, true);
            places
                .extend(self.linked_places(anchors.iter().map(|target| &target.focus), &mut dirs));
            targets.extend(self.references_in_dir(&at, offset, include_declaration));
        }
        let from = dir_and_file_name(path)
            .map(|(dir, _)| dir)
            .unwrap_or_default();
        for target in &mut targets {
            target.focus.path = self.shared.path_seen_from(&target.focus.path, &from);
        }
        targets.sort_by(|a, b| {
            (&a.focus.path, a.focus.range.start).cmp(&(&b.focus.path, b.focus.range.start))
        });
        targets.dedup_by(|a, b| a.focus.path == b.focus.path && a.focus.range == b.focus.range);
        targets
    }

    /// [`Snapshot::rename`] in every directory holding a file it edits.
    pub(crate) fn rename_through_links(
        &self,
        path: &Path,
        offset: u32,
        new_name: &str,
        options: crate::references::RenameOptions,
    ) -> RenameResult {
        let mut edits: Vec<FileEdit> = Vec::new();
        let mut places = vec![(path.to_path_buf(), offset)];
        let mut dirs: BTreeSet<PathBuf> = dir_and_file_name(path)
            .map(|(dir, _)| dir)
            .into_iter()
            .collect();
        let mut first = true;
        while let Some((at, offset)) = places.pop() {
            if !first && self.find_file(&at).is_none() {
                return Err(RenameRefused::NotPossible(format!(
                    "Cannot rename: {} is the same file as one the rename edits, and its directory is not analysed; try again once it is.",
                    at.display()
                )));
            }
            first = false;
            let found = self.rename_in_dir(&at, offset, new_name, options)?;
            places.extend(self.linked_places(found.iter().map(|edit| &edit.location), &mut dirs));
            edits.extend(found);
        }
        let from = dir_and_file_name(path)
            .map(|(dir, _)| dir)
            .unwrap_or_default();
        for edit in &mut edits {
            edit.location.path = self.shared.path_seen_from(&edit.location.path, &from);
        }
        edits.sort_by(|a, b| {
            (&a.location.path, a.location.range.start, &a.new_text).cmp(&(
                &b.location.path,
                b.location.range.start,
                &b.new_text,
            ))
        });
        edits.dedup_by(|a, b| a.location == b.location && a.new_text == b.new_text);
        let overlapping = edits.windows(2).any(|pair| match pair {
            [a, b] => {
                a.location.path == b.location.path && b.location.range.start < a.location.range.end
            }
            _ => false,
        });
        if overlapping {
            return Err(RenameRefused::NotPossible(
                "Cannot rename: the directories holding this file would edit it differently."
                    .to_owned(),
            ));
        }
        Ok(edits)
    }

    /// The same places as `ranges` through every other path of their file,
    /// in directories not yet in `dirs` (which gains them) that are module
    /// directories of the host (a link's real file may lie in a directory
    /// outside the workspace, which nothing analyses).
    fn linked_places<'a>(
        &self,
        ranges: impl Iterator<Item = &'a FileRange>,
        dirs: &mut BTreeSet<PathBuf>,
    ) -> Vec<(PathBuf, u32)> {
        let mut places = Vec::new();
        for range in ranges {
            for other in self.shared.other_paths(&range.path) {
                let Some((dir, _)) = dir_and_file_name(&other) else {
                    continue;
                };
                if !self.holds_dir(&dir) {
                    continue;
                }
                if dirs.len() < MAX_LINKED_DIRS && dirs.insert(dir) {
                    places.push((other, range.range.start));
                }
            }
        }
        places
    }
}

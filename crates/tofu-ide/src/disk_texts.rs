//! One copy of each distinct file text read from disk. Workspaces repeat
//! files word for word: every cloudposse component carries the same
//! `context.tf` (half of that corpus's 4.9 MB of text is such copies), and
//! vendored or linked copies of a module repeat all of theirs. The host
//! keeps the text of every file to analyse a directory again without the
//! disk, so each repeat would otherwise cost its size for as long as the
//! server runs.
//!
//! A text handed in is swapped for the copy already held when the contents
//! are equal; texts no file holds any more are let go from time to time (the
//! store counts as a holder, so a text only it holds is unused). Editor
//! buffers are not shared: they change on every keystroke.

use std::collections::HashSet;
use std::sync::Arc;

use tofu_module::FileContent;

/// The distinct texts of disk files the host holds.
#[derive(Debug, Default)]
pub(crate) struct DiskTexts {
    texts: HashSet<Arc<str>>,
    /// How many texts were held after the last sweep of unused ones; the
    /// next sweep comes when twice as many are held (so sweeping costs a
    /// constant amount per text added).
    held_after_sweep: usize,
}

impl DiskTexts {
    /// `content` with its text replaced by the held copy of equal contents,
    /// or held from now on as the first of its kind.
    pub(crate) fn share(&mut self, content: FileContent) -> FileContent {
        match content {
            FileContent::Text(text) => FileContent::Text(self.share_text(text)),
            other => other,
        }
    }

    fn share_text(&mut self, text: Arc<str>) -> Arc<str> {
        if let Some(held) = self.texts.get(&text) {
            return Arc::clone(held);
        }
        if self.texts.len() >= (2 * self.held_after_sweep).max(1024) {
            self.texts.retain(|held| Arc::strong_count(held) > 1);
            self.held_after_sweep = self.texts.len();
        }
        self.texts.insert(Arc::clone(&text));
        text
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.texts.len()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn text_of(content: &FileContent) -> &Arc<str> {
        match content {
            FileContent::Text(text) => text,
            other => panic!("not a text: {other:?}"),
        }
    }

    #[test]
    fn equal_texts_are_one_copy_and_different_ones_stay_apart() {
        let mut texts = DiskTexts::default();
        let first = texts.share(FileContent::Text(Arc::from("variable \"a\" {}\n")));
        let again = texts.share(FileContent::Text(Arc::from("variable \"a\" {}\n")));
        let other = texts.share(FileContent::Text(Arc::from("variable \"b\" {}\n")));
        assert!(Arc::ptr_eq(text_of(&first), text_of(&again)));
        assert!(!Arc::ptr_eq(text_of(&first), text_of(&other)));
        assert_eq!(&**text_of(&other), "variable \"b\" {}\n");
        let unreadable = FileContent::Unreadable {
            message: "denied".to_owned(),
        };
        assert!(matches!(
            texts.share(unreadable),
            FileContent::Unreadable { message } if message == "denied"
        ));
    }

    #[test]
    fn texts_no_file_holds_are_let_go() {
        let mut texts = DiskTexts::default();
        let kept = texts.share(FileContent::Text(Arc::from("kept")));
        for n in 0..3000 {
            drop(texts.share(FileContent::Text(Arc::from(format!("gone {n}")))));
        }
        assert!(texts.len() < 2100, "{} texts held", texts.len());
        let again = texts.share(FileContent::Text(Arc::from("kept")));
        assert!(Arc::ptr_eq(text_of(&kept), text_of(&again)));
    }
}

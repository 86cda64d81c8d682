//! A file's text as the ranges of its syntax index into it: the whole text,
//! or only the part one block covers, which is what a rule on one identity
//! may read of a file (`rules::views`). Reading outside the readable part
//! gives nothing, exactly as reading outside the text does, so code that
//! reads expressions (`types`) needs no second path for a part.

use tofu_syntax::TextRange;

/// Text read at the file's byte offsets.
#[derive(Clone, Copy, Debug)]
pub struct FileText<'a> {
    /// What may be read.
    readable: &'a str,
    /// Where `readable` starts in the file.
    start: u32,
}

impl<'a> FileText<'a> {
    /// A whole file's text.
    pub fn whole(text: &'a str) -> FileText<'a> {
        FileText {
            readable: text,
            start: 0,
        }
    }

    /// The part of a file's `text` that `range` covers (nothing when the
    /// range is not in the text).
    pub fn part(text: &'a str, range: TextRange) -> FileText<'a> {
        FileText {
            readable: range.slice(text),
            start: range.start,
        }
    }

    /// The text at `range`; empty when it is not all readable (as
    /// [`TextRange::slice`] is when it is not all in the text).
    pub fn slice(self, range: TextRange) -> &'a str {
        self.get(range.start as usize, range.end as usize)
            .unwrap_or_default()
    }

    /// The text from byte `start` to `end`, when all of it is readable.
    pub fn get(self, start: usize, end: usize) -> Option<&'a str> {
        let offset = self.start as usize;
        self.readable
            .get(start.checked_sub(offset)?..end.checked_sub(offset)?)
    }

    /// The byte at `at`, when readable.
    pub fn byte_at(self, at: usize) -> Option<u8> {
        let index = at.checked_sub(self.start as usize)?;
        self.readable.as_bytes().get(index).copied()
    }
}

impl<'a> From<&'a str> for FileText<'a> {
    fn from(text: &'a str) -> FileText<'a> {
        FileText::whole(text)
    }
}

impl<'a> From<&'a String> for FileText<'a> {
    fn from(text: &'a String) -> FileText<'a> {
        FileText::whole(text)
    }
}

impl<'a> From<&'a std::sync::Arc<str>> for FileText<'a> {
    fn from(text: &'a std::sync::Arc<str>) -> FileText<'a> {
        FileText::whole(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_reads_at_the_files_offsets_and_nothing_outside() {
        let text = "a = 1\nb = 22\n";
        let part = FileText::part(text, TextRange::from_usize(6, 12));
        assert_eq!(part.slice(TextRange::from_usize(10, 12)), "22");
        assert_eq!(part.byte_at(6), Some(b'b'));
        assert_eq!(part.slice(TextRange::from_usize(0, 5)), "");
        assert_eq!(part.slice(TextRange::from_usize(5, 8)), "");
        assert_eq!(part.slice(TextRange::from_usize(10, 13)), "");
        assert_eq!(part.byte_at(5), None);
        assert_eq!(part.byte_at(12), None);
        let whole = FileText::whole(text);
        assert_eq!(whole.slice(TextRange::from_usize(0, 5)), "a = 1");
        assert_eq!(whole.get(8, 6), None);
    }
}

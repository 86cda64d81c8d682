//! `check --fix`: applies the safe suggested fixes to the files on disk.
//!
//! Only fixes the engine marks safe are applied; edits of one file are applied
//! from the end backwards, and an edit that overlaps one already taken is
//! skipped (the next `check` run offers it again). New files are created only
//! when no file of that name exists.

use std::fs;
use std::io;
use std::path::PathBuf;

use tofu_syntax::{FileId, TextEdit};

use crate::check::CheckReport;

/// One applied fix, for the report.
#[derive(Debug)]
pub struct AppliedFix {
    pub file: PathBuf,
    pub line: u32,
    pub title: String,
}

/// Applies every safe fix of the report; returns what was applied.
pub fn apply_safe_fixes(report: &CheckReport) -> io::Result<Vec<AppliedFix>> {
    let mut applied = Vec::new();
    for module in &report.modules {
        let analysis = &module.analysis;
        let mut edits_by_file: Vec<(FileId, Vec<TextEdit>)> = Vec::new();
        let mut taken: Vec<TextEdit> = Vec::new();
        for diagnostic in &analysis.diagnostics {
            let Some(fix) = diagnostic.fix.as_ref().filter(|fix| fix.safe) else {
                continue;
            };
            let overlaps = fix.edits.iter().any(|edit| {
                taken.iter().any(|other| {
                    other.file == edit.file
                        && other.range.start < edit.range.end.max(edit.range.start + 1)
                        && edit.range.start < other.range.end.max(other.range.start + 1)
                })
            });
            if overlaps {
                continue;
            }
            for new_file in &fix.new_files {
                let path = module.dir.join(&new_file.name);
                if path.exists() {
                    continue;
                }
                fs::write(&path, &new_file.text)?;
            }
            for edit in &fix.edits {
                taken.push(edit.clone());
                match edits_by_file.iter_mut().find(|(id, _)| *id == edit.file) {
                    Some((_, edits)) => edits.push(edit.clone()),
                    None => edits_by_file.push((edit.file, vec![edit.clone()])),
                }
            }
            let (file, line) = match analysis.file(diagnostic.subject.file) {
                Some(file) => (
                    module.dir.join(&file.name),
                    diagnostic
                        .subject
                        .range
                        .map_or(1, |r| file.line_index.line_col(&file.text, r.start).line),
                ),
                None => (module.dir.clone(), 1),
            };
            applied.push(AppliedFix {
                file,
                line,
                title: fix.title.clone(),
            });
        }
        for (file_id, mut edits) in edits_by_file {
            let Some(file) = analysis.file(file_id) else {
                continue;
            };
            let mut text = file.text.to_string();
            edits.sort_by_key(|edit| std::cmp::Reverse(edit.range.start));
            for edit in edits {
                let (start, end) = (edit.range.start as usize, edit.range.end as usize);
                if text.is_char_boundary(start)
                    && text.is_char_boundary(end)
                    && start <= end
                    && end <= text.len()
                {
                    text.replace_range(start..end, &edit.new_text);
                }
            }
            fs::write(module.dir.join(&file.name), text)?;
        }
    }
    Ok(applied)
}

//! What the user asked to see: inline suppressions and per-code severities.
//!
//! A comment line `# tofu-lens-ignore: CODE[, CODE…]` (or `// …`) in a loaded
//! native-syntax file suppresses the diagnostics with those codes whose
//! subject starts on the line right after it. Text after the codes, separated
//! by whitespace, is a free reason (`# tofu-lens-ignore: duplicate-block kept
//! for Terraform`). An entry that suppresses nothing, or names no code, is
//! reported as `unused-suppression`, so stale comments do not pile up. JSON
//! has no comments, so nothing is suppressed in `.tf.json` files.
//!
//! Then [`Config::severity_overrides`] changes the severity of whole codes or
//! turns them off. Both run on the finished list of a module; nothing here
//! changes what the rules find, only what is reported.

use tofu_syntax::{Code, Diagnostic, FileId, Fix, Location, Severity, TextRange};

use tofu_module::input::Config;
use tofu_module::loaded::LoadedModule;

use tofu_module::store::SUPPRESSION_MARKER as MARKER;

/// Codes whose diagnostics come after the analysis, from the providers'
/// own validators: a comment suppresses them when they come
/// ([`apply_late_suppressions`]), and an entry naming one is never
/// reported unused (whether a provider will answer is not known here).
const LATE_CODES: &[Code] = &[crate::codes::PROVIDER_VALIDATION];

/// Reads one `diagnostics.severity` entry, as the settings and
/// `.tofu-lens.toml` give it: a code name and one of `error`, `warning`,
/// `info`, `hint` or `off`. The error says what is wrong, in a sentence.
pub fn parse_severity_override(
    code: &str,
    level: &str,
) -> Result<(Code, Option<Severity>), String> {
    let Some(parsed_code) = crate::catalogue::code_named(code) else {
        return Err(format!("\"{code}\" is not a tofu-lens diagnostic code"));
    };
    let severity = match level {
        "error" => Some(Severity::Error),
        "warning" => Some(Severity::Warning),
        "info" => Some(Severity::Info),
        "hint" => Some(Severity::Hint),
        "off" => None,
        _ => {
            return Err(format!(
                "the severity of {code} must be \"error\", \"warning\", \"info\", \"hint\" or \"off\", not \"{level}\""
            ))
        }
    };
    Ok((parsed_code, severity))
}

/// Removes the diagnostics that inline comments suppress, and adds an
/// `unused-suppression` for every comment entry that suppressed nothing
/// (but those naming a late code).
pub(crate) fn apply_suppressions(module: &LoadedModule, diagnostics: &mut Vec<Diagnostic>) {
    suppress(module, diagnostics, true);
}

/// Removes the late diagnostics (the providers' validators') that inline
/// comments suppress.
pub(crate) fn apply_late_suppressions(module: &LoadedModule, diagnostics: &mut Vec<Diagnostic>) {
    suppress(module, diagnostics, false);
}

fn suppress(module: &LoadedModule, diagnostics: &mut Vec<Diagnostic>, report_unused: bool) {
    let mut unused = Vec::new();
    for (index, file) in module.files.iter().enumerate() {
        if !file.role.is_loaded() || file.is_json() || !file.may_suppress {
            continue;
        }
        let file_id = FileId(tofu_syntax::text::to_u32(index));
        for comment in suppression_comments(&file.text) {
            let next_line = file.line_index.line_of(comment.line_end) + 1;
            for entry in &comment.entries {
                let mut used = false;
                if let Some(code) = entry.code {
                    diagnostics.retain(|diagnostic| {
                        let suppressed = diagnostic.code == code
                            && diagnostic.subject.file == file_id
                            && diagnostic.subject.range.is_some_and(|range| {
                                file.line_index.line_of(range.start) == next_line
                            });
                        used |= suppressed;
                        !suppressed
                    });
                }
                let late = entry.code.is_some_and(|code| LATE_CODES.contains(&code));
                if report_unused && !used && !late {
                    unused.push(unused_suppression(file_id, &comment, entry));
                }
            }
        }
    }
    diagnostics.extend(unused);
}

/// Applies [`Config::severity_overrides`]: a code set to `off` disappears, any
/// other setting replaces the severity of every diagnostic with that code.
pub(crate) fn apply_severity_overrides(config: &Config, diagnostics: &mut Vec<Diagnostic>) {
    if config.severity_overrides.is_empty() {
        return;
    }
    diagnostics.retain_mut(|diagnostic| {
        match config
            .severity_overrides
            .iter()
            .find(|(code, _)| *code == diagnostic.code)
        {
            None => true,
            Some((_, None)) => false,
            Some((_, Some(severity))) => {
                diagnostic.severity = *severity;
                true
            }
        }
    });
}

/// One `tofu-lens-ignore` comment line.
struct SuppressionComment {
    /// The whole line, without its line break.
    line: TextRange,
    /// Where the line ends (its last byte), to find the line after it.
    line_end: u32,
    entries: Vec<SuppressionEntry>,
}

/// One code named by a comment.
struct SuppressionEntry {
    /// `None` when the name is not a code of the catalogue.
    code: Option<Code>,
    name: String,
    range: TextRange,
}

/// Every comment line of `text` holding the marker: a line whose first
/// non-blank characters are `#` or `//`.
fn suppression_comments(text: &str) -> Vec<SuppressionComment> {
    let mut comments = Vec::new();
    let mut line_start = 0usize;
    for line in text.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.len() - content.trim_start().len();
        let after_indent = content.get(indent..).unwrap_or_default();
        let Some(comment_body) = after_indent
            .strip_prefix('#')
            .or_else(|| after_indent.strip_prefix("//"))
        else {
            continue;
        };
        let body_offset = start + content.len() - comment_body.len();
        let spaces = comment_body.len() - comment_body.trim_start().len();
        let Some(list) = comment_body.trim_start().strip_prefix(MARKER) else {
            continue;
        };
        let list_offset = body_offset + spaces + MARKER.len();
        comments.push(SuppressionComment {
            line: TextRange::from_usize(start, start + content.len()),
            line_end: tofu_syntax::text::to_u32(start + content.len()),
            entries: entries(list, list_offset),
        });
    }
    comments
}

/// The codes of a marker's list: names separated by commas; the first word
/// that follows a name without a comma starts the free reason.
fn entries(list: &str, offset: usize) -> Vec<SuppressionEntry> {
    let mut entries = Vec::new();
    let mut position = 0usize;
    for item in list.split(',') {
        let item_start = position;
        position += item.len() + 1;
        let leading = item.len() - item.trim_start().len();
        let name = item.split_whitespace().next().unwrap_or_default();
        if name.is_empty() {
            continue;
        }
        let start = offset + item_start + leading;
        entries.push(SuppressionEntry {
            code: crate::catalogue::code_named(name),
            name: name.to_owned(),
            range: TextRange::from_usize(start, start + name.len()),
        });
        let rest = item.trim_start().get(name.len()..).unwrap_or_default();
        if !rest.trim().is_empty() {
            break;
        }
    }
    entries
}

fn unused_suppression(
    file: FileId,
    comment: &SuppressionComment,
    entry: &SuppressionEntry,
) -> Diagnostic {
    let (summary, detail) = match entry.code {
        Some(_) => (
            format!("Unused suppression of {}", entry.name),
            format!(
                "No {} diagnostic starts on the line after this comment, so it suppresses nothing. Remove it, or move it to the line right before the diagnostic.",
                entry.name
            ),
        ),
        None => (
            format!("Unknown code {} in a suppression", entry.name),
            format!(
                "\"{}\" is not a tofu-lens diagnostic code, so this suppresses nothing. The codes are listed in docs/diagnostics.md.",
                entry.name
            ),
        ),
    };
    let mut diagnostic = Diagnostic::new(
        crate::codes::UNUSED_SUPPRESSION,
        summary,
        Location::new(file, entry.range),
    )
    .with_detail(detail);
    if comment.entries.len() == 1 {
        diagnostic = diagnostic.with_fix(Fix::new("Remove the suppression comment").with_edit(
            file,
            TextRange::new(comment.line.start, comment.line.end.saturating_add(1)),
            "",
        ));
    }
    diagnostic
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn comments_are_found_with_their_codes_and_reasons() {
        let text = "a = 1\n  # tofu-lens-ignore: duplicate-block, no-such-code kept for Terraform\n// tofu-lens-ignore:override-depends-on\n#tofu-lens-ignore\nb = \"# tofu-lens-ignore: x\"\n";
        let comments = suppression_comments(text);
        assert_eq!(comments.len(), 2);
        let names: Vec<&str> = comments[0]
            .entries
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(names, ["duplicate-block", "no-such-code"]);
        assert_eq!(
            comments[0].entries[0].code,
            Some(crate::codes::DUPLICATE_BLOCK)
        );
        assert_eq!(comments[0].entries[1].code, None);
        assert_eq!(comments[0].entries[1].range.slice(text), "no-such-code");
        assert_eq!(
            comments[1].entries[0].range.slice(text),
            "override-depends-on"
        );
        assert_eq!(
            comments[1].line.slice(text),
            "// tofu-lens-ignore:override-depends-on"
        );
    }
}

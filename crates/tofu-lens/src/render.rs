//! Renderers for `check`: compiler-style text, JSON (`server.md`), and the short
//! one-line form the fixture tests compare.
//!
//! All three start from [`flatten`], which resolves each diagnostic's file to
//! the path the user sees and its byte range to lines and columns, and sorts by
//! file then position.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use tofu_diagnostics::ModuleAnalysis;
use tofu_syntax::{Diagnostic, LineCol, LineIndex, Location, Severity, TextRange};

use crate::check::{CheckReport, CheckedModule, UnreadableDir};

/// A position as rendered: 1-based line and column, 0-based byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
    pub byte: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

#[derive(Clone, Debug, Serialize)]
pub struct RelatedOut {
    pub file: String,
    pub range: Option<Range>,
    pub message: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct EditOut {
    pub file: String,
    pub range: Option<Range>,
    pub new_text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct NewFileOut {
    pub file: String,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FixOut {
    pub title: String,
    pub edits: Vec<EditOut>,
    /// Files the fix creates (omitted when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub new_files: Vec<NewFileOut>,
    /// Whether `check --fix` applies it.
    pub safe: bool,
}

/// One diagnostic, resolved for output. The JSON format of `server.md`.
#[derive(Clone, Debug, Serialize)]
pub struct FlatDiagnostic {
    pub file: String,
    pub range: Option<Range>,
    pub severity: &'static str,
    pub code: &'static str,
    pub summary: String,
    pub detail: String,
    pub related: Vec<RelatedOut>,
    pub fix: Option<FixOut>,
    /// The source line(s) for the excerpt, not serialised.
    #[serde(skip)]
    pub excerpt: Option<Excerpt>,
}

#[derive(Clone, Debug)]
pub struct Excerpt {
    pub line_text: String,
    /// Columns (1-based, in characters) to underline on that line, end exclusive.
    pub underline: (u32, u32),
}

/// A file of the module directory `dir`; a values file named from
/// outside it (`--var-file ../common.tfvars`) with its `..` resolved.
fn display_path(dir: &Path, name: &str) -> String {
    if name.starts_with("../") {
        return crate::fmt::clean(&dir.join(name))
            .to_string_lossy()
            .into_owned();
    }
    dir.join(name).to_string_lossy().into_owned()
}

/// Resolves a range of a module file for output; zero-width ranges are widened
/// to one character, as editors get them.
fn resolve(analysis: &ModuleAnalysis, location: Location) -> Option<Range> {
    let file = analysis.file(location.file)?;
    Some(resolve_in(&file.line_index, &file.text, location.range?))
}

fn resolve_in(line_index: &LineIndex, text: &str, range: TextRange) -> Range {
    let range = range.widened(text);
    let position = |offset: u32| {
        let LineCol { line, column } = line_index.line_col(text, offset);
        Position {
            line,
            column,
            byte: offset,
        }
    };
    Range {
        start: position(range.start),
        end: position(range.end),
    }
}

/// A file of another module directory, named from `dir` (`./modules/net/variables.tf`,
/// `examples/main.tf` for `examples/complete` and `../main.tf`).
fn display_outside(dir: &Path, path: &str) -> String {
    let cleaned = crate::fmt::clean(&dir.join(path));
    let shown = if dir.starts_with(".") && cleaned.is_relative() && !cleaned.starts_with("..") {
        Path::new(".").join(cleaned)
    } else {
        cleaned
    };
    shown.to_string_lossy().into_owned()
}

fn excerpt(analysis: &ModuleAnalysis, location: Location) -> Option<Excerpt> {
    let file = analysis.file(location.file)?;
    let range: TextRange = location.range?.widened(&file.text);
    let line = file.line_index.line_of(range.start);
    let line_text = file
        .line_index
        .line_text(&file.text, line)
        .replace('\t', " ");
    let start = file.line_index.line_col(&file.text, range.start);
    let end = file.line_index.line_col(&file.text, range.end);
    let n_chars = tofu_syntax::text::to_u32(line_text.chars().count());
    let end_column = if end.line == start.line {
        end.column
    } else {
        n_chars + 1
    };
    Some(Excerpt {
        line_text,
        underline: (start.column, end_column.max(start.column + 1)),
    })
}

fn severity_name(severity: Severity) -> &'static str {
    severity.as_str()
}

fn flatten_one(dir: &Path, analysis: &ModuleAnalysis, diagnostic: &Diagnostic) -> FlatDiagnostic {
    let file_path = |location: Location| match analysis.file(location.file) {
        Some(file) if location.range.is_some() => display_path(dir, &file.name),
        Some(file) => display_path(dir, &file.name),
        None => dir.to_string_lossy().into_owned(),
    };
    FlatDiagnostic {
        file: file_path(diagnostic.subject),
        range: resolve(analysis, diagnostic.subject),
        severity: severity_name(diagnostic.severity),
        code: diagnostic.code.as_str(),
        summary: diagnostic.summary.clone(),
        detail: diagnostic.detail.clone(),
        related: diagnostic
            .related
            .iter()
            .map(|related| RelatedOut {
                file: file_path(related.location),
                range: resolve(analysis, related.location),
                message: related.message.clone(),
            })
            .chain(diagnostic.related_outside.iter().map(|related| RelatedOut {
                file: display_outside(dir, &related.path),
                range: Some(resolve_in(
                    &LineIndex::new(&related.text),
                    &related.text,
                    related.range,
                )),
                message: related.message.clone(),
            }))
            .collect(),
        fix: diagnostic.fix.as_ref().map(|fix| FixOut {
            title: fix.title.clone(),
            edits: fix
                .edits
                .iter()
                .map(|edit| {
                    let location = Location::new(edit.file, edit.range);
                    EditOut {
                        file: file_path(location),
                        range: resolve(analysis, location).map(|mut range| {
                            // Edits keep their exact (possibly empty) range.
                            range.end = if edit.range.is_empty() {
                                range.start
                            } else {
                                range.end
                            };
                            range
                        }),
                        new_text: edit.new_text.clone(),
                    }
                })
                .collect(),
            new_files: fix
                .new_files
                .iter()
                .map(|new_file| NewFileOut {
                    file: dir.join(&new_file.name).to_string_lossy().into_owned(),
                    text: new_file.text.clone(),
                })
                .collect(),
            safe: fix.safe,
        }),
        excerpt: excerpt(analysis, diagnostic.subject),
    }
}

/// The diagnostics of one module, resolved for output (unsorted).
pub fn flatten_module(module: &CheckedModule) -> Vec<FlatDiagnostic> {
    module
        .analysis
        .diagnostics
        .iter()
        .map(|diagnostic| flatten_one(&module.dir, &module.analysis, diagnostic))
        .collect()
}

/// The `file-unreadable` error of a module directory that could not be read.
pub fn flatten_unreadable(unreadable: &UnreadableDir) -> FlatDiagnostic {
    FlatDiagnostic {
        file: unreadable.dir.to_string_lossy().into_owned(),
        range: None,
        severity: "error",
        code: tofu_diagnostics::codes::FILE_UNREADABLE.as_str(),
        summary: "Failed to read module directory".to_owned(),
        detail: format!(
            "Module directory {} could not be read: {}.",
            unreadable.dir.display(),
            unreadable.message
        ),
        related: Vec::new(),
        fix: None,
        excerpt: None,
    }
}

/// The output order: by file (as a string), then position, code and summary.
pub fn output_order(a: &FlatDiagnostic, b: &FlatDiagnostic) -> std::cmp::Ordering {
    (
        a.file.as_str(),
        a.range.map(|r| (r.start.byte, r.end.byte)),
        a.code,
        &a.summary,
    )
        .cmp(&(
            b.file.as_str(),
            b.range.map(|r| (r.start.byte, r.end.byte)),
            b.code,
            &b.summary,
        ))
}

/// Every diagnostic of the report, resolved and sorted by file then position.
pub fn flatten(report: &CheckReport) -> Vec<FlatDiagnostic> {
    let mut flat: Vec<FlatDiagnostic> = report.modules.iter().flat_map(flatten_module).collect();
    flat.extend(report.unreadable_dirs.iter().map(flatten_unreadable));
    flat.sort_by(output_order);
    flat
}

/// The compiler-style text of `check`.
pub fn text(report: &CheckReport) -> String {
    let flat = flatten(report);
    let mut out = String::new();
    let mut counts = Counts::default();
    for diagnostic in &flat {
        counts.add(diagnostic);
        text_diagnostic(&mut out, diagnostic);
    }
    let n_test_files = report
        .modules
        .iter()
        .map(|module| module.analysis.merged.declared.loaded.n_test_files())
        .sum();
    out.push_str(&summary_line(report.modules.len(), n_test_files, &counts));
    out.push('\n');
    out
}

/// `:LINE:COLUMN` of a range's start, or nothing for a directory.
fn line_column_suffix(range: Option<Range>) -> String {
    range
        .map(|range| format!(":{}:{}", range.start.line, range.start.column))
        .unwrap_or_default()
}

/// One diagnostic of the text output, with its excerpt and related places,
/// and the blank line after it.
pub fn text_diagnostic(out: &mut String, diagnostic: &FlatDiagnostic) {
    let position = line_column_suffix(diagnostic.range);
    let _ = writeln!(
        out,
        "{}{position}: {}[{}]: {}",
        diagnostic.file, diagnostic.severity, diagnostic.code, diagnostic.summary
    );
    for line in diagnostic.detail.lines() {
        let _ = writeln!(out, "  {line}");
    }
    if let (Some(excerpt), Some(range)) = (&diagnostic.excerpt, diagnostic.range) {
        let number = range.start.line.to_string();
        let gutter = " ".repeat(number.len());
        let (from, to) = excerpt.underline;
        let _ = writeln!(out, "  {gutter} |");
        let _ = writeln!(out, "  {number} | {}", excerpt.line_text);
        let _ = writeln!(
            out,
            "  {gutter} | {}{}",
            " ".repeat(from.saturating_sub(1) as usize),
            "^".repeat(to.saturating_sub(from).max(1) as usize)
        );
    }
    for related in &diagnostic.related {
        let position = line_column_suffix(related.range);
        let _ = writeln!(out, "  = {}: {}{position}", related.message, related.file);
    }
    out.push('\n');
}

/// How many diagnostics of each severity were rendered.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    /// Hints and infos together.
    pub hints: usize,
}

impl Counts {
    pub fn add(&mut self, diagnostic: &FlatDiagnostic) {
        match diagnostic.severity {
            "error" => self.errors += 1,
            "warning" => self.warnings += 1,
            _ => self.hints += 1,
        }
    }

    fn total(&self) -> usize {
        self.errors + self.warnings + self.hints
    }
}

/// The closing line of the text output; the test files are named only
/// when there are some.
pub fn summary_line(n_modules: usize, n_test_files: usize, counts: &Counts) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let mut modules = plural(n_modules, "module directory").replace("directorys", "directories");
    if n_test_files > 0 {
        modules = format!("{modules} and {}", plural(n_test_files, "test file"));
    }
    if counts.total() == 0 {
        return format!("No problems found in {modules}.");
    }
    let mut parts = vec![
        plural(counts.errors, "error"),
        plural(counts.warnings, "warning"),
    ];
    if counts.hints > 0 {
        parts.push(plural(counts.hints, "hint"));
    }
    format!("{} in {modules}.", parts.join(", "))
}

/// The JSON array of `check --format json`.
pub fn json(report: &CheckReport) -> String {
    let flat = flatten(report);
    if flat.is_empty() {
        return "[]".to_owned();
    }
    let elements: Vec<String> = flat.iter().map(json_element).collect();
    format!("[\n{}\n]", elements.join(",\n"))
}

/// One element of the JSON array, pretty-printed and indented as
/// `serde_json::to_string_pretty` indents it inside the array.
pub fn json_element(diagnostic: &FlatDiagnostic) -> String {
    let pretty = serde_json::to_string_pretty(diagnostic).unwrap_or_else(|_| "{}".to_owned());
    pretty
        .lines()
        .map(|line| format!("  {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line per diagnostic, `file:line:col severity code summary`, with file
/// paths relative to `base`: the form fixture expectations are written in.
pub fn short(report: &CheckReport, base: &Path) -> String {
    let clean_base = crate::fmt::clean(base);
    let base = base.to_string_lossy();
    let mut out = String::new();
    for diagnostic in flatten(report) {
        // A file outside `base` (a values file named from elsewhere) by
        // its path from `base`.
        let outside = || {
            let file = crate::fmt::clean(Path::new(&diagnostic.file));
            if file.is_absolute() == clean_base.is_absolute() {
                tofu_module::given_values::relative_name(&clean_base, &file)
            } else {
                diagnostic.file.clone()
            }
        };
        let file = diagnostic
            .file
            .strip_prefix(base.as_ref())
            .map(|rest| rest.trim_start_matches('/').to_owned())
            .unwrap_or_else(outside);
        let position = line_column_suffix(diagnostic.range);
        let _ = writeln!(
            out,
            "{file}{position} {} {} {}",
            diagnostic.severity, diagnostic.code, diagnostic.summary
        );
        if let Some(fix) = &diagnostic.fix {
            let _ = writeln!(out, "  fix: {}", fix.title);
        }
    }
    out
}

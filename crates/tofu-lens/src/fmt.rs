//! `tofu-lens fmt`: `tofu fmt`'s command line over the `tofu-fmt` engine.
//!
//! Each PATH is a file (which must be `.tf`, `.tofu`, `.tfvars`,
//! `.tftest.hcl` or `.tofutest.hcl`), a directory (its such files, hidden
//! ones skipped; with `recursive`, its subdirectories too, hidden ones
//! skipped, in name order) or `-` (stdin to stdout). Like `tofu fmt`: a file
//! that would change is listed (its path relative to the working directory),
//! written back, and shown as a unified diff, as the options say; `check`
//! writes nothing and exits 3 when a file would change; a file with syntax
//! errors is left alone, its errors go to stderr, the other files are still
//! processed, and the exit code is 2 (with `check`, nothing is listed then).
//! Stdin is written to stdout formatted, or as a diff with `diff`, or not at
//! all with `check`.
//!
//! `--diff` runs the system's `diff -u` on two temporary files, as
//! `tofu fmt -diff` does, so the hunks are the same as its; where there is
//! no `diff` program, a built-in Myers diff prints an equivalent unified
//! diff (which may pair equal lines differently).

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use tofu_syntax::LineIndex;

/// The options of `fmt`, as `tofu fmt` has them.
#[derive(Clone, Debug)]
pub struct FmtOptions {
    pub list: bool,
    pub write: bool,
    pub diff: bool,
    pub check: bool,
    pub recursive: bool,
}

impl Default for FmtOptions {
    fn default() -> FmtOptions {
        FmtOptions {
            list: true,
            write: true,
            diff: false,
            check: false,
            recursive: false,
        }
    }
}

/// Where `fmt` reads and writes, so tests can run it in process.
pub struct FmtIo<'a> {
    pub stdin: &'a mut dyn std::io::Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    /// The directory listed paths are relative to.
    pub cwd: PathBuf,
}

/// Exit code: 0 when done (nothing to change, or changes written), 2 on
/// errors (syntax errors, bad paths, IO), 3 when `check` found a file that
/// would change.
pub fn run(paths: &[PathBuf], options: &FmtOptions, io: &mut FmtIo<'_>) -> u8 {
    let default_paths = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &default_paths[..]
    } else {
        paths
    };
    let mut run = Run {
        options: options.clone(),
        listed: Vec::new(),
        changed: false,
        failed: false,
    };
    // `check` never writes; stdin is never written back.
    run.options.write = options.write && !options.check;
    for path in paths {
        if path.as_os_str() == "-" {
            run.stdin(io);
        } else {
            run.path(path, io);
        }
    }
    if options.check && !run.failed {
        for name in &run.listed {
            let _ = writeln!(io.stdout, "{name}");
        }
    }
    let _ = io.stdout.flush();
    if run.failed {
        2
    } else if options.check && run.changed {
        3
    } else {
        0
    }
}

struct Run {
    options: FmtOptions,
    /// Names to list at the end (`check` lists only when nothing failed).
    listed: Vec<String>,
    changed: bool,
    failed: bool,
}

impl Run {
    fn stdin(&mut self, io: &mut FmtIo<'_>) {
        let mut bytes = Vec::new();
        if let Err(error) = io.stdin.read_to_end(&mut bytes) {
            let _ = writeln!(io.stderr, "tofu-lens fmt: cannot read stdin: {error}");
            self.failed = true;
            return;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            let _ = writeln!(io.stderr, "<stdin>: error: the input is not UTF-8");
            self.failed = true;
            return;
        };
        let formatted = match tofu_fmt::format(&text) {
            Ok(formatted) => formatted,
            Err(not_formatted) => {
                self.report_errors("<stdin>", &text, &not_formatted, io);
                return;
            }
        };
        let changed = formatted != text;
        self.changed |= changed;
        if self.options.diff {
            if changed {
                let _ = io
                    .stdout
                    .write_all(diff_text("<stdin>", &text, &formatted).as_bytes());
            }
        } else if !self.options.check {
            let _ = io.stdout.write_all(formatted.as_bytes());
        }
    }

    fn path(&mut self, path: &Path, io: &mut FmtIo<'_>) {
        let metadata = match std::fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(_) => {
                let _ = writeln!(
                    io.stderr,
                    "tofu-lens fmt: no file or directory at {}",
                    path.display()
                );
                self.failed = true;
                return;
            }
        };
        if metadata.is_dir() {
            self.directory(path, io);
        } else {
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !tofu_fmt::is_formatted_file_name(&name) {
                let _ = writeln!(
                    io.stderr,
                    "tofu-lens fmt: {}: only .tf, .tofu, .tfvars, .tftest.hcl and .tofutest.hcl files can be formatted",
                    path.display()
                );
                self.failed = true;
                return;
            }
            self.file(path, io);
        }
    }

    fn directory(&mut self, dir: &Path, io: &mut FmtIo<'_>) {
        let mut entries: Vec<(String, PathBuf, bool)> = match std::fs::read_dir(dir) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .map(|entry| {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
                    (name, entry.path(), is_dir)
                })
                .collect(),
            Err(error) => {
                let _ = writeln!(
                    io.stderr,
                    "tofu-lens fmt: cannot read {}: {error}",
                    dir.display()
                );
                self.failed = true;
                return;
            }
        };
        entries.sort();
        for (name, path, is_dir) in entries {
            if name.starts_with('.') {
                continue;
            }
            if is_dir {
                if self.options.recursive {
                    self.directory(&path, io);
                }
            } else if tofu_fmt::is_formatted_file_name(&name) {
                self.file(&path, io);
            }
        }
    }

    fn file(&mut self, path: &Path, io: &mut FmtIo<'_>) {
        let shown = display_path(&io.cwd, path);
        let text = match std::fs::read(path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => {
                    let _ = writeln!(io.stderr, "{shown}: error: the file is not UTF-8");
                    self.failed = true;
                    return;
                }
            },
            Err(error) => {
                let _ = writeln!(io.stderr, "{shown}: error: cannot read the file: {error}");
                self.failed = true;
                return;
            }
        };
        let formatted = match tofu_fmt::format(&text) {
            Ok(formatted) => formatted,
            Err(not_formatted) => {
                self.report_errors(&shown, &text, &not_formatted, io);
                return;
            }
        };
        if formatted == text {
            return;
        }
        self.changed = true;
        if self.options.list {
            if self.options.check {
                self.listed.push(shown.clone());
            } else {
                let _ = writeln!(io.stdout, "{shown}");
            }
        }
        if self.options.write {
            if let Err(error) = std::fs::write(path, formatted.as_bytes()) {
                let _ = writeln!(io.stderr, "{shown}: error: cannot write the file: {error}");
                self.failed = true;
            }
        }
        if self.options.diff {
            let _ = io
                .stdout
                .write_all(diff_text(&shown, &text, &formatted).as_bytes());
        }
    }

    fn report_errors(
        &mut self,
        shown: &str,
        text: &str,
        not_formatted: &tofu_fmt::NotFormatted,
        io: &mut FmtIo<'_>,
    ) {
        self.failed = true;
        let index = LineIndex::new(text);
        for error in &not_formatted.errors {
            let at = index.hcl_line_col(text, error.range.start);
            let _ = writeln!(
                io.stderr,
                "{shown}:{}:{}: error: {}\n  {}",
                at.line, at.column, error.summary, error.detail
            );
        }
    }
}

/// `path` as `tofu fmt` shows it: relative to the working directory.
fn display_path(cwd: &Path, path: &Path) -> String {
    let absolute = clean(&cwd.join(path));
    let base = clean(cwd);
    let absolute_parts: Vec<Component<'_>> = absolute.components().collect();
    let base_parts: Vec<Component<'_>> = base.components().collect();
    let common = absolute_parts
        .iter()
        .zip(&base_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for _ in common..base_parts.len() {
        relative.push("..");
    }
    for part in absolute_parts.iter().skip(common) {
        relative.push(part.as_os_str());
    }
    if relative.as_os_str().is_empty() {
        return ".".to_owned();
    }
    relative.to_string_lossy().into_owned()
}

/// A path with `.` and `name/..` removed, lexically.
pub(crate) fn clean(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    out.iter().map(|component| component.as_os_str()).collect()
}

/// The diff `--diff` prints: the system's `diff -u`, as `tofu fmt` runs
/// it, or [`unified_diff`] when it cannot be run.
fn diff_text(name: &str, old: &str, new: &str) -> String {
    system_diff(name, old, new).unwrap_or_else(|| unified_diff(name, old, new))
}

fn system_diff(name: &str, old: &str, new: &str) -> Option<String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tofu-lens-fmt-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir(&dir).ok()?;
    let (old_path, new_path) = (dir.join("old"), dir.join("new"));
    let output = std::fs::write(&old_path, old)
        .and_then(|()| std::fs::write(&new_path, new))
        .and_then(|()| {
            std::process::Command::new("diff")
                .arg(format!("--label=old/{name}"))
                .arg(format!("--label=new/{name}"))
                .arg("-u")
                .arg(&old_path)
                .arg(&new_path)
                .output()
        });
    let _ = std::fs::remove_dir_all(&dir);
    let output = output.ok()?;
    // 1: the files differ (0 would be no difference, >1 trouble).
    if output.status.code() != Some(1) {
        return None;
    }
    String::from_utf8(output.stdout).ok()
}

/// A unified diff (three lines of context) between `old` and `new`, headed
/// `--- old/NAME` and `+++ new/NAME` as `tofu fmt -diff` heads it.
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let script = diff_lines(&old_lines, &new_lines);
    let mut out = format!("--- old/{name}\n+++ new/{name}\n");
    // Group changes into hunks with up to 3 lines of context.
    let mut index = 0;
    while index < script.len() {
        let Some(first_change) = script
            .get(index..)
            .and_then(|rest| rest.iter().position(|op| !matches!(op, Op::Same(..))))
            .map(|offset| index + offset)
        else {
            break;
        };
        let start = first_change.saturating_sub(3).max(index);
        let mut end = first_change;
        let mut same_run = 0;
        let mut cursor = first_change;
        while let Some(op) = script.get(cursor) {
            if matches!(op, Op::Same(..)) {
                same_run += 1;
                if same_run > 6 {
                    break;
                }
            } else {
                same_run = 0;
                end = cursor + 1;
            }
            cursor += 1;
        }
        let end = (end + 3).min(script.len());
        let hunk = script.get(start..end).unwrap_or_default();
        let (old_start, new_start) = match hunk.first() {
            Some(Op::Same(o, n)) => (*o, *n),
            Some(Op::Delete(o, n)) | Some(Op::Insert(o, n)) => (*o, *n),
            None => (0, 0),
        };
        let old_count = hunk
            .iter()
            .filter(|op| !matches!(op, Op::Insert(..)))
            .count();
        let new_count = hunk
            .iter()
            .filter(|op| !matches!(op, Op::Delete(..)))
            .count();
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range_text(old_start, old_count),
            range_text(new_start, new_count)
        ));
        for op in hunk {
            let (sign, line) = match op {
                Op::Same(o, _) => (' ', old_lines.get(*o)),
                Op::Delete(o, _) => ('-', old_lines.get(*o)),
                Op::Insert(_, n) => ('+', new_lines.get(*n)),
            };
            let line = line.copied().unwrap_or_default();
            out.push(sign);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
        index = end;
    }
    out
}

fn range_text(start: usize, count: usize) -> String {
    match count {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{count}", start + 1),
    }
}

/// One step of an edit script, with the old and new line numbers it is at.
#[derive(Clone, Copy, Debug)]
enum Op {
    Same(usize, usize),
    Delete(usize, usize),
    Insert(usize, usize),
}

/// A shortest edit script between two line lists (Myers' algorithm), with
/// common head and tail lines stripped first. Past 4,000 differences it
/// gives up on minimality and replaces the rest whole.
fn diff_lines(old: &[&str], new: &[&str]) -> Vec<Op> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old
        .get(head..)
        .unwrap_or_default()
        .iter()
        .rev()
        .zip(new.get(head..).unwrap_or_default().iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let old_mid = old.get(head..old.len() - tail).unwrap_or_default();
    let new_mid = new.get(head..new.len() - tail).unwrap_or_default();
    let mut ops: Vec<Op> = (0..head).map(|line| Op::Same(line, line)).collect();
    ops.extend(myers(old_mid, new_mid).into_iter().map(|op| match op {
        Op::Same(o, n) => Op::Same(o + head, n + head),
        Op::Delete(o, n) => Op::Delete(o + head, n + head),
        Op::Insert(o, n) => Op::Insert(o + head, n + head),
    }));
    let (old_end, new_end) = (old.len() - tail, new.len() - tail);
    ops.extend((0..tail).map(|offset| Op::Same(old_end + offset, new_end + offset)));
    ops
}

fn myers(old: &[&str], new: &[&str]) -> Vec<Op> {
    const MAX_D: usize = 4000;
    let (n, m) = (old.len(), new.len());
    let max = n + m;
    let offset = max + 1;
    let mut v = vec![0usize; 2 * max + 3];
    let mut trace: Vec<Vec<usize>> = Vec::new();
    let mut found = false;
    for d in 0..=max.min(MAX_D) {
        trace.push(v.clone());
        let d_signed = d as isize;
        let mut k = -d_signed;
        while k <= d_signed {
            let index = (k + offset as isize) as usize;
            let down = k == -d_signed
                || (k != d_signed
                    && v.get(index - 1).copied().unwrap_or(0)
                        < v.get(index + 1).copied().unwrap_or(0));
            let mut x = if down {
                v.get(index + 1).copied().unwrap_or(0)
            } else {
                v.get(index - 1).copied().unwrap_or(0) + 1
            };
            let mut y = (x as isize - k) as usize;
            while x < n && y < m && old.get(x) == new.get(y) {
                x += 1;
                y += 1;
            }
            if let Some(slot) = v.get_mut(index) {
                *slot = x;
            }
            if x >= n && y >= m {
                found = true;
                break;
            }
            k += 2;
        }
        if found {
            break;
        }
    }
    if !found {
        let mut ops: Vec<Op> = (0..n).map(|line| Op::Delete(line, 0)).collect();
        ops.extend((0..m).map(|line| Op::Insert(n, line)));
        return ops;
    }
    // Walk the trace back from (n, m).
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for (d, v) in trace.iter().enumerate().rev() {
        let k = x as isize - y as isize;
        let d_signed = d as isize;
        let index = |k: isize| (k + offset as isize) as usize;
        let down = k == -d_signed
            || (k != d_signed
                && v.get(index(k - 1)).copied().unwrap_or(0)
                    < v.get(index(k + 1)).copied().unwrap_or(0));
        let previous_k = if down { k + 1 } else { k - 1 };
        let previous_x = v.get(index(previous_k)).copied().unwrap_or(0);
        let previous_y = (previous_x as isize - previous_k) as usize;
        while x > previous_x && y > previous_y {
            x -= 1;
            y -= 1;
            ops.push(Op::Same(x, y));
        }
        if d > 0 {
            if down {
                y -= 1;
                ops.push(Op::Insert(x, y));
            } else {
                x -= 1;
                ops.push(Op::Delete(x, y));
            }
        }
    }
    ops.reverse();
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_relative_to_the_working_directory() {
        let cwd = Path::new("/work/a");
        assert_eq!(display_path(cwd, Path::new("b/c.tf")), "b/c.tf");
        assert_eq!(display_path(cwd, Path::new("/work/a/c.tf")), "c.tf");
        assert_eq!(display_path(cwd, Path::new("../a/./c.tf")), "c.tf");
        assert_eq!(display_path(cwd, Path::new("/tmp/c.tf")), "../../tmp/c.tf");
    }

    #[test]
    fn unified_diff_has_hunks_with_context() {
        assert_eq!(
            unified_diff("a.tf", "x=1\n", "x = 1\n"),
            "--- old/a.tf\n+++ new/a.tf\n@@ -1 +1 @@\n-x=1\n+x = 1\n"
        );
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n";
        let new = "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n";
        assert_eq!(
            unified_diff("f", old, new),
            "--- old/f\n+++ new/f\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -7,5 +7,5 @@\n g\n h\n i\n-j\n+J\n k\n"
        );
    }
}

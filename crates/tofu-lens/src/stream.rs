//! `check` output written while the analyses arrive, byte for byte what
//! [`render::text`] and [`render::json`] print for the whole report, but
//! holding only the rendered diagnostics of one directory tree at a time.
//!
//! The whole-report output is sorted by file path as a string. Module
//! directories arrive in the order of their path plus `/`
//! ([`check::check_paths_streaming`]), so the files of a directory and of
//! everything below it form one contiguous run of that order, and no other
//! directory's files fall inside it: a "group" is such a directory tree. A
//! group's diagnostics are sorted and written when the next directory outside
//! it arrives, and the analyses themselves are dropped as soon as they are
//! resolved to output form. The `file-unreadable` errors of directories are
//! few; they wait in a sorted list and are written where they fall between
//! the others.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::check::{self, CheckReport, CheckedModule, Found, MissingPath, UnreadableDir};
use crate::render::{self, Counts, FlatDiagnostic};
use tofu_module::Config;
use tofu_vfs::schemas::SchemaOptions;

/// Which whole-report renderer the stream reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamFormat {
    Text,
    Json,
}

/// What a streamed check saw, for the exit code and the messages on stderr.
#[derive(Debug)]
pub struct StreamedCheck {
    /// Everything but the modules (config problems, truncated walks, …).
    pub report: CheckReport,
    pub has_errors: bool,
    /// Set when writing stopped; a closed pipe ends the output quietly.
    pub write_error: Option<io::Error>,
}

/// Runs `check` over `paths` with `jobs` threads and writes its output to
/// `out` while the directories are analysed.
pub fn check_streaming<W: Write>(
    paths: &[PathBuf],
    config: &Config,
    tofu_version_flag: Option<&str>,
    jobs: usize,
    format: StreamFormat,
    out: W,
) -> Result<StreamedCheck, MissingPath> {
    check_streaming_with_schemas(
        paths,
        config,
        tofu_version_flag,
        &SchemaOptions::none(),
        jobs,
        format,
        out,
    )
}

/// [`check_streaming`] with the provider schemas `schemas` says where to
/// find.
pub fn check_streaming_with_schemas<W: Write>(
    paths: &[PathBuf],
    config: &Config,
    tofu_version_flag: Option<&str>,
    schemas: &SchemaOptions,
    jobs: usize,
    format: StreamFormat,
    out: W,
) -> Result<StreamedCheck, MissingPath> {
    let mut writer = StreamWriter::new(format, out);
    let report =
        check::check_paths_streaming(paths, config, tofu_version_flag, schemas, jobs, |found| {
            match found {
                Found::Module(module) => writer.module(&module),
                Found::Unreadable(dir) => writer.unreadable(&dir),
            }
        })?;
    let has_errors = writer.has_errors;
    let write_error = writer.finish().err();
    Ok(StreamedCheck {
        report,
        has_errors,
        write_error,
    })
}

struct StreamWriter<W: Write> {
    format: StreamFormat,
    out: W,
    /// The root of the directory tree being collected (as a string, with a
    /// trailing `/`), and its diagnostics so far.
    group: Option<(String, Vec<FlatDiagnostic>)>,
    /// `file-unreadable` errors not written yet, sorted.
    unreadable: Vec<FlatDiagnostic>,
    counts: Counts,
    n_modules: usize,
    n_test_files: usize,
    n_written: usize,
    has_errors: bool,
    error: Option<io::Error>,
    /// Text is gathered per group and written in one call.
    buffer: String,
}

impl<W: Write> StreamWriter<W> {
    fn new(format: StreamFormat, out: W) -> StreamWriter<W> {
        StreamWriter {
            format,
            out,
            group: None,
            unreadable: Vec::new(),
            counts: Counts::default(),
            n_modules: 0,
            n_test_files: 0,
            n_written: 0,
            has_errors: false,
            error: None,
            buffer: String::new(),
        }
    }

    fn module(&mut self, module: &CheckedModule) {
        self.n_modules += 1;
        self.n_test_files += module.analysis.merged.declared.loaded.n_test_files();
        self.has_errors |= module.analysis.has_errors();
        let key = check::order_key(&module.dir);
        let inside = self
            .group
            .as_ref()
            .is_some_and(|(root, _)| key.starts_with(root.as_str()));
        if !inside {
            self.flush_group();
            self.group = Some((key, Vec::new()));
        }
        if let Some((_, flat)) = &mut self.group {
            flat.extend(render::flatten_module(module));
        }
    }

    fn unreadable(&mut self, dir: &UnreadableDir) {
        self.has_errors = true;
        let flat = render::flatten_unreadable(dir);
        let at = self
            .unreadable
            .partition_point(|other| render::output_order(other, &flat).is_le());
        self.unreadable.insert(at, flat);
    }

    /// Writes the collected group, with the unreadable directories that sort
    /// before each of its diagnostics.
    fn flush_group(&mut self) {
        let Some((_, mut flat)) = self.group.take() else {
            return;
        };
        flat.sort_by(render::output_order);
        for diagnostic in flat {
            while self
                .unreadable
                .first()
                .is_some_and(|first| render::output_order(first, &diagnostic).is_lt())
            {
                let first = self.unreadable.remove(0);
                self.render(&first);
            }
            self.render(&diagnostic);
        }
        self.write_buffer();
    }

    fn render(&mut self, diagnostic: &FlatDiagnostic) {
        self.counts.add(diagnostic);
        match self.format {
            StreamFormat::Text => render::text_diagnostic(&mut self.buffer, diagnostic),
            StreamFormat::Json => {
                self.buffer
                    .push_str(if self.n_written == 0 { "[\n" } else { ",\n" });
                self.buffer.push_str(&render::json_element(diagnostic));
            }
        }
        self.n_written += 1;
    }

    fn write_buffer(&mut self) {
        if self.error.is_none() && !self.buffer.is_empty() {
            if let Err(error) = self.out.write_all(self.buffer.as_bytes()) {
                self.error = Some(error);
            }
        }
        self.buffer.clear();
    }

    fn finish(mut self) -> io::Result<()> {
        self.flush_group();
        for diagnostic in std::mem::take(&mut self.unreadable) {
            self.render(&diagnostic);
        }
        match self.format {
            StreamFormat::Text => {
                self.buffer.push_str(&render::summary_line(
                    self.n_modules,
                    self.n_test_files,
                    &self.counts,
                ));
                self.buffer.push('\n');
            }
            StreamFormat::Json if self.n_written == 0 => self.buffer.push_str("[]\n"),
            StreamFormat::Json => self.buffer.push_str("\n]\n"),
        }
        self.write_buffer();
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        self.out.flush()
    }
}

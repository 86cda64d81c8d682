//! `tofu-lens console [DIR]`: reads expressions and prints their values as
//! `tofu console -no-color` does, without `init`; provider functions are
//! called where `check` would call them (the provider installed and
//! vouched for by the lock file), unless `--no-providers`. An
//! expression goes on over lines while a brace, bracket or parenthesis is
//! open or a line ends in `\\` (OpenTofu's bracket state,
//! [`BracketState`]). Values go to stdout; errors to stderr (OpenTofu's
//! plain diagnostic form with the line of the input, the detail wrapped at
//! 77 columns). Read from a pipe, the first input with errors ends the
//! session with exit code 1; read from a terminal, the console prompts
//! (`> `, and a `.` per open delimiter) and goes on after errors, as the
//! console does.
//!
//! In a module directory the module's input variables and local values are
//! known as tofu-module's `ModuleValues` knows them (a `.tfvars` file
//! OpenTofu loads by itself, else the default, converted to the variable's
//! type); a variable or local value whose evaluation fails is unknown.
//! Files (`file`, `fileexists`, `fileset`, `templatefile`, …) are read
//! relative to DIR, and
//! `path.cwd` is the directory the console runs in. Only here do `timestamp`,
//! `uuid` and `bcrypt` get the clock and the operating system's random
//! bytes ([`ConsoleDirectory`]), as in `tofu console`; `check`, hover and
//! the server keep them unknown, as `tofu validate` does.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use std::sync::Arc;

use tofu_diagnostics::{analyze, analyze_with_files, AnalysisCache};
use tofu_eval::console::bracket_state::{BracketState, Read};
use tofu_eval::console::{handle, has_source, input_line, ConsoleModule, Handled, NoModule};
use tofu_eval::{
    DirEntry, Environment, EvalDiagnostic, FileError, FunctionError, PerRun, ProviderFunction,
    Value,
};
use tofu_module::calls::CalledModules;
use tofu_module::provider_schemas::ProviderSchemas;
use tofu_module::{Config, ModuleFiles, ModuleValues};
use tofu_vfs::schemas::functions::FilesAndFunctions;
use tofu_vfs::schemas::validators::ProviderValidators;
use tofu_vfs::schemas::{DirSchemas, SchemaOptions, SchemaSource};

/// How the console reads its input, as `tofu console` decides by whether
/// its stdin is a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A pipe or a file: no prompt, and the first input with errors ends
    /// the session (`false`).
    Piped,
    /// A terminal: the prompt `> `, one `.` per open delimiter while an
    /// input goes on over lines, errors printed and the session going on;
    /// at the end of the input `exit`, as OpenTofu's readline prints it.
    Interactive,
}

/// Runs the console over `input` in `dir` (or a directory without
/// configuration); `false` when a piped input had errors.
///
/// With `schemas`, the providers the module needs are looked for as
/// `check` looks for them, and the functions of those that may run are
/// called (`provider::time::rfc3339_parse(…)`), as `tofu console` calls
/// them after `tofu init`.
pub fn run(
    mode: Mode,
    dir: Option<&Path>,
    schemas: Option<&SchemaOptions>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> std::io::Result<bool> {
    let base = dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut environment = ConsoleDirectory::new(base);
    let analysis = match dir {
        Some(dir) => {
            let files = tofu_vfs::read_module_dir(dir)?;
            let mut cache = AnalysisCache::new();
            let analysis = analyze(&files, &Config::default(), &mut cache);
            let provider_schemas = match schemas {
                Some(options) => provider_schemas(dir, options, &analysis),
                None => None,
            };
            Some(match provider_schemas {
                Some((provider_schemas, functions)) => {
                    // The module's own problems, which the console prints
                    // first, come from calling its provider functions too.
                    let module_files =
                        functions
                            .as_ref()
                            .map_or_else(ModuleFiles::default, |functions| {
                                ModuleFiles::new(
                                    Arc::clone(functions) as Arc<dyn Environment + Send + Sync>
                                )
                            });
                    environment.functions = functions;
                    analyze_with_files(
                        &files,
                        &Config::default(),
                        &CalledModules::default(),
                        &provider_schemas,
                        &module_files,
                        &mut cache,
                    )
                }
                None => analysis,
            })
        }
        None => None,
    };
    if let Some(analysis) = &analysis {
        let problems = module_problems(analysis);
        write!(errors, "{}", problems.errors)?;
        write!(out, "{}", problems.warnings)?;
        if analysis.load_failed {
            return Ok(false);
        }
    }
    let provider_functions = |name: &str| {
        analysis
            .as_ref()
            .and_then(|analysis| analysis.provider_function(name))
    };
    let module_values = analysis.as_ref().map(|analysis| {
        ModuleValues::new(analysis, &environment).with_provider_functions(&provider_functions)
    });
    let module: &dyn ConsoleModule = match &module_values {
        Some(values) => values,
        None => &NoModule,
    };
    let mut state = BracketState::new();
    let mut line = Vec::new();
    let mut prompt = "> ".to_owned();
    loop {
        if mode == Mode::Interactive {
            write!(out, "{prompt}")?;
            out.flush()?;
        }
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            if mode == Mode::Interactive {
                writeln!(out, "exit")?;
            }
            return Ok(true);
        }
        let text = String::from_utf8_lossy(&line);
        let command = match state.read_line(text.trim_end_matches(['\n', '\r'])) {
            Read::Open(n_open) => {
                prompt = format!("{} ", ".".repeat(usize::try_from(n_open).unwrap_or(1)));
                continue;
            }
            Read::Run(command) => command,
        };
        prompt = "> ".to_owned();
        match handle(&command, &environment, module) {
            Handled::Print(printed) => writeln!(out, "{printed}")?,
            Handled::Exit => return Ok(true),
            Handled::Errors(found) => {
                for error in &found {
                    write!(errors, "{}", plain_diagnostic(&command, error))?;
                    writeln!(errors)?;
                }
                if mode == Mode::Piped {
                    return Ok(false);
                }
            }
        }
    }
}

/// OpenTofu's `DiagnosticPlain` for an error of the console's input, whose
/// source it does not show.
pub fn plain_diagnostic(input: &str, error: &EvalDiagnostic) -> String {
    let mut text = format!("\nError: {}\n\n", error.summary);
    if has_source(error) {
        text.push_str(&format!(
            "  on <console-input> line {}:\n  (source code not available)\n\n",
            input_line(input, error)
        ));
    }
    if !error.detail.is_empty() {
        for line in error.detail.split('\n') {
            if line.starts_with(' ') {
                text.push_str(line);
            } else {
                text.push_str(&word_wrap(line, DETAIL_WIDTH));
            }
            text.push('\n');
        }
    }
    text
}

/// The warnings of OpenTofu's that `tofu console` prints about the module
/// before it reads any input, among those checked against it: warnings of
/// loading the configuration, which the console loads twice and so
/// reports twice (tofu-lens's own warnings are not among them).
const CONSOLE_WARNINGS: &[tofu_syntax::Code] = &[
    tofu_diagnostics::codes::QUOTED_REFERENCE_DEPRECATED,
    tofu_diagnostics::codes::PROVIDER_VERSION_DEPRECATED,
];

/// What `tofu console` prints about the module before it reads input: its
/// errors on stderr, its warnings on stdout.
struct ModuleProblems {
    errors: String,
    warnings: String,
}

/// The module's problems as `tofu console -no-color` prints them, in
/// OpenTofu's plain form with the source line. A module that does not load
/// gets its errors and no session. Otherwise the console evaluates its
/// input variables, local values and outputs first: their errors are
/// printed, then the warning "Due to the problems above, ..."; the
/// resources' own arguments are not evaluated. Warnings with the summary of
/// an earlier one are folded into it (`-consolidate-warnings`, on by
/// default: "(and N more similar warnings elsewhere)", counting each
/// warning twice as the console reports it twice).
fn module_problems(analysis: &tofu_diagnostics::ModuleAnalysis) -> ModuleProblems {
    let mut groups: Vec<(&tofu_syntax::Diagnostic, usize)> = Vec::new();
    for diagnostic in &analysis.diagnostics {
        if diagnostic.severity != tofu_syntax::Severity::Warning
            || !CONSOLE_WARNINGS.contains(&diagnostic.code)
        {
            continue;
        }
        match groups
            .iter_mut()
            .find(|(first, _)| first.summary == diagnostic.summary)
        {
            Some((_, n_more)) => *n_more += 2,
            None => groups.push((diagnostic, 1)),
        }
    }
    let mut warnings = String::new();
    for (diagnostic, n_more) in groups {
        let mut detail = diagnostic.detail.clone();
        if n_more > 0 {
            let more = match n_more {
                1 => "(and one more similar warning elsewhere)".to_owned(),
                n => format!("(and {n} more similar warnings elsewhere)"),
            };
            detail = if detail.is_empty() {
                more
            } else {
                format!("{detail}\n\n{more}")
            };
        }
        warnings.push_str(&plain_module_diagnostic(
            analysis,
            "Warning",
            &diagnostic.summary,
            &detail,
            Some(diagnostic.subject),
        ));
    }
    let evaluated = |diagnostic: &&tofu_syntax::Diagnostic| {
        analysis.load_failed
            || top_level_block(analysis, diagnostic.subject).is_some_and(|block| {
                matches!(block.kind.as_str(), "locals" | "variable" | "output")
            })
    };
    // The console gives a variable nothing sets an unknown value where
    // `tofu plan -input=false` stops: not its error.
    let plan_only = |diagnostic: &&tofu_syntax::Diagnostic| {
        diagnostic.code == tofu_diagnostics::codes::PLAN_REQUIRED_VARIABLE
    };
    let mut errors = String::new();
    for diagnostic in analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .filter(|diagnostic| !plan_only(diagnostic))
        .filter(evaluated)
    {
        errors.push_str(&plain_module_diagnostic(
            analysis,
            "Error",
            &diagnostic.summary,
            &diagnostic.detail,
            Some(diagnostic.subject),
        ));
    }
    if !errors.is_empty() && !analysis.load_failed {
        warnings.push_str(&plain_module_diagnostic(
            analysis,
            "Warning",
            "Due to the problems above, some expressions may produce unexpected results.",
            "",
            None,
        ));
    }
    ModuleProblems { errors, warnings }
}

/// One diagnostic of the module in OpenTofu's plain form, and the blank
/// line the console's view writes after it.
fn plain_module_diagnostic(
    analysis: &tofu_diagnostics::ModuleAnalysis,
    severity: &str,
    summary: &str,
    detail: &str,
    subject: Option<tofu_syntax::Location>,
) -> String {
    let mut text = format!("\n{severity}: {summary}\n\n");
    if let Some(snippet) = subject.and_then(|subject| source_snippet(analysis, subject)) {
        text.push_str(&snippet);
        text.push('\n');
    }
    for line in detail.split('\n').filter(|_| !detail.is_empty()) {
        if line.starts_with(' ') {
            text.push_str(line);
        } else {
            text.push_str(&word_wrap(line, DETAIL_WIDTH));
        }
        text.push('\n');
    }
    text.push('\n');
    text
}

/// The top-level block of the module file around `location`'s start.
fn top_level_block(
    analysis: &tofu_diagnostics::ModuleAnalysis,
    location: tofu_syntax::Location,
) -> Option<&tofu_syntax::Block> {
    let file = analysis.file(location.file)?;
    let at = location.range?.start;
    file.source
        .as_ref()?
        .body
        .blocks
        .iter()
        .find(|block| block.range.start <= at && at < block.range.end)
}

/// `  on FILE line N, in BLOCK:` and the lines of the subject, numbered:
/// OpenTofu's snippet, its context the top-level block around the byte
/// before the subject (HCL's `ContextString`).
fn source_snippet(
    analysis: &tofu_diagnostics::ModuleAnalysis,
    location: tofu_syntax::Location,
) -> Option<String> {
    let file = analysis.file(location.file)?;
    let range = location.range?.widened(&file.text);
    let start_line = file.line_index.line_of(range.start);
    let end_line = file
        .line_index
        .line_of(range.end.saturating_sub(1).max(range.start));
    let context = file.source.as_ref().and_then(|source| {
        let before = range.start.checked_sub(1)?;
        let block = source
            .body
            .blocks
            .iter()
            .find(|block| block.range.start <= before && before < block.range.end)?;
        let mut header = block.kind.clone();
        for label in &block.labels {
            header.push(' ');
            header.push_str(&tofu_syntax::go_text::go_quote(&label.value));
        }
        Some(header)
    });
    let mut text = format!(
        "  on {} line {}{}:\n",
        file.name,
        start_line + 1,
        context
            .map(|context| format!(", in {context}"))
            .unwrap_or_default()
    );
    for line in start_line..=end_line {
        text.push_str(&format!(
            "{:4}: {}\n",
            line + 1,
            file.line_index.line_text(&file.text, line)
        ));
    }
    Some(text)
}

/// The console's width when it does not write to a terminal, less one.
const DETAIL_WIDTH: usize = 77;

/// `github.com/mitchellh/go-wordwrap`'s `WrapString`: breaks at spaces so
/// no line is longer than `limit` characters unless one word is.
fn word_wrap(text: &str, limit: usize) -> String {
    let mut wrapped = String::with_capacity(text.len());
    let mut current = 0;
    let mut word = String::new();
    let mut spaces = String::new();
    let (mut n_word, mut n_spaces) = (0, 0);
    for character in text.chars() {
        if character.is_whitespace() && character != '\u{a0}' {
            if spaces.is_empty() || !word.is_empty() {
                current += n_spaces + n_word;
                wrapped.push_str(&spaces);
                wrapped.push_str(&word);
                spaces.clear();
                word.clear();
                (n_spaces, n_word) = (0, 0);
            }
            spaces.push(character);
            n_spaces += 1;
        } else {
            word.push(character);
            n_word += 1;
            if current + n_word + n_spaces > limit && n_word < limit {
                wrapped.push('\n');
                current = 0;
                spaces.clear();
                n_spaces = 0;
            }
        }
    }
    if word.is_empty() {
        if current + n_spaces <= limit {
            wrapped.push_str(&spaces);
        }
    } else {
        wrapped.push_str(&spaces);
        wrapped.push_str(&word);
    }
    wrapped
}

/// The provider schemas the module in `dir` needs, found as `check` finds
/// them, and the functions of those that may run; `None` when there are
/// none.
fn provider_schemas(
    dir: &Path,
    options: &SchemaOptions,
    analysis: &tofu_diagnostics::ModuleAnalysis,
) -> Option<(ProviderSchemas, Option<Arc<FilesAndFunctions>>)> {
    let project = tofu_vfs::find_project_config(dir);
    let dir_schemas = DirSchemas::of(project.as_ref());
    let source = SchemaSource::new(options.clone(), &[dir.to_path_buf()]);
    let needed = tofu_module::provider_needs::package_addresses(analysis);
    let schemas = source.schemas_for(dir, &dir_schemas, &needed);
    if schemas.is_empty() {
        return None;
    }
    let functions = ProviderValidators::for_options(options)
        .and_then(|validators| {
            FilesAndFunctions::for_dir(dir, &dir_schemas, &schemas, &source, &validators)
        })
        .map(Arc::new);
    Some((schemas, functions))
}

/// What the console's functions read: files relative to the console's
/// directory (tofu-vfs reads them), the working and home directories, the
/// clock and random bytes, and the functions of the providers that may
/// run here.
pub struct ConsoleDirectory {
    files: tofu_vfs::DirectoryFiles,
    functions: Option<Arc<FilesAndFunctions>>,
}

impl ConsoleDirectory {
    pub fn new(base: PathBuf) -> ConsoleDirectory {
        ConsoleDirectory {
            files: tofu_vfs::DirectoryFiles::new(base),
            functions: None,
        }
    }
}

impl Environment for ConsoleDirectory {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        self.files.read_file(path)
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        self.files.file_exists(path)
    }

    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, FileError> {
        self.files.read_dir(path)
    }

    fn call_provider_function(
        &self,
        function: &ProviderFunction,
        arguments: &[Value],
    ) -> Option<Result<Value, FunctionError>> {
        self.functions
            .as_ref()?
            .call_provider_function(function, arguments)
    }

    fn console_mode(&self) -> bool {
        true
    }

    fn working_directory(&self) -> Option<String> {
        std::env::current_dir()
            .ok()
            .map(|directory| directory.to_string_lossy().into_owned())
    }

    fn home_directory(&self) -> Option<String> {
        std::env::var("HOME").ok()
    }

    fn per_run(&self) -> Option<&dyn PerRun> {
        Some(&ClockAndRandomness)
    }
}

/// The system clock and the operating system's random source (getrandom,
/// what Go's `crypto/rand` reads too).
struct ClockAndRandomness;

impl PerRun for ClockAndRandomness {
    fn now_unix_nanos(&self) -> i128 {
        let now = std::time::SystemTime::now();
        match now.duration_since(std::time::UNIX_EPOCH) {
            Ok(since) => i128::try_from(since.as_nanos()).unwrap_or(i128::MAX),
            Err(before) => -i128::try_from(before.duration().as_nanos()).unwrap_or(i128::MAX),
        }
    }

    fn fill_random(&self, bytes: &mut [u8]) -> bool {
        getrandom::fill(bytes).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::word_wrap;

    #[test]
    fn wraps_details_as_opentofu_does() {
        let detail = "Invalid value for \"v\" parameter: cannot convert \"abc\" to number; given string must be a decimal representation of a number.";
        assert_eq!(
            word_wrap(detail, 77),
            "Invalid value for \"v\" parameter: cannot convert \"abc\" to number; given string\nmust be a decimal representation of a number."
        );
    }
}

#[cfg(test)]
mod interactive_tests {
    use super::{run, Mode};

    /// At a terminal, as OpenTofu's `modeInteractive`: the prompt `> `, one
    /// `.` per open delimiter while an input goes on, errors printed and the
    /// session going on, `exit` printed at the end of the input.
    #[test]
    fn a_terminal_gets_prompts_and_the_session_goes_on_after_errors() {
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        let input = "[\n{a = (\n1)}]\nupper(1, 2)\n\"after\"\n";
        let ok = run(
            Mode::Interactive,
            None,
            None,
            &mut input.as_bytes(),
            &mut out,
            &mut errors,
        )
        .unwrap_or(false);
        assert!(ok);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "> . ... [\n  {\n    \"a\" = 1\n  },\n]\n> > \"after\"\n> exit\n"
        );
        assert!(String::from_utf8_lossy(&errors).contains("Error: Too many function arguments"));
    }
}

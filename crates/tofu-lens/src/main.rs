//! The `tofu-lens` binary: argument parsing, logging setup and exit codes.
//!
//! Exit codes: 0 when no error was found, 1 when any error was found (or, for
//! `show`, the address does not exist), 2 on bad usage or an unusable PATH;
//! `fmt` has `tofu fmt`'s (2 on syntax errors, 3 when `--check` finds a file
//! that would change).

// The command line prints its usage errors to stderr by design; the library
// crates below never print. Results go to stdout through `write_stdout` only,
// never `print!`, which panics when the reader has gone (`| head`).
#![allow(clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};
use tofu_lens::stream::{self, StreamFormat};
use tofu_lens::{check, render, sarif, show};
use tofu_module::{Config, GivenValue, DEFAULT_TOFU_VERSION};
use tofu_vfs::schemas::SchemaOptions;

/// mimalloc rather than the system allocator: the analyses allocate and
/// free many small values (syntax trees, cty values), where glibc's malloc
/// cost more than a quarter of `check`'s instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "tofu-lens",
    version,
    about = "Checks OpenTofu modules the way OpenTofu 1.12 loads them: file discovery, .tofu files, override merging.",
    after_help = "Exit codes: 0 no errors, 1 errors found (or show: address not found), 2 usage or IO problem."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Language Server Protocol over stdin/stdout until `exit`.
    Serve {
        /// Accepted for VS Code's client, which passes it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
    /// Load every module directory under each PATH and print its diagnostics.
    Check {
        /// Module directories, trees to walk, or files (each stands for its directory). Default: `.`
        paths: Vec<PathBuf>,
        /// text: compiler style; json: one array (see the README); sarif: SARIF 2.1.0 for
        /// code-scanning UIs.
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// The OpenTofu version constraints are checked against [default: the tofuVersion of
        /// .tofu-lens.toml, else 1.12.6]
        #[arg(long, value_name = "VERSION")]
        tofu_version: Option<String>,
        /// Apply the safe suggested fixes (e.g. remove depends_on from an override), print what
        /// changed, then report what remains.
        #[arg(long)]
        fix: bool,
        /// Also report variables, local values and data sources nothing refers to
        /// (unused-declaration hints, off unless this or .tofu-lens.toml turns them on).
        #[arg(long)]
        unused: bool,
        /// How many module directories to analyse at once [default: every core]
        #[arg(short = 'j', long, value_name = "N")]
        jobs: Option<usize>,
        /// Never start a provider to read its schema: only schemas already in the schema cache
        /// judge resource and provider bodies.
        #[arg(long)]
        no_providers: bool,
        /// Fetch the providers nothing installed (the lock file's version, else the newest the
        /// constraints accept) from their registry or the CLI configuration's mirror, verified
        /// as `tofu init` verifies them, into tofu-lens's cache. Without it nothing goes over
        /// the network: packages fetched before are still used.
        #[arg(long)]
        fetch_providers: bool,
        /// A values file to read, as `tofu plan -var-file` reads it, for the module directories
        /// the PATHs name (not those found below them); repeatable, later ones win.
        #[arg(long = "var-file", value_name = "FILE")]
        var_files: Vec<PathBuf>,
        /// A value for an input variable, as `tofu plan -var` reads it, for the module
        /// directories the PATHs name; repeatable, in order with --var-file. `TF_VAR_NAME`
        /// environment variables are read too, below every values file.
        #[arg(long = "var", value_name = "NAME=VALUE")]
        vars: Vec<String>,
    },
    /// Format files as `tofu fmt` does (same options, same exit codes; `-` is stdin to stdout).
    Fmt {
        /// Files, directories (their .tf, .tofu, .tfvars, .tftest.hcl, .tofutest.hcl files) or
        /// `-`. Default: `.`
        paths: Vec<PathBuf>,
        /// Write nothing; exit 3 when a file would change.
        #[arg(long)]
        check: bool,
        /// Print a unified diff of each change.
        #[arg(long)]
        diff: bool,
        /// Write the formatted files back (`--write=false` to not).
        #[arg(long, value_name = "BOOL", default_value_t = true, num_args = 0..=1,
              default_missing_value = "true", action = clap::ArgAction::Set)]
        write: bool,
        /// List the files that change (`--list=false` to not).
        #[arg(long, value_name = "BOOL", default_value_t = true, num_args = 0..=1,
              default_missing_value = "true", action = clap::ArgAction::Set)]
        list: bool,
        /// Also process subdirectories.
        #[arg(long)]
        recursive: bool,
        /// Accepted for `tofu fmt` compatibility; the output has no colour.
        #[arg(long)]
        no_color: bool,
    },
    /// Which provider schemas each module directory under DIR needs, where each comes from
    /// (schema cache, provider package, schemas file) and why any is missing.
    Schemas {
        /// A directory to walk as `check` walks it (a file stands for its directory). Default: `.`
        dir: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// How long a provider may take to start, and to answer each call, before it is
        /// reported as timed out and stopped.
        #[arg(long, value_name = "SECONDS", default_value_t = 10)]
        timeout: u64,
        /// Fetch the providers nothing installed, as `check --fetch-providers` does; without
        /// it, packages fetched before are still shown.
        #[arg(long)]
        fetch_providers: bool,
    },
    /// Read expressions from stdin (one a line, or over lines while a bracket is open) and
    /// print each value as `tofu console` does (without init), in the module directory DIR
    /// or in none; provider functions run where `check` would run them.
    Console {
        /// A module directory whose variables and local values the expressions may use.
        dir: Option<PathBuf>,
        /// Start no provider: provider functions give unknown values.
        #[arg(long)]
        no_providers: bool,
    },
    /// Print the effective configuration of a module after override merging, with provenance.
    Show {
        /// The module directory (a file stands for its directory).
        path: PathBuf,
        /// One block: resource.TYPE.NAME (or TYPE.NAME), data.TYPE.NAME, ephemeral.TYPE.NAME,
        /// variable.NAME, output.NAME, module.NAME, provider.NAME[.ALIAS], check.NAME, locals, terraform.
        address: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The OpenTofu version constraints are checked against.
        #[arg(long, value_name = "VERSION", default_value = DEFAULT_TOFU_VERSION)]
        tofu_version: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum CheckFormat {
    Text,
    Json,
    Sarif,
}

fn main() -> ExitCode {
    init_logging();
    let matches = <Cli as clap::CommandFactory>::command().get_matches();
    let cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    match cli.command {
        Command::Check {
            paths,
            format,
            tofu_version,
            fix,
            unused,
            jobs,
            no_providers,
            fetch_providers,
            var_files,
            vars,
        } => {
            let check_matches = matches.subcommand_matches("check");
            let given = match given_values(check_matches, var_files, vars) {
                Ok(given) => given,
                Err(message) => {
                    eprintln!("tofu-lens check: {message}");
                    return ExitCode::from(2);
                }
            };
            run_check(
                paths,
                format,
                tofu_version,
                CheckOptions {
                    fix,
                    unused,
                    jobs: jobs
                        .unwrap_or_else(tofu_lens::parallel::default_jobs)
                        .max(1),
                    schemas: schema_options(!no_providers),
                    fetch: provider_fetch(fetch_providers),
                    given,
                },
            )
        }
        Command::Serve { .. } => run_serve(),
        Command::Fmt {
            paths,
            check,
            diff,
            write,
            list,
            recursive,
            no_color: _,
        } => run_fmt(
            &paths,
            &tofu_lens::fmt::FmtOptions {
                list,
                write,
                diff,
                check,
                recursive,
            },
        ),
        Command::Show {
            path,
            address,
            format,
            tofu_version,
        } => run_show(&path, address.as_deref(), format, tofu_version),
        Command::Schemas {
            dir,
            format,
            timeout,
            fetch_providers,
        } => run_schemas(dir, format, timeout, fetch_providers),
        Command::Console { dir, no_providers } => {
            run_console(dir.as_deref(), &schema_options(!no_providers))
        }
    }
}

/// `console`: exit 1 when a line had errors (the console stops there).
fn run_console(dir: Option<&std::path::Path>, schemas: &SchemaOptions) -> ExitCode {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    let mode = if stdin.is_terminal() {
        tofu_lens::console::Mode::Interactive
    } else {
        tofu_lens::console::Mode::Piped
    };
    let result = tofu_lens::console::run(
        mode,
        dir,
        Some(schemas),
        &mut stdin.lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("tofu-lens: {error}");
            ExitCode::from(2)
        }
    }
}

/// `schemas`: exit 1 when a schema a module needs is missing.
fn run_schemas(
    dir: Option<PathBuf>,
    format: Format,
    timeout_seconds: u64,
    fetch_providers: bool,
) -> ExitCode {
    use tofu_lens::schemas;
    let dir = dir.unwrap_or_else(|| PathBuf::from("."));
    let environment = provider_environment();
    let timeout = std::time::Duration::from_secs(timeout_seconds.max(1));
    let timeouts = tofu_schema::plugin::Timeouts {
        handshake: timeout,
        call: timeout,
        ..tofu_schema::plugin::Timeouts::default()
    };
    let fetcher = environment.fetched_dir.clone().map(|packages| {
        tofu_fetch::Fetcher::new(
            fetch_config(),
            tofu_fetch::PackageStore::new(packages, tofu_fetch::DEFAULT_MAX_BYTES),
        )
    });
    let fetch = fetcher.as_ref().map(|fetcher| (fetcher, fetch_providers));
    let report = match schemas::schemas_report_fetching(&dir, &environment, timeouts, fetch) {
        Ok(report) => report,
        Err(check::MissingPath(path)) => {
            eprintln!(
                "tofu-lens schemas: {}: no such file or directory",
                path.display()
            );
            return ExitCode::from(2);
        }
    };
    for problem in &report.problems {
        eprintln!("tofu-lens schemas: {problem}");
    }
    if report.truncated {
        eprintln!(
            "tofu-lens schemas: {}: stopped walking after {} directories; name a smaller tree",
            dir.display(),
            tofu_vfs::WalkLimits::default().max_dirs
        );
    }
    let output = match format {
        Format::Text => schemas::text(&report),
        Format::Json => schemas::json(&report) + "\n",
    };
    let code = if report.has_missing() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    write_stdout(&output, code)
}

/// The switches of `check` beyond its paths and format.
struct CheckOptions {
    fix: bool,
    unused: bool,
    jobs: usize,
    schemas: SchemaOptions,
    fetch: Option<Arc<tofu_fetch::ProviderFetch>>,
    given: tofu_module::GivenValues,
}

/// `--var-file` and `--var` in command-line order (as `tofu plan` applies
/// them), and the `TF_VAR_*` environment variables; a values file that
/// cannot be read, or a `--var` without `=`, is a usage error.
fn given_values(
    matches: Option<&clap::ArgMatches>,
    var_files: Vec<PathBuf>,
    vars: Vec<String>,
) -> Result<tofu_module::GivenValues, String> {
    let indices = |id: &str| -> Vec<usize> {
        matches
            .and_then(|matches| matches.indices_of(id))
            .map(Iterator::collect)
            .unwrap_or_default()
    };
    let mut given: Vec<(usize, GivenValue)> = Vec::new();
    for (file, index) in var_files.into_iter().zip(indices("var_files")) {
        if !file.is_file() {
            return Err(format!(
                "--var-file {}: the given variables file does not exist",
                file.display()
            ));
        }
        given.push((index, GivenValue::File(file.to_string_lossy().into_owned())));
    }
    for (var, index) in vars.into_iter().zip(indices("vars")) {
        let Some((name, value)) = var.split_once('=') else {
            return Err(format!(
                "--var {var:?} is not correctly specified: it must be a variable name and value separated by an equals sign, like --var \"key=value\""
            ));
        };
        given.push((
            index,
            GivenValue::Var {
                name: name.to_owned(),
                value: value.to_owned(),
            },
        ));
    }
    given.sort_by_key(|(index, _)| *index);
    let mut environment: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(name, value)| {
            let name = name.into_string().ok()?;
            let name = name.strip_prefix("TF_VAR_")?.to_owned();
            Some((name, value.into_string().ok()?))
        })
        .filter(|(name, _)| !name.is_empty())
        .collect();
    environment.sort();
    Ok(tofu_module::GivenValues {
        given: given.into_iter().map(|(_, given)| given).collect(),
        environment,
    })
}

fn run_check(
    paths: Vec<PathBuf>,
    format: CheckFormat,
    tofu_version_flag: Option<String>,
    options: CheckOptions,
) -> ExitCode {
    let CheckOptions {
        fix,
        unused,
        jobs,
        mut schemas,
        fetch,
        given,
    } = options;
    schemas.fetch = fetch
        .clone()
        .map(|fetch| fetch as Arc<dyn tofu_vfs::schemas::FetchPackages>);
    let report_fetch_failures = || {
        for failure in fetch.iter().flat_map(|fetch| fetch.failures()) {
            eprintln!("tofu-lens check: {failure}");
        }
    };
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    };
    let mut config = check::check_config(tofu_version_flag.clone(), unused);
    config.values = given;
    if !config.tofu_version_is_valid() {
        eprintln!(
            "tofu-lens check: --tofu-version {:?} is not a version; using {DEFAULT_TOFU_VERSION}",
            config.tofu_version
        );
    }
    let flag = tofu_version_flag.as_deref();
    let streamed_format = match format {
        CheckFormat::Text => Some(StreamFormat::Text),
        CheckFormat::Json => Some(StreamFormat::Json),
        CheckFormat::Sarif => None,
    };
    if let (Some(stream_format), false) = (streamed_format, fix) {
        // Written while the directories are analysed: memory holds the
        // analyses in flight, not the tree.
        let stdout = std::io::stdout().lock();
        let streamed = match stream::check_streaming_with_schemas(
            &paths,
            &config,
            flag,
            &schemas,
            jobs,
            stream_format,
            stdout,
        ) {
            Ok(streamed) => streamed,
            Err(check::MissingPath(path)) => {
                eprintln!(
                    "tofu-lens check: {}: no such file or directory",
                    path.display()
                );
                return ExitCode::from(2);
            }
        };
        report_walk_problems(&streamed.report);
        report_fetch_failures();
        let code = if streamed.has_errors {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        };
        return match streamed.write_error {
            None => code,
            Some(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Some(error) => {
                eprintln!("tofu-lens: cannot write the output: {error}");
                ExitCode::from(2)
            }
        };
    }
    let Some(mut report) = check_or_report(&paths, &config, flag, &schemas) else {
        return ExitCode::from(2);
    };
    if fix {
        match tofu_lens::fix::apply_safe_fixes(&report) {
            Ok(applied) => {
                for fixed in &applied {
                    eprintln!(
                        "fixed: {}:{}: {}",
                        fixed.file.display(),
                        fixed.line,
                        fixed.title
                    );
                }
                eprintln!("{} fix(es) applied.", applied.len());
            }
            Err(error) => {
                eprintln!("tofu-lens check --fix: could not write a fix: {error}");
                return ExitCode::from(2);
            }
        }
        let Some(after) = check_or_report(&paths, &config, flag, &schemas) else {
            return ExitCode::from(2);
        };
        report = after;
    }
    report_walk_problems(&report);
    report_fetch_failures();
    let output = match format {
        CheckFormat::Text => render::text(&report),
        CheckFormat::Json => render::json(&report) + "\n",
        CheckFormat::Sarif => sarif::sarif(&report) + "\n",
    };
    let code = if report.has_errors() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    write_stdout(&output, code)
}

/// What `check` says on stderr besides the diagnostics: problems in
/// `.tofu-lens.toml` files and walks that stopped at their limit.
fn report_walk_problems(report: &check::CheckReport) {
    for problem in &report.config_problems {
        eprintln!("tofu-lens check: {problem}");
    }
    for path in &report.truncated {
        eprintln!(
            "tofu-lens check: {}: stopped walking after {} directories; name a smaller tree",
            path.display(),
            tofu_vfs::WalkLimits::default().max_dirs
        );
    }
}

fn run_show(
    path: &std::path::Path,
    address: Option<&str>,
    format: Format,
    tofu_version: String,
) -> ExitCode {
    let config = Config {
        tofu_version,
        ..Config::default()
    };
    let result = show::load(path, &config).and_then(|analysis| match format {
        Format::Text => show::text(&analysis, address),
        Format::Json => show::json(&analysis, address),
    });
    match result {
        Ok(mut text) => {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            write_stdout(&text, ExitCode::SUCCESS)
        }
        Err(show::ShowError::NotFound(message)) => {
            eprintln!("tofu-lens show: {message}");
            ExitCode::from(1)
        }
        Err(show::ShowError::Unusable(message)) => {
            eprintln!("tofu-lens show: {message}");
            ExitCode::from(2)
        }
    }
}

/// Writes a command's whole output to stdout, then exits with `code`. A reader
/// that went away (`tofu-lens show . | head -1`) ends the program quietly with
/// success, as ripgrep does: the output was not wanted any more. Any other write
/// failure (a full disk) is reported and exits 2.
///
/// This is the only place `check` and `show` write to stdout: `print!` panics on
/// a closed pipe.
fn write_stdout(text: &str, code: ExitCode) -> ExitCode {
    match write_all_to_stdout(text) {
        Ok(()) => code,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("tofu-lens: cannot write the output: {error}");
            ExitCode::from(2)
        }
    }
}

fn write_all_to_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Runs the check, or says why it could not (a PATH that does not exist).
fn check_or_report(
    paths: &[PathBuf],
    config: &Config,
    tofu_version_flag: Option<&str>,
    schemas: &SchemaOptions,
) -> Option<check::CheckReport> {
    match check::check_paths_with_schemas(paths, config, tofu_version_flag, schemas) {
        Ok(report) => Some(report),
        Err(check::MissingPath(path)) => {
            eprintln!(
                "tofu-lens check: {}: no such file or directory",
                path.display()
            );
            None
        }
    }
}

/// `fmt`: the exit code is `tofu fmt`'s.
fn run_fmt(paths: &[PathBuf], options: &tofu_lens::fmt::FmtOptions) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut stderr = std::io::stderr().lock();
    let mut io = tofu_lens::fmt::FmtIo {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        cwd,
    };
    ExitCode::from(tofu_lens::fmt::run(paths, options, &mut io))
}

/// Where `check` finds provider schemas: the packages `tofu init`
/// installed, the plugin cache and mirrors of the CLI configuration, and
/// the schema cache, as `tofu-lens schemas` finds them; providers are
/// started only when `run_providers`.
fn schema_options(run_providers: bool) -> SchemaOptions {
    let environment = provider_environment();
    SchemaOptions {
        environment: Some(environment),
        run_providers,
        files: Vec::new(),
        timeouts: tofu_schema::plugin::Timeouts::default(),
        fetch: None,
    }
}

/// Packages for the providers nothing installed: from tofu-lens's cache,
/// and over the network when `online` (`--fetch-providers`).
fn provider_fetch(online: bool) -> Option<Arc<tofu_fetch::ProviderFetch>> {
    tofu_fetch::ProviderFetch::new(&provider_environment(), fetch_config(), online).map(Arc::new)
}

/// How to fetch providers, from this process's environment and CLI
/// configuration (`tofu_lens::schemas::fetch_config`).
fn fetch_config() -> tofu_fetch::FetchConfig {
    let var = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
    let tokens: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(name, _)| name.starts_with("TF_TOKEN_"))
        .collect();
    tofu_lens::schemas::fetch_config(&var, &tokens)
}

/// Where provider packages and the schema cache are, from this process's
/// environment: one for `check`, `schemas` and `serve`, so they share the
/// schema cache.
fn provider_environment() -> tofu_schema::ProviderEnvironment {
    tofu_lens::schemas::provider_environment(&|name| {
        std::env::var(name).ok().filter(|value| !value.is_empty())
    })
}

/// Serves LSP over stdio until the client sends `exit`. Exits 2 only when the
/// async runtime cannot start.
fn run_serve() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("tofu-lens serve: cannot start: {error}");
            return ExitCode::from(2);
        }
    };
    // The same provider environment (and so the same schema cache) as
    // `check` and `schemas`.
    let options = tofu_lsp::ServerOptions {
        provider_environment: Some(provider_environment()),
        // Used only where the `schemas.fetchProviders` setting is on.
        fetch_config: Some(fetch_config()),
        ..tofu_lsp::ServerOptions::default()
    };
    runtime.block_on(tofu_lsp::serve_stdio(options));
    // Background tasks (workers, the file watcher) end with the runtime.
    runtime.shutdown_background();
    ExitCode::SUCCESS
}

/// Logs go to stderr only (stdout carries results, and LSP messages in `serve`).
/// The level comes from `TOFU_LENS_LOG` (e.g. `debug`, `tofu_lsp=trace`), default `info`.
fn init_logging() {
    let filter: tracing_subscriber::filter::Targets = std::env::var("TOFU_LENS_LOG")
        .ok()
        .and_then(|spec| spec.parse().ok())
        .unwrap_or_else(|| {
            tracing_subscriber::filter::Targets::new().with_default(tracing::Level::INFO)
        });
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(false),
        )
        .with(filter)
        .try_init();
}

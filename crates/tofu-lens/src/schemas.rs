//! `tofu-lens schemas [DIR]`: for each module directory under DIR (walked
//! and configured as `check` walks them), which providers it needs, the
//! root whose `.terraform` installs them, where each schema comes from
//! (the schema cache, the package read by running the provider, a
//! `schemas.files` entry of `.tofu-lens.toml`) and why any is missing.
//!
//! A module's roots are `tofu_vfs::schemas::provider_roots`'s, the answer
//! `check` and the server use: the directory itself when it has
//! `.terraform`; else the nearest callers with one, through the local module
//! calls of the walked directories (a caller without `.terraform` hands on
//! to its own callers); else the nearest directory above with `.terraform`. Each
//! provider is read at each root in turn until one gives its schema, then
//! from the `schemas.files`; reading is `tofu_schema::read_provider_schema`
//! (lock-file check, cache), once per root and provider.
//!
//! The environment is read here, in the binary, and passed down as a
//! [`ProviderEnvironment`]: `TF_PLUGIN_CACHE_DIR`, `TF_CLI_CONFIG_FILE`
//! (else `~/.tofurc`, `~/.terraformrc`, `$XDG_CONFIG_HOME/opentofu/tofurc`,
//! and `*.tfrc` in the CLI configuration directory), OpenTofu's implied
//! mirror directories, and the schema cache under `$XDG_CACHE_HOME`.
//!
//! Which providers a module needs comes from `tofu_module::provider_needs`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

use serde::Serialize;
use tofu_diagnostics::ModuleAnalysis;
use tofu_module::calls::{resolve_calls, ModuleTree};
use tofu_module::version::{Constraints, Version};
use tofu_schema::install::{parse_cli_config, parse_lock_file, PackageLocation, Platform};
use tofu_schema::plugin::Timeouts;
use tofu_schema::requirements::NeededProvider;
use tofu_schema::{
    decode_providers_schema_json, read_provider_schema, MissingReason, ProviderAddress,
    ProviderEnvironment, SchemaCache, SchemaOrigin, SchemaRequest,
};

use tofu_vfs::schemas::{provider_roots, RootsFrom};

use crate::check::{check_config, check_paths, MissingPath};

/// What `schemas` found under DIR.
#[derive(Debug, Default)]
pub struct SchemasReport {
    pub modules: Vec<ModuleSchemas>,
    /// Directories that could not be listed, with why.
    pub unreadable_dirs: Vec<(PathBuf, String)>,
    /// Set when the walk stopped at its limit.
    pub truncated: bool,
    /// Problems in `.tofu-lens.toml` files and schema files, and cache
    /// writes that failed (for stderr).
    pub problems: Vec<String>,
}

impl SchemasReport {
    /// True when a schema a module needs is missing, or a directory could
    /// not be read (exit 1, as `check` exits on errors).
    pub fn has_missing(&self) -> bool {
        !self.unreadable_dirs.is_empty()
            || self.modules.iter().any(|module| {
                module
                    .providers
                    .iter()
                    .any(|provider| matches!(provider.outcome, Outcome::Missing { .. }))
            })
    }
}

/// One module directory.
#[derive(Debug)]
pub struct ModuleSchemas {
    /// As `check` shows it (DIR joined with the path below it).
    pub dir: PathBuf,
    pub roots: Vec<PathBuf>,
    pub roots_from: RootsFrom,
    pub providers: Vec<ProviderSchemaStatus>,
}

/// How a module's roots are written in the JSON report.
fn roots_from_str(from: RootsFrom) -> &'static str {
    match from {
        RootsFrom::Itself => "itself",
        RootsFrom::Callers => "callers",
        RootsFrom::Above => "above",
        RootsFrom::Nowhere => "nowhere",
    }
}

/// One provider a module needs, and its schema's fate.
#[derive(Debug)]
pub struct ProviderSchemaStatus {
    pub need: NeededProvider,
    pub outcome: Outcome,
}

#[derive(Clone, Debug)]
pub enum Outcome {
    /// OpenTofu's own `terraform` provider: no package.
    BuiltIn,
    Found(Found),
    Missing {
        /// The root it was last looked for in.
        root: Option<PathBuf>,
        reason: MissingReason,
        message: String,
    },
}

/// Where a schema came from.
#[derive(Clone, Debug)]
pub struct Found {
    pub origin: FoundIn,
    /// The root whose installation gave it (not for a schemas file).
    pub root: Option<PathBuf>,
    pub version: Option<String>,
    pub package: Option<PathBuf>,
    pub package_hash: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoundIn {
    Cache,
    /// Read by running the provider's package.
    Provider,
    SchemasFile(PathBuf),
    /// A package tofu-lens fetched and verified itself (issue 47).
    Fetched,
}

/// Builds the report for `dir` (a file stands for its directory).
/// A provider that starts or answers slower than `timeouts` is reported as
/// timed out.
pub fn schemas_report(
    dir: &Path,
    environment: &ProviderEnvironment,
    timeouts: Timeouts,
) -> Result<SchemasReport, MissingPath> {
    schemas_report_fetching(dir, environment, timeouts, None)
}

/// [`schemas_report`], and for a provider nothing installed for a module
/// (no root), the package tofu-lens fetched: from its cache, or with
/// `online` (`--fetch-providers`) fetched and verified now; a failure is
/// the provider's reason (`fetch-failed`).
pub fn schemas_report_fetching(
    dir: &Path,
    environment: &ProviderEnvironment,
    timeouts: Timeouts,
    fetch: Option<(&tofu_fetch::Fetcher, bool)>,
) -> Result<SchemasReport, MissingPath> {
    let checked = check_paths(&[dir.to_path_buf()], &check_config(None, false), None)?;
    let mut report = SchemasReport {
        unreadable_dirs: checked
            .unreadable_dirs
            .iter()
            .map(|unreadable| (unreadable.dir.clone(), unreadable.message.clone()))
            .collect(),
        truncated: !checked.truncated.is_empty(),
        problems: checked.config_problems.clone(),
        ..SchemasReport::default()
    };
    let modules: Vec<WalkedModule> = checked
        .modules
        .iter()
        .map(|module| WalkedModule {
            shown: module.dir.clone(),
            real: std::fs::canonicalize(readable(&module.dir)).ok(),
            analysis: &module.analysis,
        })
        .collect();
    let tree = CallTree::of(&modules);
    let mut reader = SchemaReader::new(environment, timeouts);
    reader.fetch = fetch;
    for module in &modules {
        let (roots, roots_from) = tree.roots(module);
        let project = tofu_vfs::find_project_config(readable(&module.shown));
        let run_providers = project
            .as_ref()
            .and_then(|project| project.run_providers)
            .unwrap_or(true);
        let schema_files: Vec<PathBuf> = project
            .as_ref()
            .map(|project| project.schema_files())
            .unwrap_or_default()
            .into_iter()
            .map(|file| relative_to_working_dir(&file))
            .collect();
        let providers = tofu_module::provider_needs::module_needs(module.analysis)
            .into_iter()
            .map(|need| {
                let outcome = if need.is_built_in() {
                    Outcome::BuiltIn
                } else {
                    let outcome = reader.outcome(&need, &roots, run_providers, &schema_files);
                    match outcome {
                        Outcome::Missing { .. } if roots.is_empty() => reader
                            .fetched(&need, readable(&module.shown), run_providers)
                            .unwrap_or(outcome),
                        outcome => outcome,
                    }
                };
                ProviderSchemaStatus { need, outcome }
            })
            .collect();
        report.modules.push(ModuleSchemas {
            dir: module.shown.clone(),
            roots,
            roots_from,
            providers,
        });
    }
    report.problems.extend(reader.problems);
    Ok(report)
}

struct WalkedModule<'a> {
    shown: PathBuf,
    /// The real path, to match calls; `None` if it cannot be resolved.
    real: Option<PathBuf>,
    analysis: &'a ModuleAnalysis,
}

/// Which walked module calls which (by real path, through the local
/// calls: the one resolver `check` and the server use), and how to show
/// them.
struct CallTree {
    tree: ModuleTree,
    shown: HashMap<PathBuf, PathBuf>,
}

impl CallTree {
    fn of(modules: &[WalkedModule<'_>]) -> CallTree {
        let mut tree = CallTree {
            tree: ModuleTree::default(),
            shown: HashMap::new(),
        };
        for module in modules {
            let Some(real) = &module.real else { continue };
            tree.shown.insert(real.clone(), module.shown.clone());
            let children = resolve_calls(real, &module.analysis.module_calls(), None)
                .into_iter()
                .filter_map(|call| call.dir)
                .filter_map(|dir| std::fs::canonicalize(dir).ok());
            tree.tree.set_children(real, children);
        }
        tree
    }

    /// The roots of `module` (`tofu_vfs::schemas::provider_roots` on the
    /// real paths, as `check` and the server find them), as they are shown.
    fn roots(&self, module: &WalkedModule<'_>) -> (Vec<PathBuf>, RootsFrom) {
        let Some(real) = &module.real else {
            return (Vec::new(), RootsFrom::Nowhere);
        };
        let callers =
            |dir: &Path| -> Vec<PathBuf> { self.callers_of(dir).into_iter().cloned().collect() };
        let roots = provider_roots(real, &callers);
        let shown = match roots.from {
            RootsFrom::Itself => vec![module.shown.clone()],
            RootsFrom::Callers => {
                let shown: BTreeSet<PathBuf> =
                    roots.dirs.iter().map(|dir| self.show(dir)).collect();
                shown.into_iter().collect()
            }
            RootsFrom::Above => roots
                .dirs
                .iter()
                .map(|above| shown_above(&module.shown, real, above))
                .collect(),
            RootsFrom::Nowhere => Vec::new(),
        };
        (shown, roots.from)
    }

    fn callers_of(&self, real: &Path) -> Vec<&PathBuf> {
        self.tree.callers(real).iter().collect()
    }

    fn show(&self, real: &Path) -> PathBuf {
        self.shown
            .get(real)
            .cloned()
            .unwrap_or_else(|| real.to_path_buf())
    }
}

/// `above`, an ancestor of the module at `real` shown as `shown`: the
/// shown path with as many components dropped, while that works, else
/// the real path.
fn shown_above(shown: &Path, real: &Path, above: &Path) -> PathBuf {
    let levels = real
        .components()
        .count()
        .saturating_sub(above.components().count());
    let mut candidate = shown.to_path_buf();
    for _ in 0..levels {
        match candidate.components().next_back() {
            Some(Component::Normal(_)) => {
                candidate.pop();
            }
            _ => return above.to_path_buf(),
        }
    }
    if candidate.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        candidate
    }
}

/// `path` below the working directory as a relative path, else as it is.
fn relative_to_working_dir(path: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|working_dir| path.strip_prefix(working_dir).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}

/// The path to read a directory at: `.` for the empty path.
fn readable(dir: &Path) -> &Path {
    if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }
}

/// Reads schemas, once per root, provider, running setting and version
/// constraints; schema files once each.
struct SchemaReader<'a> {
    environment: &'a ProviderEnvironment,
    timeouts: Timeouts,
    cache: Option<SchemaCache>,
    read: HashMap<ReadKey, Outcome>,
    schema_files: HashMap<PathBuf, Vec<ProviderAddress>>,
    lock_files: HashMap<PathBuf, Vec<tofu_schema::install::LockedProvider>>,
    problems: Vec<String>,
    /// Fetched packages, and whether to fetch over the network.
    fetch: Option<(&'a tofu_fetch::Fetcher, bool)>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct ReadKey {
    root: Option<PathBuf>,
    address: ProviderAddress,
    run_providers: bool,
    constraints: Vec<String>,
}

impl<'a> SchemaReader<'a> {
    fn new(environment: &'a ProviderEnvironment, timeouts: Timeouts) -> SchemaReader<'a> {
        SchemaReader {
            environment,
            timeouts,
            cache: environment.schema_cache_dir.clone().map(SchemaCache::new),
            read: HashMap::new(),
            schema_files: HashMap::new(),
            lock_files: HashMap::new(),
            problems: Vec::new(),
            fetch: None,
        }
    }

    /// The schema of the package tofu-lens fetched for `need` of the
    /// module in `dir` (nothing installed it); `None` when there is no
    /// fetcher, or offline the cache has no acceptable package.
    fn fetched(
        &mut self,
        need: &NeededProvider,
        dir: &Path,
        run_providers: bool,
    ) -> Option<Outcome> {
        let (fetcher, online) = self.fetch?;
        let locked = tofu_vfs::schemas::nearest_lock_file(dir)
            .into_iter()
            .find(|entry| entry.address == need.address);
        let job =
            tofu_fetch::FetchJob::new(need.address.clone(), &need.version_constraints, locked);
        let found = if online {
            fetcher.fetch(&job.address, &job.choice, job.locked.as_ref(), &|_| true)
        } else {
            Ok(fetcher.cached(&job.address, &job.choice, job.locked.as_ref())?)
        };
        let package = match found {
            Ok(package) => package,
            Err(error) => {
                return Some(Outcome::Missing {
                    root: None,
                    reason: MissingReason::FetchFailed,
                    message: format!("tofu-lens could not fetch it: {error}"),
                })
            }
        };
        let entry = job.locked.clone().unwrap_or_else(|| package.locked_entry());
        let search = tofu_schema::install::SearchDirs {
            mirror_dirs: vec![fetcher.store().dir().to_path_buf()],
            ..tofu_schema::install::SearchDirs::default()
        };
        let request = SchemaRequest {
            address: &need.address,
            search: &search,
            platform: &self.environment.platform,
            locked: Some(&entry),
            accepts: &|_| true,
            cache: self.cache.as_ref(),
            run_providers,
            socket_dir: None,
            timeouts: self.timeouts,
        };
        Some(match read_provider_schema(&request) {
            Ok(loaded) => Outcome::Found(Found {
                origin: FoundIn::Fetched,
                root: None,
                version: Some(loaded.package.version.clone()),
                package: Some(package.archive.clone()),
                package_hash: Some(loaded.package_hash.clone()),
            }),
            Err(error) => Outcome::Missing {
                root: None,
                reason: error.reason(),
                message: format!("the package tofu-lens fetched: {error}"),
            },
        })
    }

    /// The schema of `need`: from the first root that gives it, else the
    /// schema files, else why it is missing (at the last root tried).
    fn outcome(
        &mut self,
        need: &NeededProvider,
        roots: &[PathBuf],
        run_providers: bool,
        schema_files: &[PathBuf],
    ) -> Outcome {
        // With no root, the machine's directories alone (plugin cache, mirrors).
        let mut outcome = self.read_at(need, roots.first(), run_providers);
        for root in roots.iter().skip(1) {
            if matches!(outcome, Outcome::Found(_)) {
                break;
            }
            outcome = self.read_at(need, Some(root), run_providers);
        }
        if matches!(outcome, Outcome::Found(_)) {
            return outcome;
        }
        for file in schema_files {
            if self.schema_file(file).contains(&need.address) {
                return Outcome::Found(Found {
                    origin: FoundIn::SchemasFile(file.clone()),
                    root: None,
                    version: None,
                    package: None,
                    package_hash: None,
                });
            }
        }
        outcome
    }

    fn read_at(
        &mut self,
        need: &NeededProvider,
        root: Option<&PathBuf>,
        run_providers: bool,
    ) -> Outcome {
        let key = ReadKey {
            root: root.cloned(),
            address: need.address.clone(),
            run_providers,
            constraints: need.version_constraints.clone(),
        };
        if let Some(outcome) = self.read.get(&key) {
            return outcome.clone();
        }
        let locked = root.and_then(|root| {
            self.lock_file(root)
                .iter()
                .find(|entry| entry.address == need.address)
                .cloned()
        });
        let constraints: Vec<Constraints> = need
            .version_constraints
            .iter()
            .filter_map(|text| Constraints::parse(text).ok())
            .collect();
        let accepts = |version: &str| {
            Version::parse(version).is_ok_and(|version| {
                constraints
                    .iter()
                    .all(|constraint| constraint.accepts(&version))
            })
        };
        let search = self.environment.search_dirs(root.map(PathBuf::as_path));
        let request = SchemaRequest {
            address: &need.address,
            search: &search,
            platform: &self.environment.platform,
            locked: locked.as_ref(),
            accepts: &accepts,
            cache: self.cache.as_ref(),
            run_providers,
            socket_dir: None,
            timeouts: self.timeouts,
        };
        let outcome = match read_provider_schema(&request) {
            Ok(loaded) => {
                if let Some(error) = &loaded.cache_store_error {
                    self.problems.push(format!(
                        "{}: the schema could not be cached: {error}",
                        need.address
                    ));
                }
                Outcome::Found(Found {
                    origin: match loaded.origin {
                        SchemaOrigin::Cache => FoundIn::Cache,
                        SchemaOrigin::Provider => FoundIn::Provider,
                    },
                    root: root.cloned(),
                    version: Some(loaded.package.version.clone()),
                    package: Some(match &loaded.package.location {
                        PackageLocation::Directory(path) | PackageLocation::Archive(path) => {
                            path.clone()
                        }
                    }),
                    package_hash: Some(loaded.package_hash.clone()),
                })
            }
            Err(error) => {
                let reason = error.reason();
                let message = match (root, reason) {
                    (None, MissingReason::NotInstalled | MissingReason::NotLocked) => {
                        "no .terraform in the directory, a caller or above it: run tofu init in a root module that uses it".to_owned()
                    }
                    _ => error.to_string(),
                };
                Outcome::Missing {
                    root: root.cloned(),
                    reason,
                    message,
                }
            }
        };
        self.read.insert(key, outcome.clone());
        outcome
    }

    fn lock_file(&mut self, root: &Path) -> &[tofu_schema::install::LockedProvider] {
        self.lock_files
            .entry(root.to_path_buf())
            .or_insert_with(|| {
                std::fs::read_to_string(root.join(".terraform.lock.hcl"))
                    .map(|text| parse_lock_file(&text))
                    .unwrap_or_default()
            })
    }

    /// The providers a schema file holds (read once; a problem if unreadable).
    fn schema_file(&mut self, file: &Path) -> &[ProviderAddress] {
        if !self.schema_files.contains_key(file) {
            let addresses = match std::fs::read_to_string(file) {
                Ok(text) => match decode_providers_schema_json(&text) {
                    Ok(providers) => providers.into_iter().map(|(address, _)| address).collect(),
                    Err(error) => {
                        self.problems.push(format!(
                            "{}: not a schema file (tofu providers schema -json): {error}",
                            file.display()
                        ));
                        Vec::new()
                    }
                },
                Err(error) => {
                    self.problems
                        .push(format!("{}: cannot be read: {error}", file.display()));
                    Vec::new()
                }
            };
            self.schema_files.insert(file.to_path_buf(), addresses);
        }
        self.schema_files
            .get(file)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }
}

/// The report as text: a line per module, then one per provider.
pub fn text(report: &SchemasReport) -> String {
    let mut out = String::new();
    for (dir, message) in &report.unreadable_dirs {
        out.push_str(&format!("{}: cannot be read: {message}\n", dir.display()));
    }
    for module in &report.modules {
        let roots = module
            .roots
            .iter()
            .map(|root| root.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let roots = match module.roots_from {
            RootsFrom::Itself => "its own .terraform".to_owned(),
            RootsFrom::Callers => format!("installed by its callers {roots}"),
            RootsFrom::Above => format!("installed by {roots} above it"),
            RootsFrom::Nowhere => "no .terraform here, in a caller or above".to_owned(),
        };
        out.push_str(&format!("{} ({roots})\n", shown(&module.dir)));
        if module.providers.is_empty() {
            out.push_str("  no providers\n");
        }
        for provider in &module.providers {
            out.push_str(&format!("  {}", provider.need.address));
            match &provider.outcome {
                Outcome::BuiltIn => out.push_str(": built into OpenTofu"),
                Outcome::Found(found) => {
                    if let Some(version) = &found.version {
                        out.push_str(&format!(" {version}"));
                    }
                    let package = found
                        .package
                        .as_ref()
                        .map(|package| package.display().to_string())
                        .unwrap_or_default();
                    match &found.origin {
                        FoundIn::Cache => {
                            out.push_str(&format!(": from the schema cache, for {package}"))
                        }
                        FoundIn::Provider => {
                            out.push_str(&format!(": read from the provider {package}"))
                        }
                        FoundIn::SchemasFile(file) => {
                            out.push_str(&format!(": from the schemas file {}", file.display()))
                        }
                        FoundIn::Fetched => {
                            out.push_str(&format!(": fetched and verified by tofu-lens, {package}"))
                        }
                    }
                }
                Outcome::Missing {
                    root,
                    reason,
                    message,
                } => {
                    out.push_str(&format!(": missing ({}", reason.as_str()));
                    if let Some(root) = root {
                        out.push_str(&format!(" in {}", root.display()));
                    }
                    out.push_str(&format!("): {message}"));
                }
            }
            out.push('\n');
        }
    }
    out
}

/// A module directory as shown: `.` for the empty path.
fn shown(dir: &Path) -> String {
    readable(dir).display().to_string()
}

/// The report as one JSON object (`--format json`).
pub fn json(report: &SchemasReport) -> String {
    let modules: Vec<ModuleOut> = report
        .modules
        .iter()
        .map(|module| ModuleOut {
            dir: shown(&module.dir),
            roots: module
                .roots
                .iter()
                .map(|root| root.display().to_string())
                .collect(),
            roots_from: roots_from_str(module.roots_from),
            providers: module.providers.iter().map(provider_out).collect(),
        })
        .collect();
    let unreadable: BTreeMap<String, String> = report
        .unreadable_dirs
        .iter()
        .map(|(dir, message)| (dir.display().to_string(), message.clone()))
        .collect();
    let out = ReportOut {
        modules,
        unreadable_dirs: unreadable,
    };
    serde_json::to_string_pretty(&out).unwrap_or_else(|_| "{}".to_owned())
}

fn provider_out(provider: &ProviderSchemaStatus) -> ProviderOut {
    let need = &provider.need;
    let mut out = ProviderOut {
        address: need.address.to_string(),
        local_names: need.local_names.clone(),
        version_constraints: need.version_constraints.clone(),
        needed_by: need.needed_by.clone(),
        status: "found",
        origin: None,
        root: None,
        version: None,
        package: None,
        package_hash: None,
        schemas_file: None,
        reason: None,
        message: None,
    };
    match &provider.outcome {
        Outcome::BuiltIn => out.status = "built-in",
        Outcome::Found(found) => {
            out.origin = Some(match found.origin {
                FoundIn::Cache => "cache",
                FoundIn::Provider => "provider",
                FoundIn::SchemasFile(_) => "schemas-file",
                FoundIn::Fetched => "fetched",
            });
            out.root = found.root.as_ref().map(|root| root.display().to_string());
            out.version.clone_from(&found.version);
            out.package = found
                .package
                .as_ref()
                .map(|package| package.display().to_string());
            out.package_hash.clone_from(&found.package_hash);
            if let FoundIn::SchemasFile(file) = &found.origin {
                out.schemas_file = Some(file.display().to_string());
            }
        }
        Outcome::Missing {
            root,
            reason,
            message,
        } => {
            out.status = "missing";
            out.root = root.as_ref().map(|root| root.display().to_string());
            out.reason = Some(reason.as_str());
            out.message = Some(message.clone());
        }
    }
    out
}

#[derive(Serialize)]
struct ReportOut {
    modules: Vec<ModuleOut>,
    unreadable_dirs: BTreeMap<String, String>,
}

#[derive(Serialize)]
struct ModuleOut {
    dir: String,
    roots: Vec<String>,
    roots_from: &'static str,
    providers: Vec<ProviderOut>,
}

#[derive(Serialize)]
struct ProviderOut {
    address: String,
    local_names: Vec<String>,
    version_constraints: Vec<String>,
    needed_by: Vec<String>,
    /// `found`, `missing` or `built-in`.
    status: &'static str,
    /// `cache`, `provider`, `schemas-file` or `fetched`.
    origin: Option<&'static str>,
    root: Option<String>,
    version: Option<String>,
    package: Option<String>,
    package_hash: Option<String>,
    schemas_file: Option<String>,
    reason: Option<&'static str>,
    message: Option<String>,
}

/// The provider environment from the process's environment variables
/// (`var` gives a variable's non-empty value) and the CLI configuration
/// files they point at (see the module doc).
pub fn provider_environment(var: &dyn Fn(&str) -> Option<String>) -> ProviderEnvironment {
    let home = var("HOME").map(PathBuf::from);
    let mut cli = tofu_schema::install::CliConfigDirs::default();
    for file in cli_config_files(var, home.as_deref()) {
        if let Ok(text) = std::fs::read_to_string(&file) {
            let read = parse_cli_config(&text);
            if read.plugin_cache_dir.is_some() {
                cli.plugin_cache_dir = read.plugin_cache_dir;
            }
            cli.filesystem_mirrors.extend(read.filesystem_mirrors);
            cli.provider_installation |= read.provider_installation;
        }
    }
    let plugin_cache_dir = var("TF_PLUGIN_CACHE_DIR")
        .or_else(|| cli.plugin_cache_dir.map(|dir| expand_variables(&dir, var)))
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from);
    let mirror_dirs = if cli.provider_installation {
        cli.filesystem_mirrors.iter().map(PathBuf::from).collect()
    } else {
        implied_mirror_dirs(var, home.as_deref())
    };
    let cache_dir = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|home| home.join(".cache")))
        .map(|cache| cache.join("tofu-lens"));
    ProviderEnvironment {
        platform: Platform::current(),
        plugin_cache_dir,
        mirror_dirs,
        schema_cache_dir: cache_dir.as_ref().map(|cache| cache.join("schemas")),
        fetched_dir: cache_dir.map(|cache| cache.join("packages")),
    }
}

/// How to fetch providers (issue 47), from the CLI configuration files
/// (`provider_installation`, `host` and `credentials` blocks, merged as
/// OpenTofu merges them) and the environment: `TF_TOKEN_*` tokens (a
/// host's dots written `_`, its hyphens `__`), `TF_REGISTRY_CLIENT_TIMEOUT`
/// (seconds), `TF_REGISTRY_DISCOVERY_RETRY`, `TF_PROVIDER_DOWNLOAD_RETRY`
/// and `OPENTOFU_ENFORCE_GPG_VALIDATION`. Certificates come from the
/// system's store, `SSL_CERT_FILE` and `SSL_CERT_DIR` (read by the HTTP
/// client itself). `tokens` lists the environment's `TF_TOKEN_*` pairs.
pub fn fetch_config(
    var: &dyn Fn(&str) -> Option<String>,
    tokens: &[(String, String)],
) -> tofu_fetch::FetchConfig {
    let home = var("HOME").map(PathBuf::from);
    let mut config = tofu_fetch::FetchConfig::new(Platform::current());
    for file in cli_config_files(var, home.as_deref()) {
        if let Ok(text) = std::fs::read_to_string(&file) {
            let read = parse_cli_config(&text);
            if read.provider_installation {
                config.methods = read.methods;
            }
            config.hosts.extend(read.hosts);
            config.credentials.extend(read.credentials);
        }
    }
    for (name, token) in tokens {
        if let Some(host) = name.strip_prefix("TF_TOKEN_") {
            let host = host
                .replace("__", "\u{0}")
                .replace('_', ".")
                .replace('\u{0}', "-");
            config
                .credentials
                .insert(host.to_ascii_lowercase(), token.clone());
        }
    }
    let number = |name: &str| var(name).and_then(|value| value.trim().parse::<u64>().ok());
    if let Some(seconds) = number("TF_REGISTRY_CLIENT_TIMEOUT") {
        config.http.request_timeout = std::time::Duration::from_secs(seconds);
    }
    if let Some(retries) = number("TF_REGISTRY_DISCOVERY_RETRY") {
        config.http.retries = u32::try_from(retries).unwrap_or(u32::MAX);
    }
    if let Some(retries) = number("TF_PROVIDER_DOWNLOAD_RETRY") {
        config.http.download_retries = u32::try_from(retries).unwrap_or(u32::MAX);
    }
    config.enforce_gpg_validation =
        var("OPENTOFU_ENFORCE_GPG_VALIDATION").as_deref() == Some("true");
    config
}

/// The CLI configuration files OpenTofu reads, in the order it merges
/// them: the main file, then `*.tfrc` in the configuration directory.
fn cli_config_files(var: &dyn Fn(&str) -> Option<String>, home: Option<&Path>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(file) = var("TF_CLI_CONFIG_FILE").or_else(|| var("TERRAFORM_CONFIG")) {
        files.push(PathBuf::from(file));
    } else if let Some(home) = home {
        let new = home.join(".tofurc");
        let legacy = home.join(".terraformrc");
        match var("XDG_CONFIG_HOME") {
            Some(xdg) if !new.exists() && !legacy.exists() => {
                files.push(Path::new(&xdg).join("opentofu").join("tofurc"));
            }
            _ => files.push(if !new.exists() && legacy.exists() {
                legacy
            } else {
                new
            }),
        }
    }
    if let Some(home) = home {
        let mut config_dir = home.join(".terraform.d");
        if let Some(xdg) = var("XDG_CONFIG_HOME").filter(|_| !config_dir.exists()) {
            config_dir = Path::new(&xdg).join("opentofu");
        }
        if let Ok(entries) = std::fs::read_dir(&config_dir) {
            let mut extra: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| {
                    path.extension()
                        .is_some_and(|extension| extension == "tfrc")
                })
                .collect();
            extra.sort();
            files.extend(extra);
        }
    }
    files
}

/// OpenTofu's filesystem mirrors when the CLI configuration has no
/// `provider_installation` block: `~/.terraform.d/plugins`,
/// `$XDG_DATA_HOME/opentofu/plugins`, and the XDG data directories'
/// `terraform/plugins`. (Left out: `terraform.d/plugins` of the working
/// directory.)
fn implied_mirror_dirs(var: &dyn Fn(&str) -> Option<String>, home: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(home) = home {
        dirs.push(home.join(".terraform.d").join("plugins"));
    }
    if let Some(data) = var("XDG_DATA_HOME") {
        dirs.push(Path::new(&data).join("opentofu").join("plugins"));
    }
    let data_home = var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|home| home.join(".local").join("share")));
    dirs.extend(data_home.map(|data| data.join("terraform").join("plugins")));
    let data_dirs =
        var("XDG_DATA_DIRS").unwrap_or_else(|| "/usr/local/share:/usr/share".to_owned());
    dirs.extend(
        data_dirs
            .split(':')
            .filter(|dir| !dir.is_empty())
            .map(|dir| Path::new(dir).join("terraform").join("plugins")),
    );
    dirs
}

/// `$NAME` and `${NAME}` replaced by the variable's value (empty when
/// unset), as Go's `os.ExpandEnv` does.
fn expand_variables(text: &str, var: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(dollar) = rest.find('$') {
        out.push_str(rest.get(..dollar).unwrap_or_default());
        let after = rest.get(dollar + 1..).unwrap_or_default();
        let (name, consumed) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (braced.get(..end).unwrap_or_default(), end + 2),
                None => ("", 0),
            }
        } else {
            let end = after
                .find(|character: char| !(character.is_ascii_alphanumeric() || character == '_'))
                .unwrap_or(after.len());
            (after.get(..end).unwrap_or_default(), end)
        };
        if consumed == 0 {
            out.push('$');
            rest = after;
            continue;
        }
        out.push_str(&var(name).unwrap_or_default());
        rest = after.get(consumed..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn vars<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    }

    #[test]
    fn the_environment_and_the_cli_configuration_name_the_directories() {
        let home = tempfile::tempdir().unwrap();
        let home_path = home.path().to_str().unwrap();
        std::fs::write(
            home.path().join(".terraformrc"),
            "plugin_cache_dir = \"$HOME/cache\"\n",
        )
        .unwrap();
        let environment = provider_environment(&vars(&[("HOME", home_path)]));
        assert_eq!(
            environment.plugin_cache_dir,
            Some(home.path().join("cache"))
        );
        assert_eq!(
            environment.schema_cache_dir,
            Some(home.path().join(".cache/tofu-lens/schemas"))
        );
        assert_eq!(
            environment.mirror_dirs.first(),
            Some(&home.path().join(".terraform.d/plugins"))
        );
        assert!(environment
            .mirror_dirs
            .contains(&PathBuf::from("/usr/share/terraform/plugins")));

        // TF_PLUGIN_CACHE_DIR wins; a named file with provider_installation
        // replaces the implied mirrors; .tofurc wins over .terraformrc.
        let named = home.path().join("cli.tfrc");
        std::fs::write(
            &named,
            "provider_installation {\n  filesystem_mirror {\n    path = \"/mirror\"\n  }\n}\n",
        )
        .unwrap();
        let environment = provider_environment(&vars(&[
            ("HOME", home_path),
            ("TF_PLUGIN_CACHE_DIR", "/env-cache"),
            ("TF_CLI_CONFIG_FILE", named.to_str().unwrap()),
            ("XDG_CACHE_HOME", "/xdg-cache"),
        ]));
        assert_eq!(
            environment.plugin_cache_dir,
            Some(PathBuf::from("/env-cache"))
        );
        assert_eq!(environment.mirror_dirs, [PathBuf::from("/mirror")]);
        assert_eq!(
            environment.schema_cache_dir,
            Some(PathBuf::from("/xdg-cache/tofu-lens/schemas"))
        );
        std::fs::write(
            home.path().join(".tofurc"),
            "plugin_cache_dir = \"/tofurc\"\n",
        )
        .unwrap();
        let environment = provider_environment(&vars(&[("HOME", home_path)]));
        assert_eq!(environment.plugin_cache_dir, Some(PathBuf::from("/tofurc")));
    }

    #[test]
    fn the_fetch_configuration_reads_the_cli_configuration_and_tokens() {
        let home = tempfile::tempdir().unwrap();
        let rc = home.path().join("rc");
        std::fs::write(
            &rc,
            "host \"registry.example.com\" {\n  services = {\n    \"providers.v1\" = \"https://127.0.0.1:1/v1/providers/\"\n  }\n}\ncredentials \"registry.example.com\" {\n  token = \"from-file\"\n}\nprovider_installation {\n  network_mirror {\n    url = \"https://mirror.example.com/\"\n  }\n}\n",
        )
        .unwrap();
        let rc_text = rc.display().to_string();
        let variables = [
            ("TF_CLI_CONFIG_FILE", rc_text.as_str()),
            ("TF_REGISTRY_CLIENT_TIMEOUT", "3"),
            ("OPENTOFU_ENFORCE_GPG_VALIDATION", "true"),
        ];
        let tokens = [(
            "TF_TOKEN_my__registry_example_org".to_owned(),
            "from-env".to_owned(),
        )];
        let config = fetch_config(&vars(&variables), &tokens);
        assert_eq!(
            config.hosts["registry.example.com"]["providers.v1"],
            "https://127.0.0.1:1/v1/providers/"
        );
        assert_eq!(config.credentials["registry.example.com"], "from-file");
        assert_eq!(config.credentials["my-registry.example.org"], "from-env");
        assert_eq!(config.methods.len(), 1);
        assert_eq!(
            config.http.request_timeout,
            std::time::Duration::from_secs(3)
        );
        assert!(config.enforce_gpg_validation);
    }

    #[test]
    fn variables_expand_as_go_expands_them() {
        let var = vars(&[("A", "x"), ("LONG_NAME", "y")]);
        assert_eq!(expand_variables("$A/${LONG_NAME}/$NONE/z", &var), "x/y//z");
        assert_eq!(expand_variables("cost $", &var), "cost $");
        assert_eq!(expand_variables("${A", &var), "${A");
    }

    #[test]
    fn a_root_above_is_shown_from_the_module_as_shown() {
        let real = Path::new("/work/repo/stacks/net");
        assert_eq!(
            shown_above(Path::new("repo/stacks/net"), real, Path::new("/work/repo")),
            PathBuf::from("repo")
        );
        assert_eq!(
            shown_above(Path::new("net"), real, Path::new("/work/repo")),
            PathBuf::from("/work/repo")
        );
        assert_eq!(
            shown_above(Path::new("stacks/net"), real, Path::new("/work/repo")),
            PathBuf::from(".")
        );
    }
}

//! Loading every module directory under the paths a user gave, as `check`
//! does, and the modules they (or their test files' runs) call by a local
//! path from outside those paths (what `tofu validate` in a caller reports
//! includes them), each directory once. A called directory's interface comes from [`Children`],
//! read once and shared between threads; whether a call's directory loops
//! or cannot be read is [`tofu_module::calls`]' to decide.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use std::sync::{Arc, Mutex};

use tofu_diagnostics::{
    analyze, analyze_in_tree, analyze_with_files, AnalysisCache, ModuleAnalysis,
};
use tofu_module::calls::{
    called_modules, normalize_path, resolve_calls, resolve_test_runs, CalledDir, CalledModules,
    ModuleCall, ModuleManifest, MODULE_MANIFEST,
};
use tofu_module::module_source::local_source;
use tofu_module::provider_schemas::ProviderSchemas;
use tofu_module::{Config, FileContent, GivenValue, GivenValues, InputFile, ModuleFiles};

use tofu_diagnostics::validator_calls::{add_provider_diagnostics, validator_calls};
use tofu_vfs::schemas::validators::ProviderValidators;
use tofu_vfs::schemas::{DirSchemas, SchemaOptions, SchemaSource};
use tofu_vfs::{ProjectConfig, WalkLimits};

/// One analysed module directory, with the path to show for it (the user's
/// PATH joined with the directory below it).
#[derive(Debug)]
pub struct CheckedModule {
    pub dir: PathBuf,
    pub analysis: ModuleAnalysis,
}

/// A directory that could not be listed.
#[derive(Debug)]
pub struct UnreadableDir {
    pub dir: PathBuf,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct CheckReport {
    pub modules: Vec<CheckedModule>,
    pub unreadable_dirs: Vec<UnreadableDir>,
    /// Set when a walk stopped at its limit; the message says where.
    pub truncated: Vec<PathBuf>,
    /// What was wrong in the `.tofu-lens.toml` files read (each says which).
    pub config_problems: Vec<String>,
}

impl CheckReport {
    pub fn has_errors(&self) -> bool {
        !self.unreadable_dirs.is_empty()
            || self
                .modules
                .iter()
                .any(|module| module.analysis.has_errors())
    }
}

/// A PATH argument that does not exist.
#[derive(Debug)]
pub struct MissingPath(pub PathBuf);

/// The configuration `check` starts from, before each directory's
/// `.tofu-lens.toml`: the given OpenTofu version (or the default), and
/// `unused-declaration` off unless `unused` (those hints are for editors;
/// in CI they are opt-in, and a severity in the file replaces this).
pub fn check_config(tofu_version: Option<String>, unused: bool) -> Config {
    let severity_overrides = if unused {
        Vec::new()
    } else {
        vec![(tofu_diagnostics::codes::UNUSED_DECLARATION, None)]
    };
    Config {
        tofu_version: tofu_version.unwrap_or_else(|| tofu_module::DEFAULT_TOFU_VERSION.to_owned()),
        severity_overrides,
        ..Config::default()
    }
}

/// Finds the module directories of `paths` (a directory is walked; a file stands
/// for the directory holding it; each directory is checked once) and analyses
/// each one, on every core; the report lists them in path order.
///
/// Each directory is analysed with `config` under the nearest
/// `.tofu-lens.toml` above it: the file's `tofuVersion` and
/// `diagnostics.severity` apply over `config`, and directories its `exclude`
/// globs match (relative to the file's directory) are skipped.
/// `tofu_version_flag` (`--tofu-version`) wins over the file.
pub fn check_paths(
    paths: &[PathBuf],
    config: &Config,
    tofu_version_flag: Option<&str>,
) -> Result<CheckReport, MissingPath> {
    check_paths_with_schemas(paths, config, tofu_version_flag, &SchemaOptions::none())
}

/// [`check_paths`] with the provider schemas `schemas` says where to find:
/// each directory is judged against the schemas of its providers that can
/// be had (`tofu_vfs::schemas`).
pub fn check_paths_with_schemas(
    paths: &[PathBuf],
    config: &Config,
    tofu_version_flag: Option<&str>,
    schemas: &SchemaOptions,
) -> Result<CheckReport, MissingPath> {
    let mut modules = Vec::new();
    let mut unreadable = Vec::new();
    let mut report = check_paths_streaming(
        paths,
        config,
        tofu_version_flag,
        schemas,
        crate::parallel::default_jobs(),
        |found| match found {
            Found::Module(module) => modules.push(*module),
            Found::Unreadable(dir) => unreadable.push(dir),
        },
    )?;
    report.modules = modules;
    report.unreadable_dirs = unreadable;
    Ok(report)
}

/// What [`check_paths_streaming`] hands its sink.
#[derive(Debug)]
pub enum Found {
    Module(Box<CheckedModule>),
    Unreadable(UnreadableDir),
}

/// The order directories are analysed and handed out in: their path as a
/// string with a `/` after it (the empty path of a bare file name first).
/// Output is sorted by file path as a string, and in this order a directory
/// and everything below it are one contiguous run of it.
pub fn order_key(dir: &Path) -> String {
    if dir.as_os_str().is_empty() {
        String::new()
    } else {
        format!("{}/", dir.to_string_lossy())
    }
}

/// [`check_paths`] for output that need not hold every analysis at once:
/// `jobs` threads analyse the directories, and `sink` gets the directories
/// that could not be walked, then each analysed module (or unreadable
/// directory) in [`order_key`] order as soon as the ones before it are done.
/// The returned report holds everything but the modules and unreadable
/// directories.
///
/// A module that a checked directory calls by a local path (`source =
/// "../../"`), and that no path given reached, is checked too, since `tofu
/// validate` run in the caller reports its errors: such modules come after
/// the others (in [`order_key`] order among themselves, round by round as
/// calls reach further). Every directory is checked once, however many
/// paths or calls reach it.
pub fn check_paths_streaming(
    paths: &[PathBuf],
    config: &Config,
    tofu_version_flag: Option<&str>,
    schemas: &SchemaOptions,
    jobs: usize,
    mut sink: impl FnMut(Found),
) -> Result<CheckReport, MissingPath> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    // The directories the paths name themselves: the values the user
    // named (`--var-file`, `--var`, `TF_VAR_*`) are for those.
    let mut named_dirs: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    let mut report = CheckReport::default();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|_| MissingPath(path.clone()))?;
        if metadata.is_dir() {
            named_dirs.insert(identity(path));
            let walk = tofu_vfs::find_module_dirs(path, &WalkLimits::default());
            dirs.extend(walk.module_dirs);
            report.unreadable_dirs.extend(
                walk.unreadable
                    .into_iter()
                    .map(|(dir, message)| UnreadableDir { dir, message }),
            );
            if walk.truncated {
                report.truncated.push(path.clone());
            }
        } else {
            // Shown as typed: `check main.tf` reports `main.tf`, not `./main.tf`.
            let dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
            named_dirs.insert(identity(&dir));
            dirs.push(dir);
        }
    }
    for dir in std::mem::take(&mut report.unreadable_dirs) {
        sink(Found::Unreadable(dir));
    }
    dirs.sort_by_cached_key(|dir| order_key(dir));
    dirs.dedup();
    // Configuration files are found first, on this thread (each read once).
    let mut project_configs = ProjectConfigs::default();
    let mut work: Vec<(PathBuf, Config, DirSchemas)> = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let readable_dir = readable(&dir);
        let project = project_configs.for_dir(readable_dir);
        if project.is_some_and(|project| excludes(project, readable_dir)) {
            continue;
        }
        let mut dir_config = project.map_or_else(|| config.clone(), |p| p.apply_to(config));
        if let Some(version) = tofu_version_flag {
            dir_config.tofu_version = version.to_owned();
        }
        dir_config.values = if named_dirs.contains(&identity(&dir)) {
            values_for_dir(&config.values, &dir)
        } else {
            GivenValues::default()
        };
        let dir_schemas = DirSchemas::of(project);
        work.push((dir, dir_config, dir_schemas));
    }
    report.config_problems = project_configs.problems();
    let children = Children::default();
    let run_dirs: Vec<PathBuf> = work
        .iter()
        .map(|(dir, _, _)| readable(dir).to_path_buf())
        .collect();
    let schema_source = SchemaSource::new(schemas.clone(), &run_dirs);
    // The providers' own validators, when providers may run; their
    // functions go through the same processes.
    let validators = ProviderValidators::for_options(schemas);
    let run = Run {
        children: &children,
        schema_source: &schema_source,
        validators: validators.as_ref(),
    };
    // Each directory is checked once, however it was reached.
    let mut checked: std::collections::HashSet<PathBuf> =
        work.iter().map(|(dir, _, _)| identity(dir)).collect();
    loop {
        let reached: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
        crate::parallel::ordered_map(
            &work,
            jobs,
            |(dir, dir_config, dir_schemas)| {
                let (outcome, calls) = run.check_dir(dir, dir_config, dir_schemas);
                if let Ok(mut reached) = reached.lock() {
                    reached.extend(calls);
                }
                outcome
            },
            |outcome| match outcome {
                Some(Ok(module)) => sink(Found::Module(Box::new(module))),
                Some(Err(dir)) => sink(Found::Unreadable(dir)),
                None => {}
            },
        );
        // The modules these call by a local path that no path given
        // reached (`check examples/simple` calling `../../`): `tofu
        // validate` run there reports their errors too, so `check` does,
        // after the others.
        let mut next: Vec<(PathBuf, Config, DirSchemas)> = Vec::new();
        let mut reached = reached.into_inner().unwrap_or_default();
        reached.sort_by_cached_key(|dir| order_key(dir));
        for dir in reached {
            if !checked.insert(identity(&dir)) || !readable(&dir).is_dir() {
                continue;
            }
            let project = project_configs.for_dir(readable(&dir));
            if project.is_some_and(|project| excludes(project, readable(&dir))) {
                continue;
            }
            let mut dir_config = project.map_or_else(|| config.clone(), |p| p.apply_to(config));
            if let Some(version) = tofu_version_flag {
                dir_config.tofu_version = version.to_owned();
            }
            dir_config.values = GivenValues::default();
            let dir_schemas = DirSchemas::of(project);
            next.push((dir, dir_config, dir_schemas));
        }
        if next.is_empty() {
            break;
        }
        work = next;
    }
    Ok(report)
}

/// The values the user named (`config.values`, whose files are paths as
/// given, relative to the working directory) for the module directory
/// `dir`: each file named by its path relative to `dir`, as the
/// directory's analysis names its inputs (`prod.tfvars`, `vars/a.tfvars`,
/// `../common.tfvars`).
fn values_for_dir(given: &GivenValues, dir: &Path) -> GivenValues {
    let absolute = |path: &Path| std::path::absolute(path).map(|path| normalize_path(&path));
    let dir = absolute(readable(dir));
    GivenValues {
        environment: given.environment.clone(),
        given: given
            .given
            .iter()
            .map(|value| match (value, &dir) {
                (GivenValue::File(path), Ok(dir)) => match absolute(Path::new(path)) {
                    Ok(file) => {
                        GivenValue::File(tofu_module::given_values::relative_name(dir, &file))
                    }
                    Err(_) => value.clone(),
                },
                _ => value.clone(),
            })
            .collect(),
    }
}

/// Reads the values files `given` names that are not among the files of
/// the directory (`../common.tfvars`, `vars/prod.tfvars`) into `files`,
/// under the name `given` uses; one that cannot be read is an input that
/// says so, as any unreadable file of the directory.
fn add_named_values_files(dir: &Path, given: &GivenValues, files: &mut Vec<InputFile>) {
    for name in given.files() {
        if files.iter().any(|file| file.name == name) {
            continue;
        }
        let content = match std::fs::read(dir.join(name)) {
            Ok(bytes) => FileContent::from_bytes(bytes),
            Err(error) => FileContent::Unreadable {
                message: error.to_string(),
            },
        };
        files.push(InputFile {
            name: name.to_owned(),
            content,
        });
    }
}

/// What the directories of one `check` run share.
struct Run<'r> {
    children: &'r Children,
    schema_source: &'r SchemaSource,
    validators: Option<&'r Arc<ProviderValidators>>,
}

impl Run<'_> {
    /// One directory's analysis (`None` for a directory without
    /// configuration files), and the directories its calls and test runs
    /// with a local source read, as paths to show (the directory's joined
    /// with the source, `.` and `..` resolved).
    fn check_dir(
        &self,
        dir: &Path,
        dir_config: &Config,
        dir_schemas: &DirSchemas,
    ) -> (Option<Result<CheckedModule, UnreadableDir>>, Vec<PathBuf>) {
        let files = match tofu_vfs::read_module_dir(readable(dir)) {
            Ok(mut files) => {
                add_named_values_files(readable(dir), &dir_config.values, &mut files);
                files
            }
            Err(error) => {
                let unreadable = UnreadableDir {
                    dir: dir.to_path_buf(),
                    message: error.to_string(),
                };
                return (Some(Err(unreadable)), Vec::new());
            }
        };
        let mut cache = AnalysisCache::new();
        // Functions read files as `tofu validate` run in the directory reads
        // them.
        let module_files = ModuleFiles::new(Arc::new(tofu_vfs::DirectoryFiles::new(readable(dir))));
        let no_tree = CalledModules::default();
        let no_schemas = ProviderSchemas::default();
        let mut analysis = analyze_with_files(
            &files,
            dir_config,
            &no_tree,
            &no_schemas,
            &module_files,
            &mut cache,
        );
        if analysis.primary.is_empty() && analysis.overrides.is_empty() {
            return (None, Vec::new());
        }
        let module_calls = analysis.module_calls();
        let test_runs = analysis.test_run_modules();
        let local_dirs = module_calls
            .iter()
            .chain(&test_runs)
            .filter_map(|(_, source)| local_source(source))
            .map(|relative| normalize_path(&dir.join(relative)))
            .collect();
        // Judged again in its module tree when it calls local modules (or
        // its test files' runs do), and with its providers' schemas when
        // they can be had (the cache keeps all but what the tree and
        // schemas change).
        let tree = self
            .children
            .called_modules(readable(dir), &module_calls, &test_runs);
        // Packages fetched for what nothing installed (issue 47).
        self.schema_source.fetch_for_run(readable(dir), &analysis);
        let provider_schemas = self.schema_source.schemas_for(
            readable(dir),
            dir_schemas,
            &tofu_module::provider_needs::package_addresses(&analysis),
        );
        // Provider functions are called where their provider may run.
        let module_files = self
            .functions_environment(dir, dir_schemas, &provider_schemas)
            .unwrap_or(module_files);
        if !tree.is_empty() || !provider_schemas.is_empty() {
            analysis = analyze_with_files(
                &files,
                dir_config,
                &tree,
                &provider_schemas,
                &module_files,
                &mut cache,
            );
        }
        if let Some(validators) = self.validators {
            let calls = validator_calls(&analysis);
            if !calls.is_empty() {
                let outcome = validators.validate(
                    &|address| {
                        self.schema_source
                            .runnable_for(readable(dir), dir_schemas, address)
                    },
                    None,
                    &calls,
                );
                for problem in &outcome.problems {
                    tracing::warn!("{problem}");
                }
                add_provider_diagnostics(&mut analysis, dir_config, outcome.diagnostics);
            }
        }
        let module = CheckedModule {
            dir: dir.to_path_buf(),
            analysis,
        };
        (Some(Ok(module)), local_dirs)
    }
}

impl Run<'_> {
    /// The directory's files and the functions of those of its providers
    /// that declare functions and may run (`None` when none may).
    fn functions_environment(
        &self,
        dir: &Path,
        dir_schemas: &DirSchemas,
        provider_schemas: &ProviderSchemas,
    ) -> Option<ModuleFiles> {
        let environment = tofu_vfs::schemas::functions::FilesAndFunctions::for_dir(
            readable(dir),
            dir_schemas,
            provider_schemas,
            self.schema_source,
            self.validators?,
        )?;
        Some(ModuleFiles::new(Arc::new(environment)))
    }
}

/// A directory as one, however its path is written: absolute, `.` and
/// `..` resolved.
fn identity(dir: &Path) -> PathBuf {
    normalize_path(&std::path::absolute(readable(dir)).unwrap_or_else(|_| dir.to_path_buf()))
}

/// What `check` knows of the module directories calls name: each one's
/// interface and the directories its own calls read, found once (read from
/// the disk and analysed in its own module tree, so that its interface
/// says what lies below it) and shared between threads. Which directory a
/// call reads, and whether it loops, is [`tofu_module::calls`]'s to say;
/// this only reads.
#[derive(Default)]
struct Children {
    known: Mutex<HashMap<PathBuf, Option<CalledDir>>>,
}

impl Children {
    /// What the directory `dir`, with these module calls `(name, source)`
    /// and test runs `(run, source)`, is given of the modules they call
    /// (local sources by path, others through `dir`'s
    /// `.terraform/modules/modules.json`; a run's only by path).
    fn called_modules(
        &self,
        dir: &Path,
        calls: &[(String, String)],
        test_runs: &[(String, String)],
    ) -> CalledModules {
        let Ok(home) = std::path::absolute(dir) else {
            return CalledModules::default();
        };
        let home = normalize_path(&home);
        let manifest = std::fs::read_to_string(home.join(MODULE_MANIFEST))
            .ok()
            .map(|text| ModuleManifest::parse(&text));
        let mut calls = resolve_calls(&home, calls, manifest.as_ref());
        calls.extend(resolve_test_runs(&home, test_runs));
        let visiting = RefCell::new(vec![home.clone()]);
        called_modules(&home, &calls, &|child_dir| self.child(child_dir, &visiting))
    }

    /// A directory's interface and calls, analysed in its own module tree
    /// once. `visiting` holds the directories whose analysis waits for
    /// this one: a call back to one of them is a loop, whose directory is
    /// given analysed on its own (its calls are all a loop's check reads).
    fn child(&self, dir: &Path, visiting: &RefCell<Vec<PathBuf>>) -> Option<CalledDir> {
        if let Ok(known) = self.known.lock() {
            if let Some(found) = known.get(dir) {
                return found.clone();
            }
        }
        if visiting.borrow().iter().any(|waiting| waiting == dir) {
            return analysed(dir, |_, _| CalledModules::default());
        }
        visiting.borrow_mut().push(dir.to_path_buf());
        let found = analysed(dir, |dir, calls| {
            called_modules(dir, calls, &|grandchild| self.child(grandchild, visiting))
        });
        visiting.borrow_mut().pop();
        if let Ok(mut known) = self.known.lock() {
            known.insert(dir.to_path_buf(), found.clone());
        }
        found
    }
}

/// A called directory read and analysed in the tree `tree` gives it (for
/// its path and resolved calls). A directory that cannot be read is
/// [`CalledDir::unreadable`]; one without configuration files is an empty
/// module, as OpenTofu loads it.
fn analysed(
    dir: &Path,
    tree: impl FnOnce(&Path, &[ModuleCall]) -> CalledModules,
) -> Option<CalledDir> {
    let Ok(files) = tofu_vfs::read_module_dir(dir) else {
        return Some(CalledDir::unreadable());
    };
    let mut cache = AnalysisCache::new();
    let config = Config::default();
    let mut analysis = analyze(&files, &config, &mut cache);
    let calls = resolve_calls(dir, &analysis.module_calls(), None);
    let tree = tree(dir, &calls);
    // A caller reads the child's interface, which no provider schema
    // changes: the child is analysed without schemas.
    if !tree.is_empty() {
        let no_schemas = tofu_module::provider_schemas::ProviderSchemas::default();
        analysis = analyze_in_tree(&files, &config, &tree, &no_schemas, &mut cache);
    }
    Some(CalledDir {
        interface: Some(Arc::new(analysis.interface())),
        calls: calls.into_iter().filter_map(|call| call.dir).collect(),
        unreadable: false,
    })
}

/// The path to read a directory at: `.` for the empty path a bare file name
/// leaves.
fn readable(dir: &Path) -> &Path {
    if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }
}

/// The `.tofu-lens.toml` of each directory, each file read once.
#[derive(Default)]
struct ProjectConfigs {
    by_dir: HashMap<PathBuf, Option<Rc<ProjectConfig>>>,
    by_file: HashMap<PathBuf, Rc<ProjectConfig>>,
}

impl ProjectConfigs {
    fn for_dir(&mut self, dir: &Path) -> Option<&ProjectConfig> {
        if !self.by_dir.contains_key(dir) {
            let found = tofu_vfs::find_project_config(dir).map(|project| {
                Rc::clone(
                    self.by_file
                        .entry(project.path.clone())
                        .or_insert_with(|| Rc::new(project)),
                )
            });
            self.by_dir.insert(dir.to_path_buf(), found);
        }
        self.by_dir.get(dir).and_then(Option::as_deref)
    }

    /// Every problem of every file read, once, sorted by file.
    fn problems(&self) -> Vec<String> {
        let mut files: Vec<&Rc<ProjectConfig>> = self.by_file.values().collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
            .into_iter()
            .flat_map(|project| project.problems.iter().cloned())
            .collect()
    }
}

/// True when the file's `exclude` globs match `dir` (relative to the file's
/// directory), or a file directly inside it.
fn excludes(project: &ProjectConfig, dir: &Path) -> bool {
    let Some(globs) = project.exclude_globs() else {
        return false;
    };
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let Ok(relative) = absolute.strip_prefix(project.root()) else {
        return false;
    };
    let relative = relative
        .components()
        .map(|component| component.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    globs.is_excluded(&relative) || globs.is_excluded(&format!("{relative}/main.tf"))
}

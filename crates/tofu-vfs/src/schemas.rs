//! The provider schemas a module directory's analysis is given
//! (`tofu_diagnostics::analyze_in_tree`), for `check` and the language server
//! alike: for every provider the directory needs
//! (`tofu_module::provider_needs`), the schema of the package `tofu init`
//! installed for its root, read through `tofu_schema::read_provider_schema`
//! (from the schema cache when it has the package, else by running the
//! provider, when allowed), or the schema a `tofu providers schema -json`
//! file given here holds.
//!
//! A directory's roots, where its providers are installed
//! ([`provider_roots`], which `tofu-lens schemas` asks too): itself when
//! `tofu init` ran there (it has `.terraform`); else the initialized
//! directories that call it, directly or through other calls (local
//! sources; for `check`, found by parsing the module blocks of the run's
//! directories once, on the first directory that needs it; for the server,
//! its module tree); else the nearest directory above it with
//! `.terraform`. A provider nothing installed gives a schema for takes
//! the one tofu-lens's schema cache holds for the package the nearest lock
//! file pins (its version and one of its hashes: issue 47, part 4), noted
//! as such; one whose schema cannot be had is left out: its bodies are
//! judged without a schema. Each schema is read once per root
//! and provider, and shared by every directory that uses it, until
//! [`SchemaSource::forget_root`] (the server, when a root's lock file or
//! `.terraform` changes).
//!
//! No environment is read here: where packages and the schema cache are
//! (`tofu_schema::ProviderEnvironment`, as `tofu-lens schemas` builds it)
//! and whether providers may run come in [`SchemaOptions`] from the
//! binary; each directory's `.tofu-lens.toml` (or the editor's settings)
//! adds its `schemas.files` and may turn running providers off
//! ([`DirSchemas`]).

pub mod functions;
pub mod validators;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use tofu_module::calls::normalize_path;
use tofu_module::module_source::local_source;
use tofu_module::{ProviderSchemas, UnavailableSchema};
use tofu_schema::install::discovery::{list_installed, SearchDirs};
use tofu_schema::install::lock_file::{parse_lock_file, LockedProvider};
use tofu_schema::plugin::Timeouts;
use tofu_schema::{
    decode_providers_schema_json, read_provider_schema, runnable_provider, ProviderAddress,
    ProviderEnvironment, ProviderSchema, RunnableProvider, SchemaCache, SchemaReadError,
    SchemaRequest,
};

/// Where schemas may come from, for the whole run.
#[derive(Clone, Debug)]
pub struct SchemaOptions {
    /// Where installed packages, the plugin cache, mirrors and the schema
    /// cache are (`None`: installed providers are not read, only `files`).
    pub environment: Option<ProviderEnvironment>,
    /// Start providers whose schema the cache does not have (`check
    /// --no-providers` turns it off; so does a directory's
    /// `.tofu-lens.toml` `schemas.runProviders = false`).
    pub run_providers: bool,
    /// `tofu providers schema -json` documents, used before any package.
    pub files: Vec<PathBuf>,
    pub timeouts: Timeouts,
    /// Gives the source fetched packages for what nothing installed
    /// (`tofu-lens`'s, issue 47); `None`: nothing is fetched.
    pub fetch: Option<Arc<dyn FetchPackages>>,
}

/// Finds packages for the providers of a module nothing installed
/// anything for, and gives them to the source
/// ([`SchemaSource::use_fetched`]). Implemented where fetching is
/// (`tofu-lens`), as this crate never downloads.
pub trait FetchPackages: Send + Sync + std::fmt::Debug {
    /// For the directory `dir`, whose merged configuration is `module`.
    fn prepare(
        &self,
        dir: &Path,
        module: &tofu_module::merge::MergedModule,
        source: &SchemaSource,
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    );
}

impl SchemaOptions {
    /// No schemas at all: every body judged without one.
    pub fn none() -> SchemaOptions {
        SchemaOptions {
            environment: None,
            run_providers: false,
            files: Vec::new(),
            timeouts: Timeouts::default(),
            fetch: None,
        }
    }
}

/// What a directory's `.tofu-lens.toml` says of schemas.
#[derive(Clone, Debug, Default)]
pub struct DirSchemas {
    /// `schemas.runProviders`.
    pub run_providers: Option<bool>,
    /// `schemas.files`, joined to the configuration file's directory.
    pub files: Vec<PathBuf>,
}

impl DirSchemas {
    pub fn of(project: Option<&crate::ProjectConfig>) -> DirSchemas {
        project.map_or_else(DirSchemas::default, |project| DirSchemas {
            run_providers: project.run_providers,
            files: project.schema_files(),
        })
    }
}

/// Reads and shares schemas for the directories of one `check` run, or
/// of one language server session.
pub struct SchemaSource {
    options: SchemaOptions,
    cache: Option<SchemaCache>,
    /// The run's directories, to find callers (absolute and normalised).
    run_dirs: Vec<PathBuf>,
    /// Who calls whom among the run's directories, built on first need.
    callers: OnceLock<HashMap<PathBuf, BTreeSet<PathBuf>>>,
    /// Whether any of `run_dirs` has `.terraform`: without one, no caller
    /// can be a root, and the call index is never built.
    any_initialized: OnceLock<bool>,
    /// The schemas each schema file holds, read once.
    files: Mutex<HashMap<PathBuf, FileOnce>>,
    /// Each schema read, by root, provider and whether providers may run
    /// (`None`: it could not be); a cell is filled once, while other
    /// threads needing it wait.
    read: Mutex<HashMap<(PathBuf, ProviderAddress, bool), ReadOnce>>,
    /// What went wrong reading, each once (for `--verbose` logs).
    problems: Mutex<BTreeSet<String>>,
    /// The package each (root, provider) may run for its validators,
    /// checked against the lock file once (`None`: it may not).
    runnable: Mutex<HashMap<(PathBuf, ProviderAddress), Option<RunnableProvider>>>,
    /// The packages tofu-lens fetched for a directory's providers
    /// ([`SchemaSource::use_fetched`]): the lock entry they answer to, or
    /// why none could be fetched.
    fetched: Mutex<HashMap<(PathBuf, ProviderAddress), Result<LockedProvider, String>>>,
    /// Each fetched package's schema, read once, by provider and version.
    fetched_read: Mutex<HashMap<(ProviderAddress, String, bool), ReadOnce>>,
}

impl std::fmt::Debug for SchemaSource {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SchemaSource")
            .field("options", &self.options)
            .field("run_dirs", &self.run_dirs.len())
            .finish_non_exhaustive()
    }
}

impl SchemaSource {
    /// A source for a run over `run_dirs`.
    pub fn new(options: SchemaOptions, run_dirs: &[PathBuf]) -> SchemaSource {
        let cache = options
            .environment
            .as_ref()
            .and_then(|environment| environment.schema_cache_dir.clone())
            .map(SchemaCache::new);
        SchemaSource {
            options,
            cache,
            run_dirs: run_dirs.iter().map(|dir| absolute(dir)).collect(),
            callers: OnceLock::new(),
            any_initialized: OnceLock::new(),
            files: Mutex::new(HashMap::new()),
            read: Mutex::new(HashMap::new()),
            problems: Mutex::new(BTreeSet::new()),
            runnable: Mutex::new(HashMap::new()),
            fetched: Mutex::new(HashMap::new()),
            fetched_read: Mutex::new(HashMap::new()),
        }
    }

    /// Uses the package tofu-lens fetched (`tofu-fetch`, into the
    /// environment's `fetched_dir`) for the provider `address` of the
    /// directory `dir` when nothing installed gives its schema: `locked`
    /// is the entry it was verified against (the module's lock file's, or
    /// what verification established), or why it could not be fetched
    /// (said where the schema is missing). Returns whether this changed
    /// what `dir` uses.
    pub fn use_fetched(
        &self,
        dir: &Path,
        address: &ProviderAddress,
        locked: Result<LockedProvider, String>,
    ) -> bool {
        let Ok(mut fetched) = self.fetched.lock() else {
            return false;
        };
        let key = (absolute(dir), address.clone());
        let changed = fetched.get(&key) != Some(&locked);
        fetched.insert(key, locked);
        changed
    }

    /// Whether a schema of `address` is at hand for `dir` without fetching:
    /// a root installs something for it, or the schema cache has the
    /// version its lock file pins. Reads directories only.
    pub fn needs_no_fetch(
        &self,
        dir: &Path,
        address: &ProviderAddress,
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    ) -> bool {
        provider_roots(&absolute(dir), callers).from != RootsFrom::Nowhere
            || self.cached_for_lock(dir, address).is_some()
    }

    /// Asks the options' [`FetchPackages`] (if any) for the packages the
    /// directory `dir` of the run needs and nothing installed.
    pub fn fetch_for_run(&self, dir: &Path, module: &tofu_module::merge::MergedModule) {
        if let Some(fetch) = &self.options.fetch {
            fetch.prepare(dir, module, self, &|dir| self.run_callers(dir));
        }
    }

    /// Whether `dir` was given a fetched package for `address` (or why
    /// there is none) already.
    pub fn has_fetched(&self, dir: &Path, address: &ProviderAddress) -> bool {
        self.fetched_for(dir, address).is_some()
    }

    /// Forgets why packages could not be fetched, so that they are tried
    /// again (the settings changed).
    pub fn forget_fetch_failures(&self) {
        if let Ok(mut fetched) = self.fetched.lock() {
            fetched.retain(|_, found| found.is_ok());
        }
    }

    /// The fetched package `dir` uses for `address`, if any.
    fn fetched_for(
        &self,
        dir: &Path,
        address: &ProviderAddress,
    ) -> Option<Result<LockedProvider, String>> {
        let fetched = self.fetched.lock().ok()?;
        fetched.get(&(absolute(dir), address.clone())).cloned()
    }

    /// `read` on the request for the fetched package `locked` names (the
    /// package cache as the only mirror, checked against `locked`);
    /// `None` when the environment has no package cache.
    fn with_fetched_request<T>(
        &self,
        environment: &ProviderEnvironment,
        locked: &LockedProvider,
        run_providers: bool,
        read: impl FnOnce(&SchemaRequest<'_>) -> T,
    ) -> Option<T> {
        let search = SearchDirs {
            mirror_dirs: vec![environment.fetched_dir.clone()?],
            ..SearchDirs::default()
        };
        Some(read(&SchemaRequest {
            address: &locked.address,
            search: &search,
            platform: &environment.platform,
            locked: Some(locked),
            accepts: &|_| true,
            cache: self.cache.as_ref(),
            run_providers,
            socket_dir: None,
            timeouts: self.options.timeouts,
        }))
    }

    /// The schema of the fetched package `locked` names, read once.
    fn read_fetched(
        &self,
        environment: &ProviderEnvironment,
        locked: &LockedProvider,
        run_providers: bool,
    ) -> ReadResult {
        let key = (
            locked.address.clone(),
            locked.version.clone(),
            run_providers,
        );
        let cell: ReadOnce = match self.fetched_read.lock() {
            Ok(mut read) => Arc::clone(read.entry(key).or_default()),
            Err(_) => return Err(None),
        };
        cell.get_or_init(|| {
            let Some(found) =
                self.with_fetched_request(environment, locked, run_providers, read_provider_schema)
            else {
                return Err(None);
            };
            match found {
                Ok(loaded) => Ok(Arc::new(loaded.schema)),
                Err(error) => {
                    let address = &locked.address;
                    self.problem(format!("{address} (fetched): {error}"));
                    match error {
                        SchemaReadError::RunningDisabled => Err(None),
                        other => Err(Some(UnavailableSchema::Other(format!(
                            "the package tofu-lens fetched for {address} {}: {other}",
                            locked.version
                        )))),
                    }
                }
            }
        })
        .clone()
    }

    /// The schemas of `needed` that can be had for the directory `dir`:
    /// from the schema files first, then from the packages installed for
    /// its roots (callers found among the run's directories).
    pub fn schemas_for(
        &self,
        dir: &Path,
        dir_schemas: &DirSchemas,
        needed: &[ProviderAddress],
    ) -> ProviderSchemas {
        self.schemas_with_callers(dir, dir_schemas, needed, &|dir| self.run_callers(dir))
    }

    /// [`SchemaSource::schemas_for`], with a directory's direct callers
    /// (absolute and normalised) given by `callers`: the server's module
    /// tree.
    pub fn schemas_with_callers(
        &self,
        dir: &Path,
        dir_schemas: &DirSchemas,
        needed: &[ProviderAddress],
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    ) -> ProviderSchemas {
        let read = Reader {
            file: &|file| Some(self.schema_file(file)),
            at: &|environment, root, address, run_providers| {
                Some(self.read_at(environment, root, address, run_providers))
            },
            fetched: &|environment, locked, run_providers| {
                Some(self.read_fetched(environment, locked, run_providers))
            },
        };
        self.gather(dir, dir_schemas, needed, callers, &read)
            .unwrap_or_default()
    }

    /// [`SchemaSource::schemas_with_callers`] when nothing is left to read
    /// for it: every schema file it names was read already, and so was
    /// every (root, provider) it asks for; a directory without a root
    /// (nothing installed for it, the common case) asks for none. `None`
    /// when something must still be read, which may take a while (a
    /// provider may start): the server does that in the background, with
    /// progress, and answers the rest at once.
    pub fn schemas_already_read(
        &self,
        dir: &Path,
        dir_schemas: &DirSchemas,
        needed: &[ProviderAddress],
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    ) -> Option<ProviderSchemas> {
        let read = Reader {
            file: &|file| {
                let files = self.files.lock().ok()?;
                files.get(file)?.get().map(Arc::clone)
            },
            at: &|_, root, address, run_providers| {
                let key = (root.to_path_buf(), address.clone(), run_providers);
                let read = self.read.lock().ok()?;
                read.get(&key)?.get().cloned()
            },
            fetched: &|_, locked, run_providers| {
                let key = (
                    locked.address.clone(),
                    locked.version.clone(),
                    run_providers,
                );
                let read = self.fetched_read.lock().ok()?;
                read.get(&key)?.get().cloned()
            },
        };
        self.gather(dir, dir_schemas, needed, callers, &read)
    }

    /// The schemas of `needed` for `dir`, through `read`; `None` when
    /// `read` had nothing for a file or a (root, provider).
    fn gather(
        &self,
        dir: &Path,
        dir_schemas: &DirSchemas,
        needed: &[ProviderAddress],
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
        read: &Reader<'_>,
    ) -> Option<ProviderSchemas> {
        let mut schemas = ProviderSchemas::new();
        let files: Vec<&PathBuf> = self
            .options
            .files
            .iter()
            .chain(&dir_schemas.files)
            .collect();
        if needed.is_empty() || (self.options.environment.is_none() && files.is_empty()) {
            return Some(schemas);
        }
        let mut from_files: Vec<Arc<FileSchemas>> = Vec::with_capacity(files.len());
        for file in files {
            from_files.push((read.file)(file)?);
        }
        let mut rest = Vec::new();
        for address in needed {
            match from_files.iter().find_map(|found| found.get(address)) {
                Some(schema) => schemas.insert(address.clone(), Arc::clone(schema)),
                None => rest.push(address),
            }
        }
        let Some(environment) = &self.options.environment else {
            return Some(schemas);
        };
        if rest.is_empty() {
            return Some(schemas);
        }
        let run_providers = self.options.run_providers && dir_schemas.run_providers.unwrap_or(true);
        let roots = provider_roots(&absolute(dir), callers).dirs;
        for address in rest {
            // Why the first root (the nearest) has none, while none has it.
            let mut why = None;
            for root in &roots {
                match (read.at)(environment, root, address, run_providers)? {
                    Ok(schema) => {
                        schemas.insert(address.clone(), schema);
                        why = None;
                        break;
                    }
                    Err(reason) => why = why.or(Some(reason)),
                }
            }
            if schemas.get(address).is_none()
                && !matches!(why, Some(Some(UnavailableSchema::LockMismatch { .. })))
            {
                // Nothing installed gives it: the cached schema of the
                // package the lock file pins, by one of its hashes.
                if let Some((version, schema)) = self.cached_for_lock(dir, address) {
                    schemas.insert(address.clone(), schema);
                    schemas.set_from_cache(address.clone(), version);
                    continue;
                }
                // Or the package tofu-lens fetched for it.
                match self.fetched_for(dir, address) {
                    Some(Ok(locked)) => {
                        match (read.fetched)(environment, &locked, run_providers)? {
                            Ok(schema) => {
                                schemas.insert(address.clone(), schema);
                                schemas.set_fetched(address.clone(), locked.version);
                                continue;
                            }
                            Err(reason) => why = why.or(Some(reason)),
                        }
                    }
                    Some(Err(failure)) => {
                        why = why.or(Some(Some(UnavailableSchema::Other(format!(
                            "tofu-lens could not fetch it: {failure}"
                        )))));
                    }
                    None => {}
                }
            }
            if let Some(Some(why)) = why {
                schemas.set_unavailable(address.clone(), why);
            }
        }
        Some(schemas)
    }

    /// The schema tofu-lens's cache holds for the package of `address`
    /// that the nearest lock file at or above `dir` pins (its version, and
    /// one of the package hashes it records, so the very package `tofu
    /// init` would install), with that version. Offline: nothing is run,
    /// hashed or fetched.
    fn cached_for_lock(
        &self,
        dir: &Path,
        address: &ProviderAddress,
    ) -> Option<(String, Arc<ProviderSchema>)> {
        let cache = self.cache.as_ref()?;
        let locked = nearest_locked(dir, address)?;
        locked.hashes.iter().find_map(|hash| {
            let key = tofu_schema::CacheKey {
                address: address.clone(),
                version: locked.version.clone(),
                package_hash: hash.clone(),
            };
            let schema = cache.load(&key)?;
            Some((locked.version.clone(), Arc::new(schema)))
        })
    }

    /// Forgets what was read for `root` (its lock file or `.terraform`
    /// changed), and the schema files, so that the next request reads
    /// them again (from the schema cache when the package is the same).
    pub fn forget_root(&self, root: &Path) {
        let root = absolute(root);
        if let Ok(mut read) = self.read.lock() {
            read.retain(|(read_root, _, _), _| *read_root != root);
        }
        if let Ok(mut runnable) = self.runnable.lock() {
            runnable.retain(|(read_root, _), _| *read_root != root);
        }
        self.forget_files();
    }

    /// Forgets the schema files read, so that the next request reads them
    /// again (the settings naming them changed).
    pub fn forget_files(&self) {
        if let Ok(mut files) = self.files.lock() {
            files.clear();
        }
    }

    /// The package of `address` that may run for the validators of the
    /// directory `dir`, with its root (the first of `dir`'s roots that
    /// installed it): only when providers may run for `dir` and the
    /// package matches its root's lock file (`tofu_schema::runnable_provider`,
    /// checked once per root until [`SchemaSource::forget_root`]).
    pub fn runnable_with_callers(
        &self,
        dir: &Path,
        dir_schemas: &DirSchemas,
        address: &ProviderAddress,
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    ) -> Option<(PathBuf, RunnableProvider)> {
        let environment = self.options.environment.as_ref()?;
        if !self.options.run_providers || dir_schemas.run_providers == Some(false) {
            return None;
        }
        let roots = provider_roots(&absolute(dir), callers).dirs;
        if roots.is_empty() {
            // Nothing installed: the package tofu-lens fetched, if any.
            return self.runnable_fetched(environment, dir, address);
        }
        roots.into_iter().find_map(|root| {
            let runnable = self.runnable_at(environment, &root, address)?;
            Some((root, runnable))
        })
    }

    /// The fetched package `dir` uses for `address`, checked against the
    /// lock entry it answers to, with the package cache as its "root"
    /// (one validator process per package, whichever module asks).
    fn runnable_fetched(
        &self,
        environment: &ProviderEnvironment,
        dir: &Path,
        address: &ProviderAddress,
    ) -> Option<(PathBuf, RunnableProvider)> {
        // The package given for it, else (its schema came from the schema
        // cache, for the version the lock file pins) the one the lock file
        // pins, if tofu-lens fetched it: checked against the lock file.
        let locked = match self.fetched_for(dir, address) {
            Some(Ok(locked)) => locked,
            Some(Err(_)) => return None,
            None => nearest_locked(dir, address)?,
        };
        let key = (
            environment.fetched_dir.as_ref()?.join(&locked.version),
            address.clone(),
        );
        if let Some(known) = self.runnable.lock().ok()?.get(&key) {
            return known.clone().map(|runnable| (key.0.clone(), runnable));
        }
        let found = self.with_fetched_request(environment, &locked, true, runnable_provider)?;
        let runnable = match found {
            Ok(runnable) => Some(runnable),
            Err(error) => {
                self.problem(format!(
                    "{address} (fetched): its validators are not run: {error}"
                ));
                None
            }
        };
        if let Ok(mut known) = self.runnable.lock() {
            known.insert(key.clone(), runnable.clone());
        }
        runnable.map(|runnable| (key.0, runnable))
    }

    /// [`SchemaSource::runnable_with_callers`] with the callers found among
    /// the run's directories.
    pub fn runnable_for(
        &self,
        dir: &Path,
        dir_schemas: &DirSchemas,
        address: &ProviderAddress,
    ) -> Option<(PathBuf, RunnableProvider)> {
        self.runnable_with_callers(dir, dir_schemas, address, &|dir| self.run_callers(dir))
    }

    fn runnable_at(
        &self,
        environment: &ProviderEnvironment,
        root: &Path,
        address: &ProviderAddress,
    ) -> Option<RunnableProvider> {
        let key = (root.to_path_buf(), address.clone());
        if let Some(known) = self.runnable.lock().ok()?.get(&key) {
            return known.clone();
        }
        let found = self.with_request(environment, root, address, true, runnable_provider);
        let runnable = match found {
            Ok(runnable) => Some(runnable),
            Err(error) => {
                self.problem(format!(
                    "{address} (for {}): its validators are not run: {error}",
                    root.display()
                ));
                None
            }
        };
        if let Ok(mut known) = self.runnable.lock() {
            known.insert(key, runnable.clone());
        }
        runnable
    }

    /// The provider packages at hand for the directory `dir`, `(address,
    /// version)` sorted without repeats: those `tofu init` installed for its
    /// roots ([`provider_roots`], `callers` giving a directory's direct
    /// callers), and with an environment those of the plugin cache, the
    /// mirrors and the schema cache. What a `required_providers` source
    /// may name without downloading anything; reads directories only
    /// (nothing is hashed or run).
    pub fn installed_providers(
        &self,
        dir: &Path,
        callers: &dyn Fn(&Path) -> Vec<PathBuf>,
    ) -> Vec<(ProviderAddress, String)> {
        let roots = provider_roots(dir, callers).dirs;
        let init_dirs = roots
            .iter()
            .map(|root| root.join(".terraform").join("providers"));
        let search = match &self.options.environment {
            Some(environment) => {
                let mut search = environment.search_dirs(None);
                search.init_dirs.extend(init_dirs);
                search
            }
            None => SearchDirs {
                init_dirs: init_dirs.collect(),
                ..SearchDirs::default()
            },
        };
        let mut found: Vec<(ProviderAddress, String)> = list_installed(&search)
            .into_iter()
            .map(|package| (package.address, package.version))
            .collect();
        if let Some(cache) = &self.cache {
            found.extend(cache.cached_versions());
        }
        found.sort();
        found.dedup();
        found
    }

    /// What could not be read, sorted, each once.
    pub fn problems(&self) -> Vec<String> {
        self.problems
            .lock()
            .map(|problems| problems.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn problem(&self, problem: String) {
        if let Ok(mut problems) = self.problems.lock() {
            problems.insert(problem);
        }
    }

    /// The schemas `file` holds, read once.
    fn schema_file(&self, file: &Path) -> Arc<FileSchemas> {
        let cell: FileOnce = match self.files.lock() {
            Ok(mut files) => Arc::clone(files.entry(file.to_path_buf()).or_default()),
            Err(_) => return Arc::default(),
        };
        Arc::clone(cell.get_or_init(|| Arc::new(self.read_file(file))))
    }

    fn read_file(&self, file: &Path) -> FileSchemas {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(error) => {
                self.problem(format!("{}: cannot be read: {error}", file.display()));
                return FileSchemas::new();
            }
        };
        match decode_providers_schema_json(&text) {
            Ok(schemas) => schemas
                .into_iter()
                .map(|(address, schema)| (address, Arc::new(schema)))
                .collect(),
            Err(error) => {
                self.problem(format!(
                    "{}: not a schema file (tofu providers schema -json): {error}",
                    file.display()
                ));
                FileSchemas::new()
            }
        }
    }

    /// The direct callers of `dir` among the run's directories. A caller
    /// found as a root is one of them (the index holds no other), so the
    /// index is read only when one of them has `.terraform`.
    fn run_callers(&self, dir: &Path) -> Vec<PathBuf> {
        let any_initialized = *self
            .any_initialized
            .get_or_init(|| self.run_dirs.iter().any(|dir| is_initialized(dir)));
        if !any_initialized {
            return Vec::new();
        }
        self.callers
            .get_or_init(|| self.call_index())
            .get(dir)
            .map(|callers| callers.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Who calls whom among the run's directories, by their module blocks'
    /// local sources (parsed only, not analysed).
    fn call_index(&self) -> HashMap<PathBuf, BTreeSet<PathBuf>> {
        let mut callers: HashMap<PathBuf, BTreeSet<PathBuf>> = HashMap::new();
        for dir in &self.run_dirs {
            let Ok(files) = crate::read_module_dir(dir) else {
                continue;
            };
            for file in files {
                let tofu_module::FileContent::Text(text) = &file.content else {
                    continue;
                };
                let parsed = tofu_syntax::parse(&file.name, text);
                for block in parsed.body.blocks_of_kind("module") {
                    let Some(relative) = block
                        .body
                        .attribute("source")
                        .and_then(|source| source.expr.as_str())
                        .and_then(local_source)
                    else {
                        continue;
                    };
                    let child = normalize_path(&dir.join(relative));
                    callers.entry(child).or_default().insert(dir.clone());
                }
            }
        }
        callers
    }

    /// The schema of `address` as installed for `root`, read once.
    fn read_at(
        &self,
        environment: &ProviderEnvironment,
        root: &Path,
        address: &ProviderAddress,
        run_providers: bool,
    ) -> ReadResult {
        let key = (root.to_path_buf(), address.clone(), run_providers);
        let cell: ReadOnce = match self.read.lock() {
            Ok(mut read) => Arc::clone(read.entry(key).or_default()),
            Err(_) => return Err(None),
        };
        cell.get_or_init(|| self.read_package(environment, root, address, run_providers))
            .clone()
    }

    /// `read` on the request for `address` as installed for `root` (its
    /// lock file entry, the environment's search directories).
    fn with_request<T>(
        &self,
        environment: &ProviderEnvironment,
        root: &Path,
        address: &ProviderAddress,
        run_providers: bool,
        read: impl FnOnce(&SchemaRequest<'_>) -> T,
    ) -> T {
        let locked = locked_provider(root, address);
        let search = environment.search_dirs(Some(root));
        read(&SchemaRequest {
            address,
            search: &search,
            platform: &environment.platform,
            locked: locked.as_ref(),
            accepts: &|_| true,
            cache: self.cache.as_ref(),
            run_providers,
            socket_dir: None,
            timeouts: self.options.timeouts,
        })
    }

    /// Reads the schema of `address` from the package installed for `root`.
    fn read_package(
        &self,
        environment: &ProviderEnvironment,
        root: &Path,
        address: &ProviderAddress,
        run_providers: bool,
    ) -> ReadResult {
        let found = self.with_request(
            environment,
            root,
            address,
            run_providers,
            read_provider_schema,
        );
        match found {
            Ok(loaded) => {
                if let Some(error) = &loaded.cache_store_error {
                    self.problem(format!(
                        "{address}: the schema could not be cached: {error}"
                    ));
                }
                Ok(Arc::new(loaded.schema))
            }
            Err(error) => {
                tracing::debug!(%address, root = %root.display(), %error, "no provider schema");
                self.problem(format!("{address} (for {}): {error}", root.display()));
                Err(unavailable(root, address, &error))
            }
        }
    }
}

/// Why the schema of `address` is not at hand for `root`, as the analysis
/// reports it; `None` when running providers is turned off (the user's
/// choice: nothing to report).
fn unavailable(
    root: &Path,
    address: &ProviderAddress,
    error: &SchemaReadError,
) -> Option<UnavailableSchema> {
    match error {
        SchemaReadError::RunningDisabled => None,
        SchemaReadError::HashMismatch { .. } => Some(UnavailableSchema::LockMismatch {
            version: locked_provider(root, address)
                .map(|locked| locked.version)
                .unwrap_or_default(),
        }),
        other => Some(UnavailableSchema::Other(other.to_string())),
    }
}

/// The entries of the nearest `.terraform.lock.hcl` at or above `dir`
/// (none when there is no such file).
pub fn nearest_lock_file(dir: &Path) -> Vec<LockedProvider> {
    absolute(dir)
        .ancestors()
        .map(|above| above.join(".terraform.lock.hcl"))
        .find(|file| file.is_file())
        .and_then(|file| std::fs::read_to_string(file).ok())
        .map(|text| parse_lock_file(&text))
        .unwrap_or_default()
}

/// The entry for `address` of the nearest lock file at or above `dir`.
fn nearest_locked(dir: &Path, address: &ProviderAddress) -> Option<LockedProvider> {
    nearest_lock_file(dir)
        .into_iter()
        .find(|entry| entry.address == *address)
}

/// `root`'s lock file entry for `address`.
fn locked_provider(root: &Path, address: &ProviderAddress) -> Option<LockedProvider> {
    std::fs::read_to_string(root.join(".terraform.lock.hcl"))
        .ok()
        .and_then(|text| {
            parse_lock_file(&text)
                .into_iter()
                .find(|entry| entry.address == *address)
        })
}

/// A provider's schema as installed for a root, or why there is none
/// (`None`: nothing to say, running providers is turned off).
type ReadResult = Result<Arc<ProviderSchema>, Option<UnavailableSchema>>;
type ReadOnce = Arc<OnceLock<ReadResult>>;

/// How [`SchemaSource::gather`] reads a schema file, and the schema of a
/// provider as installed for a root (`None`: not at hand).
struct Reader<'r> {
    file: &'r dyn Fn(&Path) -> Option<Arc<FileSchemas>>,
    #[allow(clippy::type_complexity)]
    at: &'r dyn Fn(&ProviderEnvironment, &Path, &ProviderAddress, bool) -> Option<ReadResult>,
    /// A fetched package's schema.
    fetched: &'r dyn Fn(&ProviderEnvironment, &LockedProvider, bool) -> Option<ReadResult>,
}
type FileSchemas = BTreeMap<ProviderAddress, Arc<ProviderSchema>>;
type FileOnce = Arc<OnceLock<Arc<FileSchemas>>>;

/// Where a directory's providers are installed: its roots (see the module
/// doc), in order of preference, and how they were found. `tofu-lens
/// schemas`, `check` and the server all ask this one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderRoots {
    pub dirs: Vec<PathBuf>,
    pub from: RootsFrom,
}

/// How a directory's roots were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootsFrom {
    /// It has `.terraform` itself.
    Itself,
    /// Its callers (or theirs) have.
    Callers,
    /// The nearest directory above it has.
    Above,
    /// None: nothing installs its providers.
    Nowhere,
}

/// The roots of `dir`: `dir` itself when `tofu init` ran there; else the
/// initialized directories among its callers, `callers` giving a
/// directory's direct callers (a caller without `.terraform` hands on to
/// its own), sorted; else the nearest directory above `dir` with
/// `.terraform`. Paths are compared as given: pass them absolute and
/// normalised (or canonical), as `callers` gives them.
pub fn provider_roots(dir: &Path, callers: &dyn Fn(&Path) -> Vec<PathBuf>) -> ProviderRoots {
    if is_initialized(dir) {
        return ProviderRoots {
            dirs: vec![dir.to_path_buf()],
            from: RootsFrom::Itself,
        };
    }
    let mut found = BTreeSet::new();
    let mut seen = BTreeSet::from([dir.to_path_buf()]);
    let mut pending = callers(dir);
    while let Some(caller) = pending.pop() {
        if !seen.insert(caller.clone()) {
            continue;
        }
        if is_initialized(&caller) {
            found.insert(caller);
        } else {
            pending.extend(callers(&caller));
        }
    }
    if !found.is_empty() {
        return ProviderRoots {
            dirs: found.into_iter().collect(),
            from: RootsFrom::Callers,
        };
    }
    match dir.ancestors().skip(1).find(|above| is_initialized(above)) {
        Some(above) => ProviderRoots {
            dirs: vec![above.to_path_buf()],
            from: RootsFrom::Above,
        },
        None => ProviderRoots {
            dirs: Vec::new(),
            from: RootsFrom::Nowhere,
        },
    }
}

/// A directory `tofu init` ran in.
fn is_initialized(dir: &Path) -> bool {
    dir.join(".terraform").is_dir()
}

fn absolute(dir: &Path) -> PathBuf {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    normalize_path(&std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn installed_providers_come_from_the_roots_and_the_machine_s_directories() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("stack");
        let cache = temp.path().join("plugin-cache");
        for package in [
            root.join(
                ".terraform/providers/registry.opentofu.org/hashicorp/time/0.14.2/linux_amd64",
            ),
            cache.join("registry.opentofu.org/hashicorp/time/0.13.1/linux_amd64"),
            cache.join("registry.opentofu.org/hashicorp/time/0.14.2/darwin_arm64"),
            cache.join("example.com/acme/widget/1.0.0/linux_amd64"),
        ] {
            std::fs::create_dir_all(package).unwrap();
        }
        std::fs::create_dir_all(root.join("modules/net")).unwrap();
        let shown = |source: &SchemaSource, dir: &Path| -> Vec<String> {
            source
                .installed_providers(dir, &|_| Vec::new())
                .iter()
                .map(|(address, version)| format!("{address} {version}"))
                .collect()
        };
        // Without an environment: what the root (itself, or the nearest
        // initialized directory above) installed.
        let bare = SchemaSource::new(SchemaOptions::none(), &[]);
        let time = "registry.opentofu.org/hashicorp/time";
        assert_eq!(shown(&bare, &root), [format!("{time} 0.14.2")]);
        assert_eq!(
            shown(&bare, &root.join("modules/net")),
            [format!("{time} 0.14.2")]
        );
        assert!(shown(&bare, temp.path()).is_empty());
        // With one: the plugin cache too, each version once.
        let mut environment = ProviderEnvironment::bare(
            tofu_schema::install::Platform::parse("linux_amd64").unwrap(),
        );
        environment.plugin_cache_dir = Some(cache);
        let options = SchemaOptions {
            environment: Some(environment),
            ..SchemaOptions::none()
        };
        let machine = SchemaSource::new(options, &[]);
        assert_eq!(
            shown(&machine, &root),
            [
                "example.com/acme/widget 1.0.0".to_owned(),
                format!("{time} 0.13.1"),
                format!("{time} 0.14.2"),
            ]
        );
    }

    /// Nothing installed: the schema tofu-lens's cache holds for the
    /// package the nearest lock file pins (its version and one of its
    /// hashes) stands in, noted with its version; another version, or a
    /// package none of the lock's hashes name, does not.
    #[test]
    fn a_module_with_nothing_installed_takes_the_cached_schema_its_lock_file_pins() {
        let temp = tempfile::tempdir().unwrap();
        let cache_dir = temp.path().join("cache");
        let time = ProviderAddress::parse("hashicorp/time").unwrap();
        let mut schema = ProviderSchema::default();
        schema.provider.version = 7;
        SchemaCache::new(&cache_dir)
            .store(
                &tofu_schema::CacheKey {
                    address: time.clone(),
                    version: "0.14.2".to_owned(),
                    package_hash: "zh:cafe".to_owned(),
                },
                &schema,
            )
            .unwrap();
        let lock = |version: &str, hash: &str| {
            format!(
                "provider \"registry.opentofu.org/hashicorp/time\" {{\n  version = \"{version}\"\n  hashes = [\n    \"h1:other=\",\n    \"{hash}\",\n  ]\n}}\n"
            )
        };
        let cases = [
            ("pinned", lock("0.14.2", "zh:cafe"), true),
            ("other-version", lock("0.13.1", "zh:cafe"), false),
            ("other-package", lock("0.14.2", "zh:beef"), false),
        ];
        let mut environment = ProviderEnvironment::bare(
            tofu_schema::install::Platform::parse("linux_amd64").unwrap(),
        );
        environment.schema_cache_dir = Some(cache_dir);
        let source = SchemaSource::new(
            SchemaOptions {
                environment: Some(environment),
                run_providers: false,
                ..SchemaOptions::none()
            },
            &[],
        );
        for (name, text, found) in cases {
            let dir = temp.path().join(name);
            std::fs::create_dir_all(dir.join("modules/net")).unwrap();
            std::fs::write(dir.join(".terraform.lock.hcl"), text).unwrap();
            // The directory itself, and a module below it.
            for dir in [dir.clone(), dir.join("modules/net")] {
                let schemas =
                    source.schemas_for(&dir, &DirSchemas::default(), std::slice::from_ref(&time));
                assert_eq!(
                    schemas.get(&time).map(|schema| schema.provider.version),
                    found.then_some(7),
                    "{name}"
                );
                assert_eq!(
                    schemas.from_cache(&time),
                    found.then_some("0.14.2"),
                    "{name}"
                );
                assert_eq!(schemas.unavailable().count(), 0, "{name}");
            }
        }
    }

    #[test]
    fn roots_are_the_directory_else_its_initialized_callers_else_the_nearest_above() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        for dir in [
            "stacks/prod/.terraform",
            "stacks/dev",
            "modules/net",
            "modules/db",
            "other/.terraform",
            "other/sub",
            "loose",
        ] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        // prod calls net directly; dev (not initialized) calls db, which
        // prod calls too.
        let calls: Vec<(PathBuf, PathBuf)> = [
            ("stacks/prod", "modules/net"),
            ("stacks/prod", "modules/db"),
            ("stacks/dev", "modules/db"),
        ]
        .into_iter()
        .map(|(caller, child)| (root.join(caller), root.join(child)))
        .collect();
        let callers = |dir: &Path| -> Vec<PathBuf> {
            calls
                .iter()
                .filter(|(_, child)| child == dir)
                .map(|(caller, _)| caller.clone())
                .collect()
        };
        let roots = |dir: &str| {
            let found = provider_roots(&root.join(dir), &callers);
            let dirs: Vec<String> = found
                .dirs
                .iter()
                .map(|dir| {
                    dir.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            (dirs, found.from)
        };
        let prod = || vec!["stacks/prod".to_owned()];
        assert_eq!(roots("stacks/prod"), (prod(), RootsFrom::Itself));
        assert_eq!(roots("modules/net"), (prod(), RootsFrom::Callers));
        assert_eq!(roots("modules/db"), (prod(), RootsFrom::Callers));
        assert_eq!(
            roots("other/sub"),
            (vec!["other".to_owned()], RootsFrom::Above)
        );
        assert_eq!(roots("stacks/dev").1, RootsFrom::Nowhere);
        assert_eq!(roots("loose").1, RootsFrom::Nowhere);
    }
}

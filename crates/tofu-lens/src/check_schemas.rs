//! The provider schemas `check` gives each module directory's analysis
//! (`tofu_module::analyze_in_tree`): for every provider the directory
//! needs, the schema of the package `tofu init` installed for its root,
//! read through `tofu_schema::read_provider_schema` (from the schema cache
//! when it has the package, else by running the provider, when allowed),
//! or the schema a `tofu providers schema -json` file given here holds.
//!
//! A directory's roots, where its providers are installed: itself when
//! `tofu init` ran there (it has `.terraform`); else the initialized
//! directories of the run that call it, directly or through other calls
//! (local sources; found by parsing the module blocks of the run's
//! directories once, on the first directory that needs it); else the
//! nearest directory above it with `.terraform`. A provider whose schema
//! cannot be had is left out: its bodies are judged without a schema. Each
//! schema is read once per root and provider, and shared by every
//! directory that uses it.
//!
//! No environment is read here: the cache directory, the plugin cache and
//! mirrors, and whether providers may run come in [`SchemaOptions`] from
//! `main.rs`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use tofu_module::calls::{local_source, normalize_path};
use tofu_module::ProviderSchemas;
use tofu_schema::install::discovery::{Platform, SearchDirs};
use tofu_schema::install::lock_file::{parse_lock_file, LockedProvider};
use tofu_schema::plugin::Timeouts;
use tofu_schema::{
    decode_providers_schema_json, read_provider_schema, ProviderAddress, ProviderSchema,
    SchemaCache, SchemaRequest,
};

/// Where schemas may come from.
#[derive(Clone, Debug, Default)]
pub struct SchemaOptions {
    /// Read schemas of installed providers at all (off: only `files`).
    pub installed: bool,
    /// Start providers whose schema the cache does not have.
    pub run_providers: bool,
    /// The schema cache's directory.
    pub cache_dir: Option<PathBuf>,
    /// The plugin cache and filesystem mirrors (the CLI configuration's).
    pub plugin_cache_dir: Option<PathBuf>,
    pub mirror_dirs: Vec<PathBuf>,
    /// `tofu providers schema -json` documents, used before any package.
    pub files: Vec<PathBuf>,
    pub timeouts: Timeouts,
}

impl SchemaOptions {
    /// No schemas at all: every body judged without one.
    pub fn none() -> SchemaOptions {
        SchemaOptions::default()
    }
}

/// Reads and shares schemas for the directories of one `check` run.
pub struct SchemaSource {
    options: SchemaOptions,
    platform: Platform,
    cache: Option<SchemaCache>,
    /// The run's directories, to find callers (absolute and normalised).
    run_dirs: Vec<PathBuf>,
    /// Who calls whom among the run's directories, built on first need.
    callers: OnceLock<HashMap<PathBuf, BTreeSet<PathBuf>>>,
    /// The schemas the `files` hold.
    from_files: OnceLock<BTreeMap<ProviderAddress, Arc<ProviderSchema>>>,
    /// Each schema read, by root and provider (`None`: it could not be);
    /// a cell is filled once, while other threads needing it wait.
    read: Mutex<HashMap<(PathBuf, ProviderAddress), ReadOnce>>,
    /// What went wrong reading, each once (for `--verbose` logs).
    problems: Mutex<BTreeSet<String>>,
}

impl SchemaSource {
    /// A source for a run over `run_dirs`.
    pub fn new(options: SchemaOptions, run_dirs: &[PathBuf]) -> SchemaSource {
        let cache = options.cache_dir.clone().map(SchemaCache::new);
        SchemaSource {
            options,
            platform: Platform::current(),
            cache,
            run_dirs: run_dirs.iter().map(|dir| absolute(dir)).collect(),
            callers: OnceLock::new(),
            from_files: OnceLock::new(),
            read: Mutex::new(HashMap::new()),
            problems: Mutex::new(BTreeSet::new()),
        }
    }

    /// Whether any schema could come from this source.
    pub fn is_off(&self) -> bool {
        !self.options.installed && self.options.files.is_empty()
    }

    /// The schemas of `needed` that can be had for the directory `dir`.
    pub fn schemas_for(&self, dir: &Path, needed: &[ProviderAddress]) -> ProviderSchemas {
        let mut schemas = ProviderSchemas::new();
        if needed.is_empty() || self.is_off() {
            return schemas;
        }
        let from_files = self.from_files.get_or_init(|| self.read_files());
        let mut rest = Vec::new();
        for address in needed {
            match from_files.get(address) {
                Some(schema) => schemas.insert(address.clone(), Arc::clone(schema)),
                None => rest.push(address),
            }
        }
        if rest.is_empty() || !self.options.installed {
            return schemas;
        }
        let roots = self.roots(&absolute(dir));
        for address in rest {
            for root in &roots {
                if let Some(schema) = self.read_at(root, address) {
                    schemas.insert(address.clone(), schema);
                    break;
                }
            }
        }
        schemas
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

    fn read_files(&self) -> BTreeMap<ProviderAddress, Arc<ProviderSchema>> {
        let mut found = BTreeMap::new();
        for file in &self.options.files {
            let text = match std::fs::read_to_string(file) {
                Ok(text) => text,
                Err(error) => {
                    self.problem(format!("{}: {error}", file.display()));
                    continue;
                }
            };
            match decode_providers_schema_json(&text) {
                Ok(schemas) => {
                    for (address, schema) in schemas {
                        found.insert(address, Arc::new(schema));
                    }
                }
                Err(error) => self.problem(format!("{}: {error}", file.display())),
            }
        }
        found
    }

    /// The roots of `dir` (see the module doc), in order of preference.
    fn roots(&self, dir: &Path) -> Vec<PathBuf> {
        if is_initialized(dir) {
            return vec![dir.to_path_buf()];
        }
        let callers = self.callers.get_or_init(|| self.call_index());
        let mut found = BTreeSet::new();
        let mut seen = BTreeSet::from([dir.to_path_buf()]);
        let mut pending: Vec<&PathBuf> = callers.get(dir).into_iter().flatten().collect();
        while let Some(caller) = pending.pop() {
            if !seen.insert(caller.clone()) {
                continue;
            }
            if is_initialized(caller) {
                found.insert(caller.clone());
            } else {
                pending.extend(callers.get(caller).into_iter().flatten());
            }
        }
        if !found.is_empty() {
            return found.into_iter().collect();
        }
        dir.ancestors()
            .skip(1)
            .find(|above| is_initialized(above))
            .map(|above| vec![above.to_path_buf()])
            .unwrap_or_default()
    }

    /// Who calls whom among the run's directories, by their module blocks'
    /// local sources (parsed only, not analysed).
    fn call_index(&self) -> HashMap<PathBuf, BTreeSet<PathBuf>> {
        let mut callers: HashMap<PathBuf, BTreeSet<PathBuf>> = HashMap::new();
        for dir in &self.run_dirs {
            let Ok(files) = tofu_vfs::read_module_dir(dir) else {
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
    fn read_at(&self, root: &Path, address: &ProviderAddress) -> Option<Arc<ProviderSchema>> {
        let key = (root.to_path_buf(), address.clone());
        let cell: ReadOnce = match self.read.lock() {
            Ok(mut read) => Arc::clone(read.entry(key).or_default()),
            Err(_) => return None,
        };
        cell.get_or_init(|| self.read_package(root, address))
            .clone()
    }

    /// Reads the schema of `address` from the package installed for `root`.
    fn read_package(&self, root: &Path, address: &ProviderAddress) -> Option<Arc<ProviderSchema>> {
        let locked: Option<LockedProvider> =
            std::fs::read_to_string(root.join(".terraform.lock.hcl"))
                .ok()
                .and_then(|text| {
                    parse_lock_file(&text)
                        .into_iter()
                        .find(|entry| entry.address == *address)
                });
        let search = SearchDirs {
            init_dirs: vec![root.join(".terraform").join("providers")],
            plugin_cache_dir: self.options.plugin_cache_dir.clone(),
            mirror_dirs: self.options.mirror_dirs.clone(),
        };
        let request = SchemaRequest {
            address,
            search: &search,
            platform: &self.platform,
            locked: locked.as_ref(),
            accepts: &|_| true,
            cache: self.cache.as_ref(),
            run_providers: self.options.run_providers,
            socket_dir: None,
            timeouts: self.options.timeouts,
        };
        match read_provider_schema(&request) {
            Ok(loaded) => {
                if let Some(error) = &loaded.cache_store_error {
                    self.problem(format!(
                        "{address}: the schema could not be cached: {error}"
                    ));
                }
                Some(Arc::new(loaded.schema))
            }
            Err(error) => {
                tracing::debug!(%address, root = %root.display(), %error, "no provider schema");
                self.problem(format!("{address} (for {}): {error}", root.display()));
                None
            }
        }
    }
}

type ReadOnce = Arc<OnceLock<Option<Arc<ProviderSchema>>>>;

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

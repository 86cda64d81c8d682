//! The environment a directory's analysis evaluates in when its providers
//! may run: its files ([`DirectoryFiles`]) and its providers' functions,
//! called as `tofu validate` calls them (`CallFunction`, every argument
//! known) through [`ProviderValidators`]'s pool, so that one process per
//! provider serves a run's calls and an answer is reused.
//!
//! Only a package that may run is called: the caller gives the packages
//! ([`SchemaSource::runnable_for`], the same trust gate as schemas and
//! validators: providers may run here and the root's lock file vouches for
//! the package). A provider that cannot answer (it does not start,
//! crashes, hangs past its deadline) costs one warning for the directory's
//! analysis and leaves its functions' results unknown.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tofu_eval::{DirEntry, Environment, FileError, FunctionError, ProviderFunction, Value};
use tofu_schema::RunnableProvider;

use super::validators::ProviderValidators;
use super::{DirSchemas, SchemaSource};
use crate::DirectoryFiles;
use tofu_module::provider_schemas::ProviderSchemas;

/// A directory's files and its providers' functions.
pub struct FilesAndFunctions {
    files: DirectoryFiles,
    validators: Arc<ProviderValidators>,
    /// The packages that may run, by provider address as OpenTofu writes
    /// it, with the root that installed each.
    packages: HashMap<String, (PathBuf, RunnableProvider)>,
    /// Keys the processes (`None`: each provider's root).
    workspace: Option<PathBuf>,
    /// Providers that could not answer: not tried again.
    given_up: Mutex<BTreeSet<String>>,
}

impl FilesAndFunctions {
    /// `dir`'s files and the functions of those of `schemas`' providers
    /// that declare functions and may run there (`source`'s trust gate),
    /// called through `validators`; `None` when none may.
    pub fn for_dir(
        dir: &Path,
        dir_schemas: &DirSchemas,
        schemas: &ProviderSchemas,
        source: &SchemaSource,
        validators: &Arc<ProviderValidators>,
    ) -> Option<FilesAndFunctions> {
        let packages: Vec<_> = schemas
            .iter()
            .filter(|(_, schema)| !schema.functions.is_empty())
            .filter_map(|(address, _)| {
                let runnable = source.runnable_for(dir, dir_schemas, address)?;
                Some((address.to_string(), runnable))
            })
            .collect();
        if packages.is_empty() {
            return None;
        }
        Some(FilesAndFunctions::new(
            DirectoryFiles::new(dir.to_path_buf()),
            Arc::clone(validators),
            packages,
            None,
        ))
    }

    pub fn new(
        files: DirectoryFiles,
        validators: Arc<ProviderValidators>,
        packages: impl IntoIterator<Item = (String, (PathBuf, RunnableProvider))>,
        workspace: Option<&Path>,
    ) -> FilesAndFunctions {
        FilesAndFunctions {
            files,
            validators,
            packages: packages.into_iter().collect(),
            workspace: workspace.map(Path::to_path_buf),
            given_up: Mutex::new(BTreeSet::new()),
        }
    }
}

impl Environment for FilesAndFunctions {
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
        let (root, provider) = self.packages.get(&function.provider)?;
        if self
            .given_up
            .lock()
            .ok()
            .is_none_or(|given_up| given_up.contains(&function.provider))
        {
            return None;
        }
        let workspace = self.workspace.as_deref().unwrap_or(root);
        match self
            .validators
            .call_function(workspace, provider, function, arguments)
        {
            Ok(answer) => Some(answer),
            Err(problem) => {
                tracing::warn!(
                    "{}: its functions were not called (their results are unknown): {problem}",
                    function.provider
                );
                if let Ok(mut given_up) = self.given_up.lock() {
                    given_up.insert(function.provider.clone());
                }
                None
            }
        }
    }
}

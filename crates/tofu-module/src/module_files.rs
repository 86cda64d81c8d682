//! The files of a module directory that functions read (`file`,
//! `fileexists`, `templatefile`, …), as the caller hands them in: the
//! engine never reads the disk. [`ModuleFiles`] wraps the caller's
//! `tofu_eval::Environment` (tofu-vfs reads a directory: `check` anywhere,
//! the language server inside the directory's confinement root), or none,
//! in which case every read gives an unknown value and the evaluation rule
//! stays silent on files.
//!
//! Two `ModuleFiles` are the same input only when they share one
//! environment (the same `Arc`): what a function read is not recorded, so
//! an analysis given other files is done whole, never in part.

use std::fmt;
use std::sync::Arc;

use tofu_eval::{Environment, NoFiles};

/// The module directory's files as functions read them.
#[derive(Clone, Default)]
pub struct ModuleFiles {
    environment: Option<Arc<dyn Environment + Send + Sync>>,
}

impl ModuleFiles {
    /// No files: every read is unknown.
    pub fn none() -> ModuleFiles {
        ModuleFiles::default()
    }

    /// Files read through `environment`, relative to the directory
    /// OpenTofu would run in (the module directory).
    pub fn new(environment: Arc<dyn Environment + Send + Sync>) -> ModuleFiles {
        ModuleFiles {
            environment: Some(environment),
        }
    }

    /// What functions read files through.
    pub fn environment(&self) -> &dyn Environment {
        match &self.environment {
            Some(environment) => environment.as_ref(),
            None => &NoFiles,
        }
    }
}

impl PartialEq for ModuleFiles {
    fn eq(&self, other: &ModuleFiles) -> bool {
        match (&self.environment, &other.environment) {
            (None, None) => true,
            (Some(mine), Some(theirs)) => std::ptr::eq(
                Arc::as_ptr(mine).cast::<()>(),
                Arc::as_ptr(theirs).cast::<()>(),
            ),
            _ => false,
        }
    }
}

impl fmt::Debug for ModuleFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.environment.is_some() {
            "ModuleFiles(given)"
        } else {
            "ModuleFiles(none)"
        })
    }
}

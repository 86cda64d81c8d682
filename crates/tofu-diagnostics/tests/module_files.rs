//! Functions read files through the `ModuleFiles` the caller gives the
//! analysis; an analysis given other files, with the cache of one that
//! had none, evaluates again (what a function read is not recorded, so
//! nothing is kept).

use std::sync::Arc;

use tofu_diagnostics::{analyze_with_files, AnalysisCache, ModuleAnalysis};
use tofu_eval::{Environment, FileError};
use tofu_module::calls::CalledModules;
use tofu_module::provider_schemas::ProviderSchemas;
use tofu_module::{Config, InputFile, ModuleFiles};

/// A directory holding only `present.txt`.
struct OneFile;

impl Environment for OneFile {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, FileError> {
        match path {
            "present.txt" => Ok(b"hello".to_vec()),
            _ => Err(FileError::NotFound),
        }
    }

    fn file_exists(&self, path: &str) -> Result<bool, FileError> {
        Ok(path == "present.txt")
    }
}

fn analysed(module_files: &ModuleFiles, cache: &mut AnalysisCache) -> ModuleAnalysis {
    let inputs = [InputFile::text(
        "main.tf",
        "locals {\n  here = file(\"present.txt\")\n  gone = file(\"gone.txt\")\n}\noutput \"both\" {\n  value = [local.here, local.gone]\n}\n",
    )];
    analyze_with_files(
        &inputs,
        &Config::default(),
        &CalledModules::default(),
        &ProviderSchemas::default(),
        module_files,
        cache,
    )
}

/// Each diagnostic's summary and where its subject starts.
fn found(analysis: &ModuleAnalysis) -> Vec<(String, Option<u32>)> {
    analysis
        .diagnostics
        .iter()
        .map(|found| {
            (
                found.summary.clone(),
                found.subject.range.map(|range| range.start),
            )
        })
        .collect()
}

#[test]
fn a_missing_file_is_reported_once_files_are_given() {
    let mut cache = AnalysisCache::new();
    assert_eq!(found(&analysed(&ModuleFiles::none(), &mut cache)), []);
    let given = ModuleFiles::new(Arc::new(OneFile));
    let expected = vec![("Invalid function argument".to_owned(), Some(53))];
    assert_eq!(found(&analysed(&given, &mut cache)), expected);
    assert_eq!(found(&analysed(&given, &mut cache)), expected);
    assert_eq!(found(&analysed(&ModuleFiles::none(), &mut cache)), []);
}

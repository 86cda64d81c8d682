//! Rename on real modules: in 20 corpus module directories (the first, in
//! path order, that declare variables), every variable is renamed through
//! `Snapshot::rename`, one after the other, then renamed back. After the
//! first pass the module must have exactly the diagnostics it had before
//! (no reference left behind, no duplicate made); after the second, every
//! file must be byte for byte what it was.
//!
//! The corpus is read, never written: the files are renamed in memory. The
//! test skips, saying so, when `../shared/corpus` is not beside the
//! repository.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;

use common::{module_dirs, variables};
use tofu_ide::{AnalysisHost, Change};
use tofu_module::{Config, FileContent, InputFile};

const MODULES: usize = 20;
const SUFFIX: &str = "_renamed_tl";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/terraform-aws-components")
}

struct Module {
    dir: PathBuf,
    files: BTreeMap<String, String>,
    host: AnalysisHost,
}

impl Module {
    fn new(dir: PathBuf, files: BTreeMap<String, String>) -> Module {
        let mut module = Module {
            dir,
            files,
            host: AnalysisHost::new(Config::default()),
        };
        module.reload();
        module
    }

    fn reload(&mut self) {
        let files = self
            .files
            .iter()
            .map(|(name, text)| InputFile {
                name: name.clone(),
                content: FileContent::Text(text.as_str().into()),
            })
            .collect();
        self.host.apply_change(Change::DiskDir {
            dir: self.dir.clone(),
            files,
        });
        self.host.analyze_now(&self.dir);
    }

    /// Every diagnostic as (file, code, summary), sorted.
    fn diagnostics(&self) -> Vec<(String, String, String)> {
        let mut all: Vec<(String, String, String)> = self
            .host
            .snapshot()
            .module_diagnostics(&self.dir)
            .into_iter()
            .flat_map(|file| {
                let name = file
                    .path
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                file.diagnostics
                    .iter()
                    // A summary may name the variable (`unused-declaration`):
                    // compared without the rename's suffix.
                    .map(|d| {
                        (
                            name.clone(),
                            d.code.as_str().to_owned(),
                            d.summary.replace(SUFFIX, ""),
                        )
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        all.sort();
        all
    }

    /// Renames the variable declared in `file` at `offset` to `new_name`,
    /// applying the edits to the files. `Err` is the engine's refusal.
    fn rename(&mut self, file: &str, offset: u32, new_name: &str) -> Result<usize, String> {
        let path = self.dir.join(file);
        let edits = self.host.snapshot().rename(&path, offset, new_name)?;
        let mut by_file: BTreeMap<String, Vec<(u32, u32, String)>> = BTreeMap::new();
        for edit in &edits {
            let name = edit
                .location
                .path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            by_file.entry(name).or_default().push((
                edit.location.range.start,
                edit.location.range.end,
                edit.new_text.clone(),
            ));
        }
        for (name, mut file_edits) in by_file {
            file_edits.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
            let text = self
                .files
                .get_mut(&name)
                .expect("an edit in a file of the module");
            for (start, end, new_text) in file_edits {
                text.replace_range(start as usize..end as usize, &new_text);
            }
        }
        self.reload();
        Ok(edits.len())
    }
}

#[test]
fn renaming_every_variable_and_back_restores_every_byte() {
    let root = corpus();
    if !root.is_dir() {
        eprintln!("skipped: {} is missing", root.display());
        return;
    }
    let mut dirs = BTreeMap::new();
    module_dirs(&root, &mut dirs);
    let chosen: Vec<_> = dirs
        .into_iter()
        .filter(|(_, files)| !variables(files).is_empty())
        .take(MODULES)
        .collect();
    assert_eq!(
        chosen.len(),
        MODULES,
        "not enough corpus modules with variables"
    );
    let mut renamed_total = 0;
    let mut edits_total = 0;
    for (dir, original) in chosen {
        let mut module = Module::new(dir.clone(), original.clone());
        let before = module.diagnostics();
        let names: Vec<String> = variables(&original)
            .into_iter()
            .map(|(_, name, _)| name)
            .collect();
        // Forward: each variable gets the suffix, found again in the
        // current text (earlier renames moved offsets).
        let mut renamed = Vec::new();
        for name in &names {
            let Some((file, _, offset)) = variables(&module.files)
                .into_iter()
                .find(|(_, current, _)| current == name)
            else {
                continue;
            };
            let new_name = format!("{name}{SUFFIX}");
            match module.rename(&file, offset, &new_name) {
                Ok(n) => {
                    edits_total += n;
                    renamed.push(name.clone());
                }
                Err(refusal) => panic!("{}: renaming {name} was refused: {refusal}", dir.display()),
            }
        }
        assert_eq!(
            module.diagnostics(),
            before,
            "{}: the renamed module has other diagnostics",
            dir.display()
        );
        // Back.
        for name in &renamed {
            let new_name = format!("{name}{SUFFIX}");
            let (file, _, offset) = variables(&module.files)
                .into_iter()
                .find(|(_, current, _)| *current == new_name)
                .expect("the renamed variable is declared");
            module
                .rename(&file, offset, name)
                .unwrap_or_else(|refusal| panic!("renaming {new_name} back: {refusal}"));
        }
        for (name, text) in &original {
            assert!(
                module.files.get(name) == Some(text),
                "{}/{name} differs after renaming back",
                dir.display()
            );
        }
        renamed_total += renamed.len();
    }
    assert!(
        renamed_total >= MODULES,
        "only {renamed_total} variables renamed"
    );
    eprintln!(
        "renamed {renamed_total} variables ({edits_total} edits) in {MODULES} modules and back"
    );
}

//! Rename across the module boundary on real code: the corpus repositories
//! whose examples and wrappers call their modules with local paths
//! (`terraform-aws-vpc`'s `examples/*` call `../../`, `terraform-aws-components`
//! calls its shared modules with `../`) are loaded whole into one host; in
//! 20 called module directories (those of `terraform-aws-vpc` first, then in
//! path order), every variable is renamed through `Snapshot::rename`, which
//! also renames the callers' arguments, then renamed back. After the first
//! pass every directory of the workspace must have exactly the diagnostics it
//! had before (no argument left behind in a caller, nothing made undeclared);
//! after the second, every file must be byte for byte what it was.
//!
//! The corpus is read, never written: the files are renamed in memory. The
//! test skips, saying so, when `../shared/corpus` is not beside the
//! repository.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stderr,
    clippy::indexing_slicing
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

mod common;

use common::{module_dirs, variables};
use tofu_ide::{AnalysisHost, Change};
use tofu_module::{Config, FileContent, InputFile};

const CHILDREN: usize = 20;
const SUFFIX: &str = "_renamed_tl";
const REPOSITORIES: [&str; 2] = ["terraform-aws-vpc", "terraform-aws-components"];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The directories `files` of `dir` call with a local source.
fn called_dirs(dir: &Path, files: &BTreeMap<String, String>) -> Vec<PathBuf> {
    let mut called = Vec::new();
    for (name, text) in files {
        let parsed = tofu_syntax::parse(name, text);
        for block in parsed.body.blocks_of_kind("module") {
            let Some(source) = block.body.attribute("source") else {
                continue;
            };
            if let tofu_syntax::ExprKind::String(value) = &source.expr.kind {
                if value.starts_with("./") || value.starts_with("../") {
                    called.push(normalize(&dir.join(value)));
                }
            }
        }
    }
    called
}

struct Workspace {
    dirs: BTreeMap<PathBuf, BTreeMap<String, String>>,
    host: AnalysisHost,
}

impl Workspace {
    fn new(dirs: BTreeMap<PathBuf, BTreeMap<String, String>>) -> Workspace {
        let mut workspace = Workspace {
            host: AnalysisHost::new(Config::default()),
            dirs,
        };
        let all: Vec<PathBuf> = workspace.dirs.keys().cloned().collect();
        workspace.reload(&all);
        workspace
    }

    fn reload(&mut self, dirs: &[PathBuf]) {
        for dir in dirs {
            let files = self.dirs[dir]
                .iter()
                .map(|(name, text)| InputFile {
                    name: name.clone(),
                    content: FileContent::Text(text.as_str().into()),
                })
                .collect();
            self.host.apply_change(Change::DiskDir {
                dir: dir.clone(),
                files,
            });
        }
        for dir in dirs {
            self.host.analyze_now_with_callers(dir);
        }
    }

    /// Every diagnostic of the workspace as (file, code, summary), sorted.
    fn diagnostics(&self) -> Vec<(PathBuf, String, String)> {
        let analysis = self.host.snapshot();
        let mut all: Vec<(PathBuf, String, String)> = self
            .dirs
            .keys()
            .flat_map(|dir| analysis.module_diagnostics(dir))
            .flat_map(|file| {
                file.diagnostics
                    .iter()
                    // A summary may name the variable: compared without
                    // the rename's suffix.
                    .map(|d| {
                        (
                            file.path.clone(),
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

    /// Renames the variable declared at `offset` of `path`, applying the
    /// edits wherever they are; the number of edits outside `path`'s
    /// directory. `Err` is the engine's refusal.
    fn rename(&mut self, path: &Path, offset: u32, new_name: &str) -> Result<usize, String> {
        let edits = self.host.snapshot().rename(path, offset, new_name)?;
        let mut by_file: BTreeMap<PathBuf, Vec<(u32, u32, String)>> = BTreeMap::new();
        for edit in &edits {
            by_file
                .entry(edit.location.path.clone())
                .or_default()
                .push((
                    edit.location.range.start,
                    edit.location.range.end,
                    edit.new_text.clone(),
                ));
        }
        let own_dir = path.parent().unwrap();
        let mut in_callers = 0;
        let mut touched = BTreeSet::new();
        for (file, mut file_edits) in by_file {
            let dir = file.parent().unwrap().to_path_buf();
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            if dir != own_dir {
                in_callers += file_edits.len();
            }
            file_edits.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
            let text = self
                .dirs
                .get_mut(&dir)
                .and_then(|files| files.get_mut(&name))
                .expect("an edit in a file of the workspace");
            for (start, end, new_text) in file_edits {
                text.replace_range(start as usize..end as usize, &new_text);
            }
            touched.insert(dir);
        }
        let touched: Vec<PathBuf> = touched.into_iter().collect();
        self.reload(&touched);
        Ok(in_callers)
    }
}

#[test]
fn renaming_every_variable_of_called_modules_and_back_restores_every_byte() {
    let corpus = corpus();
    if !corpus.is_dir() {
        eprintln!("skipped: {} is missing", corpus.display());
        return;
    }
    let corpus = fs::canonicalize(corpus).unwrap();
    let mut dirs = BTreeMap::new();
    let mut order = Vec::new();
    for repository in REPOSITORIES {
        let mut found = BTreeMap::new();
        module_dirs(&corpus.join(repository), &mut found);
        let mut called: BTreeSet<PathBuf> = BTreeSet::new();
        for (dir, files) in &found {
            called.extend(called_dirs(dir, files));
        }
        order.extend(called.into_iter().filter(|dir| {
            found
                .get(dir)
                .is_some_and(|files| !variables(files).is_empty())
        }));
        dirs.extend(found);
    }
    let children: Vec<PathBuf> = order.into_iter().take(CHILDREN).collect();
    assert_eq!(
        children.len(),
        CHILDREN,
        "not enough called modules with variables"
    );
    let original = dirs.clone();
    let mut workspace = Workspace::new(dirs);
    let before = workspace.diagnostics();
    let mut renamed_total = 0;
    let mut caller_edits = 0;
    for child in &children {
        let names: Vec<String> = variables(&workspace.dirs[child])
            .into_iter()
            .map(|(_, name, _)| name)
            .collect();
        // Forward: each variable gets the suffix, found again in the
        // current text (earlier renames moved offsets).
        let mut renamed = Vec::new();
        for name in &names {
            let Some((file, _, offset)) = variables(&workspace.dirs[child])
                .into_iter()
                .find(|(_, current, _)| current == name)
            else {
                continue;
            };
            let new_name = format!("{name}{SUFFIX}");
            match workspace.rename(&child.join(&file), offset, &new_name) {
                Ok(n) => {
                    caller_edits += n;
                    renamed.push(name.clone());
                }
                Err(refusal) => panic!(
                    "{}: renaming {name} was refused: {refusal}",
                    child.display()
                ),
            }
        }
        renamed_total += renamed.len();
        assert_eq!(
            workspace.diagnostics(),
            before,
            "{}: after renaming its variables, the workspace has other diagnostics",
            child.display()
        );
        // Back.
        for name in &renamed {
            let new_name = format!("{name}{SUFFIX}");
            let (file, _, offset) = variables(&workspace.dirs[child])
                .into_iter()
                .find(|(_, current, _)| *current == new_name)
                .expect("the renamed variable is declared");
            workspace
                .rename(&child.join(&file), offset, name)
                .unwrap_or_else(|refusal| panic!("renaming {new_name} back: {refusal}"));
        }
    }
    // Every name is back: the diagnostics are those of the start, and every
    // byte is.
    assert_eq!(workspace.diagnostics(), before);
    for (dir, files) in &original {
        for (name, text) in files {
            assert!(
                workspace.dirs[dir].get(name) == Some(text),
                "{}/{name} differs after renaming back",
                dir.display()
            );
        }
    }
    assert!(
        caller_edits > 100,
        "only {caller_edits} edits in callers: the renames stayed inside the modules"
    );
    eprintln!(
        "renamed {renamed_total} variables of {CHILDREN} called modules and back ({caller_edits} edits in callers each way)"
    );
}

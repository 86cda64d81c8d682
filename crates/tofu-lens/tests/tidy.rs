//! Tidy checks that keep the code base in the shape ARCHITECTURE.md describes:
//! every Rust module opens with a `//!` paragraph, no ignored or should-panic tests,
//! no trailing whitespace, and the dependency invariants between crates hold.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_opens_with_a_doc_paragraph_and_is_tidy() {
    let mut files = Vec::new();
    rust_files(&repo().join("crates"), &mut files);
    assert!(files.len() > 10);
    let mut problems = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let name = file
            .strip_prefix(repo())
            .unwrap_or(&file)
            .display()
            .to_string();
        if !text.starts_with("//!") {
            problems.push(format!("{name}: does not open with a //! module doc"));
        }
        let ignore_attr = ["#[", "ignore]"].concat();
        let should_panic_attr = ["#[", "should_panic"].concat();
        if text.contains(&ignore_attr) || text.contains(&should_panic_attr) {
            problems.push(format!("{name}: has an ignored or should-panic test"));
        }
        for (number, line) in text.lines().enumerate() {
            if line.ends_with(' ') || line.ends_with('\t') {
                problems.push(format!("{name}:{}: trailing whitespace", number + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Only the LSP crate and the binary may depend on tokio or tower-lsp-server;
/// the engine crates depend only on crates to their left.
#[test]
fn crate_dependency_invariants_hold() {
    let engine = [
        "tofu-syntax",
        "tofu-fmt",
        "tofu-eval",
        "tofu-schema",
        "tofu-module",
        "tofu-vfs",
        "tofu-ide",
    ];
    for name in engine {
        let manifest =
            fs::read_to_string(repo().join("crates").join(name).join("Cargo.toml")).unwrap();
        for forbidden in [
            "tokio",
            "tower-lsp-server",
            "serde",
            "tofu-lsp",
            "tofu-lens",
        ] {
            let dependencies = manifest
                .split("[dev-dependencies]")
                .next()
                .unwrap_or_default();
            assert!(
                !dependencies
                    .lines()
                    .any(|line| line.starts_with(&format!("{forbidden} "))
                        || line.starts_with(&format!("{forbidden}."))),
                "{name} must not depend on {forbidden}"
            );
        }
    }
}

/// ARCHITECTURE.md's code map as a rule: each workspace crate depends only on
/// workspace crates to its left in this order (dev-dependencies included:
/// a test must not reach rightwards either).
#[test]
fn workspace_crates_depend_only_leftward() {
    let order = [
        "tofu-syntax",
        "tofu-fmt",
        "tofu-eval",
        "tofu-schema",
        "tofu-module",
        "tofu-vfs",
        "tofu-ide",
        "tofu-lsp",
        "tofu-lens",
        "tofu-bench",
    ];
    let mut problems = Vec::new();
    for (position, name) in order.iter().enumerate() {
        let manifest =
            fs::read_to_string(repo().join("crates").join(name).join("Cargo.toml")).unwrap();
        let mut in_dependencies = false;
        for line in manifest.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                in_dependencies = line.contains("dependencies");
                continue;
            }
            if !in_dependencies {
                continue;
            }
            let dependency = line.split(['=', '.', ' ']).next().unwrap_or_default();
            let Some(index) = order
                .iter()
                .position(|crate_name| *crate_name == dependency)
            else {
                assert!(
                    !dependency.starts_with("tofu-"),
                    "{name} depends on {dependency}, which is not in the code map"
                );
                continue;
            };
            if index >= position {
                problems.push(format!(
                    "{name} depends on {dependency}, which is not to its left"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The top-level modules of `tofu-module` form layers: no module imports,
/// directly or through others, a module that imports it. (Doc links are not
/// imports; comment lines are skipped.)
#[test]
fn modules_of_tofu_module_import_each_other_without_circles() {
    use std::collections::{BTreeMap, BTreeSet};
    let src = repo().join("crates/tofu-module/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap();
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if module == "lib" {
            continue;
        }
        let code: String = fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let edges = imports.entry(module.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                group
                    .split(',')
                    .map(|item| item.trim().split("::").next().unwrap_or_default())
                    .collect()
            } else {
                vec![rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default()]
            };
            for name in names {
                if !name.is_empty() && name != module {
                    edges.insert(name.to_owned());
                }
            }
        }
    }
    assert!(imports.len() > 10, "{imports:?}");
    // Depth-first search for a path back to where it started.
    fn path_back(
        imports: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        at: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in imports.get(at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if imports.contains_key(next) && seen.insert(next.clone()) {
                path.push(next.clone());
                if path_back(imports, start, next, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut circles = Vec::new();
    for module in imports.keys() {
        let mut path = vec![module.clone()];
        if path_back(&imports, module, module, &mut path, &mut BTreeSet::new()) {
            path.push(module.clone());
            circles.push(path.join(" → "));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

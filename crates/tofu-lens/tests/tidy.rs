//! Tidy checks that keep the code base in the shape ARCHITECTURE.md describes:
//! every Rust module opens with a `//!` paragraph, no ignored or should-panic tests,
//! no trailing whitespace, and the dependency invariants between crates hold.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod import_circles;

use std::fs;
use std::path::{Path, PathBuf};

use import_circles::{import_circles, CrateSources};

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
        "tofu-diagnostics",
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
            // The network is tofu-fetch's alone (SECURITY.md).
            "ureq",
            "tofu-fetch",
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
        "tofu-diagnostics",
        "tofu-vfs",
        "tofu-fetch",
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

/// The Rust files of the crate in `crate_dir`, by path relative to it.
fn crate_sources(crate_dir: &Path) -> CrateSources {
    let mut files = Vec::new();
    for part in ["src", "tests", "benches", "examples"] {
        if crate_dir.join(part).is_dir() {
            rust_files(&crate_dir.join(part), &mut files);
        }
    }
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(crate_dir).unwrap();
            let relative: Vec<String> = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            (relative.join("/"), fs::read_to_string(&file).unwrap())
        })
        .collect()
}

/// The files of each crate form layers: no file imports, directly or
/// through others, a file that imports it (`crate::`, `super::`, `self::`
/// and child-module paths; see `import_circles`).
#[test]
fn files_of_every_crate_import_each_other_without_circles() {
    let mut crate_dirs: Vec<PathBuf> = fs::read_dir(repo().join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .collect();
    crate_dirs.sort();
    assert!(crate_dirs.len() >= 8, "{crate_dirs:?}");
    let mut problems = Vec::new();
    for crate_dir in crate_dirs {
        let name = crate_dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let sources = crate_sources(&crate_dir);
        assert!(sources.contains_key("src/lib.rs") || sources.contains_key("src/main.rs"));
        let circles = import_circles(&sources);
        problems.extend(circles.iter().map(|circle| format!("{name}: {circle}")));
    }
    assert!(
        problems.is_empty(),
        "import circles:\n{}",
        problems.join("\n")
    );
}

fn sources(files: &[(&str, &str)]) -> CrateSources {
    files
        .iter()
        .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()))
        .collect()
}

fn circles_of(files: &[(&str, &str)]) -> Vec<String> {
    import_circles(&sources(files))
        .iter()
        .flat_map(|circle| circle.circles.iter().map(|files| files.join(" → ")))
        .collect()
}

#[test]
fn a_circle_through_super_is_found() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod rules;"),
        ("src/rules.rs", "mod providers;"),
        ("src/rules/providers.rs", "mod expr_view;\nmod references;"),
        (
            "src/rules/providers/expr_view.rs",
            "use super::references::Reference;\npub struct View;",
        ),
        (
            "src/rules/providers/references.rs",
            "pub struct Reference;\nfn f() -> super::expr_view::View { todo!() }",
        ),
    ]);
    assert_eq!(
        circles,
        ["src/rules/providers/expr_view.rs → src/rules/providers/references.rs → src/rules/providers/expr_view.rs"]
    );
}

#[test]
fn circles_are_found_through_grouped_use_trees_and_parents() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;"),
        ("src/a.rs", "use crate::{c::C, b::{self, B}};"),
        (
            "src/b.rs",
            "mod child;\npub struct B;\nfn f() { child::g() }",
        ),
        ("src/b/child.rs", "use super::super::a;"),
        ("src/c.rs", "pub struct C;"),
    ]);
    assert_eq!(circles, ["src/a.rs → src/b.rs → src/b/child.rs → src/a.rs"]);
}

/// A name imported through another file's re-export imports that file
/// too: the circle `calls.rs → interface.rs → provider_tree.rs → calls.rs`
/// of tofu-module ran through `provider_tree.rs`'s `pub use
/// summary::ProviderSummary`, and went unseen while re-exports led only to
/// where the name comes from.
#[test]
fn a_circle_through_a_re_export_is_found() {
    let circles = circles_of(&[
        (
            "src/lib.rs",
            "mod calls;\nmod interface;\nmod provider_tree;",
        ),
        (
            "src/calls.rs",
            "use crate::interface::ModuleInterface;\npub fn local_source() {}",
        ),
        (
            "src/interface.rs",
            "use crate::provider_tree::ProviderSummary;\npub struct ModuleInterface;",
        ),
        (
            "src/provider_tree.rs",
            "mod summary;\npub use summary::ProviderSummary;\nuse crate::calls::local_source;",
        ),
        (
            "src/provider_tree/summary.rs",
            "pub struct ProviderSummary;",
        ),
    ]);
    assert_eq!(
        circles,
        ["src/calls.rs → src/interface.rs → src/provider_tree.rs → src/calls.rs"]
    );
}

/// Declaring a child is not importing it; comments, doc links and strings
/// are not imports; a name re-exported by the crate root leads to where it
/// comes from; a test module's `use super::*` is the file itself.
#[test]
fn what_is_not_an_import_makes_no_circle() {
    let circles = circles_of(&[
        (
            "src/lib.rs",
            "//! See [`crate::b`].\nmod a;\nmod b;\npub use b::Thing;\n",
        ),
        (
            "src/a.rs",
            "/// Uses [`crate::b::Thing`].\nuse crate::Thing;\nconst S: &str = \"crate::b\";",
        ),
        (
            "src/b.rs",
            "pub struct Thing;\n// crate::a::x\n/* crate::a */\nconst R: &str = r#\"crate::a\"#;\n\
             fn f<'a>(x: &'a str) -> char { '{' }\n#[cfg(test)]\nmod tests { use super::*; }",
        ),
    ]);
    assert!(circles.is_empty(), "{circles:?}");
    let circles = circles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\npub use b::Thing;\n"),
        ("src/a.rs", "pub struct A;\nuse crate::Thing;"),
        ("src/b.rs", "pub struct Thing;\nuse crate::a::A;"),
    ]);
    assert_eq!(circles, ["src/a.rs → src/b.rs → src/a.rs"]);
}

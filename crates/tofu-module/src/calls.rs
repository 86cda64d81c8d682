//! Module calls: which directory a `module` block reads, and the tree the
//! calls of many directories make. This is the one place that decides it;
//! `check` and the language server differ only in where they read a
//! directory's calls and interface from (the disk, or the summaries of
//! their other directories).
//!
//! - [`ModuleManifest`]: `.terraform/modules/modules.json`, where `tofu init`
//!   records the directory of every module it installed, keyed by the
//!   call's path from the root (`vpc`, `vpc.endpoints`), and the source and
//!   version it installed it from.
//! - [`resolve_calls`]: a directory's calls with the directory each reads:
//!   a local source joined to the caller's directory, any other source
//!   through the manifest of the directory holding it (the direct calls of
//!   a root; a nested call's dotted key is only known from its root, and
//!   the called directory resolves its own local calls by path).
//! - [`called_modules`]: what one directory's analysis is given of the
//!   modules it calls ([`CalledModules`]), over a closure that looks a
//!   called directory up ([`CalledDir`]); a chain of calls back to the
//!   caller is a loop, never followed further than [`MAX_CALL_DEPTH`]; a
//!   local source whose directory the lookup found unreadable (it does not
//!   exist, or is no directory) is `CalledModules::unreadable`, where
//!   `tofu init` stops ("Unreadable module directory"), and only there: a
//!   directory that exists and holds no configuration file is an empty
//!   module, as OpenTofu loads it.
//! - [`resolve_test_runs`]: the `module` blocks of a directory's test
//!   files' runs (`run "NAME" { module { source = "./x" } }`), the module
//!   `tofu test` runs instead of the one under test, read as calls by a
//!   local path are; [`called_modules`] gives what each declares apart
//!   (`CalledModules::test_modules`), as a run is no call of the module:
//!   no loop runs through it.
//! - [`ModuleTree`]: the calls between directories as a graph with both
//!   directions indexed (children, callers, depth from a root), for a host
//!   that keeps many directories and must find a module's callers without
//!   looking at every directory.
//!
//! No IO: paths are joined and compared as text, never read or resolved
//! on disk.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::interface::ModuleInterface;
use crate::module_source::local_source;

/// How deep a chain of calls is followed looking for a loop.
pub const MAX_CALL_DEPTH: usize = 64;

/// Where `tofu init` records the directories of the modules it installed,
/// relative to the root module's directory.
pub const MODULE_MANIFEST: &str = ".terraform/modules/modules.json";

/// `path` with `.` and `..` components resolved lexically (a `..` at the
/// root stays at the root; the leading `..` of a relative path stay).
pub fn normalize_path(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(Component::ParentDir | Component::CurDir) | None => out.push(".."),
            },
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// What `tofu init` recorded in `.terraform/modules/modules.json`: the
/// directory of each installed module by its key (the call's path from the
/// root, `vpc`, `vpc.endpoints`; the root itself is `""`), with the source
/// and version it was installed from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleManifest {
    /// In the file's order; entries without a key or a directory are left
    /// out.
    entries: Vec<ManifestEntry>,
}

/// One installed module of a [`ModuleManifest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// `Key`: the call's path from the root (`vpc`, `vpc.endpoints`).
    pub key: String,
    /// `Dir`, as recorded.
    pub dir: String,
    /// `Source`, as OpenTofu normalised it
    /// (`registry.opentofu.org/terraform-aws-modules/vpc/aws`); empty when
    /// the entry has none.
    pub source: String,
    /// `Version`, for a module from a registry.
    pub version: Option<String>,
}

impl ModuleManifest {
    /// Reads a manifest's text; anything that is not JSON of that shape
    /// lists nothing.
    pub fn parse(text: &str) -> ModuleManifest {
        let Ok(Some(jsonc_parser::JsonValue::Object(root))) =
            jsonc_parser::parse_to_value(text, &jsonc_parser::ParseOptions::default())
        else {
            return ModuleManifest::default();
        };
        let Some(modules) = root.get_array("Modules") else {
            return ModuleManifest::default();
        };
        let entries = modules
            .iter()
            .filter_map(|entry| {
                let jsonc_parser::JsonValue::Object(entry) = entry else {
                    return None;
                };
                let key = entry.get_string("Key")?;
                let dir = entry.get_string("Dir")?;
                (!key.is_empty() && !dir.is_empty()).then(|| ManifestEntry {
                    key: key.to_string(),
                    dir: dir.to_string(),
                    source: entry
                        .get_string("Source")
                        .map(|source| source.to_string())
                        .unwrap_or_default(),
                    version: entry
                        .get_string("Version")
                        .filter(|version| !version.is_empty())
                        .map(|version| version.to_string()),
                })
            })
            .collect();
        ModuleManifest { entries }
    }

    /// The directory recorded for a call of the root named `name` (a direct
    /// call: a key without a dot), relative to the root, `/`-separated and
    /// without `.` components.
    pub fn direct_call_dir(&self, name: &str) -> Option<String> {
        if name.contains('.') {
            return None;
        }
        self.entries
            .iter()
            .find(|entry| entry.key == name)
            .map(|entry| slash_path(Path::new(&entry.dir)))
    }

    /// The direct calls it lists, `(Key, Dir)`.
    pub fn direct_calls(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries
            .iter()
            .filter(|entry| !entry.key.contains('.'))
            .map(|entry| (entry.key.as_str(), entry.dir.as_str()))
    }

    /// Every installed module it lists (the root's own entry left out), in
    /// the file's order.
    pub fn entries(&self) -> &[ManifestEntry] {
        &self.entries
    }
}

/// A relative path with `/` separators, `.` components left out.
fn slash_path(path: &Path) -> String {
    path.components()
        .filter(|part| !matches!(part, Component::CurDir))
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// A module call whose `source` is a plain string, with the directory it
/// reads when that is known.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ModuleCall {
    /// `module "NAME"`.
    pub name: String,
    /// The `source` as written.
    pub source: String,
    /// The called directory: the caller's directory joined with a local
    /// source, or with the directory the manifest records; normalised.
    pub dir: Option<PathBuf>,
    /// For a call `tofu init` installed, the directory it recorded,
    /// relative to the caller (`.terraform/modules/vpc`).
    pub installed: Option<String>,
    /// The `module` block of a test file's `run` named `name`
    /// ([`resolve_test_runs`]), not a `module` block of the configuration.
    pub test_run: bool,
}

/// The calls `(name, source)` of the directory `dir` with the directory
/// each reads; `manifest` is that directory's module manifest, if it has
/// one.
pub fn resolve_calls(
    dir: &Path,
    calls: &[(String, String)],
    manifest: Option<&ModuleManifest>,
) -> Vec<ModuleCall> {
    calls
        .iter()
        .map(|(name, source)| resolve_call(dir, name, source, manifest))
        .collect()
}

/// One call of [`resolve_calls`].
pub fn resolve_call(
    dir: &Path,
    name: &str,
    source: &str,
    manifest: Option<&ModuleManifest>,
) -> ModuleCall {
    let (called, installed) = match local_source(source) {
        Some(relative) => (Some(normalize_path(&dir.join(relative))), None),
        None => match manifest.and_then(|manifest| manifest.direct_call_dir(name)) {
            Some(installed) => (Some(normalize_path(&dir.join(&installed))), Some(installed)),
            None => (None, None),
        },
    };
    ModuleCall {
        name: name.to_owned(),
        source: source.to_owned(),
        dir: called,
        installed,
        test_run: false,
    }
}

/// The `module` blocks `(run name, source)` of the test files of the
/// directory `dir`, with the directory each reads: a local source joined
/// to `dir` (OpenTofu resolves a run's module from the module under test,
/// also for a file in `tests/`); any other source reads none here (`tofu
/// init` installs it under a key of the test file and run, which tofu-lens
/// does not read).
pub fn resolve_test_runs(dir: &Path, runs: &[(String, String)]) -> Vec<ModuleCall> {
    runs.iter()
        .map(|(name, source)| ModuleCall {
            name: name.clone(),
            source: source.clone(),
            dir: local_source(source).map(|relative| normalize_path(&dir.join(relative))),
            installed: None,
            test_run: true,
        })
        .collect()
}

/// What a directory's analysis is given of the modules it calls, by
/// `source` as written in the call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CalledModules {
    pub children: BTreeMap<String, Arc<ModuleInterface>>,
    /// Sources whose directory is the caller's, or calls back to it through
    /// other calls.
    pub loops: BTreeSet<String>,
    /// Sources that are no local path, by the directory `tofu init`
    /// installed them in, relative to the caller (`.terraform/modules/vpc`).
    pub installed: BTreeMap<String, String>,
    /// Local sources whose directory cannot be read: it does not exist, or
    /// is no directory. `tofu init` stops there ("Unreadable module
    /// directory"), so nothing else is said of such a call.
    pub unreadable: BTreeSet<String>,
    /// What the modules of test files' runs declare, by `source` as
    /// written in the run's `module` block: those whose directory was read
    /// and whose calls do not lead back to the caller's.
    pub test_modules: BTreeMap<String, Arc<ModuleInterface>>,
}

impl CalledModules {
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
            && self.loops.is_empty()
            && self.unreadable.is_empty()
            && self.test_modules.is_empty()
    }
}

/// What a lookup knows of a called directory.
#[derive(Clone, Debug, Default)]
pub struct CalledDir {
    /// What its callers may know of it; `None` when not (yet) known.
    pub interface: Option<Arc<ModuleInterface>>,
    /// The directories its own `module` blocks read (not its test runs':
    /// no loop runs through them).
    pub calls: Vec<PathBuf>,
    /// The directory cannot be read as one: it does not exist, or is no
    /// directory (a lookup that could not look, such as a path the caller
    /// may not read, answers `None` instead).
    pub unreadable: bool,
}

impl CalledDir {
    /// A directory that does not exist, or is no directory.
    pub fn unreadable() -> CalledDir {
        CalledDir {
            unreadable: true,
            ..CalledDir::default()
        }
    }
}

/// What the directory `dir` with these resolved calls is given of the
/// modules it calls: the interface of each called directory `lookup`
/// knows, and the sources whose directory leads back to `dir`. A test
/// run's module ([`ModuleCall::test_run`]) only gives its interface, when
/// its directory can be read and does not lead back to `dir`.
pub fn called_modules(
    dir: &Path,
    calls: &[ModuleCall],
    lookup: &dyn Fn(&Path) -> Option<CalledDir>,
) -> CalledModules {
    let mut called = CalledModules::default();
    for call in calls {
        let Some(child_dir) = &call.dir else {
            continue;
        };
        if call.test_run {
            if called.test_modules.contains_key(&call.source) || leads_to(child_dir, dir, lookup) {
                continue;
            }
            let interface = lookup(child_dir)
                .filter(|child| !child.unreadable)
                .and_then(|child| child.interface);
            if let Some(interface) = interface {
                called.test_modules.insert(call.source.clone(), interface);
            }
            continue;
        }
        if called.children.contains_key(&call.source)
            || called.loops.contains(&call.source)
            || called.unreadable.contains(&call.source)
        {
            continue;
        }
        let found = lookup(child_dir);
        if found.as_ref().is_some_and(|child| child.unreadable) {
            // Only a local path: an installed module whose directory is
            // gone is `tofu init`'s to install again, not this error.
            if call.installed.is_none() {
                called.unreadable.insert(call.source.clone());
            }
            continue;
        }
        if leads_to(child_dir, dir, lookup) {
            called.loops.insert(call.source.clone());
            continue;
        }
        let Some(interface) = found.and_then(|child| child.interface) else {
            continue;
        };
        called.children.insert(call.source.clone(), interface);
        if let Some(installed) = &call.installed {
            called
                .installed
                .entry(call.source.clone())
                .or_insert_with(|| installed.clone());
        }
    }
    called
}

/// True when `from`, or a directory its calls reach (at most
/// [`MAX_CALL_DEPTH`] calls away), is `target`.
fn leads_to(from: &Path, target: &Path, lookup: &dyn Fn(&Path) -> Option<CalledDir>) -> bool {
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    let mut level: Vec<PathBuf> = vec![from.to_path_buf()];
    for _ in 0..=MAX_CALL_DEPTH {
        let mut next = Vec::new();
        for dir in level {
            if dir == target {
                return true;
            }
            if !seen.insert(dir.clone()) {
                continue;
            }
            if let Some(child) = lookup(&dir) {
                next.extend(child.calls);
            }
        }
        if next.is_empty() {
            return false;
        }
        level = next;
    }
    false
}

/// The calls between module directories, indexed both ways: the
/// directories each one's calls read (its children) and those whose calls
/// read it (its callers). A host keeps one and updates a directory's
/// children after each analysis, so finding callers costs what they are,
/// not what the workspace is.
#[derive(Clone, Debug, Default)]
pub struct ModuleTree {
    children: HashMap<PathBuf, Vec<PathBuf>>,
    callers: HashMap<PathBuf, Vec<PathBuf>>,
}

impl ModuleTree {
    /// Records the directories `dir`'s calls read (replacing what it had);
    /// returns whether they changed.
    pub fn set_children(
        &mut self,
        dir: &Path,
        children: impl IntoIterator<Item = PathBuf>,
    ) -> bool {
        let mut children: Vec<PathBuf> = children.into_iter().collect();
        children.sort();
        children.dedup();
        if self.children.get(dir).map(Vec::as_slice) == Some(children.as_slice())
            || (children.is_empty() && !self.children.contains_key(dir))
        {
            return false;
        }
        self.remove(dir);
        for child in &children {
            let callers = self.callers.entry(child.clone()).or_default();
            if let Err(at) = callers.binary_search_by(|caller| caller.as_path().cmp(dir)) {
                callers.insert(at, dir.to_path_buf());
            }
        }
        if !children.is_empty() {
            self.children.insert(dir.to_path_buf(), children);
        }
        true
    }

    /// Forgets `dir`'s calls (its callers stay recorded with theirs).
    pub fn remove(&mut self, dir: &Path) {
        let Some(old) = self.children.remove(dir) else {
            return;
        };
        for child in old {
            if let Some(callers) = self.callers.get_mut(&child) {
                callers.retain(|caller| caller != dir);
                if callers.is_empty() {
                    self.callers.remove(&child);
                }
            }
        }
    }

    /// The directories `dir`'s calls read, sorted.
    pub fn children(&self, dir: &Path) -> &[PathBuf] {
        self.children.get(dir).map_or(&[], Vec::as_slice)
    }

    /// The directories whose calls read `dir`, sorted.
    pub fn callers(&self, dir: &Path) -> &[PathBuf] {
        self.callers.get(dir).map_or(&[], Vec::as_slice)
    }

    /// True when a directory's calls read `dir`.
    pub fn is_called(&self, dir: &Path) -> bool {
        self.callers.contains_key(dir)
    }

    /// Every directory that reaches `dir` through one call or more, `dir`
    /// itself left out, sorted.
    pub fn ancestors(&self, dir: &Path) -> Vec<PathBuf> {
        self.reach(dir, |at| self.callers(at))
    }

    /// Every directory `dir` reaches through one call or more, `dir` itself
    /// left out (also when a loop leads back to it), sorted.
    pub fn descendants(&self, dir: &Path) -> Vec<PathBuf> {
        self.reach(dir, |at| self.children(at))
    }

    fn reach<'a>(&'a self, dir: &Path, next: impl Fn(&Path) -> &'a [PathBuf]) -> Vec<PathBuf> {
        let mut found: BTreeSet<&PathBuf> = BTreeSet::new();
        let mut pending: Vec<&PathBuf> = next(dir).iter().collect();
        while let Some(at) = pending.pop() {
            if at.as_path() != dir && found.insert(at) {
                pending.extend(next(at));
            }
        }
        found.into_iter().cloned().collect()
    }

    /// How many calls `dir` is below the nearest directory no one calls (a
    /// root): 0 for a root, `None` when no root reaches it (a loop of calls
    /// with no way in).
    pub fn depth(&self, dir: &Path) -> Option<usize> {
        let mut seen: BTreeSet<&Path> = BTreeSet::new();
        let mut queue: VecDeque<(&Path, usize)> = VecDeque::from([(dir, 0)]);
        while let Some((at, depth)) = queue.pop_front() {
            if !seen.insert(at) {
                continue;
            }
            let callers = self.callers(at);
            if callers.is_empty() {
                return Some(depth);
            }
            queue.extend(callers.iter().map(|caller| (caller.as_path(), depth + 1)));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_lexically() {
        assert_eq!(
            normalize_path(Path::new("/w/examples/simple/../../")),
            Path::new("/w")
        );
        assert_eq!(normalize_path(Path::new("a/./b/../c")), Path::new("a/c"));
        assert_eq!(normalize_path(Path::new("../x")), Path::new("../x"));
        assert_eq!(normalize_path(Path::new("../../x")), Path::new("../../x"));
        assert_eq!(normalize_path(Path::new("./../..")), Path::new("../.."));
        assert_eq!(normalize_path(Path::new("a/../../b")), Path::new("../b"));
        assert_eq!(normalize_path(Path::new("/../x")), Path::new("/x"));
    }

    #[test]
    fn a_manifest_lists_the_directories_of_calls() {
        let manifest = ModuleManifest::parse(
            r#"{"Modules":[
            {"Key":"","Source":"","Dir":"."},
            {"Key":"vpc","Source":"registry.opentofu.org/terraform-aws-modules/vpc/aws","Version":"5.1.0","Dir":".terraform/modules/vpc"},
            {"Key":"vpc.endpoints","Source":"./modules/vpc-endpoints","Dir":".terraform/modules/vpc/modules/vpc-endpoints"},
            {"Key":"empty","Dir":""},
            {"Key":"bad"}
        ]}"#,
        );
        assert_eq!(
            manifest.direct_calls().collect::<Vec<_>>(),
            [("vpc", ".terraform/modules/vpc")]
        );
        assert_eq!(
            manifest.direct_call_dir("vpc").as_deref(),
            Some(".terraform/modules/vpc")
        );
        assert_eq!(manifest.direct_call_dir("vpc.endpoints"), None);
        assert_eq!(manifest.direct_call_dir("empty"), None);
        // What each was installed from, for completion of `source`.
        let sources: Vec<(&str, &str, Option<&str>)> = manifest
            .entries()
            .iter()
            .map(|entry| {
                (
                    entry.key.as_str(),
                    entry.source.as_str(),
                    entry.version.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            sources,
            [
                (
                    "vpc",
                    "registry.opentofu.org/terraform-aws-modules/vpc/aws",
                    Some("5.1.0")
                ),
                ("vpc.endpoints", "./modules/vpc-endpoints", None),
            ]
        );
        assert_eq!(ModuleManifest::parse("not json"), ModuleManifest::default());
        assert_eq!(ModuleManifest::parse("[]"), ModuleManifest::default());
    }

    #[test]
    fn calls_resolve_by_path_or_through_the_manifest() {
        let manifest = ModuleManifest::parse(
            r#"{"Modules":[{"Key":"vpc","Dir":"./.terraform/modules/vpc"}]}"#,
        );
        let calls = resolve_calls(
            Path::new("/w/root"),
            &[
                ("net".to_owned(), ".\\modules\\net".to_owned()),
                ("up".to_owned(), "../shared".to_owned()),
                ("vpc".to_owned(), "terraform-aws-modules/vpc/aws".to_owned()),
                (
                    "other".to_owned(),
                    "terraform-aws-modules/eks/aws".to_owned(),
                ),
            ],
            Some(&manifest),
        );
        let dirs: Vec<Option<&Path>> = calls.iter().map(|call| call.dir.as_deref()).collect();
        assert_eq!(
            dirs,
            [
                Some(Path::new("/w/root/modules/net")),
                Some(Path::new("/w/shared")),
                Some(Path::new("/w/root/.terraform/modules/vpc")),
                None,
            ]
        );
        let installed: Vec<Option<&str>> =
            calls.iter().map(|call| call.installed.as_deref()).collect();
        assert_eq!(
            installed,
            [None, None, Some(".terraform/modules/vpc"), None]
        );
    }

    fn interface() -> Arc<ModuleInterface> {
        Arc::new(ModuleInterface::default())
    }

    #[test]
    fn called_modules_follow_the_lookup_and_find_loops() {
        // root → a → b → root (a loop); root → c (known); root → d (unknown).
        let lookup = |dir: &Path| -> Option<CalledDir> {
            let calls = |dirs: &[&str]| dirs.iter().map(PathBuf::from).collect();
            match dir.to_str()? {
                "/w/a" => Some(CalledDir {
                    interface: Some(interface()),
                    calls: calls(&["/w/b"]),
                    ..CalledDir::default()
                }),
                "/w/b" => Some(CalledDir {
                    interface: Some(interface()),
                    calls: calls(&["/w/root"]),
                    ..CalledDir::default()
                }),
                "/w/c" => Some(CalledDir {
                    interface: Some(interface()),
                    ..CalledDir::default()
                }),
                "/w/gone" => Some(CalledDir::unreadable()),
                _ => None,
            }
        };
        let calls = resolve_calls(
            Path::new("/w/root"),
            &[
                ("a".to_owned(), "../a".to_owned()),
                ("c".to_owned(), "../c".to_owned()),
                ("d".to_owned(), "../d".to_owned()),
                ("me".to_owned(), "./".to_owned()),
                ("typo".to_owned(), "../gone".to_owned()),
            ],
            None,
        );
        let called = called_modules(Path::new("/w/root"), &calls, &lookup);
        assert_eq!(called.children.keys().collect::<Vec<_>>(), ["../c"]);
        assert_eq!(called.loops.iter().collect::<Vec<_>>(), ["../a", "./"]);
        assert_eq!(called.unreadable.iter().collect::<Vec<_>>(), ["../gone"]);
        // An installed module whose directory is gone is not this error.
        let manifest = ModuleManifest::parse(r#"{"Modules":[{"Key":"vpc","Dir":"../gone"}]}"#);
        let calls = resolve_calls(
            Path::new("/w/root"),
            &[("vpc".to_owned(), "terraform-aws-modules/vpc/aws".to_owned())],
            Some(&manifest),
        );
        assert!(called_modules(Path::new("/w/root"), &calls, &lookup).is_empty());
    }

    #[test]
    fn test_runs_give_their_modules_apart_from_the_calls() {
        // /w/root's tests run ./setup (known), ./gone (unreadable), ./ (the
        // module itself), ../back (which calls /w/root) and a registry
        // module; a module call of ./setup is a child as before.
        let lookup = |dir: &Path| -> Option<CalledDir> {
            match dir.to_str()? {
                "/w/root/setup" => Some(CalledDir {
                    interface: Some(interface()),
                    ..CalledDir::default()
                }),
                "/w/back" => Some(CalledDir {
                    interface: Some(interface()),
                    calls: vec![PathBuf::from("/w/root")],
                    ..CalledDir::default()
                }),
                "/w/root/gone" => Some(CalledDir::unreadable()),
                _ => None,
            }
        };
        let runs = resolve_test_runs(
            Path::new("/w/root"),
            &[
                ("setup".to_owned(), "./setup".to_owned()),
                ("again".to_owned(), "./setup".to_owned()),
                ("typo".to_owned(), "./gone".to_owned()),
                ("itself".to_owned(), "./".to_owned()),
                ("back".to_owned(), "../back".to_owned()),
                ("remote".to_owned(), "hashicorp/consul/aws".to_owned()),
            ],
        );
        assert!(runs.iter().all(|run| run.test_run));
        let dirs: Vec<Option<&Path>> = runs.iter().map(|run| run.dir.as_deref()).collect();
        assert_eq!(dirs[0], Some(Path::new("/w/root/setup")));
        assert_eq!(dirs[3], Some(Path::new("/w/root")));
        assert_eq!(dirs[5], None);
        let mut calls = resolve_calls(
            Path::new("/w/root"),
            &[("setup".to_owned(), "./setup".to_owned())],
            None,
        );
        calls.extend(runs);
        let called = called_modules(Path::new("/w/root"), &calls, &lookup);
        assert_eq!(called.test_modules.keys().collect::<Vec<_>>(), ["./setup"]);
        assert_eq!(called.children.keys().collect::<Vec<_>>(), ["./setup"]);
        assert!(called.loops.is_empty() && called.unreadable.is_empty());
        // Runs alone: no child, no loop, nothing unreadable.
        let runs = resolve_test_runs(
            Path::new("/w/root"),
            &[("typo".to_owned(), "./gone".to_owned())],
        );
        assert!(called_modules(Path::new("/w/root"), &runs, &lookup).is_empty());
    }

    #[test]
    fn a_chain_longer_than_the_limit_is_not_a_loop() {
        // d0 → d1 → … → d100 → root: too far to be seen as a loop.
        let lookup = |dir: &Path| -> Option<CalledDir> {
            let n: usize = dir.to_str()?.strip_prefix("/d")?.parse().ok()?;
            let next = if n == 100 {
                PathBuf::from("/root")
            } else {
                PathBuf::from(format!("/d{}", n + 1))
            };
            Some(CalledDir {
                interface: Some(interface()),
                calls: vec![next],
                ..CalledDir::default()
            })
        };
        let calls = resolve_calls(Path::new("/"), &[("x".into(), "./d0".into())], None);
        let called = called_modules(Path::new("/root"), &calls, &lookup);
        assert!(called.loops.is_empty());
        assert_eq!(called.children.len(), 1);
    }

    #[test]
    fn the_tree_indexes_children_and_callers() {
        let mut tree = ModuleTree::default();
        let p = PathBuf::from;
        assert!(tree.set_children(Path::new("/root"), [p("/a"), p("/b"), p("/a")]));
        assert!(!tree.set_children(Path::new("/root"), [p("/b"), p("/a")]));
        assert!(tree.set_children(Path::new("/a"), [p("/c")]));
        assert!(tree.set_children(Path::new("/b"), [p("/c")]));
        assert!(!tree.set_children(Path::new("/c"), []));
        assert_eq!(tree.children(Path::new("/root")), [p("/a"), p("/b")]);
        assert_eq!(tree.callers(Path::new("/c")), [p("/a"), p("/b")]);
        assert!(tree.is_called(Path::new("/c")));
        assert!(!tree.is_called(Path::new("/root")));
        assert_eq!(
            tree.ancestors(Path::new("/c")),
            [p("/a"), p("/b"), p("/root")]
        );
        assert_eq!(
            tree.descendants(Path::new("/root")),
            [p("/a"), p("/b"), p("/c")]
        );
        assert_eq!(tree.depth(Path::new("/root")), Some(0));
        assert_eq!(tree.depth(Path::new("/c")), Some(2));
        // /b stops calling /c: /c keeps one caller.
        assert!(tree.set_children(Path::new("/b"), []));
        assert_eq!(tree.callers(Path::new("/c")), [p("/a")]);
        tree.remove(Path::new("/a"));
        assert!(!tree.is_called(Path::new("/c")));
        // A loop with no way in has no depth.
        tree.set_children(Path::new("/x"), [p("/y")]);
        tree.set_children(Path::new("/y"), [p("/x")]);
        assert_eq!(tree.depth(Path::new("/x")), None);
        assert_eq!(tree.ancestors(Path::new("/x")), [p("/y")]);
    }
}

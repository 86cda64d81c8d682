//! Which entries of a directory are configuration files, in which order, and
//! which ones OpenTofu never reads (`loading.md` §2–4); which are test files
//! `tofu validate` and `tofu test` read with them.
//!
//! Works on names only: the caller lists the directory (and has already dropped
//! subdirectories). Classification is case-sensitive, order is byte-wise, and a
//! `.tofu`/`.tofu.json` file hides the `.tf`/`.tf.json` file of the same base name
//! within the primary list and within the override list separately.
//!
//! Test files (`*.tftest.hcl`, `*.tftest.json`, `*.tofutest.hcl`,
//! `*.tofutest.json`) are read from the module directory and from its
//! `tests/` subdirectory, whose files the caller names `tests/NAME`
//! (OpenTofu's `dirFiles` with the default test directory); nothing deeper,
//! no other directory, and no name OpenTofu skips (hidden, backup). A
//! `.tofutest` file hides the `.tftest` file of the same name in the same
//! directory, as a `.tofu` file hides its `.tf` twin.

/// The flavour of a configuration file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extension {
    Tf,
    TfJson,
    Tofu,
    TofuJson,
}

impl Extension {
    pub const ALL: [Extension; 4] = [
        Extension::TofuJson,
        Extension::TfJson,
        Extension::Tofu,
        Extension::Tf,
    ];

    pub fn suffix(self) -> &'static str {
        match self {
            Extension::Tf => ".tf",
            Extension::TfJson => ".tf.json",
            Extension::Tofu => ".tofu",
            Extension::TofuJson => ".tofu.json",
        }
    }

    pub fn is_json(self) -> bool {
        matches!(self, Extension::TfJson | Extension::TofuJson)
    }

    /// `.tofu` and `.tofu.json`: files only OpenTofu reads, whose
    /// `required_version` OpenTofu checks.
    pub fn is_tofu(self) -> bool {
        matches!(self, Extension::Tofu | Extension::TofuJson)
    }

    /// The extension that hides this one, if any.
    fn hidden_by(self) -> Option<Extension> {
        match self {
            Extension::Tf => Some(Extension::Tofu),
            Extension::TfJson => Some(Extension::TofuJson),
            Extension::Tofu | Extension::TofuJson => None,
        }
    }
}

/// The flavour of a test file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestExtension {
    TfTest,
    TfTestJson,
    TofuTest,
    TofuTestJson,
}

impl TestExtension {
    pub const ALL: [TestExtension; 4] = [
        TestExtension::TfTest,
        TestExtension::TfTestJson,
        TestExtension::TofuTest,
        TestExtension::TofuTestJson,
    ];

    pub fn suffix(self) -> &'static str {
        match self {
            TestExtension::TfTest => ".tftest.hcl",
            TestExtension::TfTestJson => ".tftest.json",
            TestExtension::TofuTest => ".tofutest.hcl",
            TestExtension::TofuTestJson => ".tofutest.json",
        }
    }

    /// The extension that hides this one, if any.
    fn hidden_by(self) -> Option<TestExtension> {
        match self {
            TestExtension::TfTest => Some(TestExtension::TofuTest),
            TestExtension::TfTestJson => Some(TestExtension::TofuTestJson),
            TestExtension::TofuTest | TestExtension::TofuTestJson => None,
        }
    }
}

/// The directory below a module directory that OpenTofu also reads test
/// files from (`DefaultTestDirectory`).
pub const TEST_DIRECTORY: &str = "tests";

/// Why a name is not a configuration file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// Starts with `.`, ends with `~`, or starts and ends with `#`.
    IgnoredName,
    /// A test file in a directory OpenTofu does not read test files from
    /// (below `tests/`, or any other subdirectory).
    TestFile,
    /// Any other extension (including case variants such as `main.TF`).
    NotConfiguration,
}

/// What one directory entry is, judged by its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileClass {
    Skipped(SkipReason),
    Config {
        extension: Extension,
        /// The name without its recognised extension.
        base_name: String,
        is_override: bool,
    },
    /// A test file `tofu validate` reads with the module.
    Test {
        extension: TestExtension,
        /// The name without its extension, `tests/` included.
        base_name: String,
    },
}

/// Classifies one file name (steps 2–5 of `loading.md` §2; test files as
/// OpenTofu's `dirFiles` finds them). A name in `tests/` is written
/// `tests/NAME`.
pub fn classify(name: &str) -> FileClass {
    let (in_subdirectory, file_name) = match name.rsplit_once('/') {
        Some((dir, file_name)) => (Some(dir), file_name),
        None => (None, name),
    };
    if is_ignored_name(file_name) {
        return FileClass::Skipped(SkipReason::IgnoredName);
    }
    if let Some(extension) = test_extension(file_name) {
        return match in_subdirectory {
            None | Some(TEST_DIRECTORY) => FileClass::Test {
                extension,
                base_name: name
                    .strip_suffix(extension.suffix())
                    .unwrap_or_default()
                    .to_owned(),
            },
            Some(_) => FileClass::Skipped(SkipReason::TestFile),
        };
    }
    if in_subdirectory.is_some() {
        return FileClass::Skipped(SkipReason::NotConfiguration);
    }
    for extension in Extension::ALL {
        if let Some(base_name) = name.strip_suffix(extension.suffix()) {
            let is_override = base_name == "override" || base_name.ends_with("_override");
            return FileClass::Config {
                extension,
                base_name: base_name.to_owned(),
                is_override,
            };
        }
    }
    FileClass::Skipped(SkipReason::NotConfiguration)
}

/// The test file extension `file_name` ends in, if any.
fn test_extension(file_name: &str) -> Option<TestExtension> {
    TestExtension::ALL
        .into_iter()
        .find(|extension| file_name.ends_with(extension.suffix()))
}

/// True for a test file name (`main.tftest.hcl`, `tests/x.tofutest.json`),
/// whether or not OpenTofu would read it, as an editor sees it.
pub fn is_test_file(name: &str) -> bool {
    let file_name = name
        .rsplit_once('/')
        .map_or(name, |(_, file_name)| file_name);
    test_extension(file_name).is_some()
}

/// Names OpenTofu skips before looking at extensions.
pub fn is_ignored_name(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
}

/// True when `name` has one of the four configuration extensions, whether or
/// not OpenTofu would read it (an ignored `.main.tf` is still "a `.tf` file" to
/// an editor).
pub fn has_config_extension(name: &str) -> bool {
    Extension::ALL
        .iter()
        .any(|ext| name.ends_with(ext.suffix()))
}

/// True for a variable definitions file (`*.tfvars`, `*.tfvars.json`).
pub fn is_values_file(name: &str) -> bool {
    name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
}

/// True for a values file `tofu plan` reads without being told
/// (`terraform.tfvars`, `*.auto.tfvars` and their JSON forms).
pub fn is_auto_values_file(name: &str) -> bool {
    matches!(name, "terraform.tfvars" | "terraform.tfvars.json")
        || name.ends_with(".auto.tfvars")
        || name.ends_with(".auto.tfvars.json")
}

/// Where an automatic values file comes in `tofu plan`'s order (a later
/// file's value replaces an earlier one's): `terraform.tfvars`, then
/// `terraform.tfvars.json`, then the `*.auto.tfvars(.json)` files by name,
/// as a directory listing gives them (JSON and native files interleaved).
/// Sort by this key.
pub fn auto_values_order(name: &str) -> (bool, &str) {
    (!name.starts_with("terraform.tfvars"), name)
}

/// True for every file a module directory's analysis reads: configuration
/// files, variable definitions files and test files; of the `tests/`
/// directory (`tests/NAME`), the test files only.
pub fn is_module_file(name: &str) -> bool {
    match name.split_once('/') {
        Some((TEST_DIRECTORY, file_name)) => !file_name.contains('/') && is_test_file(file_name),
        Some(_) => false,
        None => has_config_extension(name) || is_values_file(name) || is_test_file(name),
    }
}

/// The outcome of discovery for one directory: indices into the name list given
/// to [`discover`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    /// Primary files in loading order.
    pub primary: Vec<usize>,
    /// Override files in loading order.
    pub overrides: Vec<usize>,
    /// `(hidden, hidden_by)`: `.tf`/`.tf.json` files hidden by their twin.
    pub shadowed: Vec<(usize, usize)>,
    /// Names with a configuration extension that OpenTofu skips by name.
    pub ignored: Vec<usize>,
    /// Variable definitions files (`.tfvars`, `.tfvars.json`), sorted.
    pub values: Vec<usize>,
    /// Test files OpenTofu reads (of the directory and of `tests/`), sorted
    /// byte-wise, less those a `.tofutest` twin hides (which are in
    /// `shadowed`).
    pub tests: Vec<usize>,
}

impl Discovery {
    pub fn is_module(&self) -> bool {
        !self.primary.is_empty() || !self.overrides.is_empty()
    }
}

/// Applies `loading.md` §2–4 to the file names of one directory.
pub fn discover(names: &[&str]) -> Discovery {
    let mut discovery = Discovery::default();
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        let name_a = names.get(a).copied().unwrap_or_default();
        let name_b = names.get(b).copied().unwrap_or_default();
        name_a.as_bytes().cmp(name_b.as_bytes())
    });
    let classes: Vec<FileClass> = names.iter().map(|name| classify(name)).collect();
    for &index in &order {
        match classes.get(index) {
            Some(FileClass::Config {
                is_override: true, ..
            }) => discovery.overrides.push(index),
            Some(FileClass::Config { .. }) => discovery.primary.push(index),
            Some(FileClass::Test { .. }) => discovery.tests.push(index),
            Some(FileClass::Skipped(SkipReason::IgnoredName))
                if names
                    .get(index)
                    .is_some_and(|name| has_config_extension(name) || is_test_file(name)) =>
            {
                discovery.ignored.push(index);
            }
            Some(FileClass::Skipped(SkipReason::NotConfiguration))
                if names.get(index).is_some_and(|name| is_values_file(name)) =>
            {
                discovery.values.push(index);
            }
            _ => {}
        }
    }
    for list in [&mut discovery.primary, &mut discovery.overrides] {
        // The .tofu/.tofu.json files of this list by (base name, extension),
        // so each .tf file finds its twin in one lookup.
        let hiders: std::collections::HashMap<(&str, Extension), usize> = list
            .iter()
            .filter_map(|&index| match classes.get(index) {
                Some(FileClass::Config {
                    extension,
                    base_name,
                    ..
                }) if extension.is_tofu() => Some(((base_name.as_str(), *extension), index)),
                _ => None,
            })
            .collect();
        let mut kept = Vec::with_capacity(list.len());
        for &index in list.iter() {
            let hider = match classes.get(index) {
                Some(FileClass::Config {
                    extension,
                    base_name,
                    ..
                }) => extension
                    .hidden_by()
                    .and_then(|twin| hiders.get(&(base_name.as_str(), twin)).copied()),
                _ => None,
            };
            match hider {
                Some(by) => discovery.shadowed.push((index, by)),
                None => kept.push(index),
            }
        }
        *list = kept;
    }
    // A .tofutest file hides the .tftest file of the same name in the same
    // directory (the base name holds the directory).
    let test_hiders: std::collections::HashMap<(&str, TestExtension), usize> = discovery
        .tests
        .iter()
        .filter_map(|&index| match classes.get(index) {
            Some(FileClass::Test {
                extension,
                base_name,
            }) => Some(((base_name.as_str(), *extension), index)),
            _ => None,
        })
        .collect();
    let mut kept_tests = Vec::with_capacity(discovery.tests.len());
    for &index in &discovery.tests {
        let hider = match classes.get(index) {
            Some(FileClass::Test {
                extension,
                base_name,
            }) => extension
                .hidden_by()
                .and_then(|twin| test_hiders.get(&(base_name.as_str(), twin)).copied()),
            _ => None,
        };
        match hider {
            Some(by) => discovery.shadowed.push((index, by)),
            None => kept_tests.push(index),
        }
    }
    discovery.tests = kept_tests;
    discovery
        .shadowed
        .sort_by_key(|&(hidden, _)| names.get(hidden).copied());
    discovery
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(names: &[&str]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let discovery = discover(names);
        let pick = |list: &[usize]| {
            list.iter()
                .map(|&i| names[i].to_owned())
                .collect::<Vec<_>>()
        };
        let shadowed: Vec<usize> = discovery.shadowed.iter().map(|&(h, _)| h).collect();
        (
            pick(&discovery.primary),
            pick(&discovery.overrides),
            pick(&shadowed),
        )
    }

    #[test]
    fn classification_table() {
        let cases = [
            ("override.tf", Some(true)),
            ("override.tofu.json", Some(true)),
            ("db_override.tf.json", Some(true)),
            ("_override.tf", Some(true)),
            ("override_db.tf", Some(false)),
            ("db-override.tf", Some(false)),
            ("Override.tf", Some(false)),
            ("main.TF", None),
            ("main.tf.JSON", None),
            ("terraform.tfvars", None),
            ("main.hcl", None),
            (".main.tf", None),
            ("main.tf~", None),
            ("#main.tf#", None),
            ("main.tftest.hcl", None),
            ("main.tofutest.json", None),
        ];
        for (name, expected) in cases {
            let actual = match classify(name) {
                FileClass::Config { is_override, .. } => Some(is_override),
                FileClass::Skipped(_) | FileClass::Test { .. } => None,
            };
            assert_eq!(actual, expected, "{name}");
        }
    }

    #[test]
    fn bytewise_order() {
        let names = [
            "main2.tf",
            "a_b.tf",
            "a.tofu.json",
            "main10.tf",
            "a.tofu",
            "B.tf",
            "a.tf.json",
            "a-b.tf",
        ];
        let (primary, _, shadowed) = loaded(&names);
        assert_eq!(
            primary,
            [
                "B.tf",
                "a-b.tf",
                "a.tofu",
                "a.tofu.json",
                "a_b.tf",
                "main10.tf",
                "main2.tf"
            ]
        );
        assert_eq!(shadowed, ["a.tf.json"]);
    }

    #[test]
    fn tofu_hides_its_twin_of_the_same_flavour_only() {
        let cases: [(&[&str], &[&str]); 7] = [
            (&["main.tf", "main.tofu"], &["main.tofu"]),
            (&["main.tf.json", "main.tofu.json"], &["main.tofu.json"]),
            (
                &["main.tf", "main.tofu.json"],
                &["main.tf", "main.tofu.json"],
            ),
            (
                &["main.tf.json", "main.tofu"],
                &["main.tf.json", "main.tofu"],
            ),
            (
                &["main.tf", "main.tf.json", "main.tofu", "main.tofu.json"],
                &["main.tofu", "main.tofu.json"],
            ),
            (&["main.tf", "Main.tofu"], &["Main.tofu", "main.tf"]),
            (&["main.tf", ".main.tofu"], &["main.tf"]),
        ];
        for (names, expected) in cases {
            assert_eq!(loaded(names).0, expected, "{names:?}");
        }
        let (_, overrides, shadowed) = loaded(&["x_override.tf", "x_override.tofu"]);
        assert_eq!(overrides, ["x_override.tofu"]);
        assert_eq!(shadowed, ["x_override.tf"]);
    }

    #[test]
    fn worked_example_of_loading_md() {
        let names = [
            ".backup.tf",
            "main.tf",
            "main.tofu",
            "network.tf.json",
            "versions.tf",
            "versions.tofu",
            "z_override.tf",
            "a_override.tofu.json",
            "notes.txt",
            "README.TF",
        ];
        let (primary, overrides, shadowed) = loaded(&names);
        assert_eq!(primary, ["main.tofu", "network.tf.json", "versions.tofu"]);
        assert_eq!(overrides, ["a_override.tofu.json", "z_override.tf"]);
        assert_eq!(shadowed, ["main.tf", "versions.tf"]);
        assert_eq!(discover(&names).ignored, [0]);
    }

    #[test]
    fn test_files_of_the_directory_and_of_tests_are_read() {
        let names = [
            "main.tf",
            "a.tftest.hcl",
            "a.tofutest.hcl",
            "b.tftest.json",
            "tests/a.tftest.hcl",
            "tests/b.tofutest.json",
            "tests/b.tftest.json",
            "tests/deeper/c.tftest.hcl",
            "other/d.tftest.hcl",
            ".hidden.tftest.hcl",
            "tests/.hidden.tftest.hcl",
            "backup.tftest.hcl~",
            "tests/main.tf",
            "c.TFTEST.hcl",
        ];
        let discovery = discover(&names);
        let pick = |list: &[usize]| list.iter().map(|&i| names[i]).collect::<Vec<_>>();
        assert_eq!(
            pick(&discovery.tests),
            [
                "a.tofutest.hcl",
                "b.tftest.json",
                "tests/a.tftest.hcl",
                "tests/b.tofutest.json"
            ]
        );
        let shadowed: Vec<(&str, &str)> = discovery
            .shadowed
            .iter()
            .map(|&(hidden, by)| (names[hidden], names[by]))
            .collect();
        assert_eq!(
            shadowed,
            [
                ("a.tftest.hcl", "a.tofutest.hcl"),
                ("tests/b.tftest.json", "tests/b.tofutest.json")
            ]
        );
        assert_eq!(
            pick(&discovery.ignored),
            [".hidden.tftest.hcl", "tests/.hidden.tftest.hcl"]
        );
        assert_eq!(pick(&discovery.primary), ["main.tf"]);
        assert_eq!(
            classify("tests/deeper/c.tftest.hcl"),
            FileClass::Skipped(SkipReason::TestFile)
        );
        assert!(is_module_file("tests/a.tftest.hcl"));
        assert!(!is_module_file("tests/main.tf"));
        assert!(!is_module_file("tests/deeper/c.tftest.hcl"));
        assert!(is_module_file("a.tofutest.json"));
    }
}

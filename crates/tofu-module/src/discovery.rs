//! Which entries of a directory are configuration files, in which order, and
//! which ones OpenTofu never reads (`loading.md` §2–4).
//!
//! Works on names only: the caller lists the directory (and has already dropped
//! subdirectories). Classification is case-sensitive, order is byte-wise, and a
//! `.tofu`/`.tofu.json` file hides the `.tf`/`.tf.json` file of the same base name
//! within the primary list and within the override list separately.

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

/// Why a name is not a configuration file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// Starts with `.`, ends with `~`, or starts and ends with `#`.
    IgnoredName,
    /// A `tofu test` file (`.tftest.hcl`, …).
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
}

/// Classifies one file name (steps 2–5 of `loading.md` §2).
pub fn classify(name: &str) -> FileClass {
    if is_ignored_name(name) {
        return FileClass::Skipped(SkipReason::IgnoredName);
    }
    const TEST_SUFFIXES: [&str; 4] = [
        ".tftest.hcl",
        ".tftest.json",
        ".tofutest.hcl",
        ".tofutest.json",
    ];
    if TEST_SUFFIXES.iter().any(|suffix| name.ends_with(suffix)) {
        return FileClass::Skipped(SkipReason::TestFile);
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

/// True for every file a module directory's analysis reads: configuration
/// files and variable definitions files.
pub fn is_module_file(name: &str) -> bool {
    has_config_extension(name) || is_values_file(name)
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
            Some(FileClass::Skipped(SkipReason::IgnoredName))
                if names
                    .get(index)
                    .is_some_and(|name| has_config_extension(name)) =>
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
                FileClass::Skipped(_) => None,
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
}

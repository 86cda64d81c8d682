//! Conformance with OpenTofu's own loader fixtures, `opentofu-testdata/` of the
//! shared corpus (OpenTofu's `internal/configs/testdata/`), scored unit by unit
//! the way OpenTofu's tests in `internal/configs/*_test.go` score them
//! (`../shared/corpus/MANIFEST.md`, "opentofu-testdata: what its folders and
//! markers mean", is the specification).
//!
//! **Units.** Every file of a `*-files/` folder is a unit of its own: it is copied
//! alone into a fresh temporary directory and analysed as a one-file module (what
//! OpenTofu's file loader and its one-file-module pass see). Every subfolder of
//! `valid-modules/`, `invalid-modules/`, `config-diagnostics/`, `escaping-blocks/`,
//! and each single fixture folder (`config-build/`, `nested-errors/`, …), is a
//! module unit: the folder is copied whole to a temporary directory (the corpus is
//! never written) and its top directory analysed. `nested-cloud-warning/` is not a
//! unit: no OpenTofu test reads it.
//!
//! **Stages.** A unit is scored in up to two stages, as OpenTofu's tests do:
//! - *load*: what the file or folder loader says about the unit itself;
//! - *after load*: what OpenTofu's tests check after loading: a module-tree build,
//!   the provider-requirements pass, test files. The harness emulates a tree build
//!   by walking the local `source`s of `module` blocks (relative to the fixture
//!   root or to the caller, as the Go test's walker does) and analysing each child
//!   directory on its own; what OpenTofu checks *across* modules is not emulated,
//!   because tofu-lens analyses one directory at a time (`spec/diagnostics.md` §7).
//!   The root is analysed in the tree of the modules its test files' runs call by
//!   a local path (each analysed on its own), as `check` gives it that tree: a
//!   test file's providers take their types from those modules.
//!   Units whose after-load expectation therefore lies out of reach are listed in
//!   `tests/conformance-skip.txt` with the reason: their after-load stage is not
//!   scored, and a unit with no load stage of its own is then not scored at all.
//!
//! **Expectations per folder.** `valid-files`, `valid-modules`, `tofu-only-files`,
//! `tofu-and-tf-files`, `escaping-blocks/*`, `provider_from_json`: no diagnostics
//! at all. `providers-explicit-fqn`, the roots of `config-diagnostics/*`: no
//! errors. `invalid-files`, `invalid-modules`: at least one error, plus the exact
//! messages OpenTofu's tests check for a few of them. `error-files`: the errors,
//! as (start line → summary), equal the `ERROR: ` markers; `warning-files`: no
//! errors, and the warnings equal the `WARNING: ` markers. `config-diagnostics/*`
//! (after load): the `errors`/`warnings` files, matched both ways as substrings of
//! HCL's rendering `<path>:<line>,<col>-<endcol>: <summary>; <detail>`, where the
//! path is `testdata/<path inside opentofu-testdata>`. The remaining single
//! fixtures carry the exact checks of their Go tests (see `units`).
//!
//! **What does not count.** What `tofu validate` reports after loading
//! (`VALIDATE_CODES`) and what only `tofu plan` reports (`PLAN_CODES`) are
//! not part of these fixtures. OpenTofu reports only errors and warnings, and has no
//! counterpart for the codes that `spec/diagnostics.md` marks **(tofu-lens)**
//! (`file-shadowed`, `required-version-ignored`, `override-ineffective`, …): those
//! codes, and every hint or info, are dropped before scoring, so they never count
//! against a unit. The list is read from the spec, not copied here. Where
//! OpenTofu's test reads a unit with its file loader alone (`error-files`,
//! `warning-files`, `invalid-files`, …), the load stage also leaves out the
//! duplicate-declaration checks that OpenTofu makes only when it assembles a
//! module (`MODULE_ASSEMBLY_CODES`). Assertions of the Go tests on decoded
//! content (resources, provider addresses, test-file counts, module versions)
//! are not diagnostics and are not scored. The analysis runs with the default
//! `Config` (the `tofuVersion` of the spec).
//!
//! **Outcomes.** Each scored unit passes or fails; `tests/conformance/expected.txt`
//! holds the outcome of every scored unit, and the test fails on any difference, so
//! progress and regressions both show (`UPDATE_EXPECT=1` rewrites the file). A
//! table of pass rates per folder and a one-line reason per failing unit go to
//! stderr (`cargo test -p tofu-lens --test conformance -- --nocapture`). Besides,
//! every unit that must load without errors is asserted to have none (engine
//! bugs that break this are listed, with a FIXME, in `KNOWN_LOAD_ERRORS`).

// Tests may unwrap and index; the report goes to stderr on purpose.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stderr
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use tofu_diagnostics::{analyze, analyze_in_tree, AnalysisCache, ModuleAnalysis};
use tofu_module::calls::{called_modules, resolve_calls, resolve_test_runs, CalledDir};
use tofu_module::{Config, ProviderSchemas};
use tofu_syntax::{Code, Severity, TextRange};

/// Top-level entries of `opentofu-testdata/` that hold no unit, and why.
const NOT_UNITS: [(&str, &str); 2] = [
    ("LICENSE", "the license of the copied fixtures"),
    (
        "nested-cloud-warning",
        "no OpenTofu test reads it (and the tree build at the pinned commit emits no warning for a child's cloud block)",
    ),
];

/// Folders whose every file is a one-file unit.
const FILE_FOLDERS: [&str; 5] = [
    "valid-files",
    "invalid-files",
    "error-files",
    "warning-files",
    "invalid-import-files",
];

/// Folders whose every subfolder is a module unit.
const MODULE_FOLDERS: [&str; 4] = [
    "valid-modules",
    "invalid-modules",
    "config-diagnostics",
    "escaping-blocks",
];

/// The `invalid-files` whose single diagnostic OpenTofu's
/// `TestParserLoadConfigFileFailureMessages` checks: (file, summary, detail).
const INVALID_FILE_MESSAGES: [(&str, &str, &str); 12] = [
    (
        "data-resource-lifecycle.tf",
        "Invalid data resource lifecycle argument",
        r#"The lifecycle argument "ignore_changes" is defined only for managed resources ("resource" blocks), and is not valid for data resources."#,
    ),
    (
        "variable-type-unknown.tf",
        "Invalid type specification",
        r#"The keyword "notatype" is not a valid type specification."#,
    ),
    (
        "unexpected-attr.tf",
        "Unsupported argument",
        r#"An argument named "foo" is not expected here."#,
    ),
    (
        "unexpected-block.tf",
        "Unsupported block type",
        r#"Blocks of type "varyable" are not expected here. Did you mean "variable"?"#,
    ),
    (
        "ephemeral-count-and-for_each-and-enabled.tf",
        r#"Invalid combination of "count", "enabled", and "for_each""#,
        r#"The "count", "enabled", and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of ephemeral resources to be created."#,
    ),
    (
        "resource-count-and-for_each.tf",
        r#"Invalid combination of "count" and "for_each""#,
        r#"The "count" and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of resources to be created."#,
    ),
    (
        "resource-count-and-for_each-and-enabled.tf",
        r#"Invalid combination of "count", "enabled", and "for_each""#,
        r#"The "count", "enabled", and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of resources to be created."#,
    ),
    (
        "data-count-and-for_each.tf",
        r#"Invalid combination of "count" and "for_each""#,
        r#"The "count" and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of data sources to be created."#,
    ),
    (
        "data-count-and-for_each-and-enabled.tf",
        r#"Invalid combination of "count", "enabled", and "for_each""#,
        r#"The "count", "enabled", and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of data sources to be created."#,
    ),
    (
        "resource-lifecycle-badbool.tf",
        "Unsuitable value type",
        "Unsuitable value: a bool is required",
    ),
    (
        "variable-complex-bad-default-inner-obj.tf",
        "Invalid default value for variable",
        r#"This default value is not compatible with the variable's type constraint: ["mykey"].field: a bool is required."#,
    ),
    (
        "empty-deprecated-output-attr.tf",
        "Invalid `deprecated` attribute",
        r#"The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value."#,
    ),
];

/// Checks that compare declarations with each other, which OpenTofu makes when
/// it assembles a module from its files (`NewModule`), not in its file loader.
/// Where OpenTofu's test reads a unit with the file loader alone, they are left
/// out of the load stage: `error-files/destroy-provisioners.tf`, for one,
/// declares `null_resource.b` twice, which OpenTofu reports too once the file is
/// a module.
const MODULE_ASSEMBLY_CODES: [Option<Code>; 3] = [
    Some(tofu_diagnostics::codes::DUPLICATE_BLOCK),
    Some(tofu_diagnostics::codes::DUPLICATE_LOCAL),
    Some(tofu_diagnostics::codes::DUPLICATE_BACKEND),
];

/// What OpenTofu reports once every module loaded, while it builds the
/// configuration (`BuildConfig`'s provider checks): never part of a unit's
/// load stage, only of its after-load stage (a test file's provider types
/// against the module's, `config-diagnostics/tests-provider-mismatch`).
const BUILD_CODES: [Option<Code>; 1] = [Some(tofu_diagnostics::codes::PROVIDER_TYPE_MISMATCH)];

/// What `tofu validate` reports after loading succeeded (references,
/// contexts, cycles: `spec/diagnostics.md` §7). The loader's fixtures test
/// loading, and OpenTofu's tests never validate them, so these codes do not
/// count for or against a unit (their own fixtures are in `tests/fixtures`,
/// and `scripts/generate_cases.py --family references` checks them against
/// `tofu validate`).
const VALIDATE_CODES: [Code; 7] = [
    tofu_diagnostics::codes::MISSING_PROVIDER,
    tofu_diagnostics::codes::UNDECLARED_REFERENCE,
    tofu_diagnostics::codes::RESOURCE_INSTANCE_KEY,
    tofu_diagnostics::codes::UNAVAILABLE_REFERENCE,
    tofu_diagnostics::codes::INVALID_REFERENCE,
    tofu_diagnostics::codes::SELF_REFERENCING_LOCAL,
    tofu_diagnostics::codes::REFERENCE_CYCLE,
];

/// What only `tofu plan` reports (`spec/diagnostics.md` §7). OpenTofu's
/// loader tests never plan: `valid-modules/moved-blocks` loads cleanly, and
/// its plan (run with its `test` resources as `terraform_data`) reports the
/// "Ambiguous move statements" that `plan-move-statement` finds there;
/// `valid-files/refactoring.tf` imports into `aws_instance.import`, which
/// it does not declare (plan's "Configuration for import target does not
/// exist", `plan-import-target`).
const PLAN_CODES: [Code; 8] = [
    tofu_diagnostics::codes::PLAN_REQUIRED_VARIABLE,
    tofu_diagnostics::codes::PLAN_VARIABLE_VALIDATION,
    tofu_diagnostics::codes::PLAN_CONDITION_FAILED,
    tofu_diagnostics::codes::PLAN_CHECK_FAILED,
    tofu_diagnostics::codes::PLAN_INVALID_VALUE,
    tofu_diagnostics::codes::PLAN_MOVE_STATEMENT,
    tofu_diagnostics::codes::PLAN_IMPORT_TARGET,
    tofu_diagnostics::codes::PLAN_REMOVED_STATEMENT,
];

/// FIXME: units that must load without errors but do not, because of engine
/// bugs (unit, why). Empty today; an entry here is skipped by
/// `units_that_must_load_cleanly_have_no_errors` and must be removed once fixed.
const KNOWN_LOAD_ERRORS: [(&str, &str); 0] = [];

#[test]
fn opentofu_testdata_conformance() {
    let harness = Harness::new();
    let units = units(&harness.testdata);
    let skips = read_skip_list(&units);
    let results: Vec<UnitResult> = units
        .into_iter()
        .map(|unit| harness.score(unit, &skips))
        .collect();
    eprintln!("{}", report(&results));

    let actual: String = results
        .iter()
        .filter_map(|result| {
            let outcome = result.outcome.as_ref()?;
            let word = if outcome.is_ok() { "pass" } else { "fail" };
            Some(format!("{} {word}\n", result.id))
        })
        .collect();
    let expected_path = repo().join("tests/conformance/expected.txt");
    let expected = fs::read_to_string(&expected_path).unwrap_or_default();
    if expected != actual && std::env::var_os("UPDATE_EXPECT").is_some() {
        fs::create_dir_all(expected_path.parent().unwrap()).unwrap();
        fs::write(&expected_path, &actual).unwrap();
        return;
    }
    let changes = outcome_changes(&expected, &actual);
    assert!(
        changes.is_empty(),
        "conformance outcomes differ from {} (UPDATE_EXPECT=1 rewrites it):\n{}",
        expected_path.display(),
        changes.join("\n")
    );
}

/// The units whose load stage OpenTofu's test wants free of errors (`valid-*`,
/// `tofu-*-files`, `escaping-blocks/*`, `providers-explicit-fqn`,
/// `provider_from_json`, the roots of tree fixtures, …) have none: an error there
/// is a false positive of the engine.
#[test]
fn units_that_must_load_cleanly_have_no_errors() {
    let harness = Harness::new();
    let mut offenders = Vec::new();
    let mut still_failing = Vec::new();
    let mut n_checked = 0;
    for unit in units(&harness.testdata) {
        let must_be_clean = unit.load.iter().any(|expectation| {
            matches!(
                expectation,
                Expectation::NoDiagnostics | Expectation::NoErrors | Expectation::NoConfiguration
            )
        });
        if !must_be_clean {
            continue;
        }
        n_checked += 1;
        let errors: Vec<String> = harness
            .load(&unit)
            .load_stage
            .into_iter()
            .filter(|found| found.severity == Severity::Error)
            .map(|found| found.rendered)
            .collect();
        if KNOWN_LOAD_ERRORS.iter().any(|(id, _)| *id == unit.id) {
            still_failing.extend(errors.first().map(|_| unit.id.clone()));
            continue;
        }
        offenders.extend(errors.iter().map(|error| format!("{}: {error}", unit.id)));
    }
    assert!(n_checked > 60, "only {n_checked} clean-load units found");
    assert!(
        offenders.is_empty(),
        "units that OpenTofu loads without errors got errors:\n{}",
        offenders.join("\n")
    );
    for (id, why) in KNOWN_LOAD_ERRORS {
        assert!(
            still_failing.iter().any(|failing| failing == id),
            "{id} now loads without errors ({why}): remove it from KNOWN_LOAD_ERRORS"
        );
    }
}

// ---------------------------------------------------------------------------
// Units and what OpenTofu expects of them.

struct Unit {
    /// The path inside `opentofu-testdata/`, `/`-separated: `valid-files/cloud.tf`.
    id: String,
    /// A one-file unit (copied alone) or a module folder (copied whole).
    is_file: bool,
    /// OpenTofu's test reads the unit with the file loader alone, so the load
    /// stage leaves out what only assembling a module checks
    /// ([`MODULE_ASSEMBLY_CODES`]), and never [`BUILD_CODES`].
    file_loader: bool,
    /// Checks of the load stage; empty when OpenTofu's test has no load stage.
    load: Vec<Expectation>,
    after_load: Option<AfterLoad>,
}

impl Unit {
    fn file(id: String, load: Vec<Expectation>) -> Unit {
        Unit {
            id,
            is_file: true,
            file_loader: false,
            load,
            after_load: None,
        }
    }

    fn module(id: impl Into<String>, load: Vec<Expectation>) -> Unit {
        Unit {
            id: id.into(),
            is_file: false,
            file_loader: false,
            load,
            after_load: None,
        }
    }

    fn read_by_file_loader(mut self) -> Unit {
        self.file_loader = true;
        self
    }

    fn then(mut self, tree: Tree, expectations: Vec<Expectation>) -> Unit {
        self.after_load = Some(AfterLoad { tree, expectations });
        self
    }

    fn folder(&self) -> &str {
        self.id.split('/').next().unwrap_or_default()
    }
}

/// What OpenTofu's test checks after loading the unit.
struct AfterLoad {
    tree: Tree,
    expectations: Vec<Expectation>,
}

/// Whose diagnostics the after-load stage sees.
#[derive(Clone, Copy, PartialEq)]
enum Tree {
    /// The root module again (a pass over the loaded module, such as provider
    /// requirements).
    Root,
    /// The child modules only (the root is checked by the load stage, all but
    /// its [`BUILD_CODES`]), `source`s
    /// resolved relative to the fixture root, as `TestBuildConfig*` do.
    ChildrenFromFixtureRoot,
    /// The root and its children, `source`s resolved relative to the calling
    /// module, as `testNestedModuleConfigFromDir` does.
    WholeTreeFromCaller,
}

enum Expectation {
    /// No error and no warning.
    NoDiagnostics,
    NoErrors,
    AtLeastOneError,
    /// No configuration file at all (`IsEmptyDir`), and no diagnostics.
    NoConfiguration,
    /// The diagnostics of this severity, as (start line → summary), equal the
    /// file's markers (`ERROR: ` or `WARNING: `).
    Markers(Severity),
    /// The set of rendered diagnostics equals this set (`assertExactDiagnostics`).
    Exactly(Vec<&'static str>),
    /// Exactly one diagnostic, with this severity, summary and detail.
    Only {
        severity: Severity,
        summary: &'static str,
        detail: &'static str,
    },
    /// Some rendered diagnostic contains this text (`diags.Error()` contains it).
    SomeContains(&'static str),
    /// Exactly this many errors, each text in a different one. (OpenTofu's test
    /// also fixes their order, which is its decoding order; tofu-lens sorts by
    /// position, so the order is not compared.)
    ErrorsContaining(Vec<&'static str>),
    /// The summaries of the errors, sorted, equal these.
    ErrorSummaries(Vec<&'static str>),
    /// Exactly `count` diagnostics, and for each (summary, detail prefix) one
    /// diagnostic that has them (`assertDiagnosticCount` + `assertDiagnosticSummary`).
    Count {
        count: usize,
        with: Vec<(&'static str, &'static str)>,
    },
    /// `config-diagnostics/<case>/errors` and `warnings`, matched both ways.
    DiagnosticsFiles {
        errors: Vec<String>,
        warnings: Vec<String>,
    },
    /// Only errors saying a module could not be loaded (the walker's own error).
    OnlyUnavailableModules,
    /// `TestParseEphemeralBlocks`: six diagnostics naming a forbidden argument or
    /// block, the `connection` one overlapping 18,3-13 (bytes 274..284).
    EphemeralBlocks,
}

/// Every unit, sorted by id. Grouped folders are listed from the corpus; every
/// other top-level entry must be named here or in `NOT_UNITS`.
fn units(testdata: &Path) -> Vec<Unit> {
    use Expectation::*;
    let mut units = Vec::new();
    for folder in FILE_FOLDERS {
        for name in entries(&testdata.join(folder), false) {
            let id = format!("{folder}/{name}");
            let load = match folder {
                "valid-files" => vec![NoDiagnostics],
                "invalid-files" => {
                    let mut load = vec![AtLeastOneError];
                    if let Some((_, summary, detail)) = INVALID_FILE_MESSAGES
                        .iter()
                        .find(|(file, ..)| *file == name)
                    {
                        load.push(Only {
                            severity: Severity::Error,
                            summary,
                            detail,
                        });
                    }
                    load
                }
                "error-files" => vec![Markers(Severity::Error)],
                "warning-files" => vec![NoErrors, Markers(Severity::Warning)],
                _ => Vec::new(),
            };
            let unit = match (folder, name.as_str()) {
                ("invalid-import-files", "import-and-module-clash.tf") => Unit::file(
                    id,
                    vec![Exactly(vec![
                        "testdata/invalid-import-files/import-and-module-clash.tf:9,3-19: Invalid import provider argument; The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.",
                    ])],
                )
                .read_by_file_loader(),
                ("invalid-import-files", "import-and-resource-clash.tf") => {
                    Unit::file(id, vec![NoDiagnostics]).then(
                        Tree::Root,
                        vec![Exactly(vec![
                            "testdata/invalid-import-files/import-and-resource-clash.tf:9,3-19: Invalid import provider argument; The provider argument in the target resource block must match the import block.",
                        ])],
                    )
                }
                ("invalid-import-files", "import-and-no-resource.tf") => {
                    Unit::file(id, vec![NoDiagnostics]).then(
                        Tree::Root,
                        vec![Exactly(vec![
                            "testdata/invalid-import-files/import-and-no-resource.tf:5,3-19: Invalid import provider argument; The provider argument in the target resource block must be specified and match the import block.",
                        ])],
                    )
                }
                ("invalid-import-files", _) => panic!("no expectation known for {id}"),
                // The file loader and then a one-file module must give no
                // diagnostics and no errors: as every module-assembly check is
                // an error, together that is "no diagnostics at all".
                ("valid-files", _) => Unit::file(id, load),
                _ => Unit::file(id, load).read_by_file_loader(),
            };
            units.push(unit);
        }
    }
    for folder in MODULE_FOLDERS {
        for name in entries(&testdata.join(folder), true) {
            let id = format!("{folder}/{name}");
            let unit = match folder {
                "valid-modules" | "escaping-blocks" => Unit::module(id, vec![NoDiagnostics]),
                "invalid-modules" => {
                    let mut load = vec![AtLeastOneError];
                    match name.as_str() {
                        "multiple-required-providers" => {
                            load.push(SomeContains("Duplicate required providers configuration"));
                        }
                        "multiple-required-providers-with-syntax-error" => {
                            load.push(ErrorsContaining(vec![
                                "Missing attribute value; Expected an attribute value",
                                r#"Unexpected "resource" block; Blocks are not allowed here"#,
                                "Duplicate required providers configuration",
                            ]));
                        }
                        "override-cloud-duplicates" => {
                            load.push(SomeContains("Duplicate cloud configurations"));
                        }
                        "unsupported-version-and-other-error" => {
                            load.push(ErrorSummaries(vec!["Incompatible module"]));
                        }
                        _ => {}
                    }
                    Unit::module(id, load)
                }
                _ => {
                    let case = testdata.join(&id);
                    Unit::module(id, vec![NoErrors]).then(
                        Tree::ChildrenFromFixtureRoot,
                        vec![DiagnosticsFiles {
                            errors: read_expectation_lines(&case.join("errors")),
                            warnings: read_expectation_lines(&case.join("warnings")),
                        }],
                    )
                }
            };
            units.push(unit);
        }
    }

    let single = vec![
        Unit::module("config-build", vec![NoDiagnostics])
            .then(Tree::ChildrenFromFixtureRoot, vec![NoDiagnostics]),
        Unit::module("nested-errors", vec![NoDiagnostics]).then(
            Tree::ChildrenFromFixtureRoot,
            vec![Exactly(vec![
                r#"testdata/nested-errors/child_c/child_c.tf:5,1-8: Unsupported block type; Blocks of type "invalid" are not expected here."#,
            ])],
        ),
        Unit::module("nested-backend-warning", vec![NoDiagnostics]).then(
            Tree::ChildrenFromFixtureRoot,
            vec![SomeContains(": Backend configuration ignored; ")],
        ),
        Unit::module("duplicate-local-name", Vec::new()).then(
            Tree::WholeTreeFromCaller,
            vec![Count {
                count: 3,
                with: vec![("Duplicate required provider", "")],
            }],
        ),
        Unit::module("provider_for_each", Vec::new()).then(
            Tree::WholeTreeFromCaller,
            vec![Count {
                count: 4,
                with: vec![
                    ("Provider configuration for_each matches module", "This provider configuration uses the same for_each expression as a module, which means that subsequent removal of elements from this collection would cause a planning error."),
                    ("Provider configuration for_each matches resource", "This provider configuration uses the same for_each expression as a resource, which means that subsequent removal of elements from this collection would cause a planning error."),
                    ("Invalid module provider configuration", r#"This module doesn't declare a provider "dumme" block with alias = "key", which is required for use with for_each"#),
                    ("Invalid resource provider configuration", r#"This module doesn't declare a provider "dumme" block with alias = "key", which is required for use with for_each"#),
                ],
            }],
        ),
        Unit::module("provider-reqs", Vec::new()).then(
            Tree::WholeTreeFromCaller,
            vec![Count {
                count: 1,
                with: vec![(
                    "Version constraints inside provider configuration blocks are deprecated",
                    "",
                )],
            }],
        ),
        Unit::module("provider-reqs-with-tests", Vec::new()).then(
            Tree::WholeTreeFromCaller,
            vec![Count {
                count: 1,
                with: vec![(
                    "Version constraints inside provider configuration blocks are deprecated",
                    "",
                )],
            }],
        ),
        Unit::module("provider_from_json", vec![NoDiagnostics])
            .then(Tree::WholeTreeFromCaller, vec![NoDiagnostics]),
        Unit::module("providers-explicit-fqn", vec![NoErrors]),
        Unit::module("tofu-only-files", vec![NoDiagnostics]),
        Unit::module("tofu-and-tf-files", vec![NoDiagnostics]),
        Unit::module("uninit-module-and-provider-refs", vec![NoDiagnostics])
            .then(Tree::ChildrenFromFixtureRoot, vec![OnlyUnavailableModules]),
        Unit::module(
            "variable-empty-deprecated",
            vec![Exactly(vec![
                "testdata/variable-empty-deprecated/main.tf:1,10-33: Invalid `deprecated` value; The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.",
                "testdata/variable-empty-deprecated/main.tf:7,10-39: Invalid `deprecated` value; The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.",
            ])],
        )
        .read_by_file_loader(),
        Unit::module("ephemeral-blocks", vec![EphemeralBlocks]).read_by_file_loader(),
        Unit::module("dir-empty", vec![NoConfiguration]),
    ];
    units.extend(single);

    // Every top-level entry of the corpus is accounted for.
    let mut known: BTreeSet<String> = units.iter().map(|unit| unit.folder().to_owned()).collect();
    known.extend(NOT_UNITS.iter().map(|(name, _)| (*name).to_owned()));
    for name in entries(testdata, true)
        .into_iter()
        .chain(entries(testdata, false))
    {
        assert!(
            known.contains(&name),
            "opentofu-testdata/{name} is new: decide how OpenTofu's tests use it (MANIFEST.md) and score it here"
        );
    }
    for unit in &units {
        assert!(
            testdata.join(&unit.id).exists(),
            "unit {} is not in the corpus",
            unit.id
        );
    }
    units.sort_by(|a, b| a.id.cmp(&b.id));
    units
}

// ---------------------------------------------------------------------------
// Scoring.

struct UnitResult {
    id: String,
    folder: String,
    /// `None`: not scored (skip-listed, nothing left to score).
    outcome: Option<Result<(), String>>,
    /// The skip-list reason, when part or all of the unit is not scored.
    skip_reason: Option<String>,
}

/// What every unit needs: the corpus and the codes that never count.
struct Harness {
    testdata: PathBuf,
    tofu_lens_only: BTreeSet<Code>,
}

/// A unit copied to a temporary directory, its top directory analysed.
struct Loaded {
    copy: tempfile::TempDir,
    root: ModuleAnalysis,
    /// The root's diagnostics that OpenTofu could report (see `observe`).
    root_found: Vec<Found>,
    /// What the load stage compares: `root_found`, less [`MODULE_ASSEMBLY_CODES`]
    /// for a unit read by the file loader.
    load_stage: Vec<Found>,
}

impl Harness {
    fn new() -> Harness {
        Harness {
            testdata: testdata(),
            tofu_lens_only: tofu_lens_only_codes(),
        }
    }

    fn load(&self, unit: &Unit) -> Loaded {
        let copy = copy_unit(&self.testdata, unit);
        let root = analyze_root(copy.path()).unwrap();
        let root_found = observe(&root, &display_prefix(unit, ""), &self.tofu_lens_only);
        let load_stage = root_found
            .iter()
            .filter(|found| !(unit.file_loader && MODULE_ASSEMBLY_CODES.contains(&found.code)))
            .filter(|found| !BUILD_CODES.contains(&found.code))
            .cloned()
            .collect();
        Loaded {
            copy,
            root,
            root_found,
            load_stage,
        }
    }

    fn score(&self, unit: Unit, skips: &BTreeMap<String, String>) -> UnitResult {
        let skip_reason = skips.get(&unit.id).cloned();
        let after_load = unit.after_load.as_ref().filter(|_| skip_reason.is_none());
        let folder = unit.folder().to_owned();
        if unit.load.is_empty() && after_load.is_none() {
            return UnitResult {
                id: unit.id,
                folder,
                outcome: None,
                skip_reason,
            };
        }

        let loaded = self.load(&unit);
        let unit_text = unit
            .is_file
            .then(|| loaded.root.files.first().map(|file| file.text.to_string()))
            .flatten();
        let mut problems = Vec::new();
        for expectation in &unit.load {
            let checked = check(
                expectation,
                &loaded.load_stage,
                &loaded.root,
                unit_text.as_deref(),
            );
            if let Err(problem) = checked {
                problems.push(format!("load: {problem}"));
            }
        }

        if let Some(after_load) = after_load {
            let mut found = if after_load.tree == Tree::ChildrenFromFixtureRoot {
                // The root's load stage leaves these to this stage.
                loaded
                    .root_found
                    .iter()
                    .filter(|found| BUILD_CODES.contains(&found.code))
                    .cloned()
                    .collect()
            } else {
                loaded.root_found.clone()
            };
            if after_load.tree != Tree::Root {
                let walk = TreeWalk {
                    harness: self,
                    unit: &unit,
                    fixture_root: loaded.copy.path(),
                    relative_to_caller: after_load.tree == Tree::WholeTreeFromCaller,
                };
                walk.children(&loaded.root, "", 0, &mut found);
            }
            for expectation in &after_load.expectations {
                if let Err(problem) = check(expectation, &found, &loaded.root, unit_text.as_deref())
                {
                    problems.push(format!("after load: {problem}"));
                }
            }
        }

        let outcome = if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        };
        UnitResult {
            id: unit.id,
            folder,
            outcome: Some(outcome),
            skip_reason,
        }
    }
}

/// One diagnostic as OpenTofu's tests see it.
#[derive(Clone)]
struct Found {
    /// `None` for the harness's own "module not available" error.
    code: Option<Code>,
    severity: Severity,
    summary: String,
    detail: String,
    /// HCL's `Diagnostic.Error()`: `<path>:<range>: <summary>; <detail>`.
    rendered: String,
    start_line: Option<u32>,
    range: Option<TextRange>,
}

/// The diagnostics of one analysis that OpenTofu could report: errors and
/// warnings whose code is not tofu-lens-only. `prefix` is the display path of
/// the module directory (`testdata/nested-errors/child_c/`).
fn observe(analysis: &ModuleAnalysis, prefix: &str, tofu_lens_only: &BTreeSet<Code>) -> Vec<Found> {
    let mut found = Vec::new();
    for diagnostic in &analysis.diagnostics {
        let counts = matches!(diagnostic.severity, Severity::Error | Severity::Warning)
            && !tofu_lens_only.contains(&diagnostic.code)
            && !VALIDATE_CODES.contains(&diagnostic.code)
            && !PLAN_CODES.contains(&diagnostic.code);
        if !counts {
            continue;
        }
        let file = analysis.file(diagnostic.subject.file);
        let (subject, start_line) = match (file, diagnostic.subject.range) {
            (Some(file), Some(range)) => {
                let start = file.line_index.line_col(&file.text, range.start);
                let end = file.line_index.line_col(&file.text, range.end);
                let place = if start.line == end.line {
                    format!("{},{}-{}", start.line, start.column, end.column)
                } else {
                    format!(
                        "{},{}-{},{}",
                        start.line, start.column, end.line, end.column
                    )
                };
                (
                    Some(format!("{prefix}{}:{place}", file.name)),
                    Some(start.line),
                )
            }
            _ => (None, None),
        };
        let message = format!("{}; {}", diagnostic.summary, diagnostic.detail);
        found.push(Found {
            code: Some(diagnostic.code),
            severity: diagnostic.severity,
            summary: diagnostic.summary.clone(),
            detail: diagnostic.detail.clone(),
            rendered: match subject {
                Some(subject) => format!("{subject}: {message}"),
                None => message,
            },
            start_line,
            range: diagnostic.subject.range,
        });
    }
    found
}

fn check(
    expectation: &Expectation,
    found: &[Found],
    root: &ModuleAnalysis,
    unit_text: Option<&str>,
) -> Result<(), String> {
    let errors: Vec<&Found> = found
        .iter()
        .filter(|found| found.severity == Severity::Error)
        .collect();
    match expectation {
        Expectation::NoDiagnostics => expect_none(found.iter().collect(), "diagnostics"),
        Expectation::NoErrors => expect_none(errors, "errors"),
        Expectation::AtLeastOneError => {
            if errors.is_empty() {
                Err(format!(
                    "expected at least one error, got none{}",
                    listing(found.iter().collect())
                ))
            } else {
                Ok(())
            }
        }
        Expectation::NoConfiguration => {
            if root.primary.is_empty() && root.overrides.is_empty() {
                expect_none(found.iter().collect(), "diagnostics")
            } else {
                Err("expected no configuration file".to_owned())
            }
        }
        Expectation::Markers(severity) => {
            let marker = if *severity == Severity::Error {
                "ERROR: "
            } else {
                "WARNING: "
            };
            check_markers(unit_text.unwrap_or_default(), marker, *severity, found)
        }
        Expectation::Exactly(wanted) => {
            let wanted: BTreeSet<&str> = wanted.iter().copied().collect();
            let got: BTreeSet<&str> = found.iter().map(|found| found.rendered.as_str()).collect();
            let missing: Vec<&&str> = wanted.difference(&got).collect();
            let unexpected: Vec<&&str> = got.difference(&wanted).collect();
            if missing.is_empty() && unexpected.is_empty() {
                Ok(())
            } else {
                Err(format!("missing {missing:?}, unexpected {unexpected:?}"))
            }
        }
        Expectation::Only {
            severity,
            summary,
            detail,
        } => match found {
            [only]
                if only.severity == *severity
                    && only.summary == *summary
                    && only.detail == *detail =>
            {
                Ok(())
            }
            _ => Err(format!(
                "expected exactly the {} {summary:?} with detail {detail:?}{}",
                severity.as_str(),
                listing(found.iter().collect())
            )),
        },
        Expectation::SomeContains(text) => {
            if found.iter().any(|found| found.rendered.contains(text)) {
                Ok(())
            } else {
                Err(format!(
                    "expected a diagnostic containing {text:?}{}",
                    listing(found.iter().collect())
                ))
            }
        }
        Expectation::ErrorsContaining(texts) => {
            let mut unmatched: Vec<&Found> = errors.clone();
            let mut missing = Vec::new();
            for text in texts {
                match unmatched
                    .iter()
                    .position(|error| error.rendered.contains(text))
                {
                    Some(index) => {
                        unmatched.remove(index);
                    }
                    None => missing.push(*text),
                }
            }
            if missing.is_empty() && unmatched.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "expected {} errors containing {texts:?}; missing {missing:?}{}",
                    texts.len(),
                    listing(errors)
                ))
            }
        }
        Expectation::ErrorSummaries(wanted) => {
            let mut got: Vec<&str> = errors.iter().map(|error| error.summary.as_str()).collect();
            got.sort_unstable();
            let mut wanted = wanted.clone();
            wanted.sort_unstable();
            if got == wanted {
                Ok(())
            } else {
                Err(format!("expected error summaries {wanted:?}, got {got:?}"))
            }
        }
        Expectation::Count { count, with } => {
            let mut problems = Vec::new();
            if found.len() != *count {
                problems.push(format!("expected {count} diagnostics"));
            }
            for (summary, detail_prefix) in with {
                let present = found.iter().any(|found| {
                    found.summary == *summary && found.detail.starts_with(detail_prefix)
                });
                if !present {
                    problems.push(format!("expected one with summary {summary:?}"));
                }
            }
            if problems.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{}{}",
                    problems.join(", "),
                    listing(found.iter().collect())
                ))
            }
        }
        Expectation::DiagnosticsFiles { errors, warnings } => {
            let mut problems = Vec::new();
            for (severity, wanted) in [(Severity::Error, errors), (Severity::Warning, warnings)] {
                let got: Vec<&Found> = found
                    .iter()
                    .filter(|found| found.severity == severity)
                    .collect();
                for line in wanted {
                    if !got
                        .iter()
                        .any(|found| found.rendered.contains(line.as_str()))
                    {
                        problems.push(format!("no {} containing {line:?}", severity.as_str()));
                    }
                }
                for found in got {
                    if !wanted
                        .iter()
                        .any(|line| found.rendered.contains(line.as_str()))
                    {
                        problems.push(format!(
                            "unexpected {} {:?}",
                            severity.as_str(),
                            found.rendered
                        ));
                    }
                }
            }
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems.join(", "))
            }
        }
        Expectation::OnlyUnavailableModules => {
            let others: Vec<&Found> = found.iter().filter(|found| found.code.is_some()).collect();
            expect_none(others, "diagnostics besides the unavailable module")
        }
        Expectation::EphemeralBlocks => check_ephemeral_blocks(found),
    }
}

fn expect_none(unexpected: Vec<&Found>, what: &str) -> Result<(), String> {
    if unexpected.is_empty() {
        Ok(())
    } else {
        Err(format!("expected no {what}{}", listing(unexpected)))
    }
}

/// `, got: [<rendered>, …]`, or `, got none`.
fn listing(found: Vec<&Found>) -> String {
    if found.is_empty() {
        return ", got none".to_owned();
    }
    let rendered: Vec<String> = found
        .iter()
        .map(|found| format!("{} {:?}", found.severity.as_str(), found.rendered))
        .collect();
    format!(", got [{}]", rendered.join(", "))
}

/// The marker comparison of `TestParserLoadConfigFileError`/`…Warning`: each line
/// holding `marker` expects one diagnostic of `severity` starting on it, whose
/// summary is the rest of the line; diagnostics without a range are not compared.
/// Two diagnostics starting on one line fail (OpenTofu's map would keep one).
fn check_markers(
    text: &str,
    marker: &str,
    severity: Severity,
    found: &[Found],
) -> Result<(), String> {
    let mut wanted: BTreeMap<u32, String> = BTreeMap::new();
    for (index, line) in text.split('\n').enumerate() {
        // Go's bufio.ScanLines drops one carriage return before the newline.
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(at) = line.find(marker) {
            let number = u32::try_from(index + 1).unwrap();
            wanted.insert(number, line[at + marker.len()..].to_owned());
        }
    }
    let mut got: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for found in found.iter().filter(|found| found.severity == severity) {
        if let Some(line) = found.start_line {
            got.entry(line).or_default().push(found.summary.clone());
        }
    }
    let lines: BTreeSet<u32> = wanted.keys().chain(got.keys()).copied().collect();
    let mut problems = Vec::new();
    for line in lines {
        let want = wanted.get(&line);
        let have = got.get(&line).map(Vec::as_slice).unwrap_or_default();
        match (want, have) {
            (Some(want), [have]) if want == have => {}
            (Some(want), have) => problems.push(format!(
                "line {line}: expected {} {want:?}, got {have:?}",
                severity.as_str()
            )),
            (None, have) => problems.push(format!(
                "line {line}: unexpected {} {have:?}",
                severity.as_str()
            )),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join(", "))
    }
}

fn check_ephemeral_blocks(found: &[Found]) -> Result<(), String> {
    const KEYWORDS: [&str; 6] = [
        "ignore_changes",
        "prevent_destroy",
        "create_before_destroy",
        "replace_triggered_by",
        "connection",
        "provisioner",
    ];
    let mut problems = Vec::new();
    if found.len() != 6 {
        problems.push(format!("expected 6 diagnostics, got {}", found.len()));
    }
    for found in found {
        if !KEYWORDS
            .iter()
            .any(|keyword| found.rendered.contains(keyword))
        {
            problems.push(format!("names no forbidden argument: {:?}", found.rendered));
        }
    }
    // The last diagnostic mentioning "connection" must overlap 18,3-13.
    let connection = found
        .iter()
        .rev()
        .find(|found| found.rendered.contains("connection"));
    match connection.and_then(|found| found.range) {
        Some(range) if range.start < 284 && range.end.max(range.start + 1) > 274 => {}
        Some(range) => problems.push(format!(
            "the connection diagnostic is at bytes {}..{}, not over 274..284",
            range.start, range.end
        )),
        None => problems.push("no diagnostic for the connection block".to_owned()),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            problems.join(", "),
            listing(found.iter().collect())
        ))
    }
}

// ---------------------------------------------------------------------------
// The emulated tree build: local `source`s of `module` blocks, each child
// directory analysed on its own.

const MAX_TREE_DEPTH: usize = 10;

/// The emulated module-tree build of one unit.
struct TreeWalk<'a> {
    harness: &'a Harness,
    unit: &'a Unit,
    /// The unit's temporary copy.
    fixture_root: &'a Path,
    /// `source`s relative to the calling module (else to the fixture root).
    relative_to_caller: bool,
}

impl TreeWalk<'_> {
    /// Adds the diagnostics of the modules `caller` (in `caller_dir`, relative to
    /// the fixture root) calls, and of theirs, in call order. A module that
    /// cannot be loaded gets the harness's own "Module not available" error, as
    /// the Go tests' walkers return one.
    fn children(
        &self,
        caller: &ModuleAnalysis,
        caller_dir: &str,
        depth: usize,
        found: &mut Vec<Found>,
    ) {
        for (call, source) in module_calls(caller) {
            let base = if self.relative_to_caller {
                caller_dir
            } else {
                ""
            };
            let child_dir = (source.starts_with("./") || source.starts_with("../"))
                .then(|| normalize(&format!("{base}/{source}")))
                .flatten();
            let child = child_dir
                .filter(|_| depth < MAX_TREE_DEPTH)
                .and_then(|dir| {
                    let path = self.fixture_root.join(&dir);
                    let analysis = path.is_dir().then(|| analyze_dir(&path).ok()).flatten();
                    analysis.map(|analysis| (dir, analysis))
                });
            let Some((dir, analysis)) = child else {
                found.push(Found {
                    code: None,
                    severity: Severity::Error,
                    summary: "Module not available".to_owned(),
                    detail: format!("module.{call}: no module directory at {source:?}"),
                    rendered: format!("Module not available; module.{call}: {source:?}"),
                    start_line: None,
                    range: None,
                });
                continue;
            };
            let prefix = display_prefix(self.unit, &dir);
            found.extend(observe(&analysis, &prefix, &self.harness.tofu_lens_only));
            self.children(&analysis, &dir, depth + 1, found);
        }
    }
}

/// `(name, source)` of the `module` blocks of the primary files, in file order.
/// Override files are not consulted: no fixture overrides a module's source.
fn module_calls(analysis: &ModuleAnalysis) -> Vec<(String, String)> {
    let mut calls = Vec::new();
    for id in &analysis.primary {
        let Some(source) = analysis.file(*id).and_then(|file| file.source.as_ref()) else {
            continue;
        };
        for block in source.body.blocks_of_kind("module") {
            let name = block.label(0).unwrap_or_default().to_owned();
            if let Some(address) = block
                .body
                .attribute("source")
                .and_then(|attribute| attribute.expr.as_str())
            {
                calls.push((name, address.to_owned()));
            }
        }
    }
    calls
}

/// `a/./b/../c` → `a/c`, relative to the fixture root; `None` when the path
/// leaves it.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    Some(parts.join("/"))
}

// ---------------------------------------------------------------------------
// Files: the corpus, temporary copies, the skip list and the outcomes.

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn testdata() -> PathBuf {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/opentofu-testdata");
    assert!(
        path.is_dir(),
        "OpenTofu's fixtures must sit in the shared corpus beside the repository: {} not found",
        path.display()
    );
    path
}

/// The names of the directories (or of the files) in `dir`, sorted.
fn entries(dir: &Path, directories: bool) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir() == directories)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A fresh temporary copy of the unit: the file alone, or the folder whole.
fn copy_unit(testdata: &Path, unit: &Unit) -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    let source = testdata.join(&unit.id);
    if unit.is_file {
        let name = source.file_name().unwrap();
        fs::copy(&source, copy.path().join(name)).unwrap();
    } else {
        copy_tree(&source, copy.path());
    }
    copy
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            fs::create_dir(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn analyze_dir(dir: &Path) -> std::io::Result<ModuleAnalysis> {
    let inputs = tofu_vfs::read_module_dir(dir)?;
    Ok(analyze(
        &inputs,
        &Config::default(),
        &mut AnalysisCache::new(),
    ))
}

/// The analysis of the unit's top directory `dir`, in the tree of the modules
/// its test files' runs call by a local path (resolved and followed by
/// `tofu_module::calls`, as `check` does), each analysed on its own.
fn analyze_root(dir: &Path) -> std::io::Result<ModuleAnalysis> {
    let inputs = tofu_vfs::read_module_dir(dir)?;
    let config = Config::default();
    let mut cache = AnalysisCache::new();
    let alone = analyze(&inputs, &config, &mut cache);
    let runs = resolve_test_runs(dir, &alone.test_run_modules());
    if runs.is_empty() {
        return Ok(alone);
    }
    let lookup = |called: &Path| -> Option<CalledDir> {
        let Ok(analysis) = analyze_dir(called) else {
            return Some(CalledDir::unreadable());
        };
        let calls = resolve_calls(called, &analysis.module_calls(), None);
        Some(CalledDir {
            interface: Some(Arc::new(analysis.interface())),
            calls: calls.into_iter().filter_map(|call| call.dir).collect(),
            unreadable: false,
        })
    };
    let tree = called_modules(dir, &runs, &lookup);
    Ok(analyze_in_tree(
        &inputs,
        &config,
        &tree,
        &ProviderSchemas::default(),
        &mut cache,
    ))
}

/// The path OpenTofu's tests print before a file name of the unit's module
/// directory `dir` (relative to the unit): `testdata/config-diagnostics/x/mod/`.
fn display_prefix(unit: &Unit, dir: &str) -> String {
    let mut prefix = String::from("testdata/");
    if unit.is_file {
        prefix.push_str(unit.folder());
    } else {
        prefix.push_str(&unit.id);
    }
    prefix.push('/');
    if !dir.is_empty() {
        prefix.push_str(dir);
        prefix.push('/');
    }
    prefix
}

/// Lines of a `config-diagnostics` expectation file, as `readDiags` reads them.
fn read_expectation_lines(path: &Path) -> Vec<String> {
    let Ok(text) = fs::read_to_string(path) else {
        return Vec::new();
    };
    text.split('\n')
        .map(|line| line.trim().replace("\\n", "\n"))
        .filter(|line| !line.is_empty())
        .collect()
}

/// The codes `spec/diagnostics.md` marks **(tofu-lens)**: OpenTofu has no such
/// diagnostic, so they never count for or against a unit.
fn tofu_lens_only_codes() -> BTreeSet<Code> {
    let path = repo().join("../shared/spec/diagnostics.md");
    let catalogue =
        fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let mut codes = BTreeSet::new();
    for line in catalogue.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(name), Some(summary)) = (cells.get(1), cells.get(3)) else {
            continue;
        };
        let Some(name) = name
            .strip_prefix('`')
            .and_then(|name| name.strip_suffix('`'))
        else {
            continue;
        };
        if summary.contains("(tofu-lens)") {
            let code = tofu_diagnostics::catalogue::code_named(name)
                .unwrap_or_else(|| panic!("diagnostics.md names an unknown code {name}"));
            codes.insert(code);
        }
    }
    assert!(
        codes.contains(&tofu_diagnostics::codes::FILE_SHADOWED)
            && codes.contains(&tofu_diagnostics::codes::REQUIRED_VERSION_IGNORED),
        "tofu-lens-only codes not found in {}: {codes:?}",
        path.display()
    );
    codes
}

/// Reads `tests/conformance-skip.txt`: `<unit> # <reason>` per line. Each entry
/// must name a unit with an after-load stage, and give a reason.
fn read_skip_list(units: &[Unit]) -> BTreeMap<String, String> {
    let path = repo().join("tests/conformance-skip.txt");
    let text =
        fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let mut skips = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, reason) = line
            .split_once(" # ")
            .unwrap_or_else(|| panic!("skip entry without ` # <reason>`: {line}"));
        let id = id.trim();
        let unit = units.iter().find(|unit| unit.id == id);
        let unit = unit.unwrap_or_else(|| panic!("skip entry for an unknown unit: {id}"));
        assert!(
            unit.after_load.is_some(),
            "skip entry {id}: the unit has no after-load stage, so nothing of it needs skipping"
        );
        let previous = skips.insert(id.to_owned(), reason.trim().to_owned());
        assert!(previous.is_none(), "skip entry {id} given twice");
    }
    skips
}

/// The differences between the expected and the actual outcome lists.
fn outcome_changes(expected: &str, actual: &str) -> Vec<String> {
    let parse = |text: &str| -> BTreeMap<String, String> {
        text.lines()
            .filter_map(|line| line.rsplit_once(' '))
            .map(|(id, outcome)| (id.to_owned(), outcome.to_owned()))
            .collect()
    };
    let expected = parse(expected);
    let actual = parse(actual);
    let mut changes = Vec::new();
    for (id, outcome) in &actual {
        match expected.get(id) {
            Some(before) if before == outcome => {}
            Some(before) => changes.push(format!("{id}: {before} -> {outcome}")),
            None => changes.push(format!("{id}: new unit, {outcome}")),
        }
    }
    for id in expected.keys().filter(|id| !actual.contains_key(*id)) {
        changes.push(format!("{id}: no longer scored"));
    }
    changes
}

/// The table: pass rate per top-level folder, then every failing unit with its
/// reason, then what the skip list leaves out.
fn report(results: &[UnitResult]) -> String {
    #[derive(Default)]
    struct Row {
        n_pass: usize,
        n_scored: usize,
        /// Scored on the load stage only (after-load stage skip-listed).
        n_load_only: usize,
        n_unscored: usize,
    }
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for result in results {
        let row = rows.entry(result.folder.as_str()).or_default();
        match &result.outcome {
            Some(outcome) => {
                row.n_scored += 1;
                row.n_pass += usize::from(outcome.is_ok());
                row.n_load_only += usize::from(result.skip_reason.is_some());
            }
            None => row.n_unscored += 1,
        }
    }
    let mut out =
        String::from("\nOpenTofu loader fixtures (opentofu-testdata): pass rate per folder\n");
    let header = ("folder", "pass", "scored", "rate", "load-only", "unscored");
    writeln!(
        out,
        "{:<32} {:>5} {:>6} {:>5} {:>9} {:>8}",
        header.0, header.1, header.2, header.3, header.4, header.5
    )
    .unwrap();
    let mut total = Row::default();
    for (folder, row) in &rows {
        writeln!(
            out,
            "{folder:<32} {:>5} {:>6} {:>5} {:>9} {:>8}",
            row.n_pass,
            row.n_scored,
            rate(row.n_pass, row.n_scored),
            row.n_load_only,
            row.n_unscored
        )
        .unwrap();
        total.n_pass += row.n_pass;
        total.n_scored += row.n_scored;
        total.n_load_only += row.n_load_only;
        total.n_unscored += row.n_unscored;
    }
    writeln!(
        out,
        "{:<32} {:>5} {:>6} {:>5} {:>9} {:>8}",
        "total",
        total.n_pass,
        total.n_scored,
        rate(total.n_pass, total.n_scored),
        total.n_load_only,
        total.n_unscored
    )
    .unwrap();

    out.push_str("\nFailing units (what OpenTofu's test expects vs what tofu-lens said):\n");
    for result in results {
        if let Some(Err(reason)) = &result.outcome {
            let reason = reason.replace('\n', "\\n");
            writeln!(out, "  FAIL {}: {}", result.id, shorten(&reason, 400)).unwrap();
        }
    }
    out.push_str(
        "\nSkip list (tests/conformance-skip.txt): `~` scored on the load stage only, `-` not scored\n",
    );
    for result in results {
        if let Some(reason) = &result.skip_reason {
            let mark = if result.outcome.is_none() { "-" } else { "~" };
            writeln!(out, "  {mark} {}: {reason}", result.id).unwrap();
        }
    }
    out
}

fn rate(pass: usize, scored: usize) -> String {
    if scored == 0 {
        return "-".to_owned();
    }
    format!("{}%", pass * 100 / scored)
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let short: String = text.chars().take(max_chars).collect();
    format!("{short}…")
}

//! The registry of diagnostic rules that are not part of loading or merging
//! proper, by entry point; each family of codes has its own module.
//!
//! A rule has exactly one entry point, and it receives only what it may read:
//!
//! | entry point | receives | run | results kept |
//! | --- | --- | --- | --- |
//! | [`FILE_RULES`] | a [`FileView`]: one file as written | once per file text and role | with the parsed file |
//! | [`IDENTITY_RULES`] | an [`IdentityView`]: one merged identity and its own blocks | when an edit touches a file holding one of its blocks | with the identity |
//! | [`MODULE_RULES`] | a [`ModuleView`]: everything, each read recorded | when an edit touches what it read, or changes a shape | one memo per rule, with its reads |
//! | [`NODE_RULES`] | one node it judges (an effective block or a local value), and a [`ModuleView`] for the rest | when an edit touches what it read for that node, or changes a shape | one memo per rule and node, with its reads |
//!
//! Adding a rule is one line in one of these tables and one function in the
//! family's module. Adding a diagnostic code:
//!
//! 1. `crate::codes`: a line in `define_codes!` with the next free number,
//!    the name and the default severity (never change or reuse either), and
//!    the same constant with its one-sentence explanation at the end of
//!    `crate::catalogue` (its tests check that the two agree).
//! 2. The rule module of its family (or a new one beside them): a function
//!    of the narrowest entry point that works. One file as written:
//!    `fn(FileView, &mut Vec<Diagnostic>)` (a decoding rule) or
//!    `fn(FileView, &DecodeFailures, …)` (after decoding). One merged
//!    identity: `fn(&IdentityView, …)`. Anything across blocks or files:
//!    `fn(&ModuleView, …)`. One node of the walk that reads others (found on
//!    that node, silenced with it): `fn(&ModuleView, MergedNode, …)`.
//! 3. One entry in `FILE_RULES`, `IDENTITY_RULES`, `MODULE_RULES` or
//!    `NODE_RULES` below, with the [`Phase`] in which OpenTofu reports it.
//! 4. Fixtures: `tests/fixtures/<area>/<case>/` with real files and a
//!    near-miss twin that stays silent; `UPDATE_EXPECT=1 cargo test -p
//!    tofu-lens --test fixtures` writes the expectations and `UPDATE_EXPECT=1
//!    cargo test -p tofu-lens --test docs` regenerates `docs/diagnostics.md`.
//!
//! File rules come in two stages. Those that are part of OpenTofu's decoding
//! of a block ([`FileCheck::Decoding`]) run first; their errors say where
//! decoding failed ([`DecodeFailures`]), which the later stage
//! ([`FileCheck::AfterDecoding`]) receives as data, so the order of the rules
//! in the table never matters. Rules with [`Phase::Validate`] model what
//! OpenTofu reports only once loading succeeded; the analysis withholds
//! their diagnostics while any error is reported.
//!
//! A node rule judges one node of `validate`'s walk with what it reads of
//! others (an output's value, followed through local values and
//! variables): its findings belong to the node, so the graph silences them
//! when a dependency failed, and an edit judges again only the nodes whose
//! recorded reads it touched, not every node of the kind.

pub(crate) mod argument_validations;
pub(crate) mod blocks;
pub(crate) mod bodies;
pub(crate) mod decode_failures;
pub(crate) mod evaluation;
pub(crate) mod expression_evaluation;
pub(crate) mod messages;
pub(crate) mod module_calls;
pub(crate) mod module_tree;
pub(crate) mod moves;
pub(crate) mod plan_values;
pub(crate) mod provider_for_each;
pub(crate) mod provider_functions;
pub(crate) mod provider_packages;
pub(crate) mod provider_schema;
pub(crate) mod provider_tree;
pub(crate) mod providers;
pub(crate) mod references;
pub(crate) mod sensitive_outputs;
pub(crate) mod statements;
pub(crate) mod test_files;
pub(crate) mod types;
pub(crate) mod unused;
pub(crate) mod validate;
pub(crate) mod values;
pub(crate) mod variables;
pub(crate) mod versions;
pub(crate) mod views;
pub(crate) mod walk_values;

use tofu_syntax::Diagnostic;

use crate::declare_fix::UndeclaredVariableUse;
use decode_failures::DecodeFailures;
use tofu_module::loaded::FileView;
use tofu_module::refs::NodeRef;
use views::{IdentityView, MergedNode, ModuleView, NameReads, Violation};

/// When OpenTofu reports what a rule finds. Each phase runs only when the
/// ones before it reported no error (`analysis`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// While loading the module: always.
    Load,
    /// While OpenTofu builds the configuration from the loaded modules
    /// (`configs.BuildConfig`: the provider configurations across the
    /// module tree, `provider_validation.go`), once loading succeeded; `tofu
    /// init` stops on its errors, and `validate` builds no graph after them.
    Build,
    /// While building the module tree, once loading succeeded.
    Tree,
    /// While OpenTofu builds `validate`'s graph after the module tree's
    /// inputs are in it (`ProviderFunctionTransformer` runs after
    /// `ModuleVariableTransformer`), once the tree reported no error.
    Graph,
    /// During `validate`'s walk of the dependency graph, once the tree was
    /// built and the graph has no cycle; for an identity rule, only on a node
    /// none of whose dependencies failed (`graph`).
    Walk,
    /// What other commands report that `validate` never reads: `tofu plan`
    /// on variable values (`.tfvars` files), `tofu test` on assertions
    /// (as warnings). They neither wait for the phases before nor hold
    /// back any. Module rules only.
    Plan,
    /// tofu-lens's own findings, which OpenTofu never reports (as tflint's):
    /// never withheld, and never holding anything back. Module rules only.
    Lint,
}

/// A rule on one file as written.
pub(crate) enum FileCheck {
    /// Part of OpenTofu's decoding of a block: its errors mark the blocks
    /// whose decoding failed.
    Decoding(fn(FileView<'_>, &mut Vec<Diagnostic>)),
    /// After decoding, told where it failed.
    AfterDecoding(fn(FileView<'_>, &DecodeFailures, &mut Vec<Diagnostic>)),
}

/// A rule on one merged identity.
#[derive(Debug)]
pub(crate) struct IdentityRule {
    pub(crate) name: &'static str,
    pub(crate) phase: Phase,
    pub(crate) check: fn(&IdentityView<'_>, &mut Vec<Diagnostic>),
}

/// A rule on the whole merged module.
pub(crate) struct ModuleRule {
    pub(crate) name: &'static str,
    pub(crate) phase: Phase,
    pub(crate) check: fn(&ModuleView<'_>, &mut Vec<Diagnostic>),
}

/// A rule on one effective block of the kinds it `judges`, in `validate`'s
/// walk ([`Phase::Walk`]), reading the rest of the module through a
/// recording view; its findings belong to the block's node.
pub(crate) struct NodeRule {
    pub(crate) name: &'static str,
    /// Which nodes it judges (a block by its address, a local value by its
    /// name).
    pub(crate) judges: fn(NodeRef<'_>) -> bool,
    pub(crate) check: fn(&ModuleView<'_>, MergedNode<'_>, &mut Vec<Diagnostic>),
}

pub(crate) const FILE_RULES: &[FileCheck] = &[
    FileCheck::Decoding(bodies::check),
    FileCheck::Decoding(providers::check),
    FileCheck::Decoding(references::check),
    FileCheck::AfterDecoding(blocks::check),
    FileCheck::AfterDecoding(|view, _, out| types::check(view, out)),
    FileCheck::AfterDecoding(|view, _, out| variables::check_file(view, out)),
];

pub(crate) const IDENTITY_RULES: &[IdentityRule] = &[
    IdentityRule {
        name: "variable-defaults-merged",
        phase: Phase::Load,
        check: variables::check_merged,
    },
    IdentityRule {
        name: "implied-provider-local-name",
        phase: Phase::Build,
        check: providers::implied_local_name,
    },
    IdentityRule {
        name: "references",
        phase: Phase::Walk,
        check: validate::check,
    },
    IdentityRule {
        name: "module-argument-values",
        phase: Phase::Walk,
        check: module_tree::argument_values,
    },
    IdentityRule {
        name: "module-dir-unreadable",
        phase: Phase::Load,
        check: module_tree::unreadable_dir,
    },
    IdentityRule {
        name: "module-arguments",
        phase: Phase::Tree,
        check: module_tree::arguments,
    },
    IdentityRule {
        name: "provider-functions",
        phase: Phase::Graph,
        check: provider_functions::check,
    },
];

pub(crate) const MODULE_RULES: &[ModuleRule] = &[
    ModuleRule {
        name: "duplicate-imports",
        phase: Phase::Load,
        check: bodies::duplicate_imports,
    },
    ModuleRule {
        name: "module-calls",
        phase: Phase::Load,
        check: module_calls::check,
    },
    ModuleRule {
        name: "provider-for-each",
        phase: Phase::Load,
        check: provider_for_each::check,
    },
    ModuleRule {
        name: "versions",
        phase: Phase::Load,
        check: versions::check,
    },
    ModuleRule {
        name: "child-modules",
        phase: Phase::Load,
        check: provider_tree::child_modules,
    },
    ModuleRule {
        name: "provider-configurations",
        phase: Phase::Build,
        check: provider_tree::check,
    },
    ModuleRule {
        name: "provider-proxies",
        phase: Phase::Graph,
        check: provider_tree::proxies,
    },
    ModuleRule {
        name: "import-references",
        phase: Phase::Walk,
        check: validate::imports,
    },
    ModuleRule {
        name: "import-values",
        phase: Phase::Walk,
        check: evaluation::imports,
    },
    ModuleRule {
        name: "test-files",
        phase: Phase::Load,
        check: test_files::decode,
    },
    ModuleRule {
        name: "test-provider-types",
        phase: Phase::Build,
        check: test_files::provider_types,
    },
    ModuleRule {
        name: "test-file-references",
        phase: Phase::Walk,
        check: test_files::validate,
    },
    ModuleRule {
        name: "test-assertions",
        phase: Phase::Plan,
        check: test_files::would_fail,
    },
    ModuleRule {
        name: "variable-values",
        phase: Phase::Plan,
        check: values::check,
    },
    ModuleRule {
        name: "plan-moves",
        phase: Phase::Plan,
        check: moves::check,
    },
    ModuleRule {
        name: "plan-statements",
        phase: Phase::Plan,
        check: statements::check,
    },
    ModuleRule {
        name: "provider-packages",
        phase: Phase::Load,
        check: provider_packages::check,
    },
    ModuleRule {
        name: "unused-declaration",
        phase: Phase::Lint,
        check: unused::check,
    },
];

pub(crate) const NODE_RULES: &[NodeRule] = &[
    NodeRule {
        name: "evaluation",
        judges: evaluation::judges,
        check: evaluation::check,
    },
    NodeRule {
        name: "sensitive-outputs",
        judges: sensitive_outputs::judges,
        check: sensitive_outputs::check,
    },
];

/// Every file rule on one file as written, decoding first.
pub(crate) fn check_file(view: FileView<'_>) -> Vec<Diagnostic> {
    let mut decoding = Vec::new();
    for rule in FILE_RULES {
        if let FileCheck::Decoding(check) = rule {
            check(view, &mut decoding);
        }
    }
    let failures = DecodeFailures::of(view, &decoding);
    let mut out = decoding;
    for rule in FILE_RULES {
        if let FileCheck::AfterDecoding(check) = rule {
            check(view, &failures, &mut out);
        }
    }
    out
}

/// What the rules on one identity found, by phase, and the uses of
/// undeclared variables they recorded.
#[derive(Clone, Debug, Default)]
pub(crate) struct IdentityFindings {
    pub(crate) load: Vec<Diagnostic>,
    pub(crate) build: Vec<Diagnostic>,
    pub(crate) tree: Vec<Diagnostic>,
    pub(crate) graph: Vec<Diagnostic>,
    pub(crate) walk: Vec<Diagnostic>,
    pub(crate) undeclared_variables: Vec<UndeclaredVariableUse>,
}

impl IdentityFindings {
    pub(crate) fn is_empty(&self) -> bool {
        self.load.is_empty()
            && self.build.is_empty()
            && self.tree.is_empty()
            && self.graph.is_empty()
            && self.walk.is_empty()
            && self.undeclared_variables.is_empty()
    }
}

/// Every rule of `rules` on one identity (the registry's [`IDENTITY_RULES`]
/// but in tests of the registry itself), the names they asked about, and
/// how many reads the view refused. A refused read is a bug of the rule
/// that made it, whose findings may then be reused when they should not
/// be: every build logs it with the rule's name, and the caller counts it
/// (`Counters::n_rule_violations`). Debug builds (every test run) stop on
/// one made by a registered rule.
pub(crate) fn check_identity(
    rules: &[IdentityRule],
    view: &mut IdentityView<'_>,
) -> (IdentityFindings, NameReads, usize) {
    let (findings, violations) = run_identity_rules(rules, view);
    for violation in &violations {
        tracing::error!(
            rule = violation.rule,
            read = %violation.read,
            "a rule on one identity read outside its view"
        );
    }
    debug_assert!(
        violations.iter().all(|violation| IDENTITY_RULES
            .iter()
            .all(|rule| rule.name != violation.rule)),
        "identity rules read outside their view: {violations:?}"
    );
    (findings, view.take_name_reads(), violations.len())
}

/// `rules` on one identity, and the reads their view refused.
fn run_identity_rules(
    rules: &[IdentityRule],
    view: &mut IdentityView<'_>,
) -> (IdentityFindings, Vec<Violation>) {
    let mut findings = IdentityFindings::default();
    let mut violations = Vec::new();
    for rule in rules {
        view.for_rule(rule.name);
        let out = match rule.phase {
            Phase::Load => &mut findings.load,
            Phase::Build => &mut findings.build,
            Phase::Tree => &mut findings.tree,
            Phase::Graph => &mut findings.graph,
            Phase::Walk | Phase::Plan | Phase::Lint => &mut findings.walk,
        };
        (rule.check)(view, out);
        violations.extend(view.take_violations());
        findings
            .undeclared_variables
            .extend(view.take_undeclared_variables());
    }
    (findings, violations)
}

#[cfg(test)]
mod tests;

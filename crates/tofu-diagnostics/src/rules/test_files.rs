//! Test files (`*.tftest.hcl`, `*.tofutest.hcl` and their JSON forms, in
//! the module directory and in `tests/`; `FileRole::Test`), judged as
//! `tofu validate` judges them (`spec/diagnostics.md` §7, OpenTofu's
//! `test_file.go`): `invalid-test-keyword`, `incompatible-plan-options`,
//! `duplicate-test-block`, `invalid-test-address`, `test-would-fail`, and
//! in test files the codes their configuration counterparts have
//! (`unsupported-block`, `unsupported-argument`,
//! `missing-required-argument`, `invalid-block-labels`, `invalid-name`,
//! `invalid-constant-argument`, `constant-condition`, the provider and
//! module source codes).
//!
//! Four module rules, one per moment OpenTofu reports:
//!
//! - [`decode`] (`Phase::Load`): decoding each file while the module loads
//!   (`decode`, `run`, `mocks`); an error stops `validate` before its
//!   walk, as OpenTofu stops.
//! - [`provider_types`] (`Phase::Build`): "Provider type mismatch"
//!   between the providers of a test file and the module's, which
//!   OpenTofu reports while it builds the configuration.
//! - [`validate`] (`Phase::Walk`): `TestFile.Validate` and
//!   `TestRun.Validate`, which `validate` runs after its walk once loading
//!   succeeded. OpenTofu also reports them when the walk found a cycle;
//!   tofu-lens's walk phase does not (documented in `docs/oracle.md`).
//! - [`would_fail`] (`Phase::Plan`): what only `tofu test` reports, as
//!   warnings; never withheld and holding nothing back.
//!
//! Each reads the test files only through its view (the declarations
//! index for the warnings), so a result is reused until a test file, or a
//! shape, changes; [`provider_types`] also reads what the module tree says
//! of the modules test runs call, so a new tree runs it again. Test files are never merged into the configuration.
//! Only [`would_fail`] evaluates expressions: the assertions of `command =
//! plan` runs, with the values the run gives (`plan_runs`).

mod addresses;
mod decode;
mod in_test_file;
mod mocks;
mod plan_runs;
mod provider_types;
mod run;
mod validate;
mod would_fail;

#[cfg(test)]
mod tests;

use tofu_syntax::{Diagnostic, FileId};

use crate::rules::views::ModuleView;
use in_test_file::TestFileScope;
use tofu_module::loaded::FileRole;

/// The test files of the module, each read through the view.
fn test_files<'a>(view: &'a ModuleView<'_>) -> impl Iterator<Item = TestFileScope<'a>> + 'a {
    view.file_ids()
        .filter(|&id| view.role(id) == Some(FileRole::Test))
        .filter_map(|id: FileId| {
            Some(TestFileScope {
                id,
                file: view.file(id)?,
            })
        })
}

/// The `test-files` module rule: decoding every test file.
pub(crate) fn decode(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    for scope in test_files(view) {
        decode::file(&scope, out);
    }
}

/// The `test-file-references` module rule: `expect_failures` and the
/// override targets, after the walk.
pub(crate) fn validate(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    for scope in test_files(view) {
        validate::file(&scope, out);
    }
}

/// The `test-provider-types` module rule (`Phase::Build`): the types of
/// the test files' providers against the module's.
pub(crate) fn provider_types(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let mut files = test_files(view).peekable();
    if files.peek().is_none() {
        return;
    }
    let facts = tofu_module::provider_tree::facts::ModuleFacts::read_without_resources(view);
    for scope in files {
        provider_types::file(view, &scope, &facts, out);
    }
}

/// The `test-assertions` module rule: what `tofu test` would fail on.
pub(crate) fn would_fail(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    for scope in test_files(view) {
        would_fail::file(view, &scope, out);
        plan_runs::file(view, &scope, out);
    }
}

//! Reference rules on blocks as written (`diagnostics.md` §2.7, §4.17–§4.19):
//! `constant-condition`, `condition-self-reference`,
//! `validation-condition-reference`, `invalid-ignore-changes`,
//! `invalid-replace-triggered-by`, `invalid-depends-on`,
//! `destroy-provisioner-reference`, and the reference/keyword part of
//! `quoted-reference-deprecated` (elements of `depends_on` and
//! `ignore_changes`, provisioner `when` and `on_failure`).
//!
//! Every block of every loaded file is read the way OpenTofu decodes it,
//! before duplicates are found or overrides merged, with one exception: the
//! contents of `validation`, `precondition`, `postcondition`, `assert` and
//! `check` blocks are read in primary files only. A block with the wrong
//! number of labels is skipped (OpenTofu drops it), and so is a second
//! `lifecycle` or `connection` block and a removed vendor provisioner, whose
//! contents OpenTofu never decodes. Provider references (`provider = "…"`,
//! module `providers`) are another module's business, and what a reference
//! names is not checked against declarations (that needs the module tree).

mod conditions;
mod destroy;
mod in_file;
mod lists;
mod quoted;
mod referenceable;
mod scan;
mod traversal;

use tofu_syntax::{Attribute, Block, Code, Diagnostic};

use in_file::InFile;
use tofu_module::address::ResourceMode;
use tofu_module::loaded::{FileRole, FileView};
use tofu_module::schema::has_valid_labels;

pub(crate) fn check(view: FileView<'_>, out: &mut Vec<Diagnostic>) {
    let file = view.file;
    if !file.role.is_loaded() {
        return;
    }
    let Some(source) = &file.source else { return };
    let in_file = InFile {
        id: view.id,
        text: &file.text,
        json: file.is_json(),
        primary: file.role == FileRole::Primary,
    };
    for block in &source.body.blocks {
        if has_valid_labels(block) {
            in_file.top_level_block(block, out);
        }
    }
}

/// The condition of a test file's `assert` block, read as OpenTofu's
/// `decodeCheckRuleBlock` reads it (`constant-condition`).
pub(crate) fn test_assert(view: FileView<'_>, assert: &Block, out: &mut Vec<Diagnostic>) {
    conditions::rule(&in_test_file(view), assert, out);
}

/// A static list of references in a test file (`expect_failures`,
/// `plan_options` `replace` and `target`), which OpenTofu decodes as it
/// decodes `depends_on`; its errors carry `code`.
pub(crate) fn test_reference_list(
    view: FileView<'_>,
    attr: &Attribute,
    code: Code,
    out: &mut Vec<Diagnostic>,
) {
    let n_before = out.len();
    lists::depends_on(&in_test_file(view), attr, out);
    for diagnostic in out.iter_mut().skip(n_before) {
        if diagnostic.code == crate::codes::INVALID_DEPENDS_ON {
            diagnostic.code = code;
        }
    }
}

fn in_test_file(view: FileView<'_>) -> InFile<'_> {
    InFile {
        id: view.id,
        text: &view.file.text,
        json: view.file.is_json(),
        primary: true,
    }
}

impl InFile<'_> {
    fn top_level_block(&self, block: &Block, out: &mut Vec<Diagnostic>) {
        let kind = block.kind.as_str();
        if matches!(
            kind,
            "resource" | "data" | "ephemeral" | "module" | "output"
        ) {
            if let Some(depends_on) = block.body.attribute("depends_on") {
                lists::depends_on(self, depends_on, out);
            }
        }
        match kind {
            "resource" => {
                self.resource_lifecycle(block, ResourceMode::Managed, out);
                destroy::resource(self, block, out);
            }
            "data" => self.resource_lifecycle(block, ResourceMode::Data, out),
            "ephemeral" => self.resource_lifecycle(block, ResourceMode::Ephemeral, out),
            "output" => {
                for precondition in nested(block, "precondition") {
                    conditions::rule(self, precondition, out);
                }
            }
            "variable" => {
                let name = block.label(0).unwrap_or_default();
                for validation in nested(block, "validation") {
                    conditions::validation(self, validation, name, out);
                }
            }
            "check" if self.primary => {
                for assert in nested(block, "assert") {
                    conditions::rule(self, assert, out);
                }
                // OpenTofu reads one data block per check ("Multiple data
                // resource blocks" for the others).
                let first_data = block
                    .body
                    .blocks_of_kind("data")
                    .find(|data| data.labels.len() == 2);
                if let Some(data) = first_data {
                    if let Some(depends_on) = data.body.attribute("depends_on") {
                        lists::depends_on(self, depends_on, out);
                    }
                    self.resource_lifecycle(data, ResourceMode::Data, out);
                }
            }
            "removed" => destroy::removed(self, block, out),
            _ => {}
        }
    }

    /// The first `lifecycle` block of a `resource`, `data` or `ephemeral`
    /// block: its conditions, and for managed resources `ignore_changes` and
    /// `replace_triggered_by`.
    fn resource_lifecycle(&self, block: &Block, mode: ResourceMode, out: &mut Vec<Diagnostic>) {
        let Some(lifecycle) = nested(block, "lifecycle").next() else {
            return;
        };
        if mode == ResourceMode::Managed {
            if let Some(ignore_changes) = lifecycle.body.attribute("ignore_changes") {
                lists::ignore_changes(self, ignore_changes, out);
            }
            if let Some(replace_triggered_by) = lifecycle.body.attribute("replace_triggered_by") {
                lists::replace_triggered_by(self, replace_triggered_by, out);
            }
        }
        let resource = conditions::Resource {
            mode,
            type_name: block.label(0).unwrap_or_default(),
            name: block.label(1).unwrap_or_default(),
        };
        for rule in lifecycle.body.blocks.iter().filter(|rule| {
            matches!(rule.kind.as_str(), "precondition" | "postcondition") && rule.labels.is_empty()
        }) {
            conditions::rule(self, rule, out);
            conditions::self_reference(self, rule, &resource, out);
        }
    }
}

/// The nested blocks of one kind that OpenTofu decodes: those without labels
/// (every nested block type read here takes none, except provisioners).
fn nested<'a>(block: &'a Block, kind: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
    block
        .body
        .blocks_of_kind(kind)
        .filter(|nested| nested.labels.is_empty())
}

//! Meta-blocks that may appear once (`duplicate-nested-block`): `lifecycle` in
//! `resource`, `data`, `ephemeral`, `module` and `removed` blocks, `connection`
//! in a `resource` or a provisioner, and the escaping block `_` in `resource`,
//! `data`, `ephemeral`, `module`, `provider` and provisioner blocks.
//!
//! OpenTofu keeps the first one and ignores every later one with an error on
//! its header; the details are OpenTofu's, wording quirks included (a `module`
//! or `data` block "already has a lifecycle block" as "this resource").

use tofu_syntax::{Block, Diagnostic};

use super::file_checker::{nested_blocks, FileChecker};

/// The block holding the meta-blocks, which decides OpenTofu's wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Container {
    Resource,
    Data,
    Ephemeral,
    Module,
    Provider,
    Provisioner,
    Removed,
}

impl Container {
    /// `This resource already has a lifecycle block at …`.
    fn lifecycle_detail(self, first: &str) -> String {
        match self {
            Container::Ephemeral => {
                format!("This ephemeral resource already has a lifecycle block at {first}.")
            }
            Container::Removed => {
                format!("The removed block already has a lifecycle block at {first}.")
            }
            _ => format!("This resource already has a lifecycle block at {first}."),
        }
    }

    fn connection_detail(self, first: &str) -> String {
        match self {
            Container::Provisioner => {
                format!("This provisioner already has a connection block at {first}.")
            }
            _ => format!("This resource already has a connection block at {first}."),
        }
    }

    fn escaping_detail(self, first: &str) -> String {
        let (meaning, kind) = match self {
            Container::Module => ("module input variables", "module"),
            Container::Provider => ("provider-specific", "provider"),
            Container::Provisioner => ("provisioner-type-specific", "provisioner"),
            Container::Data => ("resource-type-specific", "data"),
            _ => ("resource-type-specific", "resource"),
        };
        format!(
            "The special block type \"_\" can be used to force particular arguments to be interpreted as {meaning} rather than as meta-arguments, but each {kind} block can have only one such block. The first escaping block was at {first}."
        )
    }
}

/// The meta-blocks of a `resource`, `data`, `ephemeral` or `module` block:
/// duplicate `lifecycle`, `connection` (resources only) and `_` blocks.
/// Returns the `lifecycle` block OpenTofu reads, if any.
pub(super) fn meta_blocks<'b>(
    checker: &FileChecker<'_>,
    block: &'b Block,
    container: Container,
    out: &mut Vec<Diagnostic>,
) -> Option<&'b Block> {
    let lifecycle = first_of_kind(
        checker,
        block,
        "lifecycle",
        "Duplicate lifecycle block",
        |first| container.lifecycle_detail(first),
        out,
    );
    if container == Container::Resource {
        connection(checker, block, container, out);
    }
    escaping_block(checker, block, container, out);
    lifecycle
}

/// Duplicate `lifecycle` blocks of a `removed` block; returns the first one.
pub(super) fn removed_lifecycle<'b>(
    checker: &FileChecker<'_>,
    block: &'b Block,
    out: &mut Vec<Diagnostic>,
) -> Option<&'b Block> {
    first_of_kind(
        checker,
        block,
        "lifecycle",
        "Duplicate lifecycle block",
        |first| Container::Removed.lifecycle_detail(first),
        out,
    )
}

/// Duplicate `connection` blocks; returns the first one.
pub(super) fn connection<'b>(
    checker: &FileChecker<'_>,
    block: &'b Block,
    container: Container,
    out: &mut Vec<Diagnostic>,
) -> Option<&'b Block> {
    first_of_kind(
        checker,
        block,
        "connection",
        "Duplicate connection block",
        |first| container.connection_detail(first),
        out,
    )
}

/// Duplicate escaping blocks `_`.
pub(super) fn escaping_block(
    checker: &FileChecker<'_>,
    block: &Block,
    container: Container,
    out: &mut Vec<Diagnostic>,
) {
    first_of_kind(
        checker,
        block,
        "_",
        "Duplicate escaping block",
        |first| container.escaping_detail(first),
        out,
    );
}

/// Reports every block of `kind` after the first and returns the first.
fn first_of_kind<'b>(
    checker: &FileChecker<'_>,
    block: &'b Block,
    kind: &'b str,
    summary: &str,
    detail: impl Fn(&str) -> String,
    out: &mut Vec<Diagnostic>,
) -> Option<&'b Block> {
    let mut blocks = nested_blocks(block, kind, 0);
    let first = blocks.next()?;
    let first_described = checker.describe(first.header);
    for later in blocks {
        out.push(
            Diagnostic::new(
                crate::codes::DUPLICATE_NESTED_BLOCK,
                summary,
                checker.at(later.header),
            )
            .with_detail(detail(&first_described))
            .with_related(checker.at(first.header), format!("the first {kind} block")),
        );
    }
    Some(first)
}

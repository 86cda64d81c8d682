//! The `encryption` block of a `terraform` block (`invalid-encryption`, and
//! `invalid-constant-argument` for `enforced` and `encrypted_metadata_alias`).
//!
//! OpenTofu decodes the block in two passes, and so do these checks. The
//! first is `gohcl`'s: the schema (reported by the schema rules), a second
//! `state`, `plan`, `remote_state_data_sources`, `default` or `fallback` block
//! ("Duplicate TYPE block"; none of them is then read), and the constant
//! arguments. Only when that pass reports no error does the second run:
//! `key_provider` and `method` blocks with the same type and name, named
//! remote state data sources given twice, and labels that are not
//! `[A-Za-z0-9_-]+`. Any error makes OpenTofu drop the whole `encryption`
//! block (not done here: the effective configuration is built elsewhere).

use tofu_syntax::{Block, Diagnostic, Label};

use super::file_checker::{nested_blocks, FileChecker};

pub(super) fn check(checker: &FileChecker<'_>, encryption: &Block, out: &mut Vec<Diagnostic>) {
    let n_before = out.len();
    for key_provider in nested_blocks(encryption, "key_provider", 2) {
        if let Some(attr) = key_provider.body.attribute("encrypted_metadata_alias") {
            checker.decode_string(&attr.expr, out);
        }
    }
    for kind in ["state", "plan"] {
        if let Some(target) = single_block(checker, encryption, kind, out) {
            if let Some(attr) = target.body.attribute("enforced") {
                checker.decode_bool(&attr.expr, out);
            }
            fallbacks(checker, target, out);
        }
    }
    let remote = single_block(checker, encryption, "remote_state_data_sources", out);
    if let Some(remote) = remote {
        if let Some(default) = single_block(checker, remote, "default", out) {
            fallbacks(checker, default, out);
        }
        for named in nested_blocks(remote, "remote_state_data_source", 1) {
            fallbacks(checker, named, out);
        }
    }
    if checker.failed_since(out, n_before, encryption) {
        return;
    }
    for kind in ["key_provider", "method"] {
        let blocks: Vec<&Block> = nested_blocks(encryption, kind, 2).collect();
        same_identity(checker, encryption, &blocks, kind, out);
        for block in &blocks {
            for (label, position) in block.labels.iter().zip(["type", "name"]) {
                invalid_label(checker, kind, position, label, out);
            }
        }
    }
    if let Some(remote) = remote {
        let named: Vec<&Block> = nested_blocks(remote, "remote_state_data_source", 1).collect();
        same_identity(checker, encryption, &named, "remote_data_source", out);
    }
}

/// The only block of `kind` in `parent`, or `None` (absent, or reported as a
/// duplicate: then none of them is read).
fn single_block<'b>(
    checker: &FileChecker<'_>,
    parent: &'b Block,
    kind: &'b str,
    out: &mut Vec<Diagnostic>,
) -> Option<&'b Block> {
    let mut blocks = nested_blocks(parent, kind, 0);
    let first = blocks.next()?;
    let Some(second) = blocks.next() else {
        return Some(first);
    };
    out.push(
        Diagnostic::new(
            crate::codes::INVALID_ENCRYPTION,
            format!("Duplicate {kind} block"),
            checker.at(second.header),
        )
        .with_detail(format!(
            "Only one {kind} block is allowed. Another was defined at {}.",
            checker.describe(first.header)
        ))
        .with_related(checker.at(first.header), format!("the first {kind} block")),
    );
    None
}

/// The chain of `fallback` blocks below a target.
fn fallbacks(checker: &FileChecker<'_>, target: &Block, out: &mut Vec<Diagnostic>) {
    let mut current = target;
    while let Some(fallback) = single_block(checker, current, "fallback", out) {
        current = fallback;
    }
}

/// "Duplicate key_provider" (likewise `method`, `remote_data_source`) on the
/// `encryption` header, once for each block of a same-identity pair, as
/// OpenTofu reports it.
fn same_identity(
    checker: &FileChecker<'_>,
    encryption: &Block,
    blocks: &[&Block],
    kind: &str,
    out: &mut Vec<Diagnostic>,
) {
    let identity = |block: &Block| -> Vec<String> {
        block
            .labels
            .iter()
            .map(|label| label.value.clone())
            .collect()
    };
    for (index, block) in blocks.iter().enumerate() {
        let mine = identity(block);
        let other = blocks
            .iter()
            .enumerate()
            .find(|(other_index, other)| *other_index != index && identity(other) == mine);
        let Some((_, other)) = other else { continue };
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_ENCRYPTION,
                format!("Duplicate {kind}"),
                checker.at(encryption.header),
            )
            .with_detail(format!(
                "Found multiple instances of {kind}.{}",
                mine.join(".")
            ))
            .with_related(checker.at(block.header), format!("this {kind}"))
            .with_related(checker.at(other.header), "the other one"),
        );
    }
}

/// A `key_provider` or `method` label must match `^([a-zA-Z_0-9-]+)$`.
/// OpenTofu gives no range; tofu-lens uses the label.
fn invalid_label(
    checker: &FileChecker<'_>,
    kind: &str,
    position: &str,
    label: &Label,
    out: &mut Vec<Diagnostic>,
) {
    let valid = !label.value.is_empty()
        && label
            .value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if valid {
        return;
    }
    let what = if kind == "key_provider" {
        "key provider"
    } else {
        "encryption method"
    };
    out.push(
        Diagnostic::new(
            crate::codes::INVALID_ENCRYPTION,
            format!("The provided {what} {position} is invalid"),
            checker.at(label.range),
        )
        .with_detail(format!(
            "The supplied {what} {position} ({}) does not match the required form of ^([a-zA-Z_0-9-]+)$.",
            label.value
        )),
    );
}

//! Provisioners (`diagnostics.md` §4.19): `destroy-provisioner-reference` in
//! destroy-time provisioners, their `connection` blocks and the resource's
//! own `connection` block, and the quoted keywords of `when` and
//! `on_failure` (`quoted-reference-deprecated`).
//!
//! Whether `when` and `on_failure` hold valid keywords is `invalid-provisioner`,
//! reported elsewhere; this module only reads `when` to know whether a
//! provisioner runs at destroy time. Removed vendor provisioners (`chef`,
//! `habitat`, `puppet`, `salt-masterless`) are dropped by OpenTofu before
//! anything in them is read, and so are they here. Only the top-level
//! arguments of a checked body are looked at, never nested blocks or the
//! `_` escaping block.

use tofu_syntax::{Attribute, Block, Body, Diagnostic, ExprKind};

use super::in_file::InFile;
use super::quoted::{self, Expected};
use super::scan::{self, Reference};
use super::traversal::{parse_traversal, static_reference};

const REMOVED_PROVISIONERS: [&str; 4] = ["chef", "habitat", "puppet", "salt-masterless"];

/// Arguments of a provisioner body that are meta-arguments or blocks, not
/// part of its configuration.
const PROVISIONER_META: [&str; 5] = ["when", "on_failure", "connection", "lifecycle", "_"];

/// The provisioners of a `resource`, then its own first `connection` block
/// when any provisioner runs at destroy time.
pub(super) fn resource(in_file: &InFile<'_>, resource: &Block, out: &mut Vec<Diagnostic>) {
    let mut any_destroy_time = false;
    for provisioner in provisioners(resource) {
        any_destroy_time |= self::provisioner(in_file, provisioner, out);
    }
    let connection = resource
        .body
        .blocks_of_kind("connection")
        .find(|connection| connection.labels.is_empty());
    if let (true, Some(connection)) = (any_destroy_time, connection) {
        only_self_references(in_file, &connection.body, &[], out);
    }
}

/// The provisioners of a `removed` block.
pub(super) fn removed(in_file: &InFile<'_>, removed: &Block, out: &mut Vec<Diagnostic>) {
    for provisioner in provisioners(removed) {
        self::provisioner(in_file, provisioner, out);
    }
}

fn provisioners(block: &Block) -> impl Iterator<Item = &Block> {
    block
        .body
        .blocks_of_kind("provisioner")
        .filter(|provisioner| {
            provisioner.label(0).is_some_and(|kind| {
                provisioner.labels.len() == 1 && !REMOVED_PROVISIONERS.contains(&kind)
            })
        })
}

/// One provisioner: its keywords, and when it runs at destroy time its
/// arguments and its first `connection` block. Returns whether it runs at
/// destroy time.
fn provisioner(in_file: &InFile<'_>, provisioner: &Block, out: &mut Vec<Diagnostic>) -> bool {
    let when = provisioner
        .body
        .attribute("when")
        .and_then(|when| keyword(in_file, when, out));
    let destroy_time = when.as_deref() == Some("destroy");
    if destroy_time {
        only_self_references(in_file, &provisioner.body, &PROVISIONER_META, out);
    }
    if let Some(on_failure) = provisioner.body.attribute("on_failure") {
        keyword(in_file, on_failure, out);
    }
    let connection = provisioner
        .body
        .blocks_of_kind("connection")
        .find(|connection| connection.labels.is_empty());
    if let (true, Some(connection)) = (destroy_time, connection) {
        only_self_references(in_file, &connection.body, &[], out);
    }
    destroy_time
}

/// `hcl.ExprAsKeyword` after OpenTofu's quoted-keyword shim: the keyword an
/// argument holds, if it holds one.
fn keyword(in_file: &InFile<'_>, attr: &Attribute, out: &mut Vec<Diagnostic>) -> Option<String> {
    let reference =
        if let Some(unquoted) = quoted::unquote(in_file, &attr.expr, Expected::Keyword, out) {
            if let Some(error) = &unquoted.error {
                out.push(quoted::parse_error_diagnostic(
                    in_file,
                    error,
                    crate::codes::INVALID_PROVISIONER,
                ));
            }
            unquoted.reference
        } else if in_file.json {
            match &attr.expr.kind {
                ExprKind::String(content) => match parse_traversal(content) {
                    (Some(reference), None) => Some(reference),
                    _ => None,
                },
                _ => None,
            }
        } else {
            static_reference(in_file.text, &attr.expr)
        };
    reference
        .filter(|reference| reference.steps.is_empty())
        .map(|reference| reference.root)
}

/// `onlySelfRefs`: every reference in each top-level argument of `body`
/// (except `skipped` ones) must be `self…`, `path.…`, `terraform.…`,
/// `tofu.…`, `count.index` or `each.key`; one diagnostic per other reference,
/// on the argument's value.
fn only_self_references(
    in_file: &InFile<'_>,
    body: &Body,
    skipped: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    for attr in body
        .attributes
        .iter()
        .filter(|attr| !skipped.contains(&attr.name.as_str()))
    {
        let found = scan::in_expr(in_file.text, &attr.expr, in_file.json);
        for _ in found
            .references
            .iter()
            .filter(|reference| !allowed_at_destroy(reference))
        {
            out.push(
                Diagnostic::new(
                    crate::codes::DESTROY_PROVISIONER_REFERENCE,
                    "Invalid reference from destroy provisioner",
                    in_file.at(attr.expr.range),
                )
                .with_detail("Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy."),
            );
        }
    }
}

fn allowed_at_destroy(reference: &Reference) -> bool {
    match reference.root.as_str() {
        "self" | "path" | "terraform" | "tofu" => true,
        "count" => reference.steps.len() == 1 && reference.first_attr() == Some("index"),
        "each" => reference.steps.len() == 1 && reference.first_attr() == Some("key"),
        _ => false,
    }
}

//! Provisioner blocks, in `resource` and `removed` blocks (`invalid-provisioner`
//! and the provisioner's share of `duplicate-nested-block`).
//!
//! A provisioner of a removed vendor type (`chef`, `habitat`, `puppet`,
//! `salt-masterless`) gets one error on its type label and nothing else is
//! checked in it; OpenTofu then drops it (not done here). `when` and
//! `on_failure` must be keywords; a quoted keyword is accepted (its deprecation
//! warning is `quoted-reference-deprecated`, reported elsewhere). No fix is
//! offered for a removed provisioner: replacing it changes what is deployed.

use tofu_syntax::{Block, Diagnostic, Expr, ExprKind};

use super::file_checker::FileChecker;
use super::nested::{self, Container};
use tofu_module::names::is_identifier;

const REMOVED_VENDOR_PROVISIONERS: [&str; 4] = ["chef", "habitat", "puppet", "salt-masterless"];

/// What the enclosing block needs to know of a decoded provisioner.
#[derive(Clone, Copy, Debug)]
pub(super) struct Provisioner<'b> {
    pub(super) block: &'b Block,
    /// `when = destroy`; an invalid `when` leaves the default, `create`.
    pub(super) runs_at_destroy: bool,
}

/// Checks one provisioner block (with its one label). Returns `None` for a
/// removed vendor provisioner, which OpenTofu drops.
pub(super) fn decode<'b>(
    checker: &FileChecker<'_>,
    block: &'b Block,
    out: &mut Vec<Diagnostic>,
) -> Option<Provisioner<'b>> {
    let label = block.labels.first()?;
    if REMOVED_VENDOR_PROVISIONERS.contains(&label.value.as_str()) {
        out.push(
            Diagnostic::new(
                crate::codes::INVALID_PROVISIONER,
                format!("The \"{}\" provisioner has been removed", label.value),
                checker.at(label.range),
            )
            .with_detail(format!(
                "The \"{}\" provisioner is deprecated and has been removed from OpenTofu.",
                label.value
            )),
        );
        return None;
    }
    let mut runs_at_destroy = false;
    if let Some(when) = block.body.attribute("when") {
        match keyword(&when.expr).as_deref() {
            Some("create") => {}
            Some("destroy") => runs_at_destroy = true,
            _ => out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVISIONER,
                    "Invalid \"when\" keyword",
                    checker.at(when.expr.range),
                )
                .with_detail(
                    "The \"when\" argument requires one of the following keywords: create or destroy.",
                ),
            ),
        }
    }
    if let Some(on_failure) = block.body.attribute("on_failure") {
        if !matches!(
            keyword(&on_failure.expr).as_deref(),
            Some("continue" | "fail")
        ) {
            out.push(
                Diagnostic::new(
                    crate::codes::INVALID_PROVISIONER,
                    "Invalid \"on_failure\" keyword",
                    checker.at(on_failure.expr.range),
                )
                .with_detail(
                    "The \"on_failure\" argument requires one of the following keywords: continue or fail.",
                ),
            );
        }
    }
    nested::connection(checker, block, Container::Provisioner, out);
    nested::escaping_block(checker, block, Container::Provisioner, out);
    Some(Provisioner {
        block,
        runs_at_destroy,
    })
}

/// The keyword an expression spells, as `hcl.ExprAsKeyword` reads it after
/// OpenTofu's quoted-keyword shim: a bare name (in parentheses it is not
/// one), or a string holding one (native quoted, or any JSON string).
fn keyword(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Traversal(traversal)
            if traversal.steps.is_empty() && traversal.root_range == expr.range =>
        {
            Some(traversal.root.clone())
        }
        ExprKind::String(text) => {
            let text = text.trim();
            is_identifier(text).then(|| text.to_owned())
        }
        _ => None,
    }
}

//! `sensitive-output` and `ephemeral-output`: an output value whose value
//! carries an ephemeral mark does not set `ephemeral = true` ("Output does
//! not allow ephemeral value", `validateEphemerality` in OpenTofu's
//! `node_output.go`, on the value's expression, for a value wholly known
//! or marked itself: checked first, and nothing else is said then); an
//! output value whose value carries a sensitive mark
//! does not set `sensitive = true` ("Output refers to sensitive values",
//! `NodeApplyableOutput.Execute` in OpenTofu's `node_output.go`, on the
//! output's declaration: its block header). OpenTofu checks the outputs of
//! the root module only; tofu-lens analyses a directory as the root of its
//! own tree, as `tofu validate` run in it does.
//!
//! The value is evaluated as validate's walk knows it (`walk_values`):
//! sensitive input variables, `sensitive(…)` calls and whatever carries
//! their marks through local values, templates, functions, collections and
//! both branches of a conditional whose condition is unknown. Silent when
//! the output is `ephemeral = true`, when the value
//! or a local value it follows fails to evaluate (OpenTofu reports that
//! instead), and for outputs written in JSON files. With a provider's
//! schema, the attributes it marks sensitive count (a single resource's
//! `admin_pass`, or the whole resource); not inside nested blocks, nor of a
//! resource with `count` or `for_each`, which validate reads unmarked.
//!
//! A node rule: run per output through a recording view, so an edit judges
//! again only the outputs that read what it touched (the output itself, a
//! local value or variable its value follows), and its finding belongs to
//! the output, which the graph silences when a dependency failed.
//!
//! The quick fix adds `sensitive = true` after the `value` argument (or
//! turns a `sensitive = false` into `true`), as the detail asks.

use tofu_syntax::{Diagnostic, Fix, Location, TextRange};

use crate::rules::views::{MergedNode, ModuleView};
use crate::rules::walk_values::WalkValues;
use tofu_module::address::BlockAddress;
use tofu_module::effective::EffectiveBlock;
use tofu_module::refs::NodeRef;
use tofu_syntax::go_text::go_quote;

/// OpenTofu's detail, word for word.
const DETAIL: &str = "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, OpenTofu requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true";

/// Which blocks the rule judges: outputs.
pub(crate) fn judges(node: NodeRef<'_>) -> bool {
    matches!(node, NodeRef::Block(BlockAddress::Output(_)))
}

/// The `sensitive-output` node rule, on one output.
pub(crate) fn check(view: &ModuleView<'_>, node: MergedNode<'_>, out: &mut Vec<Diagnostic>) {
    let MergedNode::Block(output) = node else {
        return;
    };
    let BlockAddress::Output(name) = &output.address else {
        return;
    };
    let values = WalkValues::new(view);
    if values.is_set(output, "ephemeral") {
        return;
    }
    let Some(value) = output.body.attribute("value") else {
        return;
    };
    let Some(expr) = values.expression(value) else {
        return;
    };
    let evaluation = values.evaluate_in(value.origin.file, &expr);
    if !evaluation.diagnostics.is_empty() || values.followed_a_failure() {
        return;
    }
    let marks = evaluation.value.deep_marks();
    // validateEphemerality looks only at a value wholly known or marked
    // itself: an object holding an unknown ephemeral member passes.
    let ephemerality_judged = evaluation.value.is_wholly_known() || evaluation.value.is_marked();
    if marks.ephemeral && ephemerality_judged {
        out.push(
            Diagnostic::new(
                crate::codes::EPHEMERAL_OUTPUT,
                "Output does not allow ephemeral value",
                Location::new(value.origin.file, expr.range),
            )
            .with_detail("The value that was generated for the output is ephemeral, but it is not configured to allow one."),
        );
        return;
    }
    if !marks.sensitive || values.is_set(output, "sensitive") {
        return;
    }
    let Some(base) = output.base else { return };
    let Some(header) = view.block(base).map(|block| block.header) else {
        return;
    };
    let mut diagnostic = Diagnostic::new(
        crate::codes::SENSITIVE_OUTPUT,
        "Output refers to sensitive values",
        Location::new(base.file, header),
    )
    .with_detail(DETAIL);
    if let Some(fix) = mark_sensitive(view, output, name) {
        diagnostic = diagnostic.with_fix(fix);
    }
    out.push(diagnostic);
}

/// `sensitive = true` in the output: its `sensitive = false` turned
/// around, or a line of its own after `value`, indented as `value` is.
/// None when `value` does not start its line or shares its last line with
/// anything but a comment (a one-line block).
fn mark_sensitive(view: &ModuleView<'_>, output: &EffectiveBlock, name: &str) -> Option<Fix> {
    let title = format!("Mark output {} as sensitive", go_quote(name));
    if let Some(sensitive) = output.body.attribute("sensitive") {
        return Some(Fix::new(title).with_edit(sensitive.origin.file, sensitive.value, "true"));
    }
    let value = output.body.attribute("value")?;
    let file = view.file(value.origin.file)?;
    let (line_end, indent) = after_own_lines(&file.text, value.origin.range)?;
    Some(Fix::new(title).with_edit(
        value.origin.file,
        TextRange::from_usize(line_end, line_end),
        format!("\n{indent}sensitive = true"),
    ))
}

/// Where the last line of `range` ends and the blanks that start its first
/// line, when `range` has its lines to itself (a comment may follow it).
fn after_own_lines(text: &str, range: TextRange) -> Option<(usize, &str)> {
    let start = range.start as usize;
    let end = range.end as usize;
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |at| at + 1);
    let indent = text.get(line_start..start)?;
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    let rest = text.get(end..)?;
    let line_length = rest.find('\n').unwrap_or(rest.len());
    let trailing = rest.get(..line_length)?.trim();
    if !(trailing.is_empty() || trailing.starts_with('#') || trailing.starts_with("//")) {
        return None;
    }
    let line_end = end + line_length;
    let line_end = if rest.get(..line_length)?.ends_with('\r') {
        line_end - 1
    } else {
        line_end
    };
    Some((line_end, indent))
}

#[cfg(test)]
mod tests;

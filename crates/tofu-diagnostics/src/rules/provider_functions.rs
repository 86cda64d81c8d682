//! `provider::NAME::FUNC(…)` where NAME is no `required_providers` entry of
//! the module (`unknown-function`, "Unknown function provider"), as
//! OpenTofu's `ProviderFunctionTransformer` reports it while it builds
//! `validate`'s graph: after the module tree's inputs
//! (`ModuleVariableTransformer`), whose errors stop it, and before the
//! walk, whose findings it holds back (`Phase::Graph`). Every call in an
//! identity's effective configuration (a local value's definition, every
//! argument of a block and its nested blocks) is judged; the subject is
//! the function's name.
//!
//! Left out: expressions written in JSON files (their calls live inside
//! strings); a name that does not parse as a provider function is the
//! `references` rule's.

use tofu_syntax::{Diagnostic, ExprKind, Location};

use crate::rules::views::IdentityView;
use tofu_module::effective::{EffectiveAttribute, EffectiveBody};
use tofu_syntax::go_text::go_quote;

/// The `provider-functions` identity rule.
pub(crate) fn check(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    if let Some(local) = view.local() {
        check_attribute(view, &local.attribute, out);
    }
    if let Some(effective) = view.effective() {
        check_body(view, &effective.body, out);
    }
}

fn check_body(view: &IdentityView<'_>, body: &EffectiveBody, out: &mut Vec<Diagnostic>) {
    for attribute in &body.attributes {
        check_attribute(view, attribute, out);
    }
    for nested in &body.blocks {
        check_body(view, &nested.body, out);
    }
}

fn check_attribute(
    view: &IdentityView<'_>,
    attribute: &EffectiveAttribute,
    out: &mut Vec<Diagnostic>,
) {
    let file_id = attribute.origin.file;
    let Some((_, written)) = view.native_expr(attribute) else {
        return;
    };
    written.walk(&mut |expr| {
        let ExprKind::Call(call) = &expr.kind else {
            return;
        };
        let parts: Vec<&str> = call.name.split("::").collect();
        let ["provider", provider_name, _, ..] = parts.as_slice() else {
            return;
        };
        if !(3..=4).contains(&parts.len()) || view.requires_provider(provider_name) {
            return;
        }
        out.push(
            Diagnostic::new(
                crate::codes::UNKNOWN_FUNCTION,
                "Unknown function provider",
                Location::new(file_id, call.name_range),
            )
            .with_detail(format!(
                "Provider {} does not exist within the required_providers of this module",
                go_quote(provider_name)
            )),
        );
    });
}

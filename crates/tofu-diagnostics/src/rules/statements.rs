//! What `tofu plan` reports of `import` and `removed` blocks before its
//! walk (OpenTofu's `Context.plan`: `validateImportTargets`, then
//! `refactoring.FindRemoveStatements`; `tofu validate` runs neither):
//!
//! - an `import` whose `to` names a managed resource the configuration does
//!   not declare: "Configuration for import target does not exist", with
//!   the address without its keys (a call of this module that does not
//!   exist counts; what a declared call's module holds is not judged here);
//! - when no import was reported, a `removed` block whose `from` this module
//!   still declares: "Removed resource block still exists" or "Removed
//!   module block still exists".
//!
//! Each is placed on the block's keyword (a JSON block's `[` or `{`), as
//! OpenTofu places it, and plan stops at them: the walk's reports
//! (`plan-*`) are withheld then (`analysis.rs`). Addresses are read as the moves rule reads them; one
//! with a key that is not a literal (an import's `[each.key]`) is not
//! judged.

use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_syntax::{Diagnostic, Location};

use crate::rules::moves::{parse_endpoint, primary_blocks_in_order, Endpoint, Object, Step};
use crate::rules::views::ModuleView;

/// The `plan-statements` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let before = out.len();
    for (endpoint, at) in endpoints(view, "import", "to") {
        if declared(view, &endpoint) {
            continue;
        }
        let address = static_address(&endpoint);
        out.push(
            Diagnostic::new(
                crate::codes::PLAN_IMPORT_TARGET,
                "Configuration for import target does not exist",
                at,
            )
            .with_detail(format!(
                "The configuration for the given import {address} does not exist. All target instances must have an associated configuration to be imported."
            )),
        );
    }
    if out.len() > before {
        return;
    }
    for (endpoint, at) in endpoints(view, "removed", "from") {
        if endpoint.in_module || !declared(view, &endpoint) {
            continue;
        }
        let (summary, noun) = match endpoint.object {
            Object::Call(_) => ("Removed module block still exists", "module"),
            Object::Resource { .. } => ("Removed resource block still exists", "resource"),
        };
        let address = static_address(&endpoint);
        out.push(
            Diagnostic::new(crate::codes::PLAN_REMOVED_STATEMENT, summary, at).with_detail(format!(
                "This statement declares a removal of the {noun} {address}, but this {noun} block still exists in the configuration. Please remove the {noun} block."
            )),
        );
    }
}

/// The blocks of kind `kind` in primary files, in loading order, with the
/// address their argument `argument` names and their keyword's place.
fn endpoints(view: &ModuleView<'_>, kind: &str, argument: &str) -> Vec<(Endpoint, Location)> {
    primary_blocks_in_order(view, kind)
        .into_iter()
        .filter_map(|(block_ref, block)| {
            let file = view.file_to(block_ref.file, block.range.end)?;
            let attribute = block.body.attribute(argument)?;
            let written = file
                .text
                .get(attribute.expr.range.start as usize..attribute.expr.range.end as usize)?;
            let endpoint = parse_endpoint(written, file.is_json())?;
            Some((endpoint, Location::new(block_ref.file, block.header)))
        })
        .collect()
}

/// Whether what `endpoint` names is declared: a managed resource or a
/// module call of this module; for an address inside a call, whether the
/// call is (what its module declares is not judged: counted as declared).
fn declared(view: &ModuleView<'_>, endpoint: &Endpoint) -> bool {
    if endpoint.in_module {
        let call = endpoint.steps.get(1).and_then(|step| match step {
            Step::Name(name) => Some(name.clone()),
            Step::Key(_) => None,
        });
        return call.is_none_or(|call| view.effective(&BlockAddress::Module(call)).is_some());
    }
    let address = match &endpoint.object {
        Object::Call(name) => BlockAddress::Module(name.clone()),
        Object::Resource { type_name, name } => BlockAddress::Resource {
            mode: ResourceMode::Managed,
            type_name: type_name.clone(),
            name: name.clone(),
        },
    };
    view.effective(&address).is_some()
}

/// The address without its keys, as OpenTofu's static address prints it
/// (`module.a.terraform_data.b`).
fn static_address(endpoint: &Endpoint) -> String {
    let names: Vec<&str> = endpoint
        .steps
        .iter()
        .filter_map(|step| match step {
            Step::Name(name) => Some(name.as_str()),
            Step::Key(_) => None,
        })
        .collect();
    names.join(".")
}

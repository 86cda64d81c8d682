//! `unused-declaration` (tofu-lens's own, as tflint's
//! `terraform_unused_declarations`): a variable, local value or data source
//! that no other node of the dependency graph, `import` block or
//! unevaluated argument refers to, and, for a variable, that no `.tfvars`
//! file of the directory sets. Not reported when a file could not be parsed
//! whole (a reference may be in what was lost).
//!
//! Which declarations other nodes use is the graph's (`graph::Uses`), read
//! through the view, which records it: the rule's last result holds while
//! the uses, the files it read and the declarations it reports on are
//! unchanged.

use rustc_hash::FxHashSet as HashSet;
use tofu_syntax::{Diagnostic, Fix, Location};

use crate::rules::views::ModuleView;
use tofu_module::address::{BlockAddress, ResourceMode};
use tofu_module::loaded::FileRole;
use tofu_module::node_refs::expression_refs;
use tofu_module::refs::Node;
use tofu_syntax::go_text::go_quote;

/// The `unused-declaration` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let declarations = view.declarations();
    let incomplete = declarations.incomplete
        || view.file_ids().any(|file| {
            view.role(file).is_some_and(FileRole::is_loaded) && view.is_incomplete(file)
        });
    if incomplete {
        return;
    }
    let uses = view.uses();
    let also_used = used_outside_the_graph(view);
    let is_used = |node: &Node| uses.is_used(node) || also_used.contains(node);
    let is_unused_block = |address: &BlockAddress| {
        matches!(
            address,
            BlockAddress::Variable(_)
                | BlockAddress::Resource {
                    mode: ResourceMode::Data,
                    ..
                }
        ) && !is_used(&Node::Block(address.clone()))
    };
    for block in view.effective_blocks(is_unused_block) {
        let (summary, what) = match &block.address {
            BlockAddress::Variable(name) => (
                format!("variable {} is declared but not used", go_quote(name)),
                format!("var.{name}"),
            ),
            BlockAddress::Resource {
                type_name, name, ..
            } => (
                format!(
                    "data {} {} is declared but not used",
                    go_quote(type_name),
                    go_quote(name)
                ),
                format!("data.{type_name}.{name}"),
            ),
            _ => continue,
        };
        let Some(base) = block.base else { continue };
        let (Some(written), Some(file)) = (view.block(base), view.file(base.file)) else {
            continue;
        };
        let mut diagnostic = Diagnostic::new(
            crate::codes::UNUSED_DECLARATION,
            summary,
            Location::new(base.file, written.header),
        )
        .with_detail(format!("Nothing in this module refers to {what}."));
        if block.overrides.is_empty() && base.nested.is_none() && !file.is_json() {
            diagnostic = diagnostic.with_fix(
                Fix::new(format!("Remove the unused declaration of {what}")).with_edit(
                    base.file,
                    file.removal_range(written.range),
                    "",
                ),
            );
        }
        out.push(diagnostic);
    }
    let is_unused_local = |name: &str| !is_used(&Node::Local(name.to_owned()));
    for local in view.effective_locals(is_unused_local) {
        let kept = local.base;
        let Some(attribute) = view
            .block(kept.block)
            .and_then(|block| block.body.attributes.get(kept.attr))
        else {
            continue;
        };
        let mut diagnostic = Diagnostic::new(
            crate::codes::UNUSED_DECLARATION,
            format!("local.{} is declared but not used", local.name),
            Location::new(kept.block.file, attribute.name_range),
        )
        .with_detail(format!(
            "Nothing in this module refers to local.{}.",
            local.name
        ));
        if let Some(file) = view.file(kept.block.file) {
            if local.overrides.is_empty() && !file.is_json() {
                diagnostic =
                    diagnostic.with_fix(
                        Fix::new(format!("Remove the unused local value {}", local.name))
                            .with_edit(kept.block.file, file.removal_range(attribute.range), ""),
                    );
            }
        }
        out.push(diagnostic);
    }
}

/// What is used where the graph has no node: by the references of `import`
/// blocks, and, for a variable, by a `.tfvars` file setting it.
fn used_outside_the_graph(view: &ModuleView<'_>) -> HashSet<Node> {
    let mut used = HashSet::default();
    for &block_ref in &view.declarations().other {
        let (Some(block), Some(file)) = (view.block(block_ref), view.file(block_ref.file)) else {
            continue;
        };
        if block.kind != "import" {
            continue;
        }
        for attribute in &block.body.attributes {
            for reference in expression_refs(block_ref.file, file, &attribute.expr, &[]) {
                used.extend(reference.used_node());
            }
        }
    }
    let values_files = view
        .file_ids()
        .filter(|&file| view.role(file) == Some(FileRole::Values));
    for file in values_files.filter_map(|file| view.file(file)) {
        for attribute in file
            .source
            .iter()
            .flat_map(|source| &source.body.attributes)
        {
            used.insert(Node::Block(BlockAddress::Variable(attribute.name.clone())));
        }
    }
    used
}

//! Provider configurations across the module tree (issue 35,
//! `spec/diagnostics.md` §7): OpenTofu's `validateProviderConfigs`, which
//! runs while the configuration is built (`configs.BuildConfig`, so `tofu
//! init` stops on it), on this directory as the root of its tree, and what
//! loading a child module reports about it.
//!
//! - [`check`] (the module rule `provider-configurations`,
//!   `Phase::Build`): this module's own checks (`own`: duplicate
//!   requirements, instance keys, references to undefined providers,
//!   `for_each` shared with what uses the instances) and each call against
//!   its child's [`tofu_module::provider_tree::ProviderSummary`] (`calls`: legacy
//!   modules under `count`, `for_each`, `enabled` or `depends_on`,
//!   overridden, missing and mistyped configurations, redundant empty
//!   blocks). Nothing is reported while a module of the tree failed to
//!   load or a child has an `import` block: OpenTofu validates providers
//!   only once every module loaded.
//! - [`proxies`] (the module rule `provider-proxies`, `Phase::Graph`):
//!   `providers` entries naming a configuration the caller's graph does
//!   not have (`missing-provider`, OpenTofu's place-less "missing
//!   provider" error).
//! - [`child_modules`] (the module rule `child-modules`, `Phase::Load`):
//!   a child's `backend` block (a warning) and `import` block (an error),
//!   which OpenTofu reports while loading the tree.
//!
//! Where OpenTofu puts a message in the child (a redundant empty block, a
//! backend, an import), it is reported here on the call, with the child's
//! place related; each directory judges its own calls, so a grandchild is
//! judged by its caller's analysis. Only a legacy module reaches further:
//! the summary carries the modules below that configure providers, as
//! OpenTofu reports them at the repeating call above them.

mod calls;
mod child;
mod iteration;
mod own;
mod proxies;

use tofu_syntax::{Block, Diagnostic, FileId, Location};

use crate::rules::views::ModuleView;
use child::{known_names, Child};
use iteration::WrittenForEach;
use tofu_module::address::BlockAddress;
use tofu_module::declarations::Declarations;
use tofu_module::effective::{EffectiveBlock, EffectiveTerraform, Origin};
use tofu_module::loaded::{BlockRef, ModuleFile};
use tofu_module::module_source::local_source;
use tofu_module::provider_tree::facts::{Call, ModuleFacts, ModuleRead};

impl<'a> ModuleRead<'a> for ModuleView<'a> {
    fn effective_blocks(&self, wanted: &dyn Fn(&BlockAddress) -> bool) -> Vec<&'a EffectiveBlock> {
        ModuleView::effective_blocks(self, wanted)
    }

    fn file(&self, id: FileId) -> Option<&'a ModuleFile> {
        ModuleView::file(self, id)
    }

    fn file_to(&self, id: FileId, end: u32) -> Option<&'a ModuleFile> {
        ModuleView::file_to(self, id, end)
    }

    fn block(&self, block: BlockRef) -> Option<&'a Block> {
        ModuleView::block(self, block)
    }

    fn terraform(&self) -> &'a EffectiveTerraform {
        ModuleView::terraform(self)
    }

    fn declarations(&self) -> &'a Declarations {
        ModuleView::declarations(self)
    }
}

/// The calls whose child the tree knows, and does not loop back.
fn children<'f, 'a>(view: &ModuleView<'a>, facts: &'f ModuleFacts) -> Vec<Child<'f, 'a>> {
    facts
        .calls
        .iter()
        .filter(|call| !view.loops(&call.name))
        .filter_map(|call| {
            Some(Child {
                call,
                interface: view.child(&call.name)?,
                dir: view.child_dir(&call.name, call.source.as_deref()),
            })
        })
        .collect()
}

/// Whether `call` names a local directory the tree does not know: `tofu
/// init` stops on a module directory it cannot read before it builds the
/// configuration, so nothing about providers is reported.
fn local_child_is_missing(view: &ModuleView<'_>, call: &Call) -> bool {
    let is_local = call.source.as_deref().and_then(local_source).is_some();
    is_local && !view.loops(&call.name) && view.child(&call.name).is_none()
}

/// The `provider-configurations` module rule.
pub(crate) fn check(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let facts = ModuleFacts::read_for_rules(view, &|address| view.sets_provider(address));
    if facts
        .calls
        .iter()
        .any(|call| local_child_is_missing(view, call))
    {
        return;
    }
    let children = children(view, &facts);
    let tree_failed = children.iter().any(|child| {
        let interface = child.interface;
        interface.incomplete
            || interface.providers.tree_failed
            || interface.providers.import.is_some()
    });
    if tree_failed {
        return;
    }
    // A `for_each` in a JSON file is never the same as another to
    // OpenTofu (`providerIterationIdentical` compares native syntax only;
    // its test `TestConfigProviderFromJSON` expects no warning).
    let written = |origin: Origin| {
        let file = view
            .file_to(origin.file, origin.range.end)
            .filter(|file| !file.is_json())?;
        let attribute = file.attribute_at(origin.range)?;
        Some(WrittenForEach {
            at: Location::new(origin.file, attribute.expr.range),
            text: attribute.expr.range.slice(&file.text).to_owned(),
            has_references: !tofu_module::expr::walk::references(
                &file.text,
                &attribute.expr,
                file.is_json(),
            )
            .references
            .is_empty(),
        })
    };
    own::check(&facts, &written, out);
    let known = known_names(&children);
    for child in &children {
        calls::check(&facts, &known, child, out);
    }
}

/// The `provider-proxies` module rule (`Phase::Graph`): the
/// configurations `providers` entries name, as `validate`'s graph looks
/// them up (`proxies`).
pub(crate) fn proxies(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    let facts = ModuleFacts::read_without_resources(view);
    let children = children(view, &facts);
    proxies::check(&facts, &children, out);
}

/// The `child-modules` module rule: what loading each child reports
/// about it as a module that is not the root.
pub(crate) fn child_modules(view: &ModuleView<'_>, out: &mut Vec<Diagnostic>) {
    // Only the calls: reading the resources would make every keystroke in
    // a resource re-run this rule.
    let facts = ModuleFacts::read_without_resources(view);
    for child in children(view, &facts) {
        let providers = &child.interface.providers;
        let at = child.call.header;
        if let Some(backend) = &providers.backend {
            let mut diagnostic = Diagnostic::new(crate::codes::CHILD_MODULE_BACKEND, "Backend configuration ignored", at)
                .with_detail("Any selected backend applies to the entire configuration, so OpenTofu expects provider configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.");
            if let Some(related) = child.related(backend, "the backend block of the called module")
            {
                diagnostic = diagnostic.with_related_outside(related);
            }
            out.push(diagnostic);
        }
        if let Some(import) = &providers.import {
            let mut diagnostic = Diagnostic::new(crate::codes::CHILD_MODULE_IMPORT, "Invalid import configuration", at)
                .with_detail(format!(
                    "An import block was detected in \"{}\". Import blocks are only allowed in the root module.",
                    child.path()
                ));
            if let Some(related) = child.related(import, "the import block of the called module") {
                diagnostic = diagnostic.with_related_outside(related);
            }
            out.push(diagnostic);
        }
    }
}

//! The shape of a top-level block: everything of it that what a module
//! declares depends on, written once. Declarations and the override plan
//! read a block's type, labels, whether OpenTofu drops it, a `locals`
//! block's names, a provider's alias and a `check`'s `data` block; the
//! names other identities' rules may know (`declared_names`) add whether a
//! resource or module call repeats, a module call's `source`, the local
//! provider configuration a resource names in its `provider` argument (and
//! whether it sets one at all), what a module call's `providers` passes, and
//! the `required_providers` entries of a `terraform` block (which provider
//! each local name stands for, `provider_schemas`).
//!
//! `declared_names` reads a block through its shape, and an edit that keeps
//! every block's shape keeps all of the above (`incremental`): the two
//! cannot drift apart.

use tofu_syntax::{Attribute, Block, ExprKind, Label, SourceFile};

use crate::address::BlockAddress;
use crate::declarations::{address_of, checked_data, drop_reason, DropReason};
use crate::provider_uses::{provider_reference, PassedProviders};

/// How a resource or module call repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    Single,
    Count,
    ForEach,
}

impl Repetition {
    /// What a body setting these arguments makes of it: `count` wins over
    /// `for_each` (setting both is `repetition-conflict`).
    pub fn of_arguments(has_count: bool, has_for_each: bool) -> Repetition {
        if has_count {
            Repetition::Count
        } else if has_for_each {
            Repetition::ForEach
        } else {
            Repetition::Single
        }
    }
}

/// See the module doc. Two shapes are equal when they declare the same.
#[derive(Debug)]
pub struct BlockShape<'a> {
    kind: &'a str,
    labels: &'a [Label],
    drop_reason: Option<DropReason>,
    /// A resource's, data source's, ephemeral resource's or module call's
    /// `count` or `for_each`; `None` when it sets neither (or is another
    /// kind of block).
    repetition: Option<Repetition>,
    /// A module call's `source`: `None` when it sets none, `Some(None)`
    /// when it is not a plain string.
    source: Option<Option<&'a str>>,
    /// A `locals` block's definitions (their names count).
    locals: &'a [Attribute],
    /// A provider configuration's identity (its alias).
    provider: Option<BlockAddress>,
    /// A `check`'s `data` block: its index, identity, repetition and
    /// `provider` local name.
    checked_data: Option<(usize, BlockAddress, Option<Repetition>, Option<&'a str>)>,
    /// A resource's, data source's or ephemeral resource's `provider`
    /// argument: the local name and alias it names.
    provider_reference: Option<(&'a str, Option<&'a str>)>,
    /// A module call's `providers` argument: what it passes.
    passed_providers: Option<PassedProviders>,
    /// Whether a resource, data source or ephemeral resource sets
    /// `provider` at all (written in any form).
    provider_argument: bool,
    /// A `terraform` block's `required_providers` entries: each local name
    /// and its `source`, when it is a plain string.
    required_providers: Vec<(&'a str, Option<&'a str>)>,
}

impl<'a> BlockShape<'a> {
    pub fn of(block: &'a Block) -> BlockShape<'a> {
        let kind = block.kind.as_str();
        let is_object = matches!(kind, "resource" | "data" | "ephemeral" | "module");
        let repetition = is_object
            .then(|| {
                let has_count = block.body.attribute("count").is_some();
                let has_for_each = block.body.attribute("for_each").is_some();
                (has_count || has_for_each)
                    .then(|| Repetition::of_arguments(has_count, has_for_each))
            })
            .flatten();
        let source = (kind == "module")
            .then(|| block.body.attribute("source"))
            .flatten()
            .map(|source| match &source.expr.kind {
                ExprKind::String(text) => Some(text.as_str()),
                _ => None,
            });
        let checked_data = checked_data(block).map(|(index, address)| {
            let data = block.body.blocks.get(index).map(BlockShape::of);
            let repetition = data.as_ref().and_then(|data| data.repetition);
            let provider = data.and_then(|data| data.provider_local_name());
            (index, address, repetition, provider)
        });
        let is_resource = matches!(kind, "resource" | "data" | "ephemeral");
        BlockShape {
            kind,
            labels: &block.labels,
            drop_reason: drop_reason(block),
            repetition,
            source,
            locals: if kind == "locals" {
                &block.body.attributes
            } else {
                &[]
            },
            provider: (kind == "provider").then(|| address_of(block)).flatten(),
            checked_data,
            provider_reference: is_resource
                .then(|| block.body.attribute("provider"))
                .flatten()
                .and_then(|provider| provider_reference(&provider.expr)),
            passed_providers: (kind == "module")
                .then(|| block.body.attribute("providers"))
                .flatten()
                .map(|providers| PassedProviders::of(&providers.expr)),
            provider_argument: is_resource && block.body.attribute("provider").is_some(),
            required_providers: if kind == "terraform" {
                required_provider_entries(block)
            } else {
                Vec::new()
            },
        }
    }

    /// A resource's `provider` argument's local name, when it sets one.
    pub fn provider_local_name(&self) -> Option<&'a str> {
        self.provider_reference.map(|(name, _)| name)
    }

    /// A resource's `provider` argument: the local name and alias it
    /// names, when it is a reference (or the quoted form).
    pub fn provider_reference(&self) -> Option<(&'a str, Option<&'a str>)> {
        self.provider_reference
    }

    /// A module call's `providers` argument, when it has one.
    pub fn passed_providers(&self) -> Option<&PassedProviders> {
        self.passed_providers.as_ref()
    }

    /// Whether a resource sets `provider` (in any form).
    pub fn sets_provider(&self) -> bool {
        self.provider_argument
    }

    /// A `terraform` block's `required_providers` entries (local name,
    /// `source` when it is a plain string), in order.
    pub fn required_providers(&self) -> &[(&'a str, Option<&'a str>)] {
        &self.required_providers
    }

    /// How it repeats, when it sets `count` or `for_each`.
    pub fn repetition(&self) -> Option<Repetition> {
        self.repetition
    }

    /// A module call's `source`, when it sets one: the string, or `None`
    /// when it is not a plain string.
    pub fn module_source(&self) -> Option<Option<&'a str>> {
        self.source
    }
}

impl PartialEq for BlockShape<'_> {
    fn eq(&self, other: &BlockShape<'_>) -> bool {
        self.kind == other.kind
            && same_names(self.labels, other.labels, |label| &label.value)
            && self.drop_reason == other.drop_reason
            && self.repetition == other.repetition
            && self.source == other.source
            && same_names(self.locals, other.locals, |local| &local.name)
            && self.provider == other.provider
            && self.checked_data == other.checked_data
            && self.provider_reference == other.provider_reference
            && self.passed_providers == other.passed_providers
            && self.provider_argument == other.provider_argument
            && self.required_providers == other.required_providers
    }
}

/// The entries of a `terraform` block's `required_providers` blocks: each
/// local name and, for an object with a plain string `source`, the source.
fn required_provider_entries(block: &Block) -> Vec<(&str, Option<&str>)> {
    let mut entries = Vec::new();
    for required in block.body.blocks_of_kind("required_providers") {
        for entry in &required.body.attributes {
            let source = entry.expr.as_object().and_then(|items| {
                items.iter().find_map(|item| {
                    let key = match &item.key.kind {
                        ExprKind::String(text) => text.as_str(),
                        ExprKind::Traversal(traversal) if traversal.steps.is_empty() => {
                            traversal.root.as_str()
                        }
                        _ => return None,
                    };
                    (key == "source").then(|| item.value.as_str()).flatten()
                })
            });
            entries.push((entry.name.as_str(), source));
        }
    }
    entries
}

/// True when two parses of a file declare the same things in the same
/// places: every top-level block keeps its shape.
pub fn same_shapes(old: &SourceFile, new: &SourceFile) -> bool {
    old.body.blocks.len() == new.body.blocks.len()
        && old
            .body
            .blocks
            .iter()
            .zip(&new.body.blocks)
            .all(|(a, b)| BlockShape::of(a) == BlockShape::of(b))
}

/// Whether two lists hold the same names in the same order.
fn same_names<T>(a: &[T], b: &[T], name: impl Fn(&T) -> &String) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| name(a) == name(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(text: &str) -> String {
        let file = tofu_syntax::parse("main.tf", text);
        let shapes: Vec<String> = file
            .body
            .blocks
            .iter()
            .map(|block| format!("{:?}", BlockShape::of(block)))
            .collect();
        shapes.join("\n")
    }

    fn same(old: &str, new: &str) -> bool {
        same_shapes(
            &tofu_syntax::parse("main.tf", old),
            &tofu_syntax::parse("main.tf", new),
        )
    }

    #[test]
    fn values_and_comments_keep_the_shape() {
        assert!(same(
            "resource \"a\" \"b\" {\n  x = 1\n}\n",
            "resource \"a\" \"b\" {\n  # note\n  x = 2\n  y = var.z\n}\n"
        ));
        assert!(same(
            "locals {\n  a = 1\n}\n",
            "locals {\n  a = \"two\"\n}\n"
        ));
        assert!(same(
            "module \"m\" {\n  source = \"./m\"\n  x = 1\n}\n",
            "module \"m\" {\n  source = \"./m\"\n  x = 2\n}\n"
        ));
    }

    /// Everything `declared_names` reads of a block is part of its shape.
    #[test]
    fn what_other_identities_know_changes_the_shape() {
        let resource = "resource \"a\" \"b\" {\n}\n";
        assert!(!same(resource, "resource \"a\" \"b\" {\n  count = 2\n}\n"));
        assert!(!same(resource, "resource \"a\" \"c\" {\n}\n"));
        assert!(!same(
            "module \"m\" {\n  source = \"./m\"\n}\n",
            "module \"m\" {\n  source = \"./n\"\n}\n"
        ));
        assert!(!same("locals {\n  a = 1\n}\n", "locals {\n  b = 1\n}\n"));
        assert!(!same(
            "provider \"aws\" {\n}\n",
            "provider \"aws\" {\n  alias = \"east\"\n}\n"
        ));
        // A check's data block is declared like a data source, repetition
        // included.
        assert!(!same(
            "check \"c\" {\n  data \"http\" \"x\" {\n  }\n}\n",
            "check \"c\" {\n  data \"http\" \"x\" {\n    count = 1\n  }\n}\n"
        ));
        assert!(
            shape_of("module \"m\" {\n  source = \"./m\"\n  count = 1\n}\n")
                .contains("repetition: Some(Count)")
        );
    }
}

//! The shape of a top-level block: everything of it that what a module
//! declares depends on, written once. Declarations and the override plan
//! read a block's type, labels, whether OpenTofu drops it, a `locals`
//! block's names, a provider's alias and a `check`'s `data` block; the
//! names other identities' rules may know (`declared_names`) add whether a
//! resource or module call repeats and a module call's `source`.
//!
//! `declared_names` reads a block through its shape, and an edit that keeps
//! every block's shape keeps all of the above (`incremental`): the two
//! cannot drift apart.

use tofu_syntax::{Attribute, Block, ExprKind, Label, SourceFile};

use crate::address::BlockAddress;
use crate::declarations::{address_of, checked_data, drop_reason, DropReason};

/// How a resource or module call repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Repetition {
    Single,
    Count,
    ForEach,
}

impl Repetition {
    /// What a body setting these arguments makes of it: `count` wins over
    /// `for_each` (setting both is `repetition-conflict`).
    pub(crate) fn of_arguments(has_count: bool, has_for_each: bool) -> Repetition {
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
pub(crate) struct BlockShape<'a> {
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
    /// A `check`'s `data` block: its index, identity and repetition.
    checked_data: Option<(usize, BlockAddress, Option<Repetition>)>,
}

impl<'a> BlockShape<'a> {
    pub(crate) fn of(block: &'a Block) -> BlockShape<'a> {
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
            let repetition = block
                .body
                .blocks
                .get(index)
                .and_then(|data| BlockShape::of(data).repetition);
            (index, address, repetition)
        });
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
        }
    }

    /// How it repeats, when it sets `count` or `for_each`.
    pub(crate) fn repetition(&self) -> Option<Repetition> {
        self.repetition
    }

    /// A module call's `source`, when it sets one: the string, or `None`
    /// when it is not a plain string.
    pub(crate) fn module_source(&self) -> Option<Option<&'a str>> {
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
    }
}

/// True when two parses of a file declare the same things in the same
/// places: every top-level block keeps its shape.
pub(crate) fn same_shapes(old: &SourceFile, new: &SourceFile) -> bool {
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

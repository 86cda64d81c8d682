//! The top-level block types OpenTofu defines and their labels
//! (`diagnostics.md` §4.1, first row), and the arguments OpenTofu itself
//! defines inside them (meta-arguments), for editors to offer.

/// The label names of a top-level block type, or `None` for a type OpenTofu
/// does not define at the top level.
pub fn top_level_labels(kind: &str) -> Option<&'static [&'static str]> {
    let labels: &'static [&'static str] = match kind {
        "terraform" | "language" | "locals" | "moved" | "import" | "removed" => &[],
        "provider" | "variable" | "output" | "module" | "check" => &["name"],
        "resource" | "data" | "ephemeral" => &["type", "name"],
        _ => return None,
    };
    Some(labels)
}

/// True when a top-level block has the right number of labels; blocks that do
/// not are dropped by OpenTofu (no declaration, no base, no duplicate).
pub fn has_valid_labels(block: &tofu_syntax::Block) -> bool {
    top_level_labels(&block.kind).is_some_and(|labels| labels.len() == block.labels.len())
}

/// The arguments and nested block types OpenTofu itself defines in a
/// top-level block of type `kind` (for `resource`, `data`, `ephemeral`,
/// `module` and `provider`: the meta-arguments beside what the provider or
/// the called module defines). Empty for other types.
pub fn meta_arguments(kind: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match kind {
        "resource" => (
            &["count", "for_each", "provider", "depends_on"],
            &["lifecycle", "provisioner", "connection"],
        ),
        "data" | "ephemeral" => (
            &["count", "for_each", "provider", "depends_on"],
            &["lifecycle"],
        ),
        "module" => (
            &[
                "source",
                "version",
                "count",
                "for_each",
                "providers",
                "depends_on",
            ],
            &["lifecycle"],
        ),
        "provider" => (&["alias", "for_each"], &[]),
        "variable" => (
            &[
                "type",
                "default",
                "description",
                "sensitive",
                "nullable",
                "ephemeral",
                "deprecated",
            ],
            &["validation"],
        ),
        "output" => (
            &[
                "value",
                "description",
                "sensitive",
                "ephemeral",
                "depends_on",
                "deprecated",
            ],
            &["precondition"],
        ),
        _ => (&[], &[]),
    }
}

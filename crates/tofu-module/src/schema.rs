//! The top-level block types OpenTofu defines and their labels
//! (`diagnostics.md` §4.1, first row).

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

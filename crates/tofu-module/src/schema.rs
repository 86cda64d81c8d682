//! OpenTofu's own block schemas (`diagnostics.md` §4.1), as one table: the
//! top-level block types and their labels, and for every block OpenTofu
//! defines, the arguments and nested blocks it defines there. The checker
//! (`rules::bodies`), completion and hover all read this table, so what
//! OpenTofu accepts is written once.
//!
//! Where a provider, a provisioner, a backend, the called module or a key
//! provider defines the rest of a body ([`Rest::DefinedBy`]), the table holds
//! only what OpenTofu itself defines there (the meta-arguments); those bodies
//! are not checked further (`diagnostics.md` §7). The order of
//! [`TOP_LEVEL`] is OpenTofu's, which "Did you mean" suggestions follow;
//! other orders are the order editors offer names in.

/// What OpenTofu defines in one kind of block.
#[derive(Debug)]
pub struct BlockSchema {
    /// The block type.
    pub kind: &'static str,
    /// The names of its labels.
    pub labels: &'static [&'static str],
    /// The arguments OpenTofu defines in its body.
    pub arguments: &'static [&'static str],
    /// The arguments a primary file must set (override files need not
    /// repeat them).
    pub required: &'static [&'static str],
    /// The nested blocks OpenTofu defines in its body.
    pub blocks: &'static [&'static BlockSchema],
    pub rest: Rest,
}

/// Who defines what the table does not list in a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rest {
    /// Nothing: anything else is unsupported.
    Nothing,
    /// Someone else, named as hover says it ("the provider").
    DefinedBy(&'static str),
    /// Any name is an entry (`locals`, `required_providers`).
    Entries,
}

impl BlockSchema {
    /// The nested block type `kind` of this body.
    pub fn nested(&self, kind: &str) -> Option<&'static BlockSchema> {
        self.blocks.iter().copied().find(|block| block.kind == kind)
    }

    /// True when OpenTofu itself defines the argument `name` here.
    pub fn defines_argument(&self, name: &str) -> bool {
        self.arguments.contains(&name)
    }

    /// The names of the nested block types, in order.
    pub fn block_kinds(&self) -> impl Iterator<Item = &'static str> {
        self.blocks.iter().map(|block| block.kind)
    }
}

const NO_LABELS: &[&str] = &[];
const NAME: &[&str] = &["name"];
const TYPE_NAME: &[&str] = &["type", "name"];
const TYPE: &[&str] = &["type"];

/// A body with no labels that OpenTofu defines whole.
pub const fn closed(
    kind: &'static str,
    arguments: &'static [&'static str],
    required: &'static [&'static str],
    blocks: &'static [&'static BlockSchema],
) -> BlockSchema {
    BlockSchema {
        kind,
        labels: NO_LABELS,
        arguments,
        required,
        blocks,
        rest: Rest::Nothing,
    }
}

/// A body defined by `owner`, with nothing of OpenTofu's in it.
const fn foreign(
    kind: &'static str,
    labels: &'static [&'static str],
    owner: &'static str,
) -> BlockSchema {
    BlockSchema {
        kind,
        labels,
        arguments: &[],
        required: &[],
        blocks: &[],
        rest: Rest::DefinedBy(owner),
    }
}

const CONDITION_ARGUMENTS: &[&str] = &["condition", "error_message"];
pub const VALIDATION: BlockSchema =
    closed("validation", CONDITION_ARGUMENTS, CONDITION_ARGUMENTS, &[]);
pub const PRECONDITION: BlockSchema = closed(
    "precondition",
    CONDITION_ARGUMENTS,
    CONDITION_ARGUMENTS,
    &[],
);
pub const POSTCONDITION: BlockSchema = closed(
    "postcondition",
    CONDITION_ARGUMENTS,
    CONDITION_ARGUMENTS,
    &[],
);
pub const ASSERT: BlockSchema = closed("assert", CONDITION_ARGUMENTS, CONDITION_ARGUMENTS, &[]);

const PROVISIONER: BlockSchema = BlockSchema {
    kind: "provisioner",
    labels: TYPE,
    arguments: &["when", "on_failure"],
    required: &[],
    blocks: &[&CONNECTION],
    rest: Rest::DefinedBy("the provisioner"),
};
const CONNECTION: BlockSchema = foreign("connection", NO_LABELS, "the connection type");

/// The lifecycle arguments only managed resources accept.
pub const MANAGED_LIFECYCLE_ARGUMENTS: &[&str] = &[
    "create_before_destroy",
    "prevent_destroy",
    "destroy",
    "ignore_changes",
    "replace_triggered_by",
];
const RESOURCE_LIFECYCLE: BlockSchema = closed(
    "lifecycle",
    &[
        "create_before_destroy",
        "prevent_destroy",
        "destroy",
        "ignore_changes",
        "replace_triggered_by",
        "enabled",
    ],
    &[],
    &[&PRECONDITION, &POSTCONDITION],
);
const DATA_LIFECYCLE: BlockSchema = closed(
    "lifecycle",
    &["enabled"],
    &[],
    &[&PRECONDITION, &POSTCONDITION],
);
const MODULE_LIFECYCLE: BlockSchema = closed("lifecycle", &["enabled"], &[], &[]);

const RESOURCE_META_ARGUMENTS: &[&str] = &["count", "for_each", "provider", "depends_on"];

pub const RESOURCE: BlockSchema = BlockSchema {
    kind: "resource",
    labels: TYPE_NAME,
    arguments: RESOURCE_META_ARGUMENTS,
    required: &[],
    blocks: &[&RESOURCE_LIFECYCLE, &PROVISIONER, &CONNECTION],
    rest: Rest::DefinedBy("the provider"),
};
pub const DATA: BlockSchema = BlockSchema {
    kind: "data",
    labels: TYPE_NAME,
    arguments: RESOURCE_META_ARGUMENTS,
    required: &[],
    blocks: &[&DATA_LIFECYCLE],
    rest: Rest::DefinedBy("the provider"),
};
pub const EPHEMERAL: BlockSchema = BlockSchema {
    kind: "ephemeral",
    ..DATA
};
pub const MODULE: BlockSchema = BlockSchema {
    kind: "module",
    labels: NAME,
    arguments: &[
        "source",
        "version",
        "count",
        "for_each",
        "providers",
        "depends_on",
    ],
    required: &["source"],
    blocks: &[&MODULE_LIFECYCLE],
    rest: Rest::DefinedBy("the called module"),
};
pub const PROVIDER: BlockSchema = BlockSchema {
    kind: "provider",
    labels: NAME,
    arguments: &["alias", "for_each"],
    required: &[],
    blocks: &[],
    rest: Rest::DefinedBy("the provider"),
};
/// Meta-arguments of a `provider` block (`configs.providerBlockSchema`):
/// never the provider's, whatever its schema says (`count`, `depends_on`
/// and `source` are reserved, and reported while loading).
pub const PROVIDER_META_ARGUMENTS: &[&str] = &[
    "alias",
    "version",
    "for_each",
    "count",
    "depends_on",
    "source",
];
/// Meta-blocks of a `provider` block (reserved, reported while loading).
pub const PROVIDER_META_BLOCKS: &[&str] = &["lifecycle", "locals"];
pub const VARIABLE: BlockSchema = BlockSchema {
    kind: "variable",
    labels: NAME,
    arguments: &[
        "type",
        "default",
        "description",
        "sensitive",
        "nullable",
        "ephemeral",
        "const",
        "deprecated",
    ],
    required: &[],
    blocks: &[&VALIDATION],
    rest: Rest::Nothing,
};
pub const OUTPUT: BlockSchema = BlockSchema {
    kind: "output",
    labels: NAME,
    arguments: &[
        "value",
        "description",
        "sensitive",
        "ephemeral",
        "depends_on",
        "deprecated",
    ],
    required: &["value"],
    blocks: &[&PRECONDITION],
    rest: Rest::Nothing,
};
pub const LOCALS: BlockSchema = BlockSchema {
    kind: "locals",
    labels: NO_LABELS,
    arguments: &[],
    required: &[],
    blocks: &[],
    rest: Rest::Entries,
};

const CHECK_DATA: BlockSchema = BlockSchema {
    kind: "data",
    ..DATA
};
pub const CHECK: BlockSchema = BlockSchema {
    kind: "check",
    labels: NAME,
    arguments: &[],
    required: &[],
    blocks: &[&CHECK_DATA, &ASSERT],
    rest: Rest::Nothing,
};
pub const MOVED: BlockSchema = closed("moved", &["from", "to"], &["from", "to"], &[]);
pub const IMPORT: BlockSchema = closed(
    "import",
    &["to", "id", "identity", "provider", "for_each"],
    &["to"],
    &[],
);
const REMOVED_LIFECYCLE: BlockSchema = closed("lifecycle", &["destroy"], &[], &[]);
pub const REMOVED: BlockSchema = closed(
    "removed",
    &["from"],
    &["from"],
    &[&REMOVED_LIFECYCLE, &PROVISIONER],
);

const COMPATIBLE_WITH: BlockSchema = closed("compatible_with", &["opentofu"], &[], &[]);
pub const LANGUAGE: BlockSchema = closed(
    "language",
    &["edition", "experiments"],
    &[],
    &[&COMPATIBLE_WITH],
);

/// A fallback may hold a fallback: a `static`, so that it can name itself.
pub static FALLBACK: BlockSchema = BlockSchema {
    kind: "fallback",
    labels: NO_LABELS,
    arguments: &["method"],
    required: &[],
    blocks: &[&FALLBACK],
    rest: Rest::Nothing,
};
static FALLBACK_ONLY: [&BlockSchema; 1] = [&FALLBACK];
const ENCRYPTION_TARGET_ARGUMENTS: &[&str] = &["enforced", "method"];
const STATE: BlockSchema = closed("state", ENCRYPTION_TARGET_ARGUMENTS, &[], &FALLBACK_ONLY);
const PLAN: BlockSchema = closed("plan", ENCRYPTION_TARGET_ARGUMENTS, &[], &FALLBACK_ONLY);
const REMOTE_STATE_DEFAULT: BlockSchema = closed("default", &["method"], &[], &FALLBACK_ONLY);
const REMOTE_STATE_DATA_SOURCE: BlockSchema = BlockSchema {
    kind: "remote_state_data_source",
    labels: NAME,
    ..REMOTE_STATE_DEFAULT
};
const REMOTE_STATE_DATA_SOURCES: BlockSchema = closed(
    "remote_state_data_sources",
    &[],
    &[],
    &[&REMOTE_STATE_DEFAULT, &REMOTE_STATE_DATA_SOURCE],
);
pub const ENCRYPTION: BlockSchema = closed(
    "encryption",
    &[],
    &[],
    &[
        &foreign("key_provider", TYPE_NAME, "the key provider"),
        &foreign("method", TYPE_NAME, "the encryption method"),
        &STATE,
        &PLAN,
        &REMOTE_STATE_DATA_SOURCES,
    ],
);
const REQUIRED_PROVIDERS: BlockSchema = BlockSchema {
    kind: "required_providers",
    labels: NO_LABELS,
    arguments: &[],
    required: &[],
    blocks: &[],
    rest: Rest::Entries,
};
pub const TERRAFORM: BlockSchema = closed(
    "terraform",
    &["required_version", "experiments", "language"],
    &[],
    &[
        &foreign("backend", TYPE, "the backend"),
        &foreign("cloud", NO_LABELS, "the cloud integration"),
        &REQUIRED_PROVIDERS,
        &foreign("provider_meta", &["provider"], "the provider"),
        &ENCRYPTION,
    ],
);

/// Every top-level block type, in OpenTofu's order.
pub const TOP_LEVEL: &[&BlockSchema] = &[
    &TERRAFORM, &LANGUAGE, &PROVIDER, &VARIABLE, &LOCALS, &OUTPUT, &MODULE, &RESOURCE, &DATA,
    &EPHEMERAL, &CHECK, &MOVED, &IMPORT, &REMOVED,
];

/// The schema of a top-level block type, or `None` for a type OpenTofu does
/// not define at the top level.
pub fn top_level(kind: &str) -> Option<&'static BlockSchema> {
    // A match, not a search of TOP_LEVEL: declarations ask this for every
    // block after every edit (the test below keeps the two in step).
    let schema = match kind {
        "terraform" => &TERRAFORM,
        "language" => &LANGUAGE,
        "provider" => &PROVIDER,
        "variable" => &VARIABLE,
        "locals" => &LOCALS,
        "output" => &OUTPUT,
        "module" => &MODULE,
        "resource" => &RESOURCE,
        "data" => &DATA,
        "ephemeral" => &EPHEMERAL,
        "check" => &CHECK,
        "moved" => &MOVED,
        "import" => &IMPORT,
        "removed" => &REMOVED,
        _ => return None,
    };
    Some(schema)
}

/// The label names of a top-level block type, or `None` for a type OpenTofu
/// does not define at the top level.
pub fn top_level_labels(kind: &str) -> Option<&'static [&'static str]> {
    top_level(kind).map(|schema| schema.labels)
}

/// True when a top-level block has the right number of labels; blocks that do
/// not are dropped by OpenTofu (no declaration, no base, no duplicate).
pub fn has_valid_labels(block: &tofu_syntax::Block) -> bool {
    top_level_labels(&block.kind).is_some_and(|labels| labels.len() == block.labels.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_top_level_type_is_listed_once() {
        for (index, schema) in TOP_LEVEL.iter().enumerate() {
            assert_eq!(
                top_level(schema.kind).map(|found| found.kind),
                Some(schema.kind)
            );
            assert!(
                TOP_LEVEL[..index]
                    .iter()
                    .all(|other| other.kind != schema.kind),
                "{} twice",
                schema.kind
            );
        }
    }

    #[test]
    fn variables_accept_const_wherever_the_table_is_read() {
        assert!(VARIABLE.defines_argument("const"));
        assert_eq!(top_level_labels("resource"), Some(TYPE_NAME));
        assert_eq!(top_level_labels("nonsense"), None);
    }
}

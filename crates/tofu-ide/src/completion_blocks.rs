//! Writing a new block: the keywords that start a top-level block, each with
//! a snippet of the whole block (its labels and the arguments it cannot do
//! without as placeholders), where one may start.
//!
//! A new block starts at the top level of a native file, at the start of a
//! line (after blanks, possibly with a partial word typed), outside every
//! block (closed or not), attribute, string, heredoc and comment
//! ([`new_block_at`]). Which
//! keywords depend on the file, as OpenTofu 1.12 reads it:
//!
//! - a configuration file (`.tf`, `.tofu`): every top-level block type of
//!   `configFileSchema` (`internal/configs/parser_config.go`), in
//!   [`tofu_module::schema::TOP_LEVEL`]'s order;
//! - an override file: the same, minus the types OpenTofu refuses there
//!   (`language`, `check`, `moved`, `import`, `removed`: `merging.md` §2);
//! - a test file (`.tftest.hcl`, `.tofutest.hcl`): the block types of
//!   `testFileSchema` (`internal/configs/test_file.go`),
//!   [`tofu_module::test_schema::TEST_FILE`].
//!
//! JSON files get none (they have no block syntax), and neither do
//! `.tfvars` files (their variables are completed instead). Every snippet is
//! already laid out as `tofu fmt` writes it.

use tofu_module::schema::TOP_LEVEL;
use tofu_module::test_schema::TEST_FILE;
use tofu_module::{FileRole, ModuleFile};
use tofu_syntax::scanner::{ScanMode, Scanner, TokenKind};
use tofu_syntax::{SourceFile, TextRange};

use crate::lexer::{in_literal, lex_native};

/// A keyword that starts a top-level block, with the snippet that writes
/// the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockKeyword {
    pub label: &'static str,
    /// What the block is for, in a few words.
    pub detail: &'static str,
    /// The whole block, in the protocol's snippet syntax (`${1:type}`,
    /// `$0`).
    pub snippet: &'static str,
}

/// Which set of top-level blocks a file may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TopLevel {
    Configuration,
    Override,
    Test,
}

impl TopLevel {
    /// The set for a file of `role`; `None` for files without blocks of
    /// their own (`.tfvars`) or that OpenTofu does not read.
    pub fn of(role: FileRole) -> Option<TopLevel> {
        match role {
            FileRole::Primary => Some(TopLevel::Configuration),
            FileRole::Override => Some(TopLevel::Override),
            FileRole::Test => Some(TopLevel::Test),
            _ => None,
        }
    }
}

/// The block types OpenTofu refuses in override files
/// (`override-forbidden-block`).
const NOT_IN_OVERRIDE_FILES: &[&str] = &["language", "check", "moved", "import", "removed"];

/// The top-level blocks of a configuration file.
const CONFIGURATION: &[BlockKeyword] = &[
    BlockKeyword {
        label: "terraform",
        detail: "settings: required providers, backend, encryption",
        snippet: "terraform {\n  $0\n}",
    },
    BlockKeyword {
        label: "language",
        detail: "the OpenTofu versions this module needs",
        snippet: "language {\n  compatible_with {\n    opentofu = \"${1:>= 1.12}\"\n  }\n}",
    },
    BlockKeyword {
        label: "provider",
        detail: "a provider configuration",
        snippet: "provider \"${1:name}\" {\n  $0\n}",
    },
    BlockKeyword {
        label: "variable",
        detail: "an input variable",
        snippet: "variable \"${1:name}\" {\n  $0\n}",
    },
    BlockKeyword {
        label: "locals",
        detail: "local values",
        snippet: "locals {\n  $0\n}",
    },
    BlockKeyword {
        label: "output",
        detail: "an output value",
        snippet: "output \"${1:name}\" {\n  value = $0\n}",
    },
    BlockKeyword {
        label: "module",
        detail: "a module call",
        snippet: "module \"${1:name}\" {\n  source = \"$2\"\n  $0\n}",
    },
    BlockKeyword {
        label: "resource",
        detail: "a managed resource",
        snippet: "resource \"${1:type}\" \"${2:name}\" {\n  $0\n}",
    },
    BlockKeyword {
        label: "data",
        detail: "a data source",
        snippet: "data \"${1:type}\" \"${2:name}\" {\n  $0\n}",
    },
    BlockKeyword {
        label: "ephemeral",
        detail: "an ephemeral resource",
        snippet: "ephemeral \"${1:type}\" \"${2:name}\" {\n  $0\n}",
    },
    BlockKeyword {
        label: "check",
        detail: "assertions checked on every plan and apply",
        snippet: "check \"${1:name}\" {\n  assert {\n    condition     = $2\n    error_message = \"$3\"\n  }\n}",
    },
    BlockKeyword {
        label: "moved",
        detail: "an object moved to a new address",
        snippet: "moved {\n  from = $1\n  to   = $2\n}",
    },
    BlockKeyword {
        label: "import",
        detail: "existing infrastructure imported into a resource",
        snippet: "import {\n  to = $1\n  id = \"$2\"\n}",
    },
    BlockKeyword {
        label: "removed",
        detail: "an object removed from the state, not destroyed",
        snippet: "removed {\n  from = $1\n\n  lifecycle {\n    destroy = false\n  }\n}",
    },
];

/// The top-level blocks of a test file.
const TEST: &[BlockKeyword] = &[
    BlockKeyword {
        label: "run",
        detail: "a test run: plan or apply, then assert",
        snippet: "run \"${1:name}\" {\n  $0\n}",
    },
    BlockKeyword {
        label: "provider",
        detail: "a provider configuration for the runs",
        snippet: "provider \"${1:name}\" {\n  $0\n}",
    },
    BlockKeyword {
        label: "variables",
        detail: "input variable values for every run",
        snippet: "variables {\n  $0\n}",
    },
    BlockKeyword {
        label: "override_resource",
        detail: "fixed values for a resource, not planned",
        snippet: "override_resource {\n  target = $1\n  values = {\n    $0\n  }\n}",
    },
    BlockKeyword {
        label: "override_data",
        detail: "fixed values for a data source, not read",
        snippet: "override_data {\n  target = $1\n  values = {\n    $0\n  }\n}",
    },
    BlockKeyword {
        label: "override_module",
        detail: "fixed outputs for a module call, not run",
        snippet: "override_module {\n  target = $1\n  outputs = {\n    $0\n  }\n}",
    },
    BlockKeyword {
        label: "mock_provider",
        detail: "a provider that makes up values instead",
        snippet: "mock_provider \"${1:name}\" {\n  $0\n}",
    },
];

/// The keywords that start a top-level block in a file of kind `top`, in
/// OpenTofu's order of its schema.
pub(crate) fn keywords(top: TopLevel) -> impl Iterator<Item = &'static BlockKeyword> {
    let (table, order): (&[BlockKeyword], Vec<&str>) = match top {
        TopLevel::Test => (TEST, TEST_FILE.iter().map(|schema| schema.kind).collect()),
        TopLevel::Configuration | TopLevel::Override => (
            CONFIGURATION,
            TOP_LEVEL
                .iter()
                .map(|schema| schema.kind)
                .filter(|kind| top != TopLevel::Override || !NOT_IN_OVERRIDE_FILES.contains(kind))
                .collect(),
        ),
    };
    order
        .into_iter()
        .filter_map(move |kind| table.iter().find(|keyword| keyword.label == kind))
}

/// True when a new top-level block may start at `offset` of `file`:
/// `parsed` is the file with the partial word `replace` at the start of
/// the line blanked out, and no block or attribute of it holds `offset`,
/// nor does a string, heredoc or comment.
pub(crate) fn new_block_at(file: &ModuleFile, parsed: &SourceFile, offset: u32) -> bool {
    if file.is_json() {
        return false;
    }
    let body = &parsed.body;
    let inside = |range: TextRange| range.start < offset && offset < range.end;
    if body.blocks.iter().any(|block| inside(block.range))
        || body.attributes.iter().any(|attr| inside(attr.range))
    {
        return false;
    }
    // Unterminated `/*` and heredocs run to the end of what is lexed: only
    // the text before the cursor is. A block not closed yet is often lost
    // by the parser: the brackets before the cursor tell.
    let before = file.text.get(..offset as usize).unwrap_or_default();
    bracket_depth(before) == 0 && !in_literal(&lex_native(before), offset)
}

/// How many brackets (`{`, `[`, `(`) are open at the end of `text`, as
/// HCL's scanner reads it (brackets in strings, heredocs and comments are
/// text).
fn bracket_depth(text: &str) -> usize {
    let mut depth = 0usize;
    for token in Scanner::new(text, ScanMode::Forgiving) {
        match token.kind {
            TokenKind::OBrace | TokenKind::OBrack | TokenKind::OParen => depth += 1,
            TokenKind::CBrace | TokenKind::CBrack | TokenKind::CParen => {
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block type OpenTofu accepts at the top level has a keyword,
    /// with one placeholder per label, and no keyword stands for a type it
    /// does not accept.
    #[test]
    fn the_tables_follow_opentofu_s_schemas() {
        for (table, schemas) in [(CONFIGURATION, TOP_LEVEL), (TEST, TEST_FILE)] {
            assert_eq!(table.len(), schemas.len());
            for schema in schemas {
                let keyword = table.iter().find(|keyword| keyword.label == schema.kind);
                let Some(keyword) = keyword else {
                    panic!("no keyword for {}", schema.kind);
                };
                let header = keyword.snippet.lines().next().unwrap_or_default();
                assert_eq!(
                    header.matches('"').count(),
                    2 * schema.labels.len(),
                    "{}",
                    keyword.snippet
                );
            }
        }
        let in_override: Vec<&str> = keywords(TopLevel::Override)
            .map(|keyword| keyword.label)
            .collect();
        assert_eq!(
            in_override,
            [
                "terraform",
                "provider",
                "variable",
                "locals",
                "output",
                "module",
                "resource",
                "data",
                "ephemeral"
            ]
        );
    }
}

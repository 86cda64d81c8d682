//! Writing new blocks: the keywords that start a top-level block, as
//! snippets, wherever a new block may start, and nowhere else.

use super::{complete, fixture};
use crate::{CompletionItem, CompletionKind};

/// The items at the cursor, in full.
fn items(text: &str) -> Vec<CompletionItem> {
    let (analysis, path, offset) = fixture(text);
    analysis.completions(&path, offset)
}

/// The labels of the keywords at the cursor.
fn keywords(text: &str) -> Vec<String> {
    items(text)
        .into_iter()
        .filter(|item| item.kind == CompletionKind::Keyword)
        .map(|item| item.label)
        .collect()
}

const CONFIGURATION_KEYWORDS: [&str; 14] = [
    "terraform",
    "language",
    "provider",
    "variable",
    "locals",
    "output",
    "module",
    "resource",
    "data",
    "ephemeral",
    "check",
    "moved",
    "import",
    "removed",
];

#[test]
fn an_empty_file_offers_every_top_level_block_as_a_snippet() {
    let found = items("//- main.tf\n$0");
    let labels: Vec<&str> = found.iter().map(|item| item.label.as_str()).collect();
    assert_eq!(labels, CONFIGURATION_KEYWORDS);
    assert!(found
        .iter()
        .all(|item| item.kind == CompletionKind::Keyword && item.is_snippet()));
    let snippet = |label: &str| {
        found
            .iter()
            .find(|item| item.label == label)
            .map(|item| item.insert_text.as_str())
            .unwrap()
    };
    assert_eq!(
        snippet("resource"),
        "resource \"${1:type}\" \"${2:name}\" {\n  $0\n}"
    );
    assert_eq!(
        snippet("module"),
        "module \"${1:name}\" {\n  source = \"$2\"\n  $0\n}"
    );
    assert_eq!(snippet("moved"), "moved {\n  from = $1\n  to   = $2\n}");
    assert_eq!(snippet("import"), "import {\n  to = $1\n  id = \"$2\"\n}");
    assert_eq!(
        snippet("removed"),
        "removed {\n  from = $1\n\n  lifecycle {\n    destroy = false\n  }\n}"
    );
    assert_eq!(snippet("locals"), "locals {\n  $0\n}");
    // The item carries what the block is for.
    assert_eq!(
        complete("//- main.tf\n$0")[7],
        "resource [] a managed resource"
    );
}

#[test]
fn a_partial_word_at_the_start_of_a_line_is_replaced() {
    assert_eq!(
        complete("//- main.tf\nres$0")[7],
        "resource [res] a managed resource"
    );
    // Indented, and with blanks after the cursor.
    assert_eq!(
        complete("//- main.tf\n  da$0   \n")[8],
        "data [da] a data source"
    );
}

#[test]
fn between_two_blocks_a_new_block_may_start() {
    let text = "//- main.tf\nvariable \"a\" {\n  default = 1\n}\n\nou$0\n\noutput \"b\" {\n  value = var.a\n}\n";
    assert_eq!(keywords(text), CONFIGURATION_KEYWORDS);
    // Right after the closing brace, on the next line.
    let text = "//- main.tf\nvariable \"a\" {}\n$0\nvariable \"b\" {}\n";
    assert_eq!(keywords(text), CONFIGURATION_KEYWORDS);
}

#[test]
fn no_keywords_inside_a_block_or_a_top_level_attribute() {
    // A body gets its arguments, not top-level blocks.
    let body = items("//- main.tf\nvariable \"a\" {\n  $0\n}\n");
    assert!(!body.is_empty());
    assert!(body.iter().all(|item| item.kind != CompletionKind::Keyword));
    // A block not closed yet: the rest of the file is its body.
    assert!(keywords("//- main.tf\nresource \"aws_instance\" \"web\" {\n  co$0").is_empty());
    assert!(keywords("//- main.tf\nlocals {\n  a = [\n    1,\n  ]\n$0").is_empty());
    // A nested block.
    assert!(
        keywords("//- main.tf\nresource \"a\" \"b\" {\n  lifecycle {\n    $0\n  }\n}\n").is_empty()
    );
    // Before text on the same line, or after something else on it.
    assert!(keywords("//- main.tf\n$0variable \"a\" {}\n").is_empty());
    assert!(keywords("//- main.tf\nvariable \"a\" {} $0\n").is_empty());
    // Inside a top-level attribute's value (not valid, but written).
    assert!(keywords("//- main.tf\nx = [\n  $0\n]\n").is_empty());
}

#[test]
fn no_keywords_inside_a_string_a_heredoc_or_a_comment() {
    for text in [
        "//- main.tf\n/*\nres$0\n*/\n",
        "//- main.tf\n/* not closed\nres$0",
        "//- main.tf\nlocals {\n  a = <<EOT\nres$0\nEOT\n}\n",
        "//- main.tf\nx = <<EOT\nres$0\nEOT\n",
        "//- main.tf\n# res$0\n",
    ] {
        assert!(keywords(text).is_empty(), "{text}");
    }
    // Right after a comment's line, a block may start again.
    assert_eq!(
        keywords("//- main.tf\n/* a\n   comment */\n# another\n$0\n"),
        CONFIGURATION_KEYWORDS
    );
}

#[test]
fn a_tofu_file_offers_the_same_blocks() {
    assert_eq!(keywords("//- main.tofu\n$0"), CONFIGURATION_KEYWORDS);
    // Its override file: the headers to override, then the keywords
    // OpenTofu allows there.
    let text = "//- main.tofu\nvariable \"region\" {}\n//- override.tofu\n$0";
    assert_eq!(
        complete(text),
        [
            "variable \"region\" [] override the block at main.tofu:1",
            "terraform [] settings: required providers, backend, encryption",
            "provider [] a provider configuration",
            "variable [] an input variable",
            "locals [] local values",
            "output [] an output value",
            "module [] a module call",
            "resource [] a managed resource",
            "data [] a data source",
            "ephemeral [] an ephemeral resource",
        ]
    );
}

#[test]
fn a_test_file_offers_the_blocks_of_a_test_file() {
    let text = "//- main.tf\nvariable \"a\" {}\n//- main.tftest.hcl\nrun \"first\" {\n}\n\n$0\n";
    assert_eq!(
        keywords(text),
        [
            "run",
            "provider",
            "variables",
            "override_resource",
            "override_data",
            "override_module",
            "mock_provider",
        ]
    );
    let text = "//- main.tf\nvariable \"a\" {}\n//- tests/a.tofutest.hcl\nmo$0";
    let found = items(text);
    let mock = found
        .iter()
        .find(|item| item.label == "mock_provider")
        .unwrap();
    assert_eq!(mock.insert_text, "mock_provider \"${1:name}\" {\n  $0\n}");
    assert!(mock.is_snippet());
    // Inside a run: no top-level blocks.
    let text = "//- main.tf\nvariable \"a\" {}\n//- main.tftest.hcl\nrun \"first\" {\n  $0\n}\n";
    assert!(keywords(text).is_empty());
}

#[test]
fn json_and_values_files_get_no_keywords() {
    assert!(complete("//- main.tf.json\n$0").is_empty());
    assert!(complete("//- main.tf.json\n{\n  $0\n}\n").is_empty());
    assert!(complete("//- main.tofu.json\n{\"variable\": {}}\n$0").is_empty());
    // A values file still offers its variables, and nothing else.
    assert_eq!(
        complete("//- main.tf\nvariable \"size\" {}\n//- dev.tfvars\n$0"),
        ["size [] required"]
    );
}

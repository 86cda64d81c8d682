//! Requests about one document over the protocol: semantic tokens (decoded
//! with the advertised legend, lengths in UTF-16), highlights of a name,
//! links on module sources (to a file of the workspace, a file outside it
//! read from disk, a registry page), folding and selection ranges. What
//! each holds is the engine's business (`tofu-ide` tests); this checks the
//! protocol edge: positions, lines, kinds and the legend.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::Path;

use common::{capabilities, overrides_example, uri, TestClient};
use serde_json::{json, Value};

async fn start(root: &Path) -> TestClient {
    TestClient::start(root, capabilities(), json!({}), Value::Null).await
}

/// The text of `line` from UTF-16 unit `start`, `length` units long.
fn utf16_slice(line: &str, start: u32, length: u32) -> String {
    let units: Vec<u16> = line.encode_utf16().collect();
    String::from_utf16(&units[start as usize..(start + length) as usize]).unwrap()
}

/// Decodes `data` with the legend: `type[.modifier…] text` per token.
fn decode(data: &Value, legend: &Value, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let types = legend["tokenTypes"].as_array().unwrap();
    let modifiers = legend["tokenModifiers"].as_array().unwrap();
    let numbers: Vec<u32> = data
        .as_array()
        .unwrap()
        .iter()
        .map(|n| u32::try_from(n.as_u64().unwrap()).unwrap())
        .collect();
    let (mut line, mut start) = (0u32, 0u32);
    numbers
        .chunks(5)
        .map(|token| {
            let [delta_line, delta_start, length, token_type, bits] = token else {
                panic!("a token has five numbers")
            };
            if *delta_line > 0 {
                line += delta_line;
                start = *delta_start;
            } else {
                start += delta_start;
            }
            let mut name = types[*token_type as usize].as_str().unwrap().to_owned();
            for (index, modifier) in modifiers.iter().enumerate() {
                if bits & (1 << index) != 0 {
                    name.push('.');
                    name.push_str(modifier.as_str().unwrap());
                }
            }
            format!(
                "{name} {}",
                utf16_slice(lines[line as usize], start, *length)
            )
        })
        .collect()
}

#[tokio::test]
async fn semantic_tokens_are_decoded_with_the_legend() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap();
    let main = root.join("main.tf");
    let text = "/* 😀 two\n   lines */\nresource \"aws_instance\" \"web\" {\n  ami = var.ami # é\n}\nvariable \"ami\" {}\n";
    fs::write(&main, text).unwrap();
    let mut client = start(&root).await;
    let provider = &client.initialize_result["capabilities"]["semanticTokensProvider"];
    assert_eq!(provider["full"], true);
    assert_eq!(provider["range"], true);
    let legend = provider["legend"].clone();
    client.open(&main, 1, text);
    let full = client
        .request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri(&main)}}),
        )
        .await;
    assert_eq!(
        decode(&full["data"], &legend, text),
        [
            "comment /* 😀 two",
            "comment    lines */",
            "keyword resource",
            "type \"aws_instance\"",
            "class.declaration \"web\"",
            "property ami",
            "parameter var.ami",
            "comment # é",
            "keyword variable",
            "parameter.declaration \"ami\"",
        ]
    );
    // Lines 3 and 4 only: the tokens there, positions still absolute.
    let range = client
        .request(
            "textDocument/semanticTokens/range",
            json!({"textDocument": {"uri": uri(&main)},
                   "range": {"start": {"line": 3, "character": 0}, "end": {"line": 4, "character": 0}}}),
        )
        .await;
    let data = range["data"].as_array().unwrap();
    assert_eq!(data[0], 3, "{range}");
    assert_eq!(
        decode(&range["data"], &legend, text),
        ["property ami", "parameter var.ami", "comment # é"]
    );
    // A range that ends past the last line goes to the end of the text.
    let tail = client
        .request(
            "textDocument/semanticTokens/range",
            json!({"textDocument": {"uri": uri(&main)},
                   "range": {"start": {"line": 5, "character": 0}, "end": {"line": 99, "character": 0}}}),
        )
        .await;
    assert_eq!(
        decode(&tail["data"], &legend, text),
        ["keyword variable", "parameter.declaration \"ami\""]
    );
    client.shutdown().await;
}

#[tokio::test]
async fn highlights_folding_and_selection_in_a_base_file() {
    let (_temp, root) = overrides_example();
    let mut client = start(&root).await;
    let advertised = &client.initialize_result["capabilities"];
    assert_eq!(advertised["documentHighlightProvider"], true);
    assert_eq!(advertised["foldingRangeProvider"], true);
    assert_eq!(advertised["selectionRangeProvider"], true);
    let main = root.join("main.tf");
    let text = fs::read_to_string(&main).unwrap();
    client.open(&main, 1, &text);
    let document = json!({"uri": uri(&main)});

    // `Name = local.name` (line 10): the entry in `locals` writes it, both
    // uses read it.
    let character = u32::try_from(text.lines().nth(10).unwrap().find("name").unwrap()).unwrap();
    let at = json!({"textDocument": document, "position": {"line": 10, "character": character}});
    let highlights = client
        .request("textDocument/documentHighlight", at.clone())
        .await;
    let found: Vec<(u64, u64)> = highlights
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["range"]["start"]["line"].as_u64().unwrap(),
                h["kind"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, [(10, 2), (15, 2), (19, 3)], "{highlights}");

    let folds = client
        .request(
            "textDocument/foldingRange",
            json!({"textDocument": document}),
        )
        .await;
    let found: Vec<(u64, u64, &str)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
                f["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (0, 12, "region"),
            (4, 7, "region"),
            (9, 11, "region"),
            (14, 16, "region"),
            (18, 20, "region"),
            (22, 24, "region"),
        ]
    );

    let selection = client
        .request(
            "textDocument/selectionRange",
            json!({"textDocument": document, "positions": [{"line": 10, "character": character}]}),
        )
        .await;
    let mut ranges = Vec::new();
    let mut current = &selection[0];
    while !current.is_null() {
        ranges.push(current["range"].clone());
        current = &current["parent"];
    }
    assert_eq!(
        ranges[0],
        json!({"start": {"line": 10, "character": character}, "end": {"line": 10, "character": character + 4}})
    );
    assert_eq!(
        ranges.last().unwrap()["start"],
        json!({"line": 0, "character": 0})
    );
    assert!(ranges.len() >= 6, "{selection}");
    client.shutdown().await;
}

#[tokio::test]
async fn module_sources_link_to_files_and_registry_pages() {
    let temp = tempfile::tempdir().unwrap();
    let base = temp.path().canonicalize().unwrap();
    let root = base.join("ws");
    fs::create_dir_all(root.join("net")).unwrap();
    fs::create_dir_all(base.join("shared")).unwrap();
    fs::write(root.join("net/variables.tf"), "variable \"a\" {}\n").unwrap();
    fs::write(root.join("net/main.tf"), "variable \"b\" {}\n").unwrap();
    fs::write(
        base.join("shared/outputs.tf"),
        "output \"x\" {\n  value = 1\n}\n",
    )
    .unwrap();
    fs::write(base.join("shared/.hidden.tf"), "").unwrap();
    let main = root.join("main.tf");
    let text = "module \"net\" {\n  source = \"./net\"\n}\nmodule \"shared\" {\n  source = \"../shared\"\n}\nmodule \"vpc\" {\n  source = \"registry.terraform.io/terraform-aws-modules/vpc/aws\"\n}\nmodule \"git\" {\n  source = \"git::https://example.com/x.git\"\n}\n";
    fs::write(&main, text).unwrap();
    let mut client = start(&root).await;
    assert_eq!(
        client.initialize_result["capabilities"]["documentLinkProvider"]["resolveProvider"],
        false
    );
    client.open(&main, 1, text);
    let links = client
        .request(
            "textDocument/documentLink",
            json!({"textDocument": {"uri": uri(&main)}}),
        )
        .await;
    let found: Vec<(Value, String)> = links
        .as_array()
        .unwrap()
        .iter()
        .map(|link| {
            (
                link["range"].clone(),
                link["target"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                json!({"start": {"line": 1, "character": 12}, "end": {"line": 1, "character": 17}}),
                uri(&root.join("net/main.tf")),
            ),
            (
                json!({"start": {"line": 4, "character": 12}, "end": {"line": 4, "character": 21}}),
                uri(&base.join("shared/outputs.tf")),
            ),
            (
                json!({"start": {"line": 7, "character": 12}, "end": {"line": 7, "character": 63}}),
                "https://registry.terraform.io/modules/terraform-aws-modules/vpc/aws".to_owned(),
            ),
        ]
    );
    client.shutdown().await;
}

/// Hover on a local whose value reads a file shows what the file holds,
/// read from the disk as `check` reads it; a file outside the workspace
/// folder is not read (the value stays unknown).
#[tokio::test]
async fn hover_on_a_local_reads_files_inside_the_workspace_folder_only() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().canonicalize().unwrap().join("ws");
    fs::create_dir(&root).unwrap();
    fs::write(temp.path().join("secret.txt"), "top-secret-value").unwrap();
    fs::write(root.join("motd.txt"), "hello from disk").unwrap();
    let main = root.join("main.tf");
    let text = "locals {\n  motd   = file(\"motd.txt\")\n  secret = file(\"../secret.txt\")\n}\n";
    fs::write(&main, text).unwrap();
    let mut client = start(&root).await;
    client.open(&main, 1, text);
    let hover_on = |line: u32| json!({"textDocument": {"uri": uri(&main)}, "position": {"line": line, "character": 3}});
    let motd = client.request("textDocument/hover", hover_on(1)).await;
    let motd = motd["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(motd.contains("\"hello from disk\""), "{motd}");
    let secret = client.request("textDocument/hover", hover_on(2)).await;
    let secret = secret["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(secret.contains("(known after apply)"), "{secret}");
    assert!(!secret.contains("top-secret-value"), "{secret}");
}

//! Requests about one document over the protocol: semantic tokens (decoded
//! with the advertised legend, lengths in UTF-16). What each holds is the
//! engine's business (`tofu-ide` tests); this checks the protocol edge:
//! positions, lines, kinds and the legend.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::Path;

use common::{capabilities, uri, TestClient};
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
    client.shutdown().await;
}

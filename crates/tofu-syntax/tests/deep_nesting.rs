//! Stack safety: deeply nested input must give a diagnostic, never a stack
//! overflow (which aborts the whole process and cannot be caught). Each case
//! parses on a thread with a small 1 MiB stack, half of what test threads
//! get, so the margin is measured rather than hoped for.

#![allow(clippy::expect_used)]

use std::thread;

fn parses_on_a_small_stack(name: &'static str, text: String) -> tofu_syntax::SourceFile {
    thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || tofu_syntax::parse(name, &text))
        .expect("spawn a parser thread")
        .join()
        .expect("the parser thread must not panic")
}

#[test]
fn deeply_nested_native_input_is_a_syntax_error() {
    let cases = [
        format!("a = {}", "[".repeat(100_000)),
        format!("a = {}", "{".repeat(100_000)),
        format!("a = {}1{}", "(".repeat(100_000), ")".repeat(100_000)),
        format!("a = {}", "-".repeat(100_000) + "1"),
        format!("a = \"{}\"", "${".repeat(50_000)),
        "b {\n".repeat(10_000),
        format!("a = x{}", ".y".repeat(100_000)),
        format!("a = x{}", "[0]".repeat(100_000)),
        format!("a = 1{}", " + 1".repeat(100_000)),
        format!("a = {}1", "true ? 1 : ".repeat(50_000)),
    ];
    for text in cases {
        let file = parses_on_a_small_stack("deep.tf", text);
        // Either it parsed (long flat chains) or it is one clear error.
        assert!(file.errors.len() <= 1);
    }
}

#[test]
fn deeply_nested_json_input_is_a_syntax_error() {
    let cases = [
        format!("{{\"a\": {}", "[".repeat(100_000)),
        format!("{{\"a\": {}", "{\"b\": ".repeat(100_000)),
        format!("{{\"resource\": {}}}", "{\"x\": ".repeat(10_000)),
        format!("{{\"a\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000)),
        format!(
            "{{\"locals\": {}1{}}}",
            "{\"b\": ".repeat(100_000),
            "}".repeat(100_000)
        ),
        format!(
            "{{\"variable\": {{\"v\": {{\"default\": {}1{}}}}}}}",
            "[".repeat(5_000),
            "]".repeat(5_000)
        ),
    ];
    for text in cases {
        let file = parses_on_a_small_stack("deep.tf.json", text);
        assert!(file.errors.len() <= 1);
    }
}

/// OpenTofu reads values nested thousands deep; hcl-edit alone stops at 64
/// levels. Such values must parse, and the rest of the file with them.
#[test]
fn realistic_deep_nesting_is_accepted() {
    for depth in [65, 1_000, 5_000] {
        let cases = [
            format!("a = {}1{}", "[".repeat(depth), "]".repeat(depth)),
            format!("a = {}1{}", "{b = ".repeat(depth), "}".repeat(depth)),
            format!("a = {}1{}", "(".repeat(depth), ")".repeat(depth)),
            format!(
                "locals {{\n  a = {}\"x\"{}\n}}\nvariable \"after\" {{}}\n",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
        ];
        for text in cases {
            let file = parses_on_a_small_stack("deep.tf", text);
            assert_eq!(file.errors, Vec::new(), "depth {depth}");
            assert!(file.unrecovered.is_empty(), "depth {depth}");
        }
    }
    let text = format!(
        "locals {{\n  a = {}1{}\n}}\nvariable \"after\" {{}}\n",
        "[".repeat(1_000),
        "]".repeat(1_000)
    );
    let file = parses_on_a_small_stack("deep.tf", text);
    let types: Vec<&str> = file.body.blocks.iter().map(|b| b.kind.as_str()).collect();
    assert_eq!(types, ["locals", "variable"]);
}

#[test]
fn closed_nesting_100_000_deep_does_not_overflow() {
    let text = format!(
        "a = {}1{}\nb = 2\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let file = parses_on_a_small_stack("deep.tf", text);
    assert!(file.errors.len() <= 1);
}

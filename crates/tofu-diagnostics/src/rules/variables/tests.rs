//! `invalid-variable-default` through whole analyses: each block's default
//! against its type, and again after each override is merged.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::{analyze, AnalysisCache};
use tofu_module::{Config, InputFile};

/// `(file:line, detail)` of every `invalid-variable-default`, in order.
fn check(files: &[(&str, &str)]) -> Vec<(String, String)> {
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    let module = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
    module
        .diagnostics
        .iter()
        .filter(|d| d.code == crate::codes::INVALID_VARIABLE_DEFAULT)
        .map(|d| {
            let file = module.file(d.subject.file).unwrap();
            let start = d.subject.range.unwrap().start;
            let line = file.line_index.line_col(&file.text, start).line;
            (format!("{}:{line}", file.name), d.detail.clone())
        })
        .collect()
}

const PORT: &str = "variable \"port\" {\n  type    = number\n  default = 80\n}\n";

fn port_override(body: &str) -> Vec<(String, String)> {
    check(&[
        ("main.tf", PORT),
        (
            "override.tf",
            &format!("variable \"port\" {{\n{body}\n}}\n"),
        ),
    ])
}

fn expect(actual: Vec<(String, String)>, expected: &[(&str, &str)]) {
    let actual: Vec<(&str, &str)> = actual
        .iter()
        .map(|(at, detail)| (at.as_str(), detail.as_str()))
        .collect();
    assert_eq!(actual, expected);
}

/// The `port` table of merging.md §6.1, with the details OpenTofu prints.
#[test]
fn port_table() {
    expect(port_override("  default = \"8080\""), &[]);
    expect(
        port_override("  default = \"http\""),
        &[("override.tf:1", "The overridden default value for this variable is not compatible with the variable's type constraint: a number is required.")],
    );
    expect(
        port_override("  type = bool"),
        &[("override.tf:1", "Overriding this variable's type constraint has made its default value invalid: bool required, but have number.")],
    );
    expect(
        port_override("  nullable = false\n  default  = null"),
        &[
            (
                "override.tf:1",
                "A null default value is not valid when nullable=false.",
            ),
            (
                "override.tf:3",
                "A null default value is not valid when nullable=false.",
            ),
        ],
    );
    expect(
        port_override("  type    = bool\n  default = \"yes\""),
        &[("override.tf:3", "This default value is not compatible with the variable's type constraint: a bool is required.")],
    );
}

#[test]
fn zones_example() {
    expect(
        check(&[
            ("main.tf", "variable \"zones\" {\n  type    = list(string)\n  default = [\"a\"]\n}\n"),
            ("override.tf", "variable \"zones\" {\n  type = string\n}\n"),
        ]),
        &[("override.tf:1", "Overriding this variable's type constraint has made its default value invalid: string required, but have list of string.")],
    );
}

/// A default converted to a type with `any` in it has the type cty
/// resolved, which the override's type meets (recorded from `tofu
/// validate`; fixture variables/override-meets-the-type-a-default-was-converted-to).
#[test]
fn a_default_converted_to_any_has_the_type_cty_resolved() {
    expect(
        check(&[
            ("main.tf", "variable \"zones\" {\n  type    = list(any)\n  default = [1, 2]\n}\nvariable \"nothing\" {\n  type    = list(any)\n  default = null\n}\n"),
            ("override.tf", "variable \"zones\" {\n  type = string\n}\nvariable \"nothing\" {\n  type = map(string)\n}\n"),
        ]),
        &[
            ("override.tf:1", "Overriding this variable's type constraint has made its default value invalid: string required, but have list of number."),
            ("override.tf:4", "Overriding this variable's type constraint has made its default value invalid: map of string required."),
        ],
    );
}

/// An override that changes neither type nor default: a failed step-b
/// conversion keeps the unconverted default, so it fails again.
#[test]
fn both_or_neither_changed() {
    expect(
        check(&[
            ("main.tf", PORT),
            ("a_override.tf", "variable \"port\" {\n  type = bool\n}\n"),
            ("b_override.tf", "variable \"port\" {\n  description = \"p\"\n}\n"),
        ]),
        &[
            ("a_override.tf:1", "Overriding this variable's type constraint has made its default value invalid: bool required, but have number."),
            ("b_override.tf:1", "This variable's default value is not compatible with its type constraint: bool required, but have number."),
        ],
    );
}

/// OpenTofu formats the path of a failing element in the block's own
/// check, not after merging; a default that failed its own check is
/// unknown afterwards.
#[test]
fn in_block_messages_carry_the_path_and_merge_messages_do_not() {
    expect(
        check(&[
            ("main.tf", "variable \"l\" {\n  type    = list(string)\n  default = [\"1\", \"x\"]\n}\nvariable \"m\" {\n  type    = list(number)\n  default = [1, \"x\"]\n}\n"),
            ("override.tf", "variable \"l\" {\n  type = list(number)\n}\nvariable \"m\" {\n  type = list(bool)\n}\n"),
        ]),
        &[
            ("main.tf:7", "This default value is not compatible with the variable's type constraint: [1]: a number is required."),
            ("override.tf:1", "Overriding this variable's type constraint has made its default value invalid: a number is required."),
        ],
    );
}

/// A string default that an override's type makes a number or a bool
/// gets the conversion's error, as cty reports it when a conversion
/// exists (`scripts/differential.py --strict`).
#[test]
fn a_string_default_overridden_to_number_or_bool_says_a_number_is_required() {
    expect(
        check(&[
            ("main.tf", "variable \"port\" {\n  type    = string\n  default = \"http\"\n}\nvariable \"on\" {\n  type    = string\n  default = \"yes\"\n}\n"),
            ("override.tf", "variable \"port\" {\n  type = number\n}\nvariable \"on\" {\n  type = bool\n}\n"),
        ]),
        &[
            ("override.tf:1", "Overriding this variable's type constraint has made its default value invalid: a number is required."),
            ("override.tf:4", "Overriding this variable's type constraint has made its default value invalid: a bool is required."),
        ],
    );
}

#[test]
fn null_with_nullable_false_repeats_for_every_override() {
    expect(
        check(&[
            ("main.tf", "variable \"n\" {\n  default  = null\n  nullable = false\n}\n"),
            ("override.tf", "variable \"n\" {\n  description = \"a\"\n}\nvariable \"n\" {\n  sensitive = true\n}\n"),
            ("z_override.tf", "variable \"n\" {\n  nullable = true\n}\n"),
        ]),
        &[
            ("main.tf:2", "A null default value is not valid when nullable=false."),
            ("override.tf:1", "A null default value is not valid when nullable=false."),
            ("override.tf:4", "A null default value is not valid when nullable=false."),
        ],
    );
}

#[test]
fn converted_defaults_carry_over() {
    // The base converts 1.0 to the string "1", which converts to a bool.
    expect(
        check(&[
            (
                "main.tf",
                "variable \"s\" {\n  type    = string\n  default = 1.0\n}\n",
            ),
            ("override.tf", "variable \"s\" {\n  type = bool\n}\n"),
        ]),
        &[],
    );
    // Optional attribute defaults of the base type stay in the value.
    expect(
        check(&[
            ("main.tf", "variable \"o\" {\n  type    = object({ a = optional(string, \"x\") })\n  default = {}\n}\n"),
            ("override.tf", "variable \"o\" {\n  type = object({ a = string })\n}\n"),
        ]),
        &[],
    );
}

#[test]
fn override_without_base_is_not_merged() {
    expect(
        check(&[
            ("main.tf", "variable \"other\" {}\n"),
            ("override.tf", "variable \"port\" {\n  type    = number\n  default = \"x\"\n}\nvariable \"lone\" {\n  default = null\n  nullable = false\n}\n"),
        ]),
        &[
            ("override.tf:3", "This default value is not compatible with the variable's type constraint: a number is required."),
            ("override.tf:6", "A null default value is not valid when nullable=false."),
        ],
    );
}

#[test]
fn json_types_and_defaults() {
    expect(
        check(&[(
            "main.tf.json",
            r#"{"variable": {"a": {"type": "list(string)", "default": "x"}, "b": {"type": "number", "default": "${var.x}"}, "c": {"type": "map", "default": {"k": "v"}}}}"#,
        )]),
        &[
            ("main.tf.json:1", "This default value is not compatible with the variable's type constraint: list of string required, but have string."),
            ("main.tf.json:1", "This default value is not compatible with the variable's type constraint: a number is required."),
        ],
    );
}

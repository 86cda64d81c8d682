//! Tests of `quoted-type-constraint`, `invalid-type-constraint` and
//! `ignored-object-attribute` through `analyze`, with the details and fixes
//! the fixture files do not show.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::{analyze, AnalysisCache};
use tofu_module::{Config, InputFile};

/// One diagnostic of the three codes, as a test compares it.
#[derive(Debug, PartialEq)]
struct Found {
    /// `file:line`
    at: String,
    code: &'static str,
    summary: String,
    detail: String,
    /// The text the range covers.
    covered: String,
    /// The fix's single replacement text and whether it is safe.
    fix: Option<(String, bool)>,
}

fn found(files: &[(&str, &str)]) -> Vec<Found> {
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    let module = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
    module
        .diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                crate::codes::QUOTED_TYPE_CONSTRAINT
                    | crate::codes::INVALID_TYPE_CONSTRAINT
                    | crate::codes::IGNORED_OBJECT_ATTRIBUTE
            )
        })
        .map(|d| {
            let file = module.file(d.subject.file).unwrap();
            let range = d.subject.range.unwrap();
            let line = file.line_index.line_col(&file.text, range.start).line;
            Found {
                at: format!("{}:{line}", file.name),
                code: d.code.as_str(),
                summary: d.summary.clone(),
                detail: d.detail.clone(),
                covered: range.slice(&file.text).to_owned(),
                fix: d.fix.as_ref().map(|fix| {
                    assert_eq!(fix.edits.len(), 1, "{fix:?}");
                    (fix.edits[0].new_text.clone(), fix.safe)
                }),
            }
        })
        .collect()
}

fn one(source: &str) -> Vec<Found> {
    found(&[("main.tf", source)])
}

const QUOTED_START: &str = "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around";

/// OpenTofu's fixture `error-files/variable_type_quoted.tf`, plus the legacy
/// hint, with the details and fixes.
#[test]
fn quoted_types() {
    let found = one(concat!(
        "variable \"s\" {\n  type = \"string\"\n}\n",
        "variable \"m\" {\n  type = \"map\"\n}\n",
        "variable \"l\" {\n  type = \"list\"\n}\n",
        "variable \"n\" {\n  type = \"number\"\n}\n",
        "variable \"x\" {\n  type = \"nope\"\n}\n",
    ));
    let expected = [
        (
            "main.tf:2",
            "Invalid quoted type constraints",
            format!("{QUOTED_START} \"string\"."),
            "\"string\"",
            Some(("string", true)),
        ),
        (
            "main.tf:5",
            "Invalid quoted type constraints",
            format!("{QUOTED_START} \"map\" and write map(string) instead to explicitly indicate that the map elements are strings."),
            "\"map\"",
            Some(("map(string)", false)),
        ),
        (
            "main.tf:8",
            "Invalid quoted type constraints",
            format!("{QUOTED_START} \"list\" and write list(string) instead to explicitly indicate that the list elements are strings."),
            "\"list\"",
            Some(("list(string)", false)),
        ),
        (
            "main.tf:11",
            "Invalid legacy variable type hint",
            "To provide a full type expression, remove the surrounding quotes and give the type expression directly.".to_owned(),
            "\"number\"",
            Some(("number", false)),
        ),
        (
            "main.tf:14",
            "Invalid legacy variable type hint",
            "To provide a full type expression, remove the surrounding quotes and give the type expression directly.".to_owned(),
            "\"nope\"",
            None,
        ),
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (actual, (at, summary, detail, covered, fix)) in found.iter().zip(expected) {
        assert_eq!(actual.at, at);
        assert_eq!(actual.code, "quoted-type-constraint");
        assert_eq!(actual.summary, summary);
        assert_eq!(actual.detail, detail);
        assert_eq!(actual.covered, covered);
        assert_eq!(
            actual.fix,
            fix.map(|(text, safe)| (text.to_owned(), safe)),
            "{at}"
        );
    }
}

/// The fix follows the default: `"string"` is safe only when the default is
/// a string; `"list"` becomes `list(any)` when only that fits the default.
#[test]
fn quoted_type_fixes_follow_the_default() {
    let fixes: Vec<_> = one(concat!(
        "variable \"a\" {\n  type    = \"string\"\n  default = [\"x\"]\n}\n",
        "variable \"b\" {\n  type    = \"string\"\n  default = 5\n}\n",
        "variable \"c\" {\n  type    = \"list\"\n  default = [[1], [2]]\n}\n",
        "variable \"d\" {\n  type    = \"list\"\n  default = \"text\"\n}\n",
        "variable \"e\" {\n  type    = \"map\"\n  default = { a = { b = 1 } }\n}\n",
        "variable \"f\" {\n  type    = \"object({a = optional(string, \\\"x\\\")})\"\n}\n",
    ))
    .into_iter()
    .map(|found| found.fix.unwrap())
    .collect();
    assert_eq!(
        fixes
            .iter()
            .map(|(text, safe)| (text.as_str(), *safe))
            .collect::<Vec<_>>(),
        [
            ("string", false),
            ("string", true),
            ("list(any)", false),
            ("list(string)", false),
            ("map(any)", false),
            ("object({a = optional(string, \"x\")})", false),
        ]
    );
}

/// A template is evaluated first; a string that is one interpolation and
/// nothing else is no quoted type at all for HCL (checked with the oracle:
/// "Invalid type specification" on the whole string).
#[test]
fn quoted_templates() {
    let found = one(concat!(
        "variable \"a\" {\n  type = \"a${var.x}\"\n}\n",
        "variable \"b\" {\n  type = \"${string}\"\n}\n",
        "variable \"c\" {\n  type = <<EOT\nstring\nEOT\n}\n",
        // OpenTofu evaluates this one to "string" and says "Invalid quoted
        // type constraints"; tofu-lens does not evaluate templates and gives
        // the legacy hint: same code, same range, another summary.
        "variable \"d\" {\n  type = \"str${\"ing\"}\"\n}\n",
    ));
    let summary: Vec<(&str, &str, &str, &str)> = found
        .iter()
        .map(|f| {
            (
                f.at.as_str(),
                f.code,
                f.summary.as_str(),
                f.covered.as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "main.tf:2",
                "quoted-type-constraint",
                "Variables not allowed",
                "var"
            ),
            (
                "main.tf:5",
                "invalid-type-constraint",
                "Invalid type specification",
                "\"${string}\""
            ),
            (
                "main.tf:8",
                "quoted-type-constraint",
                "Invalid legacy variable type hint",
                "<<EOT\nstring\nEOT"
            ),
            (
                "main.tf:13",
                "quoted-type-constraint",
                "Invalid legacy variable type hint",
                "\"str${\"ing\"}\""
            ),
        ]
    );
    // The heredoc's content is a type: unquoting it is offered.
    assert_eq!(found[2].fix, Some(("string".to_owned(), false)));
}

/// JSON strings are the normal spelling of types; their errors are
/// `invalid-type-constraint`, never `quoted-type-constraint`.
#[test]
fn json_types() {
    let found = found(&[(
        "main.tf.json",
        r#"{"variable": {"a": {"type": "string"}, "b": {"type": "list"}, "c": {"type": "notatype"}, "d": {"type": 5}, "e": {"type": "list(int)"}}}"#,
    )]);
    let summary: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|f| (f.code, f.detail.as_str(), f.covered.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "invalid-type-constraint",
                "The keyword \"notatype\" is not a valid type specification.",
                "\"notatype\""
            ),
            (
                "invalid-type-constraint",
                "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).",
                "5"
            ),
            (
                "invalid-type-constraint",
                "The keyword \"int\" is not a valid type specification.",
                "int"
            ),
        ]
    );
}

/// Every block as written: override files, duplicates and overrides without a
/// base are each checked; a block HCL drops for its labels is not.
#[test]
fn every_block_as_written() {
    let found = found(&[
        (
            "main.tf",
            "variable \"a\" {\n  type = int\n}\nvariable \"a\" {\n  type = \"string\"\n}\nvariable \"x\" \"y\" {\n  type = int\n}\n",
        ),
        (
            "override.tf",
            "variable \"a\" {\n  type = object\n}\nvariable \"lone\" {\n  type = list(optional(string))\n}\n",
        ),
    ]);
    let summary: Vec<(&str, &str)> = found
        .iter()
        .map(|f| (f.at.as_str(), f.covered.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            ("main.tf:2", "int"),
            ("main.tf:5", "\"string\""),
            ("override.tf:2", "object"),
            ("override.tf:5", "optional"),
        ]
    );
}

/// OpenTofu's fixture `warning-files/unused_variable_default_attrs.tf`.
#[test]
fn ignored_object_attributes() {
    let found = one(concat!(
        "variable \"a\" {\n",
        "  type = object({\n",
        "    a = string\n",
        "    b = object({})\n",
        "  })\n",
        "  default = {\n",
        "    a = \"boop\"\n",
        "    b = {\n",
        "      nope = \"...\"\n",
        "    }\n",
        "    c = \"hello\"\n",
        "  }\n",
        "}\n",
    ));
    let summary: Vec<(&str, &str, &str, &str)> = found
        .iter()
        .map(|f| {
            (
                f.at.as_str(),
                f.summary.as_str(),
                f.detail.as_str(),
                f.covered.as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "main.tf:9",
                "Object attribute is ignored",
                "The object type for .b does not include an attribute named \"nope\", so this definition is unused.",
                "nope"
            ),
            (
                "main.tf:11",
                "Object attribute is ignored",
                "The object type for this variable does not include an attribute named \"c\", so this definition is unused. Did you mean to set attribute \"a\" instead?",
                "c"
            ),
        ]
    );
    // `a` is already set: renaming `c` would repeat it.
    assert_eq!(found[1].fix, None);
}

/// The walk of §4.16: maps, lists, sets, tuples and `for` expressions; the
/// paths as OpenTofu prints them; keys as HCL evaluates them.
#[test]
fn walk_along_the_type() {
    let found = one(concat!(
        "variable \"m\" {\n",
        "  type    = map(object({ name = string, size = optional(number) }))\n",
        "  default = { k = { nmae = \"x\", size = 1 }, \"k 2\" = { name = \"y\", sise = 2 } }\n",
        "}\n",
        "variable \"l\" {\n",
        "  type    = list(object({ a = string }))\n",
        "  default = [{ a = \"x\" }, { a = \"y\", \"b\" = 1, 3 = 4, (b) = 5 }]\n",
        "}\n",
        "variable \"f\" {\n",
        "  type    = set(object({ a = string }))\n",
        "  default = [for x in [1] : { a = x, z = x }]\n",
        "}\n",
        "variable \"g\" {\n",
        "  type    = map(object({ a = string }))\n",
        "  default = { for k in [\"k\"] : k => { a = k, z = 1 } if k != \"\" }\n",
        "}\n",
        "variable \"t\" {\n",
        "  type    = tuple([object({}), object({ a = number })])\n",
        "  default = [{ x = 1 }, { a = 1, y = 2 }]\n",
        "}\n",
    ));
    let details: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|f| (f.at.as_str(), f.covered.as_str(), f.detail.as_str()))
        .collect();
    let unused = |path: &str, name: &str| {
        format!("The object type for {path} does not include an attribute named \"{name}\", so this definition is unused.")
    };
    assert_eq!(
        details,
        [
            (
                "main.tf:3",
                "nmae",
                format!(
                    "{} Did you mean to set attribute \"name\" instead?",
                    unused("[\"k\"]", "nmae")
                )
                .as_str()
            ),
            (
                "main.tf:3",
                "sise",
                format!(
                    "{} Did you mean to set attribute \"size\" instead?",
                    unused("[\"k 2\"]", "sise")
                )
                .as_str()
            ),
            (
                "main.tf:7",
                "\"b\"",
                format!(
                    "{} Did you mean to set attribute \"a\" instead?",
                    unused("[1]", "b")
                )
                .as_str()
            ),
            (
                "main.tf:7",
                "3",
                format!(
                    "{} Did you mean to set attribute \"a\" instead?",
                    unused("[1]", "3")
                )
                .as_str()
            ),
            (
                "main.tf:11",
                "z",
                format!(
                    "{} Did you mean to set attribute \"a\" instead?",
                    unused("[(not yet known)]", "z")
                )
                .as_str()
            ),
            (
                "main.tf:15",
                "z",
                format!(
                    "{} Did you mean to set attribute \"a\" instead?",
                    unused("[(not yet known)]", "z")
                )
                .as_str()
            ),
            ("main.tf:19", "x", unused("[0]", "x").as_str()),
            (
                "main.tf:19",
                "y",
                format!(
                    "{} Did you mean to set attribute \"a\" instead?",
                    unused("[1]", "y")
                )
                .as_str()
            ),
        ]
    );
    // Renaming to the suggestion is offered where the object lacks it.
    assert_eq!(found[0].fix, Some(("name".to_owned(), false)));
    assert_eq!(found[1].fix, Some(("size".to_owned(), false)));
    assert_eq!(found[2].fix, None);
}

/// What OpenTofu's lint does not walk: parentheses, a tuple of another
/// length, a `for` that builds the other kind of collection, references and
/// calls, JSON defaults, and types that are primitive, `any`, quoted or
/// invalid.
#[test]
fn silent_where_the_lint_does_not_look() {
    let found = one(concat!(
        "variable \"a\" {\n  type    = object({ a = string })\n  default = ({ a = \"x\", b = 1 })\n}\n",
        "variable \"b\" {\n  type    = tuple([object({})])\n  default = [{ x = 1 }, {}]\n}\n",
        "variable \"c\" {\n  type    = list(object({}))\n  default = { for k in [] : k => { x = 1 } }\n}\n",
        "variable \"d\" {\n  type    = map(object({}))\n  default = [for k in [] : { x = 1 }]\n}\n",
        "variable \"e\" {\n  type    = object({})\n  default = merge({ x = 1 }, {})\n}\n",
        "variable \"f\" {\n  type    = any\n  default = { x = 1 }\n}\n",
        "variable \"g\" {\n  type    = map(any)\n  default = { k = { x = 1 } }\n}\n",
        "variable \"h\" {\n  default = { x = 1 }\n}\n",
        "variable \"i\" {\n  type    = object({ a = int })\n  default = { x = 1 }\n}\n",
        "variable \"j\" {\n  type    = object({})\n  default = true ? { x = 1 } : {}\n}\n",
        "variable \"k\" {\n  type    = list(object({}))\n  default = [{ x = 1 }][0] == {} ? [] : []\n}\n",
    ));
    let codes: Vec<(&str, &str)> = found.iter().map(|f| (f.at.as_str(), f.code)).collect();
    assert_eq!(codes, [("main.tf:33", "invalid-type-constraint")]);
    let json = found_json();
    assert!(json.is_empty(), "{json:#?}");
}

fn found_json() -> Vec<Found> {
    found(&[(
        "main.tf.json",
        r#"{"variable": {"a": {"type": "object({a = string})", "default": {"a": "x", "b": 1}}}}"#,
    )])
}

/// Checked in override files too, on the override's own type and default.
#[test]
fn ignored_attributes_in_override_files() {
    let found = found(&[
        ("main.tf", "variable \"o\" {\n  type = object({ a = string })\n}\n"),
        (
            "override.tf",
            "variable \"o\" {\n  default = { b = 1 }\n}\nvariable \"o\" {\n  type    = object({ b = string })\n  default = { c = 1 }\n}\n",
        ),
    ]);
    let at: Vec<(&str, &str)> = found
        .iter()
        .map(|f| (f.at.as_str(), f.covered.as_str()))
        .collect();
    assert_eq!(at, [("override.tf:6", "c")]);
}

/// Deep types and defaults end in a syntax error (hcl-edit stops at 64
/// levels), never in a stack overflow; the walk follows the type, which
/// stops at `MAX_TYPE_DEPTH` anyway.
#[test]
fn deep_nesting_does_not_overflow() {
    for depth in [20, 5000] {
        let deep_type = format!(
            "{}object({{ a = string }}){}",
            "object({ a = ".repeat(depth),
            " })".repeat(depth)
        );
        let deep_default = format!(
            "{}{{ b = 1 }}{}",
            "{ a = ".repeat(depth),
            " }".repeat(depth)
        );
        let source =
            format!("variable \"v\" {{\n  type    = {deep_type}\n  default = {deep_default}\n}}\n");
        let found = one(&source);
        if depth == 20 {
            assert_eq!(found.len(), 1, "{found:#?}");
            assert_eq!(found[0].covered, "b");
            assert!(found[0].detail.starts_with("The object type for .a.a.a."));
        }
        let quoted = format!(
            "variable \"q\" {{\n  type = \"{}\"\n}}\n",
            "${\"".repeat(depth)
        );
        let _ = one(&quoted);
    }
}

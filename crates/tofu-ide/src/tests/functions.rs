//! Built-in functions while editing: completion where an expression may
//! stand, hover on a function's name, signature help with the active
//! parameter.

use super::{fixture, hover};
use crate::CompletionKind;

/// The function completions at the cursor: `label [replaced] insert`.
fn functions_offered(text: &str) -> Vec<String> {
    let (analysis, path, offset) = fixture(text);
    let file_text = analysis.file_text(&path).unwrap();
    analysis
        .completions(&path, offset)
        .iter()
        .filter(|item| item.kind == CompletionKind::Function)
        .map(|item| {
            format!(
                "{} [{}] {}",
                item.label,
                item.replace.slice(&file_text),
                item.insert_text
            )
        })
        .collect()
}

fn offered(text: &str, label: &str) -> Option<String> {
    functions_offered(text)
        .into_iter()
        .find(|line| line.split(' ').next() == Some(label))
}

#[test]
fn function_names_are_offered_where_an_expression_stands() {
    let main = |value: &str| format!("//- main.tf\nlocals {{\n  x = {value}\n}}\n");
    assert_eq!(
        offered(&main("up$0"), "upper").as_deref(),
        Some("upper [up] upper(${1:str})")
    );
    // Every parameter a placeholder; a variadic one only when it is the only one.
    assert_eq!(
        offered(&main("$0"), "cidrsubnet").as_deref(),
        Some("cidrsubnet [] cidrsubnet(${1:prefix}, ${2:newbits}, ${3:netnum})")
    );
    assert_eq!(
        offered(&main("$0"), "coalesce").as_deref(),
        Some("coalesce [] coalesce(${1:vals})")
    );
    assert_eq!(
        offered(&main("$0"), "timestamp").as_deref(),
        Some("timestamp [] timestamp()")
    );
    assert_eq!(functions_offered(&main("$0")).len(), 121);
    // `core::` names when the name being typed starts that way.
    assert_eq!(
        offered(&main("core::up$0"), "core::upper").as_deref(),
        Some("core::upper [core::up] core::upper(${1:str})")
    );
    assert!(offered(&main("up$0"), "core::upper").is_none());
    // `core:` half typed (`:` triggers completion) is the name being typed.
    assert_eq!(
        offered(&main("core:$0"), "core::upper").as_deref(),
        Some("core::upper [core:] core::upper(${1:str})")
    );
    assert!(offered(&main("a ? b :$0"), "core::upper").is_none());
    // After operators, inside calls, lists, conditionals and interpolations.
    for value in [
        "1 + le$0",
        "concat([], le$0",
        "[a, le$0",
        "true ? le$0",
        "x ? 1 : le$0",
        "\"${le$0",
        "[for s in le$0",
        "!le$0",
    ] {
        assert!(offered(&main(value), "length").is_some(), "{value}");
    }
}

#[test]
fn function_names_are_not_offered_inside_strings_comments_or_names() {
    let main = |value: &str| format!("//- main.tf\nlocals {{\n  x = {value}\n}}\n");
    for value in [
        "\"le$0",
        "\"a le$0\"",
        "1 # le$0",
        "1 /* le$0 */",
        "<<EOT\n  le$0\nEOT",
        "var.le$0",
        "a.le$0",
    ] {
        assert!(functions_offered(&main(value)).is_empty(), "{value}");
    }
    // Where an argument's name goes, and in type constraints.
    assert!(functions_offered("//- main.tf\nlocals {\n  le$0\n}\n").is_empty());
    assert!(functions_offered("//- main.tf\nvariable \"a\" {\n  type = li$0\n}\n").is_empty());
    // JSON expressions live in strings; `.tfvars` values call nothing.
    assert!(functions_offered("//- main.tf.json\n{\"locals\": {\"x\": \"${le$0\"}}\n").is_empty());
    assert!(
        functions_offered("//- main.tf\nvariable \"a\" {}\n//- a.tfvars\na = le$0\n").is_empty()
    );
}

#[test]
fn a_function_completion_carries_its_signature_and_description() {
    let (analysis, path, offset) = fixture("//- main.tf\nlocals {\n  x = upp$0\n}\n");
    let items = analysis.completions(&path, offset);
    let upper = items.iter().find(|item| item.label == "upper").unwrap();
    assert_eq!(upper.detail.as_deref(), Some("upper(str string) string"));
    assert!(upper.is_snippet());
    assert_eq!(
        upper.documentation().as_deref(),
        Some("`upper` converts all cased letters in the given string to uppercase.")
    );
}

#[test]
fn hover_on_a_function_name_shows_its_signature_and_description() {
    let text = "//- main.tf\nlocals {\n  x = cidrsub$0net(\"10.0.0.0/8\", 8, 1)\n}\n";
    let markdown = hover(text);
    assert!(
        markdown.starts_with(
            "```hcl\ncidrsubnet(prefix string, newbits number, netnum number) string\n```\n\n`cidrsubnet` calculates"
        ),
        "{markdown}"
    );
    assert!(markdown.contains("\n- `prefix string`: `prefix` must be given in CIDR notation"));
    let core = hover("//- main.tf\nlocals {\n  x = core::upper$0(\"a\")\n}\n");
    assert!(
        core.starts_with("```hcl\nupper(str string) string\n```"),
        "{core}"
    );
    // A name that is not called, or is inside a string, is no function.
    let not_called = hover("//- main.tf\nlocals {\n  upper$0 = 1\n}\n");
    assert!(!not_called.contains("upper(str"), "{not_called}");
    let quoted = hover("//- main.tf\nlocals {\n  x = \"upper$0(a)\"\n}\n");
    assert!(!quoted.contains("upper(str"), "{quoted}");
}

/// `label | active parameter` of the signature help at the cursor.
fn signature(text: &str) -> String {
    let (analysis, path, offset) = fixture(text);
    match analysis.signature_help(&path, offset) {
        None => "none".to_owned(),
        Some(help) => {
            let active = help
                .active_parameter
                .and_then(|index| help.parameters.get(index as usize))
                .map_or("-", |parameter| parameter.label.as_str());
            format!("{} | {active}", help.label)
        }
    }
}

#[test]
fn signature_help_names_the_parameter_at_the_cursor() {
    let main = |value: &str| format!("//- main.tf\nlocals {{\n  x = {value}\n}}\n");
    assert_eq!(
        signature(&main("cidrsubnet($0")),
        "cidrsubnet(prefix string, newbits number, netnum number) string | prefix string"
    );
    assert_eq!(
        signature(&main("cidrsubnet(\"10.0.0.0/8\", 8, $0")),
        "cidrsubnet(prefix string, newbits number, netnum number) string | netnum number"
    );
    // Commas inside strings, lists, objects and nested calls are not this call's.
    assert_eq!(
        signature(&main(
            "format(\"%s,%s\", [1, 2], {a = 1, b = 2}, lower(\"x\", \"y\"), $0"
        )),
        "format(format string, args... dynamic) string | args... dynamic"
    );
    // A variadic parameter stays active; past the last parameter none is.
    assert_eq!(
        signature(&main("coalesce(1, 2, 3, $0")),
        "coalesce(vals... dynamic) dynamic | vals... dynamic"
    );
    assert_eq!(
        signature(&main("upper(\"a\", $0")),
        "upper(str string) string | -"
    );
    // The innermost call of a built-in function, unterminated as typed.
    assert_eq!(
        signature(&main("upper(lower($0")),
        "lower(str string) string | str string"
    );
    assert_eq!(
        signature(&main("upper(lower(\"a\"), $0")),
        "upper(str string) string | -"
    );
    assert_eq!(signature(&main("\"upper($0")), "none");
    assert_eq!(signature(&main("upper(\"a\")$0")), "none");
    assert_eq!(signature(&main("provider::x::upper($0")), "none");
}

/// `:` triggers completion in the editor (for `provider::`); after other
/// colons nothing new is offered.
#[test]
fn a_colon_offers_functions_only_where_an_expression_stands() {
    let main = |value: &str| format!("//- main.tf\nlocals {{\n  x = {value}\n}}\n");
    assert!(offered(&main("a ? b :$0"), "length").is_some());
    assert!(offered(&main("[for s in l :$0"), "length").is_some());
    for text in [
        main("\"http:$0\""),
        main("1 # see:$0"),
        "//- main.tf.json\n{\"locals\": {\"x\":$0\n".to_owned(),
    ] {
        let (analysis, path, offset) = fixture(&text);
        assert_eq!(analysis.completions(&path, offset), [], "{text}");
    }
}

//! Addresses read from their expressions, through `addresses`, and what
//! `endpoints` makes of them.

use super::super::addresses::{address_steps, EmbeddedExpression, Reading, ShiftedBack};
use super::*;

fn steps(text: &str) -> Vec<AddressStep> {
    let parsed = EmbeddedExpression::parse(text)
        .ok()
        .unwrap_or_else(|| panic!("{text}"));
    let expr = parsed.expr().unwrap_or_else(|| panic!("{text}"));
    address_steps(&parsed.text, expr, Reading::ImportTarget)
        .unwrap_or_else(|| panic!("{text}"))
        .into_iter()
        .map(|step| AddressStep {
            range: step.range.shifted_back(),
            kind: step.kind,
        })
        .collect()
}

fn error_text(text: &str, error: AddressError) -> (String, String) {
    let at = error.range.slice(text).to_owned();
    (error.detail, at)
}

#[test]
fn move_endpoints() {
    for (text, expected) in [
        ("module.a", Endpoint::Module),
        ("module.a[\"x\"].module.b[1]", Endpoint::Module),
        ("aws_instance.a", Endpoint::Resource(ResourceMode::Managed)),
        (
            "module.a.data.b.c[0]",
            Endpoint::Resource(ResourceMode::Data),
        ),
        ("ephemeral.b.c", Endpoint::Resource(ResourceMode::Ephemeral)),
    ] {
        assert_eq!(parse_move_endpoint(&steps(text)), Ok(expected), "{text}");
    }
    for (text, detail, at) in [
        ("a", "Resource specification must include a resource type and name.", "a"),
        ("a.b.c", "Resource instance key must be given in square brackets.", ".c"),
        ("a.b[0].c", "Unexpected extra operators after address.", ".c"),
        ("module", "Prefix \"module.\" must be followed by a module name.", "module"),
        ("module.a[true]", "Invalid module key: must be either a string or an integer.", "[true]"),
        ("module.a[1.5].b.c", "Invalid module index: value must be a whole number, between -9223372036854775808 and 9223372036854775807.", "[1.5]"),
        ("module.a[0][1]", "Module address prefix must be followed by dot and then a name.", "[1]"),
        ("a.b[null]", "Invalid resource instance key: either a string or an integer is required.", "[null]"),
        ("data.x", "Resource specification must include a resource type and name.", ".x"),
    ] {
        let error = parse_move_endpoint(&steps(text)).err().unwrap_or_else(|| panic!("{text}"));
        assert_eq!(error_text(text, error), (detail.to_owned(), at.to_owned()), "{text}");
    }
}

#[test]
fn remove_endpoints() {
    assert_eq!(
        parse_remove_endpoint(&steps("module.a.module.b")),
        Ok(Endpoint::Module)
    );
    assert_eq!(
        parse_remove_endpoint(&steps("module.a.x.y")),
        Ok(Endpoint::Resource(ResourceMode::Managed))
    );
    for (text, summary, at) in [
        (
            "module.a[0].x.y",
            "Module instance address with keys is not allowed",
            "[0]",
        ),
        (
            "x.y[\"k\"]",
            "Resource instance address with keys is not allowed",
            "[\"k\"]",
        ),
        ("data.x.y", "Data source address is not allowed", "data.x.y"),
        (
            "ephemeral.x.y",
            "Ephemeral resource address is not allowed",
            "ephemeral.x.y",
        ),
    ] {
        let error = parse_remove_endpoint(&steps(text))
            .err()
            .unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            (error.summary, error.range.slice(text)),
            (summary, at),
            "{text}"
        );
    }
}

#[test]
fn import_targets_drop_dynamic_keys() {
    assert_eq!(
        parse_import_target(&steps("module.m[each.key].x.y[each.value]")),
        Ok(ImportTarget { in_module: true })
    );
    assert_eq!(
        parse_import_target(&steps("x.y")),
        Ok(ImportTarget { in_module: false })
    );
    let error = parse_import_target(&steps("module.m")).err();
    assert_eq!(error.map(|e| e.summary), Some("Invalid address"));
}

#[test]
fn whole_numbers() {
    assert!(is_whole_number("0"));
    assert!(is_whole_number("1.0"));
    assert!(is_whole_number("-9223372036854775808"));
    assert!(!is_whole_number("9223372036854775808"));
    assert!(!is_whole_number("1.5"));
}

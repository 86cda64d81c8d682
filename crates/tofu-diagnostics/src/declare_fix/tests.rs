//! The "Declare variable" fix: keyed on the uses the rules record, and the
//! type a use makes obvious.

use super::*;
use crate::{analyze, AnalysisCache};
use tofu_module::{Config, InputFile};

/// The fix goes where a rule recorded an undeclared variable, whatever
/// the diagnostic's words, and nowhere else.
#[test]
fn the_fix_is_keyed_on_the_recorded_use_not_the_summary() {
    let inputs = [InputFile::text(
        "main.tf",
        "output \"a\" {\n  value = var.x\n}\noutput \"b\" {\n  value = var.y\n}\n",
    )];
    let analysis = analyze(&inputs, &Config::default(), &mut AnalysisCache::new());
    let at = |needle: &str| {
        let start = analysis
            .file(FileId(0))
            .and_then(|file| file.text.find(needle))
            .unwrap_or_default();
        Location::new(
            FileId(0),
            TextRange::from_usize(start, start + needle.len()),
        )
    };
    let diagnostic = |at: Location, summary: &str| {
        Diagnostic::new(crate::codes::UNDECLARED_REFERENCE, summary, at)
    };
    let mut diagnostics = vec![
        diagnostic(at("var.x"), "Some other wording"),
        diagnostic(at("var.y"), "Reference to undeclared input variable"),
    ];
    let recorded = [UndeclaredVariableUse {
        at: at("var.x"),
        name: "x".to_owned(),
    }];
    add_fixes(&analysis, || recorded.to_vec(), &mut diagnostics);
    let titles: Vec<Option<&str>> = diagnostics
        .iter()
        .map(|diagnostic| diagnostic.fix.as_ref().map(|fix| fix.title.as_str()))
        .collect();
    assert_eq!(
        titles,
        [Some("Declare variable \"x\" in a new variables.tf"), None]
    );
}

fn type_of(text: &str) -> Option<&'static str> {
    let start = text.find("var.x").unwrap_or_default();
    inferred_type(text, TextRange::from_usize(start, start + 5))
}

#[test]
fn types_a_use_makes_obvious() {
    assert_eq!(type_of("a = \"n-${var.x}\"\n"), Some("string"));
    assert_eq!(type_of("a = var.x ? 1 : 2\n"), Some("bool"));
    assert_eq!(type_of("  count = var.x\n"), Some("number"));
    assert_eq!(type_of("  count = var.x + 1\n"), None);
    assert_eq!(type_of("  for_each = var.x\n"), None);
    assert_eq!(type_of("a = [var.x]\n"), None);
}

//! Properties of the formatter on the real files of the shared corpus
//! (`../shared/corpus`, read only; skipped when it is absent):
//!
//! - formatting is idempotent;
//! - it never changes what the file parses to: the `tofu_syntax` models of
//!   the input and the output are equal once ranges are ignored and
//!   `tofu fmt`'s rewrites are applied to the input's model (interpolation-only
//!   values unwrapped, legacy variable types, labels in NFC);
//! - the minimal edits give the formatted text, and never overlap;
//! - (proptest) changing the blanks between tokens of a file changes
//!   nothing in its formatted text, and range formatting over the whole file
//!   is whole-file formatting.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tofu_syntax::{
    Block, Body, Call, Expr, ExprKind, ObjectItem, Operation, OperationKind, RelativeStep,
    SourceFile, Template, TextRange, Traversal, TraversalStep,
};
use unicode_normalization::UnicodeNormalization;

fn corpus_files() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if crate::is_formatted_file_name(&name) {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    files.push((path, text));
                }
            }
        }
    }
    files.sort();
    files
}

fn apply(text: &str, edits: &[crate::Edit]) -> String {
    let mut out = text.to_owned();
    for edit in edits.iter().rev() {
        out.replace_range(
            edit.range.start as usize..edit.range.end as usize,
            &edit.new_text,
        );
    }
    out
}

#[test]
fn corpus_files_keep_their_meaning_and_format_once() {
    let files = corpus_files();
    if files.is_empty() {
        return;
    }
    let mut problems = Vec::new();
    let mut formatted_count = 0;
    for (path, text) in &files {
        let Ok(formatted) = crate::format(text) else {
            continue;
        };
        formatted_count += 1;
        let name = path.display();
        if crate::format(&formatted).as_deref() != Ok(formatted.as_str()) {
            problems.push(format!("{name}: formatting twice changes it again"));
        }
        let before = normalized(&tofu_syntax::parse("a.tf", text), text, true);
        let after = normalized(&tofu_syntax::parse("a.tf", &formatted), &formatted, false);
        if before != after {
            problems.push(format!("{name}: the formatted file parses differently"));
        }
        let edits = crate::format_edits(text).unwrap();
        if apply(text, &edits) != formatted {
            problems.push(format!("{name}: the edits give another text"));
        }
        if edits
            .windows(2)
            .any(|pair| pair[0].range.end > pair[1].range.start)
        {
            problems.push(format!("{name}: overlapping edits"));
        }
    }
    assert!(
        formatted_count > 1000,
        "only {formatted_count} files formatted"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The model without ranges; with `rewrite`, `tofu fmt`'s rewrites applied.
fn normalized(file: &SourceFile, text: &str, rewrite: bool) -> Body {
    assert!(file.errors.is_empty());
    let mut body = file.body.clone();
    normalize_body(&mut body, text, rewrite, true, false);
    body
}

fn normalize_body(body: &mut Body, text: &str, rewrite: bool, top: bool, variable: bool) {
    body.open = None;
    body.close = None;
    for attribute in &mut body.attributes {
        attribute.name_range = TextRange::default();
        attribute.range = TextRange::default();
        if rewrite {
            if variable && attribute.name == "type" {
                legacy_type(&mut attribute.expr);
            } else {
                unwrap(&mut attribute.expr, text);
            }
        }
        normalize_expr(&mut attribute.expr);
    }
    for block in &mut body.blocks {
        normalize_block(block, text, rewrite, top);
    }
}

fn normalize_block(block: &mut Block, text: &str, rewrite: bool, top: bool) {
    block.kind_range = TextRange::default();
    block.header = TextRange::default();
    block.range = TextRange::default();
    for label in &mut block.labels {
        label.range = TextRange::default();
        label.value = label.value.nfc().collect();
    }
    let variable = top && block.kind == "variable";
    normalize_body(&mut block.body, text, rewrite, false, variable);
}

/// `"${x}"` → `x`, when the value is one interpolation and nothing else.
fn unwrap(expr: &mut Expr, text: &str) {
    let ExprKind::Template(Template {
        expressions: children,
        ..
    }) = &expr.kind
    else {
        return;
    };
    let [inner] = children.as_slice() else {
        return;
    };
    let source = expr.range.slice(text);
    let before = &text[expr.range.start as usize..inner.range.start as usize];
    let after = &text[inner.range.end as usize..expr.range.end as usize];
    let blank = |part: &str| {
        part.chars()
            .all(|ch| ch.is_whitespace() || ch == '~' || ch == '(' || ch == ')')
    };
    if source.starts_with("\"${")
        && source.ends_with("}\"")
        && blank(&before[3..])
        && blank(&after[..after.len() - 2])
    {
        *expr = inner.clone();
    }
}

fn legacy_type(expr: &mut Expr) {
    let call = |name: &str, argument: &str| {
        ExprKind::Call(Call {
            name: name.to_owned(),
            name_range: TextRange::default(),
            args: vec![Expr {
                range: TextRange::default(),
                kind: keyword(argument),
            }],
            expand_final: false,
        })
    };
    expr.kind = match &expr.kind {
        ExprKind::String(value) if value == "string" => keyword("string"),
        ExprKind::String(value) if value == "list" => call("list", "string"),
        ExprKind::String(value) if value == "map" => call("map", "string"),
        ExprKind::Traversal(traversal) if traversal.steps.is_empty() => {
            match traversal.root.as_str() {
                name @ ("list" | "map" | "set") => call(name, "any"),
                _ => return,
            }
        }
        _ => return,
    };
}

fn keyword(name: &str) -> ExprKind {
    ExprKind::Traversal(Traversal {
        root: name.to_owned(),
        root_range: TextRange::default(),
        steps: Vec::new(),
    })
}

fn normalize_expr(expr: &mut Expr) {
    expr.range = TextRange::default();
    match &mut expr.kind {
        ExprKind::Template(Template {
            expressions: children,
            ..
        })
        | ExprKind::Array(children) => {
            children.iter_mut().for_each(normalize_expr);
        }
        ExprKind::Operation(Operation { kind, operands }) => {
            if let OperationKind::Steps(steps) = kind {
                for step in steps {
                    match step {
                        RelativeStep::Attr { range, .. }
                        | RelativeStep::Index { range }
                        | RelativeStep::LegacyIndex { range, .. }
                        | RelativeStep::Splat { range, .. } => *range = TextRange::default(),
                    }
                }
            }
            operands.iter_mut().for_each(normalize_expr);
        }
        ExprKind::Object(items) => {
            for ObjectItem { key, value, .. } in items {
                normalize_expr(key);
                normalize_expr(value);
            }
        }
        ExprKind::Traversal(traversal) => {
            traversal.root_range = TextRange::default();
            for step in &mut traversal.steps {
                match step {
                    TraversalStep::Attr { range, .. } | TraversalStep::Splat { range, .. } => {
                        *range = TextRange::default();
                    }
                    TraversalStep::Index { key, range } => {
                        *range = TextRange::default();
                        normalize_expr(key);
                    }
                }
            }
        }
        ExprKind::Call(call) => {
            call.name_range = TextRange::default();
            call.args.iter_mut().for_each(normalize_expr);
        }
        ExprKind::For(for_expr) => {
            for (_, range) in &mut for_expr.names {
                *range = TextRange::default();
            }
            normalize_expr(&mut for_expr.collection);
            for_expr.body.iter_mut().for_each(normalize_expr);
        }
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::String(_) => {}
    }
}

/// The blanks between tokens that may change without changing the tokens:
/// every run of spaces and tabs the scanner skipped, but the one at the very
/// end of the text (`tofu fmt` keeps that one).
fn blank_runs(text: &str) -> Vec<(usize, usize)> {
    let lexed = crate::tokens::lex(text).unwrap();
    let mut runs = Vec::new();
    let mut previous_end = 0;
    for token in &lexed.tokens {
        if token.start() > previous_end {
            runs.push((previous_end, token.start()));
        }
        previous_end = token.end();
    }
    runs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn blanks_between_tokens_do_not_matter(file_pick in any::<prop::sample::Index>(), seed in any::<u64>()) {
        let files = corpus_files();
        prop_assume!(!files.is_empty());
        let (_, text) = &files[file_pick.index(files.len())];
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let Ok(formatted) = crate::format(text) else {
            return Ok(());
        };
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let mut perturbed = String::with_capacity(text.len() * 2);
        let mut at = 0;
        for (start, end) in blank_runs(text) {
            perturbed.push_str(&text[at..start]);
            let blanks = ["", " ", "  ", "\t", " \t ", "        "];
            let choice = blanks[next() % blanks.len()];
            // Keep at least one blank where there was one: tokens must not merge.
            perturbed.push_str(if choice.is_empty() { " " } else { choice });
            at = end;
        }
        perturbed.push_str(&text[at..]);
        let again = crate::format(&perturbed);
        prop_assert_eq!(again.as_deref(), Ok(formatted.as_str()));
        let whole = crate::format_range_edits(&perturbed, TextRange::from_usize(0, perturbed.len())).unwrap();
        prop_assert_eq!(apply(&perturbed, &whole), formatted);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Half-typed text of any shape: no panic, edits inside the text on
    /// character boundaries, and a refused text is refused by every entry.
    #[test]
    fn any_text_is_formatted_or_refused_without_panics(
        text in "([a-z]{1,3}|[ \t]{1,3}|\r?\n|[=+*/%!?:.,(){}\\[\\]\"$#~<>-]|<<EOT\n|EOT|\\$\\{|%\\{|é|\u{feff}){0,40}",
        start in 0usize..200,
        len in 0usize..200,
    ) {
        let whole = crate::format(&text);
        let edits = crate::format_edits(&text);
        prop_assert_eq!(whole.is_ok(), edits.is_ok());
        if let (Ok(formatted), Ok(edits)) = (&whole, &edits) {
            for edit in edits {
                prop_assert!(text.is_char_boundary(edit.range.start as usize));
                prop_assert!(text.is_char_boundary(edit.range.end as usize));
            }
            prop_assert_eq!(&apply(&text, edits), formatted);
        }
        let range = TextRange::from_usize(start.min(text.len()), (start + len).min(text.len()));
        let ranged = crate::format_range_edits(&text, range);
        prop_assert_eq!(ranged.is_ok(), whole.is_ok());
    }
}

#[test]
fn deep_nesting_is_formatted_without_overflowing_the_stack() {
    let depth = 5_000;
    let blocks = format!("{}{}", "a {\n".repeat(depth), "}\n".repeat(depth));
    let brackets = format!("x = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
    for text in [blocks, brackets] {
        // Whatever the parser says, formatting must answer.
        let _ = crate::format(&text);
        let _ = crate::format_edits(&text);
    }
}

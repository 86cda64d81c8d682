//! The registry's contract: a rule on one identity that reads another
//! identity (its blocks, or anything of its own files outside its own
//! blocks) is caught, deterministically and by name, and counted and
//! logged in every build.

use tofu_syntax::{Diagnostic, FileId, TextRange};

use super::views::MergedNode;
use super::*;
use crate::declared_names::DeclaredNames;
use crate::{analyze, AnalysisCache, ModuleAnalysis};
use tofu_module::loaded::BlockRef;
use tofu_module::{Config, InputFile};

fn module(files: &[(&str, &str)]) -> ModuleAnalysis {
    let inputs: Vec<InputFile> = files
        .iter()
        .map(|(name, text)| InputFile::text(*name, *text))
        .collect();
    analyze(&inputs, &Config::default(), &mut AnalysisCache::new())
}

/// Every violation `rules` commit on every identity of `analysis`.
fn violations_of(rules: &[IdentityRule], analysis: &ModuleAnalysis) -> Vec<Violation> {
    let mut all = Vec::new();
    let names = DeclaredNames::default();
    for block in &analysis.effective.blocks {
        let mut view = IdentityView::new(analysis, MergedNode::Block(block), &names);
        all.extend(run_identity_rules(rules, &mut view).1);
    }
    for local in &analysis.effective.locals {
        let mut view = IdentityView::new(analysis, MergedNode::Local(local), &names);
        all.extend(run_identity_rules(rules, &mut view).1);
    }
    all
}

/// Deliberately wrong: reads the block after its own, another identity's.
fn reads_the_next_block(view: &IdentityView<'_>, _out: &mut Vec<Diagnostic>) {
    if let Some(base) = view.effective().and_then(|effective| effective.base) {
        let next = BlockRef {
            index: base.index + 1,
            ..base
        };
        let _ = view.block(next);
    }
}

/// Deliberately wrong: reads a file holding none of its blocks.
fn reads_the_first_file(view: &IdentityView<'_>, _out: &mut Vec<Diagnostic>) {
    let _ = view.file(FileId(0));
}

/// Deliberately wrong: reads its own file's text just past its own block,
/// which belongs to no block of its identity (here, the next identity's
/// block or the file's last line break).
fn reads_past_its_block(view: &IdentityView<'_>, _out: &mut Vec<Diagnostic>) {
    let Some(base) = view.effective().and_then(|effective| effective.base) else {
        return;
    };
    let (Some(block), Some(file)) = (view.block(base), view.file(base.file)) else {
        return;
    };
    let past = TextRange::new(block.range.end, block.range.end.saturating_add(1));
    let _ = file.text(past);
}

const WRONG: &[IdentityRule] = &[
    IdentityRule {
        name: "reads-the-next-block",
        phase: Phase::Load,
        check: reads_the_next_block,
    },
    IdentityRule {
        name: "reads-the-first-file",
        phase: Phase::Load,
        check: reads_the_first_file,
    },
];

#[test]
fn a_rule_reading_another_identity_is_caught() {
    let analysis = module(&[
        ("a.tf", "variable \"a\" {}\n"),
        ("b.tf", "variable \"b\" {}\nvariable \"c\" {}\n"),
    ]);
    let violations = violations_of(WRONG, &analysis);
    let by_rule = |name: &str| {
        violations
            .iter()
            .filter(|violation| violation.rule == name)
            .count()
    };
    // `b` reads `c`; `a` and `c` ask for blocks that do not exist, which is
    // refused all the same (the view does not know what is there).
    assert_eq!(by_rule("reads-the-next-block"), 3, "{violations:#?}");
    // `b` and `c` read `a.tf`; `a` reads its own file.
    assert_eq!(by_rule("reads-the-first-file"), 2, "{violations:#?}");
    assert!(
        violations
            .iter()
            .all(|violation| violation.read.starts_with("block")
                || violation.read.starts_with("file"))
    );
}

#[test]
fn a_rule_reading_past_its_blocks_in_its_own_file_is_caught() {
    let analysis = module(&[("b.tf", "variable \"b\" {}\nvariable \"c\" {}\n")]);
    let violations = violations_of(
        &[IdentityRule {
            name: "reads-past-its-block",
            phase: Phase::Load,
            check: reads_past_its_block,
        }],
        &analysis,
    );
    // `b` reads the line break before `c`, `c` the file's last line break.
    assert_eq!(violations.len(), 2, "{violations:#?}");
    assert!(violations
        .iter()
        .all(|violation| violation.rule == "reads-past-its-block"));
}

/// Deliberately wrong, and finding something: reads past its block, then
/// reports every variable.
fn reads_past_its_block_and_reports(view: &IdentityView<'_>, out: &mut Vec<Diagnostic>) {
    reads_past_its_block(view, out);
    if let Some(effective) = view.effective() {
        if let (tofu_module::BlockAddress::Variable(_), Some(base)) =
            (&effective.address, effective.base)
        {
            let header = view.block(base).map(|block| block.header);
            out.extend(header.map(|header| {
                Diagnostic::new(
                    crate::codes::INVALID_VARIABLE_DEFAULT,
                    "reported by a wrong rule",
                    tofu_syntax::Location::new(base.file, header),
                )
            }));
        }
    }
}

/// Without debug assertions too: the analysis counts the violation in its
/// cache's counters and still reports what the rule found.
#[test]
fn a_violation_is_counted_and_the_findings_kept() {
    let mut cache = AnalysisCache::new();
    cache.retained.identity_rules = &[IdentityRule {
        name: "reads-past-its-block-and-reports",
        phase: Phase::Load,
        check: reads_past_its_block_and_reports,
    }];
    let inputs = [InputFile::text(
        "b.tf",
        "variable \"b\" {}\nvariable \"c\" {}\n",
    )];
    let analysis = analyze(&inputs, &Config::default(), &mut cache);
    assert_eq!(cache.counters().n_rule_violations, 2);
    let reported = analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.summary == "reported by a wrong rule")
        .count();
    assert_eq!(reported, 2, "{:#?}", analysis.diagnostics);
    cache.reset_counters();
    assert_eq!(cache.counters().n_rule_violations, 0);
}

#[test]
fn the_registered_identity_rules_read_only_their_own_blocks() {
    let analysis = module(&[
        (
            "main.tf",
            "variable \"a\" {\n  type = number\n  default = 1\n}\nresource \"aws_instance\" \"web\" {}\nvariable \"a\" {}\n",
        ),
        (
            "override.tf",
            "variable \"a\" {\n  type = string\n}\nresource \"aws_instance\" \"web\" {\n  ami = \"x\"\n}\n",
        ),
        ("other.tf", "variable \"b\" {}\n"),
    ]);
    assert!(analysis.effective.blocks.len() >= 3);
    assert_eq!(violations_of(IDENTITY_RULES, &analysis), []);
}

//! `check` written while the directories are analysed must print exactly what
//! the whole-report renderers print: on the corpus, on the fixture tree, and on
//! a tree built to interleave (a parent's files sort after its children's
//! directory names; `a` and `a-c` are siblings; a directory cannot be read).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};

use tofu_lens::stream::{check_streaming, StreamFormat};
use tofu_lens::{check, render};
use tofu_module::Config;

fn both_ways(paths: &[PathBuf], jobs: usize) {
    let config = Config::default();
    let report = check::check_paths(paths, &config, None).unwrap();
    let expected_text = render::text(&report);
    let expected_json = render::json(&report) + "\n";
    for (format, expected) in [
        (StreamFormat::Text, &expected_text),
        (StreamFormat::Json, &expected_json),
    ] {
        let mut out = Vec::new();
        let streamed = check_streaming(paths, &config, None, jobs, format, &mut out).unwrap();
        assert!(streamed.write_error.is_none());
        assert_eq!(streamed.has_errors, report.has_errors());
        let actual = String::from_utf8(out).unwrap();
        if &actual != expected {
            let line = actual
                .lines()
                .zip(expected.lines())
                .position(|(a, e)| a != e)
                .unwrap_or(0);
            panic!(
                "{format:?} output differs for {paths:?} (jobs {jobs}) at line {}:\n  streamed: {:?}\n  whole:    {:?}",
                line + 1,
                actual.lines().nth(line),
                expected.lines().nth(line)
            );
        }
    }
    // The whole-report JSON is still what serde_json pretty-prints.
    assert_eq!(
        render::json(&report),
        serde_json::to_string_pretty(&render::flatten(&report)).unwrap()
    );
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn streamed_output_equals_the_whole_report_on_the_corpus_and_fixtures() {
    let corpus = repo().join("../shared/corpus");
    for jobs in [1, 3] {
        both_ways(std::slice::from_ref(&corpus), jobs);
    }
    both_ways(&[repo().join("tests/fixtures")], 2);
}

#[test]
fn streamed_output_equals_the_whole_report_where_directories_interleave() {
    let root = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = root.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    let duplicate = "variable \"x\" {}\nvariable \"x\" {}\n";
    // The root's files sort around its `modules/` directory.
    write("a.tf", duplicate);
    write("modules/net/main.tf", duplicate);
    write("modules/net/inner/main.tf", duplicate);
    write("outputs.tf", duplicate);
    // `x` and `x-c`: "x-c/" sorts before "x/" as strings.
    write("x/main.tf", duplicate);
    write("x-c/main.tf", duplicate);
    write("x.d/main.tf", duplicate);
    write("clean/main.tf", "variable \"y\" {}\n");
    let args = [root.path().to_path_buf()];
    for jobs in [1, 2, 4] {
        both_ways(&args, jobs);
    }
    // Files given one by one, a bare name among them.
    both_ways(
        &[root.path().join("x/main.tf"), root.path().join("a.tf")],
        2,
    );
}

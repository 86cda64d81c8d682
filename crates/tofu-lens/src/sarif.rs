//! `check --format sarif`: the diagnostics as a SARIF 2.1.0 log, the format
//! GitHub code scanning and other code-scanning UIs read.
//!
//! It starts from [`render::flatten`], so files, positions and order are those
//! of the text and JSON formats. One run; `tool.driver.rules` lists every code
//! that appears (sorted by code), with the catalogue's explanation; each result
//! points at its rule by id and index. Columns are the renderers' columns,
//! which count Unicode scalar values, so the run says
//! `"columnKind": "unicodeCodePoints"` rather than converting to UTF-16 (which
//! only the LSP crate does). Paths become URI references: relative ones keep
//! the form the text format prints (minus a leading `./`), absolute ones become
//! `file://` URIs, and bytes a URI may not hold are percent-encoded.
//!
//! Left out: `informationUri` (the project has no public address yet),
//! `invocations`, and artifact contents.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::check::CheckReport;
use crate::render::{self, FixOut, FlatDiagnostic, Range};

/// The SARIF log of `check --format sarif`, pretty-printed.
pub fn sarif(report: &CheckReport) -> String {
    serde_json::to_string_pretty(&log(&render::flatten(report))).unwrap_or_else(|_| "{}".to_owned())
}

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    column_kind: &'static str,
    results: Vec<ResultOut>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Message,
    full_description: Message,
    default_configuration: RuleConfiguration,
}

#[derive(Serialize)]
struct RuleConfiguration {
    level: &'static str,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultOut {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: Vec<LocationOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<LocationOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<FixSarif>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LocationOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Message>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FixSarif {
    description: Message,
    artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: Region,
    inserted_content: InsertedContent,
}

#[derive(Serialize)]
struct InsertedContent {
    text: String,
}

fn log(flat: &[FlatDiagnostic]) -> Log {
    // Every code that appears, sorted, with its index in `rules`.
    let rule_index: BTreeMap<&'static str, usize> = {
        let mut codes: Vec<&'static str> = flat.iter().map(|d| d.code).collect();
        codes.sort_unstable();
        codes.dedup();
        codes.into_iter().enumerate().map(|(i, c)| (c, i)).collect()
    };
    let rules = rule_index.keys().copied().map(rule).collect();
    let results = flat
        .iter()
        .map(|diagnostic| result(diagnostic, rule_index.get(diagnostic.code).copied()))
        .collect();
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "tofu-lens",
                    version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            column_kind: "unicodeCodePoints",
            results,
        }],
    }
}

fn rule(code: &'static str) -> Rule {
    let catalogued = tofu_diagnostics::catalogue::code_named(code);
    let explanation = catalogued.map_or("", tofu_diagnostics::catalogue::explanation);
    // The first sentence of the explanation is the short description.
    let short = explanation
        .split_once(". ")
        .map_or(explanation, |(first, _)| first)
        .trim_end_matches('.');
    Rule {
        id: code,
        short_description: Message {
            text: if short.is_empty() {
                code.to_owned()
            } else {
                format!("{short}.")
            },
        },
        full_description: Message {
            text: if explanation.is_empty() {
                code.to_owned()
            } else {
                explanation.to_owned()
            },
        },
        default_configuration: RuleConfiguration {
            level: catalogued.map_or("warning", |code| level(code.default_severity().as_str())),
        },
    }
}

/// SARIF has three levels of problem; info and hint are notes.
fn level(severity: &str) -> &'static str {
    match severity {
        "error" => "error",
        "warning" => "warning",
        _ => "note",
    }
}

fn result(diagnostic: &FlatDiagnostic, rule_index: Option<usize>) -> ResultOut {
    let text = if diagnostic.detail.is_empty() {
        diagnostic.summary.clone()
    } else {
        format!("{}\n{}", diagnostic.summary, diagnostic.detail)
    };
    ResultOut {
        rule_id: diagnostic.code,
        rule_index: rule_index.unwrap_or_default(),
        level: level(diagnostic.severity),
        message: Message { text },
        locations: vec![LocationOut {
            id: None,
            physical_location: physical_location(&diagnostic.file, diagnostic.range),
            message: None,
        }],
        related_locations: diagnostic
            .related
            .iter()
            .enumerate()
            .map(|(id, related)| LocationOut {
                id: Some(id),
                physical_location: physical_location(&related.file, related.range),
                message: Some(Message {
                    text: related.message.clone(),
                }),
            })
            .collect(),
        fixes: diagnostic.fix.as_ref().and_then(fix).into_iter().collect(),
    }
}

fn physical_location(file: &str, range: Option<Range>) -> PhysicalLocation {
    PhysicalLocation {
        artifact_location: ArtifactLocation { uri: uri(file) },
        region: range.map(region),
    }
}

fn region(range: Range) -> Region {
    Region {
        start_line: range.start.line,
        start_column: range.start.column,
        end_line: range.end.line,
        end_column: range.end.column,
    }
}

/// The fix as artifact changes, one per file in the order of first edit; `None`
/// when an edit's place cannot be resolved. A file the fix creates is an
/// insertion at the start of that (new) file.
fn fix(fix: &FixOut) -> Option<FixSarif> {
    let mut changes: Vec<ArtifactChange> = Vec::new();
    let mut add = |file: &str, replacement: Replacement| {
        let uri = uri(file);
        match changes
            .iter_mut()
            .find(|change| change.artifact_location.uri == uri)
        {
            Some(change) => change.replacements.push(replacement),
            None => changes.push(ArtifactChange {
                artifact_location: ArtifactLocation { uri },
                replacements: vec![replacement],
            }),
        }
    };
    for edit in &fix.edits {
        add(
            &edit.file,
            Replacement {
                deleted_region: region(edit.range?),
                inserted_content: InsertedContent {
                    text: edit.new_text.clone(),
                },
            },
        );
    }
    for new_file in &fix.new_files {
        add(
            &new_file.file,
            Replacement {
                deleted_region: Region {
                    start_line: 1,
                    start_column: 1,
                    end_line: 1,
                    end_column: 1,
                },
                inserted_content: InsertedContent {
                    text: new_file.text.clone(),
                },
            },
        );
    }
    Some(FixSarif {
        description: Message {
            text: fix.title.clone(),
        },
        artifact_changes: changes,
    })
}

/// A path as printed by the text format, as a URI reference: forward slashes,
/// no leading `./`, `file://` for absolute paths, and everything outside
/// RFC 3986's unreserved characters, `/` and a few safe sub-delimiters
/// percent-encoded (spaces, `%`, `#`, `?`, non-ASCII).
fn uri(path: &str) -> String {
    let slashed = if cfg!(windows) {
        path.replace('\\', "/")
    } else {
        path.to_owned()
    };
    let mut relative = slashed.as_str();
    while let Some(rest) = relative.strip_prefix("./") {
        relative = rest.trim_start_matches('/');
    }
    let absolute = Path::new(path).is_absolute();
    let mut out = String::with_capacity(relative.len() + 8);
    if absolute {
        out.push_str("file://");
        if !relative.starts_with('/') {
            // A Windows drive path (`C:/x`) gets the empty authority's slash.
            out.push('/');
        }
    }
    for byte in relative.bytes() {
        let keep = byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/' | b'!' | b'$' | b'&')
            || matches!(byte, b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=')
            || (absolute && byte == b':' && cfg!(windows));
        if keep {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    if out.is_empty() {
        // `check main.tf` on a directory-level diagnostic: the current directory.
        out.push_str("./");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("./main.tf"), "main.tf");
        assert_eq!(uri("examples/overrides/a.tf"), "examples/overrides/a.tf");
        assert_eq!(uri("../x/main.tf"), "../x/main.tf");
        assert_eq!(uri("a dir/ü#1.tf"), "a%20dir/%C3%BC%231.tf");
        assert_eq!(uri("."), ".");
        assert_eq!(uri(""), "./");
        if cfg!(unix) {
            assert_eq!(uri("/abs/main.tf"), "file:///abs/main.tf");
            assert_eq!(uri("/abs/50%.tf"), "file:///abs/50%25.tf");
        }
    }
}

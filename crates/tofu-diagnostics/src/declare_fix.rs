//! The "Declare variable NAME" quick fix for a reference to an undeclared
//! input variable that has no "Did you mean" of its own: it adds
//! `variable "NAME" {}` where the module keeps its variables
//! (`variables.tf` if it has one, else the native file declaring the most
//! variables, else a new `variables.tf`), with `type` when the use makes it
//! obvious: `string` inside a template interpolation, `number` as a whole
//! `count`, `bool` as a conditional's condition.
//!
//! It needs the module's files, which the identity rule that reports the
//! diagnostic may not read, so the analysis adds it to the finished
//! diagnostics. Which diagnostics get it is data, not text: the rules that
//! report an undeclared input variable record the use
//! ([`UndeclaredVariableUse`], through their views), and the fix goes on the
//! reported diagnostic at that place that has no fix yet.

use rustc_hash::FxHashMap as HashMap;
use tofu_syntax::{Diagnostic, FileId, Fix, Location, TextRange};

use tofu_module::loaded::{FileRole, LoadedModule};

/// A reference to an input variable the module does not declare, at the
/// place the rule that reports it puts its diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UndeclaredVariableUse {
    pub(crate) at: Location,
    pub(crate) name: String,
}

/// Adds the fix to every reported diagnostic of an undeclared variable use
/// (`gather_uses`, asked only when some undeclared-reference diagnostic has
/// no fix) that has none, where the reference is written `var.NAME` (not in
/// a JSON string with escapes, whose range is the whole string).
pub(crate) fn add_fixes(
    module: &LoadedModule,
    gather_uses: impl FnOnce() -> Vec<UndeclaredVariableUse>,
    diagnostics: &mut [Diagnostic],
) {
    let wanted = |diagnostic: &Diagnostic| {
        diagnostic.code == crate::codes::UNDECLARED_REFERENCE && diagnostic.fix.is_none()
    };
    if !diagnostics.iter().any(wanted) {
        return;
    }
    let uses = gather_uses();
    let by_place: HashMap<Location, &str> = uses
        .iter()
        .map(|variable_use| (variable_use.at, variable_use.name.as_str()))
        .collect();
    let mut target = None;
    for diagnostic in diagnostics.iter_mut() {
        if !wanted(diagnostic) {
            continue;
        }
        let Some(&name) = by_place.get(&diagnostic.subject) else {
            continue;
        };
        let Some(range) = diagnostic.subject.range else {
            continue;
        };
        let Some(file) = module.file(diagnostic.subject.file) else {
            continue;
        };
        let written = range.slice(&file.text).strip_prefix("var.");
        if written != Some(name) || !tofu_module::names::is_identifier(name) {
            continue;
        }
        let type_line = match inferred_type(&file.text, range) {
            Some(type_name) => format!("\n  type = {type_name}\n"),
            None => String::new(),
        };
        let block = format!("variable \"{name}\" {{{type_line}}}\n");
        let target = target.get_or_insert_with(|| Target::of(module));
        let title = format!("Declare variable \"{name}\"");
        diagnostic.fix = Some(match target {
            Target::Append {
                file,
                end,
                separator,
            } => Fix::new(title).with_edit(
                *file,
                TextRange::empty(*end),
                format!("{separator}{block}"),
            ),
            Target::Create => Fix::new(format!("{title} in a new variables.tf"))
                .with_new_file("variables.tf", block),
            Target::Nowhere => continue,
        });
    }
}

/// Where new variable blocks go.
enum Target {
    Append {
        file: FileId,
        end: u32,
        /// What separates the new block from the file's last line.
        separator: &'static str,
    },
    Create,
    Nowhere,
}

impl Target {
    fn of(module: &LoadedModule) -> Target {
        let native_primary = |id: &FileId| {
            module
                .file(*id)
                .is_some_and(|file| file.role == FileRole::Primary && !file.is_json())
        };
        let n_variables = |id: &FileId| {
            module
                .file(*id)
                .and_then(|file| file.source.as_ref())
                .map_or(0, |source| source.body.blocks_of_kind("variable").count())
        };
        let chosen = module
            .primary
            .iter()
            .filter(|id| native_primary(id))
            .find(|id| {
                module
                    .file(**id)
                    .is_some_and(|file| file.name == "variables.tf")
            })
            .or_else(|| {
                module
                    .primary
                    .iter()
                    .filter(|id| native_primary(id) && n_variables(id) > 0)
                    .max_by_key(|id| (n_variables(id), std::cmp::Reverse(**id)))
            });
        if let Some(&file_id) = chosen {
            let Some(file) = module.file(file_id) else {
                return Target::Nowhere;
            };
            let separator = if file.text.is_empty() || file.text.ends_with("\n\n") {
                ""
            } else if file.text.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            return Target::Append {
                file: file_id,
                end: tofu_syntax::text::to_u32(file.text.len()),
                separator,
            };
        }
        if module.files.iter().any(|file| file.name == "variables.tf") {
            Target::Nowhere
        } else {
            Target::Create
        }
    }
}

/// The type a use makes obvious, read from the text around the reference.
fn inferred_type(text: &str, range: TextRange) -> Option<&'static str> {
    let before = text.get(..range.start as usize)?;
    let after = text.get(range.end as usize..)?;
    let before_trimmed = before.trim_end_matches([' ', '\t']);
    let after_trimmed = after.trim_start_matches([' ', '\t']);
    if before_trimmed.ends_with("${") && after_trimmed.starts_with('}') {
        return Some("string");
    }
    if after_trimmed.starts_with('?') {
        return Some("bool");
    }
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let line_before = before.get(line_start..)?.trim();
    let rest_of_line = after.split('\n').next().unwrap_or_default().trim();
    let whole_count = line_before
        .strip_prefix("count")
        .is_some_and(|rest| rest.trim() == "=");
    if whole_count && (rest_of_line.is_empty() || rest_of_line.starts_with('#')) {
        return Some("number");
    }
    None
}

#[cfg(test)]
mod tests;
